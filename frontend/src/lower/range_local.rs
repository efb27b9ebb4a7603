//! A local holding a `range`: `order = range(n)`, or a conditional of two
//! ranges (`range(n) if up else range(n - 1, -1, -1)`), that a `for` loop
//! then runs over (`for i in order`), as scanpy's kernels pick the order
//! of a walk.
//!
//! What it does: the binding computes the range's bounds where CPython
//! makes the range object (arguments read, a zero step a panic, there)
//! into three Int64 variables, and a `for` loop over the local counts
//! with them as over `range(start, stop, step)` with a step known only at
//! run time. What it does not: a range local is only iterated — read as a
//! value (`len(order)`, `order[0]`, passed to a function) or bound twice,
//! it is a compile error; `prange` is not held in a local. The typecheck
//! types the loop's counter from the same value (`typeck::range_value`).

use super::*;

/// The local `name`, holding a `range`, bound to one again.
pub(crate) fn range_rebound_error(name: &str) -> String {
    format!("`{name}` is bound to a `range` a second time: a local holding a `range` is bound by one statement")
}

/// The local `name`, holding a `range`, read but as what a loop runs over.
pub(crate) fn range_read_error(name: &str) -> String {
    format!("`{name}` holds a `range`, which compiled code only runs a `for` loop over (`for i in {name}`)")
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// `target = value` where `value` is a range (see
    /// [`typeck::range_value`]): whether it was one (and bound, or
    /// reported).
    pub(super) fn bind_range(&mut self, target: hir::ExprId, value: hir::ExprId) -> bool {
        let hir = self.hir;
        let hir::Expr::Name(n) = &hir.exprs[target] else { return false };
        let Some(arms) = typeck::range_value(hir, value) else { return false };
        let name = self.name_text(n).to_owned();
        if !self.locals.get(&name).is_some_and(|l| !l.param && l.ty.is_none()) {
            return false;
        }
        let at = self.range(value);
        if self.range_locals.contains_key(&name) {
            self.err(&self.range(target), range_rebound_error(&name));
            return true;
        }
        self.at(&at);
        let z = self.zero(DType::Int64);
        let mut vars = [z; 3];
        for (v, part) in vars.iter_mut().zip(["start", "stop", "step"]) {
            let nm = self.fresh(&format!("{name}.{part}"));
            *v = self.b.let_(TypeId::INT64, z, &nm);
        }
        let bounds = match &arms[..] {
            [call] => self.range_into(*call, vars),
            [a, b] => {
                let hir::Expr::If { test, .. } = hir.exprs[value] else { unreachable!("a conditional of ranges") };
                let Some(c) = self.cond(test) else { return true };
                let (yes, no, join) = (self.block("range.then"), self.block("range.else"), self.block("range.end"));
                self.b.condbr(c, yes, no, None);
                self.enter(yes);
                let first = self.range_into(*a, vars);
                self.br(join);
                self.enter(no);
                let second = self.range_into(*b, vars);
                self.br(join);
                self.enter(join);
                match (first, second) {
                    (Some(f), Some(s)) => Some((f.0 && s.0, f.1.filter(|k| s.1 == Some(*k)))),
                    _ => None,
                }
            }
            _ => unreachable!("one range or two"),
        };
        if let Some((nonneg, step_const)) = bounds {
            let [start, stop, step] = vars;
            self.range_locals.insert(name, RangeBounds { start, stop, step, step_const, nonneg });
        }
        true
    }

    /// Sets `vars` to the start, stop and step of the `range` call `call`;
    /// whether its values are non-negative, and its step if constant.
    fn range_into(&mut self, call: hir::ExprId, vars: [ValueId; 3]) -> Option<(bool, Option<i128>)> {
        let hir::Expr::Call { args, keywords, .. } = &self.hir.exprs[call] else { return None };
        let r = self.range_bounds(self.range(call), args, keywords)?;
        for (var, v) in vars.into_iter().zip([r.start, r.stop, r.step]) {
            self.b.set(var, v);
        }
        Some((r.nonneg, r.step_const))
    }

    /// The bounds of the range the local `iter` holds, if it holds one.
    pub(super) fn held_range(&self, iter: hir::ExprId) -> Option<RangeBounds> {
        let hir::Expr::Name(n) = &self.hir.exprs[iter] else { return None };
        self.range_locals.get(self.name_text(n)).copied()
    }
}
