; Scratch buffers and the sqrt intrinsic: reversal through an allocated
; buffer, running means from an allocated prefix-sum array, mean and
; standard deviation (calls between functions), vector norm, and an
; elementwise "(),()->()" hypot ufunc.
module stats
import intrinsic sqrt = sqrt

func reverse_into(%x: Float64[]Shape[?], %out: &Float64[]Shape[?]) {
entry:
  %n: Int64 = dim %x, 0
  %buf: Float64[] = alloc %n
  %sb: Int64 = stride %buf, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %z
  br fill
fill:
  %more: Bool = lt %i, %n
  condbr %more, fillbody, copy0
fillbody:
  %v: Float64 = index.load %x[%i]
  %off: Int64 = mul %i, %sb
  store %buf, %off, %v
  %i2: Int64 = add %i, %one
  set %i = %i2
  br fill
copy0:
  set %i = %z
  br copy
copy:
  %more2: Bool = lt %i, %n
  condbr %more2, copybody, done
copybody:
  %last: Int64 = sub %n, %one
  %src: Int64 = sub %last, %i
  %w: Float64 = index.load %buf[%src]
  index.store %out[%i], %w
  %i3: Int64 = add %i, %one
  set %i = %i3
  br copy
done:
  return
}

func running_mean(%x: Float32[]Shape[?], %out: &Float32[]Shape[?]) {
  doc "out[i] = mean(x[0..=i]) from a Float32 prefix-sum scratch array."
entry:
  %n: Int64 = dim %x, 0
  %pre: Float32[] = alloc %n
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
  %v: Float32 = index.load %x[%i]
  %acc2: Float32 = add %acc, %v
  set %acc = %acc2
  index.store %pre[%i], %acc2
  %p: Float32 = index.load %pre[%i]
  %i1: Int64 = add %i, %one
  %cnt: Float32 = cast %i1
  %m: Float32 = div %p, %cnt
  index.store %out[%i], %m
  set %i = %i1
  br head
done:
  return
}

func mean(%x: Float64[]Shape[?]) -> Float64 {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %s: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %s2: Float64 = add %s, %v
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %nf: Float64 = cast %n
  %m: Float64 = div %s, %nf
  return %m
}

func stddev(%x: Float64[]Shape[?]) -> Float64 {
  doc "Population standard deviation, two passes."
entry:
  %mu: Float64 = call mean(%x)
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %s: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %d: Float64 = sub %v, %mu
  %d2: Float64 = mul %d, %d
  %s2: Float64 = add %s, %d2
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %nf: Float64 = cast %n
  %var: Float64 = div %s, %nf
  %r: Float64 = call sqrt(%var)
  return %r
}

func norm2(%x: Float64[]Shape[?]) -> Float64 {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %s: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %v2: Float64 = mul %v, %v
  %s2: Float64 = add %s, %v2
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %r: Float64 = call sqrt(%s)
  return %r
}

ufunc hypot(%a: Float64, %b: Float64) -> Float64 "(),()->()" {
entry:
  %a2: Float64 = mul %a, %a
  %b2: Float64 = mul %b, %b
  %s: Float64 = add %a2, %b2
  %r: Float64 = call sqrt(%s)
  return %r
}
