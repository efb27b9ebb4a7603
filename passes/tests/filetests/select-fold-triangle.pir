; pipeline: select-fold
; A one-armed branch (triangle): the local keeps its value on the other edge.
; The arm itself is left behind unreachable for simplify-cfg.
module sft

func clamp(%x: Int32, %hi: Int32) -> Int32 {
entry:
  let %r: Int32 = %x
  %over: Bool = gt %x, %hi
  condbr %over, cap, done
cap:
  set %r = %hi
  br done
done:
  return %r
}
