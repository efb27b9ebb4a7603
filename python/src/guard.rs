//! Calls into compiled code, and what a panic there becomes in Python.
//!
//! The runtime library linked into every postc shared library exports a
//! per-thread panic handler and the thread's arena (docs/abi.md). A call
//! goes through `src/guard.c`, which takes an arena mark, sets a handler
//! that leaves the panicking code with `longjmp`, makes the call through
//! libffi, and on a panic releases the arena to the mark and returns the
//! message. Code that C calls without this shim (NumPy running a ufunc's
//! loop) has no handler set and keeps the documented abort.

use pyo3::exceptions::{PyAssertionError, PyIndexError, PyOverflowError, PyRuntimeError, PyZeroDivisionError};
use pyo3::PyErr;
use std::ffi::{c_char, c_int, c_void};

type PanicHandler = unsafe extern "C" fn(*const c_char, usize, *mut c_void);

/// The runtime entry points of one loaded library (`guard.c`'s
/// `postc_py_runtime`). The static runtime library adds only what the code
/// uses: a library that allocates nothing has no arena entry points, one
/// that cannot panic no handler.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Runtime {
    set_panic_handler: unsafe extern "C" fn(Option<PanicHandler>, *mut c_void),
    arena_mark: Option<unsafe extern "C" fn() -> *mut c_void>,
    arena_release: Option<unsafe extern "C" fn(*mut c_void)>,
}

extern "C" {
    fn postc_py_guarded_call(
        rt: *const Runtime,
        cif: *mut c_void,
        code: *const c_void,
        rvalue: *mut c_void,
        avalue: *mut *mut c_void,
        msg: *mut c_char,
        cap: usize,
        len: *mut usize,
    ) -> c_int;
}

/// The most bytes of a panic message kept.
const MESSAGE_CAP: usize = 4096;

impl Runtime {
    /// The entry points of a library, from their addresses (the arena's
    /// may be missing).
    ///
    /// # Safety
    /// The addresses must be the library's `postc_rt_set_panic_handler`,
    /// `postc_rt_arena_mark` and `postc_rt_arena_release`.
    pub unsafe fn from_addresses(set_handler: usize, mark: Option<usize>, release: Option<usize>) -> Runtime {
        Runtime {
            set_panic_handler: std::mem::transmute::<usize, unsafe extern "C" fn(Option<PanicHandler>, *mut c_void)>(
                set_handler,
            ),
            arena_mark: mark.map(|m| std::mem::transmute::<usize, unsafe extern "C" fn() -> *mut c_void>(m)),
            arena_release: release.map(|r| std::mem::transmute::<usize, unsafe extern "C" fn(*mut c_void)>(r)),
        }
    }

    /// Calls `code` through the libffi interface `cif` with the argument
    /// pointers `avalue`, the result written to `rvalue`. `Err` carries a
    /// panic's message; the arena is then released to where it was before.
    ///
    /// # Safety
    /// `cif` must describe `code`'s C signature and `avalue` point to
    /// arguments of those types; `rvalue` must hold the result; `code` must
    /// belong to the library whose runtime this is.
    pub unsafe fn call(
        &self,
        cif: *mut c_void,
        code: *const c_void,
        rvalue: *mut c_void,
        avalue: *mut *mut c_void,
    ) -> Result<(), String> {
        let mut msg = [0u8; MESSAGE_CAP];
        let mut len = 0usize;
        let panicked =
            postc_py_guarded_call(self, cif, code, rvalue, avalue, msg.as_mut_ptr().cast(), MESSAGE_CAP, &mut len);
        if panicked == 0 {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&msg[..len.min(MESSAGE_CAP)]).into_owned())
        }
    }
}

/// A call through `runtime` (see [`Runtime::call`]), or a plain libffi
/// call for a library that cannot panic.
///
/// # Safety
/// As [`Runtime::call`].
pub unsafe fn call(
    runtime: Option<&Runtime>,
    cif: *mut c_void,
    code: *const c_void,
    rvalue: *mut c_void,
    avalue: *mut *mut c_void,
) -> Result<(), String> {
    match runtime {
        Some(rt) => rt.call(cif, code, rvalue, avalue),
        None => {
            let f: unsafe extern "C" fn() = std::mem::transmute(code);
            libffi::raw::ffi_call(cif.cast(), Some(f), rvalue, avalue);
            Ok(())
        }
    }
}

/// The Python exception of a panic message (`panic: <what> at <where>`):
/// IndexError for an index out of bounds, ZeroDivisionError for a division
/// or modulo by zero, OverflowError for integer overflow, AssertionError
/// for a failed assert, RuntimeError for the rest. The exception's text is
/// the message without its `panic: ` prefix.
pub fn panic_error(message: &str) -> PyErr {
    let what = message.strip_prefix("panic: ").unwrap_or(message).trim_end().to_owned();
    if what.starts_with("index out of bounds") {
        PyIndexError::new_err(what)
    } else if what.starts_with("division by zero") || what.starts_with("modulo by zero") {
        PyZeroDivisionError::new_err(what)
    } else if what.starts_with("integer overflow") {
        PyOverflowError::new_err(what)
    } else if what.starts_with("assertion failed") {
        PyAssertionError::new_err(what)
    } else {
        PyRuntimeError::new_err(what)
    }
}
