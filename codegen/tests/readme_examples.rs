//! The README's C example, run verbatim against the shared library the
//! README's main command builds from `examples/saxpy.pir` (the Python
//! example of docs/abi.md runs in `abi_python.rs`).

mod support;
use std::process::Command;
use support::{root, shared_library, tmpdir, DLTensor};

/// The body of the first fenced block of `lang` in the README.
fn block(readme: &str, lang: &str) -> String {
    let open = format!("```{lang}\n");
    let start = readme.find(&open).unwrap_or_else(|| panic!("no ```{lang} block")) + open.len();
    let end = readme[start..].find("```").expect("closed block") + start;
    readme[start..end].to_owned()
}

#[test]
fn readme_examples_call_the_compiled_library() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dir = tmpdir("readme");
    let lib = dir.join("libsaxpy.so");
    shared_library("examples/saxpy.pir", 2, &lib);

    std::fs::write(dir.join("main.c"), block(&readme, "c")).unwrap();
    let exe = dir.join("main");
    let out = Command::new("cc")
        .arg(dir.join("main.c"))
        .arg("-I")
        .arg(root().join("include"))
        .arg("-L")
        .arg(&dir)
        .args(["-lsaxpy", "-o"])
        .arg(&exe)
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout), "12 24 36 48\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `examples/axpy.pir`, the small ufunc module of the compile-time figure:
/// its NumPy inner loop with a broadcast (step 0) operand, and its DLPack
/// entry point broadcasting a one-element `a` over a strided `x`.
#[test]
fn axpy_example_loop_and_dl() {
    let dir = tmpdir("axpy");
    let lib = dir.join("libaxpy.so");
    shared_library("examples/axpy.pir", 2, &lib);
    let f64_t = [2u8, 64, 1, 0];
    let tensor = |data: *mut f64, shape: &[i64], strides: Option<&[i64]>| DLTensor {
        data: data.cast(),
        device: [1, 0],
        ndim: shape.len() as i32,
        dtype: f64_t,
        shape: shape.as_ptr().cast_mut(),
        strides: strides.map_or(std::ptr::null_mut(), |s| s.as_ptr().cast_mut()),
        byte_offset: 0,
    };
    unsafe {
        let l = libloading::Library::new(&lib).unwrap();
        type Loop = unsafe extern "C" fn(*const *mut u8, *const isize, *const isize, *mut std::ffi::c_void);
        type Dl = unsafe extern "C" fn(*mut DLTensor, *mut DLTensor, *mut DLTensor, *mut DLTensor);
        let lp: libloading::Symbol<Loop> = l.get(b"axpy_loop").unwrap();
        let dl: libloading::Symbol<Dl> = l.get(b"axpy_dl").unwrap();
        let mut a = [3.0f64];
        let mut x: Vec<f64> = (0..10).map(|i| i as f64 * 0.5).collect();
        let mut y: Vec<f64> = (0..5).map(|i| 100.0 - i as f64).collect();
        let mut r = vec![0.0f64; 5];
        // x[::2] through the loop's steps, `a` broadcast with step 0.
        let args = [a.as_mut_ptr().cast(), x.as_mut_ptr().cast(), y.as_mut_ptr().cast(), r.as_mut_ptr().cast::<u8>()];
        lp(args.as_ptr(), [5isize].as_ptr(), [0isize, 16, 8, 8].as_ptr(), std::ptr::null_mut());
        let want: Vec<f64> = (0..5).map(|i| 3.0 * x[2 * i] + y[i]).collect();
        assert_eq!(r, want);
        // The same through DLPack: `a` of shape (1,) broadcast, `x` strided.
        let mut r2 = vec![0.0f64; 5];
        let (one, five, two) = ([1i64], [5i64], [2i64]);
        let mut ta = tensor(a.as_mut_ptr(), &one, None);
        let mut tx = tensor(x.as_mut_ptr(), &five, Some(&two));
        let mut ty = tensor(y.as_mut_ptr(), &five, None);
        let mut tr = tensor(r2.as_mut_ptr(), &five, None);
        dl(&mut ta, &mut tx, &mut ty, &mut tr);
        assert_eq!(r2, want);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
