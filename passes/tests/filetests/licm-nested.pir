; pipeline: licm
; Nested loops: `%n` (an extent of `%a`) and `%lim` are invariant in both
; loops and move out of the outer one, to the end of `entry`; `%base`
; reads the outer counter `%i`, so it is invariant only in the inner loop
; and moves to the end of `outer.body`, the inner loop's preheader; `%k`
; reads the inner counter and stays. `%w` sits in a block that runs only
; on some iterations (under an `if`): it computes a value and nothing
; else, so it moves all the same.
module licmnested

func f(%a: Float64[]Shape[?, ?], %c: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  let %j: Int64 = %zero
  let %acc: Int64 = %zero
  %rows: Int64 = dim %a, 0
  br outer
outer:
  %omore: Bool = lt %i, %rows
  condbr %omore, outer.body, done
outer.body:
  set %j = %zero
  br inner
inner:
  %n: Int64 = dim %a, 1
  %imore: Bool = lt %j, %n
  condbr %imore, inner.body, outer.next
inner.body:
  %lim: Int64 = mul %n, %c
  %base: Int64 = mul %i, %lim
  %k: Int64 = add %base, %j
  %big: Bool = gt %k, %c
  condbr %big, rare, join
rare:
  %w: Int64 = mul %c, %c
  %acc1: Int64 = add %acc, %w
  set %acc = %acc1
  br join
join:
  %acc2: Int64 = add %acc, %k
  set %acc = %acc2
  %jn: Int64 = add %j, %one
  set %j = %jn
  br inner
outer.next:
  %in: Int64 = add %i, %one
  set %i = %in
  br outer
done:
  return %acc
}
