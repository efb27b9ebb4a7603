; Prefix sums: UInt16 into an output array (wraps from -O1, overflow
; panics when checked) and Int64 in place.
module prefix_sum

func cumsum_u16(%x: UInt16[]Shape[?], %out: &UInt16[]Shape[?]) {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %uz: UInt16 = const 0
  let %acc: UInt16 = %uz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: UInt16 = index.load %x[%i] !loc "kernels.py":21:13
  %acc2: UInt16 = add %acc, %v !loc "kernels.py":22:9
  set %acc = %acc2
  index.store %out[%i], %acc2 !loc "kernels.py":23:9
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}

func cumsum_inplace(%x: &Int64[]Shape[?]) {
entry:
  %n: Int64 = dim %x, 0
  %one: Int64 = const 1
  let %i: Int64 = %one
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %ip: Int64 = sub %i, %one
  %prev: Int64 = index.load %x[%ip]
  %cur: Int64 = index.load %x[%i]
  %s: Int64 = add %prev, %cur
  index.store %x[%i], %s
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}
