; pipeline: irce
; Loops that irce leaves as they are: a step that is not a constant, an
; index that is not the counter plus a constant, an extent that changes in
; the loop, a decreasing loop, a check that reads the counter after the
; latch's `set`, an exit that does not end the function, an extent of an
; array of unknown rank read in the loop, and a barrier in the loop.
module irceno

func nonconst_step(%x: &Int64[]Shape[?], %n: Int64, %s: Int64) {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %xn: Int64 = dim %x, 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %c.u: UInt64 = cast %i
  %c.nu: UInt64 = cast %xn
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %i, %xn)
  unreachable
c.ok:
  index.store %x[%i], %i
  %next: Int64 = add %i, %s
  set %i = %next
  br head
done:
  return
}

func not_affine(%x: &Int64[]Shape[?], %n: Int64) {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %xn: Int64 = dim %x, 0
  %two: Int64 = const 2
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %k: Int64 = mul %i, %two
  %c.u: UInt64 = cast %k
  %c.nu: UInt64 = cast %xn
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %k, %xn)
  unreachable
c.ok:
  index.store %x[%k], %i
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func extent_changes(%x: &Int64[]Shape[?], %n: Int64) {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %xn: Int64 = dim %x, 0
  let %lim: Int64 = %xn
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %c.u: UInt64 = cast %i
  %c.nu: UInt64 = cast %lim
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %i, %lim)
  unreachable
c.ok:
  index.store %x[%i], %i
  %lim2: Int64 = sub %lim, %one
  set %lim = %lim2
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func decreasing(%x: &Int64[]Shape[?], %n: Int64) {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %xn: Int64 = dim %x, 0
  %start: Int64 = sub %n, %one
  let %i: Int64 = %start
  br head
head:
  %more: Bool = lt %zero, %i
  condbr %more, body, done
body:
  %c.u: UInt64 = cast %i
  %c.nu: UInt64 = cast %xn
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %i, %xn)
  unreachable
c.ok:
  index.store %x[%i], %i
  %next: Int64 = sub %i, %one
  set %i = %next
  br head
done:
  return
}

func after_the_set(%x: &Int64[]Shape[?], %n: Int64) {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %xn: Int64 = dim %x, 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %next: Int64 = add %i, %one
  set %i = %next
  %c.u: UInt64 = cast %i
  %c.nu: UInt64 = cast %xn
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %i, %xn)
  unreachable
c.ok:
  index.store %x[%i], %i
  br head
done:
  return
}

func break_out(%x: &Int64[]Shape[?], %n: Int64) {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %xn: Int64 = dim %x, 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %c.u: UInt64 = cast %i
  %c.nu: UInt64 = cast %xn
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %i, %xn)
  unreachable
c.ok:
  index.store %x[%i], %i
  %neg: Bool = lt %i, %zero
  condbr %neg, after, latch
latch:
  %next: Int64 = add %i, %one
  set %i = %next
  br head
after:
  br done
done:
  return
}

func unknown_rank(%x: &Int64[], %n: Int64) {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %xn: Int64 = dim %x, 0
  %c.u: UInt64 = cast %i
  %c.nu: UInt64 = cast %xn
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %i, %xn)
  unreachable
c.ok:
  index.store %x[%i], %i
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func barrier(%x: &Int64[]Shape[?], %n: Int64) kernel {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %xn: Int64 = dim %x, 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %c.u: UInt64 = cast %i
  %c.nu: UInt64 = cast %xn
  %c.in: Bool = lt %c.u, %c.nu
  condbr %c.in, c.ok, c.panic !weights 2000:1
c.panic:
  %c.msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  call postc.panic(%c.msg, %i, %xn)
  unreachable
c.ok:
  index.store %x[%i], %i
  call postc.gpu.sync_threads()
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}
