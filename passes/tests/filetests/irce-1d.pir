; pipeline: irce
; The counted loop reads x[i], y[i + 1] and z[i - 2] behind bounds checks
; against extents read before the loop. The guard enters the main loop,
; which has no checks, when i starts at 2 or more; it runs while
; i < min(n, len(x), len(y) - 1, len(z) + 2), with each extent clamped to
; [0, 2^62] first; the original loop, unchanged, runs the rest and panics
; at the first failing check as before.
module irce1d

func stencil(%x: Float64[]Shape[?], %y: Float64[]Shape[?], %z: Float64[]Shape[?], %out: &Float64[]Shape[?], %n: Int64) {
entry:
  %xn: Int64 = dim %x, 0
  %yn: Int64 = dim %y, 0
  %zn: Int64 = dim %z, 0
  %outn: Int64 = dim %out, 0
  %two: Int64 = const 2
  %one: Int64 = const 1
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  let %i: Int64 = %two
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %iu: UInt64 = cast %i
  %xnu: UInt64 = cast %xn
  %xok: Bool = lt %iu, %xnu
  condbr %xok, x.ok, x.panic !weights 2000:1
x.panic:
  call postc.panic(%msg, %i, %xn)
  unreachable
x.ok:
  %xv: Float64 = index.load %x[%i]
  %ip1: Int64 = add %i, %one
  %ip1u: UInt64 = cast %ip1
  %ynu: UInt64 = cast %yn
  %yok: Bool = lt %ip1u, %ynu
  condbr %yok, y.ok, y.panic !weights 2000:1
y.panic:
  call postc.panic(%msg, %ip1, %yn)
  unreachable
y.ok:
  %yv: Float64 = index.load %y[%ip1]
  %im2: Int64 = sub %i, %two
  %im2u: UInt64 = cast %im2
  %znu: UInt64 = cast %zn
  %zok: Bool = lt %im2u, %znu
  condbr %zok, z.ok, z.panic !weights 2000:1
z.panic:
  call postc.panic(%msg, %im2, %zn)
  unreachable
z.ok:
  %zv: Float64 = index.load %z[%im2]
  %s: Float64 = add %xv, %yv
  %t: Float64 = add %s, %zv
  %outnu: UInt64 = cast %outn
  %ook: Bool = lt %iu, %outnu
  condbr %ook, o.ok, o.panic !weights 2000:1
o.panic:
  call postc.panic(%msg, %i, %outn)
  unreachable
o.ok:
  index.store %out[%i], %t
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

; The frontend's `for i in range(len(x))`: the counter is `%i.next`, and
; the body reads `%i`, a copy set from it at the top of each iteration.
func scale(%x: &Float32[]Shape[?], %a: Float32) {
entry:
  %zero: Int64 = const 0
  let %i: Int64 = %zero
  %len: Int64 = dim %x, 0
  %one: Int64 = const 1
  let %i.next: Int64 = %zero
  br for
for:
  %more: Bool = lt %i.next, %len
  condbr %more, body, endfor
body:
  set %i = %i.next
  %iu: UInt64 = cast %i
  %nu: UInt64 = cast %len
  %ok: Bool = lt %iu, %nu
  condbr %ok, ok, panic !weights 2000:1
panic:
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%msg, %i, %len)
  unreachable
ok:
  %v: Float32 = index.load %x[%i]
  %w: Float32 = mul %v, %a
  index.store %x[%i], %w
  br next
next:
  %k: Int64 = add %i.next, %one
  set %i.next = %k
  br for
endfor:
  return
}
