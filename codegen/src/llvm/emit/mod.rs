//! Lowering of a (pass-processed) program to one LLVM module, built with
//! LLVM's IR builder.
//!
//! [`Declared`] decides, once per program, how every function appears in
//! the module (symbol, linkage, ABI), which calls count the depth of calls,
//! and which exported names shadow C library functions. Each codegen unit
//! then builds the module in its own `Context` ([`build_module`]): every
//! function is declared first, then the bodies are built in the order of
//! the IR tables ([`body`]), with the helpers ([`crate::llvm::helpers`]), panic
//! paths, constants and metadata they use made on first use ([`unit`]).

mod body;
pub(crate) mod unit;

use crate::calls::{depth_counted, is_panic_thunk, resolve, Index, Target};

use crate::llvm::imports::Shield;
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{DType, FuncId, Function, Module, ModuleId, Program};
use std::collections::{HashMap, HashSet};

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
    /// The parameter types, the complex out-pointer last when present.
    pub params: Vec<AbiType>,
    /// Parameter attributes, per parameter.
    pub param_attrs: Vec<ParamAttr>,
    pub ret_attr: ParamAttr,
    /// The result is a complex number returned through a trailing pointer.
    pub complex_out: bool,
    /// The result is an array (`DLManagedTensor*`).
    pub array_ret: bool,
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
    if let Some(t) = f.ret.map(|t| m.types.get(t)) {
        if t.is_array {
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
    FnSig { symbol, exported, ret, params, param_attrs, ret_attr, complex_out, array_ret }
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
    /// The functions whose calls count the depth of calls (see
    /// [`depth_counted`]).
    pub depth_counted: HashSet<(ModuleId, FuncId)>,
    pub diags: Vec<Diagnostic>,
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
            depth_counted: HashSet::new(),
            diags: Vec::new(),
        };
        d.declare_all();
        d
    }

    fn declare_all(&mut self) {
        let mut taken: HashMap<String, String> = HashMap::new();
        // Public symbols and where they are defined.
        let mut public: Vec<(String, Option<Pos>)> = Vec::new();
        for (mid, m) in self.program.modules.iter_enumerated() {
            for (fid, f) in m.functions.iter_enumerated() {
                let private = f.name.starts_with(postc_ir::builtins::PREFIX) || !self.index.is_exported(mid, &f.name);
                let symbol = if private { format!("{}.{}", m.name, f.name) } else { f.name.clone() };
                if let Some(prev) = taken.insert(symbol.clone(), m.name.clone()) {
                    self.diags.push(Diagnostic::error(
                        format!("symbol `{symbol}` is exported by both module `{prev}` and module `{}`", m.name),
                        f.loc.map(|l| Pos::from_loc(&m.files, l)),
                    ));
                }
                if !private {
                    public.push((symbol.clone(), f.loc.map(|l| Pos::from_loc(&m.files, l))));
                }
                let sig = signature(m, f, symbol, !private);
                self.sigs.insert((mid, fid), sig);
            }
            for (alias, target) in &m.function_aliases {
                let Some(fid) = self.index.function(mid, target) else {
                    let at = m.decl_locs.aliases.get(alias).map(|l| Pos::from_loc(&m.files, *l));
                    self.diags.push(Diagnostic::error(format!("alias `{alias}` names no function `{target}`"), at));
                    continue;
                };
                if !self.index.is_exported(mid, alias) && m.export_all.is_some() {
                    continue;
                }
                let sig = self.sigs[&(mid, fid)].clone();
                if taken.insert(alias.clone(), m.name.clone()).is_some() {
                    self.diags.push(Diagnostic::error(format!("alias symbol `{alias}` is defined twice"), None));
                    continue;
                }
                public.push((alias.clone(), m.decl_locs.aliases.get(alias).map(|l| Pos::from_loc(&m.files, *l))));
                self.aliases.push((alias.clone(), sig.symbol.clone(), sig));
            }
        }
        self.check_public_names(&public);
        self.depth_counted = depth_counted(self.program, &self.index);
    }

    /// Public symbols: none reserved, and those that name C library
    /// functions shielded (see [`imports`]).
    fn check_public_names(&mut self, public: &[(String, Option<Pos>)]) {
        for (name, at) in public {
            if crate::abi::reserved(name) {
                self.diags.push(Diagnostic::error(
                    format!("`{name}` cannot be exported: the name is reserved for the C implementation"),
                    at.clone(),
                ));
            }
        }
        self.shield = Shield::new(public.iter().map(|(n, p)| (n.as_str(), p.clone())));
        if !self.shield.is_empty() {
            // The shield reaches the C library through these two.
            let shadowed = self.shield.names().next().map(|(n, _)| n.to_owned()).unwrap_or_default();
            for (name, at) in public {
                if name == "dlopen" || name == "dlsym" {
                    self.diags.push(Diagnostic::error(
                        format!(
                            "`{name}` cannot be exported together with `{shadowed}`: compiled code reaches the \
                             C library's `{shadowed}` through the C library's `{name}`"
                        ),
                        at.clone(),
                    ));
                }
            }
        }
    }
}
