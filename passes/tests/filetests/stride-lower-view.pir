; pipeline: stride-lower
; Accesses through a view scale by the view's own stride operands (no
; `stride` is read, and no contiguity is assumed) and address the base at
; the view's offset; the base's strides are read as for any parameter.
module slv

func pick(%a: Int32[]Shape[?, ?], %i: Int64, %j: Int64) -> Int32 {
entry:
  %z: Int64 = const 0
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %n: Int64 = dim %a, 0
  %m: Int64 = dim %a, 1
  %t: Int32[]Shape[?, ?] = view %a, %z, [%m, %n], [%s1, %s0]
  %x: Int32 = index.load %t[%j, %i]
  %y: Int32 = index.load %a[%i, %j]
  %r: Int32 = add %x, %y
  return %r
}
