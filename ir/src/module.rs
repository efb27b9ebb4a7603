//! Functions, ufuncs, modules and programs (modules compiled together).

use crate::body::ConstValue;
use crate::body::{Body, ValueId};
use crate::dtype::DType;
use crate::entity::IndexVec;
use crate::entity_id;
use crate::loc::{FileTable, SrcLoc};
use crate::types::{Shape, TypeData, TypeId, TypeTable};
use crate::ufunc::UFuncSignature;
use indexmap::{IndexMap, IndexSet};
use std::collections::HashMap;
use std::fmt;

entity_id! {
    /// A function of one module.
    pub struct FuncId, "func";
}
entity_id! {
    /// A module of a program.
    pub struct ModuleId, "module";
}

/// Function attributes, a bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FuncAttrs(u8);

impl FuncAttrs {
    pub const COLD: FuncAttrs = FuncAttrs(1);
    pub const NOINLINE: FuncAttrs = FuncAttrs(2);
    pub const NORETURN: FuncAttrs = FuncAttrs(4);
    pub const GPU: FuncAttrs = FuncAttrs(8);
    /// `gpu(fallback)`: implies `gpu`.
    pub const GPU_FALLBACK: FuncAttrs = FuncAttrs(16);
    pub const KERNEL: FuncAttrs = FuncAttrs(32);
    /// Small enough to copy into its callers: what a backend's optimiser
    /// is told (LLVM's `inlinehint`, C's `inline`); `legalize` marks the
    /// functions it adds so.
    pub const INLINE: FuncAttrs = FuncAttrs(64);
    /// Written by the compiler, not from a user's source: only such a
    /// function may use the `raw` opcodes (`Opcode::is_raw`), and every
    /// parameter it takes is an address.
    pub const COMPILER_MADE: FuncAttrs = FuncAttrs(128);

    /// Every attribute with its text spelling, in printing order.
    pub const NAMED: [(FuncAttrs, &'static str); 8] = [
        (FuncAttrs::COLD, "cold"),
        (FuncAttrs::NOINLINE, "noinline"),
        (FuncAttrs::NORETURN, "noreturn"),
        (FuncAttrs::GPU, "gpu"),
        (FuncAttrs::GPU_FALLBACK, "gpu(fallback)"),
        (FuncAttrs::KERNEL, "kernel"),
        (FuncAttrs::INLINE, "inline"),
        (FuncAttrs::COMPILER_MADE, "compiler"),
    ];

    pub const fn empty() -> FuncAttrs {
        FuncAttrs(0)
    }
    pub fn contains(self, other: FuncAttrs) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn insert(&mut self, other: FuncAttrs) {
        self.0 |= other.0;
    }
    pub fn remove(&mut self, other: FuncAttrs) {
        self.0 &= !other.0;
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn bits(self) -> u8 {
        self.0
    }
    pub fn from_bits(bits: u8) -> FuncAttrs {
        FuncAttrs(bits & 127)
    }
    pub fn from_name(s: &str) -> Option<FuncAttrs> {
        FuncAttrs::NAMED.iter().find(|(_, n)| *n == s).map(|(a, _)| *a)
    }
    /// Whether the function is compiled for the GPU as a `gpu` or
    /// `gpu(fallback)` function or ufunc.
    pub fn is_gpu(self) -> bool {
        self.contains(FuncAttrs::GPU) || self.contains(FuncAttrs::GPU_FALLBACK)
    }
    /// Whether the function has a device body: `gpu`, `gpu(fallback)` or
    /// `kernel`.
    pub fn is_device(self) -> bool {
        self.is_gpu() || self.contains(FuncAttrs::KERNEL)
    }
}

impl std::ops::BitOr for FuncAttrs {
    type Output = FuncAttrs;
    fn bitor(self, rhs: FuncAttrs) -> FuncAttrs {
        FuncAttrs(self.0 | rhs.0)
    }
}

impl fmt::Debug for FuncAttrs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string())
    }
}

impl fmt::Display for FuncAttrs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (a, n) in FuncAttrs::NAMED {
            if self.contains(a) {
                if !first {
                    f.write_str(" ")?;
                }
                first = false;
                f.write_str(n)?;
            }
        }
        Ok(())
    }
}

/// A function, or a ufunc when `ufunc_sig` is set (a `UFunc`
/// subclass).
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub attrs: FuncAttrs,
    /// The return type (`return_dtype` + `return_shape`); `None` is void.
    pub ret: Option<TypeId>,
    pub ufunc_sig: Option<UFuncSignature>,
    pub doc: Option<String>,
    /// The default values of the last `defaults.len()` Python parameters
    /// (a parameter that may be `None` counts once), as CPython holds them
    /// (the literal's own type: `2` stays an int for a `Float64`
    /// parameter); `None` is Python's `None`. Calls inside the program have
    /// them filled in by the frontend; they are kept here for Python
    /// callers.
    pub defaults: Vec<Option<ConstValue>>,
    /// The defaults of array parameters, by their place in `defaults`
    /// (whose entry there is `None`): each a new array made when a
    /// Python caller leaves the parameter out.
    pub array_defaults: Vec<(usize, ArrayDefault)>,
    /// How many of the last Python parameters are keyword-only (after a
    /// `*` in the signature): Python callers name them; calls inside the
    /// program are bound by the frontend, as defaults are filled in.
    pub keyword_only: usize,
    /// How many of the first Python parameters are positional-only
    /// (before a `/` in the signature): Python callers cannot name them.
    pub positional_only: usize,
    /// Which parameters and whether the result are Python's `T | None`.
    pub maybe_none: MaybeNone,
    /// The Python parameters that are dtypes (`dtype: type[Float64]`),
    /// fixed when the function compiles: they have no IR parameter, and a
    /// Python caller passes that dtype (its NumPy type or `np.dtype`).
    pub dtype_params: Vec<DTypeParam>,
    /// The Python parameters that are tuples of numbers: the position,
    /// among the IR parameters, of each one's first element, and how many
    /// elements it has; they are consecutive parameters.
    pub tuple_params: Vec<(usize, usize)>,
    /// The elements of a tuple result that Python callers receive as a
    /// tuple inside it (`return a, b, (ok, n)`): the position of each
    /// group's first element among the result's elements and how many it
    /// has. The IR result, and the C ABI, hold the elements flat.
    pub result_groups: Vec<(usize, usize)>,
    /// The elements of the result that Python callers receive as a
    /// `list` of Python numbers (POST Python's `return xs` of a list of
    /// numbers): their positions among the IR result's elements (a tuple
    /// result's, flat, flags included), `[0]` for a result that is not a
    /// tuple. Each is a new 1-D array in the IR and the C ABI.
    pub list_results: Vec<usize>,
    pub body: Body,
    /// Where the function was declared, for diagnostics.
    pub loc: Option<SrcLoc>,
}

/// `flat`, the elements of a tuple result as the IR holds them, with each
/// of `groups` (first element, length; in order, not overlapping, as
/// [`Function::result_groups`]) made one inner tuple by `tuple`: what a
/// Python caller, or a POST one, gets back.
pub fn regroup<T>(flat: Vec<T>, groups: &[(usize, usize)], mut tuple: impl FnMut(Vec<T>) -> T) -> Vec<T> {
    if groups.is_empty() {
        return flat;
    }
    let mut out = Vec::with_capacity(flat.len());
    let mut rest = flat.into_iter().enumerate();
    while let Some((k, e)) = rest.next() {
        match groups.iter().find(|&&(first, _)| first == k) {
            Some(&(_, len)) => {
                let mut inner = vec![e];
                inner.extend(rest.by_ref().take(len.saturating_sub(1)).map(|(_, x)| x));
                out.push(tuple(inner));
            }
            None => out.push(e),
        }
    }
    out
}

/// The default value of an array parameter (`mask: Bool[:] =
/// np.empty(shape=(0,), dtype=np.bool_)`): an array of `dtype` and
/// `shape` whose every element is `fill`.
#[derive(Clone, PartialEq, Debug)]
pub struct ArrayDefault {
    pub dtype: crate::DType,
    pub shape: Vec<u64>,
    pub fill: ConstValue,
}

impl Function {
    pub fn new(name: impl Into<String>) -> Function {
        Function {
            name: name.into(),
            attrs: FuncAttrs::empty(),
            ret: None,
            ufunc_sig: None,
            doc: None,
            defaults: Vec::new(),
            array_defaults: Vec::new(),
            keyword_only: 0,
            dtype_params: Vec::new(),
            positional_only: 0,
            maybe_none: MaybeNone::default(),
            tuple_params: Vec::new(),
            result_groups: Vec::new(),
            list_results: Vec::new(),
            body: Body::new(),
            loc: None,
        }
    }
    /// The length of the tuple parameter whose first element is IR
    /// parameter `k` of `count`, if one is.
    pub fn tuple_param_at(&self, k: usize, count: usize) -> Option<usize> {
        self.tuple_params.iter().find(|&&(first, len)| first == k && k + len <= count).map(|&(_, len)| len)
    }

    pub fn is_ufunc(&self) -> bool {
        self.ufunc_sig.is_some()
    }
    /// The parameters (not the core-dimension parameters).
    pub fn params(&self) -> impl ExactSizeIterator<Item = ValueId> {
        self.body.params()
    }
    pub fn core_dim_params(&self) -> impl ExactSizeIterator<Item = ValueId> {
        self.body.core_dim_params()
    }
    pub fn entry(&self) -> Option<crate::BlockId> {
        self.body.entry()
    }
    /// The return dtype: `None` for void.
    pub fn return_dtype(&self, types: &TypeTable) -> Option<DType> {
        self.ret.map(|t| types.dtype(t))
    }
    /// The return shape.
    pub fn return_shape<'t>(&self, types: &'t TypeTable) -> &'t Shape {
        static ANY: Shape = Shape::Any;
        self.ret.map(|t| &types.get(t).shape).unwrap_or(&ANY)
    }
}

/// The parameters and the result of a function that are Python's `T |
/// None` for a scalar `T` (docs/abi.md §2, "Values that may be `None`").
/// The IR has no `None`: such a parameter is two IR parameters, a Bool
/// that says whether a value was given, then the value (zero when not);
/// such a result is the tuple `(Bool, T)`, the Bool saying whether the
/// function returned a value. What is recorded here is only how Python
/// callers and POST callers in other modules see them, as `defaults` is;
/// the IR's passes, interpreter and backends read the two values like any
/// others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MaybeNone {
    /// The positions, among the IR parameters, of the presence flags of
    /// the parameters that may be `None`; each is followed by its value.
    pub params: Vec<usize>,
    /// The result is `(Bool, T)` standing for `T | None`.
    pub result: bool,
    /// The elements of a tuple result that may be `None` (`return None,
    /// counts` beside `return unique, counts`): the position, among the
    /// result's flat elements, of each one's presence flag, which its value
    /// follows (a scalar, or an array: an empty one for `None`).
    pub result_elements: Vec<usize>,
}

/// A parameter of a function's Python signature that is a dtype fixed
/// when the function compiles (see [`Function::dtype_params`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DTypeParam {
    /// Its place among the Python parameters.
    pub at: usize,
    pub name: String,
    pub dtype: crate::DType,
}

/// An imported name: `local_name` bound to `source_name` of `module_name`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ImportedName {
    pub local_name: String,
    pub module_name: String,
    pub source_name: String,
}

/// A module-level constant: its type (a scalar) and folded value.
#[derive(Clone, PartialEq, Debug)]
pub struct Constant {
    pub ty: TypeId,
    pub value: ConstValue,
}

/// Where each module-level declaration was written, for diagnostics.
/// Keys are the declared local names (`export` entries by position).
#[derive(Clone, Debug, Default)]
pub struct DeclLocs {
    pub module: Option<SrcLoc>,
    pub imports: HashMap<String, SrcLoc>,
    pub constants: HashMap<String, SrcLoc>,
    pub aliases: HashMap<String, SrcLoc>,
    pub dependencies: HashMap<String, SrcLoc>,
    pub exports: Vec<SrcLoc>,
}

/// One POST translation unit.
#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    pub types: TypeTable,
    pub files: FileTable,
    pub functions: IndexVec<FuncId, Function>,
    pub post_imports: IndexMap<String, ImportedName>,
    /// Local name → libm-compatible symbol.
    pub intrinsic_imports: IndexMap<String, String>,
    pub boundary_imports: IndexMap<String, ImportedName>,
    /// Dotted names of imported POST modules (post imports imply theirs).
    pub dependencies: IndexSet<String>,
    /// The resolved dependency modules, set when a [`Program`] is linked.
    pub dep_modules: Vec<ModuleId>,
    pub constants: IndexMap<String, Constant>,
    /// Alias name → aliased name.
    pub function_aliases: IndexMap<String, String>,
    /// Contents of a top-level `__all__`, if present.
    pub export_all: Option<Vec<String>>,
    /// The module's docstring.
    pub doc: Option<String>,
    pub decl_locs: DeclLocs,
}

impl Module {
    pub fn new(name: impl Into<String>) -> Module {
        Module {
            name: name.into(),
            types: TypeTable::new(),
            files: FileTable::default(),
            functions: IndexVec::new(),
            post_imports: IndexMap::new(),
            intrinsic_imports: IndexMap::new(),
            boundary_imports: IndexMap::new(),
            dependencies: IndexSet::new(),
            dep_modules: Vec::new(),
            constants: IndexMap::new(),
            function_aliases: IndexMap::new(),
            export_all: None,
            doc: None,
            decl_locs: DeclLocs::default(),
        }
    }

    pub fn add_function(&mut self, f: Function) -> FuncId {
        self.functions.push(f)
    }

    pub fn get_function(&self, name: &str) -> Option<FuncId> {
        self.functions.iter_enumerated().find(|(_, f)| f.name == name).map(|(id, _)| id)
    }

    /// The ufuncs among the functions.
    pub fn ufuncs(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions.iter_enumerated().filter(|(_, f)| f.is_ufunc())
    }

    /// Name → function, for resolving many names at once.
    pub fn function_map(&self) -> HashMap<&str, FuncId> {
        self.functions.iter_enumerated().map(|(id, f)| (f.name.as_str(), id)).collect()
    }

    /// Adds a post import and the dependency it implies.
    pub fn add_post_import(&mut self, imp: ImportedName) {
        self.dependencies.insert(imp.module_name.clone());
        self.post_imports.insert(imp.local_name.clone(), imp);
    }

    /// Prints a value as the text format does: `%name: &Float64[]Shape[3, 3]`.
    pub fn value_repr(&self, f: FuncId, v: ValueId) -> String {
        let func = &self.functions[f];
        match func.body.ty(v) {
            Some(t) => format!("%{}: {}", func.body.name_or_empty(v), self.types.get(t)),
            None => format!("%{}", func.body.name_or_empty(v)),
        }
    }

    /// Whether a name is exported (no `__all__`: every function).
    pub fn is_exported(&self, name: &str) -> bool {
        match &self.export_all {
            Some(all) => all.iter().any(|n| n == name),
            None => true,
        }
    }

    /// Instructions over all function bodies.
    pub fn num_insts(&self) -> usize {
        self.functions.iter().map(|f| f.body.num_insts()).sum()
    }

    /// Compares two modules structurally: everything the text format shows,
    /// by content (types by their data, names by their text, extra payloads
    /// decoded), ignoring implicit locations. Returns the first difference.
    pub fn structural_diff(&self, other: &Module) -> Option<String> {
        macro_rules! field {
            ($f:ident) => {
                if self.$f != other.$f {
                    return Some(format!(
                        concat!("module ", stringify!($f), " differ: {:?} vs {:?}"),
                        self.$f, other.$f
                    ));
                }
            };
        }
        field!(name);
        field!(post_imports);
        field!(intrinsic_imports);
        field!(boundary_imports);
        field!(dependencies);
        field!(function_aliases);
        field!(export_all);
        field!(doc);
        if self.constants.len() != other.constants.len() {
            return Some("constant counts differ".into());
        }
        for ((n1, c1), (n2, c2)) in self.constants.iter().zip(&other.constants) {
            if n1 != n2 || c1.value != c2.value || self.types.get(c1.ty) != other.types.get(c2.ty) {
                return Some(format!("constant {n1} differs from {n2}"));
            }
        }
        if self.functions.len() != other.functions.len() {
            return Some(format!("{} functions vs {}", self.functions.len(), other.functions.len()));
        }
        for (f1, f2) in self.functions.iter().zip(other.functions.iter()) {
            if let Some(d) = function_diff(self, f1, other, f2) {
                return Some(format!("function {}: {d}", f1.name));
            }
        }
        None
    }
}

fn explicit_loc(m: &Module, body: &Body, v: ValueId) -> Option<(String, u32, u32)> {
    body.loc(v).filter(|l| !l.implicit).map(|l| (m.files.path(l.file).to_owned(), l.line, l.col))
}

fn function_diff(m1: &Module, f1: &Function, m2: &Module, f2: &Function) -> Option<String> {
    let ty = |m: &Module, t: Option<TypeId>| t.map(|t| m.types.get(t).clone());
    if f1.name != f2.name {
        return Some(format!("name {} vs {}", f1.name, f2.name));
    }
    if f1.attrs != f2.attrs || f1.ufunc_sig != f2.ufunc_sig || f1.doc != f2.doc {
        return Some("attributes, signature string or doc differ".into());
    }
    if ty(m1, f1.ret) != ty(m2, f2.ret) {
        return Some("return types differ".into());
    }
    let (b1, b2) = (&f1.body, &f2.body);
    if (b1.num_params, b1.num_core) != (b2.num_params, b2.num_core) {
        return Some("parameter counts differ".into());
    }
    if b1.num_insts() != b2.num_insts() || b1.blocks.len() != b2.blocks.len() {
        return Some(format!(
            "{} instructions in {} blocks vs {} in {}",
            b1.num_insts(),
            b1.blocks.len(),
            b2.num_insts(),
            b2.blocks.len()
        ));
    }
    for (bid, (d1, d2)) in b1.blocks.ids().zip(b1.blocks.iter().zip(b2.blocks.iter())) {
        if (d1.start, d1.end) != (d2.start, d2.end) || b1.label(bid) != b2.label(bid) {
            return Some(format!("block {} differs", b1.label(bid)));
        }
    }
    for v in b1.tags.ids() {
        let what = || format!("instruction {v:?} (%{})", b1.name_or_empty(v));
        if b1.tags[v] != b2.tags[v] || b1.name(v) != b2.name(v) || ty(m1, b1.types[v]) != ty(m2, b2.types[v]) {
            return Some(format!("{} differs in opcode, name or type", what()));
        }
        // The decoded views compare payloads by content (NaN literals by bits).
        if format!("{:?}", b1.inst(v)) != format!("{:?}", b2.inst(v)) {
            return Some(format!("{} differs in operands: {:?} vs {:?}", what(), b1.inst(v), b2.inst(v)));
        }
        if explicit_loc(m1, b1, v) != explicit_loc(m2, b2, v) {
            return Some(format!("{} differs in location", what()));
        }
    }
    None
}

/// Modules compiled together; post imports resolve among them.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub modules: IndexVec<ModuleId, Module>,
}

impl Program {
    /// A program of one module.
    pub fn from_module(m: Module) -> Program {
        let mut p = Program::default();
        p.modules.push(m);
        p
    }

    pub fn get_module(&self, name: &str) -> Option<ModuleId> {
        self.modules.iter_enumerated().find(|(_, m)| m.name == name).map(|(id, _)| id)
    }

    /// Fills every module's `dep_modules` from its `dependencies`; returns
    /// the dependencies that name no module of the program.
    pub fn link_dependencies(&mut self) -> Vec<(ModuleId, String)> {
        let by_name: HashMap<String, ModuleId> =
            self.modules.iter_enumerated().map(|(id, m)| (m.name.clone(), id)).collect();
        let mut missing = Vec::new();
        for (id, m) in self.modules.iter_enumerated_mut() {
            m.dep_modules.clear();
            for d in &m.dependencies {
                match by_name.get(d) {
                    Some(dep) => m.dep_modules.push(*dep),
                    None => missing.push((id, d.clone())),
                }
            }
        }
        missing
    }
}

/// A parameter's or value's seed-style view, printable as `%name: type`.
pub struct ValueView<'a> {
    pub name: &'a str,
    pub ty: &'a TypeData,
}

impl fmt::Display for ValueView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}: {}", self.name, self.ty)
    }
}
