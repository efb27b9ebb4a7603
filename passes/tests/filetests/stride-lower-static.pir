; pipeline: stride-lower
; Static shapes fix every stride: C order (3x4 Float64: 32, 8), Fortran
; order (3x4 Float32: 4, 12) and explicit Strides (bytes as written).
module sls

func f(%c: Float64[]Shape[3, 4], %f: &Float32[]Shape[3, 4]FOrder, %s: Int16[]Shape[5, 2]Strides[-4, 20], %i: Int64, %j: Int32) -> Int16 {
entry:
  %x: Float64 = index.load %c[%i, %j]
  %y: Float32 = cast %x
  index.store %f[%i, %j], %y
  %z: Int16 = index.load %s[%j, %i]
  return %z
}
