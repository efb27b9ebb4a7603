; Float16's conversions, written once for every backend that does not
; declare `float16_conversions`: `legalize` copies the functions a module
; calls into it and rewrites each `cast` from or to Float16 into calls of
; them. They read and write the IEEE binary16 fields with integer
; operations on the bits (`bitcast`), as the reference interpreter's
; `f16_from_f64` does (`ir/src/body.rs`, which they must match bit for
; bit). Every other conversion goes through these two: from Float16 by
; way of Float32 (which holds every Float16 exactly), to Float16 from
; Float64 (which holds every Float32 and every integer up to 2**53
; exactly; a larger one is past Float16's range either way).
module float16_conversions

func postc.f16.widen(%h: Float16) -> Float32 {
  doc "h as a Float32, exactly: the fields move into place (an exponent rebiased, infinity and NaN keeping their payload), a zero or subnormal is its significand times 2**-24."
entry:
  %bits16: UInt16 = bitcast %h
  %bits: UInt32 = cast %bits16
  %ten: UInt32 = const 10
  %thirteen: UInt32 = const 13
  %sixteen: UInt32 = const 16
  %twenty.three: UInt32 = const 23
  %exp.mask: UInt32 = const 31
  %man.mask: UInt32 = const 1023
  %sign.mask: UInt32 = const 32768
  %zero: UInt32 = const 0
  %exp.high: UInt32 = shr %bits, %ten
  %exp: UInt32 = band %exp.high, %exp.mask
  %man: UInt32 = band %bits, %man.mask
  %sign16: UInt32 = band %bits, %sign.mask
  %sign: UInt32 = shl %sign16, %sixteen
  %bias.change: UInt32 = const 112
  %rebiased: UInt32 = add %exp, %bias.change
  %all.ones: UInt32 = const 255
  %special: Bool = eq %exp, %exp.mask
  %exp32: UInt32 = select %special, %all.ones, %rebiased
  %exp.field: UInt32 = shl %exp32, %twenty.three
  %man.field: UInt32 = shl %man, %thirteen
  %magnitude: UInt32 = bor %exp.field, %man.field
  %normal.bits: UInt32 = bor %sign, %magnitude
  %normal: Float32 = bitcast %normal.bits
  %significand: Float32 = cast %man
  %ulp: Float32 = const 5.9604644775390625e-08
  %small: Float32 = mul %significand, %ulp
  %small.neg: Float32 = neg %small
  %negative: Bool = ne %sign, %zero
  %small.signed: Float32 = select %negative, %small.neg, %small
  %subnormal: Bool = eq %exp, %zero
  %x: Float32 = select %subnormal, %small.signed, %normal
  return %x
}

func postc.f16.narrow(%x: Float64) -> Float16 {
  doc "x rounded to the nearest Float16, ties to even, in one step: past 65520 infinity, a NaN quiet with the top of its payload, a Float64 subnormal a signed zero."
entry:
  %bits: UInt64 = bitcast %x
  %c48: UInt64 = const 48
  %c52: UInt64 = const 52
  %sign.mask: UInt64 = const 32768
  %exp.mask: UInt64 = const 2047
  %man.mask: UInt64 = const 4503599627370495
  %sign.high: UInt64 = shr %bits, %c48
  %sign.u: UInt64 = band %sign.high, %sign.mask
  %sign: Int64 = cast %sign.u
  %exp.high: UInt64 = shr %bits, %c52
  %exp.u: UInt64 = band %exp.high, %exp.mask
  %man: UInt64 = band %bits, %man.mask
  %exp: Int64 = cast %exp.u
  %bias: Int64 = const 1023
  %e: Int64 = sub %exp, %bias
  %infinity: Int64 = const 31744
  ; Past 65520 (and infinity and NaN, whose exponent field is all ones).
  %sixteen: Int64 = const 16
  %too.big: Bool = ge %e, %sixteen
  condbr %too.big, too.big, finite
too.big:
  %all.ones: Bool = eq %exp.u, %exp.mask
  %u.zero: UInt64 = const 0
  %has.payload: Bool = ne %man, %u.zero
  %is.nan: Bool = and %all.ones, %has.payload
  ; Infinity, or NaN kept quiet with the top of its payload.
  %c42: UInt64 = const 42
  %payload.u: UInt64 = shr %man, %c42
  %payload: Int64 = cast %payload.u
  %quiet: Int64 = const 512
  %nan.payload: Int64 = bor %quiet, %payload
  %zero: Int64 = const 0
  %special.payload: Int64 = select %is.nan, %nan.payload, %zero
  %special.mag: Int64 = bor %infinity, %special.payload
  %special.out: Int64 = bor %sign, %special.mag
  %special.out16: UInt16 = cast %special.out
  %special.h: Float16 = bitcast %special.out16
  return %special.h
finite:
  ; The significand with its implicit bit, shifted down to Float16's ten
  ; bits (more below the normal range: at most 63, which leaves nothing of
  ; a 53-bit significand and rounds to zero, as for a zero or a Float64
  ; subnormal).
  %u.one: UInt64 = const 1
  %hidden: UInt64 = shl %u.one, %c52
  %m: UInt64 = bor %hidden, %man
  %min.normal: Int64 = const -14
  %normal: Bool = ge %e, %min.normal
  %normal.shift: Int64 = const 42
  %twenty.eight: Int64 = const 28
  %small.shift: Int64 = sub %twenty.eight, %e
  %shift.any: Int64 = select %normal, %normal.shift, %small.shift
  %max.shift: Int64 = const 63
  %too.far: Bool = gt %shift.any, %max.shift
  %shift.s: Int64 = select %too.far, %max.shift, %shift.any
  %shift: UInt64 = cast %shift.s
  %r: UInt64 = shr %m, %shift
  %unit: UInt64 = shl %u.one, %shift
  %below: UInt64 = sub %unit, %u.one
  %rem: UInt64 = band %m, %below
  %halfway: UInt64 = shr %unit, %u.one
  %above.half: Bool = gt %rem, %halfway
  %at.half: Bool = eq %rem, %halfway
  %r.odd: UInt64 = band %r, %u.one
  %none: UInt64 = const 0
  %odd: Bool = ne %r.odd, %none
  %tie.up: Bool = and %at.half, %odd
  %round.up: Bool = or %above.half, %tie.up
  %up: UInt64 = cast %round.up
  %rounded.u: UInt64 = add %r, %up
  ; A carry out of the significand moves into the exponent by itself
  ; (up to infinity from the largest finite).
  %rounded: Int64 = cast %rounded.u
  %rebias: Int64 = const 15
  %exp16: Int64 = add %e, %rebias
  %ten: Int64 = const 10
  %exp.field: Int64 = shl %exp16, %ten
  %implicit: Int64 = const 1024
  %fraction: Int64 = sub %rounded, %implicit
  %normal.mag: Int64 = add %exp.field, %fraction
  %mag: Int64 = select %normal, %normal.mag, %rounded
  %out: Int64 = bor %sign, %mag
  %out16: UInt16 = cast %out
  %h: Float16 = bitcast %out16
  return %h
}
