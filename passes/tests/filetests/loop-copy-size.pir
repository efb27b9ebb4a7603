; pipeline: irce,stride-version
; The cost model of `irce` and `stride-version` on the loop's size. The
; loop of `horner` has one bounds check and one strided access (a load and
; a store at the same offset) for 88 instructions, more than 64 per thing
; a copy would save: the check and the multiply by the stride are a few
; percent of an iteration, so neither pass copies it. `cubic` is the same
; loop with a 6-instruction polynomial: `irce` splits it and
; `stride-version` versions the main loop.
module loopsize

func horner(%x: &Float64[]Shape[?], %c: Float64) {
entry:
  %n: Int64 = dim %x, 0
  %sx: Int64 = stride %x, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %iu: UInt64 = cast %i
  %nu: UInt64 = cast %n
  %ok: Bool = lt %iu, %nu
  condbr %ok, in, oob !weights 2000:1
oob:
  call postc.panic(%msg, %i, %n)
  unreachable
in:
  %ox: Int64 = mul %i, %sx
  %v: Float64 = load %x, %ox
  %m0: Float64 = mul %v, %c
  %a0: Float64 = add %m0, %v
  %m1: Float64 = mul %a0, %c
  %a1: Float64 = add %m1, %v
  %m2: Float64 = mul %a1, %c
  %a2: Float64 = add %m2, %v
  %m3: Float64 = mul %a2, %c
  %a3: Float64 = add %m3, %v
  %m4: Float64 = mul %a3, %c
  %a4: Float64 = add %m4, %v
  %m5: Float64 = mul %a4, %c
  %a5: Float64 = add %m5, %v
  %m6: Float64 = mul %a5, %c
  %a6: Float64 = add %m6, %v
  %m7: Float64 = mul %a6, %c
  %a7: Float64 = add %m7, %v
  %m8: Float64 = mul %a7, %c
  %a8: Float64 = add %m8, %v
  %m9: Float64 = mul %a8, %c
  %a9: Float64 = add %m9, %v
  %m10: Float64 = mul %a9, %c
  %a10: Float64 = add %m10, %v
  %m11: Float64 = mul %a10, %c
  %a11: Float64 = add %m11, %v
  %m12: Float64 = mul %a11, %c
  %a12: Float64 = add %m12, %v
  %m13: Float64 = mul %a12, %c
  %a13: Float64 = add %m13, %v
  %m14: Float64 = mul %a13, %c
  %a14: Float64 = add %m14, %v
  %m15: Float64 = mul %a14, %c
  %a15: Float64 = add %m15, %v
  %m16: Float64 = mul %a15, %c
  %a16: Float64 = add %m16, %v
  %m17: Float64 = mul %a16, %c
  %a17: Float64 = add %m17, %v
  %m18: Float64 = mul %a17, %c
  %a18: Float64 = add %m18, %v
  %m19: Float64 = mul %a18, %c
  %a19: Float64 = add %m19, %v
  %m20: Float64 = mul %a19, %c
  %a20: Float64 = add %m20, %v
  %m21: Float64 = mul %a20, %c
  %a21: Float64 = add %m21, %v
  %m22: Float64 = mul %a21, %c
  %a22: Float64 = add %m22, %v
  %m23: Float64 = mul %a22, %c
  %a23: Float64 = add %m23, %v
  %m24: Float64 = mul %a23, %c
  %a24: Float64 = add %m24, %v
  %m25: Float64 = mul %a24, %c
  %a25: Float64 = add %m25, %v
  %m26: Float64 = mul %a25, %c
  %a26: Float64 = add %m26, %v
  %m27: Float64 = mul %a26, %c
  %a27: Float64 = add %m27, %v
  %m28: Float64 = mul %a27, %c
  %a28: Float64 = add %m28, %v
  %m29: Float64 = mul %a28, %c
  %a29: Float64 = add %m29, %v
  %m30: Float64 = mul %a29, %c
  %a30: Float64 = add %m30, %v
  %m31: Float64 = mul %a30, %c
  %a31: Float64 = add %m31, %v
  %m32: Float64 = mul %a31, %c
  %a32: Float64 = add %m32, %v
  %m33: Float64 = mul %a32, %c
  %a33: Float64 = add %m33, %v
  %m34: Float64 = mul %a33, %c
  %a34: Float64 = add %m34, %v
  store %x, %ox, %a34
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func cubic(%x: &Float64[]Shape[?], %c: Float64) {
entry:
  %n: Int64 = dim %x, 0
  %sx: Int64 = stride %x, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %iu: UInt64 = cast %i
  %nu: UInt64 = cast %n
  %ok: Bool = lt %iu, %nu
  condbr %ok, in, oob !weights 2000:1
oob:
  call postc.panic(%msg, %i, %n)
  unreachable
in:
  %ox: Int64 = mul %i, %sx
  %v: Float64 = load %x, %ox
  %m0: Float64 = mul %v, %c
  %a0: Float64 = add %m0, %v
  %m1: Float64 = mul %a0, %c
  %a1: Float64 = add %m1, %v
  %m2: Float64 = mul %a1, %c
  %a2: Float64 = add %m2, %v
  store %x, %ox, %a2
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}
