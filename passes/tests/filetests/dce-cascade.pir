; pipeline: dce
; Removal cascades through operands whose last reader goes, across blocks
; (the compare in `next` goes, then the select, the div, the add, the mul);
; the value read by the return stays.
module dcc

func f(%x: Float64, %c: Bool) -> Float64 {
entry:
  %a: Float64 = mul %x, %x
  %b: Float64 = add %a, %x
  %k: Float64 = const 1.0
  %d: Float64 = div %b, %k
  %s: Float64 = select %c, %d, %a
  %i: Int64 = cast %x
  %live: Float64 = sub %x, %k
  br next
next:
  %e: Bool = lt %s, %x
  %n: Bool = not %e
  return %live
}
