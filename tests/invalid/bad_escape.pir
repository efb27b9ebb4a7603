module m

func f() {
entry:
  %s: Str = const "a\qb"
  return
}
