; pipeline: insert-recursion-checks
; `fact` calls itself and `main` calls it: each call of a POST function
; that either makes counts the depth around it and panics past the
; interpreter's frame limit, at the call's location. `leaf` is called by
; the cycle, so it counts too, but it calls only a built-in and an
; intrinsic import, which count nothing. `alone` reaches no cycle and is
; left as it was.
module irc
import intrinsic fabs = fabs

func leaf(%x: Float64) -> Float64 {
entry:
  %y: Float64 = call fabs(%x)
  return %y
}

func fact(%n: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  %done: Bool = le %n, %zero
  condbr %done, base, step
base:
  %one: Int64 = const 1
  return %one
step:
  %k: Int64 = const 1
  %m: Int64 = sub %n, %k
  %r: Int64 = call fact(%m) !loc "k.py":5:16
  %p: Int64 = mul %n, %r
  %f: Float64 = cast %p
  %g: Float64 = call leaf(%f) !loc "k.py":6:12
  return %p
}

func main(%n: Int64) -> Int64 {
entry:
  %r: Int64 = call fact(%n) !loc "k.py":9:11
  return %r
}

func alone(%x: Float64) -> Float64 {
entry:
  %y: Float64 = call fabs(%x)
  return %y
}
