; pipeline: strength-reduce
; Floor division and modulo by a positive power of two become an
; arithmetic (signed) or logical (unsigned) shift and a mask; other
; divisors (6, -4, 0), float operands and a divisor that is not a
; constant stay as they are.
module srp

func signed(%x: Int64, %y: Int64) -> Int64 {
entry:
  %two: Int64 = const 2
  %eight: Int64 = const 8
  %six: Int64 = const 6
  %mfour: Int64 = const -4
  %h: Int64 = fdiv %x, %two
  %r: Int64 = mod %x, %eight
  %q6: Int64 = fdiv %x, %six
  %qm: Int64 = fdiv %x, %mfour
  %rm: Int64 = mod %x, %mfour
  %qy: Int64 = fdiv %x, %y
  %s1: Int64 = add %h, %r
  %s2: Int64 = add %s1, %q6
  %s3: Int64 = add %s2, %qm
  %s4: Int64 = add %s3, %rm
  %s5: Int64 = add %s4, %qy
  return %s5
}

func narrow(%x: Int8, %u: UInt8) -> UInt8 {
entry:
  %c64: Int8 = const 64
  %one: Int8 = const 1
  %c128: UInt8 = const 128
  %a: Int8 = fdiv %x, %c64
  %b: Int8 = mod %x, %one
  %c: UInt8 = fdiv %u, %c128
  %d: UInt8 = mod %u, %c128
  %ab: Int8 = add %a, %b
  %abu: UInt8 = cast %ab
  %cd: UInt8 = add %c, %d
  %r: UInt8 = add %abu, %cd
  return %r
}

func floats(%x: Float64) -> Float64 {
entry:
  %two: Float64 = const 2.0
  %q: Float64 = fdiv %x, %two
  %m: Float64 = mod %x, %two
  %r: Float64 = add %q, %m
  return %r
}
