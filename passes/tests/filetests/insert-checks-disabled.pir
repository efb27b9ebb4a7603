; pipeline: insert-checks
; options: O0, no-bounds-checks, no-div-checks, no-overflow-checks
; With every check switched off the pass changes nothing.
module icoff

func f(%a: Int64[]Shape[?], %i: Int64, %b: Int64) -> Int64 {
entry:
  %v: Int64 = index.load %a[%i]
  %q: Int64 = fdiv %v, %b
  %s: Int64 = add %q, %b
  return %s
}
