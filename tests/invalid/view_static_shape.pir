; A view's result type may not fix an extent or a stride: its operands do.
module m

func f(%a: Float64[]Shape[?, ?], %n: Int64, %s: Int64) -> Float64 {
entry:
  %z: Int64 = const 0
  %row: Float64[]Shape[4] = view %a, %z, [%n], [%s]
  %x: Float64 = index.load %row[%z]
  return %x
}
