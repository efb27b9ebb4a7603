module m

func f(%a: Complex128) -> Bool {
entry:
  %x: Bool = lt %a, %a
  return %x
}
