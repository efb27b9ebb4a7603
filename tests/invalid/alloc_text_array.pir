module m
export f

func f(%n: Int64) -> Int64 {
entry:
  %buf: Bytes[] = alloc %n
  %k: Int64 = dim %buf, 0
  return %k
}
