//! Exported functions named like the C library functions that compiled code
//! calls itself (`fmod` for a float `%`, `pow` for `**`, `malloc`, `calloc`
//! and `free` for strings and arrays, `memcpy` for a returned argument
//! array, `write` for a ufunc's failed check, `abort` and `dprintf` for
//! panics, `sqrt` and `hypot` for math): each one's body takes the path that
//! calls the C function of its own name, and gets the C function, not
//! itself. The library is loaded with `dlopen`, as ctypes and the other
//! tests do; panics run in a child process.

mod support;

use postc_codegen::{CodegenOptions, OptLevel};
use std::ffi::c_void;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use support::DLTensor;

const SRC: &str = r#"module shadow
export fmod, pow, malloc, calloc, free, memcpy, write, abort, dprintf, sqrt, hypot, exit
import intrinsic root = sqrt

func fmod(%a: Float64, %b: Float64) -> Float64 {
entry:
  %r: Float64 = mod %a, %b
  return %r
}

func pow(%a: Float64, %b: Float64) -> Float64 {
entry:
  %r: Float64 = pow %a, %b
  return %r
}

func malloc(%a: Str, %b: Str) -> Str {
entry:
  %r: Str = add %a, %b
  return %r
}

func calloc(%n: Int64, %x: Int64) -> Int64 {
entry:
  %a: Int64[] = alloc %n
  %z: Int64 = const 0
  store %a, %z, %x
  %y: Int64 = load %a, %z
  %k: Int64 = dim %a, 0
  %r: Int64 = add %y, %k
  return %r
}

func free(%n: Int64) -> Int64 {
entry:
  %a: Float64[] = alloc %n
  %b: Float64[] = alloc %n
  %k: Int64 = dim %a, 0
  %m: Int64 = dim %b, 0
  %r: Int64 = add %k, %m
  return %r
}

func memcpy(%x: Float64[]) -> Float64[] {
entry:
  return %x
}

ufunc write(%a: Float64[]Shape[?]) -> Float64 "(n)->()" core(%n: Int64) {
entry:
  %z: Int64 = const 0
  %x: Float64 = index.load %a[%z]
  return %x
}

func abort(%a: Int64, %b: Int64) -> Int64 {
entry:
  %r: Int64 = fdiv %a, %b !loc "shadow.py":7:9
  return %r
}

func dprintf(%a: Int64, %b: Int64) -> Int64 {
entry:
  %r: Int64 = mod %a, %b !loc "shadow.py":8:9
  return %r
}

func sqrt(%x: Float64) -> Float64 {
entry:
  %r: Float64 = call root(%x)
  return %r
}

func hypot(%x: Complex128) -> Float64 {
entry:
  %r: Float64 = abs %x
  return %r
}

func exit(%x: Int64) -> Int64 {
entry:
  %one: Int64 = const 1
  %r: Int64 = add %x, %one
  return %r
}
"#;

#[repr(C)]
#[derive(Clone, Copy)]
struct PostcStr {
    ptr: *const u8,
    len: i64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// `libshadow.so` at `level` in `dir`.
fn library(dir: &Path, level: OptLevel) -> PathBuf {
    let m = postc_ir::parse::parse_module("shadow.pir", SRC.as_bytes()).unwrap();
    let diags = postc_ir::verify::verify_module(&m);
    assert!(diags.is_empty(), "{diags:?}");
    let program = postc_ir::Program::from_module(m);
    let obj = postc_codegen::compile(&program, &CodegenOptions::for_level(level))
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")));
    support::link_with_runtime(dir, &format!("shadow{}", level.as_u8()), &obj)
}

type Loop = unsafe extern "C" fn(*mut *mut u8, *const i64, *const i64, *mut c_void);

/// Calls `write_loop` on one row `xs` with the given core step in bytes.
unsafe fn write_loop(lib: &libloading::Library, xs: &mut [f64], core_step: i64) -> f64 {
    let f: libloading::Symbol<Loop> = lib.get(b"write_loop").unwrap();
    let mut out = 0.0f64;
    let mut args = [xs.as_mut_ptr() as *mut u8, &mut out as *mut f64 as *mut u8];
    let dims = [1i64, xs.len() as i64];
    let steps = [0i64, 0, core_step];
    f(args.as_mut_ptr(), dims.as_ptr(), steps.as_ptr(), std::ptr::null_mut());
    out
}

#[test]
fn exported_c_names_do_not_take_the_runtime_calls() {
    let dir = tempfile::tempdir().unwrap();
    for level in [OptLevel::O0, OptLevel::O2] {
        let so = library(dir.path(), level);
        unsafe {
            let lib = libloading::Library::new(&so).unwrap();
            let fmod: libloading::Symbol<unsafe extern "C" fn(f64, f64) -> f64> = lib.get(b"fmod").unwrap();
            assert_eq!(fmod(7.5, 2.0), 1.5);
            assert_eq!(fmod(-7.5, 2.0), 0.5);
            assert_eq!(fmod(7.5, -2.0), -0.5);
            let pow: libloading::Symbol<unsafe extern "C" fn(f64, f64) -> f64> = lib.get(b"pow").unwrap();
            assert_eq!(pow(2.0, 10.0), 1024.0);
            assert_eq!(pow(1.1, 2.7), 1.1f64.powf(2.7));
            let malloc: libloading::Symbol<unsafe extern "C" fn(PostcStr, PostcStr) -> PostcStr> =
                lib.get(b"malloc").unwrap();
            let s = |t: &'static str| PostcStr { ptr: t.as_ptr(), len: t.len() as i64 };
            let r = malloc(s("shad"), s("ow"));
            assert_eq!(std::slice::from_raw_parts(r.ptr, r.len as usize), b"shadow");
            let calloc: libloading::Symbol<unsafe extern "C" fn(i64, i64) -> i64> = lib.get(b"calloc").unwrap();
            let free: libloading::Symbol<unsafe extern "C" fn(i64) -> i64> = lib.get(b"free").unwrap();
            for _ in 0..1000 {
                assert_eq!(calloc(5, 37), 42);
                assert_eq!(free(7), 14);
            }
            let memcpy: libloading::Symbol<unsafe extern "C" fn(*mut DLTensor) -> *mut DLManagedTensor> =
                lib.get(b"memcpy").unwrap();
            let mut buf = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
            let mut shape = [2i64, 3];
            let mut strides = [3i64, 1];
            let mut t = DLTensor {
                data: buf.as_mut_ptr() as *mut c_void,
                device: [1, 0],
                ndim: 2,
                dtype: [2, 64, 1, 0],
                shape: shape.as_mut_ptr(),
                strides: strides.as_mut_ptr(),
                byte_offset: 8,
            };
            let r = memcpy(&mut t);
            let rd = &(*r).dl_tensor;
            assert_eq!((rd.data, rd.ndim, rd.byte_offset), (t.data, 2, 8));
            assert_eq!(std::slice::from_raw_parts(rd.shape, 2), &[2, 3]);
            assert_eq!(std::slice::from_raw_parts(rd.strides, 2), &[3, 1]);
            ((*r).deleter.unwrap())(r);
            let mut xs = [4.5f64, 1.0, 2.0];
            assert_eq!(write_loop(&lib, &mut xs, 8), 4.5);
            let abort: libloading::Symbol<unsafe extern "C" fn(i64, i64) -> i64> = lib.get(b"abort").unwrap();
            assert_eq!(abort(-7, 2), -4);
            let dprintf: libloading::Symbol<unsafe extern "C" fn(i64, i64) -> i64> = lib.get(b"dprintf").unwrap();
            assert_eq!(dprintf(-7, 2), 1);
            let sqrt: libloading::Symbol<unsafe extern "C" fn(f64) -> f64> = lib.get(b"sqrt").unwrap();
            assert_eq!(sqrt(2.0), 2f64.sqrt());
            let hypot: libloading::Symbol<unsafe extern "C" fn(*const [f64; 2]) -> f64> = lib.get(b"hypot").unwrap();
            assert_eq!(hypot(&[3.0, 4.0]), 5.0);
            let exit: libloading::Symbol<unsafe extern "C" fn(i64) -> i64> = lib.get(b"exit").unwrap();
            assert_eq!(exit(41), 42);
        }
        let level_name = format!("O{}", level.as_u8());
        for (case, want) in [
            ("abort", "panic: division by zero at shadow.py:7:9\n"),
            ("dprintf", "panic: modulo by zero at shadow.py:8:9\n"),
            ("write", "panic: ufunc write: a core stride of operand 0 is not a multiple of its element size"),
        ] {
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args(["--exact", "shadow_child", "--nocapture", "--test-threads=1"])
                .env("POSTC_SHADOW_LIB", &so)
                .env("POSTC_SHADOW_CASE", case)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.starts_with(want), "{level_name} {case}: stderr {stderr:?}, expected {want:?}");
            assert_eq!(out.status.signal(), Some(6), "{level_name} {case}: {:?}; stderr {stderr:?}", out.status);
        }
    }
}

/// The child side of the panicking cases (does nothing in a normal run).
#[test]
fn shadow_child() {
    let (Some(lib), Ok(case)) = (std::env::var_os("POSTC_SHADOW_LIB"), std::env::var("POSTC_SHADOW_CASE")) else {
        return;
    };
    unsafe {
        let lib = libloading::Library::new(lib).unwrap();
        match case.as_str() {
            "write" => {
                let mut xs = [1.0f64, 2.0];
                write_loop(&lib, &mut xs, 3);
            }
            name => {
                let f: libloading::Symbol<unsafe extern "C" fn(i64, i64) -> i64> = lib.get(name.as_bytes()).unwrap();
                f(1, 0);
            }
        }
    }
    std::process::exit(0);
}

/// A name C reserves (here one of the compiler's support routines) is
/// exported under a symbol of postc's making, so that it cannot take the
/// support routine's place; that symbol cannot be another export's name.
#[test]
fn reserved_names_are_exported_under_their_own_symbol() {
    let src = "module m\nexport __truncdfhf2\n\nfunc __truncdfhf2(%x: Float64) -> Float64 {\nentry:\n  return %x\n}\n";
    let m = postc_ir::parse::parse_module("m.pir", src.as_bytes()).unwrap();
    let program = postc_ir::Program::from_module(m);
    let object = postc_codegen::compile(&program, &CodegenOptions::for_level(OptLevel::O2)).unwrap();
    let has = |name: &[u8]| object.windows(name.len()).any(|w| w == name);
    assert!(has(b"\0postc_export___truncdfhf2\0"));
    assert!(!has(b"\0__truncdfhf2\0"), "the support routine's own symbol is not defined");

    let src = "module m\nexport postc_export_x\n\nfunc postc_export_x(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n";
    let m = postc_ir::parse::parse_module("m.pir", src.as_bytes()).unwrap();
    let program = postc_ir::Program::from_module(m);
    let diags = postc_codegen::compile(&program, &CodegenOptions::for_level(OptLevel::O2)).unwrap_err();
    let text = diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
    assert!(text.contains("`postc_export_x` cannot be exported: names starting `postc_export_`"), "{text}");
    assert!(text.contains("m.pir:4:1"), "{text}");
}

/// The runtime library's names are reserved too: an exported
/// `postc_rt_panic` would clash with the runtime linked into every library.
#[test]
fn runtime_names_are_refused() {
    let src = "module m\nexport postc_rt_panic\n\nfunc postc_rt_panic(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n";
    let m = postc_ir::parse::parse_module("m.pir", src.as_bytes()).unwrap();
    let program = postc_ir::Program::from_module(m);
    let diags = postc_codegen::compile(&program, &CodegenOptions::for_level(OptLevel::O2)).unwrap_err();
    let text = diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
    assert!(text.contains("`postc_rt_panic` cannot be exported: the name is reserved"), "{text}");
}
