//! `numpy.ufunc` objects made from the loops of others:
//!
//! - [`merge_ufuncs`]: one ufunc with a loop per dtype signature, made from
//!   ufuncs of one loop each (`@ufunc(["f8(f8,f8)", "f4(f4,f4)"])`: each
//!   signature is compiled on its own, then their loops are put side by
//!   side). NumPy then picks, as for its own ufuncs, the first loop the
//!   operands cast to safely, in the order the signatures were given.
//! - [`parallel_ufunc`]: the same loops run on the library's thread pool
//!   (`@ufunc(parallel=True)`): each becomes the runtime's
//!   `postc_rt_parallel_ufunc_loop` with a `postc_rt_parallel_ufunc`
//!   naming the serial `NAME_loop` as its data (docs/abi.md 12).

use numpy::npyffi::{objects::PyUFuncObject, PyUFuncGenericFunction};
use postc_pyabi::guard::{self, Runtime, UFuncLoop};
use postc_pyabi::ufunc::new_ufunc;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::PathBuf;

/// A NumPy inner loop.
type InnerLoop = unsafe extern "C" fn(*mut *mut c_char, *const isize, *const isize, *mut c_void);

/// The loops of ufuncs, side by side, and what every one of them shares.
#[derive(Default)]
struct Loops {
    funcs: Vec<PyUFuncGenericFunction>,
    data: Vec<*mut c_void>,
    types: Vec<c_char>,
    /// Inputs, outputs and the core signature.
    shape: Option<(i32, i32, Option<CString>)>,
}

impl Loops {
    /// Adds every loop of `part`, a `numpy.ufunc`.
    fn add(&mut self, name: &str, part: &Bound<'_, PyAny>) -> PyResult<()> {
        let u = ufunc_object(part)?;
        // SAFETY: a numpy.ufunc's core signature is null or a C string.
        let core = (!u.core_signature.is_null()).then(|| unsafe { CStr::from_ptr(u.core_signature) }.to_owned());
        let this = (u.nin, u.nout, core);
        match &self.shape {
            None => self.shape = Some(this),
            Some(s) if *s == this => {}
            Some(_) => {
                return Err(PyValueError::new_err(format!(
                    "ufunc {name}: its signatures differ in operands or core dimensions"
                )))
            }
        }
        let n = usize::try_from(u.ntypes).unwrap_or(0);
        let nargs = usize::try_from(u.nargs).unwrap_or(0);
        for i in 0..n {
            // SAFETY: the loop tables hold `ntypes` entries and `types`
            // `ntypes * nargs`.
            unsafe {
                self.funcs.push(*u.functions.add(i));
                self.data.push(*u.data.add(i));
                self.types.extend(std::slice::from_raw_parts(u.types.add(i * nargs), nargs));
            }
        }
        Ok(())
    }

    /// The ufunc of these loops; `parts` stay alive as long as it does (a
    /// loop's data may belong to one of them).
    fn into_ufunc<'py>(
        self,
        py: Python<'py>,
        name: &str,
        doc: Option<&str>,
        parts: &[Bound<'py, PyAny>],
    ) -> PyResult<Bound<'py, PyAny>> {
        let Some((nin, nout, core)) = self.shape else {
            return Err(PyValueError::new_err(format!("ufunc {name}: no signatures")));
        };
        // SAFETY: `add` read consistent tables (`nin + nout` types per loop)
        // from ufuncs whose loops live for ever.
        let made = unsafe { new_ufunc(py, name, doc, nin, nout, core, self.funcs, self.data, self.types) }?;
        let keep = PyTuple::new(py, parts)?;
        // SAFETY: `made` is a fresh PyUFuncObject whose `obj` is unset;
        // NumPy releases `obj` with the ufunc.
        unsafe {
            let u = &mut *(made.as_ptr() as *mut PyUFuncObject);
            u.obj = keep.into_ptr();
        }
        Ok(made)
    }
}

/// The PyUFuncObject of a `numpy.ufunc`.
fn ufunc_object<'a>(part: &'a Bound<'_, PyAny>) -> PyResult<&'a PyUFuncObject> {
    let ufunc_type = part.py().import("numpy")?.getattr("ufunc")?;
    if !part.is_instance(&ufunc_type)? {
        return Err(PyTypeError::new_err("expected a numpy.ufunc"));
    }
    // SAFETY: an instance of numpy.ufunc is a PyUFuncObject, alive while
    // `part` is.
    Ok(unsafe { &*(part.as_ptr() as *const PyUFuncObject) })
}

/// The ufunc whose loops are those of `parts`, in order. Every part must
/// have the same number of inputs and outputs and the same core signature.
#[pyfunction]
pub fn merge_ufuncs<'py>(
    py: Python<'py>,
    name: &str,
    doc: Option<&str>,
    parts: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut loops = Loops::default();
    for part in &parts {
        loops.add(name, part)?;
    }
    loops.into_ufunc(py, name, doc, &parts)
}

/// `postc_rt_ufunc_op` of the runtime's header: what the parallel loop
/// reads of an operand (the element size and its core axes).
#[repr(C)]
struct OperandDesc {
    code: i64,
    bits: i64,
    elsize: i64,
    ncore: i64,
    corebase: i64,
    core: *const i64,
    dtype_name: *const c_char,
    core_signature: *const c_char,
}

/// `postc_rt_parallel_ufunc` of the runtime's header.
#[repr(C)]
struct ParallelDesc {
    serial: InnerLoop,
    nin: i64,
    nops: i64,
    ndims: i64,
    ops: *const OperandDesc,
}

/// The element size of a NumPy type number of a postc ufunc's loop.
fn npy_elsize(t: c_char) -> Option<i64> {
    postc_ir::DType::ALL
        .into_iter()
        .find(|d| {
            postc_pyabi::dlpack::npy_type(*d).is_some_and(|n| postc_pyabi::dlpack::same_npy_type(n, i32::from(t)))
        })
        .map(|d| i64::from(d.size_bytes()))
}

/// `u`, a ufunc of `library` (as `compile` made it, or merged from such
/// ufuncs), with every loop run by the library's
/// `postc_rt_parallel_ufunc_loop`: the outer dimension of a large call is
/// split across the thread pool, with the same results as `u`.
#[pyfunction]
pub fn parallel_ufunc<'py>(py: Python<'py>, library: PathBuf, u: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let lib = crate::open(&library).map_err(PyOSError::new_err)?;
    let entry = crate::symbol(lib, "postc_rt_parallel_ufunc_loop").map_err(PyOSError::new_err)?;
    // SAFETY: the runtime's exported loop, in a library never unloaded.
    let entry: InnerLoop = unsafe { std::mem::transmute::<usize, InnerLoop>(entry) };
    let o = ufunc_object(&u)?;
    // SAFETY: a numpy.ufunc's name is a C string.
    let name = unsafe { CStr::from_ptr(o.name) }.to_string_lossy().into_owned();
    let doc = (!o.doc.is_null()).then(|| unsafe { CStr::from_ptr(o.doc) }.to_string_lossy().into_owned());
    let nargs = usize::try_from(o.nargs).unwrap_or(0);
    let mut loops = Loops::default();
    loops.add(&name, &u)?;
    // Every operand's core axes: the same for every loop.
    let mut ops_core: Vec<(i64, i64, &'static [i64])> = Vec::with_capacity(nargs);
    for i in 0..nargs {
        let (ncore, offset) = if o.core_enabled != 0 {
            // SAFETY: a generalized ufunc's core tables hold `nargs` entries,
            // and `core_dim_ixs` the sum of `core_num_dims`.
            unsafe { (*o.core_num_dims.add(i), *o.core_offsets.add(i)) }
        } else {
            (0, 0)
        };
        let dims: Vec<i64> = (0..ncore)
            // SAFETY: see above.
            .map(|k| i64::from(unsafe { *o.core_dim_ixs.add((offset + k) as usize) }))
            .collect();
        ops_core.push((i64::from(ncore), nargs as i64 + i64::from(offset), Box::leak(dims.into_boxed_slice())));
    }
    let ndims = if o.core_enabled != 0 { i64::from(o.core_num_dim_ix) } else { 0 };
    for (l, (func, data)) in loops.funcs.iter_mut().zip(loops.data.iter_mut()).enumerate() {
        let Some(f) = *func else { continue };
        // The serial loop and its library's runtime: a loop that can panic
        // is `guard.c`'s wrapper of `NAME_loop`.
        let (serial, runtime): (InnerLoop, Option<*const Runtime>) =
            if f as usize == guard::postc_py_ufunc_loop as *const () as usize {
                // SAFETY: the data of `postc_py_ufunc_loop` is a UFuncLoop.
                let g = unsafe { &*(*data as *const UFuncLoop) };
                (g.function, Some(g.runtime))
            } else {
                // SAFETY: a NumPy inner loop's signature.
                (unsafe { std::mem::transmute::<usize, InnerLoop>(f as usize) }, None)
            };
        let mut ops = Vec::with_capacity(nargs);
        for (i, &(ncore, corebase, core)) in ops_core.iter().enumerate() {
            let t = loops.types[l * nargs + i];
            let Some(elsize) = npy_elsize(t) else {
                return Err(PyTypeError::new_err(format!("ufunc {name}: operand {i} has NumPy type {t}")));
            };
            ops.push(OperandDesc {
                code: 0,
                bits: 0,
                elsize,
                ncore,
                corebase,
                core: core.as_ptr(),
                dtype_name: std::ptr::null(),
                core_signature: std::ptr::null(),
            });
        }
        let ops: &'static [OperandDesc] = Box::leak(ops.into_boxed_slice());
        let desc: &'static mut ParallelDesc = Box::leak(Box::new(ParallelDesc {
            serial,
            nin: i64::from(o.nin),
            nops: nargs as i64,
            ndims,
            ops: ops.as_ptr(),
        }));
        let desc = (desc as *mut ParallelDesc).cast::<c_void>();
        match runtime {
            Some(runtime) => {
                let g: &'static mut UFuncLoop = Box::leak(Box::new(UFuncLoop { function: entry, runtime, data: desc }));
                *data = (g as *mut UFuncLoop).cast();
            }
            None => {
                // SAFETY: the same signature, with `*mut` dimensions as NumPy
                // declares it.
                *func = Some(unsafe {
                    std::mem::transmute::<
                        InnerLoop,
                        unsafe extern "C" fn(*mut *mut c_char, *mut isize, *mut isize, *mut c_void),
                    >(entry)
                });
                *data = desc;
            }
        }
    }
    loops.into_ufunc(py, &name, doc.as_deref(), std::slice::from_ref(&u))
}
