; pipeline: const-fold
; options: O0
; With overflow checks an overflowing add is not folded (it must panic at
; run time); one that fits is.
module cfo

func f() -> Int8 {
entry:
  %a: Int8 = const 127
  %one: Int8 = const 1
  %s: Int8 = add %a, %one
  %t: Int8 = sub %a, %one
  return %t
}
