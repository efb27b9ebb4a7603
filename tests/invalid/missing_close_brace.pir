module m

func f() {
entry:
  return
