; pipeline: forward-sets
; `%r` is assigned once, in the loop, the view made just before in the
; same block: the reads the assignment dominates (the row's extent and
; element in the loop) read the view itself, and as nothing reads `%r`
; any more it goes with its assignment. `%q` is assigned twice, and
; the read of `%p` after the loop is not dominated by its assignment in
; the loop (the loop may not run): those reads stay.
module fs

func rows(%a: Float64[]Shape[?, ?]) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %n: Int64 = dim %a, 0
  %m: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %e: Int64 = const 0
  %init: Float64[]Shape[?] = alloc %e
  let %r: Float64[]Shape[?] = %init
  let %q: Float64[]Shape[?] = %init
  let %p: Float64[]Shape[?] = %init
  %fz: Float64 = const 0.0
  let %s: Float64 = %fz
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %off: Int64 = mul %i, %s0
  %row: Float64[]Shape[?] = view.inbounds %a, %off, [%m], [%s1]
  set %r = %row
  set %p = %row
  set %q = %row
  set %q = %init
  %len: Int64 = dim %r, 0
  %x: Float64 = index.load %r[%zero]
  %y: Float64 = index.load %q[%zero]
  %t: Float64 = add %x, %y
  %s2: Float64 = add %s, %t
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %last: Int64 = dim %p, 0
  %lf: Float64 = cast %last
  %out: Float64 = add %s, %lf
  return %out
}
