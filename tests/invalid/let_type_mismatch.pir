module m

func f(%a: Int64) {
entry:
  let %x: Int32 = %a
  return
}
