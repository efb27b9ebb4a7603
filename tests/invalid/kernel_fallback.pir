module m

func k(%n: Int64) kernel gpu(fallback) {
entry:
  return
}
