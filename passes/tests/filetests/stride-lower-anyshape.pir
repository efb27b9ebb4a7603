; pipeline: stride-lower
; No shape at all (AnyShape): even the last axis' stride is read at run time
; (a view may be strided); a 0-d array has offset 0.
module sla

func f(%a: UInt8[], %z: &Float64[]Shape[], %i: Int64) -> UInt8 {
entry:
  %x: UInt8 = index.load %a[%i]
  %w: Float64 = cast %x
  index.store %z[], %w
  return %x
}
