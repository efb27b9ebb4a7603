//! NumPy scalars: the results of calls (`numpy.float64` for a Float64), the
//! values of NumPy scalar arguments, and numbers rounded to a float dtype
//! once, from their exact value, as NumPy's casts round them.
//!
//! A result is made the way `PyArray_Scalar` makes one, without its
//! per-call descriptor work: the scalar type is looked up once per
//! function, an object allocated with the type's `tp_alloc` and the value's
//! bytes written where NumPy keeps them (checked once per dtype against a
//! scalar `PyArray_Scalar` made; a type where the check fails is made by
//! `PyArray_Scalar` itself). Bools are NumPy's two singletons.

use crate::dlpack;
use numpy::npyffi::{self, PY_ARRAY_API};
use postc_ir::DType;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use std::ffi::c_void;

/// Makes the NumPy scalars of one dtype.
#[derive(Debug)]
pub enum ScalarMaker {
    /// `numpy.False_` and `numpy.True_`.
    Bool([Py<PyAny>; 2]),
    /// `alloc`, `ty`'s `tp_alloc`, then `size` bytes of value at `offset`.
    Direct { ty: Py<pyo3::types::PyType>, alloc: ffi::allocfunc, offset: usize, size: usize },
    /// `PyArray_Scalar` with the dtype's type number.
    Generic { typenum: i32 },
}

/// The NumPy scalar of `d` whose bytes are `bytes` (little-endian, the
/// value in the first `d.size_bytes()`), made by `PyArray_Scalar`.
fn generic_scalar<'py>(py: Python<'py>, typenum: i32, bytes: &[u64; 2]) -> PyResult<Bound<'py, PyAny>> {
    let mut copy = *bytes;
    // SAFETY: the descriptor is a new reference of a builtin type; the
    // scalar copies its item size (at most 16 bytes) from `copy`.
    unsafe {
        let descr = PY_ARRAY_API.PyArray_DescrFromType(py, typenum);
        if descr.is_null() {
            return Err(PyErr::fetch(py));
        }
        let obj = PY_ARRAY_API.PyArray_Scalar(py, (&mut copy as *mut [u64; 2]).cast(), descr, std::ptr::null_mut());
        ffi::Py_DECREF(descr.cast());
        Bound::from_owned_ptr_or_err(py, obj)
    }
}

/// What a scalar is made from: a type's object size, item size and
/// `tp_alloc`.
struct TypeLayout {
    basic_size: usize,
    item_size: usize,
    alloc: Option<ffi::allocfunc>,
}

impl TypeLayout {
    #[cfg(not(feature = "abi3"))]
    fn of(ty: &Bound<'_, pyo3::types::PyType>) -> PyResult<TypeLayout> {
        let t = ty.as_type_ptr();
        // SAFETY: reads of a live type object's fields.
        unsafe {
            Ok(TypeLayout {
                basic_size: (*t).tp_basicsize as usize,
                item_size: (*t).tp_itemsize as usize,
                alloc: (*t).tp_alloc,
            })
        }
    }

    /// The stable ABI hides the type object's fields: the sizes are its
    /// attributes and `tp_alloc` its slot (which CPython 3.10 and later
    /// give for static types too).
    #[cfg(feature = "abi3")]
    fn of(ty: &Bound<'_, pyo3::types::PyType>) -> PyResult<TypeLayout> {
        // SAFETY: the slot of a live type; NULL or its `allocfunc`.
        let alloc = unsafe { ffi::PyType_GetSlot(ty.as_type_ptr(), ffi::Py_tp_alloc) };
        Ok(TypeLayout {
            basic_size: ty.getattr("__basicsize__")?.extract()?,
            item_size: ty.getattr("__itemsize__")?.extract()?,
            // SAFETY: the `tp_alloc` slot holds an `allocfunc`.
            alloc: (!alloc.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, ffi::allocfunc>(alloc) }),
        })
    }
}

impl ScalarMaker {
    /// The maker of `d`'s scalars (an error for Str and Bytes, which are
    /// not NumPy scalars here).
    pub fn new(py: Python<'_>, d: DType) -> PyResult<ScalarMaker> {
        let Some(typenum) = dlpack::npy_type(d) else {
            return Err(PyTypeError::new_err(format!("no NumPy scalar holds a {}", d.name())));
        };
        if d == DType::Bool {
            let f = generic_scalar(py, typenum, &[0, 0])?.unbind();
            let t = generic_scalar(py, typenum, &[1, 0])?.unbind();
            return Ok(ScalarMaker::Bool([f, t]));
        }
        let size = d.size_bytes() as usize;
        // A pattern in every byte of the value, made the generic way.
        let probe: [u64; 2] = [0x0807_0605_0403_0201, 0x100f_0e0d_0c0b_0a09];
        let made = generic_scalar(py, typenum, &probe)?;
        let header = std::mem::size_of::<ffi::PyObject>();
        let align = size.min(8);
        let offset = header.div_ceil(align) * align;
        let ty = made.get_type();
        let layout = TypeLayout::of(&ty)?;
        // SAFETY: `made` is a live scalar of at least `basic_size` bytes;
        // only that many are read.
        let fits = offset + size <= layout.basic_size
            && layout.item_size == 0
            && unsafe {
                std::slice::from_raw_parts(made.as_ptr().cast::<u8>().add(offset), size)
                    == &bytemuck_bytes(&probe)[..size]
            };
        match layout.alloc {
            Some(alloc) if fits => Ok(ScalarMaker::Direct { ty: ty.unbind(), alloc, offset, size }),
            _ => Ok(ScalarMaker::Generic { typenum }),
        }
    }

    /// The scalar whose value is the first bytes of `bytes`.
    pub fn make<'py>(&self, py: Python<'py>, bytes: &[u64; 2]) -> PyResult<Bound<'py, PyAny>> {
        match self {
            ScalarMaker::Bool(values) => Ok(values[(bytes[0] & 1) as usize].bind(py).clone()),
            ScalarMaker::Direct { ty, alloc, offset, size } => {
                let ty = ty.bind(py).as_type_ptr();
                // SAFETY: `tp_alloc` of a NumPy scalar type gives a zeroed,
                // initialised object of `tp_basicsize` bytes, whose value
                // lies at `offset` (checked in `new`).
                unsafe {
                    let obj = alloc(ty, 0);
                    if obj.is_null() {
                        return Err(PyErr::fetch(py));
                    }
                    std::ptr::copy_nonoverlapping(
                        (bytes as *const [u64; 2]).cast::<u8>(),
                        obj.cast::<u8>().add(*offset),
                        *size,
                    );
                    Ok(Bound::from_owned_ptr(py, obj))
                }
            }
            ScalarMaker::Generic { typenum } => generic_scalar(py, *typenum, bytes),
        }
    }
}

fn bytemuck_bytes(v: &[u64; 2]) -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&v[0].to_le_bytes());
    out[8..].copy_from_slice(&v[1].to_le_bytes());
    out
}

/// The value of a NumPy scalar argument (`numpy.generic`).
#[derive(Clone, Copy, Debug)]
pub enum NumpyValue {
    Bool(bool),
    Int(i128),
    Float(f64),
    Complex(f64, f64),
    /// A NumPy scalar of no kind a parameter takes (a string, a datetime,
    /// a long double).
    Other,
}

/// The value of `obj` when it is a NumPy scalar, read with
/// `PyArray_ScalarAsCtype`.
pub fn numpy_value(obj: &Bound<'_, PyAny>) -> Option<NumpyValue> {
    let py = obj.py();
    // SAFETY: the type object of `numpy.generic` from NumPy's C API table.
    let generic = unsafe { PY_ARRAY_API.get_type_object(py, npyffi::NpyTypes::PyGenericArrType_Type) };
    // SAFETY: both pointers are valid Python objects.
    if unsafe { ffi::PyObject_TypeCheck(obj.as_ptr(), generic) } == 0 {
        return None;
    }
    // SAFETY: `obj` is a NumPy scalar: its descriptor is a new reference;
    // the value is copied into a 16-byte aligned buffer, large enough for
    // every type number read below (the others are not copied).
    unsafe {
        let descr = PY_ARRAY_API.PyArray_DescrFromScalar(py, obj.as_ptr());
        if descr.is_null() {
            PyErr::take(py);
            return Some(NumpyValue::Other);
        }
        let typenum = (*descr).type_num;
        ffi::Py_DECREF(descr.cast());
        #[repr(C, align(16))]
        struct Buf([u8; 16]);
        let mut buf = Buf([0; 16]);
        let known = matches!(typenum, 0..=12 | 14 | 15 | 23);
        if !known {
            return Some(NumpyValue::Other);
        }
        PY_ARRAY_API.PyArray_ScalarAsCtype(py, obj.as_ptr(), buf.0.as_mut_ptr().cast::<c_void>());
        let b = &buf.0;
        let i64_at = |k: usize| i64::from_le_bytes(b[k..k + 8].try_into().unwrap());
        let f64_at = |k: usize| f64::from_le_bytes(b[k..k + 8].try_into().unwrap());
        let f32_at = |k: usize| f32::from_le_bytes(b[k..k + 4].try_into().unwrap());
        Some(match typenum {
            0 => NumpyValue::Bool(b[0] != 0),
            1 => NumpyValue::Int(i128::from(b[0] as i8)),
            2 => NumpyValue::Int(i128::from(b[0])),
            3 => NumpyValue::Int(i128::from(i16::from_le_bytes([b[0], b[1]]))),
            4 => NumpyValue::Int(i128::from(u16::from_le_bytes([b[0], b[1]]))),
            5 => NumpyValue::Int(i128::from(i32::from_le_bytes(b[..4].try_into().unwrap()))),
            6 => NumpyValue::Int(i128::from(u32::from_le_bytes(b[..4].try_into().unwrap()))),
            7 | 9 => NumpyValue::Int(i128::from(i64_at(0))),
            8 | 10 => NumpyValue::Int(i128::from(i64_at(0) as u64)),
            11 => NumpyValue::Float(f64::from(f32_at(0))),
            12 => NumpyValue::Float(f64_at(0)),
            14 => NumpyValue::Complex(f64::from(f32_at(0)), f64::from(f32_at(4))),
            15 => NumpyValue::Complex(f64_at(0), f64_at(8)),
            23 => NumpyValue::Float(half::f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f64()),
            _ => NumpyValue::Other,
        })
    }
}

/// The register bits of `v` as the float dtype `d` (a Float32 or Float16 in
/// the low bits), rounded once to nearest, ties to even.
pub fn float_bits(d: DType, v: f64) -> u64 {
    match d {
        DType::Float16 => u64::from(f64_to_f16_bits(v)),
        DType::Float32 => u64::from((v as f32).to_bits()),
        _ => v.to_bits(),
    }
}

/// The bits of a Float16 nearest `v`. `half`'s own conversion from f64
/// goes through f32 (or drops the low 32 bits of the significand), which
/// rounds twice; here the f32 step rounds to odd instead (an inexact result
/// keeps a set last bit), which carries the lost bits' "above or below the
/// halfway point" to the second rounding: f32's 24 bits are more than the
/// two extra bits round-to-odd needs over f16's 11.
pub fn f64_to_f16_bits(v: f64) -> u16 {
    let r = v as f32;
    let odd = if v.is_nan() || f64::from(r) == v || r.to_bits() & 1 == 1 {
        r
    } else if f64::from(r).abs() > v.abs() {
        // One step towards zero, where `v` lies (sign and magnitude bits).
        f32::from_bits(r.to_bits() - 1)
    } else {
        f32::from_bits(r.to_bits() + 1)
    };
    half::f16::from_f32(odd).to_bits()
}

/// The register bits, as the float dtype `d`, of the integer of sign
/// `negative` and `magnitude`, rounded once to nearest, ties to even (as C
/// and NumPy cast an integer; not through Float64 for a narrower dtype).
pub fn integer_float_bits(d: DType, negative: bool, magnitude: u128) -> u64 {
    match d {
        DType::Float16 => {
            // Below 2**24 the f32 is exact and the one rounding is to f16;
            // from 65520 up, f16 has only infinity.
            let h = if magnitude < 1 << 24 { half::f16::from_f32(magnitude as f32) } else { half::f16::INFINITY };
            u64::from(if negative { -h } else { h }.to_bits())
        }
        DType::Float32 => {
            let f = magnitude as f32;
            u64::from(if negative { -f } else { f }.to_bits())
        }
        _ => {
            let f = magnitude as f64;
            if negative { -f } else { f }.to_bits()
        }
    }
}
