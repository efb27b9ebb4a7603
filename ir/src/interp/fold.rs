//! Constant evaluation with the interpreter's exact semantics, for the
//! `const-fold` pass: folding and running can never disagree. An operation
//! that would trap is not folded (a panic is never folded away).

use super::ops;
use super::value::{round_float, wrap_int, Value};
use crate::body::{f64_to_float_bits, float_bits_to_f64, ConstValue, Literal};
use crate::builtins::{self, OvfOp};
use crate::dtype::DType;
use crate::opcode::Opcode;

/// The value of a literal of `dtype`.
pub fn literal_value(dtype: DType, lit: Literal<'_>) -> Option<Value> {
    ops::literal(dtype, lit).ok()
}

/// A scalar value as a literal of its dtype (`None` for arrays and tuples).
pub fn value_literal(v: &Value) -> Option<ConstValue> {
    Some(match v {
        Value::Bool(b) => ConstValue::Bool(*b),
        Value::Int(_, i) => ConstValue::Int(*i),
        Value::Float(d, x) => ConstValue::Float(f64_to_float_bits(*d, *x)),
        Value::Complex(d, re, im) => {
            let part = d.complex_part()?;
            ConstValue::Complex(f64_to_float_bits(part, *re), f64_to_float_bits(part, *im))
        }
        Value::Str(s) => ConstValue::Str(s.clone()),
        Value::Bytes(b) => ConstValue::Bytes(b.clone()),
        Value::Array(_) | Value::Tuple(_) => return None,
    })
}

/// `a op b` with result dtype `rd`, unless it traps.
pub fn fold_binary(op: Opcode, rd: DType, a: &Value, b: &Value, overflow_checks: bool) -> Option<Value> {
    ops::binary(op, rd, a, b, overflow_checks).ok()
}

/// `op a` with result dtype `rd`, unless it traps.
pub fn fold_unary(op: Opcode, rd: DType, a: &Value, overflow_checks: bool) -> Option<Value> {
    ops::unary(op, rd, a, overflow_checks).ok()
}

/// `(to) a`.
pub fn fold_cast(to: DType, a: &Value) -> Option<Value> {
    ops::cast(to, a).ok()
}

/// A `bitcast` of a constant to `to`.
pub fn fold_bitcast(to: DType, a: &Value) -> Option<Value> {
    ops::bitcast(to, a).ok()
}

/// A `postc.ovf.*` built-in on constant integers.
pub fn fold_overflow(op: OvfOp, args: &[Value]) -> Option<Value> {
    let int = |v: &Value| match v {
        Value::Int(_, i) => Some(*i),
        _ => None,
    };
    let a = int(args.first()?)?;
    let b = match args.get(1) {
        Some(x) => int(x)?,
        None => 0,
    };
    Some(Value::Bool(builtins::overflows(op, args[0].dtype(), a, b)))
}

/// A Bool, integer or float value as `const-fold` tracks it: the scalar
/// values of the interpreter, by value (no allocation, `Copy`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Scalar {
    Bool(bool),
    /// Exact, within the dtype's range.
    Int(DType, i128),
    /// Already rounded to the dtype.
    Float(DType, f64),
}

/// What the scalar fast path made of an operation.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Fast {
    /// The interpreter's result: `None` when it traps or rejects the operands.
    Done(Option<Scalar>),
    /// Outside the fast path (complex results): ask the interpreter.
    Slow,
}

impl Scalar {
    pub fn dtype(self) -> DType {
        match self {
            Scalar::Bool(_) => DType::Bool,
            Scalar::Int(d, _) | Scalar::Float(d, _) => d,
        }
    }

    /// The value of a `const` of `dtype` from its payload slots, as
    /// decoding the literal and [`literal_value`] would give it; `None` for
    /// dtypes whose literals live in the pools (complex, Str, Bytes).
    #[inline]
    pub fn from_payload(dtype: DType, [a, b]: [u32; 2]) -> Option<Scalar> {
        let wide = (a as u64) | ((b as u64) << 32);
        Some(match dtype {
            DType::Bool => Scalar::Bool(a != 0),
            // Wrapped to the dtype's width (as `wrap_int`), on 64 bits.
            DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
                let shift = 64 - dtype.bits();
                Scalar::Int(dtype, (((wide << shift) as i64) >> shift) as i128)
            }
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
                let shift = 64 - dtype.bits();
                Scalar::Int(dtype, ((wide << shift) >> shift) as i128)
            }
            DType::Float16 | DType::Float32 => Scalar::Float(dtype, float_bits_to_f64(dtype, a as u64)),
            DType::Float64 => Scalar::Float(dtype, f64::from_bits(wide)),
            _ => return None,
        })
    }

    pub fn from_value(v: &Value) -> Option<Scalar> {
        match *v {
            Value::Bool(b) => Some(Scalar::Bool(b)),
            Value::Int(d, i) => Some(Scalar::Int(d, i)),
            Value::Float(d, x) => Some(Scalar::Float(d, x)),
            _ => None,
        }
    }

    pub fn to_value(self) -> Value {
        match self {
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Int(d, i) => Value::Int(d, i),
            Scalar::Float(d, x) => Value::Float(d, x),
        }
    }

    /// The literal of a `const` holding this value (as [`value_literal`]).
    pub fn literal(self) -> Literal<'static> {
        match self {
            Scalar::Bool(b) => Literal::Bool(b),
            Scalar::Int(_, i) => Literal::Int(i),
            Scalar::Float(d, x) => Literal::Float(f64_to_float_bits(d, x)),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(_, x) => x as f64,
            Scalar::Float(_, x) => x,
        }
    }
}

/// [`fold_cast`] on a scalar.
pub fn cast_scalar(to: DType, v: Scalar) -> Fast {
    use crate::dtype::DTypeKind;
    if v.dtype() == to {
        return Fast::Done(Some(v));
    }
    let r = match (to.kind(), v) {
        (DTypeKind::Complex, _) => return Fast::Slow,
        (DTypeKind::Str | DTypeKind::Bytes, _) => return Fast::Done(None),
        (DTypeKind::Bool, Scalar::Bool(b)) => Scalar::Bool(b),
        (DTypeKind::Bool, Scalar::Int(_, x)) => Scalar::Bool(x != 0),
        (DTypeKind::Bool, Scalar::Float(_, x)) => Scalar::Bool(x != 0.0),
        (DTypeKind::SignedInt | DTypeKind::UnsignedInt, Scalar::Bool(b)) => Scalar::Int(to, b as i128),
        (DTypeKind::SignedInt | DTypeKind::UnsignedInt, Scalar::Int(_, x)) => Scalar::Int(to, wrap_int(to, x)),
        (DTypeKind::SignedInt | DTypeKind::UnsignedInt, Scalar::Float(_, x)) => {
            // Saturating, NaN to zero, as the interpreter does.
            Scalar::Int(to, ops::float_to_int(to, x))
        }
        (DTypeKind::Float, Scalar::Int(_, x)) => Scalar::Float(to, ops::int_to_float(to, x)),
        (DTypeKind::Float, v) => Scalar::Float(to, round_float(to, v.as_f64())),
    };
    Fast::Done(Some(r))
}

/// [`fold_binary`] on scalars.
pub fn binary_scalar(op: Opcode, rd: DType, a: Scalar, b: Scalar, overflow_checks: bool) -> Fast {
    use std::cmp::Ordering;
    match op {
        Opcode::Quot | Opcode::Rem => match (a, b) {
            (Scalar::Int(_, x), Scalar::Int(_, y)) if rd.is_int() && wrap_int(rd, y) != 0 => {
                let (x, y) = (wrap_int(rd, x), wrap_int(rd, y));
                let v = if op == Opcode::Quot { x / y } else { x % y };
                Fast::Done(Some(Scalar::Int(rd, wrap_int(rd, v))))
            }
            _ => Fast::Done(None),
        },
        Opcode::Add | Opcode::Sub | Opcode::Mul | Opcode::Div | Opcode::FDiv | Opcode::Mod | Opcode::Pow => {
            if rd.is_text() || rd == DType::Bool || a.dtype() == DType::Bool || b.dtype() == DType::Bool {
                return Fast::Done(None);
            }
            if rd.is_complex() {
                return Fast::Slow;
            }
            let (a, b) = match (cast_scalar(rd, a), cast_scalar(rd, b)) {
                (Fast::Done(Some(a)), Fast::Done(Some(b))) => (a, b),
                (Fast::Slow, _) | (_, Fast::Slow) => return Fast::Slow,
                _ => return Fast::Done(None),
            };
            Fast::Done(match (a, b) {
                (Scalar::Int(_, x), Scalar::Int(_, y)) => {
                    let (exact, wrapped) = match op {
                        Opcode::Add => (x.checked_add(y), x.wrapping_add(y)),
                        Opcode::Sub => (x.checked_sub(y), x.wrapping_sub(y)),
                        Opcode::Mul => (x.checked_mul(y), x.wrapping_mul(y)),
                        Opcode::Pow if y < 0 => return Fast::Done(None),
                        Opcode::Pow => ops::int_pow(x, y),
                        Opcode::FDiv | Opcode::Mod => {
                            if y == 0 {
                                return Fast::Done(None);
                            }
                            let (q, r) = (x.div_euclid(y), x.rem_euclid(y));
                            let (q, r) = if r != 0 && y < 0 { (q - 1, r + y) } else { (q, r) };
                            let v = if op == Opcode::FDiv { q } else { r };
                            return Fast::Done(Some(Scalar::Int(rd, wrap_int(rd, v))));
                        }
                        _ => return Fast::Done(None),
                    };
                    int_result(rd, exact, wrapped, overflow_checks)
                }
                (Scalar::Float(_, x), Scalar::Float(_, y)) => {
                    let r = match op {
                        Opcode::Add => x + y,
                        Opcode::Sub => x - y,
                        Opcode::Mul => x * y,
                        Opcode::Div => x / y,
                        Opcode::FDiv => ops::float_divmod(x, y).0,
                        Opcode::Mod => ops::float_divmod(x, y).1,
                        Opcode::Pow => x.powf(y),
                        _ => return Fast::Done(None),
                    };
                    Some(Scalar::Float(rd, round_float(rd, r)))
                }
                _ => None,
            })
        }
        Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
            let ord = match (a, b) {
                (Scalar::Bool(x), Scalar::Bool(y)) => Some(x.cmp(&y)),
                (Scalar::Int(_, x), Scalar::Int(_, y)) => Some(x.cmp(&y)),
                (Scalar::Bool(_), _) | (_, Scalar::Bool(_)) => return Fast::Done(None),
                (x, y) => x.as_f64().partial_cmp(&y.as_f64()),
            };
            Fast::Done(Some(Scalar::Bool(match op {
                Opcode::Eq => ord == Some(Ordering::Equal),
                Opcode::Ne => ord != Some(Ordering::Equal),
                Opcode::Lt => ord == Some(Ordering::Less),
                Opcode::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
                Opcode::Gt => ord == Some(Ordering::Greater),
                _ => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
            })))
        }
        Opcode::And | Opcode::Or | Opcode::BAnd | Opcode::BOr | Opcode::BXor | Opcode::Shl | Opcode::Shr => {
            Fast::Done(match (a, b) {
                (Scalar::Bool(x), Scalar::Bool(y)) => match op {
                    Opcode::BAnd | Opcode::And => Some(Scalar::Bool(x && y)),
                    Opcode::BOr | Opcode::Or => Some(Scalar::Bool(x || y)),
                    Opcode::BXor => Some(Scalar::Bool(x != y)),
                    _ => None,
                },
                (Scalar::Int(_, x), Scalar::Int(_, y)) if rd.is_int() && !matches!(op, Opcode::And | Opcode::Or) => {
                    let r = match op {
                        Opcode::BAnd => x & y,
                        Opcode::BOr => x | y,
                        Opcode::BXor => x ^ y,
                        _ if y < 0 => return Fast::Done(None),
                        _ => {
                            let x = wrap_int(rd, x);
                            let width = rd.bits() as i128;
                            match (op == Opcode::Shl, y >= width) {
                                (true, true) => 0,
                                (true, false) => x << y,
                                (false, true) => {
                                    if x < 0 {
                                        -1
                                    } else {
                                        0
                                    }
                                }
                                (false, false) => x >> y,
                            }
                        }
                    };
                    Some(Scalar::Int(rd, wrap_int(rd, r)))
                }
                _ => None,
            })
        }
        _ => Fast::Done(None),
    }
}

/// [`fold_unary`] on a scalar (`rd` only matters for complex operands).
pub fn unary_scalar(op: Opcode, a: Scalar, overflow_checks: bool) -> Option<Scalar> {
    match (op, a) {
        (Opcode::Not | Opcode::Inv, Scalar::Bool(b)) => Some(Scalar::Bool(!b)),
        (Opcode::Neg, Scalar::Int(d, x)) => int_result(d, x.checked_neg(), x.wrapping_neg(), overflow_checks),
        (Opcode::Abs, Scalar::Int(d, x)) => int_result(d, x.checked_abs(), x.wrapping_abs(), overflow_checks),
        (Opcode::Inv, Scalar::Int(d, x)) => Some(Scalar::Int(d, wrap_int(d, !x))),
        (Opcode::Neg, Scalar::Float(d, x)) => Some(Scalar::Float(d, -x)),
        (Opcode::Abs, Scalar::Float(d, x)) => Some(Scalar::Float(d, x.abs())),
        _ => None,
    }
}

fn int_result(dtype: DType, exact: Option<i128>, wrapped: i128, checks: bool) -> Option<Scalar> {
    let (lo, hi) = dtype.int_range()?;
    if checks && !exact.is_some_and(|x| lo <= x && x <= hi) {
        return None;
    }
    Some(Scalar::Int(dtype, wrap_int(dtype, wrapped)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Interesting values of every scalar dtype.
    fn samples() -> Vec<Value> {
        let mut out = vec![Value::Bool(false), Value::Bool(true)];
        let ints: [i128; 16] = [0, 1, 2, 3, 7, 8, 9, 63, 64, 127, 128, 255, -1, -2, -128, 65];
        for d in [
            DType::Int8,
            DType::Int16,
            DType::Int32,
            DType::Int64,
            DType::UInt8,
            DType::UInt16,
            DType::UInt32,
            DType::UInt64,
        ] {
            let (lo, hi) = d.int_range().unwrap();
            for x in ints.iter().copied().chain([lo, hi, lo + 1, hi - 1, hi / 2, lo / 2]) {
                out.push(Value::Int(d, wrap_int(d, x)));
            }
        }
        let floats = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            2.5,
            0.1,
            1e30,
            -1e300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            65504.0,
            3e9,
            -3e9,
            1.8446744073709552e19,
            255.9,
            -129.0,
        ];
        for d in [DType::Float16, DType::Float32, DType::Float64] {
            for x in floats {
                out.push(Value::float(d, x));
            }
        }
        out
    }

    fn same(fast: Fast, slow: Option<Value>) -> bool {
        match (fast, slow) {
            (Fast::Slow, _) => true,
            (Fast::Done(None), None) => true,
            (Fast::Done(Some(a)), Some(b)) => a.to_value() == b,
            _ => false,
        }
    }

    /// Every dtype but Complex128 and Bytes (covered by their siblings).
    fn dtypes() -> impl Iterator<Item = DType> {
        DType::ALL.into_iter().filter(|d| !matches!(d, DType::Complex128 | DType::Bytes))
    }

    #[test]
    fn scalar_fast_path_agrees_with_the_interpreter() {
        let vals = samples();
        let binops = [
            Opcode::Add,
            Opcode::Sub,
            Opcode::Mul,
            Opcode::Div,
            Opcode::FDiv,
            Opcode::Mod,
            Opcode::Quot,
            Opcode::Rem,
            Opcode::Pow,
            Opcode::Eq,
            Opcode::Ne,
            Opcode::Lt,
            Opcode::Le,
            Opcode::Gt,
            Opcode::Ge,
            Opcode::And,
            Opcode::Or,
            Opcode::BAnd,
            Opcode::BOr,
            Opcode::BXor,
            Opcode::Shl,
            Opcode::Shr,
            Opcode::Neg,
        ];
        for a in &vals {
            let sa = Scalar::from_value(a).unwrap();
            for rd in dtypes() {
                assert!(same(cast_scalar(rd, sa), fold_cast(rd, a)), "cast {a:?} to {rd}");
            }
            for op in [Opcode::Neg, Opcode::Abs, Opcode::Inv, Opcode::Not] {
                for checks in [false, true] {
                    let slow = fold_unary(op, a.dtype(), a, checks);
                    assert!(same(Fast::Done(unary_scalar(op, sa, checks)), slow), "{op:?} {a:?} {checks}");
                }
            }
            // Pairs: every value with a sample of the others (all of them
            // for the same dtype).
            for (k, b) in vals.iter().enumerate() {
                if a.dtype() != b.dtype() && k % 5 != 0 {
                    continue;
                }
                let sb = Scalar::from_value(b).unwrap();
                for op in binops {
                    for rd in dtypes() {
                        for checks in [false, true] {
                            let slow = fold_binary(op, rd, a, b, checks);
                            let fast = binary_scalar(op, rd, sa, sb, checks);
                            assert!(same(fast, slow.clone()), "{op:?} {rd} {a:?} {b:?} {checks}: {fast:?} vs {slow:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn scalar_payloads_decode_as_literals() {
        let mut body = crate::body::Body::new();
        for v in samples() {
            let d = v.dtype();
            let lit = value_literal(&v).unwrap();
            let payload = body.encode_literal(d, lit.as_literal());
            let s = Scalar::from_payload(d, payload).unwrap();
            assert_eq!(s.to_value(), literal_value(d, lit.as_literal()).unwrap(), "{v:?}");
            assert_eq!(s.literal(), lit.as_literal());
        }
        // Payloads wider than the dtype wrap as the interpreter wraps them.
        for d in [DType::Int8, DType::Int16, DType::Int32, DType::UInt8, DType::UInt16, DType::UInt32] {
            for w in [0x1ffu64, 0x8000_0000_0000_0080, u64::MAX, 0x1_0000_ffff, 0x7f, 0x80] {
                let payload = [w as u32, (w >> 32) as u32];
                let s = Scalar::from_payload(d, payload).unwrap();
                // What decoding the payload gives: the 64-bit pattern, sign-extended or not.
                let lit = Literal::Int(if d.is_signed_int() { w as i64 as i128 } else { w as i128 });
                assert_eq!(s.to_value(), literal_value(d, lit).unwrap(), "{d} {w:#x}");
            }
        }
    }
}
