; pipeline: cold-outline
; A thunk already in the module (from an earlier run) serves a new panic
; path with the same message and location instead of a second copy.
module rerun

func f(%a: Int64, %b: Int64) -> Int64 {
entry:
  %zero: Int64 = const 0
  %nonzero: Bool = ne %b, %zero
  condbr %nonzero, ok, panic
panic:
  %m: Str = const "division by zero"
  call postc.panic(%m) !loc "k.py":3:7
  unreachable
ok:
  %q: Int64 = fdiv %a, %b !loc "k.py":3:7
  return %q
}

func postc.cold.panic.0() cold noinline noreturn {
entry:
  %msg: Str = const "division by zero"
  call postc.panic(%msg) !loc "k.py":3:7
  unreachable
}
