; pipeline: insert-checks
; A 1-D load with an explicit location and a store with an implicit one:
; each index is widened to Int64 (only when it is not already) and checked
; with one unsigned compare against the dim.
module ic1

func get(%a: Float64[]Shape[?], %i: Int32) -> Float64 {
entry:
  %v: Float64 = index.load %a[%i] !loc "k.py":3:9
  return %v
}

func put(%a: &Float64[]Shape[4], %i: Int64, %x: Float64) {
entry:
  index.store %a[%i], %x
  return
}
