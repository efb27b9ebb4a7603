//! Comparing results with expected values: exactly (floats bit for bit,
//! any NaN matching any NaN) or within a case's tolerance.

use crate::cases::Tol;
use postc_ir::interp::Value;
use postc_ir::DType;

/// Position of a float on the integer line of its dtype's bit patterns,
/// monotonic in the value, so ulp distance is a difference.
pub fn ordinal(dtype: DType, x: f64) -> i64 {
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

pub fn float_close(dtype: DType, got: f64, want: f64, tol: Tol, scale: f64) -> bool {
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

pub fn show(v: &Value) -> String {
    match v {
        Value::Float(d, x) => format!("{d} {x:?} (bits {:#x})", x.to_bits()),
        Value::Complex(d, re, im) => format!("{d} ({re:?}, {im:?})"),
        Value::Array(a) => format!("{a:?}"),
        v => format!("{v:?}"),
    }
}

pub fn values_match(got: &Value, want: &Value, tol: Tol) -> bool {
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

pub fn compare_list(what: &str, got: &[Value], want: &[Value], tol: Tol) -> Result<(), String> {
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
