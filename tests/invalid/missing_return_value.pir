module m

func f() -> Int64 {
entry:
  return
}
