//! The `postc` Python package (`python/`): builds its wheel with pip (a
//! debug build of the extension, sharing the workspace's build of the
//! compiler crates, with postc-pyabi's static libraries for the extension
//! modules made ahead of time), installs it into a virtual environment
//! under the target directory and runs its pytest suite, `python/tests`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The target directory this test was built in (`CARGO_TARGET_DIR` or the
/// workspace's `target/`), so that the extension shares its build of the
/// compiler crates.
fn target_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().map(Path::to_path_buf).unwrap_or_else(|| repo_root().join("target"))
}

fn run(c: &mut Command) -> std::process::Output {
    let out = c.output().unwrap_or_else(|e| panic!("cannot run {c:?}: {e}"));
    assert!(
        out.status.success(),
        "{c:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn the_python_package_passes_its_tests() {
    let root = repo_root();
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python-venv");
    let python = venv.join("bin/python");
    if !python.is_file() {
        // The interpreter's own packages (NumPy, pytest, maturin: from
        // scripts/setup) stay visible; its pip installs into the venv.
        run(Command::new("python3").args(["-m", "venv", "--without-pip", "--system-site-packages"]).arg(&venv));
    }
    // Dask's array and distributed scheduler run postc code on a cluster of
    // worker processes in the suite (python/tests/test_jit.py).
    let has_dask = Command::new(&python).args(["-c", "import dask.array, distributed"]).output();
    if !has_dask.is_ok_and(|o| o.status.success()) {
        run(Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "dask[array]", "distributed"])
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"));
    }
    // The `postc` build hook is hatchling's (python/tests/test_pyext.py
    // builds examples/aot-package's wheel with it).
    let has_hatchling = Command::new(&python).args(["-c", "import hatchling"]).output();
    if !has_hatchling.is_ok_and(|o| o.status.success()) {
        run(Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "hatchling"])
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"));
    }
    // The package's wheel, built by pip as a user would (its build backend
    // stages the static libraries `--emit pyext` links into it), with a
    // debug build (the extension's release build would recompile LLVM's
    // bindings and the whole compiler), and installed into the venv. The
    // suite installs it again where only it and NumPy are
    // (python/tests/test_pyext.py).
    let wheels = Path::new(env!("CARGO_TARGET_TMPDIR")).join("postc-wheel");
    let _ = std::fs::remove_dir_all(&wheels);
    run(Command::new(&python)
        .args(["-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w"])
        .arg(&wheels)
        .arg(root.join("python"))
        .env("MATURIN_PEP517_ARGS", "--profile dev")
        .env("CARGO_TARGET_DIR", target_dir())
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"));
    let wheel = std::fs::read_dir(&wheels)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("pip wheel made the postc wheel");
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall"])
        .arg(&wheel)
        .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"));
    let cache = tempfile::tempdir().unwrap();
    let out = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests"])
        .current_dir(&root)
        // `--emit pyext` links what the installed package ships.
        .env_remove("POSTC_PYABI_LIB")
        .env_remove("POSTC_PYABI_ABI3_LIB")
        .env_remove("POSTC_LIBFFI")
        .env("POSTC_WHEEL", &wheel)
        // The NumPy-only environment the extension modules are imported in,
        // kept between runs as the package's is.
        .env("POSTC_PYEXT_VENV", Path::new(env!("CARGO_TARGET_TMPDIR")).join("pyext-venv"))
        .env("POSTC_CACHE_DIR", cache.path())
        .env_remove("POSTC_DISABLE_JIT")
        .env_remove("PYTHONPATH")
        .output()
        .expect("pytest runs (scripts/setup installs it)");
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    match out.status.code() {
        Some(0) => {}
        // pytest's status when it collected nothing: the suite is missing.
        Some(5) => panic!("pytest collected no tests from python/tests:\n{text}"),
        _ => panic!("the Python package's tests failed ({}):\n{text}", out.status),
    }
    assert!(text.contains(" passed"), "{text}");
}
