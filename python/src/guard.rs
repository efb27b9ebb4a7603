//! Calls into compiled code, and what a panic there becomes in Python.

use pyo3::exceptions::{PyAssertionError, PyIndexError, PyOverflowError, PyRuntimeError, PyZeroDivisionError};
use pyo3::PyErr;
use std::ffi::c_void;

/// The runtime entry points of one loaded library.
#[derive(Clone, Copy, Debug, Default)]
pub struct Runtime {}

impl Runtime {
    /// Calls `code` through the libffi interface `cif` with the argument
    /// pointers `avalue`, the result written to `rvalue`. `Err` carries a
    /// panic's message.
    ///
    /// # Safety
    /// `cif` must describe `code`'s C signature and `avalue` point to
    /// arguments of those types; `rvalue` must hold the result.
    pub unsafe fn call(
        &self,
        cif: *mut c_void,
        code: *const c_void,
        rvalue: *mut c_void,
        avalue: *mut *mut c_void,
    ) -> Result<(), String> {
        let f: unsafe extern "C" fn() = std::mem::transmute(code);
        libffi::raw::ffi_call(cif.cast(), Some(f), rvalue, avalue);
        Ok(())
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
