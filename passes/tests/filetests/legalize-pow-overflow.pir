; pipeline: insert-checks,legalize
; options: O0, native-overflow-tests
; At -O0 `insert-checks` tests an integer power for overflow with
; `postc.ovf.pow`; `legalize` writes that test out as the squaring loop
; with each product it uses tested by `postc.ovf.mul` before it is made
; (the backend's own test here: legalize-overflow-tests writes it out),
; leaving with true at the first that overflows (no multiplication written
; here wraps), and then the power itself as its loop. An unsigned exponent
; stops at zero, a signed one at zero or below.
module legal

func power(%a: Int8, %e: Int8) -> Int8 {
entry:
  %p: Int8 = pow %a, %e !loc "k.py":3:12
  return %p
}

func upower(%a: UInt32, %e: UInt32) -> UInt32 {
entry:
  %p: UInt32 = pow %a, %e !loc "k.py":6:12
  return %p
}
