//! Makes the `.expected` reader of `ir/tests/programs.rs` includable by this
//! crate's tests: inner doc comments and `#[test]` markers are dropped.

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
    let dst = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("expected_format.rs");
    std::fs::write(dst, out).unwrap();
}
