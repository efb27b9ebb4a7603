module m

func f() gpu gpu(fallback) {
entry:
  return
}
