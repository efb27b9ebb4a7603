//! The LLVM backend: POST to native code (and GPU kernels, see [`gpu`])
//! through inkwell.
//!
//! [`emit`] runs, in this order: [`crate::prepare`]; lowering (symbols,
//! signatures, ufunc and GPU plans); per codegen unit, building the LLVM
//! module of the unit's functions and what they reach in the unit's own
//! `Context` with LLVM's IR builder (the functions declared first, then the
//! bodies, with the runtime declarations they use; see
//! [`emit`](mod@emit)), linking
//! `--link-ir` files, giving exported functions that have the names of C
//! library functions their names while the unit's own calls still reach
//! the C library (see [`imports`]), verifying, LLVM's `default<O{n}>`
//! pipeline on the target machine, and emission. `Float16` is LLVM `half`:
//! on x86-64 the backend calls `__extendhfsf2`/`__truncsfhf2`/
//! `__truncdfhf2` from libgcc, which `cc` links.
//!
//! Two guards keep LLVM's own costs bounded on any input. LLVM works on
//! the threads of a rayon pool that [`emit`] starts, with [`LLVM_STACK`]
//! bytes of stack each (its analyses recurse along chains of values; the
//! caller's thread, which may be the Python package's caller's, is not
//! relied on). And a function
//! too large for LLVM's optimiser ([`crate::compiled_unoptimised`]) is compiled
//! by it as at -O0: several of LLVM's passes take time that grows faster
//! than linearly in a function's size on the shapes long generated code
//! has (SimplifyCFG folding the arms of a 10,000-arm conditional into one
//! join, the SLP vectoriser on 10,000 nested subscripts, scalar evolution
//! over 2,000 inlined integer power loops: 10 to 30 s each), so bounding
//! the size of what it optimises makes the whole compile time linear.
//! A ufunc's DLPack entry point is compiled so too: it runs once per call,
//! and optimising its checks cost more than the rest of a small ufunc
//! module's compile.

pub mod debug;
pub mod emit;
pub mod gpu;
pub mod imports;
pub mod runtime;
pub mod ufunc;

use crate::backend::Backend;
use crate::{abi, calls, default_units, internal, link, split, ufunc_plan, CodegenOptions, EmitKind, OptLevel, Timer};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::OptimizationLevel;
use postc_ir::diag::Diagnostic;
use postc_ir::{FuncId, ModuleId, Program};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::{Mutex, Once, OnceLock};

/// The LLVM backend (through inkwell), with GPU code for NVPTX and AMDGPU.
pub struct Llvm;

/// What this backend lowers natively; `legalize` writes out the rest
/// (docs/backends.md). LLVM lowers a saturating float→integer cast in one instruction (`fptosi.sat`),
/// and `half` arithmetic rounds each result once (promoted to `float` where the target has none).
pub const FEATURES: crate::Features = crate::Features {
    saturating_casts: true,
    float16_arithmetic: true,
    float16_conversions: true,
    complex_products: false,
    overflow_tests: true,
};

impl Backend for Llvm {
    fn name(&self) -> &'static str {
        "llvm"
    }
    fn features(&self) -> crate::Features {
        FEATURES
    }
    fn emit_kinds(&self) -> &'static [EmitKind] {
        &[EmitKind::Object, EmitKind::Assembly, EmitKind::LlvmIr, EmitKind::Bitcode]
    }
    fn emit(&self, program: &Program, options: &CodegenOptions, kind: EmitKind) -> Result<Vec<u8>, Vec<Diagnostic>> {
        emit(program, options, kind)
    }
}

impl OptLevel {
    fn llvm(self) -> OptimizationLevel {
        match self {
            OptLevel::O0 => OptimizationLevel::None,
            OptLevel::O1 => OptimizationLevel::Less,
            OptLevel::O2 => OptimizationLevel::Default,
            OptLevel::O3 => OptimizationLevel::Aggressive,
        }
    }
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
    let mut exported: Vec<String> = d.symbols.exported_functions().map(|e| e.symbol.clone()).collect();
    let insts = program.modules.iter().map(|m| m.num_insts()).sum();
    let ufuncs: Vec<_> = d.symbols.ufuncs(program)?.into_iter().map(|(_, plan)| plan).collect();
    // The entry points of a ufunc, written as IR, are exported functions
    // like the others: one codegen unit defines them.
    exported.extend(ufuncs.iter().flat_map(|p| [crate::abi::loop_symbol(&p.symbol), crate::abi::dl_symbol(&p.symbol)]));
    // The GPU step of lowering: which functions get device code.
    let gpu = gpu::plan(program, &d.sigs, &ufuncs);
    Ok(Lowered {
        program,
        index: d.index,
        aliases: d.aliases,
        exported,
        insts,
        sigs: d.sigs,
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
    /// `src/cpu.cpp`: the CPU names of `triple`'s target, space-separated,
    /// into `out` (`cap` bytes); the whole list's length, or -1 for an
    /// unknown target.
    fn postc_cpu_names(triple: *const std::ffi::c_char, out: *mut std::ffi::c_char, cap: std::ffi::c_ulong) -> i64;
}

/// The CPU names LLVM knows for `triple`, in its order (None: the target is
/// unknown). The targets must be initialised.
pub fn cpu_names(triple: &str) -> Option<Vec<String>> {
    let t = std::ffi::CString::new(triple).ok()?;
    let mut buf = vec![0u8; 4096];
    loop {
        // SAFETY: `t` is NUL-terminated; `buf` is writable for its length,
        // which is what the call is told; it writes at most that many bytes.
        let n = unsafe { postc_cpu_names(t.as_ptr(), buf.as_mut_ptr().cast(), buf.len() as std::ffi::c_ulong) };
        let n = usize::try_from(n).ok()?;
        if n < buf.len() {
            let text = String::from_utf8_lossy(&buf[..n]);
            return Some(text.split(' ').filter(|s| !s.is_empty()).map(str::to_owned).collect());
        }
        buf.resize(n + 1, 0);
    }
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

/// The functions a codegen unit that defines the exported functions
/// `owned` builds: those, the entry points of the ufuncs among them
/// (`NAME_dl` calls `NAME_loop`), and every function they refer to,
/// directly or not ([`calls::reachable`]). The module-private ones among
/// those are the unit's own copies; the exported ones of other units are
/// there to be inlined (`available_externally`, see [`build_unit`]). What
/// the unit does not reach it neither builds nor optimises.
fn unit_functions(low: &Lowered<'_>, owned: &HashSet<&str>) -> HashSet<(ModuleId, FuncId)> {
    let ufunc_loops = low
        .ufuncs
        .iter()
        .filter(|p| owned.contains(p.symbol.as_str()))
        .flat_map(|p| [abi::loop_symbol(&p.symbol), abi::dl_symbol(&p.symbol)]);
    let roots: HashSet<String> = owned.iter().map(|s| s.to_string()).chain(ufunc_loops).collect();
    let defined = low.sigs.iter().filter(|(_, sig)| sig.exported && roots.contains(&sig.symbol)).map(|(id, _)| *id);
    calls::reachable(low.program, &low.index, defined)
}

/// Builds the lowered program's module in `cx`, links the `--link-ir`
/// files, sets up the unit and verifies it. With `owned`, the unit
/// defines those exported functions and holds only what they need
/// ([`unit_functions`]): the exported functions of other units among that
/// become `available_externally`.
pub fn build_unit<'c>(
    cx: &'c Context,
    low: &Lowered<'_>,
    options: &CodegenOptions,
    tm: &TargetMachine,
    owned: Option<&[String]>,
) -> Result<LlModule<'c>, Vec<Diagnostic>> {
    let owned: Option<HashSet<&str>> = owned.map(|o| o.iter().map(String::as_str).collect());
    let keep = |s: &str| owned.as_ref().is_none_or(|o| o.contains(s));
    let functions = owned.as_ref().map(|o| unit_functions(low, o));
    let triple = tm.get_triple().as_str().to_string_lossy().into_owned();
    let module = cx.create_module("postc");
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    let debug =
        emit::build_module(cx, &module, low, functions.as_ref(), options.debug.then_some(options.opt != OptLevel::O0))?;
    add_aliases(&module, low, keep)?;
    // Externally provided LLVM IR: optimised at -O2, linked, made internal.
    let exported: HashSet<&str> =
        if options.link_ir.is_empty() { Default::default() } else { low.exported.iter().map(String::as_str).collect() };
    for path in &options.link_ir {
        let display = path.display().to_string();
        let buf = MemoryBuffer::create_from_file(path)
            .map_err(|e| vec![Diagnostic::error(format!("cannot read `{display}`: {e}"), None)])?;
        let lm = cx
            .create_module_from_ir(buf)
            .map_err(|e| vec![Diagnostic::error(format!("`{display}` is not valid LLVM IR: {e}"), None)])?;
        // LLVM's passes assume verified IR (a malformed `llvm.global_ctors`
        // crashes them).
        lm.verify().map_err(|e| {
            vec![Diagnostic::error(format!("`{display}` is not valid LLVM IR: {}", e.to_string().trim()), None)]
        })?;
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
    // The GPU step of a unit: the device code is compiled and embedded.
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
    if let Some(d) = debug {
        d.finish(&module);
    }
    if options.executable {
        let aliases = low.aliases.iter().map(|(a, _, _)| a);
        for s in low.exported.iter().chain(aliases).filter(|s| *s != "main") {
            hide(&module, s);
        }
    }
    if options.fast_math {
        relax_float_arithmetic(&module);
    }
    module.verify().map_err(|e| internal(format!("the LLVM module does not verify: {}", e.to_string())))?;
    Ok(module)
}

/// Lets LLVM reassociate float additions and multiplications and contract
/// them into fused multiply-adds ([`CodegenOptions::fast_math`]): the flags
/// go on the arithmetic only, never on comparisons, so NaN, infinities and
/// signed zeros keep their meaning.
fn relax_float_arithmetic(module: &LlModule<'_>) {
    use inkwell::values::{FastMathFlags, InstructionOpcode};
    let relaxed = FastMathFlags::AllowReassoc | FastMathFlags::AllowContract;
    for f in module.get_functions() {
        for bb in f.get_basic_block_iter() {
            for inst in bb.get_instructions() {
                let arithmetic = matches!(
                    inst.get_opcode(),
                    InstructionOpcode::FAdd
                        | InstructionOpcode::FSub
                        | InstructionOpcode::FMul
                        | InstructionOpcode::FDiv
                        | InstructionOpcode::FNeg
                );
                if arithmetic && inst.can_use_fast_math_flags() {
                    let flags = inst.get_fast_math_flags().unwrap_or(FastMathFlags::empty());
                    let _ = inst.set_fast_math_flags(flags | relaxed);
                }
            }
        }
    }
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

/// The stack of the threads LLVM builds, optimises and emits on.
pub const LLVM_STACK: usize = 64 << 20;

/// The workers LLVM builds, optimises and emits on: a rayon pool, as the
/// pass manager's, of `threads` threads with [`LLVM_STACK`] bytes of stack
/// each (rayon's global pool has the platform's default stack, too small
/// for LLVM's recursion on long chains of values). Each task creates its
/// own `Context`, which is used on that thread only.
fn llvm_pool(threads: usize) -> Result<rayon::ThreadPool, Vec<Diagnostic>> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(LLVM_STACK)
        .thread_name(|_| "postc-llvm".into())
        .build()
        .map_err(|e| vec![Diagnostic::error(format!("cannot start threads for LLVM: {e}"), None)])
}

/// The alignment of a function's code on x86-64: a cache line.
const FUNCTION_ALIGN: u32 = 64;

/// Starts every defined function that is not `cold` on a cache line
/// ([`FUNCTION_ALIGN`]; LLVM's own is 16 bytes). A loop's time can depend
/// on where its code falls against the 64-byte lines the front end fetches
/// and caches decoded: the same instructions of `sum_rows` in
/// `benches/py/arrays.py` (rows of 10) took 0.98 to 1.05 times Numba's
/// time at the four 16-byte offsets a function can start at
/// (docs/performance.md). With functions at the start of a line, where a
/// function's loops fall no longer depends on the sizes of the functions
/// before it in the module.
fn align_functions(module: &LlModule<'_>) {
    use inkwell::attributes::AttributeLoc;
    let cold = inkwell::attributes::Attribute::get_named_enum_kind_id("cold");
    for f in module.get_functions() {
        if f.count_basic_blocks() == 0 || f.get_enum_attribute(AttributeLoc::Function, cold).is_some() {
            continue;
        }
        f.as_global_value().set_alignment(FUNCTION_ALIGN);
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
    // LLVM's own inductive range-check elimination does not run: postc's
    // `irce` pass has split the loops whose bounds checks it can take out,
    // where its cost model says the copy pays. LLVM's split the checked
    // rest of each such loop once more (a main loop over iterations that
    // the first split already took: about a quarter of the optimiser's and
    // code generator's time on 2-D loops) and the loops the cost model had
    // declined.
    let pipeline = format!("default<O{}>", opt.as_u8());
    module.run_passes(&pipeline, tm, PassBuilderOptions::create()).map_err(|e| internal(e.to_string()))?;
    let triple = tm.get_triple().as_str().to_string_lossy().into_owned();
    low.shield.after_optimisation(module, &triple)?;
    if opt != OptLevel::O0 && triple.starts_with("x86_64") {
        align_functions(module);
    }
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

/// Compiles a program and emits `kind`.
///
/// With more than one codegen unit (objects only; the other kinds are
/// always one unit) the exported functions are split into contiguous
/// chunks; each unit, a task of the LLVM pool ([`llvm_pool`]), builds in
/// its own `Context` its chunk and the functions the chunk reaches through
/// calls ([`unit_functions`]), the other chunks' among them as
/// `available_externally` definitions (so every function can inline its
/// callees as in a single unit; LLVM infers no attributes of such a
/// definition, so a call it could not inline stays where one unit might
/// drop it), and emits its chunk; the objects are combined by LLD (`-r`). A unit neither builds
/// nor optimises what its chunk does not reach, so the units together
/// optimise each function about once, not once per unit.
pub fn emit(program: &Program, options: &CodegenOptions, kind: EmitKind) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let mut timer = Timer { on: options.time_passes, lines: Vec::new() };
    let mut prepared =
        timer.time("postc passes", || crate::prepare_with_ufunc_loops(program, options, true, FEATURES))?;
    if options.gpu.mode != gpu::GpuMode::Off {
        // In a build with device code, `NAME_dl` of a gpu ufunc takes
        // tensors in GPU memory too.
        for m in prepared.modules.iter_mut() {
            postc_passes::ModulePass::run(&postc_passes::ufunc_dl::UFuncDl { gpu: true }, m, &options.pass_options())?;
        }
    }
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
    // As many threads as the pass manager had, unless `-j` says.
    let threads = options.units.unwrap_or_else(rayon::current_num_threads).max(1);
    let units = if kind == EmitKind::Object { default_units(low.insts).min(low.exported.len().max(1)) } else { 1 };
    // One unit embeds the device code.
    let units = if low.gpu.is_empty() { units } else { 1 };
    let out = if units <= 1 {
        let timer = &mut timer;
        let low = &low;
        llvm_pool(1)?.install(move || {
            with_target_machine(options, |tm| {
                let cx = Context::create();
                let module = timer.time("llvm build + link + verify", || build_unit(&cx, low, options, tm, None))?;
                timer.time("llvm optimise + emit", || finish_unit(&module, low, tm, options.opt, kind))
            })
        })?
    } else {
        let chunks = split(&low.exported, units);
        let pool = llvm_pool(threads.min(chunks.len()))?;
        // The pool's threads take the units in turn; each result keeps its
        // unit's place, so the combined object does not depend on them.
        let results: Vec<Result<Vec<u8>, Vec<Diagnostic>>> = timer.time("llvm units", || {
            pool.install(|| {
                chunks
                    .par_iter()
                    .map(|chunk| {
                        with_target_machine(options, |tm| {
                            let cx = Context::create();
                            let module = build_unit(&cx, &low, options, tm, Some(chunk))?;
                            finish_unit(&module, &low, tm, options.opt, kind)
                        })
                    })
                    .collect()
            })
        });
        let mut objects = Vec::new();
        for r in results {
            objects.push(r?);
        }
        timer.time("lld -r", || link::combine_objects(&objects))?
    };
    timer.report();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `far` calls `near` (exported) and `twice` (module-private); `alone`
    /// calls nothing.
    const PROGRAM: &str = "module units
export near, far, alone

func twice(%x: Int64) -> Int64 {
entry:
  %y: Int64 = add %x, %x
  return %y
}

func near(%x: Int64) -> Int64 {
entry:
  %one: Int64 = const 1
  %y: Int64 = add %x, %one
  return %y
}

func far(%x: Int64) -> Int64 {
entry:
  %a: Int64 = call near(%x)
  %b: Int64 = call twice(%a)
  return %b
}

func alone(%x: Int64) -> Int64 {
entry:
  %y: Int64 = mul %x, %x
  return %y
}
";

    /// The functions the unit owning `owned` defines, by linkage.
    fn unit_definitions(owned: &[&str]) -> Vec<(String, Linkage)> {
        let m = postc_ir::parse::parse_module("units.pir", PROGRAM.as_bytes()).expect("parses");
        let program = Program::from_module(m);
        let options = CodegenOptions::for_level(OptLevel::O2);
        let prepared = crate::prepare(&program, &options, FEATURES).expect("prepares");
        let low = lower(&prepared).expect("lowers");
        let owned: Vec<String> = owned.iter().map(|s| s.to_string()).collect();
        with_target_machine(&options, |tm| {
            let cx = Context::create();
            let module = build_unit(&cx, &low, &options, tm, Some(&owned))?;
            let mut defined: Vec<(String, Linkage)> = module
                .get_functions()
                .filter(|f| f.count_basic_blocks() > 0)
                .map(|f| (f.get_name().to_string_lossy().into_owned(), f.get_linkage()))
                .collect();
            defined.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(defined)
        })
        .expect("builds")
    }

    /// What the backend tells LLVM about each loop of function `name` of
    /// the `.pir` module `src` at -O2 (the `!llvm.loop` properties of each
    /// latch, in the order of the function's text): `scalar` (neither
    /// vectorised nor unrolled) or `no runtime unroll`.
    fn loop_hints(src: &str, name: &str) -> Vec<&'static str> {
        let m = postc_ir::parse::parse_module("loops.pir", src.as_bytes()).expect("parses");
        let program = Program::from_module(m);
        let options = CodegenOptions::for_level(OptLevel::O2);
        let prepared = crate::prepare(&program, &options, FEATURES).expect("prepares");
        let low = lower(&prepared).expect("lowers");
        let (function, module) = with_target_machine(&options, |tm| {
            let cx = Context::create();
            let module = build_unit(&cx, &low, &options, tm, None)?;
            let f = module.get_function(name).expect("the function is in the module");
            Ok((inkwell::values::AnyValue::print_to_string(&f).to_string(), module.print_to_string().to_string()))
        })
        .expect("builds");
        let node = |id: &str| {
            let head = format!("{id} = ");
            module.lines().find_map(|l| l.strip_prefix(head.as_str())).unwrap_or_else(|| panic!("no {id} in {module}"))
        };
        function
            .split("!llvm.loop ")
            .skip(1)
            .map(|rest| {
                let id: String = rest.chars().take_while(|c| *c == '!' || c.is_ascii_digit()).collect();
                let properties: String = node(&id).split(", ").skip(1).map(|p| node(p.trim_end_matches('}'))).collect();
                match (
                    properties.contains("vectorize.enable\", i1 false"),
                    properties.contains("unroll.runtime.disable"),
                ) {
                    (true, false) => "scalar",
                    (false, true) => "no runtime unroll",
                    _ => panic!("unexpected loop properties {properties}"),
                }
            })
            .collect()
    }

    /// A loop over `%i` from its current value while `%i < limit`, headed
    /// by `head`, running `body` and going on to `exit`.
    fn counted_loop(head: &str, limit: &str, body: &str, exit: &str) -> String {
        format!(
            "{head}:\n  %{head}.more: Bool = lt %i, {limit}\n  condbr %{head}.more, {head}.body, {exit}\n\
             {head}.body:\n{body}  %{head}.next: Int64 = add %i, %one\n  set %i = %{head}.next\n  br {head}\n"
        )
    }

    #[test]
    fn cold_loop_copies_stay_scalar_and_elementwise_loops_are_not_unrolled_at_run_time() {
        // For an x86-64 host a loop that carries only its counter, and is
        // not marked scalar, is marked not to be unrolled at run time.
        let other: &[&str] = if cfg!(target_arch = "x86_64") { &["no runtime unroll"] } else { &[] };
        // `irce` splits the loop (a main loop without the checks, and the
        // checked loop after it) and `stride-version` copies the main loop
        // for unit strides: the strided copy and the checked rest are
        // marked to stay scalar, the unit-stride copy is left to LLVM.
        let scale = counted_loop("head", "%n", "  %v: Float64 = index.load %x[%i]\n  index.store %y[%i], %v\n", "done");
        let kernel = format!(
            "module loops\nfunc scale(%x: Float64[]Shape[?], %y: &Float64[]Shape[?]) {{\nentry:\n  \
             %n: Int64 = dim %x, 0\n  %z: Int64 = const 0\n  %one: Int64 = const 1\n  let %i: Int64 = %z\n  \
             br head\n{scale}done:\n  return\n}}\n"
        );
        let mut hints = loop_hints(&kernel, "scale");
        hints.sort();
        assert_eq!(hints, [other, &["scalar", "scalar"]].concat());
        // Two loops written one after the other over the same counter: the
        // second is entered by the first's exit, as a checked rest is, but
        // by no guard, and is left to LLVM; both carry a sum as well as
        // their counter, so neither is marked at all.
        let sum = "  %s1: Int64 = add %s, %i\n  set %s = %s1\n";
        let product = "  %s2: Int64 = mul %s, %i\n  set %s = %s2\n";
        let (first, second) =
            (counted_loop("first", "%k", sum, "second"), counted_loop("second", "%n", product, "done"));
        let consecutive = format!(
            "module loops\nfunc two(%n: Int64) -> Int64 {{\nentry:\n  %z: Int64 = const 0\n  %one: Int64 = const 1\n  \
             %k: Int64 = const 10\n  let %i: Int64 = %z\n  let %s: Int64 = %z\n  br first\n{first}{second}\
             done:\n  return %s\n}}\n"
        );
        assert_eq!(loop_hints(&consecutive, "two"), Vec::<&str>::new());
    }

    #[test]
    fn a_unit_holds_its_functions_and_what_they_call() {
        // `near` for inlining, as `available_externally`; `twice` as the
        // unit's own private copy; nothing of `alone`.
        let far = unit_definitions(&["far"]);
        let names: Vec<&str> = far.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.iter().filter(|n| **n == "far" || **n == "near").count(), 2, "{far:?}");
        assert!(far.contains(&("near".into(), Linkage::AvailableExternally)), "{far:?}");
        assert!(far.contains(&("far".into(), Linkage::External)), "{far:?}");
        assert!(far.iter().any(|(n, l)| n.contains("twice") && *l == Linkage::Private), "{far:?}");
        assert!(!names.contains(&"alone"), "{far:?}");
        // A unit of functions that call nothing holds only those.
        let alone = unit_definitions(&["alone", "near"]);
        let names: Vec<&str> = alone.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"alone") && names.contains(&"near"), "{alone:?}");
        assert!(!names.iter().any(|n| *n == "far" || n.contains("twice")), "{alone:?}");
    }
}
