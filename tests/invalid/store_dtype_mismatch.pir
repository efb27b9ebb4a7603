module m

func f(%a: &Float32[], %i: Int64, %v: Float64) {
entry:
  index.store %a[%i], %v
  return
}
