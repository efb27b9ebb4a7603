; Elementwise ufuncs over every numeric dtype and Bool, for
; tests/python/test_elementwise.py: NumPy's inner loop of each (`NAME_loop`)
; loads, stores and steps through elements of that dtype.
module elementwise

ufunc add_i8(%a: Int8, %b: Int8) -> Int8 "(),()->()" {
entry:
  %r: Int8 = add %a, %b
  return %r
}

ufunc add_u8(%a: UInt8, %b: UInt8) -> UInt8 "(),()->()" {
entry:
  %r: UInt8 = add %a, %b
  return %r
}

ufunc add_i16(%a: Int16, %b: Int16) -> Int16 "(),()->()" {
entry:
  %r: Int16 = add %a, %b
  return %r
}

ufunc add_u16(%a: UInt16, %b: UInt16) -> UInt16 "(),()->()" {
entry:
  %r: UInt16 = add %a, %b
  return %r
}

ufunc add_i32(%a: Int32, %b: Int32) -> Int32 "(),()->()" {
entry:
  %r: Int32 = add %a, %b
  return %r
}

ufunc add_u32(%a: UInt32, %b: UInt32) -> UInt32 "(),()->()" {
entry:
  %r: UInt32 = add %a, %b
  return %r
}

ufunc add_i64(%a: Int64, %b: Int64) -> Int64 "(),()->()" {
entry:
  %r: Int64 = add %a, %b
  return %r
}

ufunc add_u64(%a: UInt64, %b: UInt64) -> UInt64 "(),()->()" {
entry:
  %r: UInt64 = add %a, %b
  return %r
}

ufunc add_f16(%a: Float16, %b: Float16) -> Float16 "(),()->()" {
entry:
  %r: Float16 = add %a, %b
  return %r
}

ufunc add_f32(%a: Float32, %b: Float32) -> Float32 "(),()->()" {
entry:
  %r: Float32 = add %a, %b
  return %r
}

ufunc add_f64(%a: Float64, %b: Float64) -> Float64 "(),()->()" {
entry:
  %r: Float64 = add %a, %b
  return %r
}

ufunc add_c64(%a: Complex64, %b: Complex64) -> Complex64 "(),()->()" {
entry:
  %r: Complex64 = add %a, %b
  return %r
}

ufunc add_c128(%a: Complex128, %b: Complex128) -> Complex128 "(),()->()" {
entry:
  %r: Complex128 = add %a, %b
  return %r
}

ufunc xor_b(%a: Bool, %b: Bool) -> Bool "(),()->()" {
entry:
  %r: Bool = ne %a, %b
  return %r
}

ufunc less(%a: Float64, %b: Int32) -> Bool "(),()->()" {
entry:
  %bf: Float64 = cast %b
  %r: Bool = lt %a, %bf
  return %r
}
