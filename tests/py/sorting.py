"""Sorting and searching: insertion sort and bubble sort in place, binary
search, sortedness test, an inversion count."""
from postyp import Bool, Float64, Int32, Int64, Out


def insertion_sort(a: Out[Float64[:]]) -> None:
    """Sort ascending, in place."""
    for i in range(1, len(a)):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


def bubble_sort(a: Out[Int32[:]]) -> Int64:
    """Sort ascending in place; returns the number of passes made."""
    n = len(a)
    passes = 0
    while True:
        swapped = False
        passes += 1
        for i in range(1, n):
            if a[i - 1] > a[i]:
                t = a[i - 1]
                a[i - 1] = a[i]
                a[i] = t
                swapped = True
        if not swapped:
            break
    return passes


def binary_search(a: Float64[:], v: Float64) -> Int64:
    """Leftmost index where v could be inserted keeping a sorted."""
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


def is_sorted(a: Int32[:]) -> Bool:
    """True when a is non-decreasing (early return)."""
    for i in range(1, len(a)):
        if a[i - 1] > a[i]:
            return False
    return True


def inversions(a: Int32[:]) -> Int64:
    """Pairs i < j with a[i] > a[j] (quadratic)."""
    c = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            if a[i] > a[j]:
                c += 1
    return c
