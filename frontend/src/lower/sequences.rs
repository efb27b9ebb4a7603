//! NumPy's functions whose 1-D result has a length known only at run
//! time: `np.concatenate`, `np.diff`, `np.flatnonzero` and `np.unique`,
//! as Numba kernels call them, with NumPy's result dtypes.
//!
//! What it does:
//! - `np.concatenate((a, b, ...))` (a tuple or list display of 1-D
//!   arrays, `axis=0` allowed): a new array of their lengths' sum, in the
//!   NumPy promotion of their dtypes;
//! - `np.diff(a)` of a 1-D `a` (`n=1`): `a[i + 1] - a[i]`, `n - 1`
//!   elements (none for fewer than two), in `a`'s dtype; of Bools,
//!   `a[i + 1] != a[i]`, as NumPy's `diff` of Bools is `not_equal`;
//! - `np.flatnonzero(a)` of any rank: the Int64 C-order flat indices of
//!   the elements that are not zero (not `False`);
//! - `np.where(a)` of one 1-D argument: the tuple of one array, the
//!   Int64 indices of its elements that are not zero, as
//!   `np.flatnonzero(a)` (`np.where(y == k)[0]`);
//! - `np.unique(a)` of a 1-D `a`: its sorted distinct values (the sort
//!   of `np.sort`, NaN last, every NaN one value as NumPy 2's
//!   `equal_nan=True` gives).
//!
//! What it does not: `axis=` other than 0 and arrays of more axes for
//! `concatenate`, `n=` other than 1 and `axis=` for `diff`, the
//! `return_index`/`return_counts` results and arrays of more axes for
//! `unique`, complex arrays for `flatnonzero` and `unique`.

use super::*;
use crate::pytypes::promote_strong;
use crate::typeck::Ty;

/// Why the `axis=` of `np.concatenate` (shown as `shown`), of type
/// `axis`, is refused: not the constant 0.
pub(crate) fn concatenate_axis_error(shown: &str, axis: Option<&Ty>) -> Option<String> {
    let zero = matches!(axis, Some(Ty::Lit { lit: Lit::Int(0), .. }));
    (!zero).then(|| format!("{shown} joins 1-D arrays along `axis=0` here"))
}

/// The arrays `np.concatenate` (shown as `shown`) of `args` joins: the
/// elements of its one tuple or list; or why compiled code refuses it.
pub(crate) fn concatenated_parts<'h>(
    hir: &'h hir::Body,
    args: &[hir::ExprId],
    shown: &str,
    call_at: TextRange,
) -> Result<&'h [hir::ExprId], (TextRange, String)> {
    match args {
        [one] => match &hir.exprs[*one] {
            hir::Expr::Tuple(es) | hir::Expr::List(es) if !es.is_empty() => Ok(es),
            _ => Err((call_at, concatenate_form_error(shown))),
        },
        _ => Err((call_at, concatenate_form_error(shown))),
    }
}

fn concatenate_form_error(shown: &str) -> String {
    format!("{shown} takes a tuple of arrays here (`np.concatenate((a, b))`)")
}

/// An array `np.concatenate` (shown as `shown`) joins that is not of one axis.
pub(crate) fn joined_axes_error(shown: &str) -> String {
    format!("{shown} joins 1-D arrays here")
}

/// Why `np.concatenate` (shown as `shown`) refuses arrays of `a` and `b`:
/// no common dtype.
pub(crate) fn joined_dtypes_error(shown: &str, a: DType, b: DType) -> Option<String> {
    promote_strong(a, b).is_none().then(|| format!("{shown} of {} and {} arrays", a.name(), b.name()))
}

/// The array and the order `n` of `np.diff` (shown as `shown`) called
/// with `args` and `keywords` (`n=` at most, once), or why compiled code
/// refuses them whatever their values.
pub(crate) fn diff_form(
    args: &[hir::ExprId],
    keywords: &[hir::Keyword],
    shown: &str,
    call_at: TextRange,
) -> Result<(hir::ExprId, Option<hir::ExprId>), (TextRange, String)> {
    match (args, keywords.first()) {
        (&[a], None) => Ok((a, None)),
        (&[a, n], None) => Ok((a, Some(n))),
        (&[a], Some(k)) => Ok((a, Some(k.value))),
        _ => Err((call_at, format!("{shown} takes an array (and `n=1`) here"))),
    }
}

/// Why the order `n` of `np.diff` (shown as `shown`), of type `n`, is
/// refused: not the constant 1.
pub(crate) fn diff_order_error(shown: &str, n: Option<&Ty>) -> Option<String> {
    let one = matches!(n, Some(Ty::Lit { lit: Lit::Int(1), .. }));
    (!one).then(|| format!("{shown} takes `n=1` here"))
}

/// An array of other than one axis given to `shown`.
pub(crate) fn one_dim_error(shown: &str) -> String {
    format!("{shown} of a 1-D array here")
}

/// `np.flatnonzero` (shown as `shown`) of other than one array.
pub(crate) fn flatnonzero_count_error(shown: &str) -> String {
    format!("{shown} takes one array")
}

/// `np.unique` (shown as `shown`) of other than one array.
pub(crate) fn unique_count_error(shown: &str) -> String {
    format!("{shown} takes one array here")
}

/// `np.where(a)` of what is not a 1-D array.
pub(crate) const WHERE_OF_ONE: &str = "`np.where` of one argument takes a 1-D array here (`np.where(a == k)[0]`)";

impl<'a, 'c> FnLower<'a, 'c> {
    /// `np.concatenate((a, b, ...))` of 1-D arrays.
    pub(super) fn concatenate_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        let Some(kws) = self.keywords_of(c, &["axis"], shown) else { return Val::Err };
        for &(_, e) in &kws {
            let axis = self.expr(e);
            if matches!(axis, Val::Err) {
                return Val::Err;
            }
            if let Some(message) = concatenate_axis_error(shown, axis.ty().as_ref()) {
                return self.err(&self.range(e), message);
            }
        }
        let parts = match concatenated_parts(self.hir, c.args, shown, c.at) {
            Ok(parts) => parts,
            Err((at, message)) => return self.err(&at, message),
        };
        let mut arrays = Vec::with_capacity(parts.len());
        for &p in parts {
            let Some((v, ty)) = self.numeric_array_arg(p, shown, true) else { return Val::Err };
            if ty.ndim() != Some(1) {
                return self.err(&self.range(p), joined_axes_error(shown));
            }
            arrays.push((v, ty));
        }
        let mut d = arrays[0].1.dtype;
        for (_, ty) in &arrays[1..] {
            let Some(p) = promote_strong(d, ty.dtype) else {
                let message = joined_dtypes_error(shown, d, ty.dtype).unwrap_or_default();
                return self.err(c, message);
            };
            d = p;
        }
        self.at(c);
        let lens: Vec<ValueId> = arrays
            .iter()
            .map(|(v, _)| {
                let nm = self.fresh("len");
                self.b.dim(*v, 0, &nm)
            })
            .collect();
        let mut total = self.int_const(0, c);
        for &n in &lens {
            total = self.result(Opcode::Add, DType::Int64, total, n);
        }
        let (out, out_ty) = self.new_empty_array(d, &[(total, true)], c);
        let mut offset = self.int_const(0, c);
        for ((v, ty), &n) in arrays.iter().zip(&lens) {
            let open = self.loops_open(&[n], c);
            let i = open[0].i;
            let x = self.load(&(*v, ty.clone()), &[i], c.range());
            let Some(x) = self.materialize(&x, d, c) else { return Val::Err };
            let at = self.result(Opcode::Add, DType::Int64, offset, i);
            self.b.index_store(out, &[at], x);
            self.loops_close(open, c);
            offset = self.result(Opcode::Add, DType::Int64, offset, n);
        }
        Val::Arr { v: out, ty: out_ty }
    }

    /// `np.diff(a)` of a 1-D array.
    pub(super) fn diff_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &["n"], shown).is_none() {
            return Val::Err;
        }
        let (array, n_e) = match diff_form(c.args, c.keywords, shown, c.at) {
            Ok(form) => form,
            Err((at, message)) => return self.err(&at, message),
        };
        if let Some(e) = n_e {
            let n = self.expr(e);
            if matches!(n, Val::Err) {
                return Val::Err;
            }
            if let Some(message) = diff_order_error(shown, n.ty().as_ref()) {
                return self.err(&self.range(e), message);
            }
        }
        let Some((a, ty)) = self.numeric_array_arg(array, shown, true) else { return Val::Err };
        if ty.ndim() != Some(1) {
            return self.err(&self.range(array), one_dim_error(shown));
        }
        let d = ty.dtype;
        self.at(c);
        let nm = self.fresh("len");
        let len = self.b.dim(a, 0, &nm);
        let one = self.int_const(1, c);
        let zero = self.int_const(0, c);
        let less = self.result(Opcode::Sub, DType::Int64, len, one);
        let none = self.result(Opcode::Lt, DType::Bool, less, zero);
        let m = self.select_int(none, zero, less);
        let (out, out_ty) = self.new_empty_array(d, &[(m, true)], c);
        let open = self.loops_open(&[m], c);
        let i = open[0].i;
        let next = self.result(Opcode::Add, DType::Int64, i, one);
        let el = TypeId::scalar(d);
        let nm = self.fresh("el");
        let x = self.b.index_load(el, a, &[i], &nm);
        let nm = self.fresh("el");
        let y = self.b.index_load(el, a, &[next], &nm);
        let op = if d == DType::Bool { Opcode::Ne } else { Opcode::Sub };
        let v = self.result(op, d, y, x);
        self.b.index_store(out, &[i], v);
        self.loops_close(open, c);
        Val::Arr { v: out, ty: out_ty }
    }

    /// `np.flatnonzero(a)`.
    pub(super) fn flatnonzero_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &[], shown).is_none() {
            return Val::Err;
        }
        let [arg] = c.args else { return self.err(c, flatnonzero_count_error(shown)) };
        let Some((a, ty)) = self.numeric_array_arg(*arg, shown, false) else { return Val::Err };
        let d = ty.dtype;
        self.at(c);
        let dims = self.dims_of(a, &ty);
        let zero = self.int_const(0, c);
        let one = self.int_const(1, c);
        let nm = self.fresh("count");
        let count = self.b.let_(TypeId::INT64, zero, &nm);
        // The elements that are not zero: counted, then their flat
        // indices stored, in one C-order walk each.
        let mut walks = Vec::new();
        for pass in 0..2 {
            let nm = self.fresh("flat");
            let flat = self.b.let_(TypeId::INT64, zero, &nm);
            let (out, k) = if pass == 1 {
                let (out, out_ty) = self.new_empty_array(DType::Int64, &[(count, true)], c);
                let nm = self.fresh("k");
                let k = self.b.let_(TypeId::INT64, zero, &nm);
                walks.push((out, out_ty));
                (Some(out), Some(k))
            } else {
                (None, None)
            };
            let open = self.loops_open(&dims, c);
            let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
            let nm = self.fresh("el");
            let x = self.b.index_load(TypeId::scalar(d), a, &idx, &nm);
            let z = self.zero(d);
            let nonzero = self.result(Opcode::Ne, DType::Bool, x, z);
            let (yes, after) = (self.block("nonzero"), self.block("nonzero.end"));
            self.b.condbr(nonzero, yes, after, None);
            self.enter(yes);
            match (out, k) {
                (Some(out), Some(k)) => {
                    self.b.index_store(out, &[k], flat);
                    let more = self.result(Opcode::Add, DType::Int64, k, one);
                    self.b.set(k, more);
                }
                _ => {
                    let more = self.result(Opcode::Add, DType::Int64, count, one);
                    self.b.set(count, more);
                }
            }
            self.br(after);
            self.enter(after);
            let next = self.result(Opcode::Add, DType::Int64, flat, one);
            self.b.set(flat, next);
            self.loops_close(open, c);
        }
        let (out, out_ty) = walks.pop().expect("the second walk's array");
        Val::Arr { v: out, ty: out_ty }
    }

    /// `np.where(a)` of one argument, if `c` is one: the indices of the
    /// 1-D `a`'s elements that are not zero, in a tuple of one.
    pub(super) fn where_indices(&mut self, c: &CallExpr) -> Option<Val> {
        if c.args.len() != 1 || !c.keywords.is_empty() {
            return None;
        }
        if self.numpy_attr(c.func).as_deref() != Some("where") {
            return None;
        }
        if !matches!(self.expr_types.get(c.args[0]), Some(typeck::Ty::Arr(t)) if t.ndim() == Some(1)) {
            self.expr(c.args[0]);
            return Some(self.err(c, WHERE_OF_ONE));
        }
        Some(match self.flatnonzero_call("`np.where`", c) {
            Val::Err => Val::Err,
            indices => Val::Tuple(vec![indices]),
        })
    }

    /// `np.unique(a)` of a 1-D array.
    pub(super) fn unique_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &[], shown).is_none() {
            return Val::Err;
        }
        let [arg] = c.args else { return self.err(c, unique_count_error(shown)) };
        let Some((a, ty)) = self.numeric_array_arg(*arg, shown, false) else { return Val::Err };
        if ty.ndim() != Some(1) {
            return self.err(&self.range(*arg), one_dim_error(shown));
        }
        let d = ty.dtype;
        self.at(c);
        let (sorted, _) = self.sorted_copy(a, d, c);
        let nm = self.fresh("len");
        let len = self.b.dim(sorted, 0, &nm);
        let zero = self.int_const(0, c);
        let one = self.int_const(1, c);
        // How many distinct values: the first, and each that differs from
        // the one before it.
        let empty = self.result(Opcode::Eq, DType::Bool, len, zero);
        let first = self.select_int(empty, zero, one);
        let nm = self.fresh("distinct");
        let distinct = self.b.let_(TypeId::INT64, first, &nm);
        let rest = self.select_int(empty, zero, len);
        let walk = |s: &mut Self, body: &mut dyn FnMut(&mut Self, ValueId, ValueId)| {
            let open = s.loops_open(&[rest], c);
            let i = open[0].i;
            let after_first = s.result(Opcode::Ge, DType::Bool, i, one);
            let (check, skip) = (s.block("unique.next"), s.block("unique.end"));
            s.b.condbr(after_first, check, skip, None);
            s.enter(check);
            let prev_i = s.result(Opcode::Sub, DType::Int64, i, one);
            let nm = s.fresh("el");
            let x = s.b.index_load(TypeId::scalar(d), sorted, &[i], &nm);
            let nm = s.fresh("prev");
            let p = s.b.index_load(TypeId::scalar(d), sorted, &[prev_i], &nm);
            let differs = s.differs(x, p, d);
            let (new, same) = (s.block("unique.new"), s.block("unique.same"));
            s.b.condbr(differs, new, same, None);
            s.enter(new);
            body(s, x, i);
            s.br(same);
            s.enter(same);
            s.br(skip);
            s.enter(skip);
            s.loops_close(open, c);
        };
        walk(self, &mut |s, _, _| {
            let more = s.result(Opcode::Add, DType::Int64, distinct, one);
            s.b.set(distinct, more);
        });
        let (out, out_ty) = self.new_empty_array(d, &[(distinct, true)], c);
        let (put, done) = (self.block("unique.first"), self.block("unique.filled"));
        self.b.condbr(empty, done, put, None);
        self.enter(put);
        let nm = self.fresh("el");
        let x0 = self.b.index_load(TypeId::scalar(d), sorted, &[zero], &nm);
        self.b.index_store(out, &[zero], x0);
        let nm = self.fresh("k");
        let k = self.b.let_(TypeId::INT64, one, &nm);
        walk(self, &mut |s, x, _| {
            s.b.index_store(out, &[k], x);
            let more = s.result(Opcode::Add, DType::Int64, k, one);
            s.b.set(k, more);
        });
        self.br(done);
        self.enter(done);
        Val::Arr { v: out, ty: out_ty }
    }

    /// Whether sorted neighbours `x` and `p` of dtype `d` are distinct
    /// values: not equal, and not both NaN.
    fn differs(&mut self, x: ValueId, p: ValueId, d: DType) -> ValueId {
        let ne = self.result(Opcode::Ne, DType::Bool, x, p);
        if kind(d) != Kind::Float {
            return ne;
        }
        let x_nan = self.result(Opcode::Ne, DType::Bool, x, x);
        let p_nan = self.result(Opcode::Ne, DType::Bool, p, p);
        let both = self.result(Opcode::And, DType::Bool, x_nan, p_nan);
        let nm = self.fresh("not");
        let not_both = self.b.unary(Opcode::Not, TypeId::BOOL, both, &nm);
        self.result(Opcode::And, DType::Bool, ne, not_both)
    }
}
