; pipeline: licm
; The loop over the rows of `%a` that the frontend writes for
; `s += row_sum(a[i])`: the extent and stride reads of `%a` and the
; arithmetic on them are the same on every iteration, so they move to the
; end of `entry`, the loop's preheader (its only predecessor outside the
; loop, ending in `br head`). `%one`, read by `%len` as it moves, goes
; with it; `%zero` stays, as nothing that moves reads it. What reads the
; counter `%i` (a local the loop assigns) stays, and so do the view, the
; call and the `let` declared in the loop. `%half`, a shift by a
; non-negative constant, cannot trap and moves; `%q`, a floor division by
; the parameter `%d`, may trap and stays.
module licmrows

func row_sum(%r: Float64[]Shape[?]) -> Float64 {
entry:
  %z: Float64 = const 0.0
  return %z
}

func sum_rows(%a: Float64[]Shape[?, ?], %d: Int64) -> Float64 {
entry:
  %zero: Int64 = const 0
  %fz: Float64 = const 0.0
  let %i: Int64 = %zero
  let %s: Float64 = %fz
  %rows: Int64 = dim %a, 0
  br head
head:
  %more: Bool = lt %i, %rows
  condbr %more, body, done
body:
  let %t: Int64 = %zero
  %s0: Int64 = stride %a, 0
  %off: Int64 = mul %i, %s0
  %n: Int64 = dim %a, 1
  %one: Int64 = const 1
  %len: Int64 = sub %n, %one
  %half: Int64 = shr %len, %one
  %q: Int64 = fdiv %len, %d
  %s1: Int64 = stride %a, 1
  %v: Float64[]Shape[?] = view.inbounds %a, %off, [%n], [%s1]
  %r: Float64 = call row_sum(%v)
  %acc: Float64 = add %s, %r
  set %s = %acc
  %hq: Int64 = add %half, %q
  set %t = %hq
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %s
}
