; pipeline: legalize
; Python's float and complex operations become calls of the functions
; written once in POST IR (passes/src/legalize/python.pir), copied into the
; module once each with the intrinsic imports they use: a Float32 `%`
; widens its operands exactly and rounds the call's result once; a
; Complex64 quotient likewise;
; a complex power also brings the quotient it calls. Without the backend's
; saturating casts (the default options) a float→int `cast` clamps: the
; conversion sees only values that truncate into range (Float16 through
; Float32, a complex number's real part), and the bounds are selected
; after it; a cast to Bool or from an integer stays.
module legal_python

func mod32(%x: Float32, %y: Float32) -> Float32 {
entry:
  %r: Float32 = mod %x, %y !loc "k.py":2:12
  return %r
}

func floordiv64(%x: Float64, %y: Float64) -> Float64 {
entry:
  %q: Float64 = fdiv %x, %y !loc "k.py":5:12
  %r: Float64 = fdiv %q, %y !loc "k.py":5:20
  return %r
}

func cdiv64(%a: Complex64, %b: Complex64) -> Complex64 {
entry:
  %q: Complex64 = div %a, %b !loc "k.py":8:12
  return %q
}

func cpow(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %p: Complex128 = pow %a, %b !loc "k.py":11:12
  return %p
}

func to_int(%x: Float64, %h: Float16, %z: Complex128, %i: Int64) -> Int64 {
entry:
  %a: Int8 = cast %x
  %b: UInt64 = cast %h
  %c: Int64 = cast %z
  %d: Bool = cast %x
  %e: Int32 = cast %i
  %s1: Int64 = cast %a
  %s2: Int64 = cast %b
  %s3: Int64 = add %s1, %s2
  %s4: Int64 = add %s3, %c
  %s5: Int64 = cast %d
  %s6: Int64 = add %s4, %s5
  %s7: Int64 = cast %e
  %s8: Int64 = add %s6, %s7
  return %s8
}
