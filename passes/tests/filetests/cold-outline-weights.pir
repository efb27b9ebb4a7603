; pipeline: cold-outline
; A hand-written panic path: the branch into it has no weights and gets
; 1:2000 when the panic is on the true edge, 2000:1 on the false edge;
; weights already present are kept.
module cow

func f(%x: Int64) -> Int64 {
entry:
  %z: Int64 = const 0
  %neg: Bool = lt %x, %z
  condbr %neg, bad, next
next:
  %big: Bool = gt %x, %z
  condbr %big, ok, bad2
ok:
  %c: Bool = eq %x, %z
  condbr %c, bad3, done !weights 5:7
done:
  return %x
bad:
  %m: Str = const "negative: {}"
  call postc.panic(%m, %x) !loc "k.py":1:1
  unreachable
bad2:
  %m2: Str = const "zero"
  call postc.panic(%m2) !loc "k.py":2:1
  unreachable
bad3:
  %m3: Str = const "zero"
  call postc.panic(%m3) !loc "k.py":3:1
  unreachable
}
