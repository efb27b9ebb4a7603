//! The ABI of docs/abi.md from Python: tests/python/test_abi.py calls
//! `examples/abi_demo.pir`, built by `postc-driver compile --emit shared`,
//! through ctypes with NumPy arrays; and the Python example of docs/abi.md
//! runs and prints what the page shows. Skipped (with a message) when
//! `python3` or NumPy is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The driver of this build (built here: it is another package).
fn driver() -> &'static Path {
    static DRIVER: OnceLock<PathBuf> = OnceLock::new();
    DRIVER.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
        let target_dir = profile_dir.parent().unwrap();
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "-q", "-p", "postc-driver"]).env("CARGO_TARGET_DIR", target_dir).current_dir(root());
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let st = cmd.status().expect("cargo");
        assert!(st.success(), "building postc-driver failed");
        profile_dir.join("postc-driver")
    })
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("postc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

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
