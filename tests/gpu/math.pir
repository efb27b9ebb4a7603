; Math on the GPU through libdevice: Float64 and Float32 intrinsic imports
; that the NVPTX backend cannot lower by itself.
module math

import intrinsic sin = sin
import intrinsic exp = exp
import intrinsic pow = pow
import intrinsic atan2 = atan2
import intrinsic tanf = tanf
import intrinsic log1pf = log1pf

ufunc wave(%x: Float64, %y: Float64) -> Float64 "(),()->()" gpu(fallback) {
entry:
  %s: Float64 = call sin(%x)
  %e: Float64 = call exp(%y)
  %p: Float64 = call pow(%e, %x)
  %a: Float64 = call atan2(%y, %x)
  %sp: Float64 = add %s, %p
  %r: Float64 = add %sp, %a
  return %r
}

ufunc soft(%x: Float32) -> Float32 "()->()" gpu(fallback) {
entry:
  %t: Float32 = call tanf(%x)
  %l: Float32 = call log1pf(%t)
  return %l
}
