; Position-weighted 2-D sums over strided views: a transposed Int32 array
; and a reversed, step-sliced Float64 array (negative stride, non-zero
; offset). The weight 100*i + j makes the result depend on the index map.
module strided_sum

func wsum_t(%a: Int32[]Shape[?, ?]Strides[4, 16]) -> Int64 {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %hundred: Int64 = const 100
  let %acc: Int64 = %z
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
  %o0: Int64 = mul %i, %s0
  %o1: Int64 = mul %j, %s1
  %off: Int64 = add %o0, %o1
  %v: Int32 = load %a, %off
  %v64: Int64 = cast %v
  %w0: Int64 = mul %i, %hundred
  %w: Int64 = add %w0, %j
  %t: Int64 = mul %v64, %w
  %acc2: Int64 = add %acc, %t
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

func wsum_rev(%a: Float64[]Shape[?, ?]Strides[-48, 16]) -> Float64 {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %hundred: Int64 = const 100
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
  %o0: Int64 = mul %i, %s0
  %o1: Int64 = mul %j, %s1
  %off: Int64 = add %o0, %o1
  %v: Float64 = load %a, %off
  %w0: Int64 = mul %i, %hundred
  %w: Int64 = add %w0, %j
  %wf: Float64 = cast %w
  %t: Float64 = mul %v, %wf
  %acc2: Float64 = add %acc, %t
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

func scale_cols(%a: &Float32[]Shape[?, ?]Strides[4, 24], %f: Float32) {
  doc "Multiplies every element of a strided view in place."
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
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
  %v: Float32 = index.load %a[%i, %j]
  %v2: Float32 = mul %v, %f
  index.store %a[%i, %j], %v2
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
