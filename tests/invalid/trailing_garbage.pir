module m

func f() {
entry:
  return extra stuff here
}
