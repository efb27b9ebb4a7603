//! The corpora of test programs and where they are.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the testkit crate sits in the workspace").to_path_buf()
}

/// `tests/programs/`: IR programs with NumPy-computed expected results.
pub fn programs_dir() -> PathBuf {
    repo_root().join("tests").join("programs")
}

/// The files of `dir` with extension `ext`, sorted by name.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// The `.pir` files of `tests/programs/`, sorted by name.
pub fn program_files() -> Vec<PathBuf> {
    files_with_extension(&programs_dir(), "pir")
}

pub fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Parses and verifies one program of `tests/programs/`; the path given
/// to the parser (`tests/programs/NAME.pir`) is the one implicit panic
/// locations name.
pub fn load(path: &Path) -> Result<postc_ir::Module, String> {
    let name = stem(path);
    let shown = format!("tests/programs/{name}.pir");
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    let module = postc_ir::parse::parse_module(&shown, &bytes).map_err(|diags| {
        let mut s = format!("{shown} does not parse:\n");
        for d in &diags {
            let _ = writeln!(s, "  {d}");
        }
        s
    })?;
    let diags = postc_ir::verify::verify_module(&module);
    if !diags.is_empty() {
        let mut s = format!("{shown} does not verify:\n");
        for d in &diags {
            let _ = writeln!(s, "  {d}");
        }
        return Err(s);
    }
    Ok(module)
}
