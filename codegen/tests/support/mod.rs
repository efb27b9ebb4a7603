//! Shared by the integration tests that drive the compiler from outside:
//! the repository root, a scratch directory, and `postc-driver` with the GPU
//! runtime library built into this test build's target directory (they are
//! other packages, so cargo does not build them for these tests).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A fresh directory for one test's files.
pub fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("postc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The `postc-driver` of this build, with `libpostc_runtime_gpu.a` beside it.
pub fn driver() -> &'static Path {
    static DRIVER: OnceLock<PathBuf> = OnceLock::new();
    DRIVER.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
        let target_dir = profile_dir.parent().unwrap();
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "-q", "-p", "postc-driver", "-p", "postc-runtime-gpu"])
            .env("CARGO_TARGET_DIR", target_dir)
            .current_dir(root());
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        assert!(cmd.status().expect("cargo").success(), "building postc-driver / postc-runtime-gpu failed");
        assert!(profile_dir.join("libpostc_runtime_gpu.a").is_file());
        profile_dir.join("postc-driver")
    })
}
