; A gpu(fallback) ufunc: runs on the GPU when one is usable, else its host
; body.
module fallback

import intrinsic sqrt = sqrt

ufunc hypot2(%x: Float64, %y: Float64) -> Float64 "(),()->()" gpu(fallback) {
entry:
  %xx: Float64 = mul %x, %x
  %yy: Float64 = mul %y, %y
  %s: Float64 = add %xx, %yy
  %r: Float64 = call sqrt(%s)
  return %r
}
