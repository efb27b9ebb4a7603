# error: line 5: a return annotated `Optional[Complex128]`
from postyp import Complex128
from typing import Optional

def first_root(z: Complex128) -> Optional[Complex128]:
    return z
