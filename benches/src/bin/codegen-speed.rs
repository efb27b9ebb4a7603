//! Where the in-process compile time of small modules goes: best-of-N time
//! of `postc_codegen::compile` at -O2 and of each of its phases, per file.
//! `codegen-speed [ROUNDS] [FILE.pir ...]` (default: `examples/axpy.pir`
//! and the two modules of the `codegen` criterion bench, 30 rounds).

use inkwell::context::Context;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::FileType;
use postc_codegen::llvm::{build_unit, lower, target_machine};
use postc_codegen::{compile, prepare, CodegenOptions, OptLevel};
use postc_ir::Program;
use std::path::Path;
use std::time::Instant;

/// What `postc_codegen` runs at -O2.
const PIPELINE: &str = "function(sroa,loop-mssa(loop-rotate,licm),irce),default<O2>";

fn best<T>(rounds: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t = Instant::now();
        std::hint::black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    best * 1e3
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let rounds: Option<usize> = args.peek().and_then(|s| s.parse().ok());
    if rounds.is_some() {
        args.next();
    }
    let rounds = rounds.unwrap_or(30);
    let mut files: Vec<String> = args.collect();
    if files.is_empty() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        files = ["examples/axpy.pir", "tests/programs/dot.pir", "examples/saxpy.pir"]
            .iter()
            .map(|f| root.join(f).display().to_string())
            .collect();
    }
    let options = CodegenOptions::for_level(OptLevel::O2);
    for file in &files {
        if file.ends_with(".ll") {
            ll(file, rounds, &options);
            continue;
        }
        let text = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let m = postc_ir::parse::parse_module(file, &text).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        let program = Program::from_module(m);
        let total = best(rounds, || compile(&program, &options).expect("compiles").len());
        let prepared = prepare(&program, &options, postc_codegen::llvm::FEATURES).expect("prepares");
        let low = lower(&prepared).expect("lowers");
        let t_prepare = best(rounds, || prepare(&program, &options, postc_codegen::llvm::FEATURES).is_ok());
        let t_lower = best(rounds, || lower(&prepared).is_ok());
        let t_tm = best(rounds, || target_machine(&options).is_ok());
        let tm = target_machine(&options).expect("a target machine");
        let t_build = best(rounds, || {
            let cx = Context::create();
            let ok = build_unit(&cx, &low, &options, &tm, None).is_ok();
            ok
        });
        let mut t_opt = f64::INFINITY;
        let mut t_emit = f64::INFINITY;
        for _ in 0..rounds {
            let cx = Context::create();
            let module = build_unit(&cx, &low, &options, &tm, None).expect("builds");
            let t = Instant::now();
            module.run_passes(PIPELINE, &tm, PassBuilderOptions::create()).expect("optimises");
            t_opt = t_opt.min(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let obj = tm.write_to_memory_buffer(&module, FileType::Object).expect("emits");
            std::hint::black_box(obj.get_size());
            t_emit = t_emit.min(t.elapsed().as_secs_f64() * 1e3);
        }
        println!("{file}: compile -O2 {total:.2} ms (best of {rounds})");
        for (what, t) in [
            ("postc passes + verify", t_prepare),
            ("lowering (symbols, signatures, plans)", t_lower),
            ("target machine", t_tm),
            ("llvm module built + entry points + verify", t_build),
            ("default<O2>", t_opt),
            ("instruction selection + object", t_emit),
        ] {
            println!("  {t:8.2} ms  {what}");
        }
    }
}

/// An LLVM IR file: parse, `default<O2>`, object (a profiling aid for
/// pieces of the generated module cut out with `llvm-extract`).
fn ll(file: &str, rounds: usize, options: &CodegenOptions) {
    let tm = target_machine(options).expect("a target machine");
    let (mut tp, mut to, mut te) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
        let cx = Context::create();
        let t = Instant::now();
        let buf = inkwell::memory_buffer::MemoryBuffer::create_from_file(Path::new(file)).expect("reads");
        let module = cx.create_module_from_ir(buf).expect("parses");
        tp = tp.min(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        module.run_passes(PIPELINE, &tm, PassBuilderOptions::create()).expect("optimises");
        to = to.min(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let obj = tm.write_to_memory_buffer(&module, FileType::Object).expect("emits");
        std::hint::black_box(obj.get_size());
        te = te.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("{file}: parse {tp:.2} ms, default<O2> {to:.2} ms, object {te:.2} ms");
}
