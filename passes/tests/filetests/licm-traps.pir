; pipeline: licm
; options: O0
; At -O0 integer arithmetic traps on overflow: `%sq` (an Int64 multiply)
; could panic, so it stays in the loop even though its operands do not
; change there; `%f` (a Float64 multiply) cannot trap and moves.
module licmtraps

func f(%x: Float64, %m: Int64, %n: Int64) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %zero
  let %acc: Float64 = %fz
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %sq: Int64 = mul %m, %m
  %f: Float64 = mul %x, %x
  %acc1: Float64 = add %acc, %f
  set %acc = %acc1
  %next: Int64 = add %i, %sq
  set %i = %next
  br head
done:
  return %acc
}
