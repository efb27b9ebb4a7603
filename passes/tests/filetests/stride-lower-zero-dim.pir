; pipeline: stride-lower
; A 0-d array has no index and no stride: its element is at offset 0.
module slz

func get(%a: Float64[]Shape[]) -> Float64 {
entry:
  %x: Float64 = index.load %a[]
  return %x
}

func put(%a: &Float64[]Shape[], %v: Float64) {
entry:
  index.store %a[], %v
  return
}
