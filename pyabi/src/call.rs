//! Calling an exported function: Python arguments checked against the
//! signature and converted to the C ABI of docs/abi.md (§2 scalars, §3
//! arrays as `DLTensor *`), the call made with the GIL released, the result
//! converted back.
//!
//! The signature is decoded once, when the function is loaded, into a
//! [`Plan`]: how each argument is converted and where it travels. CPython
//! calls a [`Function`] through vectorcall (the arguments as a C array, no
//! tuple), installed on the class by [`Function::new`]. A call whose
//! arguments all fit in registers (at most six integer-class and eight
//! floating-point ones: nearly every signature) goes through `guard.c`'s
//! wide register prototype; others through libffi. A positional call in
//! registers whose arrays are NumPy arrays (the common call) keeps
//! everything on the stack ([`Function::call_fast`]); keywords, DLPack
//! objects and many or high-rank strided arrays take the general path.
//!
//! The GIL is handed to other threads for the call whenever another Python
//! thread exists ([`without_gil`]).
//!
//! Lifetimes: the arguments' objects are held by the caller for the call
//! (and DLPack capsules by the call itself). A returned array that is an
//! argument's tensor is that argument's object itself, as CPython would
//! return it; one that lies in an argument's memory (a view of it) keeps
//! the argument alive through its base.

use crate::aligned::AlignedCopy;
use crate::dlpack::{self, DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLTensor};
use crate::guard::{self, Registers, Returns, FLOAT_REGISTERS, INT_REGISTERS};
use crate::scalars::{self, NumpyValue, ScalarMaker};
use libffi::middle::{Cif, Type};
use numpy::npyffi::{self, PY_ARRAY_API};
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use postc_ir::exports::{ArraySpec, FuncSpec, ParamType, Ret};
use postc_ir::{ConstValue, DType};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyComplex, PyDict, PyFloat, PyInt, PyString, PyTuple};
use pyo3::{ffi, Borrowed};
use smallvec::SmallVec;
use std::ffi::c_void;
use std::mem::MaybeUninit;

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

/// A parameter's type as the IR writes it (`T | None` for one that may be
/// `None`).
fn ir_type_text(ty: &ParamType) -> String {
    match ty {
        ParamType::Scalar(d) => d.name().to_owned(),
        ParamType::Array(a) => a.text.clone(),
        ParamType::MaybeNone(inner) => format!("{} | None", ir_type_text(inner)),
        ParamType::DType(d) => format!("type[{}]", d.name()),
        ParamType::Tuple(elements) => {
            format!("tuple[{}]", elements.iter().map(|d| d.name()).collect::<Vec<_>>().join(", "))
        }
    }
}

/// A new read-only NumPy array of `dtype` and `shape`, every element
/// `fill` (an array default, or the empty array a `None` stands for).
fn read_only_array<'py>(
    numpy: &Bound<'py, PyModule>,
    dtype: DType,
    shape: impl ExactSizeIterator<Item = u64>,
    fill: &Bound<'py, PyAny>,
) -> PyResult<Py<PyAny>> {
    let py = numpy.py();
    let shape = PyTuple::new(py, shape)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", crate::dlpack::numpy_name(dtype))?;
    let array = numpy.getattr("full")?.call((shape, fill), Some(&kwargs))?;
    array.call_method1("setflags", (false,))?;
    Ok(array.unbind())
}

/// The C arguments of a value of type `ty`: a scalar's, an array's
/// `DLTensor *`, each element of a tuple in order.
fn value_types(args: &mut Vec<Type>, ty: &ParamType) {
    match ty {
        ParamType::Scalar(d) => args.push(scalar_type(*d)),
        ParamType::Array(_) => args.push(Type::pointer()),
        ParamType::Tuple(elements) => args.extend(elements.iter().map(|d| scalar_type(*d))),
        // Fixed when compiled: nothing passed.
        ParamType::DType(_) => {}
        ParamType::MaybeNone(_) => unreachable!("a value that may be None inside another"),
    }
}

/// The call interface of a function's C signature.
fn call_interface(spec: &FuncSpec) -> CallInterface {
    let mut args: Vec<Type> = Vec::with_capacity(spec.params.len());
    for p in &spec.params {
        match &p.ty {
            // The flag, then the value's.
            ParamType::MaybeNone(inner) => {
                args.push(scalar_type(DType::Bool));
                value_types(&mut args, inner);
            }
            ty => value_types(&mut args, ty),
        }
    }
    let result = match &spec.ret {
        // (`Optional` is an element of a tuple only: `Plan::new` refuses
        // it as a whole result first.)
        Ret::Void | Ret::Optional(_) => Type::void(),
        Ret::Array(_) | Ret::List(_) => Type::pointer(),
        Ret::MaybeNone(_) => {
            // The flag and the value are written through two more pointers.
            args.extend([Type::pointer(), Type::pointer()]);
            Type::void()
        }
        Ret::Tuple(elements) => {
            // Each element (of an inner tuple too) is written through one
            // more pointer, one that may be `None` through two.
            let slots: usize = Ret::flat_tuple(elements).0.iter().map(|e| e.slots()).sum();
            args.extend((0..slots).map(|_| Type::pointer()));
            Type::void()
        }
        Ret::Scalar(d) if d.is_complex() => {
            // A complex result is written through one more pointer.
            args.push(Type::pointer());
            Type::void()
        }
        Ret::Scalar(d) => scalar_type(*d),
    };
    CallInterface(Cif::new(args, result))
}

/// How a parameter's argument is converted.
#[derive(Debug)]
enum Convert {
    /// Bool or an integer dtype: a value in a general register.
    Int(DType),
    /// Float16, Float32 or Float64: bits in a vector register.
    Float(DType),
    /// A complex number, passed by pointer.
    Complex(DType),
    /// Str or Bytes: a `postc_str` by value.
    Text(DType),
    /// An array: a `DLTensor *`.
    Array(ArraySpec),
    /// Whether the argument of a parameter that may be `None` is given:
    /// the Bool before its value.
    Given,
    /// The value of a scalar parameter that may be `None` (Bool, an
    /// integer or a float dtype, in the register of that class), or an
    /// element of a tuple that may be: zero for `None`. (An array that may
    /// be `None` is an [`Convert::Array`], given an empty array for
    /// `None`: [`Function::c_arguments`].)
    OrNone(DType),
}

/// Where an argument travels in a register call.
#[derive(Clone, Copy, Debug)]
enum Place {
    Int(usize),
    Float(usize),
    /// Two consecutive general registers (a `postc_str`).
    Pair(usize),
}

/// How a result is converted.
#[derive(Debug)]
enum Result_ {
    Void,
    /// A real scalar, from the result's bits.
    Scalar(ScalarMaker),
    /// A complex scalar, written through the extra pointer.
    Complex(ScalarMaker),
    Text(DType),
    Array(DType),
    /// A list of numbers: the 1-D array returned, made a Python `list`.
    List(DType),
    /// A tuple, each element (any of the above but `Void`) written through
    /// its own pointer: a Python tuple.
    Tuple(Vec<Result_>),
    /// A scalar or `None`: a flag and a value, each written through its own
    /// pointer.
    MaybeNone(Box<Result_>),
    /// In a tuple, the flag of the element after it, which may be `None`.
    Given,
}

impl Result_ {
    /// How a scalar or array result of `ret` is converted; a tuple's
    /// elements are read from memory as a complex result is.
    fn of(py: Python<'_>, ret: &Ret) -> PyResult<Result_> {
        Ok(match ret {
            Ret::Void => Result_::Void,
            Ret::Array(a) => Result_::Array(a.dtype),
            Ret::List(d) => Result_::List(*d),
            Ret::Scalar(d) if d.is_complex() => Result_::Complex(ScalarMaker::new(py, *d)?),
            Ret::Scalar(d) if d.is_text() => Result_::Text(*d),
            Ret::Scalar(d) => Result_::Scalar(ScalarMaker::new(py, *d)?),
            // The elements as the call writes them, inner tuples' flat, an
            // element that may be `None` its flag and its value.
            Ret::Tuple(elements) => {
                let mut flat = Vec::with_capacity(elements.len());
                for e in Ret::flat_tuple(elements).0 {
                    if let Ret::Optional(value) = e {
                        flat.push(Result_::Given);
                        flat.push(Result_::of(py, value)?);
                    } else {
                        flat.push(Result_::of(py, e)?);
                    }
                }
                Result_::Tuple(flat)
            }
            Ret::MaybeNone(d) => Result_::MaybeNone(Box::new(Result_::Scalar(ScalarMaker::new(py, *d)?))),
            Ret::Optional(value) => Result_::of(py, value)?,
        })
    }
}

/// A function's signature, decoded once.
#[derive(Debug)]
pub struct Plan {
    /// One entry per C argument: a parameter that may be `None` is two.
    params: Vec<(Convert, Place)>,
    /// The Python parameter of each C argument.
    param_of: Vec<usize>,
    /// Which element of its tuple argument each C argument is, if any.
    element_of: Vec<Option<usize>>,
    /// The C arguments are not the Python ones: some parameter may be
    /// `None` (its argument is passed twice) or is a tuple (its elements
    /// are passed).
    regroups: bool,
    result: Result_,
    /// The general register of a complex result's pointer.
    complex_out: Option<usize>,
    /// The general registers of a tuple result's pointers, one per element.
    tuple_out: Vec<usize>,
    /// The tuples inside a tuple result: each one's first element among
    /// the flat elements and how many it has.
    result_groups: Vec<(usize, usize)>,
    returns: Returns,
    /// Whether the arguments fit in registers (else libffi).
    registers: bool,
}

impl Plan {
    fn new(py: Python<'_>, spec: &FuncSpec) -> PyResult<Plan> {
        let (mut ints, mut floats) = (0usize, 0usize);
        let mut params = Vec::with_capacity(spec.params.len());
        let mut param_of = Vec::with_capacity(spec.params.len());
        let mut element_of = Vec::with_capacity(spec.params.len());
        // Whether the C arguments are other than one per Python argument
        // in order, beyond a parameter that may be `None` passed twice.
        let mut regrouped = false;
        for (k, p) in spec.params.iter().enumerate() {
            let mut int = |n: usize| {
                let at = ints;
                ints += n;
                at
            };
            let (ty, optional) = match &p.ty {
                // No C argument: `Function::c_arguments` checks it.
                ParamType::DType(_) => {
                    regrouped = true;
                    continue;
                }
                ParamType::MaybeNone(inner) => {
                    params.push((Convert::Given, Place::Int(int(1))));
                    param_of.push(k);
                    element_of.push(None);
                    (&**inner, true)
                }
                ty => (ty, false),
            };
            // A number's register: the next of its class.
            let mut place = |d: DType| {
                if d.is_float() {
                    floats += 1;
                    Place::Float(floats - 1)
                } else {
                    Place::Int(int(1))
                }
            };
            if let ParamType::Tuple(elements) = ty {
                regrouped = true;
                for (j, d) in elements.iter().enumerate() {
                    let convert = if optional {
                        Convert::OrNone(*d)
                    } else if d.is_float() {
                        Convert::Float(*d)
                    } else {
                        Convert::Int(*d)
                    };
                    params.push((convert, place(*d)));
                    param_of.push(k);
                    element_of.push(Some(j));
                }
                continue;
            }
            if let (ParamType::Scalar(d), true) = (ty, optional) {
                params.push((Convert::OrNone(*d), place(*d)));
                param_of.push(k);
                element_of.push(None);
                continue;
            }
            param_of.push(k);
            element_of.push(None);
            let entry = match ty {
                ParamType::Scalar(d) if d.is_complex() => (Convert::Complex(*d), Place::Int(int(1))),
                ParamType::Scalar(d) if d.is_text() => (Convert::Text(*d), Place::Pair(int(2))),
                ParamType::Scalar(d) if d.is_float() => {
                    floats += 1;
                    (Convert::Float(*d), Place::Float(floats - 1))
                }
                ParamType::Scalar(d) => (Convert::Int(*d), Place::Int(int(1))),
                ParamType::Array(a) => (Convert::Array(a.clone()), Place::Int(int(1))),
                ParamType::MaybeNone(_) | ParamType::Tuple(_) | ParamType::DType(_) => unreachable!("handled above"),
            };
            params.push(entry);
        }
        let regroups = regrouped || param_of.len() != spec.params.len();
        let mut complex_out = None;
        let mut tuple_out = Vec::new();
        let mut result_groups = Vec::new();
        let (result, returns) = match &spec.ret {
            Ret::Void => (Result_::Void, Returns::Int),
            Ret::Optional(_) => {
                return Err(PyValueError::new_err(format!(
                    "{}: a result that may be None is an element of a tuple result",
                    spec.name
                )))
            }
            Ret::Tuple(elements) => {
                let (flat, groups) = Ret::flat_tuple(elements);
                result_groups = groups;
                let slots: usize = flat.iter().map(|e| e.slots()).sum();
                tuple_out = (ints..ints + slots).collect();
                ints += slots;
                (Result_::of(py, &spec.ret)?, Returns::Int)
            }
            Ret::MaybeNone(_) => {
                tuple_out = vec![ints, ints + 1];
                ints += 2;
                (Result_::of(py, &spec.ret)?, Returns::Int)
            }
            Ret::Array(a) => (Result_::Array(a.dtype), Returns::Int),
            Ret::List(d) => (Result_::List(*d), Returns::Int),
            Ret::Scalar(d) if d.is_complex() => {
                complex_out = Some(ints);
                ints += 1;
                (Result_::Complex(ScalarMaker::new(py, *d)?), Returns::Int)
            }
            Ret::Scalar(d) if d.is_text() => (Result_::Text(*d), Returns::Pair),
            Ret::Scalar(d) if d.is_float() => (Result_::Scalar(ScalarMaker::new(py, *d)?), Returns::Float),
            Ret::Scalar(d) => (Result_::Scalar(ScalarMaker::new(py, *d)?), Returns::Int),
        };
        let registers = ints <= INT_REGISTERS && floats <= FLOAT_REGISTERS;
        Ok(Plan {
            params,
            param_of,
            element_of,
            regroups,
            result,
            complex_out,
            tuple_out,
            result_groups,
            returns,
            registers,
        })
    }
}

// An exported function of a compiled module. (A plain comment: a class
// docstring would be the class's `__doc__` entry, which CPython sets over
// the `__doc__` getter, and every function would show it instead of its own.)
#[pyclass(module = "postc", name = "Function", frozen)]
pub struct Function {
    /// What CPython calls: the class's `tp_vectorcall_offset` points here.
    vectorcall: ffi::vectorcallfunc,
    pub spec: FuncSpec,
    plan: Plan,
    /// The Python objects of `spec.defaults`, made once: a call that
    /// leaves a parameter out passes its default as if it were given.
    defaults: Vec<Py<PyAny>>,
    /// For each array parameter that may be `None`, by its place among the
    /// parameters: the empty array of its dtype and rank, read-only, that
    /// compiled code gets beside a false flag when the argument is `None`.
    absent: Vec<Option<Py<PyAny>>>,
    /// For each dtype parameter, by its place among the parameters: the
    /// `np.dtype` its argument must be.
    dtypes: Vec<Option<Py<PyAny>>>,
    /// `np.dtype` itself, which reads a dtype argument (for a function
    /// with a dtype parameter).
    numpy_dtype: Option<Py<PyAny>>,
    pub code: usize,
    /// The libffi interface, for a signature that does not fit in registers.
    cif: Option<CallInterface>,
    /// The library's runtime entry points (`None`: a library that cannot
    /// panic).
    pub runtime: Option<guard::Runtime>,
    pub library: String,
    /// The importable module that holds the function as an attribute of
    /// its name (an extension module made ahead of time), by which it
    /// pickles; `None` for the package's functions, which pickle as what
    /// they were compiled from (`postc`'s copyreg entry).
    pub module: Option<String>,
}

impl Function {
    /// The Python object of the exported function `spec` at address `code`
    /// of the library at `library`, whose runtime is `runtime`.
    ///
    /// # Safety
    /// `code` must be the address of `spec`'s function in a library that is
    /// never unloaded, `runtime` that library's.
    pub unsafe fn new<'py>(
        py: Python<'py>,
        spec: FuncSpec,
        code: usize,
        runtime: Option<guard::Runtime>,
        library: String,
        module: Option<String>,
    ) -> PyResult<Bound<'py, Function>> {
        if spec.defaults.len() > spec.params.len() || spec.keyword_only + spec.positional_only > spec.params.len() {
            return Err(PyValueError::new_err(format!(
                "{}: {} defaults, {} keyword-only and {} positional-only parameters for {} parameters",
                spec.name,
                spec.defaults.len(),
                spec.keyword_only,
                spec.positional_only,
                spec.params.len()
            )));
        }
        let plan = Plan::new(py, &spec)?;
        let cif = (!plan.registers).then(|| call_interface(&spec));
        let mut defaults = (spec.defaults.iter())
            .map(|v| match v {
                Some(v) => python_value(py, v),
                None => Ok(py.None()),
            })
            .collect::<PyResult<Vec<_>>>()?;
        // An array default is one array, made here as CPython makes a
        // default once, read-only: every call that leaves the parameter
        // out passes it.
        let numpy = py.import("numpy")?;
        for (at, a) in &spec.array_defaults {
            let Some(slot) = defaults.get_mut(*at) else {
                return Err(PyValueError::new_err(format!("{}: an array default past the defaults", spec.name)));
            };
            let fill = python_value(py, &a.fill)?.into_bound(py);
            *slot = read_only_array(&numpy, a.dtype, a.shape.iter().copied(), &fill)?;
        }
        let absent = (spec.params.iter())
            .map(|p| match &p.ty {
                ParamType::MaybeNone(inner) => match &**inner {
                    ParamType::Array(a) => {
                        let zero = 0i64.into_pyobject(py)?.into_any();
                        read_only_array(&numpy, a.dtype, a.dims.iter().map(|_| 0u64), &zero).map(Some)
                    }
                    _ => Ok(None),
                },
                _ => Ok(None),
            })
            .collect::<PyResult<Vec<_>>>()?;
        let numpy_dtype = numpy.getattr("dtype")?;
        let dtypes = (spec.params.iter())
            .map(|p| match &p.ty {
                ParamType::DType(d) => Ok(Some(numpy_dtype.call1((crate::dlpack::numpy_name(*d),))?.unbind())),
                _ => Ok(None),
            })
            .collect::<PyResult<Vec<_>>>()?;
        let numpy_dtype = dtypes.iter().any(Option::is_some).then(|| numpy_dtype.unbind());
        let f = Bound::new(
            py,
            Function {
                vectorcall: function_vectorcall,
                spec,
                plan,
                defaults,
                absent,
                dtypes,
                numpy_dtype,
                code,
                cif,
                runtime,
                library,
                module,
            },
        )?;
        // SAFETY: every `Function` holds `function_vectorcall` there.
        unsafe { enable_vectorcall(&f, &f.get().vectorcall) }?;
        Ok(f)
    }

    fn what(&self) -> String {
        format!("{}()", self.spec.name)
    }

    /// The arguments in parameter order: `positional`, then the values of
    /// `keywords` (names and values, as vectorcall passes them) by name,
    /// then the defaults of the parameters left over; the errors are
    /// CPython's for a Python function's call.
    fn bind<'py>(
        &self,
        positional: &[*mut ffi::PyObject],
        keywords: Option<(&Bound<'py, PyTuple>, &[*mut ffi::PyObject])>,
    ) -> PyResult<SmallVec<[*mut ffi::PyObject; INLINE]>> {
        let n = self.spec.params.len();
        let first_default = n - self.defaults.len();
        // Those after a `*` are given by keyword only.
        let by_position = n - self.spec.keyword_only;
        // As CPython binds: the positional arguments that fit, then the
        // keywords (their errors first), then the count of positional ones.
        let mut bound: SmallVec<[*mut ffi::PyObject; INLINE]> =
            SmallVec::from_slice(&positional[..positional.len().min(by_position)]);
        bound.resize(n, std::ptr::null_mut());
        if let Some((names, values)) = keywords {
            // Those before a `/` are given by position only.
            let positional_only = &self.spec.params[..self.spec.positional_only];
            for (k, v) in names.iter().zip(values) {
                let key: String = k.extract()?;
                let found = self.spec.params.iter().position(|p| p.name == key);
                let Some(i) = found.filter(|&i| i >= self.spec.positional_only) else {
                    let named: Vec<String> = (names.iter())
                        .filter_map(|k| k.extract::<String>().ok())
                        .filter(|key| positional_only.iter().any(|p| &p.name == key))
                        .collect();
                    return Err(PyTypeError::new_err(if named.is_empty() {
                        format!("{} got an unexpected keyword argument '{key}'", self.what())
                    } else {
                        format!(
                            "{} got some positional-only arguments passed as keyword arguments: '{}'",
                            self.what(),
                            named.join(", ")
                        )
                    }));
                };
                if !bound[i].is_null() {
                    return Err(PyTypeError::new_err(format!(
                        "{} got multiple values for argument '{key}'",
                        self.what()
                    )));
                }
                bound[i] = *v;
            }
        }
        if positional.len() > by_position {
            let least = first_default.min(by_position);
            let takes =
                if least == by_position { by_position.to_string() } else { format!("from {least} to {by_position}") };
            let plural = |k: usize| if k == 1 { "" } else { "s" };
            let given = positional.len();
            // CPython counts the keyword-only arguments given too.
            let keyword_only_given = keywords.map_or(0, |(names, _)| {
                (names.iter())
                    .filter(|k| {
                        let key: Option<String> = k.extract().ok();
                        key.is_some_and(|key| self.spec.params[by_position..].iter().any(|p| p.name == key))
                    })
                    .count()
            });
            let given = if keyword_only_given == 0 {
                format!("{given} {}", if given == 1 { "was" } else { "were" })
            } else {
                format!(
                    "{given} positional argument{} (and {keyword_only_given} keyword-only argument{}) were",
                    plural(given),
                    plural(keyword_only_given)
                )
            };
            return Err(PyTypeError::new_err(format!(
                "{} takes {takes} positional argument{} but {given} given",
                self.what(),
                if least == by_position { plural(by_position) } else { "s" },
            )));
        }
        for (b, default) in bound[first_default..].iter_mut().zip(&self.defaults) {
            if b.is_null() {
                *b = default.as_ptr();
            }
        }
        // CPython names the positional ones missing first, then the
        // keyword-only ones.
        for (range, what) in [(0..by_position, "positional"), (by_position..n, "keyword-only")] {
            let missing: Vec<String> = (range.clone())
                .filter(|&i| bound[i].is_null())
                .map(|i| format!("'{}'", self.spec.params[i].name))
                .collect();
            if !missing.is_empty() {
                return Err(PyTypeError::new_err(format!(
                    "{} missing {} required {what} argument{}: {}",
                    self.what(),
                    missing.len(),
                    if missing.len() == 1 { "" } else { "s" },
                    postc_ir::diag::english_list(&missing)
                )));
            }
        }
        Ok(bound)
    }

    /// The C arguments of the Python ones: the argument of a parameter
    /// that may be `None` is passed twice, for its flag and its value; a
    /// tuple's elements are passed, each borrowed from the tuple (which the
    /// caller holds), after checking that it is a tuple of their number.
    fn c_arguments(
        &self,
        py: Python<'_>,
        args: &[*mut ffi::PyObject],
    ) -> PyResult<SmallVec<[*mut ffi::PyObject; INLINE]>> {
        // A dtype parameter's argument is its dtype (a NumPy type, an
        // `np.dtype`, or anything `np.dtype` reads as it), and passes
        // nothing.
        for (k, want) in self.dtypes.iter().enumerate() {
            let (Some(want), Some(numpy_dtype)) = (want, &self.numpy_dtype) else { continue };
            // SAFETY: the caller holds every argument for the call.
            let arg = unsafe { Borrowed::from_ptr(py, args[k]) };
            let given = match numpy_dtype.bind(py).call1((&*arg,)) {
                Ok(given) if given.eq(want.bind(py))? => continue,
                Ok(given) => format!("the dtype {}", given.str()?),
                Err(_) => format!("{} (not a dtype)", type_name(&arg)),
            };
            return Err(PyTypeError::new_err(format!(
                "{}: parameter `{}` is the dtype {} it was compiled for, not {given}",
                self.what(),
                self.spec.params[k].name,
                want.bind(py).str()?,
            )));
        }
        let mut out = SmallVec::with_capacity(self.plan.param_of.len());
        for ((&k, &element), (convert, _)) in
            self.plan.param_of.iter().zip(&self.plan.element_of).zip(&self.plan.params)
        {
            // SAFETY: the caller holds every argument for the call.
            let arg = unsafe { Borrowed::from_ptr(py, args[k]) };
            let Some(j) = element else {
                // `None` for an array: the empty array beside a false flag.
                match (&self.absent[k], convert) {
                    (Some(empty), Convert::Array(_)) if arg.is_none() => out.push(empty.as_ptr()),
                    _ => out.push(args[k]),
                }
                continue;
            };
            let p = &self.spec.params[k];
            let (elements, optional) = match &p.ty {
                ParamType::Tuple(elements) => (elements, false),
                ParamType::MaybeNone(inner) => match &**inner {
                    ParamType::Tuple(elements) => (elements, true),
                    _ => unreachable!("an element of a tuple parameter"),
                },
                _ => unreachable!("an element of a tuple parameter"),
            };
            if optional && arg.is_none() {
                // Each element `None`: zero (`Convert::OrNone`).
                out.push(args[k]);
                continue;
            }
            let tuple = match arg.cast::<PyTuple>() {
                Ok(t) if t.len() == elements.len() => t,
                _ => {
                    let given = match arg.cast::<PyTuple>() {
                        Ok(t) => format!("a tuple of {}", t.len()),
                        Err(_) => arg.get_type().name()?.to_string(),
                    };
                    return Err(PyTypeError::new_err(format!(
                        "{}: parameter `{}` takes {}a tuple of {} numbers, not {given}",
                        self.what(),
                        p.name,
                        if optional { "None or " } else { "" },
                        elements.len()
                    )));
                }
            };
            // SAFETY: `j` is below the tuple's length; the item is borrowed
            // from the tuple, which outlives the call (`PyTuple_GetItem`:
            // the limited API has no `PyTuple_GET_ITEM`).
            let item = unsafe { ffi::PyTuple_GetItem(tuple.as_ptr(), j as ffi::Py_ssize_t) };
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            // An element is a number, not `None` (which `Convert::OrNone`
            // would take as zero).
            if optional && item == unsafe { ffi::Py_None() } {
                return Err(PyTypeError::new_err(format!(
                    "{}: parameter `{}`: element {j} of the tuple is None, not a number",
                    self.what(),
                    p.name
                )));
            }
            out.push(item);
        }
        Ok(out)
    }

    /// A call: binds, checks and converts the arguments, calls with the GIL
    /// released, converts the result.
    fn invoke<'py>(
        &self,
        py: Python<'py>,
        positional: &[*mut ffi::PyObject],
        keywords: Option<(&Bound<'py, PyTuple>, &[*mut ffi::PyObject])>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if keywords.is_none()
            && positional.len() == self.spec.params.len()
            && self.spec.keyword_only == 0
            && self.plan.registers
        {
            let fast = if self.plan.regroups {
                self.call_fast(py, &self.c_arguments(py, positional)?)
            } else {
                self.call_fast(py, positional)
            };
            if let Some(r) = fast {
                return r;
            }
        }
        let mut args = self.bind(positional, keywords)?;
        if self.plan.regroups {
            args = self.c_arguments(py, &args)?;
        }
        // Once bound, keywords and defaults are positional arguments like
        // any others.
        if self.plan.registers {
            if let Some(r) = self.call_fast(py, &args) {
                return r;
            }
        }
        let n = args.len();
        let mut call = CallState::default();
        let outs = self.plan.tuple_out.len();
        call.slots.resize(n + outs.max(1), Slot::default());
        for (i, (arg, (convert, _))) in args.iter().zip(&self.plan.params).enumerate() {
            // SAFETY: the caller holds every argument for the call.
            let arg = unsafe { Borrowed::from_ptr(py, *arg) };
            let at = || format!("{}: parameter `{}`", self.what(), self.spec.params[self.plan.param_of[i]].name);
            match convert {
                Convert::Int(d) | Convert::Float(d) => call.slots[i] = scalar(&arg, *d, &at)?,
                Convert::Given => call.slots[i] = Slot([u64::from(!arg.is_none()), 0]),
                Convert::OrNone(d) => call.slots[i] = or_none(&arg, *d, &at)?,
                Convert::Complex(d) => {
                    call.values.push(scalar(&arg, *d, &at)?);
                    call.pointer_of[i] = Pointer::Value(call.values.len() - 1);
                }
                Convert::Text(d) => {
                    let (ptr, len) = text(&arg, *d, &at)?;
                    call.slots[i] = Slot([ptr as u64, len as u64]);
                }
                Convert::Array(spec) => {
                    let tensor = array(py, &arg, spec, &at, i, &mut call)?;
                    call.pointer_of[i] = tensor;
                    call.arrays.push(ArrayArg { param: i, object: arg.as_ptr() });
                }
            }
        }
        // Addresses are taken once every vector has its final length and
        // place.
        let CallState { slots, values, tensors, shapes, strides, pointer_of, arrays, capsules, copies } = &mut call;
        for t in tensors.iter_mut() {
            if let Some(at) = t.shape_at {
                t.tensor.shape = shapes[at..].as_mut_ptr();
            }
            if let Some(at) = t.strides_at {
                t.tensor.strides = strides[at..].as_mut_ptr();
            }
        }
        let mut tensor_ptrs: SmallVec<[*mut DLTensor; INLINE]> = SmallVec::new();
        for i in 0..n {
            let ptr: *mut c_void = match pointer_of[i] {
                Pointer::None => {
                    tensor_ptrs.push(std::ptr::null_mut());
                    continue;
                }
                Pointer::Own(t) => (&mut tensors[t].tensor as *mut DLTensor).cast(),
                Pointer::Value(v) => (&mut values[v] as *mut Slot).cast(),
            };
            tensor_ptrs.push(ptr.cast());
            slots[i] = Slot([ptr as u64, 0]);
        }
        let mut result_value = Slot::default();
        // Where each element of a tuple result is written.
        let mut tuple_values: SmallVec<[Slot; 4]> = smallvec::smallvec![Slot::default(); outs];
        let outcome = if self.plan.registers {
            let mut regs = Registers::default();
            for (slot, (_, place)) in slots.iter().zip(&self.plan.params) {
                match *place {
                    Place::Int(r) => regs.ints[r] = slot.0[0],
                    Place::Float(r) => regs.floats[r] = slot.0[0],
                    Place::Pair(r) => {
                        regs.ints[r] = slot.0[0];
                        regs.ints[r + 1] = slot.0[1];
                    }
                }
            }
            if let Some(r) = self.plan.complex_out {
                regs.ints[r] = (&mut result_value as *mut Slot) as u64;
            }
            for (&r, value) in self.plan.tuple_out.iter().zip(tuple_values.iter_mut()) {
                regs.ints[r] = (value as *mut Slot) as u64;
            }
            let returns = self.plan.returns;
            let (runtime, code) = (self.runtime.as_ref(), self.code as *const c_void);
            // SAFETY: the plan placed every argument in the register of its
            // class and order (docs/abi.md's C signature); every pointer
            // passed (tensors, their shape and stride arrays, the arrays'
            // data, strings, complex values) stays valid until the call
            // returns: the caller holds the argument objects, `call` the
            // rest. The call touches no Python object.
            without_gil(|| unsafe { guard::register_call(runtime, code, returns, &regs) }).map(Slot)
        } else {
            let complex_out = matches!(self.plan.result, Result_::Complex(_));
            if complex_out {
                slots[n] = Slot([(&mut result_value as *mut Slot) as u64, 0]);
            }
            for (k, value) in tuple_values.iter_mut().enumerate() {
                slots[n + k] = Slot([(value as *mut Slot) as u64, 0]);
            }
            let nargs = n + usize::from(complex_out) + outs;
            let mut avalue: SmallVec<[*mut c_void; INLINE]> =
                slots[..nargs].iter_mut().map(|s| (s as *mut Slot).cast()).collect();
            let mut rvalue = Slot::default();
            let cif = self.cif.as_ref().expect("a libffi interface for a call not made in registers");
            let (runtime, code) = (self.runtime.as_ref(), self.code as *const c_void);
            let (cif, rv, av) =
                (cif.0.as_raw_ptr().cast::<c_void>(), (&mut rvalue as *mut Slot).cast(), avalue.as_mut_ptr());
            // SAFETY: as above; the interface describes the C signature and
            // `avalue` points to one slot of each argument's type.
            without_gil(|| unsafe { guard::ffi_call(runtime, cif, code, rv, av) }).map(|()| rvalue)
        };
        // Outputs passed as aligned copies get what was written, also
        // before a panic.
        for (_, copy) in copies.iter() {
            // SAFETY: the argument's elements, held for the call.
            unsafe { copy.write_back() };
        }
        let result = match outcome {
            Ok(r) => r,
            Err(message) => return Err(guard::panic_error(&message)),
        };
        let passed: SmallVec<[PassedArray; 4]> = arrays
            .iter()
            .map(|a| {
                // A copied argument's memory is kept by its copy, a DLPack
                // argument's by its capsule.
                let capsule = call_capsule(capsules, a.param);
                let keeper = match copies.iter().find(|(p, _)| *p == a.param) {
                    Some((_, copy)) => copy.array.as_ptr(),
                    None if !capsule.is_null() => capsule,
                    None => a.object,
                };
                PassedArray { object: a.object, tensor: tensor_ptrs[a.param] as *const DLTensor, keeper }
            })
            .collect();
        if let Result_::Tuple(elements) = &self.plan.result {
            // SAFETY: the call wrote each element (docs/abi.md §2).
            return unsafe { tuple_result(py, elements, &self.plan.result_groups, &tuple_values, &passed) };
        }
        if let Result_::MaybeNone(value) = &self.plan.result {
            // The flag is a C `bool`: its low byte.
            if tuple_values[0].0[0] & 0xff == 0 {
                return Ok(py.None().into_bound(py));
            }
            // SAFETY: the call wrote the value (docs/abi.md §2).
            return unsafe { python_result(py, value, tuple_values[1].0, &tuple_values[1], &passed) };
        }
        self.result(py, result.0, &result_value, &passed)
    }

    /// A call whose arguments are all positional, fit in registers and
    /// whose arrays (at most [`FAST_ARRAYS`]) are NumPy arrays, all on the
    /// stack; `None` when the call is not one (before any compiled code
    /// ran), for [`Function::invoke`] to make.
    fn call_fast<'py>(&self, py: Python<'py>, args: &[*mut ffi::PyObject]) -> Option<PyResult<Bound<'py, PyAny>>> {
        if !self.plan.tuple_out.is_empty() {
            return None;
        }
        let mut regs = Registers::default();
        // Written before they are read, only as far as used: not zeroed.
        let mut tensors = [const { MaybeUninit::<DLTensor>::uninit() }; FAST_ARRAYS];
        let mut strides = [const { MaybeUninit::<[i64; FAST_RANK]>::uninit() }; FAST_ARRAYS];
        let mut values = [const { MaybeUninit::<Slot>::uninit() }; FAST_ARRAYS];
        let mut passed = [PassedArray::NONE; FAST_ARRAYS];
        // Every write goes through these, so that the addresses passed stay
        // valid.
        let tensors_at = tensors.as_mut_ptr().cast::<DLTensor>();
        let strides_at = strides.as_mut_ptr().cast::<[i64; FAST_RANK]>();
        let values_at = values.as_mut_ptr().cast::<Slot>();
        let (mut narrays, mut nvalues) = (0usize, 0usize);
        for (i, (arg, (convert, place))) in args.iter().zip(&self.plan.params).enumerate() {
            // SAFETY: the caller holds every argument for the call.
            let arg = unsafe { Borrowed::from_ptr(py, *arg) };
            let at = || format!("{}: parameter `{}`", self.what(), self.spec.params[self.plan.param_of[i]].name);
            let word = match convert {
                Convert::Int(d) | Convert::Float(d) => match scalar(&arg, *d, &at) {
                    Ok(slot) => slot.0[0],
                    Err(e) => return Some(Err(e)),
                },
                Convert::Given => u64::from(!arg.is_none()),
                Convert::OrNone(d) => match or_none(&arg, *d, &at) {
                    Ok(slot) => slot.0[0],
                    Err(e) => return Some(Err(e)),
                },
                Convert::Text(d) => match text(&arg, *d, &at) {
                    Ok((ptr, len)) => {
                        if let Place::Pair(r) = place {
                            regs.ints[r + 1] = len as u64;
                        }
                        ptr as u64
                    }
                    Err(e) => return Some(Err(e)),
                },
                Convert::Complex(d) => {
                    if nvalues == FAST_ARRAYS {
                        return None;
                    }
                    let value = match scalar(&arg, *d, &at) {
                        Ok(v) => v,
                        Err(e) => return Some(Err(e)),
                    };
                    // SAFETY: `nvalues` is in bounds.
                    let ptr = unsafe {
                        values_at.add(nvalues).write(value);
                        values_at.add(nvalues)
                    };
                    nvalues += 1;
                    ptr as u64
                }
                Convert::Array(spec) => {
                    if narrays == FAST_ARRAYS {
                        return None;
                    }
                    let (mut tensor, bstrides) = match numpy_tensor(&arg, spec, &at) {
                        Ok(Some(t)) if t.aligned => (t.tensor, t.strided),
                        // Another object, or an unaligned array to copy.
                        Ok(_) => return None,
                        Err(e) => return Some(Err(e)),
                    };
                    if let Some(b) = bstrides {
                        if b.len() > FAST_RANK {
                            return None;
                        }
                        let elem = spec.dtype.size_bytes() as i64;
                        // SAFETY: `narrays` and `b.len()` are in bounds.
                        unsafe {
                            let row = strides_at.add(narrays).cast::<i64>();
                            for (k, s) in b.iter().enumerate() {
                                row.add(k).write(s / elem);
                            }
                            tensor.strides = row;
                        }
                    }
                    // SAFETY: `narrays` is in bounds.
                    let ptr = unsafe {
                        tensors_at.add(narrays).write(tensor);
                        tensors_at.add(narrays)
                    };
                    passed[narrays] = PassedArray { object: arg.as_ptr(), tensor: ptr, keeper: arg.as_ptr() };
                    narrays += 1;
                    ptr as u64
                }
            };
            match *place {
                Place::Int(r) | Place::Pair(r) => regs.ints[r] = word,
                Place::Float(r) => regs.floats[r] = word,
            }
        }
        let mut result_value = Slot::default();
        if let Some(r) = self.plan.complex_out {
            regs.ints[r] = (&mut result_value as *mut Slot) as u64;
        }
        let (runtime, code, returns) = (self.runtime.as_ref(), self.code as *const c_void, self.plan.returns);
        // SAFETY: the plan placed every argument in the register of its
        // class and order (docs/abi.md's C signature); every pointer passed
        // (tensors, their shape and stride arrays, the arrays' data,
        // strings, complex values) stays valid until the call returns: the
        // caller holds the argument objects, this frame the rest. The call
        // touches no Python object.
        let outcome = without_gil(|| unsafe { guard::register_call(runtime, code, returns, &regs) });
        let bits = match outcome {
            Ok(bits) => bits,
            Err(message) => return Some(Err(guard::panic_error(&message))),
        };
        // The tensors, strides and values were read through the addresses
        // passed; they live to here.
        let _ = (&tensors, &strides, &values);
        Some(self.result(py, bits, &result_value, &passed[..narrays]))
    }

    /// The Python object of a result: its bits, the value a complex result
    /// was written to, the array arguments passed.
    fn result<'py>(
        &self,
        py: Python<'py>,
        bits: [u64; 2],
        complex_value: &Slot,
        arrays: &[PassedArray],
    ) -> PyResult<Bound<'py, PyAny>> {
        // SAFETY: `bits` and `complex_value` are what the call returned.
        unsafe { python_result(py, &self.plan.result, bits, complex_value, arrays) }
    }
}

/// The Python tuple of a tuple result, each element read from where the
/// call wrote it, with each of `groups` a tuple inside it. An element that
/// fails to convert deletes the arrays after it, which no Python object
/// owns yet.
///
/// # Safety
/// `values` must hold what the call wrote through each element's pointer.
unsafe fn tuple_result<'py>(
    py: Python<'py>,
    elements: &[Result_],
    groups: &[(usize, usize)],
    values: &[Slot],
    arrays: &[PassedArray],
) -> PyResult<Bound<'py, PyAny>> {
    let mut out = Vec::with_capacity(elements.len());
    // Whether the element after a flag is `None`.
    let mut absent = false;
    for (k, (element, value)) in elements.iter().zip(values).enumerate() {
        if let Result_::Given = element {
            // A C `bool`: its low byte.
            absent = value.0[0] & 0xff == 0;
            continue;
        }
        match python_result(py, element, value.0, value, arrays) {
            // The empty array beside a false flag is made and dropped, as
            // the caller owns it.
            Ok(_) if std::mem::take(&mut absent) => out.push(py.None().into_bound(py)),
            Ok(x) => out.push(x),
            Err(e) => {
                for (later, v) in elements[k + 1..].iter().zip(&values[k + 1..]) {
                    let managed = v.0[0] as *mut DLManagedTensor;
                    if let (Result_::Array(_) | Result_::List(_), Some(del)) = (later, (*managed).deleter) {
                        del(managed);
                    }
                }
                return Err(e);
            }
        }
    }
    let mut failed = None;
    let out = postc_ir::regroup(out, groups, |inner| match PyTuple::new(py, inner) {
        Ok(t) => t.into_any(),
        Err(e) => {
            failed.get_or_insert(e);
            py.None().into_bound(py)
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(PyTuple::new(py, out)?.into_any())
}

/// The Python object of a scalar or array result: its bits, the value a
/// complex result was written to, the array arguments passed.
///
/// # Safety
/// `bits` and `complex_value` must be what the call returned or wrote.
unsafe fn python_result<'py>(
    py: Python<'py>,
    result: &Result_,
    bits: [u64; 2],
    complex_value: &Slot,
    arrays: &[PassedArray],
) -> PyResult<Bound<'py, PyAny>> {
    match result {
        Result_::Void => Ok(py.None().into_bound(py)),
        Result_::Scalar(maker) => maker.make(py, &bits),
        Result_::Complex(maker) => maker.make(py, &complex_value.0),
        Result_::Text(d) => {
            let [ptr, len] = bits;
            // SAFETY: a returned string is `len` bytes at `ptr`, valid
            // for the life of the process or, when it is a string
            // argument, held by the caller (docs/abi.md §2).
            let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len as usize) };
            Ok(if *d == DType::Str {
                PyString::new(py, &String::from_utf8_lossy(bytes)).into_any()
            } else {
                PyBytes::new(py, bytes).into_any()
            })
        }
        Result_::Array(d) => {
            let managed = bits[0] as *mut DLManagedTensor;
            // SAFETY: the function returned a `DLManagedTensor *` owned
            // by the caller (docs/abi.md §3); the arguments' tensors
            // are alive.
            unsafe { returned_array(py, managed, *d, arrays) }
        }
        Result_::List(d) => {
            let managed = bits[0] as *mut DLManagedTensor;
            // SAFETY: as for an array; the array is a new one (a copy of
            // the list's elements), dropped once its list is made.
            let array = unsafe { returned_array(py, managed, *d, arrays) }?;
            array.call_method0("tolist")
        }
        // Not reached: a call with a tuple result (or one that may be
        // `None`) converts it with `tuple_result`, which reads the
        // elements' memory.
        Result_::Tuple(_) | Result_::MaybeNone(_) | Result_::Given => {
            Err(PyTypeError::new_err("internal error: a tuple result read as a single value"))
        }
    }
}

/// An array argument as passed: its object, its tensor, and the object that
/// keeps the tensor's memory alive (the array, or a DLPack capsule).
#[derive(Clone, Copy)]
struct PassedArray {
    object: *mut ffi::PyObject,
    tensor: *const DLTensor,
    keeper: *mut ffi::PyObject,
}

impl PassedArray {
    const NONE: PassedArray =
        PassedArray { object: std::ptr::null_mut(), tensor: std::ptr::null(), keeper: std::ptr::null_mut() };
}

/// The arrays, complex values and strided ranks a call in the fast path
/// holds on its stack.
const FAST_ARRAYS: usize = 4;
const FAST_RANK: usize = 4;

/// Whether a Python thread other than the calling one exists (in any
/// interpreter): one that could take the GIL while a call runs.
#[cfg(not(feature = "abi3"))]
fn other_python_threads() -> bool {
    // SAFETY: reads of the interpreter and thread-state lists with the GIL
    // held (a thread state made meanwhile by a thread outside Python is
    // seen by the next call).
    unsafe {
        let interp = ffi::PyInterpreterState_Head();
        if interp.is_null() || !ffi::PyInterpreterState_Next(interp).is_null() {
            return true;
        }
        let head = ffi::PyInterpreterState_ThreadHead(interp);
        !(head == ffi::PyThreadState_Get() && ffi::PyThreadState_Next(head).is_null())
    }
}

/// The stable ABI does not expose the interpreters' lists of thread
/// states: there may always be another thread, and the GIL is released
/// around every call.
#[cfg(feature = "abi3")]
fn other_python_threads() -> bool {
    true
}

/// Runs `f` with the GIL released when another Python thread exists
/// (compiled code touches no Python object; the other threads run Python
/// meanwhile, and calls on several threads run at once). With no other
/// thread there is nobody to hand the GIL to, and the release and the
/// reacquisition, a third of a short call's time, are skipped.
fn without_gil<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(*mut ffi::PyThreadState);
    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: the state saved below, restored once on this thread.
            unsafe { ffi::PyEval_RestoreThread(self.0) };
        }
    }
    // SAFETY (both): the GIL is held when `f` returns, as it is on entry.
    if !other_python_threads() {
        let r = crate::printing::holding_gil(f);
        crate::printing::flush(unsafe { Python::assume_attached() });
        return r;
    }
    // SAFETY: the GIL is held (a `Function` is only called from Python);
    // nothing in `f` touches Python.
    let restore = Restore(unsafe { ffi::PyEval_SaveThread() });
    let r = f();
    drop(restore);
    crate::printing::flush(unsafe { Python::assume_attached() });
    r
}

/// Makes CPython call `obj`'s class through vectorcall, the function being
/// the one `obj` holds at `field` (a field of its Rust value): PyO3 classes
/// have no vectorcall slot of their own. Called for every new instance; the
/// class is changed once (a Python subclass on its first instance), and its
/// `tp_call` (PyO3's `__call__`) stays for callers that build a tuple.
///
/// # Safety
/// `field` must point into `obj`'s Rust value, and every instance of the
/// class (and of its subclasses) must hold a valid vectorcall function
/// there.
#[cfg(not(feature = "abi3"))]
pub unsafe fn enable_vectorcall<T: pyo3::PyClass>(
    obj: &Bound<'_, T>,
    field: *const ffi::vectorcallfunc,
) -> PyResult<()> {
    let offset = (field as usize - obj.as_ptr() as usize) as ffi::Py_ssize_t;
    let ty = obj.as_any().get_type().as_type_ptr();
    // SAFETY: the class's type object, written with the GIL held before any
    // call uses the flag.
    unsafe {
        if (*ty).tp_flags & ffi::Py_TPFLAGS_HAVE_VECTORCALL == 0 {
            (*ty).tp_vectorcall_offset = offset;
            (*ty).tp_flags |= ffi::Py_TPFLAGS_HAVE_VECTORCALL;
            ffi::PyType_Modified(ty);
        } else if (*ty).tp_vectorcall_offset != offset {
            return Err(pyo3::exceptions::PyRuntimeError::new_err("vectorcall: inconsistent object layout"));
        }
    }
    Ok(())
}

/// The stable ABI of CPython 3.11 gives a class no vectorcall (3.12's
/// limited API has it): CPython calls `tp_call`, PyO3's `__call__`, with a
/// tuple of the arguments and a dict of the keywords.
///
/// # Safety
/// None needed; the signature is the other build's.
#[cfg(feature = "abi3")]
pub unsafe fn enable_vectorcall<T: pyo3::PyClass>(
    _obj: &Bound<'_, T>,
    _field: *const ffi::vectorcallfunc,
) -> PyResult<()> {
    Ok(())
}

/// `Function`'s vectorcall: the positional arguments, then the keyword
/// arguments' values named by `kwnames`.
unsafe extern "C" fn function_vectorcall(
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    let py = Python::assume_attached();
    to_python(py, || {
        let f = Borrowed::from_ptr(py, callable).cast_unchecked::<Function>();
        let f = f.get();
        // `PyVectorcall_NARGS`, which the stable ABI's bindings leave out.
        let nargs = nargsf & !(1usize << (usize::BITS - 1));
        let positional = if nargs == 0 { &[][..] } else { std::slice::from_raw_parts(args, nargs) };
        if kwnames.is_null() {
            f.invoke(py, positional, None)
        } else {
            let names = Borrowed::from_ptr(py, kwnames).cast_unchecked::<PyTuple>().to_owned();
            let values = std::slice::from_raw_parts(args.add(nargs), names.len());
            f.invoke(py, positional, Some((&names, values)))
        }
    })
}

/// The value of a Python float (exactly a float: no error).
///
/// # Safety
/// `p` is a live `float`.
unsafe fn float_value(p: *mut ffi::PyObject) -> f64 {
    #[cfg(not(feature = "abi3"))]
    return ffi::PyFloat_AS_DOUBLE(p);
    // The object's field is hidden from the stable ABI.
    #[cfg(feature = "abi3")]
    return ffi::PyFloat_AsDouble(p);
}

/// What a C entry point called by CPython returns for `body`'s outcome: a
/// new reference, or NULL with the error set. A Rust panic must not unwind
/// into CPython: it becomes PyO3's `PanicException`.
pub fn to_python<'py, T>(py: Python<'py>, body: impl FnOnce() -> PyResult<Bound<'py, T>>) -> *mut ffi::PyObject {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
    match outcome {
        Ok(Ok(obj)) => obj.into_ptr(),
        Ok(Err(e)) => {
            e.restore(py);
            std::ptr::null_mut()
        }
        Err(payload) => {
            let text = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a Rust panic".into());
            pyo3::panic::PanicException::new_err(text).restore(py);
            std::ptr::null_mut()
        }
    }
}

/// One argument's storage: the value a scalar slot holds, or the pointer
/// an array or complex slot passes.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Slot([u64; 2]);

/// Parameters held without a heap allocation per call.
const INLINE: usize = 8;

/// What a pointer argument points to.
#[derive(Clone, Copy)]
enum Pointer {
    None,
    /// A tensor of the call's own (a NumPy array's, or the checked copy of
    /// a DLPack producer's).
    Own(usize),
    /// A complex value of the call's.
    Value(usize),
}

/// A tensor the call made for an array argument; its strides (in elements)
/// are at `strides_at` of the call's stride storage (`None`: C-contiguous,
/// passed as NULL), its shape at `shape_at` of the call's shape storage
/// (`None`: the NumPy array's own dimensions, already in `tensor`).
struct OwnTensor {
    tensor: DLTensor,
    shape_at: Option<usize>,
    strides_at: Option<usize>,
}

/// An array argument: its parameter and object.
struct ArrayArg {
    param: usize,
    object: *mut ffi::PyObject,
}

/// What a call holds until it returns.
#[derive(Default)]
struct CallState<'py> {
    slots: SmallVec<[Slot; INLINE]>,
    /// Complex values passed by pointer.
    values: SmallVec<[Slot; 2]>,
    tensors: SmallVec<[OwnTensor; 4]>,
    /// The shapes of DLPack arguments, copied.
    shapes: SmallVec<[i64; 8]>,
    strides: SmallVec<[i64; 8]>,
    pointer_of: PointerTable,
    arrays: SmallVec<[ArrayArg; 4]>,
    /// DLPack capsules (by parameter), which own the producers' tensors.
    capsules: SmallVec<[(usize, Bound<'py, PyAny>); 1]>,
    /// Aligned copies of unaligned arguments (by parameter).
    copies: SmallVec<[(usize, AlignedCopy<'py>); 1]>,
}

/// Which pointer each parameter passes, grown on first use.
#[derive(Default)]
struct PointerTable(SmallVec<[Pointer; INLINE]>);

impl std::ops::Index<usize> for PointerTable {
    type Output = Pointer;
    fn index(&self, i: usize) -> &Pointer {
        self.0.get(i).unwrap_or(&Pointer::None)
    }
}

impl std::ops::IndexMut<usize> for PointerTable {
    fn index_mut(&mut self, i: usize) -> &mut Pointer {
        if self.0.len() <= i {
            self.0.resize(i + 1, Pointer::None);
        }
        &mut self.0[i]
    }
}

/// The Python object of a default value, as CPython holds it.
fn python_value(py: Python<'_>, v: &ConstValue) -> PyResult<Py<PyAny>> {
    Ok(match v {
        ConstValue::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        ConstValue::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        ConstValue::Float(bits) => PyFloat::new(py, f64::from_bits(*bits)).into_any().unbind(),
        ConstValue::Complex(re, im) => {
            PyComplex::from_doubles(py, f64::from_bits(*re), f64::from_bits(*im)).into_any().unbind()
        }
        ConstValue::Str(s) => PyString::new(py, s).into_any().unbind(),
        ConstValue::Bytes(b) => PyBytes::new(py, b).into_any().unbind(),
    })
}

/// The capsule of parameter `param`'s DLPack argument.
fn call_capsule(c: &[(usize, Bound<'_, PyAny>)], param: usize) -> *mut ffi::PyObject {
    c.iter().find(|(p, _)| *p == param).map_or(std::ptr::null_mut(), |(_, b)| b.as_ptr())
}

#[pymethods]
impl Function {
    /// A call with the arguments in a tuple and a dict (`PyObject_Call`
    /// from code that does not use vectorcall).
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let positional: SmallVec<[*mut ffi::PyObject; INLINE]> = args.iter().map(|a| a.as_ptr()).collect();
        match kwargs {
            None => self.invoke(py, &positional, None),
            Some(kw) => {
                let items: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = kw.iter().collect();
                let names = PyTuple::new(py, items.iter().map(|(k, _)| k))?;
                let values: Vec<*mut ffi::PyObject> = items.iter().map(|(_, v)| v.as_ptr()).collect();
                self.invoke(py, &positional, Some((&names, &values)))
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

    #[getter]
    fn __qualname__(&self) -> &str {
        &self.spec.name
    }

    /// The parameters as `inspect` reads a builtin's: those before a `/`
    /// by position only, each other positional or by keyword, those after
    /// a `*` by keyword only, a default as its `repr`.
    #[getter]
    fn __text_signature__(&self, py: Python<'_>) -> PyResult<String> {
        let first_default = self.spec.params.len() - self.defaults.len();
        let by_position = self.spec.params.len() - self.spec.keyword_only;
        let mut params = Vec::with_capacity(self.spec.params.len() + 1);
        for (i, p) in self.spec.params.iter().enumerate() {
            if i > 0 && i == self.spec.positional_only {
                params.push("/".to_owned());
            }
            if i == by_position {
                params.push("*".to_owned());
            }
            params.push(match i.checked_sub(first_default) {
                Some(d) => format!("{}={}", p.name, self.defaults[d].bind(py).repr()?),
                None => p.name.clone(),
            });
        }
        if self.spec.positional_only > 0 && self.spec.positional_only == self.spec.params.len() {
            params.push("/".to_owned());
        }
        Ok(format!("({})", params.join(", ")))
    }

    /// `inspect.signature(f)`: the parameters of `__text_signature__`, as
    /// `inspect` would read them from a builtin, the defaults the objects
    /// a call passes.
    #[getter]
    fn __signature__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inspect = py.import("inspect")?;
        let parameter = inspect.getattr("Parameter")?;
        let either = parameter.getattr("POSITIONAL_OR_KEYWORD")?;
        let keyword = parameter.getattr("KEYWORD_ONLY")?;
        let positional = parameter.getattr("POSITIONAL_ONLY")?;
        let first_default = self.spec.params.len() - self.defaults.len();
        let by_position = self.spec.params.len() - self.spec.keyword_only;
        let mut params = Vec::with_capacity(self.spec.params.len());
        for (i, p) in self.spec.params.iter().enumerate() {
            let kwargs = PyDict::new(py);
            if let Some(d) = i.checked_sub(first_default) {
                kwargs.set_item("default", &self.defaults[d])?;
            }
            let kind = if i < self.spec.positional_only {
                &positional
            } else if i < by_position {
                &either
            } else {
                &keyword
            };
            params.push(parameter.call((p.name.as_str(), kind), Some(&kwargs))?);
        }
        inspect.getattr("Signature")?.call1((params,))
    }

    /// An extension module's function pickles as its module and name
    /// (`pkgutil.resolve_name("module:name")`), so the process that
    /// unpickles it imports the module and gets the same object.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let Some(module) = &self.module else {
            let error = py.import("pickle")?.getattr("PicklingError")?;
            let text = format!("{}: its library was not loaded by postc.compile or @jit", self.__repr__());
            return Err(PyErr::from_value(error.call1((text,))?));
        };
        Ok((py.import("pkgutil")?.getattr("resolve_name")?, (format!("{module}:{}", self.spec.name),)))
    }

    /// The parameters as (name, type) pairs, types as the IR writes them.
    #[getter]
    fn parameters(&self) -> Vec<(String, String)> {
        self.spec.params.iter().map(|p| (p.name.clone(), ir_type_text(&p.ty))).collect()
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
        fn shown(r: &Ret) -> String {
            match r {
                Ret::Void => "None".to_owned(),
                Ret::Scalar(d) => d.name().to_owned(),
                Ret::Array(a) => a.text.clone(),
                Ret::Tuple(elements) => format!("({})", elements.iter().map(shown).collect::<Vec<_>>().join(", ")),
                Ret::MaybeNone(d) => format!("{} | None", d.name()),
                Ret::Optional(value) => format!("{} | None", shown(value)),
                Ret::List(d) => format!("list[{}]", d.name()),
            }
        }
        let ret = shown(&self.spec.ret);
        format!("<postc function {}({}) -> {}>", self.spec.name, params.join(", "), ret)
    }
}

/// The value slot of the argument of a parameter that may be `None`: zero
/// for `None` (its flag says so), else the number as [`scalar`] converts it.
fn or_none(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyResult<Slot> {
    if obj.is_none() {
        return Ok(Slot::default());
    }
    scalar(obj, d, at).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(obj.py()) {
            PyTypeError::new_err(format!("{}: expected None or {}, got {}", at(), accepted(d), type_name(obj)))
        } else {
            e
        }
    })
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

/// A Python number or NumPy scalar, by kind.
#[derive(Clone, Copy)]
enum Num {
    Bool(bool),
    /// An integer of at most 128 bits of magnitude, exact.
    Int {
        negative: bool,
        magnitude: u128,
    },
    Float(f64),
    Complex(f64, f64),
}

impl Num {
    fn int(v: i128) -> Num {
        Num::Int { negative: v < 0, magnitude: v.unsigned_abs() }
    }

    /// The value of a bool or an integer: `None` for a float or complex
    /// number, `Some(None)` for an integer `i128` cannot hold.
    fn as_i128(self) -> Option<Option<i128>> {
        match self {
            Num::Bool(b) => Some(Some(i128::from(b))),
            Num::Int { negative: false, magnitude } => Some(i128::try_from(magnitude).ok()),
            Num::Int { negative: true, magnitude } => Some(0i128.checked_sub_unsigned(magnitude)),
            _ => None,
        }
    }

    /// The bits of a real number as the float dtype `part`, rounded once
    /// from its exact value (`None` for a complex number).
    fn real_bits(self, part: DType) -> Option<u64> {
        Some(match self {
            Num::Bool(b) => scalars::float_bits(part, f64::from(u8::from(b))),
            Num::Int { negative, magnitude } => scalars::integer_float_bits(part, negative, magnitude),
            Num::Float(f) => scalars::float_bits(part, f),
            Num::Complex(..) => return None,
        })
    }
}

/// A scalar argument as NumPy converts it: a Python number, or a NumPy
/// scalar whose kind casts to the parameter's under `same_kind` (bool to
/// integer to float to complex); integers out of the dtype's range raise
/// OverflowError, as `numpy.int8(300)` does. A number becomes a float (or
/// a complex number's parts) by one rounding from its exact value, as
/// NumPy casts an integer array: an integer is not made a Float64 first
/// on its way to a Float32.
fn scalar(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyResult<Slot> {
    let p = obj.as_ptr();
    // The common cases first: a Python float for a float dtype, an int for
    // an integer dtype (in range), True or False for a Bool.
    // SAFETY: type checks and reads of a live object.
    unsafe {
        if d.is_float() && ffi::PyFloat_CheckExact(p) != 0 {
            return Ok(Slot([scalars::float_bits(d, float_value(p)), 0]));
        }
        if d.is_int() && ffi::PyLong_CheckExact(p) != 0 {
            let mut overflow = 0;
            let v = ffi::PyLong_AsLongLongAndOverflow(p, &mut overflow);
            if overflow == 0 && (v != -1 || ffi::PyErr_Occurred().is_null()) {
                let (lo, hi) = d.int_range().unwrap_or((i64::MIN as i128, u64::MAX as i128));
                if (lo..=hi).contains(&i128::from(v)) {
                    return Ok(Slot([v as u64, 0]));
                }
            }
            PyErr::take(obj.py());
        }
        if d == DType::Bool && (p == ffi::Py_True() || p == ffi::Py_False()) {
            return Ok(Slot([u64::from(p == ffi::Py_True()), 0]));
        }
    }
    let num = if let Ok(b) = obj.cast::<PyBool>() {
        Num::Bool(b.is_true())
    } else if let Ok(i) = obj.cast::<PyInt>() {
        python_int(i, d, at)?
    } else if let Ok(f) = obj.cast::<PyFloat>() {
        Num::Float(f.value())
    } else if let Ok(c) = obj.cast::<PyComplex>() {
        Num::Complex(c.real(), c.imag())
    } else if let Some(v) = scalars::numpy_value(obj) {
        match v {
            NumpyValue::Bool(b) => Num::Bool(b),
            NumpyValue::Int(i) => Num::int(i),
            NumpyValue::Float(f) => Num::Float(f),
            NumpyValue::Complex(re, im) => Num::Complex(re, im),
            NumpyValue::Other => other_numpy_scalar(obj, d).ok_or_else(|| mismatch(obj, d, at))?,
        }
    } else {
        return Err(mismatch(obj, d, at));
    };
    let mut s = Slot::default();
    match d {
        DType::Bool => match num {
            Num::Bool(b) => s.0[0] = u64::from(b),
            _ => return Err(mismatch(obj, d, at)),
        },
        _ if d.is_int() => {
            let v = num.as_i128().ok_or_else(|| mismatch(obj, d, at))?.ok_or_else(|| out_of_range(obj, d, at))?;
            let (lo, hi) = d.int_range().unwrap_or((i64::MIN as i128, u64::MAX as i128));
            if v < lo || v > hi {
                return Err(out_of_range(obj, d, at));
            }
            s.0[0] = v as u64;
        }
        _ if d.is_float() => s.0[0] = num.real_bits(d).ok_or_else(|| mismatch(obj, d, at))?,
        DType::Complex64 | DType::Complex128 => {
            let part = d.complex_part().expect("a complex dtype has parts");
            let (re, im) = match num {
                Num::Complex(re, im) => (scalars::float_bits(part, re), scalars::float_bits(part, im)),
                real => (real.real_bits(part).ok_or_else(|| mismatch(obj, d, at))?, 0),
            };
            if d == DType::Complex64 {
                s.0[0] = re | (im << 32);
            } else {
                s.0 = [re, im];
            }
        }
        _ => return Err(mismatch(obj, d, at)),
    }
    Ok(s)
}

/// A Python int: exact when its magnitude fits in 128 bits; beyond, too
/// large for every integer dtype (OverflowError), no Bool (TypeError, as
/// for any int), Python's own `float()` of it for a Float64 or Complex128
/// (correctly rounded; OverflowError beyond Float64's range, as `float()`),
/// and an infinity for narrower floats, whose range ends below 2**128.
fn python_int(i: &Bound<'_, PyInt>, d: DType, at: &dyn Fn() -> String) -> PyResult<Num> {
    if let Ok(v) = i.extract::<i64>() {
        return Ok(Num::int(i128::from(v)));
    }
    let negative = i.lt(0)?;
    let magnitude = if negative { i.neg()? } else { i.clone().into_any() };
    if let Ok(m) = magnitude.extract::<u128>() {
        return Ok(Num::Int { negative, magnitude: m });
    }
    let part = if d.is_complex() { d.complex_part() } else { d.is_float().then_some(d) };
    match part {
        None if d.is_int() => Err(out_of_range(i.as_any(), d, at)),
        // A Bool takes no int, of any size.
        None => Err(mismatch(i.as_any(), d, at)),
        Some(DType::Float64) => match i.extract::<f64>() {
            Ok(f) => Ok(Num::Float(f)),
            Err(_) => Err(out_of_range(i.as_any(), d, at)),
        },
        Some(_) => Ok(Num::Float(if negative { f64::NEG_INFINITY } else { f64::INFINITY })),
    }
}

/// A NumPy scalar of a type `scalars::numpy_value` does not read (a long
/// double), by its kind: its `__float__` or `__complex__`, after NumPy's
/// own cast to the precision of a parameter `d` narrower than Float64 (so
/// that it is rounded once, not to Float64 and again).
fn other_numpy_scalar(obj: &Bound<'_, PyAny>, d: DType) -> Option<Num> {
    let kind: String = obj.getattr("dtype").ok()?.getattr("kind").ok()?.extract().ok()?;
    let narrow = match d {
        DType::Float16 | DType::Float32 => Some(d),
        DType::Complex64 => Some(DType::Float32),
        _ => None,
    };
    match kind.as_str() {
        "f" => {
            let value = match narrow {
                Some(n) => obj.call_method1("astype", (dlpack::numpy_name(n),)).ok()?,
                None => obj.clone(),
            };
            Some(Num::Float(value.call_method0("__float__").ok()?.extract().ok()?))
        }
        "c" => {
            let value = match d {
                DType::Complex64 => obj.call_method1("astype", ("complex64",)).ok()?,
                _ => obj.clone(),
            };
            let c = value.call_method0("__complex__").ok()?;
            let c = c.cast::<PyComplex>().ok()?;
            Some(Num::Complex(c.real(), c.imag()))
        }
        _ => None,
    }
}

fn out_of_range(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyErr {
    let shown = obj.str().map(|s| s.to_string()).unwrap_or_default();
    PyOverflowError::new_err(format!("{}: Python integer {shown} out of bounds for {}", at(), d.name()))
}

/// A Str or Bytes argument: its bytes, which the object owns.
fn text(obj: &Bound<'_, PyAny>, d: DType, at: &dyn Fn() -> String) -> PyResult<(*const u8, usize)> {
    if d == DType::Str {
        let s = obj.cast::<PyString>().map_err(|_| mismatch(obj, d, at))?;
        // A str with a lone surrogate has no UTF-8 to pass.
        let t = s.to_str().map_err(|e| {
            PyValueError::new_err(format!("{} expects a str that UTF-8 can encode (Str), got one it cannot: {e}", at()))
        })?;
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
        let compact;
        let strides = match byte_strides {
            Some(s) => s,
            None => {
                compact = compact_strides(shape, elem);
                &compact
            }
        };
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

/// The strides of a compact row-major layout (saturating: the extents of
/// a tensor with no element may multiply past i64, and its strides are
/// never stepped).
fn compact_strides(shape: &[i64], elem: i64) -> Vec<i64> {
    let mut s = vec![0; shape.len()];
    let mut acc = elem;
    for i in (0..shape.len()).rev() {
        s[i] = acc;
        acc = acc.saturating_mul(shape[i].max(1));
    }
    s
}

const NPY_ARRAY_C_CONTIGUOUS: i32 = 0x0001;
const NPY_ARRAY_WRITEABLE: i32 = 0x0400;

/// DLPack's flags of a versioned tensor (`DLPACK_FLAG_BITMASK_*`).
const DLPACK_FLAG_READ_ONLY: u64 = 1 << 0;
const DLPACK_FLAG_IS_COPIED: u64 = 1 << 1;

fn read_only(spec: &ArraySpec, at: &dyn Fn() -> String) -> PyErr {
    PyValueError::new_err(format!("{} is an output ({}) and the array is read-only", at(), describe(spec)))
}

/// A NumPy array argument's tensor, checked against the parameter's type.
struct NumpyTensor<'a> {
    tensor: DLTensor,
    /// The byte strides when the array is not C-contiguous (the tensor's
    /// `strides` are then still to be set, in elements).
    strided: Option<&'a [i64]>,
    /// The array's extents and byte strides.
    shape: &'a [i64],
    byte_strides: &'a [i64],
    /// Whether the elements are aligned for their type (else the call
    /// passes an aligned copy: aligned.rs).
    aligned: bool,
}

/// The tensor of a NumPy array argument, checked against the parameter's
/// type; `None` when `obj` is not a NumPy array.
fn numpy_tensor<'a>(
    obj: &'a Bound<'_, PyAny>,
    spec: &ArraySpec,
    at: &dyn Fn() -> String,
) -> PyResult<Option<NumpyTensor<'a>>> {
    let Ok(arr) = obj.cast::<PyUntypedArray>() else {
        return Ok(None);
    };
    let raw = arr.as_array_ptr();
    // SAFETY: a live array's descriptor; `type_num` and `byteorder` have the
    // same place in NumPy 1 and 2.
    let (type_num, byteorder) = unsafe { ((*(*raw).descr).type_num, (*(*raw).descr).byteorder as u8) };
    let same = dlpack::npy_type(spec.dtype).is_some_and(|t| dlpack::same_npy_type(t, type_num)) && byteorder != b'>';
    if !same {
        // The slow path: another type number of the same element type is
        // fine; anything else is an error naming the dtype.
        let descr = arr.dtype();
        let native = descr.is_native_byteorder() != Some(false);
        if dlpack::dtype_of_numpy(descr.kind(), descr.itemsize()) != Some(spec.dtype) || !native {
            let shown = descr.str().map(|s| s.to_string()).unwrap_or_default();
            let order = if native { "" } else { " in non-native byte order" };
            return Err(PyTypeError::new_err(format!(
                "{} expects {} ({}), got an array of {shown}{order}",
                at(),
                dlpack::an_array_of(spec.dtype),
                describe(spec)
            )));
        }
    }
    // SAFETY: `raw` is a live NumPy array object.
    let (data, nd, dims, strides, flags) =
        unsafe { ((*raw).data, (*raw).nd as usize, (*raw).dimensions, (*raw).strides, (*raw).flags) };
    // SAFETY: an array's dimensions and strides hold `nd` entries (npy_intp
    // is i64 on the 64-bit platforms this builds for), alive with `obj`.
    let (shape, bstrides): (&[i64], &'a [i64]) = unsafe {
        if nd == 0 {
            (&[], &[])
        } else {
            (std::slice::from_raw_parts(dims.cast::<i64>(), nd), std::slice::from_raw_parts(strides.cast::<i64>(), nd))
        }
    };
    check_layout(spec, shape, Some(bstrides), at)?;
    if spec.output && flags & NPY_ARRAY_WRITEABLE == 0 {
        return Err(read_only(spec, at));
    }
    // A view of no element reads nothing, aligned or not.
    let aligned = (data as usize) % dlpack::alignment(spec.dtype) as usize == 0 || shape.contains(&0);
    let tensor = DLTensor {
        data: data.cast(),
        device: DLDevice { device_type: 1, device_id: 0 },
        ndim: nd as i32,
        dtype: dlpack::dl_dtype(spec.dtype),
        shape: dims.cast(),
        strides: std::ptr::null_mut(),
        byte_offset: 0,
    };
    if flags & NPY_ARRAY_C_CONTIGUOUS != 0 {
        // Compact row-major: NULL strides (docs/abi.md §3).
        return Ok(Some(NumpyTensor { tensor, strided: None, shape, byte_strides: bstrides, aligned }));
    }
    let elem = spec.dtype.size_bytes() as i64;
    if let Some(s) = bstrides.iter().find(|s| **s % elem != 0) {
        return Err(PyValueError::new_err(format!(
            "{} has a byte stride {s} that is not a multiple of its element size {elem}",
            at()
        )));
    }
    Ok(Some(NumpyTensor { tensor, strided: Some(bstrides), shape, byte_strides: bstrides, aligned }))
}

/// An array argument: a NumPy array (any layout) or an object with
/// `__dlpack__` in host memory, never copied unless its elements are not
/// aligned for their type (aligned.rs).
fn array<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    spec: &ArraySpec,
    at: &dyn Fn() -> String,
    param: usize,
    call: &mut CallState<'py>,
) -> PyResult<Pointer> {
    if let Some(t) = numpy_tensor(obj, spec, at)? {
        if !t.aligned {
            // SAFETY: the array's elements, held by the caller for the call.
            let copy = unsafe {
                AlignedCopy::new(py, spec.dtype, t.tensor.data.cast(), t.shape, t.byte_strides, spec.output)
            }?;
            let tensor = DLTensor { data: copy.data.cast(), ..t.tensor };
            call.copies.push((param, copy));
            call.tensors.push(OwnTensor { tensor, shape_at: None, strides_at: None });
            return Ok(Pointer::Own(call.tensors.len() - 1));
        }
        let (tensor, bstrides) = (t.tensor, t.strided);
        let strides_at = bstrides.map(|b| {
            // The tensor points at these once the call's storage stops
            // moving (`Function::invoke`).
            let start = call.strides.len();
            let elem = spec.dtype.size_bytes() as i64;
            call.strides.extend(b.iter().map(|s| s / elem));
            start
        });
        call.tensors.push(OwnTensor { tensor, shape_at: None, strides_at });
        return Ok(Pointer::Own(call.tensors.len() - 1));
    }
    if obj.hasattr("__dlpack__")? {
        if obj.hasattr("__dlpack_device__")? {
            let device = obj.call_method0("__dlpack_device__")?;
            let Ok((device, _)) = device.extract::<(i32, i32)>() else {
                return Err(PyTypeError::new_err(format!(
                    "{}: __dlpack_device__ returned {}, not a (device type, device id) pair of ints",
                    at(),
                    device.repr().map(|r| r.to_string()).unwrap_or_else(|_| type_name(&device))
                )));
            };
            if !dlpack::HOST_DEVICES.contains(&device) {
                return Err(PyValueError::new_err(format!(
                    "{} expects an array in host memory, got one on {}",
                    at(),
                    dlpack::device_name(device)
                )));
            }
        }
        let capsule = dlpack_capsule(obj)?;
        let tensor = capsule_tensor(py, &capsule, spec, at)?;
        // SAFETY: the capsule's live tensor, owned by the capsule, which the
        // call holds until it returns; its shape and strides are followed
        // only once its rank is the parameter's.
        let checked = unsafe { dlpack::check_tensor(tensor, spec.dtype, spec.dims.len(), &describe(spec)) }.map_err(
            |r| match r {
                dlpack::Refusal::Type(m) => PyTypeError::new_err(format!("{} {m}", at())),
                dlpack::Refusal::Value(m) => PyValueError::new_err(format!("{} {m}", at())),
            },
        )?;
        let elem = spec.dtype.size_bytes() as i64;
        // Saturating: a stride along an axis of one element (or of a
        // tensor of none) is never stepped and may be anything.
        let bstrides: Option<SmallVec<[i64; 4]>> =
            checked.strides.as_ref().map(|s| s.iter().map(|s| s.saturating_mul(elem)).collect());
        check_layout(spec, &checked.shape, bstrides.as_deref(), at)?;
        // Compiled code gets the call's copy of what was checked (and of
        // the elements, when they are not aligned).
        let shape_at = call.shapes.len();
        call.shapes.extend_from_slice(&checked.shape);
        if !checked.aligned {
            let first = (checked.data as *mut u8).wrapping_add(checked.byte_offset as usize);
            let byte_strides = bstrides.unwrap_or_else(|| compact_strides(&checked.shape, elem).into());
            // SAFETY: the producer's elements, checked to lie in the
            // address space, owned by the capsule the call holds.
            let copy = unsafe { AlignedCopy::new(py, spec.dtype, first, &checked.shape, &byte_strides, spec.output) }?;
            let tensor = DLTensor {
                data: copy.data.cast(),
                device: DLDevice { device_type: 1, device_id: 0 },
                ndim: spec.dims.len() as i32,
                dtype: dlpack::dl_dtype(spec.dtype),
                shape: std::ptr::null_mut(),
                strides: std::ptr::null_mut(),
                byte_offset: 0,
            };
            call.copies.push((param, copy));
            call.tensors.push(OwnTensor { tensor, shape_at: Some(shape_at), strides_at: None });
            call.capsules.push((param, capsule));
            return Ok(Pointer::Own(call.tensors.len() - 1));
        }
        let strides_at = checked.strides.map(|s| {
            let start = call.strides.len();
            call.strides.extend_from_slice(&s);
            start
        });
        let tensor = DLTensor {
            data: checked.data,
            device: checked.device,
            ndim: spec.dims.len() as i32,
            dtype: dlpack::dl_dtype(spec.dtype),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            byte_offset: checked.byte_offset,
        };
        call.tensors.push(OwnTensor { tensor, shape_at: Some(shape_at), strides_at });
        call.capsules.push((param, capsule));
        return Ok(Pointer::Own(call.tensors.len() - 1));
    }
    Err(PyTypeError::new_err(format!(
        "{} expects {} ({}: a NumPy array or an object with __dlpack__), got {}",
        at(),
        dlpack::an_array_of(spec.dtype),
        describe(spec),
        type_name(obj)
    )))
}

/// `obj.__dlpack__(max_version=(1, 0))`, or `obj.__dlpack__()` for a
/// producer that does not take the keyword (the array API's rule: it
/// raises TypeError).
fn dlpack_capsule<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("max_version", (1, 0))?;
    match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => Ok(c),
        Err(e) if e.is_instance_of::<PyTypeError>(py) => obj.call_method0("__dlpack__"),
        Err(e) => Err(e),
    }
}

/// The tensor of a DLPack capsule, versioned (`dltensor_versioned`, whose
/// read-only flag refuses an `Out` parameter) or not (`dltensor`). The
/// capsule is not consumed: it owns the tensor while the call holds it.
fn capsule_tensor(
    py: Python<'_>,
    capsule: &Bound<'_, PyAny>,
    spec: &ArraySpec,
    at: &dyn Fn() -> String,
) -> PyResult<*mut DLTensor> {
    let not_a_capsule = || PyTypeError::new_err(format!("{}: __dlpack__ did not return a DLPack capsule", at()));
    // SAFETY: the name is read from a capsule only.
    let name = unsafe {
        if ffi::PyCapsule_CheckExact(capsule.as_ptr()) == 0 {
            return Err(not_a_capsule());
        }
        let n = ffi::PyCapsule_GetName(capsule.as_ptr());
        if n.is_null() {
            PyErr::take(py);
            return Err(not_a_capsule());
        }
        std::ffi::CStr::from_ptr(n).to_bytes().to_vec()
    };
    match name.as_slice() {
        b"dltensor_versioned" => {
            // SAFETY: a "dltensor_versioned" capsule holds a live
            // `DLManagedTensorVersioned`, owned by the capsule while it is
            // not consumed.
            let managed = unsafe {
                ffi::PyCapsule_GetPointer(capsule.as_ptr(), c"dltensor_versioned".as_ptr())
                    .cast::<DLManagedTensorVersioned>()
            };
            if managed.is_null() {
                return Err(PyErr::take(py).unwrap_or_else(not_a_capsule));
            }
            // SAFETY: as above.
            let m = unsafe { &mut *managed };
            if m.version.major != 1 {
                return Err(PyValueError::new_err(format!(
                    "{}: the producer exported DLPack {}.{}, which postc cannot read (it asked for 1.0)",
                    at(),
                    m.version.major,
                    m.version.minor
                )));
            }
            if spec.output && m.flags & DLPACK_FLAG_READ_ONLY != 0 {
                return Err(read_only(spec, at));
            }
            if spec.output && m.flags & DLPACK_FLAG_IS_COPIED != 0 {
                return Err(PyValueError::new_err(format!(
                    "{} is an output ({}) and the producer exported a copy of the array: writes would not reach it",
                    at(),
                    describe(spec)
                )));
            }
            Ok(&mut m.dl_tensor as *mut DLTensor)
        }
        b"dltensor" => {
            // SAFETY: a "dltensor" capsule holds a live `DLManagedTensor`,
            // owned by the capsule while it is not consumed.
            let managed =
                unsafe { ffi::PyCapsule_GetPointer(capsule.as_ptr(), c"dltensor".as_ptr()).cast::<DLManagedTensor>() };
            if managed.is_null() {
                return Err(PyErr::take(py).unwrap_or_else(not_a_capsule));
            }
            // SAFETY: as above.
            Ok(unsafe { &mut (*managed).dl_tensor as *mut DLTensor })
        }
        _ => Err(not_a_capsule()),
    }
}

/// The lowest and one-past-highest byte addresses of a tensor's elements
/// (`None` when it has none).
///
/// # Safety
/// `t` must be a live tensor of elements of `elem` bytes.
unsafe fn extent(t: &DLTensor, elem: i64) -> Option<(usize, usize)> {
    let nd = t.ndim.max(0) as usize;
    let shape: &[i64] = if nd == 0 { &[] } else { std::slice::from_raw_parts(t.shape, nd) };
    if shape.iter().any(|&n| n <= 0) {
        return None;
    }
    let compact;
    let strides: &[i64] = if t.strides.is_null() {
        compact = compact_strides(shape, 1);
        &compact
    } else {
        std::slice::from_raw_parts(t.strides, nd)
    };
    let start = (t.data as usize).wrapping_add(t.byte_offset as usize) as i128;
    let (mut lo, mut hi) = (start, start);
    for (n, s) in shape.iter().zip(strides) {
        let span = i128::from(n - 1) * i128::from(*s) * i128::from(elem);
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    Some((lo as usize, hi as usize + elem as usize))
}

/// Whether two tensors are the same array: first element, shape and the
/// strides of every axis stepped along.
///
/// # Safety
/// Both must be live tensors.
unsafe fn same_tensor(a: &DLTensor, b: &DLTensor) -> bool {
    if (a.data as usize).wrapping_add(a.byte_offset as usize) != (b.data as usize).wrapping_add(b.byte_offset as usize)
        || a.ndim != b.ndim
        || a.dtype != b.dtype
    {
        return false;
    }
    let nd = a.ndim.max(0) as usize;
    if nd == 0 {
        return true;
    }
    let (sa, sb) = (std::slice::from_raw_parts(a.shape, nd), std::slice::from_raw_parts(b.shape, nd));
    if sa != sb {
        return false;
    }
    let ca =
        if a.strides.is_null() { compact_strides(sa, 1) } else { std::slice::from_raw_parts(a.strides, nd).to_vec() };
    let cb =
        if b.strides.is_null() { compact_strides(sb, 1) } else { std::slice::from_raw_parts(b.strides, nd).to_vec() };
    ca.iter().zip(&cb).zip(sa).all(|((x, y), n)| *n <= 1 || x == y)
}

/// A returned array. When its tensor is an argument's tensor, the argument
/// object itself (the new header is released); when it lies in an
/// argument's memory, an array whose base keeps `keeper` of that argument
/// alive; otherwise an array that owns the tensor.
///
/// # Safety
/// `managed` must be a live `DLManagedTensor` of host memory owned by the
/// caller; `args` are the array arguments: object, tensor passed, and the
/// object that keeps the tensor's memory alive.
unsafe fn returned_array<'py>(
    py: Python<'py>,
    managed: *mut DLManagedTensor,
    d: DType,
    args: &[PassedArray],
) -> PyResult<Bound<'py, PyAny>> {
    let t = &(*managed).dl_tensor;
    let release_header = || {
        if let Some(del) = (*managed).deleter {
            del(managed);
        }
    };
    for &PassedArray { object, tensor, .. } in args {
        if !tensor.is_null() && same_tensor(t, &*tensor) {
            // The function returned its argument: the header shares the
            // argument's data and frees only itself.
            release_header();
            return Ok(Bound::from_borrowed_ptr(py, object));
        }
    }
    let elem = d.size_bytes() as i64;
    if let Some((lo, hi)) = extent(t, elem) {
        for &PassedArray { tensor, keeper, .. } in args {
            if tensor.is_null() || keeper.is_null() {
                continue;
            }
            // The argument's own element size (its dtype may differ).
            let arg_elem = (i64::from((*tensor).dtype.bits) / 8).max(1);
            if let Some((alo, ahi)) = extent(&*tensor, arg_elem) {
                if lo < ahi && alo < hi {
                    // A view of the argument: it keeps the argument alive.
                    return owned_array(py, managed, d, Some(Bound::from_borrowed_ptr(py, keeper).unbind()));
                }
            }
        }
    }
    owned_array(py, managed, d, None)
}

/// A NumPy array that owns a returned `DLManagedTensor`: its base is a
/// capsule that calls the tensor's deleter when the array is freed and
/// holds `keep` (the argument a view's memory belongs to) until then.
///
/// # Safety
/// `managed` must be a live `DLManagedTensor` of host memory whose
/// ownership passes to the array.
pub unsafe fn owned_array<'py>(
    py: Python<'py>,
    managed: *mut DLManagedTensor,
    d: DType,
    keep: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let kept = keep.map_or(0usize, |k| k.into_ptr() as usize);
    let release = move |m: usize, _: *mut c_void| {
        let m = m as *mut DLManagedTensor;
        // SAFETY: the capsule owns the tensor and the reference to the kept
        // object, and is destroyed once, with the GIL held.
        unsafe {
            if let Some(del) = (*m).deleter {
                del(m);
            }
            if kept != 0 {
                ffi::Py_DECREF(kept as *mut ffi::PyObject);
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
