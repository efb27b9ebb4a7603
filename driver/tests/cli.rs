//! The command line: `check` accepts every shipped program, `fmt` prints
//! the canonical form, reads standard input and reports non-canonical files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn driver() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_postc-driver"));
    c.current_dir(root());
    c
}

fn pir_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "pir")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn check_accepts_every_program_and_example() {
    let mut files = pir_files("tests/programs");
    files.extend(pir_files("examples"));
    assert!(files.len() >= 16, "found {} files", files.len());
    for f in files {
        let out = driver().arg("check").arg(&f).output().unwrap();
        assert!(out.status.success(), "{}: {}", f.display(), String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{}: {}", f.display(), String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn fmt_reads_stdin_and_prints_a_fixed_point() {
    let src = std::fs::read_to_string(root().join("examples/saxpy.pir")).unwrap();
    let run = |input: &str| {
        let mut child = driver().args(["fmt", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let once = run(&src);
    assert!(once.starts_with("module saxpy\nexport saxpy\n"), "{once}");
    assert!(!once.contains(';'), "comments are not part of the canonical form");
    assert_eq!(run(&once), once);
}

#[test]
fn fmt_check_and_write() {
    let dir = std::env::temp_dir().join(format!("postc-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.pir");
    std::fs::write(&file, "module a\nfunc f() {\nentry:\n    return   ; done\n}\n").unwrap();
    let out = driver().args(["fmt", "--check"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in canonical form"));
    assert!(driver().args(["fmt", "-w"]).arg(&file).status().unwrap().success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "module a\n\nfunc f() {\nentry:\n  return\n}\n");
    assert!(driver().args(["fmt", "--check"]).arg(&file).status().unwrap().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_resolves_imports_beside_the_file_and_under_include_dirs() {
    let dir = std::env::temp_dir().join(format!("postc-imports-{}", std::process::id()));
    let lib = dir.join("lib/linalg");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(
        lib.join("core.pir"),
        "module linalg.core\n\nfunc twice(%x: Float64) -> Float64 {\nentry:\n  %y: Float64 = add %x, %x\n  return %y\n}\n",
    )
    .unwrap();
    let main = dir.join("main.pir");
    std::fs::write(
        &main,
        "module main\nimport post linalg.core: twice as dbl\n\nfunc f(%x: Float64) -> Float64 {\nentry:\n  %y: Float64 = call dbl(%x)\n  return %y\n}\n",
    )
    .unwrap();
    let out = driver().arg("check").arg(&main).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "without -I the import is missing");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot find module `linalg.core`"));
    let out = driver().arg("check").arg(&main).arg("-I").arg(dir.join("lib")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unreadable_file_is_a_diagnostic_not_a_panic() {
    let out = driver().args(["check", "does/not/exist.pir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("postc-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{name}.pir"));
    std::fs::write(&p, text).unwrap();
    p
}

const KERNELS: &str = "module k\n\nfunc f(%a: Int64, %b: Int64) -> Int64 {\nentry:\n  %q: Int64 = fdiv %a, %b !loc \"k.py\":3:7\n  return %q\n}\n\n\
func g(%x: Float64, %z: Complex128) -> Complex128 {\nentry:\n  %c: Complex128 = cast %x\n  %r: Complex128 = mul %c, %z\n  return %r\n}\n\n\
func h(%a: Float64[]Shape[4], %i: Int64) -> Float64 {\nentry:\n  %v: Float64 = index.load %a[%i]\n  return %v\n}\n";

#[test]
fn run_prints_results_as_python_and_panics_with_location() {
    let f = write_temp("run", KERNELS);
    let out = driver().arg("run").arg(&f).args(["--entry", "f", "--", "-7", "2"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "-4\n");
    let out = driver().arg("run").arg(&f).args(["--entry", "g", "--", "2.5", "1-2j"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "(2.5-5j)\n");
    let out = driver().arg("run").arg(&f).args(["--entry", "f", "--", "7", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(101));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "panic: division by zero at k.py:3:7\n");
    let out = driver().arg("run").arg(&f).args(["--entry", "f", "--", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes 2 argument(s), 1 given"));
    let out = driver().arg("run").arg(&f).args(["--entry", "h", "--", "1", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is an array"));
}

#[test]
fn passes_lists_every_pass() {
    let out = driver().arg("passes").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for p in [
        "insert-checks",
        "stride-lower",
        "select-fold",
        "cold-outline",
        "const-fold",
        "simplify-cfg",
        "dce",
        "cleanup",
        "verify",
    ] {
        assert!(text.lines().any(|l| l.starts_with(p)), "{p} missing:\n{text}");
    }
}

#[test]
fn opt_runs_pipelines_and_reports() {
    let f = write_temp("opt", KERNELS);
    // Every level's default pipeline runs.
    for level in ["-O0", "-O1", "-O2", "-O3"] {
        let out = driver().arg("opt").arg(level).arg(&f).arg("--verify-each").output().unwrap();
        assert!(out.status.success(), "{level}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // -O2: the result parses, verifies, and has no logical indexing left.
    let outfile = f.with_extension("opt.pir");
    let out = driver().arg("opt").arg("-O2").arg(&f).arg("-o").arg(&outfile).arg("--time-passes").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&outfile).unwrap();
    assert!(!text.contains("index.load"), "{text}");
    assert!(text.contains("func postc.cold.panic.0("), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Pass execution timing report"));
    let out = driver().arg("check").arg(&outfile).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // --print-after dumps the named pass's output.
    let out = driver()
        .arg("opt")
        .arg(&f)
        .args(["--passes", "insert-checks,stride-lower", "--print-after", "insert-checks"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("IR after insert-checks on h") && err.contains("index.load"), "{err}");
    // A bisect limit of zero changes nothing.
    let out = driver().arg("opt").arg(&f).args(["-O2", "--bisect-limit", "0"]).output().unwrap();
    let unchanged = driver().arg("fmt").arg(&f).output().unwrap();
    assert_eq!(out.stdout, unchanged.stdout);
    // Bad pipelines and options are diagnostics with exit status 2.
    let out = driver().arg("opt").arg(&f).args(["--passes", "dce,nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown pass `nope`"));
    let out = driver().arg("opt").arg(&f).args(["-C", "fast-math=on"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = driver().arg("opt").arg(&f).arg("-O7").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
