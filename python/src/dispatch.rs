//! The call of a `@jit` function: a native type, so that a call costs one
//! more C-level call than calling the compiled function itself, not a
//! Python frame. `postc._Jit` subclasses it in Python; its `_compile()`
//! method builds the function on the first call, and every later call goes
//! straight to it.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple};

#[pyclass(module = "postc._native", name = "Dispatcher", subclass, frozen)]
pub struct Dispatcher {
    /// CPython's vectorcall slot of the instance (see `call::enable_vectorcall`).
    vectorcall: pyo3::ffi::vectorcallfunc,
    /// The compiled function, once the first call has built it.
    target: PyOnceLock<Py<PyAny>>,
}

/// A call through vectorcall: the compiled function gets the arguments as
/// they came, with no tuple built.
unsafe extern "C" fn dispatcher_vectorcall(
    callable: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargsf: usize,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    let py = Python::assume_attached();
    // A Rust panic must not unwind into CPython: it becomes an exception.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let d = pyo3::Borrowed::from_ptr(py, callable).cast_unchecked::<Dispatcher>();
        d.get().target.get_or_try_init(py, || d.call_method0("_compile").map(Bound::unbind)).map(|t| t.as_ptr())
    }));
    match outcome {
        Ok(Ok(target)) => pyo3::ffi::PyObject_Vectorcall(target, args, nargsf, kwnames),
        Ok(Err(e)) => {
            e.restore(py);
            std::ptr::null_mut()
        }
        Err(_) => {
            pyo3::exceptions::PySystemError::new_err("postc: internal error in the @jit dispatcher").restore(py);
            std::ptr::null_mut()
        }
    }
}

#[pymethods]
impl Dispatcher {
    /// The subclass's `__init__` takes its own arguments.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Dispatcher {
        Dispatcher { vectorcall: dispatcher_vectorcall, target: PyOnceLock::new() }
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        // SAFETY: the field of this instance; every Dispatcher holds the
        // same function there. Later calls of the class take vectorcall.
        unsafe { postc_pyabi::call::enable_vectorcall(slf, &slf.get().vectorcall) }?;
        let target = slf.get().target.get_or_try_init(py, || slf.call_method0("_compile").map(Bound::unbind))?;
        target.bind(py).call(args, kwargs)
    }

    /// The compiled function, or None before the first call.
    #[getter]
    fn _target(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.target.get(py).map(|t| t.clone_ref(py))
    }
}
