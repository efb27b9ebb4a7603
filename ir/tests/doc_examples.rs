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

/// The example of docs/ir-text.md whose `module` line names `name`, as a
/// verified program.
fn example_program(name: &str) -> postc_ir::Program {
    let (line, text) = examples()
        .into_iter()
        .find(|(_, t)| t.lines().next() == Some(&format!("module {name}")[..]))
        .unwrap_or_else(|| panic!("no example `module {name}` in docs/ir-text.md"));
    let m = parse_str("ir-text.md", &text).unwrap_or_else(|d| panic!("example at line {line}: {d:?}"));
    let p = postc_ir::Program::from_module(m);
    let diags = postc_ir::verify::verify_program(&p);
    assert!(diags.is_empty(), "example at docs/ir-text.md:{line}: {diags:?}");
    p
}

/// The GPU built-ins' examples verify and do what their comments say when
/// the interpreter launches them.
#[test]
fn gpu_built_in_examples_run() {
    use postc_ir::interp::{Array, InterpOptions, Interpreter, Value};
    use postc_ir::{DType, EntityId, ModuleId};
    let m0 = ModuleId::new(0);
    let ints = |a: &Array| -> Vec<i128> {
        a.to_values().iter().map(|v| if let Value::Int(_, x) = v { *x } else { panic!("{v:?}") }).collect()
    };

    let p = example_program("gpu_shared");
    let x: Vec<Value> = (0..8).map(|i| Value::f64(i as f64)).collect();
    let y = Array::zeros(DType::Float64, &[8], false);
    let args = [Value::Array(Array::from_values(DType::Float64, &[8], &x)), Value::Array(y.clone())];
    Interpreter::new(&p, InterpOptions::default()).launch(m0, "reverse4", [2, 1, 1], [4, 1, 1], &args).unwrap();
    let want: Vec<Value> = [3, 2, 1, 0, 7, 6, 5, 4].iter().map(|i| Value::f64(*i as f64)).collect();
    assert_eq!(y.to_values(), want);

    let p = example_program("gpu_barrier");
    let (sq, out) = (Array::zeros(DType::Int64, &[5], false), Array::zeros(DType::Int64, &[5], false));
    let args = [Value::Array(sq.clone()), Value::Array(out.clone())];
    Interpreter::new(&p, InterpOptions::default()).launch(m0, "neighbours", [1, 1, 1], [5, 1, 1], &args).unwrap();
    assert_eq!(ints(&out), vec![1, 4, 9, 16, 0]);

    let p = example_program("gpu_atomic");
    let x: Vec<Value> =
        [1.5f32, -2.0, 0.0, 4.0, 0.25].iter().map(|v| Value::float(DType::Float32, *v as f64)).collect();
    let count = Array::from_values(DType::Int32, &[1], &[Value::Int(DType::Int32, 10)]);
    let total = Array::zeros(DType::Float32, &[1], false);
    let args = [
        Value::Array(Array::from_values(DType::Float32, &[5], &x)),
        Value::Array(count.clone()),
        Value::Array(total.clone()),
    ];
    Interpreter::new(&p, InterpOptions::default()).launch(m0, "positives", [2, 1, 1], [4, 1, 1], &args).unwrap();
    assert_eq!(ints(&count), vec![13]);
    assert_eq!(total.to_values(), vec![Value::float(DType::Float32, 5.75)]);
}
