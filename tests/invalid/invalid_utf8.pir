module m

func f() {
entry:
  %s: Str = const "ÿþ"
  return
}
