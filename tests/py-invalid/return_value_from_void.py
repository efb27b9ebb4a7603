# error: line 6: 'log_value' returns None but returns a value here
from postyp import Bool, Float64, Int64, Out

def log_value(x: Float64) -> None:
    if x > 0.0:
        return x
