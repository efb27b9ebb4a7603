module m

func f(%a: Float64[]Shape[?, ?]) -> Int64 {
entry:
  %n: Int64 = dim %a, 2
  return %n
}
