; pipeline: select-fold
; Diamonds that must not become selects: an arm that stores, an arm with an
; integer division (it can panic), an arm that calls, and an arm that
; assigns a parameter.
module sfno

func store_arm(%c: Bool, %a: &Int64[]Shape[2], %x: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  let %r: Int64 = %zero
  condbr %c, t, e
t:
  index.store %a[%zero], %x
  set %r = %x
  br j
e:
  br j
j:
  return %r
}

func div_arm(%c: Bool, %x: Int64, %y: Int64) -> Int64 {
entry:
  let %r: Int64 = %x
  condbr %c, t, e
t:
  %q: Int64 = fdiv %x, %y
  set %r = %q
  br j
e:
  set %r = %y
  br j
j:
  return %r
}

func call_arm(%c: Bool, %x: Int64) -> Int64 {
entry:
  let %r: Int64 = %x
  condbr %c, t, j
t:
  %v: Int64 = call div_arm(%c, %x, %x)
  set %r = %v
  br j
j:
  return %r
}

func param_arm(%c: Bool, %x: Int64, %y: Int64) -> Int64 {
entry:
  condbr %c, t, j
t:
  set %x = %y
  br j
j:
  return %x
}
