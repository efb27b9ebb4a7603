"""Functions of POST modules called through the module's name, as real
code calls a project's helpers (`import pkg.stats as stats`,
`stats.std(x)`): `import a.b`, `import a.b as s`, and a module reading
its own functions and constants through an import of itself."""
import geom.vec
import geom.vec as gv
import kwlib.blend as kb
import module_imports as me
from postc import empty
from postyp import Float64, Int64

SCALE = 3.0


def dot_twice(a: Float64[3], b: Float64[3]) -> Float64:
    """One function through both names of its module."""
    return geom.vec.dot3(a, b) + gv.dot3(a, b)


def norm_of_cross(a: Float64[3], b: Float64[3]) -> Float64:
    """|a x b|, the cross product written into a scratch array."""
    w = empty(3, Float64)
    gv.cross3(a, b, w)
    return gv.norm3(w)


def blended(x: Float64, y: Float64, levels: Int64) -> Float64:
    """Keyword arguments and defaults through the module's name."""
    return kb.lerp(x, y, t=0.25) + kb.ramp(x, steps=levels) + kb.shift(y, by=0.5)


def scaled(x: Float64) -> Float64:
    """x times this module's constant, read through the module."""
    return x * me.SCALE


def scaled_twice(x: Float64) -> Float64:
    """This module's function, called through the module."""
    return me.scaled(me.scaled(x))


def shadowed(kb: Float64, gv: Int64) -> Float64:
    """Parameters named as the modules: the parameters, not the modules."""
    return kb * gv
