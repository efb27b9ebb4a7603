//! The backend protocol. A backend takes a program and the options, runs
//! the shared preparation ([`crate::prepare`]: the pass pipeline of the
//! level and the verifier), and translates the prepared program into one of
//! the artifacts it supports; what every backend shares (the ABI's dtype
//! descriptions in [`crate::abi`], the panic messages the passes write,
//! the pipeline) is decided outside any backend. The command line picks a
//! backend by name (`--backend`).

use crate::{CodegenOptions, EmitKind};
use postc_ir::diag::Diagnostic;
use postc_ir::Program;

pub trait Backend: Sync {
    /// The name `--backend` takes.
    fn name(&self) -> &'static str;
    /// The artifacts it makes.
    fn emit_kinds(&self) -> &'static [EmitKind];
    /// What it lowers natively; `legalize` writes out the rest before it
    /// sees the program (docs/backends.md).
    fn features(&self) -> crate::Features;
    /// Prepares and translates a program into an artifact of `kind` (one
    /// of [`Backend::emit_kinds`]), or located diagnostics.
    fn emit(&self, program: &Program, options: &CodegenOptions, kind: EmitKind) -> Result<Vec<u8>, Vec<Diagnostic>>;
}

/// The internal error of a backend that meets what `legalize` writes out
/// before any backend sees a program (a program prepared without it).
pub fn written_out(what: &str) -> String {
    format!("`{what}` reached the backend: `legalize` writes it out in primitives first")
}

/// The options a backend other than LLVM refuses, decided once: a
/// `--target` that `compiles_for` does not take (the backend, as `backend`,
/// compiles for `targets`; the message names `instead`) and `--link-ir`,
/// which links LLVM IR.
pub fn refuse_options(
    options: &crate::CodegenOptions,
    backend: &str,
    targets: &str,
    compiles_for: fn(&str) -> bool,
    instead: &str,
) -> Result<(), Vec<Diagnostic>> {
    if let Some(t) = options.target.as_deref().filter(|t| !compiles_for(t)) {
        let msg = format!("{backend} compiles for {targets}; `--target {t}` needs {instead}");
        return Err(vec![Diagnostic::error(msg, None)]);
    }
    if !options.link_ir.is_empty() {
        let msg = "`--link-ir` links LLVM IR, which only the LLVM backend (`--backend llvm`) can do";
        return Err(vec![Diagnostic::error(msg.to_owned(), None)]);
    }
    Ok(())
}

/// Every backend, the default first.
pub static BACKENDS: &[&dyn Backend] = &[&crate::llvm::Llvm, &crate::c::C, &crate::qbe::Qbe, &crate::wasm::Wasm];

/// The backend of a name, or a message listing the valid ones.
pub fn by_name(name: &str) -> Result<&'static dyn Backend, String> {
    BACKENDS.iter().copied().find(|b| b.name() == name).ok_or_else(|| {
        let names: Vec<&str> = BACKENDS.iter().map(|b| b.name()).collect();
        format!("unknown backend `{name}` (backends: {})", names.join(", "))
    })
}

impl EmitKind {
    /// The name `--emit` gives it.
    pub fn name(self) -> &'static str {
        match self {
            EmitKind::Object => "obj",
            EmitKind::Assembly => "asm",
            EmitKind::LlvmIr => "llvm-ir",
            EmitKind::Bitcode => "bc",
            EmitKind::Qbe => "qbe",
            EmitKind::C => "c",
            EmitKind::CHeader => "c-header",
            EmitKind::Wasm => "wasm",
            EmitKind::Wat => "wat",
        }
    }
}

/// Checks that `backend` makes `kind`, or says which kinds it makes.
pub fn check_kind(backend: &dyn Backend, kind: EmitKind) -> Result<(), String> {
    if backend.emit_kinds().contains(&kind) {
        return Ok(());
    }
    let kinds: Vec<&str> = backend.emit_kinds().iter().map(|k| k.name()).collect();
    Err(format!("the {} backend cannot emit `{}` (it emits: {})", backend.name(), kind.name(), kinds.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_are_found_by_name() {
        assert_eq!(by_name("llvm").unwrap().name(), "llvm");
        assert_eq!(by_name("qbe").unwrap().name(), "qbe");
        let e = by_name("gcc").err().unwrap();
        assert!(e.contains("unknown backend `gcc`") && e.contains("llvm") && e.contains("qbe"), "{e}");
        assert!(check_kind(&crate::llvm::Llvm, EmitKind::LlvmIr).is_ok());
    }
}
