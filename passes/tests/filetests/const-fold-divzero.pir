; pipeline: const-fold
; Divisions by a constant zero are never folded (they must panic at run
; time), in every integer dtype and for both fdiv and mod; a negative shift
; count and a negative exponent are not folded either. What follows such
; an instruction never runs: it is left unfolded and the block ends in
; `unreachable` instead of its terminator. Float division by zero is not a
; panic and folds to inf / nan as NumPy gives.
module cfdz

func q() -> Int64 {
entry:
  %a: Int64 = const 7
  %z: Int64 = const 0
  %q: Int64 = fdiv %a, %z
  %after: Int64 = add %a, %a
  return %after
}

func r(%c: Bool) -> Int64 {
entry:
  %a: Int64 = const 7
  %z: Int64 = const 0
  condbr %c, yes, no
yes:
  %r: Int64 = mod %a, %z
  br no
no:
  return %a
}

func uq() -> UInt8 {
entry:
  %ua: UInt8 = const 7
  %uz: UInt8 = const 0
  %uq: UInt8 = fdiv %ua, %uz
  return %uq
}

func s() -> Int64 {
entry:
  %a: Int64 = const 7
  %m1: Int64 = const -1
  %s: Int64 = shl %a, %m1
  return %s
}

func p() -> Int64 {
entry:
  %a: Int64 = const 7
  %m1: Int64 = const -1
  %p: Int64 = pow %a, %m1
  return %p
}

func floats() -> Float64 {
entry:
  %a: Int64 = const 7
  %z: Int64 = const 0
  %x: Float64 = const 1.0
  %fz: Float64 = const 0.0
  %fd: Float64 = div %x, %fz
  %fq: Float64 = fdiv %x, %fz
  %fm: Float64 = mod %x, %fz
  %zz: Float64 = div %fz, %fz
  %t: Float64 = div %a, %z
  return %fd
}
