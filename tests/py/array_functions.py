"""NumPy array functions in compiled code: `np.sort` and `a.sort()` (NaNs
last), `np.argsort` and `a.argsort()` (stable), `np.searchsorted` with `side=`, `np.linalg.norm` with its orders,
the NaN-ignoring reductions (`np.nansum` ... `np.nanstd`) and arrays made
from lists (`np.array([...])`), over several dtypes and over strided,
reversed and empty inputs, with NumPy's panics."""
import numpy as np
from postyp import Bool, Complex64, Complex128, Float16, Float32, Float64, Int8, Int16, Int32, Int64, Out, UInt8, UInt64


def sorted_f64(a: Float64[:]) -> Float64[:]:
    """np.sort(a): a new array, NaNs last."""
    return np.sort(a)


def sorted_f32(a: Float32[:]) -> Float32[:]:
    """np.sort of Float32."""
    return np.sort(a)


def sorted_f16(a: Float16[:]) -> Float16[:]:
    """np.sort of Float16."""
    return np.sort(a)


def sorted_i32(a: Int32[:]) -> Int32[:]:
    """np.sort of Int32."""
    return np.sort(a)


def sorted_i8(a: Int8[:]) -> Int8[:]:
    """np.sort of Int8."""
    return np.sort(a)


def sorted_u8(a: UInt8[:]) -> UInt8[:]:
    """np.sort of UInt8."""
    return np.sort(a)


def sorted_u64(a: UInt64[:]) -> UInt64[:]:
    """np.sort of UInt64, values above Int64's range included."""
    return np.sort(a)


def sorted_bool(a: Bool[:]) -> Bool[:]:
    """np.sort of Bool: False first."""
    return np.sort(a)


def sort_in_place(a: Out[Float64[:]]) -> None:
    """a.sort() on an output array, which may be a view."""
    a.sort()


def sort_copy(a: Int64[:]) -> Int64[:]:
    """a.sort() on a local copy leaves the input as it was."""
    b = a.copy()
    b.sort()
    return b


def sort_every_other(a: Int16[:], k: Int64) -> Int16[:]:
    """np.sort of a strided slice."""
    return np.sort(a[::k])


def sort_reversed_slice(a: Float64[:]) -> Float64[:]:
    """np.sort of a reversed slice."""
    return np.sort(a[::-1])


def sort_temporary(a: Float64[:]) -> Float64[:]:
    """np.sort of a temporary array."""
    return np.sort(a * -2.0)


def sort_row(m: Out[Int32[:, :]], i: Int64) -> None:
    """Sorts row i of a matrix in place: a view with the matrix's strides."""
    r = m[i]
    r.sort()


def sort_columns(m: Out[Float64[:, :]]) -> None:
    """Sorts each column of a matrix in place through `m[:, j].sort()`."""
    for j in range(m.shape[1]):
        m[:, j].sort()


def median_of(a: Float64[:]) -> Float64:
    """The median by sorting: the middle element, or the mean of the two."""
    s = np.sort(a)
    n = len(s)
    if n % 2 == 1:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2.0


def argsorted_stable(a: Float64[:]) -> Int64[:]:
    """np.argsort(kind="stable"): equal elements (NaNs, -0.0 and 0.0 too)
    in the order of their indices."""
    return np.argsort(a, kind="stable")


def argsorted(a: Float64[:]) -> Int64[:]:
    """np.argsort of distinct elements: one order whatever the kind."""
    return np.argsort(a)


def argsort_method(a: Int32[:]) -> Int64[:]:
    """`.argsort()` of a reversed view, ties kept in index order."""
    return a[::-1].argsort(kind="mergesort")


def argsorted_bool(a: Bool[:]) -> Int64[:]:
    """False before True, stably."""
    return np.argsort(a, kind="stable")


def argsort_extremes(a: UInt64[:]) -> Int64:
    """The indices of the least and the greatest element through an
    argsort of a local, as a kernel picks them."""
    order = np.argsort(a)
    return 1000 * order[0] + order[len(order) - 1]


def spaced(start: Float64, stop: Float64, n: Int64) -> Float64[:]:
    """np.linspace with the endpoint: the last element is `stop`."""
    return np.linspace(start, stop, n)


def spaced_open(start: Int64, stop: Float64, n: Int64) -> Float64[:]:
    """np.linspace without the endpoint, by keyword."""
    return np.linspace(start, stop, num=n, endpoint=False)


def spaced_f32(start: Float32, stop: Float32) -> Float32[:]:
    """Two Float32 bounds: Float32, 50 elements."""
    return np.linspace(start, stop)


def outer_product(a: Float64[:], b: Int32[:]) -> Float64[:, :]:
    """np.outer: every a[i] * b[j]."""
    return np.outer(a, b)


def outer_bool(a: Bool[:], b: Bool[:]) -> Bool[:, :]:
    """Of Bools, their `and`."""
    return np.outer(a, b)


def search_left(a: Float64[:], v: Float64) -> Int64:
    """np.searchsorted(a, v): before equal elements."""
    return np.searchsorted(a, v)


def search_right(a: Float64[:], v: Float64) -> Int64:
    """np.searchsorted(a, v, side='right'): after equal elements."""
    return np.searchsorted(a, v, side='right')


def search_positional(a: Int64[:], v: Int64) -> Int64:
    """The side given by position."""
    return np.searchsorted(a, v, 'right') - np.searchsorted(a, v, 'left')


def search_int_float(a: Int32[:], v: Float64) -> Int64:
    """An integer array searched for a float: compared as floats."""
    return np.searchsorted(a, v)


def search_many(a: Float64[:], v: Float64[:]) -> Int64[:]:
    """np.searchsorted of an array of values: an array of indices."""
    return np.searchsorted(a, v, side='right')


def search_sorted_copy(a: Float64[:], v: Float64) -> Int64:
    """np.searchsorted in a sorted copy of `a`."""
    return np.searchsorted(np.sort(a), v)


def norm_default(x: Float64[:]) -> Float64:
    """np.linalg.norm(x): the Euclidean norm."""
    return np.linalg.norm(x)


def norm_two(x: Float64[:]) -> Float64:
    """np.linalg.norm(x, 2)."""
    return np.linalg.norm(x, 2)


def norm_one(x: Float64[:]) -> Float64:
    """np.linalg.norm(x, 1): the sum of magnitudes."""
    return np.linalg.norm(x, 1)


def norm_inf(x: Float64[:]) -> Float64:
    """np.linalg.norm(x, np.inf): the largest magnitude."""
    return np.linalg.norm(x, np.inf)


def norm_neg_inf(x: Float64[:]) -> Float64:
    """np.linalg.norm(x, -np.inf): the smallest magnitude."""
    return np.linalg.norm(x, ord=-np.inf)


def norm_zero(x: Float64[:]) -> Float64:
    """np.linalg.norm(x, 0): how many elements are not zero."""
    return np.linalg.norm(x, 0)


def norm_three(x: Float64[:]) -> Float64:
    """np.linalg.norm(x, 3): sum(abs(x)**3)**(1/3)."""
    return np.linalg.norm(x, 3)


def norm_int(x: Int32[:]) -> Float64:
    """An integer vector's norm is a Float64."""
    return np.linalg.norm(x)


def norm_f32(x: Float32[:]) -> Float32:
    """A Float32 vector's norm is a Float32."""
    return np.linalg.norm(x, 1)


def norm_fro(m: Float64[:, :]) -> Float64:
    """np.linalg.norm(m, 'fro'): the Frobenius norm."""
    return np.linalg.norm(m, 'fro')


def norm_matrix(m: Int64[:, :]) -> Float64:
    """np.linalg.norm(m) of an integer matrix."""
    return np.linalg.norm(m)


def nansum_f64(a: Float64[:]) -> Float64:
    """np.nansum: NaNs count as zero."""
    return np.nansum(a)


def nansum_i8(a: Int8[:]) -> Int64:
    """np.nansum of Int8 widens to Int64."""
    return np.nansum(a)


def nanprod_f64(a: Float64[:]) -> Float64:
    """np.nanprod: NaNs count as one."""
    return np.nanprod(a)


def nanmin_f64(a: Float64[:, :]) -> Float64:
    """np.nanmin over a matrix."""
    return np.nanmin(a)


def nanmax_f32(a: Float32[:]) -> Float32:
    """np.nanmax of Float32."""
    return np.nanmax(a)


def nanmin_i16(a: Int16[:]) -> Int16:
    """np.nanmin of integers is np.min."""
    return np.nanmin(a)


def nanargmin_f64(a: Float64[:]) -> Int64:
    """np.nanargmin: the first smallest number's index."""
    return np.nanargmin(a)


def nanargmax_f64(a: Float64[:, :]) -> Int64:
    """np.nanargmax of a matrix: a flat C-order index."""
    return np.nanargmax(a)


def nanmean_f64(a: Float64[:]) -> Float64:
    """np.nanmean: the mean of the numbers."""
    return np.nanmean(a)


def nanmean_f32(a: Float32[:]) -> Float32:
    """np.nanmean of Float32 is a Float32."""
    return np.nanmean(a)


def nanmean_i32(a: Int32[:]) -> Float64:
    """np.nanmean of integers is a Float64."""
    return np.nanmean(a)


def nanvar_f64(a: Float64[:]) -> Float64:
    """np.nanvar."""
    return np.nanvar(a)


def nanvar_ddof(a: Float64[:], k: Int64) -> Float64:
    """np.nanvar with ddof=k."""
    return np.nanvar(a, ddof=k)


def nanstd_f64(a: Float64[:]) -> Float64:
    """np.nanstd."""
    return np.nanstd(a)


def var_f64(a: Float64[:, :]) -> Float64:
    """np.var of every element: a NaN makes it NaN."""
    return np.var(a)


def var_ddof(a: Float64[:], k: Int64) -> Float64:
    """np.var with ddof=k: no degree of freedom left divides by zero."""
    return np.var(a, ddof=k)


def std_f32(a: Float32[:]) -> Float32:
    """np.std of Float32 is a Float32."""
    return np.std(a)


def spreads(a: Float64[:], k: Int64) -> Float64:
    """The methods `.var()`, `.std()` (of a slice too) and the functions
    with `ddof=`, each bound to a local."""
    s = np.var(a, ddof=k)
    t = np.nanstd(a, ddof=1)
    u = a.std()
    w = a[1:].var(ddof=1)
    return s + t + u + w


def var_i64(a: Int64[:], k: Float64) -> Float64:
    """np.var of integers is a Float64; ddof may be a float."""
    return np.var(a, ddof=k) + np.std(a)


def rolling_nanvar(a: Float64[:], w: Int64) -> Float64[:]:
    """np.nanvar of every window of `w` elements: of slices."""
    out = np.empty(len(a) - w + 1, dtype=np.float64)
    for i in range(len(a) - w + 1):
        out[i] = np.nanvar(a[i:i + w]) + np.nanmean(a[i:i + w])
    return out


def made_floats(x: Float64) -> Float64[:]:
    """np.array([1.0, 2.0, x])."""
    return np.array([1.0, 2.0, x])


def made_matrix(x: Int64) -> Int64[:, :]:
    """A nested list: a matrix in C order."""
    return np.array([[1, 2, 3], [x, x + 1, x * 2]])


def made_with_dtype(x: Float64) -> Float32[:]:
    """dtype= converts each element."""
    return np.array([x, 1, 2.5], dtype=np.float32)


def made_truncated(x: Float64) -> Int32[:]:
    """Floats into an integer dtype truncate, as NumPy's assignment does."""
    return np.array([x, 2.75, -2.75], dtype=np.int32)


def made_promoted(x: Int8) -> Int64[:]:
    """A Python int beside an Int8 makes Int64: NumPy counts it as its default dtype."""
    return np.array([x, 2])


def made_mixed(x: Int32, y: Float32) -> Float64[:]:
    """Int32 with Float32 promote to Float64."""
    return np.array([x, y])


def made_bools(x: Float64) -> Bool[:]:
    """A list of Bools."""
    return np.array([x > 0.0, True, x < 0.0])


def made_then_sorted(x: Float64, y: Float64) -> Float64:
    """A made array sorted, searched and reduced."""
    a = np.sort(np.array([y, 3.0, x, 1.0]))
    return a[0] * 1000.0 + np.searchsorted(a, 2.0) * 100.0 + np.nanmax(a)


def norm_complex(x: Complex128[:]) -> Float64:
    """The Euclidean norm of complex numbers: of their magnitudes."""
    return np.linalg.norm(x)


def norm_complex_one(x: Complex64[:]) -> Float32:
    """np.linalg.norm(x, 1) of Complex64 is a Float32: the sum of magnitudes."""
    return np.linalg.norm(x, 1)


def norm_complex_inf(x: Complex128[:]) -> Float64:
    """np.linalg.norm(x, np.inf) of complex numbers: the largest magnitude."""
    return np.linalg.norm(x, np.inf)


def norm_complex_zero(x: Complex128[:]) -> Float64:
    """np.linalg.norm(x, 0) of complex numbers: those with a part not zero."""
    return np.linalg.norm(x, 0)


def rolled(a: Int64[:], shift: Int64) -> Int64[:]:
    """np.roll of a 1-D array: element i moves to i + shift, around."""
    return np.roll(a, shift)


def rolled_flat(a: Float64[:, :], shift: Int64) -> Float64[:, :]:
    """Without an axis, the array is rolled in C order as if flat."""
    return np.roll(a, shift)


def rolled_rows(a: Int32[:, :], shift: Int64) -> Int32[:, :]:
    """axis=0 moves whole rows; axis=-1 each row's elements."""
    return np.roll(a, shift, axis=0) * 100 + np.roll(a, shift=-shift, axis=-1)


def rolled_columns_of(a: Float64[:, :]) -> Float64[:, :]:
    """librosa's shear: column i rolled by i, written into a new array."""
    out = np.empty_like(a)
    for i in range(a.shape[1]):
        out[:, i] = np.roll(a[:, i], i)
    return out


def rolled_bools(a: Bool[:], shift: Int64) -> Bool[:]:
    return np.roll(a, shift)


def scaled_pair(p: Float64, nu: Float64) -> Float64[:]:
    """Arithmetic on np.array([...]) bound to a local (typed as the array
    expression it is)."""
    x = np.array([p, nu]) * 2.0 + np.array([nu, p])
    return x


def label_counts(labels: Int32[:], n: Int64) -> Int32[:]:
    """`dtype=a.dtype`: a new array of another array's dtype (numbagg's
    grouped kernels count so)."""
    c = np.zeros(n, dtype=labels.dtype)
    for i in range(len(labels)):
        c[labels[i]] += 1
    return c + np.ones(n, labels.dtype)


def crossed(r: Float64[:], v: Float64[:]) -> Float64[:]:
    """np.cross of 3-vectors, one a list (hapsira's rv2coe: `h = cross(r,
    v)`, `n = cross([0, 0, 1], h)`)."""
    h = np.cross(r, v)
    n = np.cross([0, 0, 1], h)
    return n + np.cross(h, n) * 2.0


def crossed_ints(a: Int32[:], b: Int64[:]) -> Int64[:]:
    """Of integers, in their promoted dtype."""
    return np.cross(a, b)


def joined(a: Float64[:], b: Int32[:]) -> Float64[:]:
    """np.concatenate of a Float64 and an Int32 array, and of a made
    array: Float64, their lengths' sum."""
    return np.concatenate((np.array([0.5]), a, b))


def differences(a: Int64[:]) -> Int64[:]:
    """np.diff: a[i + 1] - a[i], one fewer element (none for fewer than
    two)."""
    return np.diff(a)


def changes(a: Bool[:]) -> Bool[:]:
    """np.diff of Bools is `!=` of neighbours."""
    return np.diff(a)


def nonzero_at(a: Float64[:, :]) -> Int64[:]:
    """np.flatnonzero: C-order flat indices of the elements not zero."""
    return np.flatnonzero(a)


def distinct(a: Float64[:]) -> Float64[:]:
    """np.unique: sorted distinct values, every NaN one value, last."""
    return np.unique(a)


def tie_correction(rankvals: Float64[:]) -> Float64:
    """scanpy's tie correction of sorted ranks: the lengths of runs of
    equal values from np.flatnonzero of a concatenation, np.diff of them."""
    arr = np.sort(rankvals)
    idx = np.flatnonzero(np.concatenate((np.array([True]), arr[1:] != arr[:-1], np.array([True]))))
    cnt = np.diff(idx).astype(np.float64)
    size = np.float64(arr.size)
    if size < 2:
        return 1.0
    return 1.0 - (cnt**3 - cnt).sum() / (size**3 - size)


def labelled(y: Int64[:], k: Int64) -> Int64:
    """np.where of one argument (sktime's `np.where(y == k)[0]`): the
    indices where the test holds, the one array of a tuple."""
    idx = np.where(y == k)[0]
    t = 0
    for i in idx:
        t += i * 10
    return t + len(idx)


def top_sum(a: Float64[:], k: Int64) -> Float64:
    """scanpy's `-(np.partition(-a, k))[:k]`: the `k` largest, summed
    from the largest; `kth` out of bounds raises NumPy's ValueError."""
    top = -(np.partition(-a, k))[:k]
    s = 0.0
    for x in top:
        s = s * 0.5 + x
    return s


def partitioned_at(a: Int32[:], ks: Int64[:]) -> Int64:
    """`np.partition(a, ks)` with an array of `kth`: the elements at each
    `kth` are the sorted ones, the others on their sides."""
    p = np.partition(a, ks)
    t = 0
    for i in range(len(ks)):
        k = ks[i]
        t = t * 100 + p[k]
        for j in range(len(p)):
            if (j < k and p[j] > p[k]) or (j > k and p[j] < p[k]):
                t = -1
    return t
