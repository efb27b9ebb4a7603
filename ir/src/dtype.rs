//! The postyp dtypes: every scalar and element type a POST value can have.

use std::fmt;

/// A dtype. The discriminant is also the [`crate::TypeId`] of the scalar
/// type, so passes can name `Int64` without touching the interner.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum DType {
    Bool = 0,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    Float32,
    Float64,
    Complex64,
    Complex128,
    Str,
    Bytes,
}

/// The broad family a dtype belongs to; operand rules are stated per family.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DTypeKind {
    Bool,
    SignedInt,
    UnsignedInt,
    Float,
    Complex,
    Str,
    Bytes,
}

impl DType {
    pub const ALL: [DType; 16] = [
        DType::Bool,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::UInt8,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
        DType::Str,
        DType::Bytes,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::Int8 => "Int8",
            DType::Int16 => "Int16",
            DType::Int32 => "Int32",
            DType::Int64 => "Int64",
            DType::UInt8 => "UInt8",
            DType::UInt16 => "UInt16",
            DType::UInt32 => "UInt32",
            DType::UInt64 => "UInt64",
            DType::Float16 => "Float16",
            DType::Float32 => "Float32",
            DType::Float64 => "Float64",
            DType::Complex64 => "Complex64",
            DType::Complex128 => "Complex128",
            DType::Str => "Str",
            DType::Bytes => "Bytes",
        }
    }

    pub fn from_name(name: &str) -> Option<DType> {
        DType::ALL.iter().copied().find(|d| d.name() == name)
    }

    pub fn from_index(i: u32) -> Option<DType> {
        DType::ALL.get(i as usize).copied()
    }

    pub fn kind(self) -> DTypeKind {
        use DType::*;
        match self {
            Bool => DTypeKind::Bool,
            Int8 | Int16 | Int32 | Int64 => DTypeKind::SignedInt,
            UInt8 | UInt16 | UInt32 | UInt64 => DTypeKind::UnsignedInt,
            Float16 | Float32 | Float64 => DTypeKind::Float,
            Complex64 | Complex128 => DTypeKind::Complex,
            Str => DTypeKind::Str,
            Bytes => DTypeKind::Bytes,
        }
    }

    pub fn is_int(self) -> bool {
        matches!(self.kind(), DTypeKind::SignedInt | DTypeKind::UnsignedInt)
    }
    pub fn is_signed_int(self) -> bool {
        self.kind() == DTypeKind::SignedInt
    }
    pub fn is_unsigned_int(self) -> bool {
        self.kind() == DTypeKind::UnsignedInt
    }
    pub fn is_float(self) -> bool {
        self.kind() == DTypeKind::Float
    }
    pub fn is_complex(self) -> bool {
        self.kind() == DTypeKind::Complex
    }
    /// Bool, integers, floats and complex: what a numeric cast accepts.
    pub fn is_numeric(self) -> bool {
        !matches!(self.kind(), DTypeKind::Str | DTypeKind::Bytes)
    }
    /// Str and Bytes: `{ptr, i64}` fat pointers.
    pub fn is_text(self) -> bool {
        matches!(self.kind(), DTypeKind::Str | DTypeKind::Bytes)
    }

    /// Width in bits of one element (`Str`/`Bytes`: the fat pointer).
    pub fn bits(self) -> u32 {
        use DType::*;
        match self {
            Bool | Int8 | UInt8 => 8,
            Int16 | UInt16 | Float16 => 16,
            Int32 | UInt32 | Float32 => 32,
            Int64 | UInt64 | Float64 | Complex64 => 64,
            Complex128 | Str | Bytes => 128,
        }
    }

    /// The unsigned integer dtype that holds a float dtype's bits, and the
    /// float dtype whose bits an unsigned integer dtype of its width holds:
    /// the pairs a `bitcast` may join.
    pub fn bits_partner(self) -> Option<DType> {
        use DType::*;
        Some(match self {
            Float16 => UInt16,
            Float32 => UInt32,
            Float64 => UInt64,
            UInt16 => Float16,
            UInt32 => Float32,
            UInt64 => Float64,
            _ => return None,
        })
    }

    /// Size in bytes of one array element.
    pub fn size_bytes(self) -> u32 {
        self.bits() / 8
    }

    /// The real dtype of a complex dtype's parts.
    pub fn complex_part(self) -> Option<DType> {
        match self {
            DType::Complex64 => Some(DType::Float32),
            DType::Complex128 => Some(DType::Float64),
            _ => None,
        }
    }

    /// Smallest and largest value of an integer dtype, as `i128`.
    pub fn int_range(self) -> Option<(i128, i128)> {
        use DType::*;
        Some(match self {
            Int8 => (i8::MIN as i128, i8::MAX as i128),
            Int16 => (i16::MIN as i128, i16::MAX as i128),
            Int32 => (i32::MIN as i128, i32::MAX as i128),
            Int64 => (i64::MIN as i128, i64::MAX as i128),
            UInt8 => (0, u8::MAX as i128),
            UInt16 => (0, u16::MAX as i128),
            UInt32 => (0, u32::MAX as i128),
            UInt64 => (0, u64::MAX as i128),
            _ => return None,
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_index_is_discriminant() {
        for (i, d) in DType::ALL.iter().enumerate() {
            assert_eq!(DType::from_name(d.name()), Some(*d));
            assert_eq!(*d as usize, i);
            assert_eq!(DType::from_index(i as u32), Some(*d));
        }
        assert_eq!(DType::from_name("Float128"), None);
    }

    #[test]
    fn families() {
        assert!(DType::UInt16.is_unsigned_int() && DType::UInt16.is_int());
        assert!(!DType::Bool.is_int());
        assert_eq!(DType::Complex64.complex_part(), Some(DType::Float32));
        assert_eq!(DType::Int8.int_range(), Some((-128, 127)));
        assert_eq!(DType::Float16.size_bytes(), 2);
    }
}

/// DLPack's type codes.
pub mod dlpack_code {
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
        DType::Bool => dlpack_code::BOOL,
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => dlpack_code::INT,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => dlpack_code::UINT,
        DType::Float16 | DType::Float32 | DType::Float64 => dlpack_code::FLOAT,
        DType::Complex64 | DType::Complex128 => dlpack_code::COMPLEX,
        DType::Str | DType::Bytes => dlpack_code::OPAQUE_HANDLE,
    };
    (c, d.bits() as u8)
}

/// The fields of DLPack's `DLTensor` that `raw.field` takes the address of,
/// numbered by their order in the struct, as C names them (`dlpack.h`).
pub const DLTENSOR_FIELDS: [&str; 9] = [
    "data",
    "device.device_type",
    "ndim",
    "dtype.code",
    "dtype.bits",
    "dtype.lanes",
    "shape",
    "strides",
    "byte_offset",
];

/// The byte offset of `DLTensor` field `index` where pointers take `ptr`
/// bytes (8, or 4 on wasm32): `data`, the two `int32_t` of `device`,
/// `ndim`, the four bytes of `dtype`, `shape`, `strides`, then the
/// `int64_t` `byte_offset` at a multiple of 8.
pub fn dltensor_offset(index: u32, ptr: u64) -> Option<u64> {
    let after_dtype = [0, ptr, ptr + 8, ptr + 12, ptr + 13, ptr + 14, ptr + 16, 2 * ptr + 16];
    match index {
        8 => Some((3 * ptr + 16).next_multiple_of(8)),
        _ => after_dtype.get(index as usize).copied(),
    }
}
