module m

ufunc add2(%a: Float64) -> Float64 "(),()->()" {
entry:
  return %a
}
