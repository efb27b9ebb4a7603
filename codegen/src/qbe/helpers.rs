//! The IL functions the QBE backend calls for what QBE has no instruction
//! for, each emitted once when used (module-local): integer power's
//! overflow test, 64-bit multiplication's overflow test and the code-point
//! length of a Str. (Integer and float floor division and modulo, integer
//! power, complex division and power and saturating float→int conversions
//! are written out by `legalize`.) They compute what the LLVM backend's
//! helpers compute.

use super::class;
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

/// The length of a Str (the `{ptr, len}` at `%s`) in code points: its
/// bytes that do not continue a UTF-8 sequence.
pub fn str_len() -> String {
    "function l $postc_qbe_str_len(l %s) {\n@start\n  %p =l loadl %s\n  %la =l add %s, 8\n  %n =l loadl %la\n\
     \x20 %i =l copy 0\n  %c =l copy 0\n@loop\n  %more =w cultl %i, %n\n  jnz %more, @body, @exit\n@body\n\
     \x20 %a =l add %p, %i\n  %b =w loadub %a\n  %top =w and %b, 192\n  %cont =w ceqw %top, 128\n  %one =w xor %cont, 1\n\
     \x20 %one1 =l extuw %one\n  %c =l add %c, %one1\n  %i =l add %i, 1\n  jmp @loop\n@exit\n  ret %c\n}\n\n"
        .to_owned()
}
