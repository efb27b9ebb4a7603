; Unsigned and 16-bit integers: wrapping subtraction, unsigned compares
; above the signed range, floor division and modulo, integer powers by
; squaring (wrapping), and Euclid's gcd.
module unsigned

func usub16(%a: UInt16, %b: UInt16) -> UInt16 {
entry:
  %r: UInt16 = sub %a, %b
  return %r
}

func ucmp64(%a: UInt64, %b: UInt64) -> Int32 {
entry:
  %l: Bool = lt %a, %b
  %g: Bool = gt %a, %b
  %m1: Int32 = const -1
  %p1: Int32 = const 1
  %z: Int32 = const 0
  %x: Int32 = select %g, %p1, %z
  %r: Int32 = select %l, %m1, %x
  return %r
}

func udivmod32(%a: UInt32, %b: UInt32, %out: &UInt32[]Shape[2]) {
entry:
  %q: UInt32 = fdiv %a, %b
  %r: UInt32 = mod %a, %b
  %i0: Int64 = const 0
  %i1: Int64 = const 1
  index.store %out[%i0], %q
  index.store %out[%i1], %r
  return
}

func upow32(%a: UInt32, %b: UInt32) -> UInt32 {
entry:
  %r: UInt32 = pow %a, %b !loc "kernels.py":88:12
  return %r
}

func ipow16(%a: Int16, %b: Int16) -> Int16 {
entry:
  %r: Int16 = pow %a, %b
  return %r
}

func gcd64(%a0: UInt64, %b0: UInt64) -> UInt64 {
entry:
  %u0: UInt64 = const 0
  let %a: UInt64 = %a0
  let %b: UInt64 = %b0
  br head
head:
  %more: Bool = ne %b, %u0
  condbr %more, body, done
body:
  %r: UInt64 = mod %a, %b
  set %a = %b
  set %b = %r
  br head
done:
  return %a
}

func i16_floor_avg(%a: Int16, %b: Int16) -> Int16 {
entry:
  %two: Int16 = const 2
  %s: Int16 = add %a, %b
  %r: Int16 = fdiv %s, %two
  return %r
}
