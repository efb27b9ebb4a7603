; Integer mixing on the GPU: multiply, add, shifts, xor, floor division
; (its checks trap on the device), and a Bool result.
module intmix

ufunc mix(%x: Int32, %y: Int32) -> Int32 "(),()->()" gpu {
entry:
  %k: Int32 = const 31
  %three: Int32 = const 3
  %seven: Int32 = const 7
  %a: Int32 = mul %x, %k
  %b: Int32 = add %a, %y
  %c: Int32 = shr %x, %three
  %d: Int32 = bxor %b, %c
  %e: Int32 = shl %d, %three
  %q: Int32 = fdiv %e, %seven
  return %q
}

ufunc below(%x: Int64, %y: Int64) -> Bool "(),()->()" gpu {
entry:
  %r: Bool = lt %x, %y
  return %r
}
