; pipeline: dce
; Unused results of operations with effects stay: a call, a store, integer
; fdiv/mod/shl/pow (they can panic), a load (memory read can fault), a
; `set`, an `alloc` of a run-time extent (it can fail); unused float
; division, integer add (no overflow checks) and an `alloc` of constant
; extents (it cannot fail) go.
module dcs

func g(%x: Int64) -> Int64 {
entry:
  return %x
}

func f(%a: &Int64[]Shape[?], %x: Int64, %y: Int64, %f: Float64) {
entry:
  %z: Int64 = const 0
  let %l: Int64 = %z
  %c: Int64 = call g(%x)
  %q: Int64 = fdiv %x, %y
  %m: Int64 = mod %x, %y
  %s: Int64 = shl %x, %y
  %p: Int64 = pow %x, %y
  %v: Int64 = load %a, %z
  store %a, %z, %x
  set %l = %x
  %e: Int64 = const 4
  %buf: Float64[]Shape[?] = alloc %e
  %n: Float64[]Shape[?] = alloc.empty %y
  %fd: Float64 = div %f, %f
  %fq: Float64 = fdiv %f, %f
  %ad: Int64 = add %x, %y
  return
}
