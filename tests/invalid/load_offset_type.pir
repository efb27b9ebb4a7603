module m

func f(%a: Float64[], %o: Int32) -> Float64 {
entry:
  %x: Float64 = load %a, %o
  return %x
}
