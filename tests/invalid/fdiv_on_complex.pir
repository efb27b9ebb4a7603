module m

func f(%a: Complex64) -> Complex64 {
entry:
  %x: Complex64 = fdiv %a, %a
  return %x
}
