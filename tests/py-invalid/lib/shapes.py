# not a test: a valid POST module that import_missing_name.py imports from
"""Areas of plane shapes (valid POST Python: no diagnostic)."""
from postyp import Float64

PI: Float64 = 3.141592653589793


def area(r: Float64) -> Float64:
    """Area of a circle of radius r."""
    return PI * r * r
