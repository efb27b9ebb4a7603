//! What each opcode accepts, and how values and types are named in
//! messages.

use super::*;

// ---------------------------------------------------------------------------
// Message helpers.

/// `` `add` %x `` or `` `store` ``: an instruction in a message (its name
/// is decoded only when the message is written).
#[derive(Clone, Copy)]
pub(super) struct Desc<'a>(pub(super) &'a Body, pub(super) ValueId);

impl fmt::Display for Desc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.0.tags[self.1].mnemonic())?;
        if let Some(n) = self.0.name(self.1) {
            write!(f, " %{n}")?;
        }
        Ok(())
    }
}

/// `%x`, or for an unnamed value `` `store` (instruction 7) ``.
#[derive(Clone, Copy)]
pub(super) struct VName<'a>(pub(super) &'a Body, pub(super) ValueId);

impl fmt::Display for VName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.name(self.1) {
            Some(n) => write!(f, "%{n}"),
            None => write!(f, "`{}` (instruction {})", self.0.tags[self.1].mnemonic(), self.1.as_u32()),
        }
    }
}

/// A ufunc operand's core shape: `(m,n)`.
pub(super) struct CoreShape<'a>(pub(super) &'a [String]);

impl fmt::Display for CoreShape<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", self.0.join(","))
    }
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Types equal but for the output flag.
pub(super) fn same_type(a: &TypeData, b: &TypeData) -> bool {
    a.dtype == b.dtype
        && a.is_array == b.is_array
        && a.shape == b.shape
        && a.layout == b.layout
        && a.elements.len() == b.elements.len()
        && a.elements.iter().zip(&b.elements).all(|(x, y)| same_type(x, y))
}

/// Whether an argument of type `arg` may be passed for a parameter of type
/// `param`: same dtype and array-ness; for arrays the shape fits (AnyShape
/// and `?` accept anything, fixed ndims agree) and the layout is the same.
pub(super) fn arg_fits(arg: &TypeData, param: &TypeData) -> bool {
    if arg.dtype != param.dtype || arg.is_array != param.is_array {
        return false;
    }
    if !param.is_array {
        return true;
    }
    let shape_ok = match (&arg.shape, &param.shape) {
        (_, Shape::Any) => true,
        (Shape::Any, Shape::Dims(_)) => true,
        (Shape::Dims(a), Shape::Dims(p)) => {
            a.len() == p.len() && a.iter().zip(p.iter()).all(|(x, y)| y.is_none() || x == y)
        }
    };
    shape_ok && arg.layout == param.layout
}

pub(super) fn int_scalar(t: &TypeData) -> bool {
    !t.is_array && t.dtype.is_int()
}

/// What a binary opcode accepts for operands of dtype `l`.
pub(super) enum BinRule {
    /// Defined, with this result dtype.
    Ok(DType),
    /// Integer `div`: the result must be a float.
    IntDiv,
    NotDefined,
}

pub(super) fn binary_rule(op: Opcode, l: DType) -> BinRule {
    let (int, float, cplx) = (l.is_int(), l.is_float(), l.is_complex());
    let (allowed, want) = match op {
        Opcode::Add => (int || float || cplx || l.is_text(), l),
        Opcode::Sub | Opcode::Mul | Opcode::Pow => (int || float || cplx, l),
        Opcode::Div if int => return BinRule::IntDiv,
        Opcode::Div => (float || cplx, l),
        Opcode::FDiv | Opcode::Mod => (int || float, l),
        Opcode::Quot | Opcode::Rem => (int, l),
        Opcode::Eq | Opcode::Ne => (true, DType::Bool),
        Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => (!cplx, DType::Bool),
        Opcode::And | Opcode::Or => (l == DType::Bool, DType::Bool),
        Opcode::BAnd | Opcode::BOr | Opcode::BXor => (int || l == DType::Bool, l),
        Opcode::Shl | Opcode::Shr => (int, l),
        _ => (false, l),
    };
    if allowed {
        BinRule::Ok(want)
    } else {
        BinRule::NotDefined
    }
}

/// The result dtype of a unary opcode on dtype `a`; `None` when it is not
/// defined on `a`.
pub(super) fn unary_rule(op: Opcode, a: DType) -> Option<DType> {
    let (allowed, want) = match op {
        Opcode::Neg => (a.is_int() || a.is_float() || a.is_complex(), a),
        Opcode::Not => (a == DType::Bool, a),
        Opcode::Abs => (a.is_int() || a.is_float() || a.is_complex(), a.complex_part().unwrap_or(a)),
        Opcode::Inv => (a.is_int(), a),
        _ => (false, a),
    };
    allowed.then_some(want)
}
