; pipeline: irce
; Row r of a matrix: the check of r does not change in the loop and goes
; into the guard; the check of j compares with `dim %a, 1`, read in the
; loop, which the guard reads once (the rank of %a is static). A check
; whose branch keeps a panic in the main loop (here the modulo by a
; parameter) keeps its exit, copied for the main loop.
module irceinv

func row_sum(%a: Float64[]Shape[?, ?], %r: Int64, %d: Int64) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  %m: Int64 = dim %a, 1
  let %acc: Float64 = %fz
  let %j: Int64 = %zero
  br head
head:
  %more: Bool = lt %j, %m
  condbr %more, body, done
body:
  %n0: Int64 = dim %a, 0
  %ru: UInt64 = cast %r
  %n0u: UInt64 = cast %n0
  %rok: Bool = lt %ru, %n0u
  condbr %rok, r.ok, r.panic !weights 2000:1
r.panic:
  %msg0: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%msg0, %r, %n0)
  unreachable
r.ok:
  %n1: Int64 = dim %a, 1
  %ju: UInt64 = cast %j
  %n1u: UInt64 = cast %n1
  %jok: Bool = lt %ju, %n1u
  condbr %jok, j.ok, j.panic !weights 2000:1
j.panic:
  %msg1: Str = const "index out of bounds: index {} is out of range for axis 1 with size {}"
  call postc.panic(%msg1, %j, %n1)
  unreachable
j.ok:
  %v: Float64 = index.load %a[%r, %j]
  %dz: Bool = ne %d, %zero
  condbr %dz, d.ok, d.panic !weights 2000:1
d.panic:
  %msg2: Str = const "modulo by zero"
  call postc.panic(%msg2)
  unreachable
d.ok:
  %q: Int64 = mod %j, %d
  %qf: Float64 = cast %q
  %p: Float64 = mul %v, %qf
  %acc2: Float64 = add %acc, %p
  set %acc = %acc2
  %next: Int64 = add %j, %one
  set %j = %next
  br head
done:
  return %acc
}
