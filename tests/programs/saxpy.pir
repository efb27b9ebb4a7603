; y := a*x + y in Float32 over a step-sliced x (x[::2]), and the same
; kernel as an elementwise Float64 ufunc.
module saxpy

func saxpy(%a: Float32, %x: Float32[]Shape[?]Strides[8], %y: &Float32[]Shape[?]) {
  doc "y[i] = a * x[i] + y[i], byte offsets from the strides."
entry:
  %n: Int64 = dim %y, 0
  %sx: Int64 = stride %x, 0
  %sy: Int64 = stride %y, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done !weights 100:1
body:
  %ox: Int64 = mul %i, %sx
  %oy: Int64 = mul %i, %sy
  %xv: Float32 = load %x, %ox
  %yv: Float32 = load %y, %oy
  %ax: Float32 = mul %a, %xv
  %r: Float32 = add %ax, %yv
  store %y, %oy, %r
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}

ufunc axpy(%a: Float64, %x: Float64, %y: Float64) -> Float64 "(),(),()->()" {
entry:
  %ax: Float64 = mul %a, %x
  %r: Float64 = add %ax, %y
  return %r
}
