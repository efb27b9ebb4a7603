//! The test programs of `tests/programs/`: every `.pir` file is parsed and
//! verified, then each case of its `.expected` file (written by
//! `tests/programs/oracle.py` from independent Python/NumPy implementations)
//! runs in the reference interpreter with and without overflow checks, and
//! the results must match exactly or within the case's stated tolerance.
//! The corpus must together use every opcode and every dtype.
//!
//! The `.expected` format is described in `tests/programs/README.md`.

use postc_ir::interp::{Array, InterpOptions, Interpreter, Trap, TrapKind, Value};
use postc_ir::{DType, Module, ModuleId, Opcode, Program};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The minimum size of the corpus.
const MIN_PROGRAMS: usize = 15;
/// Instructions one case may execute.
const FUEL: u64 = 50_000_000;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the ir crate sits in the workspace").to_path_buf()
}

fn programs_dir() -> PathBuf {
    repo_root().join("tests").join("programs")
}

/// The `.pir` files of the corpus, sorted by name.
fn program_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(programs_dir())
        .expect("tests/programs exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    files.sort();
    files
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Parses and verifies one program; the path given to the parser is the
/// one implicit panic locations name.
fn load(path: &Path) -> Result<Module, String> {
    let name = stem(path);
    let shown = format!("tests/programs/{name}.pir");
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    let module = postc_ir::parse::parse_module(&shown, &bytes).map_err(|diags| {
        let mut s = format!("{shown} does not parse:\n");
        for d in &diags {
            let _ = writeln!(s, "  {d}");
        }
        s
    })?;
    let diags = postc_ir::verify::verify_module(&module);
    if !diags.is_empty() {
        let mut s = format!("{shown} does not verify:\n");
        for d in &diags {
            let _ = writeln!(s, "  {d}");
        }
        return Err(s);
    }
    Ok(module)
}

#[path = "support/cases.rs"]
mod cases;
use cases::*;

// ---------------------------------------------------------------------------
// Comparison.

/// Position of a float on the integer line of its dtype's bit patterns,
/// monotonic in the value, so ulp distance is a difference.
fn ordinal(dtype: DType, x: f64) -> i64 {
    let (bits, width) = match dtype {
        DType::Float16 => (half::f16::from_f64(x).to_bits() as u64, 16),
        DType::Float32 | DType::Complex64 => ((x as f32).to_bits() as u64, 32),
        _ => (x.to_bits(), 64),
    };
    let sign = 1u64 << (width - 1);
    let mag = (bits & (sign - 1)) as i64;
    if bits & sign != 0 {
        -mag
    } else {
        mag
    }
}

fn float_close(dtype: DType, got: f64, want: f64, tol: Tol, scale: f64) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    if got.to_bits() == want.to_bits() {
        return true;
    }
    match tol {
        Tol::Exact => false,
        Tol::Ulps(n) => got.is_finite() && want.is_finite() && ordinal(dtype, got).abs_diff(ordinal(dtype, want)) <= n,
        Tol::Rel(r) => got.is_finite() && want.is_finite() && (got - want).abs() <= r * scale,
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Float(d, x) => format!("{d} {x:?} (bits {:#x})", x.to_bits()),
        Value::Complex(d, re, im) => format!("{d} ({re:?}, {im:?})"),
        Value::Array(a) => format!("{a:?}"),
        v => format!("{v:?}"),
    }
}

fn values_match(got: &Value, want: &Value, tol: Tol) -> bool {
    match (got, want) {
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Int(d1, a), Value::Int(d2, b)) => d1 == d2 && a == b,
        (Value::Float(d1, a), Value::Float(d2, b)) => d1 == d2 && float_close(*d1, *a, *b, tol, b.abs()),
        (Value::Complex(d1, r1, i1), Value::Complex(d2, r2, i2)) => {
            let scale = r2.hypot(*i2);
            d1 == d2 && float_close(*d1, *r1, *r2, tol, scale) && float_close(*d1, *i1, *i2, tol, scale)
        }
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Bytes(a), Value::Bytes(b)) => a == b,
        _ => false,
    }
}

fn compare_list(what: &str, got: &[Value], want: &[Value], tol: Tol) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{what}: {} elements, expected {}", got.len(), want.len()));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if !values_match(g, w, tol) {
            return Err(format!("{what}: element {i} is {}, expected {}", show(g), show(w)));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Running.

fn whole_buffer(view: &Array, n: usize) -> Array {
    view.view(vec![n], vec![view.dtype.size_bytes() as isize], 0)
}

fn run_case(program: &Program, case: &Case, checked: bool) -> Result<(), String> {
    let (args, arrays) = build_args(case);
    let mut interp = Interpreter::new(program, InterpOptions { overflow_checks: checked, fuel: Some(FUEL) });
    let mid = ModuleId::from_u32(0);
    let result: Result<Option<Value>, Trap> =
        if case.ufunc { interp.call_ufunc(mid, &case.func, &args) } else { interp.call(mid, &case.func, &args) };
    let tol = case.tol;
    match (case.ret.as_ref().unwrap(), result) {
        (Ret::Panic { message, loc }, Err(t)) => {
            if t.kind != TrapKind::Panic || &t.message != message || t.loc.as_ref() != Some(loc) {
                return Err(format!(
                    "trapped `{t}` ({:?}), expected `panic: {message} at {}:{}:{}`",
                    t.kind, loc.0, loc.1, loc.2
                ));
            }
            return Ok(());
        }
        (Ret::Panic { message, loc }, Ok(v)) => {
            return Err(format!(
                "returned {}, expected `panic: {message} at {}:{}:{}`",
                v.as_ref().map(show).unwrap_or_else(|| "nothing".into()),
                loc.0,
                loc.1,
                loc.2
            ))
        }
        (_, Err(t)) => return Err(format!("trapped `{t}` ({:?})", t.kind)),
        (Ret::Void, Ok(None)) => {}
        (Ret::Scalar(w), Ok(Some(g))) => {
            if !values_match(&g, w, tol) {
                return Err(format!("returned {}, expected {}", show(&g), show(w)));
            }
        }
        (Ret::Array { dtype, shape, values }, Ok(Some(Value::Array(a)))) => {
            if a.dtype != *dtype || &a.shape != shape {
                return Err(format!(
                    "returned a {}[] of shape {:?}, expected {dtype}[] of shape {shape:?}",
                    a.dtype, a.shape
                ));
            }
            compare_list("returned array", &a.to_values(), values, tol)?;
        }
        (want, Ok(got)) => {
            return Err(format!(
                "returned {}, expected {want:?}",
                got.as_ref().map(show).unwrap_or_else(|| "nothing".into())
            ))
        }
    }
    for (idx, want) in &case.outs {
        let a = arrays[*idx].as_ref().unwrap();
        compare_list(&format!("argument {idx}"), &a.to_values(), want, tol)?;
    }
    for (idx, want) in &case.bufs {
        let a = arrays[*idx].as_ref().unwrap();
        let n = match &case.args[*idx] {
            Arg::Array(x) => x.buf.len(),
            _ => unreachable!(),
        };
        compare_list(&format!("buffer of argument {idx}"), &whole_buffer(a, n).to_values(), want, tol)?;
    }
    Ok(())
}

/// Runs every case of one program; returns the failures and the number of
/// runs.
fn run_program(name: &str, module: Module, expected: &str) -> (Vec<String>, usize) {
    let cases = match parse_expected(expected) {
        Ok(c) => c,
        Err(e) => return (vec![format!("{name}.expected: {e}")], 0),
    };
    let program = Program::from_module(module);
    let mut failures = Vec::new();
    let mut runs = 0;
    if cases.is_empty() {
        failures.push(format!("{name}.expected has no cases"));
    }
    for case in &cases {
        for (checked, on) in [(false, case.wrap), (true, case.checked)] {
            if !on {
                continue;
            }
            runs += 1;
            let mode = if checked { "overflow_checks" } else { "wrapping" };
            if let Err(e) = run_case(&program, case, checked) {
                failures.push(format!("{name}: case {} ({}, {mode}): {e}", case.name, case.func));
            }
        }
    }
    (failures, runs)
}

#[test]
fn programs_match_the_oracle() {
    let files = program_files();
    let mut failures = Vec::new();
    let mut total = 0;
    for path in &files {
        let name = stem(path);
        let module = match load(path) {
            Ok(m) => m,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let exp_path = path.with_extension("expected");
        let expected = match std::fs::read_to_string(&exp_path) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e} (run tests/programs/oracle.py)", exp_path.display()));
                continue;
            }
        };
        let (f, runs) = run_program(&name, module, &expected);
        failures.extend(f);
        total += runs;
    }
    assert!(failures.is_empty(), "{} of {total} program runs failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn corpus_covers_every_opcode_and_dtype() {
    let files = program_files();
    assert!(
        files.len() >= MIN_PROGRAMS,
        "only {} programs in tests/programs, expected at least {MIN_PROGRAMS}",
        files.len()
    );
    let mut opcodes = BTreeSet::new();
    let mut dtypes = BTreeSet::new();
    for path in &files {
        let m = load(path).unwrap_or_else(|e| panic!("{e}"));
        for f in m.functions.iter() {
            for v in f.body.tags.ids() {
                opcodes.insert(f.body.opcode(v));
                if let Some(t) = f.body.ty(v) {
                    dtypes.insert(m.types.dtype(t));
                }
            }
        }
    }
    let missing_ops: Vec<&str> = Opcode::ALL.iter().filter(|o| !opcodes.contains(o)).map(|o| o.mnemonic()).collect();
    let missing_dtypes: Vec<&str> = DType::ALL.iter().filter(|d| !dtypes.contains(d)).map(|d| d.name()).collect();
    assert!(missing_ops.is_empty(), "no program uses the opcodes {missing_ops:?}");
    assert!(missing_dtypes.is_empty(), "no program uses the dtypes {missing_dtypes:?}");
}

#[test]
fn every_program_has_expected_results() {
    for path in program_files() {
        let exp = path.with_extension("expected");
        assert!(exp.exists(), "{} has no {}", path.display(), exp.display());
    }
}

/// When python3 and NumPy are present, the committed `.expected` files
/// must be what `oracle.py` writes now.
#[test]
fn expected_files_are_up_to_date() {
    let have_numpy =
        std::process::Command::new("python3").args(["-c", "import numpy"]).output().is_ok_and(|o| o.status.success());
    if !have_numpy {
        eprintln!("python3 with numpy not found; not checking that the .expected files are fresh");
        return;
    }
    let out = std::process::Command::new("python3")
        .arg(programs_dir().join("oracle.py"))
        .arg("--check")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "tests/programs/*.expected are stale; run `python3 tests/programs/oracle.py`:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn float_text_reads_bit_exactly() {
    for x in [0.0, -0.0, 1.0, -2.5, 0.1, f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e-310, f64::INFINITY] {
        let hex = hex_of(x);
        assert_eq!(parse_float(&hex).unwrap().to_bits(), x.to_bits(), "{hex}");
    }
    assert!(parse_float("nan").unwrap().is_nan());
    assert_eq!(parse_float("0x1.8000000000000p+1").unwrap(), 3.0);
    assert_eq!(parse_float("-0x1.0000000000000p-1").unwrap(), -0.5);
    assert!(parse_float("0x2.0p+0").is_err());
}

/// Python's `float.hex()`, for the self-test above.
fn hex_of(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { "-" } else { "" };
    let e = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    match (e, frac) {
        (0, 0) => format!("{sign}0x0.0p+0"),
        (0, f) => format!("{sign}0x0.{f:013x}p-1022"),
        (e, f) => format!("{sign}0x1.{f:013x}p{:+}", e - 1023),
    }
}

#[test]
fn expected_format_parses() {
    let text = r#"
# comment
case demo
call f
mode wrap
tol ulps=2
arg Float32[] shape=2,2 strides=4,8 offset=0 buf=4 : 0x1.0p+0 -0x1.8p+1 nan inf
arg Str "a \"q\" \u{e9}\t"
arg Bytes b"\x00\xff "
arg Complex128 0x1.0p+0,-inf
ret Int8 -128
out 0 : 0x0.0p+0 -0x0.0p+0 0x1.0p-1 -inf
"#;
    let cases = parse_expected(text).unwrap();
    assert_eq!(cases.len(), 1);
    let c = &cases[0];
    assert!(c.wrap && !c.checked);
    assert_eq!(c.tol, Tol::Ulps(2));
    assert_eq!(c.args.len(), 4);
    match &c.args[1] {
        Arg::Scalar(Value::Str(s)) => assert_eq!(s, "a \"q\" \u{e9}\t"),
        a => panic!("{a:?}"),
    }
    match &c.args[2] {
        Arg::Scalar(Value::Bytes(b)) => assert_eq!(b, &[0u8, 0xff, b' ']),
        a => panic!("{a:?}"),
    }
    let p = parse_expected("case p\ncall g\npanic \"division by zero\" at tests/programs/x.pir:3:5\n").unwrap();
    match &p[0].ret {
        Some(Ret::Panic { message, loc }) => {
            assert_eq!(message, "division by zero");
            assert_eq!(loc, &("tests/programs/x.pir".to_string(), 3, 5));
        }
        r => panic!("{r:?}"),
    }
}
