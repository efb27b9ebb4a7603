"""Plane geometry: circle area (exported under an alias), polygon area and
perimeter with wrap-around negative indices, point-in-polygon."""
from postyp import Bool, Float64, Int64
from postc.math import hypot, fabs

__all__ = ["circle_area", "area", "ring_area", "shoelace", "perimeter",
           "inside", "in_box", "clamp"]

PI: Float64 = 3.141592653589793
HALF = 0.5


def circle_area(r: Float64) -> Float64:
    """pi r**2."""
    return PI * r * r


area = circle_area


def ring_area(r_out: Float64, r_in: Float64) -> Float64:
    """Area between two circles, through the alias."""
    return area(r_out) - area(r_in)


def shoelace(x: Float64[:], y: Float64[:]) -> Float64:
    """|sum x[i-1] y[i] - x[i] y[i-1]| / 2; x[-1] closes the polygon."""
    s = 0.0
    for i in range(len(x)):
        s += x[i - 1] * y[i] - x[i] * y[i - 1]
    return fabs(s) * HALF


def perimeter(x: Float64[:], y: Float64[:]) -> Float64:
    """Sum of edge lengths, closing edge included (hypot: tolerance)."""
    p = 0.0
    n = len(x)
    for i in range(n):
        p += hypot(x[i] - x[i - 1], y[i] - y[i - 1])
    return p


def inside(x: Float64[:], y: Float64[:], px: Float64, py: Float64) -> Bool:
    """Even-odd ray casting test."""
    n = len(x)
    c = False
    j = n - 1
    for i in range(n):
        if (y[i] > py) != (y[j] > py):
            xc = (x[j] - x[i]) * (py - y[i]) / (y[j] - y[i]) + x[i]
            if px < xc:
                c = not c
        j = i
    return c


def in_box(px: Float64, py: Float64, x0: Float64, x1: Float64, y0: Float64, y1: Float64) -> Bool:
    """x0 <= px < x1 and y0 <= py < y1 (chained comparisons)."""
    return x0 <= px < x1 and y0 <= py < y1


def clamp(v: Int64, lo: Int64, hi: Int64) -> Int64:
    """min(max(v, lo), hi)."""
    return min(max(v, lo), hi)
