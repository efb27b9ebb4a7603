module m

func f(%a: Int64, %b: Int32) -> Int64 {
entry:
  %x: Int64 = add %a, %b
  return %x
}
