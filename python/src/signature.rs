//! What Python sees of a compiled module: its exported functions and
//! ufuncs, with the parameter and result types the calls check, read from
//! the program's IR.

use postc_ir::{DType, Layout, Module, Program, Shape, TypeData};

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
}

/// An exported plain function (an alias is one more name of the same
/// symbol).
#[derive(Clone, Debug)]
pub struct FuncSpec {
    /// The name Python sees and the symbol of the library.
    pub name: String,
    pub params: Vec<Param>,
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
        if f.name.starts_with(postc_ir::builtins::PREFIX) || !m.is_exported(&f.name) {
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

fn add(m: &Module, f: &postc_ir::Function, name: &str, out: &mut Exports) {
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
    let params = f
        .params()
        .map(|p| {
            let t = f.body.ty(p).map(|t| m.types.get(t).clone()).unwrap_or_else(|| TypeData::scalar(DType::Int64));
            let ty = if t.is_array { ParamType::Array(array_spec(&t)) } else { ParamType::Scalar(t.dtype) };
            Param { name: f.body.name(p).unwrap_or("_").to_owned(), ty }
        })
        .collect();
    let ret = match f.ret.map(|t| m.types.get(t)) {
        None => Ret::Void,
        Some(t) if t.is_array => Ret::Array(array_spec(t)),
        Some(t) => Ret::Scalar(t.dtype),
    };
    out.functions.push(FuncSpec {
        name: name.to_owned(),
        params,
        ret,
        doc: f.doc.clone(),
        kernel: f.attrs.contains(postc_ir::FuncAttrs::KERNEL),
    });
}
