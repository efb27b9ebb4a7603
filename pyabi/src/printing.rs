//! `print` in compiled code, as Python code sees it: each line goes to
//! `sys.stdout` (so that a notebook, a redirection or pytest's capture
//! sees it, as with Numba), not to file descriptor 1.
//!
//! The handler [`install`] gives a library's runtime writes a line at once
//! on a thread running a compiled call with the GIL held ([`holding_gil`]).
//! Any other thread (a `prange` worker, a call that released the GIL, a
//! NumPy ufunc loop) cannot wait for the GIL, whose holder may be waiting
//! for it: its lines are kept, in order, and written by [`flush`] when a
//! compiled call returns, or by the next line printed on a thread that
//! holds the GIL.

use pyo3::{ffi, Python};
use std::cell::Cell;
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

type PrintHandler = unsafe extern "C" fn(*const c_char, usize, *mut c_void);

/// Lines printed on threads without the GIL, not yet written.
static PENDING: Mutex<Vec<u8>> = Mutex::new(Vec::new());
/// Whether [`PENDING`] may hold something: a call's return reads only this.
static ANY_PENDING: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Whether this thread runs a compiled call with the GIL held.
    static HOLDS_GIL: Cell<bool> = const { Cell::new(false) };
}

/// Runs the compiled call `f` on a thread that holds the GIL (and keeps
/// it), so that what it prints on this thread is written at once.
pub fn holding_gil<T>(f: impl FnOnce() -> T) -> T {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            HOLDS_GIL.with(|h| h.set(self.0));
        }
    }
    let _reset = Reset(HOLDS_GIL.with(|h| h.replace(true)));
    f()
}

/// Gives the library whose `postc_rt_set_print_handler` is at `address`
/// the package's print handler.
///
/// # Safety
/// `address` must be a runtime's `postc_rt_set_print_handler`, in a
/// library that is never unloaded.
pub unsafe fn install(address: usize) {
    let set: unsafe extern "C" fn(Option<PrintHandler>, *mut c_void) = unsafe { std::mem::transmute(address) };
    unsafe { set(Some(print_line), std::ptr::null_mut()) };
}

unsafe extern "C" fn print_line(text: *const c_char, len: usize, _: *mut c_void) {
    // SAFETY: the runtime passes `len` readable bytes.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) };
    if HOLDS_GIL.with(Cell::get) {
        // SAFETY: the GIL is held (see `holding_gil`).
        let py = unsafe { Python::assume_attached() };
        flush(py);
        write(py, bytes);
    } else {
        PENDING.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(bytes);
        ANY_PENDING.store(true, Ordering::Release);
    }
}

/// Writes the lines kept from threads without the GIL.
pub fn flush(py: Python<'_>) {
    if !ANY_PENDING.swap(false, Ordering::Acquire) {
        return;
    }
    let text = std::mem::take(&mut *PENDING.lock().unwrap_or_else(|e| e.into_inner()));
    if !text.is_empty() {
        write(py, &text);
    }
}

/// Called by `postc_py_ufunc_loop` (guard.c) when a ufunc's loop ends, on
/// the thread NumPy runs it on, with or without the GIL: writes the lines
/// it printed, taking the GIL only when there are some.
#[no_mangle]
pub extern "C" fn postc_py_flush_printed() {
    if !ANY_PENDING.load(Ordering::Acquire) {
        return;
    }
    // SAFETY: raw `PyGILState_Ensure`, as `postc_py_ufunc_raise` takes
    // it: NumPy may have released the GIL with `PyEval_SaveThread`.
    let state = unsafe { ffi::PyGILState_Ensure() };
    // SAFETY: the GIL is held from `PyGILState_Ensure` to the release.
    flush(unsafe { Python::assume_attached() });
    unsafe { ffi::PyGILState_Release(state) };
}

/// `sys.stdout.write(text)`; an error writing (a closed stream) is
/// reported as unraisable, as CPython reports one in a destructor, since
/// the compiled code that printed cannot take an exception.
fn write(py: Python<'_>, bytes: &[u8]) {
    use pyo3::types::PyAnyMethods;
    // A pending exception (a ufunc's panic being raised) is kept aside.
    let pending = pyo3::PyErr::take(py);
    let text = String::from_utf8_lossy(bytes);
    let written = py.import("sys").and_then(|sys| sys.getattr("stdout")).and_then(|out| {
        if out.is_none() {
            return Ok(());
        }
        out.call_method1("write", (text.as_ref(),)).map(|_| ())
    });
    if let Err(e) = written {
        e.write_unraisable(py, None);
    }
    if let Some(e) = pending {
        e.restore(py);
    }
}
