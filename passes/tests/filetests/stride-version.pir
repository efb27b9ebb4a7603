; pipeline: stride-version
; `scale` reads x and writes y through byte strides read before its loop:
; a guard compares both with 8 (Float64's size) and enters a copy of the
; loop in which they are that constant, or else the loop as it was.
; `column` scales only by the stride of axis 0 of a 2-D array, which unit
; elements would not make 8, and `fixed` by a constant stride: neither
; changes.
module strideversion

func scale(%x: Float64[]Shape[?], %y: &Float64[]Shape[?], %n: Int64) {
entry:
  %sx: Int64 = stride %x, 0
  %sy: Int64 = stride %y, 0
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %two: Float64 = const 2.0
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %ox: Int64 = mul %i, %sx
  %v: Float64 = load %x, %ox
  %w: Float64 = mul %v, %two
  %oy: Int64 = mul %i, %sy
  store %y, %oy, %w
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return
}

func column(%a: Float64[]Shape[?, ?], %c: Int64, %n: Int64) -> Float64 {
entry:
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %col: Int64 = mul %c, %s1
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %fzero: Float64 = const 0.0
  let %acc: Float64 = %fzero
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %row: Int64 = mul %i, %s0
  %off: Int64 = add %row, %col
  %v: Float64 = load %a, %off
  %sum: Float64 = add %acc, %v
  set %acc = %sum
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %acc
}

func fixed(%x: Int32[]Shape[?]Strides[4], %n: Int64) -> Int32 {
entry:
  %sx: Int64 = const 4
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %izero: Int32 = const 0
  let %acc: Int32 = %izero
  let %i: Int64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %ox: Int64 = mul %i, %sx
  %v: Int32 = load %x, %ox
  %sum: Int32 = add %acc, %v
  set %acc = %sum
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %acc
}
