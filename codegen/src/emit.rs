//! Lowering of a (pass-processed) program to the text of one LLVM module.
//!
//! Every function of every module is declared first (symbols, linkage,
//! ABI), then the bodies are written, then the helpers and runtime pieces
//! they used, then the declarations of external symbols and the metadata.
//! The text is parsed by LLVM into the context of each codegen unit.

use crate::helpers::{self, Helper};
use crate::imports::{self, Shield};
use crate::runtime;
use postc_ir::body::{float_bits_to_f64, InstData, Literal};
use postc_ir::builtins::{Builtin, OvfOp};
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{
    BlockId, DType, EntityId, Field, FuncAttrs, FuncId, Function, Module, ModuleId, Opcode, Program, SrcLoc, ValueId,
};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

/// How a function appears in the LLVM module.
#[derive(Clone, Debug)]
pub struct FnSig {
    /// The LLVM symbol.
    pub symbol: String,
    /// Exported (external linkage) or module-private.
    pub exported: bool,
    /// LLVM return type text (`void` for none or a complex result).
    pub ret: String,
    /// LLVM parameter types, the complex out-pointer last when present.
    pub params: Vec<String>,
    /// Parameter attributes (`zeroext`, `signext`, ...), per parameter.
    pub param_attrs: Vec<&'static str>,
    pub ret_attr: &'static str,
    /// The result is a complex number returned through a trailing pointer.
    pub complex_out: bool,
    /// The result is an array (`DLManagedTensor*`).
    pub array_ret: bool,
}

/// The LLVM value type of a scalar dtype.
pub fn llty(d: DType) -> &'static str {
    match d {
        DType::Bool => "i1",
        DType::Int8 | DType::UInt8 => "i8",
        DType::Int16 | DType::UInt16 => "i16",
        DType::Int32 | DType::UInt32 => "i32",
        DType::Int64 | DType::UInt64 => "i64",
        DType::Float16 => "half",
        DType::Float32 => "float",
        DType::Float64 => "double",
        DType::Complex64 => "{ float, float }",
        DType::Complex128 => "{ double, double }",
        DType::Str | DType::Bytes => "{ ptr, i64 }",
    }
}

/// The in-memory type of an array element.
pub fn memty(d: DType) -> &'static str {
    if d == DType::Bool {
        "i8"
    } else {
        llty(d)
    }
}

fn part(d: DType) -> DType {
    d.complex_part().unwrap_or(d)
}

fn ext_attr(d: DType) -> &'static str {
    match d {
        DType::Bool | DType::UInt8 | DType::UInt16 => "zeroext",
        DType::Int8 | DType::Int16 => "signext",
        _ => "",
    }
}

/// A float literal of a float dtype, in LLVM's text form.
pub fn float_lit(d: DType, bits: u64) -> String {
    match d {
        DType::Float16 => format!("0xH{:04X}", bits as u16),
        DType::Float32 | DType::Complex64 => {
            let f = f32::from_bits(bits as u32);
            let dbits = if f.is_nan() {
                let b = bits as u32;
                ((b as u64 >> 31) << 63) | (0x7ffu64 << 52) | (((b & 0x7f_ffff) as u64) << 29)
            } else {
                (f as f64).to_bits()
            };
            format!("0x{dbits:016X}")
        }
        _ => format!("0x{bits:016X}"),
    }
}

fn f64_lit(d: DType, x: f64) -> String {
    match d {
        DType::Float16 => float_lit(d, postc_ir::body::f16_from_f64(x).to_bits() as u64),
        DType::Float32 | DType::Complex64 => float_lit(d, (x as f32).to_bits() as u64),
        _ => float_lit(d, x.to_bits()),
    }
}

/// The bytes of an LLVM `c"..."` string literal.
pub(crate) fn escape_bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() + 4);
    for &c in b {
        if c.is_ascii_graphic() && c != b'"' && c != b'\\' || c == b' ' {
            s.push(c as char);
        } else {
            let _ = write!(s, "\\{c:02X}");
        }
    }
    s
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
                // A `DLTensor *`: its header loads may be hoisted out of
                // conditionally executed code.
                params.push("ptr".to_owned());
                param_attrs.push("noundef nonnull align 8 dereferenceable(48)");
            }
            Some(t) if t.dtype.is_complex() => {
                params.push("ptr".to_owned());
                param_attrs.push("");
            }
            Some(t) => {
                params.push(llty(t.dtype).to_owned());
                param_attrs.push(ext_attr(t.dtype));
            }
            None => {
                params.push("i64".to_owned());
                param_attrs.push("");
            }
        }
    }
    let (mut ret, mut ret_attr, mut complex_out, mut array_ret) = ("void".to_owned(), "", false, false);
    if let Some(t) = f.ret.map(|t| m.types.get(t)) {
        if t.is_array {
            ret = "ptr".into();
            array_ret = true;
        } else if t.dtype.is_complex() {
            complex_out = true;
            params.push("ptr".into());
            param_attrs.push("");
        } else {
            ret = llty(t.dtype).into();
            ret_attr = ext_attr(t.dtype);
        }
    }
    FnSig { symbol, exported, ret, params, param_attrs, ret_attr, complex_out, array_ret }
}

/// Where a call goes.
enum Target<'p> {
    Func(ModuleId, FuncId),
    Builtin(Builtin),
    Intrinsic(&'p str),
}

/// Name lookups over a program, each a hash lookup (a module's own lookups
/// walk its functions or export list).
pub struct Index<'p> {
    /// Per module: function name → function.
    funcs: Vec<HashMap<&'p str, FuncId>>,
    /// Per module: the exported names, or `None` when every function is.
    exports: Vec<Option<HashSet<&'p str>>>,
    /// Module name → module.
    modules: HashMap<&'p str, ModuleId>,
}

impl<'p> Index<'p> {
    pub fn new(program: &'p Program) -> Index<'p> {
        let funcs = program
            .modules
            .iter()
            .map(|m| m.functions.iter_enumerated().map(|(id, f)| (f.name.as_str(), id)).rev().collect())
            .collect();
        let exports = program
            .modules
            .iter()
            .map(|m| m.export_all.as_ref().map(|all| all.iter().map(String::as_str).collect()))
            .collect();
        let modules = program.modules.iter_enumerated().map(|(id, m)| (m.name.as_str(), id)).rev().collect();
        Index { funcs, exports, modules }
    }

    /// The function `name` of module `mid` (the first of that name).
    pub fn function(&self, mid: ModuleId, name: &str) -> Option<FuncId> {
        self.funcs[mid.index()].get(name).copied()
    }

    /// Whether module `mid` exports `name` (as `Module::is_exported`).
    pub fn is_exported(&self, mid: ModuleId, name: &str) -> bool {
        self.exports[mid.index()].as_ref().is_none_or(|e| e.contains(name))
    }

    /// The module `name` (the first of that name).
    pub fn module(&self, name: &str) -> Option<ModuleId> {
        self.modules.get(name).copied()
    }
}

/// The whole program's lowering state.
pub struct Emitter<'p> {
    pub program: &'p Program,
    /// Name lookups.
    pub index: Index<'p>,
    pub sigs: HashMap<(ModuleId, FuncId), FnSig>,
    /// Symbols of the module's aliases: (alias symbol, target symbol, exported).
    pub aliases: Vec<(String, String, FnSig)>,
    decls: BTreeMap<String, String>,
    helpers: BTreeMap<String, String>,
    globals: String,
    nstr: usize,
    meta: Vec<String>,
    weights: HashMap<(u32, u32), usize>,
    thunks: HashMap<(String, Option<String>), String>,
    thunk_text: String,
    /// The runtime parts the code uses.
    /// The runtime parts the bodies use; the units add their text.
    pub(crate) runtime_parts: Vec<runtime::Part>,
    /// Metadata numbers of the TBAA access tags (header, data), once made.
    tbaa: Option<(usize, usize)>,
    /// The C library functions that exported names shadow.
    pub shield: Shield,
    /// The functions whose calls count the depth of calls (see
    /// [`depth_counted`]).
    depth_counted: HashSet<(ModuleId, FuncId)>,
    pub diags: Vec<Diagnostic>,
}

impl<'p> Emitter<'p> {
    pub fn new(program: &'p Program) -> Emitter<'p> {
        Emitter {
            program,
            index: Index::new(program),
            sigs: HashMap::new(),
            aliases: Vec::new(),
            decls: BTreeMap::new(),
            helpers: BTreeMap::new(),
            globals: String::new(),
            nstr: 0,
            meta: Vec::new(),
            weights: HashMap::new(),
            thunks: HashMap::new(),
            thunk_text: String::new(),
            runtime_parts: Vec::new(),
            tbaa: None,
            shield: Shield::default(),
            depth_counted: HashSet::new(),
            diags: Vec::new(),
        }
    }

    /// Declares every function of every module: symbols and signatures.
    pub fn declare_all(&mut self) {
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
            if imports::reserved(name) {
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

    fn decl(&mut self, name: &str, line: impl Into<String>) {
        if !self.decls.contains_key(name) {
            self.decls.insert(name.to_owned(), line.into());
        }
    }

    fn helper(&mut self, h: Helper) -> String {
        for (n, l) in &h.needs {
            self.decl(n, l.clone());
        }
        let name = h.name.clone();
        self.helpers.entry(h.name).or_insert(h.text);
        name
    }

    /// A private constant holding `bytes` and a NUL; returns its name.
    fn cstring(&mut self, bytes: &[u8]) -> String {
        let name = format!("@.str.{}", self.nstr);
        self.nstr += 1;
        let _ = writeln!(
            self.globals,
            "{name} = private unnamed_addr constant [{} x i8] c\"{}\\00\", align 1",
            bytes.len() + 1,
            escape_bytes(bytes)
        );
        name
    }

    /// A private constant array of `i64`s; returns its name.
    fn const_i64s(&mut self, xs: &[i64]) -> String {
        let name = format!("@.i64s.{}", self.nstr);
        self.nstr += 1;
        let items: Vec<String> = xs.iter().map(|x| format!("i64 {x}")).collect();
        let _ = writeln!(
            self.globals,
            "{name} = private unnamed_addr constant [{} x i64] [{}], align 8",
            xs.len(),
            items.join(", ")
        );
        name
    }

    fn weights_md(&mut self, w: (u32, u32)) -> String {
        let n = match self.weights.get(&w) {
            Some(n) => *n,
            None => {
                let n = self.meta.len();
                self.meta.push(format!("!{{!\"branch_weights\", i32 {}, i32 {}}}", w.0, w.1));
                self.weights.insert(w, n);
                n
            }
        };
        format!("!{n}")
    }

    /// The TBAA access tags `(header, data)`: a `DLTensor` header (and its
    /// shape and strides arrays) and array elements never alias, so loads of
    /// `data`, `byte_offset`, `shape[k]` and `strides[k]` stay loop
    /// invariant across stores to elements (docs/abi.md §3).
    fn tbaa_tags(&mut self) -> (String, String) {
        let (h, d) = match self.tbaa {
            Some(t) => t,
            None => {
                let root = self.meta.len();
                self.meta.push("!{!\"postc tbaa\"}".into());
                let mut tag = |name: &str| {
                    let ty = self.meta.len();
                    self.meta.push(format!("!{{!\"{name}\", !{root}, i64 0}}"));
                    let t = self.meta.len();
                    self.meta.push(format!("!{{!{ty}, !{ty}, i64 0}}"));
                    t
                };
                let h = tag("postc.dltensor");
                let d = tag("postc.data");
                self.tbaa = Some((h, d));
                (h, d)
            }
        };
        (format!("!tbaa !{h}"), format!("!tbaa !{d}"))
    }

    fn panic_decl(&mut self) {
        self.decl(runtime::PANIC, runtime::PANIC_DECL);
    }

    /// A cold panic function made by codegen (for `unreachable`, a negative
    /// allocation length, ...): deduplicated by message and location.
    fn codegen_thunk(&mut self, msg: &str, loc: Option<String>) -> String {
        let key = (msg.to_owned(), loc.clone());
        if let Some(n) = self.thunks.get(&key) {
            return n.clone();
        }
        let name = format!("@\"postc.cg.panic.{}\"", self.thunks.len());
        let fmt = panic_format(msg, 0, loc.as_deref());
        let g = self.cstring(fmt.as_bytes());
        self.panic_decl();
        let _ = write!(
            self.thunk_text,
            "define private void {name}() cold minsize noinline noreturn nounwind {{\n  \
             call void (ptr, ...) @postc_rt_panic(ptr {g})\n  unreachable\n}}\n\n"
        );
        self.thunks.insert(key, name.clone());
        name
    }

    /// Includes the whole runtime in the module text even when no body
    /// uses it.
    pub fn use_runtime(&mut self) {
        for p in runtime::Part::ALL {
            self.use_runtime_part(p);
        }
    }

    /// Includes one part of the runtime in the module text.
    pub fn use_runtime_part(&mut self, p: runtime::Part) {
        if !self.runtime_parts.contains(&p) {
            self.runtime_parts.push(p);
        }
    }

    /// Lowers every body; returns the module text.
    pub fn emit_all(&mut self) -> String {
        let mut bodies = String::new();
        for (mid, m) in self.program.modules.iter_enumerated() {
            for (fid, f) in m.functions.iter_enumerated() {
                let sig = self.sigs[&(mid, fid)].clone();
                let counts = self.depth_counted.contains(&(mid, fid));
                let mut fe = FnEmit::new(self, mid, m, f, &sig);
                fe.counts_depth = counts;
                match fe.run() {
                    Ok(text) => bodies.push_str(&text),
                    Err(d) => self.diags.push(*d),
                }
            }
        }
        let mut out = String::new();
        out.push_str("; postc\n\n");
        out.push_str(&self.globals);
        out.push('\n');
        out.push_str(&bodies);
        out.push_str(&self.thunk_text);
        for t in self.helpers.values() {
            out.push_str(t);
            out.push('\n');
        }
        // Declarations of symbols this text does not define.
        for l in self.decls.values() {
            out.push_str(l);
            out.push('\n');
        }
        out.push('\n');
        for (i, md) in self.meta.iter().enumerate() {
            let _ = writeln!(out, "!{i} = {md}");
        }
        out
    }
}

/// The alias definitions whose target symbol `keep` accepts.
pub fn alias_lines(aliases: &[(String, String, FnSig)], shield: &Shield, keep: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    for (alias, target, sig) in aliases {
        if keep(target) {
            let (alias, target) = (shield.text_symbol(alias), shield.text_symbol(target));
            let _ = writeln!(out, "@\"{alias}\" = protected alias {}, ptr @\"{target}\"", fn_type(sig));
        }
    }
    out
}

fn fn_type(sig: &FnSig) -> String {
    format!("{} ({})", sig.ret, sig.params.join(", "))
}

/// Whether `f` is a panic path that the compiler made (what `cold-outline`
/// makes: a module-private `cold noinline noreturn` function), known by
/// its attributes and reserved name.
fn is_panic_thunk(f: &Function) -> bool {
    f.name.starts_with(postc_ir::builtins::PREFIX)
        && f.attrs.contains(FuncAttrs::COLD | FuncAttrs::NOINLINE | FuncAttrs::NORETURN)
}

/// What a call to `callee` in module `mid` calls.
fn resolve<'p>(program: &'p Program, index: &Index<'p>, mid: ModuleId, callee: &'p str) -> Option<Target<'p>> {
    if let Some(b) = Builtin::from_name(callee) {
        return Some(Target::Builtin(b));
    }
    let m = &program.modules[mid];
    if let Some(fid) = index.function(mid, callee) {
        return Some(Target::Func(mid, fid));
    }
    if let Some(target) = m.function_aliases.get(callee) {
        if let Some(fid) = index.function(mid, target) {
            return Some(Target::Func(mid, fid));
        }
    }
    if let Some(sym) = m.intrinsic_imports.get(callee) {
        return Some(Target::Intrinsic(sym.as_str()));
    }
    if let Some(imp) = m.post_imports.get(callee) {
        let other = index.module(&imp.module_name)?;
        let om = &program.modules[other];
        let name = om.function_aliases.get(&imp.source_name).unwrap_or(&imp.source_name);
        return index.function(other, name).map(|fid| Target::Func(other, fid));
    }
    None
}

/// The thread's depth of calls between POST functions, kept by the calls
/// of the functions [`depth_counted`] names.
pub const DEPTH: &str = runtime::DEPTH;

/// The functions whose calls of POST functions count the depth and panic
/// `recursion limit exceeded` when a call would make more than
/// [`postc_ir::interp::MAX_FRAMES`] frames, as the reference interpreter
/// does: those on a cycle of the call graph, those a cycle calls
/// (transitively) and those that call one (transitively). While a cycle's
/// frame is on the stack every frame is one of those, so the count is the
/// interpreter's; without one the depth is bounded by the longest chain of
/// calls. Functions that run on the GPU, and what they call, count nothing.
pub fn depth_counted<'p>(program: &'p Program, index: &Index<'p>) -> HashSet<(ModuleId, FuncId)> {
    let mut ids: Vec<(ModuleId, FuncId)> = Vec::new();
    let mut slot: HashMap<(ModuleId, FuncId), usize> = HashMap::new();
    for (mid, m) in program.modules.iter_enumerated() {
        for (fid, _) in m.functions.iter_enumerated() {
            slot.insert((mid, fid), ids.len());
            ids.push((mid, fid));
        }
    }
    let n = ids.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, &(mid, fid)) in ids.iter().enumerate() {
        let body = &program.modules[mid].functions[fid].body;
        for v in body.tags.ids() {
            if let InstData::Call { callee, .. } = body.inst(v) {
                if let Some(Target::Func(cm, cf)) = resolve(program, index, mid, callee) {
                    succ[i].push(slot[&(cm, cf)]);
                }
            }
        }
        succ[i].sort_unstable();
        succ[i].dedup();
    }
    let on_cycle = cyclic(&succ);
    if !on_cycle.iter().any(|&c| c) {
        return HashSet::new();
    }
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, ss) in succ.iter().enumerate() {
        for &j in ss {
            pred[j].push(i);
        }
    }
    let reach = |edges: &[Vec<usize>], from: &[bool]| -> Vec<bool> {
        let mut seen = from.to_vec();
        let mut work: Vec<usize> = (0..n).filter(|&i| from[i]).collect();
        while let Some(i) = work.pop() {
            for &j in &edges[i] {
                if !seen[j] {
                    seen[j] = true;
                    work.push(j);
                }
            }
        }
        seen
    };
    let below = reach(&succ, &on_cycle);
    let above = reach(&pred, &on_cycle);
    let gpu: Vec<bool> = ids.iter().map(|&(m, f)| program.modules[m].functions[f].attrs.is_gpu()).collect();
    let device = reach(&succ, &gpu);
    (0..n).filter(|&i| (below[i] || above[i]) && !device[i]).map(|i| ids[i]).collect()
}

/// Which nodes of a graph lie on a cycle (Tarjan's strongly connected
/// components, without recursion).
fn cyclic(succ: &[Vec<usize>]) -> Vec<bool> {
    let n = succ.len();
    const NONE: usize = usize::MAX;
    let (mut num, mut low) = (vec![NONE; n], vec![0usize; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut out) = (Vec::new(), vec![false; n]);
    let mut next = 0usize;
    for root in 0..n {
        if num[root] != NONE {
            continue;
        }
        // (node, next successor to visit)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        num[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if num[w] == NONE {
                    num[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(num[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == num[v] {
                let mut members = Vec::new();
                loop {
                    let w = stack.pop().expect("the component's nodes are on the stack");
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cycle = members.len() > 1 || succ[v].contains(&v);
                for w in members {
                    out[w] = cycle;
                }
            }
        }
    }
    out
}

/// Lowers one function.
struct FnEmit<'e, 'p> {
    e: &'e mut Emitter<'p>,
    mid: ModuleId,
    m: &'p Module,
    f: &'p Function,
    sig: &'e FnSig,
    /// Calls of POST functions count the depth (see [`depth_counted`]).
    counts_depth: bool,
    /// The `alloca`s of call temporaries, for the entry block.
    temps: String,
    out: String,
    tmp: u32,
    /// `let` locals and assigned parameters: value → alloca name.
    slots: HashMap<ValueId, String>,
    /// Parameters passed as complex pointers, loaded at entry.
    mark: Option<String>,
    labels: HashMap<BlockId, String>,
    /// The operand text of each defined value.
    vals: HashMap<ValueId, String>,
    /// Byte offsets that are multiples of an element size, as element
    /// indices: value → (element size, index operand). Strides from
    /// `stride` and the products and sums of `stride-lower` built on them,
    /// so that element addresses are `getelementptr <elem>` with an element
    /// index (what LLVM's loop-access analysis versions on a unit stride).
    elem: HashMap<ValueId, (u32, String)>,
    func_loc: Option<Pos>,
}

type R<T> = Result<T, Box<Diagnostic>>;

impl<'e, 'p> FnEmit<'e, 'p> {
    fn new(e: &'e mut Emitter<'p>, mid: ModuleId, m: &'p Module, f: &'p Function, sig: &'e FnSig) -> Self {
        FnEmit {
            e,
            mid,
            m,
            f,
            sig,
            counts_depth: false,
            temps: String::new(),
            out: String::new(),
            tmp: 0,
            slots: HashMap::new(),
            mark: None,
            labels: HashMap::new(),
            vals: HashMap::new(),
            elem: HashMap::new(),
            func_loc: f.loc.map(|l| Pos::from_loc(&m.files, l)),
        }
    }

    fn err<T>(&self, v: Option<ValueId>, msg: String) -> R<T> {
        let pos = v.and_then(|v| self.f.body.loc(v)).map(|l| Pos::from_loc(&self.m.files, l)).or(self.func_loc.clone());
        Err(Box::new(Diagnostic::error(format!("in function `{}`: {msg}", self.f.name), pos)))
    }

    fn t(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }

    fn line(&mut self, s: impl AsRef<str>) {
        self.out.push_str("  ");
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    /// A call temporary of dtype `d` (an `alloca` of the entry block).
    fn temp(&mut self, d: DType) -> String {
        let t = self.t();
        let _ = writeln!(self.temps, "  {t} = alloca {}", llty(d));
        t
    }

    /// `%x = <rhs>`; returns `%x`.
    fn def(&mut self, rhs: impl AsRef<str>) -> String {
        let t = self.t();
        let l = format!("{t} = {}", rhs.as_ref());
        self.line(l);
        t
    }

    fn tyd(&self, v: ValueId) -> Option<&'p postc_ir::TypeData> {
        self.f.body.ty(v).map(|t| self.m.types.get(t))
    }

    fn dt(&self, v: ValueId) -> DType {
        self.tyd(v).map(|t| t.dtype).unwrap_or(DType::Int64)
    }

    fn is_array(&self, v: ValueId) -> bool {
        self.tyd(v).is_some_and(|t| t.is_array)
    }

    fn vty(&self, v: ValueId) -> &'static str {
        if self.is_array(v) {
            "ptr"
        } else {
            llty(self.dt(v))
        }
    }

    /// The operand text of a value (loads a local's current value).
    fn val(&mut self, v: ValueId) -> String {
        if let Some(slot) = self.slots.get(&v).cloned() {
            let ty = self.vty(v);
            return self.def(format!("load {ty}, ptr {slot}"));
        }
        self.vals.get(&v).cloned().unwrap_or_else(|| "poison".to_owned())
    }

    fn loc_text(&self, v: ValueId) -> Option<String> {
        self.f.body.loc(v).map(|l| format!("{}:{}:{}", self.m.files.path(l.file), l.line, l.col))
    }

    fn run(&mut self) -> R<String> {
        let body = &self.f.body;
        let sig = self.sig;
        if body.blocks.is_empty() {
            return self.err(None, "function has no body".into());
        }
        // Variables: `let` results and `set`/`setfield` targets.
        let mut vars: Vec<ValueId> = Vec::new();
        let mut seen = HashSet::new();
        for v in body.tags.ids() {
            let var = match body.inst(v) {
                InstData::Let { .. } => v,
                InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } => target,
                _ => continue,
            };
            if seen.insert(var) {
                vars.push(var)
            }
        }
        let has_alloc = body.tags.iter().any(|o| *o == Opcode::Alloc);
        let calls_array_fn = body.tags.ids().any(|v| {
            matches!(body.inst(v), InstData::Call { callee, .. } if Builtin::from_name(callee).is_none())
                && self.is_array(v)
                && body.ty(v).is_some()
        });
        // Block-shared arrays (`postc.gpu.shared` calls) and barriers.
        let mut shared = Vec::new();
        let mut barrier = false;
        for v in body.tags.ids() {
            if let InstData::Call { callee, .. } = body.inst(v) {
                match Builtin::from_name(callee) {
                    Some(Builtin::Shared) => shared.push(v),
                    Some(Builtin::SyncThreads) => barrier = true,
                    _ => {}
                }
            }
        }
        let needs_mark = has_alloc || calls_array_fn || sig.array_ret;
        // Header.
        let linkage = if sig.exported { "protected " } else { "private " };
        let mut ps = Vec::new();
        for (i, (t, a)) in sig.params.iter().zip(&sig.param_attrs).enumerate() {
            let a = if a.is_empty() { String::new() } else { format!("{a} ") };
            ps.push(format!("{t} {a}%p{i}"));
        }
        let mut attrs = vec!["nounwind"];
        let fa = self.f.attrs;
        let is_thunk = is_panic_thunk(self.f);
        if fa.contains(FuncAttrs::COLD) || is_thunk {
            attrs.push("cold");
        }
        if is_thunk {
            attrs.push("minsize");
        }
        if fa.contains(FuncAttrs::NOINLINE) || is_thunk {
            attrs.push("noinline");
        }
        if barrier {
            // A barrier's calls must not become control dependent on more
            // values (GPU threads that take different paths would wait for
            // each other forever).
            attrs.push("convergent");
        }
        let returns = body.tags.iter().any(|o| *o == Opcode::Return);
        if (fa.contains(FuncAttrs::NORETURN) || is_thunk) && !returns {
            attrs.push("noreturn");
        }
        let ra = if sig.ret_attr.is_empty() { String::new() } else { format!("{} ", sig.ret_attr) };
        let symbol = self.e.shield.text_symbol(&sig.symbol);
        let head = format!("define {linkage}{ra}{} @\"{symbol}\"({}) {} {{\n", sig.ret, ps.join(", "), attrs.join(" "));
        self.out.push_str(&head);
        self.out.push_str("alloca:\n");
        let allocas_at = self.out.len();
        // Parameters.
        let params: Vec<ValueId> = body.all_params().collect();
        for (i, p) in params.iter().enumerate() {
            let d = self.dt(*p);
            if !self.is_array(*p) && d.is_complex() {
                self.set(*p, format!("load {}, ptr %p{i}", llty(d)));
            } else {
                self.alias(*p, format!("%p{i}"));
            }
        }
        for v in &vars {
            let slot = format!("%s{}", v.as_u32());
            let ty = self.vty(*v);
            self.line(format!("{slot} = alloca {ty}"));
            self.slots.insert(*v, slot);
        }
        for p in &params {
            if let Some(slot) = self.slots.get(p).cloned() {
                let ty = self.vty(*p);
                let x = self.vals[p].clone();
                self.line(format!("store {ty} {x}, ptr {slot}"));
            }
        }
        for v in shared {
            self.shared_header(v)?;
        }
        if needs_mark {
            self.e.use_runtime_part(runtime::Part::Arena);
            self.line(format!("%mark = call ptr @{}()", runtime::ARENA_MARK));
            self.mark = Some("%mark".into());
        }
        // Blocks in reverse postorder, so definitions come before uses.
        let order = rpo(body);
        for b in body.blocks.ids() {
            self.labels.insert(b, format!("b{}", b.as_u32()));
        }
        let entry = BlockId::from_u32(0);
        self.line(format!("br label %{}", self.labels[&entry]));
        let reach: HashSet<BlockId> = order.iter().copied().collect();
        for &b in &order {
            let l = self.labels[&b].clone();
            let _ = writeln!(self.out, "{l}:");
            for v in body.blocks[b].insts() {
                self.inst(v)?;
            }
        }
        for b in body.blocks.ids() {
            if !reach.contains(&b) {
                let l = self.labels[&b].clone();
                let _ = writeln!(self.out, "{l}:\n  unreachable");
            }
        }
        self.out.push_str("}\n\n");
        // The call temporaries, in the entry block: an `alloca` in a loop
        // would take more stack at each iteration.
        let temps = std::mem::take(&mut self.temps);
        self.out.insert_str(allocas_at, &temps);
        Ok(std::mem::take(&mut self.out))
    }

    /// Defines `v` as the result of `rhs`.
    fn set(&mut self, v: ValueId, rhs: impl AsRef<str>) {
        let l = format!("%v{} = {}", v.as_u32(), rhs.as_ref());
        self.line(l);
        self.vals.insert(v, format!("%v{}", v.as_u32()));
    }

    /// Defines `v` as an existing operand (an SSA name or a constant).
    fn alias(&mut self, v: ValueId, x: String) {
        self.vals.insert(v, x);
    }

    /// Converts a scalar `x` of dtype `from` to dtype `to` (docs/ir-text.md, Semantics).
    fn convert(&mut self, x: &str, from: DType, to: DType) -> String {
        if from == to {
            return x.to_owned();
        }
        let (tf, tt) = (llty(from), llty(to));
        if from.is_complex() {
            let re = self.def(format!("extractvalue {tf} {x}, 0"));
            if to.is_complex() {
                let im = self.def(format!("extractvalue {tf} {x}, 1"));
                let r2 = self.convert(&re, part(from), part(to));
                let i2 = self.convert(&im, part(from), part(to));
                return self.pack(to, &r2, &i2);
            }
            if to == DType::Bool {
                let im = self.def(format!("extractvalue {tf} {x}, 1"));
                let a = self.def(format!("fcmp une {} {re}, 0.0", llty(part(from))));
                let b = self.def(format!("fcmp une {} {im}, 0.0", llty(part(from))));
                return self.def(format!("or i1 {a}, {b}"));
            }
            return self.convert(&re, part(from), to);
        }
        if to.is_complex() {
            let re = self.convert(x, from, part(to));
            let zero = f64_lit(part(to), 0.0);
            return self.pack(to, &re, &zero);
        }
        if to == DType::Bool {
            return if from.is_float() {
                self.def(format!("fcmp une {tf} {x}, 0.0"))
            } else {
                self.def(format!("icmp ne {tf} {x}, 0"))
            };
        }
        let from_int = from.is_int() || from == DType::Bool;
        let from_signed = from.is_signed_int();
        if to.is_int() {
            if from_int {
                let (fb, tb) = (if from == DType::Bool { 1 } else { from.bits() }, to.bits());
                return if fb == tb {
                    x.to_owned()
                } else if fb > tb {
                    self.def(format!("trunc {tf} {x} to {tt}"))
                } else if from_signed {
                    self.def(format!("sext {tf} {x} to {tt}"))
                } else {
                    self.def(format!("zext {tf} {x} to {tt}"))
                };
            }
            let s = if to.is_signed_int() { "fptosi" } else { "fptoui" };
            let fs = float_suffix(from);
            let name = format!("llvm.{s}.sat.{tt}.{fs}");
            self.e.decl(&name, format!("declare {tt} @{name}({tf})"));
            return self.def(format!("call {tt} @{name}({tf} {x})"));
        }
        // to float
        if from_int {
            let op = if from_signed { "sitofp" } else { "uitofp" };
            return self.def(format!("{op} {tf} {x} to {tt}"));
        }
        if from.bits() < to.bits() {
            self.def(format!("fpext {tf} {x} to {tt}"))
        } else {
            self.def(format!("fptrunc {tf} {x} to {tt}"))
        }
    }

    fn pack(&mut self, d: DType, re: &str, im: &str) -> String {
        let t = llty(d);
        let p = llty(part(d));
        let a = self.def(format!("insertvalue {t} undef, {p} {re}, 0"));
        self.def(format!("insertvalue {t} {a}, {p} {im}, 1"))
    }

    fn unpack(&mut self, d: DType, x: &str) -> (String, String) {
        let t = llty(d);
        (self.def(format!("extractvalue {t} {x}, 0")), self.def(format!("extractvalue {t} {x}, 1")))
    }

    fn intrinsic1(&mut self, name: &str, ty: &str, x: &str) -> String {
        let full = format!("llvm.{name}.{}", float_suffix_t(ty));
        self.e.decl(&full, format!("declare {ty} @{full}({ty})"));
        self.def(format!("call {ty} @{full}({ty} {x})"))
    }

    fn libm2(&mut self, name: &str, a: &str, b: &str) -> String {
        self.e.decl(name, format!("declare double @{name}(double, double) nounwind"));
        self.def(format!("call double @{name}(double {a}, double {b})"))
    }

    fn binary(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        let od = self.dt(l);
        let rd = self.dt(v);
        let (a, b) = (self.val(l), self.val(r));
        let t = llty(od);
        let res: String = if od.is_text() {
            self.e.use_runtime_part(runtime::Part::Str);
            match op {
                Opcode::Add => self.def(format!("call {t} @{}({t} {a}, {t} {b})", runtime::STR_CONCAT)),
                Opcode::Eq => self.def(format!("call i1 @{}({t} {a}, {t} {b})", runtime::STR_EQ)),
                Opcode::Ne => {
                    let e = self.def(format!("call i1 @{}({t} {a}, {t} {b})", runtime::STR_EQ));
                    self.def(format!("xor i1 {e}, true"))
                }
                Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                    let c = self.def(format!("call i32 @{}({t} {a}, {t} {b})", runtime::STR_CMP));
                    let p = match op {
                        Opcode::Lt => "slt",
                        Opcode::Le => "sle",
                        Opcode::Gt => "sgt",
                        _ => "sge",
                    };
                    self.def(format!("icmp {p} i32 {c}, 0"))
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else if od.is_int() || od == DType::Bool {
            let signed = od.is_signed_int();
            let bits = if od == DType::Bool { 1 } else { od.bits() };
            match op {
                Opcode::Add => self.def(format!("add {t} {a}, {b}")),
                Opcode::Sub => self.def(format!("sub {t} {a}, {b}")),
                Opcode::Mul => self.def(format!("mul {t} {a}, {b}")),
                Opcode::Div => {
                    let x = self.convert(&a, od, rd);
                    let y = self.convert(&b, od, rd);
                    self.def(format!("fdiv {} {x}, {y}", llty(rd)))
                }
                Opcode::FDiv | Opcode::Mod => {
                    let h = self.e.helper(helpers::floor_divmod(bits, signed, op == Opcode::FDiv));
                    self.def(format!("call {t} @\"{h}\"({t} {a}, {t} {b})"))
                }
                Opcode::Pow => {
                    let h = self.e.helper(helpers::int_pow(bits, signed));
                    self.def(format!("call {t} @\"{h}\"({t} {a}, {t} {b})"))
                }
                Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                    let p = match (op, signed) {
                        (Opcode::Eq, _) => "eq",
                        (Opcode::Ne, _) => "ne",
                        (Opcode::Lt, true) => "slt",
                        (Opcode::Lt, false) => "ult",
                        (Opcode::Le, true) => "sle",
                        (Opcode::Le, false) => "ule",
                        (Opcode::Gt, true) => "sgt",
                        (Opcode::Gt, false) => "ugt",
                        (_, true) => "sge",
                        (_, false) => "uge",
                    };
                    self.def(format!("icmp {p} {t} {a}, {b}"))
                }
                Opcode::And | Opcode::BAnd => self.def(format!("and {t} {a}, {b}")),
                Opcode::Or | Opcode::BOr => self.def(format!("or {t} {a}, {b}")),
                Opcode::BXor => self.def(format!("xor {t} {a}, {b}")),
                Opcode::Shl | Opcode::Shr => {
                    // A count of the width or more (or negative) never
                    // reaches the shift: 0, or the sign fill for `shr`.
                    let big = self.def(format!("icmp uge {t} {b}, {bits}"));
                    let arith = op == Opcode::Shr && signed;
                    let safe_count = if arith { format!("{}", bits - 1) } else { "0".into() };
                    let c = self.def(format!("select i1 {big}, {t} {safe_count}, {t} {b}"));
                    let ins = match (op, arith) {
                        (Opcode::Shl, _) => "shl",
                        (_, true) => "ashr",
                        _ => "lshr",
                    };
                    let s = self.def(format!("{ins} {t} {a}, {c}"));
                    if arith {
                        s
                    } else {
                        self.def(format!("select i1 {big}, {t} 0, {t} {s}"))
                    }
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else if od.is_float() {
            match op {
                Opcode::Add => self.def(format!("fadd {t} {a}, {b}")),
                Opcode::Sub => self.def(format!("fsub {t} {a}, {b}")),
                Opcode::Mul => self.def(format!("fmul {t} {a}, {b}")),
                Opcode::Div => self.def(format!("fdiv {t} {a}, {b}")),
                Opcode::FDiv | Opcode::Mod => {
                    let h = self.e.helper(helpers::float_divmod());
                    let x = self.convert(&a, od, DType::Float64);
                    let y = self.convert(&b, od, DType::Float64);
                    let pair = self.def(format!("call {{ double, double }} @\"{h}\"(double {x}, double {y})"));
                    let idx = if op == Opcode::FDiv { 0 } else { 1 };
                    let r = self.def(format!("extractvalue {{ double, double }} {pair}, {idx}"));
                    self.convert(&r, DType::Float64, od)
                }
                Opcode::Pow => {
                    let x = self.convert(&a, od, DType::Float64);
                    let y = self.convert(&b, od, DType::Float64);
                    self.e.decl("llvm.pow.f64", "declare double @llvm.pow.f64(double, double)");
                    let r = self.def(format!("call double @llvm.pow.f64(double {x}, double {y})"));
                    self.convert(&r, DType::Float64, od)
                }
                Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                    let p = match op {
                        Opcode::Eq => "oeq",
                        Opcode::Ne => "une",
                        Opcode::Lt => "olt",
                        Opcode::Le => "ole",
                        Opcode::Gt => "ogt",
                        _ => "oge",
                    };
                    self.def(format!("fcmp {p} {t} {a}, {b}"))
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else {
            // Complex: Complex64 products, quotients and powers are computed
            // in double and rounded once, as the interpreter does.
            let pd = part(od);
            let pt = llty(pd);
            let (ar, ai) = self.unpack(od, &a);
            let (br, bi) = self.unpack(od, &b);
            match op {
                Opcode::Add | Opcode::Sub => {
                    let ins = if op == Opcode::Add { "fadd" } else { "fsub" };
                    let re = self.def(format!("{ins} {pt} {ar}, {br}"));
                    let im = self.def(format!("{ins} {pt} {ai}, {bi}"));
                    self.pack(od, &re, &im)
                }
                Opcode::Eq | Opcode::Ne => {
                    let x = self.def(format!("fcmp oeq {pt} {ar}, {br}"));
                    let y = self.def(format!("fcmp oeq {pt} {ai}, {bi}"));
                    let e = self.def(format!("and i1 {x}, {y}"));
                    if op == Opcode::Eq {
                        e
                    } else {
                        self.def(format!("xor i1 {e}, true"))
                    }
                }
                Opcode::Mul | Opcode::Div | Opcode::Pow => {
                    let w = DType::Float64;
                    let (ar, ai, br, bi) = (
                        self.convert(&ar, pd, w),
                        self.convert(&ai, pd, w),
                        self.convert(&br, pd, w),
                        self.convert(&bi, pd, w),
                    );
                    let (re, im) = match op {
                        Opcode::Mul => {
                            let p1 = self.def(format!("fmul double {ar}, {br}"));
                            let p2 = self.def(format!("fmul double {ai}, {bi}"));
                            let re = self.def(format!("fsub double {p1}, {p2}"));
                            let p3 = self.def(format!("fmul double {ar}, {bi}"));
                            let p4 = self.def(format!("fmul double {ai}, {br}"));
                            let im = self.def(format!("fadd double {p3}, {p4}"));
                            (re, im)
                        }
                        _ => {
                            if op == Opcode::Pow {
                                // 0 ** (negative or complex) panics.
                                let z1 = self.def(format!("fcmp oeq double {ar}, 0.0"));
                                let z2 = self.def(format!("fcmp oeq double {ai}, 0.0"));
                                let az = self.def(format!("and i1 {z1}, {z2}"));
                                let c1 = self.def(format!("fcmp une double {bi}, 0.0"));
                                let c2 = self.def(format!("fcmp olt double {br}, 0.0"));
                                let bb = self.def(format!("or i1 {c1}, {c2}"));
                                let e1 = self.def(format!("fcmp oeq double {br}, 0.0"));
                                let e2 = self.def(format!("fcmp oeq double {bi}, 0.0"));
                                let bz = self.def(format!("and i1 {e1}, {e2}"));
                                let nbz = self.def(format!("xor i1 {bz}, true"));
                                let bad0 = self.def(format!("and i1 {az}, {bb}"));
                                let bad = self.def(format!("and i1 {bad0}, {nbz}"));
                                self.guard_panic(v, &bad, "zero to a negative or complex power");
                                self.e.helper(helpers::complex_div());
                            }
                            let h = if op == Opcode::Div {
                                self.e.helper(helpers::complex_div())
                            } else {
                                self.e.helper(helpers::complex_pow())
                            };
                            let pair = self.def(format!(
                                "call {{ double, double }} @\"{h}\"(double {ar}, double {ai}, double {br}, double {bi})"
                            ));
                            self.unpack(DType::Complex128, &pair)
                        }
                    };
                    let re = self.convert(&re, w, pd);
                    let im = self.convert(&im, w, pd);
                    self.pack(od, &re, &im)
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        };
        self.alias(v, res);
        Ok(())
    }

    /// Branches to a codegen-made panic when `bad` holds.
    fn guard_panic(&mut self, v: ValueId, bad: &str, msg: &str) {
        let loc = self.loc_text(v);
        let thunk = self.e.codegen_thunk(msg, loc);
        let md = self.e.weights_md((1, 2000));
        self.tmp += 1;
        let (fail, ok) = (format!("g{}.fail", self.tmp), format!("g{}.ok", self.tmp));
        self.line(format!("br i1 {bad}, label %{fail}, label %{ok}, !prof {md}"));
        let _ = writeln!(self.out, "{fail}:");
        self.line(format!("call void {thunk}()"));
        self.line("unreachable");
        let _ = writeln!(self.out, "{ok}:");
    }

    fn unary(&mut self, v: ValueId, op: Opcode, x: ValueId) -> R<()> {
        let d = self.dt(x);
        let rd = self.dt(v);
        let t = llty(d);
        let a = self.val(x);
        let res = match op {
            Opcode::Not => self.def(format!("xor i1 {a}, true")),
            Opcode::Inv if d == DType::Bool => self.def(format!("xor i1 {a}, true")),
            Opcode::Inv => self.def(format!("xor {t} {a}, -1")),
            Opcode::Neg if d.is_int() => self.def(format!("sub {t} 0, {a}")),
            Opcode::Neg if d.is_float() => self.def(format!("fneg {t} {a}")),
            Opcode::Neg if d.is_complex() => {
                let (re, im) = self.unpack(d, &a);
                let pt = llty(part(d));
                let r2 = self.def(format!("fneg {pt} {re}"));
                let i2 = self.def(format!("fneg {pt} {im}"));
                self.pack(d, &r2, &i2)
            }
            Opcode::Abs if d.is_signed_int() => {
                let n = self.def(format!("icmp slt {t} {a}, 0"));
                let m = self.def(format!("sub {t} 0, {a}"));
                self.def(format!("select i1 {n}, {t} {m}, {t} {a}"))
            }
            Opcode::Abs if d.is_int() => a,
            Opcode::Abs if d.is_float() => self.intrinsic1("fabs", t, &a),
            Opcode::Abs if d.is_complex() => {
                let (re, im) = self.unpack(d, &a);
                let pd = part(d);
                let re = self.convert(&re, pd, DType::Float64);
                let im = self.convert(&im, pd, DType::Float64);
                let h = self.libm2("hypot", &re, &im);
                self.convert(&h, DType::Float64, rd)
            }
            _ => return self.err(Some(v), format!("`{}` on {d}", op.mnemonic())),
        };
        self.alias(v, res);
        Ok(())
    }

    /// The address of the element at byte offset `off` (the value `off_v`)
    /// of an array of `d`.
    fn data_addr(&mut self, arr: &str, off: &str, off_v: ValueId, d: DType) -> String {
        let (h, _) = self.e.tbaa_tags();
        let data = self.def(format!("load ptr, ptr {arr}, {h}"));
        let bop = self.def(format!("getelementptr i8, ptr {arr}, i64 {}", runtime::dltensor::BYTE_OFFSET));
        let bo = self.def(format!("load i64, ptr {bop}, {h}"));
        let a1 = self.def(format!("getelementptr i8, ptr {data}, i64 {bo}"));
        match self.elem.get(&off_v) {
            Some((size, idx)) if *size == d.size_bytes() && !self.slots.contains_key(&off_v) => {
                let idx = idx.clone();
                self.def(format!("getelementptr {}, ptr {a1}, i64 {idx}", memty(d)))
            }
            _ => self.def(format!("getelementptr i8, ptr {a1}, i64 {off}")),
        }
    }

    /// Records the element-index form of an integer `mul`, `add` or `sub`
    /// whose operands have one (see `FnEmit::elem`): `x * stride`,
    /// `a + b`, `a - b`, with constants that are multiples of the size.
    fn elem_form(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) {
        // (An operand that is a variable is read here, never re-read later:
        // its value may change between here and a use.)
        if self.dt(v) != DType::Int64 {
            return;
        }
        let konst = |me: &Self, x: ValueId| -> Option<i64> {
            match me.f.body.inst(x) {
                InstData::Const(Literal::Int(i)) => i64::try_from(i).ok(),
                _ => None,
            }
        };
        let form = |me: &Self, x: ValueId, size: u32| -> Option<String> {
            if let Some((s, t)) = me.elem.get(&x) {
                return (*s == size && !me.slots.contains_key(&x)).then(|| t.clone());
            }
            let c = konst(me, x)?;
            (c % size as i64 == 0).then(|| (c / size as i64).to_string())
        };
        let r_form = match op {
            Opcode::Mul => {
                // One side is a stride (or a multiple of one); the other is
                // any value, loaded here if it is a variable.
                let (s, other) = match (self.elem.get(&l), self.elem.get(&r)) {
                    (Some(_), _) if !self.slots.contains_key(&l) => (l, r),
                    (_, Some(_)) if !self.slots.contains_key(&r) => (r, l),
                    _ => return,
                };
                let (size, t) = self.elem[&s].clone();
                let x = self.val(other);
                Some((size, self.def(format!("mul i64 {x}, {t}"))))
            }
            Opcode::Add | Opcode::Sub => {
                let size = match (self.elem.get(&l), self.elem.get(&r)) {
                    (Some((s, _)), _) | (None, Some((s, _))) => *s,
                    _ => return,
                };
                match (form(self, l, size), form(self, r, size)) {
                    (Some(a), Some(b)) => {
                        let o = if op == Opcode::Add { "add" } else { "sub" };
                        Some((size, self.def(format!("{o} i64 {a}, {b}"))))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(f) = r_form {
            self.elem.insert(v, f);
        }
    }

    /// The byte stride of `axis` of an array of rank `ndim` and element
    /// size `size`, without a call: `strides[axis] * size`, or for a
    /// compact tensor (`strides == NULL`) the product of the later
    /// extents times `size` (the rank is trusted, docs/abi.md §3).
    /// Returns (element stride, byte stride).
    fn inline_stride(&mut self, arr: &str, axis: usize, ndim: usize, size: u32) -> (String, String) {
        let (h, _) = self.e.tbaa_tags();
        let sp = self.def(format!("getelementptr i8, ptr {arr}, i64 {}", runtime::dltensor::STRIDES));
        let strides = self.def(format!("load ptr, ptr {sp}, {h}"));
        let nul = self.def(format!("icmp eq ptr {strides}, null"));
        let n = self.tmp + 1;
        let (given, compact, join) = (format!("st{n}.given"), format!("st{n}.compact"), format!("st{n}.join"));
        self.line(format!("br i1 {nul}, label %{compact}, label %{given}"));
        let _ = writeln!(self.out, "{given}:");
        let e = self.def(format!("getelementptr i64, ptr {strides}, i64 {axis}"));
        let g = self.def(format!("load i64, ptr {e}, {h}"));
        self.line(format!("br label %{join}"));
        let _ = writeln!(self.out, "{compact}:");
        let mut c = "1".to_owned();
        if axis + 1 < ndim {
            let shp = self.def(format!("getelementptr i8, ptr {arr}, i64 {}", runtime::dltensor::SHAPE));
            let shape = self.def(format!("load ptr, ptr {shp}, {h}"));
            for k in axis + 1..ndim {
                let e = self.def(format!("getelementptr i64, ptr {shape}, i64 {k}"));
                let d = self.def(format!("load i64, ptr {e}, {h}"));
                c = if c == "1" { d } else { self.def(format!("mul i64 {c}, {d}")) };
            }
        }
        self.line(format!("br label %{join}"));
        let _ = writeln!(self.out, "{join}:");
        let se = self.def(format!("phi i64 [ {g}, %{given} ], [ {c}, %{compact} ]"));
        let sb = self.def(format!("mul i64 {se}, {size}"));
        (se, sb)
    }

    /// The `DLTensor` of the block-shared array that the `postc.gpu.shared`
    /// call `v` names, built in the entry block: its data is what
    /// `postc.gpu.shared.SYMBOL.N()` returns (defined per target by the GPU
    /// code generation), its shape and strides constants of its type.
    fn shared_header(&mut self, v: ValueId) -> R<()> {
        let t = match self.tyd(v) {
            Some(t) => t,
            None => return self.err(Some(v), "`postc.gpu.shared` without a result type".into()),
        };
        let dims: Vec<i64> = match &t.shape {
            postc_ir::Shape::Dims(d) if d.iter().all(Option::is_some) => {
                d.iter().map(|n| n.unwrap_or(0) as i64).collect()
            }
            _ => return self.err(Some(v), format!("`postc.gpu.shared` needs a static shape, got {t}")),
        };
        if t.dtype.is_text() {
            return self.err(Some(v), format!("`postc.gpu.shared` cannot make an array of {}", t.dtype));
        }
        let (code, bits) = crate::abi::dlpack_dtype(t.dtype);
        let nd = dims.len();
        let mut strides = vec![1i64; nd];
        if t.layout == postc_ir::Layout::FOrder {
            for a in 1..nd {
                strides[a] = strides[a - 1] * dims[a - 1];
            }
        } else {
            for a in (0..nd.saturating_sub(1)).rev() {
                strides[a] = strides[a + 1] * dims[a + 1];
            }
        }
        let shape_g = self.e.const_i64s(&dims);
        let strides_g = self.e.const_i64s(&strides);
        let getter = crate::gpu::shared_symbol(&self.sig.symbol, v);
        self.e.decl(&getter, format!("declare ptr @\"{getter}\"()"));
        let h = format!("%sh{}", v.as_u32());
        let ty = runtime::dltensor::LLVM_TYPE;
        self.line(format!("{h} = alloca {ty}, align 8"));
        let data = self.def(format!("call ptr @\"{getter}\"()"));
        let fields = [
            (runtime::dltensor::DATA, format!("ptr {data}")),
            (runtime::dltensor::DEVICE, "{ i32, i32 } { i32 1, i32 0 }".to_owned()),
            (runtime::dltensor::NDIM, format!("i32 {nd}")),
            (runtime::dltensor::DTYPE, format!("{{ i8, i8, i16 }} {{ i8 {}, i8 {}, i16 1 }}", code as i8, bits as i8)),
            (runtime::dltensor::SHAPE, format!("ptr {shape_g}")),
            (runtime::dltensor::STRIDES, format!("ptr {strides_g}")),
            (runtime::dltensor::BYTE_OFFSET, "i64 0".to_owned()),
        ];
        for (off, val) in fields {
            let at = self.def(format!("getelementptr i8, ptr {h}, i64 {off}"));
            self.line(format!("store {val}, ptr {at}"));
        }
        self.alias(v, h);
        Ok(())
    }

    /// Branches to a panic with the bounds message of `axis` (the index and
    /// the extent as its arguments) when `bad` holds.
    fn guard_bounds(&mut self, v: ValueId, bad: &str, axis: usize, idx: &str, n: &str) {
        let loc = self.loc_text(v);
        let fmt = panic_format(&postc_passes::insert_checks::bounds_message(axis), 2, loc.as_deref());
        let g = self.e.cstring(fmt.as_bytes());
        self.e.panic_decl();
        let md = self.e.weights_md((1, 2000));
        self.tmp += 1;
        let (fail, ok) = (format!("g{}.fail", self.tmp), format!("g{}.ok", self.tmp));
        self.line(format!("br i1 {bad}, label %{fail}, label %{ok}, !prof {md}"));
        let _ = writeln!(self.out, "{fail}:");
        self.line(format!("call void (ptr, ...) @postc_rt_panic(ptr {g}, i64 {idx}, i64 {n})"));
        self.line("unreachable");
        let _ = writeln!(self.out, "{ok}:");
    }

    /// `postc.gpu.atomic_add(%a, %i..., %x)`: each index checked against
    /// its extent, then one `atomicrmw` on the element.
    fn atomic_add(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let (Some(&a), Some(&x)) = (args.first(), args.last()) else {
            return self.err(Some(v), "`postc.gpu.atomic_add` without its operands".into());
        };
        let d = self.dt(a);
        let nd = args.len().saturating_sub(2);
        if self.tyd(a).and_then(|t| t.ndim()) != Some(nd) || !postc_ir::builtins::atomic_dtype(d) {
            return self.err(Some(v), "`postc.gpu.atomic_add` with operands of the wrong types".into());
        }
        let arr = self.val(a);
        let (h, _) = self.e.tbaa_tags();
        let mut off = "0".to_owned();
        if nd > 0 {
            let sp = self.def(format!("getelementptr i8, ptr {arr}, i64 {}", runtime::dltensor::SHAPE));
            let shape = self.def(format!("load ptr, ptr {sp}, {h}"));
            for (axis, &i) in args[1..args.len() - 1].iter().enumerate() {
                let id = self.dt(i);
                let iv = self.val(i);
                let i64v = self.convert(&iv, id, DType::Int64);
                let e = self.def(format!("getelementptr i64, ptr {shape}, i64 {axis}"));
                let n = self.def(format!("load i64, ptr {e}, {h}"));
                let bad = self.def(format!("icmp uge i64 {i64v}, {n}"));
                self.guard_bounds(v, &bad, axis, &i64v, &n);
                let (_, sb) = self.inline_stride(&arr, axis, nd, d.size_bytes());
                let term = self.def(format!("mul i64 {i64v}, {sb}"));
                off = self.def(format!("add i64 {off}, {term}"));
            }
        }
        let data = self.def(format!("load ptr, ptr {arr}, {h}"));
        let bop = self.def(format!("getelementptr i8, ptr {arr}, i64 {}", runtime::dltensor::BYTE_OFFSET));
        let bo = self.def(format!("load i64, ptr {bop}, {h}"));
        let base = self.def(format!("getelementptr i8, ptr {data}, i64 {bo}"));
        let addr = self.def(format!("getelementptr i8, ptr {base}, i64 {off}"));
        let xv = self.val(x);
        let op = if d.is_float() { "fadd" } else { "add" };
        let old = self.def(format!("atomicrmw {op} ptr {addr}, {} {xv} monotonic, align {}", llty(d), d.size_bytes()));
        self.alias(v, old);
        Ok(())
    }

    fn resolve(&self, callee: &'p str) -> Option<Target<'p>> {
        resolve(self.e.program, &self.e.index, self.mid, callee)
    }

    fn call(&mut self, v: ValueId, callee: &'p str, args: Vec<ValueId>) -> R<()> {
        let Some(target) = self.resolve(callee) else {
            if let Some(imp) = self.m.boundary_imports.get(callee) {
                return self.err(
                    Some(v),
                    format!(
                        "call to `{callee}`, a boundary import of `{}.{}`, cannot be compiled (boundary functions run in Python)",
                        imp.module_name, imp.source_name
                    ),
                );
            }
            return self.err(Some(v), format!("call to unknown function `{callee}`"));
        };
        let has_result = self.f.body.ty(v).is_some();
        match target {
            Target::Builtin(Builtin::Panic) => self.panic_call(v, &args),
            Target::Builtin(Builtin::Gpu(reg, axis)) => {
                // Defined per target: special registers on a device, the
                // emulated launch's coordinates on the host (see `gpu`).
                let name = postc_ir::builtins::gpu_builtin_name(reg, axis);
                self.e.decl(&name, format!("declare i64 @\"{name}\"()"));
                let r = self.def(format!("call i64 @\"{name}\"()"));
                self.alias(v, r);
                Ok(())
            }
            // Named by its call site: its header was built in the entry block.
            Target::Builtin(Builtin::Shared) => Ok(()),
            Target::Builtin(Builtin::SyncThreads) => {
                let name = postc_ir::builtins::SYNC_THREADS;
                self.e.decl(name, format!("declare void @\"{name}\"() convergent nounwind"));
                self.line(format!("call void @\"{name}\"() convergent"));
                Ok(())
            }
            Target::Builtin(Builtin::AtomicAdd) => self.atomic_add(v, &args),
            Target::Builtin(Builtin::Overflows(op)) => {
                let d = self.dt(args[0]);
                let t = llty(d);
                let s = if d.is_signed_int() { "s" } else { "u" };
                let a = self.val(args[0]);
                let r = match op {
                    OvfOp::Add | OvfOp::Sub | OvfOp::Mul => {
                        let b = self.val(args[1]);
                        let n = match op {
                            OvfOp::Add => "add",
                            OvfOp::Sub => "sub",
                            _ => "mul",
                        };
                        let name = format!("llvm.{s}{n}.with.overflow.{t}");
                        self.e.decl(&name, format!("declare {{ {t}, i1 }} @{name}({t}, {t})"));
                        let p = self.def(format!("call {{ {t}, i1 }} @{name}({t} {a}, {t} {b})"));
                        self.def(format!("extractvalue {{ {t}, i1 }} {p}, 1"))
                    }
                    OvfOp::Neg => {
                        if d.is_signed_int() {
                            let name = format!("llvm.ssub.with.overflow.{t}");
                            self.e.decl(&name, format!("declare {{ {t}, i1 }} @{name}({t}, {t})"));
                            let p = self.def(format!("call {{ {t}, i1 }} @{name}({t} 0, {t} {a})"));
                            self.def(format!("extractvalue {{ {t}, i1 }} {p}, 1"))
                        } else {
                            self.def(format!("icmp ne {t} {a}, 0"))
                        }
                    }
                    OvfOp::Abs => {
                        if d.is_signed_int() {
                            let min = -(1i128 << (d.bits() - 1));
                            self.def(format!("icmp eq {t} {a}, {min}"))
                        } else {
                            "false".to_owned()
                        }
                    }
                    OvfOp::Pow => {
                        let b = self.val(args[1]);
                        let h = self.e.helper(helpers::int_pow_overflows(d.bits(), d.is_signed_int()));
                        self.def(format!("call i1 @\"{h}\"({t} {a}, {t} {b})"))
                    }
                };
                self.alias(v, r);
                Ok(())
            }
            Target::Intrinsic(sym) => self.intrinsic_call(v, sym, &args),
            Target::Func(mid, fid) => {
                let sig = self.e.sigs[&(mid, fid)].clone();
                let callee_f = &self.e.program.modules[mid].functions[fid];
                let cm = &self.e.program.modules[mid];
                let mut parts = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let pty = &sig.params[i];
                    let attr = sig.param_attrs[i];
                    let pv = callee_f.body.all_params().nth(i);
                    let p_is_complex = pv
                        .and_then(|p| callee_f.body.ty(p))
                        .map(|t| cm.types.get(t))
                        .is_some_and(|t| !t.is_array && t.dtype.is_complex());
                    let x = self.val(*a);
                    let x = if p_is_complex {
                        let d = self.dt(*a);
                        let tmp = self.temp(d);
                        self.line(format!("store {} {x}, ptr {tmp}", llty(d)));
                        tmp
                    } else {
                        x
                    };
                    let attr = if attr.is_empty() { String::new() } else { format!("{attr} ") };
                    parts.push(format!("{pty} {attr}{x}"));
                }
                let out = if sig.complex_out {
                    let d = callee_f.return_dtype(&cm.types).unwrap_or(DType::Complex128);
                    let tmp = self.temp(d);
                    parts.push(format!("ptr {tmp}"));
                    Some((tmp, d))
                } else {
                    None
                };
                let ra = if sig.ret_attr.is_empty() { String::new() } else { format!("{} ", sig.ret_attr) };
                let symbol = self.e.shield.text_symbol(&sig.symbol);
                let call = format!("call {ra}{} @\"{symbol}\"({})", sig.ret, parts.join(", "));
                let depth = (self.counts_depth && !is_panic_thunk(callee_f)).then(|| self.enter_call(v));
                if let Some((tmp, d)) = out {
                    self.line(call);
                    if has_result {
                        self.set(v, format!("load {}, ptr {tmp}", llty(d)));
                    }
                } else if sig.ret == "void" {
                    self.line(call);
                } else if has_result {
                    self.set(v, call);
                    if sig.array_ret {
                        self.e.use_runtime_part(runtime::Part::Arena);
                        self.line(format!("call void @{}(ptr %v{})", runtime::ARENA_ADOPT, v.as_u32()));
                    }
                } else {
                    let r = self.def(call);
                    if sig.array_ret {
                        self.e.use_runtime_part(runtime::Part::Arena);
                        self.line(format!("call void @{}(ptr {r})", runtime::ARENA_ADOPT));
                    }
                }
                if let Some(d) = depth {
                    self.line(format!("store i64 {d}, ptr @{DEPTH}"));
                }
                Ok(())
            }
        }
    }

    /// Before a call that counts the depth: panics `recursion limit
    /// exceeded` when the caller's frame is the interpreter's last one (the
    /// outermost frame is the first), else counts the callee's frame.
    /// Returns the depth to restore after the call.
    fn enter_call(&mut self, v: ValueId) -> String {
        self.e.use_runtime_part(runtime::Part::Depth);
        let d = self.def(format!("load i64, ptr @{DEPTH}"));
        let deep = self.def(format!("icmp uge i64 {d}, {}", postc_ir::interp::MAX_FRAMES - 1));
        self.guard_panic(v, &deep, "recursion limit exceeded");
        let d1 = self.def(format!("add i64 {d}, 1"));
        self.line(format!("store i64 {d1}, ptr @{DEPTH}"));
        d
    }

    fn intrinsic_call(&mut self, v: ValueId, sym: &str, args: &[ValueId]) -> R<()> {
        const LLVM1: &[&str] =
            &["sqrt", "sin", "cos", "exp", "exp2", "log", "log2", "log10", "fabs", "floor", "ceil", "trunc", "round"];
        const LLVM2: &[&str] = &["pow", "copysign"];
        let rd = self.f.body.ty(v).map(|t| self.m.types.dtype(t));
        let (base, f32_symbol) = match intrinsic_base(sym) {
            Some(x) => x,
            None => (sym, false),
        };
        let known = intrinsic_base(sym).is_some();
        if !known {
            // An external symbol (e.g. from --link-ir): arguments as they are.
            let mut parts = Vec::new();
            let mut tys = Vec::new();
            for a in args {
                let t = if self.is_array(*a) { "ptr" } else { llty(self.dt(*a)) };
                let x = self.val(*a);
                parts.push(format!("{t} {x}"));
                tys.push(t);
            }
            let rt = rd.map(llty).unwrap_or("void");
            self.e.decl(sym, format!("declare {rt} @\"{sym}\"({})", tys.join(", ")));
            let call = format!("call {rt} @\"{sym}\"({})", parts.join(", "));
            if rd.is_some() {
                self.set(v, call);
            } else {
                self.line(call);
            }
            return Ok(());
        }
        let all_f32 = args.iter().all(|a| self.dt(*a) == DType::Float32) && rd == Some(DType::Float32);
        let w = if all_f32 || f32_symbol { DType::Float32 } else { DType::Float64 };
        let wt = llty(w);
        let mut xs = Vec::new();
        for a in args {
            let d = self.dt(*a);
            let x = self.val(*a);
            xs.push(self.convert(&x, d, w));
        }
        let list = xs.iter().map(|x| format!("{wt} {x}")).collect::<Vec<_>>().join(", ");
        let tys = vec![wt; xs.len()].join(", ");
        let name = if LLVM1.contains(&base) || LLVM2.contains(&base) || base == "fma" {
            format!("llvm.{base}.{}", float_suffix(w))
        } else if w == DType::Float32 {
            format!("{base}f")
        } else {
            base.to_owned()
        };
        let attrs = if name.starts_with("llvm.") { "" } else { " nounwind" };
        self.e.decl(&name, format!("declare {wt} @\"{name}\"({tys}){attrs}"));
        let r = self.def(format!("call {wt} @\"{name}\"({list})"));
        if let Some(rd) = rd {
            let r = self.convert(&r, w, rd);
            self.alias(v, r);
        }
        Ok(())
    }

    fn panic_call(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let body = &self.f.body;
        let loc = self.loc_text(v);
        self.e.panic_decl();
        let msg = args.first().copied();
        let lit = msg.and_then(|m| match body.inst(m) {
            InstData::Const(Literal::Str(s)) if !self.slots.contains_key(&m) => Some(s),
            _ => None,
        });
        let mut parts = Vec::new();
        match lit {
            Some(s) => {
                let fmt = panic_format(s, args.len() - 1, loc.as_deref());
                let g = self.e.cstring(fmt.as_bytes());
                parts.push(format!("ptr {g}"));
            }
            None => {
                // A message known at run time: printed as it is.
                let mut fmt = String::from("panic: %.*s");
                for _ in 1..args.len() {
                    fmt.push_str(" %lld");
                }
                if let Some(l) = &loc {
                    fmt.push_str(" at ");
                    fmt.push_str(&l.replace('%', "%%"));
                }
                let g = self.e.cstring(fmt.as_bytes());
                let s = match msg {
                    Some(m) => self.val(m),
                    None => "zeroinitializer".into(),
                };
                let p = self.def(format!("extractvalue {{ ptr, i64 }} {s}, 0"));
                let n = self.def(format!("extractvalue {{ ptr, i64 }} {s}, 1"));
                let n32 = self.def(format!("trunc i64 {n} to i32"));
                parts.push(format!("ptr {g}"));
                parts.push(format!("i32 {n32}"));
                parts.push(format!("ptr {p}"));
            }
        }
        for a in args.iter().skip(1) {
            let x = self.val(*a);
            parts.push(format!("i64 {x}"));
        }
        self.line(format!("call void (ptr, ...) @postc_rt_panic({})", parts.join(", ")));
        Ok(())
    }

    fn ret_value(&mut self, value: Option<ValueId>) {
        let sig = self.sig;
        match value {
            Some(x) if sig.complex_out => {
                let d = self.dt(x);
                let a = self.val(x);
                let outp = format!("%p{}", sig.params.len() - 1);
                self.line(format!("store {} {a}, ptr {outp}", llty(d)));
                self.release();
                self.line("ret void");
            }
            Some(x) if sig.array_ret => {
                let a = self.val(x);
                let mark = self.mark.clone().unwrap_or_else(|| "null".into());
                self.e.use_runtime_part(runtime::Part::Arena);
                let r = self.def(format!("call ptr @{}(ptr {mark}, ptr {a})", runtime::ARENA_EXPORT));
                self.line(format!("ret ptr {r}"));
            }
            Some(x) if sig.ret != "void" => {
                let a = self.val(x);
                self.release();
                self.line(format!("ret {} {a}", sig.ret));
            }
            _ => {
                self.release();
                self.line("ret void");
            }
        }
    }

    fn release(&mut self) {
        if let Some(m) = self.mark.clone() {
            self.line(format!("call void @{}(ptr {m})", runtime::ARENA_RELEASE));
        }
    }

    fn inst(&mut self, v: ValueId) -> R<()> {
        let body = &self.f.body;
        let inst = body.inst(v);
        match inst {
            InstData::Param { .. } => {}
            InstData::Const(lit) => {
                let d = self.dt(v);
                let text = match lit {
                    Literal::Bool(b) => format!("{b}"),
                    Literal::Int(i) => {
                        // The bit pattern as a signed number of the width.
                        let bits = d.bits();
                        let w = if bits >= 128 { i } else { (i << (128 - bits)) >> (128 - bits) };
                        format!("{w}")
                    }
                    Literal::Float(bits) => float_lit(d, bits),
                    Literal::Complex(re, im) => {
                        let p = part(d);
                        format!("{{ {} {}, {} {} }}", llty(p), float_lit(p, re), llty(p), float_lit(p, im))
                    }
                    Literal::Str(s) => {
                        let g = self.e.cstring(s.as_bytes());
                        format!("{{ ptr {g}, i64 {} }}", s.len())
                    }
                    Literal::Bytes(b) => {
                        let g = self.e.cstring(b);
                        format!("{{ ptr {g}, i64 {} }}", b.len())
                    }
                };
                self.alias(v, text);
            }
            InstData::Binary { op, left, right } => {
                self.binary(v, op, left, right)?;
                if matches!(op, Opcode::Mul | Opcode::Add | Opcode::Sub) {
                    self.elem_form(v, op, left, right);
                }
            }
            InstData::Unary { op, operand } => self.unary(v, op, operand)?,
            InstData::Cast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                let x = self.val(operand);
                let r = self.convert(&x, from, to);
                self.alias(v, r);
            }
            InstData::Load { array, offset } => {
                let d = self.dt(v);
                let arr = self.val(array);
                let off = self.val(offset);
                let addr = self.data_addr(&arr, &off, offset, d);
                let (_, t) = self.e.tbaa_tags();
                if d == DType::Bool {
                    let b = self.def(format!("load i8, ptr {addr}, align 1, {t}"));
                    self.set(v, format!("icmp ne i8 {b}, 0"));
                } else {
                    self.set(v, format!("load {}, ptr {addr}, align 1, {t}", llty(d)));
                }
            }
            InstData::Store { array, offset, value } => {
                let d = self.dt(value);
                let arr = self.val(array);
                let off = self.val(offset);
                let x = self.val(value);
                let addr = self.data_addr(&arr, &off, offset, d);
                let (_, t) = self.e.tbaa_tags();
                if d == DType::Bool {
                    let b = self.def(format!("zext i1 {x} to i8"));
                    self.line(format!("store i8 {b}, ptr {addr}, align 1, {t}"));
                } else {
                    self.line(format!("store {} {x}, ptr {addr}, align 1, {t}", llty(d)));
                }
            }
            InstData::Dim { array, axis } => {
                let arr = self.val(array);
                let (h, _) = self.e.tbaa_tags();
                let sp = self.def(format!("getelementptr i8, ptr {arr}, i64 {}", runtime::dltensor::SHAPE));
                let shape = self.def(format!("load ptr, ptr {sp}, {h}"));
                let e = self.def(format!("getelementptr i64, ptr {shape}, i64 {axis}"));
                self.set(v, format!("load i64, ptr {e}, {h}"));
            }
            InstData::Stride { array, axis } => {
                let d = self.dt(array);
                let arr = self.val(array);
                match self.tyd(array).and_then(|t| t.ndim()) {
                    Some(ndim) if (axis as usize) < ndim => {
                        let (se, sb) = self.inline_stride(&arr, axis as usize, ndim, d.size_bytes());
                        self.alias(v, sb);
                        self.elem.insert(v, (d.size_bytes(), se));
                    }
                    _ => {
                        self.e.use_runtime_part(runtime::Part::Stride);
                        self.set(
                            v,
                            format!("call i64 @{}(ptr {arr}, i64 {axis}, i64 {})", runtime::STRIDE, d.size_bytes()),
                        );
                    }
                }
            }
            InstData::Call { callee, args } => {
                let args: Vec<ValueId> = args.iter().collect();
                self.call(v, callee, args)?;
            }
            InstData::Let { value } => {
                let x = self.val(value);
                let ty = self.vty(v);
                let slot = self.slots[&v].clone();
                self.line(format!("store {ty} {x}, ptr {slot}"));
            }
            InstData::Set { target, value } => {
                let x = self.val(value);
                let ty = self.vty(target);
                let slot = self.slots[&target].clone();
                self.line(format!("store {ty} {x}, ptr {slot}"));
            }
            InstData::Select { cond, if_true, if_false } => {
                let c = self.val(cond);
                let a = self.val(if_true);
                let b = self.val(if_false);
                let ty = self.vty(v);
                self.set(v, format!("select i1 {c}, {ty} {a}, {ty} {b}"));
            }
            InstData::Alloc { length } => {
                let d = self.dt(v);
                if d.is_text() {
                    return self.err(Some(v), format!("cannot allocate an array of {d}"));
                }
                let (code, bits) = crate::abi::dlpack_dtype(d);
                let n = self.val(length);
                let neg = self.def(format!("icmp slt i64 {n}, 0"));
                self.guard_panic(v, &neg, "negative allocation length");
                self.e.use_runtime_part(runtime::Part::Arena);
                self.set(
                    v,
                    format!(
                        "call ptr @{}(i64 {n}, i8 {code}, i8 {}, i64 {})",
                        runtime::ALLOC_ARRAY,
                        bits as i8,
                        d.size_bytes()
                    ),
                );
            }
            InstData::GetField { aggregate, field: Field::Len } => {
                let d = self.dt(aggregate);
                let x = self.val(aggregate);
                if d == DType::Bytes {
                    self.set(v, format!("extractvalue {} {x}, 1", llty(d)));
                } else {
                    let h = self.e.helper(helpers::str_len());
                    self.set(v, format!("call i64 @\"{h}\"({} {x})", llty(d)));
                }
            }
            InstData::GetField { aggregate, field } => {
                let d = self.dt(aggregate);
                let x = self.val(aggregate);
                self.set(v, format!("extractvalue {} {x}, {}", llty(d), field as u32));
            }
            InstData::SetField { aggregate, field, value } => {
                let d = self.dt(aggregate);
                let slot = self.slots[&aggregate].clone();
                let cur = self.def(format!("load {}, ptr {slot}", llty(d)));
                let x = self.val(value);
                let n = self.def(format!("insertvalue {} {cur}, {} {x}, {}", llty(d), llty(part(d)), field as u32));
                self.line(format!("store {} {n}, ptr {slot}", llty(d)));
            }
            InstData::IndexLoad { .. } | InstData::IndexStore { .. } => {
                return self.err(
                    Some(v),
                    "`index.load`/`index.store` reached code generation (the `stride-lower` pass must run first)"
                        .into(),
                );
            }
            InstData::Return { value } => self.ret_value(value),
            InstData::Br { target } => {
                let l = self.labels[&target].clone();
                self.line(format!("br label %{l}"));
            }
            InstData::CondBr { cond, if_true, if_false, weights } => {
                let c = self.val(cond);
                let (a, b) = (self.labels[&if_true].clone(), self.labels[&if_false].clone());
                let md = match weights {
                    Some(w) => format!(", !prof {}", self.e.weights_md(w)),
                    None => String::new(),
                };
                self.line(format!("br i1 {c}, label %{a}, label %{b}{md}"));
            }
            InstData::Unreachable => {
                // After a call that never returns nothing more is needed;
                // anywhere else reaching it is a located panic.
                let after_noreturn = v.as_u32() > 0
                    && match body.inst(ValueId::from_u32(v.as_u32() - 1)) {
                        // The compiler's own panic paths; a user's `noreturn`
                        // function that returned would reach the panic.
                        InstData::Call { callee, .. } => match self.resolve(callee) {
                            Some(Target::Builtin(Builtin::Panic)) => true,
                            Some(Target::Func(m, f)) => is_panic_thunk(&self.e.program.modules[m].functions[f]),
                            _ => false,
                        },
                        _ => false,
                    };
                if !after_noreturn {
                    let loc = self.loc_text(v);
                    let thunk = self.e.codegen_thunk("entered unreachable code", loc);
                    self.line(format!("call void {thunk}()"));
                }
                self.line("unreachable");
            }
            InstData::Malformed => return self.err(Some(v), "malformed instruction".into()),
        }
        Ok(())
    }
}

fn float_suffix(d: DType) -> &'static str {
    match d {
        DType::Float16 => "f16",
        DType::Float32 => "f32",
        _ => "f64",
    }
}

fn float_suffix_t(t: &str) -> &'static str {
    match t {
        "half" => "f16",
        "float" => "f32",
        _ => "f64",
    }
}

/// The math functions an intrinsic import may name (as the interpreter
/// knows them), without the `f` suffix.
const MATH: &[&str] = &[
    "sqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "fabs",
    "floor",
    "ceil",
    "trunc",
    "round",
    "rint",
    "nearbyint",
    "cbrt",
    "erf",
    "erfc",
    "lgamma",
    "tgamma",
    "atan2",
    "pow",
    "fmod",
    "hypot",
    "copysign",
    "fmin",
    "fmax",
    "fdim",
    "fma",
];

/// The base name of a math symbol and whether it named the `float` variant.
pub(crate) fn intrinsic_base(sym: &str) -> Option<(&str, bool)> {
    if MATH.contains(&sym) {
        return Some((sym, false));
    }
    let b = sym.strip_suffix('f')?;
    MATH.contains(&b).then_some((b, true))
}

/// Reverse postorder of the blocks reachable from the entry.
fn rpo(body: &postc_ir::Body) -> Vec<BlockId> {
    let n = body.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let entry = BlockId::from_u32(0);
    let mut stack: Vec<(BlockId, usize)> = vec![(entry, 0)];
    seen[0] = true;
    while let Some((b, i)) = stack.pop() {
        let succ = body.successors(b);
        if i < succ.len() {
            stack.push((b, i + 1));
            let s = succ[i];
            if s.index() < n && !seen[s.index()] {
                seen[s.index()] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

#[allow(dead_code)]
fn lit_f64(d: DType, bits: u64) -> f64 {
    float_bits_to_f64(d, bits)
}

#[allow(dead_code)]
fn loc_of(m: &Module, l: SrcLoc) -> String {
    format!("{}:{}:{}", m.files.path(l.file), l.line, l.col)
}
