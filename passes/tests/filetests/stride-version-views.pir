; pipeline: stride-version
; A loop that passes a view of each row of `%a` to a callee, as the
; frontend writes `s += row_sum(a[i])` after `licm`: the view's stride is
; `mul 1, stride %a, 1` (the slice's step times the last axis's stride),
; computed before the loop. The guard compares `stride %a, 1` with 8, and
; in the copy the view's stride is `1 * 8`, computed in the guard, so that
; a backend that inlines the callee knows the row's elements are adjacent.
; `direct` passes the stride itself, which the copy replaces by 8.
; `columns` makes views along axis 0 (at offsets its parameter `%w`
; gives), whose stride no unit element size fixes: it is left alone.
module strideversionviews

func row_sum(%r: Float64[]Shape[?]) -> Float64 {
entry:
  %z: Float64 = const 0.0
  return %z
}

func sum_rows(%a: Float64[]Shape[?, ?]) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %zero
  let %s: Float64 = %fz
  %rows: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %step: Int64 = mul %one, %s1
  br head
head:
  %more: Bool = lt %i, %rows
  condbr %more, body, done
body:
  %off: Int64 = mul %i, %s0
  %v: Float64[]Shape[?] = view.inbounds %a, %off, [%n], [%step]
  %r: Float64 = call row_sum(%v)
  %acc: Float64 = add %s, %r
  set %s = %acc
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %s
}

func direct(%a: Float64[]Shape[?, ?]) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %zero
  let %s: Float64 = %fz
  %rows: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  br head
head:
  %more: Bool = lt %i, %rows
  condbr %more, body, done
body:
  %off: Int64 = mul %i, %s0
  %v: Float64[]Shape[?] = view.inbounds %a, %off, [%n], [%s1]
  %r: Float64 = call row_sum(%v)
  %acc: Float64 = add %s, %r
  set %s = %acc
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %s
}

func columns(%a: Float64[]Shape[?, ?], %w: Int64) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %j: Int64 = %zero
  let %s: Float64 = %fz
  %rows: Int64 = dim %a, 0
  %cols: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  br head
head:
  %more: Bool = lt %j, %cols
  condbr %more, body, done
body:
  %off: Int64 = mul %j, %w
  %v: Float64[]Shape[?] = view.inbounds %a, %off, [%rows], [%s0]
  %r: Float64 = call row_sum(%v)
  %acc: Float64 = add %s, %r
  set %s = %acc
  %next: Int64 = add %j, %one
  set %j = %next
  br head
done:
  return %s
}
