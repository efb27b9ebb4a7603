//! The methods called of values, as the lowering finds them: a list
//! local's (`xs.append(v)`), and which methods of other values compiled
//! code calls at all ([`method_compiles`]).

use super::*;
use crate::lower::lists::{list_method_error, APPEND_TAKES_ONE_VALUE, LIST_HOLDS_NUMBERS};

/// Whether compiled code calls the method `attr` of an array, a number or
/// an element (`a.sum()`, `a.sort()`, `x.conjugate()`, `a.dot(b)`): the
/// array methods, the methods read as NumPy's functions and a number's
/// `conjugate`. Any other method of a value is not compiled.
pub(crate) fn method_compiles(attr: &str) -> bool {
    array_method(attr).is_some()
        || matches!(attr, "sort" | "argsort" | "var" | "std" | "trace" | "dot" | "conjugate" | "conj")
}

impl Solver<'_> {
    /// `xs.attr(args, keywords)` (the call `e` of `func`) of the list
    /// local `list`, refused as the lowering's `list_method` refuses it
    /// whatever the values: a method other than `append`, `append` of
    /// other than one value. It has no value.
    pub(super) fn list_method_call(
        &self,
        e: ExprId,
        func: ExprId,
        list: LocalId,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<Ty> {
        let Expr::Attribute { attr, .. } = &self.body.exprs[func] else { return None };
        if &**attr != "append" {
            let name = &self.body.locals[list].name;
            return self.refuse(e, self.body.attr_ranges[func], list_method_error(name, attr));
        }
        let ([arg], []) = (args, keywords) else { return self.refuse_here(e, APPEND_TAKES_ONE_VALUE) };
        // In a `prange` loop the lowering may refuse the call first, for
        // growing the list in parallel.
        if self.maybe_none(*arg) || self.in_prange_loop(e) {
            return None;
        }
        if self.ty(*arg)?.scalar().is_none() {
            return self.refuse(e, self.body.expr_ranges[*arg], LIST_HOLDS_NUMBERS);
        }
        None
    }

    /// Whether `e` is in the body of a `prange` loop.
    fn in_prange_loop(&self, e: ExprId) -> bool {
        let inside = self.in_prange.get_or_init(|| {
            let body = self.body;
            let mut inside = ArenaMap::default();
            for (_, stmt) in body.stmts.iter() {
                let Stmt::For { iter, body: block, .. } = stmt else { continue };
                if !self.is_prange_call(*iter) {
                    continue;
                }
                let mut pending: Vec<StmtId> = block.to_vec();
                while let Some(s) = pending.pop() {
                    let (roots, blocks) = parts_of(&body.stmts[s]);
                    insert_subtrees(body, roots, &mut inside);
                    pending.extend(blocks.into_iter().flatten());
                }
            }
            inside
        });
        inside.get(e).is_some()
    }
}
