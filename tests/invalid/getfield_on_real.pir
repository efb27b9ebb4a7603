module m

func f(%a: Float64) -> Float64 {
entry:
  %x: Float64 = getfield %a, real
  return %x
}
