; pipeline: ufunc-entry
; NumPy's inner loop of generalized ufuncs, as IR. matmul: core sizes
; m, k, n from dimensions[1..3], each operand a raw view of its core block
; with the core steps of steps[3..8] (a zero-length loop makes no call:
; the test fails first). colsum: a parameter declaring Strides panics on
; any other core step. cross: a static core shape fixes the strides, so an
; operand laid out otherwise is copied to a scratch array once per index
; (the output copied back after the call); a step that is not a multiple
; of the element size panics unless the operand is copied. count: an Int32
; core-dimension parameter gets the size cast.
module ug

ufunc matmul(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) "(m,k),(k,n)->(m,n)" core(%m: Int64, %k: Int64, %n: Int64) {
entry:
  return
}

ufunc colsum(%a: Float64[]Shape[?]Strides[16]) -> Float64 "(n)->()" core(%n: Int64) {
entry:
  %z: Float64 = const 0.0
  return %z
}

ufunc cross(%a: Float32[]Shape[3], %b: UInt8[]Shape[3], %c: &Float32[]Shape[3]) "(3),(3)->(3)" {
entry:
  return
}

ufunc count(%a: Bool[]Shape[?]) -> Int32 "(n)->()" core(%n: Int32) {
entry:
  return %n
}
