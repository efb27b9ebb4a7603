//! The host side of the GPU code: the embedded device image, the
//! constructor that loads it, and per gpu ufunc the staging wrapper
//! `SYMBOL_loop.gpu` and the dispatcher `SYMBOL_loop`.

use super::{DeviceCode, GpuUfunc, BLOCK, MAX_GRID};
use crate::Lowered;
use postc_ir::DType;
use std::fmt::Write as _;

fn bytes_lit(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() + 8);
    for &c in b {
        if (c.is_ascii_graphic() || c == b' ') && c != b'"' && c != b'\\' {
            s.push(c as char);
        } else {
            let _ = write!(s, "\\{c:02X}");
        }
    }
    s
}

const HOST_DECLS: &str = "declare i32 @__postc_gpu_usable()
declare void @__postc_gpu_select_runtime(i32)
declare i32 @postc_gpu_is_device_ptr(ptr)
declare ptr @mgpuModuleLoad(ptr, i64)
declare ptr @mgpuModuleGetFunction(ptr, ptr)
declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
declare void @mgpuMemcpy(ptr, ptr, i64, ptr)
declare i64 @postc_gpu_arena_mark()
declare ptr @postc_gpu_arena_alloc(i64, ptr)
declare void @postc_gpu_arena_restore(i64, ptr)
declare i32 @fflush(ptr)
declare i32 @dprintf(i32, ptr, ...)
declare void @abort() noreturn nounwind
declare i64 @llvm.smax.i64(i64, i64)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.umin.i64(i64, i64)
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
         br label %out\ngo:\n  %f = load ptr, ptr {fnvar}\n  %mark = call i64 @postc_gpu_arena_mark()"
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
             %hlo{j} = getelementptr i8, ptr %h{j}, i64 {lo}\n  %d{j} = call ptr @postc_gpu_arena_alloc(i64 %bytes{j}, ptr null)\n  \
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
            "copyin{j}:\n  call void @mgpuMemcpy(ptr %d{j}, ptr %hlo{j}, i64 %bytes{j}, ptr null)\n  br label %staged{j}\nstaged{j}:"
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
        "  %nb0 = add i64 %n, {}\n  %nb = udiv i64 %nb0, {BLOCK}\n  %grid = call i64 @llvm.umin.i64(i64 %nb, i64 {MAX_GRID})\n  \
         call void @mgpuLaunchKernel(ptr %f, i64 %grid, i64 1, i64 1, i64 {BLOCK}, i64 1, i64 1, i32 0, ptr null, ptr %params, ptr null, i64 {np})",
        BLOCK - 1
    );
    for j in plan.nin..nops {
        let _ = writeln!(
            t,
            "  br i1 %indev{j}, label %back{j}.done, label %back{j}\nback{j}:\n  \
             %bh{j} = load ptr, ptr %hslot{j}\n  %bd{j} = load ptr, ptr %dslot{j}\n  %bb{j} = load i64, ptr %bslot{j}\n  \
             call void @mgpuMemcpy(ptr %bh{j}, ptr %bd{j}, i64 %bb{j}, ptr null)\n  br label %back{j}.done\nback{j}.done:"
        );
    }
    t.push_str("  call void @postc_gpu_arena_restore(i64 %mark, ptr null)\n  br label %out\nout:\n  ret void\n}\n");
    t
}

/// The host side of the gpu ufuncs: device image, constructor, wrappers.
pub(super) fn host_text(low: &Lowered, code: &DeviceCode) -> String {
    let us = &low.gpu.ufuncs;
    let mut t = String::new();
    let image = code.image();
    let _ = writeln!(
        t,
        "@\"postc.gpu.image\" = private unnamed_addr constant [{} x i8] c\"{}\", align 8",
        image.len(),
        bytes_lit(&image)
    );
    t.push_str("@\"postc.gpu.module\" = internal global ptr null, align 8\n");
    for (i, u) in us.iter().enumerate() {
        let _ = writeln!(t, "@\"postc.gpu.fn.{i}\" = internal global ptr null, align 8");
        let _ = writeln!(
            t,
            "@\"postc.gpu.name.{i}\" = private unnamed_addr constant [{} x i8] c\"{}\\00\"",
            u.kernel.len() + 1,
            bytes_lit(u.kernel.as_bytes())
        );
    }
    let bare = us.iter().find(|u| !u.fallback);
    if let Some(u) = bare {
        let msg = format!("panic: no usable GPU for gpu function {}\n", u.name);
        let _ = writeln!(
            t,
            "@\"postc.gpu.nogpu\" = private unnamed_addr constant [{} x i8] c\"{}\\00\"",
            msg.len() + 1,
            bytes_lit(msg.as_bytes())
        );
    }
    t.push_str(
        "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @\"postc.gpu.init\", ptr null }]\n\n",
    );
    t.push_str(HOST_DECLS);
    // The constructor.
    t.push_str(
        "\ndefine internal void @\"postc.gpu.init\"() {\nentry:\n  call void @__postc_gpu_select_runtime(i32 1)\n  \
         %u = call i32 @__postc_gpu_usable()\n  %ok = icmp ne i32 %u, 0\n  br i1 %ok, label %load, label %none\nnone:\n",
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
    for i in 0..us.len() {
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
    t
}
