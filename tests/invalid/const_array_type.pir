module m

func f() {
entry:
  %x: Float64[] = const 1.0
  return
}
