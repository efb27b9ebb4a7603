//! The pass manager: text pipelines, analyses cached per function, function
//! passes grouped and run together on each function with functions in
//! parallel, verify-after-each, print-after, per-pass timing and a bisect
//! limit. Results are byte-identical whatever the thread count: every
//! function is transformed independently and reports are merged in
//! function order.

use crate::analysis::Analyses;
use crate::scratch::{Scratch, Workers};
use crate::{registry, Pass, PassInfo, PassOptions};
use postc_ir::diag::Diagnostic;
use postc_ir::{FileTable, Function, Module, TypeTable};
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// What a pass application may read of the module while functions are
/// transformed in parallel, and the worker's scratch memory it may use.
pub struct FuncCx<'a> {
    pub types: &'a TypeTable,
    pub files: &'a FileTable,
    pub options: &'a PassOptions,
    pub module_name: &'a str,
    /// Whether `insert-checks` ran earlier in this pipeline: every checked
    /// instruction is then guarded (or unchecked by the options), so a
    /// `view` cannot panic any more and `dce` may remove one that nothing
    /// reads.
    pub checks_inserted: bool,
    /// Reset before every pass application: nothing in it outlives one.
    pub scratch: &'a Scratch,
}

/// The parts of [`FuncCx`] that every worker shares.
struct Shared<'a> {
    types: &'a TypeTable,
    files: &'a FileTable,
    options: &'a PassOptions,
    module_name: &'a str,
    /// Whether `insert-checks` ran before the group of passes.
    checks_inserted: bool,
}

impl Shared<'_> {
    fn cx<'s>(&'s self, scratch: &'s Scratch, checks_inserted: bool) -> FuncCx<'s> {
        FuncCx {
            types: self.types,
            files: self.files,
            options: self.options,
            module_name: self.module_name,
            checks_inserted: self.checks_inserted || checks_inserted,
            scratch,
        }
    }
}

/// Options of one run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Verify each function after every pass that changed it, and the
    /// module after every module pass.
    pub verify_each: bool,
    /// Print each function after this pass runs on it.
    pub print_after: Option<String>,
    /// Collect the time spent in each pass.
    pub time_passes: bool,
    /// Run only the first N pass applications (a pass on one function, or
    /// one module pass, is one application).
    pub bisect_limit: Option<u64>,
    /// Worker threads (default: rayon's), at most one per function.
    pub threads: Option<usize>,
}

/// What a run produced besides the module.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// `--print-after` dumps, in pipeline then function order.
    pub dumps: Vec<String>,
    /// Seconds per pipeline step: (pass name, seconds summed over threads).
    pub timings: Vec<(&'static str, f64)>,
    /// Wall time of the whole run.
    pub wall_seconds: f64,
    /// Pass applications counted (run or skipped by the bisect limit).
    pub applications: u64,
    /// With a bisect limit: the last application that ran.
    pub last_application: Option<String>,
    /// The worker threads the run had.
    pub threads: usize,
}

enum Step {
    Functions(Vec<Box<dyn crate::FunctionPass>>),
    Module(Box<dyn crate::ModulePass>),
}

/// A pipeline ready to run.
pub struct PassManager {
    steps: Vec<Step>,
    names: Vec<&'static str>,
}

/// A pipeline that did not parse: a diagnostic naming the bad element.
pub fn parse_pipeline(text: &str) -> Result<PassManager, Vec<Diagnostic>> {
    let reg = registry();
    let mut steps: Vec<Step> = Vec::new();
    let mut names = Vec::new();
    let mut errors = Vec::new();
    if text.trim().is_empty() {
        return Err(vec![Diagnostic::error("empty pass pipeline", None)]);
    }
    for (i, raw) in text.split(',').enumerate() {
        let name = raw.trim();
        if name.is_empty() {
            errors.push(Diagnostic::error(format!("empty pass name at position {} of pipeline `{text}`", i + 1), None));
            continue;
        }
        let Some((info, make)) = reg.iter().find(|(info, _)| info.name == name) else {
            let known: Vec<&str> = reg.iter().map(|(i, _)| i.name).collect();
            errors.push(
                Diagnostic::error(format!("unknown pass `{name}` in pipeline `{text}`"), None)
                    .with_note(format!("available passes: {}", known.join(", "))),
            );
            continue;
        };
        names.push(info.name);
        match make() {
            Pass::Function(p) => match steps.last_mut() {
                Some(Step::Functions(group)) => group.push(p),
                _ => steps.push(Step::Functions(vec![p])),
            },
            Pass::Module(p) => steps.push(Step::Module(p)),
        }
    }
    if errors.is_empty() {
        Ok(PassManager { steps, names })
    } else {
        Err(errors)
    }
}

/// The default pipeline of an optimisation level (0–3).
///
/// From -O2 a cleanup (`cleanup`, which is `const-fold,simplify-cfg,dce` in
/// one sweep) runs first: code that folding shows to be unreachable or
/// unused then never gets checks, stride reads or if-conversion only to be
/// deleted afterwards. It is sound before `insert-checks` because none of
/// the three removes an operation that may panic (`index.load`, integer
/// division, checked arithmetic), only code that cannot run or whose result
/// is unused.
pub fn default_pipeline(level: u8) -> &'static str {
    match level {
        0 => "outline-parallel,insert-checks,stride-lower,legalize,verify,cold-outline",
        1 => {
            "outline-parallel,forward-sets,insert-checks,stride-lower,const-fold,strength-reduce,simplify-cfg,dce,licm,irce,stride-version,simplify-cfg,dce,legalize,cold-outline"
        }
        _ => concat!(
            "outline-parallel,cleanup,forward-sets,",
            "insert-checks,stride-lower,",
            "const-fold,strength-reduce,select-fold,simplify-cfg,dce,",
            "licm,irce,stride-version,",
            "const-fold,select-fold,simplify-cfg,dce,",
            "legalize,cold-outline"
        ),
    }
}

impl PassManager {
    /// The pass names, in pipeline order.
    pub fn pass_names(&self) -> &[&'static str] {
        &self.names
    }

    /// Runs the pipeline over a module.
    pub fn run(&self, m: &mut Module, options: &PassOptions, run: &RunOptions) -> Result<RunReport, Vec<Diagnostic>> {
        let start = Instant::now();
        // More threads than functions would have nothing to do.
        let threads = run.threads.map(|n| n.clamp(1, m.functions.len().max(1)));
        let mut body = || {
            let threads = rayon::current_num_threads();
            self.run_steps(m, options, run).map(|r| RunReport { threads, ..r })
        };
        let mut report = match threads {
            Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
                Ok(pool) => pool.install(body),
                Err(e) => return Err(vec![Diagnostic::error(format!("cannot start {n} worker threads: {e}"), None)]),
            },
            None => body(),
        }?;
        report.wall_seconds = start.elapsed().as_secs_f64();
        Ok(report)
    }

    fn run_steps(&self, m: &mut Module, options: &PassOptions, run: &RunOptions) -> Result<RunReport, Vec<Diagnostic>> {
        let mut report = RunReport::default();
        // One scratch per worker of this run's pool, kept across functions
        // and steps.
        let workers = Workers::for_current_pool();
        let nanos: Vec<AtomicU64> = self.names.iter().map(|_| AtomicU64::new(0)).collect();
        // Applications are numbered pass by pass, functions in order within
        // a function pass, whatever the grouping: the bisect limit means the
        // same thing with and without --verify-each or threads.
        let mut app_base: u64 = 0;
        let mut pass_index = 0usize;
        let limit = run.bisect_limit.unwrap_or(u64::MAX);
        let mut checks_inserted = false;
        for step in &self.steps {
            match step {
                Step::Module(p) => {
                    let info = p.info();
                    if app_base < limit {
                        let t = Instant::now();
                        p.run_on_workers(m, options, &workers)?;
                        nanos[pass_index].fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
                        report.last_application = Some(format!("({app_base}) {} on module {}", info.name, m.name));
                        if run.verify_each {
                            verify_after(m, info.name)?;
                        }
                        if run.print_after.as_deref() == Some(info.name) {
                            report.dumps.push(format!(
                                "; *** IR after {} ***\n{}",
                                info.name,
                                postc_ir::print::print_module(m)
                            ));
                        }
                    }
                    app_base += 1;
                    pass_index += 1;
                }
                Step::Functions(group) => {
                    // With --verify-each the group runs one pass at a time so
                    // the module can be verified between passes.
                    let chunk = if run.verify_each { 1 } else { group.len() };
                    for sub in group.chunks(chunk) {
                        let nfuncs = m.functions.len() as u64;
                        let shared =
                            Shared { types: &m.types, files: &m.files, options, module_name: &m.name, checks_inserted };
                        let sub_nanos = &nanos[pass_index..pass_index + sub.len()];
                        let workers = &workers;
                        let outcomes: Vec<FuncOutcome> = m
                            .functions
                            .raw_mut()
                            .par_iter_mut()
                            .enumerate()
                            .map(|(fi, f)| {
                                workers.with(|scratch| {
                                    let at = (app_base, nfuncs, fi as u64, limit);
                                    run_group(sub, &shared, scratch, f, at, run, sub_nanos)
                                })
                            })
                            .collect();
                        // The last application is the highest-numbered one
                        // that ran, whichever function it was on.
                        let mut last: Option<(u64, String)> = None;
                        for o in outcomes {
                            report.dumps.extend(o.dumps);
                            if o.last.as_ref().map(|l| l.0) > last.as_ref().map(|l| l.0) {
                                last = o.last;
                            }
                        }
                        if let Some((_, text)) = last {
                            report.last_application = Some(text);
                        }
                        if run.verify_each {
                            verify_after(m, sub[0].info().name)?;
                        }
                        app_base += nfuncs * sub.len() as u64;
                        pass_index += sub.len();
                        checks_inserted |= sub.iter().any(|p| p.info().name == crate::insert_checks::INFO.name);
                    }
                }
            }
        }
        report.applications = app_base;
        if run.time_passes {
            report.timings =
                self.names.iter().zip(&nanos).map(|(n, t)| (*n, t.load(Ordering::Relaxed) as f64 * 1e-9)).collect();
        }
        Ok(report)
    }
}

#[derive(Default)]
struct FuncOutcome {
    dumps: Vec<String>,
    /// The number and description of the last application that ran.
    last: Option<(u64, String)>,
}

/// Runs a group of function passes on one function with one worker's
/// scratch; `(app_base, nfuncs, fi, limit)` number the applications.
fn run_group(
    group: &[Box<dyn crate::FunctionPass>],
    shared: &Shared<'_>,
    scratch: &mut Scratch,
    f: &mut Function,
    (app_base, nfuncs, fi, limit): (u64, u64, u64, u64),
    run: &RunOptions,
    nanos: &[AtomicU64],
) -> FuncOutcome {
    let mut out = FuncOutcome::default();
    let mut analyses = Analyses::with_spare_cfgs(std::mem::take(&mut scratch.cfgs));
    // The passes that changed nothing since the function last changed: run
    // again on the same body, each would change nothing again (passes are
    // deterministic), so it is not run.
    let mut settled: SmallVec<[&'static str; 8]> = SmallVec::new();
    for (pi, pass) in group.iter().enumerate() {
        let app = app_base + pi as u64 * nfuncs + fi;
        if app >= limit {
            break;
        }
        let info = pass.info();
        let t = Instant::now();
        if !settled.contains(&info.name) {
            scratch.reset();
            let checks_inserted = group[..pi].iter().any(|p| p.info().name == crate::insert_checks::INFO.name);
            let cx = shared.cx(scratch, checks_inserted);
            analyses.prepare(info.needs, &f.body);
            if pass.run(&cx, f, &mut analyses) {
                analyses.invalidate_except(info.keeps);
                settled.clear();
            } else {
                settled.push(info.name);
            }
        }
        if run.time_passes {
            nanos[pi].fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        }
        if run.bisect_limit.is_some() {
            out.last = Some((app, format!("({app}) {} on function {}", info.name, f.name)));
        }
        if run.print_after.as_deref() == Some(info.name) {
            out.dumps.push(format!(
                "; *** IR after {} on {} ***\n{}",
                info.name,
                f.name,
                postc_ir::print::print_function_with(shared.types, shared.files, f)
            ));
        }
    }
    scratch.keep_cfgs(analyses.into_spare_cfgs());
    out
}

/// Verifies every function (in parallel, one verifier per worker).
fn verify_after(m: &Module, pass: &str) -> Result<(), Vec<Diagnostic>> {
    let mut errors: Vec<Diagnostic> = postc_ir::verify::Verifier::new(m).verify_module_decls();
    let per_function: Vec<Vec<Diagnostic>> = m
        .functions
        .ids()
        .collect::<Vec<_>>()
        .par_iter()
        .map_init(|| postc_ir::verify::Verifier::new(m), |v, &f| v.verify_function(f))
        .collect();
    errors.extend(per_function.into_iter().flatten());
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into_iter().map(|d| d.with_note(format!("after pass `{pass}`"))).collect())
    }
}

/// Formats timings like clang's `-ftime-report`.
pub fn format_timings(report: &RunReport) -> String {
    let total: f64 = report.timings.iter().map(|(_, s)| s).sum();
    let mut out = String::new();
    out.push_str("===-------------------------------------------------------------------------===\n");
    out.push_str("                          Pass execution timing report\n");
    out.push_str("===-------------------------------------------------------------------------===\n");
    out.push_str(&format!(
        "  Total Execution Time: {total:.4} seconds (summed over {} threads), {:.4} wall\n\n",
        report.threads, report.wall_seconds
    ));
    out.push_str("   ---Time (sum)---  --Percent--  --Name--\n");
    let mut rows: Vec<_> = report.timings.iter().collect();
    rows.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    for (name, s) in rows {
        let pct = if total > 0.0 { 100.0 * s / total } else { 0.0 };
        out.push_str(&format!("   {s:>12.4}s      {pct:>5.1}%   {name}\n"));
    }
    out.push_str(&format!("   {total:>12.4}s      100.0%   Total\n"));
    out
}

/// Pass information for `postc-driver passes`.
pub fn describe_passes() -> Vec<&'static PassInfo> {
    registry().into_iter().map(|(i, _)| i).collect()
}
