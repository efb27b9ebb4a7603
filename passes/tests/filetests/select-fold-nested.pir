; pipeline: select-fold
; A select nested in an arm of a select on the same condition takes that
; arm directly: `select c, (select c, a, b), (select c, x, y)` is
; `select c, a, y`. Nested on another condition, it stays.
module sfn

func f(%c: Bool, %d: Bool, %a: Float64, %b: Float64, %x: Float64, %y: Float64) -> Float64 {
entry:
  %i: Float64 = select %c, %a, %b
  %j: Float64 = select %c, %x, %y
  %o: Float64 = select %c, %i, %j
  %k: Float64 = select %d, %a, %b
  %p: Float64 = select %c, %k, %o
  return %p
}
