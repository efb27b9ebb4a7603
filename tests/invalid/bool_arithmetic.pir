module m

func f(%a: Bool) -> Bool {
entry:
  %x: Bool = add %a, %a
  return %x
}
