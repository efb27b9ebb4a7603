; pipeline: select-fold
; A select that reads a `let` local, or a parameter that `set` assigns,
; keeps its own read: replacing it by the local would make its uses read
; the local's later value. Only the folds that read the locals in place
; (`not %k`) or pick a value no `set` changes (%s3 → %y) happen.
module sfm

func f(%c: Bool, %x: Int64, %y: Int64) -> Int64 {
entry:
  %t: Bool = const true
  %fl: Bool = const false
  let %l: Int64 = %x
  %s1: Int64 = select %c, %l, %l
  %s2: Int64 = select %t, %x, %y
  %s3: Int64 = select %fl, %x, %y
  set %l = %y
  set %x = %s3
  %r: Int64 = add %s1, %s2
  return %r
}

func g(%c: Bool, %d: Bool) -> Bool {
entry:
  %t: Bool = const true
  %fl: Bool = const false
  let %k: Bool = %c
  %s: Bool = select %k, %t, %fl
  %n: Bool = select %k, %fl, %t
  %i: Bool = select %k, %d, %c
  set %k = %d
  %o: Bool = select %k, %i, %c
  %r: Bool = and %s, %n
  %q: Bool = or %r, %o
  return %q
}
