module m

func f(%a: Int32) -> Int64 {
entry:
  return %a
}
