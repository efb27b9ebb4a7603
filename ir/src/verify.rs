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

use crate::body::{Body, InstData, Literal, ValueId, NO_VALUE};
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
// A small, fast string hasher (FxHash): names are short and trusted.

#[derive(Default, Clone, Copy)]
struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The product's entropy is in its high bits, and the table picks
        // buckets by the low ones: without the rotation, names that differ
        // only past their first few bytes (`f1` ... `f99999`) share a few
        // hundred buckets and lookups turn quadratic.
        self.hash.rotate_left(26)
    }
}

type FxBuild = BuildHasherDefault<FxHasher>;
type FxMap<K, V> = HashMap<K, V, FxBuild>;

/// The result names of one function, for the uniqueness check: an
/// open-addressing table of instruction ids keyed by a hash of the name's
/// bytes, reused across functions. A slot holds the high half of the hash
/// and the instruction id, so most probes compare no bytes.
#[derive(Default)]
struct NameSet {
    slots: Vec<u64>,
    mask: usize,
    /// The multiplicative hash keeps its information in the high bits.
    shift: u32,
}

const EMPTY_SLOT: u64 = u64::MAX;

/// A hash of a short byte string: the first and last words (overlapping
/// for short strings), the words between, and the length; no copies.
#[inline(always)]
fn name_hash(b: &[u8]) -> u64 {
    #[inline(always)]
    fn fold(a: u64, b: u64) -> u64 {
        let r = (a as u128).wrapping_mul(b as u128);
        (r as u64) ^ ((r >> 64) as u64)
    }
    #[inline(always)]
    fn word(b: &[u8], at: usize) -> u64 {
        u64::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7]])
    }
    const K0: u64 = 0xa076_1d64_78bd_642f;
    const K1: u64 = 0xe703_7ed1_a0b4_28db;
    let n = b.len();
    let (lo, hi) = if n >= 8 {
        (word(b, 0), word(b, n - 8))
    } else if n >= 4 {
        let (x, y) = (&b[..4], &b[n - 4..]);
        (u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as u64, u32::from_le_bytes([y[0], y[1], y[2], y[3]]) as u64)
    } else if n > 0 {
        ((b[0] as u64) | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16, 0)
    } else {
        (0, 0)
    };
    let mut h = K0 ^ n as u64;
    if n > 16 {
        let mut at = 8;
        while at + 8 <= n - 8 {
            h = fold(h ^ word(b, at), K1);
            at += 8;
        }
    }
    fold(lo ^ K1, hi ^ h)
}

impl NameSet {
    fn reset(&mut self, n: usize) {
        let cap = (n * 2).next_power_of_two().max(16);
        self.slots.clear();
        self.slots.resize(cap, EMPTY_SLOT);
        self.mask = cap - 1;
        self.shift = 64 - cap.trailing_zeros();
    }

    /// Adds the name `nm` of `v`; false when another value has it already.
    #[inline(always)]
    fn insert(&mut self, body: &Body, v: ValueId, nm: &[u8]) -> bool {
        let h = name_hash(nm);
        let tag = h & 0xffff_ffff_0000_0000;
        let mut i = (h >> self.shift) as usize & self.mask;
        loop {
            let s = self.slots[i];
            if s == EMPTY_SLOT {
                self.slots[i] = tag | v.as_u32() as u64;
                return true;
            }
            if s & 0xffff_ffff_0000_0000 == tag && body.name_bytes(ValueId::from_u32(s as u32)) == Some(nm) {
                return false;
            }
            i = (i + 1) & self.mask;
        }
    }
}

// ---------------------------------------------------------------------------
// Callee resolution.

/// What a call's callee name resolves to.
#[derive(Clone, Copy)]
enum Callee<'p> {
    /// A function of this module or, through a post import, of another.
    Func(&'p Module, FuncId),
    Intrinsic,
    Boundary(&'p ImportedName),
    /// A post import, checked only when the whole program is at hand.
    Post,
    /// A name whose declaration is itself in error (reported there).
    Broken,
}

/// Name lookups over the modules of a program, built once.
pub struct ProgramIndex<'p> {
    program: &'p Program,
    modules: FxMap<&'p str, ModuleId>,
    functions: Vec<FxMap<&'p str, FuncId>>,
}

impl<'p> ProgramIndex<'p> {
    pub fn new(program: &'p Program) -> ProgramIndex<'p> {
        let modules = program.modules.iter_enumerated().map(|(id, m)| (m.name.as_str(), id)).collect();
        let functions = program.modules.iter().map(function_map).collect();
        ProgramIndex { program, modules, functions }
    }
}

fn function_map(m: &Module) -> FxMap<&str, FuncId> {
    let mut map = FxMap::default();
    for (id, f) in m.functions.iter_enumerated() {
        map.entry(f.name.as_str()).or_insert(id);
    }
    map
}

/// How deep alias and import chains are followed before calling it a cycle.
const MAX_CHAIN: u32 = 16;

enum Resolved<'p> {
    Callee(Callee<'p>),
    /// The name is not declared.
    Unknown,
    /// Following aliases and imports does not terminate.
    Cycle,
    /// A post import whose module or name is missing.
    BadImport,
}

fn resolve<'p>(
    m: &'p Module,
    funcs: &FxMap<&'p str, FuncId>,
    name: &str,
    prog: Option<&ProgramIndex<'p>>,
    depth: u32,
) -> Resolved<'p> {
    if depth > MAX_CHAIN {
        return Resolved::Cycle;
    }
    if let Some(&id) = funcs.get(name) {
        return Resolved::Callee(Callee::Func(m, id));
    }
    if let Some(target) = m.function_aliases.get(name) {
        return resolve(m, funcs, target, prog, depth + 1);
    }
    if m.intrinsic_imports.contains_key(name) {
        return Resolved::Callee(Callee::Intrinsic);
    }
    if let Some(imp) = m.boundary_imports.get(name) {
        return Resolved::Callee(Callee::Boundary(imp));
    }
    if let Some(imp) = m.post_imports.get(name) {
        let Some(prog) = prog else { return Resolved::Callee(Callee::Post) };
        let Some(&dep) = prog.modules.get(imp.module_name.as_str()) else { return Resolved::BadImport };
        let dm = &prog.program.modules[dep];
        let dfuncs = &prog.functions[dep.index()];
        if !dfuncs.contains_key(imp.source_name.as_str()) && !dm.function_aliases.contains_key(&imp.source_name) {
            return Resolved::BadImport;
        }
        return match resolve(dm, dfuncs, &imp.source_name, Some(prog), depth + 1) {
            Resolved::Callee(c) => Resolved::Callee(c),
            Resolved::Cycle => Resolved::Cycle,
            // Reported against the dependency's alias.
            Resolved::Unknown | Resolved::BadImport => Resolved::Callee(Callee::Broken),
        };
    }
    Resolved::Unknown
}

// ---------------------------------------------------------------------------
// Message helpers.

/// `` `add` %x `` or `` `store` ``: an instruction in a message (its name
/// is decoded only when the message is written).
#[derive(Clone, Copy)]
struct Desc<'a>(&'a Body, ValueId);

impl fmt::Display for Desc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", self.0.tags[self.1].mnemonic())?;
        if let Some(n) = self.0.name(self.1) {
            write!(f, " %{n}")?;
        }
        Ok(())
    }
}

/// `%x`, or for an unnamed value `` `store` (instruction 7) ``.
#[derive(Clone, Copy)]
struct VName<'a>(&'a Body, ValueId);

impl fmt::Display for VName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.name(self.1) {
            Some(n) => write!(f, "%{n}"),
            None => write!(f, "`{}` (instruction {})", self.0.tags[self.1].mnemonic(), self.1.as_u32()),
        }
    }
}

/// A ufunc operand's core shape: `(m,n)`.
struct CoreShape<'a>(&'a [String]);

impl fmt::Display for CoreShape<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", self.0.join(","))
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Types equal but for the output flag.
fn same_type(a: &TypeData, b: &TypeData) -> bool {
    a.dtype == b.dtype && a.is_array == b.is_array && a.shape == b.shape && a.layout == b.layout
}

/// Whether an argument of type `arg` may be passed for a parameter of type
/// `param`: same dtype and array-ness; for arrays the shape fits (AnyShape
/// and `?` accept anything, fixed ndims agree) and the layout is the same.
fn arg_fits(arg: &TypeData, param: &TypeData) -> bool {
    if arg.dtype != param.dtype || arg.is_array != param.is_array {
        return false;
    }
    if !param.is_array {
        return true;
    }
    let shape_ok = match (&arg.shape, &param.shape) {
        (_, Shape::Any) => true,
        (Shape::Any, Shape::Dims(_)) => true,
        (Shape::Dims(a), Shape::Dims(p)) => {
            a.len() == p.len() && a.iter().zip(p.iter()).all(|(x, y)| y.is_none() || x == y)
        }
    };
    shape_ok && arg.layout == param.layout
}

fn int_scalar(t: &TypeData) -> bool {
    !t.is_array && t.dtype.is_int()
}

// ---------------------------------------------------------------------------
// Raw payload slots.

/// Visits the value slots (`val`) and block slots (`block`) of an
/// instruction's payload without decoding it; returns false when the
/// `extra` pool does not hold the payload.
#[inline]
fn raw_slots(body: &Body, v: ValueId, mut val: impl FnMut(u32), mut block: impl FnMut(u32)) -> bool {
    let [a, b] = body.ops[v];
    let ex = |i: usize| body.extra.get(i).copied();
    let exs = |i: usize, n: usize| body.extra.get(i..i.checked_add(n)?);
    let b = b as usize;
    let mut list = |l: Option<&[u32]>| match l {
        Some(l) => {
            for &x in l {
                val(x);
            }
            true
        }
        None => false,
    };
    match body.tags[v].format() {
        Format::Param | Format::Const | Format::Unreachable => true,
        Format::Br => {
            block(a);
            true
        }
        Format::Binary | Format::Load | Format::Set => list(Some(&[a, b as u32])),
        Format::Unary | Format::Let | Format::Alloc | Format::Axis | Format::GetField => list(Some(&[a])),
        Format::Store | Format::Select => list(Some(&[a])) && list(exs(b, 2)),
        Format::SetField => list(Some(&[a])) && list(exs(b, 2).map(|e| &e[1..])),
        Format::Call => a != u32::MAX && list(ex(b).and_then(|n| exs(b + 1, n as usize))),
        Format::IndexLoad => list(Some(&[a])) && list(ex(b).and_then(|n| exs(b + 1, n as usize))),
        Format::IndexStore => {
            list(Some(&[a])) && list(ex(b + 1).and_then(|n| exs(b + 2, n as usize))) && list(exs(b, 1))
        }
        Format::Return => a == NO_VALUE || list(Some(&[a])),
        Format::CondBr => {
            let ok = list(Some(&[a]));
            match exs(b, 4) {
                Some(e) => {
                    block(e[0]);
                    block(e[1]);
                    ok
                }
                None => false,
            }
        }
    }
}

const NONE: u32 = u32::MAX;

/// Each opcode's format and flags, by opcode number: one load instead of
/// a branch per question on the hot paths.
#[derive(Clone, Copy)]
struct OpInfo {
    format: Format,
    has_result: bool,
    terminator: bool,
}

const OP_INFO: [OpInfo; Opcode::ALL.len()] = {
    let mut t = [OpInfo { format: Format::Param, has_result: false, terminator: false }; Opcode::ALL.len()];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        let f = Opcode::ALL[i].format();
        let has_result = !matches!(
            f,
            Format::Store
                | Format::Set
                | Format::SetField
                | Format::IndexStore
                | Format::Return
                | Format::Br
                | Format::CondBr
                | Format::Unreachable
        );
        let terminator = matches!(f, Format::Return | Format::Br | Format::CondBr | Format::Unreachable);
        t[i] = OpInfo { format: f, has_result, terminator };
        i += 1;
    }
    t
};

#[inline(always)]
fn op_info(op: Opcode) -> OpInfo {
    OP_INFO[op as usize]
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

/// A type as the fast path of the checks sees it.
#[derive(Clone, Copy)]
struct TInfo {
    dtype: DType,
    array: bool,
    /// Number of axes; `NONE` when the shape does not fix it.
    ndim: u32,
    /// The id of the same type without the output flag, when interned,
    /// else its own: two types are [`same_type`] iff these agree.
    canon: u32,
}

fn type_infos(types: &TypeTable) -> Vec<TInfo> {
    types
        .iter()
        .map(|(id, t)| TInfo {
            dtype: t.dtype,
            array: t.is_array,
            ndim: t.ndim().map_or(NONE, |n| u32::try_from(n).unwrap_or(NONE)),
            canon: if t.is_output { types.lookup(&t.without_output()).unwrap_or(id) } else { id }.as_u32(),
        })
        .collect()
}

/// What a binary opcode accepts for operands of dtype `l`.
enum BinRule {
    /// Defined, with this result dtype.
    Ok(DType),
    /// Integer `div`: the result must be a float.
    IntDiv,
    NotDefined,
}

fn binary_rule(op: Opcode, l: DType) -> BinRule {
    let (int, float, cplx) = (l.is_int(), l.is_float(), l.is_complex());
    let (allowed, want) = match op {
        Opcode::Add => (int || float || cplx || l.is_text(), l),
        Opcode::Sub | Opcode::Mul | Opcode::Pow => (int || float || cplx, l),
        Opcode::Div if int => return BinRule::IntDiv,
        Opcode::Div => (float || cplx, l),
        Opcode::FDiv | Opcode::Mod => (int || float, l),
        Opcode::Eq | Opcode::Ne => (true, DType::Bool),
        Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => (!cplx, DType::Bool),
        Opcode::And | Opcode::Or => (l == DType::Bool, DType::Bool),
        Opcode::BAnd | Opcode::BOr | Opcode::BXor => (int || l == DType::Bool, l),
        Opcode::Shl | Opcode::Shr => (int, l),
        _ => (false, l),
    };
    if allowed {
        BinRule::Ok(want)
    } else {
        BinRule::NotDefined
    }
}

/// The result dtype of a unary opcode on dtype `a`; `None` when it is not
/// defined on `a`.
fn unary_rule(op: Opcode, a: DType) -> Option<DType> {
    let (allowed, want) = match op {
        Opcode::Neg => (a.is_int() || a.is_float() || a.is_complex(), a),
        Opcode::Not => (a == DType::Bool, a),
        Opcode::Abs => (a.is_int() || a.is_float() || a.is_complex(), a.complex_part().unwrap_or(a)),
        Opcode::Inv => (a.is_int(), a),
        _ => (false, a),
    };
    allowed.then_some(want)
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
        }
    }

    /// Verifies the whole module: declarations, then every function.
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
                Some(_) => {}
            }
        }
        if np > n {
            self.func_err(x, format!("function `{name}` declares {np} parameters but holds only {n} instructions"));
            return;
        }

        self.names.reset(n);

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
                    if inserted != Some(false) && self.fast_inst(x, v, blk, reachable) {
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
                if self.fast_inst(x, v, b.as_u32(), reachable) {
                    return;
                }
            }
        }
        self.check_inst_slow(x, v, at, inserted);
    }

    /// Every check of [`Verifier::check_inst`] on the common instructions
    /// of a structured body, on flat tables: true only when the instruction
    /// passes them all (false may also mean "not handled here"; the full
    /// checks then run and report).
    #[inline(always)]
    fn fast_inst(&self, x: Fx<'p>, v: ValueId, blk: u32, reachable: bool) -> bool {
        let upre = self.dom.preorder_range(BlockId::from_u32(blk))[0];
        let body = x.body;
        let i = v.as_u32();
        let op = body.tags[v];
        let info = op_info(op);
        let fmt = info.format;
        let [p, q] = body.ops[v];
        let ti = &self.tinfo[..];
        let defs = &self.defs[..];
        let np = x.np as u32;
        // The result: a known type and a name exactly when the format has one.
        let rt = match body.types[v] {
            Some(t) => {
                let t = t.as_u32();
                if !info.has_result || t as usize >= ti.len() || body.names[v].is_none() {
                    return false;
                }
                t
            }
            None if info.has_result && op != Opcode::Call => return false,
            None => NONE,
        };
        // An operand: in range, with a result, dominated by its definition.
        macro_rules! o {
            ($raw:expr) => {{
                let raw: u32 = $raw;
                let Some(&Def { ty: t, lo, hi, .. }) = defs.get(raw as usize) else { return false };
                if t == NONE {
                    return false;
                }
                if reachable && raw >= np {
                    // Pre-order numbers of reachable blocks are distinct, so
                    // equal numbers mean the same block. Evaluated without
                    // branches: same-block and cross-block uses interleave
                    // unpredictably.
                    let same = (lo == upre) & (raw < i);
                    let below = (lo < upre) & (upre <= hi);
                    if !(same | below) {
                        return false;
                    }
                }
                ti[t as usize]
            }};
        }
        let ex = &body.extra[..];
        let nb = body.blocks.len() as u32;
        let target_ok = |t: u32| t < nb && t != 0;
        let scalar = |t: TInfo, d: DType| !t.array && t.dtype == d;
        match fmt {
            Format::Const => {
                let r = ti[rt as usize];
                if r.array || rt as usize >= DType::ALL.len() {
                    return false;
                }
                // The payload as `Body::inst` decodes it, for the dtypes
                // whose literal lives in the two slots.
                let wide = (p as u64) | ((q as u64) << 32);
                match r.dtype {
                    DType::Bool | DType::Int64 | DType::UInt64 | DType::Float64 => true,
                    DType::Int8 | DType::Int16 | DType::Int32 => Literal::Int(wide as i64 as i128).fits(r.dtype),
                    DType::UInt8 | DType::UInt16 | DType::UInt32 => Literal::Int(wide as i128).fits(r.dtype),
                    DType::Float16 | DType::Float32 => Literal::Float(p as u64).fits(r.dtype),
                    _ => matches!(body.inst(v), InstData::Const(lit) if lit.fits(r.dtype)),
                }
            }
            Format::Binary => {
                let (l, r2, r) = (o!(p), o!(q), ti[rt as usize]);
                if l.array || r2.array || r.array || l.dtype != r2.dtype {
                    return false;
                }
                match binary_rule(op, l.dtype) {
                    BinRule::Ok(want) => r.dtype == want,
                    BinRule::IntDiv => r.dtype.is_float(),
                    BinRule::NotDefined => false,
                }
            }
            Format::Unary => {
                let (a, r) = (o!(p), ti[rt as usize]);
                if a.array || r.array {
                    return false;
                }
                if op == Opcode::Cast {
                    a.dtype.is_numeric() && r.dtype.is_numeric()
                } else {
                    unary_rule(op, a.dtype) == Some(r.dtype)
                }
            }
            Format::Let => o!(p).canon == ti[rt as usize].canon,
            Format::Set => {
                let (tt, t) = (o!(p), o!(q));
                matches!(body.tags[ValueId::from_u32(p)], Opcode::Let | Opcode::Param) && t.canon == tt.canon
            }
            Format::Select => {
                let Some(e) = ex.get(q as usize..(q as usize).saturating_add(2)) else { return false };
                let (c, a, b) = (o!(p), o!(e[0]), o!(e[1]));
                scalar(c, DType::Bool) && a.canon == b.canon && ti[rt as usize].canon == a.canon
            }
            Format::Axis => {
                let (at, r) = (o!(p), ti[rt as usize]);
                at.array && (at.ndim == NONE || q < at.ndim) && scalar(r, DType::Int64)
            }
            Format::IndexLoad | Format::IndexStore => {
                let head = if fmt == Format::IndexLoad { 1 } else { 2 };
                let q = q as usize;
                let Some(&n) = ex.get(q + head - 1) else { return false };
                let Some(idx) = ex.get(q + head..(q + head).saturating_add(n as usize)) else { return false };
                let at = o!(p);
                if !at.array || (at.ndim != NONE && n != at.ndim) {
                    return false;
                }
                for &k in idx {
                    let t = o!(k);
                    if t.array || !t.dtype.is_int() {
                        return false;
                    }
                }
                let val = if fmt == Format::IndexLoad { ti[rt as usize] } else { o!(ex[q]) };
                scalar(val, at.dtype)
            }
            Format::Call => {
                let q = q as usize;
                let Some(&n) = ex.get(q) else { return false };
                let Some(args) = ex.get(q + 1..(q + 1).saturating_add(n as usize)) else { return false };
                if p == u32::MAX {
                    return false;
                }
                for &a in args {
                    o!(a);
                }
                let Some(m) = self.m else { return true };
                let name = body.strings.get_bytes(crate::NameId::from_u32(p));
                match self.callees.get(name) {
                    Some(Callee::Post | Callee::Broken) => true,
                    Some(Callee::Intrinsic) => {
                        let numeric = |&a: &u32| {
                            let t = ti[defs[a as usize].ty as usize];
                            !t.array && t.dtype.is_numeric()
                        };
                        args.iter().all(numeric)
                            && (rt == NONE || {
                                let r = ti[rt as usize];
                                !r.array && r.dtype.is_float()
                            })
                    }
                    Some(Callee::Func(cm, cf)) if std::ptr::eq(*cm, m) => {
                        let g = &cm.functions[*cf];
                        if g.attrs.contains(FuncAttrs::KERNEL) {
                            return false;
                        }
                        let gb = &g.body;
                        let gnp = (gb.num_params as usize + gb.num_core as usize).min(gb.types.len());
                        if args.len() != gnp {
                            return false;
                        }
                        let canon = |t: Option<TypeId>| t.and_then(|t| ti.get(t.index())).map(|t| t.canon);
                        for (k, &a) in args.iter().enumerate() {
                            let at = ti[defs[a as usize].ty as usize].canon;
                            if canon(gb.types[ValueId::new(k)]) != Some(at) {
                                return false;
                            }
                        }
                        match (rt, g.ret) {
                            (NONE, None) => true,
                            (NONE, Some(_)) => false,
                            (r, gr) => gr.is_some() && canon(gr) == Some(ti[r as usize].canon),
                        }
                    }
                    _ => false,
                }
            }
            Format::Return => {
                if p == NO_VALUE {
                    x.f.ret.is_none()
                } else {
                    let t = o!(p);
                    x.f.ret.and_then(|r| ti.get(r.index())).is_some_and(|r| r.canon == t.canon)
                }
            }
            Format::Br => target_ok(p),
            Format::CondBr => {
                let Some(e) = ex.get(q as usize..(q as usize).saturating_add(4)) else { return false };
                scalar(o!(p), DType::Bool) && target_ok(e[0]) && target_ok(e[1])
            }
            Format::Unreachable => true,
            _ => false,
        }
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

    fn check_types(&mut self, x: Fx<'p>, v: ValueId, inst: InstData<'p>, rt: Option<&'p TypeData>) {
        let d = Self::desc(x, v);
        macro_rules! err {
            ($($arg:tt)*) => { self.inst_err(x, v, format!($($arg)*)) };
        }
        macro_rules! ty {
            ($v:expr) => {
                match self.vty(x, $v) {
                    Some(t) => t,
                    None => return,
                }
            };
        }
        macro_rules! scalar {
            ($v:expr) => {{
                let t = ty!($v);
                if t.is_array {
                    err!("{d}: operand {} must be a scalar, got {t}", Self::vname(x, $v));
                    return;
                }
                t.dtype
            }};
        }
        macro_rules! result {
            () => {
                match rt {
                    Some(t) => t,
                    None => return,
                }
            };
        }
        macro_rules! scalar_result {
            () => {{
                let r = result!();
                if r.is_array {
                    err!("{d}: result must be a scalar, got {r}");
                    return;
                }
                r.dtype
            }};
        }
        macro_rules! expect_result {
            ($r:expr, $want:expr) => {
                if $r != $want {
                    err!("{d}: result type is {}, expected {}", $r, $want);
                }
            };
        }
        let array = |s: &mut Self, a: ValueId, what: &str| -> Option<&'p TypeData> {
            let t = s.vty(x, a)?;
            if !t.is_array {
                s.inst_err(x, v, format!("{d}: {what} {} must be an array, got {t}", Self::vname(x, a)));
                return None;
            }
            Some(t)
        };
        let let_or_param = |s: &mut Self, target: ValueId| {
            let op = x.body.tags[target];
            if op != Opcode::Let && op != Opcode::Param {
                s.inst_err(x, v, format!("{d}: target {} is not a `let` local or a parameter", Self::vname(x, target)));
            }
        };

        match inst {
            InstData::Param { .. } => {}
            InstData::Malformed => err!("malformed {d} instruction"),
            InstData::Const(lit) => {
                let r = scalar_result!();
                if !lit.fits(r) {
                    err!("{d}: literal does not fit {r}");
                }
            }
            InstData::Binary { op, left, right } => {
                let l = scalar!(left);
                let r2 = scalar!(right);
                let r = scalar_result!();
                if l != r2 {
                    err!("{d}: operand types {l} and {r2} differ");
                    return;
                }
                match binary_rule(op, l) {
                    BinRule::IntDiv => {
                        if !r.is_float() {
                            err!("{d}: integer operands need a float result, got {r}");
                        }
                    }
                    BinRule::NotDefined => err!("{d}: not defined on {l}"),
                    BinRule::Ok(want) => expect_result!(r, want),
                }
            }
            InstData::Unary { op, operand } => {
                let a = scalar!(operand);
                let r = scalar_result!();
                match unary_rule(op, a) {
                    None => err!("{d}: not defined on {a}"),
                    Some(want) => expect_result!(r, want),
                }
            }
            InstData::Cast { operand } => {
                let a = ty!(operand);
                let r = result!();
                if a.is_array || r.is_array || !a.dtype.is_numeric() || !r.dtype.is_numeric() {
                    err!("{d}: cannot cast {a} to {r}");
                }
            }
            InstData::Load { array: a, offset } => {
                let Some(at) = array(self, a, "array") else { return };
                let o = ty!(offset);
                if o.is_array || o.dtype != DType::Int64 {
                    err!("{d}: byte offset {} must be Int64, got {o}", Self::vname(x, offset));
                }
                let r = result!();
                if r.is_array || r.dtype != at.dtype {
                    err!("{d}: result type is {r}, expected {}", at.dtype);
                }
            }
            InstData::Store { array: a, offset, value } => {
                let Some(at) = array(self, a, "array") else { return };
                let o = ty!(offset);
                if o.is_array || o.dtype != DType::Int64 {
                    err!("{d}: byte offset {} must be Int64, got {o}", Self::vname(x, offset));
                }
                let t = ty!(value);
                if t.is_array || t.dtype != at.dtype {
                    err!("{d}: stored value type is {t}, expected {}", at.dtype);
                }
            }
            InstData::Dim { array: a, axis } | InstData::Stride { array: a, axis } => {
                let Some(at) = array(self, a, "array") else { return };
                if let Some(nd) = at.ndim() {
                    if axis as usize >= nd {
                        err!("{d}: axis {axis} is out of range for {at}");
                    }
                }
                let r = result!();
                if r.is_array || r.dtype != DType::Int64 {
                    err!("{d}: result type is {r}, expected Int64");
                }
            }
            InstData::IndexLoad { array: a, indices } | InstData::IndexStore { array: a, indices, .. } => {
                let Some(at) = array(self, a, "array") else { return };
                if let Some(nd) = at.ndim() {
                    if indices.len() != nd {
                        err!("{d}: {} for {at}, expected {nd}", plural(indices.len(), "index", "indices"));
                    }
                }
                for i in indices.iter() {
                    let t = ty!(i);
                    if !int_scalar(t) {
                        err!("{d}: index {} must be an integer scalar, got {t}", Self::vname(x, i));
                    }
                }
                if let InstData::IndexStore { value, .. } = inst {
                    let t = ty!(value);
                    if t.is_array || t.dtype != at.dtype {
                        err!("{d}: stored value type is {t}, expected {}", at.dtype);
                    }
                } else {
                    let r = result!();
                    if r.is_array || r.dtype != at.dtype {
                        err!("{d}: result type is {r}, expected {}", at.dtype);
                    }
                }
            }
            InstData::Call { callee, args } => self.check_call(x, v, callee, args, rt),
            InstData::Let { value } => {
                let t = ty!(value);
                let r = result!();
                if !same_type(t, r) {
                    err!("{d}: value type is {t}, expected {r}");
                }
            }
            InstData::Set { target, value } => {
                let_or_param(self, target);
                let tt = ty!(target);
                let t = ty!(value);
                if !same_type(t, tt) {
                    err!("{d}: value type is {t}, expected {tt}");
                }
            }
            InstData::Select { cond, if_true, if_false } => {
                let c = ty!(cond);
                if c.is_array || c.dtype != DType::Bool {
                    err!("{d}: condition {} must be Bool, got {c}", Self::vname(x, cond));
                }
                let a = ty!(if_true);
                let b = ty!(if_false);
                if !same_type(a, b) {
                    err!("{d}: arms have different types {a} and {b}");
                    return;
                }
                let r = result!();
                if !same_type(r, a) {
                    err!("{d}: result type is {r}, expected {a}");
                }
            }
            InstData::Alloc { length } => {
                let t = ty!(length);
                if !int_scalar(t) {
                    err!("{d}: length {} must be an integer scalar, got {t}", Self::vname(x, length));
                }
                let r = result!();
                if !r.is_array {
                    err!("{d}: result type {r} is not an array");
                }
            }
            InstData::GetField { aggregate, .. } => {
                let t = ty!(aggregate);
                let Some(part) = t.dtype.complex_part().filter(|_| !t.is_array) else {
                    err!("{d}: {} must be a complex scalar, got {t}", Self::vname(x, aggregate));
                    return;
                };
                let r = result!();
                if r.is_array || r.dtype != part {
                    err!("{d}: result type is {r}, expected {part}");
                }
            }
            InstData::SetField { aggregate, value, .. } => {
                let_or_param(self, aggregate);
                let t = ty!(aggregate);
                let Some(part) = t.dtype.complex_part().filter(|_| !t.is_array) else {
                    err!("{d}: {} must be a complex scalar, got {t}", Self::vname(x, aggregate));
                    return;
                };
                let vt = ty!(value);
                if vt.is_array || vt.dtype != part {
                    err!("{d}: value type is {vt}, expected {part}");
                }
            }
            InstData::Return { value } => {
                let name = &x.f.name;
                match (value, self.tdata(x.f.ret)) {
                    (Some(_), None) if x.f.ret.is_none() => err!("`return` with a value in void function `{name}`"),
                    (None, Some(r)) => err!("bare `return` in function `{name}` returning {r}"),
                    (Some(val), Some(r)) => {
                        let t = ty!(val);
                        if !same_type(t, r) {
                            err!("{d}: value type is {t}, expected {r}");
                        }
                    }
                    _ => {}
                }
            }
            InstData::CondBr { cond, .. } => {
                let c = ty!(cond);
                if c.is_array || c.dtype != DType::Bool {
                    err!("{d}: condition {} must be Bool, got {c}", Self::vname(x, cond));
                }
            }
            InstData::Br { .. } | InstData::Unreachable => {}
        }
    }

    fn check_call(
        &mut self,
        x: Fx<'p>,
        v: ValueId,
        callee: &'p str,
        args: crate::ValueList<'p>,
        rt: Option<&'p TypeData>,
    ) {
        if let Some(b) = crate::builtins::Builtin::from_name(callee) {
            let mut dtypes = Vec::with_capacity(args.len());
            for a in args.iter() {
                match self.vty(x, a) {
                    Some(t) if !t.is_array => dtypes.push(t.dtype),
                    Some(t) => {
                        let msg = format!(
                            "call to built-in `{callee}`: argument {} must be a scalar, got {t}",
                            Self::vname(x, a)
                        );
                        self.inst_err(x, v, msg);
                        return;
                    }
                    None => return,
                }
            }
            if rt.is_some_and(|r| r.is_array) {
                self.inst_err(x, v, format!("call to built-in `{callee}` cannot have an array result"));
            } else if let Err(msg) = b.check(&dtypes, rt.map(|r| r.dtype)) {
                self.inst_err(x, v, msg);
            } else if matches!(b, crate::builtins::Builtin::Gpu(..)) && !x.f.attrs.contains(FuncAttrs::KERNEL) {
                let msg = format!(
                    "`{callee}` is only available in `kernel` functions; `{}` is not one (pass the index as a parameter)",
                    x.f.name
                );
                self.inst_err(x, v, msg);
            }
            return;
        }
        if self.m.is_none() {
            return;
        }
        let Some(&c) = self.callees.get(callee.as_bytes()) else {
            self.inst_err(x, v, format!("call to unknown function `{callee}`"));
            return;
        };
        match c {
            Callee::Post | Callee::Broken => {}
            Callee::Boundary(imp) => {
                let msg =
                    format!("call to boundary import `{}.{}` cannot be compiled", imp.module_name, imp.source_name);
                self.inst_err(x, v, msg);
            }
            Callee::Intrinsic => {
                for (i, a) in args.iter().enumerate() {
                    let Some(t) = self.vty(x, a) else { continue };
                    if t.is_array || !t.dtype.is_numeric() {
                        let msg = format!(
                            "call to intrinsic `{callee}`: argument {} ({}) must be a numeric scalar, got {t}",
                            i + 1,
                            Self::vname(x, a)
                        );
                        self.inst_err(x, v, msg);
                    }
                }
                if let Some(r) = rt {
                    if r.is_array || !r.dtype.is_float() {
                        self.inst_err(
                            x,
                            v,
                            format!("call to intrinsic `{callee}`: result type is {r}, expected a float"),
                        );
                    }
                }
            }
            Callee::Func(cm, cf) => {
                let g = &cm.functions[cf];
                if g.attrs.contains(FuncAttrs::KERNEL) {
                    let msg = format!(
                        "`{callee}` is a `kernel` function: it is launched from the host through its entry point, \
                         not called"
                    );
                    self.inst_err(x, v, msg);
                    return;
                }
                let gb = &g.body;
                let ctype = |t: Option<TypeId>| t.filter(|t| t.index() < cm.types.len()).map(|t| cm.types.get(t));
                let np = (gb.num_params as usize + gb.num_core as usize).min(gb.types.len());
                if args.len() != np {
                    let msg = format!(
                        "call to `{callee}` has {}, expected {np}",
                        plural(args.len(), "argument", "arguments")
                    );
                    self.inst_err(x, v, msg);
                } else {
                    for (i, a) in args.iter().enumerate() {
                        let (Some(at), Some(pt)) = (self.vty(x, a), ctype(gb.types[ValueId::new(i)])) else {
                            continue;
                        };
                        if !arg_fits(at, pt) {
                            let msg = format!(
                                "call to `{callee}`: argument {} ({}) has type {at}, expected {pt}",
                                i + 1,
                                Self::vname(x, a)
                            );
                            self.inst_err(x, v, msg);
                        }
                    }
                }
                match (x.body.types[v], g.ret) {
                    (Some(_), None) => {
                        self.inst_err(x, v, format!("call to void function `{callee}` cannot have a result"));
                    }
                    (None, Some(_)) => {
                        if let Some(gt) = ctype(g.ret) {
                            self.inst_err(
                                x,
                                v,
                                format!("call to `{callee}` has no result, but `{callee}` returns {gt}"),
                            );
                        }
                    }
                    (Some(_), Some(_)) => {
                        if let (Some(r), Some(gt)) = (rt, ctype(g.ret)) {
                            if !same_type(r, gt) {
                                self.inst_err(x, v, format!("call to `{callee}`: result type is {r}, expected {gt}"));
                            }
                        }
                    }
                    (None, None) => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_info_matches_the_opcode_table() {
        for &op in Opcode::ALL {
            let i = op_info(op);
            assert_eq!(i.format, op.format());
            assert_eq!(i.has_result, op.format().has_result());
            assert_eq!(i.terminator, op.is_terminator());
        }
    }
}
