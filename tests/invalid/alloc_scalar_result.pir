module m

func f(%n: Int64) {
entry:
  %a: Float64 = alloc %n
  return
}
