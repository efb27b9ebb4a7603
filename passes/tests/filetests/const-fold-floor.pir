; pipeline: const-fold
; Python floor semantics: -7 // 2 = -4, -7 % 2 = 1, 7 % -2 = -1,
; -7.5 // 2.0 = -4.0, -7.5 % 2.0 = 0.5, 7 / 2 (true division) = 3.5.
module cff

func f() -> Int64 {
entry:
  %a: Int64 = const -7
  %b: Int64 = const 2
  %c: Int64 = const 7
  %d: Int64 = const -2
  %q: Int64 = fdiv %a, %b
  %r: Int64 = mod %a, %b
  %r2: Int64 = mod %c, %d
  %x: Float64 = const -7.5
  %y: Float64 = const 2.0
  %fq: Float64 = fdiv %x, %y
  %fr: Float64 = mod %x, %y
  %i: Int32 = const 7
  %j: Int32 = const 2
  %t: Float64 = div %i, %j
  %s: Int64 = add %q, %r
  %s2: Int64 = add %s, %r2
  return %s2
}
