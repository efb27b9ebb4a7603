; pipeline: insert-checks,stride-lower
; An array that is not a parameter (an alloc in a later block) gets its
; stride right after its definition, not in the entry block; the bounds
; checks that insert-checks placed first stay in front of the lowered
; accesses.
module slal

func f(%n: Int64) -> Float64 {
entry:
  %one: Int64 = const 1
  br work
work:
  %buf: Float64[] = alloc %n
  %x: Float64 = const 2.5
  index.store %buf[%one], %x
  %y: Float64 = index.load %buf[%one]
  return %y
}
