; The length of a Str, written once for every backend: `legalize` copies
; the function into a module that reads `getfield %s, len` of a Str and
; rewrites each such read into a call of it. It counts the code points of
; the UTF-8 bytes as the reference interpreter does (`chars().count()` of
; a valid UTF-8 string): every byte but a continuation byte (`10xxxxxx`)
; starts one. It reads the bytes with `getfield nbytes` and `text.byte`,
; the two reads of a Str's bytes every backend lowers.
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
