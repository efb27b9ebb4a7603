; pipeline: insert-checks
; Integer fdiv/mod are checked for zero divisors, signed shifts for negative
; counts and signed pow for negative exponents; float fdiv, unsigned shifts
; and integer add (no overflow checks at -O2) are not.
module icd

func f(%a: Int64, %b: Int64, %u: UInt8, %x: Float64) -> Int64 {
entry:
  %q: Int64 = fdiv %a, %b !loc "k.py":1:1
  %r: Int64 = mod %a, %b !loc "k.py":2:1
  %s: Int64 = shl %a, %b !loc "k.py":3:1
  %us: UInt8 = shr %u, %u
  %p: Int64 = pow %a, %b !loc "k.py":4:1
  %fq: Float64 = fdiv %x, %x
  %t: Int64 = add %q, %r
  return %t
}
