//! Quick best-of-N timings of print, parse, verify and the dominator tree
//! on the standard 10^6-instruction module (for A/B runs of two builds,
//! back to back, on a noisy machine).
//! `ir-speed [ROUNDS] [print|parse|verify|cfg]`, or `ir-speed 1 dump FILE` to
//! write the module's text.

use postc_benches::million_instruction_module;
use postc_ir::cfg::{Cfg, DomTree};
use std::hint::black_box;
use std::time::Instant;

fn best<T>(rounds: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    let rounds = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let only = std::env::args().nth(2).unwrap_or_default();
    let on = |p: &str| only.is_empty() || only == p;
    let m = million_instruction_module();
    let text = postc_ir::print::print_module(&m);
    let insts = m.num_insts() as f64;
    let mb = text.len() as f64 / 1e6;
    if only == "dump" {
        let Some(path) = std::env::args().nth(3) else {
            eprintln!("usage: ir-speed 1 dump FILE");
            std::process::exit(2);
        };
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("cannot write {path}: {e}");
            std::process::exit(1);
        }
        return;
    }
    if on("print") {
        let t = best(rounds, || postc_ir::print::print_module(&m));
        println!("print  {:8.1} MB/s", mb / t);
    }
    if on("parse") {
        let t = best(rounds, || postc_ir::parse::parse_module("large.pir", text.as_bytes()).map(|m| m.num_insts()));
        println!("parse  {:8.1} MB/s", mb / t);
    }
    if on("verify") {
        let t = best(rounds, || postc_ir::verify::verify_module(&m).len());
        println!("verify {:8.1} M inst/s", insts / t / 1e6);
    }
    if !on("cfg") {
        return;
    }
    let (mut cfg, mut dom) = (Cfg::new(), DomTree::new());
    let t = best(rounds, || {
        let mut n = 0usize;
        for f in m.functions.iter() {
            cfg.recompute(&f.body);
            dom.recompute(&cfg);
            n += cfg.num_reachable();
        }
        n
    });
    println!("cfg    {:8.1} M inst/s", insts / t / 1e6);
}
