; Runtime panics with their messages and locations: index out of bounds
; (explicit and implicit locations), division and modulo by zero, negative
; exponent, complex zero to a negative or complex power, a negative
; allocation length, and unreachable code after a call that never returns.
module panics

func get(%a: Float64[]Shape[?], %i: Int64) -> Float64 {
entry:
  %v: Float64 = index.load %a[%i] !loc "kernels.py":40:12
  return %v
}

func get2(%a: Int32[]Shape[?, ?], %i: Int64, %j: Int64) -> Int32 {
entry:
  %v: Int32 = index.load %a[%i, %j]
  return %v
}

func put(%a: &UInt8[]Shape[?], %i: Int64, %v: UInt8) {
entry:
  index.store %a[%i], %v !loc "kernels.py":48:5
  return
}

func idiv(%a: Int64, %b: Int64) -> Int64 {
entry:
  %q: Int64 = fdiv %a, %b !loc "kernels.py":52:12
  return %q
}

func imod(%a: UInt32, %b: UInt32) -> UInt32 {
entry:
  %r: UInt32 = mod %a, %b
  return %r
}

func ipow(%a: Int64, %b: Int64) -> Int64 {
entry:
  %r: Int64 = pow %a, %b !loc "kernels.py":60:12
  return %r
}

func zpow(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %r: Complex128 = pow %a, %b !loc "kernels.py":70:12
  return %r
}

func zpow64(%a: Complex64, %b: Complex64) -> Complex64 {
entry:
  %r: Complex64 = pow %a, %b
  return %r
}

func alloc_len(%n: Int64) -> Int64 {
entry:
  %buf: Float64[] = alloc %n !loc "kernels.py":78:11
  %len: Int64 = dim %buf, 0
  return %len
}

func fail(%code: Int64) noreturn cold noinline {
entry:
  unreachable !loc "kernels.py":64:5
}

func must_be_positive(%x: Int64) -> Int64 {
entry:
  %z: Int64 = const 0
  %ok: Bool = gt %x, %z
  condbr %ok, good, bad !weights 1000:1
good:
  return %x
bad:
  call fail(%x)
  unreachable
}

func checked_sqrt_floor(%x: Int64) -> Int64 {
  doc "Largest r with r*r <= x; negative x reaches unreachable code."
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %neg: Bool = lt %x, %z
  condbr %neg, bad, start
bad:
  unreachable
start:
  let %r: Int64 = %z
  br head
head:
  %r1: Int64 = add %r, %one
  %sq: Int64 = mul %r1, %r1
  %fits: Bool = le %sq, %x
  condbr %fits, step, done
step:
  set %r = %r1
  br head
done:
  return %r
}
