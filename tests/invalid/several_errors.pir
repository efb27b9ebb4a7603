module m

func f(%a: Int64) -> Int64 {
entry:
  %x: Int64 = ad %a, %a
  %y: Int64 = const 99999999999999999999
  %z: Int64 = add %a, %nope
  return %a
}
