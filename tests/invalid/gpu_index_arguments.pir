module m

func k(%n: Int64) kernel {
entry:
  %t: Int32 = call postc.gpu.block_dim.y(%n)
  return
}
