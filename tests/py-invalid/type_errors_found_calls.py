# error: the GPU built-ins shared, sync_threads and atomic_add of the wrong forms, or outside a @kernel, are the typecheck's: all reported
from postc import kernel, thread_idx, shared, atomic_add, sync_threads
from postyp import Float32, Int8, Int32, Out


def host(x: Out[Float32[:]]) -> None:
    sync_threads()


@kernel
def k(x: Out[Float32[:]], n: Out[Int32[:]], b: Out[Int8[:]]) -> None:
    t = thread_idx.x
    sync_threads(1)
    s1 = shared()
    s2 = shared(Float32)
    s3 = shared(x[4])
    s4 = shared(Float32[0])
    s5 = shared(Float32[16, t])
    s6 = shared(Float32[100000000])
    atomic_add()
    atomic_add(1.0, 0, 1.0)
    atomic_add(b, 0, 1)
    atomic_add(x, 0)
    atomic_add(x, 1.5, 1.0)
    atomic_add(n, t, 1.5)
    atomic_add(x, t, x)
    atomic_add(x, t, "a")
    atomic_add(x, t, 1.0)
    sync_threads()
