; `(3)->(3)`: `b[i] = 2 * a[i]`, its operands of static shape, so a core
; step other than 8 bytes makes the inner loop copy them.
module dev
ufunc twice(%a: Float64[]Shape[3], %b: &Float64[]Shape[3]) "(3)->(3)" {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %three: Int64 = const 3
  %two: Float64 = const 2.0
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %three
  condbr %more, body, done
body:
  %x: Float64 = index.load %a[%i]
  %y: Float64 = mul %x, %two
  index.store %b[%i], %y
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}
