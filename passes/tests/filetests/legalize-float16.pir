; pipeline: legalize
; With no backend features, Float16 arithmetic is written out in Float32:
; the operands widened exactly, the operation done, a Float16 result
; narrowed once; comparisons compare the widened operands; `neg` and `abs`
; (the sign bit) stay. A Float16 or
; Float32 `pow` becomes the Float64 one (libm's `pow`), rounded once, and
; a true division of integers divides the operands converted to its
; result's dtype. Float64 `pow` and `div` stay.
module halves

func arith(%x: Float16, %y: Float16) -> Float16 {
entry:
  %s: Float16 = add %x, %y !loc "h.py":2:12
  %p: Float16 = mul %s, %y
  %n: Float16 = neg %p
  %a: Float16 = abs %n
  %q: Float16 = div %a, %x
  return %q
}

func less(%x: Float16, %y: Float16) -> Bool {
entry:
  %c: Bool = lt %x, %y
  return %c
}

func powers(%x: Float16, %y: Float32, %z: Float64) -> Float64 {
entry:
  %h: Float16 = pow %x, %x
  %f: Float32 = pow %y, %y
  %d: Float64 = pow %z, %z
  %hw: Float64 = cast %h
  %fw: Float64 = cast %f
  %s: Float64 = add %hw, %fw
  %t: Float64 = add %s, %d
  return %t
}

func ratio(%a: Int8, %b: Int8) -> Float16 {
entry:
  %q: Float16 = div %a, %b
  return %q
}

func wide_ratio(%a: Int64, %b: Int64) -> Float64 {
entry:
  %q: Float64 = div %a, %b
  return %q
}
