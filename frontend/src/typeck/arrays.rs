//! What the lowering refuses of the values stored into arrays and of
//! the arguments of NumPy's functions over arrays, refused by the
//! typecheck. Stores, once the assignment is typed: `None` stored into
//! an array's element, view or array index; through an array index
//! (`a[idx] = v`, `a[mask] = v`, `a[i, idx] = v`), a value of a dtype the
//! array does not hold, an array of more axes than the indexed result, a
//! tuple; into a view (`a[1:] = v`), a complex number into reals, a tuple
//! that is not of numbers or has no common dtype, and an array copied in
//! GPU code. Arguments, where the calls are typed: a fill value of a
//! dtype the array does not take, and `None` or a list display where the
//! lowering reads a number or an array. The messages are the lowering's,
//! next to its `scatter` (gather.rs), `assign_to_view` (slicing.rs) and
//! `fill` (arrays.rs).

use super::*;
use crate::lower::arrays::fill_dtype_error;
use crate::lower::expr::constant_conversion_error;
use crate::lower::gather::{scattered_axes_error, stored_dtype_error, SCATTERED_NOT_A_NUMBER};
use crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER;
use crate::lower::npfuncs::array_of_dtype;
use crate::lower::slicing::{NOT_ASSIGNED_TO_A_SLICE, SLICE_COPY_IN_GPU, TUPLE_OF_NO_DTYPE};

/// A constant of type `t` stored as a `d`, which it does not convert to
/// (the lowering's `materialize`).
fn constant_error(t: &Ty, d: DType) -> Option<String> {
    match t {
        Ty::Lit { lit, .. } if lit.convert(d).is_none() => Some(constant_conversion_error(lit, d)),
        _ => None,
    }
}

impl Solver<'_> {
    /// Refuses, of the store `s` (`base[index] = value`; `aug`: `base[index]
    /// op= ...`; no value: one not typed here) into an array that no other check
    /// refused: `value` that is `None` (read as a number wherever an array
    /// stores it); entries of which one is an array but that the lowering
    /// does not store through as an array index (`a[0, i, 1:]`, a view:
    /// [`Solver::view`]; `a[i, j]`, an element: [`Solver::array_entries_error`]);
    /// and what the lowering's `scatter` refuses of the value stored
    /// through an array index ([`Solver::scattered_value_error`]).
    pub(super) fn check_array_store(&self, s: ExprId, base: ExprId, index: ExprId, value: Option<ExprId>, aug: bool) {
        let body = self.body;
        let refused = |e: ExprId| self.reports.borrow().as_ref().is_some_and(|r| r.refused.get(e).is_some());
        let Some(Ty::Arr(a)) = self.ty(base) else { return };
        if refused(s) {
            return;
        }
        if let Some(v) = value.filter(|v| matches!(body.exprs[*v], Expr::None)) {
            self.refuse_here(v, NONE_IS_NOT_A_NUMBER);
            return;
        }
        if let Expr::Tuple(entries) = &body.exprs[index] {
            let special = |e: &ExprId| matches!(body.exprs[*e], Expr::Slice { .. } | Expr::None | Expr::Ellipsis);
            let arrays = entries.iter().any(|e| matches!(self.ty(*e), Some(Ty::Arr(_))));
            let fewer = matches!(body.exprs[base], Expr::Name(_)) && a.ndim().is_some_and(|n| entries.len() < n);
            if arrays && (fewer || entries.iter().any(special)) {
                self.view(s, true, &a, index, entries);
                return;
            }
            // An augmented assignment stores into one element.
            let mixed = !aug && a.ndim().and_then(|nd| self.mixed_array_entry(entries, nd)).is_some();
            if arrays && !mixed {
                if let Some((at, message)) = self.array_entries_error(&a, index, entries) {
                    self.refuse(s, at, message);
                }
                return;
            }
        }
        let Some(value) = value else { return };
        let message = self.scattered_value_error(base, index, value);
        // Every store converts a number as `materialize` does.
        if let Some(message) = message.or_else(|| constant_error(&self.ty(value)?, a.dtype)) {
            self.refuse(s, body.expr_ranges[s], message);
        }
    }

    /// The one array index among integers naming every axis of an array
    /// of `nd` axes (`a[i, idx]`, `a[mask, j]`: an integer array, or a
    /// Bool one of one axis), as the lowering's `mixed_array_index` finds
    /// it; `None` when `entries` are not that.
    fn mixed_array_entry(&self, entries: &[ExprId], nd: usize) -> Option<TypeData> {
        if entries.len() != nd {
            return None;
        }
        let mut found = None;
        for &e in entries {
            match self.ty(e)? {
                Ty::Arr(t) if kind(t.dtype) == Kind::Int || t.dtype == DType::Bool && t.ndim() == Some(1) => {
                    if found.replace(t).is_some() {
                        return None;
                    }
                }
                t if t.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int) => {}
                _ => return None,
            }
        }
        found
    }

    /// Why the lowering refuses to store into the element `a[index]` of
    /// the array `a` (of type `a`) whose `entries` hold an array: a count
    /// of entries other than the axes ([`index_count_error`]), then the
    /// first entry that is no integer ([`element_index_error`]).
    fn array_entries_error(&self, a: &TypeData, index: ExprId, entries: &[ExprId]) -> Option<(TextRange, String)> {
        let body = self.body;
        if let Some(message) = index_count_error(a.ndim()?, entries.len()) {
            return Some((body.expr_ranges[index], message));
        }
        for &e in entries {
            if let Some(message) = element_index_error(Some(&self.ty(e)?)) {
                return Some((body.expr_ranges[e], message));
            }
        }
        None
    }

    /// Why the lowering's `scatter` refuses `value` stored through the
    /// array index of `base[index]` (one array index, or one among
    /// integers naming every axis, as the lowering's `mixed_array_index`
    /// finds it): a dtype the array does not hold ([`stored_dtype_error`]),
    /// an array of more axes than the indexed result has (or than one
    /// for a mask over every axis), a tuple.
    fn scattered_value_error(&self, base: ExprId, index: ExprId, value: ExprId) -> Option<String> {
        let body = self.body;
        let Some(Ty::Arr(a)) = self.ty(base) else { return None };
        let nd = a.ndim()?;
        // The axes of the array indexed (the 1-D view the integers pick
        // of a mixed index) and the array index.
        let (an, it) = match &body.exprs[index] {
            Expr::Tuple(entries) => (1, self.mixed_array_entry(entries, nd)?),
            Expr::Slice { .. } | Expr::None | Expr::Ellipsis => return None,
            _ => match self.ty(index)? {
                Ty::Arr(t) => (nd, t),
                _ => return None,
            },
        };
        let ind = it.ndim()?;
        let mask = it.dtype == DType::Bool;
        if array_index_error(it.dtype).is_some() || an == 0 || (mask && ind > an) || self.may_be_none(value) {
            return None;
        }
        // The axes of `base[index]`: a mask's count and the axes it does
        // not cover, or the index's axes and the axes after the first.
        let n = if mask { 1 + an - ind } else { ind + an - 1 };
        match self.ty(value)? {
            Ty::Arr(v) => {
                stored_dtype_error(v.dtype, a.dtype).or_else(|| scattered_axes_error(v.ndim()?, n, mask && ind == an))
            }
            Ty::Tuple(_) => Some(SCATTERED_NOT_A_NUMBER.into()),
            t => stored_dtype_error(t.scalar()?.dtype, a.dtype),
        }
    }

    /// Why the lowering's `assign_to_view` refuses the value of type `v`
    /// assigned to a view of type `dst` past the checks of
    /// `check_view_store` (text, axes, dtypes of an array): a complex
    /// number filling reals; a tuple that is not of numbers, of no common
    /// dtype, or (as the 1-D array NumPy makes of it) of a dtype the view
    /// does not hold; an array or a tuple copied in GPU code.
    pub(super) fn view_value_error(&self, dst: &TypeData, v: &Ty) -> Option<String> {
        let device = self.env.decl.attrs.is_device();
        match v {
            Ty::Arr(_) => device.then(|| SLICE_COPY_IN_GPU.into()),
            Ty::Tuple(elts) => {
                let scalars: Option<Vec<Scalar>> = elts.iter().map(Ty::scalar).collect();
                let Some(scalars) = scalars.filter(|s| !s.is_empty()) else {
                    return Some(NOT_ASSIGNED_TO_A_SLICE.into());
                };
                let Some(d) = array_of_dtype(None, scalars) else { return Some(TUPLE_OF_NO_DTYPE.into()) };
                let dr = dst.ndim()?;
                if dr == 0 {
                    return Some(assignments::view_rank_error(1, dr));
                }
                assignments::copy_dtype_error(d, dst.dtype).or_else(|| device.then(|| SLICE_COPY_IN_GPU.into()))
            }
            t => fill_dtype_error(t.scalar()?.dtype, dst.dtype),
        }
    }

    /// Why the lowering's `fill` refuses to fill an array of `d` with the
    /// fill value `e` of type `fill` (`np.full`, `np.full_like`): a complex
    /// number into reals, text into numbers ([`fill_dtype_error`]).
    pub(super) fn fill_value_error(&self, fill: &Ty, e: ExprId, d: DType) -> Option<String> {
        if self.maybe_none(e) {
            return None;
        }
        fill_dtype_error(fill.scalar()?.dtype, d).or_else(|| constant_error(fill, d))
    }

    /// `e` when it is `None`, which the lowering reads as a number (an
    /// extent of a shape or a reshape): where, and why.
    pub(super) fn none_number_error(&self, e: ExprId) -> Option<(TextRange, String)> {
        matches!(self.body.exprs[e], Expr::None).then(|| (self.body.expr_ranges[e], NONE_IS_NOT_A_NUMBER.into()))
    }

    /// `e` when it is `None` or a list display written where the lowering
    /// reads a number or an array as a value, which neither is (an
    /// argument of NumPy's functions over arrays but a shape, an element
    /// of one, `np.histogram`'s bins and range, `np.searchsorted`'s value,
    /// an element of `np.cross`'s list, the operands of `np.dot`): where,
    /// and why.
    pub(super) fn value_read_error(&self, e: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        match body.exprs[e] {
            Expr::List(_) => Some((body.expr_ranges[e], super::none_values::LIST_READ_AS_VALUE.into())),
            _ => self.none_number_error(e),
        }
    }
}
