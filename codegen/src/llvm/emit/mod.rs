//! Lowering of a (pass-processed) program to one LLVM module, built with
//! LLVM's IR builder.
//!
//! [`Declared`] decides, once per program, how every function appears in
//! the module (its symbol from [`crate::symbols`], linkage, ABI) and
//! which exported names shadow C library functions. Each codegen unit then builds the module in its own
//! `Context` ([`build_module`]): every function is declared first, then
//! the bodies are built in the order of the IR tables ([`body`]), with the
//! panic paths, constants and metadata they use made on first use
//! ([`unit`]).

mod body;
pub(crate) mod unit;

use crate::calls::{is_panic_thunk, resolve, Index, Target};
use crate::symbols::{Conventions, DeviceFunctions, Export, SymbolPlan};

use crate::llvm::imports::Shield;
use postc_ir::diag::Diagnostic;
use postc_ir::{DType, FuncId, Function, Module, ModuleId, Program};
use std::collections::HashMap;

pub use unit::build_module;

/// A parameter or result type of a function's C ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbiType {
    /// No result.
    Void,
    /// A scalar passed by value.
    Scalar(DType),
    /// A pointer: a `DLTensor *`, a complex value or a complex result slot,
    /// a returned `DLManagedTensor *`.
    Ptr,
}

/// The attribute of a parameter or result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamAttr {
    None,
    ZeroExt,
    SignExt,
    /// A `DLTensor *`: `noundef nonnull align 8 dereferenceable(48)`, so
    /// that its header loads may be hoisted out of conditionally executed
    /// code.
    Tensor,
}

/// How a function appears in the LLVM module.
#[derive(Clone, Debug)]
pub struct FnSig {
    /// The LLVM symbol.
    pub symbol: String,
    /// Exported (external linkage) or module-private.
    pub exported: bool,
    /// The result type ([`AbiType::Void`] for none or a complex result).
    pub ret: AbiType,
    /// The parameter types, the complex out-pointer (or a tuple's) last
    /// when present.
    pub params: Vec<AbiType>,
    /// Parameter attributes, per parameter.
    pub param_attrs: Vec<ParamAttr>,
    pub ret_attr: ParamAttr,
    /// The result is a complex number returned through a trailing pointer.
    pub complex_out: bool,
    /// The result is an array (`DLManagedTensor*`).
    pub array_ret: bool,
    /// The result is a tuple: each element written through one of the
    /// last `tuple_out` parameters, in order (docs/abi.md §2).
    pub tuple_out: usize,
}

/// The part type of a complex dtype (the dtype itself otherwise).
fn part(d: DType) -> DType {
    d.complex_part().unwrap_or(d)
}

fn ext_attr(d: DType) -> ParamAttr {
    match d {
        DType::Bool | DType::UInt8 | DType::UInt16 => ParamAttr::ZeroExt,
        DType::Int8 | DType::Int16 => ParamAttr::SignExt,
        _ => ParamAttr::None,
    }
}

pub use crate::abi::panic_format;

/// The signature of a function.
pub fn signature(m: &Module, f: &Function, symbol: String, exported: bool) -> FnSig {
    let mut params = Vec::new();
    let mut param_attrs = Vec::new();
    for p in f.body.all_params() {
        let t = f.body.ty(p).map(|t| m.types.get(t));
        match t {
            // Every parameter of a compiler-made function is an address.
            _ if f.attrs.contains(postc_ir::FuncAttrs::COMPILER_MADE) => {
                params.push(AbiType::Ptr);
                param_attrs.push(ParamAttr::None);
            }
            Some(t) if t.is_array => {
                params.push(AbiType::Ptr);
                param_attrs.push(ParamAttr::Tensor);
            }
            Some(t) if t.dtype.is_complex() => {
                params.push(AbiType::Ptr);
                param_attrs.push(ParamAttr::None);
            }
            Some(t) => {
                params.push(AbiType::Scalar(t.dtype));
                param_attrs.push(ext_attr(t.dtype));
            }
            None => {
                params.push(AbiType::Scalar(DType::Int64));
                param_attrs.push(ParamAttr::None);
            }
        }
    }
    let (mut ret, mut ret_attr, mut complex_out, mut array_ret) = (AbiType::Void, ParamAttr::None, false, false);
    let mut tuple_out = 0;
    if let Some(t) = f.ret.map(|t| m.types.get(t)) {
        if t.is_tuple() {
            tuple_out = t.elements.len();
            params.extend(std::iter::repeat_n(AbiType::Ptr, tuple_out));
            param_attrs.extend(std::iter::repeat_n(ParamAttr::None, tuple_out));
        } else if t.is_array {
            ret = AbiType::Ptr;
            array_ret = true;
        } else if t.dtype.is_complex() {
            complex_out = true;
            params.push(AbiType::Ptr);
            param_attrs.push(ParamAttr::None);
        } else {
            ret = AbiType::Scalar(t.dtype);
            ret_attr = ext_attr(t.dtype);
        }
    }
    FnSig { symbol, exported, ret, params, param_attrs, ret_attr, complex_out, array_ret, tuple_out }
}

/// How every function of a program appears in the LLVM module, decided
/// once for all codegen units.
pub struct Declared<'p> {
    pub program: &'p Program,
    /// Name lookups.
    pub index: Index<'p>,
    pub sigs: HashMap<(ModuleId, FuncId), FnSig>,
    /// Symbols of the module's aliases: (alias symbol, target symbol, signature).
    pub aliases: Vec<(String, String, FnSig)>,
    /// The C library functions that exported names shadow.
    pub shield: Shield,
    pub diags: Vec<Diagnostic>,
    /// The symbols, decided as for every backend.
    pub symbols: SymbolPlan,
}

impl<'p> Declared<'p> {
    /// Declares every function of every module: symbols and signatures.
    pub fn new(program: &'p Program) -> Declared<'p> {
        let mut d = Declared {
            program,
            index: Index::new(program),
            sigs: HashMap::new(),
            aliases: Vec::new(),
            shield: Shield::default(),
            diags: Vec::new(),
            symbols: SymbolPlan::default(),
        };
        d.declare_all();
        d
    }

    fn declare_all(&mut self) {
        let symbols = SymbolPlan::new(self.program, &self.index, &CONVENTIONS);
        self.sigs = symbols.signatures(self.program, |m, f, s| signature(m, f, s.name.clone(), s.exported));
        for a in symbols.aliases() {
            let sig = self.sigs[&a.function].clone();
            self.aliases.push((a.symbol.clone(), sig.symbol.clone(), sig));
        }
        self.diags.extend(symbols.diags.iter().cloned());
        self.check_shadowed_names(&symbols.exported);
        self.symbols = symbols;
    }

    /// Exported names of C library functions are shielded (see
    /// [`imports`]); compiled code then reaches the C library through
    /// `dlopen` and `dlsym`, which the program may not export.
    fn check_shadowed_names(&mut self, public: &[Export]) {
        self.shield = Shield::new(public.iter().map(|e| (e.symbol.as_str(), e.at.clone())));
        if !self.shield.is_empty() {
            let shadowed = self.shield.names().next().map(|(n, _)| n.to_owned()).unwrap_or_default();
            for e in public {
                let name = &e.symbol;
                if name == "dlopen" || name == "dlsym" {
                    self.diags.push(Diagnostic::error(
                        format!(
                            "`{name}` cannot be exported together with `{shadowed}`: compiled code reaches the \
                             C library's `{shadowed}` through the C library's `{name}`"
                        ),
                        e.at.clone(),
                    ));
                }
            }
        }
    }
}

/// How the LLVM backend names functions (see [`crate::symbols`]): a
/// private function is `module.function`, every device function is
/// compiled, and exported names may not be those reserved for the C
/// implementation.
const CONVENTIONS: Conventions = Conventions {
    private_symbol: crate::symbols::dotted_private_symbol,
    cannot_export,
    device: DeviceFunctions::Compiled,
};

fn cannot_export(name: &str) -> Option<String> {
    crate::abi::reserved(name)
        .then(|| format!("`{name}` cannot be exported: the name is reserved for the C implementation"))
}
