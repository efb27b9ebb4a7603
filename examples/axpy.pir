; r = a*x + y as an elementwise ufunc over Float64: the smallest module with
; NumPy's inner loop (`axpy_loop`) and the broadcasting DLPack entry point
; (`axpy_dl`), and the one the in-process compile-time figure uses.
module axpy

export axpy

ufunc axpy(%a: Float64, %x: Float64, %y: Float64) -> Float64 "(),(),()->()" {
  doc "a*x + y, elementwise and broadcasting."
entry:
  %ax: Float64 = mul %a, %x
  %r: Float64 = add %ax, %y
  return %r
}
