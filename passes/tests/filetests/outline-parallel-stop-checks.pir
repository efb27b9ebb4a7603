; pipeline: outline-parallel
; Where a chunk function reads the stop word. `total` steps by the
; constant 1: its chunk function runs the loop in blocks of at most 64
; iterations, the loop's header comparing the counter with the block's end
; (`block.end`, set in `block` and never past the chunk's end `hi`), and
; reads the stop word only between blocks (`block.check`), so the loop
; itself holds nothing else. `down` steps by a parameter: there the stop
; word is read on every iteration's back edge (`chunk.next`).
module pr2

func total(%a: Float64[]Shape[?]) -> Float64 {
entry:
  %zero.1: Int64 = const 0
  let %i: Int64 = %zero.1
  %zero.2: Float64 = const 0.0
  let %s: Float64 = %zero.2
  %c.3: Float64 = const 0.0
  set %s = %c.3
  %len.4: Int64 = dim %a, 0
  %c.5: Int64 = const 0
  %c.6: Int64 = const 1
  let %i.next.7: Int64 = %c.5
  %prange.ops.8: Str = const "+"
  call postc.prange(%prange.ops.8, %i.next.7, %len.4, %c.6, %s)
  br for.9
for.9:
  %more.13: Bool = lt %i.next.7, %len.4
  condbr %more.13, body.10, endfor.12
body.10:
  set %i = %i.next.7
  %el.14: Float64 = index.load %a[%i]
  %add.15: Float64 = add %s, %el.14
  set %s = %add.15
  br next.11
next.11:
  %k.16: Int64 = add %i.next.7, %c.6
  set %i.next.7 = %k.16
  br for.9
endfor.12:
  return %s
}

func down(%a: Float64[]Shape[?], %k: Int64) -> Float64 {
entry:
  %zero.1: Int64 = const 0
  let %i: Int64 = %zero.1
  %zero.2: Float64 = const 0.0
  let %s: Float64 = %zero.2
  %c.3: Float64 = const 0.0
  set %s = %c.3
  %len.4: Int64 = dim %a, 0
  %c.5: Int64 = const 1
  %sub.6: Int64 = sub %len.4, %c.5
  %c.7: Int64 = const -1
  %zero.8: Int64 = const 0
  %step.ok.9: Bool = ne %k, %zero.8
  condbr %step.ok.9, ok.11, fail.10
fail.10:
  %msg.12: Str = const "range() arg 3 must not be zero"
  call postc.panic(%msg.12)
  unreachable
ok.11:
  let %i.next.13: Int64 = %sub.6
  %prange.ops.14: Str = const "+"
  call postc.prange(%prange.ops.14, %i.next.13, %c.7, %k, %s)
  br for.15
for.15:
  %zero.20: Int64 = const 0
  %up.21: Bool = gt %k, %zero.20
  %lt.22: Bool = lt %i.next.13, %c.7
  %gt.23: Bool = gt %i.next.13, %c.7
  %more.19: Bool = select %up.21, %lt.22, %gt.23
  condbr %more.19, body.16, endfor.18
body.16:
  set %i = %i.next.13
  %dim.24: Int64 = dim %a, 0
  %zero.25: Int64 = const 0
  %lt.26: Bool = lt %i, %zero.25
  %add.27: Int64 = add %i, %dim.24
  %idx.28: Int64 = select %lt.26, %add.27, %i
  %el.29: Float64 = index.load %a[%idx.28]
  %add.30: Float64 = add %s, %el.29
  set %s = %add.30
  br next.17
next.17:
  %k.31: Int64 = add %i.next.13, %k
  set %i.next.13 = %k.31
  br for.15
endfor.18:
  return %s
}
