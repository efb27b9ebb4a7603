module m

func f(%c: Bool, %a: Int64, %b: UInt64) -> Int64 {
entry:
  %x: Int64 = select %c, %a, %b
  return %x
}
