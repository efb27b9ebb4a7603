# error: line 6: '<' is not defined on Complex128 (only == and !=)
from postyp import Bool, Complex128


def smaller(a: Complex128, b: Complex128) -> Bool:
    return a < b
