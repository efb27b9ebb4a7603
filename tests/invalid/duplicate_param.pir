module m

func f(%a: Int64, %a: Int64) {
entry:
  return
}
