"""Kernels of PyNNDescent (https://github.com/lmcinnes/pynndescent), BSD 2-Clause
licence, Copyright (c) 2018, Leland McInnes."""
import numpy as np

from postyp import Bool, Float32, Int32, Int64, Out, UInt8


# tau_rand_int: lmcinnes/pynndescent, pynndescent/utils.py @ bd4cacab5e02962d30fbd0e3c98030ec31a7a3b9
#   function `tau_rand_int`; licence BSD-2-Clause; Copyright (c) 2018, Leland McInnes (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed (Numba's signature "i4(i8[:])"; the result annotated Int64, the type of the value computed)
#   original signature: def tau_rand_int(state):
def tau_rand_int(state: Out[Int64[:]]) -> Int64:
    """A fast (pseudo)-random number generator.

    Parameters
    ----------
    state: array of int64, shape (3,)
        The internal state of the rng

    Returns
    -------
    A (pseudo)-random int32 value
    """
    state[0] = (((state[0] & 4294967294) << 12) & 0xFFFFFFFF) ^ (
        (((state[0] << 13) & 0xFFFFFFFF) ^ state[0]) >> 19
    )
    state[1] = (((state[1] & 4294967288) << 4) & 0xFFFFFFFF) ^ (
        (((state[1] << 2) & 0xFFFFFFFF) ^ state[1]) >> 25
    )
    state[2] = (((state[2] & 4294967280) << 17) & 0xFFFFFFFF) ^ (
        (((state[2] << 3) & 0xFFFFFFFF) ^ state[2]) >> 11
    )

    return state[0] ^ state[1] ^ state[2]


# rejection_sample: lmcinnes/pynndescent, pynndescent/utils.py @ bd4cacab5e02962d30fbd0e3c98030ec31a7a3b9
#   function `rejection_sample`; licence BSD-2-Clause; Copyright (c) 2018, Leland McInnes (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def rejection_sample(n_samples, pool_size, rng_state):
def rejection_sample(n_samples: Int64, pool_size: Int64, rng_state: Out[Int64[:]]) -> Int64[:]:
    """Generate n_samples many integers from 0 to pool_size such that no
    integer is selected twice. The duplication constraint is achieved via
    rejection sampling.

    Parameters
    ----------
    n_samples: int
        The number of random samples to select from the pool

    pool_size: int
        The size of the total pool of candidates to sample from

    rng_state: array of int64, shape (3,)
        Internal state of the random number generator

    Returns
    -------
    sample: array of shape(n_samples,)
        The ``n_samples`` randomly selected elements from the pool.
    """
    result = np.empty(n_samples, dtype=np.int64)
    for i in range(n_samples):
        reject_sample = True
        j = 0
        while reject_sample:
            j = tau_rand_int(rng_state) % pool_size
            for k in range(i):
                if j == result[k]:
                    break
            else:
                reject_sample = False
        result[i] = j
    return result


# siftdown: lmcinnes/pynndescent, pynndescent/utils.py @ bd4cacab5e02962d30fbd0e3c98030ec31a7a3b9
#   function `siftdown`; licence BSD-2-Clause; Copyright (c) 2018, Leland McInnes (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed
#   original signature: def siftdown(heap1, heap2, elt):
def siftdown(heap1: Out[Float32[:]], heap2: Out[Int32[:]], elt: Int64) -> None:
    """Restore the heap property for a heap with an out of place element
    at position ``elt``. This works with a heap pair where heap1 carries
    the weights and heap2 holds the corresponding elements."""
    while elt * 2 + 1 < heap1.shape[0]:
        left_child = elt * 2 + 1
        right_child = left_child + 1
        swap = elt

        if heap1[swap] < heap1[left_child]:
            swap = left_child

        if right_child < heap1.shape[0] and heap1[swap] < heap1[right_child]:
            swap = right_child

        if swap == elt:
            break
        else:
            heap1[elt], heap1[swap] = heap1[swap], heap1[elt]
            heap2[elt], heap2[swap] = heap2[swap], heap2[elt]
            elt = swap


# has_been_visited: lmcinnes/pynndescent, pynndescent/utils.py @ bd4cacab5e02962d30fbd0e3c98030ec31a7a3b9
#   function `has_been_visited`; licence BSD-2-Clause; Copyright (c) 2018, Leland McInnes (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed (its signature "b1(u1[::1],i4)" spelled as postyp types,
#   but for the result: the function returns `table[loc] & mask`, an Int32, which Numba's `b1` casts on return)
#   original signature: def has_been_visited(table, candidate):
def has_been_visited(table: UInt8[::1], candidate: Int32) -> Int32:
    loc = candidate >> 3
    mask = 1 << (candidate & 7)
    return table[loc] & mask


# mark_visited: lmcinnes/pynndescent, pynndescent/utils.py @ bd4cacab5e02962d30fbd0e3c98030ec31a7a3b9
#   function `mark_visited`; licence BSD-2-Clause; Copyright (c) 2018, Leland McInnes (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed (its signature "void(u1[::1],i4)" spelled as postyp types)
#   original signature: def mark_visited(table, candidate):
def mark_visited(table: Out[UInt8[::1]], candidate: Int32) -> None:
    loc = candidate >> 3
    mask = 1 << (candidate & 7)
    table[loc] |= mask
    return


# simple_heap_push: lmcinnes/pynndescent, pynndescent/utils.py @ bd4cacab5e02962d30fbd0e3c98030ec31a7a3b9
#   function `simple_heap_push`; licence BSD-2-Clause; Copyright (c) 2018, Leland McInnes (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed (its signature "i4(f4[::1],i4[::1],f4,i4)" spelled as postyp types; its `locals=` typing dropped)
#   original signature: def simple_heap_push(priorities, indices, p, n):
def simple_heap_push(priorities: Out[Float32[::1]], indices: Out[Int32[::1]], p: Float32, n: Int32) -> Int32:
    if p >= priorities[0]:
        return 0

    size = priorities.shape[0]

    # insert val at position zero
    priorities[0] = p
    indices[0] = n

    # descend the heap, swapping values until the max heap criterion is met
    i = 0
    while True:
        ic1 = 2 * i + 1
        ic2 = ic1 + 1

        if ic1 >= size:
            break
        elif ic2 >= size:
            if priorities[ic1] > p:
                i_swap = ic1
            else:
                break
        elif priorities[ic1] >= priorities[ic2]:
            if p < priorities[ic1]:
                i_swap = ic1
            else:
                break
        else:
            if p < priorities[ic2]:
                i_swap = ic2
            else:
                break

        priorities[i] = priorities[i_swap]
        indices[i] = indices[i_swap]

        i = i_swap

    priorities[i] = p
    indices[i] = n

    return 1


# checked_heap_push: lmcinnes/pynndescent, pynndescent/utils.py @ bd4cacab5e02962d30fbd0e3c98030ec31a7a3b9
#   function `checked_heap_push`; licence BSD-2-Clause; Copyright (c) 2018, Leland McInnes (BSD 2-Clause)
#   changed: type annotations added; Numba decorator removed (its signature "i4(f4[::1],i4[::1],f4,i4)" spelled as postyp types; its `locals=` typing dropped)
#   original signature: def checked_heap_push(priorities, indices, p, n):
def checked_heap_push(priorities: Out[Float32[::1]], indices: Out[Int32[::1]], p: Float32, n: Int32) -> Int32:
    if p >= priorities[0]:
        return 0

    size = priorities.shape[0]

    # break if we already have this element.
    for i in range(size):
        if n == indices[i]:
            return 0

    # insert val at position zero
    priorities[0] = p
    indices[0] = n

    # descend the heap, swapping values until the max heap criterion is met
    i = 0
    while True:
        ic1 = 2 * i + 1
        ic2 = ic1 + 1

        if ic1 >= size:
            break
        elif ic2 >= size:
            if priorities[ic1] > p:
                i_swap = ic1
            else:
                break
        elif priorities[ic1] >= priorities[ic2]:
            if p < priorities[ic1]:
                i_swap = ic1
            else:
                break
        else:
            if p < priorities[ic2]:
                i_swap = ic2
            else:
                break

        priorities[i] = priorities[i_swap]
        indices[i] = indices[i_swap]

        i = i_swap

    priorities[i] = p
    indices[i] = n

    return 1


# ---- call recipes (not part of the kernels) ----

def _heap(seed):
    # one row of a max-heap of neighbour distances, as make_heap and pushes leave it
    rng = np.random.default_rng(seed)
    d = np.sort(rng.random(15).astype(np.float32))[::-1].copy()
    idx = rng.permutation(100)[:15].astype(np.int32)
    return d, idx

def args_tau_rand_int():
    return (np.random.default_rng(0).integers(-2147483647, 2147483646, 3).astype(np.int64),)

def args_rejection_sample():
    return (10, 50, np.random.default_rng(1).integers(-2147483647, 2147483646, 3).astype(np.int64))

def args_siftdown():
    d, idx = _heap(2)
    d[0] = np.float32(0.01)  # an element out of place at the root
    return (d, idx, 0)

def args_has_been_visited():
    table = np.zeros(16, np.uint8)
    table[5] = 0b00100100
    return (table, 42)

def args_mark_visited():
    return (np.zeros(16, np.uint8), 42)

def args_simple_heap_push():
    d, idx = _heap(3)
    return (d, idx, np.float32(0.25), 1000)

def args_checked_heap_push():
    d, idx = _heap(4)
    return (d, idx, np.float32(0.25), 1000)
