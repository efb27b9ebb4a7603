//! What the entry points of a ufunc need to know about it, decided once
//! from the IR for every backend: its operands, how the body receives each,
//! its core dimensions (docs/abi.md, "UFuncs").

use postc_ir::{DType, Function, Layout, Module as IrModule, TypeData};

/// The byte stride of `axis` that a view type fixes: the one `stride-lower`
/// compiled into the body; the body reads the other strides from the tensor.
pub(crate) fn fixed_stride(t: &TypeData, axis: usize) -> Option<i64> {
    t.static_stride(axis)
}

/// How the body receives one operand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Pass {
    /// A scalar parameter (by value, or by pointer where the body takes one).
    Scalar,
    /// A `DLTensor *` view of the operand's core axes.
    View,
    /// The body's result (the single output of core shape `()`).
    Returned,
}

/// What the entry points need to know about a ufunc, computed from the IR.
#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    /// The body's symbol; the entry points are `SYMBOL_loop`, `SYMBOL_dl`.
    pub symbol: String,
    pub nin: usize,
    pub nops: usize,
    /// Element dtype of each operand (inputs, then outputs).
    pub dtypes: Vec<DType>,
    pub(crate) pass: Vec<Pass>,
    /// Core axes of each operand, as indexes into `dims`.
    pub core: Vec<Vec<usize>>,
    /// The distinct core dimensions in NumPy's order (first appearance),
    /// with the size a numeric name fixes.
    pub dims: Vec<(String, Option<u64>)>,
    /// For each core-dimension parameter of the body, its index in `dims`.
    pub core_params: Vec<usize>,
    /// `" at FILE:LINE:COL"` of the ufunc's declaration, or empty.
    pub at: String,
    /// The parameter type of each operand passed as a view.
    pub(crate) types: Vec<Option<TypeData>>,
}

impl Plan {
    pub fn new(m: &IrModule, f: &Function) -> Result<Plan, String> {
        let sig = f.ufunc_sig.as_ref().ok_or_else(|| format!("`{}` is not a ufunc", f.name))?;
        let (nin, nout) = (sig.inputs.len(), sig.outputs.len());
        let nops = nin + nout;
        let returns = nout == 1 && sig.outputs[0].is_empty() && f.ret.is_some();
        let nparams = f.body.num_params as usize;
        if nparams != if returns { nin } else { nops } {
            return Err(format!(
                "ufunc `{}` has {nparams} parameters but its signature \"{sig}\" has {nops} operands",
                f.name
            ));
        }
        let (names, core) = sig.distinct_dims();
        let dims: Vec<(String, Option<u64>)> = names.iter().map(|n| (n.to_string(), n.parse::<u64>().ok())).collect();
        let core_params: Vec<usize> = sig
            .core_dims()
            .iter()
            .map(|n| dims.iter().position(|(d, _)| d == n).expect("a named core dimension of the signature"))
            .collect();
        if core_params.len() != f.body.num_core as usize {
            return Err(format!(
                "ufunc `{}` has {} core parameters but its signature \"{sig}\" names {}",
                f.name,
                f.body.num_core,
                core_params.len()
            ));
        }
        let mut dtypes = Vec::with_capacity(nops);
        let mut pass = Vec::with_capacity(nops);
        let mut types = Vec::with_capacity(nops);
        for p in f.params() {
            let t = f.body.ty(p).ok_or_else(|| format!("ufunc `{}`: a parameter has no type", f.name))?;
            let td = m.types.get(t);
            dtypes.push(td.dtype);
            pass.push(if td.is_array { Pass::View } else { Pass::Scalar });
            types.push(td.is_array.then(|| td.clone()));
        }
        if returns {
            dtypes.push(m.types.dtype(f.ret.expect("returns")));
            pass.push(Pass::Returned);
            types.push(None);
        }
        for (i, p) in pass.iter().enumerate() {
            if *p != Pass::View && !core[i].is_empty() {
                return Err(format!(
                    "ufunc `{}`: operand {i} has core dimensions in \"{sig}\" but a scalar parameter",
                    f.name
                ));
            }
        }
        let at = match f.loc {
            Some(l) => format!(" at {}:{}:{}", m.files.path(l.file), l.line, l.col),
            None => String::new(),
        };
        let symbol = f.name.clone();
        Ok(Plan { name: f.name.clone(), symbol, nin, nops, dtypes, pass, core, dims, core_params, at, types })
    }

    /// The operands passed to the body as views, in order: those that may
    /// need a scratch copy. In the loop a device runs (`ufunc-device-entry`),
    /// each such operand `i` takes [`SCRATCH_ALIGN`]-rounded `count_i *
    /// size_i` bytes of the buffer `data` points to (`count_i` the product
    /// of its core extents), one after another, whether it is copied or not.
    pub fn scratch_operands(&self) -> Vec<usize> {
        (0..self.nops).filter(|&i| self.pass[i] == Pass::View).collect()
    }

    /// The core axes of view operand `i` whose stride its parameter type
    /// fixes, with that stride in bytes: a step different from it makes
    /// the loop copy the operand (an operand with explicit `Strides` is
    /// never copied: other steps are an error).
    pub fn fixed_core_strides(&self, i: usize) -> Vec<(usize, i64)> {
        match &self.types[i] {
            Some(td) if !matches!(td.layout, Layout::Strides(_)) => {
                (0..self.core[i].len()).filter_map(|a| fixed_stride(td, a).map(|s| (a, s))).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The core axes' byte strides that view operand `i`'s parameter type
    /// declares with `Strides`: the body reads with exactly these, so any
    /// other step is an error ("operand I does not have the strides its
    /// parameter type declares"), never a copy.
    pub fn declared_core_strides(&self, i: usize) -> Vec<(usize, i64)> {
        match &self.types[i] {
            Some(td) if matches!(td.layout, Layout::Strides(_)) => {
                (0..self.core[i].len()).filter_map(|a| fixed_stride(td, a).map(|s| (a, s))).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Sum of the core ranks of operands before `i`: where operand `i`'s core
    /// steps start after the `nops` outer steps.
    pub fn core_step_base(&self, i: usize) -> usize {
        self.nops + self.core[..i].iter().map(Vec::len).sum::<usize>()
    }

    pub fn num_steps(&self) -> usize {
        self.core_step_base(self.nops)
    }

    /// Whether operand `i` is the body's returned result (written whole).
    pub fn is_returned(&self, i: usize) -> bool {
        self.pass[i] == Pass::Returned
    }
}

/// The alignment of each operand's part of a device loop's scratch buffer.
pub const SCRATCH_ALIGN: u64 = postc_passes::ufunc_entry::SCRATCH_ALIGN as u64;
