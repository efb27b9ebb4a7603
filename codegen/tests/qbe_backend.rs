//! The QBE backend: `qbe` is where `scripts/setup` puts it; the IL of every
//! program (tests/programs, tests/py, examples) at -O0 and -O2 is accepted
//! by `qbe` without a warning; the driver emits IL, assembly, objects,
//! shared libraries and executables through it; panics abort with the
//! LLVM backend's messages; exported C library names and aliases keep
//! their meaning; `gpu` and `kernel` functions are refused with a located
//! diagnostic naming the backends that compile them. (tests/programs.rs
//! runs every program's cases through it; abi_c.rs and abi_python.rs call
//! a QBE-built library.)

mod support;
use postc_codegen::backend::Backend;
use postc_codegen::{CodegenOptions, EmitKind, OptLevel};
use postc_ir::Program;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{driver, root};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run_ok(c: &mut Command) -> std::process::Output {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{c:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn qbe_compile(dir: &Path) -> Command {
    let mut c = Command::new(driver());
    c.current_dir(dir).args(["compile", "--backend", "qbe"]);
    c
}

#[test]
fn qbe_is_installed_where_setup_puts_it() {
    let qbe = postc_codegen::qbe::qbe_command();
    let out = Command::new(&qbe).arg("-h").output();
    assert!(
        out.as_ref().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("amd64_sysv")),
        "`{}` does not run: scripts/setup installs QBE 1.2 into tools/qbe/ ({out:?})",
        qbe.display()
    );
}

/// A program file as the tests load it: `.pir`, or POST Python lowered
/// with its imports (paths relative to the repository root).
fn load(path: &Path) -> Program {
    if path.extension().is_some_and(|e| e == "py") {
        let rel = path.strip_prefix(root()).unwrap().to_path_buf();
        std::env::set_current_dir(root()).unwrap();
        postc_frontend::lower_files(&[rel], Vec::new()).unwrap_or_else(|_| panic!("{} lowers", path.display()))
    } else {
        postc_testkit::corpus::load(path).map(Program::from_module).unwrap()
    }
}

#[test]
fn il_of_every_program_is_accepted_without_warnings() {
    let mut files = postc_testkit::corpus::program_files();
    for dir in ["tests/py", "examples"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            let ext = p.extension().and_then(|e| e.to_str());
            let is_program = match ext {
                Some("py") => dir == "examples" || p.with_extension("expected").is_file(),
                Some("pir") => true,
                _ => false,
            };
            if is_program {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 60, "only {} programs", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let program = load(path);
        for level in [OptLevel::O0, OptLevel::O2] {
            let options = CodegenOptions::for_level(level);
            let il = match postc_codegen::qbe::Qbe.emit(&program, &options, EmitKind::Qbe) {
                Ok(b) => String::from_utf8(b).unwrap(),
                Err(d) => {
                    failures.push(format!("{} {level:?}: {}", path.display(), d[0]));
                    continue;
                }
            };
            match postc_codegen::qbe::run_qbe(&il) {
                Ok((_, warnings)) if warnings.trim().is_empty() => {}
                Ok((_, warnings)) => failures.push(format!("{} {level:?}: qbe warns:\n{warnings}", path.display())),
                Err(d) => failures.push(format!("{} {level:?}: {}", path.display(), d[0])),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const PROG: &str = "module prog
export main

func twice(%x: Int8) -> Int8 {
entry:
  %r: Int8 = add %x, %x
  return %r
}

func main() -> Int64 {
entry:
  %a: Int8 = const 100
  %b: Int8 = call twice(%a)
  %w: Int64 = cast %b
  %k: Int64 = const 98
  %r: Int64 = add %w, %k
  return %r
}
";

#[test]
fn driver_emits_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = write(d, "prog.pir", PROG);
    run_ok(qbe_compile(d).args(["--emit", "qbe"]).arg(&src));
    let il = std::fs::read_to_string(d.join("prog.ssa")).unwrap();
    assert!(
        il.contains("export function l $main()") && il.contains("function sb $postc_qbe_prog_Ptwice(sb %p0)"),
        "{il}"
    );
    run_ok(qbe_compile(d).args(["--emit", "asm"]).arg(&src));
    let asm = std::fs::read_to_string(d.join("prog.s")).unwrap();
    assert!(asm.contains("main:"), "{asm}");
    run_ok(qbe_compile(d).args(["--emit", "obj"]).arg(&src));
    assert_eq!(&std::fs::read(d.join("prog.o")).unwrap()[..4], b"\x7fELF");
    // 100 + 100 wraps to -56 in Int8 from -O1; -O0 panics.
    for (level, code) in [("-O1", Some(42)), ("-O2", Some(42))] {
        run_ok(qbe_compile(d).args(["--emit", "exe", level]).arg(&src));
        assert_eq!(Command::new(d.join("prog")).status().unwrap().code(), code, "{level}");
    }
    run_ok(qbe_compile(d).args(["--emit", "exe", "-O0"]).arg(&src));
    let out = Command::new(d.join("prog")).output().unwrap();
    assert_eq!(out.status.signal(), Some(6));
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("panic: integer overflow at {}:6:3\n", src.display()));
    run_ok(
        qbe_compile(d)
            .args(["--emit", "shared"])
            .arg(root().join("examples/saxpy.py"))
            .arg("-o")
            .arg(d.join("libs.so")),
    );
    let nm = run_ok(Command::new("nm").args(["-D", "--defined-only"]).arg(d.join("libs.so")));
    let syms = String::from_utf8_lossy(&nm.stdout);
    for s in ["saxpy", "postc_rt_panic", "postc_rt_set_panic_handler"] {
        assert!(syms.lines().any(|l| l.ends_with(&format!(" {s}"))), "{s} not exported:\n{syms}");
    }
    let out = qbe_compile(d).args(["--emit", "llvm-ir"]).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the qbe backend cannot emit `llvm-ir`") && err.contains("qbe, asm, obj"), "{err}");
}

/// An executable that exports `malloc` and `write` still allocates and
/// panics through the C library's own; a shared library's `cabs` and an
/// alias are its own symbols.
#[test]
fn exported_c_library_names_and_aliases() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prog = "module m
export main, malloc, write

func malloc(%n: Int64) -> Int64 {
entry:
  return %n
}

func write(%n: Int64) -> Int64 {
entry:
  return %n
}

func main() -> Int64 {
entry:
  %a: Str = const \"to\"
  %b: Str = const \"tal\"
  %c: Str = add %a, %b
  %want: Str = const \"total\"
  %same: Bool = eq %c, %want
  %n: Int64 = const 3
  %arr: Float64[] = alloc %n
  %yes: Int64 = const 42
  %no: Int64 = const 1
  %r: Int64 = select %same, %yes, %no
  return %r
}
";
    let src = write(d, "m.pir", prog);
    run_ok(qbe_compile(d).args(["--emit", "exe"]).arg(&src));
    assert_eq!(Command::new(d.join("m")).status().unwrap().code(), Some(42));
    let lib = "module l
alias magnitude = cabs
export cabs, magnitude

func cabs(%z: Complex128) -> Float64 {
entry:
  %r: Float64 = abs %z
  return %r
}
";
    let src = write(d, "l.pir", lib);
    run_ok(qbe_compile(d).args(["--emit", "shared"]).arg(&src));
    let caller = "#include <stdio.h>\ntypedef struct { double re, im; } c128;\n\
                  double cabs(const c128 *);\ndouble magnitude(const c128 *);\n\
                  int main(void) { c128 z = {3, 4}; printf(\"%g %g %d\\n\", cabs(&z), magnitude(&z), \
                  (void *)cabs == (void *)magnitude); return 0; }\n";
    let c = write(d, "caller.c", caller);
    let exe = d.join("caller");
    run_ok(
        Command::new("cc")
            .args(["-fno-builtin", "-w", "-o"])
            .arg(&exe)
            .arg(&c)
            .arg(format!("-L{}", d.display()))
            .arg(format!("-Wl,-rpath,{}", d.display()))
            .args(["-ll", "-lm"]),
    );
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "5 5 1\n");
}

#[test]
fn gpu_and_kernel_functions_are_located_errors() {
    let out = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--backend", "qbe", "--emit", "obj", "tests/gpu/kernels.pir", "-o"])
        .arg(std::env::temp_dir().join(format!("postc-qbe-kernels-{}.o", std::process::id())))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`scale` is a `kernel` function, which is not supported by the qbe backend")
            && err.contains("tests/gpu/kernels.pir:9:")
            && err.contains("`sumsq` is a `gpu` function")
            && err.contains("--backend llvm"),
        "{err}"
    );
    // `gpu(fallback)` functions compile as their host body.
    let dir = tempfile::tempdir().unwrap();
    run_ok(
        Command::new(driver())
            .current_dir(root())
            .args(["compile", "--backend", "qbe", "--emit", "shared", "tests/gpu/fallback.pir", "-o"])
            .arg(dir.path().join("libf.so")),
    );
}

/// A program exporting the name of a libm function that its own code
/// calls (float `%` calls `fmod`) is a located error, not a wrong call.
#[test]
fn exporting_a_called_libm_function_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "f.pir",
        "module f\nexport fmod, g\n\nfunc fmod(%x: Float64) -> Float64 {\nentry:\n  return %x\n}\n\n\
         func g(%x: Float64, %y: Float64) -> Float64 {\nentry:\n  %r: Float64 = mod %x, %y\n  return %r\n}\n",
    );
    let out = qbe_compile(dir.path()).args(["--emit", "obj"]).arg(&src).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`fmod` cannot be exported by the qbe backend") && err.contains("f.pir:4:"), "{err}");
}

/// Recursion counts the call depth in an executable too (the thread-local
/// depth reached through `__tls_get_addr`, relaxed by the linker).
#[test]
fn executables_count_the_call_depth() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prog = |n: u32| {
        format!(
            "module rec\nexport main\n\nfunc down(%n: Int64) -> Int64 {{\nentry:\n  %z: Int64 = const 0\n  \
             %done: Bool = le %n, %z\n  condbr %done, base, step\nbase:\n  return %z\nstep:\n  %one: Int64 = const 1\n  \
             %m: Int64 = sub %n, %one\n  %r: Int64 = call down(%m)\n  %s: Int64 = add %r, %one\n  return %s\n}}\n\n\
             func main() -> Int64 {{\nentry:\n  %n: Int64 = const {n}\n  %r: Int64 = call down(%n)\n  return %r\n}}\n"
        )
    };
    let src = write(d, "rec.pir", &prog(42));
    run_ok(qbe_compile(d).args(["--emit", "exe"]).arg(&src));
    assert_eq!(Command::new(d.join("rec")).status().unwrap().code(), Some(42));
    let src = write(d, "rec.pir", &prog(20000));
    run_ok(qbe_compile(d).args(["--emit", "exe"]).arg(&src));
    let out = Command::new(d.join("rec")).output().unwrap();
    assert_eq!(out.status.signal(), Some(6));
    let want = format!("panic: recursion limit exceeded at {}:14:3\n", src.display());
    assert_eq!(String::from_utf8_lossy(&out.stderr), want);
}
