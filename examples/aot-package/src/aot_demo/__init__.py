"""Kernels compiled ahead of time by postc: `kernels` is an extension
module in the wheel, built from kernels.py by the `postc` build hook."""
from .kernels import hypot, weighted_sum

__all__ = ["hypot", "weighted_sum"]
