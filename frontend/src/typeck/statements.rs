//! What the lowering of statements and whole-array expressions refuses
//! and the typecheck finds where it types them:
//! - the operands of `np.where(c, a, b)` and `np.clip(a, lo, hi)`, which
//!   the lowering takes only as nodes of a whole-array expression
//!   (`lower::elementwise`): of numbers and arrays of numbers (of
//!   `np.clip` not complex), with a common dtype, and one array at least
//!   (the messages are the lowering's `elementwise::select_*`);
//! - `None` stored through an index or as the value of an augmented
//!   assignment ([`number_values`], refused as an operand);
//! - the value of an augmented assignment that the operator does not take
//!   with the target: a tuple beside a number or an array, or the elements
//!   of a whole array beside what they do not meet (`a += s` of a string),
//!   which the lowering's `binop` refuses element by element.

use super::*;
use crate::lower::elementwise::{
    select_count_error, select_dtypes_error, select_of_scalars_error, select_operand_error,
};

/// The values `stmt` reads as numbers whatever their type, beside its
/// expressions' operands: the value of an augmented assignment, and each
/// value stored through an index (`a[i] = v`, `a[0], a[1] = v, w`), which
/// the lowering's stores take as a number or an array.
pub(crate) fn number_values(body: &Body, stmt: &Stmt) -> Vec<ExprId> {
    let stored = |t: &ExprId| matches!(body.exprs[*t], Expr::Subscript { .. });
    match stmt {
        Stmt::AugAssign { value, .. } => vec![*value],
        Stmt::Assign { targets, value } => {
            let mut out = Vec::new();
            for t in targets.iter() {
                match (&body.exprs[*t], &body.exprs[*value]) {
                    (Expr::Subscript { .. }, _) => out.push(*value),
                    (Expr::Tuple(ts) | Expr::List(ts), Expr::Tuple(vs) | Expr::List(vs)) if ts.len() == vs.len() => {
                        out.extend(ts.iter().zip(vs.iter()).filter(|(t, _)| stored(t)).map(|(_, v)| *v));
                    }
                    _ => {}
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

impl Solver<'_> {
    /// Why `target op= value` is refused for its operands' types, as the
    /// lowering's `binop` (of an element of a whole-array `target`, in its
    /// fused loop) refuses them: a tuple `value` beside a number or an
    /// array of numbers (`tuple_arith_error`), or the elements of an
    /// array `target` beside a `value` (or its elements) the operator does
    /// not take (`pytypes::arith`). A tuple target, arrays of text or of
    /// unknown axes, and values not typed are left to other checks.
    pub(super) fn in_place_operand_error(&self, target: ExprId, op: ast::Operator, value: ExprId) -> Option<String> {
        let element = |t: Ty| match t {
            Ty::Arr(a) if a.dtype.is_text() || a.ndim().is_none() => None,
            Ty::Arr(a) => Some(Ty::Num { s: Scalar::strong(a.dtype), nonneg: false }),
            t => Some(t),
        };
        let whole = matches!(self.ty(target)?, Ty::Arr(_));
        let current = element(self.ty(target)?)?;
        if matches!(current, Ty::Tuple(_)) {
            return None;
        }
        let rhs = element(self.ty(value)?)?;
        if matches!(rhs, Ty::Tuple(_)) {
            return tuple_arith_error(op, Some(&current), Some(&rhs));
        }
        // A number target's operands are `update_error`'s.
        if !whole {
            return None;
        }
        arith(op, &current.operand()?, &rhs.operand()?).err()
    }

    /// Why `np.where` (of other than one argument) or `np.clip` (`name`)
    /// of `args` at `e` is refused: other than 3 arguments, an operand
    /// that is not a number nor an array of numbers (`None`, a string, a
    /// tuple; of `np.clip` a complex number), operands of no common
    /// dtype, or numbers only (the lowering makes an array). Calls with
    /// keywords or starred arguments, and operands not typed, are left to
    /// the checks of those.
    pub(super) fn select_error(&self, e: ExprId, name: &str, args: &[ExprId]) -> Option<String> {
        if let Expr::Call { keywords, .. } = &self.body.exprs[e] {
            if !keywords.is_empty() {
                return None;
            }
        }
        if args.iter().any(|a| matches!(self.body.exprs[*a], Expr::Starred(_))) {
            return None;
        }
        if args.len() != 3 {
            return Some(select_count_error(name, args.len()));
        }
        let mut elements = Vec::with_capacity(3);
        let mut array = false;
        for &a in args {
            let s = match self.ty(a) {
                None if matches!(self.body.exprs[a], Expr::None) => None,
                None => return None,
                Some(Ty::Arr(t)) => {
                    t.ndim()?;
                    array = true;
                    Some(Scalar::strong(t.dtype))
                }
                Some(t) => t.scalar(),
            };
            let operand = s.filter(|s| !s.dtype.is_text() && (name == "where" || kind(s.dtype) <= Kind::Float));
            let Some(s) = operand else { return Some(select_operand_error(name).to_owned()) };
            elements.push(s);
        }
        // `np.where`'s condition is only tested; `np.clip`'s three meet.
        let met = if name == "where" { &elements[1..] } else { &elements[..] };
        if met.iter().skip(1).try_fold(met[0], |p, s| promote(p, *s)).is_none() {
            let dtypes: Vec<DType> = met.iter().map(|s| s.dtype).collect();
            return Some(select_dtypes_error(name, &dtypes));
        }
        (!array).then(|| select_of_scalars_error(name).to_owned())
    }
}
