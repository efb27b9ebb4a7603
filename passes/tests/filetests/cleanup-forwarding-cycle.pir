; pipeline: cleanup
; Empty blocks that branch to each other. Forwarding into such a cycle
; stops at the first block of the cycle that the walk meets, which becomes
; a self-loop; the other blocks of the cycle are left unused. In f the
; branch into the cycle ends up on it; in g the cycle is entered from two
; blocks. Both give the output of const-fold,simplify-cfg,dce.
module cfc

func f(%c: Bool, %x: Int64) -> Int64 {
entry:
  %one: Int64 = const 1
  %k: Bool = const true
  %y: Int64 = add %x, %one
  condbr %c, a, out
a:
  br b
b:
  br a
out:
  condbr %k, ret, a
ret:
  return %y
}

func g(%c: Bool, %x: Int64) -> Int64 {
entry:
  %one: Int64 = const 1
  %y: Int64 = add %x, %one
  %z: Int64 = mul %y, %y
  condbr %c, a, out
a:
  br b
b:
  br a
out:
  condbr %c, ret, b
ret:
  return %y
unused:
  return %z
}
