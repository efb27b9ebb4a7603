//! Intrinsic imports: libm-compatible math functions, by symbol name.
//! `f64` functions come from Rust's `std` (the platform libm); erf, erfc,
//! lgamma and tgamma from the pure-Rust port in [`super::libm`]. A
//! `Float32` (or `Float16`) call computes in `f64` and rounds the result to
//! the result dtype once; a symbol with an `f` suffix (`sqrtf`) names the
//! same function.

use super::ops::{cast, unsupported, R};
use super::value::Value;
use crate::dtype::DType;

fn unary_fn(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "sqrt" => f64::sqrt,
        "sin" => f64::sin,
        "cos" => f64::cos,
        "tan" => f64::tan,
        "asin" => f64::asin,
        "acos" => f64::acos,
        "atan" => f64::atan,
        "sinh" => f64::sinh,
        "cosh" => f64::cosh,
        "tanh" => f64::tanh,
        "asinh" => f64::asinh,
        "acosh" => f64::acosh,
        "atanh" => f64::atanh,
        "exp" => f64::exp,
        "exp2" => f64::exp2,
        "expm1" => f64::exp_m1,
        "log" => f64::ln,
        "log2" => f64::log2,
        "log10" => f64::log10,
        "log1p" => f64::ln_1p,
        "fabs" => f64::abs,
        "floor" => f64::floor,
        "ceil" => f64::ceil,
        "trunc" => f64::trunc,
        "round" => f64::round,
        "rint" | "nearbyint" => f64::round_ties_even,
        "cbrt" => f64::cbrt,
        "erf" => libm::erf,
        "erfc" => libm::erfc,
        "lgamma" => |x| libm::lgamma_r(x).0,
        "tgamma" => libm::tgamma,
        _ => return None,
    })
}

fn binary_fn(name: &str) -> Option<fn(f64, f64) -> f64> {
    Some(match name {
        "atan2" => f64::atan2,
        "pow" => f64::powf,
        "fmod" => |x, y| x % y,
        "hypot" => f64::hypot,
        "copysign" => f64::copysign,
        "fmin" => f64::min,
        "fmax" => f64::max,
        "fdim" => |x: f64, y: f64| if x.is_nan() || y.is_nan() { f64::NAN } else { (x - y).max(0.0) },
        _ => return None,
    })
}

/// Whether `symbol` names an intrinsic the interpreter knows.
pub fn is_known(symbol: &str) -> bool {
    base_name(symbol).is_some()
}

/// Whether `symbol` names an intrinsic of two arguments (`atan2`, `pow`).
pub fn is_binary(symbol: &str) -> bool {
    base_name(symbol).is_some_and(|b| binary_fn(b).is_some())
}

fn base_name(symbol: &str) -> Option<&str> {
    let known = |s: &str| unary_fn(s).is_some() || binary_fn(s).is_some();
    if known(symbol) {
        return Some(symbol);
    }
    symbol.strip_suffix('f').filter(|b| known(b))
}

/// Calls the intrinsic `symbol` on `args`; the result has dtype `rd`
/// (`None`: the first argument's float dtype, else `Float64`).
pub(crate) fn call(symbol: &str, args: &[Value], rd: Option<DType>) -> R<Value> {
    let Some(name) = base_name(symbol) else {
        return unsupported(format!("unknown intrinsic `{symbol}`"));
    };
    let mut xs = Vec::with_capacity(args.len());
    for a in args {
        match cast(DType::Float64, a) {
            Ok(Value::Float(_, x)) if !matches!(a, Value::Complex(..)) => xs.push(x),
            _ => return unsupported(format!("intrinsic `{symbol}` takes real numbers, not {}", a.dtype())),
        }
    }
    let r = if let Some(f) = unary_fn(name) {
        if xs.len() != 1 {
            return unsupported(format!("intrinsic `{symbol}` takes 1 argument, not {}", xs.len()));
        }
        f(xs[0])
    } else {
        let f = binary_fn(name).expect("known intrinsic");
        if xs.len() != 2 {
            return unsupported(format!("intrinsic `{symbol}` takes 2 arguments, not {}", xs.len()));
        }
        f(xs[0], xs[1])
    };
    let rd = rd.unwrap_or_else(|| match args.first().map(Value::dtype) {
        Some(d) if d.is_float() => d,
        _ => DType::Float64,
    });
    cast(rd, &Value::f64(r))
}
