//! The ABI of docs/abi.md from Python: tests/python/test_abi.py calls
//! `examples/abi_demo.pir`, built by `postc-driver compile --emit shared`,
//! through ctypes with NumPy arrays; tests/python/test_elementwise.py calls
//! the inner loops of `tests/python/elementwise.pir`'s ufuncs, one per
//! dtype, as NumPy calls them; and the Python example of docs/abi.md runs
//! and prints what the page shows. Skipped (with a message) when
//! `python3` or NumPy is missing.

mod support;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{demo_library_with, doc_example, root, shared_library_with, tmpdir, BACKENDS};

/// Whether `python3` with NumPy is available.
fn have_numpy() -> bool {
    match Command::new("python3").args(["-c", "import numpy"]).output() {
        Ok(o) if o.status.success() => true,
        Ok(_) => {
            eprintln!("skipped: python3 has no NumPy");
            false
        }
        Err(_) => {
            eprintln!("skipped: no python3");
            false
        }
    }
}

/// Runs `script` on the library `build` makes for each backend at -O0 and
/// -O2 (in `dir`); its output must say `passed`.
fn script_passes_at_o0_and_o2(dir: &str, script: &str, passed: &str, build: impl Fn(&Path, &str, u8) -> PathBuf) {
    if !have_numpy() {
        return;
    }
    let dir = tmpdir(dir);
    for (backend, level) in BACKENDS.iter().flat_map(|b| [(*b, 0u8), (*b, 2)]) {
        let lib = build(&dir, backend, level);
        let out = Command::new("python3").current_dir(root()).arg(script).arg(&lib).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{script} failed through {backend} at -O{level}:\n{text}");
        assert!(text.contains(passed), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_ctypes_numpy_at_o0_and_o2() {
    script_passes_at_o0_and_o2("abi-python", "tests/python/test_abi.py", "all checks passed", |dir, backend, level| {
        demo_library_with(dir, level, backend)
    });
}

#[test]
fn elementwise_loops_of_every_dtype_at_o0_and_o2() {
    script_passes_at_o0_and_o2(
        "abi-elementwise",
        "tests/python/test_elementwise.py",
        "all 90 checks passed",
        |dir, backend, level| {
            let lib = dir.join(format!("libelementwise_{backend}_O{level}.so"));
            shared_library_with("tests/python/elementwise.pir", level, &lib, backend);
            lib
        },
    );
}

/// The Python example of docs/abi.md prints the output block that follows it.
#[test]
fn docs_python_example() {
    if !have_numpy() {
        return;
    }
    let doc = std::fs::read_to_string(root().join("docs/abi.md")).unwrap();
    let (code, want) = doc_example(&doc, "```python\n# example: docs/abi.md");
    let dir = tmpdir("abi-doc-python");
    let script = dir.join("example.py");
    std::fs::write(&script, code).unwrap();
    for backend in BACKENDS {
        let lib = demo_library_with(&dir, 2, backend);
        let out = Command::new("python3").arg(&script).arg(&lib).output().unwrap();
        assert!(out.status.success(), "{backend}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{backend}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
