; pipeline: simplify-cfg
; A straight-line chain entry → s1 → s2 merges into one block; the empty
; join is skipped by both arms, and tail, with two predecessors, is not
; merged into either.
module scm

func f(%x: Int64, %c: Bool) -> Int64 {
entry:
  %a: Int64 = add %x, %x
  br s1
s1:
  %b: Int64 = mul %a, %x
  br s2
s2:
  condbr %c, l, r
l:
  %p: Int64 = add %b, %x
  br join
r:
  %q: Int64 = sub %b, %x
  br join
join:
  br tail
tail:
  return %b
}
