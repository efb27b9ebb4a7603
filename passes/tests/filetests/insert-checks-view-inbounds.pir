; pipeline: insert-checks
; A `view.inbounds` is valid by construction (the frontend's views), so
; `insert-checks` leaves it unchecked; the plain `view` of the same row
; next to it keeps its checks (extent, non-empty base, span; `%off` is a
; multiple of a stride, so it needs no alignment check).
module icvib

func rows(%a: Float64[]Shape[?, ?], %i: Int64, %n: Int64) -> Float64 {
entry:
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %off: Int64 = mul %i, %s0
  %r: Float64[]Shape[?] = view.inbounds %a, %off, [%n], [%s1] !loc "k.py":4:11
  %q: Float64[]Shape[?] = view %a, %off, [%n], [%s1] !loc "k.py":5:11
  %x: Float64 = call f(%r)
  %y: Float64 = call f(%q)
  %z: Float64 = add %x, %y
  return %z
}

func f(%v: Float64[]Shape[?]) -> Float64 {
entry:
  %z: Float64 = const 0.0
  return %z
}
