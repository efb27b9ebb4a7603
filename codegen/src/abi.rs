//! What the ABI fixes for every backend, decided once: how array dtypes
//! are described to DLPack.

use postc_ir::DType;

/// DLPack's type codes.
pub mod code {
    pub const INT: u8 = 0;
    pub const UINT: u8 = 1;
    pub const FLOAT: u8 = 2;
    pub const OPAQUE_HANDLE: u8 = 3;
    pub const COMPLEX: u8 = 5;
    pub const BOOL: u8 = 6;
}

/// The DLPack `DLDataType` (`code`, `bits`; one lane) of arrays of a dtype.
/// Str and Bytes elements are `{ptr, i64}` fat pointers, for which DLPack
/// has no type: they travel as opaque handles of 128 bits.
pub fn dlpack_dtype(d: DType) -> (u8, u8) {
    let c = match d {
        DType::Bool => code::BOOL,
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => code::INT,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => code::UINT,
        DType::Float16 | DType::Float32 | DType::Float64 => code::FLOAT,
        DType::Complex64 | DType::Complex128 => code::COMPLEX,
        DType::Str | DType::Bytes => code::OPAQUE_HANDLE,
    };
    (c, d.bits() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtypes_map_to_dlpack_types() {
        assert_eq!(dlpack_dtype(DType::Bool), (6, 8));
        assert_eq!(dlpack_dtype(DType::Int32), (0, 32));
        assert_eq!(dlpack_dtype(DType::UInt8), (1, 8));
        assert_eq!(dlpack_dtype(DType::Float16), (2, 16));
        assert_eq!(dlpack_dtype(DType::Complex64), (5, 64));
        assert_eq!(dlpack_dtype(DType::Str), (3, 128));
        assert_eq!(dlpack_dtype(DType::Bytes), (3, 128));
    }
}
