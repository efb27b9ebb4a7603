; pipeline: const-fold
; Saturating float-to-int casts (nan → 0, inf → MAX, -1e10 → MIN for Int32,
; -1.5 → 0 for UInt8, 2.9 → 2), sign/zero extension and truncation,
; number → Bool.
module cfc

func f() -> Int64 {
entry:
  %nan: Float64 = const nan
  %inf: Float64 = const inf
  %big: Float64 = const -1e10
  %neg: Float64 = const -1.5
  %x: Float64 = const 2.9
  %a: Int32 = cast %nan
  %b: Int64 = cast %inf
  %c: Int32 = cast %big
  %d: UInt8 = cast %neg
  %e: Int16 = cast %x
  %m: Int8 = const -1
  %f: UInt16 = cast %m
  %g: Int64 = cast %m
  %w: Int64 = const 300
  %h: UInt8 = cast %w
  %k: Bool = cast %x
  %r: Int64 = cast %a
  return %r
}
