module m

func f(%a: Int64) -> Int64 {
entry:
  return %a
  %x: Int64 = add %a, %a
  return %x
}
