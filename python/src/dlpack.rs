//! DLPack's tensor structs (docs/abi.md §3; the versioned ones of DLPack
//! 1.0 too) and the NumPy type numbers of the dtypes.

use postc_ir::DType;
use std::ffi::c_void;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLDevice {
    pub device_type: i32,
    pub device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDataType {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLTensor {
    pub data: *mut c_void,
    pub device: DLDevice,
    pub ndim: i32,
    pub dtype: DLDataType,
    pub shape: *mut i64,
    pub strides: *mut i64,
    pub byte_offset: u64,
}

#[repr(C)]
pub struct DLManagedTensor {
    pub dl_tensor: DLTensor,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// DLPack's version of a versioned tensor.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLPackVersion {
    pub major: u32,
    pub minor: u32,
}

/// A tensor of DLPack 1.0's versioned protocol (capsule name
/// `dltensor_versioned`): its version and flags come first.
#[repr(C)]
pub struct DLManagedTensorVersioned {
    pub version: DLPackVersion,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    /// `DLPACK_FLAG_BITMASK_READ_ONLY` (1), `..._IS_COPIED` (2), ...
    pub flags: u64,
    pub dl_tensor: DLTensor,
}

/// `kDLCPU`, and the pinned host memory kinds compiled code may read.
pub const HOST_DEVICES: [i32; 3] = [1, 3, 11];

/// The name of a DLPack device type, for messages.
pub fn device_name(t: i32) -> String {
    let name = match t {
        1 => "CPU",
        2 => "CUDA",
        3 => "CUDA host",
        4 => "OpenCL",
        7 => "Vulkan",
        8 => "Metal",
        9 => "VPI",
        10 => "ROCm",
        11 => "ROCm host",
        13 => "CUDA managed",
        14 => "oneAPI",
        _ => return format!("device type {t}"),
    };
    name.to_owned()
}

/// The DLPack element type of an array of `d`.
pub fn dl_dtype(d: DType) -> DLDataType {
    let (code, bits) = postc_codegen::abi::dlpack_dtype(d);
    DLDataType { code, bits, lanes: 1 }
}

/// The dtype of a DLPack element type (`None`: no POST dtype is it).
pub fn dtype_of_dl(t: DLDataType) -> Option<DType> {
    DType::ALL.into_iter().find(|d| !d.is_text() && dl_dtype(*d) == t)
}

// The type numbers below are those of an LP64 platform (`long` is 64 bits).
#[cfg(not(target_pointer_width = "64"))]
compile_error!("the postc Python package supports 64-bit platforms only");

/// NumPy's type number of a dtype (`None` for Str and Bytes, which NumPy
/// arrays do not hold as POST does).
pub fn npy_type(d: DType) -> Option<i32> {
    Some(match d {
        DType::Bool => 0,
        DType::Int8 => 1,
        DType::UInt8 => 2,
        DType::Int16 => 3,
        DType::UInt16 => 4,
        DType::Int32 => 5,
        DType::UInt32 => 6,
        DType::Int64 => 7,
        DType::UInt64 => 8,
        DType::Float32 => 11,
        DType::Float64 => 12,
        DType::Complex64 => 14,
        DType::Complex128 => 15,
        DType::Float16 => 23,
        DType::Str | DType::Bytes => return None,
    })
}

/// Whether NumPy type number `got` is the element type of `want` (a type
/// number of [`npy_type`]): `long long` is the same 64-bit integer as
/// `long` on LP64.
pub fn same_npy_type(want: i32, got: i32) -> bool {
    want == got || (want == 7 && got == 9) || (want == 8 && got == 10)
}

/// The dtype of a NumPy array element: its kind character and item size.
pub fn dtype_of_numpy(kind: u8, itemsize: usize) -> Option<DType> {
    Some(match (kind, itemsize) {
        (b'b', 1) => DType::Bool,
        (b'i', 1) => DType::Int8,
        (b'i', 2) => DType::Int16,
        (b'i', 4) => DType::Int32,
        (b'i', 8) => DType::Int64,
        (b'u', 1) => DType::UInt8,
        (b'u', 2) => DType::UInt16,
        (b'u', 4) => DType::UInt32,
        (b'u', 8) => DType::UInt64,
        (b'f', 2) => DType::Float16,
        (b'f', 4) => DType::Float32,
        (b'f', 8) => DType::Float64,
        (b'c', 8) => DType::Complex64,
        (b'c', 16) => DType::Complex128,
        _ => return None,
    })
}

/// NumPy's name of a dtype, for messages (`float64`).
pub fn numpy_name(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::Int8 => "int8",
        DType::Int16 => "int16",
        DType::Int32 => "int32",
        DType::Int64 => "int64",
        DType::UInt8 => "uint8",
        DType::UInt16 => "uint16",
        DType::UInt32 => "uint32",
        DType::UInt64 => "uint64",
        DType::Float16 => "float16",
        DType::Float32 => "float32",
        DType::Float64 => "float64",
        DType::Complex64 => "complex64",
        DType::Complex128 => "complex128",
        DType::Str => "str",
        DType::Bytes => "bytes",
    }
}
