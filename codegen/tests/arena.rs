//! Arrays from `alloc`: returned to a C caller as a `DLManagedTensor*` with a
//! working deleter, passed between compiled functions (the callee's array
//! joins the caller's arena), and `--link-ir` functions called through an
//! intrinsic import. Views returned from a call keep the arrays of the call
//! they lie in alive until their deleter runs, through a chain of calls.

mod support;

use postc_codegen::{CodegenOptions, OptLevel};
use std::ffi::c_void;
use support::DLTensor;

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

const SRC: &str = "module arena
import intrinsic twice = ext_twice

func make(%n: Int64) -> Float64[] {
entry:
  %a: Float64[] = alloc %n
  %z: Int64 = const 0
  %one: Int64 = const 1
  %eight: Int64 = const 8
  let %i: Int64 = %z
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %off: Int64 = mul %i, %eight
  %f: Float64 = cast %i
  %g: Float64 = call twice(%f)
  store %a, %off, %g
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %a
}

func total(%n: Int64) -> Float64 {
entry:
  %a: Float64[] = call make(%n)
  %scratch: Float64[] = alloc %n
  %z: Int64 = const 0
  %one: Int64 = const 1
  %eight: Int64 = const 8
  %fz: Float64 = const 0.0
  let %i: Int64 = %z
  let %s: Float64 = %fz
  br head
head:
  %more: Bool = lt %i, %n
  condbr %more, body, done
body:
  %off: Int64 = mul %i, %eight
  %x: Float64 = load %a, %off
  store %scratch, %off, %x
  %s2: Float64 = add %s, %x
  set %s = %s2
  %i2: Int64 = add %i, %one
  set %i = %i2
  br head
done:
  return %s
}

func same(%a: Float64[]) -> Float64[] {
entry:
  return %a
}
";

const LL: &str = "define double @ext_twice(double %x) {\n  %r = fmul double %x, 2.0\n  ret double %r\n}\n";

/// `src` compiled at `level` (with `link_ir` linked in) into a shared
/// library in `dir`.
fn shared_library(
    dir: &std::path::Path,
    src: &str,
    level: OptLevel,
    link_ir: &[std::path::PathBuf],
) -> std::path::PathBuf {
    let m = postc_ir::parse::parse_module("arena.pir", src.as_bytes()).unwrap();
    assert!(postc_ir::verify::verify_module(&m).is_empty());
    let name = m.name.clone();
    let program = postc_ir::Program::from_module(m);
    let mut opts = CodegenOptions::for_level(level);
    opts.link_ir = link_ir.to_vec();
    let obj = postc_codegen::compile(&program, &opts).unwrap();
    support::link_with_runtime(dir, &format!("{name}{}", level.as_u8()), &obj)
}

#[test]
fn arrays_cross_the_abi_and_the_arena_frees_them() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("ext.ll");
    std::fs::write(&ll, LL).unwrap();
    for level in [OptLevel::O0, OptLevel::O2] {
        let so = shared_library(dir.path(), SRC, level, std::slice::from_ref(&ll));
        // The linked-in function is internal: not exported.
        let nm = std::process::Command::new("nm").arg("-D").arg("--defined-only").arg(&so).output().unwrap();
        assert!(!String::from_utf8_lossy(&nm.stdout).contains("ext_twice"));
        unsafe {
            let lib = libloading::Library::new(&so).unwrap();
            let make: libloading::Symbol<unsafe extern "C" fn(i64) -> *mut DLManagedTensor> = lib.get(b"make").unwrap();
            let total: libloading::Symbol<unsafe extern "C" fn(i64) -> f64> = lib.get(b"total").unwrap();
            let same: libloading::Symbol<unsafe extern "C" fn(*mut DLTensor) -> *mut DLManagedTensor> =
                lib.get(b"same").unwrap();
            for n in [0i64, 1, 5, 1000] {
                let t = make(n);
                assert!(!t.is_null());
                let d = &(*t).dl_tensor;
                assert_eq!((d.ndim, *d.shape, d.dtype, d.device[0]), (1, n, [2, 64, 1, 0], 1));
                let data = std::slice::from_raw_parts(d.data as *const f64, n as usize);
                assert!(data.iter().enumerate().all(|(i, x)| *x == 2.0 * i as f64));
                ((*t).deleter.unwrap())(t);
                assert_eq!(total(n), (n * (n - 1)) as f64);
            }
            // Many calls: the arena releases what each call allocated.
            for _ in 0..20_000 {
                assert_eq!(total(64), 4032.0);
            }
            // A parameter returned as an array: a fresh header sharing the data.
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
            let r = same(&mut t);
            assert_ne!(r as *mut DLTensor, &mut t as *mut DLTensor);
            let rd = &(*r).dl_tensor;
            assert_eq!((rd.data, rd.ndim, rd.byte_offset), (t.data, 2, 8));
            assert_eq!(std::slice::from_raw_parts(rd.shape, 2), &[2, 3]);
            assert_eq!(std::slice::from_raw_parts(rd.strides, 2), &[3, 1]);
            ((*r).deleter.unwrap())(r);
        }
    }
}

#[test]
fn returned_views_keep_their_bases_alive() {
    // `squares_rev(n)` returns a reversed view of an array it allocated;
    // `squares_rev_tail(n)` a view of that view, which a callee returned.
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("ext.ll");
    std::fs::write(&ll, LL).unwrap();
    let views = support::root().join("tests/programs/views.pir");
    let views = std::fs::read_to_string(views).unwrap();
    for level in [OptLevel::O0, OptLevel::O2] {
        let scribbler = shared_library(dir.path(), SRC, level, std::slice::from_ref(&ll));
        let so = shared_library(dir.path(), &views, level, &[]);
        unsafe {
            let scribbler = libloading::Library::new(&scribbler).unwrap();
            // Allocates and frees arrays of the sizes of the views' bases and
            // headers, writing other values: the memory a freed base would
            // be reused for.
            let total: libloading::Symbol<unsafe extern "C" fn(i64) -> f64> = scribbler.get(b"total").unwrap();
            let lib = libloading::Library::new(&so).unwrap();
            for name in ["squares_rev", "squares_rev_tail"] {
                let make: libloading::Symbol<unsafe extern "C" fn(i64) -> *mut DLManagedTensor> =
                    lib.get(name.as_bytes()).unwrap();
                let n = 9i64;
                let skip = usize::from(name == "squares_rev_tail");
                let want: Vec<i64> = (0..n).rev().map(|i| i * i).skip(skip).collect();
                let t = make(n);
                for _ in 0..100 {
                    assert_eq!(total(n), (n * (n - 1)) as f64);
                }
                let d = &(*t).dl_tensor;
                assert_eq!((d.ndim, *d.shape as usize, d.byte_offset), (1, want.len(), 0), "{name}");
                let (stride, data) = (*d.strides as isize, d.data as *const i64);
                let got: Vec<i64> = (0..want.len() as isize).map(|k| *data.offset(k * stride)).collect();
                assert_eq!(got, want, "{name} at {level:?}");
                ((*t).deleter.unwrap())(t);
            }
        }
    }
}
