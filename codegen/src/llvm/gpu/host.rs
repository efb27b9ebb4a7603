//! The host side of the GPU code: the embedded device image, the
//! constructor that loads it, and per gpu ufunc the staging wrapper
//! `SYMBOL_loop.gpu` and the dispatcher `SYMBOL_loop`.

use super::{DeviceCode, FunctionKind, GpuFunction, GpuUfunc, BLOCK, MAX_GRID};
use crate::llvm::emit::{escape_bytes, llty, memty};
use crate::llvm::Lowered;
use inkwell::module::Module as LlModule;
use postc_ir::builtins::{gpu_builtin_name, Axis, GpuReg};
use postc_ir::DType;
use std::fmt::Write as _;

/// The coordinates of the emulated launch's running thread, in the order
/// of [`GpuReg::ALL`] then [`Axis::ALL`].
const COORDS: &str = "@\"postc.gpu.coords\"";

/// Whether `module` calls a `postc.gpu.*` coordinate built-in.
pub(super) fn uses_coords(module: &LlModule<'_>) -> bool {
    GpuReg::ALL.iter().any(|r| Axis::ALL.iter().any(|a| module.get_function(&gpu_builtin_name(*r, *a)).is_some()))
}

/// The host's coordinate built-ins: they read the emulated launch's
/// coordinates (all zero outside one).
pub(super) fn coords_text() -> String {
    let mut t = format!("{COORDS} = internal thread_local global [12 x i64] zeroinitializer\n");
    for (r, reg) in GpuReg::ALL.iter().enumerate() {
        for (a, axis) in Axis::ALL.iter().enumerate() {
            let k = 3 * r + a;
            let _ = writeln!(
                t,
                "define linkonce_odr i64 @\"{}\"() {{\n  %p = getelementptr [12 x i64], ptr {COORDS}, i64 0, i64 {k}\n  \
                 %v = load i64, ptr %p\n  ret i64 %v\n}}",
                gpu_builtin_name(*reg, *axis)
            );
        }
    }
    t
}

/// The C parameter list of a gpu function's body, with names `%a0`, ...
fn c_params(g: &GpuFunction) -> Vec<String> {
    g.sig.params.iter().zip(&g.sig.param_attrs).enumerate().map(|(k, (t, a))| format!("{t} {a} %a{k}")).collect()
}

fn c_args(g: &GpuFunction) -> String {
    c_params(g).join(", ")
}

/// `ptr %cfg` then the body's parameters.
fn launch_params(g: &GpuFunction) -> String {
    std::iter::once("ptr %cfg".to_string()).chain(c_params(g)).collect::<Vec<_>>().join(", ")
}

fn linkage(g: &GpuFunction) -> &'static str {
    if g.sig.exported {
        ""
    } else {
        "internal "
    }
}

/// Loads the six launch dimensions of a `postc_launch` (`grid[3]` then
/// `block[3]`, unsigned 32-bit) into `%g0`..`%g5`, panicking on a NULL
/// configuration with the message [`nocfg_message`] defines.
fn launch_config(t: &mut String, g: &GpuFunction) {
    let _ = writeln!(
        t,
        "  %nocfg = icmp eq ptr %cfg, null\n  br i1 %nocfg, label %bad, label %cfgok\nbad:\n  \
         %fl = call i32 @fflush(ptr null)\n  %pr = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @\"{}.nocfg\")\n  \
         call void @abort()\n  unreachable\ncfgok:",
        g.symbol
    );
    for i in 0..6 {
        let _ = writeln!(
            t,
            "  %gp{i} = getelementptr i32, ptr %cfg, i64 {i}\n  %g{i}.32 = load i32, ptr %gp{i}\n  %g{i} = zext i32 %g{i}.32 to i64"
        );
    }
}

/// The message of a NULL launch configuration (a global may follow the
/// function that uses it).
fn nocfg_message(g: &GpuFunction) -> String {
    let msg = format!("panic: kernel function {}: the launch configuration is NULL\n", g.name);
    format!(
        "@\"{}.nocfg\" = private unnamed_addr constant [{} x i8] c\"{}\\00\"\n",
        g.symbol,
        msg.len() + 1,
        escape_bytes(msg.as_bytes())
    )
}

/// `void SYMBOL(const postc_launch *cfg, ...)` without GPU code: runs
/// every thread of the launch on the calling thread, one after another
/// (blocks in order, x fastest), each a call to the body with the
/// coordinates set, as the interpreter's `launch` does.
pub(super) fn emulation_text(g: &GpuFunction) -> String {
    let s = &g.symbol;
    let mut t = String::new();
    let _ = writeln!(t, "define {}void @\"{s}\"({}) {{\nentry:", linkage(g), launch_params(g));
    launch_config(&mut t, g);
    let _ = writeln!(
        t,
        "  %blk01 = mul i64 %g3, %g4\n  %threads = mul i64 %blk01, %g5\n  %grd01 = mul i64 %g0, %g1\n  \
         %blocks = mul i64 %grd01, %g2\n  %total = mul i64 %blocks, %threads\n  br label %head\n\
         head:\n  %i = phi i64 [ 0, %cfgok ], [ %next, %body ]\n  %more = icmp ult i64 %i, %total\n  \
         br i1 %more, label %body, label %done\nbody:\n  %t = urem i64 %i, %threads\n  %b = udiv i64 %i, %threads\n  \
         %tx = urem i64 %t, %g3\n  %t1 = udiv i64 %t, %g3\n  %ty = urem i64 %t1, %g4\n  %tz = udiv i64 %t, %blk01\n  \
         %bx = urem i64 %b, %g0\n  %b1 = udiv i64 %b, %g0\n  %by = urem i64 %b1, %g1\n  %bz = udiv i64 %b, %grd01"
    );
    let vals = ["%tx", "%ty", "%tz", "%bx", "%by", "%bz", "%g3", "%g4", "%g5", "%g0", "%g1", "%g2"];
    for (k, v) in vals.iter().enumerate() {
        let _ =
            writeln!(t, "  %c{k} = getelementptr [12 x i64], ptr {COORDS}, i64 0, i64 {k}\n  store i64 {v}, ptr %c{k}");
    }
    let _ = writeln!(
        t,
        "  call void @\"{s}.host\"({})\n  %next = add i64 %i, 1\n  br label %head\ndone:\n  ret void\n}}",
        c_args(g)
    );
    let _ = writeln!(t, "declare void @\"{s}.host\"({})", g.sig.params_text());
    t + &nocfg_message(g)
}

/// Bytes kept for a `ucontext_t` (968 on x86-64, 4560 on AArch64 glibc).
const CTX: u64 = 8192;
/// One emulated thread: its context, its stack, its state (0 ready, 1
/// waiting at a barrier, 2 returned).
const THREAD: u64 = CTX + 16;
/// The stack of an emulated thread (reserved, not committed), its lowest
/// page a guard.
const STACK: u64 = 512 << 10;

/// The host side of cooperating kernels (docs/runtime-gpu.md §6).
///
/// Without a GPU, the threads of a block that share arrays or wait at
/// barriers run as coroutines on the calling thread (`ucontext`): in turn,
/// each up to its next `postc.gpu.sync_threads` or its return, the barrier
/// releasing them once all wait, so the result is the interpreter's. Block
/// storage is thread-local, cleared before each block. A coroutine record:
/// the scheduler's context (`CTX` bytes), then the thread count, the running
/// thread, the body and its argument, the threads, the record this one
/// replaced as current, and how many threads have returned.
pub(super) fn cooperation_text(functions: &[GpuFunction]) -> String {
    let mut t = String::new();
    for s in functions.iter().flat_map(|g| &g.shared) {
        let _ = writeln!(
            t,
            "@\"{0}.mem\" = internal thread_local global [{1} x i8] zeroinitializer, align 16\n\
             define linkonce_odr ptr @\"{0}\"() nounwind {{\n  ret ptr @\"{0}.mem\"\n}}",
            s.symbol, s.bytes
        );
    }
    if !functions.iter().any(|g| g.cooperates()) {
        return t;
    }
    let (n, cur, body, arg, threads, prev, done) = (CTX, CTX + 8, CTX + 16, CTX + 24, CTX + 32, CTX + 40, CTX + 48);
    let (stack, state) = (CTX, CTX + 8);
    let nomem = "panic: cannot map the stacks of %lld emulated GPU threads\n";
    let _ = write!(
        t,
        r#"@"postc.gpu.coop.current" = internal thread_local global ptr null, align 8
@"postc.gpu.coop.nomem" = private unnamed_addr constant [{nomem_len} x i8] c"{nomem_text}\00"

; The record of the running thread: (coroutine record, thread record).
define internal ptr @"postc.gpu.coop.thread"(ptr %c) nounwind {{
  %curp = getelementptr i8, ptr %c, i64 {cur}
  %i = load i64, ptr %curp
  %thp = getelementptr i8, ptr %c, i64 {threads}
  %th = load ptr, ptr %thp
  %off = mul i64 %i, {THREAD}
  %t = getelementptr i8, ptr %th, i64 %off
  ret ptr %t
}}

define void @"postc.gpu.sync_threads"() nounwind {{
entry:
  %c = load ptr, ptr @"postc.gpu.coop.current"
  %none = icmp eq ptr %c, null
  br i1 %none, label %out, label %wait
wait:
  %t = call ptr @"postc.gpu.coop.thread"(ptr %c)
  %sp = getelementptr i8, ptr %t, i64 {state}
  store i64 1, ptr %sp
  %r = call i32 @swapcontext(ptr %t, ptr %c)
  br label %out
out:
  ret void
}}

; Where every emulated thread starts; returning resumes the scheduler.
define internal void @"postc.gpu.coop.entry"() nounwind {{
  %c = load ptr, ptr @"postc.gpu.coop.current"
  %fp = getelementptr i8, ptr %c, i64 {body}
  %f = load ptr, ptr %fp
  %ap = getelementptr i8, ptr %c, i64 {arg}
  %a = load ptr, ptr %ap
  call void %f(ptr %a)
  %t = call ptr @"postc.gpu.coop.thread"(ptr %c)
  %sp = getelementptr i8, ptr %t, i64 {state}
  store i64 2, ptr %sp
  %dp = getelementptr i8, ptr %c, i64 {done}
  %d = load i64, ptr %dp
  %d1 = add i64 %d, 1
  store i64 %d1, ptr %dp
  ret void
}}

define internal ptr @"postc.gpu.coop.new"(i64 %n, ptr %f, ptr %a) nounwind {{
entry:
  %c = call ptr @calloc(i64 1, i64 {rec})
  %th = call ptr @calloc(i64 %n, i64 {THREAD})
  %cz = icmp eq ptr %c, null
  %tz = icmp eq ptr %th, null
  %z = or i1 %cz, %tz
  br i1 %z, label %fail, label %fill
fill:
  %np = getelementptr i8, ptr %c, i64 {n}
  store i64 %n, ptr %np
  %fp = getelementptr i8, ptr %c, i64 {body}
  store ptr %f, ptr %fp
  %ap = getelementptr i8, ptr %c, i64 {arg}
  store ptr %a, ptr %ap
  %thp = getelementptr i8, ptr %c, i64 {threads}
  store ptr %th, ptr %thp
  %old = load ptr, ptr @"postc.gpu.coop.current"
  %pp = getelementptr i8, ptr %c, i64 {prev}
  store ptr %old, ptr %pp
  store ptr %c, ptr @"postc.gpu.coop.current"
  br label %head
head:
  %i = phi i64 [ 0, %fill ], [ %i1, %mapped ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %map, label %done
map:
  %s = call ptr @mmap(ptr null, i64 {STACK}, i32 3, i32 16418, i32 -1, i64 0)
  %bad = icmp eq ptr %s, inttoptr (i64 -1 to ptr)
  br i1 %bad, label %fail, label %mapped
mapped:
  %g = call i32 @mprotect(ptr %s, i64 4096, i32 0)
  %off = mul i64 %i, {THREAD}
  %t = getelementptr i8, ptr %th, i64 %off
  %stp = getelementptr i8, ptr %t, i64 {stack}
  store ptr %s, ptr %stp
  %i1 = add i64 %i, 1
  br label %head
fail:
  %fl = call i32 @fflush(ptr null)
  %pr = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @"postc.gpu.coop.nomem", i64 %n)
  call void @abort()
  unreachable
done:
  ret ptr %c
}}

define internal void @"postc.gpu.coop.free"(ptr %c) nounwind {{
entry:
  %np = getelementptr i8, ptr %c, i64 {n}
  %n = load i64, ptr %np
  %thp = getelementptr i8, ptr %c, i64 {threads}
  %th = load ptr, ptr %thp
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %more = icmp ult i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %off = mul i64 %i, {THREAD}
  %t = getelementptr i8, ptr %th, i64 %off
  %stp = getelementptr i8, ptr %t, i64 {stack}
  %s = load ptr, ptr %stp
  %u = call i32 @munmap(ptr %s, i64 {STACK})
  %i1 = add i64 %i, 1
  br label %head
done:
  call void @free(ptr %th)
  %pp = getelementptr i8, ptr %c, i64 {prev}
  %old = load ptr, ptr %pp
  store ptr %old, ptr @"postc.gpu.coop.current"
  call void @free(ptr %c)
  ret void
}}

; Runs the threads of one block (its coordinates already set): phases in
; which every ready thread runs in turn, until all have returned. `msg`
; reports a thread that returned while others wait at a barrier.
define internal void @"postc.gpu.coop.block"(ptr %c, ptr %msg, i64 %bx, i64 %by, i64 %bz, i64 %dx, i64 %dy) nounwind {{
entry:
  %np = getelementptr i8, ptr %c, i64 {n}
  %n = load i64, ptr %np
  %thp = getelementptr i8, ptr %c, i64 {threads}
  %th = load ptr, ptr %thp
  %curp = getelementptr i8, ptr %c, i64 {cur}
  %dp = getelementptr i8, ptr %c, i64 {done}
  store i64 0, ptr %dp
  br label %init
init:
  %i = phi i64 [ 0, %entry ], [ %i1, %init.body ]
  %imore = icmp ult i64 %i, %n
  br i1 %imore, label %init.body, label %phase
init.body:
  %ioff = mul i64 %i, {THREAD}
  %it = getelementptr i8, ptr %th, i64 %ioff
  %gc = call i32 @getcontext(ptr %it)
  %link = getelementptr i8, ptr %it, i64 8
  store ptr %c, ptr %link
  %istp = getelementptr i8, ptr %it, i64 {stack}
  %istk = load ptr, ptr %istp
  %ssp = getelementptr i8, ptr %it, i64 16
  store ptr %istk, ptr %ssp
  %ssf = getelementptr i8, ptr %it, i64 24
  store i32 0, ptr %ssf
  %sss = getelementptr i8, ptr %it, i64 32
  store i64 {STACK}, ptr %sss
  call void (ptr, ptr, i32, ...) @makecontext(ptr %it, ptr @"postc.gpu.coop.entry", i32 0)
  %isp = getelementptr i8, ptr %it, i64 {state}
  store i64 0, ptr %isp
  %i1 = add i64 %i, 1
  br label %init
phase:
  br label %turn
turn:
  %j = phi i64 [ 0, %phase ], [ %j1, %next ]
  %jmore = icmp ult i64 %j, %n
  br i1 %jmore, label %turn.body, label %phase.end
turn.body:
  %joff = mul i64 %j, {THREAD}
  %jt = getelementptr i8, ptr %th, i64 %joff
  %jsp = getelementptr i8, ptr %jt, i64 {state}
  %jst = load i64, ptr %jsp
  %ready = icmp eq i64 %jst, 0
  br i1 %ready, label %go, label %next
go:
  %tx = urem i64 %j, %dx
  %q = udiv i64 %j, %dx
  %ty = urem i64 %q, %dy
  %tz = udiv i64 %q, %dy
  store i64 %tx, ptr {COORDS}
  %cy = getelementptr [12 x i64], ptr {COORDS}, i64 0, i64 1
  store i64 %ty, ptr %cy
  %cz = getelementptr [12 x i64], ptr {COORDS}, i64 0, i64 2
  store i64 %tz, ptr %cz
  store i64 %j, ptr %curp
  %sw = call i32 @swapcontext(ptr %c, ptr %jt)
  br label %next
next:
  %j1 = add i64 %j, 1
  br label %turn
phase.end:
  %d = load i64, ptr %dp
  %all = icmp eq i64 %d, %n
  br i1 %all, label %out, label %check
check:
  %some = icmp ne i64 %d, 0
  br i1 %some, label %find, label %release
release:
  %k = phi i64 [ 0, %check ], [ %k1, %release.body ]
  %kmore = icmp ult i64 %k, %n
  br i1 %kmore, label %release.body, label %phase
release.body:
  %koff = mul i64 %k, {THREAD}
  %kt = getelementptr i8, ptr %th, i64 %koff
  %ksp = getelementptr i8, ptr %kt, i64 {state}
  store i64 0, ptr %ksp
  %k1 = add i64 %k, 1
  br label %release
find:
  %r = phi i64 [ 0, %check ], [ %r1, %find.next ]
  %roff = mul i64 %r, {THREAD}
  %rt = getelementptr i8, ptr %th, i64 %roff
  %rsp = getelementptr i8, ptr %rt, i64 {state}
  %rst = load i64, ptr %rsp
  %gone = icmp eq i64 %rst, 2
  br i1 %gone, label %diverged, label %find.next
find.next:
  %r1 = add i64 %r, 1
  br label %find
diverged:
  %rx = urem i64 %r, %dx
  %rq = udiv i64 %r, %dx
  %ry = urem i64 %rq, %dy
  %rz = udiv i64 %rq, %dy
  %fl = call i32 @fflush(ptr null)
  %pr = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr %msg, i64 %rx, i64 %ry, i64 %rz, i64 %bx, i64 %by, i64 %bz)
  call void @abort()
  unreachable
out:
  ret void
}}

declare i32 @getcontext(ptr) returns_twice nounwind
declare void @makecontext(ptr, ptr, i32, ...) nounwind
declare i32 @swapcontext(ptr, ptr) nounwind
declare ptr @mmap(ptr, i64, i32, i32, i32, i64) nounwind
declare i32 @munmap(ptr, i64) nounwind
declare i32 @mprotect(ptr, i64, i32) nounwind
declare ptr @calloc(i64, i64) nounwind
declare void @free(ptr) nounwind
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
"#,
        nomem_len = nomem.len() + 1,
        nomem_text = escape_bytes(nomem.as_bytes()),
        rec = CTX + 64,
    );
    t
}

/// The host emulation of a cooperating kernel: every block in turn (x
/// fastest), its storage cleared, its threads as coroutines (see
/// [`cooperation_text`]).
pub(super) fn cooperative_emulation_text(g: &GpuFunction) -> String {
    let s = &g.symbol;
    let mut t = String::new();
    let fields = g.sig.params_text();
    let _ = writeln!(t, "define {}void @\"{s}\"({}) {{\nentry:", linkage(g), launch_params(g));
    let _ = writeln!(t, "  %argbuf = alloca {{ {fields} }}, align 8");
    launch_config(&mut t, g);
    for k in 0..g.sig.params.len() {
        let _ = writeln!(
            t,
            "  %ab{k} = getelementptr {{ {fields} }}, ptr %argbuf, i32 0, i32 {k}\n  store {} %a{k}, ptr %ab{k}",
            g.sig.params[k]
        );
    }
    let _ = writeln!(
        t,
        "  %blk01 = mul i64 %g3, %g4\n  %threads = mul i64 %blk01, %g5\n  %grd01 = mul i64 %g0, %g1\n  \
         %blocks = mul i64 %grd01, %g2\n  %c = call ptr @\"postc.gpu.coop.new\"(i64 %threads, ptr @\"{s}.thread\", ptr %argbuf)"
    );
    for (k, v) in ["%g3", "%g4", "%g5", "%g0", "%g1", "%g2"].iter().enumerate() {
        let _ = writeln!(
            t,
            "  %c{0} = getelementptr [12 x i64], ptr {COORDS}, i64 0, i64 {0}\n  store i64 {v}, ptr %c{0}",
            6 + k
        );
    }
    t.push_str(
        "  br label %head\nhead:\n  %b = phi i64 [ 0, %cfgok ], [ %bnext, %body ]\n  %more = icmp ult i64 %b, %blocks\n  \
         br i1 %more, label %body, label %done\nbody:\n  %bx = urem i64 %b, %g0\n  %b1 = udiv i64 %b, %g0\n  \
         %by = urem i64 %b1, %g1\n  %bz = udiv i64 %b, %grd01\n",
    );
    for (k, v) in ["%bx", "%by", "%bz"].iter().enumerate() {
        let _ = writeln!(
            t,
            "  %c{0} = getelementptr [12 x i64], ptr {COORDS}, i64 0, i64 {0}\n  store i64 {v}, ptr %c{0}",
            3 + k
        );
    }
    for (k, sh) in g.shared.iter().enumerate() {
        let _ = writeln!(
            t,
            "  %sh{k} = call ptr @\"{}\"()\n  call void @llvm.memset.p0.i64(ptr %sh{k}, i8 0, i64 {}, i1 false)",
            sh.symbol, sh.bytes
        );
    }
    let _ = writeln!(
        t,
        "  call void @\"postc.gpu.coop.block\"(ptr %c, ptr @\"{s}.diverged\", i64 %bx, i64 %by, i64 %bz, i64 %g3, i64 %g4)\n  \
         %bnext = add i64 %b, 1\n  br label %head\ndone:\n  call void @\"postc.gpu.coop.free\"(ptr %c)\n  ret void\n}}"
    );
    // Each coroutine's body: the kernel's host body with the launch's arguments.
    let _ = writeln!(t, "define internal void @\"{s}.thread\"(ptr %argbuf) {{");
    for k in 0..g.sig.params.len() {
        let _ = writeln!(
            t,
            "  %ab{k} = getelementptr {{ {fields} }}, ptr %argbuf, i32 0, i32 {k}\n  %a{k} = load {}, ptr %ab{k}",
            g.sig.params[k]
        );
    }
    let _ = writeln!(t, "  call void @\"{s}.host\"({})\n  ret void\n}}", c_args(g));
    let _ = writeln!(t, "declare void @\"{s}.host\"({})", g.sig.params_text());
    let msg = format!(
        "panic: kernel function {}: thread (%lld, %lld, %lld) of block (%lld, %lld, %lld) returned while other \
         threads of its block wait at postc.gpu.sync_threads\n",
        g.name.replace('%', "%%")
    );
    let _ = writeln!(
        t,
        "@\"{s}.diverged\" = private unnamed_addr constant [{} x i8] c\"{}\\00\"",
        msg.len() + 1,
        escape_bytes(msg.as_bytes())
    );
    t + &nocfg_message(g)
}

/// What the emulations call (the GPU host text declares them too).
pub(super) const EMULATION_DECLS: &str =
    "declare i32 @fflush(ptr)\ndeclare i32 @dprintf(i32, ptr, ...)\ndeclare void @abort() noreturn nounwind\n";

const HOST_DECLS: &str = "declare i32 @__postc_gpu_usable()
declare void @__postc_gpu_select_runtime(i32)
declare i32 @postc_gpu_is_device_ptr(ptr)
declare ptr @mgpuModuleLoad(ptr, i64)
declare ptr @mgpuModuleGetFunction(ptr, ptr)
declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
declare void @mgpuMemcpy(ptr, ptr, i64, ptr)
declare ptr @postc_gpu_stream()
declare i64 @postc_gpu_arena_mark(ptr)
declare ptr @postc_gpu_arena_alloc(i64, ptr)
declare void @postc_gpu_arena_restore(i64, ptr)
declare ptr @postc_gpu_stage_tensor(ptr, ptr, ptr)
declare void @postc_gpu_unstage_tensor(ptr)
declare i32 @fflush(ptr)
declare i32 @dprintf(i32, ptr, ...)
declare void @abort() noreturn nounwind
declare i64 @llvm.smax.i64(i64, i64)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.umin.i64(i64, i64)
declare i64 @llvm.umax.i64(i64, i64)
";

fn elsize(d: DType) -> u64 {
    d.size_bytes() as u64
}

/// `SYMBOL_loop.gpu`, with `SYMBOL_loop`'s arguments: stages the byte span
/// every operand's loop and core axes reach into the device arena (an
/// operand already in device memory is used in place), launches the kernel
/// with the loop's steps and dimensions, and copies the outputs' spans
/// back. Operands whose steps are not multiples of their element size
/// (which a device cannot load) run on the host loop instead.
fn staging_text(u: &GpuUfunc, fnvar: &str) -> String {
    let plan = &u.plan;
    let (nops, nsteps, ndims) = (plan.nops, plan.num_steps(), 1 + plan.dims.len());
    let np = u.num_kernel_params();
    let s = &u.symbol;
    let mut t = String::new();
    let _ = writeln!(t, "define void @\"{s}_loop.gpu\"(ptr %args, ptr %dims, ptr %steps, ptr %data) {{\nentry:");
    let _ = writeln!(t, "  %params = alloca [{np} x ptr], align 8");
    t.push_str("  %scrslot = alloca ptr, align 8\n  %slotslot = alloca i64, align 8\n");
    for j in 0..nops {
        let _ = writeln!(
            t,
            "  %pslot{j} = alloca ptr, align 8\n  %hslot{j} = alloca ptr, align 8\n  %dslot{j} = alloca ptr, align 8\n  \
             %bslot{j} = alloca i64, align 8"
        );
    }
    t.push_str(
        "  %n = load i64, ptr %dims\n  %nz = icmp sgt i64 %n, 0\n  br i1 %nz, label %check, label %out\ncheck:\n",
    );
    // Every step an operand's elements are reached by.
    let mut axes: Vec<Vec<(String, String)>> = Vec::with_capacity(nops); // (size, step) per axis
    for k in 0..nsteps {
        let _ = writeln!(t, "  %stp{k} = getelementptr i64, ptr %steps, i64 {k}\n  %st{k} = load i64, ptr %stp{k}");
    }
    for k in 1..ndims {
        let _ = writeln!(t, "  %dmp{k} = getelementptr i64, ptr %dims, i64 {k}\n  %dm{k} = load i64, ptr %dmp{k}");
    }
    let mut bad = Vec::new();
    for j in 0..nops {
        let mut ax = vec![("%n".to_string(), format!("%st{j}"))];
        for (a, d) in plan.core[j].iter().enumerate() {
            ax.push((format!("%dm{}", d + 1), format!("%st{}", plan.core_step_base(j) + a)));
        }
        let e = elsize(plan.dtypes[j]);
        if e > 1 {
            for (a, (_, st)) in ax.iter().enumerate() {
                let _ = writeln!(t, "  %rem{j}.{a} = srem i64 {st}, {e}\n  %bad{j}.{a} = icmp ne i64 %rem{j}.{a}, 0");
                bad.push(format!("%bad{j}.{a}"));
            }
        }
        axes.push(ax);
    }
    let mut acc = "false".to_string();
    for (k, b) in bad.iter().enumerate() {
        let _ = writeln!(t, "  %anybad{k} = or i1 {acc}, {b}");
        acc = format!("%anybad{k}");
    }
    let _ = writeln!(
        t,
        "  br i1 {acc}, label %host, label %go\nhost:\n  call void @\"{s}_loop.host\"(ptr %args, ptr %dims, ptr %steps, ptr %data)\n  \
         br label %out\ngo:\n  %f = load ptr, ptr {fnvar}\n  %stream = call ptr @postc_gpu_stream()\n  \
         %mark = call i64 @postc_gpu_arena_mark(ptr %stream)"
    );
    for (j, ax) in axes.iter().enumerate() {
        let e = elsize(plan.dtypes[j]);
        // The span: lowest and highest byte offsets any index reaches.
        let (mut lo, mut hi, mut count, mut empty) =
            ("0".to_string(), "0".to_string(), "1".to_string(), "false".to_string());
        for (a, (size, st)) in ax.iter().enumerate() {
            let _ = writeln!(
                t,
                "  %m{j}.{a} = sub i64 {size}, 1\n  %x{j}.{a} = mul i64 %m{j}.{a}, {st}\n  \
                 %hi{j}.{a} = call i64 @llvm.smax.i64(i64 %x{j}.{a}, i64 0)\n  \
                 %lo{j}.{a} = call i64 @llvm.smin.i64(i64 %x{j}.{a}, i64 0)\n  %sh{j}.{a} = add i64 {hi}, %hi{j}.{a}\n  \
                 %sl{j}.{a} = add i64 {lo}, %lo{j}.{a}\n  %c{j}.{a} = mul i64 {count}, {size}\n  \
                 %z{j}.{a} = icmp slt i64 {size}, 1\n  %e{j}.{a} = or i1 {empty}, %z{j}.{a}"
            );
            (lo, hi, count, empty) =
                (format!("%sl{j}.{a}"), format!("%sh{j}.{a}"), format!("%c{j}.{a}"), format!("%e{j}.{a}"));
        }
        let returned = plan.is_returned(j);
        let output = j >= plan.nin;
        let _ = writeln!(
            t,
            "  %h{j}p = getelementptr ptr, ptr %args, i64 {j}\n  %h{j} = load ptr, ptr %h{j}p\n  \
             %dev{j} = call i32 @postc_gpu_is_device_ptr(ptr %h{j})\n  %indev{j} = icmp ne i32 %dev{j}, 0\n  \
             store ptr %h{j}, ptr %pslot{j}\n  br i1 %indev{j}, label %staged{j}, label %stage{j}\nstage{j}:\n  \
             %w{j} = sub i64 {hi}, {lo}\n  %w{j}e = add i64 %w{j}, {e}\n  %bytes{j} = select i1 {empty}, i64 0, i64 %w{j}e\n  \
             %hlo{j} = getelementptr i8, ptr %h{j}, i64 {lo}\n  %d{j} = call ptr @postc_gpu_arena_alloc(i64 %bytes{j}, ptr %stream)\n  \
             %nlo{j} = sub i64 0, {lo}\n  %db{j} = getelementptr i8, ptr %d{j}, i64 %nlo{j}\n  store ptr %db{j}, ptr %pslot{j}\n  \
             store ptr %hlo{j}, ptr %hslot{j}\n  store ptr %d{j}, ptr %dslot{j}\n  store i64 %bytes{j}, ptr %bslot{j}"
        );
        if output && returned {
            // A returned result is written whole: only a span with gaps
            // (a strided output) needs its old bytes copied in.
            let _ = writeln!(
                t,
                "  %dense{j}.n = mul i64 {count}, {e}\n  %dense{j} = icmp eq i64 %bytes{j}, %dense{j}.n\n  \
                 br i1 %dense{j}, label %staged{j}, label %copyin{j}"
            );
        } else {
            let _ = writeln!(t, "  br label %copyin{j}");
        }
        let _ = writeln!(
            t,
            "copyin{j}:\n  call void @mgpuMemcpy(ptr %d{j}, ptr %hlo{j}, i64 %bytes{j}, ptr %stream)\n  br label %staged{j}\nstaged{j}:"
        );
    }
    // The kernel's parameters point at the staged bases and straight at the
    // caller's steps and dimensions.
    for j in 0..nops {
        let _ = writeln!(
            t,
            "  %pp{j} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {j}\n  store ptr %pslot{j}, ptr %pp{j}"
        );
    }
    for k in 0..nsteps {
        let i = nops + k;
        let _ = writeln!(
            t,
            "  %pp{i} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {i}\n  store ptr %stp{k}, ptr %pp{i}"
        );
    }
    for k in 0..ndims {
        let i = nops + nsteps + k;
        let src = if k == 0 { "%dims".to_string() } else { format!("%dmp{k}") };
        let _ = writeln!(
            t,
            "  %pp{i} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {i}\n  store ptr {src}, ptr %pp{i}"
        );
    }
    let _ = writeln!(
        t,
        "  %nb0 = add i64 %n, {}\n  %nb = udiv i64 %nb0, {BLOCK}\n  %grid0 = call i64 @llvm.umin.i64(i64 %nb, i64 {MAX_GRID})",
        BLOCK - 1
    );
    scratch_text(&mut t, u);
    let (sp, lp) = (np - 2, np - 1);
    let _ = writeln!(
        t,
        "  %pp{sp} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {sp}\n  store ptr %scrslot, ptr %pp{sp}\n  \
         %pp{lp} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {lp}\n  store ptr %slotslot, ptr %pp{lp}\n  \
         call void @mgpuLaunchKernel(ptr %f, i64 %grid, i64 1, i64 1, i64 {BLOCK}, i64 1, i64 1, i32 0, ptr %stream, ptr %params, ptr null, i64 {np})"
    );
    for j in plan.nin..nops {
        let _ = writeln!(
            t,
            "  br i1 %indev{j}, label %back{j}.done, label %back{j}\nback{j}:\n  \
             %bh{j} = load ptr, ptr %hslot{j}\n  %bd{j} = load ptr, ptr %dslot{j}\n  %bb{j} = load i64, ptr %bslot{j}\n  \
             call void @mgpuMemcpy(ptr %bh{j}, ptr %bd{j}, i64 %bb{j}, ptr %stream)\n  br label %back{j}.done\nback{j}.done:"
        );
    }
    t.push_str("  call void @postc_gpu_arena_restore(i64 %mark, ptr %stream)\n  br label %out\nout:\n  ret void\n}\n");
    t
}

/// The most bytes of scratch copies one launch of a ufunc takes (its grid
/// shrinks to fit when more threads would need more, down to one block).
pub const SCRATCH_BUDGET: u64 = 64 << 20;

/// The scratch buffer of a launch of `u` (in `%scrslot`, `%slotslot`) and
/// its grid (`%grid`, from `%grid0`). When a view operand's core steps
/// differ from those its parameter type fixes, the device's loop copies it
/// through a buffer: each thread that runs loop indices gets its own part,
/// of `slot` bytes (each view operand's core extents times its element
/// size, rounded to 16, as `Plan::scratch_operands` lays them out), all
/// from the stream's arena. Otherwise the buffer is NULL and takes nothing.
fn scratch_text(t: &mut String, u: &GpuUfunc) {
    let plan = &u.plan;
    let mut need = "false".to_string();
    let mut slot = "0".to_string();
    for i in plan.scratch_operands() {
        for (a, fx) in plan.fixed_core_strides(i) {
            let k = plan.core_step_base(i) + a;
            let _ =
                writeln!(t, "  %sne{i}.{a} = icmp ne i64 %st{k}, {fx}\n  %sneed{i}.{a} = or i1 {need}, %sne{i}.{a}");
            need = format!("%sneed{i}.{a}");
        }
        let mut count = elsize(plan.dtypes[i]).to_string();
        for d in &plan.core[i] {
            let _ = writeln!(t, "  %scount{i}.{d} = mul i64 {count}, %dm{}", d + 1);
            count = format!("%scount{i}.{d}");
        }
        let a = crate::ufunc_plan::SCRATCH_ALIGN;
        let _ = writeln!(
            t,
            "  %sround{i}.0 = add i64 {count}, {}\n  %sround{i} = and i64 %sround{i}.0, {}\n  %sslot{i} = add i64 {slot}, %sround{i}",
            a - 1,
            !(a - 1) as i64
        );
        slot = format!("%sslot{i}");
    }
    let _ = writeln!(
        t,
        "  br i1 {need}, label %scratch, label %noscratch\nscratch:\n  %slot1 = call i64 @llvm.umax.i64(i64 {slot}, i64 1)\n  \
         %perblock = mul i64 %slot1, {BLOCK}\n  %gcap0 = udiv i64 {SCRATCH_BUDGET}, %perblock\n  \
         %gcap = call i64 @llvm.umax.i64(i64 %gcap0, i64 1)\n  %sgrid = call i64 @llvm.umin.i64(i64 %grid0, i64 %gcap)\n  \
         %sthreads0 = mul i64 %sgrid, {BLOCK}\n  %sthreads = call i64 @llvm.umin.i64(i64 %sthreads0, i64 %n)\n  \
         %sbytes = mul i64 %sthreads, {slot}\n  %sbuf = call ptr @postc_gpu_arena_alloc(i64 %sbytes, ptr %stream)\n  \
         store ptr %sbuf, ptr %scrslot\n  store i64 {slot}, ptr %slotslot\n  br label %launch\n\
         noscratch:\n  store ptr null, ptr %scrslot\n  store i64 0, ptr %slotslot\n  br label %launch\n\
         launch:\n  %grid = phi i64 [ %sgrid, %scratch ], [ %grid0, %noscratch ]"
    );
}

/// Stages a gpu function's arguments into `%slot{k}` (allocas made by
/// the caller of this in the entry block), after `%mark`.
fn stage_args(t: &mut String, g: &GpuFunction) {
    for (k, p) in g.params.iter().enumerate() {
        if p.tensor {
            let _ = writeln!(
                t,
                "  %dt{k} = call ptr @postc_gpu_stage_tensor(ptr %a{k}, ptr %rec{k}, ptr %stream)\n  \
                 store ptr %dt{k}, ptr %slot{k}"
            );
        } else if p.dtype == DType::Bool {
            let _ = writeln!(t, "  %z{k} = zext i1 %a{k} to i8\n  store i8 %z{k}, ptr %slot{k}");
        } else {
            let _ = writeln!(t, "  store {} %a{k}, ptr %slot{k}", llty(p.dtype));
        }
    }
}

fn arg_allocas(t: &mut String, g: &GpuFunction, np: usize) {
    let _ = writeln!(t, "  %params = alloca [{np} x ptr], align 8");
    for (k, p) in g.params.iter().enumerate() {
        if p.tensor {
            let _ = writeln!(t, "  %rec{k} = alloca [6 x i64], align 8\n  %slot{k} = alloca ptr, align 8");
        } else {
            let _ = writeln!(t, "  %slot{k} = alloca {}, align 8", memty(p.dtype));
        }
        let _ = writeln!(
            t,
            "  %pp{k} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {k}\n  store ptr %slot{k}, ptr %pp{k}"
        );
    }
}

fn unstage_outputs(t: &mut String, g: &GpuFunction) {
    for (k, p) in g.params.iter().enumerate() {
        if p.tensor && p.output {
            let _ = writeln!(t, "  call void @postc_gpu_unstage_tensor(ptr %rec{k})");
        }
    }
}

/// The launcher of a `kernel` function: `void SYMBOL(const postc_launch
/// *cfg, ...)` stages the arrays, launches over the configuration's grid and
/// copies the `&` arrays back.
fn kernel_launcher(g: &GpuFunction, fnvar: &str) -> String {
    let s = &g.symbol;
    let np = g.params.len();
    let mut t = String::new();
    let _ = writeln!(t, "define {}void @\"{s}\"({}) {{\nentry:", linkage(g), launch_params(g));
    arg_allocas(&mut t, g, np);
    launch_config(&mut t, g);
    t.push_str("  %stream = call ptr @postc_gpu_stream()\n  %mark = call i64 @postc_gpu_arena_mark(ptr %stream)\n");
    stage_args(&mut t, g);
    let _ = writeln!(
        t,
        "  %f = load ptr, ptr {fnvar}\n  call void @mgpuLaunchKernel(ptr %f, i64 %g0, i64 %g1, i64 %g2, i64 %g3, i64 %g4, i64 %g5, \
         i32 0, ptr %stream, ptr %params, ptr null, i64 {np})"
    );
    unstage_outputs(&mut t, g);
    t.push_str("  call void @postc_gpu_arena_restore(i64 %mark, ptr %stream)\n  ret void\n}\n");
    t + &nocfg_message(g)
}

/// A plain `gpu` function: `SYMBOL.gpu` runs the body on one device thread
/// (the result comes back through an 8-byte device slot); `SYMBOL` calls
/// it, or asks `__postc_gpu_usable` first for `gpu(fallback)`.
fn single_launcher(g: &GpuFunction, fnvar: &str) -> String {
    let s = &g.symbol;
    let np = g.params.len() + usize::from(g.ret.is_some());
    let (ret, rattr) = (&g.sig.ret, g.sig.ret_attr);
    let mut t = String::new();
    let _ = writeln!(t, "define internal {rattr} {ret} @\"{s}.gpu\"({}) {{\nentry:", c_args(g));
    arg_allocas(&mut t, g, np);
    t.push_str(
        "  %rslot = alloca ptr, align 8\n  %hret = alloca i64, align 8\n  %stream = call ptr @postc_gpu_stream()\n  \
         %mark = call i64 @postc_gpu_arena_mark(ptr %stream)\n",
    );
    stage_args(&mut t, g);
    if g.ret.is_some() {
        let k = g.params.len();
        let _ = writeln!(
            t,
            "  %rdev = call ptr @postc_gpu_arena_alloc(i64 8, ptr %stream)\n  store ptr %rdev, ptr %rslot\n  \
             %pp{k} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {k}\n  store ptr %rslot, ptr %pp{k}"
        );
    }
    let _ = writeln!(
        t,
        "  %f = load ptr, ptr {fnvar}\n  call void @mgpuLaunchKernel(ptr %f, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, \
         i32 0, ptr %stream, ptr %params, ptr null, i64 {np})"
    );
    if g.ret.is_some() {
        t.push_str("  call void @mgpuMemcpy(ptr %hret, ptr %rdev, i64 8, ptr %stream)\n");
    }
    unstage_outputs(&mut t, g);
    t.push_str("  call void @postc_gpu_arena_restore(i64 %mark, ptr %stream)\n");
    match g.ret {
        None => t.push_str("  ret void\n}\n"),
        Some(DType::Bool) => t.push_str("  %rb = load i8, ptr %hret\n  %r = trunc i8 %rb to i1\n  ret i1 %r\n}\n"),
        Some(d) => {
            let _ = writeln!(t, "  %r = load {0}, ptr %hret\n  ret {0} %r\n}}", llty(d));
        }
    }
    let args = c_args(g);
    let _ = writeln!(t, "declare {rattr} {ret} @\"{s}.host\"({})", g.sig.params_text());
    let _ = writeln!(t, "define {}{rattr} {ret} @\"{s}\"({args}) {{\nentry:", linkage(g));
    // The call of `callee` and the return of its result, named `r`.
    let call_and_return = |callee: &str, r: &str| {
        if g.ret.is_some() {
            format!("%{r} = call {rattr} {ret} @\"{callee}\"({args})\n  ret {ret} %{r}")
        } else {
            format!("call void @\"{callee}\"({args})\n  ret void")
        }
    };
    let on_gpu = call_and_return(&format!("{s}.gpu"), "r");
    if g.fallback {
        let on_host = call_and_return(&format!("{s}.host"), "rh");
        let _ = writeln!(
            t,
            "  %u = call i32 @__postc_gpu_usable()\n  %ok = icmp ne i32 %u, 0\n  br i1 %ok, label %gpu, label %host\n\
             gpu:\n  {on_gpu}\nhost:\n  {on_host}\n}}"
        );
    } else {
        let _ = writeln!(t, "  {on_gpu}\n}}");
    }
    t
}

/// The host side of the gpu ufuncs: device image, constructor, wrappers.
pub(super) fn host_text(low: &Lowered<'_>, code: &DeviceCode) -> String {
    let us = &low.gpu.ufuncs;
    let mut t = String::new();
    let image = code.image();
    let _ = writeln!(
        t,
        "@\"postc.gpu.image\" = private unnamed_addr constant [{} x i8] c\"{}\", align 8",
        image.len(),
        escape_bytes(&image)
    );
    t.push_str("@\"postc.gpu.module\" = internal global ptr null, align 8\n");
    let kernels = low.gpu.kernel_names();
    for (i, k) in kernels.iter().enumerate() {
        let _ = writeln!(t, "@\"postc.gpu.fn.{i}\" = internal global ptr null, align 8");
        let _ = writeln!(
            t,
            "@\"postc.gpu.name.{i}\" = private unnamed_addr constant [{} x i8] c\"{}\\00\"",
            k.len() + 1,
            escape_bytes(k.as_bytes())
        );
    }
    let fs = &low.gpu.functions;
    // Without a GPU, a program whose GPU code has no host body to fall back
    // on stops at load, naming `gpu` (or `kernel` when only kernels lack one).
    let bare = us
        .iter()
        .filter(|u| !u.fallback)
        .map(|u| ("gpu", &u.name))
        .chain(fs.iter().filter(|g| g.kind == FunctionKind::Single && !g.fallback).map(|g| ("gpu", &g.name)))
        .chain(fs.iter().filter(|g| g.kind == FunctionKind::Kernel).map(|g| ("kernel", &g.name)))
        .next();
    if let Some((what, name)) = bare {
        let msg = format!("panic: no usable GPU for {what} function {name}\n");
        let _ = writeln!(
            t,
            "@\"postc.gpu.nogpu\" = private unnamed_addr constant [{} x i8] c\"{}\\00\"",
            msg.len() + 1,
            escape_bytes(msg.as_bytes())
        );
    }
    t.push_str(
        "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @\"postc.gpu.init\", ptr null }]\n\n",
    );
    t.push_str(HOST_DECLS);
    // The constructor.
    let _ = write!(
        t,
        "\ndefine internal void @\"postc.gpu.init\"() {{\nentry:\n  call void @__postc_gpu_select_runtime(i32 {})\n  \
         %u = call i32 @__postc_gpu_usable()\n  %ok = icmp ne i32 %u, 0\n  br i1 %ok, label %load, label %none\nnone:\n",
        code.runtime_kind()
    );
    if bare.is_some() {
        t.push_str(
            "  %fl = call i32 @fflush(ptr null)\n  %pr = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @\"postc.gpu.nogpu\")\n  \
             call void @abort()\n  unreachable\n",
        );
    } else {
        t.push_str("  ret void\n");
    }
    let _ = writeln!(
        t,
        "load:\n  %m = call ptr @mgpuModuleLoad(ptr @\"postc.gpu.image\", i64 {})\n  store ptr %m, ptr @\"postc.gpu.module\"",
        image.len()
    );
    for i in 0..kernels.len() {
        let _ = writeln!(
            t,
            "  %f{i} = call ptr @mgpuModuleGetFunction(ptr %m, ptr @\"postc.gpu.name.{i}\")\n  store ptr %f{i}, ptr @\"postc.gpu.fn.{i}\""
        );
    }
    t.push_str("  ret void\n}\n\n");
    for (i, u) in us.iter().enumerate() {
        let s = &u.symbol;
        let _ = writeln!(t, "declare void @\"{s}_loop.host\"(ptr, ptr, ptr, ptr)\n");
        t.push_str(&staging_text(u, &format!("@\"postc.gpu.fn.{i}\"")));
        let _ = writeln!(t, "define void @\"{s}_loop\"(ptr %a, ptr %d, ptr %st, ptr %x) {{\nentry:");
        if u.fallback {
            let _ = writeln!(
                t,
                "  %u = call i32 @__postc_gpu_usable()\n  %ok = icmp ne i32 %u, 0\n  br i1 %ok, label %gpu, label %host\n\
                 gpu:\n  call void @\"{s}_loop.gpu\"(ptr %a, ptr %d, ptr %st, ptr %x)\n  ret void\n\
                 host:\n  call void @\"{s}_loop.host\"(ptr %a, ptr %d, ptr %st, ptr %x)\n  ret void\n}}\n"
            );
        } else {
            let _ = writeln!(t, "  call void @\"{s}_loop.gpu\"(ptr %a, ptr %d, ptr %st, ptr %x)\n  ret void\n}}\n");
        }
    }
    for (i, g) in fs.iter().enumerate() {
        let fnvar = format!("@\"postc.gpu.fn.{}\"", us.len() + i);
        t.push_str(&match g.kind {
            FunctionKind::Kernel => kernel_launcher(g, &fnvar),
            FunctionKind::Single => single_launcher(g, &fnvar),
        });
    }
    t
}
