; Python's float and complex arithmetic, written once for every backend:
; `legalize` copies the functions a module calls into it (with the
; intrinsic imports they use) and rewrites `fdiv` and `mod` on floats and
; `div` and `pow` on complex numbers into calls of them. Each computes in
; Float64 (Complex128); a narrower operation is widened exactly and its
; result rounded once, as the reference interpreter does
; (`ir/src/interp/ops.rs`, which these functions must match bit for bit).
module python_semantics
import intrinsic postc.fmod = fmod
import intrinsic postc.copysign = copysign
import intrinsic postc.floor = floor
import intrinsic postc.fabs = fabs
import intrinsic postc.hypot = hypot
import intrinsic postc.pow = pow
import intrinsic postc.atan2 = atan2
import intrinsic postc.exp = exp
import intrinsic postc.log = log
import intrinsic postc.cos = cos
import intrinsic postc.sin = sin

func postc.py.floordiv(%x: Float64, %y: Float64) -> Float64 {
  doc "x // y (CPython's float_floor_div): the quotient of x - fmod(x, y), moved down where the remainder's sign differs from y's, then rounded to the nearest integer; a zero quotient takes the sign of x / y. By zero: x / y, as NumPy."
entry:
  %zero: Float64 = const 0.0
  %by.zero: Bool = eq %y, %zero
  condbr %by.zero, by.zero, divide
by.zero:
  %ratio: Float64 = div %x, %y
  return %ratio
divide:
  %m: Float64 = call postc.fmod(%x, %y)
  %xm: Float64 = sub %x, %m
  %div: Float64 = div %xm, %y
  %m.nonzero: Bool = ne %m, %zero
  %y.neg: Bool = lt %y, %zero
  %m.neg: Bool = lt %m, %zero
  %signs.differ: Bool = ne %y.neg, %m.neg
  %adjust: Bool = and %m.nonzero, %signs.differ
  %one: Float64 = const 1.0
  %div.down: Float64 = sub %div, %one
  %div1: Float64 = select %adjust, %div.down, %div
  %floor: Float64 = call postc.floor(%div1)
  %frac: Float64 = sub %div1, %floor
  %half: Float64 = const 0.5
  %round.up: Bool = gt %frac, %half
  %floor.up: Float64 = add %floor, %one
  %rounded: Float64 = select %round.up, %floor.up, %floor
  %q: Float64 = div %x, %y
  %signed.zero: Float64 = call postc.copysign(%zero, %q)
  %div.nonzero: Bool = ne %div1, %zero
  %result: Float64 = select %div.nonzero, %rounded, %signed.zero
  return %result
}

func postc.py.mod(%x: Float64, %y: Float64) -> Float64 {
  doc "x % y (CPython's float_rem): fmod(x, y), moved by y where its sign differs from y's; a zero remainder takes y's sign. By zero: NaN, as NumPy."
entry:
  %zero: Float64 = const 0.0
  %by.zero: Bool = eq %y, %zero
  condbr %by.zero, by.zero, divide
by.zero:
  %nan: Float64 = const nan
  return %nan
divide:
  %m: Float64 = call postc.fmod(%x, %y)
  %m.nonzero: Bool = ne %m, %zero
  %y.neg: Bool = lt %y, %zero
  %m.neg: Bool = lt %m, %zero
  %signs.differ: Bool = ne %y.neg, %m.neg
  %adjust: Bool = and %m.nonzero, %signs.differ
  %m.up: Float64 = add %m, %y
  %m1: Float64 = select %adjust, %m.up, %m
  %signed.zero: Float64 = call postc.copysign(%zero, %y)
  %result: Float64 = select %m.nonzero, %m1, %signed.zero
  return %result
}

func postc.py.cdiv(%a: Complex128, %b: Complex128) -> Complex128 {
  doc "a / b (CPython's _Py_c_quot): scaled by the larger part of b; by zero, each part divided by 0.0 (NumPy's inf/nan); a NaN in b gives NaN."
entry:
  %ar: Float64 = getfield %a, real
  %ai: Float64 = getfield %a, imag
  %br: Float64 = getfield %b, real
  %bi: Float64 = getfield %b, imag
  %abs.br: Float64 = call postc.fabs(%br)
  %abs.bi: Float64 = call postc.fabs(%bi)
  let %r: Complex128 = %a
  %real.larger: Bool = ge %abs.br, %abs.bi
  condbr %real.larger, real.larger, not.real.larger
real.larger:
  %zero: Float64 = const 0.0
  %by.zero: Bool = eq %abs.br, %zero
  condbr %by.zero, by.zero, by.real
by.zero:
  %zr: Float64 = div %ar, %abs.br
  %zi: Float64 = div %ai, %abs.br
  setfield %r, real, %zr
  setfield %r, imag, %zi
  return %r
by.real:
  %ratio: Float64 = div %bi, %br
  %t1: Float64 = mul %bi, %ratio
  %denom: Float64 = add %br, %t1
  %t2: Float64 = mul %ai, %ratio
  %n1: Float64 = add %ar, %t2
  %t3: Float64 = mul %ar, %ratio
  %n2: Float64 = sub %ai, %t3
  %rr: Float64 = div %n1, %denom
  %ri: Float64 = div %n2, %denom
  setfield %r, real, %rr
  setfield %r, imag, %ri
  return %r
not.real.larger:
  %imag.larger: Bool = ge %abs.bi, %abs.br
  condbr %imag.larger, by.imag, unordered
by.imag:
  %ratio2: Float64 = div %br, %bi
  %u1: Float64 = mul %br, %ratio2
  %denom2: Float64 = add %u1, %bi
  %u2: Float64 = mul %ar, %ratio2
  %m1: Float64 = add %u2, %ai
  %u3: Float64 = mul %ai, %ratio2
  %m2: Float64 = sub %u3, %ar
  %ir: Float64 = div %m1, %denom2
  %ii: Float64 = div %m2, %denom2
  setfield %r, real, %ir
  setfield %r, imag, %ii
  return %r
unordered:
  %nan: Float64 = const nan
  setfield %r, real, %nan
  setfield %r, imag, %nan
  return %r
}

func postc.py.cpow(%a: Complex128, %b: Complex128) -> Complex128 {
  doc "a ** b (CPython's complex_pow): 1 for a zero exponent, 0 for a zero base (insert-checks has panicked on a negative or complex exponent), repeated squaring for an integral real exponent up to 100 in magnitude (c_powi, through cdiv for a negative one), else polar form (c_pow)."
entry:
  %ar: Float64 = getfield %a, real
  %ai: Float64 = getfield %a, imag
  %br: Float64 = getfield %b, real
  %bi: Float64 = getfield %b, imag
  %zero: Float64 = const 0.0
  %one: Float64 = const 1.0
  let %r: Complex128 = %a
  %br.zero: Bool = eq %br, %zero
  %bi.zero: Bool = eq %bi, %zero
  %b.zero: Bool = and %br.zero, %bi.zero
  condbr %b.zero, unit, nonzero.exp
unit:
  setfield %r, real, %one
  setfield %r, imag, %zero
  return %r
nonzero.exp:
  %ar.zero: Bool = eq %ar, %zero
  %ai.zero: Bool = eq %ai, %zero
  %a.zero: Bool = and %ar.zero, %ai.zero
  condbr %a.zero, zero.base, nonzero.base
zero.base:
  setfield %r, real, %zero
  setfield %r, imag, %zero
  return %r
nonzero.base:
  %floor: Float64 = call postc.floor(%br)
  %integral: Bool = eq %br, %floor
  %abs.br: Float64 = call postc.fabs(%br)
  %hundred: Float64 = const 100.0
  %small: Bool = le %abs.br, %hundred
  %real.integral: Bool = and %bi.zero, %integral
  %by.squaring: Bool = and %real.integral, %small
  condbr %by.squaring, squaring, polar
squaring:
  %n: Int64 = cast %br
  %izero: Int64 = const 0
  %ione: Int64 = const 1
  %n.neg: Bool = lt %n, %izero
  %minus.n: Int64 = sub %izero, %n
  %count: Int64 = select %n.neg, %minus.n, %n
  let %rr: Float64 = %one
  let %ri: Float64 = %zero
  let %pr: Float64 = %ar
  let %pi: Float64 = %ai
  let %mask: Int64 = %ione
  br square.head
square.head:
  %more: Bool = ge %count, %mask
  condbr %more, square.body, square.done
square.body:
  %bit: Int64 = band %count, %mask
  %set: Bool = ne %bit, %izero
  condbr %set, multiply, square
multiply:
  %p1: Float64 = mul %rr, %pr
  %p2: Float64 = mul %ri, %pi
  %mr: Float64 = sub %p1, %p2
  %p3: Float64 = mul %rr, %pi
  %p4: Float64 = mul %ri, %pr
  %mi: Float64 = add %p3, %p4
  set %rr = %mr
  set %ri = %mi
  br square
square:
  %mask2: Int64 = shl %mask, %ione
  set %mask = %mask2
  %s1: Float64 = mul %pr, %pr
  %s2: Float64 = mul %pi, %pi
  %sr: Float64 = sub %s1, %s2
  %s3: Float64 = mul %pr, %pi
  %s4: Float64 = mul %pi, %pr
  %si: Float64 = add %s3, %s4
  set %pr = %sr
  set %pi = %si
  br square.head
square.done:
  setfield %r, real, %rr
  setfield %r, imag, %ri
  condbr %n.neg, reciprocal, power
power:
  return %r
reciprocal:
  %unit1: Complex128 = const (1.0+0.0j)
  %inverse: Complex128 = call postc.py.cdiv(%unit1, %r)
  return %inverse
polar:
  %vabs: Float64 = call postc.hypot(%ar, %ai)
  %len0: Float64 = call postc.pow(%vabs, %br)
  %at: Float64 = call postc.atan2(%ai, %ar)
  %phase0: Float64 = mul %at, %br
  let %len: Float64 = %len0
  let %phase: Float64 = %phase0
  condbr %bi.zero, polar.done, polar.imag
polar.imag:
  %atb: Float64 = mul %at, %bi
  %e: Float64 = call postc.exp(%atb)
  %len1: Float64 = div %len0, %e
  set %len = %len1
  %lg: Float64 = call postc.log(%vabs)
  %bl: Float64 = mul %bi, %lg
  %phase1: Float64 = add %phase0, %bl
  set %phase = %phase1
  br polar.done
polar.done:
  %c: Float64 = call postc.cos(%phase)
  %s: Float64 = call postc.sin(%phase)
  %gr: Float64 = mul %len, %c
  %gi: Float64 = mul %len, %s
  setfield %r, real, %gr
  setfield %r, imag, %gi
  return %r
}
