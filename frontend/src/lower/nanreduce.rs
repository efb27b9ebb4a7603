//! Reductions of a whole array that skip its NaNs (`np.nansum`,
//! `np.nanprod`, `np.nanmin`, `np.nanmax`, `np.nanargmin`,
//! `np.nanargmax`, `np.nanmean`, `np.nanvar`, `np.nanstd`, `ddof=` for
//! the last two), the variance and standard deviation of every element
//! (`np.var`, `np.std`, `ddof=`: as `nanvar` and `nanstd`, a NaN counted
//! and so propagated), and the vector and Frobenius norms of
//! `np.linalg.norm`, with NumPy's result dtypes and its answers at the
//! edges:
//!
//! - an integer or Bool array has no NaN, and reduces as the plain
//!   reduction does (`np.nanmin` of integers is `np.min`);
//! - `nansum` of no numbers is 0, `nanprod` 1; `nanmean`, `nanvar` and
//!   `nanstd` of no numbers (an empty or all-NaN array, or `ddof` at
//!   least the count) are NaN (NumPy also warns), as are `nanmin` and
//!   `nanmax` of an all-NaN array;
//! - `nanmin`/`nanmax` of an empty array and `nanargmin`/`nanargmax` of an
//!   empty or all-NaN one panic with NumPy's ValueError.
//!
//! Elements are visited once in C order (`nanvar` twice: the mean, then
//! the squared deviations from it, as NumPy computes it) and summed left
//! to right; NumPy sums floats pairwise, so float sums of many elements
//! can differ from NumPy's in the last bits. Float16 is summed in Float32
//! and rounded once, as `arrays.rs` sums it. Not here: `axis=`, complex
//! arrays, `out=`, `keepdims=`.
//!
//! `np.linalg.norm(x, ord)` takes `x` of one axis with `ord` `None` or 2
//! (the Euclidean norm), 1, `np.inf`, `-np.inf`, 0 (the count of
//! non-zeros) or any other number `p` (`sum(abs(x)**p)**(1/p)`), or of
//! two axes with `ord` `None` or `'fro'` (the Frobenius norm); `ord` is a
//! constant. An integer or Bool array is converted to Float64 first, as
//! NumPy converts it; a float array keeps its dtype; a complex array is
//! normed by its elements' magnitudes in its parts' dtype, its Euclidean
//! norm summing the squares of the real parts and of the imaginary parts
//! apart and adding the sums, as NumPy does.

use super::arrays::sum_dtype;
use super::npfuncs::NanRed;
use super::*;

/// What `np.linalg.norm` computes, by its `ord`.
#[derive(Clone, Copy, PartialEq, Debug)]
enum NormOrd {
    /// `None`, 2 on a vector, `'fro'`: the square root of the sum of squares.
    Euclid,
    /// `np.inf`: the largest magnitude (0 for no elements).
    Max,
    /// `-np.inf`: the smallest magnitude.
    Min,
    /// 0: how many elements are not zero.
    Count,
    /// 1: the sum of magnitudes.
    Sum,
    /// `sum(abs(x)**p)**(1/p)`.
    Power(f64),
}

impl NanRed {
    fn ordered(self) -> bool {
        matches!(self, NanRed::Min | NanRed::Max | NanRed::ArgMin | NanRed::ArgMax)
    }

    fn lower(self) -> bool {
        matches!(self, NanRed::Min | NanRed::ArgMin)
    }
}

/// `np.linalg.norm` (shown as `shown`) of `n` arguments.
pub(crate) fn norm_count_error(shown: &str, n: usize) -> String {
    format!("{shown} takes an array and an order here, not {n} arguments")
}

/// The order of `np.linalg.norm` given by position and as `ord=`.
pub(crate) const ORDER_TWICE: &str = "the order is given twice";

/// `np.linalg.norm` (shown as `shown`) of an array of three axes or more.
pub(crate) fn norm_axes_error(shown: &str) -> String {
    format!("{shown} takes an array of one or two axes here")
}

/// NumPy's ValueError of the order `s` (a string) of a vector's norm.
pub(crate) fn vector_order_error(s: &str) -> String {
    format!("ValueError: Invalid norm order '{s}' for vectors")
}

/// An order of `np.linalg.norm` (shown as `shown`) that is no number
/// constant.
pub(crate) fn order_constant_error(shown: &str) -> String {
    format!("the order of {shown} is a constant here (`2`, `1`, `np.inf`, `'fro'`)")
}

/// A number order of `np.linalg.norm` (shown as `shown`) of a matrix.
pub(crate) fn matrix_order_error(shown: &str) -> String {
    format!("{shown} of a matrix takes the order `None` or `'fro'` here (the Frobenius norm)")
}

/// The array a NaN-skipping reduction, `np.var` or `np.std` (shown as
/// `shown`) of `args` reduces: the `receiver` of a method (`a.var()`,
/// which takes no arguments), else the one argument; or why compiled code
/// refuses the call whatever its values.
pub(crate) fn reduced_array_form(
    receiver: Option<hir::ExprId>,
    args: &[hir::ExprId],
    shown: &str,
    call_at: TextRange,
) -> Result<hir::ExprId, (TextRange, String)> {
    match (receiver, args) {
        (Some(base), []) => Ok(base),
        (None, &[a]) => Ok(a),
        (_, args) => {
            let what = if receiver.is_some() { "no arguments but `ddof=`" } else { "one array" };
            Err((call_at, format!("{shown} takes {what} here, not {} arguments", args.len())))
        }
    }
}

/// Whether a `ddof=` of scalar type `s` is taken: an integer or a float.
pub(crate) fn is_ddof(s: Option<Scalar>) -> bool {
    s.is_some_and(|s| matches!(kind(s.dtype), Kind::Int | Kind::Float))
}

/// A `ddof=` of `shown` that is not a number it takes.
pub(crate) fn ddof_error(shown: &str) -> String {
    format!("the `ddof` of {shown} is a number")
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// `np.nanXXX(a)`, with `ddof=` for `nanvar` and `nanstd`; with
    /// `skip_nan` false, `np.var(a)` and `np.std(a)` (`r` is `Var` or
    /// `Std`), whose NaNs are numbers like any other.
    pub(super) fn nan_reduction_call(&mut self, r: NanRed, shown: &str, c: &CallExpr, skip_nan: bool) -> Val {
        let known: &[&str] = if matches!(r, NanRed::Var | NanRed::Std) { &["ddof"] } else { &[] };
        let Some(kws) = self.keywords_of(c, known, shown) else { return Val::Err };
        // `a.var()`: the receiver is the array.
        let receiver = match &self.hir.exprs[c.func] {
            &hir::Expr::Attribute { base, .. } if !skip_nan && self.boundary_module(base) != Some("numpy") => {
                Some(base)
            }
            _ => None,
        };
        let array = match reduced_array_form(receiver, c.args, shown, c.at) {
            Ok(array) => array,
            Err((at, message)) => return self.err(&at, message),
        };
        let Some((arr, ty)) = self.numeric_array_arg(array, shown, false) else { return Val::Err };
        let d = ty.dtype;
        let ddof = match kws.first() {
            Some(&(_, e)) => {
                let v = self.expr(e);
                let e = self.range(e);
                match v.scalar() {
                    s if is_ddof(s) => Some((v, e)),
                    _ if matches!(v, Val::Err) => return Val::Err,
                    _ => return self.err(&e, ddof_error(shown)),
                }
            }
            None => None,
        };
        // The accumulator's dtype and the result's.
        let float_of = |d: DType| match d {
            DType::Float16 => (DType::Float32, DType::Float16),
            DType::Float32 | DType::Float64 => (d, d),
            _ => (DType::Float64, DType::Float64),
        };
        let (acc_d, res_d) = match r {
            NanRed::Sum | NanRed::Prod if d == DType::Float16 => (DType::Float32, DType::Float16),
            NanRed::Sum | NanRed::Prod => (sum_dtype(d), sum_dtype(d)),
            NanRed::Min | NanRed::Max => (d, d),
            NanRed::ArgMin | NanRed::ArgMax => (d, DType::Int64),
            NanRed::Mean | NanRed::Var | NanRed::Std => float_of(d),
        };
        self.at(&c.at);
        let dims = self.dims_of(arr, &ty);
        let count = self.element_count(&dims);
        if r.ordered() {
            let z = self.zero(DType::Int64);
            let ok = self.result(Opcode::Gt, DType::Bool, count, z);
            let msg = match r {
                NanRed::ArgMin => "ValueError: attempt to get argmin of an empty sequence",
                NanRed::ArgMax => "ValueError: attempt to get argmax of an empty sequence",
                // NumPy reduces every dtype with fmin or fmax here.
                NanRed::Min => "ValueError: zero-size array to reduction operation fmin which has no identity",
                _ => "ValueError: zero-size array to reduction operation fmax which has no identity",
            };
            self.panic_unless(ok, msg, c);
            let v = self.nan_extremum(r, arr, d, &dims, c);
            return Val::Num { v, s: Scalar::strong(res_d), nonneg: matches!(r, NanRed::ArgMin | NanRed::ArgMax) };
        }
        let acc_t = TypeId::scalar(acc_d);
        let init = if r == NanRed::Prod {
            let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
            self.materialize(&one, acc_d, c).expect("one converts to any number")
        } else {
            self.zero(acc_d)
        };
        let nm = self.fresh("acc");
        let acc = self.b.let_(acc_t, init, &nm);
        let z = self.zero(acc_d);
        let nm = self.fresh("seen");
        let seen = self.b.let_(acc_t, z, &nm);
        let op = if r == NanRed::Prod { Opcode::Mul } else { Opcode::Add };
        self.each_number(arr, d, acc_d, &dims, skip_nan, c, |s, x| {
            let total = s.result(op, acc_d, acc, x);
            s.b.set(acc, total);
            let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
            let one = s.materialize(&one, acc_d, c).expect("one converts to any number");
            let more = s.result(Opcode::Add, acc_d, seen, one);
            s.b.set(seen, more);
        });
        self.at(&c.at);
        let v = match r {
            NanRed::Sum | NanRed::Prod => {
                let nm = self.fresh("red");
                if acc_d == res_d {
                    self.b.let_(acc_t, acc, &nm)
                } else {
                    self.b.cast(TypeId::scalar(res_d), acc, &nm)
                }
            }
            _ => {
                // No numbers: 0 / 0 is NumPy's NaN.
                let mean = self.result(Opcode::Div, acc_d, acc, seen);
                let v = if r == NanRed::Mean {
                    mean
                } else {
                    let nm = self.fresh("ssd");
                    let ssd = self.b.let_(acc_t, z, &nm);
                    self.each_number(arr, d, acc_d, &dims, skip_nan, c, |s, x| {
                        let dev = s.result(Opcode::Sub, acc_d, x, mean);
                        let sq = s.result(Opcode::Mul, acc_d, dev, dev);
                        let total = s.result(Opcode::Add, acc_d, ssd, sq);
                        s.b.set(ssd, total);
                    });
                    self.at(&c.at);
                    let dof = match ddof {
                        Some((v, e)) => {
                            let Some(k) = self.materialize(&v, acc_d, &e) else { return Val::Err };
                            self.at(&c.at);
                            self.result(Opcode::Sub, acc_d, seen, k)
                        }
                        None => seen,
                    };
                    let zero = self.zero(acc_d);
                    let free = self.result(Opcode::Gt, DType::Bool, dof, zero);
                    let var = if skip_nan {
                        // `nanvar`'s NaN when no degree of freedom is left.
                        let var = self.result(Opcode::Div, acc_d, ssd, dof);
                        let nan = Val::Lit { lit: Lit::Float(f64::NAN), s: Scalar::weak(DType::Float64) };
                        let nan = self.materialize(&nan, acc_d, c).expect("NaN is a float");
                        let nm = self.fresh("var");
                        self.b.select(acc_t, free, var, nan, &nm)
                    } else {
                        // `var` divides by the degrees of freedom left, at
                        // least 0: infinity, or NaN when the squares sum to 0.
                        let nm = self.fresh("dof");
                        let dof = self.b.select(acc_t, free, dof, zero, &nm);
                        self.result(Opcode::Div, acc_d, ssd, dof)
                    };
                    if r == NanRed::Std {
                        match self.intrinsic("sqrt", &[var], acc_d, c.at) {
                            Val::Num { v, .. } => v,
                            _ => return Val::Err,
                        }
                    } else {
                        var
                    }
                };
                if acc_d == res_d {
                    v
                } else {
                    let nm = self.fresh("red");
                    self.b.cast(TypeId::scalar(res_d), v, &nm)
                }
            }
        };
        Val::Num { v, s: Scalar::strong(res_d), nonneg: false }
    }

    /// Runs `body` on every element of `arr` (of `d`, extents `dims`) in
    /// C order, converted to `to`: with `skip_nan`, on those that are not
    /// NaN.
    #[allow(clippy::too_many_arguments)]
    fn each_number(
        &mut self,
        arr: ValueId,
        d: DType,
        to: DType,
        dims: &[ValueId],
        skip_nan: bool,
        at: &CallExpr,
        body: impl FnOnce(&mut Self, ValueId),
    ) {
        let open = self.loops_open(dims, at);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let nm = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(d), arr, &idx, &nm);
        let x = if d == to {
            x
        } else {
            let nm = self.fresh("x");
            self.b.cast(TypeId::scalar(to), x, &nm)
        };
        if skip_nan && kind(d) == Kind::Float {
            let number = self.result(Opcode::Eq, DType::Bool, x, x);
            let yes = self.block("number");
            let skip = self.block("nan");
            self.b.condbr(number, yes, skip, None);
            self.enter(yes);
            body(self, x);
            self.br(skip);
            self.enter(skip);
        } else {
            body(self, x);
        }
        self.loops_close(open, at);
    }

    /// The smallest or largest number of the non-empty `arr` (NaN when it
    /// has none), or its flat index (panicking when it has none): the
    /// first of equals, as NumPy's.
    fn nan_extremum(&mut self, r: NanRed, arr: ValueId, d: DType, dims: &[ValueId], c: &CallExpr) -> ValueId {
        let t = TypeId::scalar(d);
        let z = self.zero(d);
        let nm = self.fresh("acc");
        let acc = self.b.let_(t, z, &nm);
        let none = Val::Lit { lit: Lit::Int(-1), s: Scalar::weak(DType::Int64) };
        let none = self.materialize(&none, DType::Int64, c).expect("-1 is an Int64");
        let nm = self.fresh("at");
        let best = self.b.let_(TypeId::INT64, none, &nm);
        let zero = self.zero(DType::Int64);
        let nm = self.fresh("flat");
        let flat = self.b.let_(TypeId::INT64, zero, &nm);
        let open = self.loops_open(dims, c);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let nm = self.fresh("el");
        let x = self.b.index_load(t, arr, &idx, &nm);
        // Take `x` when it is a number and the first one, or better.
        let better = if r.lower() { self.sorts_before(d, x, acc) } else { self.sorts_before(d, acc, x) };
        let first = self.result(Opcode::Lt, DType::Bool, best, zero);
        let take = self.result(Opcode::Or, DType::Bool, first, better);
        let take = if kind(d) == Kind::Float {
            // `sorts_before` puts NaN last, so a NaN `x` is better than
            // nothing for a maximum: refuse it here.
            let number = self.result(Opcode::Eq, DType::Bool, x, x);
            self.result(Opcode::And, DType::Bool, take, number)
        } else {
            take
        };
        let yes = self.block("better");
        let no = self.block("same");
        self.b.condbr(take, yes, no, None);
        self.enter(yes);
        self.b.set(acc, x);
        self.b.set(best, flat);
        self.br(no);
        self.enter(no);
        let next = self.plus_one(flat);
        self.b.set(flat, next);
        self.loops_close(open, c);
        self.at(c);
        let found = self.result(Opcode::Ge, DType::Bool, best, zero);
        match r {
            NanRed::ArgMin | NanRed::ArgMax => {
                self.panic_unless(found, "ValueError: All-NaN slice encountered", c);
                let nm = self.fresh("red");
                self.b.let_(TypeId::INT64, best, &nm)
            }
            _ if kind(d) == Kind::Float => {
                let nan = Val::Lit { lit: Lit::Float(f64::NAN), s: Scalar::weak(DType::Float64) };
                let nan = self.materialize(&nan, d, c).expect("NaN is a float");
                let nm = self.fresh("red");
                self.b.select(t, found, acc, nan, &nm)
            }
            _ => {
                let nm = self.fresh("red");
                self.b.let_(t, acc, &nm)
            }
        }
    }

    /// `np.linalg.norm(x, ord)`.
    pub(super) fn norm_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        let Some(kws) = self.keywords_of(c, &["ord"], shown) else { return Val::Err };
        let args = c.args;
        if args.is_empty() || args.len() > 2 {
            return self.err(&c.at, norm_count_error(shown, args.len()));
        }
        let ord_expr = match (kws.first(), args.get(1)) {
            (Some(_), Some(&p)) => return self.err(&self.range(p), ORDER_TWICE),
            (Some((_, k)), None) => Some(*k),
            (None, p) => p.copied(),
        };
        let Some((arr, ty)) = self.numeric_array_arg(args[0], shown, true) else { return Val::Err };
        let nd = ty.ndim().expect("checked by numeric_array_arg");
        if nd > 2 {
            return self.err(&self.range(args[0]), norm_axes_error(shown));
        }
        let hir = self.hir;
        let ord = match ord_expr.map(|e| (e, &hir.exprs[e])) {
            None | Some((_, hir::Expr::None)) => NormOrd::Euclid,
            Some((_, hir::Expr::Literal(Lit::Str(s)))) if nd == 2 && matches!(s.as_str(), "fro" | "f") => {
                NormOrd::Euclid
            }
            Some((e, hir::Expr::Literal(Lit::Str(s)))) if nd == 1 => {
                return self.err(&self.range(e), vector_order_error(s))
            }
            Some((e, _)) => {
                let p = match self.expr(e) {
                    Val::Lit { lit: Lit::Int(i), .. } => i as f64,
                    Val::Lit { lit: Lit::Float(f), .. } => f,
                    Val::Err => return Val::Err,
                    _ => return self.err(&self.range(e), order_constant_error(shown)),
                };
                if nd == 2 {
                    return self.err(&self.range(e), matrix_order_error(shown));
                }
                match p {
                    2.0 => NormOrd::Euclid,
                    1.0 => NormOrd::Sum,
                    0.0 => NormOrd::Count,
                    f64::INFINITY => NormOrd::Max,
                    f64::NEG_INFINITY => NormOrd::Min,
                    p => NormOrd::Power(p),
                }
            }
        };
        // Integers are converted to Float64; Float16 is computed in
        // Float32 and rounded once; a complex array's norm is of its
        // parts' dtype.
        let part = ty.dtype.complex_part();
        let real_d = part.unwrap_or(ty.dtype);
        let res_d = if kind(real_d) == Kind::Float { real_d } else { DType::Float64 };
        let acc_d = if res_d == DType::Float16 { DType::Float32 } else { res_d };
        let acc_t = TypeId::scalar(acc_d);
        self.at(&c.at);
        let dims = self.dims_of(arr, &ty);
        if ord == NormOrd::Min {
            let count = self.element_count(&dims);
            let z = self.zero(DType::Int64);
            let ok = self.result(Opcode::Gt, DType::Bool, count, z);
            self.panic_unless(
                ok,
                "ValueError: zero-size array to reduction operation minimum which has no identity",
                c,
            );
        }
        let init = match ord {
            NormOrd::Min => {
                let inf = Val::Lit { lit: Lit::Float(f64::INFINITY), s: Scalar::weak(DType::Float64) };
                self.materialize(&inf, acc_d, c).expect("inf is a float")
            }
            _ => self.zero(acc_d),
        };
        let nm = self.fresh("acc");
        let acc = self.b.let_(acc_t, init, &nm);
        // NumPy sums the squares of the imaginary parts apart from those
        // of the real parts, and adds the two sums.
        let imag_acc = part.map(|_| {
            let z = self.zero(acc_d);
            let nm = self.fresh("acc.imag");
            self.b.let_(acc_t, z, &nm)
        });
        let open = self.loops_open(&dims, c);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let nm = self.fresh("el");
        let el = self.b.index_load(TypeId::scalar(ty.dtype), arr, &idx, &nm);
        let to_acc = |s: &mut Self, v: ValueId, d: DType| {
            if d == acc_d {
                v
            } else {
                let nm = s.fresh("x");
                s.b.cast(acc_t, v, &nm)
            }
        };
        // The element (its real part, for a complex one) and its magnitude.
        let (x, mag) = match part {
            Some(p) => {
                let nm = self.fresh("real");
                let re = self.b.getfield(TypeId::scalar(p), el, Field::Real, &nm);
                let nm = self.fresh("abs");
                let mag = self.b.unary(Opcode::Abs, TypeId::scalar(p), el, &nm);
                (to_acc(self, re, p), to_acc(self, mag, p))
            }
            None => {
                let x = to_acc(self, el, ty.dtype);
                let nm = self.fresh("abs");
                (x, self.b.unary(Opcode::Abs, acc_t, x, &nm))
            }
        };
        let next = match ord {
            NormOrd::Euclid => {
                if let (Some(p), Some(imag_acc)) = (part, imag_acc) {
                    let nm = self.fresh("imag");
                    let im = self.b.getfield(TypeId::scalar(p), el, Field::Imag, &nm);
                    let im = to_acc(self, im, p);
                    let sq = self.result(Opcode::Mul, acc_d, im, im);
                    let total = self.result(Opcode::Add, acc_d, imag_acc, sq);
                    self.b.set(imag_acc, total);
                }
                let sq = self.result(Opcode::Mul, acc_d, x, x);
                self.result(Opcode::Add, acc_d, acc, sq)
            }
            NormOrd::Sum => self.result(Opcode::Add, acc_d, acc, mag),
            NormOrd::Count => {
                // Not zero: a complex number with either part not zero.
                let zero = self.zero(acc_d);
                let nonzero = self.result(Opcode::Ne, DType::Bool, mag, zero);
                let nm = self.fresh("one");
                let one = self.b.cast(acc_t, nonzero, &nm);
                self.result(Opcode::Add, acc_d, acc, one)
            }
            // NaN propagates, as NumPy's maximum and minimum do.
            NormOrd::Max | NormOrd::Min => {
                let keep_acc = if ord == NormOrd::Max { Opcode::Gt } else { Opcode::Lt };
                let better = self.result(keep_acc, DType::Bool, acc, mag);
                let acc_nan = self.result(Opcode::Ne, DType::Bool, acc, acc);
                let keep = self.result(Opcode::Or, DType::Bool, better, acc_nan);
                let nm = self.fresh("ext");
                self.b.select(acc_t, keep, acc, mag, &nm)
            }
            NormOrd::Power(p) => {
                let p = Val::Lit { lit: Lit::Float(p), s: Scalar::weak(DType::Float64) };
                let Some(p) = self.materialize(&p, acc_d, c) else { return Val::Err };
                let Val::Num { v: term, .. } = self.intrinsic("pow", &[mag, p], acc_d, c.at) else {
                    return Val::Err;
                };
                self.result(Opcode::Add, acc_d, acc, term)
            }
        };
        self.b.set(acc, next);
        self.loops_close(open, c);
        self.at(&c.at);
        let v = match ord {
            NormOrd::Euclid => {
                let squares = match imag_acc {
                    Some(imag_acc) => self.result(Opcode::Add, acc_d, acc, imag_acc),
                    None => acc,
                };
                match self.intrinsic("sqrt", &[squares], acc_d, c.at) {
                    Val::Num { v, .. } => v,
                    _ => return Val::Err,
                }
            }
            NormOrd::Power(p) => {
                let inv = Val::Lit { lit: Lit::Float(1.0 / p), s: Scalar::weak(DType::Float64) };
                let Some(inv) = self.materialize(&inv, acc_d, c) else { return Val::Err };
                match self.intrinsic("pow", &[acc, inv], acc_d, c.at) {
                    Val::Num { v, .. } => v,
                    _ => return Val::Err,
                }
            }
            _ => {
                let nm = self.fresh("norm");
                self.b.let_(acc_t, acc, &nm)
            }
        };
        let v = if acc_d == res_d {
            v
        } else {
            let nm = self.fresh("norm");
            self.b.cast(TypeId::scalar(res_d), v, &nm)
        };
        Val::Num { v, s: Scalar::strong(res_d), nonneg: true }
    }
}
