; pipeline: simplify-cfg
; Branches through empty forwarding blocks go straight to the final target;
; a forwarding chain collapses; a self-loop forwarder is left alone.
module scf

func f(%c: Bool, %x: Int64) -> Int64 {
entry:
  condbr %c, fwd1, other
fwd1:
  br fwd2
fwd2:
  br target
other:
  %y: Int64 = add %x, %x
  condbr %c, fwd2, target
target:
  return %x
}

func spin(%c: Bool) {
entry:
  condbr %c, loop, out
loop:
  br loop
out:
  return
}
