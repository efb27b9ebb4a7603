//! The module level of a POST Python file: imports, constants, aliases,
//! `__all__`, and the signature of every function (its annotations and
//! decorators). Bodies are lowered later, in [`crate::lower`], once every
//! module of the program is declared.

use crate::pytypes::{kind, widens_to, Kind, Scalar};
use crate::source::SourceFile;
use crate::syntax::{construct_name, Lit};
use postc_ir::module::DeclLocs;
use postc_ir::{
    ArrayDefault, Constant, DType, Diagnostic, FileId, FuncAttrs, FunctionBuilder, ImportedName, Layout, Module, Shape,
    TypeData, TypeId, UFuncSignature,
};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::collections::HashMap;

/// What a module-level name means inside function bodies.
#[derive(Clone, Debug)]
pub(crate) enum Global {
    /// A function of this module, by its index among the declarations.
    Func(usize),
    /// A generic function of this module (parameters left unannotated),
    /// by its index among the module's generic functions.
    Generic(usize),
    /// A module constant; `dtype` is its annotation (or the literal's
    /// default) and `strong` whether it was made by calling a dtype.
    Const {
        lit: Lit,
        scalar: Scalar,
    },
    /// A `postc.math` function: the local name the IR calls and its symbol.
    Intrinsic {
        local: String,
    },
    /// A function of another POST module, called by this local name.
    PostImport {
        local: String,
    },
    /// A name from a CPython module, not callable from compiled code.
    Boundary {
        module: String,
        name: String,
    },
    /// A CPython module itself (`import numpy as np`).
    BoundaryModule(String),
    /// A POST module imported whole (`import stats` or `import a.stats as
    /// st`), by its full name: what its functions are called through
    /// (`st.std(x)`, each such use declared as the name `st.std`).
    PostModule(String),
    /// `postc`, `postc.math`, `math` or `postyp` bound as a module.
    Namespace(Namespace),
    Type(DType),
    /// `postyp.Out`.
    Out,
    Decorator(Deco),
    /// `prange` (from `postc` or `numba`): `range` whose iterations may
    /// run in parallel.
    Prange,
    /// `postc.empty`.
    Empty,
    /// Another name for a function or import (`gammaln = lgamma`).
    Alias(String),
    /// A function whose declaration has errors (already reported).
    Broken,
    /// A module-level array, `TABLE = np.array([...])`: a read-only
    /// constant that each function reading it makes at its entry.
    ConstArray(std::sync::Arc<ConstArray>),
    /// `thread_idx`, `block_idx`, `block_dim`, `grid_dim`: a kernel's launch
    /// coordinates, read as `thread_idx.x`.
    GpuRegister(postc_ir::builtins::GpuReg),
    /// `shared`, `sync_threads`, `atomic_add`: what cooperating kernels use.
    GpuBuiltin(GpuBuiltin),
}

/// A module-level array's value, frozen: `np.array` of a (nested) list
/// of constants, as `np.array` inside a function reads one
/// (`lower::npfuncs::nested_shape`, `array_of_dtype`).
#[derive(Debug)]
pub(crate) struct ConstArray {
    pub dtype: DType,
    /// One extent per level of the list.
    pub shape: Vec<usize>,
    /// The numbers in C order, as folded, each with where it is written.
    pub elements: Vec<(Lit, Scalar, ruff_text_size::TextRange)>,
    /// The `np.array(...)` call.
    pub at: ruff_text_size::TextRange,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum GpuBuiltin {
    Shared,
    SyncThreads,
    AtomicAdd,
}

impl GpuBuiltin {
    pub fn python_name(self) -> &'static str {
        match self {
            GpuBuiltin::Shared => "shared",
            GpuBuiltin::SyncThreads => "sync_threads",
            GpuBuiltin::AtomicAdd => "atomic_add",
        }
    }
    pub fn ir_name(self) -> &'static str {
        match self {
            GpuBuiltin::Shared => postc_ir::builtins::SHARED,
            GpuBuiltin::SyncThreads => postc_ir::builtins::SYNC_THREADS,
            GpuBuiltin::AtomicAdd => postc_ir::builtins::ATOMIC_ADD,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Namespace {
    Postc,
    PostcMath,
    /// Python's `math`: CPython's results (`lower/pymath.rs`).
    Math,
    Postyp,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Deco {
    Ufunc,
    Gpu,
    Kernel,
    Cold,
    Noinline,
    Jit,
}

/// Why a function has no result type (see [`FuncDecl::no_result`]), as
/// its calls read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum NoResult {
    /// It returns nothing: `-> None`, or no `return` of a value gives one.
    #[default]
    Nothing,
    /// Its result is needed before any `return` gives it: its body calls
    /// a function of the module whose result is not found yet, itself
    /// (recursion) or one that calls it back.
    Pending,
    /// Its result annotation or its body has errors, reported there: its
    /// calls stay quiet.
    Broken,
}

/// A function's signature, as declared.
#[derive(Clone, Debug)]
pub(crate) struct FuncDecl {
    pub name: String,
    /// Index of the `def` among the module's statements.
    pub stmt: usize,
    /// The Python parameters; one that may be `None` has the type of its
    /// value (and is two parameters in the IR, see [`FuncDecl::maybe_none`]);
    /// a tuple of numbers has its tuple type (and is one parameter per
    /// element in the IR, see [`FuncDecl::declare_ir_params`]).
    pub params: Vec<(String, TypeId)>,
    /// Whether each parameter is `T | None` (`Optional[T]`): in the IR a
    /// Bool flag that says whether a value is given, then the value.
    pub maybe_none: Vec<bool>,
    /// The default values of the last `defaults.len()` parameters, as
    /// CPython keeps them; `None` is a default of `None`.
    pub defaults: Vec<Option<(Lit, Scalar)>>,
    /// The defaults of array parameters, by their place in `defaults`
    /// (whose entry there is `None`).
    pub array_defaults: Vec<(usize, postc_ir::ArrayDefault)>,
    pub core_dims: Vec<String>,
    /// The result's type; for a result that may be `None`, its value's.
    pub ret: Option<TypeId>,
    /// The result is `T | None`: in the IR the tuple `(Bool, T)`.
    pub ret_maybe_none: bool,
    pub attrs: FuncAttrs,
    pub ufunc_sig: Option<UFuncSignature>,
    pub doc: Option<String>,
    /// Parameters whose annotations have errors: their uses stay quiet.
    pub poisoned: Vec<String>,
    /// The return annotation has errors: returns are not checked.
    pub ret_poisoned: bool,
    /// No return annotation: a `return a, b` gives the function its tuple
    /// result (see `lower::Lower::return_tuple`).
    pub ret_unannotated: bool,
    /// How many of the last parameters are keyword-only (after `*`).
    pub keyword_only: usize,
    /// How many of the first parameters are positional-only (before `/`).
    pub positional_only: usize,
    /// Its result may share memory with an array argument (`return a[1:]`):
    /// a caller treats what it returns as a view of the arrays it passes
    /// (see `lower::read_only`).
    pub returns_view: bool,
    /// Of a generic function (see `generics`), which parameters have no
    /// annotation (their types here are placeholders); empty otherwise.
    pub unannotated: Vec<bool>,
    /// Of an instance of a generic function, which parameters are Python
    /// numbers (weak scalars); empty otherwise.
    pub weak_params: Vec<bool>,
    /// Of an instance, whether its result is a Python number.
    pub ret_weak: bool,
    /// The tuples inside a tuple result found by lowering (`return a, (b,
    /// c)`): each one's first element among the flat elements of the IR
    /// result and how many it has (see `postc_ir::Function::result_groups`).
    pub result_groups: Vec<(usize, usize)>,
    /// The flags of a tuple result's elements that may be `None`, found by
    /// lowering (see `postc_ir::MaybeNone::result_elements`).
    pub result_optional: Vec<usize>,
    /// The parameters that are dtypes fixed when the function compiles
    /// (`dtype: type[Float64]`): not among `params` (they have no IR
    /// parameter); the body reads each name as that dtype.
    pub dtype_params: Vec<postc_ir::DTypeParam>,
    /// The elements of the result that are lists of numbers, found by
    /// lowering (see `postc_ir::Function::list_results`).
    pub result_lists: Vec<usize>,
    /// Of a function without a result annotation whose result is not
    /// found, why (set where the module's results are found).
    pub unresolved: NoResult,
}

impl FuncDecl {
    /// Why the function has no result type; `None` when it has one.
    pub(crate) fn no_result(&self) -> Option<NoResult> {
        match () {
            _ if self.ret.is_some() => None,
            _ if self.ret_poisoned => Some(NoResult::Broken),
            _ if !self.ret_unannotated => Some(NoResult::Nothing),
            _ => Some(self.unresolved),
        }
    }
}

impl FuncDecl {
    /// Whether it is an instance of a generic function (which has a
    /// parameter at least, and says of each whether it is weak).
    pub fn is_instance(&self) -> bool {
        !self.weak_params.is_empty()
    }

    /// The scalar type of parameter `i` whose type is `td` (a number): a
    /// Python number's weak type for an instance's, else `td`'s dtype.
    pub fn param_scalar(&self, i: usize, td: &TypeData) -> Scalar {
        Scalar { dtype: td.dtype, weak: self.weak_params.get(i).copied().unwrap_or(false) }
    }
}

/// A parameter of a function in the IR (see
/// [`FuncDecl::declare_ir_params`]).
pub(crate) struct IrParam {
    /// The index of the Python parameter it stands for.
    pub of: usize,
    /// It is the presence flag of a parameter that may be `None`.
    pub flag: bool,
    /// Its name in the IR: the parameter's, its flag's or its element's.
    pub name: String,
    pub value: postc_ir::ValueId,
}

impl FuncDecl {
    /// Declares the parameters in the IR on `b`, in order: a presence flag
    /// before the value of one that may be `None`, each element of a tuple
    /// (named as the element of a tuple local is) in place of the tuple;
    /// and records on `b` which are flags and which tuples, and whether the
    /// result may be `None`. Each IR parameter with the Python parameter it
    /// stands for (its index) and whether it is a presence flag.
    pub fn declare_ir_params(&self, b: &mut FunctionBuilder, types: &postc_ir::TypeTable) -> Vec<IrParam> {
        let mut out = Vec::with_capacity(self.params.len());
        let (mut flags, mut tuples) = (Vec::new(), Vec::new());
        for (of, ((name, t), &maybe_none)) in self.params.iter().zip(&self.maybe_none).enumerate() {
            let declare = |out: &mut Vec<IrParam>, b: &mut FunctionBuilder, name: String, flag: bool, ty| {
                let value = b.param(&name, ty);
                out.push(IrParam { of, flag, name, value });
            };
            if maybe_none {
                flags.push(out.len());
                declare(&mut out, b, presence_name(name), true, TypeId::BOOL);
            }
            let td = types.get(*t);
            if td.is_tuple() {
                tuples.push((out.len(), td.elements.len()));
                for (i, e) in td.elements.iter().enumerate() {
                    let element = crate::lower::tuples::element_local(name, i);
                    declare(&mut out, b, element, false, TypeId::scalar(e.dtype));
                }
            } else {
                declare(&mut out, b, name.clone(), false, *t);
            }
        }
        b.set_maybe_none(postc_ir::MaybeNone { params: flags, result: self.ret_maybe_none, ..Default::default() });
        b.set_tuple_params(tuples);
        b.set_dtype_params(self.dtype_params.clone());
        out
    }

    /// The IR's result type: `(Bool, T)` for a result that may be `None`.
    pub fn ir_ret(&self, types: &mut postc_ir::TypeTable) -> Option<TypeId> {
        let t = self.ret?;
        if !self.ret_maybe_none {
            return Some(t);
        }
        let value = types.get(t).clone();
        Some(types.intern(TypeData::tuple(vec![TypeData::scalar(DType::Bool), value])))
    }
}

/// The name of the IR parameter (or local) that says whether `name`, a
/// parameter or local that may be `None`, holds a value.
pub(crate) fn presence_name(name: &str) -> String {
    format!("{name}.given")
}

/// Everything the module level declares.
pub(crate) struct Declared {
    pub module: Module,
    pub globals: HashMap<String, Global>,
    pub funcs: Vec<FuncDecl>,
    /// Functions whose signatures have errors; their bodies are still
    /// checked, for the diagnostics.
    pub broken: Vec<FuncDecl>,
    /// The generic functions (see `generics`).
    pub generics: Vec<FuncDecl>,
}

/// The libm-compatible functions of `postc.math`, and its constants.
pub(crate) const MATH_CONSTANTS: [(&str, f64); 5] = [
    ("pi", std::f64::consts::PI),
    ("e", std::f64::consts::E),
    ("tau", std::f64::consts::TAU),
    ("inf", f64::INFINITY),
    ("nan", f64::NAN),
];

/// The value of `math`'s float constant `name`.
pub(crate) fn math_constant(name: &str) -> Option<f64> {
    MATH_CONSTANTS.iter().find(|(c, _)| *c == name).map(|(_, x)| *x)
}

/// Python's own scalar types, usable as annotations and casts.
pub(crate) fn python_scalar(name: &str) -> Option<DType> {
    Some(match name {
        "bool" => DType::Bool,
        "int" => DType::Int64,
        "float" => DType::Float64,
        "complex" => DType::Complex128,
        "str" => DType::Str,
        "bytes" => DType::Bytes,
        _ => return None,
    })
}

pub(crate) struct Declarer<'a> {
    pub src: &'a SourceFile,
    pub file: FileId,
    pub diags: Vec<Diagnostic>,
    /// Whether a dotted module name is a POST module (a file the loader
    /// will find), as opposed to a CPython module.
    pub is_post_module: &'a dyn Fn(&str) -> bool,
    /// The POST modules imported whole: (the dotted name their functions
    /// are read through, the module's name).
    whole_modules: Vec<(String, String)>,
}

impl<'a> Declarer<'a> {
    pub fn new(src: &'a SourceFile, file: FileId, is_post_module: &'a dyn Fn(&str) -> bool) -> Self {
        Declarer { src, file, diags: Vec::new(), is_post_module, whole_modules: Vec::new() }
    }

    fn err(&mut self, at: &impl Ranged, msg: impl Into<String>) {
        self.diags.push(self.src.error(at, msg));
    }

    pub fn declare(&mut self, name: &str, stmts: &[Stmt]) -> Declared {
        let mut module = Module::new(name);
        let file = module.files.intern(&self.src.path);
        debug_assert_eq!(file, self.file);
        module.decl_locs = DeclLocs {
            module: Some(postc_ir::SrcLoc { file, line: 1, col: 1, implicit: false }),
            ..Default::default()
        };
        let mut d =
            Declared { module, globals: HashMap::new(), funcs: Vec::new(), broken: Vec::new(), generics: Vec::new() };
        let mut all: Option<Vec<(String, ruff_text_size::TextRange)>> = None;
        let mut defined_at: HashMap<String, ruff_text_size::TextRange> = HashMap::new();

        for (i, stmt) in stmts.iter().enumerate() {
            match stmt {
                Stmt::Expr(e) if i == 0 && matches!(*e.value, Expr::StringLiteral(_)) => {
                    if let Expr::StringLiteral(s) = &*e.value {
                        d.module.doc = Some(s.value.to_str().to_owned());
                    }
                }
                Stmt::Import(imp) => self.import(&mut d, imp),
                Stmt::ImportFrom(imp) => self.import_from(&mut d, imp),
                Stmt::FunctionDef(f) => {
                    let fname = f.name.id.to_string();
                    if let Some(prev) = defined_at.get(&fname) {
                        let (line, _) = self.src.line_col(prev.start().to_u32());
                        self.err(&f.name, format!("`{fname}` is defined twice (first on line {line})"));
                        continue;
                    }
                    defined_at.insert(fname.clone(), f.name.range);
                    match self.function(&mut d, f, i) {
                        Ok(decl) if !decl.unannotated.is_empty() => {
                            d.globals.insert(fname, Global::Generic(d.generics.len()));
                            d.generics.push(decl);
                        }
                        Ok(decl) => {
                            d.globals.insert(fname, Global::Func(d.funcs.len()));
                            d.funcs.push(decl);
                        }
                        // Reported; calls to it stay quiet.
                        Err(partial) => {
                            d.globals.insert(fname, Global::Broken);
                            d.broken.push(partial);
                        }
                    }
                }
                Stmt::Assign(a) if is_all(&a.targets) => all = self.all(&a.value),
                Stmt::AnnAssign(a) if matches!(&*a.target, Expr::Name(n) if n.id.as_str() == "__all__") => {
                    if let Some(v) = &a.value {
                        all = self.all(v);
                    }
                }
                Stmt::Assign(a) => {
                    if a.targets.len() != 1 {
                        self.err(a, "chained assignment is not supported at module level");
                        continue;
                    }
                    let Expr::Name(target) = &a.targets[0] else {
                        self.err(&a.targets[0], format!("{} cannot be assigned at module level", construct_name(&a.targets[0])));
                        continue;
                    };
                    self.global_assign(&mut d, target, None, &a.value);
                }
                Stmt::AnnAssign(a) => {
                    let Expr::Name(target) = &*a.target else {
                        self.err(&*a.target, format!("{} cannot be assigned at module level", construct_name(&a.target)));
                        continue;
                    };
                    match &a.value {
                        Some(v) => self.global_assign(&mut d, target, Some(&a.annotation), v),
                        None => self.err(a, format!("module constant `{}` needs a value", target.id)),
                    }
                }
                Stmt::If(s) if is_main_guard(&s.test) => {}
                other => self.err(
                    other,
                    format!(
                        "{} is not allowed at module level: a POST module holds imports, constants, aliases, `__all__` and functions",
                        crate::syntax::stmt_name(other)
                    ),
                ),
            }
        }

        self.module_members(&mut d, stmts);

        // Aliases resolve once every function is declared.
        let aliases: Vec<(String, String)> = d
            .globals
            .iter()
            .filter_map(|(k, g)| match g {
                Global::Alias(t) => Some((k.clone(), t.clone())),
                _ => None,
            })
            .collect();
        let mut aliases = aliases;
        aliases.sort();
        for (alias, target) in aliases {
            let ok = matches!(
                d.globals.get(&target),
                Some(Global::Func(_) | Global::Intrinsic { .. } | Global::PostImport { .. } | Global::Alias(_))
            );
            let at = d.module.decl_locs.aliases.get(&alias).copied();
            if ok {
                d.module.function_aliases.insert(alias, target);
            } else if matches!(d.globals.get(&target), Some(Global::Generic(_))) {
                // Another name for a generic function, which calls in the
                // module follow; the IR has no function of that name.
                d.module.decl_locs.aliases.remove(&alias);
            } else if let Some(l) = at {
                self.diags.push(Diagnostic::error(
                    format!(
                        "`{alias}` aliases `{target}`, which is not a function of this module or an imported function"
                    ),
                    Some(postc_ir::Pos::new(&self.src.path, l.line, l.col, alias.len() as u32)),
                ));
            }
        }
        // IndexMap order: as declared in the file.
        d.module.function_aliases.sort_by(|a, _, b, _| {
            let la = d.module.decl_locs.aliases.get(a).map(|l| (l.line, l.col));
            let lb = d.module.decl_locs.aliases.get(b).map(|l| (l.line, l.col));
            la.cmp(&lb)
        });

        if let Some(names) = all {
            for (n, r) in &names {
                let known = matches!(
                    d.globals.get(n),
                    Some(Global::Func(_) | Global::Alias(_) | Global::Intrinsic { .. } | Global::PostImport { .. })
                );
                if matches!(d.globals.get(n), Some(Global::Generic(_))) {
                    self.err(
                        r,
                        format!(
                            "`__all__` names `{n}`, whose parameters are not all annotated: what the module exports \
                             is annotated (compiled code of the module calls `{n}` with its arguments' types)"
                        ),
                    );
                } else if !known {
                    self.err(r, format!("`__all__` names `{n}`, which is not a function of this module"));
                }
                d.module.decl_locs.exports.push(self.src.loc(self.file, r));
            }
            d.module.export_all = Some(names.into_iter().map(|(n, _)| n).collect());
        }
        d
    }

    /// `st.f` in a function, where `st` is a POST module imported whole:
    /// a module-level name `st.f`, as `from m import f as st.f` would
    /// declare it (a name no Python binding can take), which the body's
    /// names resolve to. Of this module itself (`import me as st`), the
    /// name is what `f` is here; a name the module does not have is left
    /// undeclared, for the body's check to report where it is read.
    fn module_members(&mut self, d: &mut Declared, stmts: &[Stmt]) {
        if self.whole_modules.is_empty() {
            return;
        }
        for (dotted, attr_at) in module_member_reads(stmts, &self.whole_modules) {
            if d.globals.contains_key(&dotted) {
                continue;
            }
            let (prefix, member) = dotted.rsplit_once('.').expect("a dotted read");
            let Some((_, m)) = self.whole_modules.iter().find(|(p, _)| p == prefix) else { continue };
            if *m == d.module.name {
                if let Some(g) = d.globals.get(member).cloned() {
                    d.globals.insert(dotted, g);
                }
                continue;
            }
            d.module.add_post_import(ImportedName {
                local_name: dotted.clone(),
                module_name: m.clone(),
                source_name: member.to_owned(),
            });
            d.module.decl_locs.imports.insert(dotted.clone(), self.src.loc(self.file, &attr_at));
            d.globals.insert(dotted.clone(), Global::PostImport { local: dotted });
        }
    }

    fn bind(&mut self, d: &mut Declared, local: &str, g: Global, at: &impl Ranged) {
        d.module.decl_locs.imports.insert(local.to_owned(), self.src.loc(self.file, at));
        d.globals.insert(local.to_owned(), g);
    }

    fn import(&mut self, d: &mut Declared, imp: &ast::StmtImport) {
        for alias in &imp.names {
            let full = alias.name.id.as_str();
            let bound = alias.asname.as_ref().map(|a| a.id.as_str());
            match (full, bound) {
                ("postc.math", Some(b)) => self.bind(d, b, Global::Namespace(Namespace::PostcMath), alias),
                ("postc" | "postc.math", None) => self.bind(d, "postc", Global::Namespace(Namespace::Postc), alias),
                ("postc", Some(b)) => self.bind(d, b, Global::Namespace(Namespace::Postc), alias),
                ("postyp", b) => self.bind(d, b.unwrap_or("postyp"), Global::Namespace(Namespace::Postyp), alias),
                ("math", b) => self.bind(d, b.unwrap_or("math"), Global::Namespace(Namespace::Math), alias),
                (m, b) if (self.is_post_module)(m) => {
                    // Python binds the first segment of `import a.b` and the
                    // alias of `import a.b as s`; its functions are then
                    // read as `a.b.f` or `s.f`.
                    let local = b.unwrap_or_else(|| m.split('.').next().unwrap_or(m));
                    if m != d.module.name {
                        d.module.dependencies.insert(m.to_owned());
                        let at = self.src.loc(self.file, &alias.name);
                        d.module.decl_locs.dependencies.entry(m.to_owned()).or_insert(at);
                    }
                    self.bind(d, local, Global::PostModule(m.to_owned()), alias);
                    self.whole_modules.push((b.unwrap_or(m).to_owned(), m.to_owned()));
                }
                (m, b) => {
                    let local = b.unwrap_or_else(|| m.split('.').next().unwrap_or(m));
                    // A module binding only: the IR records the names taken
                    // from CPython modules (`from m import f`).
                    self.bind(d, local, Global::BoundaryModule(m.to_owned()), alias);
                }
            }
        }
    }

    fn import_from(&mut self, d: &mut Declared, imp: &ast::StmtImportFrom) {
        if imp.level > 0 {
            self.err(imp, "relative imports are not supported: name the module by its full dotted name");
            return;
        }
        let Some(module) = &imp.module else { return };
        let m = module.id.as_str();
        for alias in &imp.names {
            let name = alias.name.id.as_str();
            if name == "*" {
                self.err(alias, format!("`from {m} import *` is not supported: import each name"));
                continue;
            }
            let local = alias.asname.as_ref().map_or(name, |a| a.id.as_str()).to_owned();
            match m {
                "postyp" => match (DType::from_name(name), name) {
                    (Some(dt), _) => self.bind(d, &local, Global::Type(dt), alias),
                    (None, "Out") => self.bind(d, &local, Global::Out, alias),
                    _ => self.err(&alias.name, format!("`postyp` has no type `{name}`")),
                },
                "postc" => {
                    let g = match name {
                        "ufunc" => Global::Decorator(Deco::Ufunc),
                        "gpu" => Global::Decorator(Deco::Gpu),
                        "kernel" => Global::Decorator(Deco::Kernel),
                        "cold" => Global::Decorator(Deco::Cold),
                        "noinline" => Global::Decorator(Deco::Noinline),
                        "jit" => Global::Decorator(Deco::Jit),
                        "empty" => Global::Empty,
                        "prange" => Global::Prange,
                        "shared" => Global::GpuBuiltin(GpuBuiltin::Shared),
                        "sync_threads" => Global::GpuBuiltin(GpuBuiltin::SyncThreads),
                        "atomic_add" => Global::GpuBuiltin(GpuBuiltin::AtomicAdd),
                        "math" => Global::Namespace(Namespace::PostcMath),
                        reg => match postc_ir::builtins::GpuReg::ALL.iter().find(|r| r.name() == reg) {
                            Some(r) => Global::GpuRegister(*r),
                            None => {
                                self.err(&alias.name, format!("`postc` has no `{name}`"));
                                continue;
                            }
                        },
                    };
                    self.bind(d, &local, g, alias);
                }
                "postc.math" => {
                    if let Some((_, v)) = MATH_CONSTANTS.iter().find(|(n, _)| *n == name) {
                        self.bind(
                            d,
                            &local,
                            Global::Const { lit: Lit::Float(*v), scalar: Scalar::weak(DType::Float64) },
                            alias,
                        );
                    } else if postc_ir::interp::is_known_intrinsic(name) && !name.ends_with('f') || name == "erf" {
                        d.module.intrinsic_imports.insert(local.clone(), name.to_owned());
                        self.bind(d, &local.clone(), Global::Intrinsic { local }, alias);
                    } else {
                        self.err(&alias.name, format!("`postc.math` has no function `{name}`"));
                    }
                }
                "numba" if name == "prange" => self.bind(d, &local, Global::Prange, alias),
                m if (self.is_post_module)(m) => {
                    let at = self.src.loc(self.file, &alias.name);
                    d.module
                        .decl_locs
                        .dependencies
                        .entry(m.to_owned())
                        .or_insert_with(|| self.src.loc(self.file, module));
                    d.module.add_post_import(ImportedName {
                        local_name: local.clone(),
                        module_name: m.to_owned(),
                        source_name: name.to_owned(),
                    });
                    d.module.decl_locs.imports.insert(local.clone(), at);
                    d.globals.insert(local.clone(), Global::PostImport { local });
                }
                m => {
                    d.module.boundary_imports.insert(
                        local.clone(),
                        ImportedName {
                            local_name: local.clone(),
                            module_name: m.to_owned(),
                            source_name: name.to_owned(),
                        },
                    );
                    self.bind(d, &local, Global::Boundary { module: m.to_owned(), name: name.to_owned() }, alias);
                }
            }
        }
    }

    /// `__all__ = ["a", "b"]`: the names and where each is written.
    fn all(&mut self, value: &Expr) -> Option<Vec<(String, ruff_text_size::TextRange)>> {
        let elts = match value {
            Expr::List(l) => &l.elts,
            Expr::Tuple(t) => &t.elts,
            other => {
                self.err(other, "`__all__` must be a list of string literals");
                return None;
            }
        };
        let mut out = Vec::new();
        for e in elts {
            match e {
                Expr::StringLiteral(s) => out.push((s.value.to_str().to_owned(), s.range)),
                other => self.err(other, "`__all__` must be a list of string literals"),
            }
        }
        Some(out)
    }

    /// `NAME = value` or `NAME: T = value` at module level: a constant or,
    /// when the value names a function, an alias.
    fn global_assign(&mut self, d: &mut Declared, target: &ast::ExprName, ann: Option<&Expr>, value: &Expr) {
        let name = target.id.to_string();
        if let (None, Expr::Name(n)) = (ann, value) {
            let source = n.id.as_str();
            let to = match d.globals.get(source) {
                // As in Python, the alias takes the function the name holds
                // now: `g = f; h = g; g = h` leaves both naming `f`.
                Some(Global::Alias(t)) => Some(t.clone()),
                Some(Global::Func(_) | Global::Intrinsic { .. } | Global::PostImport { .. } | Global::Generic(_)) => {
                    Some(source.to_owned())
                }
                _ => None,
            };
            if let Some(to) = to {
                if to != name {
                    d.module.decl_locs.aliases.insert(name.clone(), self.src.loc(self.file, target));
                    d.globals.insert(name, Global::Alias(to));
                }
                return;
            }
        }
        if let Expr::Call(c) = value {
            if self.is_np_array(d, &c.func) {
                if let Some(ann) = ann {
                    self.err(
                        ann,
                        format!("module-level array `{name}` takes no annotation: give its dtype as `dtype=`"),
                    );
                    return;
                }
                if let Some(a) = self.const_array(d, c) {
                    d.globals.insert(name, Global::ConstArray(std::sync::Arc::new(a)));
                }
                return;
            }
        }
        let Some((lit, mut scalar)) = self.const_value(d, value) else { return };
        if let Some(ann) = ann {
            let Some(t) = self.scalar_annotation(d, ann) else { return };
            match lit.convert(t) {
                Some(_) if kind(t) >= lit.kind() => {
                    scalar = Scalar { dtype: t, weak: scalar.weak };
                }
                _ => {
                    self.err(value, format!("the value of `{name}` does not fit its annotation {}", t.name()));
                    return;
                }
            }
        }
        let Some(value_c) = lit.convert(scalar.dtype) else {
            self.err(value, format!("the value of `{name}` does not fit {}", scalar.dtype.name()));
            return;
        };
        d.module.decl_locs.constants.insert(name.clone(), self.src.loc(self.file, target));
        d.module.constants.insert(name.clone(), Constant { ty: TypeId::scalar(scalar.dtype), value: value_c });
        d.globals.insert(name, Global::Const { lit, scalar });
    }

    /// Whether `f` is NumPy's `array` (`np.array`, or `array` imported
    /// from NumPy).
    fn is_np_array(&self, d: &Declared, f: &Expr) -> bool {
        match f {
            Expr::Attribute(a) => {
                a.attr.id.as_str() == "array"
                    && matches!(&*a.value, Expr::Name(m)
                        if matches!(d.globals.get(m.id.as_str()), Some(Global::BoundaryModule(m)) if m == "numpy"))
            }
            Expr::Name(n) => matches!(d.globals.get(n.id.as_str()),
                Some(Global::Boundary { module, name }) if module == "numpy" && name == "array"),
            _ => false,
        }
    }

    /// `np.array(list[, dtype])` at module level: a nested list of
    /// constants (literals and earlier module constants), its dtype and
    /// conversions those of `np.array` in a function.
    fn const_array(&mut self, d: &Declared, c: &ast::ExprCall) -> Option<ConstArray> {
        use crate::lower::npfuncs::{array_element_via, array_of_dtype, nested_shape};
        let shown = "`np.array`";
        let args = &c.arguments.args;
        let mut dtype_expr = None;
        for k in c.arguments.keywords.iter() {
            match k.arg.as_ref().map(|a| a.id.as_str()) {
                Some("dtype") if dtype_expr.is_none() => dtype_expr = Some(&k.value),
                Some("dtype") => {
                    self.err(k, "`dtype=` is given twice");
                    return None;
                }
                Some(other) => {
                    self.err(k, format!("{shown} takes no keyword `{other}=` at module level"));
                    return None;
                }
                None => {
                    self.err(k, "`**` arguments are not supported");
                    return None;
                }
            }
        }
        if let Some(s) = args.iter().find(|a| matches!(a, Expr::Starred(_))) {
            self.err(s, "`*` arguments are not supported");
            return None;
        }
        if args.is_empty() || args.len() > 2 {
            self.err(c, format!("{shown} takes a list of numbers (and a dtype) here"));
            return None;
        }
        if let Some(p) = args.get(1) {
            if dtype_expr.is_some() {
                self.err(p, "the dtype is given twice");
                return None;
            }
            dtype_expr = Some(p);
        }
        let given = match dtype_expr {
            Some(e) => Some(self.module_dtype(d, e)?),
            None => None,
        };
        fn elements(e: &Expr) -> Option<Vec<&Expr>> {
            match e {
                Expr::List(l) => Some(l.elts.iter().collect()),
                Expr::Tuple(t) => Some(t.elts.iter().collect()),
                _ => None,
            }
        }
        let (shape, leaves) = match nested_shape(&args[0], &elements) {
            Ok(found) => found,
            Err((at, why)) => {
                self.err(at, why.message(shown));
                return None;
            }
        };
        let mut folded = Vec::with_capacity(leaves.len());
        let mut ok = true;
        for e in leaves {
            match self.const_value(d, e) {
                Some((_, s)) if s.dtype.is_text() => {
                    self.err(e, format!("{shown} takes numbers here, not {}", s.dtype.name()));
                    ok = false;
                }
                Some((lit, s)) => folded.push((lit, s, e.range())),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        let Some(dtype) = array_of_dtype(given, folded.iter().map(|(_, s, _)| *s)) else {
            self.err(c, format!("the numbers of this {shown} have no common dtype"));
            return None;
        };
        for (lit, s, at) in &folded {
            let Some(via) = array_element_via(*s, matches!(lit, Lit::Float(_)), dtype) else {
                self.err(at, format!("a complex number cannot be stored in an array of {}", dtype.name()));
                return None;
            };
            if lit.convert(via).is_none() {
                let msg = match lit {
                    Lit::Int(i) => format!("{i} is out of range for {}", via.name()),
                    _ => format!("this constant cannot be converted to {}", via.name()),
                };
                self.err(at, msg);
                return None;
            }
        }
        Some(ConstArray { dtype, shape, elements: folded, at: c.range() })
    }

    /// The dtype argument of a module-level `np.array`: a NumPy dtype
    /// (`np.float64`, `"int32"`), a postyp type or `float`, `int`, `bool`.
    fn module_dtype(&mut self, d: &Declared, e: &Expr) -> Option<DType> {
        use crate::lower::arrays::{numpy_dtype, removed_numpy_dtype};
        let numpy_name = |n: &str| match d.globals.get(n) {
            Some(Global::BoundaryModule(m)) => m == "numpy",
            _ => false,
        };
        let found = match e {
            Expr::StringLiteral(s) => numpy_dtype(s.value.to_str()),
            Expr::Attribute(a) => match &*a.value {
                Expr::Name(m) if numpy_name(m.id.as_str()) => {
                    let attr = a.attr.id.as_str();
                    if let Some(instead) = removed_numpy_dtype(attr) {
                        self.err(e, format!("AttributeError: `np.{attr}` was removed in the NumPy 2.0 release. Use `{instead}` instead."));
                        return None;
                    }
                    numpy_dtype(attr)
                }
                Expr::Name(m) if matches!(d.globals.get(m.id.as_str()), Some(Global::Namespace(Namespace::Postyp))) => {
                    DType::from_name(a.attr.id.as_str())
                }
                _ => None,
            },
            Expr::Name(n) => match d.globals.get(n.id.as_str()) {
                Some(Global::Type(t)) => Some(*t),
                Some(Global::Boundary { module, name }) if module == "numpy" => numpy_dtype(name),
                None => python_scalar(n.id.as_str()),
                _ => None,
            },
            _ => None,
        };
        match found {
            Some(t) if t.is_text() => {
                self.err(e, "arrays of Str or Bytes cannot be created in compiled code");
                None
            }
            Some(t) => Some(t),
            None => {
                let shown = crate::syntax::dotted(e).unwrap_or_else(|| construct_name(e).to_owned());
                self.err(
                    e,
                    format!("unknown dtype `{shown}`: give a NumPy or postyp dtype (`np.float64`, `Int32`) or `float`, `int`, `bool`"),
                );
                None
            }
        }
    }

    /// Folds a constant expression of literals and earlier constants.
    fn const_value(&mut self, d: &Declared, e: &Expr) -> Option<(Lit, Scalar)> {
        // NumPy's and `math`'s float constants are Python floats.
        let library = |module: &str, name: &str| {
            let x = match module {
                "numpy" => crate::lower::numpy::numpy_constant(name)?,
                "math" => math_constant(name)?,
                _ => return None,
            };
            Some((Lit::Float(x), Scalar::weak(DType::Float64)))
        };
        let r = crate::syntax::fold_const(
            e,
            &|n| match n.split_once('.') {
                Some((m, attr)) => match d.globals.get(m)? {
                    Global::BoundaryModule(m) => library(m, attr),
                    Global::Namespace(Namespace::Math | Namespace::PostcMath) => library("math", attr),
                    _ => None,
                },
                None => match d.globals.get(n)? {
                    Global::Const { lit, scalar } => Some((lit.clone(), *scalar)),
                    Global::Boundary { module, name } => library(module, name),
                    _ => None,
                },
            },
            &|n| match d.globals.get(n) {
                Some(Global::Type(t)) => Some(*t),
                None => python_scalar(n),
                _ => None,
            },
        );
        match r {
            Ok(v) => Some(v),
            Err((at, msg)) => {
                self.diags.push(Diagnostic::error(msg, Some(self.src.pos(at))));
                None
            }
        }
    }

    /// The default value of parameter `name` of type `t`, folded as a
    /// module constant's value is. A call that leaves the parameter out
    /// passes this value as if written there, so it must fit the parameter
    /// as an argument must (a weak `2.5` does not fit `Int32`).
    fn default_value(&mut self, d: &Declared, name: &str, t: &TypeData, value: &Expr) -> Option<(Lit, Scalar)> {
        if matches!(value, Expr::NoneLiteral(_)) {
            self.err(
                value,
                format!(
                    "parameter `{name}` of type {t} cannot default to `None`: annotate it `{t} | None` to allow `None`"
                ),
            );
            return None;
        }
        if t.is_array {
            self.err(value, format!("array parameter `{name}` takes no default value"));
            return None;
        }
        let (lit, scalar) = self.const_value(d, value)?;
        if !widens_to(scalar, t.dtype) || lit.convert(t.dtype).is_none() {
            self.err(value, format!("the default of `{name}` does not fit its annotation {t}"));
            return None;
        }
        Some((lit, scalar))
    }

    /// The default of the array parameter `name` of type `t`: NumPy's
    /// `np.empty`, `np.zeros`, `np.ones` or `np.full` of a constant shape
    /// (an integer or a tuple of them) and the parameter's dtype
    /// (`np.empty(shape=(0), dtype=np.bool_)`), as CPython makes it once;
    /// `np.empty`'s elements are zeros.
    fn array_default(&mut self, d: &Declared, name: &str, t: &TypeData, value: &Expr) -> Option<ArrayDefault> {
        let refuse = |this: &mut Self| {
            this.err(
                value,
                format!(
                    "the default of array parameter `{name}` is `np.empty`, `np.zeros`, `np.ones` or `np.full` of a \
                     constant shape and its dtype here"
                ),
            );
            None
        };
        if t.is_output {
            self.err(value, format!("output parameter `{name}` takes no default: it is written"));
            return None;
        }
        let Expr::Call(c) = value else { return refuse(self) };
        let f = match &*c.func {
            Expr::Attribute(a)
                if matches!(&*a.value, Expr::Name(m)
                if matches!(d.globals.get(m.id.as_str()), Some(Global::BoundaryModule(m)) if m == "numpy")) =>
            {
                a.attr.id.as_str()
            }
            Expr::Name(n) => match d.globals.get(n.id.as_str()) {
                Some(Global::Boundary { module, name }) if module == "numpy" => name.as_str(),
                _ => return refuse(self),
            },
            _ => return refuse(self),
        };
        let names: &[&str] = match f {
            "empty" | "zeros" | "ones" => &["shape", "dtype"],
            "full" => &["shape", "fill_value", "dtype"],
            _ => return refuse(self),
        };
        // NumPy's parameters, by position then by keyword.
        let mut given: Vec<Option<&Expr>> = vec![None; names.len()];
        for (slot, a) in given.iter_mut().zip(c.arguments.args.iter()) {
            *slot = Some(a);
        }
        if c.arguments.args.len() > names.len() {
            return refuse(self);
        }
        for k in c.arguments.keywords.iter() {
            let at = k.arg.as_ref().and_then(|a| names.iter().position(|n| *n == a.id.as_str()));
            match at {
                Some(i) if given[i].is_none() => given[i] = Some(&k.value),
                _ => return refuse(self),
            }
        }
        let shape_e = given[0]?;
        let extent = |e: &Expr| match crate::syntax::literal(e) {
            Some(Ok(Lit::Int(n))) => u64::try_from(n).ok(),
            _ => None,
        };
        let shape: Option<Vec<u64>> = match shape_e {
            Expr::Tuple(t) => t.elts.iter().map(extent).collect(),
            e => extent(e).map(|n| vec![n]),
        };
        let Some(shape) = shape else { return refuse(self) };
        let dtype = match given[names.len() - 1] {
            Some(e) => self.module_dtype(d, e)?,
            None if f == "full" => return refuse(self),
            None => DType::Float64,
        };
        if dtype != t.dtype || Some(shape.len()) != t.ndim() {
            self.err(value, format!("the default of `{name}` does not fit its annotation {t}"));
            return None;
        }
        let fill = match f {
            "ones" => Lit::Int(1),
            "full" => self.const_value(d, given[1]?)?.0,
            _ => Lit::Int(0),
        };
        if fill.convert(dtype).is_none() {
            self.err(value, format!("the fill value of `{name}`'s default does not fit {}", dtype.name()));
            return None;
        }
        // As CPython holds it; NumPy converts it when it makes the array.
        Some(ArrayDefault { dtype, shape, fill: crate::lower::python_value(&fill) })
    }

    fn scalar_annotation(&mut self, d: &Declared, ann: &Expr) -> Option<DType> {
        match self.annotation(d, ann)? {
            Annot::Type(t) if !t.is_array => Some(t.dtype),
            _ => {
                self.err(ann, "a module constant has a scalar type");
                None
            }
        }
    }

    /// Reads a type annotation.
    pub(crate) fn annotation(&mut self, d: &Declared, e: &Expr) -> Option<Annot> {
        crate::syntax::deep(|| self.annotation_inner(d, e))
    }

    fn annotation_inner(&mut self, d: &Declared, e: &Expr) -> Option<Annot> {
        match e {
            Expr::NoneLiteral(_) => Some(Annot::None),
            _ if maybe_none_inner(e).is_some() => {
                let inner = maybe_none_inner(e).expect("an optional type");
                if let Some(elements) = tuple_annotation(inner) {
                    return self.number_tuple(d, inner, elements).map(Annot::MaybeNone);
                }
                match self.annotation(d, inner)? {
                    Annot::Type(t) if !t.is_array && matches!(kind(t.dtype), Kind::Bool | Kind::Int | Kind::Float) => {
                        Some(Annot::MaybeNone(t))
                    }
                    Annot::Type(t) if t.is_array && t.is_output => {
                        self.err(
                            e,
                            "an output array (`Out[...]`) cannot be `None`: compiled code writes it, so pass one",
                        );
                        None
                    }
                    Annot::Type(t)
                        if t.is_array && matches!(&t.shape, Shape::Dims(ds) if ds.iter().any(Option::is_some)) =>
                    {
                        self.err(
                            e,
                            "an array that may be `None` has extents known only when called (`Float64[:]`, not \
                             `Float64[3]`)",
                        );
                        None
                    }
                    Annot::Type(t) if t.is_array => Some(Annot::MaybeNone(t)),
                    Annot::Type(t) => {
                        self.err(
                            e,
                            format!(
                                "a {} that may be `None` is not supported: only Bool, integers and floats may be `None`",
                                t.dtype.name()
                            ),
                        );
                        None
                    }
                    Annot::None | Annot::MaybeNone(_) => {
                        self.err(e, "this type is `None` twice: write `T | None` once");
                        None
                    }
                }
            }
            Expr::Name(_) | Expr::Attribute(_) => match self.type_name(d, e) {
                Some(TypeName::DType(t)) => Some(Annot::Type(TypeData::scalar(t))),
                Some(TypeName::Out) => {
                    self.err(e, "`Out` marks an array parameter: write `Out[Float64[:]]`");
                    None
                }
                None => {
                    self.err(e, unknown_type(&crate::syntax::dotted(e).unwrap_or_default()));
                    None
                }
            },
            Expr::Subscript(s) => match self.type_name(d, &s.value) {
                Some(TypeName::Out) => match self.annotation(d, &s.slice)? {
                    Annot::Type(t) if t.is_array => Some(Annot::Type(t.output())),
                    _ => {
                        self.err(&*s.slice, "`Out[...]` takes an array type such as `Float64[:]`");
                        None
                    }
                },
                Some(TypeName::DType(t)) => self.array_type(t, &s.slice).map(Annot::Type),
                None => {
                    self.err(&*s.value, unknown_type(&crate::syntax::dotted(&s.value).unwrap_or_default()));
                    None
                }
            },
            Expr::StringLiteral(_) => {
                self.err(e, "string annotations are not supported: write the type itself");
                None
            }
            other => {
                self.err(other, format!("{} is not a type", construct_name(other)));
                None
            }
        }
    }

    /// The type of the parameter `name` annotated `tuple[T0, T1, ...]`
    /// (`a`): each element a Bool, an integer or a float, no default.
    fn tuple_parameter(
        &mut self,
        d: &Declared,
        name: &str,
        a: &Expr,
        pw: &ast::ParameterWithDefault,
    ) -> Option<TypeData> {
        let t = self.number_tuple(d, a, tuple_annotation(a)?)?;
        if let Some(v) = &pw.default {
            self.err(&**v, format!("tuple parameter `{name}` takes no default value in compiled code"));
            return None;
        }
        Some(t)
    }

    /// The tuple type `a` annotates, its `elements` each a number type
    /// (Bool, an integer or a float), at least one.
    fn number_tuple(&mut self, d: &Declared, a: &Expr, elements: Vec<&Expr>) -> Option<TypeData> {
        let mut types = Vec::with_capacity(elements.len());
        for el in elements {
            match self.annotation(d, el)? {
                Annot::Type(t) if !t.is_array && matches!(kind(t.dtype), Kind::Bool | Kind::Int | Kind::Float) => {
                    types.push(t)
                }
                _ => {
                    self.err(
                        el,
                        "an element of a tuple parameter is a number type (Bool, an integer or a float): tuples of \
                         arrays, text or tuples are not supported",
                    );
                    return None;
                }
            }
        }
        if types.is_empty() {
            self.err(a, "a tuple parameter has at least one element");
            return None;
        }
        Some(TypeData::tuple(types))
    }

    /// The dtype of a dtype parameter's annotation, `type[Float64]` (any
    /// dtype but text): `None` for any other annotation.
    fn dtype_parameter(&self, d: &Declared, a: &Expr) -> Option<DType> {
        let Expr::Subscript(s) = a else { return None };
        if !matches!(&*s.value, Expr::Name(n) if n.id.as_str() == "type") {
            return None;
        }
        match self.type_name(d, &s.slice)? {
            TypeName::DType(t) if !t.is_text() => Some(t),
            _ => None,
        }
    }

    /// Whether `a` names NumPy's `dtype` class (`np.dtype`, or `dtype`
    /// imported from NumPy).
    fn is_numpy_dtype_class(&self, d: &Declared, a: &Expr) -> bool {
        match a {
            Expr::Attribute(at) if at.attr.id.as_str() == "dtype" => matches!(&*at.value,
                Expr::Name(n) if matches!(d.globals.get(n.id.as_str()), Some(Global::BoundaryModule(m)) if m == "numpy")),
            Expr::Name(n) => matches!(d.globals.get(n.id.as_str()),
                Some(Global::Boundary { module, name }) if module == "numpy" && name == "dtype"),
            _ => false,
        }
    }

    /// A tuple result annotation, `tuple[Float64, Int64[:]]` (or
    /// `Tuple[...]`): one scalar or array type per element.
    fn tuple_result(&mut self, d: &Declared, e: &Expr) -> Option<TypeData> {
        let elements = tuple_annotation(e)?;
        let mut types = Vec::with_capacity(elements.len());
        for el in elements {
            match self.annotation(d, el)? {
                Annot::Type(t) if !t.is_output => types.push(t),
                _ => {
                    self.err(el, "an element of a tuple result is a scalar or an array type (`Float64`, `Int64[:]`)");
                    return None;
                }
            }
        }
        if types.is_empty() {
            self.err(e, "a tuple result has at least one element");
            return None;
        }
        Some(TypeData::tuple(types))
    }

    fn type_name(&self, d: &Declared, e: &Expr) -> Option<TypeName> {
        match e {
            Expr::Name(n) => match d.globals.get(n.id.as_str()) {
                Some(Global::Type(t)) => Some(TypeName::DType(*t)),
                Some(Global::Out) => Some(TypeName::Out),
                Some(_) => None,
                None => python_scalar(n.id.as_str()).map(TypeName::DType),
            },
            Expr::Attribute(a) => match &*a.value {
                Expr::Name(n) if matches!(d.globals.get(n.id.as_str()), Some(Global::Namespace(Namespace::Postyp))) => {
                    match a.attr.id.as_str() {
                        "Out" => Some(TypeName::Out),
                        t => DType::from_name(t).map(TypeName::DType),
                    }
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `Float64[:]`, `Float64[:, ::1]`, `Float64[::1, :]`, `Float64[3, 3]`.
    fn array_type(&mut self, dtype: DType, slice: &Expr) -> Option<TypeData> {
        let axes: Vec<&Expr> = match slice {
            Expr::Tuple(t) => t.elts.iter().collect(),
            e => vec![e],
        };
        let mut dims = Vec::new();
        let mut contiguous = Vec::new();
        for (i, ax) in axes.iter().enumerate() {
            match ax {
                Expr::Slice(s) if s.lower.is_none() && s.upper.is_none() => {
                    match s.step.as_deref() {
                        None => {}
                        Some(Expr::NumberLiteral(n)) if matches!(&n.value, ast::Number::Int(v) if v.as_u64() == Some(1)) => {
                            contiguous.push(i)
                        }
                        Some(other) => {
                            self.err(other, "an array axis is `:` or `::1` (the contiguous axis)");
                            return None;
                        }
                    }
                    dims.push(None);
                }
                Expr::NumberLiteral(n) => match &n.value {
                    ast::Number::Int(v) if v.as_u64().is_some() => dims.push(v.as_u64()),
                    _ => {
                        self.err(*ax, "a static extent is a non-negative integer");
                        return None;
                    }
                },
                other => {
                    self.err(*other, "an array axis is `:`, `::1` or a static extent such as `3`");
                    return None;
                }
            }
        }
        let layout = match contiguous.as_slice() {
            [] => Layout::COrder,
            [i] if *i + 1 == dims.len() => Layout::COrder,
            [0] => Layout::FOrder,
            _ => {
                self.err(slice, "`::1` marks the contiguous axis: the last (C order) or the first (Fortran order)");
                return None;
            }
        };
        if dtype.is_text() {
            self.err(slice, format!("arrays of {} are not supported", dtype.name()));
            return None;
        }
        Some(TypeData::array(dtype, Shape::dims(&dims), layout))
    }

    /// Declares a function: parameters, return type, decorators, docstring.
    /// Declares a function; on errors, what of its signature could be read,
    /// to check the body against.
    fn function(&mut self, d: &mut Declared, f: &ast::StmtFunctionDef, stmt: usize) -> Result<FuncDecl, FuncDecl> {
        let name = f.name.id.to_string();
        let mut ok = true;
        if f.is_async {
            self.err(&f.name, "`async def` is not supported");
            ok = false;
        }
        if f.type_params.is_some() {
            self.err(&f.name, "type parameters are not supported");
            ok = false;
        }
        let p = &f.parameters;
        // The names of refused parameters are poisoned: the body is still
        // checked, and their uses there are not undefined names.
        let mut poisoned = Vec::new();
        if let Some(v) = &p.vararg {
            self.err(&**v, format!("`*{}` parameters are not supported", v.name.id));
            poisoned.push(v.name.id.to_string());
            ok = false;
        }
        if let Some(v) = &p.kwarg {
            self.err(&**v, format!("`**{}` parameters are not supported", v.name.id));
            poisoned.push(v.name.id.to_string());
            ok = false;
        }
        // Defaults are those of the last parameters: a keyword-only one
        // without a default after one with a default is not held.
        let positional_default = p.args.iter().any(|a| a.default.is_some());
        let mut defaulted = positional_default;
        for k in &p.kwonlyargs {
            if k.default.is_some() {
                defaulted = true;
            } else if defaulted {
                let name = &k.parameter.name.id;
                self.err(
                    &k.parameter,
                    format!(
                        "keyword-only parameter `{name}` has no default after parameters with defaults: not \
                         supported (give it a default, or move it before them)"
                    ),
                );
                poisoned.push(name.to_string());
                ok = false;
            }
        }
        let mut params = Vec::new();
        let mut maybe_none = Vec::new();
        let mut defaults = Vec::new();
        let mut array_defaults = Vec::new();
        let mut unannotated_at = Vec::new();
        let mut dtype_params = Vec::new();
        for pw in p.posonlyargs.iter().chain(&p.args).chain(&p.kwonlyargs) {
            let pname = pw.parameter.name.id.to_string();
            let dtype_param = pw.parameter.annotation.as_deref().and_then(|a| self.dtype_parameter(d, a));
            match &pw.parameter.annotation {
                // `dtype: type[Float64]`: a dtype fixed when compiled.
                Some(a) if let Some(dtype) = dtype_param => {
                    let keyword_only = p.kwonlyargs.iter().any(|k| k.parameter.name.id == pname);
                    let positional_only = p.posonlyargs.iter().any(|k| k.parameter.name.id == pname);
                    if let Some(v) = &pw.default {
                        self.err(&**v, format!("dtype parameter `{pname}` takes no default value in compiled code"));
                        ok = false;
                    } else if keyword_only || positional_only {
                        let which = if keyword_only { "keyword-only" } else { "positional-only" };
                        self.err(&**a, format!("dtype parameter `{pname}` cannot be {which} in compiled code"));
                        ok = false;
                    } else {
                        let at = params.len() + dtype_params.len();
                        dtype_params.push(postc_ir::DTypeParam { at, name: pname, dtype });
                    }
                }
                // `np.dtype`: a dtype given when called, which compiled code
                // fixes.
                Some(a) if self.is_numpy_dtype_class(d, a) => {
                    self.err(
                        &**a,
                        format!(
                            "parameter `{pname}` is a dtype, which compiled code fixes when it compiles: `@jit` \
                             compiles the function once for each dtype it is given; to compile it for one, \
                             annotate `{pname}: type[Float64]`"
                        ),
                    );
                    poisoned.push(pname);
                    ok = false;
                }
                // `x_offset: tuple[Int64, Int64]`: a tuple of numbers.
                Some(a) if tuple_annotation(a).is_some() => match self.tuple_parameter(d, &pname, a, pw) {
                    Some(t) => {
                        params.push((pname, t));
                        maybe_none.push(false);
                    }
                    None => {
                        poisoned.push(pname);
                        ok = false;
                    }
                },
                // No annotation: a parameter of a generic function (see
                // `generics`), typed by each call; a placeholder type here.
                None => {
                    if let Some(value) = &pw.default {
                        match &**value {
                            Expr::NoneLiteral(_) => defaults.push(None),
                            v => match self.const_value(d, v) {
                                Some(c) => defaults.push(Some(c)),
                                None => ok = false,
                            },
                        }
                    }
                    unannotated_at.push((params.len(), &pw.parameter));
                    params.push((pname, TypeData::scalar(DType::Int64)));
                    maybe_none.push(false);
                }
                Some(a) => match self.annotation(d, a) {
                    Some(Annot::Type(t)) if t.is_array && pw.default.is_some() => {
                        let value = pw.default.as_deref().expect("a default");
                        match self.array_default(d, &pname, &t, value) {
                            Some(v) => {
                                array_defaults.push((defaults.len(), v));
                                defaults.push(None);
                            }
                            None => ok = false,
                        }
                        params.push((pname, t));
                        maybe_none.push(false);
                    }
                    Some(Annot::Type(t)) => {
                        if let Some(value) = &pw.default {
                            match self.default_value(d, &pname, &t, value) {
                                Some(v) => defaults.push(Some(v)),
                                None => ok = false,
                            }
                        }
                        params.push((pname, t));
                        maybe_none.push(false);
                    }
                    Some(Annot::MaybeNone(t)) => {
                        match &pw.default {
                            Some(value) if matches!(**value, Expr::NoneLiteral(_)) => defaults.push(None),
                            // An array or a tuple that may be `None` has
                            // `None` for its default, as in Numba's
                            // signatures of such parameters.
                            Some(value) if t.is_array || t.is_tuple() => {
                                let what = if t.is_array { "an array" } else { "a tuple" };
                                self.err(
                                    &**value,
                                    format!("parameter `{pname}` is {what} that may be `None`: its default is `None`"),
                                );
                                ok = false;
                            }
                            Some(value) => match self.default_value(d, &pname, &t, value) {
                                Some(v) => defaults.push(Some(v)),
                                None => ok = false,
                            },
                            None => {}
                        }
                        params.push((pname, t));
                        maybe_none.push(true);
                    }
                    Some(Annot::None) => {
                        self.err(&**a, format!("parameter `{pname}` cannot be `None`"));
                        poisoned.push(pname);
                        ok = false;
                    }
                    None => {
                        poisoned.push(pname);
                        ok = false;
                    }
                },
            }
        }
        // The keyword-only parameters declared (last among `params`).
        let keyword_only =
            params.iter().filter(|(n, _)| p.kwonlyargs.iter().any(|k| k.parameter.name.id.as_str() == n)).count();
        let positional_only =
            params.iter().filter(|(n, _)| p.posonlyargs.iter().any(|k| k.parameter.name.id.as_str() == n)).count();
        let mut ret_poisoned = false;
        let mut ret_maybe_none = false;
        let ret = match &f.returns {
            None => None,
            Some(r) if tuple_annotation(r).is_some() => match self.tuple_result(d, r) {
                Some(t) => Some(t),
                None => {
                    ok = false;
                    ret_poisoned = true;
                    None
                }
            },
            Some(r) => match self.annotation(d, r) {
                Some(Annot::None) => None,
                Some(Annot::MaybeNone(t)) if t.is_array || t.is_tuple() => {
                    let what = if t.is_array { "an array" } else { "a tuple" };
                    self.err(
                        &**r,
                        format!(
                            "a result that may be `None` is a number (Bool, an integer or a float), not {what} \
                             (an element of a tuple result left unannotated may be `None`: `return None, counts`)"
                        ),
                    );
                    ok = false;
                    ret_poisoned = true;
                    None
                }
                Some(Annot::MaybeNone(t)) => {
                    ret_maybe_none = true;
                    Some(t)
                }
                Some(Annot::Type(t)) => {
                    if t.is_output {
                        self.err(&**r, "`Out[...]` marks a parameter, not a return type");
                        ok = false;
                    }
                    Some(t)
                }
                None => {
                    ok = false;
                    ret_poisoned = true;
                    None
                }
            },
        };

        let mut attrs = FuncAttrs::empty();
        let mut ufunc: Option<(Option<String>, ruff_text_size::TextRange)> = None;
        for deco in &f.decorator_list {
            let (callee, args) = match &deco.expression {
                Expr::Call(c) => (&*c.func, Some(&c.arguments)),
                e => (e, None),
            };
            let which = match global_of(&d.globals, callee) {
                Some(Global::Decorator(d)) => d,
                _ => {
                    self.err(
                        &deco.expression,
                        format!(
                            "unknown decorator `{}`: POST functions take `ufunc`, `gpu`, `kernel`, `cold` and `noinline` from `postc`",
                            crate::syntax::dotted(callee).unwrap_or_else(|| construct_name(callee).to_owned())
                        ),
                    );
                    ok = false;
                    continue;
                }
            };
            let args_ok = |s: &mut Self, allowed_kw: &[&str], positional: usize| -> bool {
                let Some(a) = args else { return true };
                let mut good = a.args.len() <= positional;
                if !good {
                    s.err(a, "too many arguments to the decorator");
                }
                for k in &a.keywords {
                    let kn = k.arg.as_ref().map(|i| i.id.as_str()).unwrap_or("**");
                    if !allowed_kw.contains(&kn) {
                        s.err(k, format!("unknown decorator argument `{kn}`"));
                        good = false;
                    }
                }
                good
            };
            match which {
                Deco::Ufunc => {
                    if !args_ok(self, UFUNC_PACKAGE_OPTIONS, 1) {
                        ok = false;
                        continue;
                    }
                    let sig = match args.and_then(|a| a.args.first()) {
                        None => None,
                        Some(Expr::StringLiteral(s)) => Some(s.value.to_str().to_owned()),
                        Some(other) => {
                            self.err(other, "a ufunc signature is a string literal such as \"(n),(n)->()\"");
                            ok = false;
                            continue;
                        }
                    };
                    ufunc = Some((sig, deco.range));
                }
                Deco::Gpu => {
                    if !args_ok(self, &["fallback"], 0) {
                        ok = false;
                        continue;
                    }
                    let fallback = args
                        .and_then(|a| {
                            a.keywords.iter().find(|k| k.arg.as_ref().is_some_and(|i| i.id.as_str() == "fallback"))
                        })
                        .map(|k| match &k.value {
                            Expr::BooleanLiteral(b) => Some(b.value),
                            _ => None,
                        });
                    match fallback {
                        None | Some(Some(false)) => attrs.insert(FuncAttrs::GPU),
                        Some(Some(true)) => attrs.insert(FuncAttrs::GPU_FALLBACK),
                        Some(None) => {
                            self.err(deco, "`fallback` is `True` or `False`");
                            ok = false;
                        }
                    }
                }
                Deco::Kernel | Deco::Cold | Deco::Noinline | Deco::Jit => {
                    if args.is_some() {
                        self.err(deco, "this decorator takes no arguments");
                        ok = false;
                        continue;
                    }
                    match which {
                        Deco::Kernel => attrs.insert(FuncAttrs::KERNEL),
                        Deco::Cold => attrs.insert(FuncAttrs::COLD),
                        Deco::Noinline => attrs.insert(FuncAttrs::NOINLINE),
                        _ => {}
                    }
                }
            }
        }

        if let Some((_, at)) = &ufunc {
            if maybe_none.iter().any(|m| *m) || ret_maybe_none {
                self.diags.push(self.src.error(
                    at,
                    format!("ufunc `{name}` has an operand that may be `None`: a ufunc's operands are numbers"),
                ));
                ok = false;
                ufunc = None;
            } else if params.iter().any(|(_, t)| t.is_tuple()) {
                self.diags.push(self.src.error(
                    at,
                    format!("ufunc `{name}` has a tuple operand: a ufunc's operands are numbers or arrays"),
                ));
                ok = false;
                ufunc = None;
            }
        }
        // Only a function compiled code calls may leave parameters
        // unannotated: a ufunc's operands and a device function's
        // parameters are its signature.
        if !unannotated_at.is_empty() && (ufunc.is_some() || attrs.is_device()) {
            for (_, p) in &unannotated_at {
                self.err(*p, format!("parameter `{}` needs a type annotation", p.name.id));
                poisoned.push(p.name.id.to_string());
            }
            ok = false;
        }
        let mut unannotated = vec![false; params.len()];
        for (i, _) in &unannotated_at {
            unannotated[*i] = true;
        }
        if unannotated_at.is_empty() {
            unannotated.clear();
        }
        let mut core_dims = Vec::new();
        let mut ufunc_sig = None;
        if let (Some(_), Some(k)) = (&ufunc, p.kwonlyargs.first()) {
            self.err(
                &k.parameter,
                "a ufunc's parameters are its operands, given by position: keyword-only ones are not supported",
            );
            ok = false;
        } else if let Some((sig, at)) = ufunc {
            match self.ufunc_signature(&name, sig.as_deref(), &params, ret.as_ref(), at) {
                Some((s, dims)) => {
                    // The core sizes are not Python names; one that a
                    // parameter or local also uses gets a suffix.
                    let taken: std::collections::HashSet<String> =
                        params.iter().map(|(n, _)| n.clone()).chain(crate::hir::local_names(&f.body)).collect();
                    core_dims =
                        dims.into_iter().map(|d| if taken.contains(&d) { format!("{d}.core") } else { d }).collect();
                    ufunc_sig = Some(s);
                }
                None => ok = false,
            }
        }
        if !ok {
            let m = &mut d.module;
            let params = params.into_iter().map(|(n, t)| (n, m.types.intern(t))).collect();
            let ret = ret.map(|t| m.types.intern(t));
            return Err(FuncDecl {
                name,
                stmt,
                params,
                maybe_none,
                defaults,
                array_defaults,
                core_dims: Vec::new(),
                ret,
                ret_maybe_none,
                attrs,
                ufunc_sig: None,
                doc: None,
                poisoned,
                ret_poisoned,
                ret_unannotated: f.returns.is_none(),
                keyword_only,
                positional_only,
                returns_view: false,
                unannotated: Vec::new(),
                weak_params: Vec::new(),
                ret_weak: false,
                result_groups: Vec::new(),
                result_optional: Vec::new(),
                dtype_params: dtype_params.clone(),
                result_lists: Vec::new(),
                unresolved: NoResult::default(),
            });
        }
        let doc = match f.body.first() {
            Some(Stmt::Expr(e)) => match &*e.value {
                Expr::StringLiteral(s) => Some(s.value.to_str().to_owned()),
                _ => None,
            },
            _ => None,
        };
        let m = &mut d.module;
        let params: Vec<(String, TypeId)> = params.into_iter().map(|(n, t)| (n, m.types.intern(t))).collect();
        let ret = ret.map(|t| m.types.intern(t));
        let ret_maybe_none = ret_maybe_none && ret.is_some();
        let decl = FuncDecl {
            name,
            stmt,
            params,
            maybe_none,
            defaults,
            array_defaults,
            core_dims,
            ret,
            ret_maybe_none,
            attrs,
            ufunc_sig,
            doc,
            poisoned,
            ret_poisoned,
            ret_unannotated: f.returns.is_none(),
            keyword_only,
            positional_only,
            returns_view: false,
            unannotated,
            weak_params: Vec::new(),
            ret_weak: false,
            result_groups: Vec::new(),
            result_optional: Vec::new(),
            dtype_params,
            result_lists: Vec::new(),
            unresolved: NoResult::default(),
        };
        // A generic function is declared by its instances.
        if !decl.unannotated.is_empty() {
            return Ok(decl);
        }
        // The declaration the loader and other modules see: the signature
        // with an empty body.
        let mut b = FunctionBuilder::new(&decl.name);
        decl.declare_ir_params(&mut b, &m.types);
        for c in &decl.core_dims {
            b.core_param(c, TypeId::INT64);
        }
        b.set_return(decl.ir_ret(&mut m.types));
        b.set_array_defaults(decl.array_defaults.clone());
        b.set_attrs(decl.attrs);
        b.set_ufunc_sig(decl.ufunc_sig.clone());
        b.set_doc(decl.doc.clone());
        b.set_func_loc(Some(self.src.loc(self.file, &f.name)));
        m.add_function(b.finish());
        Ok(decl)
    }

    fn ufunc_signature(
        &mut self,
        name: &str,
        sig: Option<&str>,
        params: &[(String, TypeData)],
        ret: Option<&TypeData>,
        at: ruff_text_size::TextRange,
    ) -> Option<(UFuncSignature, Vec<String>)> {
        let sig = match sig {
            Some(s) => match UFuncSignature::parse(s) {
                Ok(sig) => sig,
                Err(e) => {
                    self.diags.push(self.src.error(&at, format!("bad ufunc signature {s:?}: {}", e.message)));
                    return None;
                }
            },
            None => {
                if let Some((p, _)) = params.iter().find(|(_, t)| t.is_array) {
                    self.diags.push(self.src.error(
                        &at,
                        format!("elementwise ufunc `{name}` takes scalars, but `{p}` is an array: give a signature such as @ufunc(\"(n)->()\")"),
                    ));
                    return None;
                }
                if ret.is_none_or(|r| r.is_array) {
                    self.diags.push(self.src.error(&at, format!("elementwise ufunc `{name}` must return a scalar")));
                    return None;
                }
                UFuncSignature { inputs: vec![Vec::new(); params.len()], outputs: vec![Vec::new()] }
            }
        };
        let returns_scalar = ret.is_some_and(|r| !r.is_array);
        let operands = if returns_scalar { sig.inputs.len() } else { sig.inputs.len() + sig.outputs.len() };
        let single_scalar_out = sig.outputs.len() == 1 && sig.outputs[0].is_empty();
        if returns_scalar && !single_scalar_out {
            self.diags.push(
                self.src.error(&at, format!("ufunc `{name}` returns a value, so its signature has one output `()`")),
            );
            return None;
        }
        if ret.is_some_and(|r| r.is_array) {
            self.diags.push(
                self.src.error(
                    &at,
                    format!("ufunc `{name}` cannot return an array: its outputs are `Out[...]` parameters"),
                ),
            );
            return None;
        }
        if params.len() != operands {
            self.diags.push(self.src.error(
                &at,
                format!("ufunc `{name}` has {} parameters, but its signature has {operands} operands", params.len()),
            ));
            return None;
        }
        for (i, (pname, t)) in params.iter().enumerate() {
            let core = sig.operand(i).unwrap_or(&[]);
            let is_out = i >= sig.inputs.len();
            let nd = t.ndim().unwrap_or(0);
            let good = if core.is_empty() && !is_out { !t.is_array } else { t.is_array && nd == core.len() };
            if !good {
                self.diags.push(self.src.error(
                    &at,
                    format!(
                        "parameter `{pname}` of ufunc `{name}` must be {} for the operand `({})`",
                        if core.is_empty() && !is_out {
                            "a scalar".to_string()
                        } else {
                            format!("a {}-D array", core.len())
                        },
                        core.join(",")
                    ),
                ));
                return None;
            }
            if is_out != t.is_output {
                self.diags.push(self.src.error(
                    &at,
                    format!(
                        "parameter `{pname}` of ufunc `{name}` {}",
                        if is_out {
                            "is an output operand: mark it `Out[...]`"
                        } else {
                            "is an input operand and cannot be `Out[...]`"
                        }
                    ),
                ));
                return None;
            }
        }
        let dims = sig.core_dims().into_iter().map(str::to_owned).collect();
        Some((sig, dims))
    }
}

/// The keyword arguments of `@ufunc` that the `postc` package reads when
/// the module runs under Python (`@ufunc(parallel=True)`, `opt=3`): how
/// the package builds and registers the ufunc, nothing the compiled code
/// depends on, so the compiler accepts and ignores them.
const UFUNC_PACKAGE_OPTIONS: &[&str] =
    &["parallel", "opt", "boundscheck", "fastmath", "cache", "backend", "include", "verbose", "debug"];

/// The global a decorator expression names (`ufunc`, `postc.ufunc`).
fn global_of(g: &HashMap<String, Global>, e: &Expr) -> Option<Global> {
    match e {
        Expr::Name(n) => g.get(n.id.as_str()).cloned(),
        Expr::Attribute(a) => match &*a.value {
            Expr::Name(n) if matches!(g.get(n.id.as_str()), Some(Global::Namespace(Namespace::Postc))) => {
                Some(Global::Decorator(match a.attr.id.as_str() {
                    "ufunc" => Deco::Ufunc,
                    "gpu" => Deco::Gpu,
                    "kernel" => Deco::Kernel,
                    "cold" => Deco::Cold,
                    "noinline" => Deco::Noinline,
                    "jit" => Deco::Jit,
                    _ => return None,
                }))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The element annotations of `tuple[A, B]`, `Tuple[A, B]` or
/// `typing.Tuple[A, B]`; `None` for any other expression.
fn tuple_annotation(e: &Expr) -> Option<Vec<&Expr>> {
    let Expr::Subscript(s) = e else { return None };
    if !matches!(crate::syntax::dotted(&s.value).as_deref(), Some("tuple" | "Tuple" | "typing.Tuple")) {
        return None;
    }
    Some(match &*s.slice {
        Expr::Tuple(t) => t.elts.iter().collect(),
        one => vec![one],
    })
}

/// The `T` of `T | None`, `None | T`, `Optional[T]` or
/// `typing.Optional[T]`; `None` for any other expression.
pub(crate) fn maybe_none_inner(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::BinOp(b) if b.op == ast::Operator::BitOr => match (&*b.left, &*b.right) {
            (Expr::NoneLiteral(_), t) | (t, Expr::NoneLiteral(_)) => Some(t),
            _ => None,
        },
        Expr::Subscript(s)
            if matches!(crate::syntax::dotted(&s.value).as_deref(), Some("Optional" | "typing.Optional")) =>
        {
            Some(&s.slice)
        }
        _ => None,
    }
}

pub(crate) enum Annot {
    None,
    Type(TypeData),
    /// `T | None` (`Optional[T]`) of a scalar `T` that is Bool, an integer
    /// or a float, of an array with extents known when called, or of a
    /// tuple of such scalars (a parameter's only).
    MaybeNone(TypeData),
}

enum TypeName {
    DType(DType),
    Out,
}

fn is_all(targets: &[Expr]) -> bool {
    matches!(targets, [Expr::Name(n)] if n.id.as_str() == "__all__")
}

/// `if __name__ == "__main__":`, code for CPython only.
fn is_main_guard(test: &Expr) -> bool {
    match test {
        Expr::Compare(c) => {
            matches!(&*c.left, Expr::Name(n) if n.id.as_str() == "__name__")
                && c.ops.len() == 1
                && matches!(c.ops[0], ast::CmpOp::Eq)
                && matches!(&c.comparators[0], Expr::StringLiteral(s) if s.value.to_str() == "__main__")
        }
        _ => false,
    }
}

/// The message for an annotation naming no type: a dtype of `postyp` that
/// the module did not import says how to import it.
pub(crate) fn unknown_type(name: &str) -> String {
    match DType::from_name(name) {
        Some(_) if !name.contains('.') => {
            format!("unknown type `{name}`: it is not imported (`from postyp import {name}`)")
        }
        _ => format!("unknown type `{name}`"),
    }
}

/// Each `p.f` the functions of a module read, where `p` is the dotted
/// name of one of `modules` (`(p, module)`), with where `f` is written;
/// the first read of each, in source order.
fn module_member_reads(stmts: &[Stmt], modules: &[(String, String)]) -> Vec<(String, ruff_text_size::TextRange)> {
    use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
    struct Reads<'m> {
        modules: &'m [(String, String)],
        found: Vec<(String, ruff_text_size::TextRange)>,
    }
    impl<'a> Visitor<'a> for Reads<'_> {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            crate::syntax::deep(|| walk_stmt(self, s));
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Attribute(a) = e {
                if let Some(base) = crate::syntax::dotted(&a.value) {
                    if self.modules.iter().any(|(p, _)| *p == base) {
                        self.found.push((format!("{base}.{}", a.attr.id), a.attr.range));
                        return;
                    }
                }
            }
            crate::syntax::deep(|| walk_expr(self, e));
        }
    }
    let mut reads = Reads { modules, found: Vec::new() };
    for s in stmts {
        if let Stmt::FunctionDef(f) = s {
            for s in &f.body {
                reads.visit_stmt(s);
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    reads.found.retain(|(n, _)| seen.insert(n.clone()));
    reads.found
}
