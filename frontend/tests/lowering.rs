//! The IR that the frontend makes from every program of `tests/py/`
//! verifies, prints as `.pir` text that parses back to the same module and
//! prints the same again (so `postc-driver check` accepts what `lower`
//! writes and `fmt` leaves it as it is), and carries the `.py` location of
//! every instruction.

use postc_ir::{ModuleId, Program};
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the frontend crate sits in the workspace").to_path_buf()
}

fn programs() -> Vec<PathBuf> {
    std::env::set_current_dir(repo_root()).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/py")
        .expect("tests/py exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.with_extension("expected").is_file())
        .collect();
    files.sort();
    files
}

fn lower(f: &Path) -> Program {
    match postc_frontend::lower_files(&[f.to_path_buf()], Vec::new()) {
        Ok(p) => p,
        Err((sources, diags)) => panic!("{} does not lower:\n{}", f.display(), sources.render(&diags, false)),
    }
}

#[test]
fn lowered_programs_verify_and_round_trip_through_text() {
    for f in programs() {
        let program = lower(&f);
        let diags = postc_ir::verify::verify_program(&program);
        assert!(diags.is_empty(), "{}: {diags:?}", f.display());
        for m in program.modules.iter() {
            let text = postc_ir::print::print_module(m);
            let back = postc_ir::parse::parse_module("lowered.pir", text.as_bytes())
                .unwrap_or_else(|d| panic!("{}: the printed IR does not parse: {d:?}\n{text}", f.display()));
            assert_eq!(postc_ir::print::print_module(&back), text, "{}: print is not a fixed point", f.display());
            if let Some(diff) = m.structural_diff(&back) {
                panic!("{}: the module changes through text: {diff}", f.display());
            }
        }
    }
}

#[test]
fn every_instruction_is_located_in_the_python_source() {
    for f in programs() {
        let program = lower(&f);
        let m = &program.modules[ModuleId::from_u32(0)];
        for func in m.functions.iter() {
            let in_blocks = func.body.blocks.iter().flat_map(|b| b.start..b.end).map(postc_ir::ValueId::from_u32);
            for v in in_blocks {
                let loc = func.body.loc(v).unwrap_or_else(|| panic!("{}: {} has an unlocated instruction", f.display(), func.name));
                let path = m.files.path(loc.file);
                assert!(path.ends_with(".py") && !loc.implicit, "{}: {} located at {path}", f.display(), func.name);
            }
        }
    }
}

#[test]
fn the_corpus_uses_every_dtype_and_the_statement_kinds() {
    let mut dtypes = std::collections::BTreeSet::new();
    let mut multi_module = 0;
    for f in programs() {
        let program = lower(&f);
        if program.modules.len() > 1 {
            multi_module += 1;
        }
        for m in program.modules.iter() {
            for func in m.functions.iter() {
                for v in func.body.tags.ids() {
                    if let Some(t) = func.body.ty(v) {
                        dtypes.insert(m.types.get(t).dtype);
                    }
                }
            }
        }
    }
    let missing: Vec<_> = postc_ir::DType::ALL.iter().filter(|d| !dtypes.contains(d)).collect();
    assert!(missing.is_empty(), "dtypes no program uses: {missing:?}");
    assert!(multi_module >= 2, "only {multi_module} multi-module programs");
}

/// CPython runs every program with the pure-Python stand-ins of `postyp`,
/// `postc` and `postc.math`, and must give exactly the committed expected
/// results that the compiled code and the interpreter are checked against.
#[test]
fn cpython_gives_the_expected_results() {
    let root = repo_root();
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/py/oracle.py"))
        .arg("--check")
        .output()
        .expect("python3 (with NumPy, from scripts/setup) runs the oracle");
    assert!(
        out.status.success(),
        "tests/py/oracle.py --check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
