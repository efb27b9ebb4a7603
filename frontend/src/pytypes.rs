//! The dtypes of POST Python values and NumPy 2's promotion between them.
//!
//! A value is *weak* when CPython would hold it as a Python scalar (a
//! literal, a loop counter, `len(a)`, a module constant): as NEP 50 says, a
//! weak value takes the dtype of the strong operand it meets, unless its
//! kind is higher (a Python float meeting an integer gives Float64).
//!
//! Also the rules that follow from them and that both the typecheck and
//! the lowering apply: the type a local gets from its assignments
//! ([`join`]) and the types of arithmetic ([`arith`]).

use crate::syntax::Lit;
use postc_ir::{DType, Opcode};
use ruff_python_ast as ast;

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

/// The type a local has when assigned both `a` and `b`.
pub(crate) fn join(a: Scalar, b: Scalar) -> Option<Scalar> {
    if a.dtype.is_text() || b.dtype.is_text() {
        return (a.dtype == b.dtype).then_some(Scalar { dtype: a.dtype, weak: a.weak && b.weak });
    }
    promote(a, b).map(|p| Scalar { dtype: if p.weak { default_of(kind(p.dtype)) } else { p.dtype }, ..p })
}

/// What the rules of an operator know of an operand: its type, whether it
/// is known to be non-negative, and its value when it is a literal (or a
/// folded module constant).
pub(crate) struct Operand<'a> {
    pub s: Scalar,
    pub nonneg: bool,
    pub lit: Option<&'a Lit>,
}

/// How a binary arithmetic operator applies to two scalars.
#[derive(Debug, PartialEq)]
pub(crate) struct Arith {
    pub opcode: Opcode,
    /// The dtype both operands are converted to.
    pub operand: DType,
    pub result: Scalar,
    /// Whether the result is non-negative whenever the operands are as
    /// [`Operand::nonneg`] says.
    pub nonneg: bool,
    /// The operands' promoted dtype (NEP 50), before an operator's own
    /// rule (`/` of integers is Float64) changes it.
    pub promoted: DType,
}

/// Python's and NumPy's rule for `l op r` on scalars: the instruction,
/// the dtypes, and whether the result stays non-negative; or why the
/// operands do not take the operator.
pub(crate) fn arith(op: ast::Operator, l: &Operand, r: &Operand) -> Result<Arith, String> {
    use ast::Operator as O;
    let (ls, rs) = (l.s, r.s);
    let sym = op.as_str();
    if op == O::MatMult {
        return Err("`@` takes arrays of one or two axes, not scalars".into());
    }
    let Some(p) = promote(ls, rs) else {
        return Err(format!("unsupported operand types for `{sym}`: {} and {}", ls.dtype.name(), rs.dtype.name()));
    };
    let k = kind(p.dtype);
    let both_bool = ls.dtype == DType::Bool && rs.dtype == DType::Bool;
    let nonneg = l.nonneg && r.nonneg;
    let (opcode, operand, result, nonneg) = match op {
        O::Add if k == Kind::Text => (Opcode::Add, p.dtype, p, false),
        _ if k == Kind::Text => return Err(format!("`{sym}` is not defined on {}", p.dtype.name())),
        // NumPy's Bool arithmetic is logical (`+` is or, `*` is and, `-`
        // is refused); Python's bools add as integers.
        O::Add | O::Sub | O::Mult if both_bool && p.weak => {
            let d = DType::Int64;
            let op = match op {
                O::Add => Opcode::Add,
                O::Sub => Opcode::Sub,
                _ => Opcode::Mul,
            };
            (op, d, Scalar::weak(d), false)
        }
        O::Add if both_bool => (Opcode::Or, DType::Bool, Scalar::strong(DType::Bool), true),
        O::Mult if both_bool => (Opcode::And, DType::Bool, Scalar::strong(DType::Bool), true),
        O::Sub if both_bool => {
            return Err("`-` on two Bool values is not defined (as in NumPy): use `^` or convert with `int(...)`".into())
        }
        O::Add => (Opcode::Add, p.dtype, p, nonneg),
        O::Mult => (Opcode::Mul, p.dtype, p, nonneg),
        O::Sub => (Opcode::Sub, p.dtype, p, false),
        O::Div => {
            let d = if k <= Kind::Int { DType::Float64 } else { p.dtype };
            (Opcode::Div, d, Scalar { dtype: d, weak: p.weak }, false)
        }
        O::FloorDiv | O::Mod => {
            if k == Kind::Complex {
                return Err(format!("`{sym}` is not defined on {}", p.dtype.name()));
            }
            let op = if op == O::FloorDiv { Opcode::FDiv } else { Opcode::Mod };
            let nn = if op == Opcode::Mod { r.nonneg } else { nonneg };
            let d = if k == Kind::Bool { DType::Int8 } else { p.dtype };
            (op, d, Scalar { dtype: d, weak: p.weak }, nn)
        }
        O::Pow => {
            if both_bool {
                return Err("`**` on two Bool values: convert them with `int(...)` first".into());
            }
            if k <= Kind::Int && matches!(r.lit, Some(Lit::Int(i)) if *i < 0) {
                return Err("an integer raised to a negative power: write a float base such as `2.0 ** -1`".into());
            }
            (Opcode::Pow, p.dtype, p, nonneg)
        }
        O::BitAnd | O::BitOr | O::BitXor => {
            if k > Kind::Int {
                return Err(format!("`{sym}` is defined on integers and Bool, not {}", p.dtype.name()));
            }
            let op = match op {
                O::BitAnd => Opcode::BAnd,
                O::BitOr => Opcode::BOr,
                _ => Opcode::BXor,
            };
            (op, p.dtype, p, nonneg)
        }
        O::LShift | O::RShift => {
            if k != Kind::Int {
                return Err(format!("`{sym}` is defined on integers, not {}", p.dtype.name()));
            }
            let op = if op == O::LShift { Opcode::Shl } else { Opcode::Shr };
            (op, p.dtype, p, op == Opcode::Shr && l.nonneg)
        }
        O::MatMult => unreachable!("refused above"),
    };
    Ok(Arith { opcode, operand, result, nonneg, promoted: p.dtype })
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

/// A type as POST Python annotates it, for diagnostics: `Float64`,
/// `Float64[:]`, `Float64[:, :]`, `Float64[3, 3]` (static extents),
/// `Out[Float64[:]]`, `tuple[Float64, Int64[:]]`.
pub(crate) fn annotation_text(t: &postc_ir::TypeData) -> String {
    if t.is_tuple() {
        let elements: Vec<String> = t.elements.iter().map(annotation_text).collect();
        return format!("tuple[{}]", elements.join(", "));
    }
    let name = t.dtype.name();
    if !t.is_array {
        return name.to_owned();
    }
    let axes: Vec<String> = match &t.shape {
        postc_ir::Shape::Dims(dims) => dims.iter().map(|d| d.map_or(":".to_owned(), |n| n.to_string())).collect(),
        postc_ir::Shape::Any => vec!["...".to_owned()],
    };
    let array = format!("{name}[{}]", axes.join(", "));
    if t.is_output {
        format!("Out[{array}]")
    } else {
        array
    }
}
