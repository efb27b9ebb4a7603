//! postc-codegen: the backends that turn a POST program into code, and
//! what they share.
//!
//! Every backend implements [`backend::Backend`] and starts from
//! [`prepare`] (the postc pass pipeline of the level on a clone of every
//! module, then the verifier). What is the same for every backend is
//! decided once, outside any backend: ABI names, DLPack dtype codes and
//! panic text in [`abi`], each function's symbol, the exports and aliases
//! in [`symbols`], call resolution in [`calls`], the ufunc entry points in
//! [`ufunc_plan`], linking with the host runtime in [`link`].
//! Each backend lives in its own folder and reaches into no other:
//! [`llvm`] (native code and GPU kernels through LLVM), [`c`] (C11 through
//! the system C compiler), [`qbe`] (QBE IL) and [`wasm`] (WebAssembly).
//! docs/backends.md describes the protocol.

pub mod abi;
pub mod backend;
pub mod c;
pub mod calls;
pub mod link;
pub mod llvm;
pub mod pyext;
pub mod qbe;
pub mod symbols;
pub mod ufunc_plan;
pub mod wasm;

use postc_ir::diag::Diagnostic;
use postc_ir::Program;
pub use postc_passes::legalize::Features;
use std::path::PathBuf;
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
}

/// What a backend makes ([`backend::Backend::emit`]).
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
    /// GPU code generation (see [`llvm::gpu`]).
    pub gpu: llvm::gpu::GpuOptions,
    /// The object becomes an executable: exported functions other than
    /// `main` are hidden, since the dynamic linker would let an
    /// executable's `malloc` or `write` replace the C library's own.
    pub executable: bool,
    /// Float arithmetic may be reassociated and contracted into fused
    /// multiply-adds (`-ffast-math`'s two value-changing parts that let
    /// reductions vectorise); NaN, infinities and signed zeros keep their
    /// meaning. Off by default: results then round as the IR says.
    pub fast_math: bool,
    /// Debug information (`-g`): DWARF from the LLVM backend (see
    /// [`llvm::debug`]), `-g` for the C compiler of the C backend, line
    /// directives in the QBE IL, a `name` section in a WebAssembly module
    /// (docs/debugging.md). The code is that of the level: from `-O1`
    /// the LLVM backend makes the same code with and without it; at `-O0`
    /// every local and parameter is in memory.
    pub debug: bool,
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

/// Object bytes for the host (or `options.target`), by the LLVM backend.
pub fn compile(program: &Program, options: &CodegenOptions) -> Result<Vec<u8>, Vec<Diagnostic>> {
    llvm::emit(program, options, EmitKind::Object)
}

/// The LLVM IR text after the `-O` pipeline.
pub fn compile_to_ir(program: &Program, options: &CodegenOptions) -> Result<String, Vec<Diagnostic>> {
    llvm::emit(program, options, EmitKind::LlvmIr).map(|b| String::from_utf8_lossy(&b).into_owned())
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

/// The postc pass pipeline of the level, on a clone of every module, the
/// recursion guard of the whole program (`insert-checks`'
/// `guard_program`, its panic paths outlined by `cold-outline`), then the
/// verifier; `prange` loops are outlined for the runtime's thread pool,
/// and `legalize` writes out what a backend with `features` does not lower
/// ([`backend::Backend::features`]).
pub fn prepare(program: &Program, options: &CodegenOptions, features: Features) -> Result<Program, Vec<Diagnostic>> {
    prepare_with(program, options, true, false, features)
}

/// [`prepare`] for a backend that runs `prange` loops serially (they stay
/// loops).
pub fn prepare_serial(
    program: &Program,
    options: &CodegenOptions,
    features: Features,
) -> Result<Program, Vec<Diagnostic>> {
    prepare_with(program, options, false, false, features)
}

/// [`prepare`] (with `parallel`, else [`prepare_serial`]) with the entry
/// points of ufuncs as IR: `ufunc-entry` and `ufunc-dl` run after the
/// pipeline, so the program holds the compiler-made `postc.loop.NAME` and
/// `postc.dl.NAME` for each ufunc, which the backend compiles as the
/// ufunc's `NAME_loop` and `NAME_dl` ([`symbols`]).
pub fn prepare_with_ufunc_loops(
    program: &Program,
    options: &CodegenOptions,
    parallel: bool,
    features: Features,
) -> Result<Program, Vec<Diagnostic>> {
    prepare_with(program, options, parallel, true, features)
}

fn prepare_with(
    program: &Program,
    options: &CodegenOptions,
    parallel: bool,
    ufunc_loops: bool,
    features: Features,
) -> Result<Program, Vec<Diagnostic>> {
    let mut p = program.clone();
    let popts = postc_passes::PassOptions { parallel, features, ..options.pass_options() };
    let mut pipeline = postc_passes::default_pipeline(options.opt.as_u8()).to_owned();
    if ufunc_loops {
        pipeline.push_str(",ufunc-entry,ufunc-dl");
    }
    let pm = postc_passes::parse_pipeline(&pipeline)?;
    let run = postc_passes::RunOptions { time_passes: options.time_passes, ..Default::default() };
    for m in p.modules.iter_mut() {
        let report = pm.run(m, &popts, &run)?;
        if options.time_passes {
            eprint!("{}", postc_passes::manager::format_timings(&report));
        }
    }
    // Which calls count the depth depends on the whole program's call
    // graph, as the pipeline left it; the guards' panic paths are then
    // outlined as the pipeline's own are.
    for mid in postc_passes::insert_checks::recursion::guard_program(&mut p) {
        use postc_passes::ModulePass;
        postc_passes::cold_outline::ColdOutline.run(&mut p.modules[mid], &popts)?;
    }
    let diags = postc_ir::verify::verify_program(&p);
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(p)
}

/// The largest function, in [`optimiser_size`] units, that a backend hands
/// to its optimiser (LLVM's passes, the C compiler's `-O2`). Above it their
/// time per instruction grows with the function's size (docs/backends.md,
/// "Limits"), so such a function is compiled without optimisation and the
/// compile time stays linear in the program's size.
pub const OPT_LIMIT: usize = 16_384;

/// What a prepared function costs an optimiser: its instructions. An
/// integer `pow` is a loop of about twenty of them by then (`legalize`),
/// so the loops it makes count as what they are.
pub fn optimiser_size(f: &postc_ir::Function) -> usize {
    f.body.num_insts()
}

/// Whether `f` is compiled without optimisation: its [`optimiser_size`] is
/// over [`OPT_LIMIT`], or it is a ufunc's DLPack entry point or one of its
/// helpers (`postc.dl.*`, written by `ufunc-dl`). An entry point checks its
/// operands and steps its odometer once per call and per outer index,
/// never per element (its inner loop `NAME_loop` is optimised as any
/// function), while LLVM's passes over its hundreds of instructions of
/// checks cost several times a small ufunc's whole compile.
pub fn compiled_unoptimised(f: &postc_ir::Function) -> bool {
    optimiser_size(f) > OPT_LIMIT || f.name.starts_with(postc_passes::ufunc_dl::DL_PREFIX)
}

/// The number of codegen units for a program of `insts` instructions: one
/// below [`UNIT_THRESHOLD`], else one per threshold's worth, from 2 to
/// [`MAX_UNITS`]. It depends on the program alone (not on the threads), so
/// objects are byte-identical for any `-j`. A unit also optimises the
/// other units' functions that its own call (as `available_externally`,
/// for inlining), so more units can cost more in all: the cap keeps that
/// bounded.
pub fn default_units(insts: usize) -> usize {
    if insts < UNIT_THRESHOLD {
        1
    } else {
        (insts / UNIT_THRESHOLD).clamp(2, MAX_UNITS)
    }
}

/// The most codegen units a program is split into.
pub const MAX_UNITS: usize = 4;

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
            abi::panic_format("index {} of {} at 100%", 2, Some("k.py:1:2")),
            "panic: index %lld of %lld at 100%% at k.py:1:2"
        );
        assert_eq!(abi::panic_format("x {}", 0, None), "panic: x {}");
    }
}
