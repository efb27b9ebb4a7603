module m
export nothere

func f() {
entry:
  return
}
