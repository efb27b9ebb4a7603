; pipeline: const-fold
; Without overflow checks integer arithmetic wraps: 127 + 1 = -128 (Int8),
; 0 - 1 = 255 (UInt8), MIN // -1 = MIN, 200 * 2 = 144 (UInt8), neg MIN = MIN.
module cfw

func f() -> Int8 {
entry:
  %a: Int8 = const 127
  %one: Int8 = const 1
  %s: Int8 = add %a, %one
  %z: UInt8 = const 0
  %u1: UInt8 = const 1
  %d: UInt8 = sub %z, %u1
  %min: Int8 = const -128
  %m1: Int8 = const -1
  %q: Int8 = fdiv %min, %m1
  %n: Int8 = neg %min
  %h: UInt8 = const 200
  %two: UInt8 = const 2
  %p: UInt8 = mul %h, %two
  %r: Int8 = add %s, %q
  return %r
}
