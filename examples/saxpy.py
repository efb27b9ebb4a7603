"""y = a*x + y over Float32 vectors: the README's example."""
from postyp import Float32, Out

__all__ = ["saxpy"]


def saxpy(a: Float32, x: Float32[:], y: Out[Float32[:]]) -> None:
    """y[i] = a * x[i] + y[i] for every i."""
    for i in range(len(x)):
        y[i] = a * x[i] + y[i]
