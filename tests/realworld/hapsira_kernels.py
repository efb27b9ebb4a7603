"""Kernels of hapsira (https://github.com/pleiszenburg/hapsira), MIT licence,
Copyright (c) 2023-2024 Sebastian M. Ernst, Copyright (c) 2012-2023 Juan Luis
Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team."""
from math import gamma

import numpy as np
from numpy import cos, cross, sin, sqrt

from postyp import Float64, Int64


# hyp2f1b: pleiszenburg/hapsira, src/hapsira/_math/special.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `hyp2f1b`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def hyp2f1b(x):
def hyp2f1b(x: Float64) -> Float64:
    """Hypergeometric function 2F1(3, 1, 5/2, x), see [Battin].

    .. todo::
        Add more information about this function

    Notes
    -----
    More information about hypergeometric function can be checked at
    https://en.wikipedia.org/wiki/Hypergeometric_function

    """
    if x >= 1.0:
        return np.inf
    else:
        res = 1.0
        term = 1.0
        ii = 0
        while True:
            term = term * (3 + ii) * (1 + ii) / (5 / 2 + ii) * x / (ii + 1)
            res_old = res
            res += term
            if res_old == res:
                return res
            ii += 1


# stumpff_c2: pleiszenburg/hapsira, src/hapsira/_math/special.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `stumpff_c2`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def stumpff_c2(psi):
def stumpff_c2(psi: Float64) -> Float64:
    r"""Second Stumpff function.

    For positive arguments:

    .. math::

        c_2(\psi) = \frac{1 - \cos{\sqrt{\psi}}}{\psi}

    """
    eps = 1.0
    if psi > eps:
        res = (1 - np.cos(np.sqrt(psi))) / psi
    elif psi < -eps:
        res = (np.cosh(np.sqrt(-psi)) - 1) / (-psi)
    else:
        res = 1.0 / 2.0
        delta = (-psi) / gamma(2 + 2 + 1)
        k = 1
        while res + delta != res:
            res = res + delta
            k += 1
            delta = (-psi) ** k / gamma(2 * k + 2 + 1)

    return res


# stumpff_c3: pleiszenburg/hapsira, src/hapsira/_math/special.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `stumpff_c3`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def stumpff_c3(psi):
def stumpff_c3(psi: Float64) -> Float64:
    r"""Third Stumpff function.

    For positive arguments:

    .. math::

        c_3(\psi) = \frac{\sqrt{\psi} - \sin{\sqrt{\psi}}}{\sqrt{\psi^3}}

    """
    eps = 1.0
    if psi > eps:
        res = (np.sqrt(psi) - np.sin(np.sqrt(psi))) / (psi * np.sqrt(psi))
    elif psi < -eps:
        res = (np.sinh(np.sqrt(-psi)) - np.sqrt(-psi)) / (-psi * np.sqrt(-psi))
    else:
        res = 1.0 / 6.0
        delta = (-psi) / gamma(2 + 3 + 1)
        k = 1
        while res + delta != res:
            res = res + delta
            k += 1
            delta = (-psi) ** k / gamma(2 * k + 3 + 1)

    return res


# norm: pleiszenburg/hapsira, src/hapsira/_math/linalg.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `norm`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def norm(arr):
def norm(arr: Float64[:]) -> Float64:
    return np.sqrt(arr @ arr)


# nu_to_E: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `nu_to_E`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def nu_to_E(nu, ecc):
def nu_to_E(nu: Float64, ecc: Float64) -> Float64:
    r"""Eccentric anomaly from true anomaly.

    .. versionadded:: 0.4.0

    Parameters
    ----------
    nu : float
        True anomaly in radians.
    ecc : float
        Eccentricity.

    Returns
    -------
    E : float
        Eccentric anomaly, between -π and π radians.

    Warnings
    --------
    The eccentric anomaly will be between -π and π radians,
    no matter the value of the true anomaly.

    Notes
    -----
    The implementation uses the half-angle formula from [3]_:

    .. math::
        E = 2 \arctan \left ( \sqrt{\frac{1 - e}{1 + e}} \tan{\frac{\nu}{2}} \right)
        \in (-\pi, \pi]

    """
    E = 2 * np.arctan(np.sqrt((1 - ecc) / (1 + ecc)) * np.tan(nu / 2))
    return E


# nu_to_F: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `nu_to_F`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def nu_to_F(nu, ecc):
def nu_to_F(nu: Float64, ecc: Float64) -> Float64:
    r"""Hyperbolic anomaly from true anomaly.

    Parameters
    ----------
    nu : float
        True anomaly in radians.
    ecc : float
        Eccentricity (>1).

    Returns
    -------
    F : float
        Hyperbolic anomaly.

    Warnings
    --------
    The hyperbolic anomaly will be continuous in (-∞, ∞)
    only if the true anomaly is in (-π, π],
    which should happen anyway
    because the true anomaly is limited for hyperbolic orbits.
    No validation or wrapping is performed.

    Notes
    -----
    The implementation uses the half-angle formula from [3]_:

    .. math::
        F = 2 \operatorname{arctanh} \left( \sqrt{\frac{e-1}{e+1}} \tan{\frac{\nu}{2}} \right)

    """
    F = 2 * np.arctanh(np.sqrt((ecc - 1) / (ecc + 1)) * np.tan(nu / 2))
    return F


# E_to_nu: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `E_to_nu`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def E_to_nu(E, ecc):
def E_to_nu(E: Float64, ecc: Float64) -> Float64:
    r"""True anomaly from eccentric anomaly.

    .. versionadded:: 0.4.0

    Parameters
    ----------
    E : float
        Eccentric anomaly in radians.
    ecc : float
        Eccentricity.

    Returns
    -------
    nu : float
        True anomaly, between -π and π radians.

    Warnings
    --------
    The true anomaly will be between -π and π radians,
    no matter the value of the eccentric anomaly.

    Notes
    -----
    The implementation uses the half-angle formula from [3]_:

    .. math::
        \nu = 2 \arctan \left( \sqrt{\frac{1 + e}{1 - e}} \tan{\frac{E}{2}} \right)
        \in (-\pi, \pi]

    """
    nu = 2 * np.arctan(np.sqrt((1 + ecc) / (1 - ecc)) * np.tan(E / 2))
    return nu


# F_to_nu: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `F_to_nu`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def F_to_nu(F, ecc):
def F_to_nu(F: Float64, ecc: Float64) -> Float64:
    r"""True anomaly from hyperbolic anomaly.

    Parameters
    ----------
    F : float
        Hyperbolic anomaly.
    ecc : float
        Eccentricity (>1).

    Returns
    -------
    nu : float
        True anomaly.

    Notes
    -----
    The implementation uses the half-angle formula from [3]_:

    .. math::
        \nu = 2 \arctan \left( \sqrt{\frac{e + 1}{e - 1}} \tanh{\frac{F}{2}} \right)
        \in (-\pi, \pi]

    """
    nu = 2 * np.arctan(np.sqrt((ecc + 1) / (ecc - 1)) * np.tanh(F / 2))
    return nu


# M_to_D: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `M_to_D`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def M_to_D(M):
def M_to_D(M: Float64) -> Float64:
    """Parabolic anomaly from mean anomaly.

    Parameters
    ----------
    M : float
        Mean anomaly in radians.

    Returns
    -------
    D : float
        Parabolic anomaly.

    Notes
    -----
    This uses the analytical solution of Barker's equation from [5]_.

    """
    B = 3.0 * M / 2.0
    A = (B + (1.0 + B**2) ** 0.5) ** (2.0 / 3.0)
    D = 2 * A * B / (1 + A + A**2)
    return D


# E_to_M: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `E_to_M`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def E_to_M(E, ecc):
def E_to_M(E: Float64, ecc: Float64) -> Float64:
    r"""Mean anomaly from eccentric anomaly.

    .. versionadded:: 0.4.0

    Parameters
    ----------
    E : float
        Eccentric anomaly in radians.
    ecc : float
        Eccentricity.

    Returns
    -------
    M : float
        Mean anomaly.

    Warnings
    --------
    The mean anomaly will be outside of (-π, π]
    if the eccentric anomaly is.
    No validation or wrapping is performed.

    Notes
    -----
    The implementation uses the plain original Kepler equation:

    .. math::
        M = E - e \sin{E}

    """
    M = E - ecc * np.sin(E)
    return M


# F_to_M: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `F_to_M`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def F_to_M(F, ecc):
def F_to_M(F: Float64, ecc: Float64) -> Float64:
    r"""Mean anomaly from hyperbolic anomaly.

    Parameters
    ----------
    F : float
        Hyperbolic anomaly.
    ecc : float
        Eccentricity (>1).

    Returns
    -------
    M : float
        Mean anomaly.

    Notes
    -----
    As noted in [5]_, by manipulating
    the parametric equations of the hyperbola
    we can derive a quantity that is equivalent
    to the mean anomaly in the elliptic case:

    .. math::

        M = e \sinh{F} - F

    """
    M = ecc * np.sinh(F) - F
    return M


# fp_angle: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `fp_angle`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def fp_angle(nu, ecc):
def fp_angle(nu: Float64, ecc: Float64) -> Float64:
    r"""Returns the flight path angle.

    Parameters
    ----------
    nu : float
        True anomaly in radians.
    ecc : float
        Eccentricity.

    Returns
    -------
    fp_angle: float
        Flight path angle

    Notes
    -----
    From [3]_, pp. 113:

    .. math::

        \phi = \arctan(\frac {e \sin{\nu}}{1 + e \cos{\nu}})

    """
    return np.arctan2(ecc * np.sin(nu), 1 + ecc * np.cos(nu))


# _kepler_equation: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `_kepler_equation`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def _kepler_equation(E, M, ecc):
def _kepler_equation(E: Float64, M: Float64, ecc: Float64) -> Float64:
    return E_to_M(E, ecc) - M


# _kepler_equation_prime: pleiszenburg/hapsira, src/hapsira/core/angles.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `_kepler_equation_prime`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def _kepler_equation_prime(E, M, ecc):
def _kepler_equation_prime(E: Float64, M: Float64, ecc: Float64) -> Float64:
    return 1 - ecc * np.cos(E)


# eccentricity_vector: pleiszenburg/hapsira, src/hapsira/core/elements.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `eccentricity_vector`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def eccentricity_vector(k, r, v):
def eccentricity_vector(k: Float64, r: Float64[:], v: Float64[:]) -> Float64[:]:
    r"""Eccentricity vector.

    .. math::

       \vec{e} = \frac{1}{\mu} \left(
           \left( v^{2} - \frac{\mu}{r}\right ) \vec{r}  - (\vec{r} \cdot \vec{v})\vec{v}
       \right)

    Parameters
    ----------
    k : float
        Standard gravitational parameter (km^3 / s^2).
    r : numpy.ndarray
        Position vector (km)
    v : numpy.ndarray
        Velocity vector (km / s)
    """
    return ((v @ v - k / norm(r)) * r - (r @ v) * v) / k


# rv_pqw: pleiszenburg/hapsira, src/hapsira/core/elements.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `rv_pqw`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def rv_pqw(k, p, ecc, nu):
def rv_pqw(k: Float64, p: Float64, ecc: Float64, nu: Float64) -> Float64[:, :]:
    r"""Returns r and v vectors in perifocal frame.

    Parameters
    ----------
    k : float
        Standard gravitational parameter (km^3 / s^2).
    p : float
        Semi-latus rectum or parameter (km).
    ecc : float
        Eccentricity.
    nu : float
        True anomaly (rad).

    Returns
    -------
    r: numpy.ndarray
        Position. Dimension 3 vector
    v: numpy.ndarray
        Velocity. Dimension 3 vector

    Notes
    -----
    These formulas can be checked at Curtis 3rd. Edition, page 110. Also the
    example proposed is 2.11 of Curtis 3rd Edition book.

    .. math::

        \vec{r} = \frac{h^2}{\mu}\frac{1}{1 + e\cos(\theta)}\begin{bmatrix}
        \cos(\theta)\\
        \sin(\theta)\\
        0
        \end{bmatrix} \\\\\\

        \vec{v} = \frac{h^2}{\mu}\begin{bmatrix}
        -\sin(\theta)\\
        e+\cos(\theta)\\
        0
        \end{bmatrix}

    Examples
    --------
    >>> from hapsira.constants import GM_earth
    >>> k = GM_earth.value  # Earth gravitational parameter
    >>> ecc = 0.3  # Eccentricity
    >>> h = 60000e6  # Angular momentum of the orbit (m**2 / s)
    >>> nu = np.deg2rad(120)  # True Anomaly (rad)
    >>> p = h**2 / k  # Parameter of the orbit
    >>> r, v = rv_pqw(k, p, ecc, nu)
    >>> # Printing the results
    r = [-5312706.25105345  9201877.15251336    0] [m]
    v = [-5753.30180931 -1328.66813933  0] [m]/[s]

    """
    pqw = np.array([[cos(nu), sin(nu), 0], [-sin(nu), ecc + cos(nu), 0]]) * np.array(
        [[p / (1 + ecc * cos(nu))], [sqrt(k / p)]]
    )
    return pqw


# coe2mee: pleiszenburg/hapsira, src/hapsira/core/elements.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `coe2mee`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def coe2mee(p, ecc, inc, raan, argp, nu):
def coe2mee(p: Float64, ecc: Float64, inc: Float64, raan: Float64, argp: Float64, nu: Float64):
    r"""Converts from classical orbital elements to modified equinoctial orbital elements.

    The definition of the modified equinoctial orbital elements is taken from [Walker, 1985].

    The modified equinoctial orbital elements are a set of orbital elements that are useful for
    trajectory analysis and optimization. They are valid for circular, elliptic, and hyperbolic
    orbits. These direct modified equinoctial equations exhibit no singularity for zero
    eccentricity and orbital inclinations equal to 0 and 90 degrees. However, the h and k
    components are singular for an orbital inclination of 180 degrees since the retrograde factor
    is not yet supported.

    Parameters
    ----------
    p : float
        Semi-latus rectum or parameter (km).
    ecc : float
        Eccentricity.
    inc : float
        Inclination (rad).
    raan : float
        Longitude of ascending node (rad).
    argp : float
        Argument of perigee (rad).
    nu : float
        True anomaly (rad).

    Returns
    -------
    p: float
        Semi-latus rectum or parameter
    f: float
        Equinoctial parameter f
    g: float
        Equinoctial parameter g
    h: float
        Equinoctial parameter h
    k: float
        Equinoctial parameter k
    L: float
        Longitude

    Notes
    -----
    The conversion equations are taken directly from the original paper:

    .. math::
        \begin{align}
        p &= a(1-e^2) \\
        f &= e\cos(\omega + \Omega) \\
        g &= e\sin(\omega + \Omega) \\
        h &= \tan(\frac{i}{2})\cos(\Omega) \\
        k &= \tan(\frac{i}{2})\sin(\Omega) \\
        L &= \Omega + \omega + \theta \\
        \end{align}

    """
    if inc == np.pi:
        raise ValueError(
            "Cannot compute modified equinoctial set for 180 degrees orbit inclination due to `h` and `k` singularity."
        )

    lonper = raan + argp
    f = ecc * np.cos(lonper)
    g = ecc * np.sin(lonper)
    h = np.tan(inc / 2) * np.cos(raan)
    k = np.tan(inc / 2) * np.sin(raan)
    L = lonper + nu
    return p, f, g, h, k, L


# rv2coe: pleiszenburg/hapsira, src/hapsira/core/elements.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `rv2coe`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def rv2coe(k, r, v, tol=1e-8):
def rv2coe(k: Float64, r: Float64[:], v: Float64[:], tol: Float64 = 1e-8):
    r"""Converts from vectors to classical orbital elements.

    Parameters
    ----------
    k : float
        Standard gravitational parameter (km^3 / s^2)
    r : numpy.ndarray
        Position vector (km)
    v : numpy.ndarray
        Velocity vector (km / s)
    tol : float, optional
        Tolerance for eccentricity and inclination checks, default to 1e-8

    Returns
    -------
    p : float
        Semi-latus rectum of parameter (km)
    ecc: float
        Eccentricity
    inc: float
        Inclination (rad)
    raan: float
        Right ascension of the ascending nod (rad)
    argp: float
        Argument of Perigee (rad)
    nu: float
        True Anomaly (rad)

    Notes
    -----
    This example is a real exercise from Orbital Mechanics for Engineering
    students by Howard D.Curtis. This exercise is 4.3 of 3rd. Edition, page 200.

    1. First the angular momentum is computed:

    .. math::
        \vec{h} = \vec{r} \times \vec{v}

    2. With it the eccentricity can be solved:

    .. math::
        \begin{align}
        \vec{e} &= \frac{1}{\mu}\left [ \left ( v^{2} - \frac{\mu}{r}\right ) \vec{r}  - (\vec{r} \cdot \vec{v})\vec{v} \right ] \\
        e &= \sqrt{\vec{e}\cdot\vec{e}} \\
        \end{align}

    3. The node vector line is solved:

    .. math::
        \begin{align}
        \vec{N} &= \vec{k} \times \vec{h} \\
        N &= \sqrt{\vec{N}\cdot\vec{N}}
        \end{align}

    4. The rigth ascension node is computed:

    .. math::
        \Omega = \left\{ \begin{array}{lcc}
         cos^{-1}{\left ( \frac{N_{x}}{N} \right )} &   if  & N_{y} \geq  0 \\
         \\ 360^{o} -cos^{-1}{\left ( \frac{N_{x}}{N} \right )} &  if & N_{y} < 0 \\
         \end{array}
        \right.

    5. The argument of perigee:

    .. math::
        \omega  = \left\{ \begin{array}{lcc}
         cos^{-1}{\left ( \frac{\vec{N}\vec{e}}{Ne} \right )} &   if  & e_{z} \geq  0 \\
         \\ 360^{o} -cos^{-1}{\left ( \frac{\vec{N}\vec{e}}{Ne} \right )} &  if & e_{z} < 0 \\
         \end{array}
        \right.

    6. And finally the true anomaly:

    .. math::
        \nu  = \left\{ \begin{array}{lcc}
         cos^{-1}{\left ( \frac{\vec{e}\vec{r}}{er} \right )} &   if  & v_{r} \geq  0 \\
         \\ 360^{o} -cos^{-1}{\left ( \frac{\vec{e}\vec{r}}{er} \right )} &  if & v_{r} < 0 \\
         \end{array}
        \right.

    Examples
    --------
    >>> from hapsira.bodies import Earth
    >>> from astropy import units as u
    >>> k = Earth.k.to_value(u.km ** 3 / u.s ** 2)
    >>> r = np.array([-6045., -3490., 2500.])
    >>> v = np.array([-3.457, 6.618, 2.533])
    >>> p, ecc, inc, raan, argp, nu = rv2coe(k, r, v)
    >>> print("p:", p, "[km]")  # doctest: +FLOAT_CMP
    p: 8530.47436396927 [km]
    >>> print("ecc:", ecc)  # doctest: +FLOAT_CMP
    ecc: 0.17121118195416898
    >>> print("inc:", np.rad2deg(inc), "[deg]")  # doctest: +FLOAT_CMP
    inc: 153.2492285182475 [deg]
    >>> print("raan:", np.rad2deg(raan), "[deg]")  # doctest: +FLOAT_CMP
    raan: 255.27928533439618 [deg]
    >>> print("argp:", np.rad2deg(argp), "[deg]")  # doctest: +FLOAT_CMP
    argp: 20.068139973005362 [deg]
    >>> print("nu:", np.rad2deg(nu), "[deg]")  # doctest: +FLOAT_CMP
    nu: 28.445804984192122 [deg]

    """
    h = cross(r, v)
    n = cross([0, 0, 1], h)
    e = ((v @ v - k / norm(r)) * r - (r @ v) * v) / k
    ecc = norm(e)
    p = (h @ h) / k
    inc = np.arccos(h[2] / norm(h))

    circular = ecc < tol
    equatorial = abs(inc) < tol

    if equatorial and not circular:
        raan = 0
        argp = np.arctan2(e[1], e[0]) % (2 * np.pi)  # Longitude of periapsis
        nu = np.arctan2((h @ cross(e, r)) / norm(h), r @ e)
    elif not equatorial and circular:
        raan = np.arctan2(n[1], n[0]) % (2 * np.pi)
        argp = 0
        # Argument of latitude
        nu = np.arctan2((r @ cross(h, n)) / norm(h), r @ n)
    elif equatorial and circular:
        raan = 0
        argp = 0
        nu = np.arctan2(r[1], r[0]) % (2 * np.pi)  # True longitude
    else:
        a = p / (1 - (ecc**2))
        ka = k * a
        if a > 0:
            e_se = (r @ v) / sqrt(ka)
            e_ce = norm(r) * (v @ v) / k - 1
            nu = E_to_nu(np.arctan2(e_se, e_ce), ecc)
        else:
            e_sh = (r @ v) / sqrt(-ka)
            e_ch = norm(r) * (norm(v) ** 2) / k - 1
            nu = F_to_nu(np.log((e_ch + e_sh) / (e_ch - e_sh)) / 2, ecc)

        raan = np.arctan2(n[1], n[0]) % (2 * np.pi)
        px = r @ n
        py = (r @ cross(h, n)) / norm(h)
        argp = (np.arctan2(py, px) - nu) % (2 * np.pi)

    nu = (nu + np.pi) % (2 * np.pi) - np.pi

    return p, ecc, inc, raan, argp, nu


# mee2coe: pleiszenburg/hapsira, src/hapsira/core/elements.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `mee2coe`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def mee2coe(p, f, g, h, k, L):
def mee2coe(p: Float64, f: Float64, g: Float64, h: Float64, k: Float64, L: Float64):
    r"""Converts from modified equinoctial orbital elements to classical
    orbital elements.

    The definition of the modified equinoctial orbital elements is taken from
    [Walker, 1985].

    .. math::

        \begin{align}
            p &= a(1 - e^{2})\\
            e &= \sqrt{f^{2} + g^{2}}\\
            i &= 2\arctan{(\sqrt{h^{2} + k^{2}})}\\
            raan &= atan2(k, h) \pmod{2\pi}\\
            argp &= (atan2(g, f) - raan) \pmod{2\pi}\\
            nu &= (L - atan2(g, f)) \pmod{2\pi}\\
        \end{align}

    Parameters
    ----------
    p : float
        Semi-latus rectum
    f : float
        Equinoctial parameter f
    g : float
        Equinoctial parameter g
    h : float
        Equinoctial parameter h
    k : float
        Equinoctial parameter k
    L : float
        Longitude

    Returns
    -------
    p: float
        Semi-latus rectum
    ecc: float
        Eccentricity of the orbit
    inc: float
        Inclination of the orbit
    raan: float
        RAAN of orbit
    argp: float
        Argument of the periapsis
    nu: float
        True anomaly

    Notes
    -----
    The conversion is always safe because arctan2 works also for 0, 0
    arguments.

    """
    ecc = np.sqrt(f**2 + g**2)
    inc = 2 * np.arctan(np.sqrt(h**2 + k**2))
    lonper = np.arctan2(g, f)
    raan = np.arctan2(k, h) % (2 * np.pi)
    argp = (lonper - raan) % (2 * np.pi)
    nu = (L - lonper) % (2 * np.pi)
    return p, ecc, inc, raan, argp, nu


# danby_coe: pleiszenburg/hapsira, src/hapsira/core/propagation/danby.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `danby_coe`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def danby_coe(k, p, ecc, inc, raan, argp, nu, tof, numiter=20, rtol=1e-8):
def danby_coe(
    k: Float64,
    p: Float64,
    ecc: Float64,
    inc: Float64,
    raan: Float64,
    argp: Float64,
    nu: Float64,
    tof: Float64,
    numiter: Int64 = 20,
    rtol: Float64 = 1e-8,
) -> Float64:
    semi_axis_a = p / (1 - ecc**2)
    n = np.sqrt(k / np.abs(semi_axis_a) ** 3)

    if ecc == 0:
        # Solving for circular orbit
        M0 = nu  # for circular orbit M = E = nu
        M = M0 + n * tof
        nu = M - 2 * np.pi * np.floor(M / 2 / np.pi)
        return nu

    elif ecc < 1.0:
        # For elliptical orbit
        M0 = E_to_M(nu_to_E(nu, ecc), ecc)
        M = M0 + n * tof
        xma = M - 2 * np.pi * np.floor(M / 2 / np.pi)
        E = xma + 0.85 * np.sign(np.sin(xma)) * ecc

    else:
        # For parabolic and hyperbolic
        M0 = F_to_M(nu_to_F(nu, ecc), ecc)
        M = M0 + n * tof
        xma = M - 2 * np.pi * np.floor(M / 2 / np.pi)
        E = np.log(2 * xma / ecc + 1.8)

    # Iterations begin
    n = 0
    while n <= numiter:
        if ecc < 1.0:
            s = ecc * np.sin(E)
            c = ecc * np.cos(E)
            f = E - s - xma
            fp = 1 - c
            fpp = s
            fppp = c
        else:
            s = ecc * np.sinh(E)
            c = ecc * np.cosh(E)
            f = s - E - xma
            fp = c - 1
            fpp = s
            fppp = c

        if np.abs(f) <= rtol:
            if ecc < 1.0:
                sta = np.sqrt(1 - ecc**2) * np.sin(E)
                cta = np.cos(E) - ecc
            else:
                sta = np.sqrt(ecc**2 - 1) * np.sinh(E)
                cta = ecc - np.cosh(E)

            nu = np.arctan2(sta, cta)
            break
        else:
            delta = -f / fp
            delta_star = -f / (fp + 0.5 * delta * fpp)
            deltak = -f / (fp + 0.5 * delta_star * fpp + delta_star**2 * fppp / 6)
            E = E + deltak
            n += 1
    else:
        raise ValueError("Maximum number of iterations has been reached.")

    return nu


# markley_coe: pleiszenburg/hapsira, src/hapsira/core/propagation/markley.py @ 5d25e627fdbb3192b912c2ed7fa5e647b07088ba
#   function `markley_coe`; licence MIT; Copyright (c) 2023-2024 Sebastian M. Ernst; Copyright (c) 2012-2023 Juan Luis Cano Rodríguez, Jorge Martínez Garrido, and the poliastro development team
#   changed: type annotations added; Numba decorator removed (it was @jit, numba.njit)
#   original signature: def markley_coe(k, p, ecc, inc, raan, argp, nu, tof):
def markley_coe(
    k: Float64,
    p: Float64,
    ecc: Float64,
    inc: Float64,
    raan: Float64,
    argp: Float64,
    nu: Float64,
    tof: Float64,
) -> Float64:
    M0 = E_to_M(nu_to_E(nu, ecc), ecc)
    a = p / (1 - ecc**2)
    n = np.sqrt(k / a**3)
    M = M0 + n * tof

    # Range between -pi and pi
    M = (M + np.pi) % (2 * np.pi) - np.pi

    # Equation (20)
    alpha = (3 * np.pi**2 + 1.6 * (np.pi - np.abs(M)) / (1 + ecc)) / (np.pi**2 - 6)

    # Equation (5)
    d = 3 * (1 - ecc) + alpha * ecc

    # Equation (9)
    q = 2 * alpha * d * (1 - ecc) - M**2

    # Equation (10)
    r = 3 * alpha * d * (d - 1 + ecc) * M + M**3

    # Equation (14)
    w = (np.abs(r) + np.sqrt(q**3 + r**2)) ** (2 / 3)

    # Equation (15)
    E = (2 * r * w / (w**2 + w * q + q**2) + M) / d

    # Equation (26)
    f0 = _kepler_equation(E, M, ecc)
    f1 = _kepler_equation_prime(E, M, ecc)
    f2 = ecc * np.sin(E)
    f3 = ecc * np.cos(E)
    f4 = -f2

    # Equation (22)
    delta3 = -f0 / (f1 - 0.5 * f0 * f2 / f1)
    delta4 = -f0 / (f1 + 0.5 * delta3 * f2 + 1 / 6 * delta3**2 * f3)
    delta5 = -f0 / (
        f1 + 0.5 * delta4 * f2 + 1 / 6 * delta4**2 * f3 + 1 / 24 * delta4**3 * f4
    )

    E += delta5
    nu = E_to_nu(E, ecc)

    return nu

# ---------------------------------------------------------------------------
# Call recipes: the orbit of Vallado's example 2.4 (hapsira's tests of the
# propagators: GM_earth, r0 = [1131.340, -2282.343, 6672.423] km,
# v0 = [-5.64305, 4.30333, 2.42879] km/s, 40 minutes of flight), the
# elements rv2coe gives for it, and the scalars hapsira's callers pass
# (iod.izzo's hyp2f1b(S_1) below 1, vallado's Stumpff functions of psi), with
# small perturbations from fixed seeds.

GM_EARTH = 398600.4418  # km3 / s2


def _rv(seed=0):
    rng = np.random.default_rng(seed)
    r0 = np.array([1131.340, -2282.343, 6672.423]) + rng.uniform(-1.0, 1.0, 3)
    v0 = np.array([-5.64305, 4.30333, 2.42879]) + rng.uniform(-1e-3, 1e-3, 3)
    return r0, v0


def _coe(seed=0):
    r0, v0 = _rv(seed)
    return rv2coe(GM_EARTH, r0, v0)


def _scalar(lo, hi, seed):
    return float(np.random.default_rng(seed).uniform(lo, hi))


def args_hyp2f1b():
    return (_scalar(0.1, 0.6, 1),)


def args_stumpff_c2():
    # the series branch (|psi| <= 1), with math.gamma
    return (_scalar(-0.9, 0.9, 2),)


def args_stumpff_c3():
    return (_scalar(-0.9, 0.9, 3),)


def args_norm():
    return (_rv()[0],)


def args_nu_to_E():
    return (_scalar(-3.0, 3.0, 4), 0.3)


def args_nu_to_F():
    return (_scalar(-1.5, 1.5, 5), 1.7)


def args_E_to_nu():
    return (_scalar(-3.0, 3.0, 6), 0.3)


def args_F_to_nu():
    return (_scalar(-2.0, 2.0, 7), 1.7)


def args_M_to_D():
    return (_scalar(-2.0, 2.0, 8),)


def args_E_to_M():
    return (_scalar(-3.0, 3.0, 9), 0.3)


def args_F_to_M():
    return (_scalar(-2.0, 2.0, 10), 1.7)


def args_fp_angle():
    return (_scalar(-3.0, 3.0, 11), 0.3)


def args__kepler_equation():
    return (_scalar(-3.0, 3.0, 12), _scalar(-3.0, 3.0, 13), 0.3)


def args__kepler_equation_prime():
    return (_scalar(-3.0, 3.0, 14), _scalar(-3.0, 3.0, 15), 0.3)


def args_eccentricity_vector():
    r0, v0 = _rv(16)
    return (GM_EARTH, r0, v0)


def args_rv_pqw():
    p, ecc, inc, raan, argp, nu = _coe(17)
    return (GM_EARTH, p, ecc, nu)


def args_coe2mee():
    p, ecc, inc, raan, argp, nu = _coe(18)
    return (p, ecc, inc, raan, argp, nu)


def args_rv2coe():
    r0, v0 = _rv(19)
    return (GM_EARTH, r0, v0)


def args_mee2coe():
    return coe2mee(*_coe(20))


def args_danby_coe():
    p, ecc, inc, raan, argp, nu = _coe(21)
    return (GM_EARTH, p, ecc, inc, raan, argp, nu, 40 * 60.0)


def args_markley_coe():
    p, ecc, inc, raan, argp, nu = _coe(22)
    return (GM_EARTH, p, ecc, inc, raan, argp, nu, 40 * 60.0)
