//! Every file of `tests/py-invalid/` is rejected with exactly the
//! diagnostics in its `.stderr` file (file, line, column, the line and a
//! caret), none of them an internal error, and never makes the frontend
//! panic. `POSTC_BLESS=1` rewrites the `.stderr` files from the current
//! output.

use postc_testkit::corpus::repo_root;
use std::path::{Path, PathBuf};

/// What `postc-driver check FILE` prints to standard error.
fn diagnostics(rel: &Path) -> Option<String> {
    let (sources, diags) = postc_frontend::lower_files(&[rel.to_path_buf()], Vec::new()).err()?;
    let mut out = sources.render(&diags, false);
    let n = diags.len();
    out.push_str(&format!("error: aborting due to {n} error{}\n", if n == 1 { "" } else { "s" }));
    Some(out)
}

#[test]
fn invalid_files_give_their_exact_diagnostics() {
    let root = repo_root();
    std::env::set_current_dir(&root).unwrap();
    let dir = Path::new("tests/py-invalid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/py-invalid exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    files.sort();
    assert!(files.len() >= 50, "only {} invalid files", files.len());
    let bless = std::env::var_os("POSTC_BLESS").is_some();
    let mut failures = Vec::new();
    for f in &files {
        let got = match std::panic::catch_unwind(|| diagnostics(f)) {
            Ok(Some(text)) => text,
            Ok(None) => {
                failures.push(format!("{}: accepted", f.display()));
                continue;
            }
            Err(_) => {
                failures.push(format!("{}: the frontend panicked", f.display()));
                continue;
            }
        };
        // The typecheck refuses every invalid program: the lowering, which
        // runs only on bodies it accepts, reports nothing but internal
        // errors.
        if got.contains("internal error") {
            failures.push(format!("{}: an internal error\n{got}", f.display()));
            continue;
        }
        let expected_path = f.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!("{}:\n--- expected\n{want}--- got\n{got}", f.display())),
            Err(_) => {
                failures.push(format!("{}: no {} (run with POSTC_BLESS=1)", f.display(), expected_path.display()))
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), files.len(), failures.join("\n"));
}
