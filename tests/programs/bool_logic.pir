; Bool logic: and/or/not, eq/ne on Bool, select, Bool arrays in and out,
; Bool -> Int64 casts for counting.
module bool_logic

func majority(%a: Bool, %b: Bool, %c: Bool) -> Bool {
entry:
  %ab: Bool = and %a, %b
  %ac: Bool = and %a, %c
  %bc: Bool = and %b, %c
  %x: Bool = or %ab, %ac
  %r: Bool = or %x, %bc
  return %r
}

func implies(%a: Bool, %b: Bool) -> Bool {
entry:
  %na: Bool = not %a
  %r: Bool = or %na, %b
  return %r
}

func xor_eq(%a: Bool, %b: Bool) -> Int32 {
entry:
  %x: Bool = ne %a, %b
  %e: Bool = eq %a, %b
  %xi: Int32 = cast %x
  %ei: Int32 = cast %e
  %ten: Int32 = const 10
  %t: Int32 = mul %xi, %ten
  %r: Int32 = add %t, %ei
  return %r
}

func count_true(%m: Bool[]Shape[?]) -> Int64 {
entry:
  %n: Int64 = dim %m, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %c: Int64 = %z
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %b: Bool = index.load %m[%i]
  %bi: Int64 = cast %b
  %c2: Int64 = add %c, %bi
  set %c = %c2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %c
}

func mask_in_range(%x: Float32[]Shape[?], %lo: Float32, %hi: Float32, %out: &Bool[]Shape[?]) {
  doc "out[i] = lo <= x[i] and not (x[i] > hi); NaN compares false."
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float32 = index.load %x[%i]
  %a: Bool = le %lo, %v
  %g: Bool = gt %v, %hi
  %ng: Bool = not %g
  %r: Bool = and %a, %ng
  index.store %out[%i], %r
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}

func float_ne_nan(%x: Float64) -> Bool {
entry:
  %r: Bool = ne %x, %x
  return %r
}
