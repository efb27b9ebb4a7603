; pipeline: simplify-cfg
; A branch on a constant becomes a plain branch, the block it no longer
; reaches goes, and the survivor merges into its single predecessor; a
; condbr with both edges to one block becomes a br.
module scc

func f(%x: Int64, %c: Bool) -> Int64 {
entry:
  %t: Bool = const true
  condbr %t, yes, no
yes:
  condbr %c, same, same
same:
  return %x
no:
  %z: Int64 = const 0
  return %z
}
