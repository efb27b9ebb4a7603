//! postc-passes: the pass manager and every IR-to-IR pass.
//!
//! A pass declares its name, a one-line description, its scope and the
//! analyses it needs and keeps; [`manager`] parses text pipelines and runs
//! them.

pub mod analysis;
pub mod cleanup;
pub mod cold_outline;
pub mod const_fold;
pub mod dce;
pub mod forward_sets;
pub mod insert_checks;
pub mod irce;
pub mod legalize;
pub mod licm;
mod loop_copy;
pub mod manager;
pub mod outline_parallel;
pub mod rewrite;
pub mod scratch;
pub mod select_fold;
pub mod simplify_cfg;
pub mod strength_reduce;
pub mod stride_lower;
pub mod stride_version;
pub mod ufunc_dl;
pub mod ufunc_entry;
pub mod verify;

use analysis::{Analyses, AnalysisSet};
use manager::FuncCx;
use postc_ir::diag::Diagnostic;
use postc_ir::{Function, Module};
use scratch::Workers;

pub use manager::{default_pipeline, parse_pipeline, PassManager, RunOptions, RunReport};

/// Whether a pass transforms one function at a time or the whole module.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    Function,
    Module,
}

/// What a pass declares about itself.
#[derive(Debug)]
pub struct PassInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub scope: Scope,
    /// Analyses computed before the pass runs.
    pub needs: AnalysisSet,
    /// Analyses still valid after the pass changed the function.
    pub keeps: AnalysisSet,
}

/// Options that change what passes do.
#[derive(Clone, Debug)]
pub struct PassOptions {
    /// Bounds checks on `index.load` / `index.store`.
    pub bounds_checks: bool,
    /// Division and modulo by zero checks.
    pub div_checks: bool,
    /// Integer overflow checks on add/sub/mul/neg/abs/pow.
    pub overflow_checks: bool,
    pub opt_level: u8,
    /// `outline-parallel` outlines `prange` loops for the thread pool
    /// (off: they run serially).
    pub parallel: bool,
    /// What the backend lowers natively, which `legalize` leaves alone
    /// (by default nothing: everything is written out).
    pub features: legalize::Features,
}

impl PassOptions {
    /// The defaults of an optimisation level: overflow checks at -O0 only.
    pub fn for_level(opt_level: u8) -> PassOptions {
        PassOptions {
            bounds_checks: true,
            div_checks: true,
            overflow_checks: opt_level == 0,
            opt_level,
            parallel: true,
            features: legalize::Features::NONE,
        }
    }
}

impl Default for PassOptions {
    fn default() -> Self {
        PassOptions::for_level(2)
    }
}

/// A pass over one function.
pub trait FunctionPass: Send + Sync {
    fn info(&self) -> &'static PassInfo;
    /// Transforms the function; returns whether anything changed.
    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool;
}

/// A pass over the whole module.
pub trait ModulePass: Send + Sync {
    fn info(&self) -> &'static PassInfo;
    fn run(&self, module: &mut Module, options: &PassOptions) -> Result<bool, Vec<Diagnostic>>;
    /// [`ModulePass::run`] inside the pass manager, for a pass that works
    /// on functions in parallel with the workers' scratch memory.
    fn run_on_workers(
        &self,
        module: &mut Module,
        options: &PassOptions,
        workers: &Workers,
    ) -> Result<bool, Vec<Diagnostic>> {
        let _ = workers;
        self.run(module, options)
    }
}

pub enum Pass {
    Function(Box<dyn FunctionPass>),
    Module(Box<dyn ModulePass>),
}

/// A pass's description and its constructor.
pub type Registration = (&'static PassInfo, fn() -> Pass);

/// Every pass, with a constructor.
pub fn registry() -> Vec<Registration> {
    vec![
        (&insert_checks::INFO, || Pass::Function(Box::new(insert_checks::InsertChecks))),
        (&insert_checks::recursion::INFO, || Pass::Module(Box::new(insert_checks::recursion::InsertRecursionChecks))),
        (&stride_lower::INFO, || Pass::Function(Box::new(stride_lower::StrideLower))),
        (&irce::INFO, || Pass::Function(Box::new(irce::Irce))),
        (&legalize::INFO, || Pass::Module(Box::new(legalize::Legalize))),
        (&licm::INFO, || Pass::Function(Box::new(licm::Licm))),
        (&forward_sets::INFO, || Pass::Function(Box::new(forward_sets::ForwardSets))),
        (&stride_version::INFO, || Pass::Function(Box::new(stride_version::StrideVersion))),
        (&const_fold::INFO, || Pass::Function(Box::new(const_fold::ConstFold))),
        (&cleanup::INFO, || Pass::Function(Box::new(cleanup::Cleanup))),
        (&strength_reduce::INFO, || Pass::Function(Box::new(strength_reduce::StrengthReduce))),
        (&select_fold::INFO, || Pass::Function(Box::new(select_fold::SelectFold))),
        (&simplify_cfg::INFO, || Pass::Function(Box::new(simplify_cfg::SimplifyCfg))),
        (&dce::INFO, || Pass::Function(Box::new(dce::Dce))),
        (&cold_outline::INFO, || Pass::Module(Box::new(cold_outline::ColdOutline))),
        (&outline_parallel::INFO, || Pass::Module(Box::new(outline_parallel::OutlineParallel))),
        (&ufunc_entry::INFO, || Pass::Module(Box::new(ufunc_entry::UFuncEntry))),
        (&ufunc_entry::DEVICE_INFO, || Pass::Module(Box::new(ufunc_entry::UFuncDeviceEntry))),
        (&ufunc_dl::INFO, || Pass::Module(Box::new(ufunc_dl::UFuncDl { gpu: false }))),
        (&ufunc_dl::GPU_INFO, || Pass::Module(Box::new(ufunc_dl::UFuncDl { gpu: true }))),
        (&verify::INFO, || Pass::Module(Box::new(verify::Verify))),
    ]
}
