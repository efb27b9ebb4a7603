module m

func f() {
entry:
  br nowhere
}
