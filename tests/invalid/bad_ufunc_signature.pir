module m

ufunc g(%a: Float64) -> Float64 "(),->()" {
entry:
  return %a
}
