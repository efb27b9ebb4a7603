//! Ufuncs as NumPy ufunc objects: one NumPy loop per dtype signature, each
//! a `NAME_loop` (NumPy's generalized-ufunc inner loop, docs/abi.md §6.2),
//! registered with `PyUFunc_FromFuncAndDataAndSignature`, so NumPy does
//! the broadcasting, `out=`, casting, loop selection and its own errors.
//!
//! A loop whose library can panic is registered as `guard.c`'s
//! `postc_py_ufunc_loop` with the `NAME_loop` and the library's runtime as
//! its data: a panic stops the operation and NumPy raises it as the
//! exception a function call would (`guard::panic_error`).

use crate::dlpack;
use crate::guard::{self, Runtime, UFuncLoop};
use numpy::npyffi::{PyUFuncGenericFunction, PY_UFUNC_API};
use postc_ir::exports::UFuncSpec;
use postc_ir::DType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::ffi::{c_char, c_void, CString};

/// `PyUFunc_None`: no identity.
const PY_UFUNC_NONE: i32 = -1;

/// One loop of a ufunc: the `NAME_loop` of one dtype signature.
#[derive(Clone, Debug)]
pub struct Loop {
    /// The address of the `NAME_loop` entry point.
    pub function: usize,
    /// The runtime of its library; `None` for a library that cannot panic
    /// (the loop is then registered as it is).
    pub runtime: Option<Runtime>,
    /// The operands' dtypes: inputs, then outputs.
    pub dtypes: Vec<DType>,
}

/// A NumPy ufunc named `name` with `nin` inputs and `nout` outputs, the
/// core signature `core_signature` (`None`: elementwise) and one loop per
/// entry of `loops`, which NumPy considers in that order when no loop's
/// dtypes match the operands exactly.
///
/// # Safety
/// Every `Loop::function` must be the `NAME_loop` entry point of a ufunc
/// with that signature and those dtypes, in a library that stays loaded for
/// the life of the process, and `Loop::runtime` that library's runtime.
pub unsafe fn make<'py>(
    py: Python<'py>,
    name: &str,
    doc: Option<&str>,
    nin: usize,
    nout: usize,
    core_signature: Option<&str>,
    loops: &[Loop],
) -> PyResult<Bound<'py, PyAny>> {
    if loops.is_empty() {
        return Err(PyValueError::new_err(format!("ufunc {name}: no loops")));
    }
    let mut types: Vec<c_char> = Vec::with_capacity(loops.len() * (nin + nout));
    for l in loops {
        if l.dtypes.len() != nin + nout {
            return Err(PyValueError::new_err(format!(
                "ufunc {name}: a loop has {} operand dtypes for {nin} inputs and {nout} outputs",
                l.dtypes.len()
            )));
        }
        for d in &l.dtypes {
            let Some(t) = dlpack::npy_type(*d) else {
                return Err(PyTypeError::new_err(format!(
                    "ufunc {name}: NumPy ufuncs cannot take Str or Bytes operands"
                )));
            };
            types.push(t as c_char);
        }
    }
    // NumPy keeps these pointers for the life of the ufunc object, which
    // may outlive any module object: they are never freed, as the library
    // they point into is never unloaded.
    let mut funcs: Vec<PyUFuncGenericFunction> = Vec::with_capacity(loops.len());
    let mut data: Vec<*mut c_void> = Vec::with_capacity(loops.len());
    for l in loops {
        let function: unsafe extern "C" fn(*mut *mut c_char, *const isize, *const isize, *mut c_void) =
            std::mem::transmute::<usize, unsafe extern "C" fn(*mut *mut c_char, *const isize, *const isize, *mut c_void)>(
                l.function,
            );
        match l.runtime {
            Some(rt) => {
                let runtime: &'static Runtime = Box::leak(Box::new(rt));
                let guarded: &'static mut UFuncLoop =
                    Box::leak(Box::new(UFuncLoop { function, runtime, data: std::ptr::null_mut() }));
                funcs.push(Some(guard::postc_py_ufunc_loop));
                data.push((guarded as *mut UFuncLoop).cast());
            }
            None => {
                funcs.push(Some(std::mem::transmute::<
                    usize,
                    unsafe extern "C" fn(*mut *mut c_char, *mut isize, *mut isize, *mut c_void),
                >(l.function)));
                data.push(std::ptr::null_mut());
            }
        }
    }
    let core = core_signature.map(|s| CString::new(s.replace('\0', " ")).unwrap_or_default());
    new_ufunc(py, name, doc, nin as i32, nout as i32, core, funcs, data, types)
}

/// The NumPy ufunc of one exported ufunc: one loop, its `NAME_loop` at
/// `function`.
///
/// # Safety
/// As [`make`]: `function` must be the ufunc's `NAME_loop` in a library
/// that is never unloaded, `runtime` that library's runtime.
pub unsafe fn make_from_spec<'py>(
    py: Python<'py>,
    spec: &UFuncSpec,
    function: usize,
    runtime: Option<Runtime>,
) -> PyResult<Bound<'py, PyAny>> {
    let one = Loop { function, runtime, dtypes: spec.dtypes.clone() };
    make(py, &spec.name, spec.doc.as_deref(), spec.nin, spec.nout, spec.signature.as_deref(), &[one])
}

/// A `numpy.ufunc` of loops `funcs` with their `data` and `types` (`nin +
/// nout` per loop) and the core signature `core` (`None`: elementwise).
/// NumPy keeps the tables for the life of the ufunc: they are never freed.
///
/// # Safety
/// Every loop must have NumPy's inner-loop signature, take its `data` and
/// operands of its types, and live for ever (its library is never
/// unloaded).
#[allow(clippy::too_many_arguments)]
pub unsafe fn new_ufunc<'py>(
    py: Python<'py>,
    name: &str,
    doc: Option<&str>,
    nin: i32,
    nout: i32,
    core: Option<CString>,
    funcs: Vec<PyUFuncGenericFunction>,
    data: Vec<*mut c_void>,
    types: Vec<c_char>,
) -> PyResult<Bound<'py, PyAny>> {
    let text = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
    let funcs: &'static mut [PyUFuncGenericFunction] = Box::leak(funcs.into_boxed_slice());
    let data: &'static mut [*mut c_void] = Box::leak(data.into_boxed_slice());
    let types: &'static mut [c_char] = Box::leak(types.into_boxed_slice());
    let cname: &'static CString = Box::leak(Box::new(text(name)));
    let cdoc: &'static CString = Box::leak(Box::new(text(doc.unwrap_or(""))));
    let core: *const c_char = match core {
        Some(c) => Box::leak(Box::new(c)).as_ptr(),
        None => std::ptr::null(),
    };
    let obj = PY_UFUNC_API.PyUFunc_FromFuncAndDataAndSignature(
        py,
        funcs.as_mut_ptr(),
        data.as_mut_ptr(),
        types.as_mut_ptr(),
        funcs.len() as i32,
        nin,
        nout,
        PY_UFUNC_NONE,
        cname.as_ptr(),
        cdoc.as_ptr(),
        0,
        core,
    );
    Bound::from_owned_ptr_or_err(py, obj)
}
