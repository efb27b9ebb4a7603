//! The verifier: structure, SSA dominance, types, calls, ufunc signatures
//! and module-level declarations.
//!
//! Every check is driven from the opcode table's [`Format`]: the raw payload
//! of an instruction is range-checked first (payload slots of a hand-edited
//! body may hold any `u32`), and only then decoded through [`Body::inst`].
//! Nothing allocates or formats per instruction except when an error is
//! reported; the CFG and dominator tree are computed once per function into
//! reused buffers, and callees resolve through one hash map per module.
//!
//! Messages read `error: <message>`, located at the offending instruction
//! (its explicit or implicit location), else at the function, else at the
//! module declaration. Names are in backticks, values as `%name`, types as
//! the text format prints them.

use crate::body::{Body, Field, InstData, Literal, ValueId, NO_VALUE};
use crate::cfg::{Cfg, DomTree};
use crate::diag::{Diagnostic, Pos, MAX_ERRORS};
use crate::dtype::DType;
use crate::entity::EntityId;
use crate::loc::{FileTable, SrcLoc};
use crate::module::{FuncAttrs, FuncId, Function, ImportedName, Module, ModuleId, Program};
use crate::opcode::{Format, Opcode};
use crate::types::{Shape, TypeData, TypeId, TypeTable};
use crate::BlockId;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

mod callees;
mod fast;
mod names;
mod raw;
mod rules;
mod types;

pub use callees::ProgramIndex;
use callees::*;
use fast::*;
use names::*;
use rules::*;

/// Verifies a module on its own: calls through post imports are checked by
/// [`verify_program`]. Returns at most [`MAX_ERRORS`] diagnostics.
pub fn verify_module(m: &Module) -> Vec<Diagnostic> {
    Verifier::new(m).verify_module()
}

/// Verifies one function of a module (as the pass manager does after each
/// pass). Returns at most [`MAX_ERRORS`] diagnostics.
pub fn verify_function(m: &Module, f: FuncId) -> Vec<Diagnostic> {
    Verifier::new(m).verify_function(f)
}

/// Verifies a function held apart from its module, as function passes hold
/// it: `types` and `files` are its module's. Calls are not checked (their
/// callees need the module). Returns at most [`MAX_ERRORS`] diagnostics.
pub fn verify_function_in(types: &TypeTable, files: &FileTable, f: &Function) -> Vec<Diagnostic> {
    Verifier::detached(types, files).verify(f)
}

/// Verifies every module of a program, plus what crosses modules: each
/// post import names a function or alias of a module of the program, and
/// calls through it match the callee's signature. At most [`MAX_ERRORS`]
/// diagnostics per module.
pub fn verify_program(p: &Program) -> Vec<Diagnostic> {
    let index = ProgramIndex::new(p);
    let mut out = Vec::new();
    for m in p.modules.iter() {
        let mut v = Verifier::with_program(m, &index);
        out.extend(v.verify_module());
    }
    out
}

// ---------------------------------------------------------------------------
// The verifier.

/// A verifier for the functions of one module: it resolves callees once
/// and reuses its CFG, dominator tree and scratch buffers across functions,
/// so a pass manager can keep one per module and per thread.
pub struct Verifier<'p> {
    /// The module, when the verifier was made for one (else calls are not
    /// resolved).
    m: Option<&'p Module>,
    types: &'p TypeTable,
    files: &'p FileTable,
    module_loc: Option<SrcLoc>,
    funcs: FxMap<&'p str, FuncId>,
    callees: FxMap<&'p [u8], Callee<'p>>,
    /// Module-level errors of declarations (aliases, post imports), found
    /// while resolving names.
    decl_errors: Vec<Diagnostic>,
    cfg: Cfg,
    dom: DomTree,
    names: NameSet,
    diags: Vec<Diagnostic>,
    /// What the fast path needs of each type of the table, by id.
    tinfo: Vec<TInfo>,
    /// Per instruction of the current function: what the fast path reads
    /// of it as an operand.
    defs: Vec<Def>,
    /// Whether the fast path runs before the full checks (off: every
    /// instruction goes through the full checks, for differential tests).
    fast_path: bool,
    /// Bytes of block-shared arrays the current function declares so far.
    shared_bytes: u64,
}

/// An instruction as an operand: its result type id when it is a usable
/// operand (a result type of the table on an instruction that may have a
/// result), else `NONE`; and its block (`NONE` outside every block).
#[derive(Clone, Copy)]
struct Def {
    ty: u32,
    blk: u32,
    /// The dominator-tree pre-order range of the block (`NONE` when
    /// unreachable or outside every block): the definition's block
    /// dominates a block iff that block's pre-order number lies in it.
    lo: u32,
    hi: u32,
}

/// The state of the function being checked.
#[derive(Clone, Copy)]
struct Fx<'p> {
    f: &'p Function,
    body: &'p Body,
    n: usize,
    np: usize,
    /// Whether the block ranges are sound, so the CFG and dominance exist.
    structured: bool,
}

impl<'p> Verifier<'p> {
    /// A verifier of `m` alone: calls through post imports are not checked.
    pub fn new(m: &'p Module) -> Verifier<'p> {
        Verifier::build(m, None)
    }

    /// A verifier of `m` as part of a program: post imports resolve.
    pub fn with_program(m: &'p Module, index: &ProgramIndex<'p>) -> Verifier<'p> {
        Verifier::build(m, Some(index))
    }

    fn build(m: &'p Module, prog: Option<&ProgramIndex<'p>>) -> Verifier<'p> {
        let funcs = function_map(m);
        let mut callees = FxMap::default();
        let mut decl_errors = Vec::new();
        let decl = |map: &std::collections::HashMap<String, SrcLoc>, name: &str| {
            map.get(name)
                .map(|l| Pos::from_loc(&m.files, *l))
                .or_else(|| m.decl_locs.module.map(|l| Pos::from_loc(&m.files, l)))
        };
        let names = m
            .functions
            .iter()
            .map(|f| f.name.as_str())
            .chain(m.function_aliases.keys().map(String::as_str))
            .chain(m.intrinsic_imports.keys().map(String::as_str))
            .chain(m.boundary_imports.keys().map(String::as_str))
            .chain(m.post_imports.keys().map(String::as_str));
        for name in names {
            if callees.contains_key(name.as_bytes()) {
                continue;
            }
            let callee = match resolve(m, &funcs, name, prog, 0) {
                Resolved::Callee(c) => c,
                Resolved::Unknown => {
                    // Only an alias can lead to an undeclared name.
                    if let Some(t) = m.function_aliases.get(name) {
                        decl_errors.push(Diagnostic::error(
                            format!("alias `{name}` refers to unknown name `{t}`"),
                            decl(&m.decl_locs.aliases, name),
                        ));
                    }
                    Callee::Broken
                }
                Resolved::Cycle => {
                    if m.function_aliases.contains_key(name) {
                        decl_errors.push(Diagnostic::error(
                            format!("alias `{name}` is part of a cycle"),
                            decl(&m.decl_locs.aliases, name),
                        ));
                    } else {
                        decl_errors.push(Diagnostic::error(
                            format!("post import `{name}` is part of a cycle"),
                            decl(&m.decl_locs.imports, name),
                        ));
                    }
                    Callee::Broken
                }
                Resolved::BadImport => {
                    let imp = m.function_aliases.get(name).and_then(|t| m.post_imports.get(t));
                    if let Some(imp) = m.post_imports.get(name).or(imp) {
                        if !m.function_aliases.contains_key(name) {
                            let msg = match prog.and_then(|p| p.modules.get(imp.module_name.as_str())) {
                                None => format!(
                                    "post import `{}`: module `{}` is not part of the program",
                                    imp.local_name, imp.module_name
                                ),
                                Some(_) => format!(
                                    "post import `{}`: module `{}` has no function or alias `{}`",
                                    imp.local_name, imp.module_name, imp.source_name
                                ),
                            };
                            decl_errors.push(Diagnostic::error(msg, decl(&m.decl_locs.imports, name)));
                        }
                    }
                    Callee::Broken
                }
            };
            callees.insert(name.as_bytes(), callee);
        }
        let types = &m.types;
        Verifier {
            m: Some(m),
            types: &m.types,
            files: &m.files,
            module_loc: m.decl_locs.module,
            funcs,
            callees,
            decl_errors,
            cfg: Cfg::new(),
            dom: DomTree::new(),
            names: NameSet::default(),
            diags: Vec::new(),
            tinfo: type_infos(types),
            defs: Vec::new(),
            shared_bytes: 0,
            fast_path: true,
        }
    }

    /// A verifier of functions detached from their module (as function
    /// passes hold them): everything but calls is checked, since callees
    /// cannot be resolved without the module.
    pub fn detached(types: &'p TypeTable, files: &'p FileTable) -> Verifier<'p> {
        Verifier {
            m: None,
            types,
            files,
            module_loc: None,
            funcs: FxMap::default(),
            callees: FxMap::default(),
            decl_errors: Vec::new(),
            cfg: Cfg::new(),
            dom: DomTree::new(),
            names: NameSet::default(),
            diags: Vec::new(),
            tinfo: type_infos(types),
            defs: Vec::new(),
            shared_bytes: 0,
            fast_path: true,
        }
    }

    /// Verifies the whole module: declarations, then every function.
    /// The same verifier with every instruction checked by the full checks
    /// alone; its diagnostics must be exactly those of the fast path.
    pub fn without_fast_path(mut self) -> Verifier<'p> {
        self.fast_path = false;
        self
    }

    pub fn verify_module(&mut self) -> Vec<Diagnostic> {
        self.diags.clear();
        if let Some(m) = self.m {
            self.check_module_decls(m);
            for f in m.functions.iter() {
                if self.full() {
                    break;
                }
                self.check_function(f);
            }
        }
        std::mem::take(&mut self.diags)
    }

    /// Verifies one function of the module.
    pub fn verify_function(&mut self, f: FuncId) -> Vec<Diagnostic> {
        self.diags.clear();
        if let Some(func) = self.m.and_then(|m| m.functions.get(f)) {
            self.check_function(func);
        }
        std::mem::take(&mut self.diags)
    }

    /// Verifies the module's declarations only (exports, aliases, imports).
    pub fn verify_module_decls(&mut self) -> Vec<Diagnostic> {
        self.diags.clear();
        if let Some(m) = self.m {
            self.check_module_decls(m);
        }
        std::mem::take(&mut self.diags)
    }

    /// Verifies a function that uses this verifier's type table (for a
    /// detached verifier, calls are not checked).
    pub fn verify(&mut self, f: &'p Function) -> Vec<Diagnostic> {
        self.diags.clear();
        self.check_function(f);
        std::mem::take(&mut self.diags)
    }

    #[inline]
    fn full(&self) -> bool {
        self.diags.len() >= MAX_ERRORS
    }

    fn push(&mut self, d: Diagnostic) {
        if !self.full() {
            self.diags.push(d);
        }
    }

    fn pos(&self, l: Option<SrcLoc>) -> Option<Pos> {
        l.map(|l| Pos::from_loc(self.files, l))
    }

    fn module_err(&mut self, msg: String, l: Option<SrcLoc>) {
        let pos = self.pos(l.or(self.module_loc));
        self.push(Diagnostic::error(msg, pos));
    }

    fn func_err(&mut self, x: Fx<'p>, msg: String) {
        let pos = self.pos(x.f.loc.or(self.module_loc));
        self.push(Diagnostic::error(msg, pos));
    }

    fn inst_err(&mut self, x: Fx<'p>, v: ValueId, msg: String) {
        let l = if v.index() < x.body.locs.len() { x.body.loc(v) } else { None };
        let pos = self.pos(l.or(x.f.loc).or(self.module_loc));
        self.push(Diagnostic::error(msg, pos));
    }

    #[inline]
    fn tdata(&self, t: Option<TypeId>) -> Option<&'p TypeData> {
        let types: &'p TypeTable = self.types;
        t.filter(|t| t.index() < types.len()).map(|t| types.get(t))
    }

    #[inline]
    fn vty(&self, x: Fx<'p>, v: ValueId) -> Option<&'p TypeData> {
        self.tdata(x.body.types[v])
    }

    fn desc(x: Fx<'p>, v: ValueId) -> Desc<'p> {
        Desc(x.body, v)
    }

    fn vname(x: Fx<'p>, v: ValueId) -> VName<'p> {
        VName(x.body, v)
    }

    // -- module ------------------------------------------------------------

    fn check_module_decls(&mut self, m: &'p Module) {
        let errs = std::mem::take(&mut self.decl_errors);
        for d in &errs {
            self.push(d.clone());
        }
        self.decl_errors = errs;
        // A module's private functions are `MODULE.NAME` in the object, and
        // the compiler's own symbols are `postc.*`.
        if m.name == "postc" || m.name.starts_with(crate::builtins::PREFIX) {
            self.module_err(format!("module name `{}` is reserved for the compiler", m.name), None);
        }
        if let Some(all) = &m.export_all {
            for (i, name) in all.iter().enumerate() {
                if !self.funcs.contains_key(name.as_str()) && !m.function_aliases.contains_key(name) {
                    let l = m.decl_locs.exports.get(i).copied();
                    self.module_err(format!("export `{name}` names no function or alias"), l);
                }
            }
        }
        for (name, c) in &m.constants {
            let l = m.decl_locs.constants.get(name).copied();
            match self.tdata(Some(c.ty)) {
                None => self.module_err(format!("constant `{name}` has an invalid type"), l),
                Some(t) if t.is_array => self.module_err(format!("constant `{name}` has non-scalar type {t}"), l),
                Some(t) if !c.value.as_literal().fits(t.dtype) => {
                    self.module_err(format!("constant `{name}`: literal does not fit {t}"), l)
                }
                Some(_) => {}
            }
        }
        for (id, f) in m.functions.iter_enumerated() {
            if self.funcs.get(f.name.as_str()) != Some(&id) {
                let pos = self.pos(f.loc.or(m.decl_locs.module));
                self.push(Diagnostic::error(format!("function `{}` is defined more than once", f.name), pos));
            }
        }
    }

    // -- function ------------------------------------------------------------

    fn check_function(&mut self, f: &'p Function) {
        self.check_function_tables(f);
        let body = &f.body;
        let n = body.tags.len();
        let np = body.num_params as usize + body.num_core as usize;
        let lengths_agree = body.types.len() == n && body.ops.len() == n && body.locs.len() == n;
        if lengths_agree && np <= n && !self.full() {
            self.check_raw(Fx { f, body, n, np, structured: false });
        }
    }

    fn check_function_tables(&mut self, f: &'p Function) {
        let body = &f.body;
        let n = body.tags.len();
        let np = body.num_params as usize + body.num_core as usize;
        let mut x = Fx { f, body, n, np, structured: false };
        let name = &f.name;
        if body.types.len() != n || body.ops.len() != n || body.names.len() != n || body.locs.len() != n {
            self.func_err(x, format!("function `{name}` has instruction columns of different lengths"));
            return;
        }
        if f.attrs.contains(FuncAttrs::GPU) && f.attrs.contains(FuncAttrs::GPU_FALLBACK) {
            self.func_err(x, format!("function `{name}` cannot be both `gpu` and `gpu(fallback)`"));
        }
        if f.attrs.contains(FuncAttrs::KERNEL) {
            if f.attrs.contains(FuncAttrs::GPU_FALLBACK) {
                self.func_err(
                    x,
                    format!("`kernel` function `{name}` has no host body to fall back on: drop `gpu(fallback)`"),
                );
            }
            if f.ufunc_sig.is_some() {
                self.func_err(
                    x,
                    format!("ufunc `{name}` cannot be a `kernel`: a gpu ufunc gets its kernel from its loop"),
                );
            }
        }
        if let Some(rt) = f.ret {
            match self.tdata(Some(rt)) {
                None => self.func_err(x, format!("function `{name}` has an invalid return type")),
                Some(t) if f.attrs.contains(FuncAttrs::KERNEL) => {
                    self.func_err(x, format!("`kernel` function `{name}` must not return a value, returns {t}"))
                }
                Some(t) if t.is_tuple() => {
                    if f.ufunc_sig.is_some() || f.attrs.contains(FuncAttrs::GPU) {
                        let kind = if f.ufunc_sig.is_some() { "ufunc" } else { "gpu function" };
                        self.func_err(x, format!("{kind} `{name}` cannot return a tuple ({t})"));
                    }
                    if let Some(e) = t.elements.iter().find(|e| e.is_tuple() || e.is_output) {
                        self.func_err(x, format!("function `{name}` returns {t}: an element cannot be {e}"));
                    }
                }
                Some(_) => {}
            }
        }
        if np > n {
            self.func_err(x, format!("function `{name}` declares {np} parameters but holds only {n} instructions"));
            return;
        }

        self.names.reset(n);
        self.shared_bytes = 0;

        // Parameters.
        for i in 0..np {
            let v = ValueId::new(i);
            let core = i >= body.num_params as usize;
            let want = if core { i - body.num_params as usize } else { i } as u32;
            if body.tags[v] != Opcode::Param {
                let op = body.tags[v].mnemonic();
                self.inst_err(x, v, format!("function `{name}`: parameter {i} is a `{op}`, expected a `param`"));
                continue;
            }
            if body.ops[v] != [want, core as u32] {
                let what = if core { "core-dimension parameter" } else { "parameter" };
                self.inst_err(x, v, format!("{} is not {what} {want} of function `{name}`", Self::vname(x, v)));
            }
            self.check_result(x, v, None);
            if let Some(t) = self.tdata(body.types[v]).filter(|t| t.is_tuple()) {
                self.inst_err(
                    x,
                    v,
                    format!("parameter {} of function `{name}` cannot be a tuple ({t})", Self::vname(x, v)),
                );
            }
        }
        if let Some(sig) = &f.ufunc_sig {
            self.check_ufunc(x, sig);
        } else if body.num_core > 0 {
            self.func_err(x, format!("function `{name}` has core-dimension parameters but no ufunc signature"));
        }

        // Block structure.
        if body.blocks.is_empty() {
            self.func_err(x, format!("function `{name}` has no blocks"));
            for i in np..n {
                self.check_inst(x, ValueId::new(i), None);
            }
            return;
        }
        let mut structured = true;
        let mut expected = np;
        for (b, bd) in body.blocks.iter_enumerated() {
            let (s, e) = (bd.start as usize, bd.end as usize);
            if s != expected {
                let l = body.label(b);
                self.func_err(x, format!("block `{l}` starts at instruction {s}, expected {expected}"));
                structured = false;
            }
            if e < s || e > n {
                let l = body.label(b);
                self.func_err(x, format!("block `{l}` has an invalid instruction range {s}..{e}"));
                structured = false;
                break;
            }
            if s == e {
                let l = body.label(b);
                self.func_err(x, format!("block `{l}` is empty"));
            }
            expected = e;
        }
        if structured && expected != n {
            self.func_err(x, format!("instructions {expected}..{n} of function `{name}` lie outside every block"));
            structured = false;
        }
        if !structured {
            for i in np..n {
                if self.full() {
                    return;
                }
                self.check_inst(x, ValueId::new(i), None);
            }
            return;
        }
        x.structured = true;

        self.cfg.recompute(body);
        self.dom.recompute(&self.cfg);
        let ntypes = self.tinfo.len();
        self.defs.clear();
        self.defs.resize(n, Def { ty: NONE, blk: NONE, lo: NONE, hi: NONE });
        let (tys, ops) = (body.types.raw(), body.tags.raw());
        for ((d, t), op) in self.defs.iter_mut().zip(tys).zip(ops) {
            // Without branches: which instructions have results is not
            // predictable.
            let t = t.map_or(NONE, |t| t.as_u32());
            let usable = ((t as usize) < ntypes) & op_info(*op).has_result;
            d.ty = if usable { t } else { NONE };
        }
        for (b, bd) in body.blocks.iter_enumerated() {
            let [lo, hi] = self.dom.preorder_range(b);
            let blk = b.as_u32();
            for d in &mut self.defs[bd.start as usize..bd.end as usize] {
                d.blk = blk;
                d.lo = lo;
                d.hi = hi;
            }
        }

        if self.full() {
            return;
        }
        let (tags, types, names) = (body.tags.raw(), body.types.raw(), body.names.raw());
        for (b, bd) in body.blocks.iter_enumerated() {
            let reachable = self.cfg.is_reachable(b);
            let blk = b.as_u32();
            for i in bd.start..bd.end {
                let v = ValueId::from_u32(i);
                let op = tags[i as usize];
                let info = op_info(op);
                // The common case: a terminator exactly at the end, no
                // `param`, a fresh name and every check of the fast path.
                if info.terminator == (i + 1 == bd.end) && op != Opcode::Param {
                    let inserted = match (types[i as usize], names[i as usize]) {
                        (Some(_), Some(nm)) if info.has_result => {
                            Some(self.names.insert(body, v, body.strings.get_bytes(nm)))
                        }
                        _ => None,
                    };
                    if inserted != Some(false) && self.fast_path && self.fast_inst(x, v, blk, reachable) {
                        continue;
                    }
                    self.check_inst_slow(x, v, Some((b, reachable)), inserted);
                } else {
                    self.check_in_block(x, b, v, reachable);
                }
                if self.full() {
                    return;
                }
            }
        }
    }

    /// The checks of an instruction of a block that the fast loop of
    /// [`Verifier::check_function`] does not take.
    #[cold]
    #[inline(never)]
    fn check_in_block(&mut self, x: Fx<'p>, b: BlockId, v: ValueId, reachable: bool) {
        let body = x.body;
        let bd = body.blocks[b];
        let i = v.as_u32();
        let op = body.tags[v];
        let last = i + 1 == bd.end;
        if op.is_terminator() && !last {
            let l = body.label(b);
            self.inst_err(x, v, format!("terminator `{}` before the end of block `{l}`", op.mnemonic()));
        } else if !op.is_terminator() && last {
            let l = body.label(b);
            self.inst_err(x, v, format!("block `{l}` does not end in a terminator"));
        }
        if op == Opcode::Param {
            let l = body.label(b);
            self.inst_err(x, v, format!("{} is a `param` inside block `{l}`", Self::vname(x, v)));
            return;
        }
        self.check_inst(x, v, Some((b, reachable)));
    }

    /// The result type and name of an instruction; false when the result
    /// type is missing where the format needs one.
    fn check_result(&mut self, x: Fx<'p>, v: ValueId, inserted: Option<bool>) -> bool {
        let body = x.body;
        let op = body.tags[v];
        match body.types[v] {
            Some(t) => {
                if !op.format().has_result() {
                    self.inst_err(x, v, format!("{} cannot have a result", Self::desc(x, v)));
                    return true;
                }
                if t.index() >= self.types.len() {
                    self.inst_err(x, v, format!("{} has an invalid type", Self::desc(x, v)));
                }
                match body.name(v) {
                    None => self.inst_err(x, v, format!("{} has no result name", Self::desc(x, v))),
                    Some(nm) => {
                        let fresh = match inserted {
                            Some(f) => f,
                            None => self.names.insert(body, v, nm.as_bytes()),
                        };
                        if !fresh {
                            self.inst_err(x, v, format!("duplicate value name %{nm}"));
                        }
                    }
                }
            }
            None => {
                if op.format().has_result() && op != Opcode::Call {
                    self.inst_err(x, v, format!("{} has no result type", Self::desc(x, v)));
                    return false;
                }
            }
        }
        true
    }

    fn check_ufunc(&mut self, x: Fx<'p>, sig: &'p crate::UFuncSignature) {
        let (f, body) = (x.f, x.body);
        let name = &f.name;
        let scalar_ret = sig.outputs.len() == 1 && sig.outputs[0].is_empty() && f.ret.is_some();
        if let Some(rt) = self.tdata(f.ret) {
            if !scalar_ret {
                self.func_err(
                    x,
                    format!("ufunc `{name}` returns a value, but its signature `{sig}` does not have exactly one `()` output"),
                );
            } else if rt.is_array {
                self.func_err(x, format!("ufunc `{name}` must return a scalar for its `()` output, got {rt}"));
            }
        }
        let ins = sig.inputs.len();
        let expected = ins + if scalar_ret { 0 } else { sig.outputs.len() };
        let np = body.num_params as usize;
        if np != expected {
            self.func_err(
                x,
                format!(
                    "ufunc `{name}` has {}, its signature `{sig}` needs {expected}",
                    plural(np, "parameter", "parameters")
                ),
            );
        } else {
            for i in 0..np {
                let v = ValueId::new(i);
                let (Some(t), Some(core)) = (self.vty(x, v), sig.operand(i)) else { continue };
                let p = Self::vname(x, v);
                let cs = CoreShape(core);
                if i >= ins {
                    if !(t.is_array && t.is_output) {
                        self.inst_err(
                            x,
                            v,
                            format!("ufunc `{name}`: output parameter {p} must be an `&` array, got {t}"),
                        );
                        continue;
                    }
                } else if core.is_empty() {
                    if t.is_array {
                        self.inst_err(
                            x,
                            v,
                            format!("ufunc `{name}`: parameter {p} must be a scalar for core shape `()`, got {t}"),
                        );
                    }
                    continue;
                } else if !t.is_array {
                    self.inst_err(
                        x,
                        v,
                        format!("ufunc `{name}`: parameter {p} must be an array for core shape `{cs}`, got {t}"),
                    );
                    continue;
                }
                if let Some(nd) = t.ndim() {
                    if nd != core.len() {
                        self.inst_err(
                            x,
                            v,
                            format!(
                                "ufunc `{name}`: parameter {p} has {}, core shape `{cs}` has {}",
                                plural(nd, "dimension", "dimensions"),
                                core.len()
                            ),
                        );
                    }
                }
            }
        }
        let dims = sig.core_dims();
        let nc = body.num_core as usize;
        if nc != dims.len() {
            self.func_err(
                x,
                format!(
                    "ufunc `{name}` has {}, its signature `{sig}` has {}",
                    plural(nc, "core-dimension parameter", "core-dimension parameters"),
                    plural(dims.len(), "core dimension", "core dimensions")
                ),
            );
        }
        for v in body.core_dim_params() {
            if let Some(t) = self.vty(x, v) {
                if !int_scalar(t) {
                    let p = Self::vname(x, v);
                    self.inst_err(
                        x,
                        v,
                        format!("ufunc `{name}`: core-dimension parameter {p} must be an integer scalar, got {t}"),
                    );
                }
            }
        }
    }

    /// Checks one operand id of `v`: in range, a value with a result, and
    /// (in a reachable block of a structured body) dominated by its
    /// definition.
    #[inline]
    fn check_operand(&mut self, x: Fx<'p>, v: ValueId, raw: u32, at: Option<(BlockId, bool)>) -> bool {
        let body = x.body;
        if raw as usize >= x.n {
            self.inst_err(x, v, format!("{} uses out-of-range value id {raw}", Self::desc(x, v)));
            return false;
        }
        let d = ValueId::from_u32(raw);
        if body.types[d].is_none() || !body.tags[d].format().has_result() {
            self.inst_err(x, v, format!("{} uses {}, which has no result", Self::desc(x, v), Self::vname(x, d)));
            return false;
        }
        if let Some((b, true)) = at {
            if raw as usize >= x.np {
                let db = self.defs[raw as usize].blk;
                if db == NONE || !self.dom.def_dominates_use(BlockId::from_u32(db), d, b, v) {
                    self.inst_err(
                        x,
                        v,
                        format!(
                            "definition of {} does not dominate its use in {}",
                            Self::vname(x, d),
                            Self::desc(x, v)
                        ),
                    );
                    return false;
                }
            }
        }
        true
    }

    fn check_inst(&mut self, x: Fx<'p>, v: ValueId, at: Option<(BlockId, bool)>) {
        let body = x.body;
        let op = body.tags[v];
        if op == Opcode::Param {
            self.inst_err(x, v, format!("{} is a `param` after the parameter list", Self::vname(x, v)));
            return;
        }
        // The name goes into the set once, whichever path checks the rest.
        let inserted = match (body.types[v], body.names[v]) {
            (Some(_), Some(n)) if op.format().has_result() => {
                Some(self.names.insert(body, v, body.strings.get_bytes(n)))
            }
            _ => None,
        };
        if inserted != Some(false) {
            if let Some((b, reachable)) = at {
                if self.fast_path && self.fast_inst(x, v, b.as_u32(), reachable) {
                    return;
                }
            }
        }
        self.check_inst_slow(x, v, at, inserted);
    }

    #[cold]
    #[inline(never)]
    fn check_inst_slow(&mut self, x: Fx<'p>, v: ValueId, at: Option<(BlockId, bool)>, inserted: Option<bool>) {
        let body = x.body;
        let op = body.tags[v];
        let typed = self.check_result(x, v, inserted);
        // A literal's payload decodes by its scalar result type.
        if op == Opcode::Const {
            if let Some(t) = self.vty(x, v) {
                if t.is_array {
                    self.inst_err(x, v, format!("{}: type {t} is not a scalar", Self::desc(x, v)));
                    return;
                }
            }
        }
        let mut ok = true;
        let mut targets = [0u32; 2];
        let mut nt = 0;
        let payload_ok = raw_slots(
            body,
            v,
            |raw| ok &= self.check_operand(x, v, raw, at),
            |t| {
                targets[nt] = t;
                nt += 1;
            },
        );
        let nb = body.blocks.len();
        for &t in &targets[..nt] {
            if t as usize >= nb {
                self.inst_err(x, v, format!("{} targets unknown block {t}", Self::desc(x, v)));
                ok = false;
            } else if t == 0 {
                let l = body.label(BlockId::from_u32(0));
                self.inst_err(x, v, format!("{} targets the entry block `{l}`", Self::desc(x, v)));
            }
        }
        if !payload_ok {
            self.inst_err(x, v, format!("malformed {} instruction", Self::desc(x, v)));
            return;
        }
        if !ok || !typed {
            return;
        }
        let rt = self.vty(x, v);
        let inst = body.inst(v);
        self.check_types(x, v, inst, rt);
    }
}
