//! The postc command line as a library: [`main_with_args`] parses the
//! arguments (`cli` declares them, with clap) and runs the command (`commands`
//! has one function per command; linking is `postc_codegen::link`'s). The
//! `postc-driver` executable calls it with the process's arguments, the
//! Python package (`python -m postc`) with `sys.argv`.

mod cli;
mod commands;
mod pyext;

use clap::Parser;
use cli::{Cli, Command};
use commands::*;
use postc_ir::diag::{Diagnostic, SourceMap};
use postc_ir::interp::InterpOptions;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};

/// A command's exit status (`std::process::ExitCode` does not give its value
/// back, which a caller other than `main` needs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ExitCode(u8);

impl ExitCode {
    pub(crate) const SUCCESS: ExitCode = ExitCode(0);
    pub(crate) const FAILURE: ExitCode = ExitCode(1);
}

impl From<u8> for ExitCode {
    fn from(code: u8) -> Self {
        ExitCode(code)
    }
}

/// Runs the command line `args` (the program name first, then the command
/// and its arguments) and returns its exit status: 0, 1 for a failed command,
/// 2 for a usage error, 101 for a panic in `run`. Output goes to the
/// process's standard output and error, flushed before it returns.
pub fn main_with_args<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let code = match Cli::try_parse_from(args) {
        Ok(cli) => dispatch(cli),
        // `--help` and `--version` (status 0) as well as usage errors (2).
        Err(e) => {
            let _ = e.print();
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
        }
    };
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    code.0
}

fn dispatch(cli: Cli) -> ExitCode {
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
            backend,
            debug,
            python,
            abi3,
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
                backend,
                debug,
                python,
                abi3,
            };
            compile(&files, include, args)
        }
        Command::Check { files, include } => check(&files, include),
        Command::Fmt { file, check, write } => fmt(&file, check, write),
        Command::Lower { file, output, include } => lower(&file, output.as_ref(), include),
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
        Command::Runtime { out_dir } => match write_runtime(&out_dir) {
            Ok(lib) => {
                println!("{}", lib.display());
                println!("{}", out_dir.join(postc_runtime::HEADER_NAME).display());
                println!("{}", out_dir.join(RUNTIME_SOURCES).display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write the runtime into {}: {e}", out_dir.display());
                ExitCode::from(1)
            }
        },
        Command::Run { file, entry, overflow_checks, fuel, include, args } => {
            run(&file, &entry, InterpOptions { overflow_checks, fuel }, include, &args)
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

/// Where `runtime --out-dir DIR` puts the runtime's C sources.
const RUNTIME_SOURCES: &str = "src";

/// `runtime --out-dir DIR`: the static library and its header, `postc.h`
/// (which `--emit c` output includes too) and the C sources in `DIR/src`,
/// which build with `--emit c` output without the static library.
fn write_runtime(dir: &std::path::Path) -> std::io::Result<std::path::PathBuf> {
    let lib = postc_runtime::write_to(dir)?;
    postc_codegen::c::write_headers(dir)?;
    postc_runtime::write_sources(&dir.join(RUNTIME_SOURCES))?;
    Ok(lib)
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}
