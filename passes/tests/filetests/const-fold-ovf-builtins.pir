; pipeline: insert-checks,const-fold,simplify-cfg,dce
; options: O0
; At -O0 the overflow checks of constant operands fold to false (and the
; panic path goes) when the operation fits (100 + 20), and to true when it
; overflows (120 + 20): the function always panics at the second add.
module cfob

func f() -> Int8 {
entry:
  %a: Int8 = const 100
  %b: Int8 = const 20
  %s: Int8 = add %a, %b !loc "k.py":1:1
  %t: Int8 = add %s, %b !loc "k.py":2:1
  return %t
}
