//! postc-frontend: POST Python, type-annotated Python over scalars and
//! NumPy arrays, parsed with ruff's Python parser, type-checked and
//! lowered to one POST IR [`Module`] per file.
//!
//! The frontend plugs into the IR's module loader as a
//! [`SourceFrontend`]: `.py` files are declared while imports are resolved
//! (their signatures are then known to every module of the program) and
//! their bodies lowered once the whole program is loaded, so `.py` and
//! `.pir` modules import each other freely.

mod declare;
mod generics;
mod hir;
mod lower;
mod pytypes;
mod source;
mod syntax;
mod typeck;

use declare::{Declared, Declarer, Global, NoResult};
use lower::ModuleCx;
use postc_ir::resolve::{Loader, SourceFrontend};
use postc_ir::{Diagnostic, FileId, Module, ModuleId, Program};
use ruff_python_ast::{ModModule, Stmt};
use ruff_python_parser::{parse_unchecked, Mode, ParseOptions, Parsed};
use ruff_text_size::Ranged;
use source::SourceFile;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The file extension of POST Python sources.
pub const EXTENSION: &str = "py";

/// A parsed syntax tree. Dropping a tree the ordinary way recurses as deep
/// as the tree (a sum of 100,000 terms is 100,000 levels), on whatever
/// stack the caller has; so a tree is taken apart bottom-up first
/// ([`Dismantle`]), each level on a stack that grows on the heap, and what
/// is finally dropped has no nesting.
struct Tree {
    parsed: Option<Parsed<ModModule>>,
}

impl Tree {
    fn parse(text: &str) -> Tree {
        let parsed = parse_unchecked(text, ParseOptions::from(Mode::Module)).try_into_module();
        Tree { parsed }
    }

    fn body(&self) -> &[Stmt] {
        self.parsed.as_ref().map_or(&[], |p| &p.syntax().body)
    }

    fn errors(&self) -> &[ruff_python_parser::ParseError] {
        self.parsed.as_ref().map_or(&[], |p| p.errors())
    }

    /// The ranges of the names that are not ASCII (they have no spelling
    /// in the IR's text).
    fn non_ascii_names<'t>(&'t self, text: &'t str) -> impl Iterator<Item = ruff_text_size::TextRange> + 't {
        let tokens = self.parsed.as_ref().map(|p| p.tokens().iter()).into_iter().flatten();
        tokens
            .filter(|t| t.kind() == ruff_python_ast::token::TokenKind::Name)
            .map(|t| t.range())
            .filter(move |r| !text[r.start().to_usize()..r.end().to_usize()].is_ascii())
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let Some(parsed) = self.parsed.take() else { return };
        let mut module = parsed.into_syntax();
        use ruff_python_ast::visitor::transformer::Transformer;
        Dismantle.visit_body(&mut module.body);
    }
}

/// Replaces every expression, statement and pattern of a tree by a leaf,
/// children first, so that each node is dropped once its children already
/// are leaves: the drop of any node is shallow. The walk recurses through
/// [`syntax::deep`], which grows the stack on the heap.
struct Dismantle;

impl ruff_python_ast::visitor::transformer::Transformer for Dismantle {
    fn visit_stmt(&self, stmt: &mut Stmt) {
        use ruff_python_ast::visitor::transformer::walk_stmt;
        syntax::deep(|| walk_stmt(self, stmt));
        *stmt = Stmt::Pass(ruff_python_ast::StmtPass { node_index: Default::default(), range: stmt.range() });
    }

    fn visit_expr(&self, expr: &mut ruff_python_ast::Expr) {
        use ruff_python_ast::visitor::transformer::walk_expr;
        syntax::deep(|| walk_expr(self, expr));
        *expr = ruff_python_ast::Expr::NoneLiteral(ruff_python_ast::ExprNoneLiteral::default());
    }

    fn visit_pattern(&self, pattern: &mut ruff_python_ast::Pattern) {
        use ruff_python_ast::visitor::transformer::walk_pattern;
        syntax::deep(|| walk_pattern(self, pattern));
        *pattern = ruff_python_ast::Pattern::MatchAs(ruff_python_ast::PatternMatchAs {
            node_index: Default::default(),
            range: Default::default(),
            pattern: None,
            name: None,
        });
    }
}

/// A declared file, waiting for its bodies to be lowered.
struct Unit {
    src: SourceFile,
    file: FileId,
    parsed: Tree,
    globals: HashMap<String, Global>,
    funcs: Vec<declare::FuncDecl>,
    broken: Vec<declare::FuncDecl>,
    generics: Vec<declare::FuncDecl>,
    /// Errors of the module level, reported with those of the bodies so
    /// that a file's errors come all at once.
    declared_errors: Vec<Diagnostic>,
}

/// The POST Python frontend, installed in a [`Loader`].
pub struct PyFrontend {
    include_dirs: Vec<PathBuf>,
    /// Modules named on the command line, by name.
    named: HashSet<String>,
    units: HashMap<String, Unit>,
    /// Every declared module's default values, kept after its unit is
    /// defined: the modules importing it call with them.
    defaults: lower::DefaultsByModule,
    /// Where the final lowering records what it lowers untyped (see
    /// [`untyped_in_final_lowering`]).
    untyped_sink: Option<std::rc::Rc<std::cell::RefCell<Vec<String>>>>,
}

impl PyFrontend {
    /// A frontend for a program whose files are `files`, with `-I`
    /// directories `include_dirs`: an import is a POST module when one of
    /// them is that module or its file lies beside the importer or under an
    /// include directory; any other import is a CPython module.
    pub fn new(files: &[PathBuf], include_dirs: Vec<PathBuf>) -> PyFrontend {
        let named = files.iter().filter_map(|f| module_name_of(f)).collect();
        PyFrontend { include_dirs, named, units: HashMap::new(), defaults: HashMap::new(), untyped_sink: None }
    }

    fn is_post_module(&self, importer: &Path, name: &str) -> bool {
        if self.named.contains(name) {
            return true;
        }
        let pir = Loader::module_file(name);
        let py = pir.with_extension(EXTENSION);
        let beside = importer.parent().map(Path::to_path_buf).unwrap_or_default();
        std::iter::once(&beside).chain(&self.include_dirs).any(|d| d.join(&py).is_file() || d.join(&pir).is_file())
    }
}

/// The module name of a file named on the command line: its stem, made an
/// identifier when it is not one (`-`, `.` and other characters become
/// `_`, a leading digit gets `_`), so that source held in memory under an
/// interpreter's pseudo-file name (`<ipython-input-3-…>`, a Jupyter cell's
/// `/tmp/ipykernel_7/231.py`) is a module another can import.
fn module_name_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    if path.extension().and_then(|e| e.to_str()) == Some("pir") {
        // A `.pir` file names its module inside; the loader reads it.
        return None;
    }
    let stem = name.strip_suffix(".py").unwrap_or(name);
    let identifier = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if identifier(stem) {
        return Some(stem.to_owned());
    }
    let m: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let m = m.trim_matches('_');
    Some(if identifier(m) { m.to_owned() } else { format!("_{m}") })
}

impl SourceFrontend for PyFrontend {
    fn extension(&self) -> &'static str {
        EXTENSION
    }

    fn declare(&mut self, path: &str, text: &str, imported_as: Option<&str>) -> Result<Module, Vec<Diagnostic>> {
        let src = SourceFile::new(path, text);
        let parsed = Tree::parse(text);
        if !parsed.errors().is_empty() {
            let diags = parsed
                .errors()
                .iter()
                .take(postc_ir::diag::MAX_ERRORS)
                .map(|e| Diagnostic::error(format!("syntax error: {}", e.error), Some(src.pos(e.location))))
                .collect();
            return Err(diags);
        }
        let bad_names: Vec<Diagnostic> = parsed
            .non_ascii_names(text)
            .take(postc_ir::diag::MAX_ERRORS)
            .map(|r| {
                let name = &text[r.start().to_usize()..r.end().to_usize()];
                Diagnostic::error(
                    format!("the name `{name}` is not ASCII: POST names are ASCII letters, digits and `_`"),
                    Some(src.pos(r)),
                )
            })
            .collect();
        if !bad_names.is_empty() {
            return Err(bad_names);
        }
        let name = match imported_as {
            Some(n) => n.to_owned(),
            None => module_name_of(Path::new(path)).unwrap_or_else(|| "main".into()),
        };
        let importer = PathBuf::from(path);
        let is_post = |m: &str| self.is_post_module(&importer, m);
        let mut file_table = postc_ir::FileTable::default();
        let file = file_table.intern(path);
        let mut d = Declarer::new(&src, file, &is_post);
        let stmts: &[Stmt] = parsed.body();
        let Declared { module, globals, funcs, broken, generics } = d.declare(&name, stmts);
        let mut declared_errors = d.diags;
        declared_errors.truncate(postc_ir::diag::MAX_ERRORS);
        let with_defaults = funcs.iter().filter(|f| !f.defaults.is_empty());
        self.defaults.insert(name.clone(), with_defaults.map(|f| (f.name.clone(), f.defaults.clone())).collect());
        self.units.insert(name, Unit { src, file, parsed, globals, funcs, broken, generics, declared_errors });
        Ok(module)
    }

    fn take_declared_errors(&mut self, module: &Module) -> Vec<Diagnostic> {
        self.units.get_mut(&module.name).map(|u| std::mem::take(&mut u.declared_errors)).unwrap_or_default()
    }

    fn define(&mut self, program: &mut Program, id: ModuleId) -> Result<(), Vec<Diagnostic>> {
        let name = program.modules[id].name.clone();
        let Some(mut unit) = self.units.remove(&name) else { return Ok(()) };
        // The module is taken out while its bodies are lowered against the
        // rest of the program.
        let mut module = std::mem::replace(&mut program.modules[id], Module::new(""));
        let mut diags = std::mem::take(&mut unit.declared_errors);
        check_post_imports(program, &module, &unit, &mut diags);
        let stmts: &[Stmt] = unit.parsed.body();
        // The module's calls see the declarations with every tuple result
        // that the typecheck of its function finds first; each function is
        // still lowered against its own declaration (`own`: the module's,
        // then the instances of its generic functions).
        let mut own = unit.funcs.clone();
        let mut funcs = unit.funcs.clone();
        let decls = std::mem::take(&mut unit.generics);
        let returns_value = decls.iter().map(|d| returns_a_value(&stmts[d.stmt])).collect();
        let generics = generics::Generics { decls, returns_value, ..Default::default() };
        // What lowering a body of this module sees, but the functions'
        // declarations, which the rounds below complete.
        let base = ModuleCx {
            src: &unit.src,
            file: unit.file,
            globals: &unit.globals,
            funcs: &[],
            program,
            post_imports: &module.post_imports,
            intrinsics: &module.intrinsic_imports,
            imported_defaults: &self.defaults,
            may_prange: lower::module_may_prange(&unit.globals),
            generics: &generics,
            untyped_sink: None,
        };
        loop {
            let unannotated: Vec<usize> = (0..own.len())
                .filter(|&i| {
                    let d = &own[i];
                    d.ret.is_none() && d.ret_unannotated && !d.ret_poisoned && returns_a_value(&stmts[d.stmt])
                })
                .collect();
            // A round types the functions whose result is still unknown; a
            // result found lets the next round type their callers. A result
            // that needs itself (recursion, directly or through others) is
            // never found, and the calls that need it stay errors.
            loop {
                let mut found = false;
                for &i in &unannotated {
                    if funcs[i].ret.is_some() {
                        continue;
                    }
                    let Stmt::FunctionDef(def) = &stmts[own[i].stmt] else { continue };
                    let cx = ModuleCx { funcs: &funcs, ..base };
                    // What the `return`s give (a Python number staying one
                    // for the module's callers); a function whose result
                    // is not a tuple is then lowered as if annotated so.
                    // The functions whose result is still unknown, by the
                    // name their calls give (a generic function's for its
                    // instances).
                    let unknown = |name: &str| {
                        unannotated
                            .iter()
                            .any(|&j| funcs[j].ret.is_none() && own[j].name.split('$').next() == Some(name))
                    };
                    let r = lower::inferred_result(&cx, &mut module.types, &own[i], def, &unknown);
                    let Some(r) = r else { continue };
                    funcs[i].ret = Some(r.ret);
                    funcs[i].ret_weak = r.weak;
                    funcs[i].result_groups = r.groups;
                    funcs[i].result_optional = r.optional;
                    funcs[i].result_lists = r.lists.clone();
                    if !module.types.get(r.ret).is_tuple() {
                        own[i].ret = Some(r.ret);
                        own[i].ret_weak = r.weak;
                        own[i].result_lists = r.lists;
                    }
                    found = true;
                }
                if !found {
                    break;
                }
            }
            if generics.decls.is_empty() {
                break;
            }
            // Every body typed once more tells which instances of the
            // generic functions its calls name (see `generics`); those made
            // now may name others, and have results to find.
            let cx = ModuleCx { funcs: &funcs, ..base };
            for decl in &own {
                if let Stmt::FunctionDef(def) = &stmts[decl.stmt] {
                    lower::request_instances(&cx, &mut module.types, decl, def);
                }
            }
            let requests = generics.instances.borrow_mut().take_requests();
            if requests.is_empty() {
                break;
            }
            for (g, sig) in requests {
                let k = generics.instances.borrow().count(g) + 1;
                let decl = generics::instance_decl(&generics.decls[g], k, &sig, &mut module.types);
                generics.instances.borrow_mut().made(g, sig, own.len());
                funcs.push(decl.clone());
                own.push(decl);
            }
        }
        // Why each function whose result no round found has none, for
        // its calls (see `declare::NoResult`): one that needs its own
        // result, calling itself directly or through others of them, is
        // pending; another is broken when its body has errors (a call of
        // a pending one among them), and otherwise returns nothing.
        let unresolved: Vec<usize> = (0..own.len())
            .filter(|&i| {
                let d = &own[i];
                funcs[i].ret.is_none() && d.ret_unannotated && !d.ret_poisoned && returns_a_value(&stmts[d.stmt])
            })
            .collect();
        let calls: Vec<HashSet<String>> = (unresolved.iter())
            .map(|&i| match &stmts[own[i].stmt] {
                Stmt::FunctionDef(def) => lower::called_functions(&ModuleCx { funcs: &funcs, ..base }, &own[i], def),
                _ => HashSet::new(),
            })
            .collect();
        let generic_name = |i: usize| own[i].name.split('$').next().unwrap_or_default().to_owned();
        let names: Vec<String> = unresolved.iter().map(|&i| generic_name(i)).collect();
        for (k, &i) in unresolved.iter().enumerate() {
            // Whether a chain of calls among them comes back to it.
            let (mut seen, mut pending) = (HashSet::new(), vec![k]);
            let mut cycle = false;
            while let Some(j) = pending.pop() {
                for (m, name) in names.iter().enumerate() {
                    if calls[j].contains(name) {
                        cycle |= m == k;
                        if seen.insert(m) {
                            pending.push(m);
                        }
                    }
                }
            }
            if cycle {
                own[i].unresolved = NoResult::Pending;
                funcs[i].unresolved = NoResult::Pending;
            }
        }
        for &i in &unresolved {
            let Stmt::FunctionDef(def) = &stmts[own[i].stmt] else { continue };
            if own[i].unresolved == NoResult::Pending {
                continue;
            }
            let cx = ModuleCx { funcs: &funcs, ..base };
            if lower::check_function(&cx, &module.types, &own[i], def).is_err() {
                own[i].unresolved = NoResult::Broken;
                funcs[i].unresolved = NoResult::Broken;
            }
        }
        // A generic function no call names is given no types: its
        // parameters need annotations; its body is checked with them
        // unknown, as a function's whose signature has errors.
        let mut uncalled = Vec::new();
        for (g, generic) in generics.decls.iter().enumerate() {
            if generics.instances.borrow().is_called(g) {
                continue;
            }
            let Stmt::FunctionDef(def) = &stmts[generic.stmt] else { continue };
            let params =
                def.parameters.posonlyargs.iter().chain(&def.parameters.args).chain(&def.parameters.kwonlyargs);
            let mut broken = generic.clone();
            for (p, _) in params.zip(&generic.unannotated).filter(|(_, u)| **u) {
                let name = p.parameter.name.id.as_str();
                diags.push(unit.src.error(&p.parameter, format!("parameter `{name}` needs a type annotation")));
                broken.poisoned.push(name.to_owned());
            }
            uncalled.push(broken);
        }
        lower::read_only::mark_returned_views(&base, &mut funcs, stmts, &module.types);
        let cx = ModuleCx { funcs: &funcs, untyped_sink: self.untyped_sink.as_deref(), ..base };
        // Every body is typechecked, and lowered (reading its types) while
        // the module has no error at all: the lowering meets only bodies
        // the typecheck accepted, in a module whose declarations and
        // bodies before have none, and whose every call of a function
        // with errors of its own (`calls_broken`) is not lowered. A module
        // with an error keeps no body lowered.
        let mut bodies = Vec::new();
        let mut math_imports = std::collections::BTreeSet::new();
        let mut unlowered = false;
        for decl in &own {
            if diags.len() >= postc_ir::diag::MAX_ERRORS {
                break;
            }
            let Stmt::FunctionDef(def) = &stmts[decl.stmt] else { continue };
            match lower::check_function(&cx, &module.types, decl, def) {
                Ok(c) if diags.is_empty() && !c.leans_on_errors() => {
                    match lower::lower_function(&cx, &mut module.types, decl, def, c) {
                        Ok((f, math)) => {
                            bodies.push(f);
                            math_imports.extend(math);
                        }
                        Err(d) => diags.extend(d),
                    }
                }
                Ok(_) => unlowered = true,
                Err(d) => diags.extend(d),
            }
        }
        // The bodies of functions with bad signatures, for their errors.
        for decl in unit.broken.iter().chain(&uncalled) {
            let Stmt::FunctionDef(def) = &stmts[decl.stmt] else { continue };
            if let Err(d) = lower::check_function(&cx, &module.types, decl, def) {
                diags.extend(d);
            }
        }
        if unlowered && diags.is_empty() {
            let msg = "internal error: a body calling a function with errors was not lowered, and no error is reported";
            diags.push(unit.src.error(&ruff_text_size::TextRange::default(), msg));
        }
        // `postc.math.f(...)` calls name their intrinsic `math.f`.
        for sym in math_imports {
            module.intrinsic_imports.entry(format!("math.{sym}")).or_insert(sym);
        }
        // An error in a generic function's body is its instances'.
        let mut seen = HashSet::new();
        diags.retain(|d| seen.insert(d.to_string()));
        if diags.is_empty() {
            let declared = module.functions.len();
            let mut bodies = bodies.into_iter();
            for (slot, f) in module.functions.iter_mut().zip(bodies.by_ref().take(declared)) {
                *slot = f;
            }
            // The instances, private to the module: with them, the
            // functions it exports are named.
            let mut instances = bodies.peekable();
            if instances.peek().is_some() && module.export_all.is_none() {
                let names = unit.funcs.iter().map(|f| f.name.clone()).chain(module.function_aliases.keys().cloned());
                module.export_all = Some(names.collect());
            }
            for f in instances {
                module.add_function(f);
            }
            intrinsic_alias_wrappers(&mut module);
            lower::pairwise::add_helpers(&mut module);
        }
        program.modules[id] = module;
        if diags.is_empty() {
            Ok(())
        } else {
            diags.truncate(postc_ir::diag::MAX_ERRORS);
            Err(diags)
        }
    }
}

/// Whether a function definition has a `return` with a value (outside
/// the functions and classes nested in it): one that may return a tuple
/// without declaring it.
fn returns_a_value(stmt: &Stmt) -> bool {
    fn any(body: &[Stmt]) -> bool {
        body.iter().any(|s| match s {
            Stmt::Return(r) => r.value.is_some(),
            Stmt::If(i) => any(&i.body) || i.elif_else_clauses.iter().any(|c| any(&c.body)),
            Stmt::For(f) => any(&f.body) || any(&f.orelse),
            Stmt::While(w) => any(&w.body) || any(&w.orelse),
            Stmt::With(w) => any(&w.body),
            Stmt::Try(t) => {
                any(&t.body)
                    || any(&t.orelse)
                    || any(&t.finalbody)
                    || t.handlers.iter().any(|h| match h {
                        ruff_python_ast::ExceptHandler::ExceptHandler(h) => any(&h.body),
                    })
            }
            Stmt::Match(m) => m.cases.iter().any(|c| any(&c.body)),
            _ => false,
        })
    }
    matches!(stmt, Stmt::FunctionDef(def) if any(&def.body))
}

/// An alias of a `postc.math` function (`gammaln = lgamma`) becomes a
/// function of the module calling it, so that it is exported and called
/// like any other (an IR alias names a function of the module).
fn intrinsic_alias_wrappers(module: &mut Module) {
    let aliases: Vec<(String, String)> = module
        .function_aliases
        .iter()
        .filter(|(_, t)| module.intrinsic_imports.contains_key(*t))
        .map(|(a, t)| (a.clone(), t.clone()))
        .collect();
    for (alias, target) in aliases {
        let symbol = &module.intrinsic_imports[&target];
        let arity = if postc_ir::interp::is_binary_intrinsic(symbol) { 2 } else { 1 };
        let f64t = postc_ir::TypeId::FLOAT64;
        let mut b = postc_ir::FunctionBuilder::new(&alias);
        let params: Vec<_> = ["x", "y"][..arity].iter().map(|n| b.param(n, f64t)).collect();
        b.set_return(Some(f64t));
        let loc = module.decl_locs.aliases.get(&alias).copied();
        b.set_func_loc(loc);
        b.set_loc(loc);
        let entry = b.create_block("entry");
        b.switch_to(entry);
        let r = b.call(&target, &params, Some(f64t), "r");
        b.ret(Some(r));
        module.function_aliases.shift_remove(&alias);
        module.decl_locs.aliases.remove(&alias);
        module.add_function(b.finish());
    }
}

/// Each `from m import f` must name a function (or alias) of `m`.
fn check_post_imports(program: &Program, module: &Module, unit: &Unit, diags: &mut Vec<Diagnostic>) {
    for (local, imp) in &module.post_imports {
        let Some(m) = program.modules.iter().find(|m| m.name == imp.module_name) else { continue };
        let found =
            m.functions.iter().any(|f| f.name == imp.source_name) || m.function_aliases.contains_key(&imp.source_name);
        if !found {
            let at = module
                .decl_locs
                .imports
                .get(local)
                .map(|l| postc_ir::Pos::new(&unit.src.path, l.line, l.col, imp.source_name.len() as u32));
            diags.push(Diagnostic::error(
                format!("module `{}` has no function `{}`", imp.module_name, imp.source_name),
                at,
            ));
        }
    }
}

/// A loader that reads `.pir` and POST Python files alike.
pub fn loader(files: &[PathBuf], include_dirs: Vec<PathBuf>) -> Loader {
    Loader::with_include_dirs(include_dirs.clone()).with_frontend(Box::new(PyFrontend::new(files, include_dirs)))
}

/// Lowers one POST Python source (and the modules it imports, found beside
/// `path`) to a program; for tests and tools.
pub fn lower_files(
    files: &[PathBuf],
    include_dirs: Vec<PathBuf>,
) -> Result<Program, (postc_ir::SourceMap, Vec<Diagnostic>)> {
    let mut l = loader(files, include_dirs);
    match l.load(files) {
        Ok(p) => Ok(p),
        Err(d) => Err((std::mem::take(&mut l.sources), d)),
    }
}

/// The expressions that the final lowering of `files` (the one that
/// compiles each function, every function's result known) lowers without
/// a type from the typecheck, in the functions it lowers without an error,
/// as `path:line:col: construct in `function``; the literal `None` aside,
/// which no type describes. For tests: while this is empty for a valid
/// program, the final lowering of it runs none of its checks of values the
/// typecheck leaves untyped (the earlier rounds, whose errors are dropped,
/// lower calls of functions whose results are not found yet).
pub fn untyped_in_final_lowering(files: &[PathBuf], include_dirs: Vec<PathBuf>) -> Vec<String> {
    let sink = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let mut frontend = PyFrontend::new(files, include_dirs.clone());
    frontend.untyped_sink = Some(sink.clone());
    let mut l = Loader::with_include_dirs(include_dirs).with_frontend(Box::new(frontend));
    let _ = l.load(files);
    drop(l);
    sink.take()
}

/// Lowers one POST Python source held in memory (its POST imports are
/// looked for beside `path`); for the fuzzer and tools that have no files.
pub fn lower_source(path: &str, text: &str) -> Result<Program, Vec<Diagnostic>> {
    let mut f = PyFrontend::new(&[PathBuf::from(path)], Vec::new());
    let module = f.declare(path, text, None)?;
    let mut program = Program::from_module(module);
    let missing = program.link_dependencies();
    if let Some((_, dep)) = missing.first() {
        return Err(vec![Diagnostic::error(format!("cannot find module `{dep}`"), None)]);
    }
    f.define(&mut program, ModuleId::from_u32(0))?;
    Ok(program)
}
