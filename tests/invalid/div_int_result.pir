module m

func f(%a: Int64) -> Int64 {
entry:
  %x: Int64 = div %a, %a
  return %x
}
