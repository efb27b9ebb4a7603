; Str and Bytes: concatenation, equality and bytewise ordering (UTF-8
; order, which is code-point order), selecting between strings, a Str's
; length in code points and in bytes, and the bytes of a Str and a Bytes.
module strings

func greet(%name: Str) -> Str {
entry:
  %hello: Str = const "Hello, "
  %bang: Str = const "!"
  %a: Str = add %hello, %name
  %r: Str = add %a, %bang
  return %r
}

func str_cmp(%a: Str, %b: Str) -> Int64 {
  doc "Bit k set when the k-th of eq ne lt le gt ge holds."
entry:
  %e: Bool = eq %a, %b
  %n: Bool = ne %a, %b
  %l: Bool = lt %a, %b
  %le: Bool = le %a, %b
  %g: Bool = gt %a, %b
  %ge: Bool = ge %a, %b
  %c1: Int64 = const 1
  %c2: Int64 = const 2
  %c3: Int64 = const 3
  %c4: Int64 = const 4
  %c5: Int64 = const 5
  %b0: Int64 = cast %e
  %x1: Int64 = cast %n
  %b1: Int64 = shl %x1, %c1
  %x2: Int64 = cast %l
  %b2: Int64 = shl %x2, %c2
  %x3: Int64 = cast %le
  %b3: Int64 = shl %x3, %c3
  %x4: Int64 = cast %g
  %b4: Int64 = shl %x4, %c4
  %x5: Int64 = cast %ge
  %b5: Int64 = shl %x5, %c5
  %s1: Int64 = bor %b0, %b1
  %s2: Int64 = bor %s1, %b2
  %s3: Int64 = bor %s2, %b3
  %s4: Int64 = bor %s3, %b4
  %s5: Int64 = bor %s4, %b5
  return %s5
}

func bytes_cmp(%a: Bytes, %b: Bytes) -> Int64 {
entry:
  %e: Bool = eq %a, %b
  %n: Bool = ne %a, %b
  %l: Bool = lt %a, %b
  %le: Bool = le %a, %b
  %g: Bool = gt %a, %b
  %ge: Bool = ge %a, %b
  %c1: Int64 = const 1
  %c2: Int64 = const 2
  %c3: Int64 = const 3
  %c4: Int64 = const 4
  %c5: Int64 = const 5
  %b0: Int64 = cast %e
  %x1: Int64 = cast %n
  %b1: Int64 = shl %x1, %c1
  %x2: Int64 = cast %l
  %b2: Int64 = shl %x2, %c2
  %x3: Int64 = cast %le
  %b3: Int64 = shl %x3, %c3
  %x4: Int64 = cast %g
  %b4: Int64 = shl %x4, %c4
  %x5: Int64 = cast %ge
  %b5: Int64 = shl %x5, %c5
  %s1: Int64 = bor %b0, %b1
  %s2: Int64 = bor %s1, %b2
  %s3: Int64 = bor %s2, %b3
  %s4: Int64 = bor %s3, %b4
  %s5: Int64 = bor %s4, %b5
  return %s5
}

func bjoin(%a: Bytes, %b: Bytes) -> Bytes {
entry:
  %sep: Bytes = const b"\x00\xff"
  %x: Bytes = add %a, %sep
  %r: Bytes = add %x, %b
  return %r
}

func max_str(%a: Str, %b: Str) -> Str {
entry:
  %g: Bool = ge %a, %b
  %r: Str = select %g, %a, %b
  return %r
}

func label(%x: Int64) -> Str {
entry:
  %z: Int64 = const 0
  %neg: Str = const "neg\u{e9}"
  %zero: Str = const "z\u{e9}ro"
  %pos: Str = const "pos\t\"+\""
  %lt: Bool = lt %x, %z
  condbr %lt, isneg, nonneg
isneg:
  return %neg
nonneg:
  %eq: Bool = eq %x, %z
  %r: Str = select %eq, %zero, %pos
  return %r
}

func str_len(%s: Str) -> Int64 {
  doc "len(s) plus 1000 times its UTF-8 byte count."
entry:
  %n: Int64 = getfield %s, len
  %b: Int64 = getfield %s, nbytes
  %k: Int64 = const 1000
  %bk: Int64 = mul %b, %k
  %r: Int64 = add %n, %bk
  return %r
}

func concat_len(%a: Str, %b: Str) -> Int64 {
  doc "len(a + b): the length of text the call built."
entry:
  %ab: Str = add %a, %b
  %n: Int64 = getfield %ab, len
  return %n
}

func str_byte(%s: Str, %i: Int64) -> UInt8 {
  doc "Byte i of s's UTF-8 bytes (0 <= i < nbytes)."
entry:
  %b: UInt8 = text.byte %s, %i
  return %b
}

func bytes_byte(%b: Bytes, %i: Int64) -> Int64 {
  doc "Byte i of b (0 <= i < len(b)) plus 1000 times len(b), its byte count both ways."
entry:
  %x: UInt8 = text.byte %b, %i
  %n: Int64 = getfield %b, len
  %m: Int64 = getfield %b, nbytes
  %w: Int64 = cast %x
  %k: Int64 = const 500
  %nk: Int64 = mul %n, %k
  %mk: Int64 = mul %m, %k
  %r0: Int64 = add %w, %nk
  %r: Int64 = add %r0, %mk
  return %r
}
