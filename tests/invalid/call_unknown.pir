module m

func f() {
entry:
  call nothere()
  return
}
