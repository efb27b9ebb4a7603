; pipeline: legalize
; A complex `abs` becomes libm's `hypot` of the parts widened to Float64 (the
; intrinsic import `postc.hypot` added once), rounded once for a Complex64;
; a complex product becomes the four products of the parts in Float64, each
; part of the result rounded once for a Complex64, set into a local; a
; complex sum, difference and negation become the operation on each part
; in the part's dtype, set into a local; `eq` and `ne` compare the parts;
; casts from and to complex dtypes go through the parts (a real value is
; the real part, a complex one cast to Bool whether either part is
; nonzero, to an integer its real part, saturating); a float `abs` stays.
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

func parts64(%a: Complex64, %b: Complex64) -> Complex64 {
entry:
  %d: Complex64 = sub %a, %b !loc "k.py":14:12
  %n: Complex64 = neg %d !loc "k.py":15:12
  return %n
}

func same(%a: Complex128, %b: Complex128) -> Bool {
entry:
  %e: Bool = eq %a, %b
  %n: Bool = ne %a, %b
  %r: Bool = and %e, %n
  return %r
}

func casts(%z: Complex64, %x: Int32) -> Int8 {
entry:
  %w: Complex128 = cast %z
  %c: Complex64 = cast %x
  %b: Bool = cast %w
  %f: Float32 = cast %c
  %i: Int8 = cast %z !loc "k.py":20:9
  return %i
}
