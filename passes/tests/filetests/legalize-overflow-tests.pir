; pipeline: legalize
; For a backend without overflow tests of its own, `legalize` writes
; `postc.ovf.*` out in operations that cannot overflow themselves: an
; operation on 32 bits or fewer computed exactly in 64 and compared with
; its value narrowed; a 64-bit signed sum or difference compared with the
; bounds moved by the second operand's positive and negative parts, an
; unsigned one with `MAX - b` or `b`; a 64-bit product with the bounds
; divided by the second operand (by 0 no overflow, by -1 only of the
; minimum); `neg` and `abs` by comparing with the minimum (or, unsigned,
; with 0).
module ovf

func narrow(%a: Int8, %b: Int8) -> Bool {
entry:
  %o: Bool = call postc.ovf.mul(%a, %b)
  return %o
}

func sum(%a: Int64, %b: Int64) -> Bool {
entry:
  %o: Bool = call postc.ovf.add(%a, %b)
  return %o
}

func difference(%a: UInt64, %b: UInt64) -> Bool {
entry:
  %o: Bool = call postc.ovf.sub(%a, %b)
  return %o
}

func product(%a: Int64, %b: Int64) -> Bool {
entry:
  %o: Bool = call postc.ovf.mul(%a, %b)
  return %o
}

func unsigned_product(%a: UInt64, %b: UInt64) -> Bool {
entry:
  %o: Bool = call postc.ovf.mul(%a, %b)
  return %o
}

func negation(%a: Int32) -> Bool {
entry:
  %o: Bool = call postc.ovf.neg(%a)
  return %o
}

func magnitude(%a: UInt16) -> Bool {
entry:
  %o: Bool = call postc.ovf.abs(%a)
  return %o
}
