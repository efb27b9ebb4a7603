module m

func k(%a: Int64) -> Int64 kernel {
entry:
  return %a
}
