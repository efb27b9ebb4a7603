; pipeline: const-fold
; `dim` of a static axis and `stride` fixed by the type (a static shape and
; its layout) fold; a dynamic axis does not, nor any stride of an array
; whose shape has a dynamic dimension.
module cfd

func f(%a: Float32[]Shape[3, ?], %b: Float64[]Shape[2, 5]FOrder) -> Int64 {
entry:
  %d0: Int64 = dim %a, 0
  %d1: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %t1: Int64 = stride %b, 1
  %x: Int64 = add %d0, %d1
  %y: Int64 = add %s0, %s1
  %z: Int64 = add %x, %y
  %w: Int64 = add %z, %t1
  return %w
}
