//! The IR that the frontend makes from every program of `tests/py/`
//! verifies, prints as `.pir` text that parses back to the same module and
//! prints the same again (so `postc-driver check` accepts what `lower`
//! writes and `fmt` leaves it as it is), and carries the `.py` location of
//! every instruction.

use postc_ir::{ModuleId, Program};
use postc_testkit::corpus::repo_root;
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    std::env::set_current_dir(repo_root()).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/py")
        .expect("tests/py exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.with_extension("expected").is_file())
        .collect();
    files.sort();
    files
}

fn lower(f: &Path) -> Program {
    match postc_frontend::lower_files(&[f.to_path_buf()], Vec::new()) {
        Ok(p) => p,
        Err((sources, diags)) => panic!("{} does not lower:\n{}", f.display(), sources.render(&diags, false)),
    }
}

#[test]
fn lowered_programs_verify_and_round_trip_through_text() {
    for f in programs() {
        let program = lower(&f);
        let diags = postc_ir::verify::verify_program(&program);
        assert!(diags.is_empty(), "{}: {diags:?}", f.display());
        for m in program.modules.iter() {
            let text = postc_ir::print::print_module(m);
            let back = postc_ir::parse::parse_module("lowered.pir", text.as_bytes())
                .unwrap_or_else(|d| panic!("{}: the printed IR does not parse: {d:?}\n{text}", f.display()));
            assert_eq!(postc_ir::print::print_module(&back), text, "{}: print is not a fixed point", f.display());
            if let Some(diff) = m.structural_diff(&back) {
                panic!("{}: the module changes through text: {diff}", f.display());
            }
        }
    }
}

#[test]
fn every_instruction_is_located_in_the_python_source() {
    for f in programs() {
        let program = lower(&f);
        let m = &program.modules[ModuleId::from_u32(0)];
        for func in m.functions.iter() {
            let in_blocks = func.body.blocks.iter().flat_map(|b| b.start..b.end).map(postc_ir::ValueId::from_u32);
            for v in in_blocks {
                let loc = func
                    .body
                    .loc(v)
                    .unwrap_or_else(|| panic!("{}: {} has an unlocated instruction", f.display(), func.name));
                let path = m.files.path(loc.file);
                assert!(path.ends_with(".py") && !loc.implicit, "{}: {} located at {path}", f.display(), func.name);
            }
        }
    }
}

#[test]
fn the_corpus_uses_every_dtype_and_the_statement_kinds() {
    let mut dtypes = std::collections::BTreeSet::new();
    let mut multi_module = 0;
    for f in programs() {
        let program = lower(&f);
        if program.modules.len() > 1 {
            multi_module += 1;
        }
        for m in program.modules.iter() {
            for func in m.functions.iter() {
                for v in func.body.tags.ids() {
                    if let Some(t) = func.body.ty(v) {
                        dtypes.insert(m.types.get(t).dtype);
                    }
                }
            }
        }
    }
    let missing: Vec<_> = postc_ir::DType::ALL.iter().filter(|d| !dtypes.contains(d)).collect();
    assert!(missing.is_empty(), "dtypes no program uses: {missing:?}");
    assert!(multi_module >= 2, "only {multi_module} multi-module programs");
}

/// CPython runs every program with the pure-Python stand-ins of `postyp`,
/// `postc` and `postc.math`, and must give exactly the committed expected
/// results that the compiled code and the interpreter are checked against.
#[test]
fn cpython_gives_the_expected_results() {
    let root = repo_root();
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/py/oracle.py"))
        .arg("--check")
        .output()
        .expect("python3 (with NumPy, from scripts/setup) runs the oracle");
    assert!(
        out.status.success(),
        "tests/py/oracle.py --check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `script` under CPython with the stand-ins and the POST Python
/// source `src` importable as module `name`; returns what it prints.
fn run_under_cpython(name: &str, src: &str, script: &str) -> String {
    let dir = std::env::temp_dir().join(format!("postc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.py")), src).unwrap();
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .env("PYTHONPATH", format!("{}:{}", repo_root().join("python").display(), dir.display()))
        .output()
        .expect("python3 (with NumPy, from scripts/setup) runs the stand-ins");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A `@kernel` reading its launch coordinates (`thread_idx.x`, ...) runs
/// in the interpreter's launch as under CPython's stand-in `launch`.
#[test]
fn kernels_read_their_launch_coordinates_as_under_cpython() {
    use postc_ir::interp::{Array, InterpOptions, Interpreter, Value};
    let src = r#"
from postyp import Float64, Int64, Out
from postc import kernel, thread_idx, block_idx, block_dim

@kernel
def fill(out: Out[Float64[:, :]], scale: Float64) -> None:
    i = block_idx.x * block_dim.x + thread_idx.x
    j = thread_idx.y
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = scale * i + j
"#;
    let program = postc_frontend::lower_source("fill.py", src).unwrap_or_else(|d| panic!("{d:?}"));
    let (rows, cols) = (5usize, 3usize);
    let out = Array::from_values(postc_ir::DType::Float64, &[rows, cols], &vec![Value::f64(-1.0); rows * cols]);
    let args = [Value::Array(out.clone()), Value::f64(10.0)];
    let mut interp = Interpreter::new(&program, InterpOptions { overflow_checks: true, fuel: Some(1_000_000) });
    interp.launch(ModuleId::from_u32(0), "fill", [2, 1, 1], [4, 3, 1], &args).unwrap();
    let got: Vec<f64> = out
        .to_values()
        .iter()
        .map(|v| match v {
            Value::Float(_, x) => *x,
            other => panic!("{other:?}"),
        })
        .collect();

    let script = "import numpy as np\nimport fill, postc\na = np.full((5, 3), -1.0)\n\
                  postc.launch(fill.fill, (2, 1, 1), (4, 3, 1), a, np.float64(10.0))\n\
                  print(' '.join(repr(float(x)) for x in a.ravel()))";
    let out = run_under_cpython("fill", src, script);
    let want: Vec<f64> = out.split_whitespace().map(|x| x.parse().unwrap()).collect();
    assert_eq!(got, want);
    assert_eq!(got[3 * 3 + 2], 32.0, "out[3, 2] = 10 * 3 + 2");
}

/// Deeply nested source (a sum of 100,000 terms, 50,000 unary minuses,
/// 3,000 parentheses) lowers without exhausting the stack.
#[test]
fn deep_expressions_lower() {
    let header = "from postyp import Int64\ndef f(x: Int64) -> Int64:\n    return ";
    let texts = [
        format!("{header}{}\n", vec!["x"; 100_000].join(" + ")),
        format!("{header}{}x\n", "-".repeat(50_000)),
        format!("{header}{}x{}\n", "(".repeat(3_000), ")".repeat(3_000)),
    ];
    for t in &texts {
        let program = postc_frontend::lower_source("deep.py", t).unwrap_or_else(|d| panic!("{d:?}"));
        assert!(postc_ir::verify::verify_program(&program).is_empty());
    }
}

/// A cooperating kernel (a block-shared array, barriers, atomic adds): a
/// block sum reduced in shared memory, then added atomically into the
/// total, runs in the interpreter's launch as under CPython's stand-in
/// (one Python thread per GPU thread, meeting at `sync_threads`).
#[test]
fn cooperating_kernels_agree_with_cpython() {
    use postc_ir::interp::{Array, InterpOptions, Interpreter, Value};
    let src = r#"
from postyp import Float64, Int64, Out
from postc import kernel, thread_idx, block_idx, block_dim, shared, sync_threads, atomic_add

@kernel
def block_sums(x: Float64[:], total: Out[Float64[:]], counts: Out[Int64[:]]) -> None:
    buf = shared(Float64[8])
    t = thread_idx.x
    i = block_idx.x * block_dim.x + t
    v = 0.0
    if i < len(x):
        v = x[i]
    buf[t] = v
    sync_threads()
    step = 4
    while step > 0:
        if t < step:
            buf[t] = buf[t] + buf[t + step]
        sync_threads()
        step = step // 2
    if t == 0:
        atomic_add(total, 0, buf[0])
        atomic_add(counts, block_idx.x, 1)
"#;
    let program = postc_frontend::lower_source("coop.py", src).unwrap_or_else(|d| panic!("{d:?}"));
    let n = 21usize;
    let xs: Vec<Value> = (0..n).map(|k| Value::f64(k as f64 * 0.5 + 1.0)).collect();
    let x = Array::from_values(postc_ir::DType::Float64, &[n], &xs);
    let total = Array::from_values(postc_ir::DType::Float64, &[1], &[Value::f64(0.0)]);
    let counts = Array::from_values(postc_ir::DType::Int64, &[3], &vec![Value::Int(postc_ir::DType::Int64, 0); 3]);
    let args = [Value::Array(x), Value::Array(total.clone()), Value::Array(counts.clone())];
    let mut interp = Interpreter::new(&program, InterpOptions { overflow_checks: true, fuel: Some(10_000_000) });
    interp.launch(ModuleId::from_u32(0), "block_sums", [3, 1, 1], [8, 1, 1], &args).unwrap();
    let got_total = match total.to_values()[0] {
        Value::Float(_, x) => x,
        ref other => panic!("{other:?}"),
    };
    let got_counts: Vec<String> = counts.to_values().iter().map(|v| format!("{v:?}")).collect();

    let script = "import numpy as np\nimport coop, postc\n\
                  x = np.arange(21) * 0.5 + 1.0\nt = np.zeros(1)\nc = np.zeros(3, dtype=np.int64)\n\
                  postc.launch(coop.block_sums, (3, 1, 1), (8, 1, 1), x, t, c)\nprint(repr(float(t[0])), list(map(int, c)))";
    let out = run_under_cpython("coop", src, script);
    let (want_total, want_counts) = out.trim().split_once(' ').unwrap();
    assert_eq!(got_total, want_total.parse::<f64>().unwrap(), "{out}");
    assert_eq!(want_counts, "[1, 1, 1]");
    assert_eq!(got_counts.len(), 3);
    let sum: f64 = (0..n).map(|k| k as f64 * 0.5 + 1.0).sum();
    assert_eq!(got_total, sum);
}

/// The real kernels of `tests/realworld/` lower without a panic, each
/// accepted or refused with diagnostics (a file's call recipes are
/// CPython's, not POST Python): the lowering reads the typecheck's types
/// only, and refuses a body with a binding they do not hold.
#[test]
fn real_world_kernels_lower_with_the_typecheck_types() {
    std::env::set_current_dir(repo_root()).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/realworld")
        .expect("tests/realworld exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.file_stem().is_some_and(|s| s != "report"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "the corpus's files are missing: {files:?}");
    for f in files {
        let lowered = std::panic::catch_unwind(|| postc_frontend::lower_files(&[f.clone()], Vec::new()).is_ok());
        assert!(lowered.is_ok(), "{} panics in the frontend", f.display());
    }
}

/// The final lowering of every program reads the typecheck's type of each
/// expression it lowers (the literal `None` aside): the lowering's checks
/// of values the typecheck leaves untyped never run on a valid program.
#[test]
fn valid_programs_lower_only_typed_expressions() {
    let untyped: Vec<String> = programs()
        .iter()
        .flat_map(|f| postc_frontend::untyped_in_final_lowering(std::slice::from_ref(f), Vec::new()))
        .collect();
    assert!(untyped.is_empty(), "lowered without a type:\n{}", untyped.join("\n"));
}

/// Every value of every program bound to a new local before it is used
/// (`tests/bind_probe.py`) still lowers, or fails only as the program
/// does not: no binding is left untyped by the typecheck ("the type of
/// `x` was not inferred"), which reads the same expressions the lowering
/// compiles as operands.
#[test]
fn values_bound_to_locals_are_typed() {
    let root = repo_root();
    let probe = std::env::temp_dir().join(format!("postc-bind-probe-{}", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(root.join("tests/bind_probe.py"))
        .arg(&probe)
        .status()
        .expect("python3 runs the probe");
    assert!(status.success());
    let mut failures = Vec::new();
    for f in programs() {
        let name = f.file_name().unwrap();
        if let Err((sources, diags)) = postc_frontend::lower_files(&[probe.join(name)], Vec::new()) {
            let text = sources.render(&diags, false);
            if text.contains("internal error") {
                failures.push(text);
            }
        }
        // A function that still lowers reads a type for what it binds.
        for untyped in postc_frontend::untyped_in_final_lowering(&[probe.join(name)], Vec::new()) {
            failures.push(format!("lowered without a type: {untyped}"));
        }
    }
    let _ = std::fs::remove_dir_all(&probe);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every program of `tests/py` with one value misused
/// (`tests/misuse_probe.py`: an expression replaced by `None`, a tuple, a
/// string, an array, ...) is refused by the typecheck or lowers: the
/// lowering, which runs only on what the typecheck accepts, finds no
/// error of its own (an internal error).
#[test]
fn misused_values_are_refused_by_the_typecheck() {
    let root = repo_root();
    let probe = std::env::temp_dir().join(format!("postc-misuse-probe-{}", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(root.join("tests/misuse_probe.py"))
        .arg(&probe)
        .args(["400", "0"])
        .status()
        .expect("python3 runs the probe");
    assert!(status.success());
    let mut copies: Vec<PathBuf> = std::fs::read_dir(&probe)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    copies.sort();
    assert!(copies.len() >= 350, "the probe wrote {} copies", copies.len());
    let mut failures = Vec::new();
    for copy in &copies {
        let lowered = std::panic::catch_unwind(|| postc_frontend::lower_files(std::slice::from_ref(copy), Vec::new()));
        match lowered {
            Err(_) => failures.push(format!("{}: the frontend panicked", copy.display())),
            Ok(Err((sources, diags))) => {
                let text = sources.render(&diags, false);
                if text.contains("internal error") {
                    let first =
                        std::fs::read_to_string(copy).unwrap_or_default().lines().next().unwrap_or("").to_owned();
                    failures.push(format!("{first}\n{text}"));
                }
            }
            Ok(Ok(_)) => {}
        }
    }
    let _ = std::fs::remove_dir_all(&probe);
    assert!(failures.is_empty(), "{} of {} copies:\n{}", failures.len(), copies.len(), failures.join("\n"));
}
