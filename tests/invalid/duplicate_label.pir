module m

func f() {
entry:
  br entry2
entry2:
  br entry2
entry2:
  return
}
