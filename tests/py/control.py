"""Control flow: if/elif/else chains, loops with break and continue, pass,
nested loops, early returns, conditional expressions, numeric conditions."""
from postyp import Int64, Float64, Out


def classify(n: int) -> int:
    """-1 / 0 / 1 for the sign, 2 for large values."""
    if n < 0:
        return -1
    elif n == 0:
        return 0
    elif n < 1000:
        return 1
    else:
        return 2


def fizzbuzz_code(n: Int64) -> Int64:
    """15 -> 3, 3 -> 1, 5 -> 2, else 0."""
    code = 0
    if n % 3 == 0:
        code += 1
    if n % 5 == 0:
        code += 2
    return code


def first_multiple(a: Int64[:], k: Int64) -> Int64:
    """Index of the first element divisible by k, -1 if none (break)."""
    idx = -1
    for i in range(len(a)):
        if a[i] % k != 0:
            continue
        idx = i
        break
    return idx


def sum_skip_negative(a: Float64[:]) -> Float64:
    """Sum of the non-negative elements (continue)."""
    s = 0.0
    for i in range(len(a)):
        if a[i] < 0.0:
            continue
        s += a[i]
    return s


def pair_sum_index(a: Int64[:], target: Int64) -> Int64:
    """i * 1000 + j for the first pair i < j with a[i] + a[j] == target
    (nested loops with a flag and breaks); -1 if none."""
    found = -1
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            if a[i] + a[j] == target:
                found = i * 1000 + j
                break
        if found >= 0:
            break
    return found


def noop(n: Int64) -> None:
    """Does nothing (pass), for every n."""
    if n > 0:
        pass
    else:
        pass


def countdown(n: Int64, out: Out[Int64[:]]) -> Int64:
    """Writes n, n-1, ..., 1 into out while there is room; returns the count."""
    k = 0
    while n != 0 and k < len(out):
        out[k] = n
        n -= 1
        k += 1
    noop(k)
    return k


def steps_of_three(start: Int64, stop: Int64) -> Int64:
    """Sum over range(start, stop, 3)."""
    s = 0
    for i in range(start, stop, 3):
        s += i
    return s


def down_from(start: Int64, stop: Int64) -> Int64:
    """Sum over range(start, stop, -2)."""
    s = 0
    for i in range(start, stop, -2):
        s += i
    return s


def sign_float(x: Float64) -> Float64:
    """Nested conditional expressions."""
    return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)


def loop_var_after(n: Int64) -> Int64:
    """Loop with an early exit that leaves the last index seen."""
    last = -1
    for i in range(n):
        last = i
        if i * i > 50:
            break
    return last


def digits(n: Int64) -> Int64:
    """Number of decimal digits of n >= 0, with `while n:` after a pass."""
    if n == 0:
        return 1
    d = 0
    while n:
        n //= 10
        d += 1
    return d


def first_root_above(n: Int64) -> Int64:
    """`while 1:` never ends but by `return`: the function cannot fall off
    its end (trackpy's subnet linker loops so)."""
    k = 0
    while 1:
        k += 1
        if k * k > n:
            return k
