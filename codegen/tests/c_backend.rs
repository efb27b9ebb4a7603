//! The C backend from the command line: `--emit c` writes the C file and
//! its header, deterministic for any `-j`; `--emit shared` and `exe` link
//! through the C compiler; the examples compile with warnings as errors
//! under gcc and clang; `gpu` and `kernel` functions are refused with a
//! located diagnostic naming the LLVM backend.

mod support;
use std::process::Command;
use support::{driver, root, tmpdir};

fn compile(args: &[&str]) -> std::process::Output {
    Command::new(driver()).current_dir(root()).arg("compile").args(args).output().unwrap()
}

fn clang() -> &'static str {
    ["clang-22", "clang", "/usr/lib/llvm-22/bin/clang"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
        .expect("clang (scripts/setup installs clang-22)")
}

#[test]
fn emit_c_writes_source_and_header_the_same_for_any_jobs() {
    let dir = tmpdir("c-emit");
    let mut texts = Vec::new();
    for jobs in ["1", "4"] {
        let c = dir.join(format!("abi_demo_j{jobs}.c"));
        let out =
            compile(&["--backend", "c", "--emit", "c", "-j", jobs, "examples/abi_demo.pir", "-o", c.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let h = std::fs::read_to_string(c.with_extension("h")).unwrap();
        assert!(h.contains("#include \"postc.h\"") && h.contains("DLTensor *"), "{h}");
        texts.push((std::fs::read(&c).unwrap(), h));
    }
    assert!(texts[0] == texts[1], "the C output depends on -j");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn examples_compile_cleanly_with_gcc_and_clang() {
    let dir = tmpdir("c-examples");
    std::fs::write(dir.join("postc.h"), postc_codegen::c::POSTC_H).unwrap();
    for ex in ["examples/abi_demo.pir", "examples/axpy.pir", "examples/saxpy.pir", "examples/saxpy.py"] {
        for level in ["-O0", "-O2"] {
            let c = dir.join("example.c");
            let out = compile(&["--backend", "c", "--emit", "c", level, ex, "-o", c.to_str().unwrap()]);
            assert!(out.status.success(), "{ex} {level}: {}", String::from_utf8_lossy(&out.stderr));
            for cc in ["gcc", clang()] {
                let out = Command::new(cc)
                    .args([
                        "-std=c11",
                        "-Wall",
                        "-Wextra",
                        "-pedantic",
                        "-Werror",
                        "-ffp-contract=off",
                        level,
                        "-c",
                        "-I",
                    ])
                    .arg(&dir)
                    .arg(&c)
                    .arg("-o")
                    .arg(dir.join("example.o"))
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{ex} {level} {cc}:\n{}", String::from_utf8_lossy(&out.stderr));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shared_library_and_executable_through_the_c_compiler() {
    let dir = tmpdir("c-link");
    let src = dir.join("prog.pir");
    std::fs::write(
        &src,
        "module prog\n\nfunc main() -> Int64 {\nentry:\n  %a: Int64 = const 40\n  %b: Int64 = const 2\n  \
         %c: Int64 = add %a, %b\n  return %c\n}\n",
    )
    .unwrap();
    let exe = dir.join("prog");
    let out = compile(&["--backend", "c", "--emit", "exe", src.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(Command::new(&exe).status().unwrap().code(), Some(42));
    let so = dir.join("libsaxpy.so");
    let out = compile(&["--backend", "c", "--emit", "shared", "examples/saxpy.pir", "-o", so.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let nm = Command::new("nm").args(["-D", "--defined-only"]).arg(&so).output().unwrap();
    let syms = String::from_utf8_lossy(&nm.stdout);
    assert!(syms.lines().any(|l| l.ends_with(" saxpy")), "{syms}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gpu_and_kernel_functions_name_the_llvm_backend() {
    let dir = tmpdir("c-gpu");
    let src = dir.join("k.pir");
    std::fs::write(
        &src,
        "module k\n\nfunc twice(%x: Float64) -> Float64 gpu {\nentry:\n  %y: Float64 = add %x, %x\n  return %y\n}\n",
    )
    .unwrap();
    let out =
        compile(&["--backend", "c", "--emit", "c", src.to_str().unwrap(), "-o", dir.join("k.c").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("`twice` is a `gpu` function") && err.contains("--backend llvm") && err.contains("k.pir:3:1"),
        "{err}"
    );
    let fallback = dir.join("f.pir");
    std::fs::write(
        &fallback,
        "module f\n\nfunc twice(%x: Float64) -> Float64 gpu(fallback) {\nentry:\n  %y: Float64 = add %x, %x\n  return %y\n}\n",
    )
    .unwrap();
    let out = compile(&[
        "--backend",
        "c",
        "--emit",
        "c",
        fallback.to_str().unwrap(),
        "-o",
        dir.join("f.c").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
