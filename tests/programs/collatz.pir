; Collatz step counts: loops, select, calls between functions of the
; module (with a result and void), and a UInt32 variant that overflows
; for large starts.
module collatz

func steps(%n0: Int64) -> Int64 {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %two: Int64 = const 2
  %three: Int64 = const 3
  let %n: Int64 = %n0
  let %s: Int64 = %z
  br head
head:
  %more: Bool = ne %n, %one
  condbr %more, body, done
body:
  %r: Int64 = mod %n, %two
  %even: Bool = eq %r, %z
  %half: Int64 = fdiv %n, %two
  %t: Int64 = mul %n, %three
  %t1: Int64 = add %t, %one
  %next: Int64 = select %even, %half, %t1
  set %n = %next
  %s2: Int64 = add %s, %one
  set %s = %s2
  br head
done:
  return %s
}

func record(%out: &Int64[]Shape[2], %best: Int64, %arg: Int64) {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  index.store %out[%z], %arg
  index.store %out[%one], %best
  return
}

func longest(%limit: Int64, %out: &Int64[]Shape[2]) {
  doc "out = [start below limit with the most steps, its step count]."
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %best: Int64 = %z
  let %arg: Int64 = %one
  let %i: Int64 = %one
  br head
head:
  %more: Bool = lt %i, %limit
  condbr %more, body, done
body:
  %s: Int64 = call steps(%i)
  %better: Bool = gt %s, %best
  %nb: Int64 = select %better, %s, %best
  %na: Int64 = select %better, %i, %arg
  set %best = %nb
  set %arg = %na
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  call record(%out, %best, %arg)
  return
}

func peak_u32(%n0: UInt32) -> UInt32 {
  doc "Largest value on the trajectory, in UInt32 (3n+1 may overflow)."
entry:
  %u1: UInt32 = const 1
  %u2: UInt32 = const 2
  %u3: UInt32 = const 3
  %u0: UInt32 = const 0
  let %n: UInt32 = %n0
  let %peak: UInt32 = %n0
  br head
head:
  %more: Bool = gt %n, %u1
  condbr %more, body, done
body:
  %r: UInt32 = mod %n, %u2
  %odd: Bool = ne %r, %u0
  condbr %odd, up, down
up:
  %t: UInt32 = mul %n, %u3 !loc "kernels.py":77:17
  %t1: UInt32 = add %t, %u1 !loc "kernels.py":77:17
  set %n = %t1
  br track
down:
  %h: UInt32 = fdiv %n, %u2
  set %n = %h
  br track
track:
  %hi: Bool = gt %n, %peak
  %p2: UInt32 = select %hi, %n, %peak
  set %peak = %p2
  br head
done:
  return %peak
}
