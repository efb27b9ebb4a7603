"""Type stubs of `postc._native`, the compiled half of the package."""
from typing import Any, Sequence

class CompileError(Exception): ...

class Function:
    """An exported function of a compiled module."""

    __name__: str
    __qualname__: str
    __doc__: str | None
    __text_signature__: str
    @property
    def parameters(self) -> list[tuple[str, str]]: ...
    @property
    def library(self) -> str: ...
    @property
    def address(self) -> int: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

def compile(
    path: str, *, opt: int, backend: str, include: Sequence[str], cache_dir: str
) -> tuple[str, bool, list[tuple[str, Any]]]: ...

def set_num_threads(n: int) -> None: ...

def run_cli(args: Sequence[str]) -> int: ...
