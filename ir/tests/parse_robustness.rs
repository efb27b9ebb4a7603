//! The parser never panics and stays linear on any bytes: truncations and
//! mutations of the documented examples, invalid UTF-8, huge literals, long
//! lines, deep parentheses and very large files. Whatever parses prints to
//! a fixed point.

use postc_ir::parse::{parse_module, parse_str};
use postc_ir::print::print_module;

fn examples() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ir-text.md");
    let doc = std::fs::read_to_string(path).expect("docs/ir-text.md");
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        match &mut cur {
            None if line.trim() == "```pir" => cur = Some(String::new()),
            Some(_) if line.trim() == "```" => out.extend(cur.take()),
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    assert!(!out.is_empty());
    out
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Parses arbitrary bytes; when they parse, printing must be a fixed point.
fn check(bytes: &[u8]) {
    if let Ok(m) = parse_module("fuzz.pir", bytes) {
        let p1 = print_module(&m);
        let m2 = parse_str("p1.pir", &p1).unwrap_or_else(|d| panic!("printed text does not parse: {d:?}\n{p1}"));
        assert_eq!(m.structural_diff(&m2), None, "{p1}");
        let p2 = print_module(&m2);
        assert_eq!(p1, p2, "input:\n{}", String::from_utf8_lossy(bytes));
    }
}

#[test]
fn truncated_prefixes() {
    for ex in examples() {
        let b = ex.as_bytes();
        for n in 0..=b.len() {
            check(&b[..n]);
        }
    }
}

#[test]
fn random_mutations() {
    const INTERESTING: &[&[u8]] = &[
        b"%",
        b"(",
        b")",
        b"[",
        b"]",
        b"\"",
        b"\\",
        b"\n",
        b":",
        b",",
        b"!loc ",
        b"!weights 1:2",
        b"-",
        b"nan:0x",
        b"e",
        b"j",
        b"&",
        b"[]",
        b"Shape[",
        b"}",
        b"{",
        b"entry:\n",
        b"\xff",
        b"\xc3",
        b"\xe9",
        b"9999999999999999999999",
        b" ",
        b";",
        b"b\"",
        b"\\u{",
        b"?",
        b"func ",
        b"%x",
        b"const ",
    ];
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for ex in examples() {
        for _ in 0..1500 {
            let mut b = ex.clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(b.len() + 1);
                match rng.below(4) {
                    0 if at < b.len() => b[at] = rng.next() as u8,
                    1 if at < b.len() => {
                        b.remove(at);
                    }
                    2 => {
                        let ins = INTERESTING[rng.below(INTERESTING.len())];
                        b.splice(at..at, ins.iter().copied());
                    }
                    _ => {
                        // Duplicate a slice.
                        let end = (at + rng.below(40)).min(b.len());
                        let piece = b[at..end].to_vec();
                        let to = rng.below(b.len() + 1);
                        b.splice(to..to, piece);
                    }
                }
            }
            check(&b);
        }
    }
}

#[test]
fn invalid_utf8_anywhere() {
    for ex in examples() {
        for at in [0, 1, ex.len() / 2, ex.len()] {
            for bad in [&b"\xff"[..], b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"] {
                let mut b = ex.clone().into_bytes();
                b.splice(at..at, bad.iter().copied());
                let d = parse_module("bad.pir", &b).unwrap_err();
                assert_eq!(d.len(), 1);
                assert!(d[0].message.starts_with("invalid UTF-8"), "{}", d[0]);
            }
        }
    }
}

fn in_function(body: &str) -> String {
    format!("module t\nfunc f(%a: Int64) {{\nentry:\n{body}\n  return\n}}\n")
}

#[test]
fn huge_literals_and_long_lines() {
    let digits = "7".repeat(1 << 20);
    for ty in ["Int64", "UInt8", "Float16", "Float32", "Float64", "Complex128"] {
        let _ = parse_str("h.pir", &in_function(&format!("  %x: {ty} = const {digits}")));
        let _ = parse_str("h.pir", &in_function(&format!("  %x: {ty} = const 0.{digits}e-{digits}")));
        let _ = parse_str("h.pir", &in_function(&format!("  %x: {ty} = const nan:0x{digits}")));
    }
    let d = parse_str("h.pir", &in_function(&format!("  %x: Int64 = const {digits}"))).unwrap_err();
    assert!(d[0].message.len() < 200, "messages stay short");
    // A long but valid float literal is read correctly.
    let m = parse_str("h.pir", &in_function(&format!("  %x: Float64 = const 0.{digits}"))).unwrap();
    assert_eq!(m.num_insts(), 3);
    // Long names, long strings and a long argument list.
    let name = "n".repeat(1 << 20);
    let m = parse_str("h.pir", &in_function(&format!("  %{name}: Str = const \"{name}\""))).unwrap();
    assert_eq!(print_module(&m).len() > 2 << 20, true);
    let args = vec!["%a"; 100_000].join(", ");
    parse_str("h.pir", &in_function(&format!("  call g({args})"))).unwrap();
    let _ = parse_str("h.pir", &format!("module t\nexport {}\n", vec!["x"; 100_000].join(",")));
    let _ = parse_str("h.pir", &"x".repeat(1 << 22));
    let _ = parse_str("h.pir", &"\n".repeat(1 << 20));
    let _ = parse_str("h.pir", &";".repeat(1 << 22));
}

#[test]
fn deep_parentheses() {
    let deep = "(".repeat(10_000);
    let close = ")".repeat(10_000);
    for src in [
        in_function(&format!("  %x: Complex128 = const {deep}1+2j{close}")),
        in_function(&format!("  %x: Int64 = call g{deep}%a{close}")),
        format!("module t\nfunc f{deep}{close} {{\n}}\n"),
        format!("module t\nufunc f(%a: Float64) \"{deep}n{close}->()\" {{\n}}\n"),
        format!("{deep}{close}"),
        in_function(&format!("  %x: Float64[]Shape{}1{} = alloc %a", "[".repeat(10_000), "]".repeat(10_000))),
    ] {
        assert!(parse_str("deep.pir", &src).is_err());
    }
}

/// A generated module of `n` small functions of ~10 lines each.
fn big_source(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 32);
    s.push_str("module big\n");
    let mut f = 0;
    while s.len() / 30 < lines {
        s.push_str(&format!("\nfunc f{f}(%a: Int64, %x: Float64[]) -> Int64 {{\nentry:\n"));
        s.push_str("  %one: Int64 = const 1\n  %b: Int64 = add %a, %one\n  %c: Int64 = mul %b, %b\n");
        s.push_str("  %v: Float64 = index.load %x[%c]\n  %big: Bool = gt %c, %a\n  condbr %big, t, e !weights 3:1\n");
        s.push_str("t:\n  return %c\ne:\n  return %b !loc \"k.py\":3:4\n}\n");
        f += 1;
    }
    s
}

/// A 200,000-line file parses and prints back whole. Parsing speed is a
/// figure of the `ir-speed` bench (docs/performance.md), not an assertion
/// here.
#[test]
fn large_files_parse_and_print_back() {
    let src = big_source(200_000);
    let m = parse_str("big.pir", &src).unwrap();
    assert!(m.functions.len() > 10_000);
    assert_eq!(print_module(&m).len(), src.len());
}

#[test]
fn one_function_of_200k_blocks_all_forward_references() {
    let n = 200_000;
    let mut s = String::with_capacity(n * 40);
    s.push_str("module big\nfunc f(%a: Int64) -> Int64 {\nentry:\n  br last\n");
    for i in 0..n {
        // Each line uses the next one's value: all forward references.
        s.push_str(&format!("b{i}:\n  %v{i}: Int64 = add %v{}, %a\n", i + 1));
    }
    s.push_str(&format!("last:\n  %v{n}: Int64 = const 0\n  return %v0\n}}\n"));
    let m = parse_str("f.pir", &s).unwrap();
    assert_eq!(m.num_insts(), n + 4);
}
