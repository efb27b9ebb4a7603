//! Calls into compiled code, and what a panic there becomes in Python.
//!
//! The runtime library linked into every postc shared library exports a
//! per-thread panic handler and the thread's arena (docs/abi.md). A call
//! goes through `src/guard.c`, which takes an arena mark, sets a handler
//! that leaves the panicking code with `longjmp`, makes the call (through
//! one wide register prototype, or libffi), and on a panic releases the
//! arena to the mark and returns the message. A ufunc's loop, which NumPy
//! runs, goes through `guard.c`'s `postc_py_ufunc_loop`, which raises the
//! panic as a Python exception through [`postc_py_ufunc_raise`]. Code that
//! C calls without these shims (a C program calling `NAME_loop`) has no
//! handler set and keeps the documented abort.

use pyo3::exceptions::{
    PyArithmeticError, PyAssertionError, PyFloatingPointError, PyIndexError, PyNotImplementedError, PyOverflowError,
    PyRuntimeError, PyTypeError, PyUnboundLocalError, PyValueError, PyZeroDivisionError,
};
use pyo3::{ffi, PyErr, Python};

// `numpy.linalg.LinAlgError`, which `np.linalg` functions raise.
pyo3::import_exception!(numpy.linalg, LinAlgError);
// `numpy.exceptions.AxisError` (a ValueError and an IndexError), which a
// reduction along an axis the array does not have raises.
pyo3::import_exception!(numpy.exceptions, AxisError);
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

/// The general registers and vector registers a register call fills
/// (`guard.c`'s `postc_py_registers`).
pub const INT_REGISTERS: usize = 6;
pub const FLOAT_REGISTERS: usize = 8;

/// The arguments of a register call: integer-class ones in `ints`,
/// floating-point ones (as bits; a Float32 or Float16 in the low bits) in
/// `floats`, each in parameter order.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Registers {
    pub ints: [u64; INT_REGISTERS],
    pub floats: [u64; FLOAT_REGISTERS],
}

/// The register class of a result (`guard.c`'s `POSTC_PY_RETURNS_*`).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// Nothing, or an integer-class value in the first general register.
    Int = 0,
    /// A floating-point value in the first vector register.
    Float = 1,
    /// A `postc_str`: the first two general registers.
    Pair = 2,
}

/// A ufunc's loop as NumPy holds it (`guard.c`'s `postc_py_ufunc_data`):
/// `NAME_loop` (or the runtime's parallel loop), the runtime of its
/// library, and the data the loop is called with (null for `NAME_loop`).
#[repr(C)]
pub struct UFuncLoop {
    pub function: unsafe extern "C" fn(*mut *mut c_char, *const isize, *const isize, *mut c_void),
    pub runtime: *const Runtime,
    pub data: *mut c_void,
}

extern "C" {
    fn postc_py_guarded_register_call(
        rt: *const Runtime,
        code: *const c_void,
        returns: c_int,
        regs: *const Registers,
        out: *mut [u64; 2],
    ) -> c_int;
    fn postc_py_guarded_ffi_call(
        rt: *const Runtime,
        cif: *mut c_void,
        code: *const c_void,
        rvalue: *mut c_void,
        avalue: *mut *mut c_void,
    ) -> c_int;
    fn postc_py_panic_message(len: *mut usize) -> *const c_char;
    /// The loop registered with NumPy for a ufunc whose library can panic;
    /// its data is a [`UFuncLoop`].
    pub fn postc_py_ufunc_loop(args: *mut *mut c_char, dimensions: *mut isize, steps: *mut isize, data: *mut c_void);
}

/// The calling thread's last panic message, which `guard.c` keeps.
fn last_panic_message() -> String {
    let mut len = 0usize;
    // SAFETY: the thread's message buffer holds `len` bytes, written by
    // the panic just reported on this thread.
    unsafe {
        let msg = postc_py_panic_message(&mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(msg.cast::<u8>(), len)).into_owned()
    }
}

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
}

fn runtime_ptr(runtime: Option<&Runtime>) -> *const Runtime {
    runtime.map_or(std::ptr::null(), |r| r as *const Runtime)
}

/// Calls `code` with its arguments in registers (see `guard.c`) and
/// returns the result's bits; `Err` carries a panic's message, the arena
/// then released to where it was before. `runtime` is the library's
/// (`None`: a library that cannot panic). Touches no Python object: it
/// may run with the GIL released.
///
/// # Safety
/// `code`'s C parameters must all be register-class values, at most
/// [`INT_REGISTERS`] integer-class and [`FLOAT_REGISTERS`] floating-point,
/// placed in `regs` in order; `returns` must be its result's class; every
/// pointer passed must stay valid for the call; `code` must belong to the
/// library whose runtime this is.
pub unsafe fn register_call(
    runtime: Option<&Runtime>,
    code: *const c_void,
    returns: Returns,
    regs: &Registers,
) -> Result<[u64; 2], String> {
    let mut out = [0u64; 2];
    if postc_py_guarded_register_call(runtime_ptr(runtime), code, returns as c_int, regs, &mut out) == 0 {
        Ok(out)
    } else {
        Err(last_panic_message())
    }
}

/// As [`register_call`], through the libffi interface `cif` with the
/// argument pointers `avalue`, the result written to `rvalue`.
///
/// # Safety
/// `cif` must describe `code`'s C signature and `avalue` point to
/// arguments of those types; `rvalue` must hold the result; as
/// [`register_call`] otherwise.
pub unsafe fn ffi_call(
    runtime: Option<&Runtime>,
    cif: *mut c_void,
    code: *const c_void,
    rvalue: *mut c_void,
    avalue: *mut *mut c_void,
) -> Result<(), String> {
    if postc_py_guarded_ffi_call(runtime_ptr(runtime), cif, code, rvalue, avalue) == 0 {
        Ok(())
    } else {
        Err(last_panic_message())
    }
}

/// The panics CPython raises as ZeroDivisionError, by the start of their
/// message (integer and Python-number division, CPython's own texts).
const ZERO_DIVISION: [&str; 8] = [
    "division by zero",
    "modulo by zero",
    "float division by zero",
    "float floor division by zero",
    "float modulo",
    "complex division by zero",
    "0.0 cannot be raised to a negative power",
    "zero to a negative or complex power",
];

/// The Python exception of a panic message (`panic: <what> at <where>`):
/// IndexError for an index out of bounds, ZeroDivisionError for a division
/// or modulo by zero, ValueError for a negative shift count or a zero range step (as
/// CPython), OverflowError for integer overflow, AssertionError
/// for a failed assert, the raised exception for a `raise` of a built-in one,
/// RuntimeError for the rest. The exception's text is
/// the message without its `panic: ` prefix.
pub fn panic_error(message: &str) -> PyErr {
    let what = message.strip_prefix("panic: ").unwrap_or(message).trim_end().to_owned();
    if let Some(e) = raised(&what) {
        return e;
    }
    if what.starts_with("index out of bounds") {
        PyIndexError::new_err(what)
    } else if ZERO_DIVISION.iter().any(|m| what.starts_with(m)) {
        PyZeroDivisionError::new_err(what)
    } else if what.starts_with("negative shift count") || what.starts_with("range() arg 3 must not be zero") {
        PyValueError::new_err(what)
    } else if what.starts_with("integer overflow") {
        PyOverflowError::new_err(what)
    } else if what.starts_with("assertion failed") {
        PyAssertionError::new_err(what)
    } else {
        PyRuntimeError::new_err(what)
    }
}

/// `raise ValueError("text")` in compiled code panics with `ValueError:
/// text` (`ValueError` alone without a message): that exception, whose
/// text is the rest (with the panic's location).
fn raised(what: &str) -> Option<PyErr> {
    let (name, rest) = match what.split_once(": ") {
        Some((name, rest)) if !name.contains(' ') => (name, rest.to_owned()),
        _ => {
            let name = what.split(' ').next().unwrap_or(what);
            (name, what[name.len()..].trim_start().to_owned())
        }
    };
    Some(match name {
        "ArithmeticError" => PyArithmeticError::new_err(rest),
        "AssertionError" => PyAssertionError::new_err(rest),
        "AxisError" => AxisError::new_err(rest),
        "FloatingPointError" => PyFloatingPointError::new_err(rest),
        "IndexError" => PyIndexError::new_err(rest),
        "LinAlgError" => LinAlgError::new_err(rest),
        "NotImplementedError" => PyNotImplementedError::new_err(rest),
        "OverflowError" => PyOverflowError::new_err(rest),
        "RuntimeError" => PyRuntimeError::new_err(rest),
        "TypeError" => PyTypeError::new_err(rest),
        "UnboundLocalError" => PyUnboundLocalError::new_err(rest),
        "ValueError" => PyValueError::new_err(rest),
        "ZeroDivisionError" => PyZeroDivisionError::new_err(rest),
        _ => return None,
    })
}

/// Called by `postc_py_ufunc_loop` (guard.c) after a panic in a ufunc's
/// loop, on the thread NumPy runs it on, with or without the GIL: sets the
/// panic's exception as the thread's pending Python error, which NumPy
/// raises when the loop returns.
///
/// # Safety
/// `msg` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn postc_py_ufunc_raise(msg: *const c_char, len: usize) {
    let text = String::from_utf8_lossy(std::slice::from_raw_parts(msg.cast::<u8>(), len)).into_owned();
    // Raw `PyGILState_Ensure`: NumPy may have released the GIL with
    // `PyEval_SaveThread`, which PyO3's own bookkeeping does not see.
    let state = ffi::PyGILState_Ensure();
    let outcome = std::panic::catch_unwind(|| {
        // SAFETY: the GIL is held from `PyGILState_Ensure` to the release.
        let py = unsafe { Python::assume_attached() };
        panic_error(&text).restore(py);
    });
    if outcome.is_err() {
        ffi::PyErr_SetString(ffi::PyExc_RuntimeError, c"a panic in compiled code could not be raised".as_ptr());
    }
    ffi::PyGILState_Release(state);
}

/// Called by `postc_py_ufunc_loop` (guard.c) on a thread marked by a
/// panic: whether a Python exception is pending there (the operation that
/// panicked is still running).
#[no_mangle]
pub extern "C" fn postc_py_error_pending() -> c_int {
    // SAFETY: raw GIL state calls, as in `postc_py_ufunc_raise`.
    unsafe {
        let state = ffi::PyGILState_Ensure();
        let pending = !ffi::PyErr_Occurred().is_null();
        ffi::PyGILState_Release(state);
        c_int::from(pending)
    }
}
