; Polynomial evaluation by Horner's rule: a "(),(n)->()" gufunc over
; Float64 and a Float32 function addressing by byte offsets.
module horner

ufunc horner(%x: Float64, %c: Float64[]Shape[?]) -> Float64 "(),(n)->()" core(%n: Int64) {
  doc "c[0]*x**(n-1) + ... + c[n-1]"
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %ci: Float64 = index.load %c[%i]
  %t: Float64 = mul %acc, %x
  %acc2: Float64 = add %t, %ci
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func horner32(%x: Float32, %c: Float32[]Shape[?]) -> Float32 {
entry:
  %n: Int64 = dim %c, 0
  %s: Int64 = stride %c, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float32 = const 0.0
  let %acc: Float32 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %off: Int64 = mul %i, %s
  %ci: Float32 = load %c, %off
  %t: Float32 = mul %acc, %x
  %acc2: Float32 = add %t, %ci
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}
