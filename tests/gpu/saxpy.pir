; Elementwise single- and double-precision a*x + y, compiled for the GPU
; (no host fallback: a missing GPU is fatal at load).
module saxpy

ufunc saxpy(%a: Float32, %x: Float32, %y: Float32) -> Float32 "(),(),()->()" gpu {
entry:
  %ax: Float32 = mul %a, %x
  %r: Float32 = add %ax, %y
  return %r
}

ufunc daxpy(%a: Float64, %x: Float64, %y: Float64) -> Float64 "(),(),()->()" gpu {
entry:
  %ax: Float64 = mul %a, %x
  %r: Float64 = add %ax, %y
  return %r
}
