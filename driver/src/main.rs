//! `postc-driver`: the postc command line.

use clap::{Parser, Subcommand};
use postc_ir::diag::{Diagnostic, SourceMap};
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { files, include } => check(&files, include),
        Command::Fmt { file, check, write } => fmt(&file, check, write),
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
    let mut loader = postc_ir::resolve::Loader::with_include_dirs(include);
    let program = match loader.load(files) {
        Ok(p) => p,
        Err(diags) => {
            report(&loader.sources, &diags);
            return ExitCode::FAILURE;
        }
    };
    let diags = postc_ir::verify::verify_program(&program);
    if !diags.is_empty() {
        report(&loader.sources, &diags);
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn fmt(file: &PathBuf, check: bool, write: bool) -> ExitCode {
    let stdin = file.as_os_str() == "-";
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
    if write && !stdin {
        if let Err(e) = std::fs::write(file, &text) {
            eprintln!("error: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    ExitCode::SUCCESS
}
