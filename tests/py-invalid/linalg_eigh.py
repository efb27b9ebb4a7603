# error: line 7: eigh of Float16; line 8: eigvalsh of complex numbers; line 9: a stack of matrices; line 10: UPLO neither 'L' nor 'U'; line 11: UPLO not a constant; line 12: UPLO given twice; line 13: a keyword eigh does not take; line 18: the attribute `.eigenvalues` of its result
import numpy as np
from postyp import Complex128, Float16, Float64, Str

def uses(h: Float16[:, :], z: Complex128[:, :], s: Float64[:, :, :], m: Float64[:, :], side: Str) -> Float64:
    t = 0.0
    w, v = np.linalg.eigh(h)
    u = np.linalg.eigvalsh(z)
    x = np.linalg.eigvalsh(s)
    y = np.linalg.eigvalsh(m, UPLO='X')
    p, q = np.linalg.eigh(m, UPLO=side)
    r = np.linalg.eigvalsh(m, 'L', UPLO='U')
    f, g = np.linalg.eigh(m, lower=True)
    return t


def values(m: Float64[:, :]) -> Float64[:]:
    return np.linalg.eigh(m).eigenvalues
