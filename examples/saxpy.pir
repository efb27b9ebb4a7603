; y[i] = a * x[i] + y[i], the BLAS saxpy kernel, as POST lowers it.
module saxpy

export saxpy

func saxpy(%a: Float32, %x: Float32[], %y: &Float32[]) {
  doc "y <- a*x + y over the first len(x) elements."
entry:
  %n: Int64 = dim %x, 0
  %zero: Int64 = const 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %xi: Float32 = index.load %x[%i]
  %yi: Float32 = index.load %y[%i]
  %p: Float32 = mul %a, %xi
  %s: Float32 = add %p, %yi
  index.store %y[%i], %s
  %one: Int64 = const 1
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}
