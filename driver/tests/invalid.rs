//! The malformed-input corpus: `postc-driver check` must reject every
//! `tests/invalid/*.pir` with exactly the diagnostics in its `.stderr` file,
//! exit with status 1, and never panic. `POSTC_BLESS=1` rewrites the
//! expectations from the current output (review the diff before committing).

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/invalid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/invalid exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_invalid_file_is_rejected_with_its_diagnostic() {
    let files = corpus();
    assert!(files.len() >= 40, "the corpus has only {} files", files.len());
    let bless = std::env::var_os("POSTC_BLESS").is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut failures = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).unwrap_or(file).to_path_buf();
        let out = Command::new(env!("CARGO_BIN_EXE_postc-driver"))
            .current_dir(&root)
            .arg("check")
            .arg(&rel)
            .output()
            .expect("postc-driver runs");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let name = rel.display();
        if out.status.code() != Some(1) {
            failures.push(format!("{name}: exit status {:?}, expected 1\n{stderr}", out.status.code()));
            continue;
        }
        if !stderr.contains("error: ") {
            failures.push(format!("{name}: no `error: ` line\n{stderr}"));
            continue;
        }
        let expected_path = file.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &stderr).expect("write expectation");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == stderr => {}
            Ok(expected) => {
                failures.push(format!("{name}: diagnostics differ\n--- expected\n{expected}--- got\n{stderr}"))
            }
            Err(_) => failures.push(format!("{name}: missing {}", expected_path.display())),
        }
    }
    assert!(failures.is_empty(), "{} of {} files failed:\n\n{}", failures.len(), files.len(), failures.join("\n"));
}
