//! The methods called of values, as the lowering finds them: a list
//! local's (`xs.append(v)`), and which methods of other values compiled
//! code calls at all ([`method_compiles`]).

use super::*;
use crate::lower::lists::{list_grown_in_parallel_error, list_method_error, APPEND_TAKES_ONE_VALUE};

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
    /// other than one value or in a `prange` loop that runs in parallel.
    /// It has no value.
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
        if self.prange.in_parallel.get(e).is_some() {
            // Iterations would move and write the one buffer at once.
            return self.refuse_here(e, list_grown_in_parallel_error(&self.body.locals[list].name));
        }
        if self.maybe_none(*arg) {
            return None;
        }
        if let Some(message) = self.list_element_error(list, &self.ty(*arg)?) {
            return self.refuse(e, self.body.expr_ranges[*arg], message);
        }
        None
    }
}
