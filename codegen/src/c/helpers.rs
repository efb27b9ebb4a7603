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

/// The `Float16` basics: the type (`_Float16`, or its bits where the
/// compiler lacks it) and conversions that round once.
pub const FLOAT16: &str = r#"
#if defined(__FLT16_MAX__) && !defined(POSTC_NO_FLOAT16)
__extension__ typedef _Float16 postc_f16;
#define POSTC_F16_TO_F(x) ((float)(x))
#define POSTC_F16_FROM_F(x) ((postc_f16)(x))
#define POSTC_F16_FROM_D(x) ((postc_f16)(x))
#define POSTC_F16_BITS(b) postc_f16_bits(b)
POSTC_HELPER postc_f16 postc_f16_bits(uint16_t bits) {
  postc_f16 x;
  memcpy(&x, &bits, sizeof x);
  return x;
}
#else
/* No _Float16: the bits in a uint16_t, converted in software (a Float16
 * argument then travels as an integer, unlike _Float16). */
typedef uint16_t postc_f16;
#define POSTC_F16_TO_F(x) postc_f16_to_f(x)
#define POSTC_F16_FROM_F(x) postc_f16_from_d((double)(x))
#define POSTC_F16_FROM_D(x) postc_f16_from_d(x)
#define POSTC_F16_BITS(b) ((postc_f16)(b))
POSTC_HELPER float postc_f16_to_f(postc_f16 h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
  float x;
  if (exp == 0x1f) bits = sign | 0x7f800000u | (man << 13);
  else if (exp != 0) bits = sign | ((exp + 112u) << 23) | (man << 13);
  else if (man == 0) bits = sign;
  else {
    exp = 113;
    while (!(man & 0x400u)) { man <<= 1; exp--; }
    bits = sign | (exp << 23) | ((man & 0x3ffu) << 13);
  }
  memcpy(&x, &bits, sizeof x);
  return x;
}
/* Rounds a double to the nearest Float16, ties to even, in one step. */
POSTC_HELPER postc_f16 postc_f16_from_d(double x) {
  uint64_t bits, man, m, r, rem, halfway;
  uint16_t sign;
  int exp, e, shift;
  memcpy(&bits, &x, sizeof bits);
  sign = (uint16_t)((bits >> 48) & 0x8000u);
  exp = (int)((bits >> 52) & 0x7ff);
  man = bits & 0xfffffffffffffu;
  if (exp == 0x7ff) return (postc_f16)(sign | 0x7c00u | (man ? 0x200u | (uint16_t)(man >> 42) : 0u));
  if (exp == 0) return (postc_f16)sign;
  e = exp - 1023;
  if (e >= 16) return (postc_f16)(sign | 0x7c00u);
  m = ((uint64_t)1 << 52) | man;
  shift = e >= -14 ? 42 : 28 - e;
  if (shift >= 64) return (postc_f16)sign;
  r = m >> shift;
  rem = m & (((uint64_t)1 << shift) - 1);
  halfway = (uint64_t)1 << (shift - 1);
  if (rem > halfway || (rem == halfway && (r & 1u))) r++;
  return (postc_f16)(sign | (uint16_t)(e >= -14 ? ((uint64_t)(e + 15) << 10) + (r - 1024) : r));
}
#endif
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
