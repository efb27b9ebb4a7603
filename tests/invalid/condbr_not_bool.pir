module m

func f(%a: Int64) {
entry:
  condbr %a, x, y
x:
  return
y:
  return
}
