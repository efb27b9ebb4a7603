//! Why the lowering refuses a call of one of NumPy's functions over
//! arrays (`np.sort`, `np.searchsorted`, `np.linalg.det`, ...), where it
//! certainly does, found from the arguments' types: each check is the
//! lowering's own, in its order, and stops where an argument has no type
//! (the lowering then finds what it finds). The messages are written
//! once, next to the lowering of each function.

use super::*;
use crate::lower::diagonals::{
    bound_params, eye_parts_shown, integer_arg_error, is_integer_arg, offset_shown, rows_missing_error,
    trace_axes_error,
};
use crate::lower::histograms::{
    bins_error, histogram_data_error, histogram_edges_error, histogram_options_error, histogram_range_error,
    histogram_range_of, uniform_edges_dtype, uniform_edges_error,
};
use crate::lower::linalg::{
    cross_count_error, cross_dtypes_error, cross_list_error, cross_vector_error, det_count_error, eigh_form,
    square_matrix_error,
};
use crate::lower::nanreduce::{ddof_error, is_ddof, reduced_array_form};
use crate::lower::sequences::{
    concatenate_axis_error, concatenated_parts, diff_form, diff_order_error, flatnonzero_count_error,
    joined_axes_error, joined_dtypes_error, one_dim_error, unique_count_error,
};
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
            NpFn::Det => match args {
                &[matrix] => self.square_matrix_error(matrix, g),
                _ => Some((self.body.expr_ranges[e], det_count_error(np_function_shown(g)))),
            },
            NpFn::Eigh | NpFn::EigvalsH => {
                match eigh_form(self.body, args, keywords, np_function_shown(g), self.body.expr_ranges[e]) {
                    Ok((matrix, _)) => self.square_matrix_error(matrix, g),
                    Err(error) => Some(error),
                }
            }
            NpFn::Cross => self.cross_error(e, args),
            NpFn::Trace | NpFn::TraceMethod => self.trace_error(e, func, g, args, keywords),
            NpFn::Eye | NpFn::Identity => self.eye_error(e, g, args, keywords),
            NpFn::Nan(_) | NpFn::Var | NpFn::Std | NpFn::VarMethod | NpFn::StdMethod => {
                self.reduction_error(e, func, g, args, keywords)
            }
            NpFn::Concatenate => self.concatenate_error(e, args, keywords),
            NpFn::Histogram => self.histogram_error(e, args, keywords),
            NpFn::Diff => self.diff_error(e, args, keywords),
            NpFn::Unique | NpFn::FlatNonzero => {
                let shown = np_function_shown(g);
                if let Some(error) = keyword_error(keywords, &[], shown) {
                    return Some(error);
                }
                let &[array] = args else {
                    let message =
                        if g == NpFn::Unique { unique_count_error(shown) } else { flatnonzero_count_error(shown) };
                    return Some((self.body.expr_ranges[e], message));
                };
                let ty = match self.numeric_array_of(array, shown, false) {
                    Ok(t) => t,
                    Err(error) => return error,
                };
                (g == NpFn::Unique && ty.ndim() != Some(1))
                    .then(|| (self.body.expr_ranges[array], one_dim_error(shown)))
            }
        }
    }

    /// `np.concatenate(parts, axis=0)`: keywords other than `axis=`, an
    /// axis that is not the constant 0, other than one tuple or list of
    /// arrays, what is not an array of numbers of one axis, arrays of no
    /// common dtype.
    fn concatenate_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        let at = |x: ExprId| self.body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Concatenate);
        if let Some(error) = keyword_error(keywords, &["axis"], shown) {
            return Some(error);
        }
        for k in keywords {
            if self.maybe_none(k.value) {
                return None;
            }
            if let Some(message) = concatenate_axis_error(shown, Some(&self.ty(k.value)?)) {
                return Some((at(k.value), message));
            }
        }
        let parts = match concatenated_parts(self.body, args, shown, at(e)) {
            Ok(parts) => parts,
            Err(error) => return Some(error),
        };
        let mut common: Option<DType> = None;
        for &part in parts {
            let ty = match self.numeric_array_of(part, shown, true) {
                Ok(t) => t,
                Err(error) => return error,
            };
            if ty.ndim() != Some(1) {
                return Some((at(part), joined_axes_error(shown)));
            }
            common = match common {
                None => Some(ty.dtype),
                Some(d) => match joined_dtypes_error(shown, d, ty.dtype) {
                    Some(message) => return Some((at(e), message)),
                    None => promote_strong(d, ty.dtype),
                },
            };
        }
        None
    }

    /// `np.diff(a, n=1)`: other arguments, an order that is not the
    /// constant 1, what is not an array of numbers of one axis.
    fn diff_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        let at = |x: ExprId| self.body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Diff);
        if let Some(error) = keyword_error(keywords, &["n"], shown) {
            return Some(error);
        }
        let (array, n) = match diff_form(args, keywords, shown, at(e)) {
            Ok(form) => form,
            Err(error) => return Some(error),
        };
        if let Some(n) = n {
            if self.maybe_none(n) {
                return None;
            }
            if let Some(message) = diff_order_error(shown, Some(&self.ty(n)?)) {
                return Some((at(n), message));
            }
        }
        let ty = match self.numeric_array_of(array, shown, true) {
            Ok(t) => t,
            Err(error) => return error,
        };
        (ty.ndim() != Some(1)).then(|| (at(array), one_dim_error(shown)))
    }

    /// `np.sort`, `a.sort()`, `np.argsort` and `a.argsort()`: a `kind=`
    /// NumPy does not name, arguments given to a method or other than one
    /// to a function, what is not an array of real numbers of one axis,
    /// `a.sort()` of read-only memory (see [`Solver::read_only_error`]).
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
        if ty.ndim() != Some(1) {
            return Some((body.expr_ranges[array], one_axis_error(shown)));
        }
        // `a.sort()` writes `a`.
        let written = (g == NpFn::SortInPlace).then(|| self.read_only_error(array)).flatten();
        written.map(|message| (body.expr_ranges[array], message))
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
        if let Some(error) = self.value_read_error(kth) {
            return Some(error);
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
        if let Some(error) = self.value_read_error(v) {
            return Some(error);
        }
        if self.maybe_none(v) {
            return None;
        }
        searched_value_error(shown, a.dtype, &self.ty(v)?).map(|message| (at(v), message))
    }

    /// The matrix of one of `np.linalg`'s functions `g`: what is not an
    /// array of real numbers of two axes, of a dtype `linalg` takes.
    fn square_matrix_error(&self, matrix: ExprId, g: NpFn) -> Option<(TextRange, String)> {
        let shown = np_function_shown(g);
        let ty = match self.numeric_array_of(matrix, shown, false) {
            Ok(t) => t,
            Err(error) => return error,
        };
        square_matrix_error(shown, &ty).map(|message| (self.body.expr_ranges[matrix], message))
    }

    /// `np.cross(a, b)`: other than two arguments, a list or tuple that is
    /// not of numbers, what is not an array of numbers, vectors not of one
    /// axis or of Bools, of no common dtype.
    fn cross_error(&self, e: ExprId, args: &[ExprId]) -> Option<(TextRange, String)> {
        let at = |x: ExprId| self.body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Cross);
        let &[a, b] = args else { return Some((at(e), cross_count_error(shown, args.len()))) };
        let mut dtypes = Vec::with_capacity(2);
        for x in [a, b] {
            let ty = match &self.body.exprs[x] {
                Expr::List(elts) | Expr::Tuple(elts) => {
                    let mut scalars = Vec::with_capacity(elts.len());
                    for &el in elts.iter() {
                        if let Some(error) = self.value_read_error(el) {
                            return Some(error);
                        }
                        if self.maybe_none(el) {
                            return None;
                        }
                        match self.ty(el)? {
                            t if t.scalar().is_some() => scalars.extend(t.scalar()),
                            _ => return Some((at(x), cross_list_error(shown))),
                        }
                    }
                    let Some(d) = array_of_dtype(None, scalars) else {
                        return Some((at(x), cross_list_error(shown)));
                    };
                    if d.is_text() {
                        // The lowering's `np.array` of text is refused there.
                        return None;
                    }
                    TypeData::array(d, Shape::dims(&[None]), Layout::COrder)
                }
                _ => match self.numeric_array_of(x, shown, true) {
                    Ok(t) => t,
                    Err(error) => return error,
                },
            };
            if let Some(message) = cross_vector_error(shown, &ty) {
                return Some((at(x), message));
            }
            dtypes.push(ty.dtype);
        }
        cross_dtypes_error(shown, dtypes[0], dtypes[1]).map(|message| (at(e), message))
    }

    /// Why the integer argument `x` (shown as `what`) is refused: not an
    /// integer or a Bool. `None` where it has no type.
    fn integer_arg_error(&self, x: ExprId, what: &str) -> Option<Option<(TextRange, String)>> {
        if self.maybe_none(x) {
            return None;
        }
        let s = self.ty(x)?.scalar();
        Some((!is_integer_arg(s)).then(|| (self.body.expr_ranges[x], integer_arg_error(what))))
    }

    /// `np.trace(a, offset)` and `a.trace(offset)`: the arguments
    /// ([`bound_params`]), no array, what is not an array of numbers of
    /// two axes, an offset that is not an integer.
    fn trace_error(
        &self,
        e: ExprId,
        func: ExprId,
        g: NpFn,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let shown = np_function_shown(g);
        let method = g == NpFn::TraceMethod;
        let given =
            match bound_params(body, args, keywords, &["a", "offset"], method as usize, shown, body.expr_ranges[e]) {
                Ok(given) => given,
                Err(error) => return Some(error),
            };
        let array = match (method, &body.exprs[func]) {
            (true, &Expr::Attribute { base, .. }) => base,
            _ => match given[0] {
                Some(array) => array,
                None => return Some((body.expr_ranges[e], format!("{shown} takes an array"))),
            },
        };
        let ty = match self.numeric_array_of(array, shown, true) {
            Ok(t) => t,
            Err(error) => return error,
        };
        if ty.ndim() != Some(2) {
            return Some((body.expr_ranges[array], trace_axes_error(shown)));
        }
        self.integer_arg_error(given[1]?, &offset_shown(shown))?
    }

    /// `np.eye(N, M, k, dtype)` and `np.identity(n, dtype)`: the
    /// arguments ([`bound_params`]), no number of rows, numbers of rows or
    /// columns and diagonals that are not integers, a dtype refused
    /// ([`Solver::dtype_error`]).
    fn eye_error(&self, e: ExprId, g: NpFn, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        let body = self.body;
        let shown = np_function_shown(g);
        let names: &[&str] = if g == NpFn::Eye { &["N", "M", "k", "dtype"] } else { &["n", "dtype"] };
        let given = match bound_params(body, args, keywords, names, 0, shown, body.expr_ranges[e]) {
            Ok(given) => given,
            Err(error) => return Some(error),
        };
        let Some(rows) = given[0] else { return Some((body.expr_ranges[e], rows_missing_error(shown))) };
        let (columns, k, dtype) = if g == NpFn::Eye { (given[1], given[2], given[3]) } else { (None, None, given[1]) };
        let columns = columns.filter(|x| !matches!(body.exprs[*x], Expr::None));
        let what = eye_parts_shown(shown);
        for (x, what) in [(Some(rows), &what[0]), (columns, &what[1]), (k, &what[2])] {
            if let Some(x) = x {
                if let Some(error) = self.integer_arg_error(x, what)? {
                    return Some(error);
                }
            }
        }
        self.dtype_error(dtype?)
    }

    /// The NaN-skipping reductions, `np.var`, `np.std` and their methods:
    /// the array ([`reduced_array_form`]), what is not an array of real
    /// numbers, a `ddof=` that is not a number.
    fn reduction_error(
        &self,
        e: ExprId,
        func: ExprId,
        g: NpFn,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let shown = np_function_shown(g);
        let receiver = match body.exprs[func] {
            Expr::Attribute { base, .. } if matches!(g, NpFn::VarMethod | NpFn::StdMethod) => Some(base),
            _ => None,
        };
        let array = match reduced_array_form(receiver, args, shown, body.expr_ranges[e]) {
            Ok(array) => array,
            Err(error) => return Some(error),
        };
        if let Err(error) = self.numeric_array_of(array, shown, false) {
            return error;
        }
        let ddof = keywords.first()?.value;
        if let Some(error) = self.value_read_error(ddof) {
            return Some(error);
        }
        if self.maybe_none(ddof) {
            return None;
        }
        (!is_ddof(self.ty(ddof)?.scalar())).then(|| (body.expr_ranges[ddof], ddof_error(shown)))
    }

    /// `np.histogram(a, bins, range, density, weights)`: the arguments
    /// ([`bound_params`]), no data, a density or weights
    /// ([`histogram_options_error`]), data not of numbers it takes, a
    /// range that is not two real numbers, bins that are neither an
    /// integer nor an array of edges it takes, equal bins whose edges'
    /// dtype would depend on the values.
    fn histogram_error(&self, e: ExprId, args: &[ExprId], keywords: &[Keyword]) -> Option<(TextRange, String)> {
        let body = self.body;
        let at = |x: ExprId| body.expr_ranges[x];
        let shown = np_function_shown(NpFn::Histogram);
        let names = ["a", "bins", "range", "density", "weights"];
        let given = match bound_params(body, args, keywords, &names, 0, shown, at(e)) {
            Ok(given) => given,
            Err(error) => return Some(error),
        };
        let Some(data) = given[0] else { return Some((at(e), format!("{shown} takes an array"))) };
        if let Some(error) = histogram_options_error(body, given[3], given[4], shown) {
            return Some(error);
        }
        let d = match self.numeric_array_of(data, shown, false) {
            Ok(t) => t.dtype,
            Err(error) => return error,
        };
        if let Some(message) = histogram_data_error(shown, d) {
            return Some((at(data), message));
        }
        // The range is checked before the bins, as the lowering does.
        // A range that may be `None` is lowered both ways: its bins are
        // checked all the same.
        let range_maybe_none = given[2].is_some_and(|r| self.maybe_none(r));
        let range = match given[2].filter(|r| !matches!(body.exprs[*r], Expr::None)) {
            None => None,
            Some(_) if range_maybe_none => None,
            Some(r) => {
                if let Some(error) = self.value_read_error(r) {
                    return Some(error);
                }
                if let Expr::Tuple(bounds) = &body.exprs[r] {
                    if let Some(error) = bounds.iter().find_map(|&x| self.value_read_error(x)) {
                        return Some(error);
                    }
                }
                let bounds = match self.ty(r)? {
                    Ty::Tuple(elements) => histogram_range_of(&elements.iter().map(Ty::scalar).collect::<Vec<_>>()),
                    _ => None,
                };
                match bounds {
                    Some(bounds) => Some((bounds, at(r))),
                    None => return Some((at(r), histogram_range_error(shown))),
                }
            }
        };
        let bins = match given[1] {
            Some(b) if matches!(body.exprs[b], Expr::None | Expr::List(_)) => return self.value_read_error(b),
            Some(b) if self.maybe_none(b) => return None,
            Some(b) => Some((self.ty(b)?, at(b))),
            None => None,
        };
        match bins {
            Some((Ty::Arr(edges), bins_at)) => histogram_edges_error(shown, d, &edges).map(|m| (bins_at, m)),
            Some((t, bins_at)) if !crate::lower::diagonals::is_integer_arg(t.scalar()) => {
                Some((bins_at, bins_error(shown)))
            }
            _ if range_maybe_none => None,
            _ => {
                let scalars = range.map(|(bounds, _)| bounds);
                uniform_edges_dtype(d, scalars, false)
                    .is_none()
                    .then(|| (range.map_or(at(e), |(_, r)| r), uniform_edges_error(shown, d, scalars)))
            }
        }
    }
}
