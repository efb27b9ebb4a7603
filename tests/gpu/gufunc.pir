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
