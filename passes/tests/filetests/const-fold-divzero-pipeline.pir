; pipeline: insert-checks,const-fold,simplify-cfg,dce
; After the checks, the division by a non-zero constant folds, its check
; folds to a constant branch and its panic path goes; the check of the
; division by zero folds to a branch that always panics, so all that is
; left of the function is that panic, with its message and location.
module cfz

func f(%x: Int64) -> Int64 {
entry:
  %a: Int64 = const 7
  %z: Int64 = const 0
  %two: Int64 = const 2
  %q: Int64 = fdiv %a, %two !loc "k.py":1:1
  %r: Int64 = fdiv %a, %z !loc "k.py":2:1
  %s: Int64 = add %q, %r
  return %s
}
