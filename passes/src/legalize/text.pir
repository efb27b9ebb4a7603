; The length and the comparisons of text, written once for every backend:
; `legalize` copies the functions a module calls into it and rewrites
; `getfield %s, len` of a Str and the comparisons `eq ne lt le gt ge` of
; two Str or two Bytes into calls of them. They read the bytes with
; `getfield nbytes` and `text.byte` (a byte, or eight as a little-endian
; UInt64), the two reads of a text's bytes every backend lowers, and both
; reads take a Bytes as they take a Str: the
; comparisons are written here once, on Str, and `legalize` makes the
; Bytes ones (`postc.bytes.eq`, `postc.bytes.cmp`) from them by retyping
; their parameters.
module text

func postc.str.len(%s: Str) -> Int64 {
  doc "The code points of s: its bytes that do not continue a UTF-8 sequence."
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %n: Int64 = getfield %s, nbytes
  let %i: Int64 = %zero
  let %count: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %byte: UInt8 = text.byte %s, %i
  %top.mask: UInt8 = const 192
  %continues: UInt8 = const 128
  %top: UInt8 = band %byte, %top.mask
  %starts: Bool = ne %top, %continues
  %step: Int64 = cast %starts
  %count.next: Int64 = add %count, %step
  set %count = %count.next
  %i.next: Int64 = add %i, %one
  set %i = %i.next
  br head
done:
  return %count
}

func postc.str.eq(%a: Str, %b: Str) -> Bool {
  doc "a == b: the same byte count, then the same bytes, eight at a time while eight remain, then the last eight (overlapping the words compared) or, in a text shorter than eight, one at a time. Text of different lengths is unequal without a byte read."
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %eight: Int64 = const 8
  %yes: Bool = const true
  %no: Bool = const false
  %n: Int64 = getfield %a, nbytes
  %m: Int64 = getfield %b, nbytes
  %same.len: Bool = eq %n, %m
  let %i: Int64 = %zero
  condbr %same.len, words, differ
words:
  %i.word: Int64 = add %i, %eight
  %word.fits: Bool = le %i.word, %n
  condbr %word.fits, word, tail
word:
  %wx: UInt64 = text.byte %a, %i
  %wy: UInt64 = text.byte %b, %i
  %same.word: Bool = eq %wx, %wy
  set %i = %i.word
  condbr %same.word, words, differ
tail:
  %rest: Bool = lt %i, %n
  condbr %rest, tail.some, same
tail.some:
  %long: Bool = ge %n, %eight
  condbr %long, last.word, head
last.word:
  %at: Int64 = sub %n, %eight
  %lx: UInt64 = text.byte %a, %at
  %ly: UInt64 = text.byte %b, %at
  %same.last: Bool = eq %lx, %ly
  condbr %same.last, same, differ
head:
  %more: Bool = lt %i, %n
  condbr %more, body, same
body:
  %x: UInt8 = text.byte %a, %i
  %y: UInt8 = text.byte %b, %i
  %same.byte: Bool = eq %x, %y
  %i.next: Int64 = add %i, %one
  set %i = %i.next
  condbr %same.byte, head, differ
same:
  return %yes
differ:
  return %no
}

func postc.str.cmp(%a: Str, %b: Str) -> Int32 {
  doc "-1, 0 or 1 as a sorts before, with or after b: the first byte that differs decides (bytes are unsigned, so UTF-8 sorts a Str by code point), else the shorter, a prefix of the other, sorts first. Equal words of eight bytes are passed over first, then the last eight of the common length (overlapping the words compared); the bytes of the first word that differs are compared one by one."
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %n: Int64 = getfield %a, nbytes
  %m: Int64 = getfield %b, nbytes
  %shorter: Bool = lt %n, %m
  %longer: Bool = gt %n, %m
  %common: Int64 = select %shorter, %n, %m
  %eight: Int64 = const 8
  let %i: Int64 = %zero
  br words
words:
  %i.word: Int64 = add %i, %eight
  %word.fits: Bool = le %i.word, %common
  condbr %word.fits, word, tail
word:
  %wx: UInt64 = text.byte %a, %i
  %wy: UInt64 = text.byte %b, %i
  %same.word: Bool = eq %wx, %wy
  condbr %same.word, next.word, head
next.word:
  set %i = %i.word
  br words
tail:
  %rest: Bool = lt %i, %common
  condbr %rest, tail.some, prefix
tail.some:
  %long: Bool = ge %common, %eight
  condbr %long, last.word, head
last.word:
  %at: Int64 = sub %common, %eight
  %lx: UInt64 = text.byte %a, %at
  %ly: UInt64 = text.byte %b, %at
  %same.last: Bool = eq %lx, %ly
  condbr %same.last, prefix, last.bytes
last.bytes:
  set %i = %at
  br head
head:
  %more: Bool = lt %i, %common
  condbr %more, body, prefix
body:
  %x: UInt8 = text.byte %a, %i
  %y: UInt8 = text.byte %b, %i
  %same.byte: Bool = eq %x, %y
  %i.next: Int64 = add %i, %one
  set %i = %i.next
  condbr %same.byte, head, differ
differ:
  %below: Bool = lt %x, %y
  %before: Int32 = const -1
  %after: Int32 = const 1
  %order: Int32 = select %below, %before, %after
  return %order
prefix:
  %after.len: Int32 = cast %longer
  %before.len: Int32 = cast %shorter
  %by.len: Int32 = sub %after.len, %before.len
  return %by.len
}
