module m

func f() -> Int64 gpu {
entry:
  %t: Int64 = call postc.gpu.thread_idx.x()
  return %t
}
