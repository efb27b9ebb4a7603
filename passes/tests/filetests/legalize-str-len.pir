; pipeline: legalize
; The length of a Str becomes a call of `postc.str.len`, copied into the
; module once however many functions call it: a loop over the Str's bytes
; (`getfield nbytes`, `text.byte`) counting those that do not continue a
; UTF-8 sequence. The length of a Bytes, its byte count, stays, and so
; does a read of a Str's own byte count.
module legal_text

func name_len(%s: Str) -> Int64 {
entry:
  %n: Int64 = getfield %s, len !loc "t.py":2:11
  return %n
}

func total(%a: Str, %b: Str) -> Int64 {
entry:
  %ab: Str = add %a, %b
  %n: Int64 = getfield %ab, len !loc "t.py":5:11
  %m: Int64 = getfield %a, len !loc "t.py":5:25
  %t: Int64 = add %n, %m
  return %t
}

func sizes(%s: Str, %b: Bytes) -> Int64 {
entry:
  %k: Int64 = getfield %b, len
  %z: Int64 = getfield %s, nbytes
  %t: Int64 = add %k, %z
  return %t
}
