//! GPU code generation (NVPTX).
//!
//! A `gpu` / `gpu(fallback)` elementwise ufunc (core shape `()` for every
//! operand, scalar parameters, one returned result) is compiled twice: the
//! host body as usual, and a kernel `__postc_kernel_NAME` for
//! `nvptx64-nvidia-cuda` that runs one loop iteration per thread in a
//! grid-stride loop. The kernel takes, per operand (inputs, then the
//! output), a device pointer and an element stride, then the loop length.
//!
//! The device module is the host lowering parsed for the NVPTX triple: the
//! kernels call the ufunc bodies, everything else is made internal and
//! dropped by `globaldce`. A panic on the device (`abort`) is `llvm.trap`;
//! its message is not printed.
//!
//! The host module embeds the PTX as a private constant and gets a global
//! constructor that loads it through `mgpuModuleLoad` and caches each
//! kernel's `mgpuModuleGetFunction` handle. Per gpu ufunc the host's
//! `NAME_loop` becomes `NAME_loop.host`; `NAME_loop.gpu` stages every
//! operand's strided span into the device arena, launches, and copies the
//! output span back; `NAME_loop` is `NAME_loop.gpu` for `gpu` and asks
//! `__postc_gpu_usable` for `gpu(fallback)`. `NAME_dl` calls `NAME_loop`.

use crate::emit::{llty, memty, FnSig};
use crate::{CodegenOptions, Lowered};
use inkwell::context::Context;
use inkwell::intrinsics::Intrinsic;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::values::{BasicValue as _, InstructionOpcode};
use inkwell::GlobalVisibility;
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{DType, FuncId, ModuleId, Program};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Which GPU code a build makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum GpuMode {
    /// NVIDIA, through the NVPTX backend (the default).
    #[default]
    Nvptx,
    /// AMD (not implemented yet: a diagnostic).
    Amdgpu,
    /// No GPU code: `gpu` functions are compiled for the host only.
    Off,
}

/// GPU options of a build.
#[derive(Clone, Debug, Default)]
pub struct GpuOptions {
    pub mode: GpuMode,
    /// The GPU architecture (`sm_90` by default).
    pub arch: Option<String>,
}

/// The NVPTX triple.
pub const NVPTX_TRIPLE: &str = "nvptx64-nvidia-cuda";
/// The default architecture.
pub const DEFAULT_ARCH: &str = "sm_90";
/// Threads per block of a launch.
pub const BLOCK: u64 = 256;
/// The most blocks of a launch (the grid-stride loop covers the rest).
pub const MAX_GRID: u64 = 65535;

/// One gpu ufunc.
#[derive(Clone, Debug)]
pub struct GpuUfunc {
    pub name: String,
    /// The body's symbol (the host one-iteration function).
    pub symbol: String,
    /// The kernel's name in the PTX.
    pub kernel: String,
    /// Element dtypes: the inputs, then the output.
    pub dtypes: Vec<DType>,
    pub sig: FnSig,
    pub fallback: bool,
}

/// The GPU part of a lowered program.
#[derive(Clone, Debug, Default)]
pub struct GpuPlan {
    pub ufuncs: Vec<GpuUfunc>,
    /// `gpu` functions this backend cannot compile for the GPU yet; errors
    /// unless the build's GPU mode is `off`.
    pub unsupported: Vec<Diagnostic>,
}

impl GpuPlan {
    pub fn is_empty(&self) -> bool {
        self.ufuncs.is_empty() && self.unsupported.is_empty()
    }
}

/// Whether a program has GPU functions.
pub fn has_gpu(program: &Program) -> bool {
    program.modules.iter().any(|m| m.functions.iter().any(|f| f.attrs.is_gpu()))
}

fn supported_dtype(d: DType) -> bool {
    !(d.is_complex() || matches!(d, DType::Str | DType::Bytes))
}

/// Finds the gpu functions of a lowered program.
pub fn plan(program: &Program, sigs: &HashMap<(ModuleId, FuncId), FnSig>) -> GpuPlan {
    let mut out = GpuPlan::default();
    for (mid, m) in program.modules.iter_enumerated() {
        for (fid, f) in m.functions.iter_enumerated() {
            if !f.attrs.is_gpu() {
                continue;
            }
            let at = f.loc.map(|l| Pos::from_loc(&m.files, l));
            let sig = &sigs[&(mid, fid)];
            let unsupported = |why: &str| {
                Diagnostic::error(
                    format!("gpu function `{}`: {why} (not supported on the GPU yet)", f.name),
                    at.clone(),
                )
            };
            let Some(usig) = f.ufunc_sig.as_ref() else {
                out.unsupported.push(unsupported("only elementwise ufuncs are compiled for the GPU"));
                continue;
            };
            let elementwise = usig.outputs.len() == 1
                && (0..usig.inputs.len() + 1).all(|i| usig.operand(i).is_none_or(|c| c.is_empty()))
                && f.ret.is_some();
            let mut dtypes = Vec::new();
            let mut scalar = true;
            for p in f.params() {
                match f.body.ty(p).map(|t| m.types.get(t)) {
                    Some(t) if !t.is_array && supported_dtype(t.dtype) => dtypes.push(t.dtype),
                    _ => scalar = false,
                }
            }
            match f.ret.map(|t| m.types.get(t)) {
                Some(t) if !t.is_array && supported_dtype(t.dtype) => dtypes.push(t.dtype),
                _ => scalar = false,
            }
            if !elementwise || !scalar || f.body.num_core != 0 {
                out.unsupported.push(unsupported(
                    "only elementwise ufuncs (core shape `()`, real or integer scalar operands, one returned result) \
                     are compiled for the GPU",
                ));
                continue;
            }
            if !sig.exported {
                out.unsupported.push(unsupported("a gpu ufunc must be exported"));
                continue;
            }
            out.ufuncs.push(GpuUfunc {
                name: f.name.clone(),
                symbol: sig.symbol.clone(),
                kernel: format!("__postc_kernel_{}", sig.symbol.replace('.', "_")),
                dtypes,
                sig: sig.clone(),
                fallback: f.attrs.contains(postc_ir::FuncAttrs::GPU_FALLBACK),
            });
        }
    }
    out
}

fn err(msg: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::error(msg.into(), None)]
}

/// Checks the mode and the plan: `Ok(false)` when the build makes no GPU
/// code.
fn active(low: &Lowered, options: &CodegenOptions) -> Result<bool, Vec<Diagnostic>> {
    match options.gpu.mode {
        GpuMode::Off => return Ok(false),
        GpuMode::Amdgpu if !low.gpu.is_empty() => {
            return Err(err("`--gpu amdgpu`: AMD GPU code generation is not implemented yet"))
        }
        _ => {}
    }
    if !low.gpu.unsupported.is_empty() {
        return Err(low.gpu.unsupported.clone());
    }
    Ok(!low.gpu.ufuncs.is_empty())
}

/// The kernel of one gpu ufunc, as LLVM IR text.
fn kernel_text(u: &GpuUfunc) -> String {
    let nops = u.dtypes.len();
    let mut t = String::new();
    let params: Vec<String> = (0..nops).map(|j| format!("ptr %p{j}, i64 %s{j}")).collect();
    let _ = writeln!(t, "define ptx_kernel void @\"{}\"({}, i64 %n) {{", u.kernel, params.join(", "));
    t.push_str(
        "entry:\n  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n  \
         %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n  \
         %tid64 = zext i32 %tid to i64\n  %ntid64 = zext i32 %ntid to i64\n  %ctaid64 = zext i32 %ctaid to i64\n  \
         %nctaid64 = zext i32 %nctaid to i64\n  %base = mul i64 %ctaid64, %ntid64\n  %start = add i64 %base, %tid64\n  \
         %step = mul i64 %nctaid64, %ntid64\n  br label %head\n\
         head:\n  %i = phi i64 [ %start, %entry ], [ %next, %body ]\n  %more = icmp slt i64 %i, %n\n  \
         br i1 %more, label %body, label %done\nbody:\n",
    );
    let mut args = Vec::new();
    for (j, d) in u.dtypes[..nops - 1].iter().enumerate() {
        let (mt, vt) = (memty(*d), llty(*d));
        let _ = writeln!(t, "  %o{j} = mul i64 %i, %s{j}\n  %a{j} = getelementptr {mt}, ptr %p{j}, i64 %o{j}");
        let _ = writeln!(t, "  %m{j} = load {mt}, ptr %a{j}");
        if mt != vt {
            let _ = writeln!(t, "  %v{j} = trunc {mt} %m{j} to {vt}");
        } else {
            let _ = writeln!(t, "  %v{j} = bitcast {mt} %m{j} to {vt}");
        }
        let attr = u.sig.param_attrs.get(j).copied().unwrap_or("");
        args.push(format!("{vt} {attr} %v{j}"));
    }
    let k = nops - 1;
    let d = u.dtypes[k];
    let (mt, vt) = (memty(d), llty(d));
    let _ = writeln!(t, "  %r = call {} {vt} @\"{}\"({})", u.sig.ret_attr, u.symbol, args.join(", "));
    if mt != vt {
        let _ = writeln!(t, "  %rm = zext {vt} %r to {mt}");
    } else {
        let _ = writeln!(t, "  %rm = bitcast {vt} %r to {mt}");
    }
    let _ = writeln!(t, "  %o{k} = mul i64 %i, %s{k}\n  %a{k} = getelementptr {mt}, ptr %p{k}, i64 %o{k}");
    let _ = writeln!(t, "  store {mt} %rm, ptr %a{k}");
    t.push_str("  %next = add i64 %i, %step\n  br label %head\ndone:\n  ret void\n}\n\n");
    t
}

const NVVM_DECLS: &str = "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n\
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n\
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n";

/// LLVM intrinsics the NVPTX backend lowers without a library.
const DEVICE_INTRINSICS: &[&str] = &[
    "llvm.nvvm.",
    "llvm.sqrt.",
    "llvm.fabs.",
    "llvm.fma.",
    "llvm.fmuladd.",
    "llvm.minnum.",
    "llvm.maxnum.",
    "llvm.minimum.",
    "llvm.maximum.",
    "llvm.copysign.",
    "llvm.floor.",
    "llvm.ceil.",
    "llvm.trunc.",
    "llvm.rint.",
    "llvm.nearbyint.",
    "llvm.roundeven.",
    "llvm.abs.",
    "llvm.smin.",
    "llvm.smax.",
    "llvm.umin.",
    "llvm.umax.",
    "llvm.ctpop.",
    "llvm.ctlz.",
    "llvm.cttz.",
    "llvm.bswap.",
    "llvm.bitreverse.",
    "llvm.fshl.",
    "llvm.fshr.",
    "llvm.sadd.with.overflow.",
    "llvm.uadd.with.overflow.",
    "llvm.ssub.with.overflow.",
    "llvm.usub.with.overflow.",
    "llvm.smul.with.overflow.",
    "llvm.umul.with.overflow.",
    "llvm.sadd.sat.",
    "llvm.uadd.sat.",
    "llvm.ssub.sat.",
    "llvm.usub.sat.",
    "llvm.expect.",
    "llvm.assume",
    "llvm.lifetime.",
    "llvm.memcpy.",
    "llvm.memset.",
    "llvm.memmove.",
    "llvm.trap",
    "llvm.fptosi.sat.",
    "llvm.fptoui.sat.",
    "llvm.is.fpclass.",
    "llvm.experimental.",
];

/// The NVPTX target machine of the options.
pub fn nvptx_machine(options: &CodegenOptions) -> Result<TargetMachine, Vec<Diagnostic>> {
    crate::init_targets();
    let triple = TargetTriple::create(NVPTX_TRIPLE);
    let target = Target::from_triple(&triple)
        .map_err(|e| err(format!("the NVPTX target is not available in this LLVM: {e}")))?;
    let arch = options.gpu.arch.clone().unwrap_or_else(|| DEFAULT_ARCH.into());
    let level = match options.opt {
        crate::OptLevel::O0 => inkwell::OptimizationLevel::None,
        crate::OptLevel::O1 => inkwell::OptimizationLevel::Less,
        crate::OptLevel::O2 => inkwell::OptimizationLevel::Default,
        crate::OptLevel::O3 => inkwell::OptimizationLevel::Aggressive,
    };
    if !arch.starts_with("sm_") {
        return Err(err(format!("unknown GPU architecture `{arch}`: expected sm_NN")));
    }
    target
        .create_target_machine(&triple, &arch, "", level, RelocMode::Default, CodeModel::Default)
        .ok_or_else(|| err(format!("cannot create an NVPTX target machine for `{arch}`")))
}

/// The PTX of the gpu ufuncs of a lowered program.
pub fn compile_ptx(low: &Lowered, options: &CodegenOptions) -> Result<String, Vec<Diagnostic>> {
    let tm = nvptx_machine(options)?;
    let cx = Context::create();
    let mut text = low.text.clone();
    text.push('\n');
    for u in &low.gpu.ufuncs {
        text.push_str(&kernel_text(u));
    }
    text.push_str(NVVM_DECLS);
    let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "postc.gpu");
    let m = cx
        .create_module_from_ir(buf)
        .map_err(|e| err(format!("internal code generation error: LLVM rejected the device module: {e}")))?;
    m.set_triple(&tm.get_triple());
    m.set_data_layout(&tm.get_target_data().get_data_layout());
    let kernels: Vec<&str> = low.gpu.ufuncs.iter().map(|u| u.kernel.as_str()).collect();
    for f in m.get_functions() {
        let name = f.get_name().to_string_lossy().into_owned();
        if f.count_basic_blocks() > 0 && !kernels.contains(&name.as_str()) {
            f.as_global_value().set_visibility(GlobalVisibility::Default);
            f.set_linkage(Linkage::Internal);
        }
    }
    for g in m.get_globals() {
        if g.get_initializer().is_some() {
            g.set_visibility(GlobalVisibility::Default);
            g.set_linkage(Linkage::Internal);
        }
    }
    let popts = || PassBuilderOptions::create();
    m.run_passes("globaldce", &tm, popts()).map_err(|e| err(format!("internal code generation error: {e}")))?;
    // What the kernels still need from outside.
    let what = low.gpu.ufuncs.iter().map(|u| format!("`{}`", u.name)).collect::<Vec<_>>().join(", ");
    for g in m.get_globals() {
        if g.is_thread_local() {
            return Err(err(format!("gpu ufunc {what}: allocates arrays, which is not supported on the GPU yet")));
        }
    }
    let mut dead_calls = Vec::new();
    for f in m.get_functions() {
        for bb in f.get_basic_blocks() {
            for i in bb.get_instructions() {
                if i.get_opcode() == InstructionOpcode::Call && i.get_first_use().is_none() {
                    let n = i.get_num_operands();
                    if let Some(inkwell::values::Operand::Value(callee)) = i.get_operand(n - 1) {
                        if callee.get_name().to_bytes() == b"dprintf" {
                            dead_calls.push(i);
                        }
                    }
                }
            }
        }
    }
    for i in dead_calls {
        i.erase_from_basic_block();
    }
    for f in m.get_functions() {
        if f.count_basic_blocks() > 0 {
            continue;
        }
        let name = f.get_name().to_string_lossy().into_owned();
        if name == "abort" && f.as_global_value().as_pointer_value().get_first_use().is_some() {
            let b = cx.create_builder();
            let bb = cx.append_basic_block(f, "entry");
            b.position_at_end(bb);
            let trap = Intrinsic::find("llvm.trap")
                .and_then(|t| t.get_declaration(&m, &[]))
                .ok_or_else(|| err("internal code generation error: no llvm.trap"))?;
            b.build_call(trap, &[], "").map_err(|e| err(e.to_string()))?;
            b.build_unreachable().map_err(|e| err(e.to_string()))?;
            f.set_linkage(Linkage::Internal);
        } else if f.as_global_value().as_pointer_value().get_first_use().is_none() {
            unsafe { f.delete() };
        } else if name.starts_with("llvm.") {
            if !DEVICE_INTRINSICS.iter().any(|p| name.starts_with(p)) {
                return Err(err(format!(
                    "gpu ufunc {what}: uses `{name}`, which has no GPU implementation yet (libdevice is not linked)"
                )));
            }
        } else {
            return Err(err(format!("gpu ufunc {what}: calls `{name}`, which does not exist on the GPU")));
        }
    }
    m.verify().map_err(|e| err(format!("internal code generation error: the device module does not verify: {e}")))?;
    let pipeline = format!("default<O{}>", options.opt.as_u8());
    m.run_passes(&pipeline, &tm, popts()).map_err(|e| err(format!("internal code generation error: {e}")))?;
    let ptx = tm.write_to_memory_buffer(&m, FileType::Assembly).map_err(|e| err(format!("emitting PTX: {e}")))?;
    Ok(String::from_utf8_lossy(ptx.as_slice()).into_owned())
}

/// `--emit ptx`: the PTX of a program's gpu ufuncs.
pub fn emit_ptx(program: &Program, options: &CodegenOptions) -> Result<String, Vec<Diagnostic>> {
    let prepared = crate::prepare(program, options)?;
    let low = crate::lower(&prepared)?;
    if options.gpu.mode == GpuMode::Off {
        return Err(err("`--emit ptx` with `--gpu off`"));
    }
    if !active(&low, options)? {
        return Err(err("the program has no gpu function"));
    }
    compile_ptx(&low, options)
}

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
declare i64 @llvm.abs.i64(i64, i1)
declare i64 @llvm.umin.i64(i64, i64)
";

fn elsize(d: DType) -> u64 {
    match memty(d) {
        "i8" => 1,
        "i16" | "half" => 2,
        "i32" | "float" => 4,
        _ => 8,
    }
}

/// `NAME_loop.gpu`: stages every operand's span, launches, copies back.
fn staging_text(u: &GpuUfunc, fnvar: &str) -> String {
    let nops = u.dtypes.len();
    let np = 2 * nops + 1;
    let mut t = String::new();
    let _ = writeln!(t, "define void @\"{}_loop.gpu\"(ptr %args, ptr %dims, ptr %steps, ptr %data) {{", u.symbol);
    t.push_str("entry:\n");
    let _ = writeln!(t, "  %params = alloca [{np} x ptr], align 8\n  %nslot = alloca i64, align 8");
    for j in 0..nops {
        let _ = writeln!(t, "  %pslot{j} = alloca ptr, align 8\n  %sslot{j} = alloca i64, align 8");
    }
    t.push_str("  %n = load i64, ptr %dims\n  %nz = icmp sgt i64 %n, 0\n  br i1 %nz, label %go, label %out\ngo:\n");
    let _ =
        writeln!(t, "  %f = load ptr, ptr {fnvar}\n  %mark = call i64 @postc_gpu_arena_mark()\n  %nm1 = sub i64 %n, 1");
    for (j, d) in u.dtypes.iter().enumerate() {
        let e = elsize(*d);
        let _ = writeln!(
            t,
            "  %hp{j} = getelementptr ptr, ptr %args, i64 {j}\n  %h{j} = load ptr, ptr %hp{j}\n  \
             %sp{j} = getelementptr i64, ptr %steps, i64 {j}\n  %st{j} = load i64, ptr %sp{j}\n  \
             %abs{j} = call i64 @llvm.abs.i64(i64 %st{j}, i1 false)\n  %ext{j} = mul i64 %nm1, %abs{j}\n  \
             %bytes{j} = add i64 %ext{j}, {e}\n  %neg{j} = icmp slt i64 %st{j}, 0\n  %back{j} = mul i64 %nm1, %st{j}\n  \
             %lo{j} = select i1 %neg{j}, i64 %back{j}, i64 0\n  %hlo{j} = getelementptr i8, ptr %h{j}, i64 %lo{j}\n  \
             %d{j} = call ptr @postc_gpu_arena_alloc(i64 %bytes{j}, ptr null)\n  %nlo{j} = sub i64 0, %lo{j}\n  \
             %db{j} = getelementptr i8, ptr %d{j}, i64 %nlo{j}\n  %es{j} = sdiv i64 %st{j}, {e}\n  \
             store ptr %db{j}, ptr %pslot{j}\n  store i64 %es{j}, ptr %sslot{j}"
        );
        if j + 1 < nops {
            let _ = writeln!(t, "  call void @mgpuMemcpy(ptr %d{j}, ptr %hlo{j}, i64 %bytes{j}, ptr null)");
        } else {
            // An output with gaps: copy it in so that the copy back keeps them.
            let _ = writeln!(
                t,
                "  %compact = icmp eq i64 %abs{j}, {e}\n  br i1 %compact, label %launch, label %fill\nfill:\n  \
                 call void @mgpuMemcpy(ptr %d{j}, ptr %hlo{j}, i64 %bytes{j}, ptr null)\n  br label %launch\nlaunch:"
            );
        }
    }
    t.push_str("  store i64 %n, ptr %nslot\n");
    for j in 0..nops {
        let _ = writeln!(
            t,
            "  %pp{j} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {}\n  store ptr %pslot{j}, ptr %pp{j}\n  \
             %ps{j} = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {}\n  store ptr %sslot{j}, ptr %ps{j}",
            2 * j,
            2 * j + 1
        );
    }
    let k = nops - 1;
    let _ = writeln!(
        t,
        "  %pn = getelementptr [{np} x ptr], ptr %params, i64 0, i64 {}\n  store ptr %nslot, ptr %pn\n  \
         %nb0 = add i64 %n, {}\n  %nb = udiv i64 %nb0, {BLOCK}\n  %grid = call i64 @llvm.umin.i64(i64 %nb, i64 {MAX_GRID})\n  \
         call void @mgpuLaunchKernel(ptr %f, i64 %grid, i64 1, i64 1, i64 {BLOCK}, i64 1, i64 1, i32 0, ptr null, ptr %params, ptr null, i64 {np})\n  \
         call void @mgpuMemcpy(ptr %hlo{k}, ptr %d{k}, i64 %bytes{k}, ptr null)\n  \
         call void @postc_gpu_arena_restore(i64 %mark, ptr null)\n  br label %out\nout:\n  ret void\n}}\n",
        2 * nops,
        BLOCK - 1
    );
    t
}

/// The host side of the gpu ufuncs: PTX, constructor, wrappers.
fn host_text(low: &Lowered, ptx: &str) -> String {
    let us = &low.gpu.ufuncs;
    let mut t = String::new();
    let mut b = ptx.as_bytes().to_vec();
    b.push(0);
    let _ = writeln!(
        t,
        "@\"postc.gpu.ptx\" = private unnamed_addr constant [{} x i8] c\"{}\", align 8",
        b.len(),
        bytes_lit(&b)
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
        "load:\n  %m = call ptr @mgpuModuleLoad(ptr @\"postc.gpu.ptx\", i64 {})\n  store ptr %m, ptr @\"postc.gpu.module\"",
        b.len()
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
        t.push_str(&staging_text(u, &format!("@\"postc.gpu.fn.{i}\"")));
        let _ = writeln!(t, "declare void @\"{s}_loop.host\"(ptr, ptr, ptr, ptr)\n");
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

/// The hook of [`crate::build_unit`]: compiles the device code and adds the
/// host side to `module` (after the ufunc entry points exist).
pub fn emit_host_unit<'c>(
    cx: &'c Context,
    module: &LlModule<'c>,
    low: &Lowered,
    options: &CodegenOptions,
) -> Result<(), Vec<Diagnostic>> {
    if !active(low, options)? {
        return Ok(());
    }
    let ptx = compile_ptx(low, options)?;
    for u in &low.gpu.ufuncs {
        let name = crate::ufunc::loop_symbol(&u.symbol);
        let f = module
            .get_function(&name)
            .ok_or_else(|| err(format!("internal code generation error: no `{name}` for gpu ufunc `{}`", u.name)))?;
        f.as_global_value().set_name(&format!("{name}.host"));
        let decl = module.add_function(&name, f.get_type(), None);
        f.replace_all_uses_with(decl);
    }
    let text = host_text(low, &ptx);
    let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "postc.gpu.host");
    let hm = cx.create_module_from_ir(buf).map_err(|e| {
        if std::env::var_os("POSTC_DUMP_LL").is_some() {
            let _ = std::fs::write("postc-gpu-failed.ll", &text);
        }
        err(format!("internal code generation error: LLVM rejected the GPU host module: {e}"))
    })?;
    hm.set_triple(&module.get_triple());
    hm.set_data_layout(&module.get_data_layout());
    module
        .link_in_module(hm)
        .map_err(|e| err(format!("internal code generation error: linking the GPU host code: {e}")))?;
    Ok(())
}
