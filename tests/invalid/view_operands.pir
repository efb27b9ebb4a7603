; A view of a scalar, operands that are not Int64, and fewer strides than
; extents.
module m

func f(%a: Float64[]Shape[?], %x: Float64, %i: Int32, %n: Int64) {
entry:
  %z: Int64 = const 0
  %v: Float64[]Shape[?] = view %x, %z, [%n], [%n]
  %w: Float64[]Shape[?] = view %a, %i, [%n], [%n]
  %u: Float64[]Shape[?, ?] = view %a, %z, [%n, %n], [%n]
  %t: Int64[]Shape[?] = view %a, %z, [%n], [%n]
  return
}
