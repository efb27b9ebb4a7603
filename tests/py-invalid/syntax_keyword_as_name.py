# error: line 4: syntax error: 'class' is a keyword and cannot be a parameter name
from postyp import Bool, Float64, Int64, Out

def f(class: Int64) -> Int64:
    return 0
