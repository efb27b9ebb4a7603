//! The dtypes of POST Python values and NumPy 2's promotion between them.
//!
//! A value is *weak* when CPython would hold it as a Python scalar (a
//! literal, a loop counter, `len(a)`, a module constant): as NEP 50 says, a
//! weak value takes the dtype of the strong operand it meets, unless its
//! kind is higher (a Python float meeting an integer gives Float64).

use postc_ir::DType;

/// The numeric tower, for unification and for NEP 50's kind comparison.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Kind {
    Bool,
    Int,
    Float,
    Complex,
    Text,
}

pub(crate) fn kind(d: DType) -> Kind {
    if d == DType::Bool {
        Kind::Bool
    } else if d.is_int() {
        Kind::Int
    } else if d.is_float() {
        Kind::Float
    } else if d.is_complex() {
        Kind::Complex
    } else {
        Kind::Text
    }
}

/// The dtype CPython's scalar of a kind has: `int` is Int64, `float`
/// Float64, `complex` Complex128.
pub(crate) fn default_of(k: Kind) -> DType {
    match k {
        Kind::Bool => DType::Bool,
        Kind::Int => DType::Int64,
        Kind::Float => DType::Float64,
        Kind::Complex => DType::Complex128,
        Kind::Text => DType::Str,
    }
}

/// The smallest float that holds every value of an integer (or Bool) dtype
/// exactly, as NumPy's `promote_types` picks it.
pub(crate) fn float_for(d: DType) -> DType {
    match d {
        DType::Bool | DType::Int8 | DType::UInt8 => DType::Float16,
        DType::Int16 | DType::UInt16 => DType::Float32,
        _ => DType::Float64,
    }
}

fn complex_for_float(f: DType) -> DType {
    if f == DType::Float64 {
        DType::Complex128
    } else {
        DType::Complex64
    }
}

/// The real part's dtype of a complex dtype; other dtypes are themselves.
fn real_part(d: DType) -> DType {
    d.complex_part().unwrap_or(d)
}

fn wider(a: DType, b: DType) -> DType {
    if a.bits() >= b.bits() {
        a
    } else {
        b
    }
}

fn signed_of_bits(bits: u32) -> Option<DType> {
    Some(match bits {
        8 => DType::Int8,
        16 => DType::Int16,
        32 => DType::Int32,
        64 => DType::Int64,
        _ => return None,
    })
}

/// NumPy's `promote_types` on two numeric dtypes.
pub(crate) fn promote_strong(a: DType, b: DType) -> Option<DType> {
    if a == b {
        return Some(a);
    }
    let (ka, kb) = (kind(a), kind(b));
    if ka == Kind::Text || kb == Kind::Text {
        return None;
    }
    if ka == Kind::Bool {
        return Some(b);
    }
    if kb == Kind::Bool {
        return Some(a);
    }
    Some(match (ka, kb) {
        (Kind::Int, Kind::Int) => {
            if a.is_signed_int() == b.is_signed_int() {
                wider(a, b)
            } else {
                let (s, u) = if a.is_signed_int() { (a, b) } else { (b, a) };
                if s.bits() > u.bits() {
                    s
                } else {
                    signed_of_bits(u.bits() * 2).unwrap_or(DType::Float64)
                }
            }
        }
        (Kind::Int, _) | (_, Kind::Int) => {
            let (i, other) = if ka == Kind::Int { (a, b) } else { (b, a) };
            let f = float_for(i);
            if kind(other) == Kind::Float {
                wider(f, other)
            } else {
                complex_for_float(wider(f, real_part(other)))
            }
        }
        _ => {
            let f = wider(real_part(a), real_part(b));
            if ka == Kind::Complex || kb == Kind::Complex {
                complex_for_float(f)
            } else {
                f
            }
        }
    })
}

/// A dtype and whether the value is weak.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Scalar {
    pub dtype: DType,
    pub weak: bool,
}

impl Scalar {
    pub fn strong(dtype: DType) -> Scalar {
        Scalar { dtype, weak: false }
    }
    pub fn weak(dtype: DType) -> Scalar {
        Scalar { dtype, weak: true }
    }
}

/// The common dtype two operands are converted to (NEP 50).
pub(crate) fn promote(a: Scalar, b: Scalar) -> Option<Scalar> {
    let (ka, kb) = (kind(a.dtype), kind(b.dtype));
    if ka == Kind::Text || kb == Kind::Text {
        return (a.dtype == b.dtype).then_some(Scalar { dtype: a.dtype, weak: a.weak && b.weak });
    }
    match (a.weak, b.weak) {
        (false, false) => promote_strong(a.dtype, b.dtype).map(Scalar::strong),
        (true, true) => Some(Scalar::weak(default_of(ka.max(kb)))),
        _ => {
            let (w, s) = if a.weak { (a, b) } else { (b, a) };
            let (kw, ks) = (kind(w.dtype), kind(s.dtype));
            let d = if kw <= ks {
                s.dtype
            } else {
                match kw {
                    Kind::Int => DType::Int64,
                    Kind::Float => DType::Float64,
                    // A Python complex keeps a Float32's precision.
                    _ if ks == Kind::Float => complex_for_float(s.dtype),
                    _ => DType::Complex128,
                }
            };
            Some(Scalar::strong(d))
        }
    }
}

/// Whether a value of `from` may be stored in a variable of `to` without
/// narrowing: up the numeric tower, or within a kind to a dtype that holds
/// every value.
pub(crate) fn widens_to(from: Scalar, to: DType) -> bool {
    if from.dtype == to {
        return true;
    }
    let (kf, kt) = (kind(from.dtype), kind(to));
    if kf == Kind::Text || kt == Kind::Text {
        return false;
    }
    if from.weak {
        return kf <= kt;
    }
    if kf < kt {
        return true;
    }
    kf == kt && promote_strong(from.dtype, to) == Some(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn strong_promotion_is_numpys() {
        let cases = [
            (Int8, UInt8, Int16),
            (Int64, UInt64, Float64),
            (UInt32, Int32, Int64),
            (Int16, Float16, Float32),
            (Int64, Float32, Float64),
            (UInt8, Float16, Float16),
            (Complex64, Float64, Complex128),
            (Complex64, Int16, Complex64),
            (Complex64, Int32, Complex128),
            (Bool, Int8, Int8),
            (Float16, Float32, Float32),
        ];
        for (a, b, want) in cases {
            assert_eq!(promote_strong(a, b), Some(want), "{a:?} {b:?}");
            assert_eq!(promote_strong(b, a), Some(want), "{b:?} {a:?}");
        }
        assert_eq!(promote_strong(Str, Int64), None);
    }

    #[test]
    fn weak_scalars_follow_nep_50() {
        let p = |a, b| promote(a, b).unwrap();
        assert_eq!(p(Scalar::strong(Float32), Scalar::weak(Float64)), Scalar::strong(Float32));
        assert_eq!(p(Scalar::strong(Int8), Scalar::weak(Int64)), Scalar::strong(Int8));
        assert_eq!(p(Scalar::strong(Int32), Scalar::weak(Float64)), Scalar::strong(Float64));
        assert_eq!(p(Scalar::strong(Float32), Scalar::weak(Complex128)), Scalar::strong(Complex64));
        assert_eq!(p(Scalar::strong(Bool), Scalar::weak(Int64)), Scalar::strong(Int64));
        assert_eq!(p(Scalar::weak(Int64), Scalar::weak(Float64)), Scalar::weak(Float64));
    }

    #[test]
    fn narrowing_is_refused() {
        assert!(widens_to(Scalar::strong(Int32), Int64));
        assert!(widens_to(Scalar::strong(Int64), Float32));
        assert!(!widens_to(Scalar::strong(Float64), Float32));
        assert!(!widens_to(Scalar::strong(Float64), Int64));
        assert!(!widens_to(Scalar::strong(Int64), UInt64));
        assert!(widens_to(Scalar::weak(Int64), Float32));
        assert!(!widens_to(Scalar::weak(Float64), Int64));
    }
}
