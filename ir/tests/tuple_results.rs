//! Functions with a tuple result: the text format round-trips, the
//! verifier keeps tuples between `tuple`/`call` and `return`/`extract`,
//! and the interpreter returns every element.

use postc_ir::interp::{Array, InterpOptions, Interpreter, Value};
use postc_ir::{DType, Program};

/// `stats` returns the sum of an array's first and last elements, its
/// length and the array itself;
/// `mean` calls it and reads two of the elements.
const STATS: &str = r#"module t

func stats(%a: Float64[]Shape[?]) -> (Float64, Int64, Float64[]Shape[?]) {
entry:
  %n: Int64 = dim %a, 0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  %k: Int64 = sub %n, %one
  %x: Float64 = index.load %a[%i0]
  %y: Float64 = index.load %a[%k]
  %s: Float64 = add %x, %y
  %r: (Float64, Int64, Float64[]Shape[?]) = tuple %s, %n, %a
  return %r
}

func mean(%a: Float64[]Shape[?]) -> Float64 {
entry:
  %t: (Float64, Int64, Float64[]Shape[?]) = call stats(%a)
  %s: Float64 = extract %t, 0
  %n: Int64 = extract %t, 1
  %nf: Float64 = cast %n
  %m: Float64 = div %s, %nf
  return %m
}
"#;

fn module(src: &str) -> postc_ir::Module {
    postc_ir::parse::parse_module("t.pir", src.as_bytes()).unwrap_or_else(|d| panic!("{d:?}"))
}

/// The verifier's messages for `src`.
fn messages(src: &str) -> Vec<String> {
    postc_ir::verify::verify_module(&module(src)).iter().map(|d| d.message.clone()).collect()
}

fn floats(xs: &[f64]) -> Value {
    let values: Vec<Value> = xs.iter().map(|&x| Value::f64(x)).collect();
    Value::Array(Array::from_values(DType::Float64, &[xs.len()], &values))
}

#[test]
fn tuple_results_print_as_they_parse_and_verify() {
    let m = module(STATS);
    assert_eq!(postc_ir::print::print_module(&m), STATS);
    assert!(postc_ir::verify::verify_module(&m).is_empty());
}

#[test]
fn operand_walks_see_the_elements_and_the_tuple() {
    use postc_ir::body::InstData;
    let m = module(STATS);
    let mut seen = 0;
    for f in m.functions.iter() {
        for v in f.body.tags.ids() {
            let want: Vec<_> = match f.body.inst(v) {
                InstData::Tuple { elements } => elements.iter().collect(),
                InstData::Extract { tuple, .. } => vec![tuple],
                _ => continue,
            };
            assert_eq!(f.body.operands(v).to_vec(), want);
            seen += 1;
        }
    }
    assert_eq!(seen, 3);
}

#[test]
fn the_interpreter_returns_every_element_and_calls_extract_them() {
    let p = Program::from_module(module(STATS));
    let t = p.get_module("t").unwrap();
    let a = floats(&[1.5, 2.0, 4.5]);
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let got = it.call(t, "stats", std::slice::from_ref(&a)).unwrap().unwrap();
    assert_eq!(got, Value::Tuple(vec![Value::f64(6.0), Value::i64(3), a.clone()]));
    assert_eq!(got.to_string(), "(6.0, 3, [1.5, 2.0, 4.5])");
    let mean = it.call(t, "mean", &[a]).unwrap().unwrap();
    assert_eq!(mean, Value::f64(2.0));
}

/// `STATS` with one line replaced.
fn stats_with(old: &str, new: &str) -> String {
    assert!(STATS.contains(old), "{old}");
    STATS.replacen(old, new, 1)
}

#[test]
fn a_returned_tuple_matches_the_result_type() {
    let src = stats_with(
        "%r: (Float64, Int64, Float64[]Shape[?]) = tuple %s, %n, %a",
        "%r: (Float64, Int64, Float64[]Shape[?]) = tuple %s, %x, %a",
    );
    assert_eq!(messages(&src), ["`tuple` %r: element 1 (%x) has type Float64, expected Int64"]);
    let src =
        stats_with("%r: (Float64, Int64, Float64[]Shape[?]) = tuple %s, %n, %a", "%r: (Float64, Int64) = tuple %s, %n");
    assert_eq!(
        messages(&src),
        ["`return`: value type is (Float64, Int64), expected (Float64, Int64, Float64[]Shape[?])"]
    );
}

#[test]
fn extract_reads_an_element_of_its_type_in_range() {
    let src = STATS.replacen("%n: Int64 = extract %t, 1", "%n: Int64 = extract %t, 3", 1);
    assert_eq!(messages(&src), ["`extract` %n: element 3 is out of range for (Float64, Int64, Float64[]Shape[?])"]);
    let src = STATS.replacen("%n: Int64 = extract %t, 1", "%n: Int64 = extract %t, 0", 1);
    assert_eq!(messages(&src), ["`extract` %n: result type is Int64, expected Float64"]);
    let src = STATS.replacen("%s: Float64 = extract %t, 0", "%s: Float64 = extract %a, 0", 1);
    assert_eq!(messages(&src), ["`extract` %s: operand %a must be a tuple, got Float64[]Shape[?]"]);
}

#[test]
fn a_tuple_goes_nowhere_but_extract_and_return() {
    // Used as a number.
    let src = STATS.replacen("%nf: Float64 = cast %n", "%nf: Float64 = cast %t", 1);
    assert_eq!(
        messages(&src),
        ["`cast` %nf: operand %t is a tuple ((Float64, Int64, Float64[]Shape[?])): only `extract` and `return` take one"]
    );
    // Made by anything but `tuple` and `call`.
    let src = STATS.replacen(
        "%nf: Float64 = cast %n",
        "%nf: Float64 = cast %n\n  let %keep: (Float64, Int64, Float64[]Shape[?]) = %t",
        1,
    );
    let msgs = messages(&src);
    assert!(msgs.iter().any(|m| m.contains("is a tuple: only `tuple` and `call` make one")), "{msgs:?}");
}

#[test]
fn tuples_are_results_of_plain_functions_only() {
    let src = "module t\n\nfunc f(%p: (Float64, Int64)) {\nentry:\n  return\n}\n";
    assert_eq!(messages(src), ["parameter %p of function `f` cannot be a tuple ((Float64, Int64))"]);
    let src = "module t\n\nfunc f(%x: Float64) -> (Float64, Float64) gpu {\nentry:\n  %r: (Float64, Float64) = tuple %x, %x\n  return %r\n}\n";
    assert_eq!(messages(src), ["gpu function `f` cannot return a tuple ((Float64, Float64))"]);
}

#[test]
fn a_tuple_type_holds_no_output_and_ends_with_a_parenthesis() {
    let err = |src: &str| match postc_ir::parse::parse_module("t.pir", src.as_bytes()) {
        Ok(_) => panic!("parsed: {src}"),
        Err(d) => d[0].message.clone(),
    };
    assert_eq!(
        err("module t\n\nfunc f() -> (&Float64[], Int64) {\nentry:\n  unreachable\n}\n"),
        "a tuple element cannot be an output (`&`)"
    );
    let msg = err("module t\n\nfunc f() -> (Float64 Int64) {\nentry:\n  unreachable\n}\n");
    assert!(msg.contains("`,` or `)` in a tuple type"), "{msg}");
}
