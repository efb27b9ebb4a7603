; Bit tricks: popcount by a shift loop (UInt32) and by SWAR (UInt64),
; bit reversal, count of leading zeros, ~, arithmetic right shift of
; negative Int16, overflow-free average, and negative shift counts.
module bits

func popcount32(%x0: UInt32) -> Int32 {
entry:
  %uz: UInt32 = const 0
  %u1: UInt32 = const 1
  %z: Int32 = const 0
  let %x: UInt32 = %x0
  let %c: Int32 = %z
  br head
head:
  %more: Bool = ne %x, %uz
  condbr %more, body, done
body:
  %low: UInt32 = band %x, %u1
  %li: Int32 = cast %low
  %c2: Int32 = add %c, %li
  set %c = %c2
  %x2: UInt32 = shr %x, %u1
  set %x = %x2
  br head
done:
  return %c
}

func popcount64(%x: UInt64) -> UInt64 {
entry:
  %m1: UInt64 = const 6148914691236517205
  %m2: UInt64 = const 3689348814741910323
  %m4: UInt64 = const 1085102592571150095
  %m7: UInt64 = const 127
  %s1: UInt64 = const 1
  %s2: UInt64 = const 2
  %s4: UInt64 = const 4
  %s8: UInt64 = const 8
  %s16: UInt64 = const 16
  %s32: UInt64 = const 32
  %a1: UInt64 = shr %x, %s1
  %a2: UInt64 = band %a1, %m1
  %a: UInt64 = sub %x, %a2
  %b1: UInt64 = band %a, %m2
  %b2: UInt64 = shr %a, %s2
  %b3: UInt64 = band %b2, %m2
  %b: UInt64 = add %b1, %b3
  %c1: UInt64 = shr %b, %s4
  %c2: UInt64 = add %b, %c1
  %c: UInt64 = band %c2, %m4
  %d1: UInt64 = shr %c, %s8
  %d: UInt64 = add %c, %d1
  %e1: UInt64 = shr %d, %s16
  %e: UInt64 = add %d, %e1
  %f1: UInt64 = shr %e, %s32
  %f: UInt64 = add %e, %f1
  %r: UInt64 = band %f, %m7
  return %r
}

func rev8(%x0: UInt8) -> UInt8 {
entry:
  %u0: UInt8 = const 0
  %u1: UInt8 = const 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %eight: Int64 = const 8
  let %x: UInt8 = %x0
  let %r: UInt8 = %u0
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %eight
  condbr %more, body, done
body:
  %low: UInt8 = band %x, %u1
  %rs: UInt8 = shl %r, %u1
  %r2: UInt8 = bor %rs, %low
  set %r = %r2
  %x2: UInt8 = shr %x, %u1
  set %x = %x2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %r
}

func clz64(%x: UInt64) -> Int64 {
entry:
  %top: UInt64 = const 9223372036854775808
  %u0: UInt64 = const 0
  %u1: UInt64 = const 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %sixtyfour: Int64 = const 64
  let %mask: UInt64 = %top
  let %n: Int64 = %z
  br head
head:
  %inrange: Bool = lt %n, %sixtyfour
  %hit: UInt64 = band %x, %mask
  %clear: Bool = eq %hit, %u0
  %go: Bool = and %inrange, %clear
  condbr %go, body, done
body:
  %m2: UInt64 = shr %mask, %u1
  set %mask = %m2
  %n2: Int64 = add %n, %one
  set %n = %n2
  br head
done:
  return %n
}

func inv32(%x: Int32) -> Int32 {
entry:
  %r: Int32 = inv %x
  return %r
}

func inv8u(%x: UInt8) -> UInt8 {
entry:
  %r: UInt8 = inv %x
  return %r
}

func sar16(%x: Int16, %n: Int16) -> Int16 {
entry:
  %r: Int16 = shr %x, %n !loc "kernels.py":51:12
  return %r
}

func shl16(%x: Int16, %n: Int16) -> Int16 {
entry:
  %r: Int16 = shl %x, %n
  return %r
}

func avg_u16(%a: UInt16, %b: UInt16) -> UInt16 {
  doc "floor((a + b) / 2) without overflow: (a & b) + ((a ^ b) >> 1)."
entry:
  %one: UInt16 = const 1
  %both: UInt16 = band %a, %b
  %diff: UInt16 = bxor %a, %b
  %half: UInt16 = shr %diff, %one
  %r: UInt16 = add %both, %half
  return %r
}

func bor_inv16(%a: Int16, %b: Int16) -> Int16 {
entry:
  %nb: Int16 = inv %b
  %r: Int16 = bor %a, %nb
  return %r
}
