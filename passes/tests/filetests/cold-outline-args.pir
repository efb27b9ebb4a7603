; pipeline: insert-checks,cold-outline
; A bounds check passes the bad index and the size to its thunk.
module coa

func get(%a: Float64[]Shape[?], %i: Int64) -> Float64 {
entry:
  %v: Float64 = index.load %a[%i] !loc "k.py":3:9
  return %v
}
