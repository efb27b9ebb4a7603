; pipeline: select-fold
; Each identity: a constant condition picks its arm, equal arms are the arm,
; `select c, true, false` is c, `select c, false, true` is `not c`. A select
; that matches none stays.
module sfi

func f(%c: Bool, %a: Int64, %b: Int64) -> Int64 {
entry:
  %t: Bool = const true
  %f: Bool = const false
  %s1: Int64 = select %t, %a, %b
  %s2: Int64 = select %f, %a, %b
  %s3: Int64 = select %c, %s1, %s1
  %b1: Bool = select %c, %t, %f
  %b2: Bool = select %c, %f, %t
  %s4: Int64 = select %b1, %s3, %s2
  %s5: Int64 = select %b2, %s4, %a
  return %s5
}
