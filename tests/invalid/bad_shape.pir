module m

func f(%a: Float64[]Shape[3, x]) {
entry:
  return
}
