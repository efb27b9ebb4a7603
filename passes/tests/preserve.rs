//! Semantic preservation: the interpreter gives the same results (return
//! value, every argument buffer afterwards, panic message and location)
//! before and after each pass on its own and after each default pipeline,
//! on every case of `tests/programs/` and on generated modules. The module
//! must verify after every pass.

use arbitrary::Unstructured;
use postc_ir::gen::{arbitrary_module, seeded_bytes, GenConfig};
use postc_ir::interp::{Array, InterpOptions, Interpreter, TrapKind, Value};
use postc_ir::types::Shape;
use postc_ir::{DType, Module, ModuleId, Program};
use postc_passes::{default_pipeline, parse_pipeline, registry, PassOptions, RunOptions};
use postc_testkit::cases::{build_args, parse_expected, Case};
use std::path::{Path, PathBuf};

/// What one call did, comparable across modules.
#[derive(Debug, PartialEq)]
enum Outcome {
    Returned { value: String, buffers: Vec<Vec<u8>> },
    Panicked { message: String, loc: Option<(String, u32, u32)> },
    OutOfFuel,
}

/// A value as text, floats by their bits (any NaN equal to any NaN).
fn show(v: &Value) -> String {
    let f = |x: f64| if x.is_nan() { "nan".to_owned() } else { format!("{:#x}", x.to_bits()) };
    match v {
        Value::Float(d, x) => format!("{d} {}", f(*x)),
        Value::Complex(d, re, im) => format!("{d} {} {}", f(*re), f(*im)),
        Value::Array(a) => {
            format!("{}[] {:?} {:?}", a.dtype, a.shape, a.to_values().iter().map(show).collect::<Vec<_>>())
        }
        v => format!("{v:?}"),
    }
}

fn call(p: &Program, name: &str, ufunc: bool, args: &[Value], checks: bool, fuel: u64) -> Outcome {
    let mut interp = Interpreter::new(p, InterpOptions { overflow_checks: checks, fuel: Some(fuel) });
    let mid = ModuleId::from_u32(0);
    let r = if ufunc { interp.call_ufunc(mid, name, args) } else { interp.call(mid, name, args) };
    match r {
        Ok(v) => Outcome::Returned {
            value: v.as_ref().map(show).unwrap_or_else(|| "void".into()),
            buffers: args.iter().filter_map(Value::as_array).map(|a| a.buf.borrow().clone()).collect(),
        },
        Err(t) if t.kind == TrapKind::OutOfFuel => Outcome::OutOfFuel,
        Err(t) => {
            assert_eq!(t.kind, TrapKind::Panic, "{name}: {t}");
            Outcome::Panicked { message: t.message, loc: t.loc }
        }
    }
}

/// Runs `pipeline` over a copy of `m` with `verify_each`.
fn transform(m: &Module, pipeline: &str, options: &PassOptions) -> Result<Module, String> {
    let mut out = m.clone();
    let pm = parse_pipeline(pipeline).map_err(|d| format!("{d:?}"))?;
    let run = RunOptions { verify_each: true, ..RunOptions::default() };
    pm.run(&mut out, options, &run).map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))?;
    Ok(out)
}

/// The configurations every module is checked under: each pass on its own
/// (stride-lower, irce and legalize after insert-checks, stride-version after
/// the three) at -O0 and -O2 options, and each
/// default pipeline with its level's options.
fn configurations() -> Vec<(String, PassOptions)> {
    let mut out = Vec::new();
    for (info, _) in registry() {
        // Passes that work on what insert-checks writes run after it.
        let pipeline = match info.name {
            "stride-lower" => "insert-checks,stride-lower".to_owned(),
            "irce" => "insert-checks,irce".to_owned(),
            // Without the checks before it, a zero divisor gives 0 where
            // the interpreter panics.
            "legalize" => "insert-checks,legalize".to_owned(),
            "stride-version" => "insert-checks,stride-lower,irce,stride-version".to_owned(),
            _ => info.name.to_owned(),
        };
        for level in [0, 2] {
            out.push((pipeline.clone(), PassOptions::for_level(level)));
        }
    }
    for level in 0..=3 {
        out.push((default_pipeline(level).to_owned(), PassOptions::for_level(level)));
    }
    out
}

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("tests").join("programs")
}

#[test]
fn programs_keep_their_results_through_every_pass_and_pipeline() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(programs_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    files.sort();
    assert!(files.len() >= 15);
    let configs = configurations();
    let mut failures = Vec::new();
    let mut runs = 0;
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let shown = format!("tests/programs/{stem}.pir");
        let module = postc_ir::parse::parse_module(&shown, &std::fs::read(path).unwrap()).unwrap();
        let cases: Vec<Case> =
            parse_expected(&std::fs::read_to_string(path.with_extension("expected")).unwrap()).unwrap();
        let before = Program::from_module(module.clone());
        for (pipeline, options) in &configs {
            let after = match transform(&module, pipeline, options) {
                Ok(m) => Program::from_module(m),
                Err(e) => {
                    failures.push(format!("{stem}: `{pipeline}` (O{}): {e}", options.opt_level));
                    continue;
                }
            };
            for case in &cases {
                let checks = options.overflow_checks;
                let x = call(&before, &case.func, case.ufunc, &build_args(case).0, checks, 50_000_000);
                let y = call(&after, &case.func, case.ufunc, &build_args(case).0, checks, 50_000_000);
                runs += 1;
                if x != y {
                    failures.push(format!(
                        "{stem}: case {} after `{pipeline}` (O{}, overflow checks {checks}):\n  before: {x:?}\n  after:  {y:?}",
                        case.name, options.opt_level
                    ));
                }
            }
        }
    }
    assert!(runs > 1000, "only {runs} runs");
    assert!(failures.is_empty(), "{} of {runs} runs differ:\n{}", failures.len(), failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Generated modules.

fn scalar(dtype: DType, seed: u64) -> Value {
    match dtype {
        DType::Bool => Value::Bool(seed & 1 == 1),
        d if d.is_int() => {
            let (lo, hi) = d.int_range().unwrap();
            let picks = [0, 1, 2, 3, -1, 7, -5, lo, hi, 100];
            Value::Int(d, picks[(seed % picks.len() as u64) as usize].clamp(lo, hi))
        }
        d if d.is_float() => {
            let picks = [0.0, -0.0, 1.5, -2.25, 3.0, f64::NAN, f64::INFINITY, 1e30, 0.1];
            Value::float(d, picks[(seed % picks.len() as u64) as usize])
        }
        d if d.is_complex() => Value::complex(d, 1.5, -0.5),
        DType::Str => Value::Str("s".into()),
        _ => Value::Bytes(b"b".to_vec()),
    }
}

/// Deterministic arguments for a function; arrays are fresh buffers.
fn args_for(m: &Module, f: &postc_ir::Function, seed: u64) -> Vec<Value> {
    let mut out = Vec::new();
    for (k, v) in f.body.all_params().enumerate() {
        let s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(k as u64 * 0x1234_5679) >> 7;
        let ty = m.types.get(f.body.ty(v).unwrap());
        if ty.is_array {
            let shape: Vec<usize> = match &ty.shape {
                Shape::Dims(d) => d.iter().map(|x| x.map_or((s % 5) as usize, |x| x as usize)).collect(),
                Shape::Any => vec![(s % 5) as usize],
            };
            let n: usize = shape.iter().product();
            let vals: Vec<Value> = (0..n).map(|i| scalar(ty.dtype, s.wrapping_add(i as u64))).collect();
            out.push(Value::Array(Array::from_values(ty.dtype, &shape, &vals)));
        } else {
            out.push(scalar(ty.dtype, s));
        }
    }
    out
}

/// Checks one generated module under every configuration; returns failures.
pub fn check_generated(m: &Module, seed: u64, configs: &[(String, PassOptions)]) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut compared = 0;
    let before = Program::from_module(m.clone());
    for (pipeline, options) in configs {
        let after = match transform(m, pipeline, options) {
            Ok(a) => Program::from_module(a),
            Err(e) => {
                failures.push(format!(
                    "seed {seed}: `{pipeline}` (O{}) failed: {e}\n{}",
                    options.opt_level,
                    postc_ir::print::print_module(m)
                ));
                continue;
            }
        };
        for f in m.functions.iter() {
            for k in 0..3u64 {
                let s = seed.wrapping_mul(7919).wrapping_add(k);
                let checks = options.overflow_checks;
                let x = call(&before, &f.name, false, &args_for(m, f, s), checks, 20_000);
                let y = call(&after, &f.name, false, &args_for(m, f, s), checks, 40_000);
                if x == Outcome::OutOfFuel || y == Outcome::OutOfFuel {
                    continue;
                }
                compared += 1;
                if x != y {
                    failures.push(format!(
                        "seed {seed}: {} args #{k} after `{pipeline}` (O{}):\n  before: {x:?}\n  after:  {y:?}\n{}",
                        f.name,
                        options.opt_level,
                        postc_ir::print::print_module(m)
                    ));
                }
            }
        }
    }
    (failures, compared)
}

#[test]
fn generated_modules_keep_their_results() {
    let configs = configurations();
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut modules = 0;
    for seed in 0..200u64 {
        let data = seeded_bytes(seed, 4096);
        let Ok(m) = arbitrary_module(&mut Unstructured::new(&data), &GenConfig::default()) else { continue };
        modules += 1;
        let (f, c) = check_generated(&m, seed, &configs);
        failures.extend(f);
        compared += c;
        if failures.len() > 5 {
            break;
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
    assert!(modules >= 190 && compared > 2000, "{modules} modules, {compared} comparisons");
}

/// Regression: stride-lower read the stride of an array once, before a
/// `set` made the local (or the parameter) another view.
#[test]
fn reassigned_arrays_keep_their_strides() {
    let text = "module letarr

func f(%a: Float64[]Shape[?], %b: Float64[]Shape[?], %c: Bool) -> Float64 {
entry:
  let %x: Float64[]Shape[?] = %a
  condbr %c, sw, go
sw:
  set %x = %b
  br go
go:
  %one: Int64 = const 1
  %v: Float64 = index.load %x[%one]
  return %v
}

func g(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 {
entry:
  set %a = %b
  %one: Int64 = const 1
  %v: Float64 = index.load %a[%one]
  return %v
}
";
    let m = postc_ir::parse::parse_module("letarr.pir", text.as_bytes()).unwrap();
    let mk = |stride: isize| {
        let vals: Vec<Value> = (0..6).map(|i| Value::f64(i as f64)).collect();
        Value::Array(Array::from_values(DType::Float64, &[6], &vals).view(vec![3], vec![stride], 0))
    };
    let before = Program::from_module(m.clone());
    for (pipeline, options) in configurations() {
        let after = Program::from_module(transform(&m, &pipeline, &options).unwrap());
        for c in [true, false] {
            let args = || vec![mk(8), mk(16), Value::Bool(c)];
            let x = call(&before, "f", false, &args(), false, 1000);
            assert_eq!(x, call(&after, "f", false, &args(), false, 1000), "f after `{pipeline}`");
        }
        let args = || vec![mk(8), mk(16)];
        let x = call(&before, "g", false, &args(), false, 1000);
        assert_eq!(x, call(&after, "g", false, &args(), false, 1000), "g after `{pipeline}`");
    }
}

/// Regression: select-fold replaced a select by a `let` local (or a
/// parameter that `set` assigns) it read, so a later read of the select's
/// result saw the local's later value.
#[test]
fn selects_of_mutable_locals_keep_the_value_they_read() {
    let text = "module sel

func same_arms(%c: Bool, %x: Int64, %y: Int64) -> Int64 {
entry:
  let %l: Int64 = %x
  %s: Int64 = select %c, %l, %l
  set %l = %y
  %r: Int64 = add %s, %l
  return %r
}

func const_cond(%x: Int64, %y: Int64) -> Int64 {
entry:
  %t: Bool = const true
  %s: Int64 = select %t, %x, %y
  set %x = %y
  %r: Int64 = sub %s, %x
  return %r
}

func bool_arms(%c: Bool, %d: Bool) -> Bool {
entry:
  %t: Bool = const true
  %f: Bool = const false
  let %l: Bool = %c
  %s: Bool = select %l, %t, %f
  %n: Bool = select %l, %f, %t
  set %l = %d
  %r: Bool = and %s, %l
  %q: Bool = or %n, %r
  return %q
}

func nested(%c: Bool, %d: Bool, %a: Int64, %b: Int64) -> Int64 {
entry:
  let %k: Bool = %c
  %i: Int64 = select %k, %a, %b
  set %k = %d
  %o: Int64 = select %k, %i, %b
  return %o
}
";
    let m = postc_ir::parse::parse_module("sel.pir", text.as_bytes()).unwrap();
    let before = Program::from_module(m.clone());
    for (pipeline, options) in configurations() {
        let after = Program::from_module(transform(&m, &pipeline, &options).unwrap());
        let b = Value::Bool;
        let cases: Vec<(&str, Vec<Value>)> = vec![
            ("same_arms", vec![b(true), Value::i64(3), Value::i64(10)]),
            ("const_cond", vec![Value::i64(3), Value::i64(10)]),
            ("bool_arms", vec![b(true), b(false)]),
            ("bool_arms", vec![b(false), b(true)]),
            ("nested", vec![b(true), b(false), Value::i64(1), Value::i64(2)]),
            ("nested", vec![b(false), b(true), Value::i64(1), Value::i64(2)]),
        ];
        for (name, args) in cases {
            let x = call(&before, name, false, &args, false, 1000);
            let y = call(&after, name, false, &args, false, 1000);
            assert_eq!(x, y, "{name}{args:?} after `{pipeline}`");
        }
    }
}

/// The recursion guard panics exactly where the interpreter's own frame
/// limit does, with its message and the call's location: the deepest
/// recursion that returns, from entry points with one and two frames
/// below the cycle (`main`, `outer`), returns the same, and one frame
/// more panics the same; a mutual recursion (`even`/`odd`) too.
#[test]
fn the_recursion_guard_agrees_with_the_frame_limit() {
    let text = "module rec

func down(%n: Int64) -> Int64 {
entry:
  %z: Int64 = const 0
  %done: Bool = le %n, %z
  condbr %done, base, step
base:
  return %z
step:
  %one: Int64 = const 1
  %m: Int64 = sub %n, %one
  %r: Int64 = call down(%m) !loc \"rec.py\":3:12
  %s: Int64 = add %r, %one
  return %s
}

func main(%n: Int64) -> Int64 {
entry:
  %r: Int64 = call down(%n) !loc \"rec.py\":6:11
  return %r
}

func outer(%n: Int64) -> Int64 {
entry:
  %r: Int64 = call main(%n) !loc \"rec.py\":9:11
  return %r
}

func even(%n: Int64) -> Bool {
entry:
  %z: Int64 = const 0
  %done: Bool = le %n, %z
  condbr %done, base, step
base:
  %t: Bool = const true
  return %t
step:
  %one: Int64 = const 1
  %m: Int64 = sub %n, %one
  %r: Bool = call odd(%m) !loc \"rec.py\":12:12
  return %r
}

func odd(%n: Int64) -> Bool {
entry:
  %z: Int64 = const 0
  %done: Bool = le %n, %z
  condbr %done, base, step
base:
  %f: Bool = const false
  return %f
step:
  %one: Int64 = const 1
  %m: Int64 = sub %n, %one
  %r: Bool = call even(%m) !loc \"rec.py\":15:12
  return %r
}
";
    let m = postc_ir::parse::parse_module("rec.pir", text.as_bytes()).unwrap();
    let before = Program::from_module(m.clone());
    let after = Program::from_module(transform(&m, "insert-recursion-checks", &PassOptions::default()).unwrap());
    let mid = ModuleId::from_u32(0);
    assert!(after.modules[mid].num_insts() > before.modules[mid].num_insts(), "no guard written");
    let int = |x: i128| Value::Int(DType::Int64, x);
    // `down(n)` makes n + 1 frames.
    for (entry, deepest) in [("down", 9999), ("main", 9998), ("outer", 9997), ("even", 9999)] {
        for n in [deepest, deepest + 1] {
            let want = call(&before, entry, false, &[int(n)], false, u64::MAX);
            let got = call(&after, entry, false, &[int(n)], false, u64::MAX);
            assert_eq!(got, want, "{entry}({n})");
            assert_eq!(matches!(want, Outcome::Returned { .. }), n == deepest, "{entry}({n}): {want:?}");
        }
    }
}
