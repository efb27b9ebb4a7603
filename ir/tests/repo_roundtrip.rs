//! Every `.pir` file in the repository that parses (all but the malformed
//! corpus) prints to a fixed point, and re-parsing the printed text gives
//! back an equal module.

use postc_ir::parse::parse_module;
use postc_ir::print::print_module;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name();
        let name = name.to_string_lossy();
        if p.is_dir() {
            if !matches!(name.as_ref(), "target" | ".git" | "invalid" | "corpus" | "artifacts") {
                collect(&p, out);
            }
        } else if name.ends_with(".pir") {
            out.push(p);
        }
    }
}

#[test]
fn every_pir_file_round_trips() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(files.len() >= 21, "found only {} .pir files", files.len());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let path = f.display().to_string();
        let m = parse_module(&path, &bytes).unwrap_or_else(|d| panic!("{path} does not parse: {:?}", d[0]));
        let once = print_module(&m);
        let again = parse_module(&path, once.as_bytes())
            .unwrap_or_else(|d| panic!("{path}: printed text does not parse: {:?}", d[0]));
        if let Some(diff) = m.structural_diff(&again) {
            panic!("{path}: print/parse changed the module: {diff}");
        }
        assert_eq!(print_module(&again), once, "{path}: print is not a fixed point");
    }
}
