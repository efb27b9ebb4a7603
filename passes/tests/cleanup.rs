//! `cleanup` gives exactly the module that `const-fold,simplify-cfg,dce`
//! gives, printed text for printed text, on every program, example and
//! filetest input and on generated modules, at the start of a pipeline and
//! after `insert-checks` (whose guards add blocks and panic paths), with
//! -O0 and -O2 options.

use arbitrary::Unstructured;
use postc_ir::gen::{arbitrary_module, large_module, seeded_bytes, GenConfig};
use postc_ir::print::print_module;
use postc_ir::Module;
use postc_passes::{parse_pipeline, PassOptions, RunOptions};
use std::path::{Path, PathBuf};

fn run(m: &Module, pipeline: &str, options: &PassOptions) -> String {
    let mut out = m.clone();
    let pm = parse_pipeline(pipeline).unwrap();
    let run = RunOptions { verify_each: true, ..RunOptions::default() };
    if let Err(d) = pm.run(&mut out, options, &run) {
        panic!("`{pipeline}` failed: {d:?}\n{}", print_module(m));
    }
    print_module(&out)
}

/// The differences between `cleanup` and the three passes on `m`.
fn differences(m: &Module, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    for prefix in ["", "insert-checks,stride-lower,"] {
        for level in [0, 2] {
            let options = PassOptions::for_level(level);
            let fused = run(m, &format!("{prefix}cleanup"), &options);
            let three = run(m, &format!("{prefix}const-fold,simplify-cfg,dce"), &options);
            if fused != three {
                out.push(format!(
                    "{what}: `{prefix}cleanup` at O{level} differs\n--- input\n{}\n--- cleanup\n{fused}\n--- three passes\n{three}",
                    print_module(m)
                ));
            }
        }
    }
    out
}

fn pir_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    files.sort();
    files
}

#[test]
fn cleanup_equals_the_three_passes_on_every_input_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = pir_files(&root.join("tests").join("programs"));
    files.extend(pir_files(&root.join("examples")));
    files.extend(pir_files(&root.join("passes").join("tests").join("filetests")));
    files.extend(pir_files(&root.join("benches")));
    assert!(files.len() >= 60, "only {} files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let shown = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let m = postc_ir::parse::parse_module(&shown, &std::fs::read(path).unwrap()).unwrap();
        failures.extend(differences(&m, &shown));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn cleanup_equals_the_three_passes_on_generated_modules() {
    let mut failures = Vec::new();
    let mut modules = 0;
    for seed in 0..300u64 {
        let data = seeded_bytes(seed ^ 0xc1ea, 4096);
        let Ok(m) = arbitrary_module(&mut Unstructured::new(&data), &GenConfig::default()) else { continue };
        modules += 1;
        failures.extend(differences(&m, &format!("seed {seed}")));
        if failures.len() > 3 {
            break;
        }
    }
    // Larger functions, as the benches measure them.
    for seed in 0..4u64 {
        failures.extend(differences(&large_module(10, 1000, seed), &format!("large module {seed}")));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(modules >= 290, "only {modules} modules");
}
