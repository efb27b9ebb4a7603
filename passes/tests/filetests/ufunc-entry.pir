; pipeline: ufunc-entry
; NumPy's inner loop of each exported elementwise ufunc, as IR: a returned
; result (axpy), a complex operand, a Bool result and text (shout, its
; elements postc_str pairs); a function that is not a ufunc gets none (the
; loops of generalized ufuncs: ufunc-entry-generalized.pir).
module ue

ufunc axpy(%a: Float64, %x: Float64, %y: Float64) -> Float64 "(),(),()->()" {
entry:
  %ax: Float64 = mul %a, %x
  %r: Float64 = add %ax, %y
  return %r
}

ufunc cscale(%z: Complex128, %s: Float64) -> Complex128 "(),()->()" {
entry:
  %c: Complex128 = cast %s
  %r: Complex128 = mul %z, %c
  return %r
}

ufunc isneg(%a: Int16) -> Bool "()->()" {
entry:
  %z: Int16 = const 0
  %r: Bool = lt %a, %z
  return %r
}

func twice(%x: Float64) -> Float64 {
entry:
  %r: Float64 = add %x, %x
  return %r
}

ufunc shout(%s: Str) -> Str "()->()" {
entry:
  return %s
}
