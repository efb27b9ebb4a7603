//! Module-independent code as machine code compiled once per process.
//!
//! The ufuncs' broadcasting driver and the out-of-line stride helper are
//! the same in every module. Compiled with each unit they took more
//! instruction selection and register allocation time than the rest of a
//! small module, so an object gets them as module-level assembly instead:
//! each [`Piece`] is compiled once per process and target, its local labels
//! renamed, and handed to every unit that calls it, which only declares it. LLVM IR
//! and bitcode output, GPU device modules and targets other than ELF still
//! take the IR definitions.

use crate::{internal, CodegenOptions};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module as LlModule;
use inkwell::targets::FileType;
use inkwell::values::BasicValue;
use inkwell::GlobalVisibility;
use postc_ir::diag::Diagnostic;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A definition that objects take as machine code.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// `postc.ufunc.dl` (see [`crate::ufunc_dl`]).
    UfuncDriver,
    /// `postc.rt.stride` (see [`crate::runtime`]).
    Stride,
}

impl Piece {
    pub const ALL: [Piece; 2] = [Piece::UfuncDriver, Piece::Stride];

    /// The symbol the piece defines.
    pub fn symbol(self) -> &'static str {
        match self {
            Piece::UfuncDriver => crate::ufunc_dl::DRIVER,
            Piece::Stride => crate::runtime::STRIDE,
        }
    }

    /// A self-contained LLVM module that defines the piece.
    fn ir(self) -> String {
        match self {
            Piece::UfuncDriver => crate::ufunc_dl::ir_text(),
            Piece::Stride => crate::runtime::parts_text(&[crate::runtime::Part::Stride], false),
        }
    }

    /// The level its machine code is compiled at for a unit of `opt`: the
    /// driver is `optnone`, and a `-O0` target machine allocates its
    /// registers several times faster.
    fn level(self, opt: crate::OptLevel) -> crate::OptLevel {
        match self {
            Piece::UfuncDriver => crate::OptLevel::O0,
            Piece::Stride => opt,
        }
    }

    /// What the piece's local labels start with in a unit.
    fn label_prefix(self) -> &'static str {
        match self {
            Piece::UfuncDriver => ".Lpostc.dl.",
            Piece::Stride => ".Lpostc.stride.",
        }
    }
}

/// How a unit gets the module-independent definitions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Their LLVM IR, in the unit.
    Ir,
    /// Declarations; [`attach`] adds the machine code.
    MachineCode,
}

impl Mode {
    /// The mode of a unit emitting `kind` for `triple`.
    pub fn of(kind: crate::EmitKind, triple: &str) -> Mode {
        let object = matches!(kind, crate::EmitKind::Object | crate::EmitKind::Assembly);
        if object && supported(triple) {
            Mode::MachineCode
        } else {
            Mode::Ir
        }
    }
}

/// Whether objects of `triple` can take pieces as machine code: the
/// assembly is rewritten with ELF's conventions for local labels.
pub fn supported(triple: &str) -> bool {
    let elf = triple.contains("-linux") || triple.contains("-freebsd") || triple.ends_with("-elf");
    let known_arch = triple.starts_with("x86_64") || triple.starts_with("aarch64");
    elf && known_arch
}

/// The piece's machine code for the target of `options`, as module-level
/// assembly; compiled on first use in the process.
fn assembly(piece: Piece, options: &CodegenOptions) -> Result<Arc<str>, Vec<Diagnostic>> {
    type Cache = Mutex<HashMap<(Piece, crate::TmKey), Arc<str>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let at = CodegenOptions { opt: piece.level(options.opt), ..options.clone() };
    let key = (piece, crate::tm_key(&at));
    if let Some(asm) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(asm);
    }
    let text = crate::with_target_machine(&at, |tm| {
        let cx = Context::create();
        let ir = piece.ir();
        let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), piece.symbol());
        let m = cx.create_module_from_ir(buf).map_err(|e| internal(format!("`{}`: {e}", piece.symbol())))?;
        m.set_triple(&tm.get_triple());
        m.set_data_layout(&tm.get_target_data().get_data_layout());
        let asm = tm.write_to_memory_buffer(&m, FileType::Assembly).map_err(|e| internal(e.to_string()))?;
        Ok(String::from_utf8_lossy(asm.as_slice()).into_owned())
    })?;
    let asm: Arc<str> = module_asm(&text, piece.label_prefix()).into();
    if let Ok(mut c) = cache.lock() {
        c.insert(key, asm.clone());
    }
    Ok(asm)
}

/// An assembly file made fit to be part of a unit's module-level assembly:
/// its local labels (`.L...`: blocks, constants, private messages) renamed
/// with `prefix` so they cannot meet the unit's own or another piece's,
/// without the file-level directives the unit emits itself.
fn module_asm(text: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        let t = line.trim_start();
        let skip = t.is_empty()
            || t.starts_with('#')
            || t.starts_with("//")
            || t.starts_with(".file")
            || t.starts_with(".ident")
            || t.starts_with(".addrsig")
            || (t.starts_with(".section") && t.contains(".note.GNU-stack"));
        if skip {
            continue;
        }
        // Rename `.L` labels outside string literals.
        let b = line.as_bytes();
        let mut in_str = false;
        let mut k = 0;
        while k < b.len() {
            let c = b[k];
            if in_str {
                if c == b'\\' && k + 1 < b.len() {
                    out.push_str(&line[k..k + 2]);
                    k += 2;
                    continue;
                }
                in_str = c != b'"';
            } else if c == b'"' {
                in_str = true;
            } else if line[k..].starts_with(".L") && (k == 0 || !is_symbol_byte(b[k - 1])) {
                out.push_str(prefix);
                k += 2;
                continue;
            }
            let len = line[k..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&line[k..k + len]);
            k += len;
        }
        out.push('\n');
    }
    out
}

fn is_symbol_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$')
}

/// Gives `module` the machine code of every piece it declares and calls
/// (see [`Mode::MachineCode`]).
pub fn attach(module: &LlModule<'_>, options: &CodegenOptions) -> Result<(), Vec<Diagnostic>> {
    let mut asm = String::new();
    for piece in Piece::ALL {
        let Some(f) = module.get_function(piece.symbol()) else { continue };
        if f.count_basic_blocks() > 0 || f.as_global_value().as_pointer_value().get_first_use().is_none() {
            continue;
        }
        // Defined in this object: a direct call, no PLT entry.
        f.as_global_value().set_visibility(GlobalVisibility::Hidden);
        asm.push_str(&assembly(piece, options)?);
    }
    if !asm.is_empty() {
        module.set_inline_assembly(&asm);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_asm_renames_local_labels_only() {
        let text = "\t.text\n\t.file\t\"postc.ufunc.dl\"\n# a comment line\n\
                    postc.ufunc.dl:\n.LBB0_1:\n\tjmp\t.LBB0_1\n\tleaq\t.Lf.host(%rip), %rsi\n\
                    \t.size\tpostc.ufunc.dl, .Lfunc_end0-postc.ufunc.dl\n\
                    .Lf.host:\n\t.asciz\t\"x.Ly \\\".Lz\"\n\t.ident\t\"LLVM\"\n\
                    \t.section\t\".note.GNU-stack\",\"\",@progbits\n\tmov\tx0, #1 // .LBB1_2\n";
        let out = module_asm(text, ".Lp.");
        let want = "\t.text\npostc.ufunc.dl:\n.Lp.BB0_1:\n\tjmp\t.Lp.BB0_1\n\
                    \tleaq\t.Lp.f.host(%rip), %rsi\n\
                    \t.size\tpostc.ufunc.dl, .Lp.func_end0-postc.ufunc.dl\n\
                    .Lp.f.host:\n\t.asciz\t\"x.Ly \\\".Lz\"\n\tmov\tx0, #1 // .Lp.BB1_2\n";
        assert_eq!(out, want);
    }

    #[test]
    fn elf_targets_only() {
        assert!(supported("x86_64-unknown-linux-gnu"));
        assert!(supported("aarch64-unknown-linux-gnu"));
        assert!(!supported("x86_64-apple-darwin"));
        assert!(!supported("x86_64-pc-windows-msvc"));
        assert!(!supported("nvptx64-nvidia-cuda"));
    }
}
