; pipeline: cleanup
; Empty blocks that branch to each other. Forwarding follows such a cycle
; for as many steps as there are blocks: in f (five blocks) the branch into
; the cycle ends up on a self-loop; in g (six, so each block of the cycle
; forwards to itself) the branches stay on blocks that still forward once
; the unused block is gone, so cleanup cannot tell from its plan that
; simplify-cfg would stop after one round, and runs the rounds and dce as
; they are.
; Both give the output of const-fold,simplify-cfg,dce.
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
