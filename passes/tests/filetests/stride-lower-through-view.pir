; pipeline: stride-lower
; An access through a view of the function is an access of the base at
; the view's offset plus the access's; through a view of a view, of the
; first base, adding both offsets. `dim` and `stride` of such a view are its
; extent and stride operands. The views themselves stay (only `dce` after
; `insert-checks` removes them). Where `set` reassigns the base, the view
; is used as it is.
module slt

func corner(%a: &Float64[]Shape[?, ?], %i: Int64, %j: Int64) -> Float64 {
entry:
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %n: Int64 = dim %a, 1
  %off: Int64 = mul %i, %s0
  %r: Float64[]Shape[?] = view %a, %off, [%n], [%s1]
  %two: Int64 = const 2
  %s2: Int64 = mul %s1, %two
  %half: Int64 = quot %n, %two
  %e: Float64[]Shape[?] = view %r, %s1, [%half], [%s2]
  %x: Float64 = index.load %e[%j]
  %m: Int64 = dim %e, 0
  %k: Int64 = stride %e, 0
  %mk: Int64 = mul %m, %k
  %y: Float64 = cast %mk
  %z: Float64 = add %x, %y
  index.store %r[%j], %z
  return %z
}

func moved(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 {
entry:
  %z: Int64 = const 0
  %s: Int64 = stride %a, 0
  %n: Int64 = dim %a, 0
  %v: Float64[]Shape[?] = view %a, %z, [%n], [%s]
  set %a = %b
  %x: Float64 = index.load %v[%z]
  %m: Int64 = dim %v, 0
  %y: Float64 = cast %m
  %r: Float64 = add %x, %y
  return %r
}
