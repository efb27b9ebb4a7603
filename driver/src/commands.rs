//! One function per command of the command line.

use crate::cli::{EmitArg, GpuArg};
use crate::{report, usage_error, ExitCode};
use postc_codegen::link;
use postc_ir::diag::SourceMap;
use postc_ir::interp::{InterpOptions, Interpreter, Value};
use postc_ir::{DType, Program};
use std::io::{Read, Write};
use std::path::PathBuf;

/// Loads and verifies a program; diagnostics are reported on failure.
fn load_checked(files: &[PathBuf], include: Vec<PathBuf>) -> Result<(postc_ir::resolve::Loader, Program), ExitCode> {
    let mut loader = postc_frontend::loader(files, include);
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

/// Applies `-C key=value` options; returns whether `-C fast-math=on` was
/// given, which only code generation (`compile`) takes.
fn apply_codegen_options(
    opts: &mut postc_passes::PassOptions,
    codegen: &[String],
    takes_fast_math: bool,
) -> Result<bool, String> {
    let mut fast_math = false;
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
            "fast-math" if takes_fast_math => fast_math = on,
            "fast-math" => return Err("`-C fast-math` is an option of code generation: `compile` takes it".into()),
            _ => {
                return Err(format!(
                    "unknown option `-C {key}` (known: overflow-checks, bounds-checks, div-checks, fast-math)"
                ))
            }
        }
    }
    Ok(fast_math)
}

pub(crate) fn opt(
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
    if let Err(e) = apply_codegen_options(&mut options, codegen, false) {
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

pub(crate) struct CompileArgs {
    pub(crate) output: Option<PathBuf>,
    pub(crate) emit: EmitArg,
    pub(crate) opt_level: u8,
    pub(crate) target: Option<String>,
    pub(crate) cpu: Option<String>,
    pub(crate) jobs: Option<usize>,
    pub(crate) codegen: Vec<String>,
    pub(crate) link_ir: Vec<PathBuf>,
    pub(crate) time_passes: bool,
    pub(crate) gpu: GpuArg,
    pub(crate) gpu_arch: Option<String>,
    pub(crate) backend: String,
    pub(crate) debug: bool,
    pub(crate) python: String,
    pub(crate) abi3: bool,
}

pub(crate) fn compile(files: &[PathBuf], include: Vec<PathBuf>, a: CompileArgs) -> ExitCode {
    use postc_codegen::{CodegenOptions, EmitKind, OptLevel};
    let level = match OptLevel::from_u8(a.opt_level) {
        Ok(l) => l,
        Err(e) => return usage_error(&e),
    };
    // A wasm32 target implies the wasm backend unless another is named.
    let wasm_target = a.target.as_deref().is_some_and(|t| t.starts_with("wasm32"));
    let backend_name = if wasm_target && a.backend == "llvm" { "wasm" } else { a.backend.as_str() };
    let backend = match postc_codegen::backend::by_name(backend_name) {
        Ok(b) => b,
        Err(e) => return usage_error(&e),
    };
    let kind = match a.emit {
        EmitArg::Asm => EmitKind::Assembly,
        EmitArg::LlvmIr => EmitKind::LlvmIr,
        EmitArg::Bc => EmitKind::Bitcode,
        EmitArg::Qbe => EmitKind::Qbe,
        EmitArg::Wasm => EmitKind::Wasm,
        EmitArg::Wat => EmitKind::Wat,
        EmitArg::C => EmitKind::C,
        EmitArg::CHeader => EmitKind::CHeader,
        _ => EmitKind::Object,
    };
    if let Err(e) = postc_codegen::backend::check_kind(backend, kind) {
        return usage_error(&e);
    }
    let mut popts = postc_passes::PassOptions::for_level(a.opt_level);
    let fast_math = match apply_codegen_options(&mut popts, &a.codegen, true) {
        Ok(on) => on,
        Err(e) => return usage_error(&e),
    };
    if a.jobs == Some(0) {
        return usage_error("`-j 0`: expected at least one codegen unit");
    }
    let device_only = matches!(a.emit, EmitArg::Ptx | EmitArg::Hsaco);
    let gpu_mode = match a.gpu {
        _ if a.emit == EmitArg::Hsaco => postc_codegen::llvm::gpu::GpuMode::Amdgpu,
        // An extension module runs `gpu` functions on the host, as the
        // package does.
        _ if a.emit == EmitArg::Pyext => postc_codegen::llvm::gpu::GpuMode::Off,
        GpuArg::Nvptx => postc_codegen::llvm::gpu::GpuMode::Nvptx,
        GpuArg::Amdgpu => postc_codegen::llvm::gpu::GpuMode::Amdgpu,
        GpuArg::Off => postc_codegen::llvm::gpu::GpuMode::Off,
    };
    let gpu_arch = if device_only { a.gpu_arch.clone().or(a.cpu.clone()) } else { a.gpu_arch.clone() };
    let gpu = postc_codegen::llvm::gpu::GpuOptions { mode: gpu_mode, arch: gpu_arch };
    if gpu.arch.is_some() {
        if let Err(e) = gpu.check_arch() {
            return usage_error(&e);
        }
    }
    let options = CodegenOptions {
        gpu,
        opt: level,
        target: a.target.clone(),
        cpu: if device_only { None } else { a.cpu.clone() },
        passes: popts,
        link_ir: a.link_ir.clone(),
        units: a.jobs,
        time_passes: a.time_passes,
        executable: a.emit == EmitArg::Exe,
        fast_math,
        debug: a.debug,
    };
    let (loader, program) = match load_checked(files, include) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let stem = files[0].file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    if a.emit == EmitArg::Pyext && a.target.is_some() {
        // The module links against this machine's C library and the
        // interpreter's ABI.
        return usage_error(
            "`--emit pyext` builds for the machine's own CPython: no `--target` (`--cpu` picks the CPU)",
        );
    }
    if a.abi3 && a.emit != EmitArg::Pyext {
        return usage_error("`--abi3` is for `--emit pyext`");
    }
    let interpreter = if a.emit == EmitArg::Pyext {
        match crate::pyext::interpreter(&a.python, a.abi3) {
            Ok(i) => Some(i),
            Err(e) => return usage_error(&e),
        }
    } else {
        None
    };
    let default_name = match a.emit {
        EmitArg::Obj => format!("{stem}.o"),
        EmitArg::Asm => format!("{stem}.s"),
        EmitArg::LlvmIr => format!("{stem}.ll"),
        EmitArg::Bc => format!("{stem}.bc"),
        EmitArg::Qbe => format!("{stem}.ssa"),
        EmitArg::Wasm => format!("{stem}.wasm"),
        EmitArg::Wat => format!("{stem}.wat"),
        EmitArg::C => format!("{stem}.c"),
        EmitArg::CHeader => format!("{stem}.h"),
        EmitArg::Shared => format!("lib{stem}.so"),
        EmitArg::Exe => stem.clone(),
        EmitArg::Ptx => format!("{stem}.ptx"),
        EmitArg::Hsaco => format!("{stem}.hsaco"),
        EmitArg::Pyext => format!("{stem}{}", interpreter.as_ref().map_or("", |i| i.ext_suffix.as_str())),
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
            postc_codegen::llvm::gpu::emit_ptx(&program, &options).map(String::into_bytes)
        } else {
            postc_codegen::llvm::gpu::emit_code_object(&program, &options)
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
    if let Some(python) = &interpreter {
        let name = match crate::pyext::module_name(&out_path) {
            Ok(n) => n,
            Err(e) => return usage_error(&e),
        };
        if let Err(code) = refuse_overwriting(&crate::pyext::stub_path(&out_path, &name), &inputs, &loader) {
            return code;
        }
        return match crate::pyext::build(&program, backend, &options, &out_path, python) {
            Ok(()) => ExitCode::SUCCESS,
            Err(Ok(diags)) => {
                report(&loader.sources, &diags);
                ExitCode::FAILURE
            }
            Err(Err(e)) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let bytes = match backend.emit(&program, &options, kind) {
        Ok(b) => b,
        Err(diags) => {
            report(&loader.sources, &diags);
            return ExitCode::FAILURE;
        }
    };
    if matches!(a.emit, EmitArg::Shared | EmitArg::Exe) {
        let output = if a.emit == EmitArg::Shared { link::Output::Shared } else { link::Output::Executable };
        // Only the LLVM backend makes GPU code.
        let gpu = backend.name() == "llvm"
            && gpu_mode != postc_codegen::llvm::gpu::GpuMode::Off
            && postc_codegen::llvm::gpu::has_gpu(&program);
        return match link::link(&bytes, &stem, &out_path, output, &program, gpu) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if let Err(e) = std::fs::write(&out_path, &bytes) {
        eprintln!("error: cannot write {}: {e}", out_path.display());
        return ExitCode::FAILURE;
    }
    if a.emit == EmitArg::C {
        // The header of the exported prototypes goes beside the source.
        let h = out_path.with_extension("h");
        if let Err(code) = refuse_overwriting(&h, &inputs, &loader) {
            return code;
        }
        let header = match backend.emit(&program, &options, EmitKind::CHeader) {
            Ok(b) => b,
            Err(diags) => {
                report(&loader.sources, &diags);
                return ExitCode::FAILURE;
            }
        };
        if let Err(e) = std::fs::write(&h, header) {
            eprintln!("error: cannot write {}: {e}", h.display());
            return ExitCode::FAILURE;
        }
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
            // Python's integer literals: a sign, `0x`/`0o`/`0b`, underscores.
            let digits = t.replace('_', "");
            let (neg, digits) = match digits.strip_prefix('-') {
                Some(d) => (true, d.to_owned()),
                None => (false, digits.strip_prefix('+').unwrap_or(&digits).to_owned()),
            };
            let lower = digits.to_ascii_lowercase();
            let (radix, body) = match lower.get(..2) {
                Some("0x") => (16, &lower[2..]),
                Some("0o") => (8, &lower[2..]),
                Some("0b") => (2, &lower[2..]),
                _ => (10, lower.as_str()),
            };
            if body.is_empty() || body.starts_with(['+', '-']) {
                return None;
            }
            let x = i128::from_str_radix(body, radix).ok()?;
            let x = if neg { -x } else { x };
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
        DType::Str => Value::Str(String::from_utf8(python_text(t, false)?).ok()?),
        DType::Bytes => Value::Bytes(python_text(t, true)?),
        _ => return None,
    })
}

/// A Python string literal (`bytes`: a bytes literal) as its UTF-8 text or
/// its bytes: an optional prefix (`r`, `u`; `b`, `br`, `rb`, in either case),
/// one of the four quotes, and Python's escapes unless raw (`\n`, `\x41`,
/// `\101`, and in a string `\u00e9` and `\U0001f600`; an unknown escape keeps
/// its backslash, as Python does). `None` when the text is not one.
fn python_text(text: &str, bytes: bool) -> Option<Vec<u8>> {
    let split = text.find(['\'', '"'])?;
    let prefix = text[..split].to_ascii_lowercase();
    let raw = match (bytes, prefix.as_str()) {
        (false, "" | "u") | (true, "b") => false,
        (false, "r") | (true, "br" | "rb") => true,
        _ => return None,
    };
    let rest = &text[split..];
    let quote = if rest.starts_with("'''") || rest.starts_with("\"\"\"") { &rest[..3] } else { &rest[..1] };
    if rest.len() < 2 * quote.len() {
        return None;
    }
    let body = rest.strip_prefix(quote)?.strip_suffix(quote)?;
    if (quote.len() == 1 && body.contains('\n')) || (bytes && !body.is_ascii()) {
        return None;
    }
    let q = quote.chars().next()?;
    let mut out = Vec::with_capacity(body.len());
    let push = |out: &mut Vec<u8>, c: char| out.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes());
    let mut chars = body.chars().peekable();
    // Unescaped quotes in a row: as many as open the literal would close it
    // (a quote just before the closing ones too).
    let mut run = 0;
    while let Some(c) = chars.next() {
        run = if c == q { run + 1 } else { 0 };
        if run == quote.len() || (run > 0 && chars.peek().is_none()) {
            return None;
        }
        if c != '\\' {
            push(&mut out, c);
            continue;
        }
        let e = chars.next()?;
        if raw {
            // A raw literal keeps the backslash and what follows it (which
            // may be a quote).
            out.push(b'\\');
            push(&mut out, e);
            continue;
        }
        let mut hex = |n: usize| -> Option<u32> {
            let digits: String = (0..n).map(|_| chars.next()).collect::<Option<String>>()?;
            digits.chars().all(|d| d.is_ascii_hexdigit()).then(|| u32::from_str_radix(&digits, 16).ok())?
        };
        match e {
            '\n' => {}
            '\\' | '\'' | '"' => push(&mut out, e),
            'a' => out.push(7),
            'b' => out.push(8),
            'f' => out.push(12),
            'n' => out.push(b'\n'),
            'r' => out.push(b'\r'),
            't' => out.push(b'\t'),
            'v' => out.push(11),
            'x' if bytes => out.push(hex(2)? as u8),
            'x' => push(&mut out, char::from_u32(hex(2)?)?),
            'u' if !bytes => push(&mut out, char::from_u32(hex(4)?)?),
            'U' if !bytes => push(&mut out, char::from_u32(hex(8)?)?),
            '0'..='7' => {
                let mut v = e.to_digit(8)?;
                for _ in 0..2 {
                    let Some(d) = chars.peek().and_then(|d| d.to_digit(8)) else { break };
                    v = v * 8 + d;
                    chars.next();
                }
                if bytes {
                    out.push((v & 0xff) as u8);
                } else {
                    push(&mut out, char::from_u32(v)?);
                }
            }
            other => {
                out.push(b'\\');
                push(&mut out, other);
            }
        }
    }
    Some(out)
}

pub(crate) fn run(
    file: &PathBuf,
    entry: &str,
    options: InterpOptions,
    include: Vec<PathBuf>,
    args: &[String],
) -> ExitCode {
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
            None => {
                let hint = match t.dtype {
                    DType::Str => ": write a Python string literal, such as 'text'",
                    DType::Bytes => ": write a Python bytes literal, such as b'text'",
                    _ => "",
                };
                return usage_error(&format!("argument `{a}` is not a valid {} for parameter %{name}{hint}", t.dtype));
            }
        }
    }
    let mut interp = Interpreter::new(&program, options);
    let result = interp.call(mid, entry, &values);
    // What the function printed comes before its result (or its panic).
    let _ = std::io::stdout().lock().write_all(interp.take_output().as_bytes());
    match result {
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

pub(crate) fn check(files: &[PathBuf], include: Vec<PathBuf>) -> ExitCode {
    match load_checked(files, include) {
        Ok(_) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Prints the IR of a POST Python file (the first module of its program).
pub(crate) fn lower(file: &PathBuf, output: Option<&PathBuf>, include: Vec<PathBuf>) -> ExitCode {
    let (_, program) = match load_checked(std::slice::from_ref(file), include) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let Some(module) = program.modules.iter().next() else { return ExitCode::FAILURE };
    let text = postc_ir::print::print_module(module);
    match output {
        Some(out) => {
            if let Err(e) = std::fs::write(out, &text) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return ExitCode::FAILURE;
            }
        }
        None => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
        }
    }
    ExitCode::SUCCESS
}

pub(crate) fn fmt(file: &PathBuf, check: bool, write: bool) -> ExitCode {
    if file.extension().is_some_and(|e| e == postc_frontend::EXTENSION) {
        if check || write {
            return usage_error(
                "`fmt --check` and `fmt -w` take `.pir` files; `fmt FILE.py` prints the IR it lowers to",
            );
        }
        return lower(file, None, Vec::new());
    }
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
