//! Generated modules (`postc_ir::gen`) run in the interpreter without a
//! Rust panic: every run ends in a value or a runtime trap (generated
//! modules are valid, so never in `Unsupported`).

use postc_ir::gen::large_module;
use postc_ir::interp::{Array, InterpOptions, Interpreter, TrapKind, Value};
use postc_ir::types::{Layout, Shape};
use postc_ir::{DType, Program};

fn arg(dtype: DType, seed: u64) -> Value {
    match dtype {
        DType::Bool => Value::Bool(seed & 1 == 0),
        d if d.is_int() => {
            let (lo, hi) = d.int_range().unwrap();
            Value::Int(d, [0, 1, 3, lo, hi, -1i128.max(lo)][seed as usize % 6].clamp(lo, hi))
        }
        d if d.is_float() => Value::float(d, [0.0, 1.5, -2.25, f64::NAN, 1e30][seed as usize % 5]),
        d if d.is_complex() => Value::complex(d, 1.5, -0.5),
        DType::Str => Value::Str("s".into()),
        _ => Value::Bytes(b"b".to_vec()),
    }
}

#[test]
fn generated_modules_run_without_rust_panics() {
    let (mut runs, mut completed) = (0, 0);
    for seed in 1..120u64 {
        let m = large_module(3, 50, seed);
        let p = Program::from_module(m);
        let module = &p.modules[postc_ir::ModuleId::from_u32(0)];
        for f in module.functions.iter() {
            let mut args = Vec::new();
            for (k, v) in f.body.all_params().enumerate() {
                let ty = module.types.get(f.body.ty(v).unwrap());
                if ty.is_array {
                    let shape: Vec<usize> = match &ty.shape {
                        Shape::Dims(d) => d.iter().map(|x| x.unwrap_or(3) as usize).collect(),
                        Shape::Any => vec![4],
                    };
                    let a = Array::zeros(ty.dtype, &shape, ty.layout == Layout::FOrder);
                    args.push(Value::Array(a));
                } else {
                    args.push(arg(ty.dtype, seed + k as u64));
                }
            }
            for checks in [false, true] {
                let opts = InterpOptions { overflow_checks: checks, fuel: Some(50_000) };
                match Interpreter::new(&p, opts).call(postc_ir::ModuleId::from_u32(0), &f.name, &args) {
                    Ok(_) => completed += 1,
                    Err(e) => assert_ne!(e.kind, TrapKind::Unsupported, "{e}"),
                }
                runs += 1;
            }
        }
    }
    assert!(runs > 100 && completed > runs / 2, "{completed} of {runs} runs completed");
}
