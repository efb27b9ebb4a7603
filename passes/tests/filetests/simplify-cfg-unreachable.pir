; pipeline: simplify-cfg
; Blocks no path from the entry reaches are removed, including an
; unreachable cycle; reachable loops stay.
module scu

func f(%n: Int64) -> Int64 {
entry:
  %z: Int64 = const 0
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %one: Int64 = const 1
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
dead1:
  %k: Int64 = const 5
  br dead2
dead2:
  br dead1
done:
  return %i
}
