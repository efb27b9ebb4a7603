//! The command line: `check` accepts every shipped program, `fmt` prints
//! the canonical form, reads standard input and reports non-canonical files;
//! `run`, `opt` and `compile` behave at their edges (fuel, thread counts,
//! outputs that are inputs, unknown CPUs); README.md's command examples
//! print what it shows and its synopsis matches `--help`.

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

/// A module of text and Float32 results for `run`.
const TEXTS: &str = "module t\n\nfunc greet(%name: Str) -> Str {\nentry:\n  %h: Str = const \"hello \"\n  \
%r: Str = add %h, %name\n  return %r\n}\n\nfunc echo(%b: Bytes) -> Bytes {\nentry:\n  return %b\n}\n\n\
func num(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n\nfunc tie(%x: Float32) -> Float32 {\nentry:\n  return %x\n}\n";

/// `run` reads Str and Bytes arguments as Python literals (quotes,
/// prefixes, escapes), integers with Python's prefixes and underscores, and
/// prints a Float32 as NumPy does (a tie of the two shortest decimals goes
/// to the even digit).
#[test]
fn run_reads_arguments_as_python_literals() {
    let f = write_temp("texts", TEXTS);
    let run =
        |entry: &str, arg: &str| driver().arg("run").arg(&f).args(["--entry", entry, "--", arg]).output().unwrap();
    for (arg, want) in [
        ("'bob'", "hello bob"),
        ("\"bob\"", "hello bob"),
        ("'it\\'s'", "hello it's"),
        ("'''a'b\"c'''", "hello a'b\"c"),
        ("'tab\\tx'", "hello tab\tx"),
        ("r'a\\n'", "hello a\\n"),
        ("u'\\u00e9\\x41\\101\\U0001F600'", "hello éAA😀"),
        ("'\\q'", "hello \\q"),
    ] {
        let out = run("greet", arg);
        assert!(out.status.success(), "{arg}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{want}\n"), "{arg}");
    }
    for (arg, want) in [
        ("b'\\x00a\\''", "b\"\\x00a'\""),
        ("B'ab'", "b'ab'"),
        ("rb'\\x00'", "b'\\\\x00'"),
        ("b'\\u00e9'", "b'\\\\u00e9'"),
    ] {
        let out = run("echo", arg);
        assert!(out.status.success(), "{arg}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{want}\n"), "{arg}");
    }
    for (arg, want) in [("0x1F", "31"), ("-0b101", "-5"), ("1_000", "1000"), ("+7", "7"), ("0o17", "15")] {
        let out = run("num", arg);
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{want}\n"), "{arg}");
    }
    let out = run("tie", "-299092.625");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "-299092.62\n");
    for (entry, arg, what) in [
        ("greet", "bob", "Str"),
        ("greet", "'bob", "Str"),
        ("greet", "'a'b'", "Str"),
        ("greet", "'a\\'", "Str"),
        ("greet", "b'bob'", "Str"),
        ("echo", "'ab'", "Bytes"),
        ("echo", "b'é'", "Bytes"),
        ("num", "0x", "Int64"),
    ] {
        let out = run(entry, arg);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{arg}: {stderr}");
        assert!(
            stderr.starts_with(&format!("error: argument `{arg}` is not a valid {what} for parameter %")),
            "{stderr}"
        );
    }
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

/// The `$ postc-driver ...` examples of README.md, each with the lines shown
/// after it in its indented block, up to the next example (blank lines
/// inside the output are part of it, trailing ones are not).
fn readme_examples() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    let mut finish = |current: &mut Option<(String, String)>| {
        if let Some((cmd, want)) = current.take() {
            let want = want.trim_end_matches('\n').to_owned();
            out.push((cmd, if want.is_empty() { want } else { want + "\n" }));
        }
    };
    for line in readme.lines() {
        if let Some(cmd) = line.strip_prefix("    $ postc-driver ") {
            finish(&mut current);
            current = Some((cmd.to_owned(), String::new()));
        } else if let Some(l) = line.strip_prefix("    ").or(line.is_empty().then_some("")) {
            if let Some((_, want)) = &mut current {
                want.push_str(l);
                want.push('\n');
            }
        } else {
            finish(&mut current);
        }
    }
    finish(&mut current);
    out
}

/// Every command the README shows runs from the repository root and prints
/// what the README says it prints (standard output, then standard error),
/// exiting with 101 after a panic, 1 after an error and 0 otherwise.
#[test]
fn readme_examples_print_what_they_show() {
    let examples = readme_examples();
    assert!(
        examples.iter().filter(|(c, _)| c.starts_with("run ")).count() >= 2,
        "README.md shows fewer than two `run` examples: {examples:?}"
    );
    for (cmd, want) in &examples {
        assert!(!cmd.contains(['"', '\'', '`', '>', '|']), "quoting and redirection are not supported here: {cmd}");
        let out = driver().args(cmd.split_whitespace()).output().unwrap();
        let got = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(&got, want, "`postc-driver {cmd}`");
        let status = if want.starts_with("panic: ") {
            101
        } else if want.starts_with("error: ") {
            1
        } else {
            0
        };
        assert_eq!(out.status.code(), Some(status), "`postc-driver {cmd}`");
    }
}

/// `compile` and `opt` refuse an output that is one of their inputs (also
/// under another spelling, or an imported module), leaving it as it was;
/// `fmt -w` needs a file.
#[test]
fn outputs_never_overwrite_inputs() {
    let f = write_temp("overwrite", KERNELS);
    let dir = f.parent().unwrap().to_path_buf();
    std::fs::write(
        dir.join("helper.pir"),
        "module helper\n\nfunc one() -> Int64 {\nentry:\n  %x: Int64 = const 1\n  return %x\n}\n",
    )
    .unwrap();
    let user = dir.join("user.pir");
    std::fs::write(&user, "module user\nimport post helper: one\n\nfunc two() -> Int64 {\nentry:\n  %a: Int64 = call one()\n  %b: Int64 = add %a, %a\n  return %b\n}\n")
        .unwrap();
    let dotted = dir.join(".").join("overwrite.pir");
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["compile".into(), f.clone().into(), "-o".into(), f.clone().into()],
        vec!["compile".into(), f.clone().into(), "--emit".into(), "shared".into(), "-o".into(), dotted.into()],
        vec!["opt".into(), "-O2".into(), f.clone().into(), "-o".into(), f.clone().into()],
        vec!["compile".into(), user.clone().into(), "-o".into(), dir.join("helper.pir").into()],
    ];
    for args in &cases {
        let before: Vec<Vec<u8>> =
            [&f, &user, &dir.join("helper.pir")].iter().map(|p| std::fs::read(p).unwrap()).collect();
        let out = driver().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("refusing to overwrite it"), "{args:?}: {stderr}");
        let after: Vec<Vec<u8>> =
            [&f, &user, &dir.join("helper.pir")].iter().map(|p| std::fs::read(p).unwrap()).collect();
        assert_eq!(before, after, "{args:?}");
    }
    // Another output is written as usual.
    let out = driver().args(["opt", "-O2"]).arg(&f).arg("-o").arg(dir.join("opt.pir")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = driver().args(["fmt", "-w", "-"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input is not one"));
}

/// `run --fuel N` stops a program that would not end, with status 101.
#[test]
fn run_stops_when_the_fuel_is_used_up() {
    let f = write_temp(
        "fuel",
        "module fuel\n\nfunc spin(%n: Int64) -> Int64 {\nentry:\n  br loop\nloop:\n  br loop !loc \"s.py\":2:3\n}\n",
    );
    let out = driver().arg("run").arg(&f).args(["--entry", "spin", "--fuel", "1000", "--", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(101));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "out of fuel: stopped after 1000 instructions at s.py:2:3\n");
    let k = write_temp("fuel-ok", KERNELS);
    let out = driver().arg("run").arg(&k).args(["--entry", "f", "--fuel", "5", "--", "-7", "2"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "-4\n");
}

/// An unknown `--cpu` is a clear error, not an LLVM abort; a known one
/// compiles.
#[test]
fn unknown_cpus_are_errors() {
    let f = write_temp("cpu", KERNELS);
    let o = f.with_extension("o");
    for (target, cpu) in [(None, "nonsense"), (Some("aarch64-linux-gnu"), "nonsense")] {
        let mut c = driver();
        c.arg("compile").arg(&f).arg("-o").arg(&o).args(["--cpu", cpu]);
        if let Some(t) = target {
            c.args(["--target", t]);
        }
        let out = c.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{target:?}: {stderr}");
        assert!(stderr.starts_with("error: unknown CPU `nonsense` for target `"), "{target:?}: {stderr}");
        assert!(!stderr.contains("LLVM ERROR") && !stderr.contains("not a recognized processor"), "{stderr}");
    }
    for (target, cpu) in [("x86_64-unknown-linux-gnu", "skylake"), ("aarch64-linux-gnu", "neoverse-v2")] {
        let out = driver().arg("compile").arg(&f).arg("-o").arg(&o).args(["--target", target, "--cpu", cpu]).output();
        let out = out.unwrap();
        assert!(out.status.success(), "{target} {cpu}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

/// An unknown `--gpu-arch` (or `--cpu` of device code) is a usage error
/// that lists the architectures LLVM knows; a known one compiles.
#[test]
fn unknown_gpu_architectures_are_usage_errors() {
    let f = write_temp("gpu-arch", KERNELS);
    let o = f.with_extension("o");
    for (args, arch, what, listed) in [
        (&["--gpu-arch", "sm_0"][..], "sm_0", "nvptx", "sm_90"),
        (&["--gpu", "amdgpu", "--gpu-arch", "gfx0"][..], "gfx0", "amdgpu", "gfx90a"),
        (&["--emit", "ptx", "--cpu", "sm_1"][..], "sm_1", "nvptx", "sm_80"),
    ] {
        let out = driver().arg("compile").arg(&f).arg("-o").arg(&o).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let head = format!("error: unknown GPU architecture `{arch}` for {what}; the known ones are: ");
        assert!(stderr.starts_with(&head), "{args:?}: {stderr}");
        assert!(stderr.split(": ").last().unwrap().trim().split(", ").any(|a| a == listed), "{stderr}");
        assert!(!o.exists(), "{args:?} wrote an output");
    }
    let out = driver().arg("compile").arg(&f).arg("-o").arg(&o).args(["--gpu-arch", "sm_80"]).output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `alloc` of an array of text is refused alike by `check`, `run` and
/// `compile` (through every backend), with the verifier's located error.
#[test]
fn check_run_and_compile_agree_on_allocating_text_arrays() {
    let f = root().join("tests/invalid/alloc_text_array.pir");
    let o = std::env::temp_dir().join(format!("postc-cli-{}-alloc-text.o", std::process::id()));
    let want = "error: `alloc` %buf: cannot allocate an array of Bytes: arrays hold numbers and Bool\n  \
                ┌─ tests/invalid/alloc_text_array.pir:6:3\n";
    let mut runs: Vec<Vec<String>> = vec![
        vec!["check".into(), "tests/invalid/alloc_text_array.pir".into()],
        vec![
            "run".into(),
            "tests/invalid/alloc_text_array.pir".into(),
            "--entry".into(),
            "f".into(),
            "--".into(),
            "3".into(),
        ],
    ];
    for backend in ["llvm", "c", "qbe"] {
        let mut c: Vec<String> = vec!["compile".into(), f.display().to_string(), "-o".into(), o.display().to_string()];
        c.extend(["--backend".into(), backend.into()]);
        runs.push(c);
    }
    runs.push(vec![
        "compile".into(),
        "tests/invalid/alloc_text_array.pir".into(),
        "--backend".into(),
        "wasm".into(),
        "--emit".into(),
        "wasm".into(),
        "-o".into(),
        o.display().to_string(),
    ]);
    for args in runs {
        let out = driver().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).replace(&format!("{}/", root().display()), "");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with(want), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty() && !o.exists(), "{args:?}");
    }
}

/// `opt -j N` starts at most one worker thread per function.
#[test]
fn opt_threads_are_capped_at_the_function_count() {
    let f = write_temp("jobs", KERNELS);
    for (jobs, threads) in [("1", 1), ("2", 2), ("64", 3), ("100000", 3)] {
        let out = driver().args(["opt", "-O2", "--time-passes", "-j", jobs]).arg(&f).output().unwrap();
        assert!(out.status.success(), "-j {jobs}: {}", String::from_utf8_lossy(&out.stderr));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("(summed over {threads} threads)")), "-j {jobs}: {stderr}");
    }
}

/// A flag of the synopsis and the values it lists, if any.
type Flag = (String, Option<Vec<String>>);

/// The synopsis of README.md's "The command line": subcommand → the flags
/// it shows (a single-dash flag by its first two characters: `-O0..-O3` is
/// `-O`), each with the values it lists as `a|b|c`, if any.
fn readme_synopsis() -> std::collections::BTreeMap<String, Vec<Flag>> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let at = readme.find("## The command line\n").expect("README.md has a command-line section");
    let mut text: std::collections::BTreeMap<String, String> = Default::default();
    let mut current: Option<String> = None;
    for line in readme[at..].lines().skip(1).skip_while(|l| l.is_empty()) {
        let Some(l) = line.strip_prefix("    ") else { break };
        if let Some(rest) = l.strip_prefix("postc-driver ") {
            let (sub, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            text.insert(sub.to_owned(), rest.to_owned());
            current = Some(sub.to_owned());
        } else if let Some(sub) = &current {
            let t = text.get_mut(sub).expect("the current subcommand");
            t.push(' ');
            t.push_str(l.trim());
        }
    }
    text.into_iter()
        .map(|(sub, t)| {
            let cleaned: String = t.chars().map(|c| if "[]()".contains(c) { ' ' } else { c }).collect();
            let tokens: Vec<&str> = cleaned.split_whitespace().collect();
            let mut flags = Vec::new();
            for (i, tok) in tokens.iter().enumerate() {
                let is_flag =
                    tok.starts_with('-') && tok.chars().nth(1).is_some_and(|c| c.is_ascii_alphabetic() || c == '-');
                if !is_flag || *tok == "--" {
                    continue;
                }
                let name = if tok.starts_with("--") { tok.to_string() } else { tok[..2].to_owned() };
                let values = tokens
                    .get(i + 1)
                    .filter(|v| v.contains('|') && !v.starts_with('-') && !v.contains('='))
                    .map(|v| v.split('|').map(str::to_owned).collect());
                flags.push((name, values));
            }
            (sub, flags)
        })
        .collect()
}

/// The options of `postc-driver SUB -h` (but `-h`/`--help`): their names,
/// and their possible values when clap lists them.
fn help_options(sub: &str) -> Vec<(Vec<String>, Option<Vec<String>>)> {
    let out = driver().args([sub, "-h"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let options = text.split("\nOptions:\n").nth(1).expect("an Options section");
    let mut found = Vec::new();
    for line in options.lines() {
        let t = line.trim_start();
        if !t.starts_with('-') {
            continue;
        }
        let names: Vec<String> = t
            .split_whitespace()
            .take_while(|w| w.starts_with('-'))
            .map(|w| w.trim_end_matches(',').to_owned())
            .collect();
        if names.iter().any(|n| n == "--help") {
            continue;
        }
        let values = t
            .split("[possible values: ")
            .nth(1)
            .map(|v| v.split(']').next().unwrap_or("").split(", ").map(str::to_owned).collect::<Vec<_>>());
        found.push((names, values));
    }
    found
}

/// README.md's synopsis shows every subcommand and every option of
/// `--help`, only those, and for each option with a fixed set of values
/// exactly that set.
#[test]
fn readme_synopsis_matches_help() {
    let synopsis = readme_synopsis();
    let out = driver().arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let commands: Vec<&str> = help
        .split("\nCommands:\n")
        .nth(1)
        .expect("a Commands section")
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    let mut shown: Vec<&str> = synopsis.keys().map(String::as_str).collect();
    let mut listed = commands.clone();
    shown.sort_unstable();
    listed.sort_unstable();
    assert_eq!(shown, listed, "the README's subcommands and --help's");
    let mut problems = Vec::new();
    for (sub, flags) in &synopsis {
        let options = help_options(sub);
        for (flag, values) in flags {
            let Some((_, possible)) = options.iter().find(|(names, _)| names.contains(flag)) else {
                problems.push(format!("{sub}: the README shows {flag}, which --help does not list"));
                continue;
            };
            if let (Some(possible), Some(values)) = (possible, values) {
                let (mut p, mut v) = (possible.clone(), values.clone());
                p.sort();
                v.sort();
                if p != v {
                    problems.push(format!("{sub}: {flag} takes {possible:?} by --help, {values:?} by the README"));
                }
            }
        }
        for (names, possible) in &options {
            let shown: Vec<_> = flags.iter().filter(|(f, _)| names.contains(f)).collect();
            if shown.is_empty() {
                problems.push(format!("{sub}: --help lists {}, which the README does not show", names.join(", ")));
            } else if possible.is_some() && shown.iter().all(|(_, v)| v.is_none()) {
                problems.push(format!("{sub}: the README does not list the values of {}", names.join(", ")));
            }
        }
    }
    assert!(problems.is_empty(), "README.md's synopsis and --help differ:\n{}", problems.join("\n"));
}
