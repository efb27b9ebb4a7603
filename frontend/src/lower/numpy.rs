//! NumPy on scalars: the ufuncs that compiled code calls on numbers
//! (`np.exp(x)`, `np.minimum(a, b)`, `np.isnan(x)`, ...) and NumPy's float
//! constants (`np.pi`). A ufunc lowers to a `postc.math` intrinsic or to
//! IR arithmetic, with the result dtype NumPy 2 gives: always a NumPy
//! scalar (strong, NEP 50), the float functions taking an integer to the
//! smallest float that holds it (`np.exp(Int64)` is Float64, `np.exp(Int8)`
//! Float16). Arrays are not taken here (`elementwise.rs` lowers a ufunc
//! of arrays as a loop that calls these on the elements), nor complex
//! numbers except by `abs`, `negative` and `square`. Also here: the
//! attributes of `np.iinfo(T)` and `np.finfo(T)`, constants of a dtype
//! (the objects themselves are not values). Every other NumPy name stays
//! a CPython boundary.

use super::*;
use crate::pytypes::float_for;

/// What a NumPy ufunc does to scalars.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NpOp {
    /// A float function of one argument, by its `postc.math` symbol.
    Float1(&'static str),
    /// A float function of two arguments, by its `postc.math` symbol.
    Float2(&'static str),
    /// `floor`, `ceil`, `trunc`: integers and Bool are themselves (NumPy 2
    /// has integer loops for them), floats go through the intrinsic.
    Round(&'static str),
    /// `round`, `around`: halves to even, with optional decimals.
    Around,
    /// `deg2rad`/`radians` (true) and `rad2deg`/`degrees` (false): a
    /// product with NumPy's constant in the float dtype.
    Angle {
        to_radians: bool,
    },
    Abs,
    Negative,
    Square,
    Sign,
    /// `conj`, `conjugate`: a complex number's conjugate; a real number
    /// itself (Bool as Int8: NumPy has no Bool loop).
    Conj,
    IsNan,
    IsInf,
    IsFinite,
    /// NaN-propagating.
    Minimum,
    Maximum,
    /// NaN-ignoring.
    Fmin,
    Fmax,
    Power,
}

impl NpOp {
    /// Whether NumPy's ufunc has complex loops compiled code has.
    pub(crate) fn takes_complex(self) -> bool {
        matches!(self, NpOp::Abs | NpOp::Negative | NpOp::Square | NpOp::Conj)
    }

    pub(crate) fn arity(self) -> usize {
        match self {
            NpOp::Float2(_) | NpOp::Minimum | NpOp::Maximum | NpOp::Fmin | NpOp::Fmax | NpOp::Power => 2,
            _ => 1,
        }
    }
}

/// The NumPy ufunc `name` (an attribute of `numpy`), if compiled code has it.
pub(crate) fn numpy_func(name: &str) -> Option<NpOp> {
    Some(match name {
        "sqrt" | "cbrt" | "exp" | "exp2" | "expm1" | "log" | "log2" | "log10" | "log1p" | "sin" | "cos" | "tan"
        | "sinh" | "cosh" | "tanh" | "rint" | "fabs" => NpOp::Float1(intrinsic_symbol(name)),
        "arcsin" => NpOp::Float1("asin"),
        "arccos" => NpOp::Float1("acos"),
        "arctan" => NpOp::Float1("atan"),
        "arcsinh" => NpOp::Float1("asinh"),
        "arccosh" => NpOp::Float1("acosh"),
        "arctanh" => NpOp::Float1("atanh"),
        "arctan2" => NpOp::Float2("atan2"),
        "hypot" => NpOp::Float2("hypot"),
        "copysign" => NpOp::Float2("copysign"),
        "fmod" => NpOp::Float2("fmod"),
        "floor" => NpOp::Round("floor"),
        "ceil" => NpOp::Round("ceil"),
        "trunc" => NpOp::Round("trunc"),
        "round" | "around" => NpOp::Around,
        "deg2rad" | "radians" => NpOp::Angle { to_radians: true },
        "rad2deg" | "degrees" => NpOp::Angle { to_radians: false },
        "abs" | "absolute" => NpOp::Abs,
        "negative" => NpOp::Negative,
        "conj" | "conjugate" => NpOp::Conj,
        "square" => NpOp::Square,
        "sign" => NpOp::Sign,
        "isnan" => NpOp::IsNan,
        "isinf" => NpOp::IsInf,
        "isfinite" => NpOp::IsFinite,
        "minimum" => NpOp::Minimum,
        "maximum" => NpOp::Maximum,
        "fmin" => NpOp::Fmin,
        "fmax" => NpOp::Fmax,
        "power" => NpOp::Power,
        _ => return None,
    })
}

/// The `postc.math` symbol of a NumPy function named as libm names it.
fn intrinsic_symbol(name: &str) -> &'static str {
    const SAME: [&str; 17] = [
        "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "sinh", "cosh",
        "tanh", "rint", "fabs",
    ];
    SAME.iter().find(|s| **s == name).copied().expect("a libm name")
}

/// NumPy's float constants: Python floats (weak Float64), as in CPython.
pub(crate) fn numpy_constant(name: &str) -> Option<f64> {
    Some(match name {
        "pi" => std::f64::consts::PI,
        "e" => std::f64::consts::E,
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        "euler_gamma" => 0.577_215_664_901_532_9,
        _ => return None,
    })
}

/// An attribute of `np.iinfo(T)` for the integer dtype `d`: a Python
/// int, as NumPy gives it.
pub(crate) fn iinfo_attr(d: DType, attr: &str) -> Option<i128> {
    let (lo, hi) = d.int_range()?;
    Some(match attr {
        "min" => lo,
        "max" => hi,
        "bits" => d.bits() as i128,
        _ => return None,
    })
}

/// `2**e` for `e` in Float64's normal and subnormal range, built from its
/// bits (`powi` divides by `2**-e`, which overflows below -1023).
fn pow2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// What an attribute of `np.finfo(T)` is: a value of the float dtype
/// (a NumPy scalar) or a Python int.
pub(crate) enum FloatInfo {
    Value(f64),
    Int(i128),
}

/// An attribute of `np.finfo(T)` for the float dtype `d`, as NumPy gives
/// it. Each value is exactly one of `d` (`resolution`, a power of ten,
/// rounded to it already).
pub(crate) fn finfo_attr(d: DType, attr: &str) -> Option<FloatInfo> {
    use FloatInfo::{Int, Value};
    // (mantissa bits, exponent bits, largest exponent, decimal precision,
    // the largest finite value, `resolution` as a value of `d`)
    let (nmant, nexp, maxexp, precision, max, resolution): (i32, i32, i32, i32, f64, f64) = match d {
        DType::Float16 => (10, 5, 16, 3, 65504.0, 0.001_000_404_357_910_156_2),
        DType::Float32 => (23, 8, 128, 6, f32::MAX as f64, 1e-6_f32 as f64),
        DType::Float64 => (52, 11, 1024, 15, f64::MAX, 1e-15),
        _ => return None,
    };
    let minexp = 2 - maxexp;
    Some(match attr {
        "eps" => Value(pow2(-nmant)),
        "epsneg" => Value(pow2(-nmant - 1)),
        "max" => Value(max),
        "min" => Value(-max),
        "tiny" | "smallest_normal" => Value(pow2(minexp)),
        "smallest_subnormal" => Value(pow2(minexp - nmant)),
        "resolution" => Value(resolution),
        "bits" => Int(d.bits() as i128),
        "precision" => Int(precision as i128),
        "nmant" => Int(nmant as i128),
        "nexp" | "iexp" => Int(nexp as i128),
        "maxexp" => Int(maxexp as i128),
        "minexp" => Int(minexp as i128),
        "machep" => Int(-nmant as i128),
        "negep" => Int((-nmant - 1) as i128),
        _ => return None,
    })
}

/// `np.round` (shown as `shown`) of `n` arguments, not one or two.
pub(crate) fn round_count_error(shown: &str, n: usize) -> String {
    format!("`{shown}` takes a number and, optionally, decimals, not {n} arguments")
}

/// Decimals of `np.round` (shown as `shown`) that are no integer constant.
pub(crate) fn round_decimals_error(shown: &str) -> String {
    format!("the decimals of `{shown}` are an integer constant in compiled code")
}

/// Why NumPy's `round` (shown as `shown`) of a number of kind `k` (an
/// integer or a float) to the constant `decimals` is refused, as
/// [`FnLower::numpy_round_value`] refuses it: decimals of 400 or more
/// either way, an integer to negative decimals. Of the decimals (the
/// call's argument 1).
pub(crate) fn round_decimals_of_error(shown: &str, k: Kind, decimals: i128) -> Option<(usize, String)> {
    if decimals.unsigned_abs() >= 400 {
        return Some((1, round_range_error(shown)));
    }
    (k == Kind::Int && decimals < 0).then(|| (1, round_negative_error(shown)))
}

/// Decimals of `np.round` (shown as `shown`) of 400 or more either way.
pub(crate) fn round_range_error(shown: &str) -> String {
    format!("the decimals of `{shown}` are beyond the range of a float's exponent")
}

/// `np.round` (shown as `shown`) of what is not a number.
pub(crate) fn round_number_error(shown: &str) -> String {
    format!("`{shown}` takes a number")
}

/// `np.round` (shown as `shown`) of an integer to negative decimals.
pub(crate) fn round_negative_error(shown: &str) -> String {
    format!("`{shown}` of an integer to negative decimals is not supported in compiled code")
}

/// `np.round` (shown as `shown`) of a number of `d` (complex).
pub(crate) fn round_dtype_error(shown: &str, d: DType) -> String {
    format!("`{shown}` of {} is not supported in compiled code", d.name())
}

/// Where an error of `np.iinfo(T).ATTR` is located.
pub(crate) enum TypeInfoSite {
    /// At the dtype `T`.
    Dtype,
    /// At the attribute's name.
    Attr,
}

/// Why compiled code refuses the call `np.iinfo(...)` or `np.finfo(...)`
/// (`which`) of `args` and `keywords`, whatever their values: a keyword,
/// or not one argument.
pub(crate) fn type_info_form_error(
    which: &str,
    args: &[hir::ExprId],
    keywords: &[hir::Keyword],
    call_at: TextRange,
) -> Option<(TextRange, String)> {
    if let Some(k) = keywords.first() {
        return Some((k.range, format!("`numpy.{which}` takes its dtype by position in compiled code")));
    }
    (args.len() != 1).then(|| (call_at, format!("`numpy.{which}` takes one dtype, such as `np.{which}(np.float32)`")))
}

/// `np.iinfo(d).attr` or `np.finfo(d).attr` (`which`): a constant and its
/// type, or why
/// it is refused (a dtype that is not an integer or not inexact, an
/// attribute compiled code does not read).
pub(crate) fn type_info_value(which: &str, d: DType, attr: &str) -> Result<(Lit, Scalar), (TypeInfoSite, String)> {
    if which == "iinfo" {
        if !d.is_int() {
            let message = format!("ValueError: Invalid integer data type: `np.iinfo` of {}", d.name());
            return Err((TypeInfoSite::Dtype, message));
        }
        return match iinfo_attr(d, attr) {
            Some(k) => Ok((Lit::Int(k), Scalar::weak(DType::Int64))),
            None => Err((
                TypeInfoSite::Attr,
                format!("`np.iinfo` has no attribute `{attr}` in compiled code (`min`, `max`, `bits`)"),
            )),
        };
    }
    let real = d.complex_part().unwrap_or(d);
    if kind(real) != Kind::Float {
        let message = format!("ValueError: data type {} not inexact: `np.finfo` takes a float dtype", d.name());
        return Err((TypeInfoSite::Dtype, message));
    }
    match finfo_attr(real, attr) {
        Some(FloatInfo::Value(x)) => Ok((Lit::Float(x), Scalar::strong(real))),
        Some(FloatInfo::Int(k)) => Ok((Lit::Int(k), Scalar::weak(DType::Int64))),
        None => Err((
            TypeInfoSite::Attr,
            format!(
                "`np.finfo` has no attribute `{attr}` in compiled code (`eps`, `epsneg`, `max`, `min`, `tiny`, \
                 `smallest_normal`, `smallest_subnormal`, `resolution`, `bits`, `precision`, `nmant`, `nexp`, \
                 `iexp`, `maxexp`, `minexp`, `machep`, `negep`)"
            ),
        )),
    }
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// The CPython module a name is bound to (`np` for `import numpy as np`).
    pub(super) fn boundary_module(&self, e: hir::ExprId) -> Option<&'c str> {
        match self.global_of(e) {
            Some(Global::BoundaryModule(m)) => Some(m.as_str()),
            _ => None,
        }
    }

    /// `np.iinfo(T).ATTR` or `np.finfo(T).ATTR` (`which` is `iinfo` or
    /// `finfo`), `T` a dtype as `dtype=` takes it: a constant. `iinfo`'s
    /// `min`, `max` and `bits` are Python ints; `finfo`'s `eps`,
    /// `epsneg`, `max`, `min`, `tiny`, `smallest_normal`,
    /// `smallest_subnormal` and `resolution` are NumPy scalars of `T`
    /// (of its real part for a complex `T`), its `bits`, `precision`,
    /// `nmant`, `nexp`, `iexp`, `maxexp`, `minexp`, `machep` and `negep`
    /// Python ints.
    pub(super) fn type_info(&mut self, which: &str, call: &CallExpr, attr: &str, attr_at: TextRange) -> Val {
        if let Some((at, message)) = type_info_form_error(which, call.args, call.keywords, call.at) {
            return self.err(&at, message);
        }
        let arg = call.args[0];
        let Some(d) = self.dtype_arg(arg) else { return Val::Err };
        match type_info_value(which, d, attr) {
            Ok((lit, s)) => Val::Lit { lit, s },
            Err((TypeInfoSite::Dtype, message)) => self.err(&self.range(arg), message),
            Err((TypeInfoSite::Attr, message)) => self.err(&attr_at, message),
        }
    }

    /// `np.NAME(args)` on scalars.
    pub(super) fn numpy_call(&mut self, op: NpOp, name: &str, c: &CallExpr) -> Val {
        let args = c.args;
        let shown = format!("numpy.{name}");
        if op == NpOp::Around {
            return self.numpy_round(&shown, c);
        }
        // Refused by the typecheck where it types the arguments.
        if let Some((_, message)) = typeck::numpy_error(op, name, args.len(), &[]) {
            for &a in args {
                self.expr(a);
            }
            return self.err(&c.at, message);
        }
        let mut vals = Vec::new();
        for &a in args {
            vals.push((self.expr(a), self.range(a)));
        }
        // The arguments up to the first that is no value (refused by
        // the lowering itself: `None`, a call that returns nothing).
        let stop = vals.iter().position(|(v, _)| matches!(v, Val::Err | Val::None | Val::Maybe { .. } | Val::Void));
        let ty = |v: &Val| match v {
            Val::Tuple(_) => Some(v.ty().unwrap_or(typeck::Ty::Tuple(Vec::new()))),
            v => v.ty(),
        };
        let tys: Vec<_> = vals[..stop.unwrap_or(vals.len())].iter().map(|(v, _)| ty(v)).collect();
        let refs: Vec<_> = tys.iter().map(Option::as_ref).collect();
        if let Some((site, message)) = typeck::numpy_error(op, name, args.len(), &refs) {
            let at = site.at(c.at, |i| vals[i].1);
            return self.err(&at, message);
        }
        match stop {
            Some(i) if matches!(vals[i].0, Val::Void) => return self.err(&vals[i].1, "this call returns nothing"),
            Some(_) => return Val::Err,
            None => {}
        }
        // A ufunc gives a NumPy scalar: Python numbers (weak) become the
        // dtype NumPy gives them, the rest meet by NEP 50 first.
        let common = vals.iter().map(|(v, _)| v.scalar()).try_fold(None, |p: Option<Scalar>, s| match (p, s?) {
            (None, s) => Some(Some(s)),
            (Some(p), s) => promote(p, s).map(Some),
        });
        let Some(Some(s)) = common else { return Val::Err };
        let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
        let k = kind(d);
        let float_of = |d: DType| if kind(d) == Kind::Float { d } else { float_for(d) };
        self.at(&c.at);
        match op {
            // `fmod` of integers is refused above.
            NpOp::Float1(sym) | NpOp::Float2(sym) => {
                let rd = float_of(d);
                let Some(xs) = self.operands(&vals, rd, c.at) else { return Val::Err };
                self.intrinsic(sym, &xs, rd, c.at)
            }
            NpOp::Around => unreachable!("lowered by numpy_round"),
            NpOp::Angle { to_radians } => {
                // NumPy's `x * (pi / 180)` in double or in float (its half
                // loop computes in float and rounds).
                let rd = float_of(d);
                let cd = if rd == DType::Float16 { DType::Float32 } else { rd };
                let Some(xs) = self.operands(&vals, cd, c.at) else { return Val::Err };
                let factor = match (cd, to_radians) {
                    (DType::Float64, true) => std::f64::consts::PI / 180.0,
                    (DType::Float64, false) => 180.0 / std::f64::consts::PI,
                    (_, true) => f64::from(std::f32::consts::PI / 180.0f32),
                    (_, false) => f64::from(180.0f32 / std::f32::consts::PI),
                };
                let factor = Val::Lit { lit: Lit::Float(factor), s: Scalar::strong(cd) };
                let factor = self.materialize(&factor, cd, &c.at).expect("a float converts");
                let v = self.result(Opcode::Mul, cd, xs[0], factor);
                let v = if cd == rd {
                    v
                } else {
                    let n = self.fresh("half");
                    self.b.cast(TypeId::scalar(rd), v, &n)
                };
                Val::Num { v, s: Scalar::strong(rd), nonneg: false }
            }
            NpOp::Round(sym) => {
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                if k != Kind::Float {
                    return Val::Num { v: xs[0], s: Scalar::strong(d), nonneg: vals[0].0.nonneg() };
                }
                self.intrinsic(sym, &xs, d, c.at)
            }
            NpOp::Abs => {
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                if k == Kind::Bool {
                    return Val::Num { v: xs[0], s: Scalar::strong(d), nonneg: true };
                }
                let rd = d.complex_part().unwrap_or(d);
                let n = self.fresh("abs");
                let v = self.b.unary(Opcode::Abs, TypeId::scalar(rd), xs[0], &n);
                Val::Num { v, s: Scalar::strong(rd), nonneg: kind(rd) == Kind::Float }
            }
            // Refused above.
            NpOp::Negative | NpOp::Sign if k == Kind::Bool => Val::Err,
            NpOp::Conj => {
                let d = if k == Kind::Bool { DType::Int8 } else { d };
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                let v = if k == Kind::Complex { self.complex_conjugate(xs[0], d) } else { xs[0] };
                Val::Num { v, s: Scalar::strong(d), nonneg: k != Kind::Complex && vals[0].0.nonneg() }
            }
            NpOp::Negative => {
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                let n = self.fresh("neg");
                let v = self.b.unary(Opcode::Neg, TypeId::scalar(d), xs[0], &n);
                Val::Num { v, s: Scalar::strong(d), nonneg: false }
            }
            NpOp::Square => {
                // Bool squares as Int8, as NumPy's loops say.
                let d = if k == Kind::Bool { DType::Int8 } else { d };
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                let v = self.result(Opcode::Mul, d, xs[0], xs[0]);
                Val::Num { v, s: Scalar::strong(d), nonneg: k != Kind::Complex }
            }
            NpOp::Sign => {
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                let x = xs[0];
                let lit = |f: f64| Val::Lit {
                    lit: if k == Kind::Float { Lit::Float(f) } else { Lit::Int(f as i128) },
                    s: Scalar::weak(d),
                };
                let one = self.materialize(&lit(1.0), d, &c.at).expect("1 fits");
                let zero = self.zero(d);
                let ty = TypeId::scalar(d);
                let pos = self.result(Opcode::Gt, DType::Bool, x, zero);
                let v = if d.is_unsigned_int() {
                    let n = self.fresh("sign");
                    self.b.select(ty, pos, one, zero, &n)
                } else {
                    let minus = self.materialize(&lit(-1.0), d, &c.at).expect("-1 fits");
                    let neg = self.result(Opcode::Lt, DType::Bool, x, zero);
                    // A float that is neither positive nor negative is a
                    // zero (the sign is +0.0) or NaN (itself).
                    let rest = if k == Kind::Float {
                        let is_zero = self.result(Opcode::Eq, DType::Bool, x, zero);
                        let n = self.fresh("sign");
                        self.b.select(ty, is_zero, zero, x, &n)
                    } else {
                        zero
                    };
                    let n = self.fresh("sign");
                    let v = self.b.select(ty, neg, minus, rest, &n);
                    let n = self.fresh("sign");
                    self.b.select(ty, pos, one, v, &n)
                };
                Val::Num { v, s: Scalar::strong(d), nonneg: false }
            }
            NpOp::IsNan | NpOp::IsInf | NpOp::IsFinite => {
                if k != Kind::Float {
                    // Integers are never NaN or infinite.
                    return Val::Lit { lit: Lit::Bool(op == NpOp::IsFinite), s: Scalar::strong(DType::Bool) };
                }
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                let x = xs[0];
                let v = if op == NpOp::IsNan {
                    self.result(Opcode::Ne, DType::Bool, x, x)
                } else {
                    let n = self.fresh("mag");
                    let mag = self.b.unary(Opcode::Abs, TypeId::scalar(d), x, &n);
                    let inf = Val::Lit { lit: Lit::Float(f64::INFINITY), s: Scalar::weak(d) };
                    let inf = self.materialize(&inf, d, &c.at).expect("inf converts");
                    // NaN is neither: `<` and `==` are false on it.
                    let cmp = if op == NpOp::IsInf { Opcode::Eq } else { Opcode::Lt };
                    self.result(cmp, DType::Bool, mag, inf)
                };
                Val::Num { v, s: Scalar::strong(DType::Bool), nonneg: true }
            }
            NpOp::Minimum | NpOp::Maximum | NpOp::Fmin | NpOp::Fmax => self.min_max(op, &vals, d, c.at),
            NpOp::Power => {
                // NumPy's loops raise Bool to a power as Int8.
                let d = if k == Kind::Bool { DType::Int8 } else { d };
                let Some(xs) = self.operands(&vals, d, c.at) else { return Val::Err };
                // Strong operands: NumPy's semantics (`0.0 ** -1` is inf),
                // not Python's.
                let l = Val::Num { v: xs[0], s: Scalar::strong(d), nonneg: vals[0].0.nonneg() };
                let r = Val::Num { v: xs[1], s: Scalar::strong(d), nonneg: vals[1].0.nonneg() };
                self.binop(ast::Operator::Pow, l, r, c.at)
            }
        }
    }

    /// `np.round(x)` or `np.round(x, decimals)` (`np.around` too) of a
    /// number, as NumPy rounds it: to the nearest, halves to even. With
    /// `decimals`, a float is multiplied by `10**decimals` in its own
    /// dtype (divided by `10**-decimals` for negative ones), rounded and
    /// divided back. An integer is itself (to negative decimals it is not
    /// compiled); a Bool rounds as a Float16, NumPy's result for it.
    fn numpy_round(&mut self, shown: &str, c: &CallExpr) -> Val {
        let args = c.args;
        if args.is_empty() || args.len() > 2 {
            for &a in args {
                self.expr(a);
            }
            let n = args.len();
            return self.err(c, round_count_error(shown, n));
        }
        let v = self.expr(args[0]);
        let at = self.range(args[0]);
        let decimals = match args.get(1) {
            None => 0,
            Some(&d) => match self.expr(d) {
                Val::Lit { lit: Lit::Int(k), .. } => k,
                Val::Err => return Val::Err,
                _ => return self.err(&self.range(d), round_decimals_error(shown)),
            },
        };
        self.numpy_round_value(v, &at, decimals, shown, c)
    }

    /// NumPy's `round` of the number `v` (written at `at`) to `decimals`
    /// places, the call `c` named `shown`.
    pub(super) fn numpy_round_value(
        &mut self,
        v: Val,
        at: &TextRange,
        decimals: i128,
        shown: &str,
        c: &CallExpr,
    ) -> Val {
        let at = *at;
        if decimals.unsigned_abs() >= 400 {
            let d = c.args.get(1).map_or(c.at, |&d| self.range(d));
            return self.err(&d, round_range_error(shown));
        }
        let decimals = decimals as i32;
        let s = match &v {
            Val::Err | Val::None | Val::Maybe { .. } => return Val::Err,
            Val::Num { s, .. } | Val::Lit { s, .. } if !s.dtype.is_text() => *s,
            Val::Arr { .. } => {
                let msg = format!(
                    "`{shown}` of an array is not supported in compiled code: NumPy functions take scalars here \
                     (loop over the elements)"
                );
                return self.err(&at, msg);
            }
            _ => return self.err(&at, round_number_error(shown)),
        };
        let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
        let rd = match kind(d) {
            Kind::Int if decimals >= 0 => {
                let Some(x) = self.materialize(&v, d, &at) else { return Val::Err };
                return Val::Num { v: x, s: Scalar::strong(d), nonneg: v.nonneg() };
            }
            Kind::Int => return self.err(&self.range(c.args[1]), round_negative_error(shown)),
            Kind::Bool => DType::Float16,
            Kind::Float => d,
            _ => return self.err(c, round_dtype_error(shown, d)),
        };
        let Some(x) = self.materialize(&v, rd, &at) else { return Val::Err };
        if decimals == 0 {
            return self.intrinsic("rint", &[x], rd, c.at);
        }
        // NumPy's power of ten: exact up to 1e22, then multiplied up.
        let places = decimals.unsigned_abs();
        let mut scale = 10f64.powi(places.min(9) as i32);
        for _ in 9..places {
            scale *= 10.0;
        }
        let f = Val::Lit { lit: Lit::Float(scale), s: Scalar::weak(DType::Float64) };
        let Some(f) = self.materialize(&f, rd, c) else { return Val::Err };
        let (there, back) = if decimals > 0 { (Opcode::Mul, Opcode::Div) } else { (Opcode::Div, Opcode::Mul) };
        self.at(c);
        let y = self.result(there, rd, x, f);
        let Val::Num { v: r, .. } = self.intrinsic("rint", &[y], rd, c.at) else { return Val::Err };
        let v = self.result(back, rd, r, f);
        Val::Num { v, s: Scalar::strong(rd), nonneg: false }
    }

    /// `np.minimum`, `np.maximum`, `np.fmin` or `np.fmax` of two numbers
    /// that meet in `d`.
    pub(super) fn min_max(&mut self, op: NpOp, vals: &[(Val, TextRange)], d: DType, at: TextRange) -> Val {
        let k = kind(d);
        let min = matches!(op, NpOp::Minimum | NpOp::Fmin);
        let Some(xs) = self.operands(vals, d, at) else { return Val::Err };
        let (a, b) = (xs[0], xs[1]);
        let nonneg =
            if min { vals[0].0.nonneg() && vals[1].0.nonneg() } else { vals[0].0.nonneg() || vals[1].0.nonneg() };
        let v = match k {
            Kind::Bool => self.result(if min { Opcode::And } else { Opcode::Or }, d, a, b),
            Kind::Float if matches!(op, NpOp::Fmin | NpOp::Fmax) => {
                return self.intrinsic(if min { "fmin" } else { "fmax" }, &xs, d, at);
            }
            _ => {
                // NumPy keeps `a` when it is better or NaN, else `b`
                // (so a NaN on either side wins).
                let better = self.result(if min { Opcode::Lt } else { Opcode::Gt }, DType::Bool, a, b);
                let pick_a = if k == Kind::Float {
                    let nan = self.result(Opcode::Ne, DType::Bool, a, a);
                    self.result(Opcode::Or, DType::Bool, better, nan)
                } else {
                    better
                };
                let n = self.fresh(if min { "min" } else { "max" });
                self.b.select(TypeId::scalar(d), pick_a, a, b, &n)
            }
        };
        Val::Num { v, s: Scalar::strong(d), nonneg }
    }

    /// The arguments as IR values of `d`.
    fn operands(&mut self, vals: &[(Val, TextRange)], d: DType, at: TextRange) -> Option<Vec<ValueId>> {
        let mut xs = Vec::new();
        for (v, a) in vals {
            xs.push(self.materialize(v, d, a)?);
        }
        self.at(&at);
        Some(xs)
    }

    /// A call of the `postc.math` intrinsic `sym`, imported through the
    /// module as `math.sym`, giving a NumPy scalar of `rd`.
    pub(super) fn intrinsic(&mut self, sym: &str, xs: &[ValueId], rd: DType, at: TextRange) -> Val {
        self.math_imports.insert(sym.to_owned());
        self.at(&at);
        let n = self.fresh(sym);
        let v = self.b.call(&format!("math.{sym}"), xs, Some(TypeId::scalar(rd)), &n);
        Val::Num { v, s: Scalar::strong(rd), nonneg: false }
    }
}
