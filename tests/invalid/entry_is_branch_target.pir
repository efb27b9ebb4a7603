module m

func f() {
entry:
  br entry
}
