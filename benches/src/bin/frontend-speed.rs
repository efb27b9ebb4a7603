//! POST Python frontend throughput: parse, check and lower a generated
//! module of at least 10^5 lines on one core, side by side with CPython's
//! own `compile()` of the same file to bytecode, in the same run.
//!
//!     cargo run --release -p postc-benches --bin frontend-speed [RUNS]

use std::fmt::Write as _;
use std::time::Instant;

/// One generated function: loops, branches, indexing, calls, casts.
fn function(out: &mut String, i: usize) {
    let _ = write!(
        out,
        r#"
def k{i}(x: Float64[:], y: Out[Float64[:]], a: Float64, n: Int64) -> Float64:
    """Kernel {i}."""
    s = 0.0
    m = min(n, len(x))
    for j in range(m):
        v = x[j] * a + {i}.5
        if v > 0.0 and j % 3 == 1:
            s += v * v
        elif v < -1.0:
            s -= sqrt(-v)
        else:
            s = s * 0.5 + float(j)
        y[j] = v
    k = 0
    while k < m:
        k += 2
        if k > 100:
            break
    return s + Float64(k) * EPS
"#
    );
}

fn generate(min_lines: usize) -> String {
    let mut s = String::from(
        "\"\"\"Generated kernels.\"\"\"\nfrom postyp import Float64, Int64, Out\nfrom postc.math import sqrt\n\nEPS: Float64 = 1e-12\n",
    );
    let mut i = 0;
    while s.lines().count() < min_lines {
        for _ in 0..100 {
            function(&mut s, i);
            i += 1;
        }
    }
    s
}

fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let src = generate(100_000);
    let lines = src.lines().count();
    let mb = src.len() as f64 / 1e6;
    let dir = tempfile_dir();
    let path = dir.join("generated.py");
    std::fs::write(&path, &src).expect("write the generated module");

    let mut best = f64::INFINITY;
    let mut insts = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let program = postc_frontend::lower_source("generated.py", &src).expect("the generated module lowers");
        best = best.min(t.elapsed().as_secs_f64());
        insts = program.modules.iter().map(|m| m.num_insts()).sum();
    }
    println!("generated module: {lines} lines, {:.2} MB, {insts} IR instructions", mb);
    println!(
        "postc frontend (parse + check + lower), best of {runs}: {:.1} ms = {:.1} MB/s, {:.0} lines/s",
        best * 1e3,
        mb / best,
        lines as f64 / best
    );

    // CPython's compile() of the same text, timed inside one interpreter.
    let script = format!(
        "import time\nsrc = open({:?}).read()\nbest = min((lambda t: (compile(src, 'generated.py', 'exec'), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range({runs}))\nprint(best)",
        path.display().to_string()
    );
    match std::process::Command::new("python3").args(["-c", &script]).output() {
        Ok(out) if out.status.success() => {
            let py: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(f64::NAN);
            println!(
                "CPython compile() to bytecode, best of {runs}: {:.1} ms = {:.1} MB/s, {:.0} lines/s",
                py * 1e3,
                mb / py,
                lines as f64 / py
            );
            println!("postc frontend / CPython compile(): {:.2}x the time", best / py);
        }
        _ => println!("python3 not available: no CPython comparison"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("postc-frontend-speed-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("a temporary directory");
    d
}
