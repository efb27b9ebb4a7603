//! The typecheck's refusals of writes into read-only memory: an input
//! array (a parameter not marked `Out`) or a module-level array, or a
//! view of one, found by the lowering's analysis of the body
//! ([`crate::lower::read_only`], run before the typecheck and given in
//! [`TypeEnv::read_only`]), wherever the sweep types the array written:
//!
//! - the stores of assignments into elements, views and through array
//!   indices (`x[i] = v`, `x[1:] = v`, `x[idx] = v`, `x[i][j] = v`),
//!   augmented ones (`x[i] += v`, `x[1:] *= 2.0`) and the updates of whole
//!   arrays in place (`x += y`), in refused statements too, reported beside
//!   the statement's other errors;
//! - `a.sort()` of such an array (with the checks of `a.sort()`'s
//!   arguments, outside GPU code);
//! - such an array given for an `Out` parameter of a POST function, which
//!   writes it (not for the instances of generic functions, whose
//!   parameters are `Out` only where the caller's arrays are writable).
//!
//! Each write is reported once, at the array written, with the messages
//! the lowering's checks share
//! ([`crate::lower::read_only::ReadOnly::message`]).

use super::*;

impl Solver<'_> {
    /// Why writing into `written` is refused, where it is typed as an
    /// array that is not `Out` and may share read-only memory; recorded as
    /// reported.
    pub(super) fn read_only_error(&self, written: ExprId) -> Option<String> {
        let read_only = self.env.read_only?;
        let Some(Ty::Arr(ty)) = self.ty(written) else { return None };
        if ty.is_output || !read_only.reads_input_memory(self.body, written) {
            return None;
        }
        Some(read_only.message(self.body, self.env.decl.is_instance(), written))
    }

    /// Reports each write of the assignment `s` into read-only memory
    /// (see [`Solver::read_only_error`]): the array of every subscript
    /// target, and the whole array an augmented assignment updates in
    /// place; whether or not the statement is refused otherwise.
    pub(super) fn check_read_only_targets(&self, s: StmtId) {
        let body = self.body;
        let written: Vec<ExprId> = match &body.stmts[s] {
            Stmt::Assign { targets, .. } => targets
                .iter()
                .flat_map(|t| match &body.exprs[*t] {
                    Expr::Tuple(elts) | Expr::List(elts) => elts.to_vec(),
                    _ => vec![*t],
                })
                .filter_map(|t| match body.exprs[t] {
                    Expr::Subscript { base, .. } => Some(base),
                    _ => None,
                })
                .collect(),
            Stmt::AugAssign { target, .. } => match body.exprs[*target] {
                Expr::Subscript { base, .. } => vec![base],
                Expr::Name(_) => vec![*target],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        for w in written {
            if let Some(message) = self.read_only_error(w) {
                self.report(body.expr_ranges[w], message);
            }
        }
    }

    /// Why the array `given` for the parameter `i` of `callee`, which
    /// writes it (`Out`), is refused: read-only memory, where it is typed
    /// as an array that is not `Out`; recorded as reported.
    pub(super) fn written_argument_error(&self, callee: &Callee, i: usize, given: ExprId) -> Option<String> {
        let read_only = self.env.read_only?;
        if !callee.params.get(i).is_some_and(|p| p.is_output) {
            return None;
        }
        let Some(Ty::Arr(ty)) = self.ty(given) else { return None };
        if ty.is_output {
            return None;
        }
        let message = read_only.written_argument_error(self.body, &callee.name, i, given)?;
        Some(message)
    }
}
