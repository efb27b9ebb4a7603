//! Generalized-ufunc calls: NumPy broadcasting of the loop dimensions,
//! core dimensions, returned and in-place outputs.

use postc_ir::interp::{Array, InterpOptions, Interpreter, TrapKind, Value};
use postc_ir::parse::parse_str;
use postc_ir::verify::verify_program;
use postc_ir::{DType, ModuleId, Program};

const UFUNCS: &str = r#"
module uf

ufunc add(%a: Float64, %b: Float64) -> Float64 "(),()->()" {
entry:
  %r: Float64 = add %a, %b
  return %r
}

ufunc rowdot(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 "(n),(n)->()" core(%n: Int64) {
entry:
  %zero: Float64 = const 0.0
  %i0: Int64 = const 0
  let %acc: Float64 = %zero
  let %i: Int64 = %i0
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %x: Float64 = index.load %a[%i]
  %y: Float64 = index.load %b[%i]
  %p: Float64 = mul %x, %y
  %acc2: Float64 = add %acc, %p
  set %acc = %acc2
  %one: Int64 = const 1
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %acc
}

ufunc matmul(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) "(m,k),(k,n)->(m,n)" core(%m: Int64, %k: Int64, %n: Int64) {
entry:
  %z: Int64 = const 0
  %one: Int64 = const 1
  %fz: Float64 = const 0.0
  let %i: Int64 = %z
  br ih
ih:
  %im: Bool = lt %i, %m
  condbr %im, ib, done
ib:
  let %j: Int64 = %z
  br jh
jh:
  %jm: Bool = lt %j, %n
  condbr %jm, jb, inext
jb:
  let %acc: Float64 = %fz
  let %l: Int64 = %z
  br lh
lh:
  %lm: Bool = lt %l, %k
  condbr %lm, lb, jnext
lb:
  %x: Float64 = index.load %a[%i, %l]
  %y: Float64 = index.load %b[%l, %j]
  %p: Float64 = mul %x, %y
  %s: Float64 = add %acc, %p
  set %acc = %s
  %l2: Int64 = add %l, %one
  set %l = %l2
  br lh
jnext:
  index.store %c[%i, %j], %acc
  %j2: Int64 = add %j, %one
  set %j = %j2
  br jh
inext:
  %i2: Int64 = add %i, %one
  set %i = %i2
  br ih
done:
  return
}
"#;

fn prog() -> Program {
    let mut p = Program::from_module(parse_str("uf.pir", UFUNCS).unwrap_or_else(|d| panic!("{d:?}")));
    p.link_dependencies();
    let d = verify_program(&p);
    assert!(d.is_empty(), "{d:?}");
    p
}

fn arr(shape: &[usize], xs: &[f64]) -> Value {
    let vals: Vec<Value> = xs.iter().map(|x| Value::f64(*x)).collect();
    Value::Array(Array::from_values(DType::Float64, shape, &vals))
}

fn m0() -> ModuleId {
    ModuleId::from_u32(0)
}

#[test]
fn elementwise_broadcasting() {
    let p = prog();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    // (3,1) + (4,) -> (3,4)
    let a = arr(&[3, 1], &[0.0, 10.0, 20.0]);
    let b = arr(&[4], &[1.0, 2.0, 3.0, 4.0]);
    let r = it.call_ufunc(m0(), "add", &[a, b]).unwrap().unwrap();
    let Value::Array(r) = r else { panic!() };
    assert_eq!(r.shape, vec![3, 4]);
    assert_eq!(
        Value::Array(r).to_string(),
        "[[1.0, 2.0, 3.0, 4.0], [11.0, 12.0, 13.0, 14.0], [21.0, 22.0, 23.0, 24.0]]"
    );
    // Scalars with an array, and scalars only.
    let r = it.call_ufunc(m0(), "add", &[Value::f64(0.5), arr(&[2], &[1.0, 2.0])]).unwrap();
    assert_eq!(r, Some(arr(&[2], &[1.5, 2.5])));
    let r = it.call_ufunc(m0(), "add", &[Value::f64(0.5), Value::f64(2.0)]).unwrap();
    assert_eq!(r, Some(Value::f64(2.5)));
    // A strided (reversed) input view.
    let Value::Array(base) = arr(&[4], &[1.0, 2.0, 3.0, 4.0]) else { panic!() };
    let rev = base.view(vec![4], vec![-8], 24);
    let r = it.call_ufunc(m0(), "add", &[Value::Array(rev), Value::f64(0.0)]).unwrap();
    assert_eq!(r, Some(arr(&[4], &[4.0, 3.0, 2.0, 1.0])));
    // Empty loop dimension.
    let r = it.call_ufunc(m0(), "add", &[arr(&[0], &[]), Value::f64(1.0)]).unwrap();
    assert_eq!(r, Some(arr(&[0], &[])));
}

#[test]
fn broadcast_mismatch_is_unsupported() {
    let p = prog();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let e = it.call_ufunc(m0(), "add", &[arr(&[3], &[1.0, 2.0, 3.0]), arr(&[2], &[1.0, 2.0])]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
    assert!(e.message.contains("could not be broadcast"), "{}", e.message);
    let e = it.call_ufunc(m0(), "add", &[Value::f64(1.0)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
}

#[test]
fn core_dimensions_and_returned_output() {
    let p = prog();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    // (2,3) . (3,) -> (2,)
    let a = arr(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let b = arr(&[3], &[1.0, 0.0, -1.0]);
    let r = it.call_ufunc(m0(), "rowdot", &[a.clone(), b.clone()]).unwrap();
    assert_eq!(r, Some(arr(&[2], &[-2.0, -2.0])));
    // Both 1-D: a 0-d result array.
    let r = it.call_ufunc(m0(), "rowdot", &[b.clone(), b.clone()]).unwrap().unwrap();
    assert_eq!(r.as_array().unwrap().shape, Vec::<usize>::new());
    assert_eq!(r.as_array().unwrap().get(&[]), Value::f64(2.0));
    // Mismatched core dimension n.
    let e = it.call_ufunc(m0(), "rowdot", &[a, arr(&[2], &[1.0, 2.0])]).unwrap_err();
    assert!(e.message.contains("core dimension `n`"), "{}", e.message);
    // A scalar where a core dimension is needed.
    let e = it.call_ufunc(m0(), "rowdot", &[Value::f64(1.0), b]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
}

#[test]
fn in_place_outputs_with_loop_dimensions() {
    let p = prog();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    // A stack of two 2x2 matrices times one 2x2 matrix (broadcast).
    let a = arr(&[2, 2, 2], &[1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 1.0, 0.0]);
    let b = arr(&[2, 2], &[5.0, 6.0, 7.0, 8.0]);
    let out = Array::zeros(DType::Float64, &[2, 2, 2], false);
    let r = it.call_ufunc(m0(), "matmul", &[a, b.clone(), Value::Array(out.clone())]).unwrap();
    assert_eq!(r, None);
    assert_eq!(Value::Array(out).to_string(), "[[[19.0, 22.0], [43.0, 50.0]], [[7.0, 8.0], [5.0, 6.0]]]");
    // An F-order output is written through its strides.
    let out = Array::zeros(DType::Float64, &[2, 2], true);
    let eye = arr(&[2, 2], &[1.0, 0.0, 0.0, 1.0]);
    it.call_ufunc(m0(), "matmul", &[eye, b, Value::Array(out.clone())]).unwrap();
    assert_eq!(Value::Array(out.clone()).to_string(), "[[5.0, 6.0], [7.0, 8.0]]");
    let raw: Vec<f64> = out.buf.borrow().chunks(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(raw, vec![5.0, 7.0, 6.0, 8.0]);
    // Outputs take part in broadcasting, as in NumPy: the inputs repeat.
    let out3 = Array::zeros(DType::Float64, &[3, 2, 2], false);
    let eye = arr(&[2, 2], &[1.0, 0.0, 0.0, 1.0]);
    let ones = arr(&[2, 2], &[1.0; 4]);
    it.call_ufunc(m0(), "matmul", &[eye.clone(), ones.clone(), Value::Array(out3.clone())]).unwrap();
    assert_eq!(out3.to_values(), vec![Value::f64(1.0); 12]);
    // But an output must have the broadcast loop shape.
    let small = Array::zeros(DType::Float64, &[2, 2, 2], false);
    let stack3 = arr(&[3, 2, 2], &[1.0; 12]);
    let e = it.call_ufunc(m0(), "matmul", &[stack3, ones, Value::Array(small)]).unwrap_err();
    assert_eq!(e.kind, TrapKind::Unsupported);
}
