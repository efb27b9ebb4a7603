module m

func f(%a: Int65) {
entry:
  return
}
