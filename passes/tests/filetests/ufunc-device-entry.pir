; pipeline: ufunc-entry,ufunc-device-entry
; The inner loop a device runs: ufunc-device-entry replaces the host's
; loop (ufunc-entry's, written first here as codegen's pipeline does).
; A device has no arena, so a copied operand's scratch is a part of the
; launch's buffer `data`: every view operand, copied or not, takes its
; core block's bytes rounded up to 16, one after another (twice: a at 0,
; b at 32; rows: a's n * 4 bytes, then the Strides operand's n * 8,
; though it is never copied). A copy with no buffer (`data` null) panics.
; An elementwise ufunc's loop is the host's.
module dev

ufunc twice(%a: Float64[]Shape[3], %b: &Float64[]Shape[3]) "(3)->(3)" {
entry:
  return
}

ufunc rows(%a: Float32[]Shape[?], %s: Float64[]Shape[?]Strides[8]) -> Float32 "(n),(n)->()" core(%n: Int64) {
entry:
  %z: Float32 = const 0.0
  return %z
}

ufunc add(%x: Float64, %y: Float64) -> Float64 "(),()->()" {
entry:
  %r: Float64 = add %x, %y
  return %r
}
