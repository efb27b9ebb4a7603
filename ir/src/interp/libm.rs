//! erf, erfc, lgamma and tgamma in pure Rust, ported from the MIT-licensed
//! `libm` crate (rust-lang/libm), itself a port of FreeBSD msun and musl.
//! Each keeps the original's < 1 ulp accuracy for `f64`.

#![allow(clippy::all, unused_parens, unused_mut, unused_assignments, non_upper_case_globals)]

macro_rules! i {
    ($a:expr, $i:expr) => {
        $a[$i]
    };
}
macro_rules! div {
    ($a:expr, $b:expr) => {
        $a / $b
    };
}
macro_rules! force_eval {
    ($e:expr) => {
        let _ = $e;
    };
}

fn exp(x: f64) -> f64 {
    x.exp()
}
fn fabs(x: f64) -> f64 {
    x.abs()
}
fn floor(x: f64) -> f64 {
    x.floor()
}
fn log(x: f64) -> f64 {
    x.ln()
}
fn pow(x: f64, y: f64) -> f64 {
    x.powf(y)
}
fn get_high_word(x: f64) -> u32 {
    (x.to_bits() >> 32) as u32
}
fn with_set_low_word(f: f64, lo: u32) -> f64 {
    let mut tmp = f.to_bits();
    tmp &= 0xffffffff_00000000;
    tmp |= lo as u64;
    f64::from_bits(tmp)
}

// origin: FreeBSD /usr/src/lib/msun/src/k_sin.c
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

const S1: f64 = -1.66666666666666324348e-01; /* 0xBFC55555, 0x55555549 */
const S2: f64 = 8.33333333332248946124e-03; /* 0x3F811111, 0x1110F8A6 */
const S3: f64 = -1.98412698298579493134e-04; /* 0xBF2A01A0, 0x19C161D5 */
const S4: f64 = 2.75573137070700676789e-06; /* 0x3EC71DE3, 0x57B1FE7D */
const S5: f64 = -2.50507602534068634195e-08; /* 0xBE5AE5E6, 0x8A2B9CEB */
const S6: f64 = 1.58969099521155010221e-10; /* 0x3DE5D93A, 0x5ACFD57C */

// kernel sin function on ~[-pi/4, pi/4] (except on -0), pi/4 ~ 0.7854
// Input x is assumed to be bounded by ~pi/4 in magnitude.
// Input y is the tail of x.
// Input iy indicates whether y is 0. (if iy=0, y assume to be 0).
//
// Algorithm
//      1. Since sin(-x) = -sin(x), we need only to consider positive x.
//      2. Callers must return sin(-0) = -0 without calling here since our
//         odd polynomial is not evaluated in a way that preserves -0.
//         Callers may do the optimization sin(x) ~ x for tiny x.
//      3. sin(x) is approximated by a polynomial of degree 13 on
//         [0,pi/4]
//                               3            13
//              sin(x) ~ x + S1*x + ... + S6*x
//         where
//
//      |sin(x)         2     4     6     8     10     12  |     -58
//      |----- - (1+S1*x +S2*x +S3*x +S4*x +S5*x  +S6*x   )| <= 2
//      |  x                                               |
//
//      4. sin(x+y) = sin(x) + sin'(x')*y
//                  ~ sin(x) + (1-x*x/2)*y
//         For better accuracy, let
//                   3      2      2      2      2
//              r = x *(S2+x *(S3+x *(S4+x *(S5+x *S6))))
//         then                   3    2
//              sin(x) = x + (S1*x + (x *(r-y/2)+y))
fn k_sin(x: f64, y: f64, iy: i32) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    if iy == 0 {
        x + v * (S1 + z * r)
    } else {
        x - ((z * (0.5 * y - v * r) - y) - v * S1)
    }
}

// origin: FreeBSD /usr/src/lib/msun/src/k_cos.c
//
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//
// Developed at SunSoft, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice
// is preserved.
// ====================================================

const C1: f64 = 4.16666666666666019037e-02; /* 0x3FA55555, 0x5555554C */
const C2: f64 = -1.38888888888741095749e-03; /* 0xBF56C16C, 0x16C15177 */
const C3: f64 = 2.48015872894767294178e-05; /* 0x3EFA01A0, 0x19CB1590 */
const C4: f64 = -2.75573143513906633035e-07; /* 0xBE927E4F, 0x809C52AD */
const C5: f64 = 2.08757232129817482790e-09; /* 0x3E21EE9E, 0xBDB4B1C4 */
const C6: f64 = -1.13596475577881948265e-11; /* 0xBDA8FAE9, 0xBE8838D4 */

// kernel cos function on [-pi/4, pi/4], pi/4 ~ 0.785398164
// Input x is assumed to be bounded by ~pi/4 in magnitude.
// Input y is the tail of x.
//
// Algorithm
//      1. Since cos(-x) = cos(x), we need only to consider positive x.
//      2. if x < 2^-27 (hx<0x3e400000 0), return 1 with inexact if x!=0.
//      3. cos(x) is approximated by a polynomial of degree 14 on
//         [0,pi/4]
//                                       4            14
//              cos(x) ~ 1 - x*x/2 + C1*x + ... + C6*x
//         where the remez error is
//
//      |              2     4     6     8     10    12     14 |     -58
//      |cos(x)-(1-.5*x +C1*x +C2*x +C3*x +C4*x +C5*x  +C6*x  )| <= 2
//      |                                                      |
//
//                     4     6     8     10    12     14
//      4. let r = C1*x +C2*x +C3*x +C4*x +C5*x  +C6*x  , then
//             cos(x) ~ 1 - x*x/2 + r
//         since cos(x+y) ~ cos(x) - sin(x)*y
//                        ~ cos(x) - x*y,
//         a correction term is necessary in cos(x) and hence
//              cos(x+y) = 1 - (x*x/2 - (r - x*y))
//         For better accuracy, rearrange to
//              cos(x+y) ~ w + (tmp + (r-x*y))
//         where w = 1 - x*x/2 and tmp is a tiny correction term
//         (1 - x*x/2 == w + tmp exactly in infinite precision).
//         The exactness of w + tmp in infinite precision depends on w
//         and tmp having the same precision as x.  If they have extra
//         precision due to compiler bugs, then the extra precision is
//         only good provided it is retained in all terms of the final
//         expression for cos().  Retention happens in all cases tested
//         under FreeBSD, so don't pessimize things by forcibly clipping
//         any extra precision in w.
fn k_cos(x: f64, y: f64) -> f64 {
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

mod m_erf {
    #[allow(unused_imports)]
    use super::*;
    use super::{exp, fabs, get_high_word, with_set_low_word};
    /* origin: FreeBSD /usr/src/lib/msun/src/s_erf.c */
    /*
     * ====================================================
     * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
     *
     * Developed at SunPro, a Sun Microsystems, Inc. business.
     * Permission to use, copy, modify, and distribute this
     * software is freely granted, provided that this notice
     * is preserved.
     * ====================================================
     */
    /* double erf(double x)
     * double erfc(double x)
     *                           x
     *                    2      |\
     *     erf(x)  =  ---------  | exp(-t*t)dt
     *                 sqrt(pi) \|
     *                           0
     *
     *     erfc(x) =  1-erf(x)
     *  Note that
     *              erf(-x) = -erf(x)
     *              erfc(-x) = 2 - erfc(x)
     *
     * Method:
     *      1. For |x| in [0, 0.84375]
     *          erf(x)  = x + x*R(x^2)
     *          erfc(x) = 1 - erf(x)           if x in [-.84375,0.25]
     *                  = 0.5 + ((0.5-x)-x*R)  if x in [0.25,0.84375]
     *         where R = P/Q where P is an odd poly of degree 8 and
     *         Q is an odd poly of degree 10.
     *                                               -57.90
     *                      | R - (erf(x)-x)/x | <= 2
     *
     *
     *         Remark. The formula is derived by noting
     *          erf(x) = (2/sqrt(pi))*(x - x^3/3 + x^5/10 - x^7/42 + ....)
     *         and that
     *          2/sqrt(pi) = 1.128379167095512573896158903121545171688
     *         is close to one. The interval is chosen because the fix
     *         point of erf(x) is near 0.6174 (i.e., erf(x)=x when x is
     *         near 0.6174), and by some experiment, 0.84375 is chosen to
     *         guarantee the error is less than one ulp for erf.
     *
     *      2. For |x| in [0.84375,1.25], let s = |x| - 1, and
     *         c = 0.84506291151 rounded to single (24 bits)
     *              erf(x)  = sign(x) * (c  + P1(s)/Q1(s))
     *              erfc(x) = (1-c)  - P1(s)/Q1(s) if x > 0
     *                        1+(c+P1(s)/Q1(s))    if x < 0
     *              |P1/Q1 - (erf(|x|)-c)| <= 2**-59.06
     *         Remark: here we use the taylor series expansion at x=1.
     *              erf(1+s) = erf(1) + s*Poly(s)
     *                       = 0.845.. + P1(s)/Q1(s)
     *         That is, we use rational approximation to approximate
     *                      erf(1+s) - (c = (single)0.84506291151)
     *         Note that |P1/Q1|< 0.078 for x in [0.84375,1.25]
     *         where
     *              P1(s) = degree 6 poly in s
     *              Q1(s) = degree 6 poly in s
     *
     *      3. For x in [1.25,1/0.35(~2.857143)],
     *              erfc(x) = (1/x)*exp(-x*x-0.5625+R1/S1)
     *              erf(x)  = 1 - erfc(x)
     *         where
     *              R1(z) = degree 7 poly in z, (z=1/x^2)
     *              S1(z) = degree 8 poly in z
     *
     *      4. For x in [1/0.35,28]
     *              erfc(x) = (1/x)*exp(-x*x-0.5625+R2/S2) if x > 0
     *                      = 2.0 - (1/x)*exp(-x*x-0.5625+R2/S2) if -6<x<0
     *                      = 2.0 - tiny            (if x <= -6)
     *              erf(x)  = sign(x)*(1.0 - erfc(x)) if x < 6, else
     *              erf(x)  = sign(x)*(1.0 - tiny)
     *         where
     *              R2(z) = degree 6 poly in z, (z=1/x^2)
     *              S2(z) = degree 7 poly in z
     *
     *      Note1:
     *         To compute exp(-x*x-0.5625+R/S), let s be a single
     *         precision number and s := x; then
     *              -x*x = -s*s + (s-x)*(s+x)
     *              exp(-x*x-0.5626+R/S) =
     *                      exp(-s*s-0.5625)*exp((s-x)*(s+x)+R/S);
     *      Note2:
     *         Here 4 and 5 make use of the asymptotic series
     *                        exp(-x*x)
     *              erfc(x) ~ ---------- * ( 1 + Poly(1/x^2) )
     *                        x*sqrt(pi)
     *         We use rational approximation to approximate
     *              g(s)=f(1/x^2) = log(erfc(x)*x) - x*x + 0.5625
     *         Here is the error bound for R1/S1 and R2/S2
     *              |R1/S1 - f(x)|  < 2**(-62.57)
     *              |R2/S2 - f(x)|  < 2**(-61.52)
     *
     *      5. For inf > x >= 28
     *              erf(x)  = sign(x) *(1 - tiny)  (raise inexact)
     *              erfc(x) = tiny*tiny (raise underflow) if x > 0
     *                      = 2 - tiny if x<0
     *
     *      7. Special case:
     *              erf(0)  = 0, erf(inf)  = 1, erf(-inf) = -1,
     *              erfc(0) = 1, erfc(inf) = 0, erfc(-inf) = 2,
     *              erfc/erf(NaN) is NaN
     */

    const ERX: f64 = 8.45062911510467529297e-01; /* 0x3FEB0AC1, 0x60000000 */
    /*
     * Coefficients for approximation to  erf on [0,0.84375]
     */
    const EFX8: f64 = 1.02703333676410069053e+00; /* 0x3FF06EBA, 0x8214DB69 */
    const PP0: f64 = 1.28379167095512558561e-01; /* 0x3FC06EBA, 0x8214DB68 */
    const PP1: f64 = -3.25042107247001499370e-01; /* 0xBFD4CD7D, 0x691CB913 */
    const PP2: f64 = -2.84817495755985104766e-02; /* 0xBF9D2A51, 0xDBD7194F */
    const PP3: f64 = -5.77027029648944159157e-03; /* 0xBF77A291, 0x236668E4 */
    const PP4: f64 = -2.37630166566501626084e-05; /* 0xBEF8EAD6, 0x120016AC */
    const QQ1: f64 = 3.97917223959155352819e-01; /* 0x3FD97779, 0xCDDADC09 */
    const QQ2: f64 = 6.50222499887672944485e-02; /* 0x3FB0A54C, 0x5536CEBA */
    const QQ3: f64 = 5.08130628187576562776e-03; /* 0x3F74D022, 0xC4D36B0F */
    const QQ4: f64 = 1.32494738004321644526e-04; /* 0x3F215DC9, 0x221C1A10 */
    const QQ5: f64 = -3.96022827877536812320e-06; /* 0xBED09C43, 0x42A26120 */
    /*
     * Coefficients for approximation to  erf  in [0.84375,1.25]
     */
    const PA0: f64 = -2.36211856075265944077e-03; /* 0xBF6359B8, 0xBEF77538 */
    const PA1: f64 = 4.14856118683748331666e-01; /* 0x3FDA8D00, 0xAD92B34D */
    const PA2: f64 = -3.72207876035701323847e-01; /* 0xBFD7D240, 0xFBB8C3F1 */
    const PA3: f64 = 3.18346619901161753674e-01; /* 0x3FD45FCA, 0x805120E4 */
    const PA4: f64 = -1.10894694282396677476e-01; /* 0xBFBC6398, 0x3D3E28EC */
    const PA5: f64 = 3.54783043256182359371e-02; /* 0x3FA22A36, 0x599795EB */
    const PA6: f64 = -2.16637559486879084300e-03; /* 0xBF61BF38, 0x0A96073F */
    const QA1: f64 = 1.06420880400844228286e-01; /* 0x3FBB3E66, 0x18EEE323 */
    const QA2: f64 = 5.40397917702171048937e-01; /* 0x3FE14AF0, 0x92EB6F33 */
    const QA3: f64 = 7.18286544141962662868e-02; /* 0x3FB2635C, 0xD99FE9A7 */
    const QA4: f64 = 1.26171219808761642112e-01; /* 0x3FC02660, 0xE763351F */
    const QA5: f64 = 1.36370839120290507362e-02; /* 0x3F8BEDC2, 0x6B51DD1C */
    const QA6: f64 = 1.19844998467991074170e-02; /* 0x3F888B54, 0x5735151D */
    /*
     * Coefficients for approximation to  erfc in [1.25,1/0.35]
     */
    const RA0: f64 = -9.86494403484714822705e-03; /* 0xBF843412, 0x600D6435 */
    const RA1: f64 = -6.93858572707181764372e-01; /* 0xBFE63416, 0xE4BA7360 */
    const RA2: f64 = -1.05586262253232909814e+01; /* 0xC0251E04, 0x41B0E726 */
    const RA3: f64 = -6.23753324503260060396e+01; /* 0xC04F300A, 0xE4CBA38D */
    const RA4: f64 = -1.62396669462573470355e+02; /* 0xC0644CB1, 0x84282266 */
    const RA5: f64 = -1.84605092906711035994e+02; /* 0xC067135C, 0xEBCCABB2 */
    const RA6: f64 = -8.12874355063065934246e+01; /* 0xC0545265, 0x57E4D2F2 */
    const RA7: f64 = -9.81432934416914548592e+00; /* 0xC023A0EF, 0xC69AC25C */
    const SA1: f64 = 1.96512716674392571292e+01; /* 0x4033A6B9, 0xBD707687 */
    const SA2: f64 = 1.37657754143519042600e+02; /* 0x4061350C, 0x526AE721 */
    const SA3: f64 = 4.34565877475229228821e+02; /* 0x407B290D, 0xD58A1A71 */
    const SA4: f64 = 6.45387271733267880336e+02; /* 0x40842B19, 0x21EC2868 */
    const SA5: f64 = 4.29008140027567833386e+02; /* 0x407AD021, 0x57700314 */
    const SA6: f64 = 1.08635005541779435134e+02; /* 0x405B28A3, 0xEE48AE2C */
    const SA7: f64 = 6.57024977031928170135e+00; /* 0x401A47EF, 0x8E484A93 */
    const SA8: f64 = -6.04244152148580987438e-02; /* 0xBFAEEFF2, 0xEE749A62 */
    /*
     * Coefficients for approximation to  erfc in [1/.35,28]
     */
    const RB0: f64 = -9.86494292470009928597e-03; /* 0xBF843412, 0x39E86F4A */
    const RB1: f64 = -7.99283237680523006574e-01; /* 0xBFE993BA, 0x70C285DE */
    const RB2: f64 = -1.77579549177547519889e+01; /* 0xC031C209, 0x555F995A */
    const RB3: f64 = -1.60636384855821916062e+02; /* 0xC064145D, 0x43C5ED98 */
    const RB4: f64 = -6.37566443368389627722e+02; /* 0xC083EC88, 0x1375F228 */
    const RB5: f64 = -1.02509513161107724954e+03; /* 0xC0900461, 0x6A2E5992 */
    const RB6: f64 = -4.83519191608651397019e+02; /* 0xC07E384E, 0x9BDC383F */
    const SB1: f64 = 3.03380607434824582924e+01; /* 0x403E568B, 0x261D5190 */
    const SB2: f64 = 3.25792512996573918826e+02; /* 0x40745CAE, 0x221B9F0A */
    const SB3: f64 = 1.53672958608443695994e+03; /* 0x409802EB, 0x189D5118 */
    const SB4: f64 = 3.19985821950859553908e+03; /* 0x40A8FFB7, 0x688C246A */
    const SB5: f64 = 2.55305040643316442583e+03; /* 0x40A3F219, 0xCEDF3BE6 */
    const SB6: f64 = 4.74528541206955367215e+02; /* 0x407DA874, 0xE79FE763 */
    const SB7: f64 = -2.24409524465858183362e+01; /* 0xC03670E2, 0x42712D62 */

    fn erfc1(x: f64) -> f64 {
        let s: f64;
        let p: f64;
        let q: f64;

        s = fabs(x) - 1.0;
        p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
        q = 1.0 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));

        1.0 - ERX - p / q
    }

    fn erfc2(ix: u32, mut x: f64) -> f64 {
        let s: f64;
        let r: f64;
        let big_s: f64;
        let z: f64;

        if ix < 0x3ff40000 {
            /* |x| < 1.25 */
            return erfc1(x);
        }

        x = fabs(x);
        s = 1.0 / (x * x);
        if ix < 0x4006db6d {
            /* |x| < 1/.35 ~ 2.85714 */
            r = RA0 + s * (RA1 + s * (RA2 + s * (RA3 + s * (RA4 + s * (RA5 + s * (RA6 + s * RA7))))));
            big_s = 1.0 + s * (SA1 + s * (SA2 + s * (SA3 + s * (SA4 + s * (SA5 + s * (SA6 + s * (SA7 + s * SA8)))))));
        } else {
            /* |x| > 1/.35 */
            r = RB0 + s * (RB1 + s * (RB2 + s * (RB3 + s * (RB4 + s * (RB5 + s * RB6)))));
            big_s = 1.0 + s * (SB1 + s * (SB2 + s * (SB3 + s * (SB4 + s * (SB5 + s * (SB6 + s * SB7))))));
        }
        z = with_set_low_word(x, 0);

        exp(-z * z - 0.5625) * exp((z - x) * (z + x) + r / big_s) / x
    }

    /// Error function (f64)
    ///
    /// Calculates an approximation to the “error function”, which estimates
    /// the probability that an observation will fall within x standard
    /// deviations of the mean (assuming a normal distribution).
    pub fn erf(x: f64) -> f64 {
        let r: f64;
        let s: f64;
        let z: f64;
        let y: f64;
        let mut ix: u32;
        let sign: usize;

        ix = get_high_word(x);
        sign = (ix >> 31) as usize;
        ix &= 0x7fffffff;
        if ix >= 0x7ff00000 {
            /* erf(nan)=nan, erf(+-inf)=+-1 */
            return 1.0 - 2.0 * (sign as f64) + 1.0 / x;
        }
        if ix < 0x3feb0000 {
            /* |x| < 0.84375 */
            if ix < 0x3e300000 {
                /* |x| < 2**-28 */
                /* avoid underflow */
                return 0.125 * (8.0 * x + EFX8 * x);
            }
            z = x * x;
            r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
            s = 1.0 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
            y = r / s;
            return x + x * y;
        }
        if ix < 0x40180000 {
            /* 0.84375 <= |x| < 6 */
            y = 1.0 - erfc2(ix, x);
        } else {
            let x1p_1022 = f64::from_bits(0x0010000000000000);
            y = 1.0 - x1p_1022;
        }

        if sign != 0 {
            -y
        } else {
            y
        }
    }

    /// Complementary error function (f64)
    ///
    /// Calculates the complementary probability.
    /// Is `1 - erf(x)`. Is computed directly, so that you can use it to avoid
    /// the loss of precision that would result from subtracting
    /// large probabilities (on large `x`) from 1.
    pub fn erfc(x: f64) -> f64 {
        let r: f64;
        let s: f64;
        let z: f64;
        let y: f64;
        let mut ix: u32;
        let sign: usize;

        ix = get_high_word(x);
        sign = (ix >> 31) as usize;
        ix &= 0x7fffffff;
        if ix >= 0x7ff00000 {
            /* erfc(nan)=nan, erfc(+-inf)=0,2 */
            return 2.0 * (sign as f64) + 1.0 / x;
        }
        if ix < 0x3feb0000 {
            /* |x| < 0.84375 */
            if ix < 0x3c700000 {
                /* |x| < 2**-56 */
                return 1.0 - x;
            }
            z = x * x;
            r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
            s = 1.0 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
            y = r / s;
            if sign != 0 || ix < 0x3fd00000 {
                /* x < 1/4 */
                return 1.0 - (x + x * y);
            }
            return 0.5 - (x - 0.5 + x * y);
        }
        if ix < 0x403c0000 {
            /* 0.84375 <= |x| < 28 */
            if sign != 0 {
                return 2.0 - erfc2(ix, x);
            } else {
                return erfc2(ix, x);
            }
        }

        let x1p_1022 = f64::from_bits(0x0010000000000000);
        if sign != 0 {
            2.0 - x1p_1022
        } else {
            x1p_1022 * x1p_1022
        }
    }
}
pub use m_erf::*;
mod m_lgamma_r {
    /* origin: FreeBSD /usr/src/lib/msun/src/e_lgamma_r.c */
    /*
     * ====================================================
     * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
     *
     * Developed at SunSoft, a Sun Microsystems, Inc. business.
     * Permission to use, copy, modify, and distribute this
     * software is freely granted, provided that this notice
     * is preserved.
     * ====================================================
     *
     */
    /* lgamma_r(x, signgamp)
     * Reentrant version of the logarithm of the Gamma function
     * with user provide pointer for the sign of Gamma(x).
     *
     * Method:
     *   1. Argument Reduction for 0 < x <= 8
     *      Since gamma(1+s)=s*gamma(s), for x in [0,8], we may
     *      reduce x to a number in [1.5,2.5] by
     *              lgamma(1+s) = log(s) + lgamma(s)
     *      for example,
     *              lgamma(7.3) = log(6.3) + lgamma(6.3)
     *                          = log(6.3*5.3) + lgamma(5.3)
     *                          = log(6.3*5.3*4.3*3.3*2.3) + lgamma(2.3)
     *   2. Polynomial approximation of lgamma around its
     *      minimun ymin=1.461632144968362245 to maintain monotonicity.
     *      On [ymin-0.23, ymin+0.27] (i.e., [1.23164,1.73163]), use
     *              Let z = x-ymin;
     *              lgamma(x) = -1.214862905358496078218 + z^2*poly(z)
     *      where
     *              poly(z) is a 14 degree polynomial.
     *   2. Rational approximation in the primary interval [2,3]
     *      We use the following approximation:
     *              s = x-2.0;
     *              lgamma(x) = 0.5*s + s*P(s)/Q(s)
     *      with accuracy
     *              |P/Q - (lgamma(x)-0.5s)| < 2**-61.71
     *      Our algorithms are based on the following observation
     *
     *                             zeta(2)-1    2    zeta(3)-1    3
     * lgamma(2+s) = s*(1-Euler) + --------- * s  -  --------- * s  + ...
     *                                 2                 3
     *
     *      where Euler = 0.5771... is the Euler constant, which is very
     *      close to 0.5.
     *
     *   3. For x>=8, we have
     *      lgamma(x)~(x-0.5)log(x)-x+0.5*log(2pi)+1/(12x)-1/(360x**3)+....
     *      (better formula:
     *         lgamma(x)~(x-0.5)*(log(x)-1)-.5*(log(2pi)-1) + ...)
     *      Let z = 1/x, then we approximation
     *              f(z) = lgamma(x) - (x-0.5)(log(x)-1)
     *      by
     *                                  3       5             11
     *              w = w0 + w1*z + w2*z  + w3*z  + ... + w6*z
     *      where
     *              |w - f(z)| < 2**-58.74
     *
     *   4. For negative x, since (G is gamma function)
     *              -x*G(-x)*G(x) = PI/sin(PI*x),
     *      we have
     *              G(x) = PI/(sin(PI*x)*(-x)*G(-x))
     *      since G(-x) is positive, sign(G(x)) = sign(sin(PI*x)) for x<0
     *      Hence, for x<0, signgam = sign(sin(PI*x)) and
     *              lgamma(x) = log(|Gamma(x)|)
     *                        = log(PI/(|x*sin(PI*x)|)) - lgamma(-x);
     *      Note: one should avoid compute PI*(-x) directly in the
     *            computation of sin(PI*(-x)).
     *
     *   5. Special Cases
     *              lgamma(2+s) ~ s*(1-Euler) for tiny s
     *              lgamma(1) = lgamma(2) = 0
     *              lgamma(x) ~ -log(|x|) for tiny x
     *              lgamma(0) = lgamma(neg.integer) = inf and raise divide-by-zero
     *              lgamma(inf) = inf
     *              lgamma(-inf) = inf (bug for bug compatible with C99!?)
     *
     */

    #[allow(unused_imports)]
    use super::*;
    use super::{floor, k_cos, k_sin, log};

    const PI: f64 = 3.14159265358979311600e+00; /* 0x400921FB, 0x54442D18 */
    const A0: f64 = 7.72156649015328655494e-02; /* 0x3FB3C467, 0xE37DB0C8 */
    const A1: f64 = 3.22467033424113591611e-01; /* 0x3FD4A34C, 0xC4A60FAD */
    const A2: f64 = 6.73523010531292681824e-02; /* 0x3FB13E00, 0x1A5562A7 */
    const A3: f64 = 2.05808084325167332806e-02; /* 0x3F951322, 0xAC92547B */
    const A4: f64 = 7.38555086081402883957e-03; /* 0x3F7E404F, 0xB68FEFE8 */
    const A5: f64 = 2.89051383673415629091e-03; /* 0x3F67ADD8, 0xCCB7926B */
    const A6: f64 = 1.19270763183362067845e-03; /* 0x3F538A94, 0x116F3F5D */
    const A7: f64 = 5.10069792153511336608e-04; /* 0x3F40B6C6, 0x89B99C00 */
    const A8: f64 = 2.20862790713908385557e-04; /* 0x3F2CF2EC, 0xED10E54D */
    const A9: f64 = 1.08011567247583939954e-04; /* 0x3F1C5088, 0x987DFB07 */
    const A10: f64 = 2.52144565451257326939e-05; /* 0x3EFA7074, 0x428CFA52 */
    const A11: f64 = 4.48640949618915160150e-05; /* 0x3F07858E, 0x90A45837 */
    const TC: f64 = 1.46163214496836224576e+00; /* 0x3FF762D8, 0x6356BE3F */
    const TF: f64 = -1.21486290535849611461e-01; /* 0xBFBF19B9, 0xBCC38A42 */
    /* tt = -(tail of TF) */
    const TT: f64 = -3.63867699703950536541e-18; /* 0xBC50C7CA, 0xA48A971F */
    const T0: f64 = 4.83836122723810047042e-01; /* 0x3FDEF72B, 0xC8EE38A2 */
    const T1: f64 = -1.47587722994593911752e-01; /* 0xBFC2E427, 0x8DC6C509 */
    const T2: f64 = 6.46249402391333854778e-02; /* 0x3FB08B42, 0x94D5419B */
    const T3: f64 = -3.27885410759859649565e-02; /* 0xBFA0C9A8, 0xDF35B713 */
    const T4: f64 = 1.79706750811820387126e-02; /* 0x3F9266E7, 0x970AF9EC */
    const T5: f64 = -1.03142241298341437450e-02; /* 0xBF851F9F, 0xBA91EC6A */
    const T6: f64 = 6.10053870246291332635e-03; /* 0x3F78FCE0, 0xE370E344 */
    const T7: f64 = -3.68452016781138256760e-03; /* 0xBF6E2EFF, 0xB3E914D7 */
    const T8: f64 = 2.25964780900612472250e-03; /* 0x3F6282D3, 0x2E15C915 */
    const T9: f64 = -1.40346469989232843813e-03; /* 0xBF56FE8E, 0xBF2D1AF1 */
    const T10: f64 = 8.81081882437654011382e-04; /* 0x3F4CDF0C, 0xEF61A8E9 */
    const T11: f64 = -5.38595305356740546715e-04; /* 0xBF41A610, 0x9C73E0EC */
    const T12: f64 = 3.15632070903625950361e-04; /* 0x3F34AF6D, 0x6C0EBBF7 */
    const T13: f64 = -3.12754168375120860518e-04; /* 0xBF347F24, 0xECC38C38 */
    const T14: f64 = 3.35529192635519073543e-04; /* 0x3F35FD3E, 0xE8C2D3F4 */
    const U0: f64 = -7.72156649015328655494e-02; /* 0xBFB3C467, 0xE37DB0C8 */
    const U1: f64 = 6.32827064025093366517e-01; /* 0x3FE4401E, 0x8B005DFF */
    const U2: f64 = 1.45492250137234768737e+00; /* 0x3FF7475C, 0xD119BD6F */
    const U3: f64 = 9.77717527963372745603e-01; /* 0x3FEF4976, 0x44EA8450 */
    const U4: f64 = 2.28963728064692451092e-01; /* 0x3FCD4EAE, 0xF6010924 */
    const U5: f64 = 1.33810918536787660377e-02; /* 0x3F8B678B, 0xBF2BAB09 */
    const V1: f64 = 2.45597793713041134822e+00; /* 0x4003A5D7, 0xC2BD619C */
    const V2: f64 = 2.12848976379893395361e+00; /* 0x40010725, 0xA42B18F5 */
    const V3: f64 = 7.69285150456672783825e-01; /* 0x3FE89DFB, 0xE45050AF */
    const V4: f64 = 1.04222645593369134254e-01; /* 0x3FBAAE55, 0xD6537C88 */
    const V5: f64 = 3.21709242282423911810e-03; /* 0x3F6A5ABB, 0x57D0CF61 */
    const S0: f64 = -7.72156649015328655494e-02; /* 0xBFB3C467, 0xE37DB0C8 */
    const S1: f64 = 2.14982415960608852501e-01; /* 0x3FCB848B, 0x36E20878 */
    const S2: f64 = 3.25778796408930981787e-01; /* 0x3FD4D98F, 0x4F139F59 */
    const S3: f64 = 1.46350472652464452805e-01; /* 0x3FC2BB9C, 0xBEE5F2F7 */
    const S4: f64 = 2.66422703033638609560e-02; /* 0x3F9B481C, 0x7E939961 */
    const S5: f64 = 1.84028451407337715652e-03; /* 0x3F5E26B6, 0x7368F239 */
    const S6: f64 = 3.19475326584100867617e-05; /* 0x3F00BFEC, 0xDD17E945 */
    const R1: f64 = 1.39200533467621045958e+00; /* 0x3FF645A7, 0x62C4AB74 */
    const R2: f64 = 7.21935547567138069525e-01; /* 0x3FE71A18, 0x93D3DCDC */
    const R3: f64 = 1.71933865632803078993e-01; /* 0x3FC601ED, 0xCCFBDF27 */
    const R4: f64 = 1.86459191715652901344e-02; /* 0x3F9317EA, 0x742ED475 */
    const R5: f64 = 7.77942496381893596434e-04; /* 0x3F497DDA, 0xCA41A95B */
    const R6: f64 = 7.32668430744625636189e-06; /* 0x3EDEBAF7, 0xA5B38140 */
    const W0: f64 = 4.18938533204672725052e-01; /* 0x3FDACFE3, 0x90C97D69 */
    const W1: f64 = 8.33333333333329678849e-02; /* 0x3FB55555, 0x5555553B */
    const W2: f64 = -2.77777777728775536470e-03; /* 0xBF66C16C, 0x16B02E5C */
    const W3: f64 = 7.93650558643019558500e-04; /* 0x3F4A019F, 0x98CF38B6 */
    const W4: f64 = -5.95187557450339963135e-04; /* 0xBF4380CB, 0x8C0FE741 */
    const W5: f64 = 8.36339918996282139126e-04; /* 0x3F4B67BA, 0x4CDAD5D1 */
    const W6: f64 = -1.63092934096575273989e-03; /* 0xBF5AB89D, 0x0B9E43E4 */

    /* sin(PI*x) assuming x > 2^-100, if sin(PI*x)==0 the sign is arbitrary */
    fn sin_pi(mut x: f64) -> f64 {
        let mut n: i32;

        /* spurious inexact if odd int */
        x = 2.0 * (x * 0.5 - floor(x * 0.5)); /* x mod 2.0 */

        n = (x * 4.0) as i32;
        n = div!(n + 1, 2);
        x -= (n as f64) * 0.5;
        x *= PI;

        match n {
            1 => k_cos(x, 0.0),
            2 => k_sin(-x, 0.0, 0),
            3 => -k_cos(x, 0.0),
            // 0
            _ => k_sin(x, 0.0, 0),
        }
    }

    pub fn lgamma_r(mut x: f64) -> (f64, i32) {
        let u: u64 = x.to_bits();
        let mut t: f64;
        let y: f64;
        let mut z: f64;
        let nadj: f64;
        let p: f64;
        let p1: f64;
        let p2: f64;
        let p3: f64;
        let q: f64;
        let mut r: f64;
        let w: f64;
        let ix: u32;
        let sign: bool;
        let i: i32;
        let mut signgam: i32;

        /* purge off +-inf, NaN, +-0, tiny and negative arguments */
        signgam = 1;
        sign = (u >> 63) != 0;
        ix = ((u >> 32) as u32) & 0x7fffffff;
        if ix >= 0x7ff00000 {
            return (x * x, signgam);
        }
        if ix < (0x3ff - 70) << 20 {
            /* |x|<2**-70, return -log(|x|) */
            if sign {
                x = -x;
                signgam = -1;
            }
            return (-log(x), signgam);
        }
        if sign {
            x = -x;
            t = sin_pi(x);
            if t == 0.0 {
                /* -integer */
                return (1.0 / (x - x), signgam);
            }
            if t > 0.0 {
                signgam = -1;
            } else {
                t = -t;
            }
            nadj = log(PI / (t * x));
        } else {
            nadj = 0.0;
        }

        /* purge off 1 and 2 */
        if (ix == 0x3ff00000 || ix == 0x40000000) && (u & 0xffffffff) == 0 {
            r = 0.0;
        }
        /* for x < 2.0 */
        else if ix < 0x40000000 {
            if ix <= 0x3feccccc {
                /* lgamma(x) = lgamma(x+1)-log(x) */
                r = -log(x);
                if ix >= 0x3FE76944 {
                    y = 1.0 - x;
                    i = 0;
                } else if ix >= 0x3FCDA661 {
                    y = x - (TC - 1.0);
                    i = 1;
                } else {
                    y = x;
                    i = 2;
                }
            } else {
                r = 0.0;
                if ix >= 0x3FFBB4C3 {
                    /* [1.7316,2] */
                    y = 2.0 - x;
                    i = 0;
                } else if ix >= 0x3FF3B4C4 {
                    /* [1.23,1.73] */
                    y = x - TC;
                    i = 1;
                } else {
                    y = x - 1.0;
                    i = 2;
                }
            }
            match i {
                0 => {
                    z = y * y;
                    p1 = A0 + z * (A2 + z * (A4 + z * (A6 + z * (A8 + z * A10))));
                    p2 = z * (A1 + z * (A3 + z * (A5 + z * (A7 + z * (A9 + z * A11)))));
                    p = y * p1 + p2;
                    r += p - 0.5 * y;
                }
                1 => {
                    z = y * y;
                    w = z * y;
                    p1 = T0 + w * (T3 + w * (T6 + w * (T9 + w * T12))); /* parallel comp */
                    p2 = T1 + w * (T4 + w * (T7 + w * (T10 + w * T13)));
                    p3 = T2 + w * (T5 + w * (T8 + w * (T11 + w * T14)));
                    p = z * p1 - (TT - w * (p2 + y * p3));
                    r += TF + p;
                }
                2 => {
                    p1 = y * (U0 + y * (U1 + y * (U2 + y * (U3 + y * (U4 + y * U5)))));
                    p2 = 1.0 + y * (V1 + y * (V2 + y * (V3 + y * (V4 + y * V5))));
                    r += -0.5 * y + p1 / p2;
                }
                #[cfg(debug_assertions)]
                _ => unreachable!(),
                #[cfg(not(debug_assertions))]
                _ => {}
            }
        } else if ix < 0x40200000 {
            /* x < 8.0 */
            i = x as i32;
            y = x - (i as f64);
            p = y * (S0 + y * (S1 + y * (S2 + y * (S3 + y * (S4 + y * (S5 + y * S6))))));
            q = 1.0 + y * (R1 + y * (R2 + y * (R3 + y * (R4 + y * (R5 + y * R6)))));
            r = 0.5 * y + p / q;
            z = 1.0; /* lgamma(1+s) = log(s) + lgamma(s) */
            // TODO: In C, this was implemented using switch jumps with fallthrough.
            // Does this implementation have performance problems?
            if i >= 7 {
                z *= y + 6.0;
            }
            if i >= 6 {
                z *= y + 5.0;
            }
            if i >= 5 {
                z *= y + 4.0;
            }
            if i >= 4 {
                z *= y + 3.0;
            }
            if i >= 3 {
                z *= y + 2.0;
                r += log(z);
            }
        } else if ix < 0x43900000 {
            /* 8.0 <= x < 2**58 */
            t = log(x);
            z = 1.0 / x;
            y = z * z;
            w = W0 + z * (W1 + y * (W2 + y * (W3 + y * (W4 + y * (W5 + y * W6)))));
            r = (x - 0.5) * (t - 1.0) + w;
        } else {
            /* 2**58 <= x <= inf */
            r = x * (log(x) - 1.0);
        }
        if sign {
            r = nadj - r;
        }
        return (r, signgam);
    }
}
pub use m_lgamma_r::*;
mod m_tgamma {
    /*
    "A Precision Approximation of the Gamma Function" - Cornelius Lanczos (1964)
    "Lanczos Implementation of the Gamma Function" - Paul Godfrey (2001)
    "An Analysis of the Lanczos Gamma Approximation" - Glendon Ralph Pugh (2004)

    approximation method:

                            (x - 0.5)         S(x)
    Gamma(x) = (x + g - 0.5)         *  ----------------
                                        exp(x + g - 0.5)

    with
                     a1      a2      a3            aN
    S(x) ~= [ a0 + ----- + ----- + ----- + ... + ----- ]
                   x + 1   x + 2   x + 3         x + N

    with a0, a1, a2, a3,.. aN constants which depend on g.

    for x < 0 the following reflection formula is used:

    Gamma(x)*Gamma(-x) = -pi/(x sin(pi x))

    most ideas and constants are from boost and python
    */
    #[allow(unused_imports)]
    use super::*;
    use super::{exp, floor, k_cos, k_sin, pow};

    const PI: f64 = 3.141592653589793238462643383279502884;

    /* sin(pi x) with x > 0x1p-100, if sin(pi*x)==0 the sign is arbitrary */
    fn sinpi(mut x: f64) -> f64 {
        let mut n: isize;

        /* argument reduction: x = |x| mod 2 */
        /* spurious inexact when x is odd int */
        x = x * 0.5;
        x = 2.0 * (x - floor(x));

        /* reduce x into [-.25,.25] */
        n = (4.0 * x) as isize;
        n = div!(n + 1, 2);
        x -= (n as f64) * 0.5;

        x *= PI;
        match n {
            1 => k_cos(x, 0.0),
            2 => k_sin(-x, 0.0, 0),
            3 => -k_cos(x, 0.0),
            // 0
            _ => k_sin(x, 0.0, 0),
        }
    }

    const N: usize = 12;
    //static const double g = 6.024680040776729583740234375;
    const GMHALF: f64 = 5.524680040776729583740234375;
    const SNUM: [f64; N + 1] = [
        23531376880.410759688572007674451636754734846804940,
        42919803642.649098768957899047001988850926355848959,
        35711959237.355668049440185451547166705960488635843,
        17921034426.037209699919755754458931112671403265390,
        6039542586.3520280050642916443072979210699388420708,
        1439720407.3117216736632230727949123939715485786772,
        248874557.86205415651146038641322942321632125127801,
        31426415.585400194380614231628318205362874684987640,
        2876370.6289353724412254090516208496135991145378768,
        186056.26539522349504029498971604569928220784236328,
        8071.6720023658162106380029022722506138218516325024,
        210.82427775157934587250973392071336271166969580291,
        2.5066282746310002701649081771338373386264310793408,
    ];
    const SDEN: [f64; N + 1] = [
        0.0,
        39916800.0,
        120543840.0,
        150917976.0,
        105258076.0,
        45995730.0,
        13339535.0,
        2637558.0,
        357423.0,
        32670.0,
        1925.0,
        66.0,
        1.0,
    ];
    /* n! for small integer n */
    const FACT: [f64; 23] = [
        1.0,
        1.0,
        2.0,
        6.0,
        24.0,
        120.0,
        720.0,
        5040.0,
        40320.0,
        362880.0,
        3628800.0,
        39916800.0,
        479001600.0,
        6227020800.0,
        87178291200.0,
        1307674368000.0,
        20922789888000.0,
        355687428096000.0,
        6402373705728000.0,
        121645100408832000.0,
        2432902008176640000.0,
        51090942171709440000.0,
        1124000727777607680000.0,
    ];

    /* S(x) rational function for positive x */
    fn s(x: f64) -> f64 {
        let mut num: f64 = 0.0;
        let mut den: f64 = 0.0;

        /* to avoid overflow handle large x differently */
        if x < 8.0 {
            for i in (0..=N).rev() {
                num = num * x + i!(SNUM, i);
                den = den * x + i!(SDEN, i);
            }
        } else {
            for i in 0..=N {
                num = num / x + i!(SNUM, i);
                den = den / x + i!(SDEN, i);
            }
        }
        return num / den;
    }

    /// The [Gamma function](https://en.wikipedia.org/wiki/Gamma_function) (f64).
    pub fn tgamma(mut x: f64) -> f64 {
        let u: u64 = x.to_bits();
        let absx: f64;
        let mut y: f64;
        let mut dy: f64;
        let mut z: f64;
        let mut r: f64;
        let ix: u32 = ((u >> 32) as u32) & 0x7fffffff;
        let sign: bool = (u >> 63) != 0;

        /* special cases */
        if ix >= 0x7ff00000 {
            /* tgamma(nan)=nan, tgamma(inf)=inf, tgamma(-inf)=nan with invalid */
            return x + f64::INFINITY;
        }
        if ix < ((0x3ff - 54) << 20) {
            /* |x| < 2^-54: tgamma(x) ~ 1/x, +-0 raises div-by-zero */
            return 1.0 / x;
        }

        /* integer arguments */
        /* raise inexact when non-integer */
        if x == floor(x) {
            if sign {
                return 0.0 / 0.0;
            }
            if x <= FACT.len() as f64 {
                return i!(FACT, (x as usize) - 1);
            }
        }

        /* x >= 172: tgamma(x)=inf with overflow */
        /* x =< -184: tgamma(x)=+-0 with underflow */
        if ix >= 0x40670000 {
            /* |x| >= 184 */
            if sign {
                let x1p_126 = f64::from_bits(0x3810000000000000); // 0x1p-126 == 2^-126
                force_eval!((x1p_126 / x) as f32);
                if floor(x) * 0.5 == floor(x * 0.5) {
                    return 0.0;
                } else {
                    return -0.0;
                }
            }
            let x1p1023 = f64::from_bits(0x7fe0000000000000); // 0x1p1023 == 2^1023
            x *= x1p1023;
            return x;
        }

        absx = if sign { -x } else { x };

        /* handle the error of x + g - 0.5 */
        y = absx + GMHALF;
        if absx > GMHALF {
            dy = y - absx;
            dy -= GMHALF;
        } else {
            dy = y - GMHALF;
            dy -= absx;
        }

        z = absx - 0.5;
        r = s(absx) * exp(-y);
        if x < 0.0 {
            /* reflection formula for negative x */
            /* sinpi(absx) is not 0, integers are already handled */
            r = -PI / (sinpi(absx) * absx * r);
            dy = -dy;
            z = -z;
        }
        r += dy * (GMHALF + 0.5) * r / y;
        z = pow(y, 0.5 * z);
        y = r * z * z;
        return y;
    }
}
pub use m_tgamma::*;
