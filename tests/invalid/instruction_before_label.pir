module m

func f() {
  %x: Int64 = const 1
entry:
  return
}
