; Integer hashing with wrapping arithmetic: FNV-1a (UInt64) over a byte
; array, MurmurHash3's fmix32 (UInt32), and xorshift generators whose
; left shifts are masked so that no bit is shifted out.
module hashing

func fnv1a64(%data: UInt8[]Shape[?]) -> UInt64 {
entry:
  %n: Int64 = dim %data, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %basis: UInt64 = const 14695981039346656037
  %prime: UInt64 = const 1099511628211
  let %h: UInt64 = %basis
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %b: UInt8 = index.load %data[%i]
  %b64: UInt64 = cast %b
  %x: UInt64 = bxor %h, %b64
  %h2: UInt64 = mul %x, %prime !loc "kernels.py":8:9
  set %h = %h2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %h
}

func fmix32(%h0: UInt32) -> UInt32 {
entry:
  %c16: UInt32 = const 16
  %c13: UInt32 = const 13
  %k1: UInt32 = const 2246822507
  %k2: UInt32 = const 3266489909
  %a: UInt32 = shr %h0, %c16
  %b: UInt32 = bxor %h0, %a
  %c: UInt32 = mul %b, %k1
  %d: UInt32 = shr %c, %c13
  %e: UInt32 = bxor %c, %d
  %f: UInt32 = mul %e, %k2
  %g: UInt32 = shr %f, %c16
  %h: UInt32 = bxor %f, %g
  return %h
}

func xorshift32(%seed: UInt32, %rounds: Int64) -> UInt32 {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %m13: UInt32 = const 524287
  %m5: UInt32 = const 134217727
  %c13: UInt32 = const 13
  %c17: UInt32 = const 17
  %c5: UInt32 = const 5
  let %x: UInt32 = %seed
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %rounds
  condbr %more, body, done
body:
  %a0: UInt32 = band %x, %m13
  %a1: UInt32 = shl %a0, %c13
  %a: UInt32 = bxor %x, %a1
  %b1: UInt32 = shr %a, %c17
  %b: UInt32 = bxor %a, %b1
  %c0: UInt32 = band %b, %m5
  %c1: UInt32 = shl %c0, %c5
  %c: UInt32 = bxor %b, %c1
  set %x = %c
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %x
}

func xorshift64_fill(%seed: UInt64, %out: &UInt64[]Shape[?]) {
entry:
  %n: Int64 = dim %out, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %m13: UInt64 = const 2251799813685247
  %m17: UInt64 = const 140737488355327
  %c13: UInt64 = const 13
  %c7: UInt64 = const 7
  %c17: UInt64 = const 17
  let %x: UInt64 = %seed
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %a0: UInt64 = band %x, %m13
  %a1: UInt64 = shl %a0, %c13
  %a: UInt64 = bxor %x, %a1
  %b1: UInt64 = shr %a, %c7
  %b: UInt64 = bxor %a, %b1
  %c0: UInt64 = band %b, %m17
  %c1: UInt64 = shl %c0, %c17
  %c: UInt64 = bxor %b, %c1
  set %x = %c
  index.store %out[%i], %c
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}
