; One explicit heat-equation step on Fortran-ordered Float32 grids:
; interior points get x + 0.25*(N + S + W + E - 4x), the boundary is
; copied.
module stencil

func heat_step(%x: Float32[]Shape[?, ?]FOrder, %out: &Float32[]Shape[?, ?]FOrder) {
entry:
  %m: Int64 = dim %x, 0
  %n: Int64 = dim %x, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %q: Float32 = const 0.25
  %four: Float32 = const 4.0
  %mlast: Int64 = sub %m, %one
  %nlast: Int64 = sub %n, %one
  let %i: Int64 = %z
  let %j: Int64 = %z
  br cols
cols:
  %cj: Bool = lt %j, %n
  condbr %cj, col, done
col:
  set %i = %z
  br rows
rows:
  %ri: Bool = lt %i, %m
  condbr %ri, point, colnext
point:
  %c: Float32 = index.load %x[%i, %j]
  %top: Bool = eq %i, %z
  %bottom: Bool = eq %i, %mlast
  %left: Bool = eq %j, %z
  %right: Bool = eq %j, %nlast
  %e1: Bool = or %top, %bottom
  %e2: Bool = or %left, %right
  %edge: Bool = or %e1, %e2
  condbr %edge, copy, interior
copy:
  index.store %out[%i, %j], %c
  br next
interior:
  %im: Int64 = sub %i, %one
  %ip: Int64 = add %i, %one
  %jm: Int64 = sub %j, %one
  %jp: Int64 = add %j, %one
  %vn: Float32 = index.load %x[%im, %j]
  %vs: Float32 = index.load %x[%ip, %j]
  %vw: Float32 = index.load %x[%i, %jm]
  %ve: Float32 = index.load %x[%i, %jp]
  %s1: Float32 = add %vn, %vs
  %s2: Float32 = add %s1, %vw
  %s3: Float32 = add %s2, %ve
  %c4: Float32 = mul %four, %c
  %lap: Float32 = sub %s3, %c4
  %d: Float32 = mul %q, %lap
  %r: Float32 = add %c, %d
  index.store %out[%i, %j], %r
  br next
next:
  %i2: Int64 = add %i, %one
  set %i = %i2
  br rows
colnext:
  %j2: Int64 = add %j, %one
  set %j = %j2
  br cols
done:
  return
}
