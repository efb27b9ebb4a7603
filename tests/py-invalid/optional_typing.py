# error: line 5: a return annotated `Optional[Float64]`
from postyp import Float64
from typing import Optional

def first_positive(x: Float64) -> Optional[Float64]:
    return x
