# Module-level arrays of ragged lists, of no list, of a non-constant, of
# strings, of a complex number in a real array, and of an unknown dtype.
import numpy as np
from postyp import Float64

RAGGED = np.array([[1.0, 2.0], [3.0]])
DEEPER = np.array([[1.0, 2.0], 3.0])
FLAT_THEN_LIST = np.array([1.0, [2.0, 3.0]])
NOT_LIST = np.array(3.0)
NOT_CONST = np.array([1.0, len])
TEXT = np.array(["a", "b"])
COMPLEX = np.array([1.0, 2j], dtype=np.float64)
UNKNOWN = np.array([1.0], dtype=np.float128)
TOO_BIG = np.array([300], dtype=np.uint8)
ANNOTATED: Float64[:] = np.array([1.0])
KEYWORD = np.array([1.0], copy=True)
