//! Every program of `tests/programs/` compiled at -O0 and -O2 into a shared
//! library (with a C file of uniform `void postc_call_F(void **args, void
//! *ret)` trampolines, so a C compiler checks the ABI), loaded with
//! `libloading`, and every `call` case of its `.expected` file run through
//! the C ABI: -O0 runs the `checked` cases, -O2 the `wrap` ones. Results
//! are compared with the expected values (which the reference interpreter
//! is checked against here too); panicking cases run in a child process
//! that must die of SIGABRT printing exactly `panic: MSG at FILE:LINE:COL`.
//!
//! The POST Python programs of `tests/py/` run the same way, lowered by the
//! frontend; their `.expected` files come from CPython running the same
//! source, and every case (ufunc cases too) also runs in the interpreter.

use postc_codegen::{CodegenOptions, OptLevel};
use postc_ir::interp::Value;
use postc_ir::{DType, Module, ModuleId, Program};
use postc_testkit::cases::{parse_expected, Arg, ArrayArg, Case, Ret};
use postc_testkit::compare::compare_list;
use postc_testkit::corpus::{load, program_files, repo_root, stem};
use postc_testkit::run::{check_return, check_stdout, run_case};
use std::ffi::c_void;
use std::fmt::Write as _;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};

#[repr(C)]
struct DLTensor {
    data: *mut c_void,
    device_type: i32,
    device_id: i32,
    ndim: i32,
    code: u8,
    bits: u8,
    lanes: u16,
    shape: *mut i64,
    strides: *mut i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

type Trampoline = unsafe extern "C" fn(*mut *mut c_void, *mut c_void);

fn c_type(d: DType) -> &'static str {
    match d {
        DType::Bool => "_Bool",
        DType::Int8 => "int8_t",
        DType::Int16 => "int16_t",
        DType::Int32 => "int32_t",
        DType::Int64 => "int64_t",
        DType::UInt8 => "uint8_t",
        DType::UInt16 => "uint16_t",
        DType::UInt32 => "uint32_t",
        DType::UInt64 => "uint64_t",
        DType::Float16 => "_Float16",
        DType::Float32 => "float",
        DType::Float64 => "double",
        DType::Complex64 => "postc_c64",
        DType::Complex128 => "postc_c128",
        DType::Str | DType::Bytes => "postc_str",
    }
}

/// The bytes of each element's slot in the result buffer of a call with a
/// tuple result (the widest, a Complex128 or a `postc_str`).
const TUPLE_SLOT: usize = 16;

/// The most elements of a tuple result the harness takes.
const MAX_TUPLE: usize = 8;

/// C trampolines for every function of the module.
fn trampolines(m: &Module) -> String {
    let mut c = String::from(
        "#include <stdint.h>\n#include <stdbool.h>\n\
         typedef struct { float re, im; } postc_c64;\ntypedef struct { double re, im; } postc_c128;\n\
         typedef struct { const char *ptr; int64_t len; } postc_str;\n",
    );
    // Functions by their names, and aliases by theirs.
    let named = m.functions.iter().map(|f| (f.name.as_str(), f)).chain(
        m.function_aliases.iter().filter_map(|(a, t)| m.get_function(t).map(|id| (a.as_str(), &m.functions[id]))),
    );
    for (name, f) in named {
        if f.name.starts_with("postc.") || f.is_ufunc() {
            continue;
        }
        let mut protos = Vec::new();
        let mut args = Vec::new();
        for (i, p) in f.body.all_params().enumerate() {
            let t = m.types.get(f.body.ty(p).unwrap());
            if t.is_array {
                protos.push("void *".to_owned());
                args.push(format!("*(void **)a[{i}]"));
            } else if t.dtype.is_complex() {
                protos.push(format!("{} *", c_type(t.dtype)));
                args.push(format!("({} *)a[{i}]", c_type(t.dtype)));
            } else {
                protos.push(c_type(t.dtype).to_owned());
                args.push(format!("*({} *)a[{i}]", c_type(t.dtype)));
            }
        }
        // The name's exported symbol (`postc_export_NAME` for `_NAME`).
        let symbol = postc_codegen::abi::export_symbol(name);
        let ret = f.ret.map(|t| m.types.get(t));
        let (rt, call) = match ret {
            None => ("void".to_owned(), format!("{}({});", symbol, args.join(", "))),
            // One out-pointer per element, into the element's slot of `r`.
            Some(t) if t.is_tuple() => {
                for k in 0..t.elements.len() {
                    protos.push("void *".to_owned());
                    args.push(format!("(char *)r + {}", TUPLE_SLOT * k));
                }
                ("void".to_owned(), format!("{}({});", symbol, args.join(", ")))
            }
            Some(t) if t.is_array => ("void *".to_owned(), format!("*(void **)r = {}({});", symbol, args.join(", "))),
            Some(t) if t.dtype.is_complex() => {
                protos.push(format!("{} *", c_type(t.dtype)));
                args.push(format!("({} *)r", c_type(t.dtype)));
                ("void".to_owned(), format!("{}({});", symbol, args.join(", ")))
            }
            Some(t) => {
                let ct = c_type(t.dtype);
                (ct.to_owned(), format!("*({ct} *)r = {}({});", symbol, args.join(", ")))
            }
        };
        let _ = writeln!(c, "{rt} {}({});", symbol, if protos.is_empty() { "void".into() } else { protos.join(", ") });
        let _ = writeln!(c, "void postc_call_{}(void **a, void *r) {{ (void)a; (void)r; {call} }}", name);
    }
    c
}

/// Loads a test program: a `.pir` module, or a POST Python file with the
/// modules it imports (named relative to the repository root, as its panic
/// locations are).
fn load_program(path: &Path) -> Result<Program, String> {
    if path.extension().is_some_and(|e| e != "py") {
        return load(path).map(Program::from_module);
    }
    let root = repo_root();
    let rel = path.strip_prefix(&root).unwrap_or(path).to_path_buf();
    std::env::set_current_dir(&root).map_err(|e| e.to_string())?;
    let program = postc_frontend::lower_files(std::slice::from_ref(&rel), Vec::new())
        .map_err(|(sources, diags)| format!("{} does not lower:\n{}", rel.display(), sources.render(&diags, false)))?;
    let diags = postc_ir::verify::verify_program(&program);
    if !diags.is_empty() {
        let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        return Err(format!("{} lowers to IR that does not verify:\n{}", rel.display(), text.join("\n")));
    }
    Ok(program)
}

/// How a test library is built: by the LLVM backend, or by the C backend
/// and a C compiler (the generated C checked with `-std=c11 -Wall -Wextra
/// -pedantic -Werror`), optionally with the undefined-behaviour and address
/// sanitizers aborting at the first report.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Build {
    Llvm,
    C { cc: Compiler, sanitize: bool },
    Qbe,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Compiler {
    Gcc,
    Clang,
    /// gcc told that it has no `_Float16` (`-DPOSTC_NO_FLOAT16`): the C
    /// backend then prepares for a compiler without it.
    GccWithoutFloat16,
}

impl Compiler {
    /// The command: `gcc`, and clang as `clang`, `clang-22` or LLVM 22's own.
    fn command(self) -> &'static str {
        static CLANG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        match self {
            Compiler::Gcc | Compiler::GccWithoutFloat16 => "gcc",
            Compiler::Clang => CLANG.get_or_init(|| {
                ["clang-22", "clang", "/usr/lib/llvm-22/bin/clang"]
                    .into_iter()
                    .find(|c| std::process::Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
                    .expect("clang (scripts/setup installs clang-22)")
                    .to_owned()
            }),
        }
    }

    /// The command and its arguments, as `CC` would give them.
    fn command_line(self) -> Vec<String> {
        let mut c = vec![self.command().to_owned()];
        if self == Compiler::GccWithoutFloat16 {
            c.push("-DPOSTC_NO_FLOAT16".to_owned());
        }
        c
    }

    /// The sanitizer runtime a process that loads a sanitized library
    /// must preload.
    fn asan_runtime(self) -> String {
        let name = match self {
            Compiler::Gcc | Compiler::GccWithoutFloat16 => "libasan.so",
            Compiler::Clang => "libclang_rt.asan-x86_64.so",
        };
        let out = std::process::Command::new(self.command()).arg(format!("-print-file-name={name}")).output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }
}

impl Build {
    fn name(self) -> String {
        match self {
            Build::Llvm => "llvm".into(),
            Build::Qbe => "qbe".into(),
            Build::C { cc, sanitize } => format!("c/{cc:?}{}", if sanitize { "+sanitizers" } else { "" }),
        }
    }
}

fn run_cc(cmd: &mut std::process::Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

/// Compiles a program into a shared library in `dir`, with trampolines for
/// the functions of its first module.
fn build_library(program: &Program, level: OptLevel, dir: &Path, build: Build) -> Result<PathBuf, String> {
    let m = &program.modules[ModuleId::from_u32(0)];
    let mut options = CodegenOptions::for_level(level);
    // `gpu(fallback)` functions run their host body here.
    options.gpu.mode = postc_codegen::llvm::gpu::GpuMode::Off;
    let c = dir.join(format!("{}_calls.c", m.name));
    let mut calls = trampolines(m);
    if let Build::C { cc: Compiler::GccWithoutFloat16, .. } = build {
        // A Float16 is then its bits, passed as an integer.
        calls = calls.replace("_Float16", "uint16_t");
    }
    std::fs::write(&c, calls).map_err(|e| e.to_string())?;
    let so = dir.join(format!("lib{}.so", m.name));
    let Build::C { cc, sanitize } = build else {
        let backend = if build == Build::Qbe { "qbe" } else { "llvm" };
        let obj = postc_codegen::backend::by_name(backend)?
            .emit(program, &options, postc_codegen::EmitKind::Object)
            .map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))?;
        let o = dir.join(format!("{}.o", m.name));
        std::fs::write(&o, obj).map_err(|e| e.to_string())?;
        return run_cc(
            std::process::Command::new("cc")
                .args(["-shared", "-fPIC", "-O1", "-o"])
                .arg(&so)
                .arg(&o)
                .arg(&c)
                .arg(postc_runtime::STATIC_LIB_PATH)
                .args(["-lm", "-ldl"]),
        )
        .map(|()| so);
    };
    let compiler = cc.command_line();
    let out = postc_codegen::c::source(program, &options, &compiler)
        .map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"))?;
    let src = dir.join(format!("{}.c", m.name));
    std::fs::write(&src, out.source).map_err(|e| e.to_string())?;
    postc_codegen::c::write_headers(dir).map_err(|e| e.to_string())?;
    let mut flags = compiler[1..].to_vec();
    flags.extend(postc_codegen::c::c_flags(&options, &compiler));
    if sanitize {
        flags.extend(
            ["-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"].map(String::from),
        );
        if cc == Compiler::Clang {
            flags.push("-shared-libsan".into());
        }
    }
    let o = dir.join(format!("{}.o", m.name));
    run_cc(
        std::process::Command::new(cc.command())
            .args(["-Wall", "-Wextra", "-pedantic", "-Werror"])
            .args(&flags)
            .arg("-I")
            .arg(dir)
            .arg("-c")
            .arg(&src)
            .arg("-o")
            .arg(&o),
    )?;
    run_cc(
        std::process::Command::new(cc.command())
            .args(&flags)
            .arg("-I")
            .arg(dir)
            .arg("-shared")
            .arg("-o")
            .arg(&so)
            .arg(&o)
            .arg(&c)
            .arg(postc_runtime::STATIC_LIB_PATH)
            .args(["-lm", "-ldl"]),
    )?;
    Ok(so)
}

fn encode(v: &Value, d: DType, out: &mut Vec<u8>) {
    match v {
        Value::Bool(b) => out.push(*b as u8),
        Value::Int(_, x) => out.extend_from_slice(&(*x as u128).to_le_bytes()[..d.size_bytes() as usize]),
        Value::Float(_, x) => match d {
            DType::Float16 => out.extend_from_slice(&postc_ir::body::f16_from_f64(*x).to_bits().to_le_bytes()),
            DType::Float32 => out.extend_from_slice(&(*x as f32).to_le_bytes()),
            _ => out.extend_from_slice(&x.to_le_bytes()),
        },
        Value::Complex(_, re, im) => {
            let p = d.complex_part().unwrap();
            encode(&Value::Float(p, *re), p, out);
            encode(&Value::Float(p, *im), p, out);
        }
        _ => panic!("cannot encode {v:?}"),
    }
}

fn decode(b: &[u8], d: DType) -> Value {
    let n = d.size_bytes() as usize;
    let mut w = [0u8; 16];
    w[..n].copy_from_slice(&b[..n]);
    let raw = u128::from_le_bytes(w);
    match d {
        DType::Bool => Value::Bool(b[0] != 0),
        DType::Float16 => Value::Float(d, half::f16::from_bits(raw as u16).to_f64()),
        DType::Float32 => Value::Float(d, f32::from_bits(raw as u32) as f64),
        DType::Float64 => Value::Float(d, f64::from_bits(raw as u64)),
        DType::Complex64 => {
            Value::Complex(d, f32::from_bits(raw as u32) as f64, f32::from_bits((raw >> 32) as u32) as f64)
        }
        DType::Complex128 => Value::Complex(d, f64::from_bits(raw as u64), f64::from_bits((raw >> 64) as u64)),
        d if d.is_signed_int() => {
            let bits = d.bits();
            Value::Int(d, ((raw as i128) << (128 - bits)) >> (128 - bits))
        }
        d => Value::Int(d, (raw & ((1u128 << d.bits()) - 1)) as i128),
    }
}

/// Elements of a strided view in logical C order.
unsafe fn read_view(base: *const u8, d: DType, shape: &[usize], strides: &[isize], offset: isize) -> Vec<Value> {
    let n: usize = shape.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; shape.len()];
    let es = d.size_bytes() as usize;
    for _ in 0..n {
        let pos = offset + idx.iter().zip(strides).map(|(i, s)| *i as isize * s).sum::<isize>();
        let b = std::slice::from_raw_parts(base.offset(pos), es);
        out.push(decode(b, d));
        for ax in (0..shape.len()).rev() {
            idx[ax] += 1;
            if idx[ax] < shape[ax] {
                break;
            }
            idx[ax] = 0;
        }
    }
    out
}

/// The memory behind one call's arguments.
// Boxed: the call takes the addresses of the slots and tensors, which
// must stay put while the vectors grow.
#[allow(clippy::vec_box)]
struct Frame {
    scalars: Vec<Box<[u64; 4]>>,
    buffers: Vec<Vec<u128>>,
    tensors: Vec<Box<DLTensor>>,
    shapes: Vec<Vec<i64>>,
    texts: Vec<Vec<u8>>,
    ptrs: Vec<*mut c_void>,
    /// Argument index → (buffer index, array argument).
    arrays: Vec<Option<(usize, ArrayArg)>>,
}

fn frame(case: &Case) -> Frame {
    let mut f = Frame {
        scalars: vec![],
        buffers: vec![],
        tensors: vec![],
        shapes: vec![],
        texts: vec![],
        ptrs: vec![],
        arrays: vec![],
    };
    for a in &case.args {
        match a {
            Arg::Scalar(v) => {
                let mut slot = Box::new([0u64; 4]);
                let p = slot.as_mut_ptr() as *mut u8;
                match v {
                    Value::Str(_) | Value::Bytes(_) => {
                        let mut bytes = match v {
                            Value::Str(s) => s.as_bytes().to_vec(),
                            Value::Bytes(b) => b.clone(),
                            _ => unreachable!(),
                        };
                        let len = bytes.len() as u64;
                        bytes.push(0);
                        slot[0] = bytes.as_ptr() as u64;
                        slot[1] = len;
                        f.texts.push(bytes);
                    }
                    v => {
                        let mut b = Vec::new();
                        encode(v, v.dtype(), &mut b);
                        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), p, b.len()) };
                    }
                }
                f.ptrs.push(p as *mut c_void);
                f.scalars.push(slot);
                f.arrays.push(None);
            }
            Arg::Array(a) => {
                let es = a.dtype.size_bytes() as usize;
                let mut bytes = Vec::new();
                for v in &a.buf {
                    encode(v, a.dtype, &mut bytes);
                }
                let mut buf = vec![0u128; bytes.len().div_ceil(16) + 1];
                unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.as_mut_ptr() as *mut u8, bytes.len()) };
                let mut shape: Vec<i64> = a.shape.iter().map(|x| *x as i64).collect();
                shape.extend(a.strides.iter().map(|s| (*s / es as isize) as i64));
                let nd = a.shape.len();
                let (code, bits) = postc_codegen::abi::dlpack_dtype(a.dtype);
                let mut t = Box::new(DLTensor {
                    data: buf.as_mut_ptr() as *mut c_void,
                    device_type: 1,
                    device_id: 0,
                    ndim: nd as i32,
                    code,
                    bits,
                    lanes: 1,
                    shape: shape.as_mut_ptr(),
                    strides: unsafe { shape.as_mut_ptr().add(nd) },
                    byte_offset: a.offset as u64,
                });
                let mut slot = Box::new([0u64; 4]);
                slot[0] = (&mut *t) as *mut DLTensor as u64;
                f.ptrs.push(slot.as_mut_ptr() as *mut c_void);
                f.scalars.push(slot);
                f.arrays.push(Some((f.buffers.len(), a.clone())));
                f.buffers.push(buf);
                f.shapes.push(shape);
                f.tensors.push(t);
            }
        }
    }
    f
}

/// The result type of `func`: each element's dtype and whether it is an
/// array (one element unless it is a tuple), and whether it is a tuple.
fn ret_types(m: &Module, func: &str) -> Option<(Vec<(DType, bool)>, bool)> {
    let target = m.function_aliases.get(func).map_or(func, String::as_str);
    let f = &m.functions[m.get_function(target)?];
    f.ret.map(|t| {
        let t = m.types.get(t);
        if t.is_tuple() {
            (t.elements.iter().map(|e| (e.dtype, e.is_array)).collect(), true)
        } else {
            (vec![(t.dtype, t.is_array)], false)
        }
    })
}

/// Calls a case's function through the library; returns the result.
unsafe fn call_case(
    lib: &libloading::Library,
    m: &Module,
    case: &Case,
    f: &mut Frame,
) -> Result<Option<Value>, String> {
    let sym = format!("postc_call_{}", case.func);
    let tramp: libloading::Symbol<Trampoline> = lib.get(sym.as_bytes()).map_err(|e| format!("{sym}: {e}"))?;
    let types = ret_types(m, &case.func);
    let n = types.as_ref().map_or(0, |(es, _)| es.len());
    if n > MAX_TUPLE {
        return Err(format!("a tuple of {n} elements: the harness takes at most {MAX_TUPLE}"));
    }
    let mut ret = [0u64; TUPLE_SLOT / 8 * MAX_TUPLE];
    tramp(f.ptrs.as_mut_ptr(), ret.as_mut_ptr() as *mut c_void);
    let Some((elements, is_tuple)) = types else { return Ok(None) };
    let mut values = Vec::new();
    for (k, (d, is_array)) in elements.into_iter().enumerate() {
        values.push(read_result(&ret[TUPLE_SLOT / 8 * k..TUPLE_SLOT / 8 * (k + 1)], d, is_array)?);
    }
    Ok(Some(if is_tuple { Value::Tuple(values) } else { values.remove(0) }))
}

/// The value of dtype `d` (an array's `DLManagedTensor *`, which is then
/// deleted) written in the result `slot`.
unsafe fn read_result(slot: &[u64], d: DType, is_array: bool) -> Result<Value, String> {
    let rb = std::slice::from_raw_parts(slot.as_ptr() as *const u8, TUPLE_SLOT);
    Ok(match (d, is_array) {
        (d, true) => {
            let mt = slot[0] as *mut DLManagedTensor;
            if mt.is_null() {
                return Err("returned a null array".into());
            }
            let t = &(*mt).dl_tensor;
            let nd = t.ndim as usize;
            let shape: Vec<usize> = (0..nd).map(|i| *t.shape.add(i) as usize).collect();
            let es = d.size_bytes() as isize;
            let strides: Vec<isize> = if t.strides.is_null() {
                let mut s = vec![es; nd];
                for i in (0..nd.saturating_sub(1)).rev() {
                    s[i] = s[i + 1] * shape[i + 1] as isize;
                }
                s
            } else {
                (0..nd).map(|i| *t.strides.add(i) as isize * es).collect()
            };
            let values = read_view(t.data as *const u8, d, &shape, &strides, t.byte_offset as isize);
            let arr = postc_ir::interp::Array::from_values(d, &shape, &values);
            if let Some(del) = (*mt).deleter {
                del(mt);
            }
            Value::Array(arr)
        }
        (d, false) if d.is_text() => {
            let p = slot[0] as *const u8;
            let n = slot[1] as usize;
            let b = std::slice::from_raw_parts(p, n).to_vec();
            if d == DType::Str {
                Value::Str(String::from_utf8_lossy(&b).into_owned())
            } else {
                Value::Bytes(b)
            }
        }
        (d, false) => decode(rb, d),
    })
}

/// The runtime's print handler of these tests: each line appended to the
/// `Mutex<Vec<u8>>` at `data` (lines may come from several threads).
unsafe extern "C" fn collect_printed(text: *const u8, len: usize, data: *mut std::ffi::c_void) {
    let out = unsafe { &*(data as *const std::sync::Mutex<Vec<u8>>) };
    out.lock().unwrap().extend_from_slice(unsafe { std::slice::from_raw_parts(text, len) });
}

type SetPrintHandler =
    unsafe extern "C" fn(Option<unsafe extern "C" fn(*const u8, usize, *mut std::ffi::c_void)>, *mut std::ffi::c_void);

fn check_case(lib: &libloading::Library, m: &Module, case: &Case) -> Result<(), String> {
    let mut f = frame(case);
    let printed = std::sync::Mutex::new(Vec::new());
    // A library linked by hand takes the runtime's printing only when it
    // prints.
    let set: Option<libloading::Symbol<SetPrintHandler>> = unsafe { lib.get(b"postc_rt_set_print_handler") }.ok();
    if let Some(set) = &set {
        unsafe { set(Some(collect_printed), &printed as *const _ as *mut std::ffi::c_void) };
    }
    let got = unsafe { call_case(lib, m, case, &mut f) };
    if let Some(set) = &set {
        unsafe { set(None, std::ptr::null_mut()) };
    }
    let got = got?;
    let tol = case.tol;
    check_return(case.ret.as_ref().unwrap(), got.as_ref(), tol)?;
    check_stdout(&case.stdout, &String::from_utf8_lossy(&printed.into_inner().unwrap()))?;
    for (idx, want) in &case.outs {
        let (bi, a) = f.arrays[*idx].as_ref().unwrap();
        let vals = unsafe {
            read_view(f.buffers[*bi].as_ptr() as *const u8, a.dtype, &a.shape, &a.strides, a.offset as isize)
        };
        compare_list(&format!("argument {idx}"), &vals, want, tol)?;
    }
    for (idx, want) in &case.bufs {
        let (bi, a) = f.arrays[*idx].as_ref().unwrap();
        let es = a.dtype.size_bytes() as isize;
        let vals = unsafe { read_view(f.buffers[*bi].as_ptr() as *const u8, a.dtype, &[a.buf.len()], &[es], 0) };
        compare_list(&format!("buffer of argument {idx}"), &vals, want, tol)?;
    }
    Ok(())
}

fn level_name(l: OptLevel) -> &'static str {
    match l {
        OptLevel::O0 => "O0",
        OptLevel::O1 => "O1",
        OptLevel::O2 => "O2",
        OptLevel::O3 => "O3",
    }
}

/// Runs a panicking case in a child process; checks SIGABRT and stderr.
fn check_panic_case(
    so: &Path,
    pir: &Path,
    case: &Case,
    message: &str,
    loc: &(String, u32, u32),
    build: Build,
) -> Result<(), String> {
    let out = child(so, pir, &case.name, build).output().map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let want = format!("panic: {message} at {}:{}:{}\n", loc.0, loc.1, loc.2);
    if out.status.signal() != Some(6) {
        return Err(format!("child ended with {:?}, expected SIGABRT; stderr {stderr:?}", out.status));
    }
    if stderr != want {
        return Err(format!("stderr {stderr:?}, expected {want:?}"));
    }
    Ok(())
}

/// A child process of this test binary that runs case `name` (every case
/// that does not panic, for `*`) of the program at `pir` through `so`.
fn child(so: &Path, pir: &Path, name: &str, build: Build) -> std::process::Command {
    let exe = std::env::current_exe().unwrap();
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["--exact", "child_runner", "--nocapture", "--test-threads=1"])
        .env("POSTC_CHILD_LIB", so)
        .env("POSTC_CHILD_PIR", pir)
        .env("POSTC_CHILD_CASE", name);
    if let Build::C { cc, sanitize: true } = build {
        // The test binary itself is not instrumented: only the library.
        cmd.env("LD_PRELOAD", cc.asan_runtime())
            .env("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1:verify_asan_link_order=0")
            .env("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:print_stacktrace=1");
    }
    cmd
}

/// The child side of [`check_panic_case`] (does nothing in a normal run).
#[test]
fn child_runner() {
    let (Some(lib), Some(pir), Some(name)) = (
        std::env::var_os("POSTC_CHILD_LIB"),
        std::env::var_os("POSTC_CHILD_PIR"),
        std::env::var("POSTC_CHILD_CASE").ok(),
    ) else {
        return;
    };
    let pir = PathBuf::from(pir);
    let program = load_program(&pir).unwrap();
    let m = program.modules[ModuleId::from_u32(0)].clone();
    let expected = std::fs::read_to_string(pir.with_extension("expected")).unwrap();
    let cases = parse_expected(&expected).unwrap();
    let lib = unsafe { libloading::Library::new(lib).unwrap() };
    if name == "*" {
        let checked = std::env::var("POSTC_CHILD_CHECKED").is_ok();
        let mut bad = 0;
        for case in &cases {
            let runs = !case.ufunc && if checked { case.checked } else { case.wrap };
            if runs && !matches!(case.ret, Some(Ret::Panic { .. })) {
                if let Err(e) = check_case(&lib, &m, case) {
                    eprintln!("case {} ({}): {e}", case.name, case.func);
                    bad += 1;
                }
            }
        }
        std::process::exit(if bad == 0 { 0 } else { 1 });
    }
    let case = cases.iter().find(|c| c.name == name).unwrap();
    let mut f = frame(case);
    let _ = unsafe { call_case(&lib, &m, case, &mut f) };
    std::process::exit(0);
}

fn run_program_native(path: &Path, failures: &mut Vec<String>, counts: &mut (usize, usize)) {
    run_program(path, Build::Llvm, failures, counts)
}

fn run_program(path: &Path, build: Build, failures: &mut Vec<String>, counts: &mut (usize, usize)) {
    let name = stem(path);
    let program = match load_program(path) {
        Ok(p) => p,
        Err(e) => return failures.push(e),
    };
    let m = program.modules[ModuleId::from_u32(0)].clone();
    let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap();
    let cases = match parse_expected(&expected) {
        Ok(c) => c,
        Err(e) => return failures.push(format!("{name}.expected: {e}")),
    };
    let is_py = path.extension().is_some_and(|e| e == "py");
    if is_py && build == Build::Llvm {
        // Ufunc cases run in the interpreter only (the native ABI of ufuncs
        // is tested elsewhere).
        for case in cases.iter().filter(|c| c.ufunc) {
            for checked in [true, false].into_iter().filter(|c| if *c { case.checked } else { case.wrap }) {
                if let Err(e) = run_case(&program, case, checked) {
                    failures.push(format!("{name}: ufunc case {} ({}): interpreter: {e}", case.name, case.func));
                }
                counts.0 += 1;
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    for (level, checked) in [(OptLevel::O0, true), (OptLevel::O2, false)] {
        let ldir = dir.path().join(level_name(level));
        std::fs::create_dir_all(&ldir).unwrap();
        let so = match build_library(&program, level, &ldir, build) {
            Ok(so) => so,
            Err(e) => {
                failures.push(format!("{name} -{} ({}): {e}", level_name(level), build.name()));
                continue;
            }
        };
        if let Build::C { sanitize: true, .. } = build {
            // Every case that returns, in one instrumented process.
            let mut cmd = child(&so, path, "*", build);
            if checked {
                cmd.env("POSTC_CHILD_CHECKED", "1");
            }
            match cmd.output() {
                Ok(o) if o.status.success() => {}
                Ok(o) => failures.push(format!(
                    "{name} -{} ({}): {:?}\n{}",
                    level_name(level),
                    build.name(),
                    o.status,
                    String::from_utf8_lossy(&o.stderr)
                )),
                Err(e) => failures.push(e.to_string()),
            }
        }
        // A sanitized library runs only in a child that preloads the
        // sanitizers' runtime.
        let lib = match build {
            Build::C { sanitize: true, .. } => None,
            _ => Some(unsafe { libloading::Library::new(&so).unwrap() }),
        };
        for case in &cases {
            if case.ufunc || !(if checked { case.checked } else { case.wrap }) {
                continue;
            }
            let what = format!("{name} -{} ({}): case {} ({})", level_name(level), build.name(), case.name, case.func);
            // The reference interpreter agrees with the expected values.
            if build == Build::Llvm {
                if let Err(e) = run_case(&program, case, checked) {
                    failures.push(format!("{what}: interpreter: {e}"));
                }
            }
            counts.0 += 1;
            let r = match case.ret.as_ref().unwrap() {
                Ret::Panic { message, loc } => {
                    counts.1 += 1;
                    check_panic_case(&so, path, case, message, loc, build)
                }
                _ => match &lib {
                    Some(lib) => check_case(lib, &m, case),
                    None => Ok(()),
                },
            };
            if let Err(e) = r {
                failures.push(format!("{what}: {e}"));
            }
        }
    }
}

#[test]
fn programs_run_natively() {
    let mut failures = Vec::new();
    let mut counts = (0, 0);
    let only = std::env::var("POSTC_PROGRAM").ok();
    for path in program_files() {
        if only.as_ref().is_some_and(|o| *o != stem(&path)) {
            continue;
        }
        run_program_native(&path, &mut failures, &mut counts);
    }
    eprintln!("{} native case runs ({} panicking, in child processes)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    // One program of `tests/py/` named by the filter runs none of these.
    assert!(only.is_some() || counts.0 > 300, "too few cases ran: {}", counts.0);
}

/// The minimum size of the POST Python corpus.
const MIN_PY_PROGRAMS: usize = 25;

#[test]
fn py_programs_run_natively() {
    let dir = repo_root().join("tests").join("py");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/py exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.with_extension("expected").is_file())
        .collect();
    files.sort();
    assert!(files.len() >= MIN_PY_PROGRAMS, "only {} POST Python programs with expected results", files.len());
    let mut failures = Vec::new();
    let mut counts = (0, 0);
    let only = std::env::var("POSTC_PROGRAM").ok();
    for path in files {
        if only.as_ref().is_some_and(|o| *o != stem(&path)) {
            continue;
        }
        run_program_native(&path, &mut failures, &mut counts);
    }
    eprintln!("{} POST Python case runs ({} panicking, in child processes)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(only.is_some() || counts.0 > 200, "too few cases ran: {}", counts.0);
}

/// Runs `programs` through `builds`, a program per thread.
fn run_through(programs: Vec<PathBuf>, builds: &[Build]) -> (Vec<String>, (usize, usize)) {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(4);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new((Vec::new(), (0, 0)));
    let jobs: Vec<(PathBuf, Build)> =
        programs.iter().flat_map(|p| builds.iter().map(move |b| (p.clone(), *b))).collect();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((path, build)) = jobs.get(i) else { break };
                let (mut failures, mut counts) = (Vec::new(), (0, 0));
                run_program(path, *build, &mut failures, &mut counts);
                let mut r = results.lock().unwrap();
                r.0.extend(failures);
                r.1 .0 += counts.0;
                r.1 .1 += counts.1;
            });
        }
    });
    let (mut failures, counts) = results.into_inner().unwrap();
    failures.sort();
    (failures, counts)
}

/// The programs of `tests/py/`, or only `POSTC_PROGRAM` when it is set (a
/// run for one program, which skips the floors on the corpus's size).
fn py_programs() -> Vec<PathBuf> {
    let dir = repo_root().join("tests").join("py");
    let only = std::env::var("POSTC_PROGRAM").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/py exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.with_extension("expected").is_file())
        .filter(|p| only.as_ref().is_none_or(|o| *o == stem(p)))
        .collect();
    files.sort();
    files
}

/// Whether a program has `gpu` or `kernel` functions (not `gpu(fallback)`),
/// which the C backend refuses with a diagnostic naming the LLVM backend.
fn has_device_only_code(path: &Path) -> bool {
    let Ok(program) = load_program(path) else { return false };
    program.modules.iter().any(|m| {
        m.functions.iter().any(|f| f.attrs.is_device() && !f.attrs.contains(postc_ir::FuncAttrs::GPU_FALLBACK))
    })
}

const C_BUILDS: [Build; 2] =
    [Build::C { cc: Compiler::Gcc, sanitize: false }, Build::C { cc: Compiler::Clang, sanitize: false }];

/// Every program of tests/programs through the C backend, compiled by gcc
/// and by clang at -O0 and -O2: the same cases and panics as through LLVM.
#[test]
fn programs_run_through_c() {
    let (failures, counts) = run_through(program_files(), &C_BUILDS);
    eprintln!("{} C-backend case runs ({} panicking)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(counts.0 > 1200, "too few cases ran: {}", counts.0);
}

/// The POST Python programs through the C backend (those with `gpu` or
/// `kernel` functions get the diagnostic instead).
#[test]
fn py_programs_run_through_c() {
    let (device, host): (Vec<PathBuf>, Vec<PathBuf>) = py_programs().into_iter().partition(|p| has_device_only_code(p));
    for p in &device {
        let program = load_program(p).unwrap();
        let options = CodegenOptions::for_level(OptLevel::O0);
        use postc_codegen::backend::Backend;
        let e = postc_codegen::c::C.emit(&program, &options, postc_codegen::EmitKind::C).expect_err("a diagnostic");
        let text: Vec<String> = e.iter().map(|d| d.to_string()).collect();
        assert!(
            text.iter().any(|t| t.contains("the C backend cannot compile") && t.contains("--backend llvm")),
            "{text:?}"
        );
    }
    let (failures, counts) = run_through(host, &C_BUILDS);
    eprintln!("{} C-backend POST Python case runs ({} panicking)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    let filtered = std::env::var_os("POSTC_PROGRAM").is_some();
    assert!(filtered || counts.0 > 800, "too few cases ran: {}", counts.0);
}

/// The programs with Float16 values through the C backend for a compiler
/// without `_Float16`: `legalize` writes Float16's arithmetic and
/// conversions out on the bits, and the results are the same bits as
/// through the interpreter.
#[test]
fn float16_programs_run_through_c_without_float16() {
    let mut programs: Vec<PathBuf> = program_files();
    programs.extend(py_programs().into_iter().filter(|p| !has_device_only_code(p)));
    programs.retain(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("Float16")));
    let filtered = std::env::var_os("POSTC_PROGRAM").is_some();
    assert!(filtered || programs.len() >= 5, "only {} programs with Float16", programs.len());
    let no_half = vec!["gcc".to_owned(), "-DPOSTC_NO_FLOAT16".to_owned()];
    let options = CodegenOptions::default();
    assert!(!postc_codegen::c::has_float16(&no_half, &options), "the probe sees POSTC_NO_FLOAT16");
    let build = Build::C { cc: Compiler::GccWithoutFloat16, sanitize: false };
    let (failures, counts) = run_through(programs, &[build]);
    eprintln!("{} C-backend case runs without _Float16 ({} panicking)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(filtered || counts.0 > 100, "too few cases ran: {}", counts.0);
}

/// Every program through the C backend with the undefined-behaviour and
/// address sanitizers, aborting at the first report.
#[test]
fn programs_run_clean_under_sanitizers() {
    let mut programs = program_files();
    programs.extend(py_programs().into_iter().filter(|p| !has_device_only_code(p)));
    let builds = [Build::C { cc: Compiler::Gcc, sanitize: true }, Build::C { cc: Compiler::Clang, sanitize: true }];
    let (failures, counts) = run_through(programs, &builds);
    eprintln!("{} sanitized case runs ({} panicking)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Every program of `tests/programs/` through the QBE backend, at -O0 and
/// -O2: the same cases and panics as through LLVM.
#[test]
fn programs_run_through_qbe() {
    let (failures, counts) = run_through(program_files(), &[Build::Qbe]);
    eprintln!("{} QBE-backend case runs ({} panicking)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(counts.0 > 300, "too few cases ran: {}", counts.0);
}

/// The POST Python programs through the QBE backend.
#[test]
fn py_programs_run_through_qbe() {
    let programs = py_programs();
    let filtered = std::env::var_os("POSTC_PROGRAM").is_some();
    assert!(filtered || programs.len() >= MIN_PY_PROGRAMS, "only {} POST Python programs", programs.len());
    let (failures, counts) = run_through(programs, &[Build::Qbe]);
    eprintln!("{} QBE-backend POST Python case runs ({} panicking)", counts.0, counts.1);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(filtered || counts.0 > 200, "too few cases ran: {}", counts.0);
}
