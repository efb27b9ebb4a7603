"""The text of values in `.expected` files (tests/programs/README.md gives
the format), shared by the oracles of tests/programs and tests/py."""

import math

import numpy as np


def fmt_float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x.hex()


def fmt_str(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        elif o < 0x80:
            out.append(ch)
        else:
            out.append("\\u{%x}" % o)
    out.append('"')
    return "".join(out)


def fmt_bytes(b):
    out = ['b"']
    for o in b:
        ch = chr(o)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        else:
            out.append("\\x%02x" % o)
    out.append('"')
    return "".join(out)


def root_of(a):
    """The array whose buffer a view looks into."""
    r = a
    while isinstance(r.base, np.ndarray):
        r = r.base
    assert r.flags.c_contiguous or r.flags.f_contiguous
    return r


def memory_values(r):
    """A whole buffer's values in memory order."""
    return list(r.reshape(-1, order="A"))
