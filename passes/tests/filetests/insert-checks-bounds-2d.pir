; pipeline: insert-checks
; A 2-D load checks axis 0 then axis 1, each with its own message.
module ic2

func get2(%a: Int32[]Shape[?, ?]FOrder, %i: Int64, %j: Int64) -> Int32 {
entry:
  %v: Int32 = index.load %a[%i, %j] !loc "k.py":7:5
  return %v
}
