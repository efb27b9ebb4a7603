//! postc-runtime-gpu: MLIR's `mgpu*` runtime ABI over the CUDA driver API
//! (`libcuda.so.1`) or HIP (`libamdhip64.so`), plus postc's device arena and
//! the staging that compiled code calls: of `DLTensor` arguments for kernel
//! launchers (`stage`), of a gpu ufunc's inner loop (`ufunc`).
//!
//! The driver library is opened with `dlopen` on first use and never linked,
//! so a program built with GPU code still starts on a machine without one
//! (and can ask [`__postc_gpu_usable`] before touching the device). Every
//! entry point of the chosen driver is resolved once, when it is opened.
//!
//! Every failure is fatal: the runtime prints one `panic: ...` line to
//! standard error and aborts, like postc's other run-time checks. Nothing
//! ever unwinds out of an `extern "C"` function.
//!
//! See `docs/runtime-gpu.md` for the ABI, the environment variables and the
//! arena rules.

#![allow(clippy::missing_safety_doc)]

mod abi;
mod arena;
mod backend;
mod cuda;
mod dl;
mod hip;
mod stage;
mod ufunc;

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::io::Write;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

pub use abi::*;
pub use arena::{
    arena_count, arena_usage, postc_gpu_arena_alloc, postc_gpu_arena_mark, postc_gpu_arena_restore, ArenaUsage,
    ARENA_ALIGN, ARENA_CHUNK,
};
use backend::{Backend, DResult, DevicePtr, Failure, Handle};
pub use stage::{postc_gpu_stage_tensor, postc_gpu_unstage_tensor, DLTensor, Staged};
pub use ufunc::{
    postc_gpu_ufunc_launch, FixedStep, HostLoop, UfuncDescriptor, UfuncOperand, OPERAND_RETURNED, OPERAND_VIEW,
    SCRATCH_BUDGET, UFUNC_BLOCK, UFUNC_MAX_GRID,
};

/// `POSTC_GPU_RUNTIME`: `cuda`, `hip` or `auto` (the default: CUDA first).
pub const ENV_RUNTIME: &str = "POSTC_GPU_RUNTIME";
/// `POSTC_GPU_DRIVER_PATH`: the driver library to open instead of the default.
pub const ENV_DRIVER_PATH: &str = "POSTC_GPU_DRIVER_PATH";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Auto,
    Cuda,
    Hip,
}

/// What the program asked for through [`__postc_gpu_select_runtime`]
/// (0 auto, 1 CUDA, 2 HIP).
static PROGRAM_KIND: AtomicI32 = AtomicI32::new(0);

/// The driver, opened and initialised, or why it could not be.
static RUNTIME: OnceLock<Result<Box<dyn Backend>, String>> = OnceLock::new();

thread_local! {
    /// Whether this thread has made the device current.
    static CURRENT: Cell<bool> = const { Cell::new(false) };
    /// This thread's stream, made on first use.
    static STREAM: ThreadStream = const { ThreadStream(Cell::new(0)) };
}

/// A thread's own stream (0 until made); at the thread's end it is
/// synchronised and destroyed, and its arena freed (best effort: a driver
/// error then is ignored, nothing can be reported).
struct ThreadStream(Cell<usize>);

impl Drop for ThreadStream {
    fn drop(&mut self) {
        let s = self.0.replace(0) as Handle;
        if s.is_null() {
            return;
        }
        if let Ok(b) = runtime_state() {
            if b.stream_synchronize(s).is_ok() {
                arena::release_stream(&**b, s);
                let _ = b.stream_destroy(s);
            }
        }
    }
}

/// The calling thread's stream: every launch, copy and arena of the
/// staging wrappers and launchers goes on it, so host threads never
/// serialise on one stream. Made on the thread's first call (non-blocking
/// on CUDA), destroyed when the thread ends. While a thread ends (after its
/// stream has gone) it is the default stream, NULL.
#[no_mangle]
pub extern "C" fn postc_gpu_stream() -> Handle {
    let made = STREAM.try_with(|s| {
        if s.0.get() == 0 {
            let b = rt();
            let h = ok(b, b.stream_create());
            s.0.set(h as usize);
        }
        s.0.get() as Handle
    });
    made.unwrap_or(std::ptr::null_mut())
}

/// Prints `panic: <msg>` to standard error and aborts the process.
#[cold]
#[inline(never)]
pub(crate) fn fatal(msg: &str) -> ! {
    extern "C" {
        fn fflush(stream: *mut c_void) -> c_int;
    }
    // Drain the C streams a compiled program writes through, then report.
    // SAFETY: fflush(NULL) flushes every open output stream.
    unsafe { fflush(std::ptr::null_mut()) };
    let line = format!("panic: {msg}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
    std::process::abort()
}

fn requested_kind() -> Result<Kind, String> {
    match std::env::var(ENV_RUNTIME) {
        Ok(v) => match v.trim().to_ascii_lowercase().as_str() {
            "cuda" => Ok(Kind::Cuda),
            "hip" => Ok(Kind::Hip),
            "auto" | "" => Ok(Kind::Auto),
            _ => Err(format!("GPU runtime: {ENV_RUNTIME} must be cuda, hip or auto, not `{v}`")),
        },
        Err(_) => Ok(match PROGRAM_KIND.load(Ordering::Relaxed) {
            1 => Kind::Cuda,
            2 => Kind::Hip,
            _ => Kind::Auto,
        }),
    }
}

fn driver_path() -> Option<String> {
    std::env::var(ENV_DRIVER_PATH).ok().filter(|p| !p.is_empty())
}

fn open_library(path: &str) -> Result<dl::Library, String> {
    dl::Library::open(path).map_err(|e| format!("GPU runtime: cannot load {path} ({e})"))
}

fn start(kind: Kind, lib: &dl::Library) -> Result<Box<dyn Backend>, String> {
    let mut backend: Box<dyn Backend> = match kind {
        Kind::Hip => Box::new(hip::Hip::load(lib)?),
        _ => Box::new(cuda::Cuda::load(lib)?),
    };
    backend.init()?;
    Ok(backend)
}

fn open_runtime() -> Result<Box<dyn Backend>, String> {
    let kind = requested_kind()?;
    let path = driver_path();
    match (kind, path) {
        (Kind::Cuda, p) => start(Kind::Cuda, &open_library(p.as_deref().unwrap_or(cuda::DEFAULT_LIBRARY))?),
        (Kind::Hip, p) => start(Kind::Hip, &open_library(p.as_deref().unwrap_or(hip::DEFAULT_LIBRARY))?),
        (Kind::Auto, Some(p)) => {
            // One library named by the user: its entry points say which it is.
            let lib = open_library(&p)?;
            if lib.symbol(c"cuInit").is_some() {
                start(Kind::Cuda, &lib)
            } else if lib.symbol(c"hipInit").is_some() {
                start(Kind::Hip, &lib)
            } else {
                Err(format!("GPU runtime: cannot load {p} (neither cuInit nor hipInit is defined)"))
            }
        }
        (Kind::Auto, None) => {
            let cuda = open_library(cuda::DEFAULT_LIBRARY).and_then(|lib| start(Kind::Cuda, &lib));
            match cuda {
                Ok(b) => Ok(b),
                // CUDA's reason is the one reported when neither works.
                Err(why) => open_library(hip::DEFAULT_LIBRARY).and_then(|lib| start(Kind::Hip, &lib)).map_err(|_| why),
            }
        }
    }
}

fn runtime_state() -> &'static Result<Box<dyn Backend>, String> {
    RUNTIME.get_or_init(open_runtime)
}

/// The driver, current on the calling thread; any failure is fatal.
pub(crate) fn rt() -> &'static dyn Backend {
    match runtime_state() {
        Ok(b) => {
            if !CURRENT.get() {
                ok(&**b, b.make_current());
                CURRENT.set(true);
            }
            &**b
        }
        Err(msg) => fatal(msg),
    }
}

/// The value of a driver call, or the panic naming it and its error.
pub(crate) fn ok<T>(b: &dyn Backend, r: DResult<T>) -> T {
    match r {
        Ok(v) => v,
        Err(Failure { call, code }) => fatal(&format!("{call} failed: {}", b.error_name(code))),
    }
}

/// 1 when a driver library loads, initialises and has a device that can be
/// made current on this thread, else 0. Never panics; the first call opens
/// the driver, and its outcome is kept for the life of the process.
#[no_mangle]
pub extern "C" fn __postc_gpu_usable() -> c_int {
    match runtime_state() {
        Ok(b) => {
            if CURRENT.get() {
                return 1;
            }
            if b.make_current().is_ok() {
                CURRENT.set(true);
                1
            } else {
                0
            }
        }
        Err(_) => 0,
    }
}

/// 1 when kernels can use `ptr` in place (device or managed memory of the
/// opened driver), else 0; 0 without a usable driver. Staging wrappers ask
/// before copying an operand.
#[no_mangle]
pub extern "C" fn postc_gpu_is_device_ptr(ptr: *const c_void) -> c_int {
    match runtime_state() {
        Ok(_) if !ptr.is_null() => c_int::from(rt().is_device_ptr(ptr as DevicePtr)),
        _ => 0,
    }
}

/// Chooses the driver a program's kernels were built for (0 auto, 1 CUDA,
/// 2 HIP), before the first GPU call; `POSTC_GPU_RUNTIME` still overrides
/// it. Calls after the driver has been opened change nothing.
#[no_mangle]
pub extern "C" fn __postc_gpu_select_runtime(kind: c_int) {
    PROGRAM_KIND.store(if (0..=2).contains(&kind) { kind } else { 0 }, Ordering::Relaxed);
}

/// The opened driver's vendor ("CUDA" or "HIP"), for tests and diagnostics;
/// `None` when none could be opened.
pub fn vendor() -> Option<&'static str> {
    runtime_state().as_ref().ok().map(|b| b.vendor())
}
