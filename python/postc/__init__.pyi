"""Type stubs of `postc`: the compiler's Python interface and the
decorators and built-ins of POST Python."""
import os
from typing import Any, Callable, Sequence, TypeVar, overload

import numpy as np
import numpy.typing as npt

from postyp import ArrayType, DType

_F = TypeVar("_F", bound=Callable[..., Any])

__version__: str

class CompileError(Exception):
    """A POST module did not compile; the message holds the located
    diagnostics."""

class Module:
    """A compiled POST module: exported functions and ufuncs are
    attributes."""

    __name__: str
    path: str
    library: str | None
    cached: bool
    def __getattr__(self, name: str) -> Any: ...

def compile(
    path_or_source: str | os.PathLike[str],
    *,
    opt: int = 3,
    backend: str = "llvm",
    include: Sequence[str | os.PathLike[str]] = (),
) -> Module: ...
def cache_dir() -> str: ...
def jit_disabled() -> bool: ...
def set_num_threads(n: int) -> None: ...
def get_num_threads() -> int: ...
@overload
def jit(fn: _F) -> _F: ...
@overload
def jit(fn: None = None, *, opt: int = 3, backend: str = "llvm",
        include: Sequence[str | os.PathLike[str]] = ()) -> Callable[[_F], _F]: ...

class UFunc:
    """A POST ufunc under CPython (compiled modules give numpy.ufunc)."""

    py_func: Callable[..., Any]
    signature: str
    nin: int
    nout: int
    parallel: bool
    def __call__(self, *args: Any) -> Any: ...

@overload
def ufunc(arg: Callable[..., Any], *, parallel: bool = False, **options: Any) -> UFunc: ...
@overload
def ufunc(arg: str | Sequence[str] | None = None, *, parallel: bool = False,
          **options: Any) -> Callable[[Callable[..., Any]], UFunc]: ...
@overload
def gpu(fn: _F) -> _F: ...
@overload
def gpu(fn: None = None, *, fallback: bool = False) -> Callable[[_F], _F]: ...
def kernel(fn: _F) -> _F: ...
def cold(fn: _F) -> _F: ...
def noinline(fn: _F) -> _F: ...
def empty(n: int, dtype: DType) -> npt.NDArray[Any]: ...
def shared(array_type: ArrayType) -> npt.NDArray[Any]: ...
def sync_threads() -> None: ...
def atomic_add(a: npt.NDArray[Any], *index_and_value: Any) -> Any: ...
def launch(fn: Callable[..., Any], grid: tuple[int, int, int], block: tuple[int, int, int], *args: Any) -> None: ...

class _Coords:
    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...
    @property
    def z(self) -> int: ...

thread_idx: _Coords
block_idx: _Coords
block_dim: _Coords
grid_dim: _Coords
