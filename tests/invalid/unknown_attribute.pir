module m

func f() hot {
entry:
  return
}
