; pipeline: stride-lower,dce
; Without `insert-checks` first, a view may still be invalid and panic:
; `dce` keeps it even when nothing reads it (`dce-view.pir` runs the checks
; first).
module dcev

func row_at(%a: Float64[]Shape[?, ?], %i: Int64, %j: Int64) -> Float64 {
entry:
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %n: Int64 = dim %a, 1
  %off: Int64 = mul %i, %s0
  %r: Float64[]Shape[?] = view %a, %off, [%n], [%s1] !loc "k.py":4:11
  %x: Float64 = index.load %r[%j] !loc "k.py":5:11
  return %x
}

func unused(%a: Float64[]Shape[?], %lo: Int64, %n: Int64) -> Int64 {
entry:
  %s: Int64 = stride %a, 0
  %v: Float64[]Shape[?] = view %a, %lo, [%n], [%s] !loc "k.py":8:5
  return %n
}
