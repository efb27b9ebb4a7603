//! The ABI of docs/abi.md from Python: tests/python/test_abi.py calls
//! `examples/abi_demo.pir`, built by `postc-driver compile --emit shared`,
//! through ctypes with NumPy arrays; and the Python example of docs/abi.md
//! runs and prints what the page shows. Skipped (with a message) when
//! `python3` or NumPy is missing.

mod support;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{driver, root, tmpdir};

/// `examples/abi_demo.pir` as a shared library at -O`level`.
fn demo_library(dir: &Path, level: u8) -> PathBuf {
    let lib = dir.join(format!("libabi_demo_O{level}.so"));
    let out = Command::new(driver())
        .current_dir(root())
        .args(["compile", &format!("-O{level}"), "--emit", "shared", "examples/abi_demo.pir", "-o"])
        .arg(&lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "postc-driver compile failed:\n{}", String::from_utf8_lossy(&out.stderr));
    lib
}

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

#[test]
fn python_ctypes_numpy_at_o0_and_o2() {
    if !have_numpy() {
        return;
    }
    let dir = tmpdir("abi-python");
    for level in [0u8, 2] {
        let lib = demo_library(&dir, level);
        let out =
            Command::new("python3").current_dir(root()).arg("tests/python/test_abi.py").arg(&lib).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "tests/python/test_abi.py failed at -O{level}:\n{text}");
        assert!(text.contains("all checks passed"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Python example of docs/abi.md prints the output block that follows it.
#[test]
fn docs_python_example() {
    if !have_numpy() {
        return;
    }
    let doc = std::fs::read_to_string(root().join("docs/abi.md")).unwrap();
    let (code, want) = example(&doc, "```python\n# example: docs/abi.md");
    let dir = tmpdir("abi-doc-python");
    let lib = demo_library(&dir, 2);
    let script = dir.join("example.py");
    std::fs::write(&script, code).unwrap();
    let out = Command::new("python3").arg(&script).arg(&lib).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The fenced block starting with `start`, and the ```text block after it.
fn example(doc: &str, start: &str) -> (String, String) {
    let at = doc.find(start).unwrap_or_else(|| panic!("docs/abi.md has no block starting {start:?}"));
    let body = &doc[at + start.find('\n').unwrap() + 1..];
    let end = body.find("\n```\n").unwrap();
    let code = body[..end + 1].to_string();
    let rest = &body[end + 5..];
    let t = rest.find("```text\n").expect("an output block") + 8;
    let out_end = rest[t..].find("```\n").unwrap();
    (code, rest[t..t + out_end].to_string())
}
