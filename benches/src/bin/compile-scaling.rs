//! Compile time of long and deep POST Python programs at three sizes (a
//! tenth, half and all of the largest), best of N rounds, with the ratio of
//! the largest size's time to each smaller one's (linear: about 10 and 2;
//! quadratic: about 100 and 4). The time is the process's CPU time (all
//! threads), which other work on a shared machine disturbs less than the
//! wall time. Each shape is one that took time growing faster than its
//! size:
//!
//! - `and`: `return x > 0 and x > 0 and ...`, checked (frontend and
//!   verifier: the dominator tree of the join of every term);
//! - `all`: an `__all__` naming functions that do not exist, on one line,
//!   checked and its diagnostics rendered; and every one of those
//!   diagnostics rendered (`SourceMap::render`, which cuts the long line);
//! - `elif`: an `if`/`elif` chain, checked and compiled to an object at -O2;
//! - `nested`: `if`s nested in one another, checked (the source grows as
//!   the square of the depth);
//! - `pow`: `x ** x ** ...` on Int64, `subs`: `a[a[...a[0]...]]`, `cond`: a
//!   conditional expression of many arms (`0 if x == 0 else 1 if ...`),
//!   each compiled to an object at -O2;
//! - `ufunc`: elementwise `@ufunc`s, and as many plain functions, compiled
//!   to an object at -O2.
//!
//! Compiling uses one thread. `compile-scaling [ROUNDS] [SHAPE...]`
//! (defaults: 3, every shape).

use postc_codegen::{CodegenOptions, EmitKind, OptLevel};
use postc_ir::diag::{Diagnostic, SourceMap};
use postc_ir::Program;
use std::fmt::Write as _;

const HEADER: &str = "from postyp import Float64, Int64\nfrom postc import ufunc\n\n__all__ = [\"f\"]\n\n\n";

fn and_chain(n: usize) -> String {
    format!("{HEADER}def f(x: Int64) -> bool:\n    return {}\n", vec!["x > 0"; n].join(" and "))
}

fn all_missing(n: usize) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("\"g{i}\"")).collect();
    format!("from postyp import Int64\n\n__all__ = [{}]\n", names.join(", "))
}

fn elif_chain(n: usize) -> String {
    let mut t = format!("{HEADER}def f(x: Int64) -> Int64:\n    if x == 0:\n        return 0\n");
    for i in 1..n {
        let _ = write!(t, "    elif x == {i}:\n        return {i}\n");
    }
    t + "    return -1\n"
}

fn nested_ifs(n: usize) -> String {
    let mut t = format!("{HEADER}def f(x: Int64) -> Int64:\n    s = 0\n");
    for i in 0..n {
        let pad = " ".repeat(4 + i);
        let _ = write!(t, "{pad}if x > {i}:\n{pad} s = s + 1\n");
    }
    t + "    return s\n"
}

fn pow_tower(n: usize) -> String {
    format!("{HEADER}def f(x: Int64) -> Int64:\n    return {}\n", vec!["x"; n].join(" ** "))
}

fn subscripts(n: usize) -> String {
    format!("{HEADER}def f(a: Int64[:]) -> Int64:\n    return {}0{}\n", "a[".repeat(n), "]".repeat(n))
}

fn conditional(n: usize) -> String {
    let arms: String = (0..n).map(|i| format!("{i} if x == {i} else ")).collect();
    format!("{HEADER}def f(x: Int64) -> Int64:\n    return {arms}-1\n")
}

fn functions(n: usize, decorator: &str) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("\"u{i}\"")).collect();
    let mut t = format!("from postyp import Float64\nfrom postc import ufunc\n\n__all__ = [{}]\n", names.join(", "));
    for i in 0..n {
        let _ = write!(t, "\n\n{decorator}def u{i}(x: Float64) -> Float64:\n    return x + {i}.0\n");
    }
    t
}

fn lower(text: &str) -> Result<Program, Vec<Diagnostic>> {
    let p = postc_frontend::lower_source("scale.py", text)?;
    let diags = postc_ir::verify::verify_program(&p);
    if diags.is_empty() {
        Ok(p)
    } else {
        Err(diags)
    }
}

/// `check`: lower and verify; a program with errors has them rendered.
fn check(text: &str) -> usize {
    match lower(text) {
        Ok(p) => p.modules.iter().map(|m| m.num_insts()).sum(),
        Err(d) => {
            let mut sources = SourceMap::new();
            sources.add("scale.py", text);
            sources.render(&d, false).len()
        }
    }
}

/// `compile -O2 --emit obj`, after `check`.
fn compile(text: &str) -> usize {
    let p = lower(text).unwrap_or_else(|d| panic!("does not lower: {d:?}"));
    let options = CodegenOptions { units: Some(1), ..CodegenOptions::for_level(OptLevel::O2) };
    postc_codegen::llvm::emit(&p, &options, EmitKind::Object)
        .unwrap_or_else(|d| panic!("does not compile: {d:?}"))
        .len()
}

/// Every diagnostic of an `__all__` of `n` missing names, rendered.
fn render_all(text: &str) -> usize {
    let line = text.lines().nth(2).expect("the __all__ line");
    let mut diags = Vec::new();
    let mut at = 0;
    while let Some(i) = line[at..].find('"') {
        let start = at + i;
        let end = start + 1 + line[start + 1..].find('"').expect("a closing quote");
        diags.push(Diagnostic::error(
            "`__all__` names a missing function",
            Some(postc_ir::Pos::new("scale.py", 3, start as u32 + 1, (end - start + 1) as u32)),
        ));
        at = end + 1;
    }
    let mut sources = SourceMap::new();
    sources.add("scale.py", text);
    sources.render(&diags, false).len()
}

/// CPU seconds the process has used, all threads.
fn cpu_time() -> f64 {
    // SAFETY: getrusage writes the struct it is given, a local.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

fn best(rounds: usize, f: impl Fn() -> usize) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = cpu_time();
            std::hint::black_box(f());
            cpu_time() - t
        })
        .fold(f64::INFINITY, f64::min)
}

fn measure(rounds: usize, what: &str, n: usize, make: fn(usize) -> String, run: fn(&str) -> usize) {
    let sizes = [n / 10, n / 2, n];
    let mut t = [0.0; 3];
    for (k, size) in sizes.into_iter().enumerate() {
        let text = make(size);
        t[k] = best(rounds, || run(&text));
    }
    println!("{what}:");
    for (k, size) in sizes.into_iter().enumerate() {
        let ratio = if k < 2 { format!("   x{:.1}", t[2] / t[k]) } else { String::new() };
        println!("  {size:>9}: {:>10.1} ms{ratio}", t[k] * 1e3);
    }
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let rounds = match args.peek().and_then(|a| a.parse::<usize>().ok()) {
        Some(r) => {
            args.next();
            r.max(1)
        }
        None => 3,
    };
    let shapes: Vec<String> = args.collect();
    let on = |s: &str| shapes.is_empty() || shapes.iter().any(|x| x == s);
    println!("best of {rounds} rounds");
    if on("and") {
        measure(rounds, "and: `x > 0 and ...`, check (terms)", 100_000, and_chain, check);
    }
    if on("all") {
        measure(rounds, "all: `__all__` of missing names on one line, check (names)", 10_000, all_missing, check);
        measure(rounds, "all: every one of its diagnostics rendered (names)", 10_000, all_missing, render_all);
    }
    if on("elif") {
        measure(rounds, "elif: an elif chain, check (arms)", 70_000, elif_chain, check);
        measure(rounds, "elif: an elif chain, compile -O2 (arms)", 70_000, elif_chain, compile);
    }
    if on("nested") {
        measure(rounds, "nested: nested ifs, check (depth)", 10_000, nested_ifs, check);
    }
    if on("pow") {
        measure(rounds, "pow: `x ** x ** ...` on Int64, compile -O2 (terms)", 2_000, pow_tower, compile);
    }
    if on("subs") {
        measure(rounds, "subs: `a[a[...]]`, compile -O2 (depth)", 10_000, subscripts, compile);
    }
    if on("cond") {
        measure(rounds, "cond: a conditional expression, compile -O2 (arms)", 10_000, conditional, compile);
    }
    if on("ufunc") {
        measure(
            rounds,
            "ufunc: elementwise @ufuncs, compile -O2 (ufuncs)",
            2_000,
            |n| functions(n, "@ufunc\n"),
            compile,
        );
        measure(
            rounds,
            "ufunc: as many plain functions, compile -O2 (functions)",
            2_000,
            |n| functions(n, ""),
            compile,
        );
    }
}
