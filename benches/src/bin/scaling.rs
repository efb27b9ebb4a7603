//! Whether the work grows linearly with the input: each measurement at a
//! size, at half of it and at a tenth of it, best of N rounds, with the
//! ratio of the largest size's time to each smaller one's (linear: about 2
//! and 10; quadratic: about 4 and 100).
//!
//! - `simplify-cfg` on one function whose entry branches through a chain of
//!   empty forwarding blocks (10^6 blocks);
//! - the -O0 pipeline, the lowering (`postc_codegen::llvm::lower`: symbols and
//!   signatures) of a module of 10^5 small exported functions, each calling
//!   the one before it, and the LLVM module built from it with the IR
//!   builder (`build_unit`).
//!
//! `scaling [ROUNDS] [BLOCKS] [FUNCTIONS]` (defaults: 3, 1000000, 100000).

use inkwell::context::Context;
use postc_codegen::llvm::{build_unit, lower, target_machine};
use postc_codegen::{prepare, CodegenOptions, OptLevel};
use postc_ir::{Module, Program};
use postc_passes::{parse_pipeline, PassOptions, RunOptions};
use std::fmt::Write as _;
use std::time::Instant;

/// A function whose entry branches through `n` forwarding blocks.
fn chain(n: usize) -> Module {
    let mut t = String::with_capacity(n * 24);
    t.push_str("module chain\n\nfunc f(%x: Int64) -> Int64 {\nentry:\n  br b1\n");
    for i in 1..n {
        let _ = write!(t, "b{i}:\n  br b{}\n", i + 1);
    }
    let _ = write!(t, "b{n}:\n  return %x\n}}\n");
    postc_ir::parse::parse_module("chain.pir", t.as_bytes()).expect("the chain parses")
}

/// `n` exported functions, each calling the one before it.
fn functions(n: usize) -> Module {
    let mut t = String::with_capacity(n * 120);
    t.push_str("module many\nexport ");
    for i in 0..n {
        let _ = write!(t, "{}f{i}", if i > 0 { ", " } else { "" });
    }
    t.push_str("\n\nfunc f0(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n");
    for i in 1..n {
        let _ = write!(
            t,
            "\nfunc f{i}(%x: Int64) -> Int64 {{\nentry:\n  %y: Int64 = call f{}(%x)\n  %one: Int64 = const 1\n  \
             %r: Int64 = add %y, %one\n  return %r\n}}\n",
            i - 1
        );
    }
    postc_ir::parse::parse_module("many.pir", t.as_bytes()).expect("the functions parse")
}

fn best(rounds: usize, mut f: impl FnMut() -> f64) -> f64 {
    (0..rounds).map(|_| f()).fold(f64::INFINITY, f64::min)
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

fn report(what: &str, unit: &str, n: usize, t: [f64; 3]) {
    println!("{what} ({unit}):");
    for (k, size) in sizes(n).into_iter().enumerate() {
        let ratio = if k < 2 { format!("   x{:.1}", t[2] / t[k]) } else { String::new() };
        println!("  {size:>9}: {:>9.1} ms{ratio}", t[k] * 1e3);
    }
}

fn sizes(n: usize) -> [usize; 3] {
    [n / 10, n / 2, n]
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().expect("a number"));
    let rounds = args.next().unwrap_or(3).max(1);
    let blocks = args.next().unwrap_or(1_000_000).max(10);
    let nfuncs = args.next().unwrap_or(100_000).max(10);
    println!("best of {rounds} rounds");

    let simplify = parse_pipeline("simplify-cfg").expect("simplify-cfg");
    let options = PassOptions::for_level(2);
    let run = RunOptions { threads: Some(1), ..RunOptions::default() };
    let mut t = [0.0; 3];
    for (k, n) in sizes(blocks).into_iter().enumerate() {
        let m = chain(n);
        t[k] = best(rounds, || {
            let mut m = m.clone();
            timed(|| simplify.run(&mut m, &options, &run).expect("simplify-cfg runs")).1
        });
    }
    report("simplify-cfg, a chain of forwarding blocks", "blocks", blocks, t);

    let codegen = CodegenOptions::for_level(OptLevel::O0);
    let tm = target_machine(&codegen).expect("a target machine");
    let (mut prep, mut low, mut llvm) = ([0.0; 3], [0.0; 3], [0.0; 3]);
    for (k, n) in sizes(nfuncs).into_iter().enumerate() {
        let program = Program::from_module(functions(n));
        prep[k] =
            best(rounds, || timed(|| prepare(&program, &codegen, postc_codegen::llvm::FEATURES).expect("prepares")).1);
        let prepared = prepare(&program, &codegen, postc_codegen::llvm::FEATURES).expect("prepares");
        low[k] = best(rounds, || timed(|| lower(&prepared).expect("lowers")).1);
        let lowered = lower(&prepared).expect("lowers");
        llvm[k] = best(rounds, || {
            let cx = Context::create();
            timed(|| build_unit(&cx, &lowered, &codegen, &tm, None).expect("builds").get_functions().count()).1
        });
    }
    report("-O0 pipeline (postc_codegen::prepare)", "functions", nfuncs, prep);
    report("lowering (postc_codegen::llvm::lower)", "functions", nfuncs, low);
    report("LLVM module built from it (build_unit)", "functions", nfuncs, llvm);
}
