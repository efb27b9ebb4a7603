//! Every ```pir block of docs/ir-text.md parses, and printing it is a fixed
//! point that re-parses to the same module.

use postc_ir::parse::parse_str;
use postc_ir::print::print_module;

fn examples() -> Vec<(usize, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ir-text.md");
    let doc = std::fs::read_to_string(path).expect("docs/ir-text.md");
    let mut out = Vec::new();
    let mut cur: Option<(usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        match &mut cur {
            None if line.trim() == "```pir" => cur = Some((i + 2, String::new())),
            Some((_, text)) if line.trim() == "```" => {
                let text = std::mem::take(text);
                out.push((cur.take().map_or(0, |c| c.0), text));
            }
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn doc_examples_parse_and_round_trip() {
    let ex = examples();
    assert!(ex.len() >= 6, "found only {} examples", ex.len());
    for (line, text) in ex {
        let m = match parse_str("ir-text.md", &text) {
            Ok(m) => m,
            Err(d) => panic!("example at docs/ir-text.md:{line} does not parse: {d:?}"),
        };
        let p1 = print_module(&m);
        let m2 = parse_str("printed.pir", &p1).unwrap_or_else(|d| panic!("reprint of example {line}: {d:?}\n{p1}"));
        if let Some(diff) = m.structural_diff(&m2) {
            panic!("example at line {line} changes through print/parse: {diff}\n{p1}");
        }
        let p2 = print_module(&m2);
        assert_eq!(p1, p2, "printing is not a fixed point for the example at line {line}");
    }
}
