//! `kernel` functions in the interpreter: `launch` runs every thread of a
//! grid with its coordinates, and the coordinate built-ins exist nowhere
//! else. The kernels are those of `tests/gpu/kernels.pir`, which the GPU
//! tests also compile; the expected values are computed here directly.

use postc_ir::interp::{Array, InterpOptions, Interpreter, TrapKind, Value};
use postc_ir::resolve::Loader;
use postc_ir::{DType, EntityId, ModuleId, Program};
use std::path::PathBuf;

fn program() -> Program {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/gpu/kernels.pir");
    Loader::with_include_dirs(Vec::new()).load(&[path]).expect("kernels.pir loads")
}

fn m0() -> ModuleId {
    ModuleId::new(0)
}

fn floats(xs: &[f64]) -> Array {
    let vals: Vec<Value> = xs.iter().map(|x| Value::f64(*x)).collect();
    Array::from_values(DType::Float64, &[xs.len()], &vals)
}

#[test]
fn a_1d_launch_covers_every_index_once() {
    let p = program();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let n = 37;
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 0.5 - 3.0).collect();
    let out = Array::zeros(DType::Float64, &[n], false);
    // 5 blocks of 8 threads: 40 threads, the last 3 out of range.
    it.launch(
        m0(),
        "scale",
        [5, 1, 1],
        [8, 1, 1],
        &[Value::Array(floats(&x)), Value::Array(out.clone()), Value::f64(2.0)],
    )
    .unwrap();
    let got: Vec<f64> = out
        .to_values()
        .iter()
        .map(|v| match v {
            Value::Float(_, f) => *f,
            v => panic!("{v:?}"),
        })
        .collect();
    let want: Vec<f64> = x.iter().enumerate().map(|(i, v)| 2.0 * v + i as f64).collect();
    assert_eq!(got, want);
}

#[test]
fn a_2d_launch_sees_both_axes() {
    let p = program();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let (r, c) = (5usize, 7usize);
    let vals: Vec<Value> = (0..r * c).map(|k| Value::Int(DType::Int32, k as i128)).collect();
    let a = Array::from_values(DType::Int32, &[r, c], &vals);
    let t = Array::zeros(DType::Int32, &[c, r], false);
    it.launch(m0(), "transpose", [3, 2, 1], [3, 3, 1], &[Value::Array(a), Value::Array(t.clone()), Value::Bool(false)])
        .unwrap();
    for i in 0..r {
        for j in 0..c {
            assert_eq!(t.get(&[j, i]), Value::Int(DType::Int32, (i * c + j) as i128), "t[{j}, {i}]");
        }
    }
}

#[test]
fn launches_are_checked() {
    let p = program();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let x = Value::Array(floats(&[1.0]));
    let out = Value::Array(floats(&[0.0]));
    let e = it.launch(m0(), "scale", [0, 1, 1], [1, 1, 1], &[x.clone(), out.clone(), Value::f64(1.0)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
    assert!(e.message.contains("empty grid"), "{}", e.message);
    let e = it.launch(m0(), "sumsq", [1, 1, 1], [1, 1, 1], &[x.clone()]).unwrap_err();
    assert!(e.message.contains("is not a `kernel` function"), "{}", e.message);
    // A plain call of a kernel has no coordinates to read.
    let e = it.call(m0(), "scale", &[x, out, Value::f64(1.0)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
    assert!(e.message.contains("`postc.gpu.thread_idx.x` outside a kernel launch"), "{}", e.message);
}

#[test]
fn the_plain_gpu_function_runs_as_a_call() {
    let p = program();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let vals: Vec<Value> = [1.5f32, -2.0, 3.0].iter().map(|x| Value::float(DType::Float32, *x as f64)).collect();
    let x = Array::from_values(DType::Float32, &[3], &vals);
    let r = it.call(m0(), "sumsq", &[Value::Array(x)]).unwrap();
    assert_eq!(r, Some(Value::float(DType::Float32, 15.25)));
}
