//! Makes the `.expected` reader of `ir/tests/programs.rs` includable by this
//! crate's tests: inner doc comments and `#[test]` markers are dropped, and
//! `ir/tests/support/` (the shared case parser it includes) is copied beside.

fn main() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/tests/programs.rs");
    println!("cargo:rerun-if-changed={}", src.display());
    let text = std::fs::read_to_string(&src).unwrap_or_default();
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//!") || t == "#[test]" {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    let out_dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(out_dir.join("expected_format.rs"), out).unwrap();
    // Its `#[path]` modules (the shared case parser) resolve beside it.
    let support = src.parent().unwrap().join("support");
    println!("cargo:rerun-if-changed={}", support.display());
    if let Ok(entries) = std::fs::read_dir(&support) {
        std::fs::create_dir_all(out_dir.join("support")).unwrap();
        for e in entries.flatten() {
            println!("cargo:rerun-if-changed={}", e.path().display());
            std::fs::copy(e.path(), out_dir.join("support").join(e.file_name())).unwrap();
        }
    }
}
