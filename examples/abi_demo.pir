; The module that docs/abi.md calls from C and from Python (ctypes): one
; function per ABI rule. Tested by codegen/tests/abi_*.rs and
; tests/python/test_abi.py.
module abi_demo
import intrinsic sqrt = sqrt
alias l2 = norm
export mix, hadd, cmul, cscale64, greet, bcat, total, total_f, every_other_sum, scale, norm, l2, cumsum, get, axpy, rowdot, matmul, cross

; Scalars of several widths and signedness; Bool in, Float64 out.
func mix(%flag: Bool, %i: Int16, %u: UInt8, %x: Float32) -> Float64 {
entry:
  %fi: Float64 = cast %i
  %fu: Float64 = cast %u
  %fx: Float64 = cast %x
  %s: Float64 = add %fi, %fu
  %t: Float64 = add %s, %fx
  %neg: Float64 = neg %t
  %r: Float64 = select %flag, %neg, %t
  return %r
}

; Float16 is C's _Float16.
func hadd(%a: Float16, %b: Float16) -> Float16 {
entry:
  %r: Float16 = add %a, %b
  return %r
}

; Complex numbers travel by pointer; the result through a trailing pointer.
func cmul(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %r: Complex128 = mul %a, %b
  return %r
}

func cscale64(%a: Complex64, %f: Float32) -> Complex64 {
entry:
  %fc: Complex64 = cast %f
  %r: Complex64 = mul %a, %fc
  return %r
}

; Str and Bytes are {ptr, len} values, in and out.
func greet(%name: Str) -> Str {
entry:
  %hello: Str = const "Hello, "
  %bang: Str = const "!"
  %a: Str = add %hello, %name
  %r: Str = add %a, %bang
  return %r
}

func bcat(%a: Bytes, %b: Bytes) -> Bytes {
entry:
  %r: Bytes = add %a, %b
  return %r
}

; Sum of a C-order matrix, weighted by position (100*i + j) so that a
; wrong index map shows.
func total(%a: Float64[]Shape[?, ?]) -> Float64 {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %hundred: Int64 = const 100
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
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
  %v: Float64 = index.load %a[%i, %j]
  %w0: Int64 = mul %i, %hundred
  %w1: Int64 = add %w0, %j
  %w: Float64 = cast %w1
  %t: Float64 = mul %v, %w
  %acc2: Float64 = add %acc, %t
  set %acc = %acc2
  %j2: Int64 = add %j, %one
  set %j = %j2
  br cols
rownext:
  %i2: Int64 = add %i, %one
  set %i = %i2
  br rows
done:
  return %acc
}

; The same over a Fortran-order matrix (or the transpose of a C one).
func total_f(%a: Float64[]Shape[?, ?]FOrder) -> Float64 {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %hundred: Int64 = const 100
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
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
  %v: Float64 = index.load %a[%i, %j]
  %w0: Int64 = mul %i, %hundred
  %w1: Int64 = add %w0, %j
  %w: Float64 = cast %w1
  %t: Float64 = mul %v, %w
  %acc2: Float64 = add %acc, %t
  set %acc = %acc2
  %j2: Int64 = add %j, %one
  set %j = %j2
  br cols
rownext:
  %i2: Int64 = add %i, %one
  set %i = %i2
  br rows
done:
  return %acc
}

; x[::2] of a Float64 vector: a static 16-byte stride; sum weighted by index.
func every_other_sum(%x: Float64[]Shape[?]Strides[16]) -> Float64 {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %i1: Int64 = add %i, %one
  %w: Float64 = cast %i1
  %t: Float64 = mul %v, %w
  %acc2: Float64 = add %acc, %t
  set %acc = %acc2
  set %i = %i1
  br head
done:
  return %acc
}

; An output array, written in place.
func scale(%x: &Float64[]Shape[?], %f: Float64) {
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
  %v: Float64 = index.load %x[%i]
  %r: Float64 = mul %v, %f
  index.store %x[%i], %r
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}

; Exported twice: as `norm` and as its alias `l2`.
func norm(%x: Float64[]Shape[?]) -> Float64 {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %s: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %v2: Float64 = mul %v, %v
  %s2: Float64 = add %s, %v2
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %r: Float64 = call sqrt(%s)
  return %r
}

; A returned array: a DLManagedTensor* the caller releases with its deleter.
func cumsum(%x: Float64[]Shape[?]) -> Float64[] {
entry:
  %n: Int64 = dim %x, 0
  %out: Float64[] = alloc %n
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %acc2: Float64 = add %acc, %v
  set %acc = %acc2
  index.store %out[%i], %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %out
}

; An out-of-bounds index panics (message on stderr, then abort).
func get(%x: Float64[]Shape[?], %i: Int64) -> Float64 {
entry:
  %v: Float64 = index.load %x[%i]
  return %v
}

; Elementwise ufunc: a * x + y.
ufunc axpy(%a: Float64, %x: Float64, %y: Float64) -> Float64 "(),(),()->()" {
entry:
  %ax: Float64 = mul %a, %x
  %r: Float64 = add %ax, %y
  return %r
}

; Generalized ufunc with a scalar result.
ufunc rowdot(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 "(n),(n)->()" core(%n: Int64) {
entry:
  %zero: Float64 = const 0.0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  let %acc: Float64 = %zero
  let %i: Int64 = %i0
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %x: Float64 = index.load %a[%i]
  %y: Float64 = index.load %b[%i]
  %p: Float64 = mul %x, %y
  %acc2: Float64 = add %acc, %p
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

; Generalized ufunc with an output operand.
ufunc matmul(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) "(m,k),(k,n)->(m,n)" core(%m: Int64, %k: Int64, %n: Int64) {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %z
  let %j: Int64 = %z
  let %p: Int64 = %z
  let %acc: Float64 = %fz
  br rows
rows:
  %ri: Bool = lt %i, %m
  condbr %ri, row, done
row:
  set %j = %z
  br cols
cols:
  %cj: Bool = lt %j, %n
  condbr %cj, col, rownext
col:
  set %acc = %fz
  set %p = %z
  br inner
inner:
  %kp: Bool = lt %p, %k
  condbr %kp, mac, store
mac:
  %av: Float64 = index.load %a[%i, %p]
  %bv: Float64 = index.load %b[%p, %j]
  %prod: Float64 = mul %av, %bv
  %acc2: Float64 = add %acc, %prod
  set %acc = %acc2
  %p2: Int64 = add %p, %one
  set %p = %p2
  br inner
store:
  index.store %c[%i, %j], %acc
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

; Static core shape: the body has the strides of Float64[]Shape[3] built
; in, so the entry points copy operands that are laid out otherwise.
ufunc cross(%a: Float64[]Shape[3], %b: Float64[]Shape[3], %c: &Float64[]Shape[3]) "(3),(3)->(3)" {
entry:
  %i0: Int64 = const 0
  %i1: Int64 = const 1
  %i2: Int64 = const 2
  %a0: Float64 = index.load %a[%i0]
  %a1: Float64 = index.load %a[%i1]
  %a2: Float64 = index.load %a[%i2]
  %b0: Float64 = index.load %b[%i0]
  %b1: Float64 = index.load %b[%i1]
  %b2: Float64 = index.load %b[%i2]
  %p0: Float64 = mul %a1, %b2
  %q0: Float64 = mul %a2, %b1
  %c0: Float64 = sub %p0, %q0
  %p1: Float64 = mul %a2, %b0
  %q1: Float64 = mul %a0, %b2
  %c1: Float64 = sub %p1, %q1
  %p2: Float64 = mul %a0, %b1
  %q2: Float64 = mul %a1, %b0
  %c2: Float64 = sub %p2, %q2
  index.store %c[%i0], %c0
  index.store %c[%i1], %c1
  index.store %c[%i2], %c2
  return
}

; Not in the export list: a module-private function, no symbol.
func unlisted(%x: Int64) -> Int64 {
entry:
  return %x
}
