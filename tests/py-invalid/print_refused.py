# error: line 13: `print` of an array is not supported in compiled code: print its elements
# error: line 14: `print` of a tuple is not supported in compiled code: print its elements
# error: line 15: `print` of a complex number is not supported in compiled code
# error: line 16: `print(file=...)` is not supported in compiled code: it prints to standard output
# error: line 17: `sep` of `print` must be a string literal
# error: line 18: `print` takes the keyword arguments `sep`, `end` and `flush`
# error: line 23: `print` is not supported in GPU code
from postyp import Complex128, Float64, Int64
from postc import kernel


def f(x: Float64[:], z: Complex128, s: Int64) -> None:
    print(x)
    print((s, s))
    print(z)
    print(s, file=None)
    print(s, s, sep=s)
    print(s, stream=1)


@kernel
def k(x: Float64[:]) -> None:
    print(x[0])
