; pipeline: cleanup
; One sweep: the folded condition decides the branch, the block it no
; longer reaches goes with its instructions unfolded, the straight-line
; successor merges into the entry, and what only the folded and dropped
; code read is removed. The same output as const-fold,simplify-cfg,dce.
module cs

func f(%x: Int64) -> Int64 {
entry:
  %two: Int64 = const 2
  %three: Int64 = const 3
  %five: Int64 = add %two, %three
  %big: Bool = gt %five, %two
  %unused: Int64 = mul %x, %x
  condbr %big, yes, no
yes:
  %r: Int64 = add %x, %five
  br done
no:
  %q: Int64 = sub %x, %five
  return %q
done:
  return %r
}
