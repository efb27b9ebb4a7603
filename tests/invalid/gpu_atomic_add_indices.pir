module m

func k(%grid: &Float32[]Shape[?, ?], %v: Float32) kernel {
entry:
  %i: Int64 = const 0
  %old: Float32 = call postc.gpu.atomic_add(%grid, %i, %v)
  return
}
