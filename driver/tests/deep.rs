//! Deep and long programs through every command on a small stack: the
//! driver runs with a main-thread stack of 512 KiB (`ulimit -s 512`; the
//! debug build needs about 300 KiB to parse its command line), and `check`,
//! `lower`, `run`, `opt -O2` and `compile -O2` through every backend either
//! succeed or stop with a located diagnostic, never a crash (LLVM works on
//! a thread of its own with a known stack; the frontend's walks grow their
//! stack on the heap). A function too large for LLVM's optimiser is
//! compiled without it (`optnone`), one below the limit with it.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("postc-deep-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(name: &str, text: &str) -> PathBuf {
    let p = dir().join(format!("{name}.py"));
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs the driver with `args` on a main-thread stack of 512 KiB.
fn small_stack(args: &[&str]) -> Output {
    let driver = env!("CARGO_BIN_EXE_postc-driver");
    let mut line = String::from("ulimit -s 512 && exec \"$0\"");
    for i in 0..args.len() {
        line.push_str(&format!(" \"${}\"", i + 1));
    }
    Command::new("sh").arg("-c").arg(&line).arg(driver).args(args).current_dir(root()).output().unwrap()
}

fn ok(args: &[&str]) -> Output {
    let out = small_stack(args);
    assert!(
        out.status.success(),
        "{args:?} exited with {:?}:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr).chars().take(2000).collect::<String>()
    );
    out
}

const HEADER: &str = "from postyp import Float64, Int64\n\n__all__ = [\"f\"]\n\n\n";

/// The programs: name, text, an argument for `run` and what `run` prints.
fn programs() -> Vec<(&'static str, String, &'static str, String)> {
    let n = 20_000;
    let mut elif = format!("{HEADER}def f(x: Int64) -> Int64:\n    if x == 0:\n        return 0\n");
    for i in 1..n {
        elif.push_str(&format!("    elif x == {i}:\n        return {}\n", 2 * i));
    }
    elif.push_str("    return -1\n");
    let mut nested = format!("{HEADER}def f(x: Int64) -> Int64:\n    s = 0\n");
    for i in 0..1_000 {
        let pad = " ".repeat(4 + i);
        nested.push_str(&format!("{pad}if x > {i}:\n{pad} s = s + 1\n"));
    }
    nested.push_str("    return s\n");
    let arms: String = (0..5_000).map(|i| format!("{i} if x == {i} else ")).collect();
    vec![
        ("elif", elif, "19999", "39998".into()),
        ("nested", nested, "700", "700".into()),
        ("cond", format!("{HEADER}def f(x: Int64) -> Int64:\n    return {arms}-1\n"), "4321", "4321".into()),
        (
            "pow",
            format!("{HEADER}def f(x: Int64) -> Int64:\n    return {}\n", vec!["x"; 2_000].join(" ** ")),
            "1",
            "1".into(),
        ),
        (
            "and",
            format!("{HEADER}def f(x: Int64) -> bool:\n    return {}\n", vec!["x > 0"; 50_000].join(" and ")),
            "2",
            "True".into(),
        ),
        (
            "sum",
            format!("{HEADER}def f(x: Float64) -> Float64:\n    return {}\n", vec!["x"; 50_000].join(" + ")),
            "0.5",
            "25000.0".into(),
        ),
    ]
}

#[test]
fn deep_programs_pass_every_command_on_a_small_stack() {
    for (name, text, arg, want) in programs() {
        let f = write(name, &text);
        let f = f.to_str().unwrap();
        ok(&["check", f]);
        ok(&["lower", f]);
        let out = ok(&["run", f, "--entry", "f", "--", arg]);
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), want, "{name}");
        ok(&["opt", "-O2", f]);
        let o = dir().join(format!("{name}.o"));
        let o = o.to_str().unwrap();
        ok(&["compile", "-O2", "--emit", "obj", f, "-o", o]);
        let c = dir().join(format!("{name}.c"));
        ok(&["compile", "-O2", "--backend", "c", "--emit", "c", f, "-o", c.to_str().unwrap()]);
        let q = dir().join(format!("{name}.ssa"));
        ok(&["compile", "-O2", "--backend", "qbe", "--emit", "qbe", f, "-o", q.to_str().unwrap()]);
        let w = dir().join(format!("{name}.wasm"));
        let out = small_stack(&["compile", "-O2", "--backend", "wasm", "--emit", "wasm", f, "-o", w.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The wasm backend takes them all but the ones with more values
        // than an engine takes locals: refused, located at the function.
        if !out.status.success() {
            assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
            assert!(stderr.contains("WebAssembly locals") && stderr.contains(&format!("{name}.py:6:5")), "{stderr}");
        }
    }
}

/// The shared library built from a deep program runs, through `ctypes`:
/// an `elif` chain of 20,000 arms compiled without LLVM's optimiser.
#[test]
fn a_function_over_the_optimiser_limit_is_compiled_without_it() {
    let (_, elif, _, _) = programs().remove(0);
    let f = write("limit", &elif);
    let ll = dir().join("limit.ll");
    ok(&["compile", "-O2", "--emit", "llvm-ir", f.to_str().unwrap(), "-o", ll.to_str().unwrap()]);
    let ir = std::fs::read_to_string(&ll).unwrap();
    assert!(attributes_of(&ir, "f").contains("optnone"), "{}", attributes_of(&ir, "f"));
    // A small function keeps the optimiser.
    let small = write("small", &format!("{HEADER}def f(x: Int64) -> Int64:\n    return x + 1\n"));
    let ll = dir().join("small.ll");
    ok(&["compile", "-O2", "--emit", "llvm-ir", small.to_str().unwrap(), "-o", ll.to_str().unwrap()]);
    let ir = std::fs::read_to_string(&ll).unwrap();
    assert!(!attributes_of(&ir, "f").contains("optnone"));
    let so = dir().join("liblimit.so");
    ok(&["compile", "-O2", "--emit", "shared", f.to_str().unwrap(), "-o", so.to_str().unwrap()]);
    let py = "import ctypes, sys\nlib = ctypes.CDLL(sys.argv[1])\nlib.f.restype = ctypes.c_int64\n\
              lib.f.argtypes = [ctypes.c_int64]\nprint(lib.f(19999), lib.f(7), lib.f(20000))\n";
    let out = Command::new("python3").args(["-c", py]).arg(&so).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "39998 14 -1\n");
}

/// The attributes of the LLVM function `name` in `ir`: the attribute group
/// its `define` line names.
fn attributes_of(ir: &str, name: &str) -> String {
    let define = ir.lines().find(|l| l.starts_with("define") && l.contains(&format!("@{name}("))).expect("defined");
    let group = define.rsplit('#').next().unwrap().split_whitespace().next().unwrap();
    let attrs = ir.lines().find(|l| l.starts_with(&format!("attributes #{group} "))).expect("attribute group");
    attrs.to_owned()
}
