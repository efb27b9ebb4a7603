//! The test programs of `tests/programs/`: every `.pir` file is parsed and
//! verified, then each case of its `.expected` file (written by
//! `tests/programs/oracle.py` from independent Python/NumPy implementations)
//! runs in the reference interpreter with and without overflow checks, and
//! the results must match exactly or within the case's stated tolerance.
//! The corpus must together use every opcode a program may hold and every
//! dtype.
//!
//! The `.expected` format is described in `tests/programs/README.md`.

use postc_ir::interp::Value;
use postc_ir::{DType, Module, Opcode, Program};
use postc_testkit::cases::*;
use postc_testkit::corpus::{load, program_files, programs_dir, stem};
use postc_testkit::run::run_case;
use std::collections::BTreeSet;

/// The minimum size of the corpus.
const MIN_PROGRAMS: usize = 15;
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
    // Raw-address opcodes are only for compiler-made functions, never a
    // program's (the verifier refuses them there); `ufunc-entry`'s
    // filetests and the verifier's tests cover them.
    // `tuple` and `extract` too: no program here has a tuple result
    // (`ir/tests/tuple_results.rs` and tests/py/tuple_returns.py cover them).
    let tuples = [Opcode::Tuple, Opcode::Extract];
    let missing_ops: Vec<&str> = Opcode::ALL
        .iter()
        .filter(|o| !o.is_raw() && !tuples.contains(o) && !opcodes.contains(o))
        .map(|o| o.mnemonic())
        .collect();
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
