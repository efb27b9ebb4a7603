; pipeline: legalize
; A comparison of two Str or two Bytes becomes a call of a function
; copied into the module once however many instructions call it: `eq` a
; call of `postc.str.eq` (the byte counts, then the bytes), `ne` its
; `not`, and `lt le gt ge` a call of `postc.str.cmp` (-1, 0 or 1: the
; first differing byte, unsigned, else the shorter first) compared with
; 0. Bytes get `postc.bytes.eq` and `postc.bytes.cmp`, the same bodies
; with Bytes parameters. Comparisons of numbers stay.
module legal_text_compare

func str_all(%a: Str, %b: Str) -> Int64 {
entry:
  %e: Bool = eq %a, %b !loc "t.py":2:11
  %n: Bool = ne %a, %b !loc "t.py":3:11
  %l: Bool = lt %a, %b !loc "t.py":4:11
  %le: Bool = le %a, %b !loc "t.py":5:11
  %g: Bool = gt %a, %b !loc "t.py":6:11
  %ge: Bool = ge %a, %b !loc "t.py":7:11
  %x0: Int64 = cast %e
  %x1: Int64 = cast %n
  %x2: Int64 = cast %l
  %x3: Int64 = cast %le
  %x4: Int64 = cast %g
  %x5: Int64 = cast %ge
  %s0: Int64 = add %x0, %x1
  %s1: Int64 = add %s0, %x2
  %s2: Int64 = add %s1, %x3
  %s3: Int64 = add %s2, %x4
  %s4: Int64 = add %s3, %x5
  return %s4
}

func bytes_order(%a: Bytes, %b: Bytes) -> Bool {
entry:
  %same: Bool = eq %a, %b !loc "t.py":10:11
  %before: Bool = lt %a, %b !loc "t.py":10:23
  %either: Bool = or %same, %before
  return %either
}

func numbers(%x: Int64, %y: Int64) -> Bool {
entry:
  %l: Bool = lt %x, %y
  return %l
}
