# error: a list display given to NumPy's functions over arrays where they read an array or a number (not a shape, not `np.array`'s or `np.cross`'s elements) is refused by the typecheck
import numpy as np
from postyp import Float64


def lists(a: Float64[:]) -> Float64:
    b = np.sort([3.0, 1.0])
    c = np.sum([1.0, 2.0])
    d = np.searchsorted([1.0, 2.0], 1.0)
    e = np.searchsorted(a, [1.0, 2.0])
    f = np.partition(a, [1, 2])
    g = np.zeros_like([1.0])
    h = np.nanmax([1.0])
    k = np.linalg.norm([1.0, 2.0])
    m = np.dot(a, [1.0, 2.0])
    n = np.full(3, [1.0])
    p = np.histogram([1.0, 2.0])
    q = np.histogram(a, 3, [0.0, 1.0])
    r = np.histogram(a, bins=[1.0, 2.0])
    s = np.arange([1])
    t = np.nanstd(a, ddof=[1])
    u = np.zeros((3, [2]))
    v = a.reshape(2, [1])
    w = np.cross(a, [1.0, [2.0], 3.0])
    return 0.0
