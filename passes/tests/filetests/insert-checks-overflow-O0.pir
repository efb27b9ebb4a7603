; pipeline: insert-checks
; options: O0
; At -O0 integer add/sub/mul/neg/abs/pow are checked through the
; postc.ovf.* built-ins; float arithmetic is not.
module ico

func f(%a: Int8, %b: Int8, %x: Float32) -> Int8 {
entry:
  %s: Int8 = add %a, %b !loc "k.py":1:5
  %d: Int8 = sub %s, %b
  %m: Int8 = mul %d, %a
  %n: Int8 = neg %m
  %ab: Int8 = abs %n
  %p: Int8 = pow %ab, %b !loc "k.py":2:5
  %fx: Float32 = add %x, %x
  return %p
}
