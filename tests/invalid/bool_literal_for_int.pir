module m

func f() {
entry:
  %x: Int32 = const true
  return
}
