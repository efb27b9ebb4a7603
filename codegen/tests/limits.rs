//! Compiled code at the edges: 0-d arrays, `DLTensor`s whose extents are
//! negative or whose byte size overflows, recursion as deep as the
//! reference interpreter allows (and deeper: the interpreter's panic, never
//! a stack overflow), and calls with complex temporaries in a long loop at
//! -O0. Panics run in a child process (this test binary again).

mod support;

use postc_codegen::{CodegenOptions, OptLevel};
use postc_ir::interp::{InterpOptions, Interpreter, Value};
use postc_ir::DType;
use std::ffi::c_void;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use support::DLTensor;

const SRC: &str = r#"module limits

func get0(%a: Float64[]Shape[]) -> Float64 {
entry:
  %x: Float64 = index.load %a[]
  return %x
}

func put0(%a: &Float64[]Shape[], %v: Float64) {
entry:
  index.store %a[], %v
  return
}

func at(%a: Float64[]Shape[?, ?], %i: Int64, %j: Int64) -> Float64 {
entry:
  %x: Float64 = index.load %a[%i, %j]
  return %x
}

func down(%n: Int64) -> Int64 {
entry:
  %z: Int64 = const 0
  %done: Bool = le %n, %z
  condbr %done, base, step
base:
  return %z
step:
  %one: Int64 = const 1
  %m: Int64 = sub %n, %one
  %r: Int64 = call down(%m) !loc "limits.py":9:12
  %s: Int64 = add %r, %one
  return %s
}

func twice_down(%n: Int64) -> Int64 {
entry:
  %r: Int64 = call down(%n) !loc "limits.py":14:8
  %s: Int64 = add %r, %r
  return %s
}

func norm(%z: Complex128) -> Float64 {
entry:
  %r: Float64 = abs %z
  return %r
}

func norms(%n: Int64) -> Float64 {
entry:
  %zero: Int64 = const 0
  %one: Int64 = const 1
  %f0: Float64 = const 0.0
  %c: Complex128 = const (3.0+4.0j)
  let %i: Int64 = %zero
  let %s: Float64 = %f0
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %x: Float64 = call norm(%c)
  %s2: Float64 = add %s, %x
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %s
}
"#;

fn program() -> postc_ir::Program {
    let m = postc_ir::parse::parse_module("limits.pir", SRC.as_bytes()).unwrap();
    let diags = postc_ir::verify::verify_module(&m);
    assert!(diags.is_empty(), "{diags:?}");
    postc_ir::Program::from_module(m)
}

fn library(dir: &Path, level: OptLevel) -> PathBuf {
    let obj = postc_codegen::compile(&program(), &CodegenOptions::for_level(level))
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")));
    support::link_with_runtime(dir, &format!("limits{}", level.as_u8()), &obj)
}

fn tensor(data: *mut f64, shape: &mut [i64], strides: Option<&mut [i64]>) -> DLTensor {
    DLTensor {
        data: data as *mut c_void,
        device: [1, 0],
        ndim: shape.len() as i32,
        dtype: [2, 64, 1, 0],
        shape: shape.as_mut_ptr(),
        strides: strides.map_or(std::ptr::null_mut(), |s| s.as_mut_ptr()),
        byte_offset: 0,
    }
}

/// The interpreter's result of `down`/`twice_down`: a value or a panic.
fn interpreted(entry: &str, n: i64) -> Result<i64, String> {
    let p = program();
    let mut it = Interpreter::new(&p, InterpOptions::default());
    match it.call(postc_ir::ModuleId::from_u32(0), entry, &[Value::Int(DType::Int64, n as i128)]) {
        Ok(Some(Value::Int(_, x))) => Ok(x as i64),
        Ok(other) => panic!("{other:?}"),
        Err(trap) => Err(format!("{trap}\n")),
    }
}

/// Runs `case` in a child process; returns its standard error after
/// checking it died of SIGABRT.
fn child(so: &Path, case: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "limits_child", "--nocapture", "--test-threads=1"])
        .env("POSTC_LIMITS_LIB", so)
        .env("POSTC_LIMITS_CASE", case)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.signal(), Some(6), "{case}: {:?}; stderr {stderr:?}", out.status);
    stderr
}

#[test]
fn compiled_code_at_the_edges() {
    let dir = tempfile::tempdir().unwrap();
    for level in [OptLevel::O0, OptLevel::O2] {
        let so = library(dir.path(), level);
        unsafe {
            let lib = libloading::Library::new(&so).unwrap();
            let get0: libloading::Symbol<unsafe extern "C" fn(*mut DLTensor) -> f64> = lib.get(b"get0").unwrap();
            let put0: libloading::Symbol<unsafe extern "C" fn(*mut DLTensor, f64)> = lib.get(b"put0").unwrap();
            let mut buf = [1.5f64, 2.5];
            let mut t = tensor(buf.as_mut_ptr(), &mut [], None);
            assert_eq!(get0(&mut t), 1.5);
            t.byte_offset = 8;
            assert_eq!(get0(&mut t), 2.5);
            put0(&mut t, -4.0);
            assert_eq!(buf, [1.5, -4.0]);
            let at: libloading::Symbol<unsafe extern "C" fn(*mut DLTensor, i64, i64) -> f64> = lib.get(b"at").unwrap();
            let mut m = [0.0f64, 1.0, 2.0, 3.0, 4.0, 5.0];
            let mut t = tensor(m.as_mut_ptr(), &mut [2, 3], None);
            assert_eq!(at(&mut t, 1, 2), 5.0);
            let down: libloading::Symbol<unsafe extern "C" fn(i64) -> i64> = lib.get(b"down").unwrap();
            let twice: libloading::Symbol<unsafe extern "C" fn(i64) -> i64> = lib.get(b"twice_down").unwrap();
            // The deepest recursion the interpreter runs, from two entry points.
            assert_eq!(interpreted("down", 9999), Ok(9999));
            assert_eq!(down(9999), 9999);
            assert_eq!(interpreted("twice_down", 9998), Ok(2 * 9998));
            assert_eq!(twice(9998), 2 * 9998);
            let norms: libloading::Symbol<unsafe extern "C" fn(i64) -> f64> = lib.get(b"norms").unwrap();
            assert_eq!(norms(3_000_000), 15_000_000.0);
        }
        let o = format!("O{}", level.as_u8());
        // One frame more, or many more: the interpreter's panic, at the call.
        for (case, entry, n) in [("down", "down", 10_000), ("twice", "twice_down", 9999), ("deep", "down", 50_000_000)]
        {
            let want = interpreted(entry, n).unwrap_err();
            assert_eq!(want, "panic: recursion limit exceeded at limits.py:9:12\n");
            assert_eq!(child(&so, case), want, "{o} {case}");
        }
        for (case, want) in [
            ("negative", "panic: invalid array %a: size -3 of axis 0 is negative at limits.pir:15:9\n"),
            ("negative1", "panic: invalid array %a: size -1 of axis 1 is negative at limits.pir:15:9\n"),
            (
                "oversized",
                "panic: invalid array %a: with size 4611686018427387904 of axis 1 its byte size overflows Int64 at limits.pir:15:9\n",
            ),
        ] {
            assert_eq!(child(&so, case), want, "{o} {case}");
        }
    }
}

/// The child side of the panicking cases (does nothing in a normal run).
#[test]
fn limits_child() {
    let (Some(lib), Ok(case)) = (std::env::var_os("POSTC_LIMITS_LIB"), std::env::var("POSTC_LIMITS_CASE")) else {
        return;
    };
    unsafe {
        let lib = libloading::Library::new(lib).unwrap();
        let down: libloading::Symbol<unsafe extern "C" fn(i64) -> i64> = lib.get(b"down").unwrap();
        let twice: libloading::Symbol<unsafe extern "C" fn(i64) -> i64> = lib.get(b"twice_down").unwrap();
        let at: libloading::Symbol<unsafe extern "C" fn(*mut DLTensor, i64, i64) -> f64> = lib.get(b"at").unwrap();
        let mut m = [0.0f64; 4];
        match case.as_str() {
            "down" => drop(down(10_000)),
            "twice" => drop(twice(9999)),
            "deep" => drop(down(50_000_000)),
            "negative" => drop(at(&mut tensor(m.as_mut_ptr(), &mut [-3, 1], None), 0, 0)),
            "negative1" => drop(at(&mut tensor(m.as_mut_ptr(), &mut [2, -1], None), 0, 0)),
            "oversized" => drop(at(&mut tensor(m.as_mut_ptr(), &mut [2, 1 << 62], Some(&mut [0, 0])), 0, 0)),
            other => panic!("unknown case {other}"),
        }
    }
    std::process::exit(0);
}
