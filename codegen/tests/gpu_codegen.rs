//! GPU code generation without a GPU.
//!
//! - Every `tests/gpu/*.pir` program compiles to PTX at -O0 and -O2, and
//!   `ptxas --gpu-name sm_90` (from the PyPI package `nvidia-cuda-nvcc-cu12`)
//!   accepts it; without ptxas that check prints that it skips.
//! - End to end: each program is built by `postc-driver compile --emit
//!   shared` (which links `libpostc_runtime_gpu.a`) and called by
//!   `tests/gpu/harness.c` with `POSTC_GPU_DRIVER_PATH` naming the fake
//!   driver of `runtime-gpu/tests/fake/`, whose kernel launches run the
//!   ufuncs' host bodies; the results must equal the host bodies' bit for
//!   bit. A `gpu(fallback)` ufunc without a driver takes its host body; a
//!   bare `gpu` ufunc without one aborts at load.

mod support;
use postc_codegen::llvm::gpu;
use postc_codegen::{CodegenOptions, OptLevel};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use support::{driver, root, tmpdir};

/// Whether libdevice (for math.pir) can be found; says so when not.
fn libdevice() -> bool {
    match gpu::find_libdevice() {
        Ok(_) => true,
        Err(e) => {
            eprintln!("skipping math.pir: {e}");
            false
        }
    }
}

fn programs() -> Vec<PathBuf> {
    let with_math = libdevice();
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/gpu"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .filter(|p| with_math || !p.ends_with("math.pir"))
        .collect();
    v.sort();
    assert!(v.len() >= 3, "tests/gpu holds {} programs", v.len());
    v
}

fn load(path: &Path) -> postc_ir::Program {
    let mut loader = postc_ir::resolve::Loader::with_include_dirs(Vec::new());
    match loader.load(&[path.to_path_buf()]) {
        Ok(p) => p,
        Err(d) => panic!("{}: {d:?}", path.display()),
    }
}

fn ptx(path: &Path, level: OptLevel) -> String {
    let program = load(path);
    let options = CodegenOptions::for_level(level);
    gpu::emit_ptx(&program, &options).unwrap_or_else(|d| panic!("{}: {d:?}", path.display()))
}

/// `ptxas` from `nvidia-cuda-nvcc-cu12`, or `ptxas` on the PATH.
fn ptxas() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import nvidia.cuda_nvcc as m; print(list(m.__path__)[0])"])
        .output()
        .ok()?;
    if out.status.success() {
        let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("bin/ptxas");
        if p.is_file() {
            return Some(p);
        }
    }
    Command::new("ptxas").arg("--version").output().ok().filter(|o| o.status.success()).map(|_| "ptxas".into())
}

#[test]
fn kernels_are_ptx_entries_with_the_ptx_kernel_convention() {
    for p in programs() {
        let text = ptx(&p, OptLevel::O2);
        assert!(text.contains(".target sm_90"), "{}:\n{text}", p.display());
        let program = load(&p);
        // A ufunc's grid-stride loop reads all four special registers; a
        // kernel function reads those its built-ins name.
        let mut registers: Vec<String> = Vec::new();
        for m in program.modules.iter() {
            for f in m.functions.iter().filter(|f| f.attrs.is_device()) {
                let entry = format!(".visible .entry __postc_kernel_{}(", f.name);
                assert!(text.contains(&entry), "{}: no `{entry}` in\n{text}", p.display());
                if f.ufunc_sig.is_some() {
                    registers.extend(["%tid.x", "%ntid.x", "%ctaid.x", "%nctaid.x"].map(String::from));
                }
                for v in f.body.tags.ids() {
                    let postc_ir::InstData::Call { callee, .. } = f.body.inst(v) else { continue };
                    if let Some(postc_ir::builtins::Builtin::Gpu(reg, axis)) =
                        postc_ir::builtins::Builtin::from_name(callee)
                    {
                        let sreg = ["tid", "ctaid", "ntid", "nctaid"][reg as usize];
                        registers.push(format!("%{sreg}.{}", axis.name()));
                    }
                }
            }
        }
        assert!(!registers.is_empty(), "{}: no special register is read", p.display());
        for r in &registers {
            assert!(text.contains(r.as_str()), "{}: no {r}", p.display());
        }
    }
}

#[test]
fn gpu_arch_is_an_option() {
    let program = load(&root().join("tests/gpu/saxpy.pir"));
    let mut options = CodegenOptions::for_level(OptLevel::O2);
    options.gpu.arch = Some("sm_80".into());
    let text = gpu::emit_ptx(&program, &options).unwrap();
    assert!(text.contains(".target sm_80"), "{text}");
    options.gpu.arch = Some("gfx90a".into());
    let e = gpu::emit_ptx(&program, &options).unwrap_err();
    assert!(format!("{e:?}").contains("unknown GPU architecture `gfx90a`"), "{e:?}");
}

#[test]
fn unsupported_gpu_functions_are_diagnosed() {
    let dir = tmpdir("gpu-unsupported");
    let src = dir.join("g.pir");
    std::fs::write(&src, "module g\n\nfunc f(%x: Complex128) -> Complex128 gpu {\nentry:\n  return %x\n}\n").unwrap();
    let program = load(&src);
    let e = gpu::emit_ptx(&program, &CodegenOptions::for_level(OptLevel::O2)).unwrap_err();
    assert!(format!("{e:?}").contains("gpu function `f`: a Complex128 result (not supported on the GPU)"), "{e:?}");
    // `--gpu off` compiles it for the host.
    let mut options = CodegenOptions::for_level(OptLevel::O2);
    options.gpu.mode = gpu::GpuMode::Off;
    postc_codegen::compile(&program, &options).unwrap();
}

#[test]
fn ptxas_accepts_every_gpu_program() {
    let Some(ptxas) = ptxas() else {
        eprintln!("skipping: no ptxas (pip install nvidia-cuda-nvcc-cu12)");
        return;
    };
    let dir = tmpdir("gpu-ptxas");
    for p in programs() {
        for level in [OptLevel::O0, OptLevel::O2] {
            let text = ptx(&p, level);
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            let file = dir.join(format!("{stem}.O{}.ptx", level.as_u8()));
            std::fs::write(&file, &text).unwrap();
            let out = Command::new(&ptxas)
                .args(["--gpu-name", "sm_90", "-o"])
                .arg(file.with_extension("cubin"))
                .arg(&file)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "ptxas rejected {} (-O{}):\n{}",
                p.display(),
                level.as_u8(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

// ---------------------------------------------------------------------------
// End to end, with the fake driver

fn cc(args: &[&str], out: &Path) {
    let o = Command::new("cc").args(args).arg("-o").arg(out).output().expect("cc");
    assert!(o.status.success(), "cc {args:?} failed:\n{}", String::from_utf8_lossy(&o.stderr));
}

struct Fixture {
    dir: PathBuf,
    harness: PathBuf,
    fake: PathBuf,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tmpdir("gpu-e2e");
        let fake = dir.join("libfakegpu.so");
        let src = root().join("runtime-gpu/tests/fake/fake_driver.c");
        cc(&["-shared", "-fPIC", "-O1", src.to_str().unwrap(), "-lpthread"], &fake);
        let harness = dir.join("harness");
        cc(&["-O1", root().join("tests/gpu/harness.c").to_str().unwrap(), "-ldl", "-lm", "-lpthread"], &harness);
        Fixture { dir, harness, fake }
    })
}

fn library(name: &str, level: u8) -> PathBuf {
    library_with(name, level, &[])
}

fn library_with(name: &str, level: u8, flags: &[&str]) -> PathBuf {
    let f = fixture();
    let lib = f.dir.join(format!("lib{name}.O{level}{}.so", flags.concat()));
    let out = Command::new(driver())
        .current_dir(root())
        .args(["compile", &format!("-O{level}"), "--emit", "shared", &format!("tests/gpu/{name}.pir"), "-o"])
        .arg(&lib)
        .args(flags)
        .output()
        .unwrap();
    assert!(out.status.success(), "postc-driver compile failed:\n{}", String::from_utf8_lossy(&out.stderr));
    lib
}

fn harness(scenario: &str, lib: &Path, driver_path: &Path, fake: bool) -> Output {
    harness_with(scenario, lib, driver_path, fake, None)
}

fn harness_with(scenario: &str, lib: &Path, driver_path: &Path, fake: bool, extra: Option<&Path>) -> Output {
    let f = fixture();
    let mut cmd = Command::new(&f.harness);
    cmd.arg(scenario).arg(lib);
    if fake {
        cmd.arg(&f.fake);
    } else {
        cmd.arg("-");
    }
    if let Some(x) = extra {
        cmd.arg(x);
    }
    cmd.env("POSTC_GPU_DRIVER_PATH", driver_path).env_remove("POSTC_GPU_RUNTIME");
    cmd.output().unwrap()
}

fn assert_ok(o: &Output, what: &str) {
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("HARNESS OK"),
        "{what}: {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn gpu_ufuncs_run_through_the_fake_driver() {
    let fake = fixture().fake.clone();
    for level in [0, 2] {
        for (scenario, name) in [
            ("saxpy", "saxpy"),
            ("intmix", "intmix"),
            ("fallback", "fallback"),
            ("gufunc", "gufunc"),
            ("device", "saxpy"),
        ] {
            let lib = library(name, level);
            assert_ok(&harness(scenario, &lib, &fake, true), &format!("{scenario} -O{level}"));
        }
    }
}

/// Two host threads calling a gpu ufunc at once (NVPTX and AMDGPU builds):
/// each launches and copies on its own stream and stages into its own
/// arena, both launches run at the same time, and the streams and arenas go
/// when the threads end.
#[test]
fn host_threads_launch_on_their_own_streams() {
    let fake = fixture().fake.clone();
    for flags in [&[][..], &["--gpu", "amdgpu"][..]] {
        let lib = library_with("saxpy", 2, flags);
        assert_ok(&harness("threads", &lib, &fake, true), &format!("threads {flags:?}"));
    }
}

/// Kernel functions and a plain gpu function: the GPU build (through the
/// fake driver, whose launches run the `--gpu off` build's emulation) and
/// the host build itself both agree with plain C loops in the harness.
#[test]
fn kernel_functions_run_through_the_fake_driver() {
    let fake = fixture().fake.clone();
    for level in [0, 2] {
        let lib = library("kernels", level);
        let off = library_with("kernels", level, &["--gpu", "off"]);
        assert_ok(&harness_with("kernels", &lib, &fake, true, Some(&off)), &format!("kernels -O{level}"));
    }
}

#[test]
fn kernel_functions_abort_at_load_without_a_driver() {
    let lib = library("kernels", 2);
    let off = library_with("kernels", 2, &["--gpu", "off"]);
    let o = harness_with("kernels", &lib, Path::new("/nonexistent"), false, Some(&off));
    assert_eq!(o.status.signal(), Some(6), "{o:?}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("panic: no usable GPU for gpu function sumsq\n"), "{stderr}");
}

/// Kernels whose threads cooperate (coop.pir: a tiled matmul, a block sum,
/// a histogram): the host build's coroutine emulation, and the GPU builds
/// for NVIDIA and AMD through the fake driver (whose launches run the host
/// build), all agree with plain C loops exactly.
#[test]
fn cooperating_kernels_run_through_the_fake_driver() {
    let fake = fixture().fake.clone();
    for level in [0, 2] {
        let off = library_with("coop", level, &["--gpu", "off"]);
        let lib = library("coop", level);
        assert_ok(&harness_with("coop", &lib, &fake, true, Some(&off)), &format!("coop -O{level}"));
    }
    let off = library_with("coop", 2, &["--gpu", "off"]);
    let lib = library_with("coop", 2, &["--gpu", "amdgpu"]);
    assert_ok(&harness_with("coop", &lib, &fake, true, Some(&off)), "coop amdgpu");
}

/// Device code never calls `malloc`: a gufunc operand that needs a scratch
/// copy (gufunc.pir's `cross` with strided operands) takes it from a buffer
/// the launch passes as the kernel's last two parameters.
#[test]
fn scratch_copies_come_from_the_launch_not_device_malloc() {
    for p in programs() {
        for level in [OptLevel::O0, OptLevel::O2] {
            let text = ptx(&p, level);
            assert!(!text.contains("malloc"), "{} (-O{}) calls malloc", p.display(), level.as_u8());
        }
    }
    let text = ptx(&root().join("tests/gpu/gufunc.pir"), OptLevel::O2);
    let entry = text.find(".entry __postc_kernel_cross(").expect("the cross kernel");
    let params = &text[entry..entry + text[entry..].find(')').unwrap()];
    // 3 operands, 3 + 3 steps, 2 dimensions, the buffer and its part size.
    assert_eq!(params.matches(".param").count(), 13, "{params}");
}

/// The PTX of coop.pir: one `.shared` array per `postc.gpu.shared` call,
/// `bar.sync` barriers, atomic adds on global and shared memory.
#[test]
fn cooperating_kernels_use_shared_memory_barriers_and_atomics_in_ptx() {
    for level in [OptLevel::O0, OptLevel::O2] {
        let text = ptx(&root().join("tests/gpu/coop.pir"), level);
        let shared: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with(".shared .align 16 .b8")).collect();
        assert_eq!(shared.len(), 4, "{shared:?}");
        for (kernel, bytes) in [("matmul_tiled", 512), ("block_sum", 512), ("histogram", 64)] {
            let n = shared.iter().filter(|l| l.contains(kernel) && l.ends_with(&format!("[{bytes}];"))).count();
            assert_eq!(n, if kernel == "matmul_tiled" { 2 } else { 1 }, "{kernel}: {shared:?}");
        }
        assert!(text.contains("bar.sync \t0;"), "no barrier in\n{text}");
        for op in ["add.f64", "add.u64"] {
            assert!(text.lines().any(|l| l.contains("atom.") && l.contains(op)), "no atomic {op} in\n{text}");
        }
        assert!(text.lines().any(|l| l.contains("atom.") && l.contains(".u32")), "no 32-bit atomic in\n{text}");
    }
}

/// The AMDGPU code object of coop.pir: LDS sized per kernel, `s_barrier`,
/// LDS and global atomics.
#[test]
fn cooperating_kernels_use_lds_and_barriers_on_amdgpu() {
    let dir = tmpdir("gpu-coop-hsaco");
    let program = load(&root().join("tests/gpu/coop.pir"));
    for (level, arch) in [(OptLevel::O0, "gfx90a"), (OptLevel::O2, "gfx942")] {
        let mut options = CodegenOptions::for_level(level);
        options.gpu.mode = gpu::GpuMode::Amdgpu;
        options.gpu.arch = Some(arch.into());
        let bytes = gpu::emit_code_object(&program, &options).unwrap();
        let file = dir.join(format!("coop.{arch}.hsaco"));
        std::fs::write(&file, &bytes).unwrap();
        let notes = Command::new(readelf()).arg("--notes").arg(&file).output().expect("llvm-readelf");
        let notes = String::from_utf8_lossy(&notes.stdout).into_owned();
        // The metadata gives each kernel's LDS size before its name.
        let mut sizes = Vec::new();
        let mut lds = None;
        for l in notes.lines().map(str::trim) {
            if let Some(v) = l.strip_prefix(".group_segment_fixed_size:") {
                lds = v.trim().parse::<u64>().ok();
            } else if let Some(name) = l.strip_prefix(".name:").map(str::trim) {
                if let (Some(k), Some(n)) = (name.strip_prefix("__postc_kernel_"), lds.take()) {
                    sizes.push((k.to_owned(), n));
                }
            }
        }
        sizes.sort();
        let want = [("block_sum", 512), ("histogram", 64), ("matmul_tiled", 1024)].map(|(k, n)| (k.to_owned(), n));
        assert_eq!(sizes, want, "{arch}:\n{notes}");
        let objdump = readelf().with_file_name("llvm-objdump");
        let dis = Command::new(&objdump).arg("-d").arg(&file).output().expect("llvm-objdump");
        let dis = String::from_utf8_lossy(&dis.stdout);
        assert!(dis.contains("s_barrier"), "{arch}: no s_barrier");
        assert!(dis.lines().any(|l| l.contains("ds_add")), "{arch}: no LDS atomic");
        assert!(dis.lines().any(|l| l.contains("_atomic_")), "{arch}: no global atomic");
    }
}

/// In the host emulation, a thread that returns while the others of its
/// block wait at a barrier is a panic naming both.
#[test]
fn a_barrier_some_threads_skip_panics_in_the_host_emulation() {
    let dir = tmpdir("gpu-diverge");
    let src = dir.join("diverge.pir");
    std::fs::write(
        &src,
        "module diverge\n\nfunc k() kernel {\nentry:\n  %t: Int64 = call postc.gpu.thread_idx.x()\n  \
         %b: Int64 = call postc.gpu.block_idx.x()\n  %two: Int64 = const 2\n  %one: Int64 = const 1\n  \
         %t2: Bool = eq %t, %two\n  %b1: Bool = eq %b, %one\n  %early: Bool = and %t2, %b1\n  \
         condbr %early, leave, wait\nleave:\n  return\n\
         wait:\n  call postc.gpu.sync_threads()\n  return\n}\n",
    )
    .unwrap();
    let lib = dir.join("libdiverge.so");
    let out = Command::new(driver())
        .args(["compile", "--gpu", "off", "--emit", "shared"])
        .arg(&src)
        .arg("-o")
        .arg(&lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let o = Command::new(&fixture().harness).arg("diverge").arg(&lib).output().unwrap();
    assert_eq!(o.status.signal(), Some(6), "{o:?}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("harness: one block passed\n"), "{stderr}");
    assert!(
        stderr.contains(
            "panic: kernel function k: thread (2, 0, 0) of block (1, 0, 0) returned while other threads of its block \
             wait at postc.gpu.sync_threads\n"
        ),
        "{stderr}"
    );
}

/// A NULL launch configuration is a panic through the runtime's
/// `postc_rt_panic`, in the launcher of a GPU build (through the fake
/// driver), the host emulation and the cooperative emulation alike: a panic
/// handler receives it, and without one it stops the program.
#[test]
fn a_null_launch_configuration_panics_through_the_runtime() {
    let dir = tmpdir("gpu-nullcfg");
    let build = |name: &str, flags: &[&str]| {
        let lib = dir.join(format!("lib{name}{}.so", flags.concat()));
        let out = Command::new(driver())
            .current_dir(root())
            .args(["compile", "--emit", "shared", &format!("tests/gpu/{name}.pir"), "-o"])
            .arg(&lib)
            .args(flags)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        lib
    };
    let fake = fixture().fake.clone();
    let cases = [
        ("scale", build("kernels", &[]), true),
        ("scale", build("kernels", &["--gpu", "off"]), false),
        ("block_sum", build("coop", &["--gpu", "off"]), false),
    ];
    for (kernel, lib, through_fake) in cases {
        let driver_path = if through_fake { fake.clone() } else { PathBuf::from("/nonexistent") };
        let o = harness_with("nullcfg", &lib, &driver_path, through_fake, Some(Path::new(kernel)));
        assert_eq!(o.status.signal(), Some(6), "{kernel} in {}: {o:?}", lib.display());
        let stderr = String::from_utf8_lossy(&o.stderr);
        let msg = format!("panic: kernel function {kernel}: the launch configuration is NULL");
        assert!(stderr.contains(&format!("harness: handled: {msg}\n")), "{}: {stderr}", lib.display());
        assert!(stderr.ends_with(&format!("\n{msg}\n")), "{}: {stderr}", lib.display());
    }
}

/// The loader of the device image joins the constructors that `--link-ir`
/// files bring, after them.
#[test]
fn the_gpu_loader_joins_linked_constructors() {
    let dir = tmpdir("gpu-ctors");
    let ll = dir.join("ctor.ll");
    std::fs::write(
        &ll,
        "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @user_init, ptr null }]\n\
         @msg = private constant [6 x i8] c\"hello\\00\"\n\
         declare i32 @puts(ptr)\n\
         define void @user_init() {\n  %r = call i32 @puts(ptr @msg)\n  ret void\n}\n",
    )
    .unwrap();
    let out_ll = dir.join("kernels.ll");
    let out = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--emit", "llvm-ir", "tests/gpu/kernels.pir", "--link-ir"])
        .arg(&ll)
        .arg("-o")
        .arg(&out_ll)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ir = std::fs::read_to_string(&out_ll).unwrap();
    let ctors = ir.lines().filter(|l| l.starts_with("@llvm.global_ctors")).collect::<Vec<_>>();
    assert_eq!(ctors.len(), 1, "{ctors:?}");
    let c = ctors[0];
    assert!(c.contains("[2 x { i32, ptr, ptr }]"), "{c}");
    let (user, loader) = (c.find("i32 101, ptr @user_init"), c.find("i32 65535, ptr @postc.gpu.init"));
    assert!(matches!((user, loader), (Some(u), Some(l)) if u < l), "{c}");
}

/// A `--link-ir` file that LLVM's verifier rejects (here a constructor list
/// of the wrong type, which crashes LLVM's passes) is a diagnostic.
#[test]
fn a_malformed_linked_constructor_list_is_a_diagnostic() {
    let dir = tmpdir("gpu-bad-ctors");
    let ll = dir.join("bad.ll");
    std::fs::write(&ll, "@llvm.global_ctors = appending global [1 x i32] [i32 5]\n").unwrap();
    let out = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--emit", "obj", "tests/gpu/kernels.pir", "--link-ir"])
        .arg(&ll)
        .arg("-o")
        .arg(dir.join("kernels.o"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bad.ll` is not valid LLVM IR: wrong type for intrinsic global variable"), "{stderr}");
}

/// `llvm-readelf` from LLVM 22 or the PATH.
fn readelf() -> PathBuf {
    let llvm = PathBuf::from("/usr/lib/llvm-22/bin/llvm-readelf");
    if llvm.is_file() {
        llvm
    } else {
        "llvm-readelf".into()
    }
}

/// Every GPU program but math.pir (libdevice is NVIDIA's) compiles to an
/// AMDGPU code object at -O0 and -O2: an ELF for EM_AMDGPU with the chosen
/// architecture and one kernel descriptor (`NAME.kd`) per gpu function.
#[test]
fn amdgpu_code_objects_pass_llvm_readelf() {
    let dir = tmpdir("gpu-hsaco");
    for p in programs().into_iter().filter(|p| !p.ends_with("math.pir")) {
        let program = load(&p);
        for (level, arch) in [(OptLevel::O0, "gfx90a"), (OptLevel::O2, "gfx942")] {
            let mut options = CodegenOptions::for_level(level);
            options.gpu.mode = gpu::GpuMode::Amdgpu;
            options.gpu.arch = Some(arch.into());
            let bytes = gpu::emit_code_object(&program, &options).unwrap_or_else(|d| panic!("{}: {d:?}", p.display()));
            let file = dir.join(format!("{}.{arch}.hsaco", p.file_stem().unwrap().to_string_lossy()));
            std::fs::write(&file, &bytes).unwrap();
            let out = Command::new(readelf()).args(["-h", "-s", "--notes"]).arg(&file).output().expect("llvm-readelf");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
            assert!(text.contains("EM_AMDGPU"), "{}:\n{text}", file.display());
            assert!(text.contains(&format!("amdgcn-amd-amdhsa--{arch}")), "{}: no {arch} in\n{text}", file.display());
            for m in program.modules.iter() {
                for f in m.functions.iter().filter(|f| f.attrs.is_device()) {
                    let kd = format!("__postc_kernel_{}.kd", f.name);
                    assert!(text.contains(&kd), "{}: no {kd} in\n{text}", file.display());
                }
            }
        }
    }
    // The ROCm device libraries are not linked: math is a diagnostic.
    let mut options = CodegenOptions::for_level(OptLevel::O2);
    options.gpu.mode = gpu::GpuMode::Amdgpu;
    let e = gpu::emit_code_object(&load(&root().join("tests/gpu/math.pir")), &options).unwrap_err();
    assert!(format!("{e:?}").contains("the ROCm device libraries are not linked"), "{e:?}");
    options.gpu.arch = Some("sm_90".into());
    let e = gpu::emit_code_object(&load(&root().join("tests/gpu/saxpy.pir")), &options).unwrap_err();
    let text = format!("{e:?}");
    assert!(text.contains("unknown GPU architecture `sm_90` for amdgpu; the known ones are: "), "{e:?}");
    assert!(text.contains("gfx90a") && !text.contains("sm_80"), "{e:?}");
}

/// The same harness scenarios with AMDGPU builds, through the fake
/// driver's HIP entry points (the constructor selects HIP).
#[test]
fn amdgpu_builds_run_through_the_fake_driver() {
    let fake = fixture().fake.clone();
    for (scenario, name) in [("saxpy", "saxpy"), ("gufunc", "gufunc"), ("fallback", "fallback"), ("device", "saxpy")] {
        let lib = library_with(name, 2, &["--gpu", "amdgpu"]);
        assert_ok(&harness(scenario, &lib, &fake, true), &format!("{scenario} amdgpu"));
    }
    let lib = library_with("kernels", 2, &["--gpu", "amdgpu"]);
    let off = library_with("kernels", 2, &["--gpu", "off"]);
    assert_ok(&harness_with("kernels", &lib, &fake, true, Some(&off)), "kernels amdgpu");
    // The code object goes to HIP: a failure injected there names it.
    let lib = library_with("saxpy", 2, &["--gpu", "amdgpu"]);
    let o = Command::new(&fixture().harness)
        .arg("saxpy")
        .arg(&lib)
        .arg(&fake)
        .env("POSTC_GPU_DRIVER_PATH", &fake)
        .env_remove("POSTC_GPU_RUNTIME")
        .env("FAKE_GPU_FAIL", "hipModuleLoadData")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("panic: hipModuleLoadData failed"), "{stderr}");
}

/// The strings a PTX module holds as `.b8 NAME[N] = {...}` arrays.
fn ptx_strings(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split_once("] = {"))
        .map(|(_, bytes)| {
            let b: Vec<u8> =
                bytes.trim_end_matches("};").split(',').filter_map(|x| x.trim().parse::<u8>().ok()).collect();
            String::from_utf8_lossy(&b).into_owned()
        })
        .collect()
}

/// A failed check on an NVIDIA device prints its message and location
/// through `vprintf` before the trap fails the launch.
#[test]
fn device_panics_print_through_vprintf() {
    for level in [OptLevel::O0, OptLevel::O2] {
        let text = ptx(&root().join("tests/gpu/kernels.pir"), level);
        assert!(text.contains("vprintf"), "no vprintf in\n{text}");
        assert!(text.contains("trap;"), "no trap in\n{text}");
        let strings = ptx_strings(&text);
        assert!(
            strings.iter().any(|s| s.starts_with("panic: index") && s.contains("kernels.pir:")),
            "no located bounds-check message among {strings:?}"
        );
    }
}

#[test]
fn math_links_libdevice() {
    if !libdevice() {
        return;
    }
    let text = ptx(&root().join("tests/gpu/math.pir"), OptLevel::O2);
    // libdevice's own helpers are in the PTX; no math call is left external.
    assert!(text.contains("__internal_accurate_pow"), "no libdevice pow in\n{text}");
    assert!(!text.contains(".extern"), "an external call is left in\n{text}");
    // A libdevice that cannot be found is a diagnostic naming the call.
    let o = Command::new(driver())
        .current_dir(root())
        .env("POSTC_LIBDEVICE", "/nonexistent/libdevice.10.bc")
        .args(["compile", "--emit", "ptx", "tests/gpu/math.pir", "-o", "/dev/null"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "which needs libdevice: POSTC_LIBDEVICE names `/nonexistent/libdevice.10.bc`, which is not a file"
        ),
        "{stderr}"
    );
}

#[test]
fn gpu_fallback_takes_the_host_body_without_a_driver() {
    let lib = library("fallback", 2);
    assert_ok(&harness("fallback-host", &lib, Path::new("/nonexistent"), false), "fallback without a driver");
}

#[test]
fn bare_gpu_ufunc_aborts_at_load_without_a_driver() {
    let lib = library("saxpy", 2);
    let o = harness("saxpy", &lib, Path::new("/nonexistent"), false);
    assert_eq!(o.status.signal(), Some(6), "{o:?}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("panic: no usable GPU for gpu function saxpy\n"), "{stderr}");
    assert!(!stderr.contains("harness: loaded"), "the library loaded:\n{stderr}");
}

#[test]
fn ptx_and_off_modes_in_the_driver() {
    let f = fixture();
    let out = f.dir.join("saxpy.ptx");
    let o = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--emit", "ptx", "--cpu", "sm_80", "tests/gpu/saxpy.pir", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(".target sm_80") && text.contains(".entry __postc_kernel_saxpy("), "{text}");
    // `--gpu off`: a host-only library, no GPU runtime.
    let lib = f.dir.join("libsaxpy_off.so");
    let o = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--gpu", "off", "--emit", "shared", "tests/gpu/saxpy.pir", "-o"])
        .arg(&lib)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let nm = Command::new("nm").arg("-D").arg(&lib).output().unwrap();
    let syms = String::from_utf8_lossy(&nm.stdout);
    assert!(syms.contains(" saxpy_loop") && !syms.contains("mgpuLaunchKernel"), "{syms}");
    // `--emit hsaco`: the AMDGPU code object, `--cpu` naming the GPU.
    let hsaco = f.dir.join("saxpy.hsaco");
    let o = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--emit", "hsaco", "--cpu", "gfx942", "tests/gpu/saxpy.pir", "-o"])
        .arg(&hsaco)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&hsaco).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    let re = Command::new(readelf()).args(["--notes"]).arg(&hsaco).output().unwrap();
    assert!(String::from_utf8_lossy(&re.stdout).contains("amdgcn-amd-amdhsa--gfx942"), "{re:?}");
    // PTX is NVIDIA's.
    let o = Command::new(driver())
        .current_dir(root())
        .args(["compile", "--emit", "ptx", "--gpu", "amdgpu", "tests/gpu/saxpy.pir", "-o", "/dev/null"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && stderr.contains("`--emit ptx` needs `--gpu nvptx`"), "{stderr}");
}
