//! The README's C and Python examples, run verbatim against the shared
//! library the README's main command builds from `examples/saxpy.pir`.

mod support;
use std::process::Command;
use support::{driver, root, tmpdir};

/// The body of the first fenced block of `lang` in the README.
fn block(readme: &str, lang: &str) -> String {
    let open = format!("```{lang}\n");
    let start = readme.find(&open).unwrap_or_else(|| panic!("no ```{lang} block")) + open.len();
    let end = readme[start..].find("```").expect("closed block") + start;
    readme[start..end].to_owned()
}

#[test]
fn readme_examples_call_the_compiled_library() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dir = tmpdir("readme");
    let lib = dir.join("libsaxpy.so");
    let out = Command::new(driver())
        .args(["compile", "-O2", "--emit", "shared", "examples/saxpy.pir", "-o"])
        .arg(&lib)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    std::fs::write(dir.join("main.c"), block(&readme, "c")).unwrap();
    let exe = dir.join("main");
    let out = Command::new("cc")
        .arg(dir.join("main.c"))
        .arg("-I")
        .arg(root().join("include"))
        .arg("-L")
        .arg(&dir)
        .args(["-lsaxpy", "-o"])
        .arg(&exe)
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout), "12 24 36 48\n");

    let has_numpy = Command::new("python3").args(["-c", "import numpy"]).status().is_ok_and(|s| s.success());
    if !has_numpy {
        eprintln!("skipping the Python example: python3 with NumPy is not available");
        return;
    }
    std::fs::write(dir.join("example.py"), block(&readme, "python")).unwrap();
    let run = Command::new("python3").arg(dir.join("example.py")).arg(&lib).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(String::from_utf8_lossy(&run.stdout), "[ 1.  5.  9. 13.]\n");
    let _ = std::fs::remove_dir_all(&dir);
}
