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
    /// The compiled function, once the first call has built it.
    target: PyOnceLock<Py<PyAny>>,
}

#[pymethods]
impl Dispatcher {
    /// The subclass's `__init__` takes its own arguments.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Dispatcher {
        Dispatcher { target: PyOnceLock::new() }
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let target = slf.get().target.get_or_try_init(py, || slf.call_method0("_compile").map(Bound::unbind))?;
        target.bind(py).call(args, kwargs)
    }

    /// The compiled function, or None before the first call.
    #[getter]
    fn _target(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.target.get(py).map(|t| t.clone_ref(py))
    }
}
