//! The C helpers a translation uses, each written once per file when a body
//! needs it: the `Float16` and complex basics. (Integer and float floor
//! division and modulo, integer power and its overflow test, complex
//! division and power and saturating float→int conversions are written out
//! by `legalize`.)

use postc_ir::DType;

/// The C type of a scalar dtype.
pub fn cty(d: DType) -> &'static str {
    match d {
        DType::Bool => "_Bool",
        DType::Int8 => "int8_t",
        DType::Int16 => "int16_t",
        DType::Int32 => "int32_t",
        DType::Int64 => "int64_t",
        DType::UInt8 => "uint8_t",
        DType::UInt16 => "uint16_t",
        DType::UInt32 => "uint32_t",
        DType::UInt64 => "uint64_t",
        DType::Float16 => "postc_f16",
        DType::Float32 => "float",
        DType::Float64 => "double",
        DType::Complex64 => "float _Complex",
        DType::Complex128 => "double _Complex",
        DType::Str | DType::Bytes => "postc_str",
    }
}

/// The short name of a dtype in helper names.
pub fn short(d: DType) -> &'static str {
    match d {
        DType::Bool => "b",
        DType::Int8 => "i8",
        DType::Int16 => "i16",
        DType::Int32 => "i32",
        DType::Int64 => "i64",
        DType::UInt8 => "u8",
        DType::UInt16 => "u16",
        DType::UInt32 => "u32",
        DType::UInt64 => "u64",
        DType::Float16 => "f16",
        DType::Float32 => "f32",
        DType::Float64 => "f64",
        DType::Complex64 => "c64",
        DType::Complex128 => "c128",
        DType::Str => "str",
        DType::Bytes => "bytes",
    }
}

/// The unsigned type integer arithmetic of `d` wraps in: at least
/// `unsigned int`, so that no operand is promoted to a signed `int`.
pub fn wrap_ty(d: DType) -> &'static str {
    if d.bits() <= 32 {
        "uint32_t"
    } else {
        "uint64_t"
    }
}

/// The unsigned type of the same width.
pub fn unsigned_of(d: DType) -> &'static str {
    match d.bits() {
        8 => "uint8_t",
        16 => "uint16_t",
        32 => "uint32_t",
        _ => "uint64_t",
    }
}

/// The smallest value of a signed integer dtype, as a C expression.
pub fn int_min(d: DType) -> String {
    match d {
        DType::Int64 => "INT64_MIN".into(),
        _ => format!("INT{}_MIN", d.bits()),
    }
}

/// A helper: its name, its text and the libm functions it calls.
pub struct Helper {
    pub name: String,
    pub text: String,
    pub libm: &'static [&'static str],
}

/// `bitcast` from `from` to `to`: the bits copied (`memcpy`, which C
/// compilers turn into a register move), the one reinterpretation C
/// defines for every pair.
pub fn bitcast(from: DType, to: DType) -> Helper {
    let name = format!("postc_bitcast_{}_{}", short(from), short(to));
    let (from_c, to_c) = (cty(from), cty(to));
    let text = format!(
        "POSTC_HELPER {to_c} {name}({from_c} x) {{\n  {to_c} r;\n  memcpy(&r, &x, sizeof r);\n  return r;\n}}\n"
    );
    Helper { name, text, libm: &[] }
}

/// The `Float16` basics where the C compiler has `_Float16` (what the
/// program was prepared for: its arithmetic and conversions are C's).
pub const FLOAT16: &str = r#"
#if !defined(__FLT16_MAX__) || defined(POSTC_NO_FLOAT16)
#error "this C was generated for a compiler with _Float16: generate it with this compiler as CC"
#endif
__extension__ typedef _Float16 postc_f16;
#define POSTC_F16_TO_F(x) ((float)(x))
#define POSTC_F16_FROM_F(x) ((postc_f16)(x))
#define POSTC_F16_FROM_D(x) ((postc_f16)(x))
#define POSTC_F16_BITS(b) postc_f16_bits(b)
#define POSTC_F16_NEG(x) POSTC_F16_FROM_F(-POSTC_F16_TO_F(x))
#define POSTC_F16_ABS(x) POSTC_F16_FROM_F(fabsf(POSTC_F16_TO_F(x)))
POSTC_HELPER postc_f16 postc_f16_bits(uint16_t bits) {
  postc_f16 x;
  memcpy(&x, &bits, sizeof x);
  return x;
}
"#;

/// The `Float16` basics where the C compiler has no `_Float16`: its bits
/// in a `uint16_t` (`legalize` has written its arithmetic and conversions
/// out on the bits).
pub const FLOAT16_BITS: &str = r#"
typedef uint16_t postc_f16;
#define POSTC_F16_BITS(b) ((postc_f16)(b))
#define POSTC_F16_NEG(x) ((postc_f16)((x) ^ 0x8000u))
#define POSTC_F16_ABS(x) ((postc_f16)((x) & 0x7fffu))
"#;

/// The complex basics: parts and construction (a complex is an array of
/// two reals in memory, C11 6.2.5).
pub const COMPLEX: &str = r#"
POSTC_HELPER double postc_re_c128(double _Complex z) { double p[2]; memcpy(p, &z, sizeof p); return p[0]; }
POSTC_HELPER double postc_im_c128(double _Complex z) { double p[2]; memcpy(p, &z, sizeof p); return p[1]; }
POSTC_HELPER float postc_re_c64(float _Complex z) { float p[2]; memcpy(p, &z, sizeof p); return p[0]; }
POSTC_HELPER float postc_im_c64(float _Complex z) { float p[2]; memcpy(p, &z, sizeof p); return p[1]; }
POSTC_HELPER double _Complex postc_c128(double re, double im) {
  double _Complex z;
  double p[2];
  p[0] = re;
  p[1] = im;
  memcpy(&z, p, sizeof z);
  return z;
}
POSTC_HELPER float _Complex postc_c64(float re, float im) {
  float _Complex z;
  float p[2];
  p[0] = re;
  p[1] = im;
  memcpy(&z, p, sizeof z);
  return z;
}
"#;

/// The prototype of a libm function of doubles (`f` suffix: floats).
pub fn libm_prototype(name: &str, arity: usize) -> String {
    let t = if name.ends_with('f') && !matches!(name, "erf" | "modf") { "float" } else { "double" };
    let args = vec![t; arity].join(", ");
    format!("{t} {name}({args});")
}
