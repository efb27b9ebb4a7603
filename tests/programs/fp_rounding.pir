; Floating-point rounding: Float16 and Float32 results are rounded to the
; dtype after every operation (the Float16 harmonic series stalls; 0.1
; accumulates error), Kahan summation in Float32, Float16 overflow to inf,
; and Float64 pow.
module fp_rounding

func harmonic16(%n: Int64) -> Float16 {
entry:
  %one: Int64 = const 1
  %h1: Float16 = const 1.0
  %hz: Float16 = const 0.0
  let %acc: Float16 = %hz
  let %i: Int64 = %one
  br head
head:
  %more: Bool = le %i, %n
  condbr %more, body, done
body:
  %fi: Float16 = cast %i
  %t: Float16 = div %h1, %fi
  %acc2: Float16 = add %acc, %t
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func harmonic32(%n: Int64) -> Float32 {
entry:
  %one: Int64 = const 1
  %h1: Float32 = const 1.0
  %hz: Float32 = const 0.0
  let %acc: Float32 = %hz
  let %i: Int64 = %one
  br head
head:
  %more: Bool = le %i, %n
  condbr %more, body, done
body:
  %fi: Float32 = cast %i
  %t: Float32 = div %h1, %fi
  %acc2: Float32 = add %acc, %t
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func sum_tenths16(%n: Int64) -> Float16 {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %d: Float64 = const 0.1
  %tenth: Float16 = cast %d
  %hz: Float16 = const 0.0
  let %acc: Float16 = %hz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %acc2: Float16 = add %acc, %tenth
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func kahan32(%x: Float32[]Shape[?]) -> Float32 {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float32 = const 0.0
  let %sum: Float32 = %fz
  let %c: Float32 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float32 = index.load %x[%i]
  %y: Float32 = sub %v, %c
  %t: Float32 = add %sum, %y
  %u: Float32 = sub %t, %sum
  %c2: Float32 = sub %u, %y
  set %c = %c2
  set %sum = %t
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %sum
}

func naive32(%x: Float32[]Shape[?]) -> Float32 {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float32 = const 0.0
  let %sum: Float32 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float32 = index.load %x[%i]
  %t: Float32 = add %sum, %v
  set %sum = %t
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %sum
}

func f16_ops(%a: Float16, %b: Float16) -> Float16 {
entry:
  %p: Float16 = mul %a, %b
  %s: Float16 = add %p, %a
  %q: Float16 = div %s, %b
  %r: Float16 = sub %q, %a
  return %r
}

func fpow(%a: Float64, %b: Float64) -> Float64 {
entry:
  %r: Float64 = pow %a, %b
  return %r
}

func fneg_abs(%a: Float32) -> Float32 {
entry:
  %n: Float32 = neg %a
  %r: Float32 = abs %n
  return %r
}
