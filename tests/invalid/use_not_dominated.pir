module m

func f(%c: Bool) -> Int64 {
entry:
  condbr %c, a, b
a:
  %x: Int64 = const 1
  br b
b:
  return %x
}
