//! `postc-driver`: the postc command line. `cli` declares the arguments,
//! `commands` runs each command (linking is `postc_codegen::link`'s).

mod cli;
mod commands;

use clap::Parser;
use cli::{Cli, Command};
use commands::*;
use postc_ir::diag::{Diagnostic, SourceMap};
use postc_ir::interp::InterpOptions;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

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
            backend,
            debug,
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
        Command::Runtime { out_dir } => match postc_runtime::write_to(&out_dir) {
            Ok(lib) => {
                println!("{}", lib.display());
                println!("{}", out_dir.join(postc_runtime::HEADER_NAME).display());
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

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}
