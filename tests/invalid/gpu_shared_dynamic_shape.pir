module m

func k(%n: Int64) kernel {
entry:
  %tile: Float64[]Shape[?, 16] = call postc.gpu.shared()
  return
}
