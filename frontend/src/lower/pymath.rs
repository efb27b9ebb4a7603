//! Python's `math` module on numbers (`import math`, then `math.sqrt(x)`),
//! with CPython's results: every float function takes its arguments as
//! Python floats and returns a Python float (a weak Float64, whatever the
//! argument's dtype: `math.sqrt(x32)` is Float64, as in CPython);
//! `floor`, `ceil` and `trunc` return Python ints (weak Int64);
//! `isnan`, `isinf` and `isfinite` Python bools. Where CPython raises, the
//! compiled code panics with CPython's exception and message:
//! `ValueError: math domain error` for a NaN made of non-NaN arguments (or
//! an infinity at a pole, `log(0.0)`), `OverflowError: math range error`
//! for an infinity made of finite arguments by a function that overflows
//! (`exp(1000.0)`), and `floor`/`ceil`/`trunc` of NaN or an infinity give
//! CPython's ValueError/OverflowError. Not done here: `postc.math`
//! (libm's stand-ins, keeping the float dtype, see `calls.rs`), `np.*`
//! (NumPy scalars, `numpy.rs`), complex numbers (`cmath`), arrays, and
//! the functions of `math` not listed in `math_func` (a located error
//! names them). A floor of a finite float beyond Int64, a Python int
//! CPython would make, panics with an OverflowError instead.

use super::*;

/// How a float function of `math` reports what CPython reports as errors.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Errors {
    /// NaN of non-NaN arguments, or an infinity of finite ones (a pole):
    /// `ValueError: math domain error`.
    Domain,
    /// As `Domain`, but an infinity of finite arguments is an overflow:
    /// `OverflowError: math range error`.
    Overflow,
    /// `gamma`, `lgamma`: an infinity at a non-positive integer is a
    /// pole (ValueError), elsewhere an overflow.
    Gamma,
    /// `pow`: NaN of finite arguments is a domain error, an infinity of
    /// finite arguments an overflow unless the base is zero (a pole); an
    /// infinite argument is never an error.
    Pow,
    /// Never an error (`atan2`, `hypot`, `copysign`, `fabs`).
    Never,
}

/// What a `math` function does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum MathFn {
    /// A float function of one argument, by its `postc.math` symbol.
    Float1(&'static str, Errors),
    /// A float function of two arguments, by its `postc.math` symbol.
    Float2(&'static str, Errors),
    /// `floor`, `ceil`, `trunc`: a Python int.
    ToInt(&'static str),
    /// `isclose(a, b)` with its default tolerances: a Python bool.
    IsClose,
    IsNan,
    IsInf,
    IsFinite,
    /// `gcd(a, b)` of integers: a Python int.
    Gcd,
}

/// The function `math.NAME`, if compiled code has it.
pub(crate) fn math_func(name: &str) -> Option<MathFn> {
    use Errors::*;
    use MathFn::*;
    Some(match name {
        "sqrt" => Float1("sqrt", Domain),
        "cbrt" => Float1("cbrt", Domain),
        "exp" => Float1("exp", Overflow),
        "exp2" => Float1("exp2", Overflow),
        "expm1" => Float1("expm1", Overflow),
        "log" => Float1("log", Domain),
        "log2" => Float1("log2", Domain),
        "log10" => Float1("log10", Domain),
        "log1p" => Float1("log1p", Domain),
        "sin" => Float1("sin", Domain),
        "cos" => Float1("cos", Domain),
        "tan" => Float1("tan", Domain),
        "asin" => Float1("asin", Domain),
        "acos" => Float1("acos", Domain),
        "atan" => Float1("atan", Domain),
        "sinh" => Float1("sinh", Overflow),
        "cosh" => Float1("cosh", Overflow),
        "tanh" => Float1("tanh", Domain),
        "asinh" => Float1("asinh", Domain),
        "acosh" => Float1("acosh", Domain),
        "atanh" => Float1("atanh", Domain),
        "erf" => Float1("erf", Domain),
        "erfc" => Float1("erfc", Domain),
        "gamma" => Float1("tgamma", Gamma),
        "lgamma" => Float1("lgamma", Gamma),
        "fabs" => Float1("fabs", Never),
        "atan2" => Float2("atan2", Never),
        "hypot" => Float2("hypot", Never),
        "copysign" => Float2("copysign", Never),
        "fmod" => Float2("fmod", Domain),
        "pow" => Float2("pow", Pow),
        "floor" => ToInt("floor"),
        "ceil" => ToInt("ceil"),
        "trunc" => ToInt("trunc"),
        "isnan" => IsNan,
        "isinf" => IsInf,
        "isfinite" => IsFinite,
        "isclose" => IsClose,
        "gcd" => Gcd,
        _ => return None,
    })
}

const DOMAIN_ERROR: &str = "ValueError: math domain error";
/// What compiled code raises where CPython would make a Python int beyond
/// Int64 of a float: CPython's (NumPy's) OverflowError when that int meets
/// the Int64 compiled code holds Python ints in, without the value.
pub(super) const BEYOND_INT64: &str = "OverflowError: Python integer out of bounds for int64";
const RANGE_ERROR: &str = "OverflowError: math range error";

impl<'a, 'c> FnLower<'a, 'c> {
    /// `math.NAME(args)`.
    pub(super) fn math_call(&mut self, f: MathFn, name: &str, c: &CallExpr) -> Val {
        let args = c.args;
        let mut vals = Vec::new();
        for &a in args {
            vals.push((self.expr(a), self.range(a)));
        }
        // Refused by the typecheck where it types the arguments.
        let (tys, reached) = types_before_error(vals.iter().map(|(v, _)| v));
        let tys: Vec<_> = tys.iter().map(Option::as_ref).collect();
        if let Some((site, message)) = typeck::math_error(f, name, args.len(), &tys) {
            let at = site.at(c.at, |i| vals[i].1);
            return self.err(&at, message);
        }
        if !reached {
            return Val::Err;
        }
        if f == MathFn::Gcd {
            return self.gcd_call(&vals, c.at);
        }
        // `floor`, `ceil` and `trunc` of a Python int or bool are its
        // value (their `__floor__`); NumPy's integers have none, so CPython
        // takes them through a float like any other number.
        if let (MathFn::ToInt(_), [(v, a)]) = (f, &vals[..]) {
            if v.scalar().is_some_and(|s| s.weak && matches!(kind(s.dtype), Kind::Int | Kind::Bool)) {
                let Some(n) = self.materialize(v, DType::Int64, a) else { return Val::Err };
                return Val::Num { v: n, s: Scalar::weak(DType::Int64), nonneg: v.nonneg() };
            }
        }
        // CPython converts every argument to a Python float (an int
        // exactly where it fits, else rounded once).
        let mut xs = Vec::new();
        for (v, a) in &vals {
            let Some(x) = self.materialize(v, DType::Float64, a) else { return Val::Err };
            xs.push(x);
        }
        self.at(&c.at);
        match f {
            MathFn::Float1(sym, errors) | MathFn::Float2(sym, errors) => {
                let r = self.math_intrinsic(sym, &xs);
                self.check_math_errors(errors, &xs, r, &c.at);
                Val::Num { v: r, s: Scalar::weak(DType::Float64), nonneg: false }
            }
            MathFn::ToInt(sym) => {
                // The intrinsic keeps NaN and the infinities, which the
                // conversion then refuses as CPython does.
                let r = self.math_intrinsic(sym, &xs);
                let v = self.python_int_of_float(r, &c.at);
                Val::Num { v, s: Scalar::weak(DType::Int64), nonneg: false }
            }
            MathFn::IsClose => {
                let v = self.is_close(xs[0], xs[1]);
                Val::Num { v, s: Scalar::weak(DType::Bool), nonneg: true }
            }
            MathFn::IsNan => {
                let v = self.result(Opcode::Ne, DType::Bool, xs[0], xs[0]);
                Val::Num { v, s: Scalar::weak(DType::Bool), nonneg: true }
            }
            MathFn::IsInf => {
                let v = self.magnitude_vs_infinity(Opcode::Eq, xs[0]);
                Val::Num { v, s: Scalar::weak(DType::Bool), nonneg: true }
            }
            MathFn::IsFinite => {
                let v = self.is_finite(xs[0]);
                Val::Num { v, s: Scalar::weak(DType::Bool), nonneg: true }
            }
            MathFn::Gcd => unreachable!("lowered by gcd_call"),
        }
    }

    /// The intrinsic `sym` of Float64 arguments, imported as `math.sym`.
    fn math_intrinsic(&mut self, sym: &str, xs: &[ValueId]) -> ValueId {
        self.math_imports.insert(sym.to_owned());
        let n = self.fresh(sym);
        self.b.call(&format!("math.{sym}"), xs, Some(TypeId::scalar(DType::Float64)), &n)
    }

    /// The Python int of the Float64 `x`, whose fraction is gone already
    /// (`math.floor`, `round`) or is dropped toward zero by the conversion
    /// (`int(x)`), as CPython makes it: `ValueError: cannot convert float
    /// NaN to integer` for NaN, `OverflowError: cannot convert float
    /// infinity to integer` for an infinity. A Python int of compiled code
    /// is an Int64, so where CPython would make a larger int the code
    /// panics with [`BEYOND_INT64`], located at `at`, rather than give a
    /// wrong value.
    pub(super) fn python_int_of_float(&mut self, x: ValueId, at: &impl Ranged) -> ValueId {
        self.at(at);
        let nan = self.result(Opcode::Ne, DType::Bool, x, x);
        let not_nan = self.negate(nan);
        self.panic_unless(not_nan, "ValueError: cannot convert float NaN to integer", at);
        let finite = self.is_finite(x);
        self.panic_unless(finite, "OverflowError: cannot convert float infinity to integer", at);
        // Int64 holds [-2**63, 2**63), both ends exact floats; no float
        // lies strictly between -2**63 - 1 and -2**63, so truncating what
        // passes also fits.
        let (lo, hi) = (self.float_const(-(2f64.powi(63))), self.float_const(2f64.powi(63)));
        let above = self.result(Opcode::Ge, DType::Bool, x, lo);
        let below = self.result(Opcode::Lt, DType::Bool, x, hi);
        let fits = self.result(Opcode::And, DType::Bool, above, below);
        self.panic_unless(fits, BEYOND_INT64, at);
        let n = self.fresh("int");
        self.b.cast(TypeId::INT64, x, &n)
    }

    /// `math.isclose(a, b)` with `rel_tol=1e-09, abs_tol=0.0`, as CPython
    /// computes it: equal values (infinities of one sign included) are
    /// close, other infinities are not, and otherwise `|b - a|` is at
    /// most `1e-09` times the larger magnitude. NaN is close to nothing.
    fn is_close(&mut self, a: ValueId, b: ValueId) -> ValueId {
        let equal = self.result(Opcode::Eq, DType::Bool, a, b);
        let d = self.fresh("diff");
        let diff = self.b.binary(Opcode::Sub, TypeId::scalar(DType::Float64), b, a, &d);
        let n = self.fresh("diff");
        let diff = self.b.unary(Opcode::Abs, TypeId::scalar(DType::Float64), diff, &n);
        let n = self.fresh("mag");
        let ma = self.b.unary(Opcode::Abs, TypeId::scalar(DType::Float64), a, &n);
        let n = self.fresh("mag");
        let mb = self.b.unary(Opcode::Abs, TypeId::scalar(DType::Float64), b, &n);
        let rel = self.float_const(1e-09);
        let n = self.fresh("tol");
        let ta = self.b.binary(Opcode::Mul, TypeId::scalar(DType::Float64), rel, ma, &n);
        let n = self.fresh("tol");
        let tb = self.b.binary(Opcode::Mul, TypeId::scalar(DType::Float64), rel, mb, &n);
        let within_a = self.result(Opcode::Le, DType::Bool, diff, ta);
        let within_b = self.result(Opcode::Le, DType::Bool, diff, tb);
        let within = self.result(Opcode::Or, DType::Bool, within_a, within_b);
        // Unequal with an infinity is never close (its tolerance would be
        // infinite too).
        let fa = self.is_finite(a);
        let fb = self.is_finite(b);
        let finite = self.result(Opcode::And, DType::Bool, fa, fb);
        let close = self.result(Opcode::And, DType::Bool, finite, within);
        self.result(Opcode::Or, DType::Bool, equal, close)
    }

    fn float_const(&mut self, x: f64) -> ValueId {
        let n = self.fresh("c");
        self.b.const_(TypeId::scalar(DType::Float64), Literal::Float(x.to_bits()), &n)
    }

    fn negate(&mut self, b: ValueId) -> ValueId {
        let n = self.fresh("not");
        self.b.unary(Opcode::Not, TypeId::BOOL, b, &n)
    }

    /// Whether a Float64 is neither infinite nor NaN.
    fn is_finite(&mut self, x: ValueId) -> ValueId {
        self.magnitude_vs_infinity(Opcode::Lt, x)
    }

    /// `|x| cmp inf`: false for NaN with `Eq` and `Lt` alike.
    fn magnitude_vs_infinity(&mut self, cmp: Opcode, x: ValueId) -> ValueId {
        let n = self.fresh("mag");
        let mag = self.b.unary(Opcode::Abs, TypeId::scalar(DType::Float64), x, &n);
        let inf = self.float_const(f64::INFINITY);
        self.result(cmp, DType::Bool, mag, inf)
    }

    /// Panics as CPython raises when `r`, the result of a `math` function
    /// of `xs`, is an error by `errors`' rule.
    fn check_math_errors(&mut self, errors: Errors, xs: &[ValueId], r: ValueId, at: &TextRange) {
        if errors == Errors::Never {
            return;
        }
        let mut all_finite = self.is_finite(xs[0]);
        let mut any_nan = self.result(Opcode::Ne, DType::Bool, xs[0], xs[0]);
        for &x in &xs[1..] {
            let finite = self.is_finite(x);
            all_finite = self.result(Opcode::And, DType::Bool, all_finite, finite);
            let nan = self.result(Opcode::Ne, DType::Bool, x, x);
            any_nan = self.result(Opcode::Or, DType::Bool, any_nan, nan);
        }
        // A NaN made of numbers: of finite ones for `pow` (an infinite
        // argument is never its error), of non-NaN ones elsewhere.
        let r_number = self.result(Opcode::Eq, DType::Bool, r, r);
        let excused = if errors == Errors::Pow { self.negate(all_finite) } else { any_nan };
        let ok = self.result(Opcode::Or, DType::Bool, r_number, excused);
        self.panic_unless(ok, DOMAIN_ERROR, at);
        // An infinity made of finite arguments.
        let r_finite = self.is_finite(r);
        let inputs_infinite = self.negate(all_finite);
        let no_infinity = self.result(Opcode::Or, DType::Bool, r_finite, inputs_infinite);
        match errors {
            Errors::Domain => self.panic_unless(no_infinity, DOMAIN_ERROR, at),
            Errors::Overflow => self.panic_unless(no_infinity, RANGE_ERROR, at),
            Errors::Gamma | Errors::Pow => {
                // The pole: a non-positive integer (`gamma`), a zero base
                // (`pow`); anything else that reaches infinity overflowed.
                let x = xs[0];
                let zero = self.float_const(0.0);
                let pole = if errors == Errors::Gamma {
                    let fl = self.math_intrinsic("floor", &[x]);
                    let integer = self.result(Opcode::Eq, DType::Bool, fl, x);
                    let nonpos = self.result(Opcode::Le, DType::Bool, x, zero);
                    self.result(Opcode::And, DType::Bool, integer, nonpos)
                } else {
                    self.result(Opcode::Eq, DType::Bool, x, zero)
                };
                let not_pole = self.negate(pole);
                let domain_ok = self.result(Opcode::Or, DType::Bool, no_infinity, not_pole);
                self.panic_unless(domain_ok, DOMAIN_ERROR, at);
                let range_ok = self.result(Opcode::Or, DType::Bool, no_infinity, pole);
                self.panic_unless(range_ok, RANGE_ERROR, at);
            }
            Errors::Never => {}
        }
    }
}

impl FnLower<'_, '_> {
    /// `math.gcd(a, b)` of integers (Python's or NumPy's, whose
    /// `__index__` CPython takes): the greatest common divisor of their
    /// magnitudes, a Python int (`gcd(0, 0)` is 0). Euclid's algorithm in
    /// UInt64, which holds `|-2**63|`; a result of 2**63 (only of -2**63
    /// and 0 or itself) is beyond Int64 and panics as such an int does.
    fn gcd_call(&mut self, vals: &[(Val, TextRange)], at: TextRange) -> Val {
        let mut magnitudes = Vec::new();
        // Integers (Python's or NumPy's), refused otherwise above.
        for (v, a) in vals {
            if v.scalar().is_some_and(|s| s.dtype == DType::UInt64) {
                let Some(x) = self.materialize(v, DType::UInt64, a) else { return Val::Err };
                magnitudes.push(x);
                continue;
            }
            let Some(x) = self.materialize(v, DType::Int64, a) else { return Val::Err };
            self.at(&at);
            // |x| = -(x + 1) + 1 for a negative x, so that -2**63 is not
            // negated in Int64.
            let zero = self.zero(DType::Int64);
            let minus_one = self.int_const(-1, &at);
            let neg = self.result(Opcode::Lt, DType::Bool, x, zero);
            let below = self.result(Opcode::Sub, DType::Int64, minus_one, x);
            let base = self.select_int(neg, below, x);
            let n = self.fresh("mag");
            let base = self.b.cast(TypeId::scalar(DType::UInt64), base, &n);
            let n = self.fresh("one");
            let one = self.b.int(TypeId::scalar(DType::UInt64), 1, &n);
            let n = self.fresh("zero");
            let nought = self.b.int(TypeId::scalar(DType::UInt64), 0, &n);
            let n = self.fresh("sel");
            let extra = self.b.select(TypeId::scalar(DType::UInt64), neg, one, nought, &n);
            magnitudes.push(self.result(Opcode::Add, DType::UInt64, base, extra));
        }
        let u = TypeId::scalar(DType::UInt64);
        let n = self.fresh("gcd.a");
        let a = self.b.let_(u, magnitudes[0], &n);
        let n = self.fresh("gcd.b");
        let b = self.b.let_(u, magnitudes[1], &n);
        let head = self.block("gcd");
        let step = self.block("gcd.step");
        let done = self.block("gcd.end");
        self.br(head);
        self.enter(head);
        let n = self.fresh("zero");
        let nought = self.b.int(u, 0, &n);
        let more = self.result(Opcode::Ne, DType::Bool, b, nought);
        self.b.condbr(more, step, done, None);
        self.open = false;
        self.enter(step);
        let r = self.result(Opcode::Rem, DType::UInt64, a, b);
        self.b.set(a, b);
        self.b.set(b, r);
        self.br(head);
        self.enter(done);
        let n = self.fresh("limit");
        let limit = self.b.int(u, i64::MAX as i128, &n);
        let fits = self.result(Opcode::Le, DType::Bool, a, limit);
        self.panic_unless(fits, BEYOND_INT64, &at);
        let n = self.fresh("gcd");
        let g = self.b.cast(TypeId::INT64, a, &n);
        Val::Num { v: g, s: Scalar::weak(DType::Int64), nonneg: true }
    }
}

/// The largest `|ndigits|` of `round(x, ndigits)` compiled: 10 to its
/// power is a double exactly.
pub(crate) const ROUND_DIGITS_MAX: i32 = 22;

impl FnLower<'_, '_> {
    /// `round(x, n)` of a Python float `x` and a constant `n` (|n| ≤
    /// [`ROUND_DIGITS_MAX`]): CPython's result, the double nearest to the
    /// decimal of `n` places nearest to `x` (halves to even, decided on
    /// `x`'s exact value, so `round(2.675, 2)` is 2.67: 2.675 is below
    /// the half).
    ///
    /// With `P = 10^|n|` exact, the scaled value `v = x·P` (or `x/P` for
    /// `n < 0`) is a double `p` and its exact error, found without a fused
    /// multiply-add by Dekker's product: `x·P - p` for `n ≥ 0`, the exact
    /// remainder `x - p·P` (whose sign is that of `v - p`) for `n < 0`.
    /// The integer `R` nearest to `v` is then `rint(p)`, except where `p`
    /// is a half (the error decides the side, or its absence the even
    /// one) or, from 2^52 up, an integer that the error moves by exactly
    /// a half. The result is `R/P` (or `R·P`), one correctly rounded
    /// operation, as CPython's conversion of the decimal back is. From
    /// `|v|` > 2^53 on the decimal keeps 16 significant digits or more
    /// and converts back to `x` itself, which is the result (NaN and the
    /// infinities too).
    pub(super) fn python_round_digits(&mut self, x: ValueId, n: i32) -> ValueId {
        use Opcode::*;
        let f = DType::Float64;
        let scale = 10f64.powi(n.abs());
        let big = self.float_const(9007199254740992.0); // 2^53
        let half = self.float_const(0.5);
        let one = self.float_const(1.0);
        let zero = self.float_const(0.0);
        let scale_c = self.float_const(scale);
        // `p` and what decides the side of `v` around it: `err`, whose
        // sign is that of `v - p`, and `err_half`, what `err` is where
        // `v - p` is exactly a half.
        let (p, err, err_half) = if n >= 0 {
            let p = self.result(Mul, f, x, scale_c);
            let e = self.two_product_error(x, scale, p);
            (p, e, half)
        } else {
            let q = self.result(Div, f, x, scale_c);
            let qp = self.result(Mul, f, q, scale_c);
            let lo = self.two_product_error(q, scale, qp);
            let hi_diff = self.result(Sub, f, x, qp);
            let rem = self.result(Sub, f, hi_diff, lo);
            (q, rem, self.float_const(scale / 2.0))
        };
        let r = self.math_intrinsic("rint", &[p]);
        let h = self.result(Sub, f, p, r);
        let err_pos = self.result(Gt, DType::Bool, err, zero);
        let err_neg = self.result(Lt, DType::Bool, err, zero);
        // `p` is a half above `r` (which is even): beyond it if `err > 0`.
        let r_up = self.result(Add, f, r, one);
        let r_down = self.result(Sub, f, r, one);
        let h_up = self.result(Eq, DType::Bool, h, half);
        let neg_half = self.float_const(-0.5);
        let h_down = self.result(Eq, DType::Bool, h, neg_half);
        // `p` is an integer (2^52 up) that `err` moves by exactly a half:
        // to the even of the two.
        let r_half = self.result(Mul, f, r, half);
        let r_half_floor = self.math_intrinsic("floor", &[r_half]);
        let odd = self.result(Ne, DType::Bool, r_half, r_half_floor);
        let err_neg_half = self.unary_float(Neg, err_half);
        let tie_up = self.result(Eq, DType::Bool, err, err_half);
        let tie_down = self.result(Eq, DType::Bool, err, err_neg_half);
        let odd_up = self.result(And, DType::Bool, odd, tie_up);
        let odd_down = self.result(And, DType::Bool, odd, tie_down);
        let up = {
            let a = self.result(And, DType::Bool, h_up, err_pos);
            self.result(Or, DType::Bool, a, odd_up)
        };
        let down = {
            let a = self.result(And, DType::Bool, h_down, err_neg);
            self.result(Or, DType::Bool, a, odd_down)
        };
        let rounded = self.select_float(down, r_down, r);
        let rounded = self.select_float(up, r_up, rounded);
        let back = self.result(if n >= 0 { Div } else { Mul }, f, rounded, scale_c);
        // `x` itself unless `|p| < 2^53`, or `p = ±2^53` and `v` is not
        // beyond it (NaN compares false: `x`).
        let mag = self.unary_float(Abs, p);
        let below = self.result(Lt, DType::Bool, mag, big);
        let at_big = self.result(Eq, DType::Bool, mag, big);
        let p_pos = self.result(Gt, DType::Bool, p, zero);
        let beyond_pos = self.result(And, DType::Bool, p_pos, err_pos);
        let p_neg = self.result(Lt, DType::Bool, p, zero);
        let beyond_neg = self.result(And, DType::Bool, p_neg, err_neg);
        let beyond = self.result(Or, DType::Bool, beyond_pos, beyond_neg);
        let not_beyond = self.negate(beyond);
        let at_not_beyond = self.result(And, DType::Bool, at_big, not_beyond);
        let computed = self.result(Or, DType::Bool, below, at_not_beyond);
        self.select_float(computed, back, x)
    }

    /// The exact error `a·b - ab` of the double product `ab` of `a` and the
    /// constant `b`, by Dekker's splitting (no fused multiply-add needed;
    /// exact while nothing overflows or underflows, which the callers'
    /// results do not depend on).
    fn two_product_error(&mut self, a: ValueId, b: f64, ab: ValueId) -> ValueId {
        use Opcode::*;
        let f = DType::Float64;
        // Veltkamp's split of `b`, here, and of `a`, in the code.
        let split = 134217729.0; // 2^27 + 1
        let cb = split * b;
        let (b_hi, b_lo) = (cb - (cb - b), b - (cb - (cb - b)));
        let k = self.float_const(split);
        let ca = self.result(Mul, f, k, a);
        let ca_a = self.result(Sub, f, ca, a);
        let a_hi = self.result(Sub, f, ca, ca_a);
        let a_lo = self.result(Sub, f, a, a_hi);
        let (bh, bl) = (self.float_const(b_hi), self.float_const(b_lo));
        let hh = self.result(Mul, f, a_hi, bh);
        let t = self.result(Sub, f, hh, ab);
        let hl = self.result(Mul, f, a_hi, bl);
        let t = self.result(Add, f, t, hl);
        let lh = self.result(Mul, f, a_lo, bh);
        let t = self.result(Add, f, t, lh);
        let ll = self.result(Mul, f, a_lo, bl);
        self.result(Add, f, t, ll)
    }

    fn select_float(&mut self, c: ValueId, t: ValueId, e: ValueId) -> ValueId {
        let n = self.fresh("sel");
        self.b.select(TypeId::scalar(DType::Float64), c, t, e, &n)
    }

    fn unary_float(&mut self, op: Opcode, x: ValueId) -> ValueId {
        let n = self.fresh("un");
        self.b.unary(op, TypeId::scalar(DType::Float64), x, &n)
    }
}
