module m

func g(%a: Int64) -> Int64 {
entry:
  return %a
}

func f(%b: Float64) -> Int64 {
entry:
  %x: Int64 = call g(%b)
  return %x
}
