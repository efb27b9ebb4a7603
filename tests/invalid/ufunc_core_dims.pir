module m

ufunc rowsum(%a: Float64[]Shape[?]) -> Float64 "(n)->()" {
entry:
  %z: Float64 = const 0.0
  return %z
}
