//! `postc-driver`: the postc command line.

use clap::{Parser, Subcommand};
use postc_ir::diag::{Diagnostic, SourceMap};
use postc_ir::interp::{InterpOptions, Interpreter, Value};
use postc_ir::{DType, Program};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "postc-driver", version, about = "The postc compiler for POST IR modules")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and verify modules (and the modules they import).
    Check {
        /// `.pir` files; files named together resolve each other's imports.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Directories searched for imported modules (`a.b` is `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
    },
    /// Run a pass pipeline over a module and print the result.
    Opt {
        /// The module to optimise (its imports are loaded and checked too).
        file: PathBuf,
        /// A pipeline such as `insert-checks,stride-lower,select-fold,dce,cold-outline`.
        #[arg(long, conflicts_with = "opt_level")]
        passes: Option<String>,
        /// Optimisation level 0-3 (its default pipeline and check settings).
        #[arg(short = 'O', value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(0..=3))]
        opt_level: Option<u8>,
        /// Write the result here instead of standard output.
        #[arg(short = 'o', value_name = "OUT")]
        output: Option<PathBuf>,
        /// Worker threads for function passes.
        #[arg(short = 'j', value_name = "N")]
        jobs: Option<usize>,
        /// Print the time spent in each pass to standard error.
        #[arg(long)]
        time_passes: bool,
        /// Print each function after this pass to standard error.
        #[arg(long, value_name = "PASS")]
        print_after: Option<String>,
        /// Verify the module after every pass.
        #[arg(long)]
        verify_each: bool,
        /// Run only the first N pass applications (to find a miscompiling pass).
        #[arg(long, value_name = "N")]
        bisect_limit: Option<u64>,
        /// Code-generation options: overflow-checks=on|off, bounds-checks=on|off, div-checks=on|off.
        #[arg(short = 'C', value_name = "OPT=VALUE")]
        codegen: Vec<String>,
        /// Directories searched for imported modules (`a.b` is `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
    },
    /// List every pass with its description.
    Passes,
    /// Run a function in the reference interpreter with scalar arguments and
    /// print its result as Python would.
    Run {
        /// The module (its imports are loaded and checked too).
        file: PathBuf,
        /// The function to call.
        #[arg(long)]
        entry: String,
        /// Panic on integer overflow (the -O0 semantics) instead of wrapping.
        #[arg(long)]
        overflow_checks: bool,
        /// Stop with an `out of fuel` error (exit status 101) after N instructions.
        #[arg(long, value_name = "N")]
        fuel: Option<u64>,
        /// Directories searched for imported modules (`a.b` is `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Arguments, one per parameter, in Python syntax (`3`, `-1.5`, `True`, `1+2j`).
        #[arg(last = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Compile modules to an object, assembly, LLVM IR, bitcode, a shared
    /// library or an executable.
    Compile {
        /// `.pir` files; files named together resolve each other's imports
        /// and compile into one output.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The output file (default: from the first file's stem).
        #[arg(short = 'o', value_name = "OUT")]
        output: Option<PathBuf>,
        /// What to write.
        #[arg(long, value_enum, default_value = "obj")]
        emit: EmitArg,
        /// Optimisation level 0-3.
        #[arg(short = 'O', value_name = "LEVEL", default_value = "2")]
        opt_level: u8,
        /// Target triple (default: the host).
        #[arg(long, value_name = "TRIPLE")]
        target: Option<String>,
        /// Target CPU (default: the host's; `generic` with --target).
        #[arg(long, value_name = "CPU")]
        cpu: Option<String>,
        /// Threads compiling the codegen units (default: the core count); the
        /// split into units depends on the program only, so -j never changes the output.
        #[arg(short = 'j', value_name = "N")]
        jobs: Option<usize>,
        /// Code-generation options: overflow-checks=on|off, bounds-checks=on|off, div-checks=on|off.
        #[arg(short = 'C', value_name = "OPT=VALUE")]
        codegen: Vec<String>,
        /// LLVM IR (`.ll`) to link in; its functions become internal.
        #[arg(long = "link-ir", value_name = "FILE")]
        link_ir: Vec<PathBuf>,
        /// Print the time of each phase to standard error.
        #[arg(long)]
        time_passes: bool,
        /// Directories searched for imported modules (`a.b` is `a/b.pir`).
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// GPU code for `gpu` functions: nvptx (default), amdgpu or off (host only).
        #[arg(long, value_enum, default_value = "nvptx")]
        gpu: GpuArg,
        /// GPU architecture (default sm_90, or gfx90a for amdgpu; with `--emit ptx|hsaco`, `--cpu` sets it too).
        #[arg(long = "gpu-arch", value_name = "ARCH")]
        gpu_arch: Option<String>,
    },
    /// Print a module in canonical form.
    Fmt {
        /// A `.pir` file, or `-` for standard input.
        file: PathBuf,
        /// Exit with status 1 if the file is not in canonical form.
        #[arg(long, conflicts_with = "write")]
        check: bool,
        /// Rewrite the file in place.
        #[arg(short = 'w', long = "write")]
        write: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum EmitArg {
    Obj,
    Asm,
    #[value(name = "llvm-ir")]
    LlvmIr,
    Bc,
    Shared,
    Exe,
    /// The PTX of the program's gpu functions.
    Ptx,
    /// The AMDGPU code object of the program's gpu functions (implies `--gpu amdgpu`).
    Hsaco,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum GpuArg {
    Nvptx,
    Amdgpu,
    Off,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Compile {
            files,
            output,
            emit,
            opt_level,
            target,
            cpu,
            jobs,
            codegen,
            link_ir,
            time_passes,
            include,
            gpu,
            gpu_arch,
        } => {
            let args = CompileArgs {
                output,
                emit,
                opt_level,
                target,
                cpu,
                jobs,
                codegen,
                link_ir,
                time_passes,
                gpu,
                gpu_arch,
            };
            compile(&files, include, args)
        }
        Command::Check { files, include } => check(&files, include),
        Command::Fmt { file, check, write } => fmt(&file, check, write),
        Command::Opt {
            file,
            passes,
            opt_level,
            output,
            jobs,
            time_passes,
            print_after,
            verify_each,
            bisect_limit,
            codegen,
            include,
        } => {
            let run = postc_passes::RunOptions { verify_each, print_after, time_passes, bisect_limit, threads: jobs };
            opt(&file, passes, opt_level, output, &codegen, include, run)
        }
        Command::Passes => {
            let infos = postc_passes::manager::describe_passes();
            let width = infos.iter().map(|i| i.name.len()).max().unwrap_or(0);
            for i in infos {
                let scope = match i.scope {
                    postc_passes::Scope::Function => "function",
                    postc_passes::Scope::Module => "module",
                };
                println!("{:width$}  {scope:8}  {}", i.name, i.description);
            }
            ExitCode::SUCCESS
        }
        Command::Run { file, entry, overflow_checks, fuel, include, args } => {
            run(&file, &entry, InterpOptions { overflow_checks, fuel }, include, &args)
        }
    }
}

/// Loads and verifies a program; diagnostics are reported on failure.
fn load_checked(files: &[PathBuf], include: Vec<PathBuf>) -> Result<(postc_ir::resolve::Loader, Program), ExitCode> {
    let mut loader = postc_ir::resolve::Loader::with_include_dirs(include);
    let program = match loader.load(files) {
        Ok(p) => p,
        Err(diags) => {
            report(&loader.sources, &diags);
            return Err(ExitCode::FAILURE);
        }
    };
    let diags = postc_ir::verify::verify_program(&program);
    if !diags.is_empty() {
        report(&loader.sources, &diags);
        return Err(ExitCode::FAILURE);
    }
    Ok((loader, program))
}

/// Whether two paths name the same existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// A usage error when `out` is one of the inputs or a file the loader read
/// (an imported module): writing it would destroy the source.
fn refuse_overwriting(
    out: &std::path::Path,
    inputs: &[PathBuf],
    loader: &postc_ir::resolve::Loader,
) -> Result<(), ExitCode> {
    let read = loader.sources.paths().map(std::path::Path::new);
    match inputs.iter().map(PathBuf::as_path).chain(read).find(|p| same_file(out, p)) {
        Some(p) => Err(usage_error(&format!(
            "the output `{}` is the input `{}`: refusing to overwrite it",
            out.display(),
            p.display()
        ))),
        None => Ok(()),
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Applies `-C key=value` options.
fn apply_codegen_options(opts: &mut postc_passes::PassOptions, codegen: &[String]) -> Result<(), String> {
    for c in codegen {
        let (key, value) = c.split_once('=').ok_or_else(|| format!("`-C {c}`: expected OPT=VALUE"))?;
        let on = match value {
            "on" | "yes" | "true" => true,
            "off" | "no" | "false" => false,
            _ => return Err(format!("`-C {c}`: expected `on` or `off`")),
        };
        match key {
            "overflow-checks" => opts.overflow_checks = on,
            "bounds-checks" => opts.bounds_checks = on,
            "div-checks" => opts.div_checks = on,
            _ => return Err(format!("unknown option `-C {key}` (known: overflow-checks, bounds-checks, div-checks)")),
        }
    }
    Ok(())
}

fn opt(
    file: &PathBuf,
    passes: Option<String>,
    opt_level: Option<u8>,
    output: Option<PathBuf>,
    codegen: &[String],
    include: Vec<PathBuf>,
    run: postc_passes::RunOptions,
) -> ExitCode {
    let level = opt_level.unwrap_or(2);
    let mut options = postc_passes::PassOptions::for_level(level);
    if let Err(e) = apply_codegen_options(&mut options, codegen) {
        return usage_error(&e);
    }
    let pipeline_text = passes.unwrap_or_else(|| postc_passes::default_pipeline(level).to_owned());
    let manager = match postc_passes::parse_pipeline(&pipeline_text) {
        Ok(m) => m,
        Err(diags) => {
            report(&SourceMap::new(), &diags);
            return ExitCode::from(2);
        }
    };
    let (loader, mut program) = match load_checked(std::slice::from_ref(file), include) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if let Some(out) = &output {
        if let Err(code) = refuse_overwriting(out, std::slice::from_ref(file), &loader) {
            return code;
        }
    }
    let Some(module) = program.modules.iter_mut().next() else {
        return usage_error("no module to optimise");
    };
    let report_out = match manager.run(module, &options, &run) {
        Ok(r) => r,
        Err(diags) => {
            report(&loader.sources, &diags);
            return ExitCode::FAILURE;
        }
    };
    let mut err = std::io::stderr().lock();
    for d in &report_out.dumps {
        let _ = err.write_all(d.as_bytes());
    }
    if let Some(last) = &report_out.last_application {
        if run.bisect_limit.is_some() {
            let _ = writeln!(err, "bisect: {} applications; last run: {last}", report_out.applications);
        }
    }
    if run.time_passes {
        let _ = err.write_all(postc_passes::manager::format_timings(&report_out).as_bytes());
    }
    let text = postc_ir::print::print_module(module);
    match output {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
        None => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
    }
    ExitCode::SUCCESS
}

struct CompileArgs {
    output: Option<PathBuf>,
    emit: EmitArg,
    opt_level: u8,
    target: Option<String>,
    cpu: Option<String>,
    jobs: Option<usize>,
    codegen: Vec<String>,
    link_ir: Vec<PathBuf>,
    time_passes: bool,
    gpu: GpuArg,
    gpu_arch: Option<String>,
}

fn compile(files: &[PathBuf], include: Vec<PathBuf>, a: CompileArgs) -> ExitCode {
    use postc_codegen::{CodegenOptions, EmitKind, OptLevel};
    let level = match OptLevel::from_u8(a.opt_level) {
        Ok(l) => l,
        Err(e) => return usage_error(&e),
    };
    let mut popts = postc_passes::PassOptions::for_level(a.opt_level);
    if let Err(e) = apply_codegen_options(&mut popts, &a.codegen) {
        return usage_error(&e);
    }
    if a.jobs == Some(0) {
        return usage_error("`-j 0`: expected at least one codegen unit");
    }
    let device_only = matches!(a.emit, EmitArg::Ptx | EmitArg::Hsaco);
    let gpu_mode = match a.gpu {
        _ if a.emit == EmitArg::Hsaco => postc_codegen::gpu::GpuMode::Amdgpu,
        GpuArg::Nvptx => postc_codegen::gpu::GpuMode::Nvptx,
        GpuArg::Amdgpu => postc_codegen::gpu::GpuMode::Amdgpu,
        GpuArg::Off => postc_codegen::gpu::GpuMode::Off,
    };
    let gpu_arch = if device_only { a.gpu_arch.clone().or(a.cpu.clone()) } else { a.gpu_arch.clone() };
    let options = CodegenOptions {
        gpu: postc_codegen::gpu::GpuOptions { mode: gpu_mode, arch: gpu_arch },
        opt: level,
        target: a.target.clone(),
        cpu: if device_only { None } else { a.cpu.clone() },
        overflow_checks: Some(popts.overflow_checks),
        bounds_checks: popts.bounds_checks,
        div_checks: popts.div_checks,
        link_ir: a.link_ir.clone(),
        units: a.jobs,
        time_passes: a.time_passes,
        executable: a.emit == EmitArg::Exe,
    };
    let (loader, program) = match load_checked(files, include) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let stem = files[0].file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let default_name = match a.emit {
        EmitArg::Obj => format!("{stem}.o"),
        EmitArg::Asm => format!("{stem}.s"),
        EmitArg::LlvmIr => format!("{stem}.ll"),
        EmitArg::Bc => format!("{stem}.bc"),
        EmitArg::Shared => format!("lib{stem}.so"),
        EmitArg::Exe => stem.clone(),
        EmitArg::Ptx => format!("{stem}.ptx"),
        EmitArg::Hsaco => format!("{stem}.hsaco"),
    };
    let out_path = a.output.clone().unwrap_or_else(|| PathBuf::from(default_name));
    let inputs: Vec<PathBuf> = files.iter().chain(&a.link_ir).cloned().collect();
    if let Err(code) = refuse_overwriting(&out_path, &inputs, &loader) {
        return code;
    }
    if a.emit == EmitArg::Exe {
        let m = &program.modules[postc_ir::ModuleId::from_u32(0)];
        let main = program.modules.iter().find_map(|m| m.get_function("main").map(|f| (m, f)));
        let Some((mm, fid)) = main else {
            return usage_error(&format!("`--emit exe` needs a function `main` (module `{}` has none)", m.name));
        };
        let f = &mm.functions[fid];
        let ret = f.return_dtype(&mm.types);
        if f.body.all_params().len() != 0
            || !(ret.is_none() || ret == Some(DType::Int64))
            || f.ret.is_some_and(|t| mm.types.is_array(t))
            || !mm.is_exported("main")
        {
            return usage_error("`main` must be exported, take no parameters and return Int64 or nothing");
        }
    }
    if device_only {
        let code = if a.emit == EmitArg::Ptx {
            postc_codegen::gpu::emit_ptx(&program, &options).map(String::into_bytes)
        } else {
            postc_codegen::gpu::emit_code_object(&program, &options)
        };
        return match code {
            Ok(bytes) => match std::fs::write(&out_path, bytes) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write {}: {e}", out_path.display());
                    ExitCode::FAILURE
                }
            },
            Err(diags) => {
                report(&loader.sources, &diags);
                ExitCode::FAILURE
            }
        };
    }
    let kind = match a.emit {
        EmitArg::Asm => EmitKind::Assembly,
        EmitArg::LlvmIr => EmitKind::LlvmIr,
        EmitArg::Bc => EmitKind::Bitcode,
        _ => EmitKind::Object,
    };
    let bytes = match postc_codegen::emit(&program, &options, kind) {
        Ok(b) => b,
        Err(diags) => {
            report(&loader.sources, &diags);
            return ExitCode::FAILURE;
        }
    };
    if matches!(a.emit, EmitArg::Shared | EmitArg::Exe) {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => return usage_error(&format!("cannot create a temporary directory: {e}")),
        };
        let obj = dir.path().join(format!("{stem}.o"));
        if let Err(e) = std::fs::write(&obj, &bytes) {
            eprintln!("error: cannot write {}: {e}", obj.display());
            return ExitCode::FAILURE;
        }
        let mut cc = std::process::Command::new("cc");
        if a.emit == EmitArg::Shared {
            cc.arg("-shared");
        } else {
            // The C entry point calls the program's `main` and exits with
            // its result (0 for a void `main`).
            let stub = dir.path().join("postc_start.c");
            let text = "extern long long __real_main(void);\nint __wrap_main(void) { return (int)__real_main(); }\n";
            let void_main = program
                .modules
                .iter()
                .find_map(|m| m.get_function("main").map(|f| m.functions[f].ret.is_none()))
                .unwrap_or(false);
            let text = if void_main {
                "extern void __real_main(void);\nint __wrap_main(void) { __real_main(); return 0; }\n"
            } else {
                text
            };
            if let Err(e) = std::fs::write(&stub, text) {
                eprintln!("error: cannot write {}: {e}", stub.display());
                return ExitCode::FAILURE;
            }
            cc.arg(&stub).arg("-Wl,--wrap=main");
        }
        // libdl: code that shadows a C library function reaches it with
        // `dlsym` (in the C library itself from glibc 2.34).
        cc.arg("-o").arg(&out_path).arg(&obj).args(["-lm", "-ldl"]);
        if gpu_mode != postc_codegen::gpu::GpuMode::Off && postc_codegen::gpu::has_gpu(&program) {
            // GPU code: link the GPU runtime and the libraries it needs.
            match gpu_runtime_lib() {
                Ok(lib) => {
                    cc.arg(lib).args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]);
                }
                Err(e) => return usage_error(&e),
            }
        }
        match cc.status() {
            Ok(st) if st.success() => {}
            Ok(st) => {
                eprintln!("error: `cc` failed ({st}) linking {}", out_path.display());
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("error: cannot run `cc`: {e}");
                return ExitCode::FAILURE;
            }
        }
        return ExitCode::SUCCESS;
    }
    if let Err(e) = std::fs::write(&out_path, &bytes) {
        eprintln!("error: cannot write {}: {e}", out_path.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Parses a command-line argument as a value of `dtype`, in Python syntax.
fn parse_arg(text: &str, dtype: DType) -> Option<Value> {
    let t = text.trim();
    let float = |s: &str| -> Option<f64> {
        match s {
            "inf" | "+inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            "nan" | "+nan" | "-nan" => Some(f64::NAN),
            _ => s.parse::<f64>().ok(),
        }
    };
    Some(match dtype {
        DType::Bool => Value::Bool(match t {
            "True" | "true" | "1" => true,
            "False" | "false" | "0" => false,
            _ => return None,
        }),
        d if d.is_int() => {
            let x: i128 = t.replace('_', "").parse().ok()?;
            let (lo, hi) = d.int_range()?;
            if x < lo || x > hi {
                return None;
            }
            Value::Int(d, x)
        }
        d if d.is_float() => Value::float(d, float(t)?),
        d if d.is_complex() => {
            let s = t.trim_start_matches('(').trim_end_matches(')');
            let (re, im) = match s.strip_suffix('j') {
                None => (float(s)?, 0.0),
                Some(body) => {
                    // Split at the last sign that does not follow an exponent marker.
                    let bytes = body.as_bytes();
                    let split = (1..bytes.len())
                        .rev()
                        .find(|&i| (bytes[i] == b'+' || bytes[i] == b'-') && !matches!(bytes[i - 1], b'e' | b'E'));
                    match split {
                        Some(i) => (float(&body[..i])?, float(&body[i..])?),
                        None => (0.0, if body.is_empty() { 1.0 } else { float(body)? }),
                    }
                }
            };
            Value::complex(d, re, im)
        }
        DType::Str => Value::Str(text.to_owned()),
        DType::Bytes => Value::Bytes(text.as_bytes().to_vec()),
        _ => return None,
    })
}

fn run(file: &PathBuf, entry: &str, options: InterpOptions, include: Vec<PathBuf>, args: &[String]) -> ExitCode {
    let (_, program) = match load_checked(std::slice::from_ref(file), include) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mid = postc_ir::ModuleId::from_u32(0);
    let m = &program.modules[mid];
    let Some(fid) = m.get_function(entry) else {
        return usage_error(&format!("module `{}` has no function `{entry}`", m.name));
    };
    let f = &m.functions[fid];
    let params: Vec<_> = f.body.all_params().collect();
    if params.len() != args.len() {
        return usage_error(&format!("`{entry}` takes {} argument(s), {} given", params.len(), args.len()));
    }
    let mut values = Vec::with_capacity(args.len());
    for (p, a) in params.iter().zip(args) {
        let Some(t) = f.body.ty(*p).map(|t| m.types.get(t)) else {
            return usage_error("malformed parameter");
        };
        let name = f.body.name_or_empty(*p);
        if t.is_array {
            return usage_error(&format!("parameter %{name} is an array ({t}); `run` takes scalar arguments only"));
        }
        match parse_arg(a, t.dtype) {
            Some(v) => values.push(v),
            None => return usage_error(&format!("argument `{a}` is not a valid {} for parameter %{name}", t.dtype)),
        }
    }
    let mut interp = Interpreter::new(&program, options);
    match interp.call(mid, entry, &values) {
        Ok(Some(v)) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Ok(None) => {
            println!("None");
            ExitCode::SUCCESS
        }
        Err(trap) => {
            eprintln!("{trap}");
            ExitCode::from(101)
        }
    }
}

fn report(sources: &SourceMap, diags: &[Diagnostic]) {
    let color = std::io::stderr().is_terminal();
    let text = sources.render(diags, color);
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let n = diags.iter().filter(|d| d.severity == postc_ir::diag::Severity::Error).count();
    if n > 0 {
        let _ = writeln!(err, "error: aborting due to {n} error{}", if n == 1 { "" } else { "s" });
    }
}

fn check(files: &[PathBuf], include: Vec<PathBuf>) -> ExitCode {
    match load_checked(files, include) {
        Ok(_) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

fn fmt(file: &PathBuf, check: bool, write: bool) -> ExitCode {
    let stdin = file.as_os_str() == "-";
    if write && stdin {
        return usage_error("`fmt -w` rewrites a file in place; standard input is not one");
    }
    let path = if stdin { "<stdin>".to_owned() } else { file.display().to_string() };
    let mut bytes = Vec::new();
    let read =
        if stdin { std::io::stdin().read_to_end(&mut bytes).map(drop) } else { std::fs::read(file).map(|b| bytes = b) };
    if let Err(e) = read {
        eprintln!("error: cannot read {path}: {e}");
        return ExitCode::FAILURE;
    }
    let mut sources = SourceMap::new();
    sources.add(&path, &String::from_utf8_lossy(&bytes));
    let module = match postc_ir::parse::parse_module(&path, &bytes) {
        Ok(m) => m,
        Err(diags) => {
            report(&sources, &diags);
            return ExitCode::FAILURE;
        }
    };
    let text = postc_ir::print::print_module(&module);
    if check {
        if text.as_bytes() != bytes.as_slice() {
            eprintln!("{path}: not in canonical form (run `postc-driver fmt -w {path}`)");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    if write {
        if let Err(e) = std::fs::write(file, &text) {
            eprintln!("error: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    ExitCode::SUCCESS
}

/// `libpostc_runtime_gpu.a`: `POSTC_GPU_RUNTIME_LIB`, else beside the driver
/// executable (the cargo target directory's profile directory) or one level
/// up (when the driver runs from `deps/`).
fn gpu_runtime_lib() -> Result<PathBuf, String> {
    const NAME: &str = "libpostc_runtime_gpu.a";
    if let Some(p) = std::env::var_os("POSTC_GPU_RUNTIME_LIB") {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(p) } else { Err(format!("POSTC_GPU_RUNTIME_LIB: {} does not exist", p.display())) };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the driver executable: {e}"))?;
    let mut dirs = Vec::new();
    if let Some(d) = exe.parent() {
        dirs.push(d.to_path_buf());
        if let Some(up) = d.parent() {
            dirs.push(up.to_path_buf());
        }
    }
    for d in &dirs {
        let p = d.join(NAME);
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(format!(
        "the program has gpu functions but {NAME} was not found beside {}: build it with \
         `cargo build -p postc-runtime-gpu` (same profile), set POSTC_GPU_RUNTIME_LIB, or compile with `--gpu off`",
        exe.display()
    ))
}
