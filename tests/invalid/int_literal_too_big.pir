module m

func f() {
entry:
  %x: UInt8 = const 300
  return
}
