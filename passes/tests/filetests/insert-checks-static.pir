; pipeline: insert-checks
; Checks that constants settle are not emitted: a nonzero constant divisor,
; a non-negative constant shift count or exponent, a constant index within
; a static extent. A zero divisor, a negative count, an index past the
; extent or on an axis of unknown extent is still checked, axis by axis.
module ics

func f(%a: Int64, %m: Float64[]Shape[4, ?]) -> Float64 {
entry:
  %two: Int64 = const 2
  %zero: Int64 = const 0
  %minus: Int64 = const -1
  %three: Int64 = const 3
  %four: Int64 = const 4
  %q: Int64 = fdiv %a, %two !loc "k.py":1:1
  %r: Int64 = mod %a, %zero !loc "k.py":2:1
  %s: Int64 = shl %a, %three !loc "k.py":3:1
  %t: Int64 = shr %a, %minus !loc "k.py":4:1
  %p: Int64 = pow %a, %two !loc "k.py":5:1
  %x: Float64 = index.load %m[%three, %zero] !loc "k.py":6:1
  %y: Float64 = index.load %m[%four, %zero] !loc "k.py":7:1
  return %x
}
