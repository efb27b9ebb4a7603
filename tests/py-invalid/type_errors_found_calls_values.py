# error: calls of what holds no function (a module, a namespace, a decorator, Out, a launch coordinate, a call's result) and methods of names that hold no value (a function, a dtype, a name imported from NumPy) are the typecheck's, as are arguments that give a parameter without annotation no type, each shown as it is: all reported
import numpy as np
import postc
from postc import kernel, thread_idx
from postyp import Float64, Out


def g(x: Float64) -> Float64:
    return x


def gen(a, b):
    return a


def f(x: Float64) -> Float64:
    a = g.foo(x)
    b = np(1)
    c = g(x)(1)
    d = Float64.foo(x)
    e = postc(1)
    h = kernel(x)
    i = Out(x)
    j = thread_idx(1)
    k = np.float64(x)
    m = gen(x, "a")
    n = gen(x, (x, "s"))
    o = gen(x, (x, (x, x)))
    return x
