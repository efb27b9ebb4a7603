; pipeline: stride-lower
; A dynamic dimension leaves the strides of a C- or Fortran-order array
; unknown (the caller may pass any view, e.g. x[::3]: the interpreter and
; the ABI take its strides), even the element-size one; each is read with
; `stride` once per array and axis, hoisted to the entry block, and shared
; by every access in every block.
module sld

func f(%c: Float64[]Shape[?, ?], %f: Int32[]Shape[?, 3]FOrder, %n: Int64) -> Float64 {
entry:
  %zero: Int64 = const 0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %a: Float64 = index.load %c[%i, %i]
  %b: Int32 = index.load %f[%i, %i]
  %bf: Float64 = cast %b
  %s: Float64 = add %a, %bf
  index.store %c[%zero, %i], %s
  %one: Int64 = const 1
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  %r: Float64 = index.load %c[%zero, %zero]
  return %r
}
