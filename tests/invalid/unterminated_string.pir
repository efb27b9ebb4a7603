module m

func f() {
entry:
  %s: Str = const "abc
  return
}
