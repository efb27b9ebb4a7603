# error: line 6: the method `.conj()` of a complex array (np.conj(a) compiles)
from postyp import Complex128


def f(z: Complex128[:]) -> Complex128:
    return z.conj().sum()
