//! DLPack's tensor structs (docs/abi.md §3; the versioned ones of DLPack
//! 1.0 too), the checks a producer's tensor passes before compiled code
//! sees it, and the NumPy type numbers of the dtypes.
//!
//! A tensor from `__dlpack__` is whatever the producer wrote: any object
//! may build a capsule by hand. [`check_tensor`] reads the fixed header
//! first (device, dtype, rank, null pointers), follows the shape and
//! strides pointers only once the rank is the parameter's, and copies what
//! it read, so that compiled code sees exactly the values checked, which
//! the producer cannot change during the call.

use postc_ir::DType;
use smallvec::SmallVec;
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
    let (code, bits) = postc_ir::dtype::dlpack_dtype(d);
    DLDataType { code, bits, lanes: 1 }
}

/// The dtype of a DLPack element type (`None`: no POST dtype is it).
pub fn dtype_of_dl(t: DLDataType) -> Option<DType> {
    DType::ALL.into_iter().find(|d| !d.is_text() && dl_dtype(*d) == t)
}

/// The alignment compiled code assumes of an element of `d`: that of its C
/// type (a complex number's is its parts').
pub fn alignment(d: DType) -> u64 {
    let size = u64::from(d.size_bytes());
    if d.is_complex() {
        size / 2
    } else {
        size.clamp(1, 8)
    }
}

/// Why a producer's tensor is refused: the message of a `TypeError` or a
/// `ValueError`, to follow the parameter's name.
#[derive(Debug)]
pub enum Refusal {
    Type(String),
    Value(String),
}

/// A producer's tensor, checked: the call's own copy of its shape and
/// strides (in elements; `None`: compact row-major, as the producer said),
/// and whether its first element is aligned for its type (else the call
/// passes an aligned copy: aligned.rs).
pub struct CheckedTensor {
    pub data: *mut c_void,
    pub device: DLDevice,
    pub byte_offset: u64,
    pub shape: SmallVec<[i64; 4]>,
    pub strides: Option<SmallVec<[i64; 4]>>,
    pub aligned: bool,
}

/// The highest number of elements and of bytes a tensor may span: what
/// NumPy's `npy_intp` holds, so that compiled code's 64-bit index and
/// offset arithmetic cannot overflow.
const MAX_SPAN: i128 = i64::MAX as i128;

/// Checks a producer's tensor for a parameter of `dtype` and `rank` (the
/// rank POST's type gives it; `expected` spells the type, for messages)
/// and copies its shape and strides: a host device, exactly the dtype
/// (code, bits, one lane), the rank, no null shape (nor null strides'
/// alternative: compact), no negative extent, an element count and a byte
/// span that fit in 64-bit signed arithmetic, no null data under a nonzero
/// size, and elements that lie between address 0 and the top of the
/// address space (a view whose strides wrap around it is refused). Whether
/// the first element is aligned for its type is reported, not refused.
///
/// # Safety
/// `t` must point to a readable `DLTensor` header; when its `ndim` is
/// `rank`, its `shape` and `strides`, where not null, must point to `ndim`
/// readable entries (the producer's promise; nothing here can tell a
/// dangling pointer from a live one).
pub unsafe fn check_tensor(
    t: *const DLTensor,
    dtype: DType,
    rank: usize,
    expected: &str,
) -> Result<CheckedTensor, Refusal> {
    // The fixed header, copied: nothing below reads it twice.
    let header = std::ptr::read(t);
    if !HOST_DEVICES.contains(&header.device.device_type) {
        return Err(Refusal::Value(format!(
            "expects an array in host memory, got one on {}",
            device_name(header.device.device_type)
        )));
    }
    if dtype_of_dl(header.dtype) != Some(dtype) {
        let got = match dtype_of_dl(header.dtype) {
            Some(d) => numpy_name(d).to_owned(),
            None => format!(
                "DLPack type code {} of {} bits ({} lanes)",
                header.dtype.code, header.dtype.bits, header.dtype.lanes
            ),
        };
        return Err(Refusal::Type(format!("expects {} ({expected}), got an array of {got}", an_array_of(dtype))));
    }
    if header.ndim < 0 {
        return Err(Refusal::Value(format!(
            "expects a {rank}-dimensional array ({expected}), got a DLPack tensor of rank {}",
            header.ndim
        )));
    }
    let ndim = header.ndim as usize;
    if ndim != rank {
        return Err(Refusal::Value(format!(
            "expects a {rank}-dimensional array ({expected}), got {ndim} dimension{}",
            if ndim == 1 { "" } else { "s" }
        )));
    }
    if ndim > 0 && header.shape.is_null() {
        return Err(Refusal::Value(format!(
            "got a DLPack tensor of {ndim} dimension{} whose shape pointer is null",
            if ndim == 1 { "" } else { "s" }
        )));
    }
    // The rank is the parameter's: the pointers may now be followed.
    let shape: SmallVec<[i64; 4]> =
        if ndim == 0 { SmallVec::new() } else { std::slice::from_raw_parts(header.shape, ndim).into() };
    let strides: Option<SmallVec<[i64; 4]>> =
        (ndim > 0 && !header.strides.is_null()).then(|| std::slice::from_raw_parts(header.strides, ndim).into());
    if let Some((axis, n)) = shape.iter().enumerate().find(|(_, n)| **n < 0) {
        return Err(Refusal::Value(format!(
            "got a DLPack tensor with the negative extent {n} on axis {axis} (shape {shape:?})"
        )));
    }
    let elem = i128::from(dtype.size_bytes());
    let mut checked = CheckedTensor {
        data: header.data,
        device: header.device,
        byte_offset: header.byte_offset,
        shape,
        strides,
        aligned: true,
    };
    if checked.shape.contains(&0) {
        // No element: nothing is addressed.
        return Ok(checked);
    }
    let too_large = || {
        Refusal::Value(format!(
            "got a DLPack tensor of shape {:?} and strides {:?}: its elements span more than 2**63 bytes",
            checked.shape, checked.strides
        ))
    };
    let mut count: i128 = 1;
    for &n in &checked.shape {
        count = count.checked_mul(i128::from(n)).filter(|c| *c <= MAX_SPAN).ok_or_else(too_large)?;
    }
    // Byte offsets of the lowest and the highest element from the first.
    let (mut low, mut high) = (0i128, 0i128);
    match &checked.strides {
        None => high = (count - 1) * elem,
        Some(strides) => {
            for (&n, &s) in checked.shape.iter().zip(strides) {
                let step = i128::from(n - 1)
                    .checked_mul(i128::from(s))
                    .and_then(|x| x.checked_mul(elem))
                    .filter(|x| x.abs() <= MAX_SPAN)
                    .ok_or_else(too_large)?;
                if step < 0 {
                    low += step;
                } else {
                    high += step;
                }
            }
        }
    }
    if high - low + elem > MAX_SPAN {
        return Err(too_large());
    }
    if checked.data.is_null() {
        return Err(Refusal::Value(format!(
            "got a DLPack tensor of {count} element{} whose data pointer is null",
            if count == 1 { "" } else { "s" }
        )));
    }
    let first = checked.data as u128 + u128::from(checked.byte_offset);
    let top = u128::from(u64::MAX) + 1;
    let first_i = first as i128;
    if first >= top || first_i + low < 0 || first_i + high + elem > top as i128 {
        return Err(Refusal::Value(format!(
            "got a DLPack tensor whose elements wrap around the address space (data {:#x}, byte offset {}, shape {:?}, strides {:?})",
            checked.data as usize, checked.byte_offset, checked.shape, checked.strides
        )));
    }
    // The strides are whole elements: the first element's alignment is
    // every element's.
    checked.aligned = first % u128::from(alignment(dtype)) == 0;
    Ok(checked)
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

/// "a float64 array", "an int32 array": an array of `d`, for messages.
pub fn an_array_of(d: DType) -> String {
    let name = numpy_name(d);
    format!("{} {name} array", if name.starts_with("int") { "an" } else { "a" })
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
