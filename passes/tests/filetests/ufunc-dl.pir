; pipeline: ufunc-entry,ufunc-dl
; The DLPack entry point of each exported ufunc, as IR: postc.dl.NAME checks
; each tensor's device, dtype, rank, extents and strides (an extent or a
; stride quoted in decimal by postc.dl.decimal), broadcasts the loop axes,
; checks the core size `n` (fixed by no name, so only compared between
; operands) and the output's loop shape, and calls postc.loop.NAME once per
; outer index.
module ud

ufunc total(%a: Float32[]Shape[?]) -> Float32 "(n)->()" core(%n: Int64) {
entry:
  %z: Float32 = const 0.0
  return %z
}
