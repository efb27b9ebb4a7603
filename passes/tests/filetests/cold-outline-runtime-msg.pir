; pipeline: cold-outline
; A message computed at run time travels as the thunk's first argument;
; two such paths at one location share a thunk.
module cor

func f(%s: Str, %t: Str, %c: Bool) {
entry:
  condbr %c, one, two
one:
  %u: Str = add %s, %t
  call postc.panic(%u) !loc "k.py":4:4
  unreachable
two:
  call postc.panic(%s) !loc "k.py":4:4
  unreachable
}
