//! `legalize` against the reference interpreter on the edge cases of what
//! it writes out: float `//` and `%` in every float dtype, complex `/` and
//! `**` in both complex dtypes, and float→integer casts into every integer
//! dtype, on signed zeros, infinities, NaN, huge, tiny and subnormal
//! operands and the bounds of each dtype. The interpreter runs the
//! original instruction and the legalized module (with and without a
//! backend's saturating casts); every result must be the same bits (any
//! NaN equal to any NaN). The helpers' agreement with CPython itself is
//! `tests/py/float_edges.py`, through every backend.

use postc_ir::interp::{InterpOptions, Interpreter, Value};
use postc_ir::{DType, Module, ModuleId, Program};
use postc_passes::legalize::Features;
use postc_passes::{parse_pipeline, PassOptions, RunOptions};

fn dtypes(kind: fn(DType) -> bool) -> Vec<DType> {
    DType::ALL.into_iter().filter(|&d| kind(d)).collect()
}

/// Operands: zeros of both signs, units, fractions, the float limits,
/// subnormals, the integer bounds and their neighbours.
fn edge_values() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        0.1,
        0.3,
        3.0,
        -7.5,
        7.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        1e308,
        -1e308,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        1e-300,
        65504.0,
        65520.0,
        1e30,
        2f64.powi(53) + 2.0,
    ];
    for bits in [8, 16, 32, 64] {
        let p = 2f64.powi(bits);
        let h = 2f64.powi(bits - 1);
        v.extend([p, p - 1.0, p + 1.0, -h, -h - 1.0, h - 1.0, h, -h + 0.5, h - 0.5, p - 0.5, -1.5, -0.9]);
    }
    v
}

/// `func NAME(PARAMS) -> RESULT { %r = BODY; return %r }`.
fn function(name: &str, params: &str, result: DType, body: &str) -> String {
    format!("func {name}({params}) -> {result} {{\nentry:\n  %r: {result} = {body}\n  return %r\n}}\n")
}

/// One function per operation and dtype.
fn module() -> Module {
    let mut text = String::from("module edges\n");
    let binary =
        |op: &str, d: DType| function(&format!("{op}_{d}"), &format!("%x: {d}, %y: {d}"), d, &format!("{op} %x, %y"));
    for d in dtypes(DType::is_float) {
        text.push_str(&binary("fdiv", d));
        text.push_str(&binary("mod", d));
        for to in dtypes(DType::is_int) {
            text.push_str(&function(&format!("cast_{d}_{to}"), &format!("%x: {d}"), to, "cast %x"));
        }
    }
    for d in dtypes(DType::is_complex) {
        text.push_str(&binary("div", d));
        text.push_str(&binary("pow", d));
    }
    for to in dtypes(DType::is_int) {
        text.push_str(&function(&format!("cast_c_{to}"), "%x: Complex128", to, "cast %x"));
    }
    postc_ir::parse::parse_str("edges.pir", &text).expect("the edge module parses")
}

fn legalized(m: &Module, features: Features) -> Program {
    let mut out = m.clone();
    let pm = parse_pipeline("insert-checks,legalize").expect("a pipeline");
    let options = PassOptions { features, ..PassOptions::for_level(2) };
    pm.run(&mut out, &options, &RunOptions { verify_each: true, ..RunOptions::default() }).expect("verifies");
    Program::from_module(out)
}

/// A result as text: floats by their bits, any NaN as `nan`; a panic by
/// its message.
fn outcome(p: &Program, func: &str, args: &[Value]) -> String {
    let f = |x: f64| if x.is_nan() { "nan".to_owned() } else { format!("{:#x}", x.to_bits()) };
    let mut interp = Interpreter::new(p, InterpOptions { overflow_checks: false, fuel: Some(1_000_000) });
    match interp.call(ModuleId::from_u32(0), func, args) {
        Ok(Some(Value::Float(d, x))) => format!("{d} {}", f(x)),
        Ok(Some(Value::Complex(d, re, im))) => format!("{d} {} {}", f(re), f(im)),
        Ok(v) => format!("{v:?}"),
        Err(t) => format!("panic {}", t.message),
    }
}

#[test]
fn legalized_operations_keep_the_interpreters_results() {
    let m = module();
    let original = Program::from_module(m.clone());
    let variants = [
        ("every rewrite", legalized(&m, Features::NONE)),
        ("saturating casts native", legalized(&m, Features { saturating_casts: true })),
    ];
    let values = edge_values();
    let mut checked = 0usize;
    let mut failures = Vec::new();
    let mut check = |func: &str, args: &[Value]| {
        let want = outcome(&original, func, args);
        for (what, p) in &variants {
            let got = outcome(p, func, args);
            if got != want {
                failures.push(format!("{func}{args:?} ({what}): {got}, the interpreter {want}"));
            }
        }
        checked += 1;
    };
    for d in dtypes(DType::is_float) {
        for &x in &values {
            for to in dtypes(DType::is_int) {
                check(&format!("cast_{d}_{to}"), &[Value::float(d, x)]);
            }
            for &y in &values {
                let args = [Value::float(d, x), Value::float(d, y)];
                check(&format!("fdiv_{d}"), &args);
                check(&format!("mod_{d}"), &args);
            }
        }
    }
    // Complex operands from a smaller grid of parts (the full square of
    // squares would be a million calls).
    let parts = [0.0, -0.0, 1.0, -2.5, 0.5, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e300, 1e-300, 5e-324, 3.0];
    let exponents = [0.0, 1.0, 2.0, -3.0, 100.0, -100.0, 101.0, 0.5, 2.5, -0.0, f64::NAN, f64::INFINITY];
    for d in dtypes(DType::is_complex) {
        for &ar in &parts {
            for &ai in &parts {
                let a = Value::complex(d, ar, ai);
                for &br in &parts {
                    for &bi in &parts {
                        check(&format!("div_{d}"), &[a.clone(), Value::complex(d, br, bi)]);
                    }
                }
                for &er in &exponents {
                    for &ei in &[0.0, 1.0, -0.5] {
                        check(&format!("pow_{d}"), &[a.clone(), Value::complex(d, er, ei)]);
                    }
                }
            }
        }
    }
    for &x in &values {
        for to in dtypes(DType::is_int) {
            check(&format!("cast_c_{to}"), &[Value::complex(DType::Complex128, x, 1.0)]);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} calls differ:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    assert!(checked > 80_000, "{checked} calls");
}
