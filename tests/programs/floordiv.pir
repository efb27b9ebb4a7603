; Python floor division and modulo: an Int64 table over negative and
; positive operands, Int8 edge cases (MIN // -1 wraps, by zero panics),
; Float64 // and % (NumPy: by zero gives inf/nan), and true division of
; integers into a Float64.
module floordiv

func divmod_table(%a: Int64[]Shape[?], %b: Int64[]Shape[?], %q: &Int64[]Shape[?, ?], %r: &Int64[]Shape[?, ?]) {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %b, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %z
  let %j: Int64 = %z
  br rows
rows:
  %ri: Bool = lt %i, %m
  condbr %ri, row, done
row:
  set %j = %z
  br cols
cols:
  %cj: Bool = lt %j, %n
  condbr %cj, body, rownext
body:
  %x: Int64 = index.load %a[%i]
  %y: Int64 = index.load %b[%j]
  %qq: Int64 = fdiv %x, %y
  %rr: Int64 = mod %x, %y
  index.store %q[%i, %j], %qq
  index.store %r[%i, %j], %rr
  %j2: Int64 = add %j, %one
  set %j = %j2
  br cols
rownext:
  %i2: Int64 = add %i, %one
  set %i = %i2
  br rows
done:
  return
}

func fdiv8(%a: Int8, %b: Int8) -> Int8 {
entry:
  %q: Int8 = fdiv %a, %b !loc "kernels.py":30:12
  return %q
}

func mod8(%a: Int8, %b: Int8) -> Int8 {
entry:
  %r: Int8 = mod %a, %b
  return %r
}

func fdiv_f(%a: Float64, %b: Float64) -> Float64 {
entry:
  %q: Float64 = fdiv %a, %b
  return %q
}

func mod_f(%a: Float64, %b: Float64) -> Float64 {
entry:
  %r: Float64 = mod %a, %b
  return %r
}

func truediv(%a: Int32, %b: Int32) -> Float64 {
entry:
  %r: Float64 = div %a, %b
  return %r
}
