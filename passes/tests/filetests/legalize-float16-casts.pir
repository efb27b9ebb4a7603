; pipeline: legalize
; With no backend features, a cast from or to Float16 becomes calls of
; `postc.f16.widen` (Float16 to Float32, then a cast to the target) and
; `postc.f16.narrow` (Float64 to Float16, after a cast of the operand to
; Float64), which `legalize/float16.pir` writes with integer operations on
; the bits (`bitcast`); the module gets a copy of each it calls. A cast
; to an integer saturates on the widened value; a cast between two other
; dtypes stays.
module casts

func to_int(%h: Float16) -> Int32 {
entry:
  %i: Int32 = cast %h !loc "c.py":3:12
  return %i
}

func to_complex(%h: Float16) -> Complex64 {
entry:
  %c: Complex64 = cast %h
  return %c
}

func from_int(%i: Int64) -> Float16 {
entry:
  %h: Float16 = cast %i !loc "c.py":9:12
  return %h
}

func from_bool(%b: Bool) -> Float16 {
entry:
  %h: Float16 = cast %b
  return %h
}

func between(%x: Float32) -> Float64 {
entry:
  %y: Float64 = cast %x
  return %y
}
