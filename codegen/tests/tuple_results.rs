//! Functions with a tuple result (`-> (Float64, Int64[]Shape[?])`,
//! docs/abi.md §2): the LLVM, C and QBE backends write each element
//! through one trailing out-pointer, called here from C, with the arrays
//! owned by the caller (each deleter frees only its own: an array returned twice,
//! or two views of one array, come back as separate memory). The
//! WebAssembly backend does the same in its memory, run under Node through
//! the loader.

mod support;
use postc_ir::interp::{Array, InterpOptions, Interpreter, Value};
use postc_ir::DType;
use std::process::Command;
use support::{doc_example, driver, root, tmpdir};

const SRC: &str = r#"module tuples

func stats(%a: Float64[]Shape[?]) -> (Float64, Int64, Float64[]Shape[?]) {
entry:
  %n: Int64 = dim %a, 0
  %i0: Int64 = const 0
  %one: Int64 = const 1
  %two: Float64 = const 2.0
  %zero: Float64 = const 0.0
  %b: Float64[]Shape[?] = alloc %n
  let %i: Int64 = %i0
  let %acc: Float64 = %zero
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %x: Float64 = index.load %a[%i]
  %y: Float64 = mul %x, %two
  index.store %b[%i], %y
  %s: Float64 = add %acc, %x
  set %acc = %s
  %j: Int64 = add %i, %one
  set %i = %j
  br head
done:
  %r: (Float64, Int64, Float64[]Shape[?]) = tuple %acc, %n, %b
  return %r
}

func same_twice(%n: Int64) -> (Int64[]Shape[?], Int64[]Shape[?]) {
entry:
  %b: Int64[]Shape[?] = alloc %n
  %i0: Int64 = const 0
  %seven: Int64 = const 7
  index.store %b[%i0], %seven
  %r: (Int64[]Shape[?], Int64[]Shape[?]) = tuple %b, %b
  return %r
}

func halves(%n: Int64) -> (Float64[]Shape[?], Float64[]Shape[?]) {
entry:
  %two: Int64 = const 2
  %h: Int64 = fdiv %n, %two
  %rest: Int64 = sub %n, %h
  %eight: Int64 = const 8
  %i0: Int64 = const 0
  %b: Float64[]Shape[?] = alloc %n
  %first: Float64 = const 1.5
  %second: Float64 = const 2.5
  index.store %b[%i0], %first
  index.store %b[%h], %second
  %lo: Float64[]Shape[?] = view %b, %i0, [%h], [%eight]
  %hoff: Int64 = mul %h, %eight
  %hi: Float64[]Shape[?] = view %b, %hoff, [%rest], [%eight]
  %r: (Float64[]Shape[?], Float64[]Shape[?]) = tuple %lo, %hi
  return %r
}

func with_input(%a: Float64[]Shape[?], %z: Complex128) -> (Complex128, Float64[]Shape[?], Bool) {
entry:
  %t: Bool = const true
  %r: (Complex128, Float64[]Shape[?], Bool) = tuple %z, %a, %t
  return %r
}

func relay(%a: Float64[]Shape[?]) -> (Float64, Float64[]Shape[?]) {
entry:
  %t: (Float64, Int64, Float64[]Shape[?]) = call stats(%a)
  %s: Float64 = extract %t, 0
  %b: Float64[]Shape[?] = extract %t, 2
  %r: (Float64, Float64[]Shape[?]) = tuple %s, %b
  return %r
}

func mean_plus_first(%a: Float64[]Shape[?]) -> Float64 {
entry:
  %t: (Float64, Int64, Float64[]Shape[?]) = call stats(%a)
  %s: Float64 = extract %t, 0
  %n: Int64 = extract %t, 1
  %b: Float64[]Shape[?] = extract %t, 2
  %i0: Int64 = const 0
  %b0: Float64 = index.load %b[%i0]
  %nf: Float64 = cast %n
  %m: Float64 = div %s, %nf
  %r: Float64 = add %m, %b0
  return %r
}
"#;

const CALLER: &str = r#"#include <postc.h>
#include <complex.h>
#include <stdio.h>

void stats(DLTensor *a, double *sum, int64_t *n, DLManagedTensor **b);
void same_twice(int64_t n, DLManagedTensor **x, DLManagedTensor **y);
void halves(int64_t n, DLManagedTensor **lo, DLManagedTensor **hi);
void with_input(DLTensor *a, const double _Complex *z, double _Complex *zo, DLManagedTensor **ao, _Bool *t);
void relay(DLTensor *a, double *sum, DLManagedTensor **b);
double mean_plus_first(DLTensor *a);

static double at(DLManagedTensor *t, int64_t i) {
  int64_t s = t->dl_tensor.strides ? t->dl_tensor.strides[0] : 1;
  return ((double *)((char *)t->dl_tensor.data + t->dl_tensor.byte_offset))[i * s];
}

int main(void) {
  double three[3] = {1, 2, 3};
  int64_t s3[1] = {3};
  DLTensor a = {three, {kDLCPU, 0}, 1, {kDLFloat, 64, 1}, s3, NULL, 0};
  double sum = 0;
  int64_t n = 0;
  DLManagedTensor *b = NULL;
  stats(&a, &sum, &n, &b);
  printf("stats %g %lld [%g %g %g] shape %lld\n", sum, (long long)n, at(b, 0), at(b, 1), at(b, 2),
         (long long)b->dl_tensor.shape[0]);
  b->deleter(b);

  DLManagedTensor *x = NULL, *y = NULL;
  same_twice(3, &x, &y);
  int64_t *xd = x->dl_tensor.data, *yd = y->dl_tensor.data;
  printf("same_twice %lld %lld %s\n", (long long)xd[0], (long long)yd[0], xd == yd ? "shared" : "separate");
  x->deleter(x);
  printf("after x: %lld %lld %lld\n", (long long)yd[0], (long long)yd[1], (long long)y->dl_tensor.shape[0]);
  y->deleter(y);

  DLManagedTensor *lo = NULL, *hi = NULL;
  halves(5, &lo, &hi);
  printf("halves %lld %g | %lld %g\n", (long long)lo->dl_tensor.shape[0], at(lo, 0),
         (long long)hi->dl_tensor.shape[0], at(hi, 0));
  lo->deleter(lo);
  printf("after lo: %g %g\n", at(hi, 0), at(hi, 2));
  hi->deleter(hi);

  double _Complex z = 1.5 - 2 * I, zo = 0;
  DLManagedTensor *ao = NULL;
  _Bool t = 0;
  with_input(&a, &z, &zo, &ao, &t);
  printf("with_input %g%+gi %s %d\n", creal(zo), cimag(zo), ao->dl_tensor.data == (void *)three ? "input" : "other", t);
  ao->deleter(ao);

  DLManagedTensor *rb = NULL;
  relay(&a, &sum, &rb);
  printf("relay %g [%g %g %g]\n", sum, at(rb, 0), at(rb, 1), at(rb, 2));
  rb->deleter(rb);

  printf("mean_plus_first %g\n", mean_plus_first(&a));
  return 0;
}
"#;

const EXPECTED: &str = "stats 6 3 [2 4 6] shape 3
same_twice 7 7 separate
after x: 7 0 3
halves 2 1.5 | 3 2.5
after lo: 2.5 0
with_input 1.5-2i input 1
relay 6 [2 4 6]
mean_plus_first 4
";

fn program() -> postc_ir::Program {
    let m = postc_ir::parse::parse_module("tuples.pir", SRC.as_bytes()).unwrap_or_else(|d| panic!("{d:?}"));
    postc_ir::Program::from_module(m)
}

/// Compiles `src` with the driver's `backend` at `level` to `out`.
fn compile(src: &std::path::Path, backend: &str, level: &str, emit: &str, out: &std::path::Path) {
    let run = Command::new(driver())
        .args(["compile", "--backend", backend, level, "--emit", emit])
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{backend} {level}: {}", String::from_utf8_lossy(&run.stderr));
}

#[test]
fn the_interpreter_agrees_with_the_c_callers_expectations() {
    let p = program();
    let m = p.get_module("tuples").unwrap();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    let floats = |xs: &[f64]| {
        let values: Vec<Value> = xs.iter().map(|&x| Value::f64(x)).collect();
        Value::Array(Array::from_values(DType::Float64, &[xs.len()], &values))
    };
    let a = floats(&[1.0, 2.0, 3.0]);
    let got = it.call(m, "stats", std::slice::from_ref(&a)).unwrap().unwrap();
    assert_eq!(got, Value::Tuple(vec![Value::f64(6.0), Value::i64(3), floats(&[2.0, 4.0, 6.0])]));
    let got = it.call(m, "halves", &[Value::i64(5)]).unwrap().unwrap();
    assert_eq!(got, Value::Tuple(vec![floats(&[1.5, 0.0]), floats(&[2.5, 0.0, 0.0])]));
    let got = it.call(m, "mean_plus_first", &[a]).unwrap().unwrap();
    assert_eq!(got, Value::f64(4.0));
}

#[test]
fn a_c_caller_receives_every_element_and_owns_each_array() {
    let dir = tmpdir("tuple-results");
    let src = dir.join("tuples.pir");
    std::fs::write(&src, SRC).unwrap();
    let c = dir.join("caller.c");
    std::fs::write(&c, CALLER).unwrap();
    for backend in ["llvm", "c", "qbe"] {
        for level in ["-O0", "-O2"] {
            let lib = dir.join(format!("libtuples_{backend}{level}.so"));
            compile(&src, backend, level, "shared", &lib);
            let exe = dir.join(format!("caller_{backend}{level}"));
            let out = Command::new("cc")
                .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsanitize=address", "-I"])
                .arg(root().join("include"))
                .arg(&c)
                .arg(&lib)
                .arg(format!("-Wl,-rpath,{}", dir.display()))
                .args(["-lm", "-o"])
                .arg(&exe)
                .output()
                .unwrap();
            assert!(out.status.success(), "cc: {}", String::from_utf8_lossy(&out.stderr));
            let out = Command::new(&exe).output().unwrap();
            assert!(out.status.success(), "{backend} {level}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(String::from_utf8_lossy(&out.stdout), EXPECTED, "{backend} {level}");
        }
    }
}

/// An interpreter value as the WebAssembly test's script prints a value the
/// loader returned: a tuple `(a, b)`, an array `[x y] shape N`, a complex
/// `re+imi`.
fn show(v: &Value) -> String {
    match v {
        Value::Tuple(elements) => format!("({})", elements.iter().map(show).collect::<Vec<_>>().join(", ")),
        Value::Array(a) => {
            let values: Vec<String> = a.to_values().iter().map(show).collect();
            let shape: Vec<String> = a.shape.iter().map(|n| n.to_string()).collect();
            format!("[{}] shape {}", values.join(" "), shape.join("x"))
        }
        Value::Bool(b) => b.to_string(),
        Value::Int(_, i) => i.to_string(),
        Value::Float(_, x) => x.to_string(),
        Value::Complex(_, re, im) => format!("{re}{}{im}i", if *im >= 0.0 { "+" } else { "" }),
        other => format!("{other:?}"),
    }
}

/// The WebAssembly backend writes each element through an `i32`
/// out-pointer into the module's memory; the loader's `call` returns a
/// JavaScript array of the elements, each converted as a single result is,
/// and matches the interpreter at -O0 and -O2 (a call of a function with a
/// tuple result inside the module included).
#[test]
fn the_wasm_loader_returns_every_element_as_the_interpreter_does() {
    let p = program();
    let m = p.get_module("tuples").unwrap();
    let floats = |xs: &[f64]| {
        let values: Vec<Value> = xs.iter().map(|&x| Value::f64(x)).collect();
        Value::Array(Array::from_values(DType::Float64, &[xs.len()], &values))
    };
    let a = floats(&[1.0, 2.0, 3.0]);
    let z = Value::Complex(DType::Complex128, 1.5, -2.0);
    let calls: [(&str, Vec<Value>, &str); 6] = [
        ("stats", vec![a.clone()], "[1, 2, 3]"),
        ("same_twice", vec![Value::i64(3)], "3n"),
        ("halves", vec![Value::i64(5)], "5n"),
        ("with_input", vec![a.clone(), z], "[1, 2, 3], {re: 1.5, im: -2}"),
        ("relay", vec![a.clone()], "[1, 2, 3]"),
        ("mean_plus_first", vec![a], "[1, 2, 3]"),
    ];
    let mut want = String::new();
    let mut script = String::from(
        "const show = (x) => Array.isArray(x) ? `(${x.map(show).join(\", \")})`\n\
           : x?.data ? `[${Array.from(x.data, String).join(\" \")}] shape ${x.shape.join(\"x\")}`\n\
           : typeof x === \"object\" ? `${x.re}${x.im >= 0 ? \"+\" : \"\"}${x.im}i` : String(x);\n\
         const f64 = (xs) => Float64Array.from(xs);\n",
    );
    for (name, args, js_args) in &calls {
        let mut it = Interpreter::new(&p, InterpOptions::default());
        let got = it.call(m, name, args).unwrap().unwrap();
        want.push_str(&format!("{name} {}\n", show(&got)));
        let js_args = js_args.replace("[1, 2, 3]", "f64([1, 2, 3])");
        script.push_str(&format!("console.log({name:?}, show(m.call({name:?}, {js_args})));\n"));
    }
    let dir = tmpdir("tuple-results-wasm");
    let src = dir.join("tuples.pir");
    std::fs::write(&src, SRC).unwrap();
    let loader = root().join("codegen/src/wasm/postc.mjs");
    for level in ["-O0", "-O2"] {
        let wasm = dir.join(format!("tuples{level}.wasm"));
        compile(&src, "wasm", level, "wasm", &wasm);
        let js = dir.join(format!("run{level}.mjs"));
        std::fs::write(
            &js,
            format!(
                "import {{ instantiate }} from {loader:?};\nimport {{ readFileSync }} from 'node:fs';\n\
                 const m = await instantiate(readFileSync({wasm:?}));\n{script}"
            ),
        )
        .unwrap();
        let out = Command::new("node").arg(&js).output().unwrap();
        assert!(out.status.success(), "{level}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{level}");
    }
}

/// The ctypes example of docs/abi.md calls the POST Python function shown
/// above it, compiled by the LLVM backend, and prints the output block
/// that follows it.
#[test]
fn docs_ctypes_example_of_a_tuple_result() {
    let doc = std::fs::read_to_string(root().join("docs/abi.md")).unwrap();
    let start = "```python\n# stats.py\n";
    let at = doc.find(start).expect("docs/abi.md shows stats.py") + start.len();
    let source = &doc[at..at + doc[at..].find("```\n").unwrap()];
    let (script, want) = doc_example(&doc, "```python\n# example: a tuple result");
    let dir = tmpdir("tuple-results-doc");
    let (py, lib, example) = (dir.join("stats.py"), dir.join("libstats.so"), dir.join("tuple_example.py"));
    std::fs::write(&py, source).unwrap();
    std::fs::write(&example, script).unwrap();
    let out =
        Command::new(driver()).args(["compile", "--emit", "shared"]).arg(&py).arg("-o").arg(&lib).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("python3").arg(&example).arg(&lib).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
}
