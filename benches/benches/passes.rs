//! Throughput of the -O2 pass pipeline on a generated module of at least
//! 10^6 instructions in 1,000 functions, on one and on two threads.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use postc_benches::million_instruction_module;
use postc_passes::{default_pipeline, parse_pipeline, PassOptions, RunOptions};
use std::time::Duration;

fn passes(c: &mut Criterion) {
    let m = million_instruction_module();
    let insts = m.num_insts() as u64;
    let pm = parse_pipeline(default_pipeline(2)).expect("the -O2 pipeline parses");
    let options = PassOptions::for_level(2);

    let mut g = c.benchmark_group("passes");
    g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(insts));
    for threads in [1usize, 2] {
        let run = RunOptions { threads: Some(threads), ..RunOptions::default() };
        g.bench_function(format!("O2/{threads}-thread"), |b| {
            b.iter_batched(
                || m.clone(),
                |mut module| {
                    pm.run(&mut module, &options, &run).expect("the pipeline runs");
                    module
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, passes);
criterion_main!(benches);
