//! The WebAssembly backend: a prepared program (see [`crate::prepare`]) as
//! one WebAssembly module, written with `wasm-encoder` and validated with
//! `wasmparser` before it is handed out (an invalid module is an internal
//! error, never a file); `--emit wat` prints the same module as text.
//!
//! Values live in locals: Bool and the 8- to 32-bit integers in `i32`,
//! kept extended from their width by their signedness (an operation that
//! can leave the width is followed by the extension that re-narrows it),
//! the 64-bit integers in `i64`, Float32 `f32`, Float64 `f64`, Float16 as
//! its bits in an `i32` (`half.rs`: its conversions are `legalize`'s, integer
//! operations on the bits), a complex as two
//! locals of its part's type (`complex.rs`), Str and Bytes as an address
//! and a length in the module's memory (`text.rs`), arrays as the 32-bit
//! address of their `DLTensor` in the module's memory (docs/abi.md §14
//! gives the layout). Control flow is structured from the dominator tree
//! (`structure.rs`): loops become `loop`s, join points the code after a
//! `block`, branches `br`, `br_if` and `if`. A function whose graph is
//! irreducible (only hand-written IR can have one) is one dispatch loop
//! instead: `loop` around nested `block`s and a `br_table`.
//!
//! What WebAssembly has no instruction for is written out as small helper
//! functions (an axis's byte stride, text concatenation and comparison;
//! overflow tests, floor division, powers and CPython's float and complex
//! algorithms are written out by `legalize` before the backend sees the
//! program);
//! math functions are imported from `env` under their libm names. A panic
//! does not format its message: it calls the imported
//! `env.postc_panic(fmt, fmt_len, args, nargs)` with the printf format the
//! native backends pass to the runtime (`abi::panic_format`,
//! `abi::runtime_panic_format`) and its arguments as `i64`s in the arena,
//! and the host formats it; then the module traps. The module exports `memory`,
//! `postc_arena_mark`, `postc_arena_alloc` and `postc_arena_release` (the
//! arena the JavaScript loader `postc.mjs` copies arrays into, reset after
//! each call) and a custom section `postc.signatures` describing each
//! exported function's parameters and result for the loader. A returned
//! array is its `DLTensor`'s address; a tuple result is written through
//! one `i32` out-pointer per element, the last parameters (docs/abi.md
//! §14); the recursion guard's count of the call depth (`postc.depth`,
//! `postc.set_depth`) is the exported mutable global `postc_depth`, an
//! `i32`, which the loader resets after a call that throws.
//! An exported ufunc also exports `NAME_loop` and `NAME_dl`, the
//! compiler-made functions `ufunc-entry` and `ufunc-dl` wrote.

mod complex;
mod func;
mod half;
mod peephole;
mod structure;
mod text;

use crate::symbols::{Conventions, DeviceFunctions, SymbolPlan};
use crate::{CodegenOptions, EmitKind};
use postc_ir::builtins::Builtin;
use postc_ir::diag::Diagnostic;
use postc_ir::{DType, FuncAttrs, FuncId, ModuleId, Program};
use std::collections::{BTreeMap, HashMap};
use wasm_encoder::{
    CodeSection, ConstExpr, CustomSection, DataSection, ExportKind, ExportSection, Function, FunctionSection,
    GlobalSection, GlobalType, ImportSection, Instruction, MemorySection, MemoryType, Module, TypeSection, ValType,
};

/// The WebAssembly backend.
pub struct Wasm;

/// The JavaScript loader that instantiates the modules this backend makes.
pub const LOADER: &str = include_str!("postc.mjs");

/// What this backend lowers natively; `legalize` writes out the rest
/// (docs/backends.md). WebAssembly's `trunc_sat` instructions saturate; it has no Float16: a Float16 is
/// its bits in an `i32`, which `legalize` converts with integer operations on them
/// (`postc.f16.widen`, `postc.f16.narrow`).
pub const FEATURES: crate::Features = crate::Features {
    saturating_casts: true,
    float16_arithmetic: false,
    float16_conversions: false,
    complex_products: false,
    overflow_tests: false,
};

impl crate::backend::Backend for Wasm {
    fn name(&self) -> &'static str {
        "wasm"
    }
    fn features(&self) -> crate::Features {
        FEATURES
    }
    fn emit_kinds(&self) -> &'static [EmitKind] {
        &[EmitKind::Wasm, EmitKind::Wat]
    }
    fn emit(&self, program: &Program, options: &CodegenOptions, kind: EmitKind) -> Result<Vec<u8>, Vec<Diagnostic>> {
        let wasm32 = |t: &str| t.starts_with("wasm32");
        crate::backend::refuse_options(options, "the wasm backend", "wasm32 only", wasm32, "another backend")?;
        let mut timer = crate::Timer { on: options.time_passes, lines: Vec::new() };
        let prepared =
            timer.time("postc passes", || crate::prepare_with_ufunc_loops(program, options, false, FEATURES))?;
        let bytes = timer.time("tables to wasm", || translate(&prepared, options.debug))?;
        timer.time("validate (wasmparser)", || validate(&bytes))?;
        let out = match kind {
            EmitKind::Wat => wasmprinter::print_bytes(&bytes)
                .map(String::into_bytes)
                .map_err(|e| crate::internal(format!("printing the module as text: {e}"))),
            _ => Ok(bytes),
        };
        timer.report();
        out
    }
}

/// Checks a module with `wasmparser`'s validator (the features V8 ships).
pub fn validate(bytes: &[u8]) -> Result<(), Vec<Diagnostic>> {
    let mut v = wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::default());
    v.validate_all(bytes).map(|_| ()).map_err(|e| crate::internal(format!("the wasm module does not validate: {e}")))
}

/// The value type of a dtype held in one local (Float16 as its bits), or
/// `None` for the dtypes held in two ([`val_types`]).
pub(crate) fn val_type(d: DType) -> Option<ValType> {
    Some(match d {
        DType::Bool
        | DType::Int8
        | DType::UInt8
        | DType::Int16
        | DType::UInt16
        | DType::Int32
        | DType::UInt32
        | DType::Float16 => ValType::I32,
        DType::Int64 | DType::UInt64 => ValType::I64,
        DType::Float32 => ValType::F32,
        DType::Float64 => ValType::F64,
        _ => return None,
    })
}

/// The locals a scalar of dtype `d` occupies: one, or two for a complex
/// (real and imaginary part) and for Str and Bytes (address and length).
pub(crate) fn val_types(d: DType) -> Vec<ValType> {
    match d {
        DType::Complex64 => vec![ValType::F32; 2],
        DType::Complex128 => vec![ValType::F64; 2],
        DType::Str | DType::Bytes => vec![ValType::I32; 2],
        _ => val_type(d).into_iter().collect(),
    }
}

pub(crate) use crate::calls::Target;

/// Function indices of defined functions are written `DEFINED + k` while
/// translating, and become `imports + k` when the import count is known.
pub(crate) const DEFINED: u32 = 1 << 30;

/// A function's signature.
#[derive(Clone, Debug)]
pub(crate) struct Sig {
    pub name: String,
    pub exported: bool,
    pub params: Vec<ValType>,
    pub results: Vec<ValType>,
    /// The index among defined functions.
    pub index: u32,
}

/// A defined function: its parameters, results, locals (after the
/// parameters) and code.
pub(crate) type Body = (Vec<ValType>, Vec<ValType>, Vec<ValType>, Vec<Instruction<'static>>);

/// The program-wide state of a translation.
pub(crate) struct Translation<'p> {
    pub program: &'p Program,
    pub index: crate::calls::Index<'p>,
    pub sigs: HashMap<(ModuleId, FuncId), Sig>,
    /// Imported functions by name: (index, params, results), in order.
    pub imports: Vec<(String, Vec<ValType>, Vec<ValType>)>,
    /// Helper functions by name: their defined index.
    pub helper_index: HashMap<String, u32>,
    /// Bodies of defined functions, by defined index.
    pub bodies: BTreeMap<u32, Body>,
    pub defined: u32,
    /// Constant data: bytes at [`DATA_BASE`], and where each string is.
    pub data: Vec<u8>,
    pub strings: HashMap<Vec<u8>, u32>,
    /// The ufunc entry points (`NAME_loop`, `NAME_dl`) by their export
    /// name: their defined index.
    pub ufunc_exports: Vec<(String, u32)>,
    /// Whether the program counts the call depth (calls `postc.depth` or
    /// `postc.set_depth`).
    pub counts_depth: bool,
}

/// Where constant data starts in memory (the first bytes stay unused so
/// that no object has address 0).
pub(crate) const DATA_BASE: u32 = 1024;

/// The global holding the arena's top.
pub(crate) const ARENA_TOP: u32 = 0;

/// The global counting the call depth, when the program does.
pub(crate) const DEPTH: u32 = 1;

impl<'p> Translation<'p> {
    pub fn resolve(&self, mid: ModuleId, callee: &'p str) -> Option<Target<'p>> {
        crate::calls::resolve(self.program, &self.index, mid, callee)
    }

    /// The address of a copy of `bytes` in the data segment.
    pub fn string(&mut self, bytes: &[u8]) -> u32 {
        if let Some(a) = self.strings.get(bytes) {
            return *a;
        }
        let at = DATA_BASE + self.data.len() as u32;
        self.data.extend_from_slice(bytes);
        self.strings.insert(bytes.to_vec(), at);
        at
    }

    /// The index of the imported function `env.name`, imported on first use.
    pub fn import(&mut self, name: &str, params: &[ValType], results: &[ValType]) -> u32 {
        if let Some(i) = self.imports.iter().position(|(n, _, _)| n == name) {
            return i as u32;
        }
        self.imports.push((name.to_owned(), params.to_vec(), results.to_vec()));
        self.imports.len() as u32 - 1
    }

    /// The (placeholder) index of helper `name`, made by `make` on first
    /// use: `make` returns the parameters, results, extra locals and body.
    pub fn helper(&mut self, name: &str, make: impl FnOnce(&mut Self) -> Body) -> u32 {
        if let Some(i) = self.helper_index.get(name) {
            return DEFINED + *i;
        }
        let k = self.defined;
        self.defined += 1;
        self.helper_index.insert(name.to_owned(), k);
        let body = make(self);
        self.bodies.insert(k, body);
        DEFINED + k
    }
}

/// How the wasm backend names and refuses functions (see [`crate::symbols`]).
const CONVENTIONS: Conventions = Conventions {
    private_symbol: crate::symbols::dotted_private_symbol,
    cannot_export,
    device: DeviceFunctions::GpuHostBody { refusal: "is not supported by the wasm backend" },
};

fn cannot_export(name: &str) -> Option<String> {
    unexportable(name).map(|why| format!("`{name}` cannot be exported by the wasm backend: {why}"))
}

/// Why an exported name cannot be an export of the module, if it cannot.
fn unexportable(name: &str) -> Option<String> {
    if name.starts_with("postc_") || name == "memory" {
        return Some("the name belongs to the module's own exports".into());
    }
    None
}

/// The JSON the loader reads for a parameter or result type: its dtype's
/// name as a string (`"Float64[]"` for an array, `"void"` for none), or a
/// tuple's as an array of its elements' names.
fn describe(m: &postc_ir::Module, t: Option<postc_ir::TypeId>) -> String {
    fn name(t: &postc_ir::TypeData) -> String {
        if t.is_array {
            format!("\"{}[]\"", t.dtype.name())
        } else {
            format!("\"{}\"", t.dtype.name())
        }
    }
    match t.map(|t| m.types.get(t)) {
        None => "\"void\"".into(),
        Some(t) if t.is_tuple() => format!("[{}]", t.elements.iter().map(name).collect::<Vec<_>>().join(",")),
        Some(t) => name(t),
    }
}

/// Translates a prepared program into the bytes of one module; with
/// `debug`, the module has a `name` section naming its functions and
/// globals (what V8 shows in stack traces and profiles).
pub fn translate(program: &Program, debug: bool) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let index = crate::calls::Index::new(program);
    let symbols = SymbolPlan::checked(program, &index, &CONVENTIONS)?;
    let mut defined = 0u32;
    let sigs = symbols.signatures(program, |m, f, symbol| {
        let mut params = Vec::new();
        for p in f.body.all_params() {
            match f.body.ty(p).map(|t| m.types.get(t)) {
                // Every parameter of a compiler-made function is an address.
                _ if f.attrs.contains(FuncAttrs::COMPILER_MADE) => params.push(ValType::I32),
                Some(t) if !t.is_array => params.extend(val_types(t.dtype)),
                _ => params.push(ValType::I32),
            }
        }
        let mut results = Vec::new();
        match f.ret.map(|t| m.types.get(t)) {
            // One out-pointer per element (docs/abi.md §14), no result.
            Some(t) if t.is_tuple() => params.extend(t.elements.iter().map(|_| ValType::I32)),
            Some(t) if t.is_array => results.push(ValType::I32),
            Some(t) => results.extend(val_types(t.dtype)),
            None => {}
        }
        defined += 1;
        Sig { name: symbol.name.clone(), exported: symbol.exported, params, results, index: defined - 1 }
    });
    let counts_depth = program.modules.iter().flat_map(|m| m.functions.iter()).any(|f| {
        f.body.tags.ids().any(|v| {
            f.body.tags[v] == postc_ir::Opcode::Call
                && matches!(f.body.inst(v), postc_ir::InstData::Call { callee, .. }
                    if matches!(Builtin::from_name(callee), Some(Builtin::Depth | Builtin::SetDepth)))
        })
    });
    let mut t = Translation {
        program,
        counts_depth,
        index,
        sigs,
        imports: Vec::new(),
        helper_index: HashMap::new(),
        bodies: BTreeMap::new(),
        defined,
        data: Vec::new(),
        strings: HashMap::new(),
        ufunc_exports: Vec::new(),
    };
    // The panic import comes first so that its index is fixed.
    t.import("postc_panic", &[ValType::I32; 4], &[]);
    func::arena_helpers(&mut t);
    for (mid, fid) in symbols.defined(program) {
        let sig = t.sigs[&(mid, fid)].clone();
        match func::translate(&mut t, mid, fid) {
            Ok((locals, code)) => {
                t.bodies.insert(sig.index, (sig.params.clone(), sig.results.clone(), locals, code));
            }
            Err(d) => diags.push(*d),
        }
    }
    // Each exported ufunc's `NAME_loop` and `NAME_dl`.
    match symbols.ufuncs(program) {
        Ok(plans) => {
            for ((mid, _), plan) in plans {
                for (prefix, symbol) in [
                    (postc_passes::ufunc_entry::LOOP_PREFIX, crate::abi::loop_symbol(&plan.symbol)),
                    (postc_passes::ufunc_dl::DL_PREFIX, crate::abi::dl_symbol(&plan.symbol)),
                ] {
                    if let Some(fid) = t.index.function(mid, &format!("{prefix}{}", plan.name)) {
                        t.ufunc_exports.push((symbol, t.sigs[&(mid, fid)].index));
                    }
                }
            }
        }
        Err(d) => diags.extend(d),
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let aliases: Vec<(String, (ModuleId, FuncId))> =
        symbols.aliases().map(|e| (e.symbol.clone(), e.function)).collect();
    Ok(assemble(&t, &aliases, debug))
}

/// The `name` section of a finished translation: every function by its
/// symbol (a private function's `module.function`, a helper's and an
/// import's own name, the ufunc entry points'), and the globals.
fn name_section(t: &Translation<'_>, counts_depth: bool) -> wasm_encoder::NameSection {
    let nimports = t.imports.len() as u32;
    let mut functions: BTreeMap<u32, &str> = BTreeMap::new();
    for (i, (name, _, _)) in t.imports.iter().enumerate() {
        functions.insert(i as u32, name);
    }
    for sig in t.sigs.values() {
        functions.insert(nimports + sig.index, &sig.name);
    }
    for (name, k) in t.helper_index.iter().chain(t.ufunc_exports.iter().map(|(n, k)| (n, k))) {
        functions.insert(nimports + k, name);
    }
    let mut names = wasm_encoder::NameMap::new();
    for (i, name) in functions {
        names.append(i, name);
    }
    let mut globals = wasm_encoder::NameMap::new();
    globals.append(ARENA_TOP, "postc_arena_top");
    if counts_depth {
        globals.append(DEPTH, "postc_depth");
    }
    let mut section = wasm_encoder::NameSection::new();
    section.functions(&names);
    section.globals(&globals);
    section
}

/// The module's bytes from a finished translation.
fn assemble(t: &Translation<'_>, aliases: &[(String, (ModuleId, FuncId))], debug: bool) -> Vec<u8> {
    let nimports = t.imports.len() as u32;
    let fix = |i: u32| if i >= DEFINED { i - DEFINED + nimports } else { i };
    let mut types = TypeSection::new();
    let mut type_index: HashMap<(Vec<ValType>, Vec<ValType>), u32> = HashMap::new();
    let mut ty = |types: &mut TypeSection, p: &[ValType], r: &[ValType]| -> u32 {
        let key = (p.to_vec(), r.to_vec());
        if let Some(i) = type_index.get(&key) {
            return *i;
        }
        let i = type_index.len() as u32;
        types.ty().function(p.iter().copied(), r.iter().copied());
        type_index.insert(key, i);
        i
    };
    let mut imports = ImportSection::new();
    for (name, p, r) in &t.imports {
        let i = ty(&mut types, p, r);
        imports.import("env", name, wasm_encoder::EntityType::Function(i));
    }
    let mut functions = FunctionSection::new();
    let mut code = CodeSection::new();
    for (params, results, locals, body) in t.bodies.values() {
        let i = ty(&mut types, params, results);
        functions.function(i);
        let mut f = Function::new_with_locals_types(locals.iter().copied());
        for ins in body {
            match ins {
                Instruction::Call(k) => f.instruction(&Instruction::Call(fix(*k))),
                other => f.instruction(other),
            };
        }
        f.instruction(&Instruction::End);
        code.function(&f);
    }
    let data_end = DATA_BASE + t.data.len() as u32;
    let heap_start = (data_end + 15) & !15;
    let pages = (heap_start as u64).div_ceil(65536).max(1) + 1;
    let mut memories = MemorySection::new();
    memories.memory(MemoryType {
        minimum: pages,
        maximum: Some(65536),
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    let mut globals = GlobalSection::new();
    globals.global(
        GlobalType { val_type: ValType::I32, mutable: true, shared: false },
        &ConstExpr::i32_const(heap_start as i32),
    );
    let counts_depth = t.counts_depth;
    if counts_depth {
        globals.global(GlobalType { val_type: ValType::I32, mutable: true, shared: false }, &ConstExpr::i32_const(0));
    }
    let mut exports = ExportSection::new();
    exports.export("memory", ExportKind::Memory, 0);
    if counts_depth {
        exports.export("postc_depth", ExportKind::Global, DEPTH);
    }
    let mut sig_text = String::from("{");
    let mut first = true;
    let mut entries: Vec<(String, (ModuleId, FuncId))> = Vec::new();
    for (&(mid, fid), sig) in &t.sigs {
        // A ufunc's inner loop is exported with its entry points, which
        // the loader does not call by signature.
        let inner_loop = t.program.modules[mid].functions[fid].attrs.contains(FuncAttrs::COMPILER_MADE);
        if sig.exported && !inner_loop {
            entries.push((sig.name.clone(), (mid, fid)));
        }
    }
    entries.extend(aliases.iter().cloned());
    entries.sort();
    for (name, key) in &entries {
        let sig = &t.sigs[key];
        exports.export(name, ExportKind::Func, nimports + sig.index);
        let m = &t.program.modules[key.0];
        let f = &m.functions[key.1];
        let params: Vec<String> = f.body.all_params().map(|p| describe(m, f.body.ty(p))).collect();
        if !first {
            sig_text.push(',');
        }
        first = false;
        // A ufunc's operands for `NAME_dl`: how many are inputs, each
        // one's dtype and core dimensions (indexes into `dims`).
        let ufunc = match (f.ufunc_sig.is_some(), crate::ufunc_plan::Plan::new(m, f)) {
            (true, Ok(plan)) => {
                let dtypes: Vec<String> = plan.dtypes.iter().map(|d| format!("\"{}\"", d.name())).collect();
                let core: Vec<String> = plan
                    .core
                    .iter()
                    .map(|c| format!("[{}]", c.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(",")))
                    .collect();
                format!(
                    ",\"ufunc\":{{\"nin\":{},\"dtypes\":[{}],\"core\":[{}],\"ndims\":{}}}",
                    plan.nin,
                    dtypes.join(","),
                    core.join(","),
                    plan.dims.len()
                )
            }
            _ => String::new(),
        };
        sig_text.push_str(&format!(
            "\"{name}\":{{\"params\":[{}],\"ret\":{}{ufunc}}}",
            params.join(","),
            describe(m, f.ret)
        ));
    }
    sig_text.push('}');
    let mut ufunc_exports = t.ufunc_exports.clone();
    ufunc_exports.sort();
    for (name, k) in &ufunc_exports {
        exports.export(name, ExportKind::Func, nimports + k);
    }
    for name in ["postc_arena_mark", "postc_arena_alloc", "postc_arena_release"] {
        if let Some(k) = t.helper_index.get(name) {
            exports.export(name, ExportKind::Func, nimports + k);
        }
    }
    let mut data = DataSection::new();
    if !t.data.is_empty() {
        data.active(0, &ConstExpr::i32_const(DATA_BASE as i32), t.data.iter().copied());
    }
    let mut module = Module::new();
    module.section(&types);
    module.section(&imports);
    module.section(&functions);
    module.section(&memories);
    module.section(&globals);
    module.section(&exports);
    module.section(&code);
    if !t.data.is_empty() {
        module.section(&data);
    }
    if debug {
        module.section(&name_section(t, counts_depth));
    }
    module.section(&CustomSection { name: "postc.signatures".into(), data: sig_text.as_bytes().into() });
    module.finish()
}
