; Python floor division and modulo: an Int64 table over negative and
; positive operands, Int8 edge cases (MIN // -1 wraps, by zero panics),
; Float64 // and % (NumPy: by zero gives inf/nan), and true division of
; integers into a Float64.
module floordiv

func divmod_table(%a: Int64[]Shape[?], %b: Int64[]Shape[?], %q: &Int64[]Shape[?, ?], %r: &Int64[]Shape[?, ?]) {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %b, 0
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
  %x: Int64 = index.load %a[%i]
  %y: Int64 = index.load %b[%j]
  %qq: Int64 = fdiv %x, %y
  %rr: Int64 = mod %x, %y
  index.store %q[%i, %j], %qq
  index.store %r[%i, %j], %rr
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

; Division and modulo by constants: powers of two (a shift and a mask
; after strength-reduce) and others, signed and unsigned.
func by_consts(%x: Int64, %u: UInt8, %out: &Int64[]Shape[8]) {
entry:
  %two: Int64 = const 2
  %eight: Int64 = const 8
  %ten: Int64 = const 10
  %c128: UInt8 = const 128
  %c6: UInt8 = const 6
  %q2: Int64 = fdiv %x, %two
  %r2: Int64 = mod %x, %two
  %q8: Int64 = fdiv %x, %eight
  %r8: Int64 = mod %x, %eight
  %q10: Int64 = fdiv %x, %ten
  %r10: Int64 = mod %x, %ten
  %qu: UInt8 = fdiv %u, %c128
  %ru: UInt8 = mod %u, %c6
  %qu64: Int64 = cast %qu
  %ru64: Int64 = cast %ru
  %k0: Int64 = const 0
  %k1: Int64 = const 1
  %k2: Int64 = const 2
  %k3: Int64 = const 3
  %k4: Int64 = const 4
  %k5: Int64 = const 5
  %k6: Int64 = const 6
  %k7: Int64 = const 7
  index.store %out[%k0], %q2
  index.store %out[%k1], %r2
  index.store %out[%k2], %q8
  index.store %out[%k3], %r8
  index.store %out[%k4], %q10
  index.store %out[%k5], %r10
  index.store %out[%k6], %qu64
  index.store %out[%k7], %ru64
  return
}

func fdiv8(%a: Int8, %b: Int8) -> Int8 {
entry:
  %q: Int8 = fdiv %a, %b !loc "kernels.py":30:12
  return %q
}

func mod8(%a: Int8, %b: Int8) -> Int8 {
entry:
  %r: Int8 = mod %a, %b
  return %r
}

func fdiv_f(%a: Float64, %b: Float64) -> Float64 {
entry:
  %q: Float64 = fdiv %a, %b
  return %q
}

func mod_f(%a: Float64, %b: Float64) -> Float64 {
entry:
  %r: Float64 = mod %a, %b
  return %r
}

func truediv(%a: Int32, %b: Int32) -> Float64 {
entry:
  %r: Float64 = div %a, %b
  return %r
}

; The truncating primitives that `legalize` writes integer `//` and `%`
; in: `quot` rounds toward zero, `rem` takes the dividend's sign (never by
; zero, nor MIN by -1). Returns q * 1000 + r.
func truncating(%a: Int32, %b: Int32) -> Int32 {
entry:
  %q: Int32 = quot %a, %b
  %r: Int32 = rem %a, %b
  %k: Int32 = const 1000
  %qk: Int32 = mul %q, %k
  %s: Int32 = add %qk, %r
  return %s
}

; The unsigned ones.
func utruncating(%a: UInt16, %b: UInt16) -> UInt16 {
entry:
  %q: UInt16 = quot %a, %b
  %r: UInt16 = rem %a, %b
  %k: UInt16 = const 100
  %qk: UInt16 = mul %q, %k
  %s: UInt16 = add %qk, %r
  return %s
}
