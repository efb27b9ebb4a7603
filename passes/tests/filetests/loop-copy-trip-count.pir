; pipeline: irce,stride-version
; The cost model of `irce` and `stride-version` on the trip count. `short`
; runs 8 iterations (its limit and its counter's start are constants):
; too few for a copy without checks or with unit strides to gain, so
; neither pass copies it. `long` is the same loop over 1000 iterations:
; `irce` splits it and `stride-version` versions the main loop on x's and
; y's strides. `from_param` has the limit 8 but starts from a parameter,
; so its trip count is not known and it is copied too.
module tripcount

func short(%x: Float64[]Shape[?], %y: &Float64[]Shape[?]) {
entry:
  %xn: Int64 = dim %x, 0
  %yn: Int64 = dim %y, 0
  %sx: Int64 = stride %x, 0
  %sy: Int64 = stride %y, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %limit: Int64 = const 8
  %two: Float64 = const 2.0
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %limit
  condbr %more, body, done
body:
  %iu: UInt64 = cast %i
  %xnu: UInt64 = cast %xn
  %xok: Bool = lt %iu, %xnu
  condbr %xok, x.ok, x.panic !weights 2000:1
x.panic:
  call postc.panic(%msg, %i, %xn)
  unreachable
x.ok:
  %ox: Int64 = mul %i, %sx
  %v: Float64 = load %x, %ox
  %w: Float64 = mul %v, %two
  %ynu: UInt64 = cast %yn
  %yok: Bool = lt %iu, %ynu
  condbr %yok, y.ok, y.panic !weights 2000:1
y.panic:
  call postc.panic(%msg, %i, %yn)
  unreachable
y.ok:
  %oy: Int64 = mul %i, %sy
  store %y, %oy, %w
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func long(%x: Float64[]Shape[?], %y: &Float64[]Shape[?]) {
entry:
  %xn: Int64 = dim %x, 0
  %yn: Int64 = dim %y, 0
  %sx: Int64 = stride %x, 0
  %sy: Int64 = stride %y, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %limit: Int64 = const 1000
  %two: Float64 = const 2.0
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %limit
  condbr %more, body, done
body:
  %iu: UInt64 = cast %i
  %xnu: UInt64 = cast %xn
  %xok: Bool = lt %iu, %xnu
  condbr %xok, x.ok, x.panic !weights 2000:1
x.panic:
  call postc.panic(%msg, %i, %xn)
  unreachable
x.ok:
  %ox: Int64 = mul %i, %sx
  %v: Float64 = load %x, %ox
  %w: Float64 = mul %v, %two
  %ynu: UInt64 = cast %yn
  %yok: Bool = lt %iu, %ynu
  condbr %yok, y.ok, y.panic !weights 2000:1
y.panic:
  call postc.panic(%msg, %i, %yn)
  unreachable
y.ok:
  %oy: Int64 = mul %i, %sy
  store %y, %oy, %w
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func from_param(%x: Float64[]Shape[?], %y: &Float64[]Shape[?], %start: Int64) {
entry:
  %xn: Int64 = dim %x, 0
  %yn: Int64 = dim %y, 0
  %sx: Int64 = stride %x, 0
  %sy: Int64 = stride %y, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %limit: Int64 = const 8
  %two: Float64 = const 2.0
  %msg: Str = const "index out of bounds: index {} is out of range for axis 0 with size {}"
  let %i: Int64 = %start
  br head
head:
  %more: Bool = lt %i, %limit
  condbr %more, body, done
body:
  %iu: UInt64 = cast %i
  %xnu: UInt64 = cast %xn
  %xok: Bool = lt %iu, %xnu
  condbr %xok, x.ok, x.panic !weights 2000:1
x.panic:
  call postc.panic(%msg, %i, %xn)
  unreachable
x.ok:
  %ox: Int64 = mul %i, %sx
  %v: Float64 = load %x, %ox
  %w: Float64 = mul %v, %two
  %ynu: UInt64 = cast %yn
  %yok: Bool = lt %iu, %ynu
  condbr %yok, y.ok, y.panic !weights 2000:1
y.panic:
  call postc.panic(%msg, %i, %yn)
  unreachable
y.ok:
  %oy: Int64 = mul %i, %sy
  store %y, %oy, %w
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}
