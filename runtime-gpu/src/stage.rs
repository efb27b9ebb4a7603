//! Staging of DLPack tensors for kernels: what the launchers of `kernel`
//! and plain `gpu` functions call for every array argument.
//!
//! A staged tensor is a `DLTensor` in device memory (with its shape and
//! strides after it) whose data is either the caller's own buffer, when that
//! is already device memory, or a copy of the byte span its elements reach,
//! in the device arena. The caller marks the arena before staging and
//! restores it after [`postc_gpu_unstage_tensor`].

use std::ffi::c_void;

use crate::arena::postc_gpu_arena_alloc;
use crate::backend::{DevicePtr, Handle};
use crate::{fatal, ok, rt};

/// DLPack's `DLTensor` (dlpack.h, version 0.8 and later).
#[repr(C)]
pub struct DLTensor {
    pub data: *mut c_void,
    pub device_type: i32,
    pub device_id: i32,
    pub ndim: i32,
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
    pub shape: *const i64,
    pub strides: *const i64,
    pub byte_offset: u64,
}

const KDL_CPU: i32 = 1;
const KDL_CUDA: i32 = 2;
const KDL_ROCM: i32 = 10;
const KDL_CUDA_MANAGED: i32 = 13;

/// The most dimensions a staged tensor may have.
const MAX_NDIM: i32 = 64;

/// What [`postc_gpu_stage_tensor`] did, for [`postc_gpu_unstage_tensor`].
/// Launchers keep one per array argument (six 64-bit words).
#[repr(C)]
pub struct Staged {
    /// The device `DLTensor`.
    pub tensor: *mut c_void,
    /// The first byte of the span in the caller's buffer.
    pub host: *mut u8,
    /// The span's copy on the device.
    pub device: DevicePtr,
    pub bytes: u64,
    /// 1 when the caller's buffer is device memory, used in place.
    pub in_place: u64,
    /// The stream the copies are ordered on.
    pub stream: Handle,
}

/// The element strides of `t`: its own, or row-major ones when it has
/// none (saturating, so a shape too large for memory stays too large).
///
/// # Safety
/// `t` is a valid tensor of `ndim` dimensions.
unsafe fn element_strides(t: &DLTensor, shape: &[i64]) -> Vec<i64> {
    if !t.strides.is_null() && !shape.is_empty() {
        return std::slice::from_raw_parts(t.strides, shape.len()).to_vec();
    }
    let mut strides = vec![0i64; shape.len()];
    let mut contiguous = 1i64;
    for a in (0..shape.len()).rev() {
        strides[a] = contiguous;
        contiguous = contiguous.saturating_mul(shape[a]);
    }
    strides
}

/// Lowest and highest byte offsets (relative to the first element) any
/// element reaches, plus one element: `None` for an empty tensor.
fn span(shape: &[i64], strides: &[i64], elsize: u64, what: &str) -> Option<(i64, u64)> {
    if shape.iter().any(|&n| n < 0) {
        fatal(&format!("{what}: a tensor has a negative size in its shape {shape:?}"));
    }
    if shape.contains(&0) {
        return None;
    }
    let elsize = elsize as i128;
    let (mut lo, mut hi) = (0i128, 0i128);
    for (&n, &st) in shape.iter().zip(strides) {
        let reach = (n as i128 - 1) * st as i128 * elsize;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    let bytes = hi - lo + elsize;
    match (i64::try_from(lo), u64::try_from(bytes)) {
        (Ok(lo), Ok(bytes)) if bytes < (1 << 48) => Some((lo, bytes)),
        _ => fatal(&format!("{what}: a tensor of shape {shape:?} spans more memory than exists")),
    }
}

/// Stages `t` for a kernel launched on `stream` and returns its device
/// `DLTensor`. Host memory (`kDLCPU` and pinned host tensors) is copied into
/// the stream's device arena; a tensor on the device (`kDLCUDA`,
/// `kDLCUDAManaged`, `kDLROCM`, or data the driver reports as device memory)
/// is used in place.
#[no_mangle]
pub unsafe extern "C" fn postc_gpu_stage_tensor(t: *const DLTensor, rec: *mut Staged, stream: Handle) -> *mut c_void {
    const WHAT: &str = "postc_gpu_stage_tensor";
    if t.is_null() || rec.is_null() {
        fatal(&format!("{WHAT}: a tensor argument is NULL"));
    }
    let t = &*t;
    if !(0..=MAX_NDIM).contains(&t.ndim) || (t.ndim > 0 && t.shape.is_null()) {
        fatal(&format!("{WHAT}: a tensor has {} dimensions and shape {:?}", t.ndim, t.shape));
    }
    let b = rt();
    let in_place = matches!(t.device_type, KDL_CUDA | KDL_CUDA_MANAGED | KDL_ROCM)
        || (t.device_type != KDL_CPU && !t.data.is_null() && b.is_device_ptr(t.data as DevicePtr));
    let nd = t.ndim as usize;
    // A 0-d tensor may have NULL shape and strides.
    let shape: &[i64] = if nd == 0 { &[] } else { std::slice::from_raw_parts(t.shape, nd) };
    let strides = element_strides(t, shape);
    let elsize = (u64::from(t.bits) * u64::from(t.lanes.max(1))).div_ceil(8);
    let staged = if in_place { None } else { span(shape, &strides, elsize, WHAT) };
    let (data, byte_offset, host, device, bytes) = match staged {
        _ if in_place => (t.data, t.byte_offset, std::ptr::null_mut(), 0, 0),
        None => (std::ptr::null_mut(), 0, std::ptr::null_mut(), 0, 0),
        Some((lo, bytes)) => {
            let host = (t.data as *mut u8).wrapping_add(t.byte_offset as usize).wrapping_offset(lo as isize);
            let d = postc_gpu_arena_alloc(bytes, stream) as *mut u8;
            ok(b, b.memcpy(d as DevicePtr, host as DevicePtr, bytes as usize, stream));
            (d.wrapping_offset(-(lo as isize)) as *mut c_void, 0, host, d as DevicePtr, bytes)
        }
    };
    // The device tensor: header, shape, explicit strides, in one block.
    let header = std::mem::size_of::<DLTensor>();
    let size = header + 16 * nd;
    let block = postc_gpu_arena_alloc(size as u64, stream) as *mut u8;
    let mut image = vec![0u8; size];
    let dev = DLTensor {
        data,
        device_type: if b.vendor() == "HIP" { KDL_ROCM } else { KDL_CUDA },
        device_id: 0,
        ndim: t.ndim,
        code: t.code,
        bits: t.bits,
        lanes: t.lanes,
        shape: block.wrapping_add(header) as *const i64,
        strides: block.wrapping_add(header + 8 * nd) as *const i64,
        byte_offset,
    };
    std::ptr::copy_nonoverlapping(&dev as *const DLTensor as *const u8, image.as_mut_ptr(), header);
    for a in 0..nd {
        image[header + 8 * a..header + 8 * a + 8].copy_from_slice(&shape[a].to_ne_bytes());
        image[header + 8 * (nd + a)..header + 8 * (nd + a) + 8].copy_from_slice(&strides[a].to_ne_bytes());
    }
    // CUDA has read pageable memory when the copy returns; HIP does not
    // promise it, so `image` (freed on return) is waited for there.
    ok(b, b.memcpy(block as DevicePtr, image.as_ptr() as DevicePtr, size, stream));
    if b.vendor() == "HIP" {
        ok(b, b.stream_synchronize(stream));
    }
    *rec = Staged { tensor: block as *mut c_void, host, device, bytes, in_place: u64::from(in_place), stream };
    block as *mut c_void
}

/// Copies a staged tensor's span back over the caller's buffer, on the
/// stream it was staged for (nothing for a tensor used in place). Launchers
/// call it for `&` (mutable) array arguments after the kernel.
#[no_mangle]
pub unsafe extern "C" fn postc_gpu_unstage_tensor(rec: *const Staged) {
    if rec.is_null() {
        fatal("postc_gpu_unstage_tensor: NULL record");
    }
    let r = &*rec;
    if r.in_place == 0 && r.bytes > 0 {
        let b = rt();
        ok(b, b.memcpy(r.host as DevicePtr, r.device, r.bytes as usize, r.stream));
    }
}
