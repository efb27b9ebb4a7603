; Array views (`view`): a row of a 2-D array in any layout, stepped and
; reversed slices, a transpose written through, a block, its row and a 0-d
; view of an element (views of views), a reshape, views returned from
; functions (of an argument; of an allocation, reversed; of a view a callee
; returned), empty views, and each way a view can be invalid; a row as a
; `view.inbounds`, made only for an index within the extent.
module views

; Σ (j + 1) * a[i][j] over the row a[i], whatever a's layout.
func row_wsum(%a: Float64[]Shape[?, ?], %i: Int64) -> Float64 {
entry:
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %off: Int64 = mul %i, %s0
  %row: Float64[]Shape[?] = view %a, %off, [%n], [%s1]
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %j: Int64 = %z
  br head
head:
  %m: Int64 = dim %row, 0
  %more: Bool = lt %j, %m
  condbr %more, body, done
body:
  %x: Float64 = index.load %row[%j]
  %j1: Int64 = add %j, %one
  %w: Float64 = cast %j1
  %t: Float64 = mul %x, %w
  %acc2: Float64 = add %acc, %t
  set %acc = %acc2
  set %j = %j1
  br head
done:
  return %acc
}

; Σ (j + 1) * a[i][j] over the row a[i] as a `view.inbounds`: made only
; once `i` is known to lie within the extent, so valid by construction
; (as the frontend makes `a[i]`); 0.0 for any other `i`.
func row_wsum_inbounds(%a: Float64[]Shape[?, ?], %i: Int64) -> Float64 {
entry:
  %rows: Int64 = dim %a, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  %from: Bool = ge %i, %z
  %below: Bool = lt %i, %rows
  %inside: Bool = and %from, %below
  let %acc: Float64 = %fz
  let %j: Int64 = %z
  condbr %inside, row, done
row:
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %off: Int64 = mul %i, %s0
  %r: Float64[]Shape[?] = view.inbounds %a, %off, [%n], [%s1]
  br head
head:
  %m: Int64 = dim %r, 0
  %more: Bool = lt %j, %m
  condbr %more, body, done
body:
  %x: Float64 = index.load %r[%j]
  %j1: Int64 = add %j, %one
  %w: Float64 = cast %j1
  %t: Float64 = mul %x, %w
  %acc2: Float64 = add %acc, %t
  set %acc = %acc2
  set %j = %j1
  br head
done:
  return %acc
}

; Σ (k + 1) * v[k] over v = x[lo : lo + count*step : step] (any step, 0
; and negative ones too).
func slice_wsum(%x: Int32[]Shape[?], %lo: Int64, %count: Int64, %step: Int64) -> Int64 {
entry:
  %s: Int64 = stride %x, 0
  %off: Int64 = mul %lo, %s
  %vs: Int64 = mul %step, %s
  %v: Int32[]Shape[?] = view %x, %off, [%count], [%vs]
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %acc: Int64 = %z
  let %k: Int64 = %z
  br head
head:
  %more: Bool = lt %k, %count
  condbr %more, body, done
body:
  %x32: Int32 = index.load %v[%k]
  %xk: Int64 = cast %x32
  %k1: Int64 = add %k, %one
  %t: Int64 = mul %xk, %k1
  %acc2: Int64 = add %acc, %t
  set %acc = %acc2
  set %k = %k1
  br head
done:
  return %acc
}

; a.T[j, i] = 100*i + j for every element: the writes go through the
; transposed view into a.
func fill_transposed(%a: &Int64[]Shape[?, ?]) {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %hundred: Int64 = const 100
  %t: &Int64[]Shape[?, ?] = view %a, %z, [%n, %m], [%s1, %s0]
  let %j: Int64 = %z
  let %i: Int64 = %z
  br rows
rows:
  %rj: Bool = lt %j, %n
  condbr %rj, row, done
row:
  set %i = %z
  br cols
cols:
  %ci: Bool = lt %i, %m
  condbr %ci, body, next
body:
  %h: Int64 = mul %i, %hundred
  %x: Int64 = add %h, %j
  index.store %t[%j, %i], %x
  %i1: Int64 = add %i, %one
  set %i = %i1
  br cols
next:
  %j1: Int64 = add %j, %one
  set %j = %j1
  br rows
done:
  return
}

; a[r0:r0+2, c0:c0+3][1][2]: a block view, its row 1, then the 0-d view of
; the row's element 2.
func block_elem(%a: Float64[]Shape[?, ?], %r0: Int64, %c0: Int64) -> Float64 {
entry:
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %two: Int64 = const 2
  %three: Int64 = const 3
  %ro: Int64 = mul %r0, %s0
  %co: Int64 = mul %c0, %s1
  %off: Int64 = add %ro, %co
  %blk: Float64[]Shape[?, ?] = view %a, %off, [%two, %three], [%s0, %s1]
  %b0: Int64 = stride %blk, 0
  %b1: Int64 = stride %blk, 1
  %row: Float64[]Shape[?] = view %blk, %b0, [%three], [%b1]
  %r1: Int64 = stride %row, 0
  %eoff: Int64 = mul %two, %r1
  %e: Float64[]Shape[] = view %row, %eoff, [], []
  %x: Float64 = index.load %e[]
  return %x
}

; Σ (100*i + j) * x.reshape(m, n)[i, j] over a contiguous vector x.
func reshape_wsum(%x: Float64[]Shape[?], %m: Int64, %n: Int64) -> Float64 {
entry:
  %es: Int64 = stride %x, 0
  %rs: Int64 = mul %n, %es
  %z: Int64 = const 0
  %one: Int64 = const 1
  %hundred: Int64 = const 100
  %fz: Float64 = const 0.0
  %v: Float64[]Shape[?, ?] = view %x, %z, [%m, %n], [%rs, %es]
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
  condbr %cj, body, next
body:
  %y: Float64 = index.load %v[%i, %j]
  %h: Int64 = mul %i, %hundred
  %w: Int64 = add %h, %j
  %wf: Float64 = cast %w
  %t: Float64 = mul %y, %wf
  %acc2: Float64 = add %acc, %t
  set %acc = %acc2
  %j1: Int64 = add %j, %one
  set %j = %j1
  br cols
next:
  %i1: Int64 = add %i, %one
  set %i = %i1
  br rows
done:
  return %acc
}

; x[1::2], returned: a view of the argument.
func odd_elems(%x: Float64[]Shape[?]) -> Float64[]Shape[?] {
entry:
  %n: Int64 = dim %x, 0
  %s: Int64 = stride %x, 0
  %two: Int64 = const 2
  %half: Int64 = fdiv %n, %two
  %s2: Int64 = mul %s, %two
  %v: Float64[]Shape[?] = view %x, %s, [%half], [%s2]
  return %v
}

; The squares of 0 .. n-1 in an allocation, returned reversed: the view
; outlives the call whose arena held its base. Every element is written
; before it is read, so the allocation need not be zeroed (`alloc.empty`).
func squares_rev(%n: Int64) -> Int64[]Shape[?] {
entry:
  %a: Int64[]Shape[?] = alloc.empty %n
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %sq: Int64 = mul %i, %i
  index.store %a[%i], %sq
  %i1: Int64 = add %i, %one
  set %i = %i1
  br head
done:
  %s: Int64 = stride %a, 0
  %last: Int64 = sub %n, %one
  %off: Int64 = mul %last, %s
  %back: Int64 = neg %s
  %r: Int64[]Shape[?] = view %a, %off, [%n], [%back]
  return %r
}

; squares_rev(n)[1:]: a view of the view a callee returned, returned again.
func squares_rev_tail(%n: Int64) -> Int64[]Shape[?] {
entry:
  %r: Int64[]Shape[?] = call squares_rev(%n)
  %m: Int64 = dim %r, 0
  %one: Int64 = const 1
  %m1: Int64 = sub %m, %one
  %s: Int64 = stride %r, 0
  %v: Int64[]Shape[?] = view %r, %s, [%m1], [%s]
  return %v
}

; x viewed from byte `off` on: misaligned unless `off` is a multiple of 8.
func from_byte(%x: Float64[]Shape[?], %off: Int64) -> Float64 {
entry:
  %one: Int64 = const 1
  %eight: Int64 = const 8
  %z: Int64 = const 0
  %v: Float64[]Shape[?] = view %x, %off, [%one], [%eight]
  %y: Float64 = index.load %v[%z]
  return %y
}
