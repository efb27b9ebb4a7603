; The kernels of the generated-code speed comparison (scripts/bench-codegen):
; the same four kernels as benches/c/kernels.c, over the same ABI.
module kernels
export saxpy, dot, matmul, sum2d

func saxpy(%a: Float32, %x: Float32[]Shape[?], %y: &Float32[]Shape[?]) {
  doc "y[i] = a * x[i] + y[i]"
entry:
  %n: Int64 = dim %y, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %xi: Float32 = index.load %x[%i]
  %yi: Float32 = index.load %y[%i]
  %p: Float32 = mul %a, %xi
  %s: Float32 = add %p, %yi
  index.store %y[%i], %s
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func dot(%x: Float64[]Shape[?], %y: Float64[]Shape[?]) -> Float64 {
  doc "sum of x[i] * y[i], accumulated in order"
entry:
  %n: Int64 = dim %x, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %a: Float64 = index.load %x[%i]
  %b: Float64 = index.load %y[%i]
  %p: Float64 = mul %a, %b
  %acc2: Float64 = add %acc, %p
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func matmul(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) {
  doc "c = a @ b, loops i, j, p"
entry:
  %m: Int64 = dim %a, 0
  %k: Int64 = dim %a, 1
  %n: Int64 = dim %b, 1
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

func sum2d(%a: Float64[]Shape[?, ?]) -> Float64 {
  doc "sum of a 2-D view in logical row-major order, any strides"
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %z
  let %j: Int64 = %z
  br rows
rows:
  %ri: Bool = lt %i, %m
  condbr %ri, row, done
row:
  set %j = %z
  br cols
cols:
  %cj: Bool = lt %j, %n
  condbr %cj, body, rownext
body:
  %v: Float64 = index.load %a[%i, %j]
  %acc2: Float64 = add %acc, %v
  set %acc = %acc2
  %j2: Int64 = add %j, %one
  set %j = %j2
  br cols
rownext:
  %i2: Int64 = add %i, %one
  set %i = %i2
  br rows
done:
  return %acc
}
