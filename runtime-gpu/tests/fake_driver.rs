//! postc-runtime-gpu against a fake driver library (tests/fake/fake_driver.c),
//! compiled here with `cc -shared -fPIC`: host memory stands in for device
//! memory and failures are injected through `FAKE_GPU_FAIL`.
//!
//! The runtime opens its driver once per process, so every scenario runs in a
//! child: this test binary re-executed with `POSTC_GPU_TEST_SCENARIO` set,
//! running only [`scenario_entry`]. A scenario that completes prints
//! `SCENARIO OK`; a runtime failure must instead abort it (SIGABRT) with one
//! `panic: ...` line on stderr.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::ptr;
use std::sync::OnceLock;

use postc_runtime_gpu::*;

const SCENARIO_VAR: &str = "POSTC_GPU_TEST_SCENARIO";
const OK_LINE: &str = "SCENARIO OK";
const SIGABRT: i32 = 6;

// ---------------------------------------------------------------------------
// Building the fake and running children

fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fake-gpu");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles `source` into the shared library `out`, through a private file
/// renamed into place, so that concurrent test runs never see half a library.
fn compile(source: &Path, out: &Path) {
    let tmp = out.with_extension(format!("{}.tmp", std::process::id()));
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(&tmp)
        .arg(source)
        .arg("-lpthread")
        .status()
        .expect("a C compiler (cc) is needed to build the fake driver");
    assert!(status.success(), "compiling {} failed", source.display());
    std::fs::rename(&tmp, out).unwrap();
}

/// The fake driver with both the CUDA and the HIP entry points.
fn fake_driver() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        let out = scratch_dir().join("libfakegpu.so");
        compile(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake/fake_driver.c"), &out);
        out
    })
}

/// A library that defines `cuInit` and nothing else.
fn truncated_driver() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        let dir = scratch_dir();
        let src = dir.join("truncated.c");
        std::fs::write(&src, "int cuInit(unsigned flags) { (void)flags; return 0; }\n").unwrap();
        let out = dir.join("libtruncated.so");
        compile(&src, &out);
        out
    })
}

/// Runs `scenario` in a child against the fake driver, with `env` on top
/// (an empty value removes the variable).
fn child(scenario: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "scenario_entry", "--nocapture", "--test-threads=1"])
        .env(SCENARIO_VAR, scenario)
        .env(ENV_DRIVER_PATH, fake_driver())
        .env_remove(ENV_RUNTIME)
        .env_remove("FAKE_GPU_FAIL")
        .env_remove("FAKE_GPU_DEVICES")
        .env_remove("RUST_BACKTRACE");
    for (k, v) in env {
        if v.is_empty() {
            cmd.env_remove(k);
        } else {
            cmd.env(k, v);
        }
    }
    cmd.output().unwrap()
}

fn describe(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn expect_ok(out: &Output) {
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains(OK_LINE),
        "scenario did not complete:\n{}",
        describe(out)
    );
}

/// The child aborted, and its stderr has `panic: ...` starting with `line`.
fn expect_abort(out: &Output, line: &str) {
    assert_eq!(out.status.signal(), Some(SIGABRT), "expected SIGABRT:\n{}", describe(out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let panics: Vec<&str> = stderr.lines().filter(|l| l.starts_with("panic: ")).collect();
    assert_eq!(panics.len(), 1, "expected one panic line:\n{}", describe(out));
    assert!(panics[0].starts_with(line), "expected `{line}`:\n{}", describe(out));
    assert!(!String::from_utf8_lossy(&out.stdout).contains(OK_LINE));
}

// ---------------------------------------------------------------------------
// Inside a child: the fake's observation hooks and a host kernel

extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

type KernelFn = extern "C" fn(*const c_uint, *const c_uint, c_uint, *mut *mut c_void);

struct Fake {
    counter: extern "C" fn(*const c_char) -> i64,
    last_launch: extern "C" fn(c_int) -> c_uint,
    register: extern "C" fn(*const c_char, KernelFn),
    thread_stream: extern "C" fn(*const c_char) -> *mut c_void,
    allocation_base: extern "C" fn(*const c_void) -> *mut c_void,
}

impl Fake {
    /// The library the runtime opened (the same handle: dlopen counts references).
    fn open() -> Fake {
        let path = CString::new(std::env::var(ENV_DRIVER_PATH).unwrap()).unwrap();
        unsafe {
            let h = dlopen(path.as_ptr(), 2);
            assert!(!h.is_null());
            let sym = |n: &CStr| {
                let p = dlsym(h, n.as_ptr());
                assert!(!p.is_null(), "{n:?}");
                p
            };
            Fake {
                counter: std::mem::transmute::<*mut c_void, extern "C" fn(*const c_char) -> i64>(sym(c"fake_counter")),
                last_launch: std::mem::transmute::<*mut c_void, extern "C" fn(c_int) -> c_uint>(sym(
                    c"fake_last_launch",
                )),
                register: std::mem::transmute::<*mut c_void, extern "C" fn(*const c_char, KernelFn)>(sym(
                    c"fake_register_kernel",
                )),
                thread_stream: std::mem::transmute::<*mut c_void, extern "C" fn(*const c_char) -> *mut c_void>(sym(
                    c"fake_thread_stream",
                )),
                allocation_base: std::mem::transmute::<*mut c_void, extern "C" fn(*const c_void) -> *mut c_void>(sym(
                    c"fake_allocation_base",
                )),
            }
        }
    }

    fn count(&self, what: &str) -> i64 {
        let c = CString::new(what).unwrap();
        (self.counter)(c.as_ptr())
    }

    fn launch_config(&self) -> [u32; 7] {
        std::array::from_fn(|i| (self.last_launch)(i as c_int))
    }

    /// The stream of this thread's latest launch, copy or sync.
    fn thread_stream(&self, what: &CStr) -> *mut c_void {
        (self.thread_stream)(what.as_ptr())
    }
}

/// `add(a, b, c, n)`: c[i] = a[i] + b[i] over every thread of the grid.
extern "C" fn add_kernel(grid: *const c_uint, block: *const c_uint, _smem: c_uint, params: *mut *mut c_void) {
    unsafe {
        let threads = (*grid as usize) * (*block as usize);
        let a = *(*params.add(0) as *const *const f32);
        let b = *(*params.add(1) as *const *const f32);
        let c = *(*params.add(2) as *const *mut f32);
        let n = *(*params.add(3) as *const i64) as usize;
        for i in 0..threads.min(n) {
            *c.add(i) = *a.add(i) + *b.add(i);
        }
    }
}

const PTX: &CStr = c".version 8.0
.target sm_90
.address_size 64

.visible .entry add(
    .param .u64 a, .param .u64 b, .param .u64 c, .param .u64 n
)
{
    ret;
}

.visible .entry scale (
    .param .u64 x
)
{
    ret;
}
";

const NULL: *mut c_void = ptr::null_mut();

fn done() -> ! {
    println!("{OK_LINE}");
    std::process::exit(0)
}

/// Runs the scenario named in the environment; a no-op in the parent.
#[test]
fn scenario_entry() {
    let Ok(name) = std::env::var(SCENARIO_VAR) else { return };
    unsafe {
        match name.as_str() {
            "round_trip" => round_trip(),
            "all_ops" => all_ops(),
            "memcpy_memset" => memcpy_memset(),
            "streams_events" => streams_events(),
            "arena" => arena(),
            "arena_threads" => arena_threads(),
            "threads_make_current" => threads_make_current(),
            "thread_streams" => thread_streams(),
            "usable" => {
                println!("usable={}", __postc_gpu_usable());
                println!("vendor={:?}", vendor());
            }
            "usable_then_stream" => {
                println!("usable={}", __postc_gpu_usable());
                mgpuStreamCreate();
            }
            "select_hip" => {
                __postc_gpu_select_runtime(2);
                assert_eq!(__postc_gpu_usable(), 1);
                println!("vendor={:?}", vendor());
            }
            "bad_grid" => {
                let m = mgpuModuleLoad(PTX.as_ptr().cast(), PTX.to_bytes().len());
                let f = mgpuModuleGetFunction(m, c"scale".as_ptr());
                mgpuLaunchKernel(f, 0, 1, 1, 1, 1, 1, 0, NULL, ptr::null_mut(), ptr::null_mut(), 0);
            }
            "bad_image" => {
                mgpuModuleLoad(c"not a module".as_ptr().cast(), 12);
            }
            "missing_kernel" => {
                let m = mgpuModuleLoad(PTX.as_ptr().cast(), PTX.to_bytes().len());
                mgpuModuleGetFunction(m, c"mul".as_ptr());
            }
            "arena_restore_above" => {
                let m = postc_gpu_arena_mark(NULL);
                postc_gpu_arena_alloc(1000, NULL);
                let inner = postc_gpu_arena_mark(NULL);
                postc_gpu_arena_restore(m, NULL);
                postc_gpu_arena_restore(inner, NULL);
            }
            other => panic!("unknown scenario {other}"),
        }
    }
    done()
}

unsafe fn round_trip() {
    let fake = Fake::open();
    assert_eq!(__postc_gpu_usable(), 1);
    let expected_vendor = if std::env::var(ENV_RUNTIME).as_deref() == Ok("hip") { "HIP" } else { "CUDA" };
    assert_eq!(vendor(), Some(expected_vendor));
    (fake.register)(c"add".as_ptr(), add_kernel);
    let live0 = fake.count("live");

    let module = mgpuModuleLoad(PTX.as_ptr().cast(), PTX.to_bytes().len());
    assert!(!module.is_null());
    let add = mgpuModuleGetFunction(module, c"add".as_ptr());
    assert!(!add.is_null());
    let stream = mgpuStreamCreate();

    const N: usize = 1000;
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N).map(|i| 0.5 * i as f32).collect();
    let mut c = vec![0f32; N];
    let bytes = (N * 4) as u64;
    let mut da = mgpuMemAlloc(bytes, stream, false);
    let mut db = mgpuMemAlloc(bytes, stream, false);
    let mut dc = mgpuMemAlloc(bytes, stream, false);
    assert_eq!(fake.count("live"), live0 + 3);
    mgpuMemcpy(da, a.as_ptr() as *mut c_void, N * 4, stream);
    mgpuMemcpy(db, b.as_ptr() as *mut c_void, N * 4, stream);
    let mut n = N as i64;
    let mut params: [*mut c_void; 4] = [
        (&mut da as *mut *mut c_void).cast(),
        (&mut db as *mut *mut c_void).cast(),
        (&mut dc as *mut *mut c_void).cast(),
        (&mut n as *mut i64).cast(),
    ];
    mgpuLaunchKernel(add, 4, 1, 1, 256, 1, 1, 0, stream, params.as_mut_ptr(), ptr::null_mut(), 4);
    mgpuMemcpy(c.as_mut_ptr().cast(), dc, N * 4, stream);
    mgpuStreamSynchronize(stream);
    for i in 0..N {
        assert_eq!(c[i], a[i] + b[i], "element {i}");
    }
    assert_eq!(fake.launch_config(), [4, 1, 1, 256, 1, 1, 0]);
    assert_eq!(fake.count("launches"), 1);

    // A launch asking for more than 48 KiB of dynamic shared memory opts in first (CUDA).
    mgpuLaunchKernel(add, 1, 2, 3, 4, 5, 6, 65536, stream, params.as_mut_ptr(), ptr::null_mut(), 4);
    assert_eq!(fake.launch_config(), [1, 2, 3, 4, 5, 6, 65536]);
    if expected_vendor == "CUDA" {
        assert_eq!(fake.count("func_smem"), 65536);
    }

    // JIT loading passes the optimisation level through (CUDA).
    let jit = mgpuModuleLoadJIT(PTX.as_ptr() as *mut c_void, 3);
    let scale = mgpuModuleGetFunction(jit, c"scale".as_ptr());
    assert!(!scale.is_null() && scale != add);
    if expected_vendor == "CUDA" {
        assert_eq!(fake.count("jit_opt"), 3);
    }
    mgpuModuleUnload(jit);

    // Managed memory, and the zero-byte and null cases MLIR's wrappers allow.
    let managed = mgpuMemAlloc(64, stream, true);
    assert_eq!(fake.count("managed"), 1);
    assert!(mgpuMemAlloc(0, stream, false).is_null());
    mgpuMemFree(ptr::null_mut(), stream);

    for p in [da, db, dc, managed] {
        mgpuMemFree(p, stream);
    }
    assert_eq!(fake.count("live"), live0);
    mgpuModuleUnload(module);
    mgpuStreamDestroy(stream);
    // The context was made current once, on this one thread.
    if expected_vendor == "CUDA" {
        assert_eq!((fake.count("retains"), fake.count("ctx_sets")), (1, 1));
    } else {
        assert_eq!(fake.count("set_device"), 1);
    }
}

/// Every entry point the runtime resolves, in turn; the failure tests
/// inject an error into each.
unsafe fn all_ops() {
    let fake = Fake::open();
    (fake.register)(c"add".as_ptr(), add_kernel);
    let stream = mgpuStreamCreate();
    let module = mgpuModuleLoad(PTX.as_ptr().cast(), PTX.to_bytes().len());
    let jit = mgpuModuleLoadJIT(PTX.as_ptr() as *mut c_void, 2);
    let f = mgpuModuleGetFunction(module, c"add".as_ptr());
    let mut d = mgpuMemAlloc(256, stream, false);
    let managed = mgpuMemAlloc(256, stream, true);
    mgpuMemcpy(d, managed, 256, stream);
    mgpuMemset32(d, 0, 64, stream);
    mgpuMemset16(d, 0, 128, stream);
    let mut n = 0i64;
    let mut params: [*mut c_void; 4] = [
        (&mut d as *mut *mut c_void).cast(),
        (&mut d as *mut *mut c_void).cast(),
        (&mut d as *mut *mut c_void).cast(),
        (&mut n as *mut i64).cast(),
    ];
    mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, stream, params.as_mut_ptr(), ptr::null_mut(), 4);
    mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 50000, stream, params.as_mut_ptr(), ptr::null_mut(), 4);
    mgpuStreamSynchronize(stream);
    let event = mgpuEventCreate();
    mgpuEventRecord(event, stream);
    mgpuStreamWaitEvent(stream, event);
    mgpuEventSynchronize(event);
    mgpuEventDestroy(event);
    mgpuMemFree(d, stream);
    mgpuMemFree(managed, stream);
    mgpuModuleUnload(jit);
    mgpuModuleUnload(module);
    mgpuStreamDestroy(stream);
}

unsafe fn memcpy_memset() {
    let stream = mgpuStreamCreate();
    let d = mgpuMemAlloc(64, stream, false);
    mgpuMemset32(d, 0xdead_beef, 16, stream);
    let mut words = [0u32; 16];
    mgpuMemcpy(words.as_mut_ptr().cast(), d, 64, stream);
    mgpuStreamSynchronize(stream);
    assert_eq!(words, [0xdead_beef; 16]);

    // 16-bit set of the middle half only.
    mgpuMemset16((d as *mut u8).add(16).cast(), 0x1234, 16, stream);
    let mut halves = [0u16; 32];
    mgpuMemcpy(halves.as_mut_ptr().cast(), d, 64, stream);
    mgpuStreamSynchronize(stream);
    for (i, h) in halves.iter().enumerate() {
        let want = if (8..24).contains(&i) {
            0x1234
        } else if i % 2 == 0 {
            0xbeef
        } else {
            0xdead
        };
        assert_eq!(*h, want, "half {i}");
    }

    // Device to device, then back to the host.
    let e = mgpuMemAlloc(64, stream, false);
    mgpuMemcpy(e, d, 64, stream);
    let mut copy = [0u16; 32];
    mgpuMemcpy(copy.as_mut_ptr().cast(), e, 64, stream);
    mgpuStreamSynchronize(stream);
    assert_eq!(copy, halves);
    mgpuMemFree(d, stream);
    mgpuMemFree(e, stream);
    mgpuStreamDestroy(stream);
}

unsafe fn streams_events() {
    let fake = Fake::open();
    let s1 = mgpuStreamCreate();
    let s2 = mgpuStreamCreate();
    assert!(!s1.is_null() && s1 != s2);
    let e = mgpuEventCreate();
    mgpuEventRecord(e, s1);
    mgpuStreamWaitEvent(s2, e);
    mgpuEventSynchronize(e);
    let syncs = fake.count("syncs");
    mgpuStreamSynchronize(s2);
    mgpuStreamSynchronize(NULL); // the default stream
    assert_eq!(fake.count("syncs"), syncs + 2);
    mgpuEventDestroy(e);
    mgpuStreamDestroy(s1);
    mgpuStreamDestroy(s2);
}

unsafe fn arena() {
    let fake = Fake::open();
    let stream = mgpuStreamCreate();
    let allocs0 = fake.count("allocs");
    assert!(!arena_usage(stream).chunk_allocated);

    let m0 = postc_gpu_arena_mark(stream);
    let p1 = postc_gpu_arena_alloc(100, stream) as u64;
    let p2 = postc_gpu_arena_alloc(1, stream) as u64;
    let p3 = postc_gpu_arena_alloc(300, stream) as u64;
    // The chunk is allocated once, lazily; buffers are 256-byte aligned and packed.
    assert_eq!(fake.count("allocs"), allocs0 + 1);
    assert!(arena_usage(stream).chunk_allocated);
    for p in [p1, p2, p3] {
        assert_eq!(p % ARENA_ALIGN, 0);
    }
    assert_eq!((p2 - p1, p3 - p2), (256, 256));
    assert_eq!(arena_usage(stream).top, 1024);

    // The buffers are real, disjoint memory.
    mgpuMemset32(p1 as *mut c_void, 1, 25, stream);
    mgpuMemset32(p2 as *mut c_void, 2, 64, stream);
    assert_eq!(*(p1 as *const u32).add(24), 1);

    // Too big for what is left: spills to the driver allocator.
    let big = postc_gpu_arena_alloc(ARENA_CHUNK, stream) as u64;
    assert_eq!(big % ARENA_ALIGN, 0);
    assert_eq!(fake.count("allocs"), allocs0 + 2);
    assert_eq!(arena_usage(stream).spilled, 1);

    let m1 = postc_gpu_arena_mark(stream);
    let spill2 = postc_gpu_arena_alloc(70 << 20, stream);
    let small = postc_gpu_arena_alloc(8, stream) as u64;
    assert!(!spill2.is_null());
    assert_eq!(small, p3 + 512, "a small buffer still comes from the chunk after a spill");
    assert_eq!(fake.count("allocs"), allocs0 + 3);

    // Restoring the inner mark synchronises the stream, frees its spill only.
    let (frees, syncs) = (fake.count("frees"), fake.count("syncs"));
    postc_gpu_arena_restore(m1, stream);
    assert_eq!(fake.count("frees"), frees + 1);
    assert_eq!(fake.count("syncs"), syncs + 1);
    assert_eq!(arena_usage(stream).top, 1024);
    assert_eq!(arena_usage(stream).spilled, 1);
    // The same space is handed out again.
    assert_eq!(postc_gpu_arena_alloc(8, stream) as u64, small);

    postc_gpu_arena_restore(m0, stream);
    assert_eq!(fake.count("frees"), frees + 2);
    let u = arena_usage(stream);
    assert_eq!((u.top, u.spilled, u.owned_here), (0, 0, false));

    // Filling the chunk exactly does not spill; one byte more does.
    let m = postc_gpu_arena_mark(stream);
    let allocs = fake.count("allocs");
    let whole = postc_gpu_arena_alloc(ARENA_CHUNK - 256, stream) as u64;
    let last = postc_gpu_arena_alloc(256, stream) as u64;
    assert_eq!(last, whole + ARENA_CHUNK - 256);
    assert_eq!(fake.count("allocs"), allocs, "the chunk is kept between marks");
    postc_gpu_arena_alloc(1, stream);
    assert_eq!(fake.count("allocs"), allocs + 1);
    postc_gpu_arena_restore(m, stream);
    assert_eq!(fake.count("live"), 1, "the chunk itself stays allocated, the spill is freed");
    assert_eq!(arena_usage(stream).top, 0);
    mgpuStreamDestroy(stream);
}

unsafe fn arena_threads() {
    let fake = Fake::open();
    let m = postc_gpu_arena_mark(NULL);
    let mine = postc_gpu_arena_alloc(512, NULL) as u64;
    assert!(arena_usage(NULL).owned_here);
    let allocs = fake.count("allocs");

    // Another thread, while this one holds the chunk: its buffers come from the
    // driver and its restore frees exactly them.
    std::thread::spawn(|| {
        let fake = Fake::open();
        let outer = postc_gpu_arena_mark(NULL);
        assert_ne!(outer & (1 << 63), 0, "a foreign mark");
        let a = postc_gpu_arena_alloc(100, NULL) as u64;
        let inner = postc_gpu_arena_mark(NULL);
        let b = postc_gpu_arena_alloc(100, NULL) as u64;
        assert_eq!((a % ARENA_ALIGN, b % ARENA_ALIGN), (0, 0));
        let u = arena_usage(NULL);
        assert_eq!((u.owned_here, u.local_spilled, u.top), (false, 2, 512));
        let frees = fake.count("frees");
        postc_gpu_arena_restore(inner, NULL);
        assert_eq!(fake.count("frees"), frees + 1);
        postc_gpu_arena_restore(outer, NULL);
        assert_eq!(fake.count("frees"), frees + 2);
        assert_eq!(arena_usage(NULL).local_spilled, 0);
    })
    .join()
    .unwrap();
    assert_eq!(fake.count("allocs"), allocs + 2);

    // The chunk was untouched.
    assert_eq!(arena_usage(NULL).top, 512);
    assert_eq!(postc_gpu_arena_alloc(1, NULL) as u64, mine + 512);
    postc_gpu_arena_restore(m, NULL);
    assert!(!arena_usage(NULL).owned_here);

    // Released, the chunk goes to whichever thread marks next.
    std::thread::spawn(|| {
        let m = postc_gpu_arena_mark(NULL);
        assert_eq!(m & (1 << 63), 0);
        postc_gpu_arena_alloc(1, NULL);
        assert!(arena_usage(NULL).owned_here);
        postc_gpu_arena_restore(m, NULL);
    })
    .join()
    .unwrap();
}

unsafe fn threads_make_current() {
    let fake = Fake::open();
    mgpuStreamDestroy(mgpuStreamCreate());
    let handles: Vec<_> = (0..3)
        .map(|_| {
            std::thread::spawn(|| unsafe {
                // Each thread's first call makes the context current there; the
                // fake rejects calls on a thread without one.
                let s = mgpuStreamCreate();
                let p = mgpuMemAlloc(16, s, false);
                mgpuMemFree(p, s);
                mgpuStreamDestroy(s);
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(fake.count("retains"), 1, "the primary context is retained once");
    assert_eq!(fake.count("ctx_sets"), 4, "and made current on each of the four threads");
}

/// Threads inside `rendezvous_kernel` at once, and whether two ever were.
static INSIDE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static MET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Waits (at most ten seconds) until another launch is inside it too: two
/// launches from two threads meet here only if neither waits for the other.
extern "C" fn rendezvous_kernel(_g: *const c_uint, _b: *const c_uint, _smem: c_uint, _params: *mut *mut c_void) {
    use std::sync::atomic::Ordering::SeqCst;
    INSIDE.fetch_add(1, SeqCst);
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(10) {
        if INSIDE.load(SeqCst) >= 2 {
            MET.store(true, SeqCst);
            break;
        }
        std::thread::yield_now();
    }
    // Stay until the other has seen this one too.
    while INSIDE.load(SeqCst) < 2 && start.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::yield_now();
    }
}

/// What one thread saw: its stream, the streams of its launch and copy,
/// and its arena's chunk.
#[derive(Debug)]
struct Seen {
    stream: usize,
    launch: usize,
    copy: usize,
    sync: usize,
    chunk: u64,
    buffer_chunk: usize,
}

unsafe fn stage_and_launch(fake: &Fake, f: *mut c_void) -> Seen {
    let s = postc_gpu_stream();
    assert!(!s.is_null());
    assert_eq!(postc_gpu_stream(), s, "a thread keeps its stream");
    let mark = postc_gpu_arena_mark(s);
    let mut d = postc_gpu_arena_alloc(4096, s);
    let host = [7u8; 4096];
    mgpuMemcpy(d, host.as_ptr() as *mut c_void, 4096, s);
    let mut params: [*mut c_void; 1] = [(&mut d as *mut *mut c_void).cast()];
    mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params.as_mut_ptr(), ptr::null_mut(), 1);
    let chunk = arena_usage(s).chunk;
    let buffer_chunk = (fake.allocation_base)(d) as usize;
    postc_gpu_arena_restore(mark, s);
    Seen {
        stream: s as usize,
        launch: fake.thread_stream(c"launch") as usize,
        copy: fake.thread_stream(c"copy") as usize,
        sync: fake.thread_stream(c"sync") as usize,
        chunk,
        buffer_chunk,
    }
}

/// Two threads launching at the same time: each on its own stream, with its
/// own arena, neither waiting for the other; their streams and arenas go
/// when they end.
unsafe fn thread_streams() {
    let fake = Fake::open();
    (fake.register)(c"scale".as_ptr(), rendezvous_kernel);
    let module = mgpuModuleLoad(PTX.as_ptr().cast(), PTX.to_bytes().len());
    let f = mgpuModuleGetFunction(module, c"scale".as_ptr()) as usize;
    let (streams0, live0, arenas0) = (fake.count("streams"), fake.count("live"), arena_count());
    let seen: Vec<Seen> = (0..2)
        .map(|_| std::thread::spawn(move || unsafe { stage_and_launch(&Fake::open(), f as *mut c_void) }))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    assert!(MET.load(std::sync::atomic::Ordering::SeqCst), "the two launches never ran at the same time: {seen:?}");
    for s in &seen {
        assert_eq!((s.launch, s.copy, s.sync), (s.stream, s.stream, s.stream), "{seen:?}");
        assert!(s.chunk != 0 && s.buffer_chunk as u64 == s.chunk, "{seen:?}");
    }
    assert_ne!(seen[0].stream, seen[1].stream);
    assert_ne!(seen[0].chunk, seen[1].chunk, "the arenas are per stream");
    // Both threads have ended: their streams are destroyed, their chunks freed.
    assert_eq!(fake.count("streams_created"), 2);
    assert_eq!((fake.count("streams"), fake.count("live"), arena_count()), (streams0, live0, arenas0));
    // This thread gets a stream of its own in turn.
    assert!(!postc_gpu_stream().is_null());
    assert_eq!(fake.count("streams_created"), 3);
    mgpuModuleUnload(module);
}

// ---------------------------------------------------------------------------
// The tests (parents)

#[test]
fn module_load_launch_round_trip_cuda() {
    expect_ok(&child("round_trip", &[]));
    expect_ok(&child("round_trip", &[(ENV_RUNTIME, "cuda")]));
}

#[test]
fn module_load_launch_round_trip_hip() {
    expect_ok(&child("round_trip", &[(ENV_RUNTIME, "hip")]));
}

#[test]
fn memcpy_and_memset() {
    expect_ok(&child("memcpy_memset", &[]));
    expect_ok(&child("memcpy_memset", &[(ENV_RUNTIME, "hip")]));
}

#[test]
fn streams_and_events() {
    expect_ok(&child("streams_events", &[]));
    expect_ok(&child("streams_events", &[(ENV_RUNTIME, "hip")]));
}

#[test]
fn every_entry_point_without_failures() {
    expect_ok(&child("all_ops", &[]));
    expect_ok(&child("all_ops", &[(ENV_RUNTIME, "hip")]));
}

#[test]
fn context_is_retained_once_and_made_current_per_thread() {
    expect_ok(&child("threads_make_current", &[]));
}

#[test]
fn arena_mark_restore_alignment_spill() {
    expect_ok(&child("arena", &[]));
    expect_ok(&child("arena", &[(ENV_RUNTIME, "hip")]));
}

#[test]
fn each_thread_launches_on_its_own_stream_with_its_own_arena() {
    expect_ok(&child("thread_streams", &[]));
    expect_ok(&child("thread_streams", &[(ENV_RUNTIME, "hip")]));
}

#[test]
fn arena_across_threads() {
    expect_ok(&child("arena_threads", &[]));
}

#[test]
fn arena_spill_failure_panics() {
    // The chunk is the first allocation; the spill, the second, fails.
    let out = child("arena", &[("FAKE_GPU_FAIL", "cuMemAlloc_v2@2")]);
    expect_abort(&out, "panic: cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY");
}

#[test]
fn arena_restore_above_the_top_panics() {
    let out = child("arena_restore_above", &[]);
    expect_abort(
        &out,
        "panic: postc_gpu_arena_restore: mark (1024 bytes, 0 spilled) is above the arena (0 bytes, 0 spilled)",
    );
}

const CUDA_FAILURES: &[(&str, &str)] = &[
    ("cuInit", "CUDA_ERROR_NO_DEVICE"),
    ("cuDeviceGetCount", "CUDA_ERROR_UNKNOWN"),
    ("cuDeviceGet", "CUDA_ERROR_INVALID_DEVICE"),
    ("cuDevicePrimaryCtxRetain", "CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuCtxSetCurrent", "CUDA_ERROR_INVALID_CONTEXT"),
    ("cuStreamCreate", "CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuModuleLoadData", "CUDA_ERROR_INVALID_IMAGE"),
    ("cuModuleLoadDataEx", "CUDA_ERROR_INVALID_IMAGE"),
    ("cuModuleGetFunction", "CUDA_ERROR_NOT_FOUND"),
    ("cuMemAlloc_v2", "CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuMemAllocManaged", "CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuMemcpyAsync", "CUDA_ERROR_INVALID_VALUE"),
    ("cuMemsetD32Async", "CUDA_ERROR_INVALID_VALUE"),
    ("cuMemsetD16Async", "CUDA_ERROR_INVALID_VALUE"),
    ("cuLaunchKernel", "CUDA_ERROR_LAUNCH_FAILED"),
    ("cuFuncSetAttribute", "CUDA_ERROR_INVALID_VALUE"),
    ("cuStreamSynchronize", "CUDA_ERROR_LAUNCH_FAILED"),
    ("cuEventCreate", "CUDA_ERROR_OUT_OF_MEMORY"),
    ("cuEventRecord", "CUDA_ERROR_INVALID_HANDLE"),
    ("cuStreamWaitEvent", "CUDA_ERROR_INVALID_HANDLE"),
    ("cuEventSynchronize", "CUDA_ERROR_LAUNCH_FAILED"),
    ("cuEventDestroy_v2", "CUDA_ERROR_INVALID_HANDLE"),
    ("cuMemFree_v2", "CUDA_ERROR_INVALID_VALUE"),
    ("cuModuleUnload", "CUDA_ERROR_INVALID_HANDLE"),
    ("cuStreamDestroy_v2", "CUDA_ERROR_INVALID_HANDLE"),
];

const HIP_FAILURES: &[(&str, &str)] = &[
    ("hipInit", "hipErrorNoDevice"),
    ("hipGetDeviceCount", "hipErrorUnknown"),
    ("hipSetDevice", "hipErrorInvalidDevice"),
    ("hipStreamCreate", "hipErrorOutOfMemory"),
    ("hipModuleLoadData", "hipErrorInvalidImage"),
    ("hipModuleGetFunction", "hipErrorNotFound"),
    ("hipMalloc", "hipErrorOutOfMemory"),
    ("hipMallocManaged", "hipErrorOutOfMemory"),
    ("hipMemcpyAsync", "hipErrorInvalidValue"),
    ("hipMemsetD32Async", "hipErrorInvalidValue"),
    ("hipMemsetD16Async", "hipErrorInvalidValue"),
    ("hipModuleLaunchKernel", "hipErrorLaunchFailure"),
    ("hipStreamSynchronize", "hipErrorLaunchFailure"),
    ("hipEventCreateWithFlags", "hipErrorOutOfMemory"),
    ("hipEventRecord", "hipErrorInvalidHandle"),
    ("hipStreamWaitEvent", "hipErrorInvalidHandle"),
    ("hipEventSynchronize", "hipErrorLaunchFailure"),
    ("hipEventDestroy", "hipErrorInvalidHandle"),
    ("hipFree", "hipErrorInvalidValue"),
    ("hipModuleUnload", "hipErrorInvalidHandle"),
    ("hipStreamDestroy", "hipErrorInvalidHandle"),
];

fn injected_failures(runtime: &str, table: &[(&str, &str)]) {
    for (call, error) in table {
        let out = child("all_ops", &[(ENV_RUNTIME, runtime), ("FAKE_GPU_FAIL", call)]);
        expect_abort(&out, &format!("panic: {call} failed: {error}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.lines().any(|l| l == format!("panic: {call} failed: {error}")), "{}", describe(&out));
    }
}

#[test]
fn each_injected_cuda_error_panics_and_aborts() {
    injected_failures("cuda", CUDA_FAILURES);
}

#[test]
fn each_injected_hip_error_panics_and_aborts() {
    injected_failures("hip", HIP_FAILURES);
}

#[test]
fn natural_driver_errors_panic() {
    expect_abort(&child("bad_image", &[]), "panic: cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE");
    expect_abort(&child("missing_kernel", &[]), "panic: cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND");
    expect_abort(&child("bad_image", &[(ENV_RUNTIME, "hip")]), "panic: hipModuleLoadData failed: hipErrorInvalidImage");
    // An explicit status the driver cannot name.
    let out = child("all_ops", &[("FAKE_GPU_FAIL", "cuMemcpyAsync:12345")]);
    expect_abort(&out, "panic: cuMemcpyAsync failed: CUDA error 12345");
}

#[test]
fn launch_dimensions_are_checked() {
    expect_abort(&child("bad_grid", &[]), "panic: mgpuLaunchKernel: gridX is 0, not in 1..=4294967295");
}

fn usable_line(out: &Output) -> String {
    // The test harness may print on the same line: look at words.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let words = stdout.split_whitespace().filter(|w| w.starts_with("usable=") || w.starts_with("vendor="));
    words.collect::<Vec<_>>().join(" ")
}

#[test]
fn usable_with_the_fake_driver() {
    let out = child("usable", &[]);
    expect_ok(&out);
    assert_eq!(usable_line(&out), "usable=1 vendor=Some(\"CUDA\")");
    let out = child("usable", &[(ENV_RUNTIME, "hip")]);
    expect_ok(&out);
    assert_eq!(usable_line(&out), "usable=1 vendor=Some(\"HIP\")");
    // The program's own choice, without the variable.
    let out = child("select_hip", &[]);
    expect_ok(&out);
    assert_eq!(usable_line(&out), "vendor=Some(\"HIP\")");
}

#[test]
fn usable_is_0_without_a_driver_and_never_panics() {
    for env in [
        vec![(ENV_DRIVER_PATH, "/nonexistent")],
        vec![(ENV_DRIVER_PATH, "/nonexistent"), (ENV_RUNTIME, "hip")],
        vec![("FAKE_GPU_DEVICES", "0")],
        vec![(ENV_RUNTIME, "bogus")],
    ] {
        let out = child("usable", &env);
        expect_ok(&out);
        assert_eq!(usable_line(&out), "usable=0 vendor=None", "{env:?}");
    }
    // The driver initialises but the context cannot be made current.
    let out = child("usable", &[("FAKE_GPU_FAIL", "cuCtxSetCurrent")]);
    expect_ok(&out);
    assert_eq!(usable_line(&out), "usable=0 vendor=Some(\"CUDA\")");
    let out = child("usable", &[(ENV_DRIVER_PATH, truncated_driver().to_str().unwrap())]);
    expect_ok(&out);
    assert_eq!(usable_line(&out), "usable=0 vendor=None");
}

#[test]
fn a_missing_driver_is_a_panic_at_first_use() {
    let out = child("usable_then_stream", &[(ENV_DRIVER_PATH, "/nonexistent")]);
    expect_abort(&out, "panic: GPU runtime: cannot load /nonexistent (");
    assert!(String::from_utf8_lossy(&out.stdout).contains("usable=0"));

    let lib = truncated_driver().to_str().unwrap();
    let out = child("usable_then_stream", &[(ENV_DRIVER_PATH, lib)]);
    expect_abort(&out, &format!("panic: GPU runtime: cannot load {lib} (missing symbol cuDeviceGetCount)"));

    let out = child("usable_then_stream", &[(ENV_DRIVER_PATH, lib), (ENV_RUNTIME, "hip")]);
    expect_abort(&out, &format!("panic: GPU runtime: cannot load {lib} (missing symbol hipInit)"));

    let out = child("usable_then_stream", &[("FAKE_GPU_DEVICES", "0")]);
    expect_abort(&out, "panic: cuInit failed: CUDA_ERROR_NO_DEVICE");

    let out = child("usable_then_stream", &[(ENV_RUNTIME, "bogus")]);
    expect_abort(&out, "panic: GPU runtime: POSTC_GPU_RUNTIME must be cuda, hip or auto, not `bogus`");
}

#[test]
fn the_default_library_names_are_tried_without_an_override() {
    // No driver on this machine (or a real one): either way usable() answers
    // without aborting.
    let out = child("usable", &[(ENV_DRIVER_PATH, "")]);
    expect_ok(&out);
    let line = usable_line(&out);
    assert!(line == "usable=0 vendor=None" || line.starts_with("usable=1"), "{line}");
}

// ---------------------------------------------------------------------------
// The static library

/// `libpostc_runtime_gpu.a` must not need the driver at link time: no
/// undefined `cu*` or `hip*` symbol, and every ABI function defined.
/// Builds the static library (a test build makes only the rlib) and
/// returns its path, beside the test binary's profile directory.
fn static_library() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
    let target_dir = profile_dir.parent().unwrap();
    let status = Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "postc-runtime-gpu"])
        .env("CARGO_TARGET_DIR", target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the static library failed");
    let lib = profile_dir.join("libpostc_runtime_gpu.a");
    assert!(lib.exists(), "{} was not built", lib.display());
    lib
}

#[test]
fn static_library_does_not_link_the_driver() {
    let lib = static_library();
    let nm = |args: &[&str]| -> Option<String> {
        let out = Command::new("nm").args(args).arg(&lib).output().ok()?;
        assert!(out.status.success(), "nm failed: {}", String::from_utf8_lossy(&out.stderr));
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let Some(undefined) = nm(&["-u", "--quiet"]) else {
        eprintln!("nm is not installed; skipping the static library check");
        return;
    };
    let driver_refs: Vec<&str> = undefined
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| {
            (s.starts_with("cu") || s.starts_with("hip"))
                && s.chars().nth(if s.starts_with("cu") { 2 } else { 3 }).is_some_and(|c| c.is_ascii_uppercase())
        })
        .collect();
    assert!(driver_refs.is_empty(), "undefined driver symbols: {driver_refs:?}");
    assert!(undefined.lines().any(|l| l.trim_end().ends_with(" dlopen")), "dlopen should be the way in");

    let defined = nm(&["--defined-only", "--quiet"]).unwrap();
    for sym in [
        "mgpuModuleLoad",
        "mgpuModuleLoadJIT",
        "mgpuModuleUnload",
        "mgpuModuleGetFunction",
        "mgpuLaunchKernel",
        "mgpuStreamCreate",
        "mgpuStreamSynchronize",
        "mgpuStreamDestroy",
        "mgpuStreamWaitEvent",
        "mgpuEventCreate",
        "mgpuEventDestroy",
        "mgpuEventSynchronize",
        "mgpuEventRecord",
        "mgpuMemAlloc",
        "mgpuMemFree",
        "mgpuMemcpy",
        "mgpuMemset32",
        "mgpuMemset16",
        "__postc_gpu_usable",
        "__postc_gpu_select_runtime",
        "postc_gpu_arena_mark",
        "postc_gpu_arena_alloc",
        "postc_gpu_arena_restore",
        "postc_gpu_stream",
        "postc_gpu_stage_tensor",
        "postc_gpu_unstage_tensor",
        "postc_gpu_is_device_ptr",
        "postc_gpu_ufunc_launch",
    ] {
        assert!(defined.lines().any(|l| l.ends_with(&format!(" T {sym}"))), "{sym} is not defined");
    }
}

/// A C program linked against `libpostc_runtime_gpu.a` (and only the system
/// libraries rustc names for it) runs against the fake driver, and without
/// one reports no GPU.
#[test]
fn a_c_program_links_the_static_library() {
    let lib = static_library();
    let dir = scratch_dir();
    let src = dir.join("use_static.c");
    std::fs::write(
        &src,
        r#"#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int __postc_gpu_usable(void);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *);
void *mgpuMemAlloc(uint64_t, void *, bool);
void mgpuMemFree(void *, void *);
void mgpuMemcpy(void *, void *, size_t, void *);
void mgpuMemset32(void *, unsigned, size_t, void *);
int main(void) {
    int usable = __postc_gpu_usable();
    printf("usable=%d\n", usable);
    fflush(stdout);
    void *s = mgpuStreamCreate();
    void *d = mgpuMemAlloc(16, s, false);
    unsigned out[4];
    mgpuMemset32(d, 7, 4, s);
    mgpuMemcpy(out, d, sizeof out, s);
    mgpuStreamSynchronize(s);
    mgpuMemFree(d, s);
    printf("%u %u %u %u\n", out[0], out[1], out[2], out[3]);
    return 0;
}
"#,
    )
    .unwrap();
    let bin = dir.join(format!("use_static-{}", std::process::id()));
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg(&src)
        .arg(&lib)
        .args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc", "-o"])
        .arg(&bin)
        .status()
        .unwrap();
    assert!(status.success(), "linking against {} failed", lib.display());

    let out = Command::new(&bin).env(ENV_DRIVER_PATH, fake_driver()).env_remove(ENV_RUNTIME).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "usable=1\n7 7 7 7\n");

    let out = Command::new(&bin).env(ENV_DRIVER_PATH, "/nonexistent").output().unwrap();
    expect_abort(&out, "panic: GPU runtime: cannot load /nonexistent (");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "usable=0\n");
    let _ = std::fs::remove_file(&bin);
}
