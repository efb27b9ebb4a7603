; pipeline: dce
; options: O0
; With overflow checks on, unused integer add/neg may panic and stay;
; float arithmetic still goes.
module dco

func f(%x: Int8, %f: Float32) {
entry:
  %a: Int8 = add %x, %x
  %n: Int8 = neg %x
  %g: Float32 = mul %f, %f
  return
}
