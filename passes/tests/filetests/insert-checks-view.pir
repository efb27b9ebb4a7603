; pipeline: insert-checks
; The checks of a view: its extents are not negative, its offset and
; strides are multiples of the element size (only `%lo` needs a check: the
; strides come from `stride`), and a non-empty view lies within its
; non-empty base. A view of a view reads the inner view's extents and
; strides from its operands. The 0-d view has no extent to check.
module icv

func row(%a: Float64[]Shape[?, ?], %i: Int64, %lo: Int64, %n: Int64) -> Float64 {
entry:
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %off: Int64 = mul %i, %s0
  %r: Float64[]Shape[?] = view %a, %off, [%n], [%s1] !loc "k.py":4:11
  %e: Float64[]Shape[] = view %r, %lo, [], [] !loc "k.py":5:9
  %x: Float64 = index.load %e[]
  return %x
}
