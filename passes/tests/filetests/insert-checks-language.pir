; pipeline: insert-checks
; options: O2, no-bounds-checks, no-div-checks
; The checks that no option switches off: complex zero raised to a negative
; or complex power, a negative `alloc` length, and an `unreachable` that no
; panic call precedes. Constants that settle a check leave it out: a
; nonzero base, an exponent with a non-negative real part and no imaginary
; part, a non-negative length; an `unreachable` after a panic stays alone.
module iclang

func cpow(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %p: Complex128 = pow %a, %b !loc "k.py":2:10
  return %p
}

func cpow_settled(%a: Complex64, %b: Complex64) -> Complex64 {
entry:
  %two: Complex64 = const (2.0+0.0j)
  %base: Complex64 = const (0.5+0.0j)
  %p: Complex64 = pow %a, %two !loc "k.py":5:10
  %q: Complex64 = pow %base, %b !loc "k.py":6:10
  %r: Complex64 = add %p, %q
  return %r
}

func cpow_small(%a: Complex64, %b: Complex64) -> Complex64 {
entry:
  %p: Complex64 = pow %a, %b !loc "k.py":9:10
  return %p
}

func buffers(%n: Int64) -> Float64 {
entry:
  %four: Int64 = const 4
  %a: Float64[] = alloc %n !loc "k.py":12:7
  %b: Float64[] = alloc %four !loc "k.py":13:7
  %x: Float64 = const 0.0
  return %x
}

func never(%c: Bool) -> Int64 {
entry:
  condbr %c, yes, no
yes:
  %m: Str = const "stop"
  call postc.panic(%m) !loc "k.py":17:5
  unreachable !loc "k.py":17:5
no:
  unreachable !loc "k.py":19:1
}
