//! Calling an exported function: Python arguments checked against the
//! signature and converted to the C ABI of docs/abi.md (§2 scalars, §3
//! arrays as `DLTensor *`), the call made through libffi, the result
//! converted back.

use crate::dlpack::{self, DLDevice, DLManagedTensor, DLTensor};
use crate::guard;
use crate::signature::{ArraySpec, FuncSpec, ParamType, Ret};
use libffi::middle::{Cif, Type};
use numpy::npyffi::{self, PY_ARRAY_API};
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use postc_ir::DType;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyComplex, PyDict, PyFloat, PyInt, PyString, PyTuple};
use smallvec::SmallVec;
use std::ffi::c_void;

/// A prepared libffi call interface. It is only read after creation.
pub struct CallInterface(pub Cif);
// SAFETY: the `ffi_cif` and the type descriptions it points to are built
// once and never written again; concurrent `ffi_call`s only read them.
unsafe impl Send for CallInterface {}
unsafe impl Sync for CallInterface {}

/// The libffi type of a scalar of `d` passed by value.
fn scalar_type(d: DType) -> Type {
    match d {
        DType::Bool | DType::UInt8 => Type::u8(),
        DType::Int8 => Type::i8(),
        DType::Int16 => Type::i16(),
        DType::UInt16 => Type::u16(),
        DType::Int32 => Type::i32(),
        DType::UInt32 => Type::u32(),
        DType::Int64 => Type::i64(),
        DType::UInt64 => Type::u64(),
        // `_Float16` travels in the low half of a floating-point register
        // (x86-64 System V and AArch64 alike), as a `float` whose low 16
        // bits are the half's does: libffi has no half type.
        DType::Float16 | DType::Float32 => Type::f32(),
        DType::Float64 => Type::f64(),
        DType::Complex64 | DType::Complex128 => Type::pointer(),
        DType::Str | DType::Bytes => Type::structure([Type::pointer(), Type::i64()]),
    }
}

/// The call interface of a function's C signature.
pub fn call_interface(spec: &FuncSpec) -> CallInterface {
    let mut args: Vec<Type> = spec
        .params
        .iter()
        .map(|p| match &p.ty {
            ParamType::Scalar(d) => scalar_type(*d),
            ParamType::Array(_) => Type::pointer(),
        })
        .collect();
    let result = match &spec.ret {
        Ret::Void => Type::void(),
        Ret::Array(_) => Type::pointer(),
        Ret::Scalar(d) if d.is_complex() => {
            // A complex result is written through one more pointer.
            args.push(Type::pointer());
            Type::void()
        }
        Ret::Scalar(d) => scalar_type(*d),
    };
    CallInterface(Cif::new(args, result))
}

/// An exported function of a compiled module.
#[pyclass(module = "postc", name = "Function", frozen)]
pub struct Function {
    pub spec: FuncSpec,
    pub code: usize,
    pub cif: CallInterface,
    /// The library's runtime entry points (`None`: a library that cannot
    /// panic).
    pub runtime: Option<guard::Runtime>,
    pub library: String,
}

/// One argument's storage: the value a scalar slot holds, or the pointer
/// an array or complex slot passes.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Slot([u64; 2]);

/// What a call holds on to until it returns.
struct Prepared<'py> {
    slots: SmallVec<[Slot; INLINE]>,
    /// Complex values passed by pointer.
    values: SmallVec<[Slot; 2]>,
    tensors: SmallVec<[DLTensor; INLINE]>,
    strides: SmallVec<[SmallVec<[i64; 4]>; INLINE]>,
    /// Which tensor (or DLPack tensor) each array parameter uses.
    tensor_of: SmallVec<[TensorRef; INLINE]>,
    /// Objects whose memory the call reads (DLPack capsules, strings).
    keep: SmallVec<[Bound<'py, PyAny>; INLINE]>,
}

/// Parameters held without a heap allocation per call.
const INLINE: usize = 8;

#[derive(Clone, Copy)]
enum TensorRef {
    None,
    Own(usize),
    Borrowed(*mut DLTensor),
    Complex(usize),
}

impl Function {
    fn what(&self) -> String {
        format!("{}()", self.spec.name)
    }

    fn bind<'py>(
        &self,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<SmallVec<[Bound<'py, PyAny>; INLINE]>> {
        let n = self.spec.params.len();
        if args.len() > n {
            return Err(PyTypeError::new_err(format!(
                "{} takes {n} argument{} but {} were given",
                self.what(),
                if n == 1 { "" } else { "s" },
                args.len()
            )));
        }
        let mut bound: SmallVec<[Option<Bound<'py, PyAny>>; INLINE]> = args.iter().map(Some).collect();
        bound.resize(n, None);
        if let Some(kw) = kwargs {
            for (k, v) in kw.iter() {
                let key: String = k.extract()?;
                let Some(i) = self.spec.params.iter().position(|p| p.name == key) else {
                    return Err(PyTypeError::new_err(format!(
                        "{} got an unexpected keyword argument '{key}'",
                        self.what()
                    )));
                };
                if bound[i].is_some() {
                    return Err(PyTypeError::new_err(format!(
                        "{} got multiple values for argument '{key}'",
                        self.what()
                    )));
                }
                bound[i] = Some(v);
            }
        }
        bound
            .into_iter()
            .zip(&self.spec.params)
            .map(|(b, p)| {
                b.ok_or_else(|| PyTypeError::new_err(format!("{} missing required argument '{}'", self.what(), p.name)))
            })
            .collect()
    }

    fn prepare<'py>(&self, py: Python<'py>, args: &[Bound<'py, PyAny>]) -> PyResult<Prepared<'py>> {
        let n = args.len();
        let mut p = Prepared {
            slots: smallvec::smallvec![Slot::default(); n + 1],
            values: SmallVec::new(),
            tensors: SmallVec::new(),
            strides: SmallVec::new(),
            tensor_of: smallvec::smallvec![TensorRef::None; n],
            keep: SmallVec::new(),
        };
        for (i, (arg, param)) in args.iter().zip(&self.spec.params).enumerate() {
            let at = || format!("{}: parameter `{}`", self.what(), param.name);
            match &param.ty {
                ParamType::Scalar(d) if d.is_complex() => {
                    p.values.push(scalar(arg, *d, &at)?);
                    p.tensor_of[i] = TensorRef::Complex(p.values.len() - 1);
                }
                ParamType::Scalar(d) if d.is_text() => {
                    let (ptr, len) = text(arg, *d, &at)?;
                    p.slots[i] = Slot([ptr as u64, len as u64]);
                    p.keep.push(arg.clone());
                }
                ParamType::Scalar(d) => p.slots[i] = scalar(arg, *d, &at)?,
                ParamType::Array(spec) => {
                    p.tensor_of[i] = array(py, arg, spec, &at, &mut p)?;
                }
            }
        }
        Ok(p)
    }
}

#[pymethods]
impl Function {
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let args = self.bind(args, kwargs)?;
        let mut prep = self.prepare(py, &args)?;
        // Addresses are taken once every vector has its final length and
        // place.
        let n = args.len();
        for (t, strides) in prep.tensors.iter_mut().zip(prep.strides.iter_mut()) {
            t.strides = strides.as_mut_ptr();
        }
        let mut result_value = Slot::default();
        for i in 0..n {
            let ptr: *mut c_void = match prep.tensor_of[i] {
                TensorRef::None => continue,
                TensorRef::Own(t) => (&mut prep.tensors[t] as *mut DLTensor).cast(),
                TensorRef::Borrowed(t) => t.cast(),
                TensorRef::Complex(v) => (&mut prep.values[v] as *mut Slot).cast(),
            };
            prep.slots[i] = Slot([ptr as u64, 0]);
        }
        let complex_out = matches!(self.spec.ret, Ret::Scalar(d) if d.is_complex());
        if complex_out {
            prep.slots[n] = Slot([(&mut result_value as *mut Slot) as u64, 0]);
        }
        let nargs = n + usize::from(complex_out);
        let mut avalue: SmallVec<[*mut c_void; INLINE]> =
            prep.slots[..nargs].iter_mut().map(|s| (s as *mut Slot).cast()).collect();
        let mut rvalue = Slot::default();
        // SAFETY: the interface describes the function's C signature
        // (docs/abi.md); every argument slot holds a value of its type, and
        // every pointer it passes (tensors, their shape and stride arrays,
        // the arrays' data, strings, complex values) stays valid until the
        // call returns: the Python objects owning them are held by `args`
        // and `prep`.
        let outcome = unsafe {
            guard::call(
                self.runtime.as_ref(),
                self.cif.0.as_raw_ptr().cast(),
                self.code as *const c_void,
                (&mut rvalue as *mut Slot).cast(),
                avalue.as_mut_ptr(),
            )
        };
        drop(prep);
        if let Err(message) = outcome {
            return Err(guard::panic_error(&message));
        }
        match &self.spec.ret {
            Ret::Void => Ok(py.None().into_bound(py)),
            Ret::Scalar(d) if d.is_complex() => numpy_scalar(py, *d, &result_value),
            Ret::Scalar(d) if d.is_text() => {
                let [ptr, len] = rvalue.0;
                // SAFETY: a returned string is `len` bytes at `ptr`, valid
                // for the life of the process (docs/abi.md §2).
                let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len as usize) };
                Ok(if *d == DType::Str {
                    PyString::new(py, &String::from_utf8_lossy(bytes)).into_any()
                } else {
                    PyBytes::new(py, bytes).into_any()
                })
            }
            Ret::Scalar(d) => numpy_scalar(py, *d, &rvalue),
            Ret::Array(spec) => {
                let managed = rvalue.0[0] as *mut DLManagedTensor;
                // SAFETY: the function returned a `DLManagedTensor *` owned
                // by the caller (docs/abi.md §3).
                unsafe { owned_array(py, managed, spec.dtype) }
            }
        }
    }

    #[getter]
    fn __name__(&self) -> &str {
        &self.spec.name
    }

    #[getter]
    fn __doc__(&self) -> Option<&str> {
        self.spec.doc.as_deref()
    }

    /// The parameters as (name, type) pairs, types as the IR writes them.
    #[getter]
    fn parameters(&self) -> Vec<(String, String)> {
        self.spec
            .params
            .iter()
            .map(|p| {
                let t = match &p.ty {
                    ParamType::Scalar(d) => d.name().to_owned(),
                    ParamType::Array(a) => a.text.clone(),
                };
                (p.name.clone(), t)
            })
            .collect()
    }

    /// The shared library the function lives in.
    #[getter]
    fn library(&self) -> &str {
        &self.library
    }

    /// The address of the compiled function (its C ABI is docs/abi.md's).
    #[getter]
    fn address(&self) -> usize {
        self.code
    }

    fn __repr__(&self) -> String {
        let params: Vec<String> = self.parameters().into_iter().map(|(n, t)| format!("{n}: {t}")).collect();
        let ret = match &self.spec.ret {
            Ret::Void => "None".to_owned(),
            Ret::Scalar(d) => d.name().to_owned(),
            Ret::Array(a) => a.text.clone(),
        };
        format!("<postc function {}({}) -> {}>", self.spec.name, params.join(", "), ret)
    }
}

/// What a scalar parameter accepts, for messages.
fn accepted(d: DType) -> &'static str {
    match d {
        DType::Bool => "a bool or a NumPy bool",
        _ if d.is_int() => "a Python int or a NumPy integer",
        _ if d.is_float() => "a Python int or float, or a NumPy integer or float",
        _ if d.is_complex() => "a Python or NumPy number",
        DType::Str => "a str",
        _ => "a bytes object",
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

fn mismatch(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyErr {
    PyTypeError::new_err(format!("{} expects {} ({}), got {}", at(), d.name(), accepted(d), type_name(obj)))
}

/// A scalar argument as NumPy converts it: a Python number, or a NumPy
/// scalar whose kind casts to the parameter's under `same_kind` (bool to
/// integer to float to complex); integers out of the dtype's range raise
/// OverflowError, as `numpy.int8(300)` does.
fn scalar(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyResult<Slot> {
    #[derive(Clone, Copy)]
    enum Num {
        Bool(bool),
        Int(i128),
        Float(f64),
        Complex(f64, f64),
    }
    let num = if let Ok(b) = obj.cast::<PyBool>() {
        Num::Bool(b.is_true())
    } else if let Ok(i) = obj.cast::<PyInt>() {
        match i.extract::<i64>().map(i128::from).or_else(|_| i.extract::<i128>()) {
            Ok(v) => Num::Int(v),
            Err(_) => return Err(out_of_range(obj, d, at)),
        }
    } else if let Ok(f) = obj.cast::<PyFloat>() {
        Num::Float(f.value())
    } else if let Ok(c) = obj.cast::<PyComplex>() {
        Num::Complex(c.real(), c.imag())
    } else if let Some((kind, _)) = numpy_scalar_kind(obj) {
        match kind {
            b'b' => Num::Bool(obj.is_truthy()?),
            b'i' | b'u' => Num::Int(obj.call_method0("__int__")?.extract::<i128>()?),
            b'f' => Num::Float(obj.call_method0("__float__")?.extract::<f64>()?),
            b'c' => {
                let c: num_complex_pair::Pair = obj.call_method0("__complex__")?.extract()?;
                Num::Complex(c.0, c.1)
            }
            _ => return Err(mismatch(obj, d, at)),
        }
    } else {
        return Err(mismatch(obj, d, at));
    };
    let mut s = Slot::default();
    let int = |n: Num| -> Option<i128> {
        match n {
            Num::Bool(b) => Some(i128::from(b)),
            Num::Int(v) => Some(v),
            _ => None,
        }
    };
    let float = |n: Num| -> Option<f64> {
        match n {
            Num::Float(f) => Some(f),
            Num::Complex(..) => None,
            other => int(other).map(|v| v as f64),
        }
    };
    match d {
        DType::Bool => match num {
            Num::Bool(b) => s.0[0] = u64::from(b),
            _ => return Err(mismatch(obj, d, at)),
        },
        _ if d.is_int() => {
            let v = int(num).ok_or_else(|| mismatch(obj, d, at))?;
            let (lo, hi) = d.int_range().unwrap_or((i64::MIN as i128, u64::MAX as i128));
            if v < lo || v > hi {
                return Err(out_of_range(obj, d, at));
            }
            s.0[0] = v as u64;
        }
        DType::Float16 => {
            let v = float(num).ok_or_else(|| mismatch(obj, d, at))?;
            s.0[0] = u64::from(half::f16::from_f64(v).to_bits());
        }
        DType::Float32 => {
            let v = float(num).ok_or_else(|| mismatch(obj, d, at))?;
            s.0[0] = u64::from((v as f32).to_bits());
        }
        DType::Float64 => {
            let v = float(num).ok_or_else(|| mismatch(obj, d, at))?;
            s.0[0] = v.to_bits();
        }
        DType::Complex64 | DType::Complex128 => {
            let (re, im) = match num {
                Num::Complex(re, im) => (re, im),
                other => (float(other).ok_or_else(|| mismatch(obj, d, at))?, 0.0),
            };
            if d == DType::Complex64 {
                s.0[0] = u64::from((re as f32).to_bits()) | (u64::from((im as f32).to_bits()) << 32);
            } else {
                s.0 = [re.to_bits(), im.to_bits()];
            }
        }
        _ => return Err(mismatch(obj, d, at)),
    }
    Ok(s)
}

mod num_complex_pair {
    use pyo3::prelude::*;
    use pyo3::types::PyComplex;

    /// A Python complex as (real, imag).
    pub struct Pair(pub f64, pub f64);

    impl<'py> FromPyObject<'_, 'py> for Pair {
        type Error = PyErr;
        fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
            let c = obj.cast::<PyComplex>()?;
            Ok(Pair(c.real(), c.imag()))
        }
    }
}

fn out_of_range(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyErr {
    let shown = obj.str().map(|s| s.to_string()).unwrap_or_default();
    PyOverflowError::new_err(format!("{}: Python integer {shown} out of bounds for {}", at(), d.name()))
}

/// The kind character and item size of a NumPy scalar (`numpy.generic`).
fn numpy_scalar_kind(obj: &Bound<'_, PyAny>) -> Option<(u8, usize)> {
    let py = obj.py();
    // SAFETY: the type object of `numpy.generic` from NumPy's C API table.
    let generic = unsafe { PY_ARRAY_API.get_type_object(py, npyffi::NpyTypes::PyGenericArrType_Type) };
    // SAFETY: both pointers are valid Python objects.
    if unsafe { pyo3::ffi::PyObject_TypeCheck(obj.as_ptr(), generic) } == 0 {
        return None;
    }
    let dtype = obj.getattr("dtype").ok()?;
    let kind: String = dtype.getattr("kind").ok()?.extract().ok()?;
    let size: usize = dtype.getattr("itemsize").ok()?.extract().ok()?;
    Some((*kind.as_bytes().first()?, size))
}

/// A Str or Bytes argument: its bytes, which the object owns.
fn text(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyResult<(*const u8, usize)> {
    if d == DType::Str {
        let s = obj.cast::<PyString>().map_err(|_| mismatch(obj, d, at))?;
        let t = s.to_str()?;
        Ok((t.as_ptr(), t.len()))
    } else {
        let b = obj.cast::<PyBytes>().map_err(|_| mismatch(obj, d, at))?;
        let t = b.as_bytes();
        Ok((t.as_ptr(), t.len()))
    }
}

/// How an array parameter is spelled in POST Python, for messages.
fn describe(spec: &ArraySpec) -> String {
    let axes: Vec<String> = spec
        .dims
        .iter()
        .enumerate()
        .map(|(i, d)| match d {
            Some(n) => n.to_string(),
            None if spec.layout == "Fortran-contiguous" && i == 0 && spec.dims.len() > 1 => "::1".into(),
            None => ":".into(),
        })
        .collect();
    let t = format!("{}[{}]", spec.dtype.name(), axes.join(", "));
    if spec.output {
        format!("Out[{t}]")
    } else {
        t
    }
}

/// Checks an array's rank, extents and strides (bytes) against the type.
fn check_layout(
    spec: &ArraySpec,
    shape: &[i64],
    byte_strides: Option<&[i64]>,
    at: &dyn Fn() -> String,
) -> PyResult<()> {
    if shape.len() != spec.dims.len() {
        return Err(PyValueError::new_err(format!(
            "{} expects a {}-dimensional array ({}), got {} dimension{}",
            at(),
            spec.dims.len(),
            describe(spec),
            shape.len(),
            if shape.len() == 1 { "" } else { "s" }
        )));
    }
    for (axis, (want, got)) in spec.dims.iter().zip(shape).enumerate() {
        if let Some(w) = want {
            if *w as i64 != *got {
                return Err(PyValueError::new_err(format!(
                    "{} expects extent {w} on axis {axis} ({}), got shape {:?}",
                    at(),
                    describe(spec),
                    shape
                )));
            }
        }
    }
    if let Some(fixed) = &spec.fixed_strides {
        let elem = spec.dtype.size_bytes() as i64;
        let compact = compact_strides(shape, elem);
        let strides = byte_strides.unwrap_or(&compact);
        // An axis of extent 0 or 1 is never stepped along.
        let ok = fixed.iter().zip(strides).zip(shape).all(|((f, s), n)| *n <= 1 || f == s);
        if !ok {
            let fix =
                if spec.layout == "Fortran-contiguous" { "numpy.asfortranarray" } else { "numpy.ascontiguousarray" };
            return Err(PyValueError::new_err(format!(
                "{} expects a {} array ({}; byte strides {:?}), got byte strides {:?}: copy it with {fix}",
                at(),
                spec.layout,
                describe(spec),
                fixed,
                strides
            )));
        }
    }
    Ok(())
}

fn compact_strides(shape: &[i64], elem: i64) -> Vec<i64> {
    let mut s = vec![0; shape.len()];
    let mut acc = elem;
    for i in (0..shape.len()).rev() {
        s[i] = acc;
        acc *= shape[i].max(1);
    }
    s
}

const NPY_ARRAY_WRITEABLE: i32 = 0x0400;

/// An array argument: a NumPy array (any layout) or an object with
/// `__dlpack__` in host memory, never copied.
fn array<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    spec: &ArraySpec,
    at: &dyn Fn() -> String,
    prep: &mut Prepared<'py>,
) -> PyResult<TensorRef> {
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        let raw = arr.as_array_ptr();
        // SAFETY: a live array's descriptor; `type_num` and `byteorder`
        // have the same place in NumPy 1 and 2.
        let (type_num, byteorder) = unsafe { ((*(*raw).descr).type_num, (*(*raw).descr).byteorder as u8) };
        let same =
            dlpack::npy_type(spec.dtype).is_some_and(|t| dlpack::same_npy_type(t, type_num)) && byteorder != b'>';
        if !same {
            // The slow path: another type number of the same element type
            // is fine; anything else is an error naming the dtype.
            let descr = arr.dtype();
            let native = descr.is_native_byteorder() != Some(false);
            if dlpack::dtype_of_numpy(descr.kind(), descr.itemsize()) != Some(spec.dtype) || !native {
                let shown = descr.str().map(|s| s.to_string()).unwrap_or_default();
                let order = if native { "" } else { " in non-native byte order" };
                return Err(PyTypeError::new_err(format!(
                    "{} expects a {} array ({}), got an array of {shown}{order}",
                    at(),
                    dlpack::numpy_name(spec.dtype),
                    describe(spec)
                )));
            }
        }
        // SAFETY: `raw` is a live NumPy array object.
        let (data, nd, dims, strides, flags) =
            unsafe { ((*raw).data, (*raw).nd as usize, (*raw).dimensions, (*raw).strides, (*raw).flags) };
        // SAFETY: an array's dimensions and strides hold `nd` entries
        // (npy_intp is i64 on the 64-bit platforms this builds for).
        let (shape, bstrides) = unsafe {
            if nd == 0 {
                (&[][..], &[][..])
            } else {
                (
                    std::slice::from_raw_parts(dims.cast::<i64>(), nd),
                    std::slice::from_raw_parts(strides.cast::<i64>(), nd),
                )
            }
        };
        check_layout(spec, shape, Some(bstrides), at)?;
        if spec.output && flags & NPY_ARRAY_WRITEABLE == 0 {
            return Err(PyValueError::new_err(format!(
                "{} is an output ({}) and the array is read-only",
                at(),
                describe(spec)
            )));
        }
        let elem = spec.dtype.size_bytes() as i64;
        if let Some(s) = bstrides.iter().find(|s| **s % elem != 0) {
            return Err(PyValueError::new_err(format!(
                "{} has a byte stride {s} that is not a multiple of its element size {elem}",
                at()
            )));
        }
        // One stride array per own tensor; the tensor points at it once
        // the call's storage stops moving (`Function::__call__`).
        prep.strides.push(bstrides.iter().map(|s| s / elem).collect());
        let strides = std::ptr::null_mut();
        prep.tensors.push(DLTensor {
            data: data.cast(),
            device: DLDevice { device_type: 1, device_id: 0 },
            ndim: nd as i32,
            dtype: dlpack::dl_dtype(spec.dtype),
            shape: dims.cast(),
            strides,
            byte_offset: 0,
        });
        prep.keep.push(obj.clone());
        return Ok(TensorRef::Own(prep.tensors.len() - 1));
    }
    if obj.hasattr("__dlpack__")? {
        if obj.hasattr("__dlpack_device__")? {
            let (device, _): (i32, i32) = obj.call_method0("__dlpack_device__")?.extract()?;
            if !dlpack::HOST_DEVICES.contains(&device) {
                return Err(PyValueError::new_err(format!(
                    "{} expects an array in host memory, got one on {}",
                    at(),
                    dlpack::device_name(device)
                )));
            }
        }
        let capsule = obj.call_method0("__dlpack__")?;
        let name = c"dltensor";
        // SAFETY: checks the capsule's name before reading its pointer.
        let managed = unsafe { pyo3::ffi::PyCapsule_GetPointer(capsule.as_ptr(), name.as_ptr()) };
        if managed.is_null() {
            return Err(PyErr::take(py).unwrap_or_else(|| {
                PyTypeError::new_err(format!("{}: __dlpack__ did not return a DLPack capsule", at()))
            }));
        }
        let managed = managed.cast::<DLManagedTensor>();
        // SAFETY: a "dltensor" capsule holds a live `DLManagedTensor`,
        // owned by the capsule while it is not consumed (we do not consume
        // it: the capsule is kept until the call returns).
        let t = unsafe { &mut (*managed).dl_tensor };
        if !dlpack::HOST_DEVICES.contains(&t.device.device_type) {
            return Err(PyValueError::new_err(format!(
                "{} expects an array in host memory, got one on {}",
                at(),
                dlpack::device_name(t.device.device_type)
            )));
        }
        if dlpack::dtype_of_dl(t.dtype) != Some(spec.dtype) {
            let got = dlpack::dtype_of_dl(t.dtype).map(|d| dlpack::numpy_name(d).to_owned()).unwrap_or_else(|| {
                format!("DLPack type code {} of {} bits ({} lanes)", t.dtype.code, t.dtype.bits, t.dtype.lanes)
            });
            return Err(PyTypeError::new_err(format!(
                "{} expects a {} array ({}), got an array of {got}",
                at(),
                dlpack::numpy_name(spec.dtype),
                describe(spec)
            )));
        }
        let nd = t.ndim.max(0) as usize;
        // SAFETY: a DLTensor's shape (and strides, when not null) hold
        // `ndim` entries.
        let shape: Vec<i64> =
            if nd == 0 { Vec::new() } else { unsafe { std::slice::from_raw_parts(t.shape, nd) }.to_vec() };
        let elem = spec.dtype.size_bytes() as i64;
        let bstrides: Option<Vec<i64>> = (!t.strides.is_null() && nd > 0)
            .then(|| unsafe { std::slice::from_raw_parts(t.strides, nd) }.iter().map(|s| s * elem).collect());
        check_layout(spec, &shape, bstrides.as_deref(), at)?;
        prep.keep.push(capsule);
        prep.keep.push(obj.clone());
        return Ok(TensorRef::Borrowed(t));
    }
    Err(PyTypeError::new_err(format!(
        "{} expects a {} array ({}: a NumPy array or an object with __dlpack__), got {}",
        at(),
        dlpack::numpy_name(spec.dtype),
        describe(spec),
        type_name(obj)
    )))
}

/// The NumPy scalar of dtype `d` whose bytes are at the start of `slot`.
fn numpy_scalar<'py>(py: Python<'py>, d: DType, slot: &Slot) -> PyResult<Bound<'py, PyAny>> {
    let Some(typenum) = dlpack::npy_type(d) else {
        return Err(PyTypeError::new_err(format!("no NumPy scalar holds a {}", d.name())));
    };
    let mut bytes = *slot;
    if d == DType::Bool {
        bytes.0[0] &= 1;
    }
    // SAFETY: the descriptor is a new reference of a builtin type; the
    // scalar copies `itemsize` bytes from `bytes`, which holds at least 16.
    unsafe {
        let descr = PY_ARRAY_API.PyArray_DescrFromType(py, typenum);
        let obj = PY_ARRAY_API.PyArray_Scalar(py, (&mut bytes as *mut Slot).cast(), descr, std::ptr::null_mut());
        pyo3::ffi::Py_DECREF(descr.cast());
        Bound::from_owned_ptr_or_err(py, obj)
    }
}

/// A NumPy array that owns a returned `DLManagedTensor`: its base is a
/// capsule that calls the tensor's deleter when the array is freed.
///
/// # Safety
/// `managed` must be a live `DLManagedTensor` of host memory whose
/// ownership passes to the array.
pub unsafe fn owned_array<'py>(
    py: Python<'py>,
    managed: *mut DLManagedTensor,
    d: DType,
) -> PyResult<Bound<'py, PyAny>> {
    let release = move |m: usize, _: *mut c_void| {
        let m = m as *mut DLManagedTensor;
        // SAFETY: the capsule owns the tensor and is destroyed once.
        unsafe {
            if let Some(del) = (*m).deleter {
                del(m);
            }
        }
    };
    let base = pyo3::types::PyCapsule::new_with_destructor(py, managed as usize, None, release)?;
    let t = &(*managed).dl_tensor;
    let Some(typenum) = dlpack::npy_type(d) else {
        return Err(PyTypeError::new_err(format!("no NumPy array holds {} elements", d.name())));
    };
    let nd = t.ndim.max(0) as usize;
    let elem = d.size_bytes() as i64;
    let mut shape: Vec<npyffi::npy_intp> =
        if nd == 0 { Vec::new() } else { std::slice::from_raw_parts(t.shape, nd).iter().map(|&x| x as _).collect() };
    let mut strides: Vec<npyffi::npy_intp> = if t.strides.is_null() {
        compact_strides(&shape.iter().map(|&x| x as i64).collect::<Vec<_>>(), elem)
            .into_iter()
            .map(|x| x as _)
            .collect()
    } else {
        std::slice::from_raw_parts(t.strides, nd).iter().map(|&s| (s * elem) as _).collect()
    };
    let data = t.data.cast::<u8>().add(t.byte_offset as usize);
    let descr = PY_ARRAY_API.PyArray_DescrFromType(py, typenum);
    let array_type = PY_ARRAY_API.get_type_object(py, npyffi::NpyTypes::PyArray_Type);
    let arr = PY_ARRAY_API.PyArray_NewFromDescr(
        py,
        array_type,
        descr,
        nd as i32,
        shape.as_mut_ptr(),
        strides.as_mut_ptr(),
        data.cast(),
        NPY_ARRAY_WRITEABLE,
        std::ptr::null_mut(),
    );
    let arr = Bound::from_owned_ptr_or_err(py, arr)?;
    // The array keeps the capsule (and so the tensor) alive.
    if PY_ARRAY_API.PyArray_SetBaseObject(py, arr.as_ptr().cast(), base.into_ptr()) != 0 {
        return Err(PyErr::fetch(py));
    }
    Ok(arr)
}
