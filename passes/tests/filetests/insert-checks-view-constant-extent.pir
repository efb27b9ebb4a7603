; pipeline: insert-checks
; A view whose extent on an axis is a constant bounds the constant indices
; on that axis (the view's own checks, or its maker, hold it within its
; base): `%v[7]` is not checked. An index beyond the extent (`%v[8]`) and
; a variable one (`%v[%i]`) keep their checks.
module icvce

func eight(%a: Float64[]Shape[?], %i: Int64, %s: Int64) -> Float64 {
entry:
  %eight: Int64 = const 8
  %off: Int64 = mul %i, %s
  %v: Float64[]Shape[?] = view.inbounds %a, %off, [%eight], [%s] !loc "k.py":3:9
  %last: Int64 = const 7
  %x: Float64 = index.load %v[%last] !loc "k.py":4:9
  %far: Int64 = const 8
  %y: Float64 = index.load %v[%far] !loc "k.py":5:9
  %z: Float64 = index.load %v[%i] !loc "k.py":6:9
  %t: Float64 = add %x, %y
  %u: Float64 = add %t, %z
  return %u
}
