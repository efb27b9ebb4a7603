; Counted loops whose bounds checks can fail part way: the loop bound is
; not the extent of every array indexed, indices are offset from the
; counter, or a check runs only on some iterations. Each kernel writes its
; outputs as it goes, so a panic leaves the iterations before it done.
module loop_bounds

func saxpy_len_x(%a: Float32, %x: Float32[]Shape[?], %y: &Float32[]Shape[?]) {
  doc "y[i] += a * x[i] for i < len(x): y may be shorter"
entry:
  %n: Int64 = dim %x, 0
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

func stencil3(%x: Float64[]Shape[?], %out: &Float64[]Shape[?], %lo: Int64) {
  doc "out[i] = x[i-1] + 2 x[i] + x[i+1] for lo <= i < len(out)"
entry:
  %n: Int64 = dim %out, 0
  %one: Int64 = const 1
  %two: Float64 = const 2.0
  let %i: Int64 = %lo
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %im1: Int64 = sub %i, %one
  %ip1: Int64 = add %i, %one
  %l: Float64 = index.load %x[%im1]
  %c: Float64 = index.load %x[%i]
  %r: Float64 = index.load %x[%ip1]
  %c2: Float64 = mul %two, %c
  %s: Float64 = add %l, %c2
  %t: Float64 = add %s, %r
  index.store %out[%i], %t
  set %i = %ip1
  br head
done:
  return
}

func fill_step3(%x: &Int64[]Shape[?], %start: Int64, %n: Int64) {
  doc "x[i] = i * i for i = start, start + 3, ... below n"
entry:
  %three: Int64 = const 3
  let %i: Int64 = %start
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %sq: Int64 = mul %i, %i
  index.store %x[%i], %sq
  %next: Int64 = add %i, %three
  set %i = %next
  br head
done:
  return
}

func row_sum(%a: Float64[]Shape[?, ?], %r: Int64, %m: Int64) -> Float64 {
  doc "a[r, 0] + ... + a[r, m-1]"
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %j: Int64 = %zero
  br head
head:
  %more: Bool = lt %j, %m
  condbr %more, body, done
body:
  %v: Float64 = index.load %a[%r, %j]
  %acc2: Float64 = add %acc, %v
  set %acc = %acc2
  %next: Int64 = add %j, %one
  set %j = %next
  br head
done:
  return %acc
}

func every_third(%x: Float64[]Shape[?], %n: Int64) -> Float64 {
  doc "x[0] + x[3] + x[6] + ... over i < n: only those i are read"
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %three: Int64 = const 3
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %k: Int64 = mod %i, %three
  %hit: Bool = eq %k, %zero
  condbr %hit, take, skip
take:
  %v: Float64 = index.load %x[%i]
  %acc2: Float64 = add %acc, %v
  set %acc = %acc2
  br skip
skip:
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %acc
}
