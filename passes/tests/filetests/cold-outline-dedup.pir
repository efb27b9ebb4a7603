; pipeline: insert-checks,cold-outline
; Two functions with a division at the same source location share one
; thunk; a different location or message gets its own. The guard branches
; keep their 2000:1 weights and the message constants leave the callers.
module cod

func a(%x: Int64, %y: Int64) -> Int64 {
entry:
  %q: Int64 = fdiv %x, %y !loc "k.py":10:5
  %r: Int64 = mod %q, %y !loc "k.py":11:5
  return %r
}

func b(%x: Int64, %y: Int64) -> Int64 {
entry:
  %q: Int64 = fdiv %x, %y !loc "k.py":10:5
  %r: Int64 = fdiv %q, %y !loc "k.py":12:5
  return %r
}
