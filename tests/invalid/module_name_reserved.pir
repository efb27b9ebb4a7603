module postc.rt

func f() {
entry:
  return
}
