//! Throughput of the IR's printer, parser, verifier and dominator tree on a
//! generated module of at least 10^6 instructions (one core).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use postc_benches::million_instruction_module;
use postc_ir::cfg::{Cfg, DomTree};
use std::time::Duration;

fn ir(c: &mut Criterion) {
    let m = million_instruction_module();
    let text = postc_ir::print::print_module(&m);
    let insts = m.num_insts() as u64;

    let mut g = c.benchmark_group("ir");
    g.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(1));

    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("print", |b| b.iter(|| postc_ir::print::print_module(&m)));
    g.bench_function("parse", |b| {
        b.iter(|| postc_ir::parse::parse_module("large.pir", text.as_bytes()).map(|m| m.num_insts()).unwrap_or(0))
    });

    g.throughput(Throughput::Elements(insts));
    g.bench_function("verify", |b| b.iter(|| postc_ir::verify::verify_module(&m).len()));
    g.bench_function("cfg", |b| {
        let (mut cfg, mut dom) = (Cfg::new(), DomTree::new());
        b.iter(|| {
            let mut n = 0usize;
            for f in m.functions.iter() {
                cfg.recompute(&f.body);
                dom.recompute(&cfg);
                n += cfg.num_reachable();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, ir);
criterion_main!(benches);
