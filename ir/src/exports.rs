//! What Python sees of a compiled module: its exported functions and
//! ufuncs, with the parameter and result types the calls check, read from
//! the program's IR. The `postc` package reads them from the program it
//! has just compiled; an extension module made ahead of time carries them
//! as bytes ([`Exports::encode`]) that it decodes when it is imported
//! ([`Exports::decode`]).

use crate::{ConstValue, DType, Layout, Module, Program, Shape, TypeData};

/// An array parameter or result type.
#[derive(Clone, Debug)]
pub struct ArraySpec {
    pub dtype: DType,
    /// One entry per axis: `Some(n)` for a static extent.
    pub dims: Vec<Option<u64>>,
    /// The byte strides the type fixes (explicit `Strides[...]`, or C or
    /// Fortran order with static extents); `None` when any view will do.
    pub fixed_strides: Option<Vec<i64>>,
    /// The spelling of the layout a fixed stride comes from, for messages.
    pub layout: &'static str,
    pub output: bool,
    /// The type as the IR writes it (`&Float64[]Shape[?]`), for messages.
    pub text: String,
}

/// A parameter's type.
#[derive(Clone, Debug)]
pub enum ParamType {
    Scalar(DType),
    Array(ArraySpec),
    /// A value or `None` (`T | None`): a `bool` C argument that says
    /// whether the value is given, then the value's own arguments (a
    /// scalar, zero for `None`; an array with runtime extents, an empty
    /// one of its rank for `None`; a tuple of numbers, zeros for `None`).
    MaybeNone(Box<ParamType>),
    /// A tuple of numbers (Bool, integers, floats): its elements, one C
    /// argument each, in order.
    Tuple(Vec<DType>),
    /// A dtype fixed when the function compiled (`dtype: type[Float64]`,
    /// see [`crate::Function::dtype_params`]): no C argument; a Python
    /// caller passes that dtype.
    DType(DType),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: ParamType,
}

/// A result type.
#[derive(Clone, Debug)]
pub enum Ret {
    Void,
    Scalar(DType),
    Array(ArraySpec),
    /// A tuple of scalars, arrays and tuples of scalars and arrays (never
    /// `Void`), each scalar and array written through one trailing
    /// out-pointer, an inner tuple's in order (docs/abi.md §2).
    Tuple(Vec<Ret>),
    /// A scalar or `None` (`T | None`): in C the tuple `(Bool, T)`, two
    /// trailing out-pointers, the `bool` saying whether there is a value.
    MaybeNone(DType),
    /// An element of a tuple result (a scalar or an array) that may be
    /// `None`: two of the tuple's out-pointers, a `bool` that says whether
    /// there is a value, then the value (an empty array for `None`, which
    /// the caller frees as any array result).
    Optional(Box<Ret>),
    /// A list of numbers of this dtype (POST Python's `return xs` of a
    /// list local, [`crate::Function::list_results`]): in C a new 1-D
    /// array, as [`Ret::Array`] is returned; Python callers receive a
    /// `list` of Python numbers (`int` for an integer dtype, `float`,
    /// `bool`, `complex`), as CPython's list holds them.
    List(DType),
}

impl Ret {
    /// The scalars and arrays of a tuple result, flat, as the C ABI writes
    /// them, and the inner tuples among them (each one's first position
    /// and length, as [`crate::Function::result_groups`] gives them).
    pub fn flat_tuple(elements: &[Ret]) -> (Vec<&Ret>, Vec<(usize, usize)>) {
        let mut flat = Vec::with_capacity(elements.len());
        let mut groups = Vec::new();
        for e in elements {
            match e {
                Ret::Tuple(inner) => {
                    groups.push((flat.len(), inner.len()));
                    flat.extend(inner.iter());
                }
                e => flat.push(e),
            }
        }
        (flat, groups)
    }

    /// How many out-pointers the C ABI writes an element of a tuple result
    /// through: two for one that may be `None` (its flag and its value).
    pub fn slots(&self) -> usize {
        match self {
            Ret::Optional(_) => 2,
            _ => 1,
        }
    }

    fn of(t: &TypeData) -> Ret {
        if t.is_tuple() {
            Ret::Tuple(t.elements.iter().map(Ret::of).collect())
        } else if t.is_array {
            Ret::Array(array_spec(t))
        } else {
            Ret::Scalar(t.dtype)
        }
    }
}

/// An exported plain function (an alias is one more name of the same
/// symbol).
#[derive(Clone, Debug)]
pub struct FuncSpec {
    /// The name Python sees and the symbol of the library.
    pub name: String,
    pub params: Vec<Param>,
    /// The default values of the last `defaults.len()` parameters, as
    /// CPython holds them ([`crate::Function::defaults`]); `None` is
    /// Python's `None`.
    pub defaults: Vec<Option<ConstValue>>,
    /// The array defaults, by their place in `defaults`
    /// ([`crate::Function::array_defaults`]).
    pub array_defaults: Vec<(usize, crate::ArrayDefault)>,
    /// How many of the last parameters are keyword-only
    /// ([`crate::Function::keyword_only`]).
    pub keyword_only: usize,
    /// How many of the first parameters are positional-only
    /// ([`crate::Function::positional_only`]).
    pub positional_only: usize,
    pub ret: Ret,
    pub doc: Option<String>,
    /// `kernel` functions take a launch configuration first.
    pub kernel: bool,
}

/// An exported ufunc.
#[derive(Clone, Debug)]
pub struct UFuncSpec {
    pub name: String,
    /// The operands' dtypes: inputs, then outputs.
    pub dtypes: Vec<DType>,
    pub nin: usize,
    pub nout: usize,
    /// NumPy's signature text, `None` for an elementwise ufunc.
    pub signature: Option<String>,
    pub doc: Option<String>,
}

/// What a module exports.
#[derive(Clone, Debug, Default)]
pub struct Exports {
    pub functions: Vec<FuncSpec>,
    pub ufuncs: Vec<UFuncSpec>,
}

fn array_spec(t: &TypeData) -> ArraySpec {
    let dims: Vec<Option<u64>> = match &t.shape {
        Shape::Dims(d) => d.to_vec(),
        // The frontend always fixes the rank; `.pir` may not.
        Shape::Any => Vec::new(),
    };
    let fixed: Option<Vec<i64>> = (0..dims.len()).map(|axis| t.static_stride(axis)).collect();
    let fixed_strides = if dims.is_empty() { None } else { fixed };
    let layout = match &t.layout {
        Layout::COrder => "C-contiguous",
        Layout::FOrder => "Fortran-contiguous",
        Layout::Strides(_) => "strided",
    };
    ArraySpec { dtype: t.dtype, dims, fixed_strides, layout, output: t.is_output, text: t.to_string() }
}

/// The exports of the first module of `program` (the one compiled; the
/// modules it imports are linked in but not exposed).
pub fn exports(program: &Program) -> Exports {
    let Some(m) = program.modules.iter().next() else { return Exports::default() };
    let mut out = Exports::default();
    for f in m.functions.iter() {
        if f.name.starts_with(crate::builtins::PREFIX) || !m.is_exported(&f.name) {
            continue;
        }
        add(m, f, &f.name, &mut out);
    }
    for (alias, target) in &m.function_aliases {
        if m.export_all.is_some() && !m.is_exported(alias) {
            continue;
        }
        if let Some(fid) = m.get_function(target) {
            add(m, &m.functions[fid], alias, &mut out);
        }
    }
    out
}

fn add(m: &Module, f: &crate::Function, name: &str, out: &mut Exports) {
    if let Some(sig) = &f.ufunc_sig {
        let mut dtypes: Vec<DType> =
            f.params().map(|p| f.body.ty(p).map_or(DType::Int64, |t| m.types.dtype(t))).collect();
        if let Some(r) = f.return_dtype(&m.types) {
            dtypes.push(r);
        }
        let elementwise = sig.inputs.iter().chain(&sig.outputs).all(Vec::is_empty);
        out.ufuncs.push(UFuncSpec {
            name: name.to_owned(),
            nin: sig.inputs.len(),
            nout: sig.outputs.len(),
            dtypes,
            signature: (!elementwise).then(|| sig.to_string()),
            doc: f.doc.clone(),
        });
        return;
    }
    let ir_params: Vec<_> = f.params().collect();
    let mut params = Vec::with_capacity(ir_params.len());
    let mut k = 0;
    while k < ir_params.len() {
        let type_of =
            |p| f.body.ty(p).map(|t| m.types.get(t).clone()).unwrap_or_else(|| TypeData::scalar(DType::Int64));
        // A parameter that may be `None` is its flag and its value, and
        // Python names it by its value.
        let flag = f.maybe_none.params.contains(&k) && k + 1 < ir_params.len();
        let at = k + usize::from(flag);
        let (name, ty, len) = if let Some(len) = f.tuple_param_at(at, ir_params.len()) {
            let elements = ir_params[at..at + len].iter().map(|&p| type_of(p).dtype).collect();
            // The elements are named `name.0`, `name.1`, ...
            let name = f.body.name(ir_params[at]).unwrap_or("_");
            (name.rsplit_once('.').map_or(name, |(n, _)| n), ParamType::Tuple(elements), len)
        } else {
            let p = ir_params[at];
            let t = type_of(p);
            let ty = if t.is_array { ParamType::Array(array_spec(&t)) } else { ParamType::Scalar(t.dtype) };
            (f.body.name(p).unwrap_or("_"), ty, 1)
        };
        let ty = if flag { ParamType::MaybeNone(Box::new(ty)) } else { ty };
        params.push(Param { name: name.to_owned(), ty });
        k = at + len;
    }
    // The dtypes among them, by their places (ascending).
    for d in &f.dtype_params {
        let at = d.at.min(params.len());
        params.insert(at, Param { name: d.name.clone(), ty: ParamType::DType(d.dtype) });
    }
    let ret = match f.ret.map(|t| m.types.get(t)) {
        None => Ret::Void,
        Some(t) if f.maybe_none.result && t.elements.len() == 2 => Ret::MaybeNone(t.elements[1].dtype),
        Some(t) => match listed(Ret::of(t), &f.list_results) {
            Ret::Tuple(flat) if !f.maybe_none.result_elements.is_empty() => {
                // Each flag and the value after it: one element.
                let pairs: Vec<(usize, usize)> = f.maybe_none.result_elements.iter().map(|&k| (k, 2)).collect();
                Ret::Tuple(crate::regroup(flat, &pairs, |mut pair| match pair.pop() {
                    Some(value) => Ret::Optional(Box::new(value)),
                    None => Ret::Void,
                }))
            }
            Ret::Tuple(flat) => Ret::Tuple(crate::regroup(flat, &f.result_groups, Ret::Tuple)),
            r => r,
        },
    };
    out.functions.push(FuncSpec {
        name: name.to_owned(),
        params,
        defaults: f.defaults.clone(),
        array_defaults: f.array_defaults.clone(),
        keyword_only: f.keyword_only,
        positional_only: f.positional_only,
        ret,
        doc: f.doc.clone(),
        kernel: f.attrs.contains(crate::FuncAttrs::KERNEL),
    });
}

/// `ret` (a function's result, of the IR's type) with the elements at
/// `lists` (positions among the IR result's, see
/// [`crate::Function::list_results`]) made [`Ret::List`]s.
fn listed(ret: Ret, lists: &[usize]) -> Ret {
    let list = |r: Ret| match r {
        Ret::Array(a) if a.dims.len() == 1 => Ret::List(a.dtype),
        r => r,
    };
    match ret {
        Ret::Tuple(flat) => Ret::Tuple(
            flat.into_iter().enumerate().map(|(k, e)| if lists.contains(&k) { list(e) } else { e }).collect(),
        ),
        r if lists == [0] => list(r),
        r => r,
    }
}

/// Layouts by their spelling (the `&'static str` of [`ArraySpec::layout`]).
const LAYOUTS: [&str; 3] = ["C-contiguous", "Fortran-contiguous", "strided"];

/// The first field of [`Exports::encode`]'s bytes since functions carry
/// their defaults. Bytes written before start with the function count,
/// never negative, and still decode (without defaults), so an extension
/// module made earlier keeps importing.
const WITH_DEFAULTS: i64 = -2;

/// The first field since functions also carry how many of their
/// parameters are keyword-only (after their defaults); bytes that start
/// with [`WITH_DEFAULTS`] still decode, with none.
const WITH_KEYWORD_ONLY: i64 = -3;

/// The first field since functions also carry how many of their
/// parameters are positional-only (after the keyword-only count); bytes
/// that start with an earlier marker still decode, with none.
const WITH_POSITIONAL_ONLY: i64 = -4;

/// The first field since functions also carry the defaults of array
/// parameters (after the positional-only count).
const WITH_ARRAY_DEFAULTS: i64 = -5;

/// Writes the little-endian, length-prefixed fields of [`Exports::encode`].
#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn int(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn text(&mut self, s: &str) {
        self.int(s.len() as i64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn optional_text(&mut self, s: Option<&str>) {
        self.int(i64::from(s.is_some()));
        if let Some(s) = s {
            self.text(s);
        }
    }
    fn bytes(&mut self, b: &[u8]) {
        self.int(b.len() as i64);
        self.0.extend_from_slice(b);
    }
    fn dtype(&mut self, d: DType) {
        self.text(d.name());
    }
    fn value(&mut self, v: Option<&ConstValue>) {
        let Some(v) = v else {
            self.int(6);
            return;
        };
        match v {
            ConstValue::Bool(b) => {
                self.int(0);
                self.int(i64::from(*b));
            }
            ConstValue::Int(i) => {
                self.int(1);
                self.int(*i as i64);
                self.int((*i >> 64) as i64);
            }
            ConstValue::Float(bits) => {
                self.int(2);
                self.int(*bits as i64);
            }
            ConstValue::Complex(re, im) => {
                self.int(3);
                self.int(*re as i64);
                self.int(*im as i64);
            }
            ConstValue::Str(s) => {
                self.int(4);
                self.text(s);
            }
            ConstValue::Bytes(b) => {
                self.int(5);
                self.bytes(b);
            }
        }
    }
    /// A parameter's type: 0 a scalar, 1 an array, 3 a tuple (its count,
    /// then each element's dtype), 5 a dtype fixed when compiled; a value
    /// that may be `None` is 2 and a dtype for a scalar (as bytes written
    /// before arrays and tuples could be `None` have it), else 4 and its
    /// value's type.
    fn param_type(&mut self, ty: &ParamType) {
        match ty {
            ParamType::Scalar(d) => {
                self.int(0);
                self.dtype(*d);
            }
            ParamType::Array(a) => {
                self.int(1);
                self.array(a);
            }
            ParamType::Tuple(elements) => {
                self.int(3);
                self.int(elements.len() as i64);
                for d in elements {
                    self.dtype(*d);
                }
            }
            ParamType::DType(d) => {
                self.int(5);
                self.dtype(*d);
            }
            ParamType::MaybeNone(inner) => match &**inner {
                ParamType::Scalar(d) => {
                    self.int(2);
                    self.dtype(*d);
                }
                inner => {
                    self.int(4);
                    self.param_type(inner);
                }
            },
        }
    }
    /// A result: 0 void, 1 a scalar, 2 an array, 3 a tuple (its count,
    /// then each element), 4 a scalar that may be `None` (its dtype), 5 an
    /// element of a tuple that may be `None` (its value's), 6 a list (its
    /// elements' dtype; bytes written before lists never hold it).
    fn ret(&mut self, r: &Ret) {
        match r {
            Ret::Void => self.int(0),
            Ret::Scalar(d) => {
                self.int(1);
                self.dtype(*d);
            }
            Ret::Array(a) => {
                self.int(2);
                self.array(a);
            }
            Ret::Tuple(elements) => {
                self.int(3);
                self.int(elements.len() as i64);
                for e in elements {
                    self.ret(e);
                }
            }
            Ret::MaybeNone(d) => {
                self.int(4);
                self.dtype(*d);
            }
            Ret::Optional(value) => {
                self.int(5);
                self.ret(value);
            }
            Ret::List(d) => {
                self.int(6);
                self.dtype(*d);
            }
        }
    }
    fn array(&mut self, a: &ArraySpec) {
        self.dtype(a.dtype);
        self.int(a.dims.len() as i64);
        for d in &a.dims {
            // -1: an extent known only at run time.
            self.int(d.map_or(-1, |n| n as i64));
        }
        self.int(i64::from(a.fixed_strides.is_some()));
        for s in a.fixed_strides.iter().flatten() {
            self.int(*s);
        }
        self.int(LAYOUTS.iter().position(|l| *l == a.layout).unwrap_or(2) as i64);
        self.int(i64::from(a.output));
        self.text(&a.text);
    }
}

/// Reads what [`Writer`] wrote; `None` at the first field that is not
/// there or not valid.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn int(&mut self) -> Option<i64> {
        let (head, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(i64::from_le_bytes(*head))
    }
    fn count(&mut self) -> Option<usize> {
        usize::try_from(self.int()?).ok().filter(|n| *n <= self.0.len())
    }
    fn flag(&mut self) -> Option<bool> {
        Some(self.int()? != 0)
    }
    fn bytes(&mut self) -> Option<Vec<u8>> {
        let n = self.count()?;
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head.to_vec())
    }
    fn text(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?).ok()
    }
    /// A default value; `Some(None)` for Python's `None`.
    fn value(&mut self) -> Option<Option<ConstValue>> {
        Some(Some(match self.int()? {
            0 => ConstValue::Bool(self.flag()?),
            1 => {
                let (lo, hi) = (self.int()?, self.int()?);
                ConstValue::Int(i128::from(hi) << 64 | i128::from(lo as u64))
            }
            2 => ConstValue::Float(self.int()? as u64),
            3 => ConstValue::Complex(self.int()? as u64, self.int()? as u64),
            4 => ConstValue::Str(self.text()?),
            5 => ConstValue::Bytes(self.bytes()?),
            6 => return Some(None),
            _ => return None,
        }))
    }
    fn optional_text(&mut self) -> Option<Option<String>> {
        Some(if self.flag()? { Some(self.text()?) } else { None })
    }
    fn dtype(&mut self) -> Option<DType> {
        DType::from_name(&self.text()?)
    }
    /// What [`Writer::ret`] wrote at `depth`: 0 a function's result, 1 an
    /// element of its tuple (which may be a tuple), 2 an element of a
    /// tuple inside it (a scalar or an array).
    fn ret(&mut self, depth: u8) -> Option<Ret> {
        Some(match self.int()? {
            0 if depth == 0 => Ret::Void,
            1 => Ret::Scalar(self.dtype()?),
            2 => Ret::Array(self.array()?),
            3 if depth < 2 => {
                let elements = (0..self.count()?).map(|_| self.ret(depth + 1)).collect::<Option<Vec<_>>>()?;
                if elements.is_empty() {
                    return None;
                }
                Ret::Tuple(elements)
            }
            4 if depth == 0 => Ret::MaybeNone(self.dtype()?),
            // An element of the function's tuple, a scalar or an array.
            5 if depth == 1 => match self.ret(2)? {
                value @ (Ret::Scalar(_) | Ret::Array(_)) => Ret::Optional(Box::new(value)),
                _ => return None,
            },
            // A list of numbers (never text), the result or an element.
            6 => match self.dtype()? {
                d if d.is_text() => return None,
                d => Ret::List(d),
            },
            _ => return None,
        })
    }
    /// What [`Writer::param_type`] wrote; a value that may be `None` only
    /// where `optional` (not inside another).
    fn param_type(&mut self, optional: bool) -> Option<ParamType> {
        Some(match self.int()? {
            0 => ParamType::Scalar(self.dtype()?),
            1 => ParamType::Array(self.array()?),
            2 if optional => ParamType::MaybeNone(Box::new(ParamType::Scalar(self.dtype()?))),
            3 => ParamType::Tuple((0..self.count()?).map(|_| self.dtype()).collect::<Option<_>>()?),
            5 if optional => ParamType::DType(self.dtype()?),
            4 if optional => match self.param_type(false)? {
                inner @ (ParamType::Array(_) | ParamType::Tuple(_)) => ParamType::MaybeNone(Box::new(inner)),
                _ => return None,
            },
            _ => return None,
        })
    }
    fn array(&mut self) -> Option<ArraySpec> {
        let dtype = self.dtype()?;
        let rank = self.count()?;
        let dims = (0..rank).map(|_| self.int().map(|d| u64::try_from(d).ok())).collect::<Option<Vec<_>>>()?;
        let fixed_strides =
            if self.flag()? { Some((0..rank).map(|_| self.int()).collect::<Option<Vec<_>>>()?) } else { None };
        let layout = *LAYOUTS.get(self.count()?)?;
        let output = self.flag()?;
        let text = self.text()?;
        Some(ArraySpec { dtype, dims, fixed_strides, layout, output, text })
    }
}

impl Exports {
    /// The exports as bytes that [`Exports::decode`] reads back.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.int(WITH_ARRAY_DEFAULTS);
        w.int(self.functions.len() as i64);
        for f in &self.functions {
            w.text(&f.name);
            w.int(f.params.len() as i64);
            for p in &f.params {
                w.text(&p.name);
                match &p.ty {
                    ParamType::Scalar(d) => {
                        w.int(0);
                        w.dtype(*d);
                    }
                    ParamType::Array(a) => {
                        w.int(1);
                        w.array(a);
                    }
                    ParamType::MaybeNone(inner) => match &**inner {
                        ParamType::Scalar(d) => {
                            w.int(2);
                            w.dtype(*d);
                        }
                        inner => {
                            w.int(4);
                            w.param_type(inner);
                        }
                    },
                    ty => w.param_type(ty),
                }
            }
            w.ret(&f.ret);
            w.optional_text(f.doc.as_deref());
            w.int(i64::from(f.kernel));
            w.int(f.defaults.len() as i64);
            for v in &f.defaults {
                w.value(v.as_ref());
            }
            w.int(f.keyword_only as i64);
            w.int(f.positional_only as i64);
            w.int(f.array_defaults.len() as i64);
            for (at, a) in &f.array_defaults {
                w.int(*at as i64);
                w.dtype(a.dtype);
                w.int(a.shape.len() as i64);
                for &n in &a.shape {
                    w.int(n as i64);
                }
                w.value(Some(&a.fill));
            }
        }
        w.int(self.ufuncs.len() as i64);
        for u in &self.ufuncs {
            w.text(&u.name);
            w.int(u.dtypes.len() as i64);
            for d in &u.dtypes {
                w.dtype(*d);
            }
            w.int(u.nin as i64);
            w.int(u.nout as i64);
            w.optional_text(u.signature.as_deref());
            w.optional_text(u.doc.as_deref());
        }
        w.0
    }

    /// The exports [`Exports::encode`] wrote; `None` for bytes it did not
    /// write.
    pub fn decode(bytes: &[u8]) -> Option<Exports> {
        let mut r = Reader(bytes);
        let mut out = Exports::default();
        let with_array_defaults = bytes.starts_with(&WITH_ARRAY_DEFAULTS.to_le_bytes());
        let with_positional_only = with_array_defaults || bytes.starts_with(&WITH_POSITIONAL_ONLY.to_le_bytes());
        let with_keyword_only = with_positional_only || bytes.starts_with(&WITH_KEYWORD_ONLY.to_le_bytes());
        let with_defaults = with_keyword_only || bytes.starts_with(&WITH_DEFAULTS.to_le_bytes());
        if with_defaults {
            r.int()?;
        }
        for _ in 0..r.count()? {
            let name = r.text()?;
            let mut params = Vec::new();
            for _ in 0..r.count()? {
                let name = r.text()?;
                let ty = r.param_type(true)?;
                params.push(Param { name, ty });
            }
            let ret = r.ret(0)?;
            let doc = r.optional_text()?;
            let kernel = r.flag()?;
            let defaults = if with_defaults {
                (0..r.count()?).map(|_| r.value()).collect::<Option<Vec<_>>>()?
            } else {
                Vec::new()
            };
            let keyword_only = if with_keyword_only { r.count()? } else { 0 };
            let positional_only = if with_positional_only { r.count()? } else { 0 };
            let mut array_defaults = Vec::new();
            if with_array_defaults {
                for _ in 0..r.count()? {
                    let at = r.count()?;
                    let dtype = r.dtype()?;
                    let shape = (0..r.count()?).map(|_| r.count().map(|n| n as u64)).collect::<Option<_>>()?;
                    let fill = r.value()??;
                    if at >= defaults.len() {
                        return None;
                    }
                    array_defaults.push((at, crate::ArrayDefault { dtype, shape, fill }));
                }
            }
            if defaults.len() > params.len() || keyword_only + positional_only > params.len() {
                return None;
            }
            out.functions.push(FuncSpec {
                name,
                params,
                defaults,
                array_defaults,
                keyword_only,
                positional_only,
                ret,
                doc,
                kernel,
            });
        }
        for _ in 0..r.count()? {
            let name = r.text()?;
            let dtypes = (0..r.count()?).map(|_| r.dtype()).collect::<Option<Vec<_>>>()?;
            let nin = r.count()?;
            let nout = r.count()?;
            let signature = r.optional_text()?;
            let doc = r.optional_text()?;
            out.ufuncs.push(UFuncSpec { name, dtypes, nin, nout, signature, doc });
        }
        r.0.is_empty().then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `exports` decodes back to itself, and cut short anywhere its bytes
    /// are refused rather than misread.
    fn assert_round_trips(exports: &Exports) {
        let bytes = exports.encode();
        let back = Exports::decode(&bytes).expect("decodes");
        assert_eq!(format!("{back:?}"), format!("{exports:?}"));
        for n in 0..bytes.len() {
            assert!(Exports::decode(&bytes[..n]).is_none(), "a prefix of {n} bytes decoded");
        }
    }

    #[test]
    fn exports_read_back_as_written() {
        let array = ArraySpec {
            dtype: DType::Float32,
            dims: vec![None, Some(3)],
            fixed_strides: Some(vec![12, 4]),
            layout: "C-contiguous",
            output: true,
            text: "&Float32[]Shape[?, 3]".into(),
        };
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "f".into(),
                params: vec![
                    Param { name: "a".into(), ty: ParamType::Scalar(DType::Int8) },
                    Param { name: "xs".into(), ty: ParamType::Array(array.clone()) },
                    Param { name: "flag".into(), ty: ParamType::Scalar(DType::Bool) },
                    Param { name: "n".into(), ty: ParamType::Scalar(DType::Int64) },
                    Param { name: "x".into(), ty: ParamType::Scalar(DType::Float64) },
                    Param { name: "z".into(), ty: ParamType::Scalar(DType::Complex128) },
                    Param { name: "s".into(), ty: ParamType::Scalar(DType::Str) },
                    Param { name: "b".into(), ty: ParamType::Scalar(DType::Bytes) },
                ],
                defaults: vec![
                    Some(ConstValue::Bool(true)),
                    Some(ConstValue::Int(-(1 << 70))),
                    Some(ConstValue::Float((-2.5f64).to_bits())),
                    Some(ConstValue::Complex(0f64.to_bits(), 1f64.to_bits())),
                    Some(ConstValue::Str("é".into())),
                    Some(ConstValue::Bytes(vec![0, 255])),
                ],
                array_defaults: Vec::new(),
                keyword_only: 3,
                positional_only: 2,
                ret: Ret::Array(ArraySpec { layout: "strided", fixed_strides: None, ..array }),
                doc: Some("two\nlines".into()),
                kernel: false,
            }],
            ufuncs: vec![UFuncSpec {
                name: "u".into(),
                dtypes: vec![DType::Float64, DType::Complex128],
                nin: 1,
                nout: 1,
                signature: Some("(n)->()".into()),
                doc: None,
            }],
        };
        assert_round_trips(&exports);
    }

    #[test]
    fn array_defaults_round_trip() {
        let array = ArraySpec {
            dtype: DType::Bool,
            dims: vec![None],
            fixed_strides: None,
            layout: "strided",
            output: false,
            text: "Bool[]Shape[?]".into(),
        };
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "masked".into(),
                params: vec![
                    Param { name: "x".into(), ty: ParamType::Scalar(DType::Float64) },
                    Param { name: "mask".into(), ty: ParamType::Array(array) },
                    Param { name: "k".into(), ty: ParamType::Scalar(DType::Int64) },
                ],
                defaults: vec![None, Some(ConstValue::Int(2))],
                array_defaults: vec![(
                    0,
                    crate::ArrayDefault { dtype: DType::Bool, shape: vec![0, 3], fill: ConstValue::Bool(false) },
                )],
                keyword_only: 0,
                positional_only: 0,
                ret: Ret::Scalar(DType::Float64),
                doc: None,
                kernel: false,
            }],
            ufuncs: Vec::new(),
        };
        assert_round_trips(&exports);
        let back = Exports::decode(&exports.encode()).expect("decodes");
        assert_eq!(back.functions[0].array_defaults, exports.functions[0].array_defaults);
    }

    #[test]
    fn tuple_parameters_round_trip() {
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "offset".into(),
                params: vec![
                    Param { name: "x".into(), ty: ParamType::Scalar(DType::Float64) },
                    Param { name: "by".into(), ty: ParamType::Tuple(vec![DType::Int64, DType::Float32, DType::Bool]) },
                ],
                defaults: Vec::new(),
                array_defaults: Vec::new(),
                keyword_only: 0,
                positional_only: 0,
                ret: Ret::Scalar(DType::Float64),
                doc: None,
                kernel: false,
            }],
            ufuncs: Vec::new(),
        };
        assert_round_trips(&exports);
    }

    #[test]
    fn tuples_inside_tuple_results_round_trip_and_flatten() {
        let inner = Ret::Tuple(vec![Ret::Scalar(DType::Bool), Ret::Scalar(DType::Int64)]);
        let ret = Ret::Tuple(vec![Ret::Scalar(DType::Float64), inner, Ret::Scalar(DType::Int32)]);
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "nested".into(),
                params: Vec::new(),
                defaults: Vec::new(),
                array_defaults: Vec::new(),
                keyword_only: 0,
                positional_only: 0,
                ret: ret.clone(),
                doc: None,
                kernel: false,
            }],
            ufuncs: Vec::new(),
        };
        assert_round_trips(&exports);
        let Ret::Tuple(elements) = &ret else { unreachable!() };
        let (flat, groups) = Ret::flat_tuple(elements);
        assert_eq!(flat.len(), 4);
        assert_eq!(groups, [(1, 2)]);
        let flat: Vec<Ret> = flat.into_iter().cloned().collect();
        assert_eq!(format!("{:?}", crate::regroup(flat, &groups, Ret::Tuple)), format!("{elements:?}"));
    }

    #[test]
    fn tuple_results_round_trip() {
        let array = ArraySpec {
            dtype: DType::Int64,
            dims: vec![None],
            fixed_strides: None,
            layout: "C-contiguous",
            output: false,
            text: "Int64[]Shape[?]".into(),
        };
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "pair".into(),
                params: Vec::new(),
                defaults: Vec::new(),
                array_defaults: Vec::new(),
                keyword_only: 0,
                positional_only: 0,
                ret: Ret::Tuple(vec![
                    Ret::Scalar(DType::Float64),
                    Ret::Optional(Box::new(Ret::Array(array.clone()))),
                    Ret::Array(array),
                    Ret::Optional(Box::new(Ret::Scalar(DType::Int8))),
                ]),
                doc: None,
                kernel: false,
            }],
            ufuncs: Vec::new(),
        };
        assert_round_trips(&exports);
    }

    #[test]
    fn list_results_round_trip() {
        let array = ArraySpec {
            dtype: DType::Float64,
            dims: vec![None],
            fixed_strides: None,
            layout: "C-contiguous",
            output: false,
            text: "Float64[]Shape[?]".into(),
        };
        let function = |name: &str, ret: Ret| FuncSpec {
            name: name.into(),
            params: Vec::new(),
            defaults: Vec::new(),
            array_defaults: Vec::new(),
            keyword_only: 0,
            positional_only: 0,
            ret,
            doc: None,
            kernel: false,
        };
        let exports = Exports {
            functions: vec![
                function("positions", Ret::List(DType::Int64)),
                function(
                    "sliding_mean",
                    Ret::Tuple(vec![
                        Ret::Array(array.clone()),
                        Ret::List(DType::Int64),
                        Ret::Tuple(vec![Ret::List(DType::Bool), Ret::Scalar(DType::Int8)]),
                    ]),
                ),
            ],
            ufuncs: Vec::new(),
        };
        assert_round_trips(&exports);
        // A list of strings is no result a function gives.
        let mut w = Writer::default();
        w.int(6);
        w.dtype(DType::Str);
        assert!(Reader(&w.0).ret(0).is_none());
        // The IR's 1-D array results at the positions listed become lists.
        let of = |ret: Ret, lists: &[usize]| format!("{:?}", listed(ret, lists));
        assert_eq!(of(Ret::Array(array.clone()), &[0]), format!("{:?}", Ret::List(DType::Float64)));
        assert_eq!(of(Ret::Array(array.clone()), &[]), format!("{:?}", Ret::Array(array.clone())));
        let pair = Ret::Tuple(vec![Ret::Array(array.clone()), Ret::Array(array.clone())]);
        assert_eq!(of(pair, &[1]), format!("{:?}", Ret::Tuple(vec![Ret::Array(array), Ret::List(DType::Float64)])));
    }

    #[test]
    fn values_that_may_be_none_round_trip() {
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "bin_of".into(),
                params: vec![
                    Param { name: "x".into(), ty: ParamType::Scalar(DType::Float64) },
                    Param { name: "tol".into(), ty: ParamType::MaybeNone(Box::new(ParamType::Scalar(DType::Float32))) },
                    Param { name: "n".into(), ty: ParamType::MaybeNone(Box::new(ParamType::Scalar(DType::Int64))) },
                    Param {
                        name: "weights".into(),
                        ty: ParamType::MaybeNone(Box::new(ParamType::Array(ArraySpec {
                            dtype: DType::Float32,
                            dims: vec![None, None],
                            fixed_strides: None,
                            layout: "strided",
                            output: false,
                            text: "Float32[]Shape[?, ?]".into(),
                        }))),
                    },
                    Param {
                        name: "range".into(),
                        ty: ParamType::MaybeNone(Box::new(ParamType::Tuple(vec![DType::Float64, DType::Int8]))),
                    },
                    Param { name: "result_dtype".into(), ty: ParamType::DType(DType::UInt16) },
                ],
                defaults: vec![None, Some(ConstValue::Int(3)), None, None],
                array_defaults: Vec::new(),
                keyword_only: 1,
                positional_only: 0,
                ret: Ret::MaybeNone(DType::Int32),
                doc: None,
                kernel: false,
            }],
            ufuncs: Vec::new(),
        };
        assert_round_trips(&exports);
    }

    #[test]
    fn exports_written_before_defaults_still_decode() {
        // A function `g(x: Int64) -> Float64` and no ufuncs, as extension
        // modules made before defaults were carried hold them.
        let mut w = Writer::default();
        w.int(1);
        w.text("g");
        w.int(1);
        w.text("x");
        w.int(0);
        w.dtype(DType::Int64);
        w.int(1);
        w.dtype(DType::Float64);
        w.optional_text(None);
        w.int(0);
        w.int(0);
        let back = Exports::decode(&w.0).expect("decodes");
        assert_eq!(back.functions.len(), 1);
        let g = &back.functions[0];
        assert_eq!((g.name.as_str(), g.params.len(), g.defaults.len()), ("g", 1, 0));
        assert!(matches!(g.ret, Ret::Scalar(DType::Float64)));
    }

    #[test]
    fn exports_written_before_keyword_only_parameters_still_decode() {
        // `h(x: Int64 = 2)`, as modules made before keyword-only
        // parameters were carried hold it: no parameter is keyword-only.
        let mut w = Writer::default();
        w.int(WITH_DEFAULTS);
        w.int(1);
        w.text("h");
        w.int(1);
        w.text("x");
        w.int(0);
        w.dtype(DType::Int64);
        w.int(0);
        w.optional_text(None);
        w.int(0);
        w.int(1);
        w.value(Some(&ConstValue::Int(2)));
        w.int(0);
        let back = Exports::decode(&w.0).expect("decodes");
        let h = &back.functions[0];
        assert_eq!((h.name.as_str(), h.defaults.len(), h.keyword_only), ("h", 1, 0));
    }

    #[test]
    fn exports_written_before_positional_only_parameters_still_decode() {
        // `h(x: Int64 = 2, *, y: Int64)` as modules made before
        // positional-only parameters were carried hold it.
        let mut w = Writer::default();
        w.int(WITH_KEYWORD_ONLY);
        w.int(1);
        w.text("h");
        w.int(2);
        for name in ["x", "y"] {
            w.text(name);
            w.int(0);
            w.dtype(DType::Int64);
        }
        w.int(0);
        w.optional_text(None);
        w.int(0);
        w.int(0);
        w.int(1);
        w.int(0);
        let back = Exports::decode(&w.0).expect("decodes");
        let h = &back.functions[0];
        assert_eq!((h.params.len(), h.keyword_only, h.positional_only), (2, 1, 0));
    }

    #[test]
    fn more_keyword_only_parameters_than_parameters_are_refused() {
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "f".into(),
                params: vec![Param { name: "a".into(), ty: ParamType::Scalar(DType::Int8) }],
                defaults: vec![],
                array_defaults: Vec::new(),
                keyword_only: 2,
                positional_only: 0,
                ret: Ret::Void,
                doc: None,
                kernel: false,
            }],
            ufuncs: vec![],
        };
        assert!(Exports::decode(&exports.encode()).is_none());
    }

    #[test]
    fn more_defaults_than_parameters_are_refused() {
        let exports = Exports {
            functions: vec![FuncSpec {
                name: "f".into(),
                params: vec![],
                defaults: vec![Some(ConstValue::Int(1))],
                array_defaults: Vec::new(),
                keyword_only: 0,
                positional_only: 0,
                ret: Ret::Void,
                doc: None,
                kernel: false,
            }],
            ufuncs: vec![],
        };
        assert!(Exports::decode(&exports.encode()).is_none());
    }
}
