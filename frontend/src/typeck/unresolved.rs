//! Functions without a result type, as their calls and their own
//! `return`s meet them (see [`NoResult`], decided where the module's
//! results are found):
//! - a call of a function that returns nothing, refused where its value
//!   is read: not as a statement of its own, as the value of a `return`
//!   in a function that returns nothing itself, or tested `is None`;
//! - a call of a function whose result is needed before any `return`
//!   gives it (recursion), refused wherever it is;
//! - in a function without a result annotation whose result no `return`
//!   settles, each `return` of a number or an array (the values give no
//!   one type: numbers and arrays, arrays of two dtypes, lists and
//!   arrays, text), unless its result is pending (its calls say why);
//! - a function whose result is an inferred tuple and whose body can
//!   reach its end.
//!
//! The calls of a function whose annotation or body has errors stay
//! quiet: those errors are its.

use super::*;
use crate::declare::NoResult;

/// The value of a call of a function that returns nothing, read.
pub(crate) const CALL_RETURNS_NOTHING: &str = "this call returns nothing";

/// A call of `name`, whose result is needed before any `return` gives it.
pub(crate) fn pending_result_error(name: &str) -> String {
    format!(
        "the result of `{name}` is not known: it is needed before a `return` gives it (`{name}` calls itself, \
         directly or through others): annotate it (`-> Float64`, `-> tuple[Int64, Float64[:]]`)"
    )
}

/// A `return` of the function `name`, whose `return`s give no one type.
pub(crate) fn no_one_type_error(name: &str) -> String {
    format!(
        "the `return`s of `{name}` give no one type (a number, an array or a tuple; or `None` and a value): \
         annotate its result (`-> T | None` for a number that may be `None`)"
    )
}

/// The function `name`, whose result is an inferred tuple, can reach
/// its end.
pub(crate) fn tuple_falls_off_error(name: &str) -> String {
    format!("function `{name}` can reach its end without returning a value (it returns a tuple)")
}

/// The calls whose value is not read (see [`Solver::call_without_result`]):
/// standing alone, returned by a function that returns nothing, tested
/// `is None` or `is not None`.
pub(super) fn unread_results(body: &Body, decl: &FuncDecl) -> ArenaMap<ExprId, ()> {
    let mut out = ArenaMap::default();
    let returns_nothing = decl.ret.is_none();
    for (_, s) in body.stmts.iter() {
        match s {
            Stmt::Expr(e) => {
                out.insert(*e, ());
            }
            Stmt::Return(Some(v)) if returns_nothing => {
                out.insert(*v, ());
            }
            _ => {}
        }
    }
    for (_, e) in body.exprs.iter() {
        if let Expr::Compare { ops, operands } = e {
            if let ([ast::CmpOp::Is | ast::CmpOp::IsNot], [l, r]) = (&ops[..], &operands[..]) {
                if matches!(body.exprs[*r], Expr::None) {
                    out.insert(*l, ());
                }
                if matches!(body.exprs[*l], Expr::None) {
                    out.insert(*r, ());
                }
            }
        }
    }
    out
}

impl Solver<'_> {
    /// The call `e` of `callee`, which has no result type: refused where
    /// the value of one that returns nothing is read, and wherever one
    /// whose result is pending is; no type.
    pub(super) fn call_without_result(&self, e: ExprId, callee: &crate::lower::Callee) -> Option<Ty> {
        match callee.no_result? {
            NoResult::Nothing => {
                let unread = self.unread_results.get_or_init(|| unread_results(self.body, self.env.decl));
                match unread.get(e) {
                    Some(()) => None,
                    None => self.refuse_here(e, CALL_RETURNS_NOTHING),
                }
            }
            NoResult::Pending => self.refuse_here(e, pending_result_error(&callee.name)),
            NoResult::Broken => {
                if let Some(reports) = self.reports.borrow_mut().as_mut() {
                    reports.calls_broken = true;
                }
                None
            }
        }
    }

    /// After the sweep: in a function without a result annotation whose
    /// result is not found and not pending, reports each `return` of a
    /// typed value that is not a tuple (a function whose first `return`
    /// gives a tuple has its `return`s checked against it, see
    /// `results`); of one whose result is an inferred tuple, a body that
    /// can reach its end.
    pub(super) fn check_unresolved_returns(&self, tuple_result: bool) {
        let decl = self.env.decl;
        let body = self.body;
        if decl.ret.is_some() || !decl.ret_unannotated || decl.ret_poisoned || decl.ret_maybe_none {
            return;
        }
        if tuple_result {
            let generator =
                body.exprs.values().any(|e| matches!(e, Expr::Refused { construct: "`yield`" | "`yield from`", .. }));
            if !generator && fall_off::can_fall_off(body, &body.top) {
                self.report(self.env.def_name, tuple_falls_off_error(&decl.name));
            }
            return;
        }
        if decl.unresolved == NoResult::Pending {
            return;
        }
        for (_, s) in body.stmts.iter() {
            let Stmt::Return(Some(v)) = s else { continue };
            if matches!(body.exprs[*v], Expr::None) {
                continue;
            }
            if matches!(self.ty(*v), Some(t) if !matches!(t, Ty::Tuple(_))) {
                self.report(body.expr_ranges[*v], no_one_type_error(&decl.name));
            }
        }
    }
}
