//! Why the lowering refuses a call of one of NumPy's functions over
//! arrays (`np.sort`, `np.searchsorted`, `np.linalg.det`, ...), where it
//! certainly does, found from the arguments' types: each check is the
//! lowering's own, in its order, and stops where an argument has no type
//! (the lowering then finds what it finds). The messages are written
//! once, next to the lowering of each function.

use super::*;
use crate::lower::sorting::{
    kth_error, one_axis_error, partition_count_error, searched_axes_error, searched_value_error, searchsorted_form,
    sort_kind_error, sorted_array_form,
};

impl Solver<'_> {
    /// Why the lowering refuses the call `e` of `g` (named by `func`) with
    /// `args` and `keywords`, past the keywords it reads
    /// ([`leading_keywords`]), where it certainly does.
    pub(super) fn numpy_function_error(
        &self,
        e: ExprId,
        func: ExprId,
        g: NpFn,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<(TextRange, String)> {
        match g {
            NpFn::ArrayOf => self.array_of_error(e, args, keywords),
            NpFn::Linspace => self.linspace_error(e, args, keywords),
            NpFn::Outer => self.outer_error(e, args),
            NpFn::Norm => self.norm_error(e, args, keywords),
            NpFn::Roll => self.roll_error(e, args, keywords),
            NpFn::Sort | NpFn::SortInPlace | NpFn::ArgSort | NpFn::ArgSortMethod => {
                self.sort_error(e, func, g, args, keywords)
            }
            NpFn::Partition => self.partition_error(e, args),
            NpFn::Searchsorted => self.searchsorted_error(e, args, keywords),
            _ => None,
        }
    }

    /// `np.sort`, `a.sort()`, `np.argsort` and `a.argsort()`: a `kind=`
    /// NumPy does not name, arguments given to a method or other than one
    /// to a function, what is not an array of real numbers of one axis.
    fn sort_error(
        &self,
        e: ExprId,
        func: ExprId,
        g: NpFn,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let shown = np_function_shown(g);
        if matches!(g, NpFn::ArgSort | NpFn::ArgSortMethod) {
            if let Some(error) = sort_kind_error(body, keywords, shown) {
                return Some(error);
            }
        }
        let method_base = match body.exprs[func] {
            Expr::Attribute { base, .. } if matches!(g, NpFn::SortInPlace | NpFn::ArgSortMethod) => Some(base),
            _ => None,
        };
        let array = match sorted_array_form(method_base, args, shown, body.expr_ranges[e]) {
            Ok(array) => array,
            Err(error) => return Some(error),
        };
        let ty = match self.numeric_array_of(array, shown, false) {
            Ok(t) => t,
            Err(error) => return error,
        };
        (ty.ndim() != Some(1)).then(|| (body.expr_ranges[array], one_axis_error(shown)))
    }

    /// `np.partition(a, kth)`: other arguments, what is not an array of
    /// real numbers of one axis, a `kth` that is not an integer or a 1-D
    /// array of them.
    fn partition_error(&self, e: ExprId, args: &[ExprId]) -> Option<(TextRange, String)> {
        let at = |x: ExprId| self.body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Partition);
        let &[array, kth] = args else { return Some((at(e), partition_count_error(shown))) };
        let ty = match self.numeric_array_of(array, shown, false) {
            Ok(t) => t,
            Err(error) => return error,
        };
        if ty.ndim() != Some(1) {
            return Some((at(array), one_axis_error(shown)));
        }
        if self.maybe_none(kth) {
            return None;
        }
        kth_error(shown, Some(&self.ty(kth)?)).map(|message| (at(kth), message))
    }

    /// `np.searchsorted(a, v, side)`: its form ([`searchsorted_form`]),
    /// what is not an array of real numbers of one axis, a value that is
    /// a tuple, text or complex, or of no common dtype with the array's.
    fn searchsorted_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        let at = |x: ExprId| self.body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Searchsorted);
        let (array, v, _) = match searchsorted_form(self.body, args, keywords, shown, at(e)) {
            Ok(form) => form,
            Err(error) => return Some(error),
        };
        let a = match self.numeric_array_of(array, shown, false) {
            Ok(t) => t,
            Err(error) => return error,
        };
        if a.ndim() != Some(1) {
            return Some((at(array), searched_axes_error(shown)));
        }
        if self.maybe_none(v) {
            return None;
        }
        searched_value_error(shown, a.dtype, &self.ty(v)?).map(|message| (at(v), message))
    }
}
