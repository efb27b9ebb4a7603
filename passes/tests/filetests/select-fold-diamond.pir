; pipeline: select-fold,simplify-cfg,dce
; A diamond whose arms compute pure values and assign one local becomes a
; select in the head; simplify-cfg then drops the empty arms and merges.
module sfd

func max_abs(%a: Float64, %b: Float64) -> Float64 {
entry:
  %zero: Float64 = const 0.0
  let %r: Float64 = %zero
  %gt: Bool = gt %a, %b
  condbr %gt, then, else
then:
  %na: Float64 = abs %a
  set %r = %na
  br join
else:
  %nb: Float64 = abs %b
  set %r = %nb
  br join
join:
  return %r
}
