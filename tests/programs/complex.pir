; Complex arithmetic: multiply (Complex128, Complex64), magnitude, power,
; real/imag fields read and written in place, equality, a Complex64 array
; sum and Mandelbrot escape counts.
module complex

func cmul(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %r: Complex128 = mul %a, %b
  return %r
}

func cmul64(%a: Complex64, %b: Complex64) -> Complex64 {
entry:
  %r: Complex64 = mul %a, %b
  return %r
}

func caddsub(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %s: Complex128 = add %a, %b
  %d: Complex128 = sub %s, %b
  %n: Complex128 = neg %d
  %r: Complex128 = sub %s, %n
  return %r
}

func cabs(%a: Complex128) -> Float64 {
entry:
  %r: Float64 = abs %a
  return %r
}

func cabs64(%a: Complex64) -> Float32 {
entry:
  %r: Float32 = abs %a
  return %r
}

func cpow(%a: Complex128, %b: Complex128) -> Complex128 {
entry:
  %r: Complex128 = pow %a, %b
  return %r
}

func conj(%a: Complex128) -> Complex128 {
entry:
  let %z: Complex128 = %a
  %im: Float64 = getfield %a, imag
  %nim: Float64 = neg %im
  setfield %z, imag, %nim
  return %z
}

func make(%re: Float32, %im: Float32) -> Complex64 {
entry:
  %zero: Complex64 = const (0.0+0.0j)
  let %z: Complex64 = %zero
  setfield %z, real, %re
  setfield %z, imag, %im
  return %z
}

func ceq(%a: Complex128, %b: Complex128) -> Int32 {
entry:
  %e: Bool = eq %a, %b
  %n: Bool = ne %a, %b
  %ei: Int32 = cast %e
  %ni: Int32 = cast %n
  %two: Int32 = const 2
  %n2: Int32 = mul %ni, %two
  %r: Int32 = add %ei, %n2
  return %r
}

func csum64(%z: Complex64[]Shape[?]) -> Complex64 {
entry:
  %n: Int64 = dim %z, 0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  %cz: Complex64 = const (0.0+0.0j)
  let %acc: Complex64 = %cz
  let %i: Int64 = %i0
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Complex64 = index.load %z[%i]
  %acc2: Complex64 = add %acc, %v
  set %acc = %acc2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func mandel(%c: Complex128, %maxit: Int32) -> Int32 {
entry:
  %cz: Complex128 = const (0.0+0.0j)
  %zero: Int32 = const 0
  %one: Int32 = const 1
  %four: Float64 = const 4.0
  let %z: Complex128 = %cz
  let %k: Int32 = %zero
  br head
head:
  %more: Bool = lt %k, %maxit
  condbr %more, body, done
body:
  %re: Float64 = getfield %z, real
  %im: Float64 = getfield %z, imag
  %re2: Float64 = mul %re, %re
  %im2: Float64 = mul %im, %im
  %m2: Float64 = add %re2, %im2
  %out: Bool = gt %m2, %four
  condbr %out, done, step
step:
  %zz: Complex128 = mul %z, %z
  %z2: Complex128 = add %zz, %c
  set %z = %z2
  %k2: Int32 = add %k, %one
  set %k = %k2
  br head
done:
  return %k
}
