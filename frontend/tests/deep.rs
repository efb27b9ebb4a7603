//! Deep and long programs lower on a small stack: every walk of the syntax
//! tree either loops or grows its stack on the heap, and the tree is taken
//! apart without recursion, so what the frontend can take is bounded by
//! memory, not by the stack of the thread that calls it (the Python package
//! calls the compiler on its caller's thread). Each program is lowered on a
//! thread of 256 KiB, verified, and run in the interpreter against the
//! value CPython gives.

use postc_ir::interp::{Array, InterpOptions, Interpreter, Value};
use postc_ir::{DType, ModuleId, Program};

/// The stack of the threads the programs are lowered on: a few frames of
/// each walk, nothing proportional to a program's depth.
const SMALL_STACK: usize = 256 * 1024;

/// Runs `f` on a thread with [`SMALL_STACK`] bytes of stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(SMALL_STACK).spawn(f).expect("a thread").join().expect("no panic")
}

/// A scalar result, out of the thread that computed it.
#[derive(Debug, PartialEq)]
enum Out {
    Int(i128),
    Float(f64),
    Bool(bool),
}

/// Lowers and verifies `text` on a small stack, then calls `f` with
/// `args` in the interpreter (on the same thread: the program and its
/// values are not `Send`) and gives its result.
fn lower_and_call(text: String, args: impl FnOnce() -> Vec<Value> + Send + 'static) -> Out {
    on_small_stack(move || {
        let program: Program =
            postc_frontend::lower_source("deep.py", &text).unwrap_or_else(|d| panic!("does not lower: {d:?}"));
        let diags = postc_ir::verify::verify_program(&program);
        assert!(diags.is_empty(), "{diags:?}");
        let mut interp = Interpreter::new(&program, InterpOptions { overflow_checks: true, fuel: Some(10_000_000) });
        match interp.call(ModuleId::from_u32(0), "f", &args()).unwrap_or_else(|t| panic!("traps: {t:?}")) {
            Some(Value::Int(_, i)) => Out::Int(i),
            Some(Value::Float(_, x)) => Out::Float(x),
            Some(Value::Bool(b)) => Out::Bool(b),
            other => panic!("not a scalar: {other:?}"),
        }
    })
}

fn int(v: Out) -> i128 {
    match v {
        Out::Int(i) => i,
        other => panic!("not an integer: {other:?}"),
    }
}

const HEADER: &str = "from postyp import Float64, Int64\n\n\n";

/// An `if`/`elif` chain of 70,000 arms (flat in the tree: the arms are
/// lowered in a loop, and the joins closed in another).
#[test]
fn an_elif_chain_of_70000_arms() {
    let n = 70_000;
    let mut t = format!("{HEADER}def f(x: Int64) -> Int64:\n    if x == 0:\n        return 0\n");
    for i in 1..n {
        t.push_str(&format!("    elif x == {i}:\n        return {}\n", 2 * i));
    }
    t.push_str("    else:\n        return -1\n");
    assert_eq!(int(lower_and_call(t.clone(), || vec![Value::Int(DType::Int64, 69_998)])), 139_996);
    assert_eq!(int(lower_and_call(t, || vec![Value::Int(DType::Int64, 70_000)])), -1);
}

/// `if`s nested 3,000 deep (the source grows as the square of the depth:
/// 4.5 MB), each adding to a local the next reads.
#[test]
fn ifs_nested_3000_deep() {
    let n = 3_000;
    let mut t = format!("{HEADER}def f(x: Int64) -> Int64:\n    s = 0\n");
    for i in 0..n {
        let pad = " ".repeat(4 + i);
        t.push_str(&format!("{pad}if x > {i}:\n{pad} s = s + 1\n"));
    }
    t.push_str("    return s\n");
    assert_eq!(int(lower_and_call(t.clone(), || vec![Value::Int(DType::Int64, 1_234)])), 1_234);
    assert_eq!(int(lower_and_call(t, || vec![Value::Int(DType::Int64, 10_000)])), 3_000);
}

/// `a[a[...a[0]...]]` 10,000 deep over `a[i] = i + 1` (the last element
/// is 0, so the chain cycles).
#[test]
fn subscripts_nested_10000_deep() {
    let n = 10_000;
    let t = format!("{HEADER}def f(a: Int64[:]) -> Int64:\n    return {}0{}\n", "a[".repeat(n), "]".repeat(n));
    let args = || {
        let len = 7;
        let vals: Vec<Value> = (0..len).map(|i| Value::Int(DType::Int64, (i + 1) % len)).collect();
        vec![Value::Array(Array::from_values(DType::Int64, &[len as usize], &vals))]
    };
    // a^n(0) = n mod 7.
    assert_eq!(int(lower_and_call(t, args)), (n % 7) as i128);
}

/// A conditional expression of 10,000 arms (`0 if x == 0 else 1 if x ==
/// 1 else ...`, nested 10,000 deep in the tree).
#[test]
fn a_conditional_expression_of_10000_arms() {
    let n = 10_000;
    let arms: String = (0..n).map(|i| format!("{} if x == {i} else ", 3 * i)).collect();
    let t = format!("{HEADER}def f(x: Int64) -> Int64:\n    return {arms}-1\n");
    assert_eq!(int(lower_and_call(t.clone(), || vec![Value::Int(DType::Int64, 9_999)])), 29_997);
    assert_eq!(int(lower_and_call(t, move || vec![Value::Int(DType::Int64, n)])), -1);
}

/// `x ** x ** ... ** x` of 2,000 terms (right-associative: 2,000 deep).
#[test]
fn a_power_tower_of_2000_terms() {
    let n = 2_000;
    let t = format!("{HEADER}def f(x: Float64) -> Float64:\n    return {}\n", vec!["x"; n].join(" ** "));
    assert_eq!(lower_and_call(t, || vec![Value::Float(DType::Float64, 1.0)]), Out::Float(1.0));
    let t = format!("{HEADER}def f(x: Int64) -> Int64:\n    return {}\n", vec!["x"; n].join(" ** "));
    assert_eq!(int(lower_and_call(t, || vec![Value::Int(DType::Int64, 1)])), 1);
}

/// `x > 0 and x > 0 and ...` of 100,000 terms, and a sum of as many, a
/// chain of 50,000 unary minuses and 3,000 parentheses.
#[test]
fn long_chains_of_operators() {
    let n = 100_000;
    let t = format!("{HEADER}def f(x: Int64) -> bool:\n    return {}\n", vec!["x > 0"; n].join(" and "));
    assert_eq!(lower_and_call(t, || vec![Value::Int(DType::Int64, 3)]), Out::Bool(true));
    let t = format!("{HEADER}def f(x: Int64) -> Int64:\n    return {}\n", vec!["x"; n].join(" + "));
    assert_eq!(int(lower_and_call(t, || vec![Value::Int(DType::Int64, 3)])), 300_000);
    let t = format!("{HEADER}def f(x: Int64) -> Int64:\n    return {}x\n", "-".repeat(50_001));
    assert_eq!(int(lower_and_call(t, || vec![Value::Int(DType::Int64, 3)])), -3);
    let t = format!("{HEADER}def f(x: Int64) -> Int64:\n    return {}x{}\n", "(".repeat(3_000), ")".repeat(3_000));
    assert_eq!(int(lower_and_call(t, || vec![Value::Int(DType::Int64, 3)])), 3);
}

/// A chain of aliases that comes back to a name (`a = f; b = a; a = b`)
/// names `f`, as in Python, and a call through it runs `f`.
#[test]
fn aliases_take_the_function_a_name_holds() {
    let t = format!(
        "{HEADER}def g(x: Int64) -> Int64:\n    return 2 * x\n\n\na = g\nb = a\na = b\ng = g\n\n\n\
         def f(x: Int64) -> Int64:\n    return a(x) + b(x) + g(x)\n"
    );
    assert_eq!(int(lower_and_call(t, || vec![Value::Int(DType::Int64, 5)])), 30);
}

/// A syntax error deep inside a deep program is a located diagnostic.
#[test]
fn an_error_deep_inside_is_located() {
    let n = 20_000;
    let t = format!("{HEADER}def f(x: Int64) -> Int64:\n    return {}y{}\n", "(".repeat(n), ")".repeat(n));
    let diags = on_small_stack(move || match postc_frontend::lower_source("deep.py", &t) {
        Ok(_) => panic!("an undefined name lowers"),
        Err(d) => d,
    });
    let d = diags.iter().find(|d| d.message.contains("undefined name `y`")).unwrap_or_else(|| panic!("{diags:?}"));
    let at = d.pos.as_ref().expect("located");
    assert_eq!((at.line, at.col), (5, 12 + n as u32));
}
