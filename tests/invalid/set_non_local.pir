module m

func f(%a: Int64) {
entry:
  %x: Int64 = add %a, %a
  set %x = %a
  return
}
