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
    let e = it.launch(m0(), "scale", [1, 1, 1], [64, 32, 2], &[x.clone(), out.clone(), Value::f64(1.0)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
    assert!(e.message.contains("blocks of 4096 threads: a GPU runs at most 1024"), "{}", e.message);
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

// ---------------------------------------------------------------------------
// Threads that cooperate: tests/gpu/coop.pir

fn coop() -> Program {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/gpu/coop.pir");
    Loader::with_include_dirs(Vec::new()).load(&[path]).expect("coop.pir loads")
}

fn f64s(a: &Array) -> Vec<f64> {
    a.to_values()
        .iter()
        .map(|v| match v {
            Value::Float(_, f) => *f,
            v => panic!("{v:?}"),
        })
        .collect()
}

fn ints(a: &Array) -> Vec<i128> {
    a.to_values()
        .iter()
        .map(|v| match v {
            Value::Int(_, x) => *x,
            v => panic!("{v:?}"),
        })
        .collect()
}

#[test]
fn tiled_matmul_equals_the_plain_loop() {
    let p = coop();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    // Partial tiles on every axis: 13 x 11 times 11 x 9.
    let (m, k, n) = (13usize, 11usize, 9usize);
    let a: Vec<f64> = (0..m * k).map(|i| ((i * 7) % 23) as f64 * 0.37 - 2.0).collect();
    let b: Vec<f64> = (0..k * n).map(|i| 1.0 / (1.0 + (i % 13) as f64)).collect();
    let av: Vec<Value> = a.iter().map(|x| Value::f64(*x)).collect();
    let bv: Vec<Value> = b.iter().map(|x| Value::f64(*x)).collect();
    let c = Array::zeros(DType::Float64, &[m, n], false);
    let args = [
        Value::Array(Array::from_values(DType::Float64, &[m, k], &av)),
        Value::Array(Array::from_values(DType::Float64, &[k, n], &bv)),
        Value::Array(c.clone()),
    ];
    it.launch(m0(), "matmul_tiled", [2, 2, 1], [8, 8, 1], &args).unwrap();
    let got = f64s(&c);
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0f64;
            for q in 0..k {
                acc += a[i * k + q] * b[q * n + j];
            }
            assert_eq!(got[i * n + j].to_bits(), acc.to_bits(), "c[{i}, {j}]");
        }
    }
}

#[test]
fn block_sums_add_up_atomically() {
    let p = coop();
    let n = 150;
    let x: Vec<f64> = (0..n).map(|i| (i % 7) as f64 * 0.25 - 0.5).collect();
    let xs = Value::Array(floats(&x));
    let want = 1.5 + x.iter().sum::<f64>();
    // Blocks of 64 and of 8 threads (three and nineteen blocks).
    for (grid, block) in [(3, 64), (19, 8)] {
        let mut it = Interpreter::new(&p, InterpOptions::default());
        let total = floats(&[1.5]);
        it.launch(m0(), "block_sum", [grid, 1, 1], [block, 1, 1], &[xs.clone(), Value::Array(total.clone())]).unwrap();
        assert_eq!(f64s(&total), vec![want], "{grid} blocks of {block}");
    }
}

#[test]
fn histogram_counts_through_shared_and_global_atomics() {
    let p = coop();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let n = 300;
    let x: Vec<i128> = (0..n).map(|i| (i * 37 % 101) - 50).collect();
    let xv: Vec<Value> = x.iter().map(|v| Value::Int(DType::Int32, *v)).collect();
    let init: Vec<Value> = (0..16).map(|b| Value::Int(DType::Int64, 1000 * b)).collect();
    let bins = Array::from_values(DType::Int64, &[16], &init);
    let old = Array::zeros(DType::Int64, &[1], false);
    let args = [
        Value::Array(Array::from_values(DType::Int32, &[n as usize], &xv)),
        Value::Array(bins.clone()),
        Value::Array(old.clone()),
    ];
    // Two blocks of 32 threads: a grid-stride loop over the 300 values.
    it.launch(m0(), "histogram", [2, 1, 1], [32, 1, 1], &args).unwrap();
    let mut want: Vec<i128> = (0..16).map(|b| 1000 * b).collect();
    for v in &x {
        want[v.rem_euclid(16) as usize] += 1;
    }
    assert_eq!(ints(&bins), want);
    // Block 0 publishes first: bin 0 held its initial value then.
    assert_eq!(ints(&old), vec![0]);
}

fn inline_program(src: &str) -> Program {
    let m = postc_ir::parse::parse_module("inline.pir", src.as_bytes()).expect("parses");
    let diags = postc_ir::verify::verify_program(&Program::from_module(m.clone()));
    assert!(diags.is_empty(), "{diags:?}");
    Program::from_module(m)
}

/// Each block finds its shared array cleared, whatever the block before
/// left in it; every thread of a block sees the writes made before the
/// barrier.
#[test]
fn shared_arrays_are_per_block_and_start_cleared() {
    let p = inline_program(
        "module k
func k(%out: &Int64[]Shape[?]) kernel {
entry:
  %s: Int64[]Shape[4] = call postc.gpu.shared()
  %t: Int64 = call postc.gpu.thread_idx.x()
  %b: Int64 = call postc.gpu.block_idx.x()
  %n: Int64 = call postc.gpu.block_dim.x()
  %before: Int64 = index.load %s[%t]
  %one: Int64 = const 1
  %b1: Int64 = add %b, %one
  %v: Int64 = add %before, %b1
  index.store %s[%t], %v
  call postc.gpu.sync_threads()
  %next: Int64 = add %t, %one
  %wrap: Int64 = mod %next, %n
  %other: Int64 = index.load %s[%wrap]
  %base: Int64 = mul %b, %n
  %i: Int64 = add %base, %t
  index.store %out[%i], %other
  return
}
",
    );
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let out = Array::zeros(DType::Int64, &[12], false);
    it.launch(m0(), "k", [3, 1, 1], [4, 1, 1], &[Value::Array(out.clone())]).unwrap();
    assert_eq!(ints(&out), vec![1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
}

#[test]
fn a_thread_that_leaves_a_barrier_alone_is_a_located_panic() {
    let p = inline_program(
        "module k
func k(%out: &Int64[]Shape[?]) kernel {
entry:
  %t: Int64 = call postc.gpu.thread_idx.x()
  %u: Int64 = call postc.gpu.thread_idx.y()
  %early: Bool = gt %u, %t
  condbr %early, leave, wait
leave:
  return
wait:
  call postc.gpu.sync_threads()
  index.store %out[%t], %t
  return
}
",
    );
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let out = Array::zeros(DType::Int64, &[8], false);
    let e = it.launch(m0(), "k", [2, 1, 1], [2, 2, 1], &[Value::Array(out)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Panic);
    assert_eq!(
        e.message,
        "kernel function k: thread (0, 1, 0) of block (0, 0, 0) returned while other threads of its block wait at \
         postc.gpu.sync_threads"
    );
    assert_eq!(e.loc, Some(("inline.pir".to_owned(), 11, 3)));
    // Every thread leaving together is fine.
    let p = inline_program(
        "module k
func k() kernel {
entry:
  %t: Int64 = call postc.gpu.thread_idx.x()
  %zero: Int64 = const 0
  %early: Bool = ge %t, %zero
  condbr %early, leave, wait
leave:
  return
wait:
  call postc.gpu.sync_threads()
  return
}
",
    );
    Interpreter::new(&p, InterpOptions::default()).launch(m0(), "k", [2, 1, 1], [3, 1, 1], &[]).unwrap();
}

#[test]
fn atomic_adds_are_bounds_checked_and_the_built_ins_need_a_launch() {
    let p = coop();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    // A plain call has no block to share with.
    let e = it.call(m0(), "block_sum", &[Value::Array(floats(&[1.0])), Value::Array(floats(&[0.0]))]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
    assert!(e.message.contains("`postc.gpu.shared` outside a kernel launch"), "{}", e.message);

    let p = inline_program(
        "module k
func k(%a: &Int32[]Shape[?, ?], %i: Int64, %j: Int64) kernel {
entry:
  %one: Int32 = const 1
  %old: Int32 = call postc.gpu.atomic_add(%a, %i, %j, %one) !loc \"k.py\":7:5
  return
}
",
    );
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let a = Array::zeros(DType::Int32, &[2, 3], false);
    let launch = |it: &mut Interpreter, i: i64, j: i64| {
        it.launch(m0(), "k", [1, 1, 1], [2, 1, 1], &[Value::Array(a.clone()), Value::i64(i), Value::i64(j)])
    };
    launch(&mut it, 1, 2).unwrap();
    assert_eq!(ints(&a), vec![0, 0, 0, 0, 0, 2]);
    let e = launch(&mut it, 1, 3).unwrap_err();
    assert_eq!(e.kind, TrapKind::Panic);
    assert_eq!(e.message, "index out of bounds: index 3 is out of range for axis 1 with size 3");
    assert_eq!(e.loc, Some(("k.py".to_owned(), 7, 5)));
    let e = launch(&mut it, -1, 0).unwrap_err();
    assert_eq!(e.message, "index out of bounds: index -1 is out of range for axis 0 with size 2");
}
