"""`np.linalg.eigh` and `np.linalg.eigvalsh` of symmetric 2-D arrays: the
eigenvalues ascending and the eigenvectors as the columns of a new array,
compared through what does not depend on the vectors' arbitrary signs
(each column's sign fixed here, the decomposition and orthonormality
checked); only the lower triangle read, or the upper by `UPLO='U'`;
integers and Bools as Float64, Float32 kept; views of any layout; 0x0
and 1x1; a non-square array raises NumPy's LinAlgError; MNE-Python's fit
of matched points by Horn's quaternion."""
import numpy as np
from postyp import Bool, Float32, Float64, Int64


def signed_columns(v: Float64[:, :]) -> Float64[:, :]:
    """`v` with each column multiplied by the sign of its first component
    of the largest magnitude, then shifted by 2.0: an eigenvector's sign
    is arbitrary, and the shift lets a relative tolerance bound the error
    of components that are zero in exact arithmetic."""
    n = v.shape[0]
    out = np.empty((n, n))
    for k in range(n):
        pick = 0
        for r in range(n):
            if abs(v[r, k]) > abs(v[pick, k]):
                pick = r
        s = 1.0
        if v[pick, k] < 0.0:
            s = -1.0
        for r in range(n):
            out[r, k] = s * v[r, k] + 2.0
    return out


def eigenvalues(a: Float64[:, :]) -> Float64[:]:
    """The eigenvalues, ascending: the first of the tuple unpacked."""
    w, v = np.linalg.eigh(a)
    return w


def eigenvalues_only(a: Float64[:, :]) -> Float64[:]:
    """`np.linalg.eigvalsh`: the same values without the vectors."""
    return np.linalg.eigvalsh(a)


def eigenvalues_upper(a: Float64[:, :]) -> Float64[:]:
    """`UPLO='U'`: the upper triangle read instead."""
    return np.linalg.eigvalsh(a, UPLO="U")


def vectors(a: Float64[:, :]) -> Float64[:, :]:
    """The eigenvectors, `v[:, k]` of `w[k]`, each column's sign fixed."""
    _, v = np.linalg.eigh(a)
    return signed_columns(v)


def vectors_upper(a: Float64[:, :]) -> Float64[:, :]:
    """The eigenvectors of the upper triangle, `UPLO` given by position."""
    w, v = np.linalg.eigh(a, "U")
    return signed_columns(v)


def decomposes(a: Float64[:, :], tol: Float64) -> Bool:
    """Whether `v @ diag(w) @ v.T` gives back the symmetric matrix of the
    lower triangle and `v.T @ v` the identity, within `tol` times the
    largest magnitude: what holds whichever basis of a repeated
    eigenvalue's space the vectors are."""
    w, v = np.linalg.eigh(a)
    n = a.shape[0]
    back = (v * w) @ v.T
    gram = v.T @ v
    scale = 1.0
    for i in range(n):
        for j in range(i + 1):
            scale = max(scale, abs(a[i, j]))
    err = 0.0
    for i in range(n):
        for j in range(n):
            want = a[i, j] if i >= j else a[j, i]
            err = max(err, abs(back[i, j] - want) / scale)
            unit = 1.0 if i == j else 0.0
            err = max(err, abs(gram[i, j] - unit))
    return err <= tol


def decomposition(a: Float64[:, :]) -> tuple[Float64[:], Float64[:, :]]:
    """The tuple itself returned: only for matrices whose eigenvectors'
    signs NumPy and the compiled code agree on (a diagonal one's are
    columns of the identity)."""
    return np.linalg.eigh(a)


def largest(a: Float64[:, :]) -> Float64:
    """The largest eigenvalue, the tuple subscripted where it is made."""
    return np.linalg.eigh(a)[0][-1]


def smallest_vector(a: Float64[:, :]) -> Float64[:]:
    """The eigenvector of the smallest eigenvalue, from a tuple local,
    its sign fixed as MNE fixes it (by its first component)."""
    pair = np.linalg.eigh(a)
    v = pair[1]
    out = np.empty(v.shape[0])
    out[:] = v[:, 0]
    if v[0, 0] != 0:
        out *= np.sign(v[0, 0])
    return out


def eigenvalues_single(a: Float32[:, :]) -> Float32[:]:
    """Of Float32: computed and returned in Float32."""
    w, v = np.linalg.eigh(a)
    return w


def vectors_single(a: Float32[:, :]) -> Float64[:, :]:
    """The Float32 eigenvectors, each column's sign fixed in Float64."""
    w, v = np.linalg.eigh(a)
    return signed_columns(v.astype(np.float64))


def eigenvalues_of_ints(a: Int64[:, :]) -> Float64[:]:
    """Of integers: Float64."""
    return np.linalg.eigvalsh(a)


def vectors_of_ints(a: Int64[:, :]) -> Float64[:, :]:
    """The eigenvectors of integers, Float64."""
    w, v = np.linalg.eigh(a)
    return signed_columns(v)


def eigenvalues_of_bools(a: Bool[:, :]) -> Float64[:]:
    """Of Bools: 0.0 and 1.0."""
    return np.linalg.eigvalsh(a)


def quat_to_rot(q: Float64[:]) -> Float64[:, :]:
    """MNE-Python's `_quat_to_rot` of one quaternion given by its vector
    part (the scalar part the non-negative root)."""
    q1 = q[0]
    q2 = q[1]
    q3 = q[2]
    q0 = np.sqrt(np.maximum(1.0 - q1 * q1 - q2 * q2 - q3 * q3, 0.0))
    rot = np.empty((3, 3))
    rot[0, 0] = q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3
    rot[0, 1] = 2.0 * (q1 * q2 - q0 * q3)
    rot[0, 2] = 2.0 * (q1 * q3 + q0 * q2)
    rot[1, 0] = 2.0 * (q1 * q2 + q0 * q3)
    rot[1, 1] = q0 * q0 + q2 * q2 - q1 * q1 - q3 * q3
    rot[1, 2] = 2.0 * (q2 * q3 - q0 * q1)
    rot[2, 0] = 2.0 * (q1 * q3 - q0 * q2)
    rot[2, 1] = 2.0 * (q2 * q3 + q0 * q1)
    rot[2, 2] = q0 * q0 + q3 * q3 - q1 * q1 - q2 * q2
    return rot


def fit_matched_points(p: Float64[:, :], x: Float64[:, :]) -> Float64[:]:
    """MNE-Python's `_fit_matched_points` without weights or scale
    (Horn's closed form): the rotation is the eigenvector of the largest
    eigenvalue of a symmetric 4x4 matrix, its sign fixed by its first
    component; then the translation. The quaternion's vector part and
    the translation."""
    n = p.shape[0]
    weight = 1.0 / n
    mu_p = np.dot(np.full(n, weight), p)
    mu_x = np.dot(np.full(n, weight), x)
    dots = np.dot(p.T, weight * x)
    sigma_px = dots - np.outer(mu_p, mu_x)
    a_ij = sigma_px - sigma_px.T
    delta = np.array([a_ij[1, 2], a_ij[2, 0], a_ij[0, 1]])
    tr_sigma_px = sigma_px[0, 0] + sigma_px[1, 1] + sigma_px[2, 2]
    q = np.empty((4, 4))
    q[0, 0] = tr_sigma_px
    q[0, 1:] = delta
    q[1:, 0] = delta
    q[1:, 1:] = sigma_px + sigma_px.T
    for k in range(3):
        q[k + 1, k + 1] -= tr_sigma_px
    _, v = np.linalg.eigh(q)
    quat = np.empty(6)
    quat[:3] = v[1:, -1]
    if v[0, -1] != 0:
        quat[:3] *= np.sign(v[0, -1])
    rot = quat_to_rot(quat[:3])
    quat[3:] = mu_x - np.dot(rot, mu_p)
    return quat
