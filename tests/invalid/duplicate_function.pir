module m

func f() {
entry:
  return
}

func f() {
entry:
  return
}
