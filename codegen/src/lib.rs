//! postc-codegen: POST IR to native code through LLVM (inkwell).
//!
//! [`compile`] runs, in this order: the postc pass pipeline of the level on a
//! clone of every module; the verifier; lowering (symbols, signatures,
//! ufunc and GPU plans); per codegen unit, building the whole program's
//! LLVM module in the unit's own `Context` with LLVM's IR builder (every
//! function declared first, then the bodies, with the helpers and runtime
//! they use; see [`emit`]), linking `--link-ir` files,
//! giving exported functions that have the names of C library functions
//! their names while the unit's own calls still reach the C library (see
//! [`imports`]), verifying, LLVM's `default<O{n}>` pipeline on the target machine, and
//! emission. `Float16` is LLVM `half`: on x86-64 the backend calls
//! `__extendhfsf2`/`__truncsfhf2`/`__truncdfhf2` from libgcc, which `cc`
//! links.

pub mod abi;
pub mod backend;
pub mod c;
pub mod calls;
pub mod emit;
pub mod gpu;
pub mod helpers;
pub mod imports;
pub mod link;
pub mod qbe;
pub mod runtime;
pub mod ufunc;
pub mod ufunc_plan;
pub mod wasm;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::OptimizationLevel;
use postc_ir::diag::Diagnostic;
use postc_ir::Program;
use std::path::PathBuf;
use std::sync::{Mutex, Once, OnceLock};
use std::time::Instant;

/// An optimisation level.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum OptLevel {
    O0,
    O1,
    #[default]
    O2,
    O3,
}

impl OptLevel {
    pub fn from_u8(x: u8) -> Result<OptLevel, String> {
        Ok(match x {
            0 => OptLevel::O0,
            1 => OptLevel::O1,
            2 => OptLevel::O2,
            3 => OptLevel::O3,
            _ => return Err(format!("invalid optimisation level {x}: expected 0, 1, 2 or 3")),
        })
    }
    pub fn as_u8(self) -> u8 {
        self as u8
    }
    fn llvm(self) -> OptimizationLevel {
        match self {
            OptLevel::O0 => OptimizationLevel::None,
            OptLevel::O1 => OptimizationLevel::Less,
            OptLevel::O2 => OptimizationLevel::Default,
            OptLevel::O3 => OptimizationLevel::Aggressive,
        }
    }
}

/// What [`emit`] produces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EmitKind {
    Object,
    Assembly,
    LlvmIr,
    Bitcode,
    /// QBE IL text (the qbe backend).
    Qbe,
    /// C11 source (the C backend).
    C,
    /// The C header of what the C source exports.
    CHeader,
    /// A WebAssembly module (the wasm backend).
    Wasm,
    /// The WebAssembly module as text (the wasm backend).
    Wat,
}

/// Code generation options.
#[derive(Clone, Debug, Default)]
pub struct CodegenOptions {
    pub opt: OptLevel,
    /// A target triple; the host's by default.
    pub target: Option<String>,
    /// A CPU name; the host's by default (`generic` for another triple).
    pub cpu: Option<String>,
    /// What the postc passes do (the checks that `-C` sets), by default
    /// what the level says; its level is [`CodegenOptions::opt`]'s.
    pub passes: postc_passes::PassOptions,
    /// LLVM IR files (`.ll`) linked into the module, their symbols internal.
    pub link_ir: Vec<PathBuf>,
    /// Threads that compile the codegen units (`-j`); by default the
    /// number of cores. The partition into units depends only on the
    /// program ([`default_units`]), so the output is the same for any value.
    pub units: Option<usize>,
    /// Print the time of each phase to standard error.
    pub time_passes: bool,
    /// GPU code generation (see [`gpu`]).
    pub gpu: gpu::GpuOptions,
    /// The object becomes an executable: exported functions other than
    /// `main` are hidden, since the dynamic linker would let an
    /// executable's `malloc` or `write` replace the C library's own.
    pub executable: bool,
}

impl CodegenOptions {
    /// The defaults of a level: bounds and division checks on, overflow
    /// checks as the level says.
    pub fn for_level(opt: OptLevel) -> CodegenOptions {
        CodegenOptions { opt, passes: postc_passes::PassOptions::for_level(opt.as_u8()), ..Default::default() }
    }

    fn pass_options(&self) -> postc_passes::PassOptions {
        postc_passes::PassOptions { opt_level: self.opt.as_u8(), ..self.passes.clone() }
    }
}

/// Modules with fewer instructions than this compile as one unit by default.
pub const UNIT_THRESHOLD: usize = 5000;

/// Object bytes for the host (or `options.target`).
pub fn compile(program: &Program, options: &CodegenOptions) -> Result<Vec<u8>, Vec<Diagnostic>> {
    emit(program, options, EmitKind::Object)
}

/// The LLVM IR text after the `-O` pipeline.
pub fn compile_to_ir(program: &Program, options: &CodegenOptions) -> Result<String, Vec<Diagnostic>> {
    emit(program, options, EmitKind::LlvmIr).map(|b| String::from_utf8_lossy(&b).into_owned())
}

pub(crate) fn internal(msg: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::error(format!("internal code generation error: {}", msg.into()), None)]
}

pub(crate) struct Timer {
    pub(crate) on: bool,
    pub(crate) lines: Vec<(String, f64)>,
}

impl Timer {
    /// Prints each phase's time to standard error when on.
    pub(crate) fn report(&self) {
        if self.on {
            for (what, secs) in &self.lines {
                eprintln!("{:>10.3} ms  {what}", secs * 1000.0);
            }
        }
    }

    pub(crate) fn time<T>(&mut self, what: &str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = f();
        if self.on {
            self.lines.push((what.to_owned(), t.elapsed().as_secs_f64()));
        }
        r
    }
}

/// The postc pass pipeline of the level, on a clone of every module, then
/// the verifier.
pub fn prepare(program: &Program, options: &CodegenOptions) -> Result<Program, Vec<Diagnostic>> {
    let mut p = program.clone();
    let popts = options.pass_options();
    let pm = postc_passes::parse_pipeline(postc_passes::default_pipeline(options.opt.as_u8()))?;
    let run = postc_passes::RunOptions { time_passes: options.time_passes, ..Default::default() };
    for m in p.modules.iter_mut() {
        let report = pm.run(m, &popts, &run)?;
        if options.time_passes {
            eprint!("{}", postc_passes::manager::format_timings(&report));
        }
    }
    let diags = postc_ir::verify::verify_program(&p);
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(p)
}

/// The lowered program: how every function appears in the LLVM module,
/// and what the units need.
pub struct Lowered<'p> {
    /// The prepared program (see [`prepare`]).
    pub program: &'p Program,
    /// Name lookups over it.
    pub index: calls::Index<'p>,
    /// (alias symbol, target symbol, signature).
    pub aliases: Vec<(String, String, emit::FnSig)>,
    /// Exported function symbols, in declaration order (the unit split).
    pub exported: Vec<String>,
    /// Instructions of the program (for the default unit count).
    pub insts: usize,
    /// The LLVM signature (symbol, ABI) of every function: after
    /// [`build_unit`] built the module, `module.get_function(&sig.symbol)`
    /// is the function's `FunctionValue`.
    pub sigs: std::collections::HashMap<(postc_ir::ModuleId, postc_ir::FuncId), emit::FnSig>,
    /// The functions whose calls count the depth of calls.
    pub depth_counted: std::collections::HashSet<(postc_ir::ModuleId, postc_ir::FuncId)>,
    /// The exported ufuncs, whose `NAME_loop` / `NAME_dl` entry points
    /// [`ufunc`] adds to the unit that defines their body.
    pub ufuncs: Vec<ufunc_plan::Plan>,
    /// The gpu functions (see [`gpu`]).
    pub gpu: gpu::GpuPlan,
    /// The C library functions that exported names shadow: in the module
    /// the exported functions of those names have placeholder names until
    /// [`imports::Shield::publish`].
    pub shield: imports::Shield,
}

/// Lowers a prepared program (see [`prepare`]): decides the symbols and
/// signatures, the ufunc entry points and the GPU plan; each unit builds
/// the module from it ([`build_unit`]).
pub fn lower(program: &Program) -> Result<Lowered<'_>, Vec<Diagnostic>> {
    let mut d = emit::Declared::new(program);
    if !d.diags.is_empty() {
        return Err(std::mem::take(&mut d.diags));
    }
    let mut exported = Vec::new();
    for (mid, m) in program.modules.iter_enumerated() {
        for (fid, _) in m.functions.iter_enumerated() {
            let s = &d.sigs[&(mid, fid)];
            if s.exported {
                exported.push(s.symbol.clone());
            }
        }
    }
    let insts = program.modules.iter().map(|m| m.num_insts()).sum();
    let ufuncs = ufunc::plans(program, &d.sigs, &d.aliases)?;
    // The GPU step of lowering: which functions get device code.
    let gpu = gpu::plan(program, &d.sigs, &ufuncs);
    Ok(Lowered {
        program,
        index: d.index,
        aliases: d.aliases,
        exported,
        insts,
        sigs: d.sigs,
        depth_counted: d.depth_counted,
        ufuncs,
        gpu,
        shield: d.shield,
    })
}

/// Adds the aliases whose target symbol `keep` accepts: protected, of the
/// target's type.
fn add_aliases(module: &LlModule<'_>, low: &Lowered<'_>, keep: impl Fn(&str) -> bool) -> Result<(), Vec<Diagnostic>> {
    use inkwell::llvm_sys::core::{LLVMAddAlias2, LLVMGlobalGetValueType, LLVMSetVisibility};
    use inkwell::llvm_sys::LLVMVisibility;
    use inkwell::values::AsValueRef;
    for (alias, target, _) in &low.aliases {
        if !keep(target) {
            continue;
        }
        let (alias, target) = (low.shield.text_symbol(alias), low.shield.text_symbol(target));
        let f = module
            .get_function(&target)
            .ok_or_else(|| internal(format!("no function `{target}` for alias `{alias}`")))?;
        let name = std::ffi::CString::new(alias.as_bytes()).map_err(|e| internal(e.to_string()))?;
        // SAFETY: the module and the function are valid and of one context;
        // the name is NUL-terminated.
        unsafe {
            let fv = f.as_value_ref();
            let a = LLVMAddAlias2(module.as_mut_ptr(), LLVMGlobalGetValueType(fv), 0, fv, name.as_ptr());
            LLVMSetVisibility(a, LLVMVisibility::LLVMProtectedVisibility);
        }
    }
    Ok(())
}

static INIT: Once = Once::new();

pub(crate) fn init_targets() {
    INIT.call_once(|| {
        Target::initialize_all(&InitializationConfig::default());
    });
}

/// What a target machine is made from: triple, CPU, features, level.
pub(crate) type TmKey = (String, String, String, u8);

pub(crate) fn tm_key(options: &CodegenOptions) -> TmKey {
    // The host's CPU and its feature string do not change while the process
    // runs; asking LLVM for them costs more than the lookup.
    static HOST: OnceLock<(String, String, String)> = OnceLock::new();
    let host = HOST.get_or_init(|| {
        (
            TargetMachine::get_default_triple().as_str().to_string_lossy().into_owned(),
            TargetMachine::get_host_cpu_name().to_string(),
            TargetMachine::get_host_cpu_features().to_string(),
        )
    });
    let (triple, cpu, features) = match &options.target {
        Some(t) => (t.clone(), options.cpu.clone().unwrap_or_else(|| "generic".into()), String::new()),
        None => match &options.cpu {
            Some(c) if c != &host.1 => (host.0.clone(), c.clone(), String::new()),
            _ => host.clone(),
        },
    };
    (triple, cpu, features, options.opt.as_u8())
}

/// The target the options compile for, as one line: triple, CPU and CPU
/// features (the host's unless the options name others). Code compiled for
/// one target description may not run on a machine with another, so
/// caches of compiled code key on it.
pub fn target_description(options: &CodegenOptions) -> String {
    let (triple, cpu, features, _) = tm_key(options);
    format!("{triple} {cpu} {features}")
}

extern "C" {
    /// `src/cpu.cpp`: 1 when `cpu` names a CPU of `triple`'s target, 0 when
    /// not, -1 for an unknown target.
    fn postc_cpu_valid(triple: *const std::ffi::c_char, cpu: *const std::ffi::c_char) -> i32;
}

/// Whether LLVM knows the CPU `cpu` for `triple` (None: the target is
/// unknown). The targets must be initialised.
pub fn cpu_known(triple: &str, cpu: &str) -> Option<bool> {
    let (Ok(t), Ok(c)) = (std::ffi::CString::new(triple), std::ffi::CString::new(cpu)) else { return Some(false) };
    // SAFETY: both are NUL-terminated strings that outlive the call, which
    // only reads them.
    match unsafe { postc_cpu_valid(t.as_ptr(), c.as_ptr()) } {
        1 => Some(true),
        0 => Some(false),
        _ => None,
    }
}

fn create_target_machine(key: &TmKey, opt: OptLevel) -> Result<TargetMachine, Vec<Diagnostic>> {
    init_targets();
    let (triple_text, cpu, features, _) = key;
    let triple = TargetTriple::create(triple_text);
    let target = Target::from_triple(&triple).map_err(|e| {
        vec![Diagnostic::error(format!("unknown target `{}`: {e}", triple.as_str().to_string_lossy()), None)]
    })?;
    // An unknown CPU would be ignored with a warning, or abort the process
    // (x86-64) once LLVM compiles for it.
    if cpu_known(triple_text, cpu) == Some(false) {
        return Err(vec![Diagnostic::error(
            format!(
                "unknown CPU `{cpu}` for target `{triple_text}` (`llc -mtriple={triple_text} -mcpu=help` lists them)"
            ),
            None,
        )]);
    }
    target.create_target_machine(&triple, cpu, features, opt.llvm(), RelocMode::PIC, CodeModel::Default).ok_or_else(
        || {
            vec![Diagnostic::error(
                format!("cannot create a target machine for `{}` (cpu `{cpu}`)", triple.as_str().to_string_lossy()),
                None,
            )]
        },
    )
}

/// The target machine of the options.
pub fn target_machine(options: &CodegenOptions) -> Result<TargetMachine, Vec<Diagnostic>> {
    create_target_machine(&tm_key(options), options.opt)
}

/// A target machine owned by the pool (used by one thread at a time).
struct PooledTm(TargetMachine);
// SAFETY: an LLVM `TargetMachine` may move between threads; the pool hands
// each one to a single user at a time, so it is never used concurrently.
unsafe impl Send for PooledTm {}

/// Idle target machines, kept for the next compile of the process (making
/// one costs about as much as compiling a small function).
static TM_POOL: Mutex<Vec<(TmKey, PooledTm)>> = Mutex::new(Vec::new());
/// The most idle target machines kept.
const TM_POOL_MAX: usize = 16;

/// Runs `f` with a target machine of the options: an idle one from the
/// process's pool, or a new one, returned to the pool afterwards.
pub fn with_target_machine<R>(
    options: &CodegenOptions,
    f: impl FnOnce(&TargetMachine) -> Result<R, Vec<Diagnostic>>,
) -> Result<R, Vec<Diagnostic>> {
    let key = tm_key(options);
    let idle = TM_POOL.lock().ok().and_then(|mut pool| {
        let at = pool.iter().position(|(k, _)| *k == key)?;
        Some(pool.swap_remove(at).1)
    });
    let tm = match idle {
        Some(tm) => tm,
        None => PooledTm(create_target_machine(&key, options.opt)?),
    };
    let r = f(&tm.0);
    if let Ok(mut pool) = TM_POOL.lock() {
        if pool.len() < TM_POOL_MAX {
            pool.push((key, tm));
        }
    }
    r
}

/// Builds the lowered program's module in `cx`, links the `--link-ir`
/// files, sets up the unit (functions outside `owned` become
/// `available_externally`) and verifies it.
pub fn build_unit<'c>(
    cx: &'c Context,
    low: &Lowered<'_>,
    options: &CodegenOptions,
    tm: &TargetMachine,
    owned: Option<&[String]>,
) -> Result<LlModule<'c>, Vec<Diagnostic>> {
    let owned: Option<std::collections::HashSet<&str>> = owned.map(|o| o.iter().map(String::as_str).collect());
    let keep = |s: &str| owned.as_ref().is_none_or(|o| o.contains(s));
    let triple = tm.get_triple().as_str().to_string_lossy().into_owned();
    let module = cx.create_module("postc");
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    emit::build_module(cx, &module, low)?;
    add_aliases(&module, low, keep)?;
    // Externally provided LLVM IR: optimised at -O2, linked, made internal.
    let exported: std::collections::HashSet<&str> =
        if options.link_ir.is_empty() { Default::default() } else { low.exported.iter().map(String::as_str).collect() };
    for path in &options.link_ir {
        let display = path.display().to_string();
        let buf = MemoryBuffer::create_from_file(path)
            .map_err(|e| vec![Diagnostic::error(format!("cannot read `{display}`: {e}"), None)])?;
        let lm = cx
            .create_module_from_ir(buf)
            .map_err(|e| vec![Diagnostic::error(format!("`{display}` is not valid LLVM IR: {e}"), None)])?;
        lm.set_triple(&tm.get_triple());
        lm.set_data_layout(&tm.get_target_data().get_data_layout());
        lm.run_passes("default<O2>", tm, PassBuilderOptions::create())
            .map_err(|e| vec![Diagnostic::error(format!("optimising `{display}`: {e}"), None)])?;
        let defined: Vec<String> = lm
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0)
            .map(|f| f.get_name().to_string_lossy().into_owned())
            .collect();
        module.link_in_module(lm).map_err(|e| vec![Diagnostic::error(format!("linking `{display}`: {e}"), None)])?;
        for name in defined {
            if exported.contains(name.as_str()) {
                continue;
            }
            if let Some(f) = module.get_function(&name) {
                if f.count_basic_blocks() > 0 {
                    f.set_linkage(Linkage::Internal);
                }
            }
        }
    }
    // The GPU step of a unit: `NAME_dl` of gpu ufuncs takes device tensors,
    // and the device code is compiled and embedded.
    let plans = gpu::host_plans(low, options)?;
    ufunc::emit_unit(cx, &module, &plans, &low.shield, keep).map_err(internal)?;
    gpu::emit_host_unit(cx, &module, low, options)?;
    if owned.is_some() {
        for s in &low.exported {
            if !keep(s) {
                if let Some(f) = module.get_function(&low.shield.text_symbol(s)) {
                    f.set_linkage(Linkage::AvailableExternally);
                }
            }
        }
    }
    low.shield.publish(&module, &triple)?;
    if options.executable {
        let aliases = low.aliases.iter().map(|(a, _, _)| a);
        for s in low.exported.iter().chain(aliases).filter(|s| *s != "main") {
            hide(&module, s);
        }
    }
    module.verify().map_err(|e| internal(format!("the LLVM module does not verify: {}", e.to_string())))?;
    Ok(module)
}

/// Gives the function or alias `name` (when the module has one) hidden
/// visibility.
fn hide(module: &LlModule<'_>, name: &str) {
    use inkwell::llvm_sys::core::{LLVMGetNamedGlobalAlias, LLVMSetVisibility};
    use inkwell::llvm_sys::LLVMVisibility;
    if let Some(f) = module.get_function(name) {
        f.as_global_value().set_visibility(inkwell::GlobalVisibility::Hidden);
        return;
    }
    // SAFETY: the module reference is valid for the call, the name pointer
    // is valid for its length, and the alias (when found) is the module's.
    unsafe {
        let a = LLVMGetNamedGlobalAlias(module.as_mut_ptr(), name.as_ptr().cast(), name.len());
        if !a.is_null() {
            LLVMSetVisibility(a, LLVMVisibility::LLVMHiddenVisibility);
        }
    }
}

/// Runs the `-O` pipeline and emits one unit.
fn finish_unit(
    module: &LlModule<'_>,
    low: &Lowered<'_>,
    tm: &TargetMachine,
    opt: OptLevel,
    kind: EmitKind,
) -> Result<Vec<u8>, Vec<Diagnostic>> {
    // At -O2 and -O3, a bounds check against another array's extent (`y[i]`
    // in a loop to `len(x)`) would stay in the loop: LLVM's inductive
    // range-check elimination splits such a loop into a check-free main
    // loop over the iterations known to be in bounds and a checked rest that
    // panics at the same element as before. It needs SSA values, rotated
    // loops and the extents hoisted, hence the three passes before it.
    let pipeline = match opt {
        OptLevel::O2 | OptLevel::O3 => {
            format!("function(sroa,loop-mssa(loop-rotate,licm),irce),default<O{}>", opt.as_u8())
        }
        _ => format!("default<O{}>", opt.as_u8()),
    };
    module.run_passes(&pipeline, tm, PassBuilderOptions::create()).map_err(|e| internal(e.to_string()))?;
    low.shield.after_optimisation(module, &tm.get_triple().as_str().to_string_lossy())?;
    Ok(match kind {
        EmitKind::LlvmIr => module.print_to_string().to_bytes().to_vec(),
        EmitKind::Bitcode => module.write_bitcode_to_memory().as_slice().to_vec(),
        EmitKind::Qbe => return Err(internal("the LLVM backend does not emit QBE IL")),
        EmitKind::C | EmitKind::CHeader => return Err(internal("the LLVM backend does not emit C")),
        EmitKind::Wasm | EmitKind::Wat => return Err(internal("the LLVM backend does not emit wasm")),
        EmitKind::Object | EmitKind::Assembly => {
            let ft = if kind == EmitKind::Object { FileType::Object } else { FileType::Assembly };
            tm.write_to_memory_buffer(module, ft).map_err(|e| internal(e.to_string()))?.as_slice().to_vec()
        }
    })
}

/// The number of codegen units for a program of `insts` instructions: one
/// below [`UNIT_THRESHOLD`], else one per threshold's worth, from 2 to
/// [`MAX_UNITS`]. It depends on the program alone (not on the threads), so
/// objects are byte-identical for any `-j`. Every unit optimises the whole
/// module (the others' functions as `available_externally`, for inlining),
/// so more units cost more in all: the cap keeps that bounded.
pub fn default_units(insts: usize) -> usize {
    if insts < UNIT_THRESHOLD {
        1
    } else {
        (insts / UNIT_THRESHOLD).clamp(2, MAX_UNITS)
    }
}

/// The most codegen units a program is split into.
pub const MAX_UNITS: usize = 4;

/// Compiles a program and emits `kind`.
///
/// With more than one codegen unit (objects only; the other kinds are
/// always one unit) the exported functions are split into contiguous
/// chunks; each unit parses the whole module in its own `Context` on its own
/// thread, keeps the other chunks as `available_externally` definitions (so
/// every function is optimised, and inlines its callees, exactly as in a
/// single unit) and emits its chunk; the objects are combined by `ld -r`.
pub fn emit(program: &Program, options: &CodegenOptions, kind: EmitKind) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let mut timer = Timer { on: options.time_passes, lines: Vec::new() };
    let prepared = timer.time("postc passes", || prepare(program, options))?;
    let low = timer.time("lowering", || lower(&prepared))?;
    if !low.gpu.is_empty() && options.gpu.mode != gpu::GpuMode::Off {
        if let Some((name, at)) = low.shield.names().next() {
            // The device code and the GPU runtime call the C library by its
            // own names.
            return Err(vec![Diagnostic::error(
                format!(
                    "a program with gpu functions cannot export `{name}`, the name of a C library function \
                     (export it under another name, or compile with `--gpu off`)"
                ),
                at.cloned(),
            )]);
        }
    }
    let threads =
        options.units.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).max(1);
    let units = if kind == EmitKind::Object { default_units(low.insts).min(low.exported.len().max(1)) } else { 1 };
    // One unit embeds the device code.
    let units = if low.gpu.is_empty() { units } else { 1 };
    let out = if units <= 1 {
        let timer = &mut timer;
        with_target_machine(options, |tm| {
            let cx = Context::create();
            let module = timer.time("llvm build + link + verify", || build_unit(&cx, &low, options, tm, None))?;
            timer.time("llvm optimise + emit", || finish_unit(&module, &low, tm, options.opt, kind))
        })?
    } else {
        let chunks = split(&low.exported, units);
        // `threads` workers take the units in turn; each result keeps its
        // unit's place, so the combined object does not depend on them.
        let results: Vec<Result<Vec<u8>, Vec<Diagnostic>>> = timer.time("llvm units", || {
            let next = std::sync::atomic::AtomicUsize::new(0);
            type Slot = std::sync::Mutex<Option<Result<Vec<u8>, Vec<Diagnostic>>>>;
            let slots: Vec<Slot> = chunks.iter().map(|_| std::sync::Mutex::new(None)).collect();
            std::thread::scope(|s| {
                for _ in 0..threads.min(chunks.len()) {
                    let (low, chunks, next, slots) = (&low, &chunks, &next, &slots);
                    s.spawn(move || loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(chunk) = chunks.get(i) else { break };
                        let r = with_target_machine(options, |tm| {
                            let cx = Context::create();
                            let module = build_unit(&cx, low, options, tm, Some(chunk))?;
                            finish_unit(&module, low, tm, options.opt, kind)
                        });
                        if let Ok(mut slot) = slots[i].lock() {
                            *slot = Some(r);
                        }
                    });
                }
            });
            slots
                .into_iter()
                .map(|m| {
                    m.into_inner().ok().flatten().unwrap_or_else(|| Err(internal("a codegen unit did not finish")))
                })
                .collect()
        });
        let mut objects = Vec::new();
        for r in results {
            objects.push(r?);
        }
        timer.time("ld -r", || link::combine_objects(&objects))?
    };
    timer.report();
    Ok(out)
}

/// Contiguous chunks of `items`, `n` of them (the first ones larger).
pub fn split(items: &[String], n: usize) -> Vec<Vec<String>> {
    let n = n.max(1).min(items.len().max(1));
    let (q, r) = (items.len() / n, items.len() % n);
    let mut out = Vec::new();
    let mut at = 0;
    for i in 0..n {
        let len = q + usize::from(i < r);
        out.push(items[at..at + len].to_vec());
        at += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opt_level_from_u8() {
        assert_eq!(OptLevel::from_u8(0), Ok(OptLevel::O0));
        assert_eq!(OptLevel::from_u8(3), Ok(OptLevel::O3));
        let e = OptLevel::from_u8(4).unwrap_err();
        assert!(e.contains("invalid optimisation level 4"), "{e}");
    }

    #[test]
    fn split_is_contiguous() {
        let items: Vec<String> = (0..7).map(|i| i.to_string()).collect();
        let c = split(&items, 3);
        assert_eq!(c.iter().map(|c| c.len()).collect::<Vec<_>>(), vec![3, 2, 2]);
        assert_eq!(c.concat(), items);
        assert_eq!(split(&items[..1], 4).len(), 1);
    }

    #[test]
    fn panic_format_renders_placeholders() {
        assert_eq!(
            emit::panic_format("index {} of {} at 100%", 2, Some("k.py:1:2")),
            "panic: index %lld of %lld at 100%% at k.py:1:2"
        );
        assert_eq!(emit::panic_format("x {}", 0, None), "panic: x {}");
    }
}
