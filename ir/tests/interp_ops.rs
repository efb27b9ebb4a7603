//! Operator, cast and display semantics of the reference interpreter,
//! checked against what Python / NumPy give.

// Expected values are Python's printed results, not approximations of constants.
#![allow(clippy::approx_constant)]

use postc_ir::interp::{InterpOptions, Interpreter, Trap, TrapKind, Value};
use postc_ir::{DType, FunctionBuilder, Module, Opcode, Program, SrcLoc, TypeId};

fn t(d: DType) -> TypeId {
    TypeId::scalar(d)
}

fn run(m: Module, args: &[Value], checks: bool) -> Result<Option<Value>, Trap> {
    let p = Program::from_module(m);
    let mut it = Interpreter::new(&p, InterpOptions { overflow_checks: checks, fuel: None });
    it.call(p.get_module("t").unwrap(), "f", args)
}

/// `f(a, b) = a OP b` with a location on the operation.
fn bin_checked(op: Opcode, out: DType, a: Value, b: Value, checks: bool) -> Result<Value, Trap> {
    let mut m = Module::new("t");
    let file = m.files.intern("k.py");
    let mut fb = FunctionBuilder::new("f");
    let pa = fb.param("a", t(a.dtype()));
    let pb = fb.param("b", t(b.dtype()));
    fb.set_return(Some(t(out)));
    let e = fb.create_block("entry");
    fb.switch_to(e);
    fb.set_loc(Some(SrcLoc { file, line: 3, col: 7, implicit: false }));
    let r = fb.binary(op, t(out), pa, pb, "r");
    fb.ret(Some(r));
    m.add_function(fb.finish());
    run(m, &[a, b], checks).map(|v| v.unwrap())
}

fn bin(op: Opcode, out: DType, a: Value, b: Value) -> Value {
    bin_checked(op, out, a, b, false).unwrap_or_else(|e| panic!("{e}"))
}

fn un_checked(op: Opcode, out: DType, a: Value, checks: bool) -> Result<Value, Trap> {
    let mut m = Module::new("t");
    let mut fb = FunctionBuilder::new("f");
    let pa = fb.param("a", t(a.dtype()));
    fb.set_return(Some(t(out)));
    let e = fb.create_block("entry");
    fb.switch_to(e);
    let r = if op == Opcode::Cast { fb.cast(t(out), pa, "r") } else { fb.unary(op, t(out), pa, "r") };
    fb.ret(Some(r));
    m.add_function(fb.finish());
    run(m, &[a], checks).map(|v| v.unwrap())
}

fn un(op: Opcode, out: DType, a: Value) -> Value {
    un_checked(op, out, a, false).unwrap_or_else(|e| panic!("{e}"))
}

fn cast(out: DType, a: Value) -> Value {
    un(Opcode::Cast, out, a)
}

fn i(d: DType, x: i128) -> Value {
    Value::Int(d, x)
}
fn i64v(x: i128) -> Value {
    Value::Int(DType::Int64, x)
}
fn f(x: f64) -> Value {
    Value::Float(DType::Float64, x)
}
fn f32v(x: f32) -> Value {
    Value::Float(DType::Float32, x as f64)
}
fn c(re: f64, im: f64) -> Value {
    Value::Complex(DType::Complex128, re, im)
}

use DType::*;

#[test]
fn integer_floor_division_and_modulo_follow_python() {
    for (a, b, q, r) in [(-7, 2, -4, 1), (7, -2, -4, -1), (-7, -2, 3, -1), (7, 2, 3, 1), (6, -3, -2, 0), (0, -5, 0, 0)]
    {
        assert_eq!(bin(Opcode::FDiv, Int64, i64v(a), i64v(b)), i64v(q), "{a} // {b}");
        assert_eq!(bin(Opcode::Mod, Int64, i64v(a), i64v(b)), i64v(r), "{a} % {b}");
    }
    assert_eq!(bin(Opcode::FDiv, UInt8, i(UInt8, 255), i(UInt8, 2)), i(UInt8, 127));
    // MIN // -1 wraps, MIN % -1 is 0, with or without overflow checks.
    let min = i64::MIN as i128;
    for checks in [false, true] {
        assert_eq!(bin_checked(Opcode::FDiv, Int64, i64v(min), i64v(-1), checks).unwrap(), i64v(min));
        assert_eq!(bin_checked(Opcode::Mod, Int64, i64v(min), i64v(-1), checks).unwrap(), i64v(0));
        assert_eq!(bin_checked(Opcode::FDiv, Int8, i(Int8, -128), i(Int8, -1), checks).unwrap(), i(Int8, -128));
    }
}

#[test]
fn division_by_zero_traps_with_location() {
    let e = bin_checked(Opcode::FDiv, Int64, i64v(5), i64v(0), false).unwrap_err();
    assert_eq!(e.kind, TrapKind::Panic);
    assert_eq!(e.message, "division by zero");
    assert_eq!(e.loc, Some(("k.py".to_string(), 3, 7)));
    assert_eq!(e.to_string(), "panic: division by zero at k.py:3:7");
    let e = bin_checked(Opcode::Mod, UInt32, i(UInt32, 5), i(UInt32, 0), false).unwrap_err();
    assert_eq!(e.message, "modulo by zero");
}

#[test]
fn integer_arithmetic_wraps_or_traps_when_checked() {
    assert_eq!(bin(Opcode::Add, Int8, i(Int8, 127), i(Int8, 1)), i(Int8, -128));
    assert_eq!(bin(Opcode::Sub, UInt8, i(UInt8, 0), i(UInt8, 1)), i(UInt8, 255));
    assert_eq!(bin(Opcode::Mul, Int16, i(Int16, 300), i(Int16, 300)), i(Int16, 90000 - 65536));
    assert_eq!(bin(Opcode::Mul, UInt64, i(UInt64, u64::MAX as i128), i(UInt64, u64::MAX as i128)), i(UInt64, 1));
    assert_eq!(bin(Opcode::Add, Int64, i64v(i64::MAX as i128), i64v(1)), i64v(i64::MIN as i128));
    for (op, d, a, b) in [
        (Opcode::Add, Int8, 127, 1),
        (Opcode::Sub, UInt8, 0, 1),
        (Opcode::Mul, Int32, 1 << 20, 1 << 12),
        (Opcode::Sub, Int64, i64::MIN as i128, 1),
        (Opcode::Pow, Int8, 2, 7),
        (Opcode::Mul, UInt64, u64::MAX as i128, u64::MAX as i128),
    ] {
        let e = bin_checked(op, d, i(d, a), i(d, b), true).unwrap_err();
        assert_eq!((e.kind, e.message.as_str()), (TrapKind::Panic, "integer overflow"), "{op:?} {d} {a} {b}");
    }
    // In range with checks: fine.
    assert_eq!(bin_checked(Opcode::Add, Int8, i(Int8, 100), i(Int8, 27), true).unwrap(), i(Int8, 127));
}

#[test]
fn integer_power() {
    assert_eq!(bin(Opcode::Pow, Int64, i64v(2), i64v(10)), i64v(1024));
    assert_eq!(bin(Opcode::Pow, Int64, i64v(0), i64v(0)), i64v(1));
    assert_eq!(bin(Opcode::Pow, Int64, i64v(-3), i64v(3)), i64v(-27));
    assert_eq!(bin(Opcode::Pow, Int8, i(Int8, 2), i(Int8, 7)), i(Int8, -128));
    assert_eq!(bin(Opcode::Pow, Int64, i64v(3), i64v(100)), i64v(3i64.wrapping_pow(100) as i128));
    // (-2)**63 is exactly Int64's MIN: no overflow even when checked.
    let r = bin_checked(Opcode::Pow, Int64, i64v(-2), i64v(63), true).unwrap();
    assert_eq!(r, i64v(i64::MIN as i128));
    assert_eq!(bin_checked(Opcode::Pow, Int64, i64v(-2), i64v(64), true).unwrap_err().message, "integer overflow");
    let e = bin_checked(Opcode::Pow, Int64, i64v(2), i64v(-1), false).unwrap_err();
    assert_eq!((e.kind, e.message.as_str()), (TrapKind::Panic, "negative exponent"));
}

#[test]
fn true_division() {
    assert_eq!(bin(Opcode::Div, Float64, i64v(7), i64v(2)), f(3.5));
    assert_eq!(bin(Opcode::Div, Float64, f(1.0), f(0.0)), f(f64::INFINITY));
    assert_eq!(bin(Opcode::Div, Float64, f(-1.0), f(0.0)), f(f64::NEG_INFINITY));
    assert_eq!(bin(Opcode::Div, Float64, f(1.0), f(-0.0)), f(f64::NEG_INFINITY));
    assert!(matches!(bin(Opcode::Div, Float64, f(0.0), f(0.0)), Value::Float(_, x) if x.is_nan()));
    assert_eq!(bin(Opcode::Div, Float64, i64v(1), i64v(0)), f(f64::INFINITY));
    assert_eq!(bin(Opcode::Div, Float32, f32v(1.0), f32v(3.0)), f32v(1.0 / 3.0));
}

#[test]
fn float_floor_division_and_modulo_follow_python() {
    let cases = [
        (-7.5, 2.0, -4.0, 0.5),
        (7.5, -2.0, -4.0, -0.5),
        (7.5, 2.0, 3.0, 1.5),
        (-0.0, 5.0, -0.0, 0.0),
        (0.0, -1.0, -0.0, -0.0),
        (1.0, 0.1, 9.0, 0.09999999999999995),
        (-1e-300, 1.0, -1.0, 1.0),
    ];
    for (a, b, q, r) in cases {
        assert_eq!(bin(Opcode::FDiv, Float64, f(a), f(b)), f(q), "{a} // {b}");
        assert_eq!(bin(Opcode::Mod, Float64, f(a), f(b)), f(r), "{a} % {b}");
    }
    // By zero: NumPy's results, no trap.
    assert_eq!(bin(Opcode::FDiv, Float64, f(1.0), f(0.0)), f(f64::INFINITY));
    assert_eq!(bin(Opcode::FDiv, Float64, f(-1.0), f(0.0)), f(f64::NEG_INFINITY));
    assert_eq!(bin(Opcode::Mod, Float64, f(1.0), f(0.0)), f(f64::NAN));
}

#[test]
fn narrow_floats_round_after_each_operation() {
    // float32(0.1) + float32(0.2) == float32(0.3)
    assert_eq!(bin(Opcode::Add, Float32, f32v(0.1), f32v(0.2)), f32v(0.3));
    assert_eq!(bin(Opcode::Add, Float32, f32v(0.1), f32v(0.2)).to_string(), "0.3");
    let h = |x: f64| Value::Float(Float16, x);
    assert_eq!(bin(Opcode::Add, Float16, h(2048.0), h(1.0)), h(2048.0));
    assert_eq!(bin(Opcode::Mul, Float16, h(300.0), h(300.0)), h(f64::INFINITY));
    assert_eq!(bin(Opcode::Pow, Float64, f(2.0), f(0.5)), f(std::f64::consts::SQRT_2));
}

#[test]
fn complex_arithmetic_follows_python() {
    assert_eq!(bin(Opcode::Mul, Complex128, c(1.0, 2.0), c(3.0, 4.0)), c(-5.0, 10.0));
    assert_eq!(bin(Opcode::Div, Complex128, c(1.0, 2.0), c(3.0, 4.0)).to_string(), "(0.44+0.08j)");
    assert_eq!(bin(Opcode::Sub, Complex128, c(1.0, 2.0), c(3.0, 4.0)), c(-2.0, -2.0));
    assert_eq!(bin(Opcode::Pow, Complex128, c(1.0, 1.0), c(2.0, 0.0)), c(0.0, 2.0));
    assert_eq!(bin(Opcode::Pow, Complex128, c(0.0, 1.0), c(2.0, 0.0)), c(-1.0, 0.0));
    assert_eq!(bin(Opcode::Pow, Complex128, c(5.0, 0.0), c(0.0, 0.0)), c(1.0, 0.0));
    // 1j ** 0.5 via the general formula.
    let r = bin(Opcode::Pow, Complex128, c(0.0, 1.0), c(0.5, 0.0));
    let Value::Complex(_, re, im) = r else { panic!() };
    assert!((re - 0.7071067811865476).abs() < 1e-15 && (im - 0.7071067811865475).abs() < 1e-15);
    let e = bin_checked(Opcode::Pow, Complex128, c(0.0, 0.0), c(-1.0, 0.0), false).unwrap_err();
    assert_eq!(e.message, "zero to a negative or complex power");
    assert_eq!(un(Opcode::Abs, Float64, c(3.0, 4.0)), f(5.0));
    let c64 = Value::Complex(Complex64, 3.0, 4.0);
    assert_eq!(un(Opcode::Abs, Float32, c64), f32v(5.0));
    assert_eq!(un(Opcode::Neg, Complex128, c(1.0, -2.0)), c(-1.0, 2.0));
    assert_eq!(bin(Opcode::Eq, Bool, c(1.0, 2.0), c(1.0, 2.0)), Value::Bool(true));
    assert_eq!(bin(Opcode::Ne, Bool, c(1.0, 2.0), c(1.0, 3.0)), Value::Bool(true));
    let e = bin_checked(Opcode::Lt, Bool, c(1.0, 2.0), c(1.0, 3.0), false).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
}

#[test]
fn comparisons() {
    let b = Value::Bool;
    assert_eq!(bin(Opcode::Gt, Bool, i(UInt8, 200), i(UInt8, 100)), b(true));
    assert_eq!(bin(Opcode::Lt, Bool, i(Int8, -1), i(Int8, 1)), b(true));
    assert_eq!(bin(Opcode::Gt, Bool, i(UInt64, u64::MAX as i128), i(UInt64, 1)), b(true));
    let nan = f(f64::NAN);
    assert_eq!(bin(Opcode::Ne, Bool, nan.clone(), nan.clone()), b(true));
    for op in [Opcode::Eq, Opcode::Lt, Opcode::Le, Opcode::Gt, Opcode::Ge] {
        assert_eq!(bin(op, Bool, nan.clone(), f(1.0)), b(false), "{op:?}");
    }
    assert_eq!(bin(Opcode::Eq, Bool, f(0.0), f(-0.0)), b(true));
    assert_eq!(bin(Opcode::Lt, Bool, b(false), b(true)), b(true));
    let s = |x: &str| Value::Str(x.into());
    assert_eq!(bin(Opcode::Lt, Bool, s("abc"), s("abd")), b(true));
    assert_eq!(bin(Opcode::Lt, Bool, s("ab"), s("abc")), b(true));
    assert_eq!(bin(Opcode::Eq, Bool, s("ab"), s("ab")), b(true));
    assert_eq!(bin(Opcode::Ne, Bool, s("ab"), s("abc")), b(true));
    let by = |x: &[u8]| Value::Bytes(x.to_vec());
    assert_eq!(bin(Opcode::Gt, Bool, by(b"\xff"), by(b"\x00\x00")), b(true));
    assert_eq!(bin(Opcode::Eq, Bool, by(b"a\x00"), by(b"a")), b(false));
}

#[test]
fn strings_and_bytes_concatenate() {
    let s = |x: &str| Value::Str(x.into());
    assert_eq!(bin(Opcode::Add, Str, s("ab"), s("cd")), s("abcd"));
    let by = |x: &[u8]| Value::Bytes(x.to_vec());
    assert_eq!(bin(Opcode::Add, Bytes, by(b"\x00"), by(b"a")), by(b"\x00a"));
}

#[test]
fn logic_and_bitwise() {
    let b = Value::Bool;
    assert_eq!(bin(Opcode::And, Bool, b(true), b(false)), b(false));
    assert_eq!(bin(Opcode::Or, Bool, b(true), b(false)), b(true));
    assert_eq!(un(Opcode::Not, Bool, b(true)), b(false));
    assert_eq!(bin(Opcode::BXor, Bool, b(true), b(true)), b(false));
    assert_eq!(bin(Opcode::BAnd, Int8, i(Int8, -1), i(Int8, 0x0f)), i(Int8, 15));
    assert_eq!(bin(Opcode::BOr, UInt8, i(UInt8, 0xf0), i(UInt8, 0x0f)), i(UInt8, 255));
    assert_eq!(bin(Opcode::BXor, Int64, i64v(-1), i64v(5)), i64v(-6));
    assert_eq!(un(Opcode::Inv, Int8, i(Int8, 0)), i(Int8, -1));
    assert_eq!(un(Opcode::Inv, UInt8, i(UInt8, 0)), i(UInt8, 255));
    assert_eq!(un(Opcode::Inv, Int64, i64v(5)), i64v(-6));
}

#[test]
fn shifts() {
    assert_eq!(bin(Opcode::Shl, Int8, i(Int8, 1), i(Int8, 7)), i(Int8, -128));
    assert_eq!(bin(Opcode::Shl, Int8, i(Int8, 1), i(Int8, 8)), i(Int8, 0));
    assert_eq!(bin(Opcode::Shl, Int64, i64v(1), i64v(64)), i64v(0));
    assert_eq!(bin(Opcode::Shl, Int64, i64v(3), i64v(62)), i64v(i64::MIN as i128 + (1 << 62)));
    assert_eq!(bin(Opcode::Shr, Int8, i(Int8, -128), i(Int8, 1)), i(Int8, -64));
    assert_eq!(bin(Opcode::Shr, Int64, i64v(-1), i64v(100)), i64v(-1));
    assert_eq!(bin(Opcode::Shr, Int64, i64v(5), i64v(100)), i64v(0));
    assert_eq!(bin(Opcode::Shr, UInt8, i(UInt8, 255), i(UInt8, 1)), i(UInt8, 127));
    assert_eq!(bin(Opcode::Shr, UInt64, i(UInt64, u64::MAX as i128), i(UInt64, 63)), i(UInt64, 1));
    let e = bin_checked(Opcode::Shl, Int64, i64v(1), i64v(-1), false).unwrap_err();
    assert_eq!((e.kind, e.message.as_str()), (TrapKind::Panic, "negative shift count"));
    let e = bin_checked(Opcode::Shr, Int64, i64v(1), i64v(-3), false).unwrap_err();
    assert_eq!(e.message, "negative shift count");
}

#[test]
fn negation_and_abs() {
    assert_eq!(un(Opcode::Neg, Int8, i(Int8, -128)), i(Int8, -128));
    assert_eq!(un(Opcode::Abs, Int8, i(Int8, -128)), i(Int8, -128));
    assert_eq!(un(Opcode::Abs, Int8, i(Int8, -5)), i(Int8, 5));
    assert_eq!(un(Opcode::Neg, UInt8, i(UInt8, 1)), i(UInt8, 255));
    assert_eq!(un_checked(Opcode::Neg, UInt8, i(UInt8, 0), true).unwrap(), i(UInt8, 0));
    for (op, v) in [(Opcode::Neg, i(Int8, -128)), (Opcode::Abs, i(Int64, i64::MIN as i128)), (Opcode::Neg, i(UInt8, 1))]
    {
        let e = un_checked(op, v.dtype(), v, true).unwrap_err();
        assert_eq!(e.message, "integer overflow");
    }
    assert_eq!(un(Opcode::Abs, Float64, f(-0.0)), f(0.0));
    assert_eq!(un(Opcode::Neg, Float64, f(0.0)), f(-0.0));
}

#[test]
fn casts() {
    // float -> int saturates, NaN -> 0, truncates toward zero.
    assert_eq!(cast(Int32, f(1e10)), i(Int32, i32::MAX as i128));
    assert_eq!(cast(Int32, f(-1e10)), i(Int32, i32::MIN as i128));
    assert_eq!(cast(Int64, f(f64::NAN)), i64v(0));
    assert_eq!(cast(UInt8, f(-1.5)), i(UInt8, 0));
    assert_eq!(cast(UInt8, f(300.0)), i(UInt8, 255));
    assert_eq!(cast(Int64, f(3.99)), i64v(3));
    assert_eq!(cast(Int64, f(-3.99)), i64v(-3));
    assert_eq!(cast(UInt64, f(f64::INFINITY)), i(UInt64, u64::MAX as i128));
    // int -> int wraps by the source's signedness.
    assert_eq!(cast(UInt8, i64v(300)), i(UInt8, 44));
    assert_eq!(cast(UInt16, i(Int8, -1)), i(UInt16, 65535));
    assert_eq!(cast(Int8, i(UInt8, 255)), i(Int8, -1));
    assert_eq!(cast(Int64, i(UInt32, u32::MAX as i128)), i64v(u32::MAX as i128));
    // to Bool: != 0.
    assert_eq!(cast(Bool, i64v(2)), Value::Bool(true));
    assert_eq!(cast(Bool, f(f64::NAN)), Value::Bool(true));
    assert_eq!(cast(Bool, f(-0.0)), Value::Bool(false));
    assert_eq!(cast(Bool, c(0.0, 1.0)), Value::Bool(true));
    assert_eq!(cast(Bool, c(0.0, 0.0)), Value::Bool(false));
    // from Bool: 0 / 1.
    assert_eq!(cast(Float64, Value::Bool(true)), f(1.0));
    assert_eq!(cast(Int8, Value::Bool(true)), i(Int8, 1));
    // int -> float rounds to nearest.
    assert_eq!(cast(Float64, i64v((1 << 53) + 1)), f(9007199254740992.0));
    assert_eq!(cast(Float32, i64v(16777217)), f32v(16777216.0));
    assert_eq!(cast(Float32, i64v(i64::MAX as i128)), f32v(9.223372e18));
    // complex <-> real.
    assert_eq!(cast(Float64, c(1.5, 2.0)), f(1.5));
    assert_eq!(cast(Complex128, f(2.5)), c(2.5, 0.0));
    assert_eq!(cast(Int64, c(-2.5, 9.0)), i64v(-2));
    assert_eq!(cast(Complex64, c(0.1, 0.2)), Value::Complex(Complex64, 0.1f32 as f64, 0.2f32 as f64));
    // between float widths: round to nearest.
    assert_eq!(cast(Float32, f(0.1)), f32v(0.1));
    assert_eq!(cast(Float16, f(65520.0)), Value::Float(Float16, f64::INFINITY));
    assert_eq!(cast(Float16, f(0.1)), Value::Float(Float16, 0.0999755859375));
    assert_eq!(cast(Float64, f32v(0.1)), f(0.10000000149011612));
}

#[test]
fn display_matches_python_print() {
    let cases: Vec<(Value, &str)> = vec![
        (Value::Bool(true), "True"),
        (Value::Bool(false), "False"),
        (i64v(5), "5"),
        (i64v(-12), "-12"),
        (i(UInt64, u64::MAX as i128), "18446744073709551615"),
        (f(1.0), "1.0"),
        (f(1e100), "1e+100"),
        (f(1e16), "1e+16"),
        (f(1e15), "1000000000000000.0"),
        (f(123.456), "123.456"),
        (f(0.0001), "0.0001"),
        (f(0.00001), "1e-05"),
        (f(1.5e-7), "1.5e-07"),
        (f(0.1 + 0.2), "0.30000000000000004"),
        (f(f64::INFINITY), "inf"),
        (f(f64::NEG_INFINITY), "-inf"),
        (f(f64::NAN), "nan"),
        (f(-0.0), "-0.0"),
        (f(0.0), "0.0"),
        (f(5e-324), "5e-324"),
        (f(1.7976931348623157e308), "1.7976931348623157e+308"),
        (f32v(0.1), "0.1"),
        (f32v(1e20), "1e+20"),
        (f32v(16777216.0), "1.6777216e+07"),
        (f32v(999999.0), "999999.0"),
        (f32v(1e6), "1e+06"),
        (f32v(0.0001), "1e-04"),
        (f32v(0.00012), "0.00012"),
        (Value::Float(Float16, 0.0999755859375), "0.1"),
        (Value::Float(Float16, 65504.0), "6.55e+04"),
        (Value::Float(Float16, 999.0), "999.0"),
        (Value::Float(Float16, 1000.0), "1e+03"),
        (Value::Float(Float16, 12344.0), "1.2344e+04"),
        (Value::Float(Float16, -0.0), "-0.0"),
        (Value::Complex(Complex64, 1e8, 1.0), "(1e+08+1j)"),
        (Value::Complex(Complex64, 1000.0, 1.0), "(1000+1j)"),
        (c(1.0, 2.0), "(1+2j)"),
        (c(0.0, 2.0), "2j"),
        (c(0.0, -2.0), "-2j"),
        (c(-0.0, -0.0), "(-0-0j)"),
        (c(1.5, f64::NAN), "(1.5+nanj)"),
        (c(1.0, f64::NEG_INFINITY), "(1-infj)"),
        (c(0.0, 0.0), "0j"),
        (c(1e16, 1.0), "(1e+16+1j)"),
        (Value::Complex(Complex64, 0.1f32 as f64, 1.0), "(0.1+1j)"),
        (Value::Str("héllo".into()), "héllo"),
        (Value::Bytes(b"\x00a".to_vec()), "b'\\x00a'"),
        (Value::Bytes(b"it's".to_vec()), "b\"it's\""),
        (Value::Bytes(b"\t\n\\\x7f".to_vec()), "b'\\t\\n\\\\\\x7f'"),
    ];
    for (v, s) in cases {
        assert_eq!(v.to_string(), s, "{v:?}");
    }
}

#[test]
fn values_compare_nan_equal_and_by_bits() {
    assert_eq!(f(f64::NAN), f(-f64::NAN));
    assert_ne!(f(0.0), f(-0.0));
    assert_ne!(f(1.0), f32v(1.0));
    assert_ne!(i64v(1), i(Int32, 1));
    assert_eq!(c(f64::NAN, 1.0), c(f64::NAN, 1.0));
}

#[test]
fn arguments_must_have_the_parameter_dtype() {
    let mut m = Module::new("t");
    let mut fb = FunctionBuilder::new("f");
    let a = fb.param("a", t(Int64));
    fb.set_return(Some(t(Int64)));
    let e = fb.create_block("entry");
    fb.switch_to(e);
    fb.ret(Some(a));
    m.add_function(fb.finish());
    let err = run(m.clone(), &[f(1.0)], false).unwrap_err();
    assert_eq!(err.kind, TrapKind::Unsupported);
    assert_eq!(err.message, "argument %a must be Int64, got a Float64 value");
    let err = run(m.clone(), &[], false).unwrap_err();
    assert_eq!(err.message, "`f` takes 1 arguments, got 0");
    assert_eq!(run(m, &[i64v(4)], false).unwrap(), Some(i64v(4)));
}

#[test]
fn float16_rounds_once() {
    let h = |x: f64| Value::Float(Float16, x);
    // 1 + 2^-11 + 2^-40 is just above the midpoint of 1 and 1 + 2^-10.
    assert_eq!(cast(Float16, f(1.0 + 2f64.powi(-11) + 2f64.powi(-40))), h(1.0009765625));
    assert_eq!(cast(Float16, f(1.0 + 2f64.powi(-11))), h(1.0));
    assert_eq!(cast(Float16, f(1.0 + 3.0 * 2f64.powi(-11))), h(1.001953125));
    assert_eq!(cast(Float16, f(65519.99)), h(65504.0));
    assert_eq!(cast(Float16, f(-65520.0)), h(f64::NEG_INFINITY));
    assert_eq!(cast(Float16, f(2f64.powi(-25))), h(0.0));
    assert_eq!(cast(Float16, f(2f64.powi(-25) + 2f64.powi(-60))), h(2f64.powi(-24)));
    assert_eq!(cast(Float16, f(-1e-30)), h(-0.0));
    assert_eq!(cast(Float16, f(3.0 * 2f64.powi(-25))), h(2f64.powi(-23)));
}

#[test]
fn bitcast_reads_and_writes_a_floats_bits() {
    use DType::{Float16, Float32, Float64, UInt16, UInt32, UInt64};
    assert_eq!(un(Opcode::Bitcast, UInt32, Value::Float(Float32, 1.0)), i(UInt32, 0x3f80_0000));
    assert_eq!(un(Opcode::Bitcast, UInt64, Value::Float(Float64, -2.0)), i(UInt64, 0xc000_0000_0000_0000));
    assert_eq!(un(Opcode::Bitcast, UInt16, Value::Float(Float16, 65504.0)), i(UInt16, 0x7bff));
    assert_eq!(un(Opcode::Bitcast, UInt16, Value::Float(Float16, -0.0)), i(UInt16, 0x8000));
    assert_eq!(un(Opcode::Bitcast, Float16, i(UInt16, 0x0001)), Value::Float(Float16, 5.960464477539063e-8));
    assert_eq!(un(Opcode::Bitcast, Float32, i(UInt32, 0xc040_0000)), Value::Float(Float32, -3.0));
    assert_eq!(un(Opcode::Bitcast, Float64, i(UInt64, 0x7ff0_0000_0000_0000)), Value::Float(Float64, f64::INFINITY));
    match un(Opcode::Bitcast, Float16, i(UInt16, 0x7e00)) {
        Value::Float(Float16, x) => assert!(x.is_nan()),
        other => panic!("{other:?}"),
    }
}
