# error: the calls of `print` compiled code refuses (keywords but `sep`, `end` and `flush`, `sep` and `end` that are not string literals, `file=`, `*` arguments, arrays, tuples, complex numbers, float16s, bytes, `print` in GPU code) are the typecheck's: every refused keyword and argument of a call reported, with no echo
import numpy as np
from postc import gpu
from postyp import Complex128, Float16, Float64, Int64


def prints(a: Float64[:], z: Complex128, h: Float16, x: Float64, s: str) -> Float64:
    print(a, z, sep=s, end=x)
    print(x, (x, x), h, b"raw", file=None, color=1)
    print(*a)
    print(x, sep="", end="", flush=True)
    with open("f") as w:
        print(a)
    return x


@gpu
def in_gpu_code(x: Float64) -> Float64:
    print(x)
    return x
