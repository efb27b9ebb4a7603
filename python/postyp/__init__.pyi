"""Type stubs of `postyp`: the POST dtypes (annotations and casts) and the
`Out` marker."""
from typing import Any

import numpy as np

class ArrayType:
    dtype: DType
    dims: tuple[int | None, ...]
    ndim: int
    layout: str
    @property
    def static(self) -> bool: ...
    def __or__(self, other: None) -> Any: ...
    def __ror__(self, other: None) -> Any: ...

class OutType:
    inner: ArrayType

class _OutMarker:
    def __getitem__(self, inner: ArrayType) -> OutType: ...

Out: _OutMarker

class DType:
    name: str
    np: type[np.generic] | None
    kind: str
    def __getitem__(self, items: Any) -> ArrayType: ...
    def __call__(self, x: Any) -> Any: ...
    def __or__(self, other: None) -> Any: ...
    def __ror__(self, other: None) -> Any: ...

Bool: DType
Int8: DType
Int16: DType
Int32: DType
Int64: DType
UInt8: DType
UInt16: DType
UInt32: DType
UInt64: DType
Float16: DType
Float32: DType
Float64: DType
Complex64: DType
Complex128: DType
Str: DType
Bytes: DType
ALL: list[DType]
INT_RANGES: dict[str, tuple[int, int]]

def dtype_of(annotation: Any) -> DType | None: ...
