module m

func f(%a: Int64) {
entry:
  %s: Str = cast %a
  return
}
