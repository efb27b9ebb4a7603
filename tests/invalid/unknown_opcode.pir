module m

func f(%a: Int64, %b: Int64) -> Int64 {
entry:
  %x: Int64 = ad %a, %b
  return %x
}
