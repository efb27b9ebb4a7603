; Dot products: a "(n),(n)->()" gufunc over Float64 rows and a Float32
; function accumulating in Float32.
module dot

ufunc rowdot(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 "(n),(n)->()" core(%n: Int64) {
  doc "Dot product of two rows."
entry:
  %zero: Float64 = const 0.0
  %i0: Int64 = const 0
  let %acc: Float64 = %zero
  let %i: Int64 = %i0
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %x: Float64 = index.load %a[%i]
  %y: Float64 = index.load %b[%i]
  %p: Float64 = mul %x, %y
  %acc2: Float64 = add %acc, %p
  set %acc = %acc2
  %one: Int64 = const 1
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func dot32(%x: Float32[]Shape[?], %y: Float32[]Shape[?]) -> Float32 {
entry:
  %n: Int64 = dim %x, 0
  %zero: Float32 = const 0.0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  let %acc: Float32 = %zero
  let %i: Int64 = %i0
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %a: Float32 = index.load %x[%i]
  %b: Float32 = index.load %y[%i]
  %p: Float32 = mul %a, %b
  %acc2: Float32 = add %acc, %p
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}
