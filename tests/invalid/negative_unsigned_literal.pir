module m

func f() {
entry:
  %x: UInt64 = const -1
  return
}
