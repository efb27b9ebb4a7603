//! The semantics of the arithmetic, comparison, bitwise and cast
//! instructions (docs/ir-text.md, Semantics), on interpreter values.

use super::value::{round_float, wrap_int, Value};
use super::TrapKind;
use crate::body::{float_bits_to_f64, Literal};
use crate::dtype::{DType, DTypeKind};
use crate::opcode::Opcode;

/// A trap without its location (the interpreter adds the instruction's).
#[derive(Clone, Debug)]
pub(crate) struct Fault {
    pub kind: TrapKind,
    pub message: String,
}

pub(crate) type R<T> = Result<T, Fault>;

pub(crate) fn panic<T>(message: impl Into<String>) -> R<T> {
    Err(Fault { kind: TrapKind::Panic, message: message.into() })
}

pub(crate) fn unsupported<T>(message: impl Into<String>) -> R<T> {
    Err(unsupported_fault(message))
}

pub(crate) fn unsupported_fault(message: impl Into<String>) -> Fault {
    Fault { kind: TrapKind::Unsupported, message: message.into() }
}

/// Decodes a `const` literal of `dtype`.
pub(crate) fn literal(dtype: DType, lit: Literal<'_>) -> R<Value> {
    Ok(match lit {
        Literal::Bool(b) => Value::Bool(b),
        Literal::Int(i) if dtype.is_int() => Value::Int(dtype, wrap_int(dtype, i)),
        Literal::Float(bits) if dtype.is_float() => Value::Float(dtype, float_bits_to_f64(dtype, bits)),
        Literal::Complex(re, im) if dtype.is_complex() => {
            Value::Complex(dtype, float_bits_to_f64(dtype, re), float_bits_to_f64(dtype, im))
        }
        Literal::Str(s) => Value::Str(s.to_owned()),
        Literal::Bytes(b) => Value::Bytes(b.to_vec()),
        other => return unsupported(format!("literal {other:?} does not fit {dtype}")),
    })
}

fn describe(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("{}[] array", a.dtype),
        v => format!("{} {}", v.dtype(), v),
    }
}

/// An integer result: wraps to the dtype, or with `checks` traps when the
/// exact result (`None`: beyond `i128`) is out of range.
fn int_result(dtype: DType, exact: Option<i128>, wrapped: i128, checks: bool) -> R<Value> {
    let (lo, hi) = match dtype.int_range() {
        Some(r) => r,
        None => return unsupported(format!("integer result of dtype {dtype}")),
    };
    if checks && !exact.is_some_and(|x| lo <= x && x <= hi) {
        return panic("integer overflow");
    }
    Ok(Value::Int(dtype, wrap_int(dtype, wrapped)))
}

pub(crate) fn int_pow(base: i128, mut exp: i128) -> (Option<i128>, i128) {
    let (mut exact, mut wrapped) = (Some(1i128), 1i128);
    let (mut b_exact, mut b_wrapped) = (Some(base), base);
    while exp > 0 {
        if exp & 1 == 1 {
            exact = exact.zip(b_exact).and_then(|(r, b)| r.checked_mul(b));
            wrapped = wrapped.wrapping_mul(b_wrapped);
        }
        exp >>= 1;
        if exp > 0 {
            b_exact = b_exact.and_then(|b| b.checked_mul(b));
            b_wrapped = b_wrapped.wrapping_mul(b_wrapped);
        }
    }
    (exact, wrapped)
}

/// Python's `divmod` on floats (CPython's `float_divmod`), except that a
/// zero divisor follows NumPy: `x // 0.0 == x / 0.0`, `x % 0.0 == nan`.
pub(crate) fn float_divmod(vx: f64, wx: f64) -> (f64, f64) {
    if wx == 0.0 {
        return (vx / wx, f64::NAN);
    }
    let mut m = vx % wx;
    let mut div = (vx - m) / wx;
    if m != 0.0 {
        if (wx < 0.0) != (m < 0.0) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(wx);
    }
    let floordiv = if div != 0.0 {
        let mut fd = div.floor();
        if div - fd > 0.5 {
            fd += 1.0;
        }
        fd
    } else {
        0.0f64.copysign(vx / wx)
    };
    (floordiv, m)
}

/// Python's complex multiplication.
fn c_mul(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// CPython's `_Py_c_quot`; a zero divisor gives NumPy's complex inf/nan.
pub(crate) fn c_div(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let (abs_br, abs_bi) = (b.0.abs(), b.1.abs());
    if abs_br >= abs_bi {
        if abs_br == 0.0 {
            (a.0 / abs_br, a.1 / abs_br)
        } else {
            let ratio = b.1 / b.0;
            let denom = b.0 + b.1 * ratio;
            ((a.0 + a.1 * ratio) / denom, (a.1 - a.0 * ratio) / denom)
        }
    } else if abs_bi >= abs_br {
        let ratio = b.0 / b.1;
        let denom = b.0 * ratio + b.1;
        ((a.0 * ratio + a.1) / denom, (a.1 * ratio - a.0) / denom)
    } else {
        (f64::NAN, f64::NAN)
    }
}

/// CPython's complex `**` (`c_pow`, and `c_powi` for integral exponents
/// up to 100 in magnitude).
pub(crate) fn c_pow(a: (f64, f64), b: (f64, f64)) -> R<(f64, f64)> {
    if b.0 == 0.0 && b.1 == 0.0 {
        return Ok((1.0, 0.0));
    }
    if a.0 == 0.0 && a.1 == 0.0 {
        if b.1 != 0.0 || b.0 < 0.0 {
            return panic("zero to a negative or complex power");
        }
        return Ok((0.0, 0.0));
    }
    if b.1 == 0.0 && b.0 == b.0.floor() && b.0.abs() <= 100.0 {
        let n = b.0 as i64;
        let powu = |x: (f64, f64), n: u64| {
            let (mut r, mut p) = ((1.0, 0.0), x);
            let mut mask = 1u64;
            while mask > 0 && n >= mask {
                if n & mask != 0 {
                    r = c_mul(r, p);
                }
                mask <<= 1;
                p = c_mul(p, p);
            }
            r
        };
        return Ok(if n >= 0 { powu(a, n as u64) } else { c_div((1.0, 0.0), powu(a, n.unsigned_abs())) });
    }
    let vabs = a.0.hypot(a.1);
    let mut len = vabs.powf(b.0);
    let at = a.1.atan2(a.0);
    let mut phase = at * b.0;
    if b.1 != 0.0 {
        len /= (at * b.1).exp();
        phase += b.1 * vabs.ln();
    }
    Ok((len * phase.cos(), len * phase.sin()))
}

fn to_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(b) => Some(*b as u8 as f64),
        Value::Int(_, x) => Some(*x as f64),
        Value::Float(_, x) => Some(*x),
        _ => None,
    }
}

/// `cast`: converts a value to `to` (docs/ir-text.md, Semantics). Also used to bring
/// operands to an arithmetic result's dtype.
pub(crate) fn cast(to: DType, v: &Value) -> R<Value> {
    if v.dtype() == to && !v.is_array() {
        return Ok(v.clone());
    }
    let bad = || unsupported(format!("cannot cast {} to {to}", describe(v)));
    Ok(match (to.kind(), v) {
        (_, Value::Array(_) | Value::Str(_) | Value::Bytes(_) | Value::Tuple(_)) => return bad(),
        (DTypeKind::Str | DTypeKind::Bytes, _) => return bad(),
        (DTypeKind::Bool, Value::Bool(b)) => Value::Bool(*b),
        (DTypeKind::Bool, Value::Int(_, x)) => Value::Bool(*x != 0),
        (DTypeKind::Bool, Value::Float(_, x)) => Value::Bool(*x != 0.0),
        (DTypeKind::Bool, Value::Complex(_, re, im)) => Value::Bool(*re != 0.0 || *im != 0.0),
        (DTypeKind::SignedInt | DTypeKind::UnsignedInt, Value::Bool(b)) => Value::Int(to, *b as i128),
        (DTypeKind::SignedInt | DTypeKind::UnsignedInt, Value::Int(_, x)) => Value::Int(to, wrap_int(to, *x)),
        (DTypeKind::SignedInt | DTypeKind::UnsignedInt, Value::Float(_, x) | Value::Complex(_, x, _)) => {
            Value::Int(to, float_to_int(to, *x))
        }
        (DTypeKind::Float, Value::Int(_, x)) => Value::Float(to, int_to_float(to, *x)),
        (DTypeKind::Float, Value::Complex(_, x, _)) => Value::float(to, *x),
        (DTypeKind::Float, v) => Value::float(to, to_f64(v).unwrap_or(0.0)),
        (DTypeKind::Complex, Value::Complex(_, re, im)) => Value::complex(to, *re, *im),
        (DTypeKind::Complex, Value::Int(_, x)) => {
            let part = to.complex_part().unwrap_or(DType::Float64);
            Value::Complex(to, int_to_float(part, *x), 0.0)
        }
        (DTypeKind::Complex, v) => Value::complex(to, to_f64(v).unwrap_or(0.0), 0.0),
    })
}

/// `bitcast`: a float's bits as the unsigned integer of its width, or
/// such an integer's bits as the float.
pub(crate) fn bitcast(to: DType, v: &Value) -> R<Value> {
    let from = v.dtype();
    if v.is_array() || from.bits_partner() != Some(to) {
        return unsupported(format!("cannot reinterpret {} as {to}", describe(v)));
    }
    Ok(match v {
        Value::Float(d, x) => Value::Int(to, crate::body::f64_to_float_bits(*d, *x) as i128),
        Value::Int(_, bits) => Value::Float(to, crate::body::float_bits_to_f64(to, *bits as u64)),
        _ => return unsupported(format!("cannot reinterpret {} as {to}", describe(v))),
    })
}

/// Integer to float, rounded once to nearest (ties to even).
/// A float cast to the integer dtype `to`: saturating, NaN to zero (Rust's
/// `as`).
pub(crate) fn float_to_int(to: DType, x: f64) -> i128 {
    match to {
        DType::Int8 => x as i8 as i128,
        DType::Int16 => x as i16 as i128,
        DType::Int32 => x as i32 as i128,
        DType::Int64 => x as i64 as i128,
        DType::UInt8 => x as u8 as i128,
        DType::UInt16 => x as u16 as i128,
        DType::UInt32 => x as u32 as i128,
        _ => x as u64 as i128,
    }
}

pub(crate) fn int_to_float(to: DType, x: i128) -> f64 {
    match to {
        DType::Float32 | DType::Complex64 => x as f32 as f64,
        DType::Float16 => crate::body::f16_from_f64(x as f64).to_f64(),
        _ => x as f64,
    }
}

fn arith_name(op: Opcode) -> &'static str {
    op.mnemonic()
}

/// `add sub mul div fdiv mod pow`: both operands are first brought to the
/// result dtype (so `div` on integers divides floats).
fn arith(op: Opcode, rd: DType, a: &Value, b: &Value, checks: bool) -> R<Value> {
    if rd.is_text() {
        return match (op, a, b) {
            (Opcode::Add, Value::Str(x), Value::Str(y)) => {
                text_fits(x.len() + y.len())?;
                Ok(Value::Str(format!("{x}{y}")))
            }
            (Opcode::Add, Value::Bytes(x), Value::Bytes(y)) => {
                text_fits(x.len() + y.len())?;
                Ok(Value::Bytes([x.as_slice(), y].concat()))
            }
            _ => unsupported(format!("`{}` on {} and {}", arith_name(op), describe(a), describe(b))),
        };
    }
    if rd == DType::Bool || a.dtype() == DType::Bool || b.dtype() == DType::Bool {
        return unsupported(format!("`{}` on {} and {}", arith_name(op), describe(a), describe(b)));
    }
    let (a, b) = (cast(rd, a)?, cast(rd, b)?);
    match (a, b) {
        (Value::Int(_, x), Value::Int(_, y)) => {
            let (exact, wrapped) = match op {
                Opcode::Add => (x.checked_add(y), x.wrapping_add(y)),
                Opcode::Sub => (x.checked_sub(y), x.wrapping_sub(y)),
                Opcode::Mul => (x.checked_mul(y), x.wrapping_mul(y)),
                Opcode::Pow => {
                    if y < 0 {
                        return panic("negative exponent");
                    }
                    int_pow(x, y)
                }
                Opcode::FDiv | Opcode::Mod => {
                    if y == 0 {
                        return panic(if op == Opcode::FDiv { "division by zero" } else { "modulo by zero" });
                    }
                    let q = x.div_euclid(y);
                    let r = x.rem_euclid(y);
                    // Euclid gives r >= 0; Python's remainder takes y's sign.
                    let (q, r) = if r != 0 && y < 0 { (q - 1, r + y) } else { (q, r) };
                    let v = if op == Opcode::FDiv { q } else { r };
                    // MIN // -1 wraps to MIN at every level: never checked.
                    return Ok(Value::Int(rd, wrap_int(rd, v)));
                }
                _ => return unsupported(format!("`{}` on integers", arith_name(op))),
            };
            int_result(rd, exact, wrapped, checks)
        }
        (Value::Float(_, x), Value::Float(_, y)) => {
            let r = match op {
                Opcode::Add => x + y,
                Opcode::Sub => x - y,
                Opcode::Mul => x * y,
                Opcode::Div => x / y,
                Opcode::FDiv => float_divmod(x, y).0,
                Opcode::Mod => float_divmod(x, y).1,
                Opcode::Pow => x.powf(y),
                _ => return unsupported(format!("`{}` on floats", arith_name(op))),
            };
            Ok(Value::float(rd, r))
        }
        (Value::Complex(_, ar, ai), Value::Complex(_, br, bi)) => {
            let (re, im) = match op {
                Opcode::Add => (ar + br, ai + bi),
                Opcode::Sub => (ar - br, ai - bi),
                Opcode::Mul => c_mul((ar, ai), (br, bi)),
                Opcode::Div => c_div((ar, ai), (br, bi)),
                Opcode::Pow => c_pow((ar, ai), (br, bi))?,
                _ => return unsupported(format!("`{}` on complex numbers", arith_name(op))),
            };
            Ok(Value::complex(rd, re, im))
        }
        (a, b) => unsupported(format!("`{}` on {} and {}", arith_name(op), describe(&a), describe(&b))),
    }
}

fn compare(op: Opcode, a: &Value, b: &Value) -> R<Value> {
    use std::cmp::Ordering;
    let ord: Option<Ordering> = match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Int(_, x), Value::Int(_, y)) => Some(x.cmp(y)),
        (Value::Str(x), Value::Str(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Bytes(x), Value::Bytes(y)) => Some(x.as_slice().cmp(y.as_slice())),
        (Value::Complex(_, ar, ai), Value::Complex(_, br, bi)) => {
            let eq = ar == br && ai == bi;
            return match op {
                Opcode::Eq => Ok(Value::Bool(eq)),
                Opcode::Ne => Ok(Value::Bool(!eq)),
                _ => unsupported(format!("`{}` on complex numbers (only eq and ne)", op.mnemonic())),
            };
        }
        (x, y) => match (x, y) {
            (Value::Float(..) | Value::Int(..), Value::Float(..) | Value::Int(..)) => {
                to_f64(x).unwrap_or(f64::NAN).partial_cmp(&to_f64(y).unwrap_or(f64::NAN))
            }
            _ => return unsupported(format!("`{}` on {} and {}", op.mnemonic(), describe(a), describe(b))),
        },
    };
    Ok(Value::Bool(match op {
        Opcode::Eq => ord == Some(Ordering::Equal),
        Opcode::Ne => ord != Some(Ordering::Equal),
        Opcode::Lt => ord == Some(Ordering::Less),
        Opcode::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
        Opcode::Gt => ord == Some(Ordering::Greater),
        Opcode::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
        _ => unreachable!("not a compare"),
    }))
}

fn bitwise(op: Opcode, rd: DType, a: &Value, b: &Value) -> R<Value> {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => Ok(Value::Bool(match op {
            Opcode::BAnd | Opcode::And => *x && *y,
            Opcode::BOr | Opcode::Or => *x || *y,
            Opcode::BXor => x != y,
            _ => return unsupported(format!("`{}` on Bool", op.mnemonic())),
        })),
        (Value::Int(_, x), Value::Int(_, y)) if rd.is_int() => {
            let (x, y) = (*x, *y);
            let r = match op {
                Opcode::BAnd => x & y,
                Opcode::BOr => x | y,
                Opcode::BXor => x ^ y,
                Opcode::Shl | Opcode::Shr => {
                    if y < 0 {
                        return panic("negative shift count");
                    }
                    let x = wrap_int(rd, x);
                    let width = rd.bits() as i128;
                    match (op, y >= width) {
                        (Opcode::Shl, true) => 0,
                        (Opcode::Shl, false) => x << y,
                        (_, true) => {
                            if x < 0 {
                                -1
                            } else {
                                0
                            }
                        }
                        (_, false) => x >> y,
                    }
                }
                _ => return unsupported(format!("`{}` on integers", op.mnemonic())),
            };
            Ok(Value::Int(rd, wrap_int(rd, r)))
        }
        _ => unsupported(format!("`{}` on {} and {}", op.mnemonic(), describe(a), describe(b))),
    }
}

/// A binary instruction with result dtype `rd`.
/// Refuses text longer than the interpreter makes ([`super::MAX_ALLOC_BYTES`],
/// as for arrays).
fn text_fits(bytes: usize) -> R<()> {
    if bytes > super::MAX_ALLOC_BYTES {
        return unsupported(format!("text of {bytes} bytes exceeds the interpreter's limit"));
    }
    Ok(())
}

pub(crate) fn binary(op: Opcode, rd: DType, a: &Value, b: &Value, checks: bool) -> R<Value> {
    if a.is_array() || b.is_array() {
        return unsupported(format!("`{}` on {} and {}", op.mnemonic(), describe(a), describe(b)));
    }
    match op {
        Opcode::Add | Opcode::Sub | Opcode::Mul | Opcode::Div | Opcode::FDiv | Opcode::Mod | Opcode::Pow => {
            arith(op, rd, a, b, checks)
        }
        Opcode::Quot | Opcode::Rem => match (a, b) {
            (Value::Int(_, x), Value::Int(_, y)) if rd.is_int() => {
                let (x, y) = (wrap_int(rd, *x), wrap_int(rd, *y));
                if y == 0 {
                    // Only `legalize` makes these, never with a zero divisor.
                    return panic("division by zero");
                }
                // In i128, `MIN / -1` of any dtype is exact; wrapping gives MIN.
                let v = if op == Opcode::Quot { x / y } else { x % y };
                Ok(Value::Int(rd, wrap_int(rd, v)))
            }
            _ => unsupported(format!("`{}` on {} and {}", op.mnemonic(), describe(a), describe(b))),
        },
        Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => compare(op, a, b),
        Opcode::And | Opcode::Or => match (a, b) {
            (Value::Bool(_), Value::Bool(_)) => bitwise(op, rd, a, b),
            _ => unsupported(format!("`{}` on {} and {} (Bool only)", op.mnemonic(), describe(a), describe(b))),
        },
        Opcode::BAnd | Opcode::BOr | Opcode::BXor | Opcode::Shl | Opcode::Shr => bitwise(op, rd, a, b),
        _ => unsupported(format!("`{}` is not a binary operator", op.mnemonic())),
    }
}

/// A unary instruction (`neg not abs inv`) with result dtype `rd`.
pub(crate) fn unary(op: Opcode, rd: DType, a: &Value, checks: bool) -> R<Value> {
    match (op, a) {
        (Opcode::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        (Opcode::Inv, Value::Bool(b)) => Ok(Value::Bool(!b)),
        (Opcode::Neg, Value::Int(d, x)) => int_result(*d, x.checked_neg(), x.wrapping_neg(), checks),
        (Opcode::Abs, Value::Int(d, x)) => int_result(*d, x.checked_abs(), x.wrapping_abs(), checks),
        (Opcode::Inv, Value::Int(d, x)) => Ok(Value::Int(*d, wrap_int(*d, !x))),
        (Opcode::Neg, Value::Float(d, x)) => Ok(Value::Float(*d, -x)),
        (Opcode::Abs, Value::Float(d, x)) => Ok(Value::Float(*d, x.abs())),
        (Opcode::Neg, Value::Complex(d, re, im)) => Ok(Value::Complex(*d, -re, -im)),
        (Opcode::Abs, Value::Complex(d, re, im)) => {
            let part = d.complex_part().unwrap_or(DType::Float64);
            let to = if rd.is_float() { rd } else { part };
            Ok(Value::float(to, round_float(part, re.hypot(*im))))
        }
        _ => unsupported(format!("`{}` on {}", op.mnemonic(), describe(a))),
    }
}

#[cfg(test)]
mod tests {
    /// Text is bounded like allocations: a concatenation whose result
    /// would pass the limit is refused before it is made.
    #[test]
    fn text_is_bounded_like_allocations() {
        assert!(super::text_fits(super::super::MAX_ALLOC_BYTES).is_ok());
        let e = super::text_fits(super::super::MAX_ALLOC_BYTES + 1).unwrap_err();
        assert_eq!(e.message, format!("text of {} bytes exceeds the interpreter's limit", (1usize << 30) + 1));
    }
}
