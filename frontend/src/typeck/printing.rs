//! Why the lowering refuses a call of `print`, found from the types of
//! its arguments: every keyword and every argument it refuses, each
//! reported, and the call refused for them (only where every argument has
//! a type, so that nothing only the lowering finds is left unreported).

use super::*;
use crate::lower::printing::{print_keyword_error, printed_error, PRINT_IN_GPU};

impl Solver<'_> {
    /// `print(args, keywords)` (the call `e`): in GPU code, of a `*`
    /// argument, of keywords [`print_keyword_error`] refuses, of values
    /// [`printed_error`] refuses. It has no value.
    pub(super) fn print_call(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<Ty> {
        let body = self.body;
        if self.env.decl.attrs.contains(FuncAttrs::GPU) || self.env.decl.attrs.contains(FuncAttrs::KERNEL) {
            return self.refuse_here(e, PRINT_IN_GPU);
        }
        if let Some(&s) = args.iter().find(|&&a| matches!(body.exprs[a], Expr::Starred(_))) {
            return self.refuse(e, body.expr_ranges[s], STARRED_ARGUMENT);
        }
        let mut errors: Vec<(TextRange, String)> =
            keywords.iter().filter_map(|k| print_keyword_error(body, k)).collect();
        if errors.is_empty() && self.prints_too_many_maybe_none(args) {
            return self.refuse_here(e, crate::lower::printing::print_maybe_none_count_error());
        }
        for &a in args {
            if matches!(body.exprs[a], Expr::None) {
                continue;
            }
            if self.maybe_none(a) {
                return None;
            }
            let t = self.ty(a)?;
            errors.extend(printed_error(&t).map(|message| (body.expr_ranges[a], message)));
        }
        if errors.is_empty() {
            return None;
        }
        for (at, message) in errors {
            self.report(at, message);
        }
        self.quiet(e);
        None
    }
}
