//! NumPy's functions of a matrix's diagonals: `np.trace(a, offset=0)` (and
//! the method `a.trace(offset=0)`), `np.eye(N, M=None, k=0, dtype=float)`
//! and `np.identity(n, dtype=float)`.
//!
//! What it does:
//! - `np.trace(a)` of a 2-D `a` of numbers is the sum of `a[i, i + offset]`
//!   (of `a[i - offset, i]` for a negative offset) over the elements that
//!   exist, none when the offset passes the last column or row (0). As
//!   NumPy's `trace` sums the diagonal's 1-D view, it is `np.sum` of a
//!   view of the diagonal (stride: the two strides' sum), so the dtype
//!   and the pairwise order of a float sum are `np.sum`'s: Bool and
//!   integers narrower than Int64 widen to Int64 (UInt64), floats keep
//!   theirs. The offset is an integer, given by position or `offset=`.
//! - `np.eye(N, M, k)` is a new zeroed C-order `N` x `M` array (`M = N`
//!   when it is not given or `None`) with 1 at each `[i, i + k]` inside
//!   it, in `dtype=` (the fourth positional argument or the keyword, as
//!   `np.zeros` reads a dtype; Float64 when not given); a negative `N`
//!   or `M` panics with NumPy's `negative dimensions` ValueError.
//!   `np.identity(n)` is `np.eye(n)`.
//!
//! What it does not: `axis1=`, `axis2=`, `dtype=` and `out=` of `trace`
//! and arrays of more than two axes (NumPy's result is then an array);
//! `order='F'` of `eye`; complex offsets or extents.

use super::arrays::Red;
use super::npfuncs::NpFn;
use super::*;

/// The arguments of a call of `shown` with `args` and `keywords` bound to
/// the parameters `names` (by position, then by keyword), the first
/// `skip` of them taken by a receiver (`a.trace()`), or why compiled code
/// refuses them whatever their values: a keyword not among them, one
/// given twice, too many.
pub(crate) fn bound_params(
    hir: &hir::Body,
    args: &[hir::ExprId],
    keywords: &[hir::Keyword],
    names: &[&str],
    skip: usize,
    shown: &str,
    call_at: TextRange,
) -> Result<Vec<Option<hir::ExprId>>, (TextRange, String)> {
    if let Some(error) = super::npfuncs::keyword_error(keywords, &names[skip..], shown) {
        return Err(error);
    }
    let mut given: Vec<Option<hir::ExprId>> = vec![None; names.len()];
    if args.len() > names.len() - skip {
        let n = names.len() - skip;
        return Err((call_at, format!("{shown} takes at most {n} arguments here, not {}", args.len())));
    }
    for (k, &a) in args.iter().enumerate() {
        given[skip + k] = Some(a);
    }
    for kw in keywords {
        let name = kw.name.as_deref().unwrap_or("");
        let Some(k) = names.iter().position(|n| *n == name) else { continue };
        if given[k].is_some() {
            return Err((hir.expr_ranges[kw.value], format!("`{name}` is given twice")));
        }
        given[k] = Some(kw.value);
    }
    Ok(given)
}

/// An argument, shown as `what`, that is not an integer where one is taken.
pub(crate) fn integer_arg_error(what: &str) -> String {
    format!("{what} is an integer")
}

/// Whether an argument of scalar type `s` is an integer as Python's
/// `operator.index` takes it (a Bool too).
pub(crate) fn is_integer_arg(s: Option<Scalar>) -> bool {
    s.is_some_and(|s| matches!(kind(s.dtype), Kind::Int | Kind::Bool))
}

/// `np.trace` (shown as `shown`) of an array of other than two axes.
pub(crate) fn trace_axes_error(shown: &str) -> String {
    format!("{shown} takes a 2-D array here (of more axes, NumPy's result is an array)")
}

/// The offset of `np.trace` (shown as `shown`), as messages name it.
pub(crate) fn offset_shown(shown: &str) -> String {
    format!("the offset of {shown}")
}

/// `np.eye` or `np.identity` (shown as `shown`) without its number of rows.
pub(crate) fn rows_missing_error(shown: &str) -> String {
    format!("{shown} takes the number of rows")
}

/// The number of rows, of columns and the diagonal `k` of `np.eye` or
/// `np.identity` (shown as `shown`), as messages name them.
pub(crate) fn eye_parts_shown(shown: &str) -> [String; 3] {
    [
        format!("the number of rows of {shown}"),
        format!("the number of columns of {shown}"),
        format!("the diagonal `k` of {shown}"),
    ]
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// The arguments of `c` bound to the parameters `names` (see
    /// [`bound_params`]); `None` after reporting why not.
    pub(super) fn bound_params(
        &mut self,
        c: &CallExpr,
        names: &[&str],
        skip: usize,
        shown: &str,
    ) -> Option<Vec<Option<hir::ExprId>>> {
        match bound_params(self.hir, c.args, c.keywords, names, skip, shown, c.at) {
            Ok(given) => Some(given),
            Err((at, message)) => {
                self.err(&at, message);
                None
            }
        }
    }

    /// An integer argument (a Python or NumPy integer, or a Bool as
    /// Python's `operator.index` takes it) as an Int64; `None` when it is
    /// not one (reported as `what`).
    pub(super) fn integer_arg(&mut self, e: hir::ExprId, what: &str) -> Option<ValueId> {
        let v = self.expr(e);
        let at = self.range(e);
        match v.scalar() {
            s if is_integer_arg(s) => self.materialize(&v, DType::Int64, &at),
            _ if matches!(v, Val::Err) => None,
            _ => {
                self.err(&at, integer_arg_error(what));
                None
            }
        }
    }

    /// `np.trace(a, offset=0)` or `a.trace(offset=0)` of a 2-D array.
    pub(super) fn trace_call(&mut self, f: NpFn, shown: &str, c: &CallExpr) -> Val {
        let method = f == NpFn::TraceMethod;
        let Some(given) = self.bound_params(c, &["a", "offset"], method as usize, shown) else { return Val::Err };
        let array_e = match (method, &self.hir.exprs[c.func]) {
            (true, &hir::Expr::Attribute { base, .. }) => base,
            _ => match given[0] {
                Some(e) => e,
                None => return self.err(&c.at, format!("{shown} takes an array")),
            },
        };
        let Some((a, ty)) = self.numeric_array_arg(array_e, shown, true) else { return Val::Err };
        if ty.ndim() != Some(2) {
            return self.err(&self.range(array_e), trace_axes_error(shown));
        }
        let offset = match given[1] {
            Some(e) => match self.integer_arg(e, &offset_shown(shown)) {
                Some(k) => k,
                None => return Val::Err,
            },
            None => self.int_const(0, c),
        };
        self.at(c);
        let rows = self.named_axis_value(a, 0, false, c);
        let cols = self.named_axis_value(a, 1, false, c);
        let s0 = self.named_axis_value(a, 0, true, c);
        let s1 = self.named_axis_value(a, 1, true, c);
        let zero = self.int_const(0, c);
        // The diagonal starts at [0, offset] (offset >= 0) or [-offset, 0]:
        // it has min(rows - row0, cols - col0) elements, none when that is
        // not positive (then its view starts at element 0).
        let below = self.result(Opcode::Lt, DType::Bool, offset, zero);
        let minus = self.result(Opcode::Sub, DType::Int64, zero, offset);
        let row0 = self.select_int(below, minus, zero);
        let col0 = self.select_int(below, zero, offset);
        let rows_left = self.result(Opcode::Sub, DType::Int64, rows, row0);
        let cols_left = self.result(Opcode::Sub, DType::Int64, cols, col0);
        let fewer = self.result(Opcode::Lt, DType::Bool, rows_left, cols_left);
        let len = self.select_int(fewer, rows_left, cols_left);
        let some = self.result(Opcode::Gt, DType::Bool, len, zero);
        let len = self.select_int(some, len, zero);
        let down = self.result(Opcode::Mul, DType::Int64, row0, s0);
        let across = self.result(Opcode::Mul, DType::Int64, col0, s1);
        let start = self.result(Opcode::Add, DType::Int64, down, across);
        let start = self.select_int(some, start, zero);
        let step = self.result(Opcode::Add, DType::Int64, s0, s1);
        let Val::Arr { v: diag, ty: diag_ty } = self.make_view(a, &ty, start, &[len], &[step], c) else {
            return Val::Err;
        };
        self.reduce(Red::Sum, diag, &diag_ty, None, c)
    }

    /// `np.eye(N, M=None, k=0, dtype=float)` or `np.identity(n, dtype=float)`.
    pub(super) fn eye_call(&mut self, f: NpFn, shown: &str, c: &CallExpr) -> Val {
        let names: &[&str] = if f == NpFn::Eye { &["N", "M", "k", "dtype"] } else { &["n", "dtype"] };
        let Some(given) = self.bound_params(c, names, 0, shown) else { return Val::Err };
        let Some(n_e) = given[0] else { return self.err(&c.at, rows_missing_error(shown)) };
        let (m_e, k_e, dtype_e) = if f == NpFn::Eye { (given[1], given[2], given[3]) } else { (None, None, given[1]) };
        let Some(n) = self.integer_arg(n_e, &eye_parts_shown(shown)[0]) else { return Val::Err };
        let m = match m_e {
            Some(e) if !matches!(self.hir.exprs[e], hir::Expr::None) => {
                match self.integer_arg(e, &eye_parts_shown(shown)[1]) {
                    Some(m) => m,
                    None => return Val::Err,
                }
            }
            _ => n,
        };
        let k = match k_e {
            Some(e) => match self.integer_arg(e, &eye_parts_shown(shown)[2]) {
                Some(k) => k,
                None => return Val::Err,
            },
            None => self.int_const(0, c),
        };
        let d = match dtype_e {
            Some(e) => match self.dtype_arg(e) {
                Some(d) => d,
                None => return Val::Err,
            },
            None => DType::Float64,
        };
        self.at(c);
        let (out, out_ty) = self.new_array(d, &[(n, false), (m, false)], c);
        let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
        let Some(one) = self.materialize(&one, d, c) else { return Val::Err };
        // Row i holds its 1 at column i + k when that column exists.
        let open = self.loops_open(&[n], c);
        let i = open[0].i;
        let j = self.result(Opcode::Add, DType::Int64, i, k);
        let zero = self.int_const(0, c);
        let from = self.result(Opcode::Ge, DType::Bool, j, zero);
        let below = self.result(Opcode::Lt, DType::Bool, j, m);
        let inside = self.result(Opcode::And, DType::Bool, from, below);
        let (put, next) = (self.block("eye.one"), self.block("eye.next"));
        self.b.condbr(inside, put, next, None);
        self.enter(put);
        self.b.index_store(out, &[i, j], one);
        self.br(next);
        self.enter(next);
        self.loops_close(open, c);
        Val::Arr { v: out, ty: out_ty }
    }
}
