//! `postc-driver compile`: every `--emit` kind writes what it says, default
//! output names, executables exit with `main`'s result, each runtime panic
//! kind aborts with its exact message and location, several files compile
//! into one output, codegen units do not change the result, compile
//! errors are located diagnostics, and the CPU levels for portable code
//! decide the vector instructions.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn driver() -> Command {
    Command::new(env!("CARGO_BIN_EXE_postc-driver"))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run_ok(c: &mut Command) -> std::process::Output {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{c:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

const PROG: &str = "module prog

func twice(%x: Int64) -> Int64 {
entry:
  %two: Int64 = const 2
  %r: Int64 = mul %x, %two
  return %r
}

func main() -> Int64 {
entry:
  %a: Int64 = const 21
  %r: Int64 = call twice(%a)
  return %r
}
";

/// An optimised x86-64 build starts each function with a body, the cold
/// ones aside, on a 64-byte line (docs/performance.md, "Where the last few
/// per cent went"); an unoptimised one keeps LLVM's alignment.
#[cfg(target_arch = "x86_64")]
#[test]
fn optimised_functions_start_on_a_cache_line() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "prog.pir", PROG);
    for (opt, aligned) in [("-O2", true), ("-O3", true), ("-O0", false)] {
        let ll = dir.path().join(format!("prog{opt}.ll"));
        run_ok(driver().args(["compile", opt, "--emit", "llvm-ir"]).arg(&src).arg("-o").arg(&ll));
        let text = std::fs::read_to_string(&ll).unwrap();
        let defines: Vec<&str> = text.lines().filter(|l| l.starts_with("define ")).collect();
        for name in ["@twice(", "@main("] {
            let line = defines.iter().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{opt}: no {name}\n{text}"));
            assert_eq!(line.contains(" align 64 "), aligned, "{opt}: {line}");
        }
        for line in &defines {
            if line.contains(" align 64 ") {
                let attrs = line.split('#').nth(1).and_then(|a| a.split_whitespace().next()).unwrap_or("");
                let group = text.lines().find(|l| l.starts_with(&format!("attributes #{attrs} "))).unwrap_or("");
                assert!(!group.contains(" cold"), "{opt}: a cold function aligned: {line}\n{group}");
            }
        }
    }
}

#[test]
fn emit_kinds_produce_what_they_say() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "prog.pir", PROG);
    for (kind, name) in [("obj", "prog.o"), ("asm", "prog.s"), ("llvm-ir", "prog.ll"), ("bc", "prog.bc")] {
        run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", kind]).arg(&src));
        let bytes = std::fs::read(dir.path().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        match kind {
            "obj" => assert_eq!(&bytes[..4], b"\x7fELF"),
            "asm" => assert!(String::from_utf8_lossy(&bytes).contains(".text")),
            "llvm-ir" => assert!(String::from_utf8_lossy(&bytes).contains("define")),
            _ => assert_eq!(&bytes[..4], b"BC\xC0\xDE"),
        }
    }
    run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "shared"]).arg(&src));
    let so = std::fs::read(dir.path().join("libprog.so")).unwrap();
    assert_eq!(&so[..4], b"\x7fELF");
    let out = run_ok(Command::new("nm").args(["-D", "--defined-only"]).arg(dir.path().join("libprog.so")));
    let syms = String::from_utf8_lossy(&out.stdout);
    assert!(syms.contains(" T twice") && syms.contains(" T main"), "{syms}");
    // The runtime stays hidden but for the entry points a caller's panic
    // handler uses, the thread pool's size and the parallel ufunc loop.
    let runtime: Vec<&str> =
        syms.lines().filter_map(|l| l.split(' ').next_back()).filter(|s| s.contains("postc")).collect();
    assert_eq!(
        runtime,
        [
            "postc_rt_arena_mark",
            "postc_rt_arena_release",
            "postc_rt_get_num_threads",
            "postc_rt_panic",
            "postc_rt_parallel_ufunc_loop",
            "postc_rt_set_num_threads",
            "postc_rt_set_panic_handler",
            "postc_rt_set_print_handler"
        ]
    );
}

const SHADOW: &str = "module shadow
export fmod, pow, abort

func fmod(%a: Float64, %b: Float64) -> Float64 {
entry:
  %r: Float64 = mod %a, %b
  return %r
}

func pow(%a: Float64, %b: Float64) -> Float64 {
entry:
  %r: Float64 = pow %a, %b
  return %r
}

func abort(%a: Int64, %b: Int64) -> Int64 {
entry:
  %r: Int64 = fdiv %a, %b !loc \"shadow.py\":3:4
  return %r
}
";

const SHADOW_CALLER: &str = "#include <stdio.h>
double fmod(double, double);
double pow(double, double);
long long abort(long long, long long);
int main(int argc, char **argv) {
    (void)argv;
    if (argc > 1) return (int)abort(1, 0);
    printf(\"%g %g %g %lld\\n\", fmod(-7.5, 2.0), pow(2.0, 10.0), pow(2.0, 0.5), abort(-7, 2));
    return 0;
}
";

/// A shared library that exports `fmod`, `pow` and `abort`, linked into a C
/// program (ahead of the C library, so the program's own calls of those
/// names reach the library's functions), and an executable that exports
/// `malloc` and `write`: the compiled code's float `%`, `**`, panics and
/// string concatenation still reach the C library's functions.
#[test]
fn exported_c_library_names_leave_the_runtime_alone() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "shadow.pir", SHADOW);
    run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "shared"]).arg(&src));
    let c = write(dir.path(), "caller.c", SHADOW_CALLER);
    let exe = dir.path().join("caller");
    run_ok(
        Command::new("cc")
            .args(["-fno-builtin", "-w", "-o"])
            .arg(&exe)
            .arg(&c)
            .arg(format!("-L{}", dir.path().display()))
            .arg(format!("-Wl,-rpath,{}", dir.path().display()))
            .args(["-lshadow", "-lm"]),
    );
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0.5 1024 1.41421 -4\n");
    let out = Command::new(&exe).arg("panic").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "panic: division by zero at shadow.py:3:4\n");
    assert_eq!(out.status.signal(), Some(6));

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
  %yes: Int64 = const 42
  %no: Int64 = const 1
  %r: Int64 = select %same, %yes, %no
  return %r
}
";
    let src = write(dir.path(), "m.pir", prog);
    run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "exe"]).arg(&src));
    let st = Command::new(dir.path().join("m")).status().unwrap();
    assert_eq!(st.code(), Some(42), "{st:?}");
}

#[test]
fn executables_exit_with_mains_result() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "prog.pir", PROG);
    for level in ["-O0", "-O1", "-O2", "-O3"] {
        run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "exe", level]).arg(&src));
        let st = Command::new(dir.path().join("prog")).status().unwrap();
        assert_eq!(st.code(), Some(42), "{level}");
    }
    let void = write(dir.path(), "v.pir", "module v\n\nfunc main() {\nentry:\n  return\n}\n");
    run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "exe"]).arg(&void));
    assert_eq!(Command::new(dir.path().join("v")).status().unwrap().code(), Some(0));
    let nomain = write(dir.path(), "n.pir", "module n\n\nfunc f() {\nentry:\n  return\n}\n");
    let out = driver().current_dir(dir.path()).args(["compile", "--emit", "exe"]).arg(&nomain).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a function `main`"));
}

#[test]
fn bad_levels_and_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "prog.pir", PROG);
    let out = driver().current_dir(dir.path()).args(["compile", "-O4"]).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid optimisation level 4"));
    let out = driver().current_dir(dir.path()).args(["compile", "-C", "frob=on"]).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // An extension module is for this machine's CPython, under its own name.
    let out = driver()
        .current_dir(dir.path())
        .args(["compile", "--emit", "pyext", "--target", "aarch64-unknown-linux-gnu"])
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`--emit pyext` builds for the machine's own CPython"));
    let out = driver()
        .current_dir(dir.path())
        .args(["compile", "--emit", "pyext", "-o", "2fast.so", "--python", "python3"])
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`2fast` is not a Python identifier in ASCII"));
    // The stable ABI is a kind of extension module.
    let out = driver().current_dir(dir.path()).args(["compile", "--emit", "obj", "--abi3"]).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`--abi3` is for `--emit pyext`"));
}

/// A one-function program whose `main` panics; `body` is the entry block.
fn panic_program(body: &str) -> String {
    format!("module p\n\nfunc main() -> Int64 {{\nentry:\n{body}}}\n")
}

fn expect_panic(dir: &Path, name: &str, text: &str, flags: &[&str], want: &str) {
    let src = write(dir, &format!("{name}.pir"), text);
    let exe = dir.join(name);
    run_ok(driver().args(["compile", "--emit", "exe", "-o"]).arg(&exe).args(flags).arg(&src));
    let out = Command::new(&exe).output().unwrap();
    assert_eq!(out.status.signal(), Some(6), "{name}: {:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let want = want.replace("FILE", &src.display().to_string());
    assert_eq!(stderr, format!("{want}\n"), "{name}");
}

#[test]
fn every_panic_kind_aborts_with_its_message_and_location() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bounds = "module p\n\nfunc get(%a: Float64[]Shape[?], %i: Int64) -> Float64 {\nentry:\n  %v: Float64 = index.load %a[%i] !loc \"k.py\":3:7\n  return %v\n}\n\nfunc main() -> Int64 {\nentry:\n  %n: Int64 = const 3\n  %a: Float64[] = alloc %n\n  %i: Int64 = const 5\n  %v: Float64 = call get(%a, %i)\n  %r: Int64 = cast %v\n  return %r\n}\n";
    expect_panic(
        d,
        "bounds",
        bounds,
        &["-O2"],
        "panic: index out of bounds: index 5 is out of range for axis 0 with size 3 at k.py:3:7",
    );
    let div = panic_program(
        "  %a: Int64 = const 7\n  %z: Int64 = const 0\n  %r: Int64 = fdiv %a, %z !loc \"k.py\":4:9\n  return %r\n",
    );
    expect_panic(d, "div", &div, &["-O2"], "panic: division by zero at k.py:4:9");
    let modulo = panic_program("  %a: Int64 = const 7\n  %z: Int64 = const 0\n  %r: Int64 = mod %a, %z\n  return %r\n");
    expect_panic(d, "modulo", &modulo, &["-O1"], "panic: modulo by zero at FILE:7:3");
    let ovf = panic_program(
        "  %a: Int64 = const 9223372036854775807\n  %one: Int64 = const 1\n  %r: Int64 = add %a, %one !loc \"k.py\":5:1\n  return %r\n",
    );
    expect_panic(d, "overflow", &ovf, &["-O0"], "panic: integer overflow at k.py:5:1");
    expect_panic(
        d,
        "overflow_forced",
        &ovf,
        &["-O2", "-C", "overflow-checks=on"],
        "panic: integer overflow at k.py:5:1",
    );
    let shift = panic_program(
        "  %a: Int64 = const 7\n  %c: Int64 = const -1\n  %r: Int64 = shl %a, %c !loc \"k.py\":6:2\n  return %r\n",
    );
    expect_panic(d, "shift", &shift, &["-O2"], "panic: negative shift count at k.py:6:2");
    let exp = panic_program(
        "  %a: Int64 = const 7\n  %c: Int64 = const -2\n  %r: Int64 = pow %a, %c !loc \"k.py\":7:3\n  return %r\n",
    );
    expect_panic(d, "exponent", &exp, &["-O2"], "panic: negative exponent at k.py:7:3");
    let explicit = panic_program(
        "  %m: Str = const \"bad value {} (limit {}, 100%)\"\n  %a: Int64 = const -4\n  %b: Int64 = const 10\n  call postc.panic(%m, %a, %b) !loc \"k.py\":8:4\n  unreachable\n",
    );
    expect_panic(d, "explicit", &explicit, &["-O0"], "panic: bad value -4 (limit 10, 100%) at k.py:8:4");
    let unreachable = panic_program("  unreachable !loc \"k.py\":9:5\n");
    expect_panic(d, "unreach", &unreachable, &["-O2"], "panic: entered unreachable code at k.py:9:5");
}

#[test]
fn overflow_wraps_from_o1() {
    let dir = tempfile::tempdir().unwrap();
    let text = panic_program(
        "  %a: Int8 = const 127\n  %one: Int8 = const 1\n  %r: Int8 = add %a, %one\n  %w: Int64 = cast %r\n  %k: Int64 = const 200\n  %x: Int64 = add %w, %k\n  return %x\n",
    );
    let src = write(dir.path(), "w.pir", &text);
    run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "exe", "-O1"]).arg(&src));
    assert_eq!(Command::new(dir.path().join("w")).status().unwrap().code(), Some(72));
}

#[test]
fn several_files_compile_into_one_output() {
    let dir = tempfile::tempdir().unwrap();
    let lib = write(
        dir.path(),
        "mathlib.pir",
        "module mathlib\nalias triple3 = triple\nexport triple, triple3\n\nfunc triple(%x: Int64) -> Int64 {\nentry:\n  %k: Int64 = const 3\n  %r: Int64 = mul %x, %k\n  return %r\n}\n\nfunc hidden(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n",
    );
    let app = write(
        dir.path(),
        "app.pir",
        "module app\nimport post mathlib: triple\n\nfunc main() -> Int64 {\nentry:\n  %a: Int64 = const 5\n  %r: Int64 = call triple(%a)\n  return %r\n}\n",
    );
    run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "exe"]).arg(&app).arg(&lib));
    assert_eq!(Command::new(dir.path().join("app")).status().unwrap().code(), Some(15));
    run_ok(driver().current_dir(dir.path()).args(["compile", "--emit", "obj", "-O0"]).arg(&app).arg(&lib));
    let out = run_ok(Command::new("nm").arg("--defined-only").arg(dir.path().join("app.o")));
    let syms = String::from_utf8_lossy(&out.stdout);
    assert!(syms.contains(" T triple\n") && syms.contains(" T triple3\n") && syms.contains(" T main\n"), "{syms}");
    assert!(!syms.contains(" T hidden") && !syms.contains(" T mathlib.hidden"), "{syms}");
}

#[test]
fn boundary_calls_are_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "b.pir",
        "module b\nimport boundary numpy: asarray\n\nfunc f(%x: Int64) -> Int64 {\nentry:\n  %r: Int64 = call asarray(%x) !loc \"k.py\":2:5\n  return %r\n}\n",
    );
    let out = driver().current_dir(dir.path()).args(["compile"]).arg(&src).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        panic!("a boundary call compiled: {stderr}");
    }
    assert!(stderr.contains("k.py:2:5") && stderr.contains("boundary import"), "{stderr}");
}

/// The disassembly of each global function of an object, with addresses
/// removed and the alignment padding after it (which depends on what the
/// linker placed next) dropped.
fn function_code(obj: &Path) -> std::collections::BTreeMap<String, Vec<String>> {
    let nm = run_ok(Command::new("nm").arg("--defined-only").arg(obj));
    let globals: std::collections::HashSet<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().collect::<Vec<_>>().get(1..3).map(|x| (x[0] == "T", x[1].to_owned())))
        .filter_map(|(t, n)| t.then_some(n))
        .collect();
    let dump = run_ok(Command::new("objdump").args(["-d", "--no-show-raw-insn"]).arg(obj));
    let mut out = std::collections::BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in String::from_utf8_lossy(&dump.stdout).lines() {
        if let Some(name) = line.strip_suffix(">:").and_then(|l| l.split_once(" <")).map(|(_, n)| n.to_owned()) {
            cur = globals.contains(&name).then_some(name.clone());
            if cur.is_some() {
                out.insert(name, Vec::new());
            }
            continue;
        }
        let Some(c) = &cur else { continue };
        let Some((_, insn)) = line.split_once(":\t") else { continue };
        if insn.contains("nop") || insn.trim() == "xchg   %ax,%ax" {
            continue;
        }
        // Branch targets print as `ADDR <fn+OFF>`: keep the symbolic part.
        let insn: String = insn
            .split(' ')
            .filter(|w| {
                !(w.len() > 0 && w.chars().all(|ch| ch.is_ascii_hexdigit()) && insn.contains(&format!("{w} <")))
            })
            .collect::<Vec<_>>()
            .join(" ");
        out.get_mut(c).unwrap().push(insn);
    }
    out
}

#[test]
fn objects_are_byte_identical_for_any_thread_count() {
    // Large enough to be split into several codegen units.
    let dir = tempfile::tempdir().unwrap();
    let m = postc_ir::gen::large_module(40, 400, 11);
    assert!(m.num_insts() >= 2 * postc_codegen::UNIT_THRESHOLD, "{} instructions", m.num_insts());
    let src = dir.path().join("large.pir");
    std::fs::write(&src, postc_ir::print::print_module(&m)).unwrap();
    let mut objects = Vec::new();
    for j in ["1", "2", "3"] {
        let o = dir.path().join(format!("large-{j}.o"));
        let out = driver().args(["compile", "-O2", "--time-passes", "-j", j, "-o"]).arg(&o).arg(&src).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("llvm units"), "compiled as a single unit");
        objects.push(std::fs::read(&o).unwrap());
    }
    assert!(objects[0] == objects[1] && objects[1] == objects[2], "objects differ between -j1, -j2 and -j3");
}

#[test]
fn codegen_units_do_not_change_the_result() {
    // Programs small enough for one unit, compiled with several threads:
    // every exported function's code is the same, and so is the optimised
    // LLVM IR.
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for prog in ["collatz", "floordiv", "hashing", "bits", "complex", "stats", "strings"] {
        let src = root.join(format!("tests/programs/{prog}.pir"));
        let mut seen = Vec::new();
        for j in ["1", "4"] {
            let o = dir.path().join(format!("{prog}-{j}.o"));
            run_ok(driver().args(["compile", "-O2", "-j", j, "-o"]).arg(&o).arg(&src));
            seen.push(function_code(&o));
            let ll = dir.path().join(format!("{prog}-{j}.ll"));
            run_ok(driver().args(["compile", "--emit", "llvm-ir", "-O2", "-j", j, "-o"]).arg(&ll).arg(&src));
        }
        assert!(!seen[0].is_empty());
        assert_eq!(seen[0].keys().collect::<Vec<_>>(), seen[1].keys().collect::<Vec<_>>(), "{prog}");
        for (name, code) in &seen[0] {
            assert_eq!(code, &seen[1][name], "{prog}: `{name}` differs between -j1 and -j4");
        }
        let a = std::fs::read(dir.path().join(format!("{prog}-1.ll"))).unwrap();
        let b = std::fs::read(dir.path().join(format!("{prog}-4.ll"))).unwrap();
        assert_eq!(a, b, "{prog}: llvm-ir differs");
    }
}

/// A loop to `len(x)` that stores into `y[i]`, shorter than `x`: at -O2 and
/// -O3 the bounds check of `y[i]` leaves the loop for the iterations known
/// to be in bounds, and the program must still write every element before
/// the failing one and then panic at exactly that one.
#[test]
fn range_checks_against_another_extent_panic_at_the_same_element() {
    let dir = tempfile::tempdir().unwrap();
    let prog = "module p

func fill(%x: Float64[]Shape[?], %y: &Float64[]Shape[?]) {
entry:
  %n: Int64 = dim %x, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %x[%i]
  %f: Float64 = cast %i
  %w: Float64 = add %v, %f
  index.store %y[%i], %w !loc \"k.py\":12:5
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return
}

func total(%y: Float64[]Shape[?]) -> Float64 {
entry:
  %n: Int64 = dim %y, 0
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %acc: Float64 = %fz
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %v: Float64 = index.load %y[%i]
  %a2: Float64 = add %acc, %v
  set %acc = %a2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

func main() -> Int64 {
entry:
  %nx: Int64 = const NX
  %ny: Int64 = const 7
  %x: Float64[] = alloc %nx
  %y: Float64[] = alloc %ny
  call fill(%x, %y)
  %t: Float64 = call total(%y)
  %r: Int64 = cast %t
  return %r
}
";
    for level in ["-O2", "-O3"] {
        // In bounds: y[i] = i for i < 7, so main returns 0+1+...+6 = 21.
        let ok = write(dir.path(), "ok.pir", &prog.replace("NX", "7"));
        let exe = dir.path().join("ok");
        run_ok(driver().args(["compile", "--emit", "exe", level, "-o"]).arg(&exe).arg(&ok));
        assert_eq!(Command::new(&exe).status().unwrap().code(), Some(21), "{level}");
        expect_panic(
            dir.path(),
            "short",
            &prog.replace("NX", "12"),
            &[level],
            "panic: index out of bounds: index 7 is out of range for axis 0 with size 7 at k.py:12:5",
        );
    }
}

#[test]
fn fast_math_relaxes_float_arithmetic_only_in_code_generation() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "dot.py",
        "from postyp import Float64\n\ndef dot(a: Float64[:], b: Float64[:]) -> Float64:\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += a[i] * b[i]\n    return s\n",
    );
    let ir = |extra: &[&str]| {
        let out = dir.path().join("dot.ll");
        run_ok(driver().args(["compile", "-O2", "--emit", "llvm-ir"]).args(extra).arg(&src).arg("-o").arg(&out));
        std::fs::read_to_string(out).unwrap()
    };
    let relaxed = ir(&["-C", "fast-math=on"]);
    assert!(relaxed.contains("fadd reassoc contract"), "{relaxed}");
    // Comparisons keep their NaN semantics: no flags on `fcmp`.
    assert!(!relaxed.contains("fcmp reassoc") && !relaxed.contains("fcmp fast"));
    let strict = ir(&[]);
    assert!(!strict.contains("reassoc") && !strict.contains("contract"), "{strict}");
    // The IR passes have nothing to relax: `opt` refuses the option.
    let out = driver().args(["opt", "-C", "fast-math=on"]).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`compile` takes it"));
}

/// Portable code for wheels: `--cpu generic` and the x86-64
/// microarchitecture levels are CPUs the driver accepts, and they decide
/// which vector instructions the code uses (the baseline's 128-bit SSE, or
/// AVX2's 256-bit registers from `x86-64-v3`).
#[cfg(target_arch = "x86_64")]
#[test]
fn portable_cpu_levels_decide_the_vector_instructions() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/saxpy.py");
    let ymm = |cpu: &str| {
        let out = dir.path().join(format!("{cpu}.s"));
        run_ok(driver().args(["compile", "-O3", "--emit", "asm", "--cpu", cpu, "-o"]).arg(&out).arg(&src));
        let asm = std::fs::read_to_string(&out).unwrap();
        assert!(asm.contains("xmm"), "{cpu}: no vector code at all");
        asm.contains("ymm")
    };
    assert!(!ymm("generic"));
    assert!(!ymm("x86-64-v2"));
    assert!(ymm("x86-64-v3"));
    assert!(ymm("x86-64-v4"));
}

/// The body of the LLVM function `name` in the IR text `ll`.
fn llvm_function<'a>(ll: &'a str, name: &str) -> &'a str {
    let start = ll.find(&format!("@{name}(")).unwrap_or_else(|| panic!("no function {name} in\n{ll}"));
    let end = start + ll[start..].find("\n}\n").expect("the end of the function");
    &ll[start..end]
}

/// A view that never outlives its call is built in the caller's frame,
/// with no `postc_rt_view` header in the arena; one that is returned (or
/// passed to a call that may return it) keeps its header. An array whose
/// every element the code writes first (`np.empty`, a whole-array
/// expression's result) is allocated without zeroing; `np.zeros` is zeroed.
#[test]
fn views_and_fresh_arrays_take_only_the_runtime_work_they_need() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "arrays.py",
        "import numpy as np\nfrom postyp import Float64, Int64\n\n\
def total(r: Float64[:]) -> Float64:\n    s = 0.0\n    for j in range(len(r)):\n        s += r[j]\n    return s\n\n\
def row_sums(a: Float64[:, :]) -> Float64:\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += total(a[i][1:])\n    return s\n\n\
def tail(r: Float64[:]) -> Float64[:]:\n    return r[1:]\n\n\
def tails(a: Float64[:, :]) -> Float64:\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += tail(a[i])[0]\n    return s\n\n\
def axpy(x: Float64[:], y: Float64[:]) -> Float64[:]:\n    return 2.0 * x + y\n\n\
def empty(n: Int64) -> Float64[:]:\n    return np.empty(n)\n\n\
def zeros(n: Int64) -> Float64[:]:\n    return np.zeros(n)\n",
    );
    let out = dir.path().join("arrays.ll");
    run_ok(driver().args(["compile", "-O0", "--emit", "llvm-ir"]).arg(&src).arg("-o").arg(&out));
    let ll = std::fs::read_to_string(out).unwrap();
    let calls_view = |f: &str| llvm_function(&ll, f).contains("@postc_rt_view(");
    assert!(!calls_view("row_sums"), "{}", llvm_function(&ll, "row_sums"));
    assert!(calls_view("tail") && calls_view("tails"), "{ll}");
    for (f, entry) in [
        ("axpy", "@postc_rt_alloc_array_empty("),
        ("empty", "@postc_rt_alloc_array_empty("),
        ("zeros", "@postc_rt_alloc_array("),
    ] {
        assert!(llvm_function(&ll, f).contains(entry), "{f} does not call {entry}:\n{}", llvm_function(&ll, f));
    }
    assert!(!llvm_function(&ll, "zeros").contains("_empty("));
}
