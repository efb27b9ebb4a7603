; Generalized ufuncs on the GPU: one loop index per thread, each running
; the ufunc's core computation over its core dimensions.
module gufunc

ufunc matmul(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) "(m,k),(k,n)->(m,n)" core(%m: Int64, %k: Int64, %n: Int64) gpu {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %z
  let %j: Int64 = %z
  let %p: Int64 = %z
  let %acc: Float64 = %fz
  br rows
rows:
  %ri: Bool = lt %i, %m
  condbr %ri, row, done
row:
  set %j = %z
  br cols
cols:
  %cj: Bool = lt %j, %n
  condbr %cj, col, rownext
col:
  set %acc = %fz
  set %p = %z
  br inner
inner:
  %kp: Bool = lt %p, %k
  condbr %kp, mac, store
mac:
  %av: Float64 = index.load %a[%i, %p]
  %bv: Float64 = index.load %b[%p, %j]
  %prod: Float64 = mul %av, %bv
  %acc2: Float64 = add %acc, %prod
  set %acc = %acc2
  %p2: Int64 = add %p, %one
  set %p = %p2
  br inner
store:
  index.store %c[%i, %j], %acc
  %j2: Int64 = add %j, %one
  set %j = %j2
  br cols
rownext:
  %i2: Int64 = add %i, %one
  set %i = %i2
  br rows
done:
  return
}

ufunc rowsum(%a: Float32[]Shape[?]) -> Float32 "(n)->()" core(%n: Int64) gpu {
  doc "Sum of a row, accumulated in Float32."
entry:
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
  %x: Float32 = index.load %a[%i]
  %acc2: Float32 = add %acc, %x
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

; The cross product of 3-vectors. Its parameter types fix the core strides
; (one Float64 apart), so an operand whose core step differs goes through a
; scratch copy in the loop: on a GPU, each thread's part of a buffer the
; launch gets from the arena.
ufunc cross(%a: Float64[]Shape[3], %b: Float64[]Shape[3], %c: &Float64[]Shape[3]) "(3),(3)->(3)" gpu {
entry:
  %i0: Int64 = const 0
  %i1: Int64 = const 1
  %i2: Int64 = const 2
  %a0: Float64 = index.load %a[%i0]
  %a1: Float64 = index.load %a[%i1]
  %a2: Float64 = index.load %a[%i2]
  %b0: Float64 = index.load %b[%i0]
  %b1: Float64 = index.load %b[%i1]
  %b2: Float64 = index.load %b[%i2]
  %p0: Float64 = mul %a1, %b2
  %q0: Float64 = mul %a2, %b1
  %c0: Float64 = sub %p0, %q0
  %p1: Float64 = mul %a2, %b0
  %q1: Float64 = mul %a0, %b2
  %c1: Float64 = sub %p1, %q1
  %p2: Float64 = mul %a0, %b1
  %q2: Float64 = mul %a1, %b0
  %c2: Float64 = sub %p2, %q2
  index.store %c[%i0], %c0
  index.store %c[%i1], %c1
  index.store %c[%i2], %c2
  return
}
