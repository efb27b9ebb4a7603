module m

func f(%a: Float64) -> Float64 {
entry:
  %x: Float64 = shl %a, %a
  return %x
}
