; Numeric casts: float -> int saturates (NaN -> 0, truncation toward
; zero), Float64 -> Float16 rounds once (no double rounding through
; Float32), number -> Bool is `!= 0`, complex -> real drops the imaginary
; part, int -> float rounds to nearest. `bitcast` reads a float's bits as
; the unsigned integer of its width and writes them back (the exponent
; field of a Float64, as `frexp` starts).
module satcast

func f64_to_i8(%x: Float64) -> Int8 {
entry:
  %r: Int8 = cast %x
  return %r
}

func f64_to_i32(%x: Float64) -> Int32 {
entry:
  %r: Int32 = cast %x
  return %r
}

func f64_to_i64(%x: Float64) -> Int64 {
entry:
  %r: Int64 = cast %x
  return %r
}

func f64_to_u8(%x: Float64) -> UInt8 {
entry:
  %r: UInt8 = cast %x
  return %r
}

func f64_to_u64(%x: Float64) -> UInt64 {
entry:
  %r: UInt64 = cast %x
  return %r
}

func f32_to_i16(%x: Float32) -> Int16 {
entry:
  %r: Int16 = cast %x
  return %r
}

func f64_to_f16(%x: Float64) -> Float16 {
entry:
  %r: Float16 = cast %x
  return %r
}

func f64_to_f32(%x: Float64) -> Float32 {
entry:
  %r: Float32 = cast %x
  return %r
}

func f64_to_bool(%x: Float64) -> Bool {
entry:
  %r: Bool = cast %x
  return %r
}

func i64_to_bool(%x: Int64) -> Bool {
entry:
  %r: Bool = cast %x
  return %r
}

func bool_to_i32(%b: Bool) -> Int32 {
entry:
  %r: Int32 = cast %b
  return %r
}

func c128_to_f64(%z: Complex128) -> Float64 {
entry:
  %r: Float64 = cast %z
  return %r
}

func f64_to_c64(%x: Float64) -> Complex64 {
entry:
  %r: Complex64 = cast %x
  return %r
}

func i64_to_f32(%x: Int64) -> Float32 {
entry:
  %r: Float32 = cast %x
  return %r
}

func u64_to_f64(%x: UInt64) -> Float64 {
entry:
  %r: Float64 = cast %x
  return %r
}

func cast_all(%x: Float64[]Shape[?], %out: &Int32[]Shape[?]) {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %c: Int32 = cast %v
  index.store %out[%i], %c
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}

func f16_bits(%x: Float16) -> UInt16 {
entry:
  %r: UInt16 = bitcast %x
  return %r
}

func f16_from_bits(%b: UInt16) -> Float16 {
entry:
  %r: Float16 = bitcast %b
  return %r
}

func f32_bits(%x: Float32) -> UInt32 {
entry:
  %r: UInt32 = bitcast %x
  return %r
}

func f32_from_bits(%b: UInt32) -> Float32 {
entry:
  %r: Float32 = bitcast %b
  return %r
}

func f64_from_bits(%b: UInt64) -> Float64 {
entry:
  %r: Float64 = bitcast %b
  return %r
}

func f64_exponent(%x: Float64) -> Int64 {
entry:
  %bits: UInt64 = bitcast %x
  %c52: UInt64 = const 52
  %mask: UInt64 = const 2047
  %high: UInt64 = shr %bits, %c52
  %field: UInt64 = band %high, %mask
  %biased: Int64 = cast %field
  %bias: Int64 = const 1023
  %e: Int64 = sub %biased, %bias
  return %e
}
