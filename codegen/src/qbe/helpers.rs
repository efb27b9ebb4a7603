//! The IL functions the QBE backend calls for what QBE has no instruction
//! for, each emitted once when used (module-local): integer power's
//! overflow test (integer floor division, modulo and power are written out
//! by `legalize`), 64-bit multiplication's
//! overflow test, saturating float to integer conversion, the code-point
//! length of a Str, Python's float `//` and `%`, CPython's complex division
//! and power. They compute what the LLVM backend's helpers compute.

use super::class;
use super::func::float_const;
use postc_ir::DType;

fn signed_tag(signed: bool) -> &'static str {
    if signed {
        "s"
    } else {
        "u"
    }
}

pub fn mul_ovf_name(signed: bool) -> String {
    format!("postc_qbe_ovf_{}mul_l", signed_tag(signed))
}

/// Whether a 64-bit product overflows: the quotient of the wrapped product
/// by one factor is not the other (`-1 * MIN` apart).
pub fn mul_ovf(signed: bool) -> String {
    let name = mul_ovf_name(signed);
    if signed {
        format!(
            "function w ${name}(l %a, l %b) {{\n@start\n  %az =w ceql %a, 0\n  jnz %az, @no, @t1\n@no\n  ret 0\n\
             @t1\n  %am =w ceql %a, -1\n  jnz %am, @m1, @t2\n@m1\n  %bm =l sub %b, 1\n  %r =w csgtl %bm, %b\n  ret %r\n\
             @t2\n  %p =l mul %a, %b\n  %q =l div %p, %a\n  %r2 =w cnel %q, %b\n  ret %r2\n}}\n\n"
        )
    } else {
        format!(
            "function w ${name}(l %a, l %b) {{\n@start\n  %az =w ceql %a, 0\n  jnz %az, @no, @t1\n@no\n  ret 0\n\
             @t1\n  %p =l mul %a, %b\n  %q =l udiv %p, %a\n  %r =w cnel %q, %b\n  ret %r\n}}\n\n"
        )
    }
}

/// IL lines setting `%{out}` (a `w`) to whether `a * b` overflows `d`, and
/// `%{prod}` to the wrapped product.
fn mul_check(d: DType, a: &str, b: &str, prod: &str, out: &str) -> String {
    let c = class(d);
    match d.bits() {
        8 | 16 => {
            let ext = super::func::narrow_op(d).unwrap_or("copy");
            format!("  %{prod}w =w mul {a}, {b}\n  %{prod} =w {ext} %{prod}w\n  %{out} =w cnew %{prod}, %{prod}w\n")
        }
        32 => {
            let ext = if d.is_signed_int() { "extsw" } else { "extuw" };
            format!(
                "  %{prod}a =l {ext} {a}\n  %{prod}b =l {ext} {b}\n  %{prod}l =l mul %{prod}a, %{prod}b\n\
                 \x20 %{prod} =w copy %{prod}l\n  %{prod}x =l {ext} %{prod}\n  %{out} =w cnel %{prod}x, %{prod}l\n"
            )
        }
        _ => format!(
            "  %{out} =w call ${}(l {a}, l {b})\n  %{prod} ={c} mul {a}, {b}\n",
            mul_ovf_name(d.is_signed_int())
        ),
    }
}

pub fn pow_ovf_name(d: DType) -> String {
    format!("postc_qbe_ovf_pow_{}", d.name())
}

/// Whether `base ** exp` overflows `d`: the multiplications the power
/// uses, each checked; the base is squared only while bits remain.
pub fn pow_ovf(d: DType) -> String {
    let c = class(d);
    let name = pow_ovf_name(d);
    let stop = if d.is_signed_int() { format!("csle{c}") } else { format!("ceq{c}") };
    let m1 = mul_check(d, "%r", "%b", "rm", "ro");
    let m2 = mul_check(d, "%b", "%b", "bm", "bo");
    format!(
        "function w ${name}({c} %base, {c} %exp) {{\n@start\n  %r ={c} copy 1\n  %b ={c} copy %base\n  %e ={c} copy %exp\n\
         @loop\n  %done =w {stop} %e, 0\n  jnz %done, @fine, @body\n@body\n  %bit ={c} and %e, 1\n\
         \x20 %odd =w cne{c} %bit, 0\n  jnz %odd, @mulr, @step\n@mulr\n{m1}  jnz %ro, @over, @keep\n@keep\n  %r ={c} copy %rm\n\
         @step\n  %e ={c} shr %e, 1\n  %more =w cne{c} %e, 0\n  jnz %more, @sqr, @fine\n@sqr\n{m2}  jnz %bo, @over, @sq\n\
         @sq\n  %b ={c} copy %bm\n  jmp @loop\n@over\n  ret 1\n@fine\n  ret 0\n}}\n\n"
    )
}

pub fn saturate_name(from: DType, to: DType) -> String {
    format!("postc_qbe_sat_{}_{}", class(from), to.name())
}

/// A float (Float32 or Float64) to an integer dtype, saturating; NaN is 0.
pub fn saturate(from: DType, to: DType) -> String {
    let fc = class(from);
    let tc = class(to);
    let name = saturate_name(from, to);
    let bits = to.bits() as i32;
    let (min, max, lo, hi) = if to.is_signed_int() {
        let min = -(1i128 << (bits - 1));
        (min, -min - 1, -(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
    } else {
        (0, (1i128 << bits) - 1, 0.0, 2f64.powi(bits))
    };
    let (lo, hi) = (float_const(fc, lo).expect("finite"), float_const(fc, hi).expect("finite"));
    let conv = match (to.is_signed_int(), tc) {
        (true, 'w') => format!("  %r =w {fc}tosi %x\n"),
        (false, 'w') => format!("  %r0 =l {fc}tosi %x\n  %r =w copy %r0\n"),
        (true, _) => format!("  %r =l {fc}tosi %x\n"),
        (false, _) => format!("  %r =l {fc}toui %x\n"),
    };
    let (ret_min, ret_max) = (min as i64, max as u64 as i64);
    format!(
        "function {tc} ${name}({fc} %x) {{\n@start\n  %nan =w cuo{fc} %x, %x\n  jnz %nan, @zero, @t1\n@zero\n  ret 0\n\
         @t1\n  %lo =w clt{fc} %x, {lo}\n  jnz %lo, @min, @t2\n@min\n  ret {ret_min}\n\
         @t2\n  %hi =w cge{fc} %x, {hi}\n  jnz %hi, @max, @go\n@max\n  ret {ret_max}\n@go\n{conv}  ret %r\n}}\n\n"
    )
}

/// The length of a Str (the `{ptr, len}` at `%s`) in code points: its
/// bytes that do not continue a UTF-8 sequence.
pub fn str_len() -> String {
    "function l $postc_qbe_str_len(l %s) {\n@start\n  %p =l loadl %s\n  %la =l add %s, 8\n  %n =l loadl %la\n\
     \x20 %i =l copy 0\n  %c =l copy 0\n@loop\n  %more =w cultl %i, %n\n  jnz %more, @body, @exit\n@body\n\
     \x20 %a =l add %p, %i\n  %b =w loadub %a\n  %top =w and %b, 192\n  %cont =w ceqw %top, 128\n  %one =w xor %cont, 1\n\
     \x20 %one1 =l extuw %one\n  %c =l add %c, %one1\n  %i =l add %i, 1\n  jmp @loop\n@exit\n  ret %c\n}\n\n"
        .to_owned()
}

/// Python's float `divmod` on doubles: returns the floor quotient, stores
/// the modulo at `%mp`; a zero divisor gives `x / 0.0` and NaN.
pub fn float_divmod() -> String {
    "function d $postc_qbe_fdivmod(d %x, d %y, l %mp) {\n@start\n  %yz =w ceqd %y, d_0\n  jnz %yz, @byzero, @go\n\
     @byzero\n  %q0 =d div %x, %y\n  storel 9221120237041090560, %mp\n  ret %q0\n\
     @go\n  %m =d call $fmod(d %x, d %y)\n  %xm =d sub %x, %m\n  %div =d div %xm, %y\n  %mnz =w cned %m, d_0\n\
     \x20 %yneg =w cltd %y, d_0\n  %mneg =w cltd %m, d_0\n  %diff =w xor %yneg, %mneg\n  %fix =w and %mnz, %diff\n\
     \x20 %m1 =d copy %m\n  %div1 =d copy %div\n  jnz %fix, @fixit, @j1\n@fixit\n  %m1 =d add %m, %y\n  %div1 =d sub %div, d_1\n\
     @j1\n  jnz %mnz, @modok, @modzero\n@modzero\n  %m1 =d call $copysign(d d_0, d %y)\n@modok\n  stored %m1, %mp\n\
     \x20 %dnz =w cned %div1, d_0\n  jnz %dnz, @floor, @zq\n@floor\n  %fd =d call $floor(d %div1)\n  %frac =d sub %div1, %fd\n\
     \x20 %up =w cgtd %frac, d_0.5\n  jnz %up, @upq, @retq\n@upq\n  %fd =d add %fd, d_1\n@retq\n  ret %fd\n\
     @zq\n  %xy =d div %x, %y\n  %zq =d call $copysign(d d_0, d %xy)\n  ret %zq\n}\n\n"
        .to_owned()
}

/// CPython's `_Py_c_quot` on doubles, the result stored at `%o`.
pub fn complex_div() -> String {
    "function $postc_qbe_cdiv(d %ar, d %ai, d %br, d %bi, l %o) {\n@start\n  %abr =d call $fabs(d %br)\n\
     \x20 %abi =d call $fabs(d %bi)\n  %ge =w cged %abr, %abi\n  jnz %ge, @real, @notreal\n\
     @real\n  %brz =w ceqd %abr, d_0\n  jnz %brz, @zero, @rbig\n@zero\n  %re =d div %ar, %abr\n  %im =d div %ai, %abr\n  jmp @out\n\
     @rbig\n  %ratio =d div %bi, %br\n  %t1 =d mul %bi, %ratio\n  %den =d add %br, %t1\n  %t2 =d mul %ai, %ratio\n\
     \x20 %n1 =d add %ar, %t2\n  %t3 =d mul %ar, %ratio\n  %n2 =d sub %ai, %t3\n  %re =d div %n1, %den\n  %im =d div %n2, %den\n  jmp @out\n\
     @notreal\n  %ge2 =w cged %abi, %abr\n  jnz %ge2, @ibig, @nan\n\
     @ibig\n  %ratio2 =d div %br, %bi\n  %u1 =d mul %br, %ratio2\n  %den2 =d add %u1, %bi\n  %u2 =d mul %ar, %ratio2\n\
     \x20 %m1 =d add %u2, %ai\n  %u3 =d mul %ai, %ratio2\n  %m2 =d sub %u3, %ar\n  %re =d div %m1, %den2\n  %im =d div %m2, %den2\n  jmp @out\n\
     @nan\n  %nb =l copy 9221120237041090560\n  %re =d cast %nb\n  %im =d cast %nb\n\
     @out\n  stored %re, %o\n  %o8 =l add %o, 8\n  stored %im, %o8\n  ret\n}\n\n"
        .to_owned()
}

/// CPython's complex power (`c_powi` for integral exponents up to 100,
/// else `c_pow`), the result stored at `%o`. The caller checks the
/// zero-base panic.
pub fn complex_pow() -> String {
    "function $postc_qbe_cpow(d %ar, d %ai, d %br, d %bi, l %o) {\n@start\n  %o8 =l add %o, 8\n\
     \x20 %bre0 =w ceqd %br, d_0\n  %bim0 =w ceqd %bi, d_0\n  %b0 =w and %bre0, %bim0\n  jnz %b0, @one, @t1\n\
     @one\n  stored d_1, %o\n  stored d_0, %o8\n  ret\n\
     @t1\n  %are0 =w ceqd %ar, d_0\n  %aim0 =w ceqd %ai, d_0\n  %a0 =w and %are0, %aim0\n  jnz %a0, @zero, @t2\n\
     @zero\n  stored d_0, %o\n  stored d_0, %o8\n  ret\n\
     @t2\n  %fl =d call $floor(d %br)\n  %integral =w ceqd %br, %fl\n  %abr =d call $fabs(d %br)\n  %small =w cled %abr, d_100\n\
     \x20 %c1 =w and %bim0, %integral\n  %c2 =w and %c1, %small\n  jnz %c2, @powi, @general\n\
     @powi\n  %n =l dtosi %br\n  %nneg =w csltl %n, 0\n  %nabs =l copy %n\n  jnz %nneg, @negn, @ploop0\n@negn\n  %nabs =l sub 0, %n\n\
     @ploop0\n  %rr =d copy d_1\n  %ri =d copy d_0\n  %pr =d copy %ar\n  %pi =d copy %ai\n  %mask =l copy 1\n\
     @ploop\n  %mpos =w cnel %mask, 0\n  %mle =w cugel %nabs, %mask\n  %go =w and %mpos, %mle\n  jnz %go, @pbody, @pdone\n\
     @pbody\n  %bit =l and %nabs, %mask\n  %set =w cnel %bit, 0\n  jnz %set, @pmul, @pstep\n\
     @pmul\n  %ma =d mul %rr, %pr\n  %mb =d mul %ri, %pi\n  %mr =d sub %ma, %mb\n  %mc =d mul %rr, %pi\n  %md =d mul %ri, %pr\n\
     \x20 %mi =d add %mc, %md\n  %rr =d copy %mr\n  %ri =d copy %mi\n\
     @pstep\n  %mask =l shl %mask, 1\n  %sa =d mul %pr, %pr\n  %sb =d mul %pi, %pi\n  %sr =d sub %sa, %sb\n  %sc =d mul %pr, %pi\n\
     \x20 %sd =d mul %pi, %pr\n  %si =d add %sc, %sd\n  %pr =d copy %sr\n  %pi =d copy %si\n  jmp @ploop\n\
     @pdone\n  jnz %nneg, @inv, @pos\n@pos\n  stored %rr, %o\n  stored %ri, %o8\n  ret\n\
     @inv\n  call $postc_qbe_cdiv(d d_1, d d_0, d %rr, d %ri, l %o)\n  ret\n\
     @general\n  %vabs =d call $hypot(d %ar, d %ai)\n  %len =d call $pow(d %vabs, d %br)\n  %at =d call $atan2(d %ai, d %ar)\n\
     \x20 %ph =d mul %at, %br\n  jnz %bim0, @fin, @cplx\n\
     @cplx\n  %atb =d mul %at, %bi\n  %e =d call $exp(d %atb)\n  %len =d div %len, %e\n  %lg =d call $log(d %vabs)\n\
     \x20 %bl =d mul %bi, %lg\n  %ph =d add %ph, %bl\n\
     @fin\n  %c =d call $cos(d %ph)\n  %s =d call $sin(d %ph)\n  %gr =d mul %len, %c\n  %gi =d mul %len, %s\n\
     \x20 stored %gr, %o\n  stored %gi, %o8\n  ret\n}\n\n"
        .to_owned()
}
