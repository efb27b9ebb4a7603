; pipeline: legalize
; A complex `abs` becomes libm's `hypot` of the parts widened to Float64 (the
; intrinsic import `postc.hypot` added once), rounded once for a Complex64;
; a complex product becomes the four products of the parts in Float64, each
; part of the result rounded once for a Complex64, set into a local; a
; float `abs` and a complex sum stay.
module legal_complex

func mul128(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %p: Complex128 = mul %a, %b !loc "k.py":2:12
  return %p
}

func mul64(%a: Complex64, %b: Complex64) -> Complex64 {
entry:
  %s: Complex64 = add %a, %b
  %p: Complex64 = mul %s, %b !loc "k.py":5:12
  return %p
}

func abs128(%z: Complex128) -> Float64 {
entry:
  %m: Float64 = abs %z !loc "k.py":8:12
  return %m
}

func abs64(%z: Complex64, %x: Float32) -> Float32 {
entry:
  %m: Float32 = abs %z !loc "k.py":11:12
  %y: Float32 = abs %x
  %r: Float32 = add %m, %y
  return %r
}
