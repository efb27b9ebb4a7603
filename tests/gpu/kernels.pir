; Kernel functions, launched over a grid the caller chooses, and a plain
; gpu function that one device thread runs.
module kernels

; A second name for the kernel: the same entry point.
alias scale_again = scale

; out[i] = a * x[i] + i for the global index i = block * block size + thread.
func scale(%x: Float64[]Shape[?], %out: &Float64[]Shape[?], %a: Float64) kernel {
entry:
  %tx: Int64 = call postc.gpu.thread_idx.x()
  %bx: Int64 = call postc.gpu.block_idx.x()
  %bd: Int64 = call postc.gpu.block_dim.x()
  %base: Int64 = mul %bx, %bd
  %i: Int64 = add %base, %tx
  %n: Int64 = dim %x, 0
  %in: Bool = lt %i, %n
  condbr %in, work, done
work:
  %v: Float64 = index.load %x[%i]
  %av: Float64 = mul %a, %v
  %fi: Float64 = cast %i
  %r: Float64 = add %av, %fi
  index.store %out[%i], %r
  br done
done:
  return
}

; t[j, i] = a[i, j] over a 2-D grid of 2-D blocks, with a flag that negates.
func transpose(%a: Int32[]Shape[?, ?], %t: &Int32[]Shape[?, ?], %neg: Bool) kernel {
entry:
  %tx: Int64 = call postc.gpu.thread_idx.x()
  %ty: Int64 = call postc.gpu.thread_idx.y()
  %bx: Int64 = call postc.gpu.block_idx.x()
  %by: Int64 = call postc.gpu.block_idx.y()
  %dx: Int64 = call postc.gpu.block_dim.x()
  %dy: Int64 = call postc.gpu.block_dim.y()
  %cx: Int64 = mul %bx, %dx
  %cy: Int64 = mul %by, %dy
  %j: Int64 = add %cx, %tx
  %i: Int64 = add %cy, %ty
  %rows: Int64 = dim %a, 0
  %cols: Int64 = dim %a, 1
  %ri: Bool = lt %i, %rows
  %cj: Bool = lt %j, %cols
  %both: Bool = and %ri, %cj
  condbr %both, work, done
work:
  %v: Int32 = index.load %a[%i, %j]
  %nv: Int32 = neg %v
  %w: Int32 = select %neg, %nv, %v
  index.store %t[%j, %i], %w
  br done
done:
  return
}

; The sum of squares of a vector, on one device thread.
func sumsq(%x: Float32[]Shape[?]) -> Float32 gpu {
entry:
  %n: Int64 = dim %x, 0
  %zero: Float32 = const 0.0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  let %acc: Float32 = %zero
  let %i: Int64 = %i0
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float32 = index.load %x[%i]
  %sq: Float32 = mul %v, %v
  %acc2: Float32 = add %acc, %sq
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}
