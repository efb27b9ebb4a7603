//! An arbitrary valid module through the -O2 pipeline (verifying after
//! every pass): the result verifies, `cleanup` gives the module that
//! `const-fold,simplify-cfg,dce` gives, and every function, called with
//! arguments derived from the input bytes, gives the same result, the same
//! output arrays or the same panic (message and location) in the
//! interpreter before and after. A run out of fuel on either side is
//! skipped.
#![no_main]
use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use postc_ir::gen::{arbitrary_module, GenConfig};
use postc_ir::interp::{Array, InterpOptions, Interpreter, Trap, TrapKind, Value};
use postc_ir::print::print_module;
use postc_ir::types::Shape;
use postc_ir::verify::verify_module;
use postc_ir::{DType, Module, ModuleId, Program};
use postc_passes::{default_pipeline, parse_pipeline, PassOptions, RunOptions};

const FUEL: u64 = 100_000;

fn scalar(dtype: DType, seed: u64) -> Value {
    match dtype {
        DType::Bool => Value::Bool(seed & 1 == 1),
        d if d.is_int() => {
            let (lo, hi) = d.int_range().unwrap();
            let picks = [0, 1, 2, 3, -1, 7, -5, lo, hi, 100, (seed >> 8) as i8 as i128];
            Value::Int(d, picks[(seed % picks.len() as u64) as usize].clamp(lo, hi))
        }
        d if d.is_float() => {
            let picks = [0.0, -0.0, 1.5, -2.25, 3.0, f64::NAN, f64::INFINITY, 1e30, 0.1];
            Value::float(d, picks[(seed % picks.len() as u64) as usize])
        }
        d if d.is_complex() => Value::complex(d, 1.5, -0.5),
        DType::Str => Value::Str("s".into()),
        _ => Value::Bytes(b"b".to_vec()),
    }
}

/// Fresh arguments for a function (arrays are new buffers each time).
fn args_for(m: &Module, f: &postc_ir::Function, seed: u64) -> Vec<Value> {
    let mut out = Vec::new();
    for (k, v) in f.body.all_params().enumerate() {
        let s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(k as u64 * 0x1234_5679) >> 7;
        let ty = m.types.get(f.body.ty(v).unwrap());
        if ty.is_array {
            let shape: Vec<usize> = match &ty.shape {
                Shape::Dims(d) => d.iter().map(|x| x.map_or((s % 5) as usize, |x| x as usize)).collect(),
                Shape::Any => vec![(s % 5) as usize],
            };
            let n: usize = shape.iter().product();
            let vals: Vec<Value> = (0..n).map(|i| scalar(ty.dtype, s.wrapping_add(i as u64))).collect();
            out.push(Value::Array(Array::from_values(ty.dtype, &shape, &vals)));
        } else {
            out.push(scalar(ty.dtype, s));
        }
    }
    out
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Returned(String, Vec<Vec<u8>>),
    Panicked(String, Option<(String, u32, u32)>),
}

fn bits(v: &Value) -> String {
    match v {
        Value::Float(d, x) if x.is_nan() => format!("{d} nan"),
        Value::Float(d, x) => format!("{d} {:#x}", x.to_bits()),
        Value::Complex(d, re, im) => format!("{d} {:#x} {:#x}", re.to_bits(), im.to_bits()),
        v => format!("{v:?}"),
    }
}

fn run(p: &Program, name: &str, args: &[Value], checks: bool) -> Option<Outcome> {
    let opts = InterpOptions { overflow_checks: checks, fuel: Some(FUEL) };
    let r: Result<Option<Value>, Trap> = Interpreter::new(p, opts).call(ModuleId::from_u32(0), name, args);
    match r {
        Ok(v) => {
            let bufs = args.iter().filter_map(Value::as_array).map(|a| a.buf.borrow().clone()).collect();
            Some(Outcome::Returned(v.as_ref().map(bits).unwrap_or_default(), bufs))
        }
        Err(t) if t.kind == TrapKind::OutOfFuel => None,
        Err(t) => {
            assert_eq!(t.kind, TrapKind::Panic, "{t}");
            Some(Outcome::Panicked(t.message, t.loc))
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ *b as u64).wrapping_mul(0x100_0000_01b3));
    let Ok(before) = arbitrary_module(&mut Unstructured::new(data), &GenConfig::default()) else { return };
    let level = (seed % 4) as u8;
    let options = PassOptions::for_level(level);
    let mut after = before.clone();
    let pm = parse_pipeline(default_pipeline(level)).unwrap();
    let run_opts = RunOptions { verify_each: true, ..RunOptions::default() };
    if let Err(d) = pm.run(&mut after, &options, &run_opts) {
        panic!("-O{level} pipeline failed: {d:?}\n{}", print_module(&before));
    }
    let errors = verify_module(&after);
    assert!(errors.is_empty(), "{errors:?}\n{}", print_module(&after));
    // `cleanup` is the three passes it fuses, exactly.
    let fused_and_three: Vec<String> = ["cleanup", "const-fold,simplify-cfg,dce"]
        .iter()
        .map(|p| {
            let mut m = before.clone();
            if let Err(d) = parse_pipeline(p).unwrap().run(&mut m, &options, &run_opts) {
                panic!("`{p}` failed: {d:?}\n{}", print_module(&before));
            }
            print_module(&m)
        })
        .collect();
    assert_eq!(fused_and_three[0], fused_and_three[1], "cleanup differs\n{}", print_module(&before));
    let names: Vec<String> = before.functions.iter().map(|f| f.name.clone()).collect();
    let pb = Program::from_module(before);
    let pa = Program::from_module(after);
    let mb = &pb.modules[ModuleId::from_u32(0)];
    for (fi, name) in names.iter().enumerate() {
        let f = mb.functions.iter().find(|f| &f.name == name).unwrap();
        for k in 0..2u64 {
            let s = seed.wrapping_add(fi as u64 * 31 + k * 1009);
            let (Some(x), Some(y)) = (
                run(&pb, name, &args_for(mb, f, s), options.overflow_checks),
                run(&pa, name, &args_for(mb, f, s), options.overflow_checks),
            ) else {
                continue;
            };
            assert_eq!(
                x,
                y,
                "-O{level}: {name} differs\n--- before\n{}\n--- after\n{}",
                postc_ir::print::print_module(mb),
                postc_ir::print::print_module(&pa.modules[ModuleId::from_u32(0)])
            );
        }
    }
});
