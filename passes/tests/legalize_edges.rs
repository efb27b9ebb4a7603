//! `legalize` against the reference interpreter on the edge cases of what
//! it writes out: float `//` and `%` in every float dtype, complex `*`,
//! `/`, `**`, `abs`, `+`, `-`, negation, `==`, `!=` and casts (to and from
//! the other complex dtype, Float64, Int32 and Bool) in both complex dtypes, float→integer casts into every integer
//! dtype and the true division of every integer dtype into every float
//! one (and the length of a Str, on text of one to four bytes per code
//! point, and the six comparisons of Str and of Bytes, on empty text,
//! prefixes, bytes on either side of 0x80, and texts of one to three words
//! of eight bytes differing in each part of them), on signed zeros, infinities, NaN, huge, tiny and subnormal
//! operands and the bounds of each dtype. The interpreter runs the
//! original instruction and the legalized module (with and without a
//! backend's saturating casts and Float16 arithmetic); every result must
//! be the same bits (any NaN equal to any NaN). The helpers' agreement
//! with CPython itself is `tests/py/float_edges.py`, through every
//! backend.
//!
//! Integer `**` (and its overflow test at -O0), `//` and `%` in every
//! integer dtype, float `//` and `%`, Float16 arithmetic, comparisons and
//! powers and Float32 powers are also checked against NumPy and CPython's
//! integers directly (`python3` with NumPy computes the expected results):
//! exact powers out of range panic `integer overflow` with overflow checks
//! and wrap as NumPy's without, negative exponents panic, quotients and
//! remainders take the divisor's sign, Float16 results round once (to
//! infinity past 65504, NaN staying NaN). Complex products (the IR's
//! meaning, which every backend's must match) are checked against NumPy's
//! Complex128 scalars (a Complex64 one as the Complex128
//! product rounded once), magnitudes against CPython's `abs`, libm's
//! `hypot` of the parts (NumPy's `abs` of a complex array is its own
//! `hypot`, which differs from libm's in the last place).

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
        text.push_str(&binary("mul", d));
        text.push_str(&binary("div", d));
        text.push_str(&binary("pow", d));
        text.push_str(&binary("add", d));
        text.push_str(&binary("sub", d));
        for op in ["eq", "ne"] {
            text.push_str(&function(
                &format!("{op}_{d}"),
                &format!("%x: {d}, %y: {d}"),
                DType::Bool,
                &format!("{op} %x, %y"),
            ));
        }
        let part = d.complex_part().expect("a complex dtype");
        text.push_str(&function(&format!("abs_{d}"), &format!("%x: {d}"), part, "abs %x"));
        text.push_str(&function(&format!("neg_{d}"), &format!("%x: {d}"), d, "neg %x"));
        // Casts from and to the other complex dtype, Float64, Int32 and Bool.
        for other in [DType::Complex64, DType::Complex128, DType::Float64, DType::Int32, DType::Bool] {
            text.push_str(&function(&format!("cast_{d}_{other}"), &format!("%x: {d}"), other, "cast %x"));
            if !other.is_complex() {
                text.push_str(&function(&format!("cast_{other}_{d}"), &format!("%x: {other}"), d, "cast %x"));
            }
        }
    }
    for to in dtypes(DType::is_int) {
        text.push_str(&function(&format!("cast_c_{to}"), "%x: Complex128", to, "cast %x"));
    }
    // Float16 from and to every other numeric dtype (to the integers
    // above).
    let half = DType::Float16;
    for other in dtypes(|d| d.is_numeric() && d != DType::Float16) {
        if !other.is_int() {
            text.push_str(&function(&format!("cast_{half}_{other}"), &format!("%x: {half}"), other, "cast %x"));
        }
        text.push_str(&function(&format!("cast_{other}_{half}"), &format!("%x: {other}"), half, "cast %x"));
    }
    // True division of integers, into every float dtype.
    for d in dtypes(DType::is_int) {
        for to in dtypes(DType::is_float) {
            text.push_str(&function(&format!("div_{d}_{to}"), &format!("%x: {d}, %y: {d}"), to, "div %x, %y"));
        }
    }
    // The overflow tests of every integer dtype.
    for d in dtypes(DType::is_int) {
        for op in ["add", "sub", "mul"] {
            let call = format!("call postc.ovf.{op}(%x, %y)");
            text.push_str(&function(&format!("ovf_{op}_{d}"), &format!("%x: {d}, %y: {d}"), DType::Bool, &call));
        }
        for op in ["neg", "abs"] {
            let call = format!("call postc.ovf.{op}(%x)");
            text.push_str(&function(&format!("ovf_{op}_{d}"), &format!("%x: {d}"), DType::Bool, &call));
        }
    }
    // The length of a Str, in code points.
    text.push_str(&function("len_Str", "%x: Str", DType::Int64, "getfield %x, len"));
    // The comparisons of text.
    for d in [DType::Str, DType::Bytes] {
        for op in ["eq", "ne", "lt", "le", "gt", "ge"] {
            text.push_str(&function(
                &format!("{op}_{d}"),
                &format!("%x: {d}, %y: {d}"),
                DType::Bool,
                &format!("{op} %x, %y"),
            ));
        }
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
        Ok(Some(Value::Int(d, x))) => format!("{d} {x}"),
        Ok(Some(Value::Bool(b))) => format!("Bool {b}"),
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
        ("saturating casts native", legalized(&m, Features { saturating_casts: true, ..Features::NONE })),
        ("overflow tests native", legalized(&m, Features { overflow_tests: true, ..Features::NONE })),
        ("Float16 arithmetic native", legalized(&m, Features { float16_arithmetic: true, ..Features::NONE })),
        (
            "Float16 conversions native",
            legalized(&m, Features { float16_conversions: true, float16_arithmetic: true, ..Features::NONE }),
        ),
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
                check(&format!("abs_{d}"), &[a.clone()]);
                check(&format!("neg_{d}"), &[a.clone()]);
                for other in [DType::Complex64, DType::Complex128, DType::Float64, DType::Int32, DType::Bool] {
                    check(&format!("cast_{d}_{other}"), &[a.clone()]);
                }
                for &br in &parts {
                    for &bi in &parts {
                        for op in ["mul", "div", "add", "sub", "eq", "ne"] {
                            check(&format!("{op}_{d}"), &[a.clone(), Value::complex(d, br, bi)]);
                        }
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
        for d in dtypes(DType::is_complex) {
            check(&format!("cast_Float64_{d}"), &[Value::float(DType::Float64, x)]);
        }
    }
    for d in dtypes(DType::is_complex) {
        for i in [i32::MIN, -1, 0, 1, 16_777_217, i32::MAX] {
            check(&format!("cast_Int32_{d}"), &[Value::Int(DType::Int32, i as i128)]);
        }
        for b in [false, true] {
            check(&format!("cast_Bool_{d}"), &[Value::Bool(b)]);
        }
    }
    let half = DType::Float16;
    for other in dtypes(|d| d.is_numeric() && d != DType::Float16) {
        for &x in &half_values() {
            check(&format!("cast_{half}_{other}"), &[Value::float(half, x)]);
            let from = match other {
                DType::Bool => Value::Bool(x != 0.0),
                d if d.is_complex() => Value::complex(d, x, -x),
                d if d.is_float() => Value::float(d, x),
                d => {
                    let (lo, hi) = d.int_range().expect("an integer dtype");
                    Value::Int(d, (x as i128).clamp(lo, hi))
                }
            };
            check(&format!("cast_{other}_{half}"), &[from]);
        }
    }
    for d in dtypes(DType::is_int) {
        let (lo, hi) = d.int_range().expect("an integer dtype");
        let ints = [0, 1, -1, 3, -7, 255, 2049, 65_521, 1 << 24 | 1, (1 << 53) + 1, lo, hi, lo + 1, hi - 1];
        let ints: Vec<i128> = ints.into_iter().filter(|x| (lo..=hi).contains(x)).collect();
        for to in dtypes(DType::is_float) {
            for &x in &ints {
                for &y in &ints {
                    check(&format!("div_{d}_{to}"), &[Value::Int(d, x), Value::Int(d, y)]);
                }
            }
        }
        // The overflow tests, at the bounds, their neighbours, the square
        // roots of the bounds and their neighbours.
        let root = |x: i128| (x.unsigned_abs() as f64).sqrt() as i128;
        let mut near: Vec<i128> = vec![0, 1, -1, 2, -2, lo, hi, lo + 1, hi - 1, lo / 2, hi / 2, hi / 2 + 1];
        for r in [root(lo), root(hi)] {
            near.extend([r - 1, r, r + 1, -r - 1, -r, -r + 1]);
        }
        near.retain(|x| (lo..=hi).contains(x));
        for &x in &near {
            let a = Value::Int(d, x);
            check(&format!("ovf_neg_{d}"), &[a.clone()]);
            check(&format!("ovf_abs_{d}"), &[a.clone()]);
            for &y in &near {
                for op in ["add", "sub", "mul"] {
                    check(&format!("ovf_{op}_{d}"), &[a.clone(), Value::Int(d, y)]);
                }
            }
        }
    }
    // One to four bytes per code point, the largest of each width, NUL.
    for t in [
        "",
        "a",
        "\u{e9}",
        "\u{7ff}\u{800}",
        "\u{ffff}\u{10000}",
        "\u{10ffff}",
        "Zo\u{eb} \u{1f600}",
        "a\0b",
        "\u{20ac}uro",
    ] {
        check("len_Str", &[Value::Str(t.to_owned())]);
    }
    // Equal, prefixes both ways, empty, a difference in the first and in a
    // later byte, bytes of 0x80 and above against ASCII.
    let texts: [&[u8]; 12] =
        [b"", b"a", b"ab", b"abc", b"abd", b"b", b"\0", b"a\0", b"\x7f", b"\x80", b"\xff", b"ab\x80"];
    for x in texts {
        for y in texts {
            for op in ["eq", "ne", "lt", "le", "gt", "ge"] {
                check(&format!("{op}_Bytes"), &[Value::Bytes(x.to_vec()), Value::Bytes(y.to_vec())]);
            }
        }
    }
    // Texts of one or more words of eight bytes and a tail: prefixes of
    // one text at and around the word lengths, and copies of it that
    // differ in the first byte, at a word's first and last byte, in the
    // bytes the last word overlaps with the one before, and in the last.
    let base = b"abcdefghijklmnopqrstuvwx";
    let mut long: Vec<Vec<u8>> = [7, 8, 9, 15, 16, 17, 23, 24].iter().map(|&n| base[..n].to_vec()).collect();
    for n in [17, 24] {
        for at in [0, 7, 8, 10, 15, 16, n - 1] {
            for byte in [0x80, b'\0'] {
                let mut t = base[..n].to_vec();
                t[at] = byte;
                long.push(t);
            }
        }
    }
    for x in &long {
        for y in &long {
            for op in ["eq", "ne", "lt", "le", "gt", "ge"] {
                check(&format!("{op}_Bytes"), &[Value::Bytes(x.clone()), Value::Bytes(y.clone())]);
            }
        }
    }
    let strs = ["", "a", "ab", "abc", "b", "\u{e9}", "z", "\u{20ac}", "\u{ffff}", "\u{10000}", "ab\u{e9}", "a\0"];
    for x in strs {
        for y in strs {
            for op in ["eq", "ne", "lt", "le", "gt", "ge"] {
                check(&format!("{op}_Str"), &[Value::Str(x.to_owned()), Value::Str(y.to_owned())]);
            }
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

/// Computes each case (`OP DTYPE A B` a line, floats as the bits of a
/// Float64) as NumPy does on arrays of that dtype, with CPython's exact
/// integers deciding overflow: `CHECKS` says whether overflow and zero
/// divisors panic (as a program compiled with checks does) or wrap and
/// give 0 (NumPy's own results).
const NUMPY_ORACLE: &str = r#"
import struct, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
checks = sys.argv[1] == "checks"
def floatbits(v):
    v = float(v)
    return "nan" if v != v else hex(struct.unpack("<Q", struct.pack("<d", v))[0])
for line in sys.stdin:
    op, name, a, b = line.split()
    dt = np.dtype(name.lower())
    if op == "cast":
        src = np.dtype(a.lower())
        if src.kind in "iu":
            x = np.array([int(b)], src)
        else:
            x = np.array([struct.unpack("<d", struct.pack("<Q", int(b, 16)))[0]]).astype(src)
        print(name, floatbits(x.astype(dt)[0]))
        continue
    if dt.kind == "f":
        x, y = (np.array([struct.unpack("<d", struct.pack("<Q", int(t, 16)))[0]]).astype(dt) for t in (a, b))
        if op in ("eq", "ne", "lt", "le", "gt", "ge"):
            r = {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[op]
            print("Bool", str(bool(r[0])).lower())
            continue
        if op == "pow":
            # libm's pow in double, rounded once (NumPy's float16 and
            # float32 powers go through powf).
            r = np.power(x.astype(np.float64), y.astype(np.float64)).astype(dt)
        else:
            r = {
                "fdiv": np.floor_divide, "mod": np.remainder, "add": np.add, "sub": np.subtract,
                "mul": np.multiply, "div": np.divide, "neg": lambda x, y: -x, "abs": lambda x, y: np.abs(x),
            }[op](x, y)
        print(name, floatbits(r[0]))
        continue
    a, b = int(a), int(b)
    info = np.iinfo(dt)
    if op == "pow" and b < 0:
        print("panic negative exponent")
    elif op != "pow" and b == 0 and checks:
        print("panic division by zero" if op == "fdiv" else "panic modulo by zero")
    elif op == "pow" and checks and not info.min <= a ** b <= info.max:
        print("panic integer overflow")
    else:
        x, y = np.array([a], dt), np.array([b], dt)
        r = x ** y if op == "pow" else x // y if op == "fdiv" else x % y
        print(name, int(r[0]))
"#;

/// What `python3` with NumPy gives for each case of `cases` (see
/// [`NUMPY_ORACLE`]).
fn numpy_results(cases: &[String], checks: bool) -> Vec<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("python3")
        .args(["-c", NUMPY_ORACLE, if checks { "checks" } else { "wrap" }])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (the oracle of these tests; scripts/setup installs it with NumPy)");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = cases.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python3 finishes");
    writer.join().expect("the writer thread").expect("the cases are written");
    assert!(out.status.success(), "the NumPy oracle failed: is NumPy installed?");
    String::from_utf8(out.stdout).expect("text").lines().map(str::to_owned).collect()
}

/// Integers of dtype `d` around its bounds, zero and the small values.
fn int_edges(d: DType) -> Vec<i128> {
    let (lo, hi) = d.int_range().expect("an integer dtype");
    let mut v: Vec<i128> = [0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -100, 181, 255, 65_535, 46_341, 3_037_000_500]
        .into_iter()
        .chain([lo, lo + 1, hi, hi - 1, hi / 2, lo / 2])
        .filter(|x| (lo..=hi).contains(x))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Compares the legalized module with the oracle on every case: `checks`
/// runs `insert-checks,legalize` at -O0 (every check, overflow included),
/// otherwise at -O2 with no division or overflow checks; `features` are
/// the backend's.
fn against_numpy(m: &Module, cases: &[(String, String, Vec<Value>)], checks: bool, features: Features) -> Vec<String> {
    let mut out = m.clone();
    let pm = parse_pipeline("insert-checks,legalize").expect("a pipeline");
    let options = if checks {
        PassOptions { features, ..PassOptions::for_level(0) }
    } else {
        PassOptions { div_checks: false, overflow_checks: false, features, ..PassOptions::for_level(2) }
    };
    pm.run(&mut out, &options, &RunOptions { verify_each: true, ..RunOptions::default() }).expect("verifies");
    let p = Program::from_module(out);
    let lines: Vec<String> = cases.iter().map(|c| c.1.clone()).collect();
    let want = numpy_results(&lines, checks);
    assert_eq!(want.len(), cases.len(), "one result per case");
    let mut failures = Vec::new();
    for ((func, line, args), want) in cases.iter().zip(&want) {
        let got = outcome(&p, func, args);
        if &got != want {
            failures.push(format!("{line} (checks {checks}): {got}, NumPy {want}"));
        }
    }
    failures
}

#[test]
fn integer_power_floor_division_and_modulo_agree_with_numpy() {
    let mut text = String::from("module ints\n");
    let mut cases = Vec::new();
    let mut wrap_cases = Vec::new();
    for d in dtypes(DType::is_int) {
        for op in ["pow", "fdiv", "mod"] {
            let params = format!("%x: {d}, %y: {d}");
            text.push_str(&function(&format!("{op}_{d}"), &params, d, &format!("{op} %x, %y")));
        }
        let values = int_edges(d);
        let (lo, hi) = d.int_range().expect("an integer dtype");
        let exponents: Vec<i128> = [-3, -1, 0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 33, 40, 63, 64, 65, 127]
            .into_iter()
            .filter(|e| (lo..=hi).contains(e))
            .collect();
        for &x in &values {
            let case = |op: &str, y: i128| {
                (format!("{op}_{d}"), format!("{op} {d} {x} {y}"), vec![Value::Int(d, x), Value::Int(d, y)])
            };
            for &e in &exponents {
                cases.push(case("pow", e));
                // Without checks a negative exponent gives postc's 1, not
                // NumPy's error: no oracle.
                if e >= 0 {
                    wrap_cases.push(case("pow", e));
                }
            }
            for &y in &values {
                for op in ["fdiv", "mod"] {
                    cases.push(case(op, y));
                    wrap_cases.push(case(op, y));
                }
            }
        }
    }
    let m = postc_ir::parse::parse_str("ints.pir", &text).expect("the module parses");
    let mut failures = against_numpy(&m, &cases, true, Features::NONE);
    failures.extend(against_numpy(&m, &wrap_cases, false, Features::NONE));
    assert!(cases.len() > 2_000, "{} cases", cases.len());
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures[..failures.len().min(30)].join("\n"));
}

#[test]
fn float_floor_division_and_modulo_agree_with_numpy() {
    let mut text = String::from("module floats\n");
    let mut cases = Vec::new();
    let values = edge_values();
    // Not Float32: NumPy computes its floor division in float32, and a
    // quotient above 2**24 then floors to a neighbour of the exact floor
    // (`2.0**32 // 255.0` is 16843010 there, 16843008 — the exact
    // 16843009.0039 floored, rounded once — here and in the interpreter).
    for d in [DType::Float64, DType::Float16] {
        for op in ["fdiv", "mod"] {
            let params = format!("%x: {d}, %y: {d}");
            text.push_str(&function(&format!("{op}_{d}"), &params, d, &format!("{op} %x, %y")));
            for &x in &values {
                for &y in &values {
                    let line = format!("{op} {d} {:#x} {:#x}", x.to_bits(), y.to_bits());
                    cases.push((format!("{op}_{d}"), line, vec![Value::float(d, x), Value::float(d, y)]));
                }
            }
        }
    }
    let m = postc_ir::parse::parse_str("floats.pir", &text).expect("the module parses");
    let failures = against_numpy(&m, &cases, true, Features::NONE);
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures[..failures.len().min(30)].join("\n"));
}

/// Float16 values: the edges of Float64's (rounded to Float16) and
/// Float16's own: the largest finite, the halfway point to infinity and
/// its neighbours, the smallest normal and subnormal, ties at 2048.
fn half_values() -> Vec<f64> {
    let mut v = edge_values();
    v.extend([
        65504.0,
        65519.99,
        65520.0,
        -65504.0,
        6.103515625e-05,
        5.960464477539063e-08,
        -5.960464477539063e-08,
        2.98e-08,
        2049.0,
        2051.0,
        0.1,
        1.0 / 3.0,
        255.0,
        300.0,
        1.5,
        -2.0,
    ]);
    v
}

#[test]
fn float16_arithmetic_and_narrow_powers_agree_with_numpy() {
    let mut text = String::from("module halves\n");
    let mut cases = Vec::new();
    let values = half_values();
    let half = DType::Float16;
    let bits = |x: f64| format!("{:#x}", x.to_bits());
    for op in ["add", "sub", "mul", "div", "pow"] {
        text.push_str(&function(&format!("{op}_{half}"), "%x: Float16, %y: Float16", half, &format!("{op} %x, %y")));
    }
    for op in ["eq", "ne", "lt", "le", "gt", "ge"] {
        let body = format!("{op} %x, %y");
        text.push_str(&function(&format!("{op}_{half}"), "%x: Float16, %y: Float16", DType::Bool, &body));
    }
    for op in ["neg", "abs"] {
        text.push_str(&function(&format!("{op}_{half}"), "%x: Float16", half, &format!("{op} %x")));
    }
    text.push_str(&function("pow_Float32", "%x: Float32, %y: Float32", DType::Float32, "pow %x, %y"));
    for &x in &values {
        for op in ["neg", "abs"] {
            cases.push((format!("{op}_{half}"), format!("{op} {half} {} 0x0", bits(x)), vec![Value::float(half, x)]));
        }
        for &y in &values {
            for op in ["add", "sub", "mul", "div", "pow", "eq", "ne", "lt", "le", "gt", "ge"] {
                let line = format!("{op} {half} {} {}", bits(x), bits(y));
                cases.push((format!("{op}_{half}"), line, vec![Value::float(half, x), Value::float(half, y)]));
            }
            let f = DType::Float32;
            let line = format!("pow {f} {} {}", bits(x), bits(y));
            cases.push(("pow_Float32".into(), line, vec![Value::float(f, x), Value::float(f, y)]));
        }
    }
    let m = postc_ir::parse::parse_str("halves.pir", &text).expect("the module parses");
    let mut failures = Vec::new();
    for float16_arithmetic in [false, true] {
        let features = Features { float16_arithmetic, ..Features::NONE };
        failures.extend(against_numpy(&m, &cases, true, features));
    }
    assert!(cases.len() > 50_000, "{} cases", cases.len());
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures[..failures.len().min(30)].join("\n"));
}

/// Every Float16 widened to Float32 and Float64, and Float64 and Float32
/// values narrowed to Float16: each Float16, the midpoints between
/// neighbours (ties, which go to the even one) and the values just either
/// side of them, past the largest finite and below the smallest
/// subnormal, infinities, NaN; and integers of every width narrowed. With
/// the conversions written out (`postc.f16.widen`, `postc.f16.narrow`)
/// and native, against NumPy's `astype`.
#[test]
fn float16_conversions_agree_with_numpy() {
    let half = DType::Float16;
    let mut text = String::from("module conversions\n");
    let wide = [DType::Float32, DType::Float64];
    for d in wide {
        text.push_str(&function(&format!("widen_{d}"), &format!("%x: {half}"), d, "cast %x"));
        text.push_str(&function(&format!("narrow_{d}"), &format!("%x: {d}"), half, "cast %x"));
    }
    let ints = dtypes(DType::is_int);
    for &d in &ints {
        text.push_str(&function(&format!("narrow_{d}"), &format!("%x: {d}"), half, "cast %x"));
    }
    let mut cases = Vec::new();
    let bits = |x: f64| format!("{:#x}", x.to_bits());
    let halves: Vec<f64> = (0..=u16::MAX).map(|b| postc_ir::body::float_bits_to_f64(half, b as u64)).collect();
    for &x in &halves {
        for d in wide {
            cases.push((format!("widen_{d}"), format!("cast {d} {half} {}", bits(x)), vec![Value::float(half, x)]));
        }
    }
    let mut narrowed: Vec<f64> = edge_values();
    narrowed.extend(half_values());
    for pair in halves.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.is_finite() && b.is_finite() && a.signum() == b.signum() {
            let mid = (a + b) / 2.0;
            narrowed.extend([mid, f64::from_bits(mid.to_bits() + 1), f64::from_bits(mid.to_bits() - 1)]);
        }
    }
    narrowed.extend([65519.99999999999, 65520.0, 65520.00000000001, 2.9802322387695312e-08, 2.98023223876953e-08]);
    for &x in &narrowed {
        for d in wide {
            // A Float32 operand is the value rounded to Float32 first.
            let x = if d == DType::Float32 { x as f32 as f64 } else { x };
            cases.push((format!("narrow_{d}"), format!("cast {half} {d} {}", bits(x)), vec![Value::float(d, x)]));
        }
    }
    for &d in &ints {
        for x in int_edges(d).into_iter().chain([2049, 2051, 4097, 65504, 65519, 65520, -65520, 1 << 40]) {
            let (lo, hi) = d.int_range().expect("an integer dtype");
            if (lo..=hi).contains(&x) {
                cases.push((format!("narrow_{d}"), format!("cast {half} {d} {x}"), vec![Value::Int(d, x)]));
            }
        }
    }
    let m = postc_ir::parse::parse_str("conversions.pir", &text).expect("the module parses");
    let mut failures = Vec::new();
    for float16_conversions in [false, true] {
        let features = Features { float16_conversions, ..Features::NONE };
        failures.extend(against_numpy(&m, &cases, true, features));
    }
    assert!(cases.len() > 200_000, "{} cases", cases.len());
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures[..failures.len().min(30)].join("\n"));
}

/// Each case (`OP DTYPE AR AI BR BI`, the parts as the bits of a Float64)
/// as NumPy's Complex128 scalars multiply (a Complex64 product is the
/// Complex128 one of the operands, exact, rounded once, as postc computes
/// it) and as CPython's `abs` takes a magnitude (libm's `hypot`).
const COMPLEX_ORACLE: &str = r#"
import struct, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
def f(t):
    return struct.unpack("<d", struct.pack("<Q", int(t, 16)))[0]
def bits(v):
    v = float(v)
    return "nan" if v != v else hex(struct.unpack("<Q", struct.pack("<d", v))[0])
for line in sys.stdin:
    op, name, ar, ai, br, bi = line.split()
    dt = np.dtype(name.lower())
    a = np.complex128(dt.type(complex(f(ar), f(ai))))
    b = np.complex128(dt.type(complex(f(br), f(bi))))
    if op == "mul":
        p = dt.type(a * b)
        print(name, bits(p.real), bits(p.imag))
    else:
        part = np.float32 if name == "Complex64" else np.float64
        print(dt.type(0).real.dtype.name.capitalize(), bits(part(abs(complex(a)))))
"#;

#[test]
fn complex_products_and_magnitudes_agree_with_numpy_and_cpython() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut text = String::from("module cplx\n");
    for d in dtypes(DType::is_complex) {
        let params = format!("%x: {d}, %y: {d}");
        text.push_str(&function(&format!("mul_{d}"), &params, d, "mul %x, %y"));
        let part = d.complex_part().expect("a complex dtype");
        text.push_str(&function(&format!("abs_{d}"), &format!("%x: {d}"), part, "abs %x"));
    }
    let m = postc_ir::parse::parse_str("cplx.pir", &text).expect("the module parses");
    let p = legalized(&m, Features::NONE);
    // Edge parts, and pseudo-random ones over many binades (a linear
    // congruential sequence: the same cases every run).
    let mut parts = vec![0.0, -0.0, 1.0, -2.5, 0.1, 1e308, -1e308, 1e-308, 5e-324, 3e38, 1e-45];
    parts.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN]);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..24 {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let mantissa = (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
        parts.push(mantissa * 2f64.powi((seed % 61) as i32 - 30));
    }
    let hex = |x: f64| format!("{:#x}", x.to_bits());
    let mut cases: Vec<(String, String, Vec<Value>)> = Vec::new();
    for d in dtypes(DType::is_complex) {
        // Operands of the dtype: its parts rounded as a Complex64 stores them.
        let of = |x: f64| if d == DType::Complex64 { x as f32 as f64 } else { x };
        for (i, &ar) in parts.iter().enumerate() {
            let ai = parts[(i * 7 + 3) % parts.len()];
            let a = Value::complex(d, of(ar), of(ai));
            let (h0, h1) = (hex(of(ar)), hex(of(ai)));
            cases.push((format!("abs_{d}"), format!("abs {d} {h0} {h1} 0x0 0x0"), vec![a.clone()]));
            for (j, &br) in parts.iter().enumerate() {
                let bi = parts[(j * 5 + i) % parts.len()];
                let b = Value::complex(d, of(br), of(bi));
                let line = format!("mul {d} {h0} {h1} {} {}", hex(of(br)), hex(of(bi)));
                cases.push((format!("mul_{d}"), line, vec![a.clone(), b]));
            }
        }
    }
    let mut child = Command::new("python3")
        .args(["-c", COMPLEX_ORACLE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (the oracle of these tests; scripts/setup installs it with NumPy)");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input: String = cases.iter().map(|c| c.1.clone() + "\n").collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python3 finishes");
    writer.join().expect("the writer thread").expect("the cases are written");
    assert!(out.status.success(), "the oracle failed: is NumPy installed?");
    let want: Vec<String> = String::from_utf8(out.stdout).expect("text").lines().map(str::to_owned).collect();
    assert_eq!(want.len(), cases.len(), "one result per case");
    let failures: Vec<String> = cases
        .iter()
        .zip(&want)
        .filter_map(|((func, line, args), want)| {
            let got = outcome(&p, func, args);
            (&got != want).then(|| format!("{line}: {got}, the oracle {want}"))
        })
        .collect();
    assert!(cases.len() > 2_000, "{} cases", cases.len());
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures[..failures.len().min(30)].join("\n"));
}
