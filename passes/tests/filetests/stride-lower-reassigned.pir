; pipeline: stride-lower
; An array that `set` reassigns (a let local, or a parameter) may be another
; view at each access: its strides are read right before each access, not
; hoisted. An array never reassigned still gets one hoisted read.
module slr

func f(%a: Float64[]Shape[?], %b: Float64[]Shape[?], %c: Bool) -> Float64 {
entry:
  let %x: Float64[]Shape[?] = %a
  condbr %c, sw, go
sw:
  set %x = %b
  br go
go:
  %one: Int64 = const 1
  %v: Float64 = index.load %x[%one]
  %w: Float64 = index.load %b[%one]
  %s: Float64 = add %v, %w
  return %s
}

func g(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 {
entry:
  set %a = %b
  %one: Int64 = const 1
  %v: Float64 = index.load %a[%one]
  return %v
}
