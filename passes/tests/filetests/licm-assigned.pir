; pipeline: licm
; Operands that the loop assigns. `f`'s loop reassigns the parameter `%a`
; (`set`), so `dim %a, 0` may differ from one iteration to the next and
; stays, while `dim %b, 0` moves. In `g` the loop assigns a part of the
; complex local `%z` (`setfield`), so `getfield %z, real` stays; `%w`,
; never assigned in the loop, is read once before it.
module licmassigned

func f(%a: Float64[]Shape[?], %b: Float64[]Shape[?], %n: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  let %acc: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %da: Int64 = dim %a, 0
  %db: Int64 = dim %b, 0
  %s: Int64 = add %da, %db
  %acc1: Int64 = add %acc, %s
  set %acc = %acc1
  set %a = %b
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %acc
}

func g(%z0: Complex128, %w: Complex128, %n: Int64) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %zero
  let %z: Complex128 = %z0
  let %acc: Float64 = %fz
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %re: Float64 = getfield %z, real
  %wi: Float64 = getfield %w, imag
  %t: Float64 = add %re, %wi
  %acc1: Float64 = add %acc, %t
  set %acc = %acc1
  setfield %z, real, %acc1
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %acc
}
