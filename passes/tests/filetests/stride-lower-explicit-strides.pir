; pipeline: insert-checks,stride-lower,const-fold,simplify-cfg,dce
; Explicit Strides fix the strides even with a dynamic shape; after
; folding, the offset of a[i, 2] is i * -48 + 2 * 16 (the 2 * 16 folds).
module sles

func f(%a: Float64[]Shape[?, 3]Strides[-48, 16], %i: Int64) -> Float64 {
entry:
  %two: Int64 = const 2
  %x: Float64 = index.load %a[%i, %two] !loc "k.py":5:5
  return %x
}
