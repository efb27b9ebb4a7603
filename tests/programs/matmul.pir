; Matrix multiply: a "(m,k),(k,n)->(m,n)" gufunc with logical indexing,
; and a Fortran-order kernel addressing memory through byte strides.
module matmul

ufunc matmul(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) "(m,k),(k,n)->(m,n)" core(%m: Int64, %k: Int64, %n: Int64) {
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

func matmul_f(%a: Float64[]Shape[?, ?]FOrder, %b: Float64[]Shape[?, ?]FOrder, %c: &Float64[]Shape[?, ?]FOrder) {
  doc "c = a @ b over Fortran-ordered arrays, byte offsets i*s0 + j*s1."
entry:
  %m: Int64 = dim %a, 0
  %k: Int64 = dim %a, 1
  %n: Int64 = dim %b, 1
  %a0: Int64 = stride %a, 0
  %a1: Int64 = stride %a, 1
  %b0: Int64 = stride %b, 0
  %b1: Int64 = stride %b, 1
  %c0: Int64 = stride %c, 0
  %c1: Int64 = stride %c, 1
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
  %oa0: Int64 = mul %i, %a0
  %oa1: Int64 = mul %p, %a1
  %oa: Int64 = add %oa0, %oa1
  %ob0: Int64 = mul %p, %b0
  %ob1: Int64 = mul %j, %b1
  %ob: Int64 = add %ob0, %ob1
  %av: Float64 = load %a, %oa
  %bv: Float64 = load %b, %ob
  %prod: Float64 = mul %av, %bv
  %acc2: Float64 = add %acc, %prod
  set %acc = %acc2
  %p2: Int64 = add %p, %one
  set %p = %p2
  br inner
store:
  %oc0: Int64 = mul %i, %c0
  %oc1: Int64 = mul %j, %c1
  %oc: Int64 = add %oc0, %oc1
  store %c, %oc, %acc
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
