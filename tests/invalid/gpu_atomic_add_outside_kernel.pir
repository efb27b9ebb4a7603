module m

func count(%hits: &Int64[]Shape[1]) gpu {
entry:
  %i: Int64 = const 0
  %one: Int64 = const 1
  %old: Int64 = call postc.gpu.atomic_add(%hits, %i, %one)
  return
}
