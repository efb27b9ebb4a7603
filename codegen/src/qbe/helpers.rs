//! The IL functions the QBE backend calls for what QBE has no instruction
//! for, each emitted once when used (module-local): 64-bit multiplication's
//! overflow test and the code-point length of a Str. (Integer and float
//! floor division and modulo, integer power and its overflow test, complex
//! division and power and saturating float→int conversions are written out
//! by `legalize`.) They compute what the LLVM backend's helpers compute.

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

/// The length of a Str (the `{ptr, len}` at `%s`) in code points: its
/// bytes that do not continue a UTF-8 sequence.
pub fn str_len() -> String {
    "function l $postc_qbe_str_len(l %s) {\n@start\n  %p =l loadl %s\n  %la =l add %s, 8\n  %n =l loadl %la\n\
     \x20 %i =l copy 0\n  %c =l copy 0\n@loop\n  %more =w cultl %i, %n\n  jnz %more, @body, @exit\n@body\n\
     \x20 %a =l add %p, %i\n  %b =w loadub %a\n  %top =w and %b, 192\n  %cont =w ceqw %top, 128\n  %one =w xor %cont, 1\n\
     \x20 %one1 =l extuw %one\n  %c =l add %c, %one1\n  %i =l add %i, 1\n  jmp @loop\n@exit\n  ret %c\n}\n\n"
        .to_owned()
}
