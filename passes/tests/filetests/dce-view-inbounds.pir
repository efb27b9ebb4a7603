; pipeline: dce
; A `view.inbounds` cannot panic, so dce removes one that nothing reads
; even before `insert-checks` has run; a plain `view` stays until then
; (`dce-view-unchecked.pir`), and so it does here.
module dcevib

func unused(%a: Float64[]Shape[?], %lo: Int64, %n: Int64) -> Int64 {
entry:
  %s: Int64 = stride %a, 0
  %v: Float64[]Shape[?] = view.inbounds %a, %lo, [%n], [%s] !loc "k.py":8:5
  %w: Float64[]Shape[?] = view %a, %lo, [%n], [%s] !loc "k.py":9:5
  return %n
}
