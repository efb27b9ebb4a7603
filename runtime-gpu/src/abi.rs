//! MLIR's `mgpu*` functions, with the C signatures of its CUDA runtime
//! wrappers. Handles are the driver's own (`CUmodule`, `CUstream`, ... or
//! their HIP counterparts), passed through as `void *`.

use std::ffi::{c_char, c_int, c_uint, c_ushort, c_void};
use std::ptr;

use crate::backend::{Handle, Launch};
use crate::{fatal, ok, rt};

/// Loads a module from a PTX / cubin / code-object image; `size` is
/// informational (the drivers find the image's end themselves).
#[no_mangle]
pub unsafe extern "C" fn mgpuModuleLoad(data: *const c_void, _gpu_blob_size: usize) -> Handle {
    let b = rt();
    ok(b, b.module_load(data))
}

/// Loads a module from PTX, compiling it at `opt_level` (0..=4).
#[no_mangle]
pub unsafe extern "C" fn mgpuModuleLoadJIT(data: *mut c_void, opt_level: c_int) -> Handle {
    let b = rt();
    ok(b, b.module_load_jit(data, opt_level))
}

#[no_mangle]
pub unsafe extern "C" fn mgpuModuleUnload(module: Handle) {
    let b = rt();
    ok(b, b.module_unload(module))
}

#[no_mangle]
pub unsafe extern "C" fn mgpuModuleGetFunction(module: Handle, name: *const c_char) -> Handle {
    let b = rt();
    ok(b, b.module_get_function(module, name))
}

fn dim(what: &str, v: isize) -> u32 {
    match u32::try_from(v) {
        Ok(d) if d > 0 => d,
        _ => fatal(&format!("mgpuLaunchKernel: {what} is {v}, not in 1..=4294967295")),
    }
}

/// Launches `function` on `stream` with MLIR's `index`-typed dimensions.
#[no_mangle]
pub unsafe extern "C" fn mgpuLaunchKernel(
    function: Handle,
    grid_x: isize,
    grid_y: isize,
    grid_z: isize,
    block_x: isize,
    block_y: isize,
    block_z: isize,
    smem: i32,
    stream: Handle,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    _params_count: usize,
) {
    let launch = Launch {
        grid: [dim("gridX", grid_x), dim("gridY", grid_y), dim("gridZ", grid_z)],
        block: [dim("blockX", block_x), dim("blockY", block_y), dim("blockZ", block_z)],
        shared_bytes: u32::try_from(smem)
            .unwrap_or_else(|_| fatal(&format!("mgpuLaunchKernel: shared memory size {smem} is negative"))),
    };
    let b = rt();
    ok(b, b.launch(function, launch, stream, params, extra))
}

#[no_mangle]
pub extern "C" fn mgpuStreamCreate() -> Handle {
    let b = rt();
    ok(b, b.stream_create())
}

#[no_mangle]
pub unsafe extern "C" fn mgpuStreamDestroy(stream: Handle) {
    let b = rt();
    ok(b, b.stream_destroy(stream))
}

#[no_mangle]
pub unsafe extern "C" fn mgpuStreamSynchronize(stream: Handle) {
    let b = rt();
    ok(b, b.stream_synchronize(stream))
}

#[no_mangle]
pub unsafe extern "C" fn mgpuStreamWaitEvent(stream: Handle, event: Handle) {
    let b = rt();
    ok(b, b.stream_wait_event(stream, event))
}

#[no_mangle]
pub extern "C" fn mgpuEventCreate() -> Handle {
    let b = rt();
    ok(b, b.event_create())
}

#[no_mangle]
pub unsafe extern "C" fn mgpuEventDestroy(event: Handle) {
    let b = rt();
    ok(b, b.event_destroy(event))
}

#[no_mangle]
pub unsafe extern "C" fn mgpuEventSynchronize(event: Handle) {
    let b = rt();
    ok(b, b.event_synchronize(event))
}

#[no_mangle]
pub unsafe extern "C" fn mgpuEventRecord(event: Handle, stream: Handle) {
    let b = rt();
    ok(b, b.event_record(event, stream))
}

/// Device memory (managed memory when `is_host_shared`); null for 0 bytes.
#[no_mangle]
pub unsafe extern "C" fn mgpuMemAlloc(size_bytes: u64, _stream: Handle, is_host_shared: bool) -> *mut c_void {
    if size_bytes == 0 {
        return ptr::null_mut();
    }
    let b = rt();
    ok(b, b.mem_alloc(size_bytes, is_host_shared)) as *mut c_void
}

/// Frees what [`mgpuMemAlloc`] returned; null is ignored.
#[no_mangle]
pub unsafe extern "C" fn mgpuMemFree(ptr: *mut c_void, _stream: Handle) {
    if ptr.is_null() {
        return;
    }
    let b = rt();
    ok(b, b.mem_free(ptr as u64))
}

/// Copies `size_bytes` in any direction, ordered on `stream`: host memory
/// written by a device-to-host copy is ready once the stream is synchronised.
#[no_mangle]
pub unsafe extern "C" fn mgpuMemcpy(dst: *mut c_void, src: *mut c_void, size_bytes: usize, stream: Handle) {
    let b = rt();
    ok(b, b.memcpy(dst as u64, src as u64, size_bytes, stream))
}

/// Sets `count` 32-bit words at `dst` to `value`, ordered on `stream`.
#[no_mangle]
pub unsafe extern "C" fn mgpuMemset32(dst: *mut c_void, value: c_uint, count: usize, stream: Handle) {
    let b = rt();
    ok(b, b.memset32(dst as u64, value, count, stream))
}

/// Sets `count` 16-bit words at `dst` to `value`, ordered on `stream`.
#[no_mangle]
pub unsafe extern "C" fn mgpuMemset16(dst: *mut c_void, value: c_ushort, count: usize, stream: Handle) {
    let b = rt();
    ok(b, b.memset16(dst as u64, value, count, stream))
}
