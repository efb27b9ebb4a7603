; pipeline: legalize
; Integer floor division and modulo become `quot` and `rem` with the floor
; adjustment in selects: a variable divisor also gets the cases of 0 (0,
; reached only without division checks) and -1 (the wrapped negation, 0);
; a constant divisor other than those gets neither, and an unsigned one is
; its truncating division. Integer `pow` becomes a loop of squarings over
; locals. Float `//` becomes a call of the floor-division function written
; in POST IR, copied into the module with the intrinsic imports it uses
; (legalize-python.pir has the rest); float `**` stays.
module legal

func fdiv(%a: Int64, %b: Int64) -> Int64 {
entry:
  %q: Int64 = fdiv %a, %b !loc "k.py":2:12
  return %q
}

func mod7(%a: Int32) -> Int32 {
entry:
  %c: Int32 = const -7
  %r: Int32 = mod %a, %c !loc "k.py":5:12
  return %r
}

func udiv(%a: UInt8, %b: UInt8) -> UInt8 {
entry:
  %c: UInt8 = const 3
  %q: UInt8 = fdiv %a, %c
  %r: UInt8 = mod %a, %b
  %s: UInt8 = add %q, %r
  return %s
}

func power(%a: Int64, %e: Int64) -> Int64 {
entry:
  %p: Int64 = pow %a, %e !loc "k.py":11:12
  %d: Int64 = add %p, %a
  return %d
}

func floats(%x: Float64, %y: Float64) -> Float64 {
entry:
  %q: Float64 = fdiv %x, %y
  %p: Float64 = pow %q, %y
  return %p
}
