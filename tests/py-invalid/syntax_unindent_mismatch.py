# error: line 7: syntax error: unindent does not match any outer indentation level
from postyp import Bool, Float64, Int64, Out

def f(x: Int64) -> Int64:
    if x > 0:
        x = x - 1
      return x
