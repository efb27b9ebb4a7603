; Small-integer wrap-around: Int8/UInt8/Int16 add, sub, mul, neg and abs
; (wrap from -O1, `integer overflow` when checked), integer casts that
; sign- or zero-extend by the source and truncate to narrow, and a UInt8
; checksum loop.
module wrap8

func add8(%a: Int8, %b: Int8) -> Int8 {
entry:
  %r: Int8 = add %a, %b !loc "kernels.py":3:12
  return %r
}

func mul8u(%a: UInt8, %b: UInt8) -> UInt8 {
entry:
  %r: UInt8 = mul %a, %b
  return %r
}

func sub16(%a: Int16, %b: Int16) -> Int16 {
entry:
  %r: Int16 = sub %a, %b
  return %r
}

func neg8(%a: Int8) -> Int8 {
entry:
  %r: Int8 = neg %a !loc "kernels.py":12:12
  return %r
}

func abs8(%a: Int8) -> Int8 {
entry:
  %r: Int8 = abs %a !loc "kernels.py":15:12
  return %r
}

func widen(%a: Int8) -> UInt16 {
entry:
  %r: UInt16 = cast %a
  return %r
}

func narrow(%a: Int64) -> Int8 {
entry:
  %r: Int8 = cast %a
  return %r
}

func u8_to_i8(%a: UInt8) -> Int8 {
entry:
  %r: Int8 = cast %a
  return %r
}

func u8_to_i32(%a: UInt8) -> Int32 {
entry:
  %r: Int32 = cast %a
  return %r
}

func i16_to_u64(%a: Int16) -> UInt64 {
entry:
  %r: UInt64 = cast %a
  return %r
}

func checksum8(%x: UInt8[]Shape[?]) -> UInt8 {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %uz: UInt8 = const 0
  let %s: UInt8 = %uz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: UInt8 = index.load %x[%i]
  %s2: UInt8 = add %s, %v
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %s
}
