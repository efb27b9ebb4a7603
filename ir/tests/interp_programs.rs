//! Whole programs in the reference interpreter: loops with `let`/`set`,
//! arrays and views, calls, traps and their locations, fuel, recursion,
//! intrinsics and built-ins.

// Expected values are Python's printed results, not approximations of constants.
#![allow(clippy::approx_constant)]

use postc_ir::interp::{Array, InterpOptions, Interpreter, Trap, TrapKind, Value};
use postc_ir::parse::parse_str;
use postc_ir::verify::verify_program;
use postc_ir::{DType, Module, ModuleId, Program};

fn module(text: &str) -> Module {
    parse_str("t.pir", text).unwrap_or_else(|d| panic!("{d:?}"))
}

fn program(texts: &[&str]) -> Program {
    let p = unverified(texts);
    let diags = verify_program(&p);
    assert!(diags.is_empty(), "{diags:?}");
    p
}

/// A program the verifier rejects (a boundary call) but that runs until
/// the call.
fn unverified(texts: &[&str]) -> Program {
    let mut p = Program::default();
    for t in texts {
        p.modules.push(module(t));
    }
    p.link_dependencies();
    p
}

fn run_opts(p: &Program, func: &str, args: &[Value], opts: InterpOptions) -> Result<Option<Value>, Trap> {
    Interpreter::new(p, opts).call(ModuleId::from_u32(0), func, args)
}

fn run(p: &Program, func: &str, args: &[Value]) -> Result<Option<Value>, Trap> {
    run_opts(p, func, args, InterpOptions::default())
}

fn i64v(x: i64) -> Value {
    Value::i64(x)
}

fn f64s(xs: &[f64]) -> Vec<Value> {
    xs.iter().map(|x| Value::f64(*x)).collect()
}

const SUM: &str = r#"
module sums

func sum_to(%n: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  let %acc: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %a2: Int64 = add %acc, %i
  set %acc = %a2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func spin() {
entry:
  br entry2
entry2:
  br entry2
}

func fact(%n: Int64) -> Int64 {
entry:
  %one: Int64 = const 1
  %base: Bool = le %n, %one
  condbr %base, b, r
b:
  return %one
r:
  %m: Int64 = sub %n, %one
  %f: Int64 = call fact(%m)
  %p: Int64 = mul %n, %f
  return %p
}

func down(%n: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %stop: Bool = le %n, %zero
  condbr %stop, b, r
b:
  return %zero
r:
  %m: Int64 = sub %n, %one
  %f: Int64 = call down(%m)
  %p: Int64 = add %f, %one
  return %p
}
"#;

#[test]
fn loops_with_let_and_set() {
    let p = program(&[SUM]);
    assert_eq!(run(&p, "sum_to", &[i64v(10)]).unwrap(), Some(i64v(45)));
    assert_eq!(run(&p, "sum_to", &[i64v(0)]).unwrap(), Some(i64v(0)));
    assert_eq!(run(&p, "sum_to", &[i64v(100_000)]).unwrap(), Some(i64v(4_999_950_000)));
}

#[test]
fn fuel_stops_non_terminating_programs() {
    let p = program(&[SUM]);
    let opts = InterpOptions { overflow_checks: false, fuel: Some(1000) };
    let e = run_opts(&p, "spin", &[], opts.clone()).unwrap_err();
    assert_eq!(e.kind, TrapKind::OutOfFuel);
    assert_eq!(e.loc.as_ref().map(|l| l.0.as_str()), Some("t.pir"));
    // Enough fuel: the same budget per top-level call.
    let mut it = Interpreter::new(&p, InterpOptions { overflow_checks: false, fuel: Some(200) });
    for _ in 0..3 {
        assert_eq!(it.call(ModuleId::from_u32(0), "sum_to", &[i64v(10)]).unwrap(), Some(i64v(45)));
    }
    let e = it.call(ModuleId::from_u32(0), "sum_to", &[i64v(100)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::OutOfFuel);
}

/// Doubles a string `n` times, appends a byte `n` times, allocates `n`
/// elements.
const TEXT: &str = "module t

func double(%n: Int64) -> Int64 {
entry:
  %s0: Str = const \"ab\"
  let %s: Str = %s0
  %zero: Int64 = const 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %s2: Str = add %s, %s
  set %s = %s2
  %one: Int64 = const 1
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %len: Int64 = getfield %s, len
  return %len
}

func grow(%n: Int64) -> Int64 {
entry:
  %b0: Bytes = const b\"\"
  let %b: Bytes = %b0
  %x: Bytes = const b\"x\"
  %zero: Int64 = const 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %b2: Bytes = add %b, %x
  set %b = %b2
  %one: Int64 = const 1
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %len: Int64 = getfield %b, len
  return %len
}

func big(%n: Int64) -> Int64 {
entry:
  %a: Float64[] = alloc %n
  %k: Int64 = dim %a, 0
  return %k
}
";

/// Fuel bounds work, not only instructions: a string doubled 40 times
/// (2^41 bytes) stops as soon as the copies outgrow the fuel; appending
/// pays for the growing copies; an allocation pays per element.
#[test]
fn fuel_counts_the_text_and_allocations_an_instruction_works_on() {
    let p = program(&[TEXT]);
    let fuel = |n| InterpOptions { overflow_checks: false, fuel: Some(n) };
    assert_eq!(run_opts(&p, "double", &[i64v(5)], fuel(1000)).unwrap(), Some(i64v(64)));
    let e = run_opts(&p, "double", &[i64v(40)], fuel(1000)).unwrap_err();
    assert_eq!(e.kind, TrapKind::OutOfFuel);
    // The entry's five instructions cost 7 (the `let` copies 2 bytes); a
    // round of eight instructions on a string of L bytes costs 4L + 8 (the
    // `add` reads 2L, the `set` copies 2L): after six rounds 559 units are
    // spent, and the seventh (L = 128) stops before its `set`.
    assert_eq!(e.message, "stopped after 56 instructions");
    // Appending one byte n times copies n^2/2 bytes.
    assert_eq!(run_opts(&p, "grow", &[i64v(100)], fuel(20_000)).unwrap(), Some(i64v(100)));
    let e = run_opts(&p, "grow", &[i64v(1_000)], fuel(20_000)).unwrap_err();
    assert_eq!(e.kind, TrapKind::OutOfFuel);
    assert_eq!(run_opts(&p, "big", &[i64v(1_000)], fuel(1_003)).unwrap(), Some(i64v(1_000)));
    let e = run_opts(&p, "big", &[i64v(1_000)], fuel(1_000)).unwrap_err();
    assert_eq!((e.kind, e.message.as_str()), (TrapKind::OutOfFuel, "stopped after 0 instructions"));
}

#[test]
fn recursion_runs_on_an_explicit_stack() {
    let p = program(&[SUM]);
    assert_eq!(run(&p, "fact", &[i64v(20)]).unwrap(), Some(i64v(2432902008176640000)));
    // 21! wraps at -O1 and traps at -O0.
    assert_eq!(run(&p, "fact", &[i64v(21)]).unwrap(), Some(i64v(-4249290049419214848)));
    let checked = InterpOptions { overflow_checks: true, fuel: None };
    let e = run_opts(&p, "fact", &[i64v(21)], checked).unwrap_err();
    assert_eq!(e.message, "integer overflow");
    assert_eq!(run(&p, "down", &[i64v(9_000)]).unwrap(), Some(i64v(9_000)));
    let e = run(&p, "down", &[i64v(1_000_000)]).unwrap_err();
    assert_eq!((e.kind, e.message.as_str()), (TrapKind::Panic, "recursion limit exceeded"));
    assert!(e.loc.is_some());
}

const ARRAYS: &str = r#"
module arrays

func saxpy(%a: Float32, %x: Float32[], %y: &Float32[]) {
entry:
  %n: Int64 = dim %x, 0
  %zero: Int64 = const 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %xi: Float32 = index.load %x[%i]
  %yi: Float32 = index.load %y[%i]
  %p: Float32 = mul %a, %xi
  %s: Float32 = add %p, %yi
  index.store %y[%i], %s
  %one: Int64 = const 1
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func at(%m: Float64[]Shape[?, ?], %i: Int64, %j: Int64) -> Float64 {
entry:
  %v: Float64 = index.load %m[%i, %j] !loc "kern.py":7:12
  return %v
}

func at_bytes(%m: Float64[]Shape[?, ?], %i: Int64, %j: Int64) -> Float64 {
entry:
  %s0: Int64 = stride %m, 0
  %s1: Int64 = stride %m, 1
  %o0: Int64 = mul %i, %s0
  %o1: Int64 = mul %j, %s1
  %o: Int64 = add %o0, %o1
  %v: Float64 = load %m, %o !loc "kern.py":9:5
  return %v
}

func dims(%m: Float64[]Shape[?, ?]FOrder) -> Int64 {
entry:
  %d0: Int64 = dim %m, 0
  %d1: Int64 = dim %m, 1
  %s1: Int64 = stride %m, 1
  %k: Int64 = const 1000
  %a: Int64 = mul %d0, %k
  %b: Int64 = mul %d1, %k
  %c: Int64 = mul %b, %k
  %r0: Int64 = add %a, %c
  %r: Int64 = add %r0, %s1
  return %r
}

func fill(%n: Int64) -> Float64 {
entry:
  %buf: Float64[] = alloc %n !loc "kern.py":20:3
  %zero: Int64 = const 0
  %last: Int64 = sub %n, %zero
  %one: Int64 = const 1
  %li: Int64 = sub %n, %one
  %v: Float64 = const 2.5
  index.store %buf[%li], %v
  %w: Float64 = index.load %buf[%li]
  %u: Float64 = index.load %buf[%zero]
  %r: Float64 = add %w, %u
  return %r
}

func complex_fields(%z: Complex128) -> Complex128 {
entry:
  let %w: Complex128 = %z
  %re: Float64 = getfield %z, real
  %im: Float64 = getfield %z, imag
  setfield %w, real, %im
  setfield %w, imag, %re
  return %w
}

func pick(%c: Bool, %a: Int64, %b: Int64) -> Int64 {
entry:
  %r: Int64 = select %c, %a, %b
  return %r
}

func boom(%x: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  %neg: Bool = lt %x, %zero
  condbr %neg, bad, good
bad:
  unreachable !loc "kern.py":30:1
good:
  return %x
}
"#;

#[test]
fn output_arrays_are_written_through() {
    let p = program(&[ARRAYS]);
    let f32s = |xs: &[f32]| xs.iter().map(|x| Value::Float(DType::Float32, *x as f64)).collect::<Vec<_>>();
    let x = Array::from_values(DType::Float32, &[3], &f32s(&[1.0, 2.0, 3.0]));
    let y = Array::from_values(DType::Float32, &[3], &f32s(&[0.5, 0.25, 0.125]));
    let a = Value::Float(DType::Float32, 2.0);
    assert_eq!(run(&p, "saxpy", &[a, Value::Array(x), Value::Array(y.clone())]).unwrap(), None);
    assert_eq!(y.to_values(), f32s(&[2.5, 4.25, 6.125]));
    assert_eq!(Value::Array(y).to_string(), "[2.5, 4.25, 6.125]");
}

#[test]
fn strided_and_fortran_views() {
    let p = program(&[ARRAYS]);
    // 2x3 C-order [[0,1,2],[3,4,5]]
    let c = Array::from_values(DType::Float64, &[2, 3], &f64s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]));
    assert_eq!(c.strides, vec![24, 8]);
    for (i, j, v) in [(0, 0, 0.0), (0, 2, 2.0), (1, 0, 3.0), (1, 2, 5.0)] {
        let args = [Value::Array(c.clone()), i64v(i), i64v(j)];
        assert_eq!(run(&p, "at", &args).unwrap(), Some(Value::f64(v)));
        assert_eq!(run(&p, "at_bytes", &args).unwrap(), Some(Value::f64(v)));
    }
    // Its transpose: a 3x2 view with swapped strides.
    let t = c.view(vec![3, 2], vec![8, 24], 0);
    assert_eq!(Value::Array(t.clone()).to_string(), "[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]");
    assert_eq!(run(&p, "at", &[Value::Array(t.clone()), i64v(2), i64v(1)]).unwrap(), Some(Value::f64(5.0)));
    // Every other column, from the end: c[:, ::-2] = [[2,0],[5,3]].
    let s = c.view(vec![2, 2], vec![24, -16], 16);
    assert_eq!(s.to_values(), f64s(&[2.0, 0.0, 5.0, 3.0]));
    assert_eq!(run(&p, "at", &[Value::Array(s.clone()), i64v(1), i64v(1)]).unwrap(), Some(Value::f64(3.0)));
    assert_eq!(run(&p, "at_bytes", &[Value::Array(s), i64v(0), i64v(1)]).unwrap(), Some(Value::f64(0.0)));
    // F order: element (i, j) at i*8 + j*16.
    let f = Array::zeros(DType::Float64, &[2, 3], true);
    assert_eq!(f.strides, vec![8, 16]);
    f.set(&[1, 2], &Value::f64(7.0));
    assert_eq!(f.buf.borrow()[40..48], 7.0f64.to_le_bytes());
    assert_eq!(run(&p, "at", &[Value::Array(f.clone()), i64v(1), i64v(2)]).unwrap(), Some(Value::f64(7.0)));
    assert_eq!(run(&p, "dims", &[Value::Array(f)]).unwrap(), Some(i64v(2000 + 3_000_000 + 16)));
}

#[test]
fn bounds_and_memory_traps_carry_locations() {
    let p = program(&[ARRAYS]);
    let c = Array::from_values(DType::Float64, &[2, 3], &f64s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]));
    let e = run(&p, "at", &[Value::Array(c.clone()), i64v(1), i64v(3)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Panic);
    assert_eq!(e.message, "index out of bounds: index 3 is out of range for axis 1 with size 3");
    assert_eq!(
        e.to_string(),
        "panic: index out of bounds: index 3 is out of range for axis 1 with size 3 at kern.py:7:12"
    );
    let e = run(&p, "at", &[Value::Array(c.clone()), i64v(-1), i64v(0)]).unwrap_err();
    assert_eq!(e.message, "index out of bounds: index -1 is out of range for axis 0 with size 2");
    let e = run(&p, "at_bytes", &[Value::Array(c.clone()), i64v(2), i64v(0)]).unwrap_err();
    assert_eq!(e.message, "out-of-bounds memory access");
    assert_eq!(e.loc, Some(("kern.py".into(), 9, 5)));
    let e = run(&p, "at_bytes", &[Value::Array(c), i64v(0), i64v(-1)]).unwrap_err();
    assert_eq!(e.message, "out-of-bounds memory access");
    let e = run(&p, "boom", &[i64v(-1)]).unwrap_err();
    assert_eq!(e.to_string(), "panic: entered unreachable code at kern.py:30:1");
    assert_eq!(run(&p, "boom", &[i64v(4)]).unwrap(), Some(i64v(4)));
    // A wrongly shaped argument.
    let v = Array::zeros(DType::Float64, &[3], false);
    let e = run(&p, "at", &[Value::Array(v), i64v(0), i64v(0)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
}

#[test]
fn alloc_fields_and_select() {
    let p = program(&[ARRAYS]);
    assert_eq!(run(&p, "fill", &[i64v(4)]).unwrap(), Some(Value::f64(2.5)));
    let e = run(&p, "fill", &[i64v(-2)]).unwrap_err();
    assert_eq!(e.to_string(), "panic: negative allocation length at kern.py:20:3");
    let z = Value::Complex(DType::Complex128, 1.0, 2.0);
    assert_eq!(run(&p, "complex_fields", &[z]).unwrap(), Some(Value::Complex(DType::Complex128, 2.0, 1.0)));
    let r = run(&p, "pick", &[Value::Bool(false), i64v(1), i64v(2)]).unwrap();
    assert_eq!(r, Some(i64v(2)));
}

const LIB: &str = r#"
module lib.core
import intrinsic sqrt = sqrt
alias root = sqrt

func twice(%x: Float64) -> Float64 {
entry:
  %r: Float64 = add %x, %x
  return %r
}

func hyp(%a: Float64, %b: Float64) -> Float64 {
entry:
  %aa: Float64 = mul %a, %a
  %bb: Float64 = mul %b, %b
  %s: Float64 = add %aa, %bb
  %r: Float64 = call root(%s)
  return %r
}
"#;

const APP: &str = r#"
module app
import post lib.core: twice as dbl, hyp
import intrinsic erf = erf
import intrinsic lgamma = lgamma
import intrinsic tgamma = tgamma
import intrinsic sqrtf = sqrtf
import boundary numpy: asarray
alias double = dbl

func use_lib(%x: Float64) -> Float64 {
entry:
  %a: Float64 = call double(%x)
  %three: Float64 = const 3.0
  %four: Float64 = const 4.0
  %h: Float64 = call hyp(%three, %four)
  %r: Float64 = add %a, %h
  return %r
}

func special(%x: Float64) -> Float64 {
entry:
  %e: Float64 = call erf(%x)
  return %e
}

func lg(%x: Float64) -> Float64 {
entry:
  %e: Float64 = call lgamma(%x)
  return %e
}

func tg(%x: Float64) -> Float64 {
entry:
  %e: Float64 = call tgamma(%x)
  return %e
}

func root32(%x: Float32) -> Float32 {
entry:
  %e: Float32 = call sqrtf(%x)
  return %e
}

func outside(%x: Float64) -> Float64 {
entry:
  %e: Float64 = call asarray(%x) !loc "app.py":4:9
  return %e
}

func checked_panic(%i: Int64) {
entry:
  %n: Int64 = const 10
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%msg, %i, %n) !loc "app.py":8:2
  unreachable
}

func ovf(%a: Int8, %b: Int8) -> Bool {
entry:
  %r: Bool = call postc.ovf.add(%a, %b)
  return %r
}
"#;

#[test]
fn calls_across_modules_aliases_and_intrinsics() {
    let p = unverified(&[APP, LIB]);
    assert_eq!(run(&p, "use_lib", &[Value::f64(1.5)]).unwrap(), Some(Value::f64(8.0)));
    let e = run(&p, "outside", &[Value::f64(1.5)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
    assert!(e.message.contains("boundary import `asarray`"), "{}", e.message);
    assert_eq!(e.loc, Some(("app.py".into(), 4, 9)));
    let r = run(&p, "root32", &[Value::Float(DType::Float32, 2.0)]).unwrap();
    assert_eq!(r, Some(Value::Float(DType::Float32, 2f32.sqrt() as f64)));
}

#[test]
fn builtins_panic_and_overflow_checks() {
    let p = unverified(&[APP, LIB]);
    let e = run(&p, "checked_panic", &[i64v(12)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "panic: index out of bounds: index 12 is out of range for axis 0 with size 10 at app.py:8:2"
    );
    let i8v = |x| Value::Int(DType::Int8, x);
    assert_eq!(run(&p, "ovf", &[i8v(100), i8v(27)]).unwrap(), Some(Value::Bool(false)));
    assert_eq!(run(&p, "ovf", &[i8v(100), i8v(28)]).unwrap(), Some(Value::Bool(true)));
}

fn close(got: Option<Value>, want: f64, rel: f64) {
    let Some(Value::Float(_, x)) = got else { panic!("{got:?}") };
    assert!((x - want).abs() <= rel * want.abs(), "got {x:e}, want {want:e}");
}

#[test]
fn special_functions_are_accurate() {
    let p = unverified(&[APP, LIB]);
    // Reference values: CPython's math module (the platform libm).
    for (x, want) in [
        (0.5, 0.5204998778130465),
        (1.0, 0.8427007929497149),
        (-0.3, -0.3286267594591274),
        (2.5, 0.999593047982555),
        (1e-10, 1.1283791670955126e-10),
    ] {
        close(run(&p, "special", &[Value::f64(x)]).unwrap(), want, 1e-15);
    }
    for (x, want) in [
        (0.5, 0.5723649429247004),
        (3.0, 0.693147180559945),
        (100.0, 359.1342053695754),
        (-0.5, 1.265512123484645),
        (1e-5, 11.512919692895824),
    ] {
        close(run(&p, "lg", &[Value::f64(x)]).unwrap(), want, 1e-15);
    }
    for (x, want) in [(5.0, 24.0), (0.5, 1.7724538509055159), (-1.5, 2.3632718012073544), (10.1, 454760.7514415857)] {
        close(run(&p, "tg", &[Value::f64(x)]).unwrap(), want, 2e-15);
    }
}
