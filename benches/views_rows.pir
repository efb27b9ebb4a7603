; The cost of a view per row (docs/performance.md, "Views"): the same sum
; of a 2-D array's elements, row by row through a `view` of each row, and
; through 2-D `index.load`s.
module views_rows

func sum_by_row_views(%a: Float64[]Shape[?, ?]) -> Float64 {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %s0: Int64 = stride %a, 0
  %s1: Int64 = stride %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %z
  let %j: Int64 = %z
  br rows
rows:
  %more_rows: Bool = lt %i, %m
  condbr %more_rows, row, done
row:
  %off: Int64 = mul %i, %s0
  %r: Float64[]Shape[?] = view %a, %off, [%n], [%s1]
  set %j = %z
  br cols
cols:
  %more_cols: Bool = lt %j, %n
  condbr %more_cols, body, next
body:
  %x: Float64 = index.load %r[%j]
  %acc2: Float64 = add %acc, %x
  set %acc = %acc2
  %j1: Int64 = add %j, %one
  set %j = %j1
  br cols
next:
  %i1: Int64 = add %i, %one
  set %i = %i1
  br rows
done:
  return %acc
}

func sum_by_index(%a: Float64[]Shape[?, ?]) -> Float64 {
entry:
  %m: Int64 = dim %a, 0
  %n: Int64 = dim %a, 1
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %z
  let %j: Int64 = %z
  br rows
rows:
  %more_rows: Bool = lt %i, %m
  condbr %more_rows, row, done
row:
  set %j = %z
  br cols
cols:
  %more_cols: Bool = lt %j, %n
  condbr %more_cols, body, next
body:
  %x: Float64 = index.load %a[%i, %j]
  %acc2: Float64 = add %acc, %x
  set %acc = %acc2
  %j1: Int64 = add %j, %one
  set %j = %j1
  br cols
next:
  %i1: Int64 = add %i, %one
  set %i = %i1
  br rows
done:
  return %acc
}
