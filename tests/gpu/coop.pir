; Kernel functions whose threads cooperate: block-shared arrays, barriers
; and atomic adds.
module coop

; c = a @ b, one 8 x 8 tile of c per block of 8 x 8 threads. Each step loads
; an 8 x 8 tile of a and one of b into block-shared arrays (zeros past the
; edges), waits for the whole block, accumulates, and waits again before the
; next step overwrites the tiles. Each element sums its products in order, as
; a plain loop does.
func matmul_tiled(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) kernel {
entry:
  %ta: Float64[]Shape[8, 8] = call postc.gpu.shared()
  %tb: Float64[]Shape[8, 8] = call postc.gpu.shared()
  %tx: Int64 = call postc.gpu.thread_idx.x()
  %ty: Int64 = call postc.gpu.thread_idx.y()
  %bx: Int64 = call postc.gpu.block_idx.x()
  %by: Int64 = call postc.gpu.block_idx.y()
  %tile: Int64 = const 8
  %r0: Int64 = mul %by, %tile
  %row: Int64 = add %r0, %ty
  %c0: Int64 = mul %bx, %tile
  %col: Int64 = add %c0, %tx
  %m: Int64 = dim %a, 0
  %k: Int64 = dim %a, 1
  %n: Int64 = dim %b, 1
  %zero: Float64 = const 0.0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  let %acc: Float64 = %zero
  let %t0: Int64 = %i0
  br head
head:
  %more: Bool = lt %t0, %k
  condbr %more, load_a, done
load_a:
  %ac: Int64 = add %t0, %tx
  %a_row: Bool = lt %row, %m
  %a_col: Bool = lt %ac, %k
  %a_in: Bool = and %a_row, %a_col
  condbr %a_in, read_a, pad_a
read_a:
  %av: Float64 = index.load %a[%row, %ac]
  index.store %ta[%ty, %tx], %av
  br load_b
pad_a:
  index.store %ta[%ty, %tx], %zero
  br load_b
load_b:
  %br: Int64 = add %t0, %ty
  %b_row: Bool = lt %br, %k
  %b_col: Bool = lt %col, %n
  %b_in: Bool = and %b_row, %b_col
  condbr %b_in, read_b, pad_b
read_b:
  %bv: Float64 = index.load %b[%br, %col]
  index.store %tb[%ty, %tx], %bv
  br loaded
pad_b:
  index.store %tb[%ty, %tx], %zero
  br loaded
loaded:
  call postc.gpu.sync_threads()
  let %p: Int64 = %i0
  br inner
inner:
  %pm: Bool = lt %p, %tile
  condbr %pm, mac, used
mac:
  %x: Float64 = index.load %ta[%ty, %p]
  %y: Float64 = index.load %tb[%p, %tx]
  %xy: Float64 = mul %x, %y
  %acc2: Float64 = add %acc, %xy
  set %acc = %acc2
  %p2: Int64 = add %p, %one
  set %p = %p2
  br inner
used:
  call postc.gpu.sync_threads()
  %t1: Int64 = add %t0, %tile
  set %t0 = %t1
  br head
done:
  %c_row: Bool = lt %row, %m
  %c_col: Bool = lt %col, %n
  %c_in: Bool = and %c_row, %c_col
  condbr %c_in, write, out
write:
  index.store %c[%row, %col], %acc
  br out
out:
  return
}

; total[0] += the sum of x. Each block of up to 64 threads (a power of two)
; sums its part as a tree in a block-shared array, a barrier after each
; level, and its thread 0 adds the block's sum to total atomically.
func block_sum(%x: Float64[]Shape[?], %total: &Float64[]Shape[1]) kernel {
entry:
  %buf: Float64[]Shape[64] = call postc.gpu.shared()
  %tid: Int64 = call postc.gpu.thread_idx.x()
  %bid: Int64 = call postc.gpu.block_idx.x()
  %bdim: Int64 = call postc.gpu.block_dim.x()
  %base: Int64 = mul %bid, %bdim
  %i: Int64 = add %base, %tid
  %n: Int64 = dim %x, 0
  %zero: Float64 = const 0.0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  %in: Bool = lt %i, %n
  condbr %in, read, pad
read:
  %v: Float64 = index.load %x[%i]
  index.store %buf[%tid], %v
  br level0
pad:
  index.store %buf[%tid], %zero
  br level0
level0:
  call postc.gpu.sync_threads()
  %half: Int64 = shr %bdim, %one
  let %s: Int64 = %half
  br head
head:
  %more: Bool = gt %s, %i0
  condbr %more, step, last
step:
  %low: Bool = lt %tid, %s
  condbr %low, fold, folded
fold:
  %j: Int64 = add %tid, %s
  %mine: Float64 = index.load %buf[%tid]
  %other: Float64 = index.load %buf[%j]
  %sum: Float64 = add %mine, %other
  index.store %buf[%tid], %sum
  br folded
folded:
  call postc.gpu.sync_threads()
  %s2: Int64 = shr %s, %one
  set %s = %s2
  br head
last:
  %first: Bool = eq %tid, %i0
  condbr %first, publish, out
publish:
  %part: Float64 = index.load %buf[%i0]
  call postc.gpu.atomic_add(%total, %i0, %part)
  br out
out:
  return
}

; bins[v % 16] += 1 for every v in x: each block counts into block-shared
; Int32 bins with atomic adds (after zeroing them: shared memory starts
; undefined on a GPU), then its first 16 threads add the counts to the
; global Int64 bins. Blocks have at least 16 threads; a grid-stride loop
; covers any length. old[0] receives the value bins[0] had before the first
; block's addition.
func histogram(%x: Int32[]Shape[?], %bins: &Int64[]Shape[16], %old: &Int64[]Shape[1]) kernel {
entry:
  %local: Int32[]Shape[16] = call postc.gpu.shared()
  %tid: Int64 = call postc.gpu.thread_idx.x()
  %bid: Int64 = call postc.gpu.block_idx.x()
  %bdim: Int64 = call postc.gpu.block_dim.x()
  %gdim: Int64 = call postc.gpu.grid_dim.x()
  %nb: Int64 = const 16
  %i0: Int64 = const 0
  %zero32: Int32 = const 0
  %one32: Int32 = const 1
  %owner: Bool = lt %tid, %nb
  condbr %owner, clear, cleared
clear:
  index.store %local[%tid], %zero32
  br cleared
cleared:
  call postc.gpu.sync_threads()
  %base: Int64 = mul %bid, %bdim
  %start: Int64 = add %base, %tid
  %stride: Int64 = mul %gdim, %bdim
  %n: Int64 = dim %x, 0
  let %i: Int64 = %start
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, count, counted
count:
  %v: Int32 = index.load %x[%i]
  %nb32: Int32 = const 16
  %b32: Int32 = mod %v, %nb32
  %b: Int64 = cast %b32
  %prev: Int32 = call postc.gpu.atomic_add(%local, %b, %one32)
  %i2: Int64 = add %i, %stride
  set %i = %i2
  br head
counted:
  call postc.gpu.sync_threads()
  condbr %owner, publish, out
publish:
  %c32: Int32 = index.load %local[%tid]
  %c: Int64 = cast %c32
  %was: Int64 = call postc.gpu.atomic_add(%bins, %tid, %c)
  %firstb: Bool = eq %bid, %i0
  %bin0: Bool = eq %tid, %i0
  %report: Bool = and %firstb, %bin0
  condbr %report, record, out
record:
  index.store %old[%i0], %was
  br out
out:
  return
}
