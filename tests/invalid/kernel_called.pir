module m

func k(%x: &Float64[]Shape[?]) kernel {
entry:
  return
}

func g(%x: &Float64[]Shape[?]) {
entry:
  call k(%x)
  return
}
