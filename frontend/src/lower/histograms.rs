//! `np.histogram(a, bins=10, range=None)`, computed as NumPy 2's
//! `numpy/lib/_histograms_impl.py` computes it, so that counts and edges
//! are NumPy's bit for bit.
//!
//! What it does: `a` is an array of any rank (its elements counted in any
//! order, as the flattened array's) of Int8 to Int64, UInt8 to UInt32,
//! Float32 or Float64. The result is the tuple `(hist, edges)`, `hist` a
//! new Int64 array of one count per bin.
//!
//! - `bins` an integer `n` (10 when not given): `n` equal bins between
//!   two outer edges, `range=(lo, hi)` or, without it, `a.min()` and
//!   `a.max()` (`(0, 1)` for an empty `a`), an empty range widened by
//!   0.5 each way. The edges are `np.linspace(first, last, n + 1)` in the
//!   dtype `np.linspace` computes in (NumPy's `result_type` of the two
//!   edges, Float64 unless both are Float32), then converted to the bins'
//!   dtype (`result_type(first, last, a)`, Float64 for integers). A value
//!   `x` with `first <= x <= last` (compared in the dtype NumPy compares
//!   the array and each edge in) goes to bin `int((x - first) /
//!   (last - first) * n)` (`x` converted to the bins' dtype, the quotient
//!   in NumPy's promoted dtype; an integer `last - first` is NumPy's
//!   unsigned subtraction), one lower when that is `n` or `x` is below
//!   the bin's left edge, one higher when `x` is at or past its right edge
//!   (not for the last bin, which is closed). NumPy's ValueErrors are
//!   panics with its messages: `n < 1`, `lo > hi`, an edge not finite
//!   (given or found in `a`), edges that do not increase ("Too many
//!   bins"). The edges in an "is not finite" message are written as
//!   Python writes them when they are integers, `nan`, `inf`, `-inf` or
//!   floats of integral value (below 1e16, 1e6 for Float32); another
//!   finite float is written `a finite number` (compiled code has no
//!   shortest float text).
//! - `bins` a 1-D array of edges (any real dtype but Bool): they must not
//!   decrease (else NumPy's ValueError); bin `i` counts `e[i] <= x <
//!   e[i + 1]`, the last bin also `x == e[-1]`, as NumPy's
//!   `searchsorted` of the sorted data gives (`np.sort`'s order, NaN
//!   last and so in no bin, compared in the promotion of the two dtypes).
//!   The edges returned are `bins` itself, as NumPy returns it; `range`
//!   is ignored, as NumPy ignores it.
//!
//! `range` is read as a tuple value of two numbers with, for a tuple
//! that may be `None`, its presence flag: where it is absent at run time
//! the edges come from the data, in the same dtype (a range whose dtypes
//! would make NumPy's dtypes differ from the data's is a compile error).
//!
//! What it does not: `bins` as a string (the estimators), `density=True`,
//! `weights=` (only `density=False` or `None` and `weights=None` are
//! taken), Bool data (NumPy converts it to UInt8 with a warning), UInt64,
//! Float16 and complex data, a range of Bools.

use super::arrays::Red;
use super::*;
use crate::pytypes::promote_strong;

/// The dtypes of NumPy's computation of equal bins between outer edges
/// of two scalar types (weak for Python numbers), for data of one dtype.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Uniform {
    /// The edges' dtype: `np.result_type(first, last, a)`, Float64 for
    /// integers.
    pub(crate) bins: DType,
    /// The dtype `np.linspace(first, last, ...)` computes in.
    space: DType,
    /// The dtype of `(x - first) / (last - first) * n`.
    calc: DType,
    /// Whether `last - first` is NumPy's unsigned integer subtraction.
    int_edges: bool,
    /// The dtypes `a >= first` and `a <= last` compare in; `None` for
    /// integer data and integer edges, compared as Int64 (exact, and the
    /// same values kept as the widened edges keep).
    keep: Option<(DType, DType)>,
}

/// Whether compiled code takes `np.histogram` of data of `d`.
pub(crate) fn histogram_data(d: DType) -> bool {
    use DType::*;
    matches!(d, Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | Float32 | Float64)
}

/// An outer edge after `first_edge - 0.5`: a float keeps its dtype, an
/// integer becomes a Float64 (a Python int a Python float).
fn widened(s: Scalar) -> Scalar {
    if kind(s.dtype) == Kind::Float {
        s
    } else {
        Scalar { dtype: DType::Float64, weak: s.weak }
    }
}

/// NumPy's `result_type(...)` of values of `p` made inexact: Float64
/// for Python numbers and integers.
fn inexact(p: Scalar) -> DType {
    if p.weak || kind(p.dtype) != Kind::Float {
        DType::Float64
    } else {
        p.dtype
    }
}

fn uniform_once(data: DType, first: Scalar, last: Scalar) -> Option<Uniform> {
    let real = |s: Scalar| matches!(kind(s.dtype), Kind::Int | Kind::Float) && s.dtype != DType::Float16;
    if !real(first) || !real(last) || !histogram_data(data) {
        return None;
    }
    let edges = promote(first, last)?;
    let all = promote(edges, Scalar::strong(data))?;
    let bins = if kind(all.dtype) == Kind::Int { DType::Float64 } else { all.dtype };
    let space = inexact(edges);
    // `np.linspace` of Python numbers holds them as Float64 arrays, which
    // a Float32 computation would meet: only two Float32 edges (the
    // data's) are computed in Float32.
    if space == DType::Float32 && (first.weak || last.weak || first.dtype != last.dtype) {
        return None;
    }
    let int_edges = kind(first.dtype) == Kind::Int && kind(last.dtype) == Kind::Int;
    let denominator = if int_edges { DType::UInt64 } else { inexact(edges) };
    let calc = promote_strong(bins, denominator)?;
    let keep = if int_edges && kind(data) == Kind::Int {
        None
    } else {
        let strong = Scalar::strong(data);
        Some((promote(strong, first)?.dtype, promote(strong, last)?.dtype))
    };
    let mut all = vec![bins, space, calc];
    all.extend(keep.iter().flat_map(|&(f, l)| [f, l]));
    let floats = all.iter().all(|d| matches!(d, DType::Float32 | DType::Float64));
    floats.then_some(Uniform { bins, space, calc, int_edges, keep })
}

/// How NumPy bins data of `data` between edges of `first` and `last`,
/// if compiled code has it: the dtypes must not depend on whether the
/// range is widened (an empty one), as NumPy's do for a few mixes of
/// narrow integers and floats.
pub(crate) fn uniform(data: DType, first: Scalar, last: Scalar) -> Option<Uniform> {
    let u = uniform_once(data, first, last)?;
    let w = uniform_once(data, widened(first), widened(last))?;
    let same = u.bins == w.bins && u.space == w.space && u.calc == w.calc && (u.keep.is_none() || u.keep == w.keep);
    same.then_some(u)
}

/// The dtype of the edges of `np.histogram` of data of `data` in equal
/// bins, `range` the scalar types of a range given (`absent_too` when it
/// may also be absent at run time): the same whichever way the edges are
/// found, else `None`.
pub(crate) fn uniform_edges_dtype(data: DType, range: Option<(Scalar, Scalar)>, absent_too: bool) -> Option<DType> {
    let mut found: Vec<DType> = Vec::new();
    if let Some((first, last)) = range {
        found.push(uniform(data, first, last)?.bins);
    }
    if range.is_none() || absent_too {
        let found_in_data = Scalar::strong(data);
        found.push(uniform(data, found_in_data, found_in_data)?.bins);
        // An empty array's range, (0, 1).
        found.push(uniform(data, Scalar::weak(DType::Int64), Scalar::weak(DType::Int64))?.bins);
    }
    let d = found[0];
    found.iter().all(|&x| x == d).then_some(d)
}

/// An outer edge: its value in its scalar type's dtype.
#[derive(Clone, Copy)]
struct Edge {
    v: ValueId,
    s: Scalar,
}

/// A `range=` given: its two numbers, and whether it is present when the
/// value may be `None`.
struct RangeGiven {
    present: Option<ValueId>,
    lo: Val,
    hi: Val,
    at: TextRange,
}

/// What equal bins are filled into.
struct Bins {
    n: ValueId,
    hist: ValueId,
    edges: ValueId,
}

/// Why `np.histogram` (shown as `shown`) is refused for its `density=`
/// (`density`) or `weights=` (`weights`) whatever the data: any density
/// but `False` or `None`, any weights but `None`.
pub(crate) fn histogram_options_error(
    hir: &hir::Body,
    density: Option<hir::ExprId>,
    weights: Option<hir::ExprId>,
    shown: &str,
) -> Option<(TextRange, String)> {
    if let Some(e) =
        density.filter(|e| !matches!(hir.exprs[*e], hir::Expr::None | hir::Expr::Literal(Lit::Bool(false))))
    {
        let message = format!(
            "{shown} takes no `density=` but `False` in compiled code: divide the counts by `hist.sum() * \
             np.diff(edges)`"
        );
        return Some((hir.expr_ranges[e], message));
    }
    let e = weights.filter(|e| !matches!(hir.exprs[*e], hir::Expr::None))?;
    Some((hir.expr_ranges[e], format!("{shown} takes no `weights=` in compiled code")))
}

/// Why `np.histogram` (shown as `shown`) refuses data of `d`.
pub(crate) fn histogram_data_error(shown: &str, d: DType) -> Option<String> {
    if histogram_data(d) {
        return None;
    }
    let why = if d == DType::Bool { " (NumPy converts Bools to UInt8 with a warning)" } else { "" };
    Some(format!(
        "{shown} of {} data is not compiled{why}: it takes integers up to Int64 or UInt32, Float32 or Float64",
        d.name()
    ))
}

/// The bounds of a `range=` of `np.histogram` whose elements are of the
/// scalar types `elements`: two real numbers, or none.
pub(crate) fn histogram_range_of(elements: &[Option<Scalar>]) -> Option<(Scalar, Scalar)> {
    let real = |s: &Option<Scalar>| s.filter(|s| matches!(kind(s.dtype), Kind::Int | Kind::Float));
    match elements {
        [lo, hi] => Some((real(lo)?, real(hi)?)),
        _ => None,
    }
}

/// A `range=` of `np.histogram` (shown as `shown`) that is not two real
/// numbers or `None`.
pub(crate) fn histogram_range_error(shown: &str) -> String {
    format!("the range of {shown} is a tuple `(lo, hi)` of two numbers or `None` here")
}

/// `bins=` of `np.histogram` (shown as `shown`) that is neither an
/// integer nor an array.
pub(crate) fn bins_error(shown: &str) -> String {
    format!("the `bins` of {shown} are an integer or a 1-D array of edges here")
}

/// Equal bins of data of `d` whose edges' dtype is not compiled: with the
/// range of the scalar types `range`, it depends on the values.
pub(crate) fn uniform_edges_error(shown: &str, d: DType, range: Option<(Scalar, Scalar)>) -> String {
    match range {
        Some((lo, hi)) => format!(
            "{shown} of {} data with a range of {} and {} is not compiled: NumPy's dtypes then depend on the \
             values (give the range as Python floats)",
            d.name(),
            lo.dtype.name(),
            hi.dtype.name()
        ),
        None => format!("{shown} of {} data is not compiled", d.name()),
    }
}

/// Why `np.histogram` (shown as `shown`) of data of `d` refuses the
/// array of edges `bins`: not of one axis, not of real numbers, of no
/// common dtype with the data.
pub(crate) fn histogram_edges_error(shown: &str, d: DType, bins: &TypeData) -> Option<String> {
    let bd = bins.dtype;
    if bins.ndim() != Some(1) {
        return Some(format!(
            "the `bins` of {shown} are a 1-D array of edges here (NumPy: `bins` must be 1d, when an array)"
        ));
    }
    if !matches!(kind(bd), Kind::Int | Kind::Float) {
        return Some(format!("the edges of {shown} are real numbers here, not {}", bd.name()));
    }
    promote_strong(d, bd).is_none().then(|| format!("{shown} of {} data and {} edges", d.name(), bd.name()))
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// `np.histogram(a, bins=10, range=None, density=None, weights=None)`.
    pub(super) fn histogram_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        let names = ["a", "bins", "range", "density", "weights"];
        let Some(given) = self.bound_params(c, &names, 0, shown) else { return Val::Err };
        let Some(a_e) = given[0] else { return self.err(&c.at, format!("{shown} takes an array")) };
        if let Some((at, message)) = histogram_options_error(self.hir, given[3], given[4], shown) {
            return self.err(&at, message);
        }
        let Some((a, a_ty)) = self.numeric_array_arg(a_e, shown, false) else { return Val::Err };
        if let Some(message) = histogram_data_error(shown, a_ty.dtype) {
            return self.err(&self.range(a_e), message);
        }
        let (bins, bins_at) = match given[1] {
            Some(e) => (self.expr(e), self.range(e)),
            None => (Val::Lit { lit: Lit::Int(10), s: Scalar::weak(DType::Int64) }, c.at),
        };
        let range = match given[2] {
            None => None,
            Some(e) => match self.histogram_range(e, shown) {
                Some(r) => r,
                None => return Val::Err,
            },
        };
        match bins {
            Val::Err => Val::Err,
            Val::Arr { v, ty } => self.histogram_of_edges((a, &a_ty), (v, ty), bins_at, shown, c),
            v => match v.scalar() {
                Some(s) if matches!(kind(s.dtype), Kind::Int | Kind::Bool) => {
                    let Some(n) = self.materialize(&v, DType::Int64, &bins_at) else { return Val::Err };
                    self.histogram_uniform((a, &a_ty), n, range, shown, c)
                }
                _ => self.err(&bins_at, bins_error(shown)),
            },
        }
    }

    /// The `range=` of `np.histogram`: `None` (absent), or a tuple of two
    /// real numbers, which may be `None` at run time; `None` when it is
    /// not one (reported).
    fn histogram_range(&mut self, e: hir::ExprId, shown: &str) -> Option<Option<RangeGiven>> {
        let at = self.range(e);
        let v = self.expr_maybe_none(e);
        let (present, value) = match v {
            Val::Err => return None,
            Val::None => return Some(None),
            Val::Maybe { present, value } => (Some(present), *value),
            v => (None, v),
        };
        let refuse = |s: &mut Self| {
            s.err(&at, histogram_range_error(shown));
            None
        };
        let Val::Tuple(mut elts) = value else { return refuse(self) };
        if histogram_range_of(&elts.iter().map(Val::scalar).collect::<Vec<_>>()).is_none() {
            return refuse(self);
        }
        let hi = elts.pop().expect("two elements");
        let lo = elts.pop().expect("two elements");
        Some(Some(RangeGiven { present, lo, hi, at }))
    }

    /// `v` of `from` converted to `to` (as NumPy converts a scalar to the
    /// dtype an operation runs in).
    fn converted(&mut self, v: ValueId, from: DType, to: DType) -> ValueId {
        if from == to {
            return v;
        }
        let nm = self.fresh("cast");
        self.b.cast(TypeId::scalar(to), v, &nm)
    }

    /// The float constant `x` in the float dtype `d`.
    fn float_in(&mut self, x: f64, d: DType, at: &impl Ranged) -> ValueId {
        let lit = Val::Lit { lit: Lit::Float(x), s: Scalar::weak(DType::Float64) };
        self.materialize(&lit, d, at).expect("a float constant converts to a float dtype")
    }

    /// Whether the number `v` of `d` is finite (an integer always is).
    fn finite(&mut self, v: ValueId, d: DType, at: &impl Ranged) -> ValueId {
        if kind(d) != Kind::Float {
            return self.bool_const(true, at);
        }
        // `v - v` is 0 exactly for the finite numbers, NaN otherwise.
        let diff = self.result(Opcode::Sub, d, v, v);
        let zero = self.zero(d);
        self.result(Opcode::Eq, DType::Bool, diff, zero)
    }

    /// Equal bins: `n` of them (checked), between the range's edges or
    /// the data's.
    fn histogram_uniform(
        &mut self,
        (a, a_ty): (ValueId, &TypeData),
        n: ValueId,
        range: Option<RangeGiven>,
        shown: &str,
        c: &CallExpr,
    ) -> Val {
        let d = a_ty.dtype;
        let scalars = range.as_ref().map(|r| (r.lo.scalar().expect("a number"), r.hi.scalar().expect("a number")));
        let absent_too = range.as_ref().is_some_and(|r| r.present.is_some());
        let Some(bins_d) = uniform_edges_dtype(d, scalars, absent_too) else {
            let at = range.as_ref().map_or(c.at, |r| r.at);
            let msg = uniform_edges_error(shown, d, scalars);
            return self.err(&at, msg);
        };
        self.at(c);
        let one = self.int_const(1, c);
        let positive = self.result(Opcode::Ge, DType::Bool, n, one);
        self.panic_unless(positive, "ValueError: `bins` must be positive, when an integer", c);
        let (hist, hist_ty) = self.new_array(DType::Int64, &[(n, true)], c);
        let n1 = self.result(Opcode::Add, DType::Int64, n, one);
        let (edges, edges_ty) = self.new_empty_array(bins_d, &[(n1, true)], c);
        let out = Bins { n, hist, edges };
        let done = self.block("histogram.done");
        match range {
            Some(r) => {
                let present = r.present;
                let from_data = match present {
                    Some(p) => {
                        let (given, absent) = (self.block("histogram.range"), self.block("histogram.auto"));
                        self.b.condbr(p, given, absent, None);
                        self.enter(given);
                        Some(absent)
                    }
                    None => None,
                };
                if self.histogram_in_range((a, a_ty), r, &out, c).is_none() {
                    return Val::Err;
                }
                self.br(done);
                if let Some(absent) = from_data {
                    self.enter(absent);
                    self.histogram_of_data((a, a_ty), &out, c);
                    self.br(done);
                }
            }
            None => {
                self.histogram_of_data((a, a_ty), &out, c);
                self.br(done);
            }
        }
        self.enter(done);
        Val::Tuple(vec![Val::Arr { v: hist, ty: hist_ty }, Val::Arr { v: edges, ty: edges_ty }])
    }

    /// Equal bins between the edges of a range given, checked as NumPy's
    /// `_get_outer_edges` checks them.
    fn histogram_in_range(
        &mut self,
        (a, a_ty): (ValueId, &TypeData),
        r: RangeGiven,
        out: &Bins,
        c: &CallExpr,
    ) -> Option<()> {
        let (lo_s, hi_s) = (r.lo.scalar()?, r.hi.scalar()?);
        let lo = self.materialize(&r.lo, lo_s.dtype, &r.at)?;
        let hi = self.materialize(&r.hi, hi_s.dtype, &r.at)?;
        self.at(c);
        let p = promote(lo_s, hi_s)?.dtype;
        let (lo_p, hi_p) = (self.converted(lo, lo_s.dtype, p), self.converted(hi, hi_s.dtype, p));
        let above = self.result(Opcode::Gt, DType::Bool, lo_p, hi_p);
        let nm = self.fresh("not");
        let ordered = self.b.unary(Opcode::Not, TypeId::BOOL, above, &nm);
        self.panic_unless(ordered, "ValueError: max must be larger than min in range parameter.", c);
        let (first, last) = (Edge { v: lo, s: lo_s }, Edge { v: hi, s: hi_s });
        let lo_ok = self.finite(lo, lo_s.dtype, c);
        let hi_ok = self.finite(hi, hi_s.dtype, c);
        let ok = self.result(Opcode::And, DType::Bool, lo_ok, hi_ok);
        self.panic_with_edges(ok, "ValueError: supplied range of [", "] is not finite", first, last, c);
        self.histogram_between((a, a_ty), first, last, out, c);
        Some(())
    }

    /// Equal bins between the data's smallest and largest elements, or
    /// 0 and 1 when it has none.
    fn histogram_of_data(&mut self, (a, a_ty): (ValueId, &TypeData), out: &Bins, c: &CallExpr) {
        let d = a_ty.dtype;
        self.at(c);
        let dims = self.dims_of(a, a_ty);
        let count = self.element_count(&dims);
        let zero = self.int_const(0, c);
        let empty = self.result(Opcode::Eq, DType::Bool, count, zero);
        let (none, some, done) =
            (self.block("histogram.empty"), self.block("histogram.data"), self.block("histogram.counted"));
        self.b.condbr(empty, none, some, None);
        self.enter(none);
        let nm = self.fresh("c");
        let zero_edge = self.b.const_(TypeId::INT64, Literal::Int(0), &nm);
        let one = self.int_const(1, c);
        let weak = Scalar::weak(DType::Int64);
        self.histogram_between((a, a_ty), Edge { v: zero_edge, s: weak }, Edge { v: one, s: weak }, out, c);
        self.br(done);
        self.enter(some);
        let ends: Vec<ValueId> = [Red::Min, Red::Max]
            .iter()
            .map(|&r| match self.reduce(r, a, a_ty, None, c) {
                Val::Num { v, .. } => v,
                _ => unreachable!("a reduction of the whole array is a number"),
            })
            .collect();
        let s = Scalar::strong(d);
        let (first, last) = (Edge { v: ends[0], s }, Edge { v: ends[1], s });
        if kind(d) == Kind::Float {
            let lo_ok = self.finite(first.v, d, c);
            let hi_ok = self.finite(last.v, d, c);
            let ok = self.result(Opcode::And, DType::Bool, lo_ok, hi_ok);
            self.panic_with_edges(ok, "ValueError: autodetected range of [", "] is not finite", first, last, c);
        }
        self.histogram_between((a, a_ty), first, last, out, c);
        self.br(done);
        self.enter(done);
    }

    /// Panics with `pre`, the two edges' text and `post` unless `ok`.
    fn panic_with_edges(&mut self, ok: ValueId, pre: &str, post: &str, first: Edge, last: Edge, c: &CallExpr) {
        let (fail, cont) = (self.block("fail"), self.block("ok"));
        self.b.condbr(ok, cont, fail, None);
        self.enter(fail);
        let firsts = self.edge_texts(first, c);
        self.each_text(firsts, &mut |s, first_text, first_arg| {
            let lasts = s.edge_texts(last, c);
            s.each_text(lasts, &mut |s, last_text, last_arg| {
                s.at(c);
                let msg = format!("{pre}{first_text}, {last_text}{post}");
                let nm = s.fresh("msg");
                let m = s.b.const_(TypeId::STR, Literal::Str(&msg), &nm);
                let args: Vec<ValueId> = [m].into_iter().chain(first_arg).chain(last_arg).collect();
                s.b.call(postc_ir::builtins::PANIC, &args, None, "");
                s.b.unreachable();
            });
        });
        self.enter(cont);
    }

    /// Runs `leaf` under each condition of `texts` in turn (the last has
    /// none: it is what remains), with that text and its argument.
    fn each_text(
        &mut self,
        texts: Vec<(Option<ValueId>, &'static str, Option<ValueId>)>,
        leaf: &mut dyn FnMut(&mut Self, &str, Option<ValueId>),
    ) {
        for (cond, text, arg) in texts {
            match cond {
                Some(cond) => {
                    let (yes, no) = (self.block("text"), self.block("text.else"));
                    self.b.condbr(cond, yes, no, None);
                    self.enter(yes);
                    leaf(self, text, arg);
                    self.enter(no);
                }
                None => {
                    leaf(self, text, arg);
                    return;
                }
            }
        }
    }

    /// How Python writes the edge `e` (`str` of the number), as the
    /// conditions that pick each text (the last one without): an integer
    /// in decimal; a float as `nan`, `inf`, `-inf`, `-0.0`, an integral
    /// value as `N.0` (below 1e16, or 1e6 for a Float32, past which its
    /// text is scientific), and any other as `a finite number`.
    fn edge_texts(&mut self, e: Edge, at: &impl Ranged) -> Vec<(Option<ValueId>, &'static str, Option<ValueId>)> {
        if kind(e.s.dtype) != Kind::Float {
            let v = self.converted(e.v, e.s.dtype, DType::Int64);
            return vec![(None, "{}", Some(v))];
        }
        let x = self.converted(e.v, e.s.dtype, DType::Float64);
        let nan = self.result(Opcode::Ne, DType::Bool, x, x);
        let inf = self.float_in(f64::INFINITY, DType::Float64, at);
        let is_inf = self.result(Opcode::Eq, DType::Bool, x, inf);
        let minus_inf = self.float_in(f64::NEG_INFINITY, DType::Float64, at);
        let is_minus_inf = self.result(Opcode::Eq, DType::Bool, x, minus_inf);
        // -0.0: equal to 0, its reciprocal -inf.
        let zero = self.zero(DType::Float64);
        let is_zero = self.result(Opcode::Eq, DType::Bool, x, zero);
        let one = self.float_in(1.0, DType::Float64, at);
        let nm = self.fresh("recip");
        let safe = self.b.select(TypeId::scalar(DType::Float64), is_zero, x, one, &nm);
        let recip = self.result(Opcode::Div, DType::Float64, one, safe);
        let negative = self.result(Opcode::Lt, DType::Bool, recip, zero);
        let minus_zero = self.result(Opcode::And, DType::Bool, is_zero, negative);
        let limit = if e.s.dtype == DType::Float32 && !e.s.weak { 1e6 } else { 1e16 };
        let (lo, hi) = (self.float_in(-limit, DType::Float64, at), self.float_in(limit, DType::Float64, at));
        let above = self.result(Opcode::Gt, DType::Bool, x, lo);
        let below = self.result(Opcode::Lt, DType::Bool, x, hi);
        let small = self.result(Opcode::And, DType::Bool, above, below);
        let nm = self.fresh("whole");
        let whole = self.b.cast(TypeId::INT64, x, &nm);
        let back = self.converted(whole, DType::Int64, DType::Float64);
        let integral = self.result(Opcode::Eq, DType::Bool, back, x);
        let integral = self.result(Opcode::And, DType::Bool, small, integral);
        vec![
            (Some(nan), "nan", None),
            (Some(is_inf), "inf", None),
            (Some(is_minus_inf), "-inf", None),
            (Some(minus_zero), "-0.0", None),
            (Some(integral), "{}.0", Some(whole)),
            (None, "a finite number", None),
        ]
    }

    /// NumPy's equal bins between two outer edges that are finite and in
    /// order: widened when equal, the edges laid out, then each element
    /// of `a` in the range counted in its bin.
    fn histogram_between(
        &mut self,
        (a, a_ty): (ValueId, &TypeData),
        first: Edge,
        last: Edge,
        out: &Bins,
        c: &CallExpr,
    ) {
        let d = a_ty.dtype;
        let u = uniform(d, first.s, last.s).expect("the caller checked the dtypes");
        let Bins { n, hist, edges } = *out;
        self.at(c);
        // `first_edge == last_edge`: both moved 0.5 out.
        let p = promote(first.s, last.s).expect("two real numbers").dtype;
        let (fp, lp) = (self.converted(first.v, first.s.dtype, p), self.converted(last.v, last.s.dtype, p));
        let equal = self.result(Opcode::Eq, DType::Bool, fp, lp);
        let (wf_d, wl_d) = (widened(first.s).dtype, widened(last.s).dtype);
        let half = self.float_in(0.5, wf_d, c);
        let f = self.converted(first.v, first.s.dtype, wf_d);
        let w_first = self.result(Opcode::Sub, wf_d, f, half);
        let half = self.float_in(0.5, wl_d, c);
        let l = self.converted(last.v, last.s.dtype, wl_d);
        let w_last = self.result(Opcode::Add, wl_d, l, half);
        // An edge in `to`: the widened one's or the one given's.
        let edge_in = |s: &mut Self, e: Edge, w: ValueId, w_d: DType, to: DType| {
            let from_w = s.converted(w, w_d, to);
            let from_e = s.converted(e.v, e.s.dtype, to);
            let nm = s.fresh("edge");
            s.b.select(TypeId::scalar(to), equal, from_w, from_e, &nm)
        };
        // The edges: `np.linspace(first, last, n + 1)` in its dtype, then
        // converted to the bins' (y = i * step + first, or i / n * delta +
        // first when the step is 0; the last `last` itself).
        let sp = u.space;
        let start = edge_in(self, first, w_first, wf_d, sp);
        let stop = edge_in(self, last, w_last, wl_d, sp);
        let delta = self.result(Opcode::Sub, sp, stop, start);
        let div = self.converted(n, DType::Int64, sp);
        let step = self.result(Opcode::Div, sp, delta, div);
        let zero_sp = self.zero(sp);
        let zero_step = self.result(Opcode::Eq, DType::Bool, step, zero_sp);
        let one = self.int_const(1, c);
        let n1 = self.result(Opcode::Add, DType::Int64, n, one);
        let open = self.loops_open(&[n1], c);
        let i = open[0].i;
        let i_f = self.converted(i, DType::Int64, sp);
        let by_step = self.result(Opcode::Mul, sp, i_f, step);
        let fraction = self.result(Opcode::Div, sp, i_f, div);
        let by_fraction = self.result(Opcode::Mul, sp, fraction, delta);
        let nm = self.fresh("y");
        let y = self.b.select(TypeId::scalar(sp), zero_step, by_fraction, by_step, &nm);
        let y = self.result(Opcode::Add, sp, y, start);
        let at_end = self.result(Opcode::Eq, DType::Bool, i, n);
        let nm = self.fresh("y");
        let y = self.b.select(TypeId::scalar(sp), at_end, stop, y, &nm);
        let y = self.converted(y, sp, u.bins);
        self.b.index_store(edges, &[i], y);
        self.loops_close(open, c);
        // NumPy refuses edges that do not increase.
        let increasing = self.no_edge_then(edges, u.bins, n, Opcode::Ge, c);
        let el = TypeId::scalar(u.bins);
        let msg = "ValueError: Too many bins for data range. Cannot create {} finite-sized bins.";
        self.panic_unless_with(increasing, msg, &[n], c);
        // `last - first`: NumPy's unsigned subtraction of integer edges
        // (exact, below 2**64), else in the edges' float dtype.
        let calc = u.calc;
        let width = if u.int_edges {
            let exact = self.unsigned_difference(first, last, c);
            let exact = self.converted(exact, DType::UInt64, calc);
            let w = self.result(Opcode::Sub, DType::Float64, w_last, w_first);
            let w = self.converted(w, DType::Float64, calc);
            let nm = self.fresh("width");
            self.b.select(TypeId::scalar(calc), equal, w, exact, &nm)
        } else {
            let fd = inexact(promote(first.s, last.s).expect("two real numbers"));
            let hi = edge_in(self, last, w_last, wl_d, fd);
            let lo = edge_in(self, first, w_first, wf_d, fd);
            let w = self.result(Opcode::Sub, fd, hi, lo);
            self.converted(w, fd, calc)
        };
        let first_bins = edge_in(self, first, w_first, wf_d, u.bins);
        let n_calc = self.converted(n, DType::Int64, calc);
        // What each element is compared with to be kept.
        let keep = match u.keep {
            None => {
                let lo = self.converted(first.v, first.s.dtype, DType::Int64);
                let hi = self.converted(last.v, last.s.dtype, DType::Int64);
                [(lo, DType::Int64), (hi, DType::Int64)]
            }
            Some((fk, lk)) => {
                let lo = edge_in(self, first, w_first, wf_d, fk);
                let hi = edge_in(self, last, w_last, wl_d, lk);
                [(lo, fk), (hi, lk)]
            }
        };
        let last_bin = self.result(Opcode::Sub, DType::Int64, n, one);
        let zero = self.int_const(0, c);
        let dims = self.dims_of(a, a_ty);
        let open = self.loops_open(&dims, c);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let nm = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(d), a, &idx, &nm);
        let xl = self.converted(x, d, keep[0].1);
        let from = self.result(Opcode::Ge, DType::Bool, xl, keep[0].0);
        let xh = self.converted(x, d, keep[1].1);
        let to = self.result(Opcode::Le, DType::Bool, xh, keep[1].0);
        let kept = self.result(Opcode::And, DType::Bool, from, to);
        let (count, next) = (self.block("histogram.bin"), self.block("histogram.next"));
        self.b.condbr(kept, count, next, None);
        self.enter(count);
        let xb = self.converted(x, d, u.bins);
        let off = self.result(Opcode::Sub, u.bins, xb, first_bins);
        let off = self.converted(off, u.bins, calc);
        let q = self.result(Opcode::Div, calc, off, width);
        let q = self.result(Opcode::Mul, calc, q, n_calc);
        let nm = self.fresh("bin");
        let k = self.b.cast(TypeId::INT64, q, &nm);
        // At `n` (x at the last edge) the last bin; the clamp below 0 and
        // above `n - 1` keeps every read of `edges` inside it (NumPy's
        // index never leaves 0..=n for a value in the range).
        let past = self.result(Opcode::Gt, DType::Bool, k, last_bin);
        let k = self.select_int(past, last_bin, k);
        let neg = self.result(Opcode::Lt, DType::Bool, k, zero);
        let k = self.select_int(neg, zero, k);
        // The corrections against the edges, as NumPy makes them.
        let nm = self.fresh("edge");
        let left = self.b.index_load(el, edges, &[k], &nm);
        let before = self.result(Opcode::Lt, DType::Bool, xb, left);
        let down = self.result(Opcode::Sub, DType::Int64, k, one);
        let k = self.select_int(before, down, k);
        let right_i = self.result(Opcode::Add, DType::Int64, k, one);
        let nm = self.fresh("edge");
        let right = self.b.index_load(el, edges, &[right_i], &nm);
        let at_right = self.result(Opcode::Ge, DType::Bool, xb, right);
        let not_last = self.result(Opcode::Ne, DType::Bool, k, last_bin);
        let up = self.result(Opcode::And, DType::Bool, at_right, not_last);
        let k = self.select_int(up, right_i, k);
        let inside = self.result(Opcode::Ge, DType::Bool, k, zero);
        let add = self.block("histogram.add");
        self.b.condbr(inside, add, next, None);
        self.enter(add);
        let nm = self.fresh("count");
        let was = self.b.index_load(TypeId::INT64, hist, &[k], &nm);
        let now = self.result(Opcode::Add, DType::Int64, was, one);
        self.b.index_store(hist, &[k], now);
        self.br(next);
        self.enter(next);
        self.loops_close(open, c);
    }

    /// `last - first` of two integer edges, `first <= last`, as the
    /// UInt64 NumPy's unsigned subtraction gives, computed without
    /// overflowing Int64: `2 * (last >> 1 - first >> 1)` (not negative,
    /// as `>> 1` keeps the order) plus the low bits' difference (the sum
    /// not negative either).
    /// Whether no edge among the first `count + 1` of the 1-D `edges` (of
    /// dtype `d`) is `bad` (`Ge`, `Gt`) the next one, as a Bool local.
    fn no_edge_then(&mut self, edges: ValueId, d: DType, count: ValueId, bad: Opcode, c: &CallExpr) -> ValueId {
        let t = self.bool_const(true, c);
        let nm = self.fresh("ordered");
        let ordered = self.b.let_(TypeId::BOOL, t, &nm);
        let one = self.int_const(1, c);
        let open = self.loops_open(&[count], c);
        let i = open[0].i;
        let next = self.result(Opcode::Add, DType::Int64, i, one);
        let el = TypeId::scalar(d);
        let nm = self.fresh("edge");
        let e0 = self.b.index_load(el, edges, &[i], &nm);
        let nm = self.fresh("edge");
        let e1 = self.b.index_load(el, edges, &[next], &nm);
        let wrong = self.result(bad, DType::Bool, e0, e1);
        let nm = self.fresh("not");
        let fine = self.b.unary(Opcode::Not, TypeId::BOOL, wrong, &nm);
        let still = self.result(Opcode::And, DType::Bool, ordered, fine);
        self.b.set(ordered, still);
        self.loops_close(open, c);
        ordered
    }

    fn unsigned_difference(&mut self, first: Edge, last: Edge, c: &CallExpr) -> ValueId {
        let lo = self.converted(first.v, first.s.dtype, DType::Int64);
        let hi = self.converted(last.v, last.s.dtype, DType::Int64);
        let one = self.int_const(1, c);
        let lo_half = self.result(Opcode::Shr, DType::Int64, lo, one);
        let hi_half = self.result(Opcode::Shr, DType::Int64, hi, one);
        let halves = self.result(Opcode::Sub, DType::Int64, hi_half, lo_half);
        let lo_bit = self.result(Opcode::BAnd, DType::Int64, lo, one);
        let hi_bit = self.result(Opcode::BAnd, DType::Int64, hi, one);
        let u = self.converted(halves, DType::Int64, DType::UInt64);
        let twice = self.result(Opcode::Add, DType::UInt64, u, u);
        // + hi_bit - lo_bit, never below 0 as `first <= last`.
        let plus = self.converted(hi_bit, DType::Int64, DType::UInt64);
        let minus = self.converted(lo_bit, DType::Int64, DType::UInt64);
        let more = self.result(Opcode::Add, DType::UInt64, twice, plus);
        self.result(Opcode::Sub, DType::UInt64, more, minus)
    }

    /// Bins given by their edges: counts of the sorted data between them,
    /// as NumPy's `searchsorted` finds them.
    fn histogram_of_edges(
        &mut self,
        (a, a_ty): (ValueId, &TypeData),
        (b, b_ty): (ValueId, TypeData),
        bins_at: TextRange,
        shown: &str,
        c: &CallExpr,
    ) -> Val {
        let bd = b_ty.dtype;
        if let Some(message) = histogram_edges_error(shown, a_ty.dtype, &b_ty) {
            return self.err(&bins_at, message);
        }
        let d = a_ty.dtype;
        let Some(common) = promote_strong(d, bd) else { return Val::Err };
        self.at(c);
        let nm = self.fresh("len");
        let m = self.b.dim(b, 0, &nm);
        let zero = self.int_const(0, c);
        let one = self.int_const(1, c);
        let less = self.result(Opcode::Sub, DType::Int64, m, one);
        let none = self.result(Opcode::Lt, DType::Bool, less, zero);
        let count = self.select_int(none, zero, less);
        // No edge above the next one (NaN compares as NumPy's `>` does).
        let monotonic = self.no_edge_then(b, bd, count, Opcode::Gt, c);
        let el = TypeId::scalar(bd);
        self.panic_unless(monotonic, "ValueError: `bins` must increase monotonically, when an array", c);
        let flat = if a_ty.ndim() == Some(1) {
            a
        } else {
            match self.raveled(a, a_ty, c) {
                Val::Arr { v, .. } => v,
                _ => return Val::Err,
            }
        };
        let (sorted, _) = self.sorted_copy(flat, d, c);
        let nm = self.fresh("len");
        let len = self.b.dim(sorted, 0, &nm);
        // How many elements sort before each edge; before or at the last.
        let (below, _) = self.new_empty_array(DType::Int64, &[(m, true)], c);
        let open = self.loops_open(&[m], c);
        let i = open[0].i;
        let nm = self.fresh("edge");
        let e = self.b.index_load(el, b, &[i], &nm);
        let e = self.converted(e, bd, common);
        let at = self.search(sorted, d, len, e, common, false);
        self.b.index_store(below, &[i], at);
        self.loops_close(open, c);
        let (last, after) = (self.block("histogram.last"), self.block("histogram.counts"));
        let edged = self.result(Opcode::Gt, DType::Bool, m, zero);
        self.b.condbr(edged, last, after, None);
        self.enter(last);
        let nm = self.fresh("edge");
        let e = self.b.index_load(el, b, &[less], &nm);
        let e = self.converted(e, bd, common);
        let at = self.search(sorted, d, len, e, common, true);
        self.b.index_store(below, &[less], at);
        self.br(after);
        self.enter(after);
        let (hist, hist_ty) = self.new_empty_array(DType::Int64, &[(count, true)], c);
        let open = self.loops_open(&[count], c);
        let i = open[0].i;
        let next = self.result(Opcode::Add, DType::Int64, i, one);
        let nm = self.fresh("below");
        let lo = self.b.index_load(TypeId::INT64, below, &[i], &nm);
        let nm = self.fresh("below");
        let hi = self.b.index_load(TypeId::INT64, below, &[next], &nm);
        let n = self.result(Opcode::Sub, DType::Int64, hi, lo);
        self.b.index_store(hist, &[i], n);
        self.loops_close(open, c);
        Val::Tuple(vec![Val::Arr { v: hist, ty: hist_ty }, Val::Arr { v: b, ty: b_ty }])
    }
}
