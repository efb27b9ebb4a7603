module m

func f(%a: Float64[]Shape[?, ?], %i: Int64) -> Float64 {
entry:
  %x: Float64 = index.load %a[%i]
  return %x
}
