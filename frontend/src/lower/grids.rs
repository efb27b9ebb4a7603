//! Arrays laid out from their arguments: `np.linspace(start, stop, num,
//! endpoint=)`, `np.outer(a, b)` and `np.roll(a, shift, axis=)`.
//!
//! `np.linspace` computes each element as NumPy 2 does, in the float
//! dtype NumPy's `result_type(start, stop, float(num))` gives (Float64 for
//! Python numbers and integers, Float32 for two Float32 scalars): with
//! `div` the number of steps (`num - 1`, or `num` without the endpoint)
//! and `step = (stop - start) / div`, element `i` is `i * step + start`,
//! or `i / div * (stop - start) + start` when the step is zero, or
//! `i * (stop - start) + start` when there are no steps; the last element
//! is `stop` itself when the endpoint is included. `num` is a number of
//! elements (50 when it is not given; a negative one panics with NumPy's
//! ValueError); `endpoint` a constant. Not here: `dtype=`, `retstep=`,
//! `axis=`, array bounds and complex numbers.
//!
//! `np.outer(a, b)` of two 1-D arrays is the 2-D array of every product
//! `a[i] * b[j]`, each computed as NumPy's `multiply` of the two elements
//! (their promoted dtype; Bool's product is its `and`). Not here: arrays
//! of other ranks (NumPy flattens them), scalars and `out=`.
//!
//! `np.roll(a, shift)` is a new C-order array of `a`'s shape and dtype
//! whose element at (C-order) position `i` is `a`'s at `i - shift`,
//! counted around the whole array; with `axis=k` (a constant, negative
//! from the last) each lane along axis `k` is rolled so. `shift` is any
//! integer, taken modulo the length as NumPy takes it (an empty array or
//! axis gives an empty copy). Not here: tuples of shifts and axes.

use super::*;

/// `np.outer` (shown as `shown`) of `n` arguments, not two.
pub(crate) fn outer_count_error(shown: &str, n: usize) -> String {
    format!("{shown} takes two arrays here, not {n} arguments")
}

/// `np.outer` (shown as `shown`) of an array of other than one axis.
pub(crate) fn outer_axes_error(shown: &str) -> String {
    format!("{shown} takes arrays of one axis here")
}

/// `np.outer` (shown as `shown`) of arrays of `a` and `b`, which have no
/// common dtype.
pub(crate) fn outer_dtypes_error(shown: &str, a: DType, b: DType) -> String {
    format!("{shown} of {} and {}", a.name(), b.name())
}

/// The array, shift and axis of `np.roll` (shown as `shown`) called with
/// `args` and `keywords` (`shift=` and `axis=` at most), or why compiled
/// code refuses them whatever their values: too many, one given twice,
/// no array or shift.
#[allow(clippy::type_complexity)]
pub(crate) fn roll_form(
    hir: &hir::Body,
    args: &[hir::ExprId],
    keywords: &[hir::Keyword],
    shown: &str,
    call_at: TextRange,
) -> Result<(hir::ExprId, hir::ExprId, Option<hir::ExprId>), (TextRange, String)> {
    let mut given: [Option<hir::ExprId>; 3] = [None; 3];
    if args.len() > 3 {
        return Err((call_at, format!("{shown} takes an array, a shift and an axis")));
    }
    for (k, &a) in args.iter().enumerate() {
        given[k] = Some(a);
    }
    for kw in keywords {
        let name = kw.name.as_deref().unwrap_or("");
        let k = if name == "shift" { 1 } else { 2 };
        if given[k].is_some() {
            return Err((hir.expr_ranges[kw.value], format!("`{name}` is given twice")));
        }
        given[k] = Some(kw.value);
    }
    let [Some(array_e), Some(shift_e), axis_e] = given else {
        return Err((call_at, format!("{shown} takes an array and a shift")));
    };
    Ok((array_e, shift_e, axis_e))
}

/// An axis of `np.roll` (shown as `shown`) that is no integer constant.
pub(crate) fn roll_axis_error(shown: &str) -> String {
    format!("the axis of {shown} is an integer constant here")
}

/// A shift of `np.roll` (shown as `shown`) that is not an integer.
pub(crate) fn shift_error(shown: &str) -> String {
    format!("the shift of {shown} is an integer here")
}

/// The start, stop, number and endpoint of `np.linspace` (shown as
/// `shown`) called with `args` and `keywords` (the four names at most),
/// or why compiled code refuses them whatever their values: too many, one
/// given twice, no start or stop, an endpoint that is no Bool constant.
#[allow(clippy::type_complexity)]
pub(crate) fn linspace_form(
    hir: &hir::Body,
    args: &[hir::ExprId],
    keywords: &[hir::Keyword],
    shown: &str,
    call_at: TextRange,
) -> Result<(hir::ExprId, hir::ExprId, Option<hir::ExprId>, bool), (TextRange, String)> {
    if args.len() > 4 {
        return Err((call_at, format!("{shown} takes a start, a stop, a number and an endpoint here")));
    }
    let mut given: [Option<hir::ExprId>; 4] = [None; 4];
    for (k, &a) in args.iter().enumerate() {
        given[k] = Some(a);
    }
    for kw in keywords {
        let name = kw.name.as_deref().unwrap_or("");
        let Some(k) = ["start", "stop", "num", "endpoint"].iter().position(|n| *n == name) else { continue };
        if given[k].is_some() {
            return Err((hir.expr_ranges[kw.value], format!("`{name}` is given twice")));
        }
        given[k] = Some(kw.value);
    }
    let [Some(start_e), Some(stop_e), num_e, endpoint_e] = given else {
        return Err((call_at, format!("{shown} takes a start and a stop")));
    };
    let endpoint = match endpoint_e.map(|e| (e, &hir.exprs[e])) {
        None => true,
        Some((_, hir::Expr::Literal(Lit::Bool(b)))) => *b,
        Some((e, _)) => return Err((hir.expr_ranges[e], "the endpoint is the constant `True` or `False` here".into())),
    };
    Ok((start_e, stop_e, num_e, endpoint))
}

/// `common` promoted with a bound of `np.linspace` (shown as `shown`) of
/// the type `s` (`None`: not a number), or why it is refused: not a
/// number, not a real one, or of no common type.
pub(crate) fn linspace_bound(shown: &str, s: Option<Scalar>, common: Scalar) -> Result<Scalar, String> {
    let Some(s) = s else { return Err(format!("{shown} takes numbers here")) };
    if kind(s.dtype) > Kind::Float {
        return Err(format!("{shown} takes real numbers here, not {}", s.dtype.name()));
    }
    promote(common, s).ok_or_else(|| format!("{shown} of {}", s.dtype.name()))
}

/// A number of samples of `np.linspace` (shown as `shown`) that is not an
/// integer.
pub(crate) fn samples_error(shown: &str) -> String {
    format!("the number of samples of {shown} is an integer")
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// `np.linspace(start, stop, num=50, endpoint=True)`.
    pub(super) fn linspace_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &["start", "stop", "num", "endpoint"], shown).is_none() {
            return Val::Err;
        }
        let (start_e, stop_e, num_e, endpoint) = match linspace_form(self.hir, c.args, c.keywords, shown, c.at) {
            Ok(form) => form,
            Err((at, message)) => return self.err(&at, message),
        };
        let mut bounds = Vec::new();
        let mut common = Scalar::weak(DType::Float64);
        for e in [start_e, stop_e] {
            let v = self.expr(e);
            let at = self.range(e);
            if matches!(v, Val::Err) {
                return Val::Err;
            }
            common = match linspace_bound(shown, v.scalar(), common) {
                Ok(p) => p,
                Err(message) => return self.err(&at, message),
            };
            bounds.push((v, at));
        }
        // `float(num)` is a Python float: Float64 unless a strong Float32
        // or Float16 is there.
        let d = if common.weak || kind(common.dtype) != Kind::Float { DType::Float64 } else { common.dtype };
        let [(start, start_at), (stop, stop_at)] = [bounds[0].clone(), bounds[1].clone()];
        let (Some(start), Some(stop)) = (self.materialize(&start, d, &start_at), self.materialize(&stop, d, &stop_at))
        else {
            return Val::Err;
        };
        let num = match num_e {
            None => self.int_const(50, &c.at),
            Some(e) => {
                let v = self.expr(e);
                let at = self.range(e);
                match v.scalar() {
                    Some(s) if kind(s.dtype) <= Kind::Int => match self.materialize(&v, DType::Int64, &at) {
                        Some(n) => n,
                        None => return Val::Err,
                    },
                    _ if matches!(v, Val::Err) => return Val::Err,
                    _ => return self.err(&at, samples_error(shown)),
                }
            }
        };
        self.at(&c.at);
        let zero = self.zero(DType::Int64);
        let nonneg = self.result(Opcode::Ge, DType::Bool, num, zero);
        self.panic_unless_with(nonneg, "ValueError: Number of samples, {}, must be non-negative.", &[num], &c.at);
        let one = self.int_const(1, &c.at);
        let div = if endpoint { self.result(Opcode::Sub, DType::Int64, num, one) } else { num };
        let ty = TypeId::scalar(d);
        let nm = self.fresh("div");
        let div_f = self.b.cast(ty, div, &nm);
        let delta = self.result(Opcode::Sub, d, stop, start);
        let step = self.result(Opcode::Div, d, delta, div_f);
        let zero_f = self.zero(d);
        let zero_step = self.result(Opcode::Eq, DType::Bool, step, zero_f);
        let steps = self.result(Opcode::Gt, DType::Bool, div, zero);
        let last = self.result(Opcode::Sub, DType::Int64, num, one);
        let (out, out_ty) = self.new_empty_array(d, &[(num, true)], &c.at);
        let open = self.loops_open(&[num], &c.at);
        let i = open[0].i;
        let nm = self.fresh("i");
        let i_f = self.b.cast(ty, i, &nm);
        let by_step = self.result(Opcode::Mul, d, i_f, step);
        let fraction = self.result(Opcode::Div, d, i_f, div_f);
        let by_fraction = self.result(Opcode::Mul, d, fraction, delta);
        let nm = self.fresh("y");
        let stepped = self.b.select(ty, zero_step, by_fraction, by_step, &nm);
        let no_steps = self.result(Opcode::Mul, d, i_f, delta);
        let nm = self.fresh("y");
        let y = self.b.select(ty, steps, stepped, no_steps, &nm);
        let y = self.result(Opcode::Add, d, y, start);
        let y = if endpoint {
            // `y[-1] = stop` when there are two elements or more.
            let is_last = self.result(Opcode::Eq, DType::Bool, i, last);
            let two = self.result(Opcode::Gt, DType::Bool, num, one);
            let at_end = self.result(Opcode::And, DType::Bool, is_last, two);
            let nm = self.fresh("y");
            self.b.select(ty, at_end, stop, y, &nm)
        } else {
            y
        };
        self.b.index_store(out, &[i], y);
        self.loops_close(open, &c.at);
        Val::Arr { v: out, ty: out_ty }
    }

    /// `np.outer(a, b)` of two 1-D arrays.
    pub(super) fn outer_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &[], shown).is_none() {
            return Val::Err;
        }
        let &[a_e, b_e] = c.args else {
            return self.err(&c.at, outer_count_error(shown, c.args.len()));
        };
        let mut arrays = Vec::new();
        for e in [a_e, b_e] {
            let Some((v, ty)) = self.numeric_array_arg(e, shown, true) else { return Val::Err };
            if ty.ndim() != Some(1) {
                return self.err(&self.range(e), outer_axes_error(shown));
            }
            arrays.push((v, ty));
        }
        let (a, b) = (&arrays[0], &arrays[1]);
        let Some(p) = promote(Scalar::strong(a.1.dtype), Scalar::strong(b.1.dtype)) else {
            return self.err(&c.at, outer_dtypes_error(shown, a.1.dtype, b.1.dtype));
        };
        let d = p.dtype;
        self.at(&c.at);
        let n = self.fresh("dim");
        let rows = self.b.dim(a.0, 0, &n);
        let n = self.fresh("dim");
        let cols = self.b.dim(b.0, 0, &n);
        let (out, out_ty) = self.new_empty_array(d, &[(rows, true), (cols, true)], &c.at);
        let open = self.loops_open(&[rows, cols], &c.at);
        let (i, j) = (open[0].i, open[1].i);
        let x = self.load(a, &[i], c.at);
        let y = self.load(b, &[j], c.at);
        let product = self.binop(ast::Operator::Mult, x, y, c.at);
        let Some(v) = self.materialize(&product, d, &c.at) else { return Val::Err };
        self.b.index_store(out, &[i, j], v);
        self.loops_close(open, &c.at);
        Val::Arr { v: out, ty: out_ty }
    }

    /// `np.roll(a, shift, axis=None)`.
    pub(super) fn roll_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &["shift", "axis"], shown).is_none() {
            return Val::Err;
        }
        let (array_e, shift_e, axis_e) = match roll_form(self.hir, c.args, c.keywords, shown, c.at) {
            Ok(form) => form,
            Err((at, message)) => return self.err(&at, message),
        };
        let Some((a, ty)) = self.numeric_array_arg(array_e, shown, true) else { return Val::Err };
        let nd = ty.ndim().expect("a known number of axes");
        let axis = match axis_e {
            None => None,
            Some(e) => match (&self.hir.exprs[e], self.expr(e)) {
                (hir::Expr::None, _) => None,
                (_, Val::Lit { lit: Lit::Int(k), .. }) if (-(nd as i128)..nd as i128).contains(&k) => {
                    Some(k.rem_euclid(nd as i128) as usize)
                }
                (_, Val::Err) => return Val::Err,
                (_, Val::Lit { lit: Lit::Int(k), .. }) => {
                    return self.err(&self.range(e), super::arrays::axis_bounds_error(k, nd));
                }
                _ => return self.err(&self.range(e), roll_axis_error(shown)),
            },
        };
        let shift_v = self.expr(shift_e);
        let shift_at = self.range(shift_e);
        match shift_v.scalar() {
            Some(s) if matches!(kind(s.dtype), Kind::Bool | Kind::Int) => {}
            None if matches!(shift_v, Val::Err) => return Val::Err,
            _ => return self.err(&shift_at, shift_error(shown)),
        }
        let Some(shift) = self.materialize(&shift_v, DType::Int64, &shift_at) else { return Val::Err };
        self.at(&c.at);
        let dims = self.dims_of(a, &ty);
        let (out, out_ty) = self.new_empty_array(ty.dtype, &dims.iter().map(|&d| (d, true)).collect::<Vec<_>>(), &c.at);
        // The length rolled around: the axis', or every element's.
        let length = match axis {
            Some(k) => dims[k],
            None => {
                let mut n = self.int_const(1, &c.at);
                for &d in &dims {
                    n = self.result(Opcode::Mul, DType::Int64, n, d);
                }
                n
            }
        };
        // `shift mod length` in [0, length), as NumPy takes it (an empty
        // array has no element to move).
        let zero = self.int_const(0, &c.at);
        let one = self.int_const(1, &c.at);
        let empty = self.result(Opcode::Eq, DType::Bool, length, zero);
        let divisor = self.select_int(empty, one, length);
        let by = self.result(Opcode::Mod, DType::Int64, shift, divisor);
        let open = self.loops_open(&dims, &c.at);
        let at_out: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        // The position, along the axis or in the whole array, that the
        // element comes from.
        let position = match axis {
            Some(k) => at_out[k],
            None => {
                let mut flat = zero;
                for (&i, &d) in at_out.iter().zip(&dims) {
                    let scaled = self.result(Opcode::Mul, DType::Int64, flat, d);
                    flat = self.result(Opcode::Add, DType::Int64, scaled, i);
                }
                flat
            }
        };
        let back = self.result(Opcode::Sub, DType::Int64, position, by);
        let wrapped = self.result(Opcode::Add, DType::Int64, back, length);
        let before = self.result(Opcode::Lt, DType::Bool, back, zero);
        let from = self.select_int(before, wrapped, back);
        let at_in: Vec<ValueId> = match axis {
            Some(k) => {
                let mut idx = at_out.clone();
                idx[k] = from;
                idx
            }
            // The C-order position back to one index per axis.
            None => self.c_order_digits(from, &dims),
        };
        let x = self.load(&(a, ty.clone()), &at_in, c.at);
        let Some(v) = self.materialize(&x, ty.dtype, &c.at) else { return Val::Err };
        self.b.index_store(out, &at_out, v);
        self.loops_close(open, &c.at);
        Val::Arr { v: out, ty: out_ty }
    }
}
