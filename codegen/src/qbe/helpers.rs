//! The IL functions the QBE backend calls for what QBE has no instruction
//! for, each emitted once when used (module-local): 64-bit multiplication's
//! overflow test. (Integer and float floor division and modulo, integer
//! power and its overflow test, complex division and power, saturating
//! float→int conversions and the code-point length of a Str are written
//! out by `legalize`.)

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
