; pipeline: licm
; `f`'s loop is entered from two blocks (`a` and `b`), so no block before
; it is its preheader: a new block `head.pre$N`, laid out just before the
; header, takes `%n` and `%n2` and the branches of `a` and `b`; the back
; edge still goes to `head`. In `g` the block before the loop ends in
; `condbr`, which also gets a new preheader on the edge into the loop.
module licmpreheader

func f(%x: Float64[]Shape[?], %c: Bool) -> Int64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  condbr %c, a, b
a:
  set %i = %one
  br head
b:
  br head
head:
  %n: Int64 = dim %x, 0
  %n2: Int64 = mul %n, %n
  %more: Bool = lt %i, %n2
  condbr %more, body, done
body:
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %i
}

func g(%x: Float64[]Shape[?], %c: Bool) -> Int64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %zero
  condbr %c, head, done
head:
  %n: Int64 = dim %x, 0
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %next: Int64 = add %i, %one
  set %i = %next
  br head
done:
  return %i
}
