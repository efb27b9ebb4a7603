//! In-process compile time of small modules to an object at -O2: an
//! elementwise ufunc (`examples/axpy.pir`), a gufunc and a plain function
//! (`tests/programs/dot.pir`), and a plain saxpy kernel.

use criterion::{criterion_group, criterion_main, Criterion};
use postc_codegen::{compile, CodegenOptions, OptLevel};
use postc_ir::Program;
use std::path::Path;
use std::time::Duration;

fn load(rel: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    let text = std::fs::read(&path).expect("the module exists");
    let m = postc_ir::parse::parse_module(rel, &text).expect("the module parses");
    Program::from_module(m)
}

fn codegen(c: &mut Criterion) {
    let options = CodegenOptions::for_level(OptLevel::O2);
    let mut g = c.benchmark_group("compile-O2");
    g.sample_size(30).measurement_time(Duration::from_secs(6)).warm_up_time(Duration::from_secs(1));
    for rel in ["examples/axpy.pir", "tests/programs/dot.pir", "examples/saxpy.pir"] {
        let program = load(rel);
        let name = Path::new(rel).file_stem().and_then(|s| s.to_str()).unwrap_or(rel).to_owned();
        g.bench_function(name, |b| b.iter(|| compile(&program, &options).expect("compiles").len()));
    }
    g.finish();
}

criterion_group!(benches, codegen);
criterion_main!(benches);
