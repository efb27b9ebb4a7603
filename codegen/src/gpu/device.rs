//! The device module: the host lowering parsed for the GPU triple, the
//! ufuncs' `SYMBOL_loop` emitted into it, and one kernel per gpu ufunc.

use super::{err, FunctionKind, GpuFunction, GpuUfunc, DEFAULT_ARCH, NVPTX_TRIPLE};
use crate::emit::{llty, memty};
use crate::runtime::{ALLOC_ARRAY, ARENA_ADOPT, ARENA_ALLOC, ARENA_EXPORT, ARENA_MARK};
use crate::{CodegenOptions, Lowered};
use inkwell::context::Context;
use inkwell::intrinsics::Intrinsic;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::values::{BasicValue as _, InstructionOpcode};
use inkwell::GlobalVisibility;
use postc_ir::builtins::{gpu_builtin_name, Axis, GpuReg};
use postc_ir::diag::Diagnostic;
use postc_ir::DType;
use std::fmt::Write as _;

/// Compiled device code, embedded in the host object.
#[derive(Clone, Debug)]
pub enum DeviceCode {
    /// PTX text (NUL-terminated when embedded).
    Ptx(String),
    /// An AMDGPU code object (an ELF shared object, as `ld.lld` links it).
    CodeObject(Vec<u8>),
}

impl DeviceCode {
    /// The bytes the host embeds and passes to `mgpuModuleLoad`.
    pub fn image(&self) -> Vec<u8> {
        match self {
            DeviceCode::Ptx(t) => {
                let mut b = t.as_bytes().to_vec();
                b.push(0);
                b
            }
            DeviceCode::CodeObject(b) => b.clone(),
        }
    }

    /// The runtime `__postc_gpu_select_runtime` asks for: 1 CUDA, 2 HIP.
    pub fn runtime_kind(&self) -> u32 {
        match self {
            DeviceCode::Ptx(_) => 1,
            DeviceCode::CodeObject(_) => 2,
        }
    }
}

/// The device target of a build.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Arch {
    Nvptx,
    Amdgpu,
}

impl Arch {
    /// The calling convention of a kernel.
    fn kernel_cc(self) -> &'static str {
        match self {
            Arch::Nvptx => "ptx_kernel",
            Arch::Amdgpu => "amdgpu_kernel",
        }
    }
}

/// The kernel of one gpu ufunc, as LLVM IR text: thread `t` of `T` runs
/// the iterations `t, t + T, ...` of the loop, each as a call to the
/// device's `SYMBOL_loop` with a loop length of one. The last two
/// parameters are the scratch buffer the host allocated for operands that
/// need a copy (NULL when none does) and the bytes of it each thread takes:
/// thread `t`'s part is passed as the loop's `data`.
fn kernel_text(u: &GpuUfunc, arch: Arch) -> String {
    let plan = &u.plan;
    let (nops, nsteps, ndims) = (plan.nops, plan.num_steps(), 1 + plan.dims.len());
    let mut t = String::new();
    let mut params: Vec<String> = (0..nops).map(|j| format!("ptr %p{j}")).collect();
    params.extend((0..nsteps).map(|k| format!("i64 %s{k}")));
    params.extend((0..ndims).map(|k| format!("i64 %d{k}")));
    params.push("ptr %scratch".into());
    params.push("i64 %slot".into());
    let _ = writeln!(t, "define {} void @\"{}\"({}) {{\nentry:", arch.kernel_cc(), u.kernel, params.join(", "));
    let _ = writeln!(
        t,
        "  %args = alloca [{nops} x ptr], align 8\n  %steps = alloca [{nsteps} x i64], align 8\n  \
         %dims = alloca [{ndims} x i64], align 8"
    );
    for k in 0..nsteps {
        let _ = writeln!(
            t,
            "  %sp{k} = getelementptr [{nsteps} x i64], ptr %steps, i64 0, i64 {k}\n  store i64 %s{k}, ptr %sp{k}"
        );
    }
    for k in 0..ndims {
        let v = if k == 0 { "1".to_string() } else { format!("%d{k}") };
        let _ = writeln!(
            t,
            "  %dp{k} = getelementptr [{ndims} x i64], ptr %dims, i64 0, i64 {k}\n  store i64 {v}, ptr %dp{k}"
        );
    }
    t.push_str(GRID_STRIDE);
    t.push_str("  %soff = mul i64 %start, %slot\n  %mine = getelementptr i8, ptr %scratch, i64 %soff\n");
    t.push_str(
        "  br label %head\nhead:\n  %i = phi i64 [ %start, %entry ], [ %next, %body ]\n  %more = icmp slt i64 %i, %d0\n  \
         br i1 %more, label %body, label %done\nbody:\n",
    );
    for j in 0..nops {
        let _ = writeln!(
            t,
            "  %o{j} = mul i64 %i, %s{j}\n  %a{j} = getelementptr i8, ptr %p{j}, i64 %o{j}\n  \
             %ap{j} = getelementptr [{nops} x ptr], ptr %args, i64 0, i64 {j}\n  store ptr %a{j}, ptr %ap{j}"
        );
    }
    let _ = writeln!(
        t,
        "  call void @\"{}\"(ptr %args, ptr %dims, ptr %steps, ptr %mine)\n  %next = add i64 %i, %stride\n  \
         br label %head\ndone:\n  ret void\n}}\n",
        crate::ufunc::loop_symbol(&u.symbol)
    );
    let _ = writeln!(t, "declare void @\"{}\"(ptr, ptr, ptr, ptr)", crate::ufunc::loop_symbol(&u.symbol));
    t
}

/// The kernel of a `kernel` function (its parameters, a Bool as a byte)
/// or of a plain `gpu` function (the same, then a pointer the result is
/// stored to; launched on one thread).
fn function_kernel_text(g: &GpuFunction, arch: Arch) -> String {
    let mut params: Vec<String> = g
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| if p.tensor { format!("ptr %a{k}") } else { format!("{} %a{k}", memty(p.dtype)) })
        .collect();
    if g.ret.is_some() {
        params.push("ptr %ret".into());
    }
    let mut t = String::new();
    let _ = writeln!(t, "define {} void @\"{}\"({}) {{\nentry:", arch.kernel_cc(), g.kernel, params.join(", "));
    let mut args = Vec::new();
    for (k, p) in g.params.iter().enumerate() {
        let v = if !p.tensor && p.dtype == DType::Bool {
            let _ = writeln!(t, "  %v{k} = trunc i8 %a{k} to i1");
            format!("%v{k}")
        } else {
            format!("%a{k}")
        };
        args.push(format!("{} {} {v}", g.sig.params[k], g.sig.param_attrs[k]));
    }
    let call = format!("@\"{}\"({})", g.symbol, args.join(", "));
    match g.ret {
        None => {
            let _ = writeln!(t, "  call void {call}");
        }
        Some(d) => {
            let _ = writeln!(t, "  %r = call {} {} {call}", g.sig.ret_attr, llty(d));
            if d == DType::Bool {
                t.push_str("  %rm = zext i1 %r to i8\n  store i8 %rm, ptr %ret\n");
            } else {
                let _ = writeln!(t, "  store {} %r, ptr %ret", llty(d));
            }
        }
    }
    t.push_str("  ret void\n}\n");
    let _ = writeln!(t, "declare {} {} @\"{}\"({})", g.sig.ret_attr, g.sig.ret, g.symbol, g.sig.params.join(", "));
    debug_assert!(g.kind == FunctionKind::Kernel || g.kind == FunctionKind::Single);
    t
}

/// The coordinate built-ins on NVPTX: the special registers.
fn nvptx_coords_text() -> String {
    let mut t = String::new();
    for reg in GpuReg::ALL {
        let sreg = match reg {
            GpuReg::ThreadIdx => "tid",
            GpuReg::BlockIdx => "ctaid",
            GpuReg::BlockDim => "ntid",
            GpuReg::GridDim => "nctaid",
        };
        for axis in Axis::ALL {
            let a = axis.name();
            let _ = writeln!(
                t,
                "define linkonce_odr i64 @\"{}\"() {{\n  %r = call i32 @llvm.nvvm.read.ptx.sreg.{sreg}.{a}()\n  \
                 %z = zext i32 %r to i64\n  ret i64 %z\n}}",
                gpu_builtin_name(reg, axis)
            );
            let _ = writeln!(t, "declare i32 @llvm.nvvm.read.ptx.sreg.{sreg}.{a}()");
        }
    }
    t
}

/// The barrier of a block, and the storage of every block-shared array: a
/// global in the shared address space (3 on both targets: NVIDIA's shared
/// memory, AMD's LDS), reached through a generic pointer.
fn cooperation_text(functions: &[GpuFunction], arch: Arch) -> String {
    let mut t = String::new();
    if functions.iter().any(|g| g.barrier) {
        let name = postc_ir::builtins::SYNC_THREADS;
        let body = match arch {
            Arch::Nvptx => "  call void @llvm.nvvm.barrier0()\n".to_owned(),
            // As HIP's __syncthreads: the work-group's memory operations
            // before the barrier are visible to every work-item after it.
            Arch::Amdgpu => "  fence syncscope(\"workgroup\") release\n  call void @llvm.amdgcn.s.barrier()\n  \
                             fence syncscope(\"workgroup\") acquire\n"
                .to_owned(),
        };
        let _ = writeln!(t, "define linkonce_odr void @\"{name}\"() convergent nounwind {{\n{body}  ret void\n}}");
        let _ = writeln!(
            t,
            "declare void @llvm.{}() convergent nounwind",
            if arch == Arch::Nvptx { "nvvm.barrier0" } else { "amdgcn.s.barrier" }
        );
    }
    for s in functions.iter().flat_map(|g| &g.shared) {
        let _ = writeln!(
            t,
            "@\"{0}.mem\" = internal addrspace(3) global [{1} x i8] poison, align 16\n\
             define linkonce_odr ptr @\"{0}\"() nounwind {{\n  \
             ret ptr addrspacecast (ptr addrspace(3) @\"{0}.mem\" to ptr)\n}}",
            s.symbol, s.bytes
        );
    }
    t
}

/// `%start` (this thread's first index) and `%stride` (threads in the
/// grid) of a grid-stride loop over the x axis, from the coordinate
/// built-ins each target defines next to the kernels.
const GRID_STRIDE: &str = "  %tid = call i64 @\"postc.gpu.thread_idx.x\"()\n  \
  %ntid = call i64 @\"postc.gpu.block_dim.x\"()\n  %ctaid = call i64 @\"postc.gpu.block_idx.x\"()\n  \
  %nctaid = call i64 @\"postc.gpu.grid_dim.x\"()\n  %base = mul i64 %ctaid, %ntid\n  \
  %start = add i64 %base, %tid\n  %stride = mul i64 %nctaid, %ntid\n";

const AMDGPU_DECLS: &str = "declare i32 @llvm.amdgcn.workitem.id.x()\ndeclare i32 @llvm.amdgcn.workitem.id.y()\n\
declare i32 @llvm.amdgcn.workitem.id.z()\ndeclare i32 @llvm.amdgcn.workgroup.id.x()\n\
declare i32 @llvm.amdgcn.workgroup.id.y()\ndeclare i32 @llvm.amdgcn.workgroup.id.z()\n\
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()\n";

/// The coordinate built-ins on AMDGPU: work-item and work-group ids, and
/// the dispatch packet's work-group size (bytes 4, 6, 8) and grid size in
/// work-items (bytes 12, 16, 20).
fn amdgpu_coords_text() -> String {
    let mut t = String::new();
    for reg in GpuReg::ALL {
        for axis in Axis::ALL {
            let (a, i) = (axis.name(), axis.index() as u64);
            let body = match reg {
                GpuReg::ThreadIdx => {
                    format!("  %r = call i32 @llvm.amdgcn.workitem.id.{a}()\n  %z = zext i32 %r to i64\n")
                }
                GpuReg::BlockIdx => {
                    format!("  %r = call i32 @llvm.amdgcn.workgroup.id.{a}()\n  %z = zext i32 %r to i64\n")
                }
                GpuReg::BlockDim | GpuReg::GridDim => {
                    let mut b = format!(
                        "  %dp = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()\n  \
                         %wp = getelementptr i8, ptr addrspace(4) %dp, i64 {}\n  %w16 = load i16, ptr addrspace(4) %wp, align 2\n  \
                         %w = zext i16 %w16 to i64\n",
                        4 + 2 * i
                    );
                    if reg == GpuReg::BlockDim {
                        b.push_str("  %z = add i64 %w, 0\n");
                    } else {
                        let _ = write!(
                            b,
                            "  %gp = getelementptr i8, ptr addrspace(4) %dp, i64 {}\n  %g32 = load i32, ptr addrspace(4) %gp, align 4\n  \
                             %g = zext i32 %g32 to i64\n  %z = udiv i64 %g, %w\n",
                            12 + 4 * i
                        );
                    }
                    b
                }
            };
            let _ = writeln!(
                t,
                "define linkonce_odr i64 @\"{}\"() {{\n{body}  ret i64 %z\n}}",
                gpu_builtin_name(reg, axis)
            );
        }
    }
    t
}

/// LLVM intrinsics the GPU backends lower without a library.
const DEVICE_INTRINSICS: &[&str] = &[
    "llvm.nvvm.",
    "llvm.amdgcn.",
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

/// C library functions the CUDA driver provides to device code.
const NVPTX_LIBC: &[&str] = &["vprintf"];

/// Calls whose result nothing uses and which only report: the device has
/// no standard error, so a panic's message is dropped and its trap stays.
const DROPPED_CALLS: &[&[u8]] = &[b"dprintf", b"write", b"fflush"];

/// The AMDGPU triple.
pub const AMDGPU_TRIPLE: &str = "amdgcn-amd-amdhsa";
/// The default AMD architecture (CDNA 2, MI200).
pub const DEFAULT_AMD_ARCH: &str = "gfx90a";

/// The AMDGPU target machine of the options.
fn amdgpu_machine(options: &CodegenOptions) -> Result<TargetMachine, Vec<Diagnostic>> {
    crate::init_targets();
    let triple = TargetTriple::create(AMDGPU_TRIPLE);
    let target = Target::from_triple(&triple)
        .map_err(|e| err(format!("the AMDGPU target is not available in this LLVM: {e}")))?;
    let arch = options.gpu.arch.clone().unwrap_or_else(|| DEFAULT_AMD_ARCH.into());
    if !arch.starts_with("gfx") {
        return Err(err(format!("unknown GPU architecture `{arch}`: expected gfxNNN")));
    }
    target
        .create_target_machine(&triple, &arch, "", options.opt.llvm(), RelocMode::PIC, CodeModel::Default)
        .ok_or_else(|| err(format!("cannot create an AMDGPU target machine for `{arch}`")))
}

/// Allocas in the private address space (5), where AMDGPU wants them; the
/// lowering makes them in the generic one. Each becomes a private alloca
/// cast to a generic pointer.
fn private_allocas(cx: &Context, m: &LlModule<'_>) -> Result<(), Vec<Diagnostic>> {
    let b = cx.create_builder();
    let generic = cx.ptr_type(inkwell::AddressSpace::default());
    for f in m.get_functions() {
        for bb in f.get_basic_blocks() {
            let allocas: Vec<_> = bb
                .get_instructions()
                .filter(|i| {
                    i.get_opcode() == InstructionOpcode::Alloca
                        && i.get_type().into_pointer_type().get_address_space() == inkwell::AddressSpace::default()
                })
                .collect();
            for old in allocas {
                let ty = old.get_allocated_type().map_err(internal)?;
                b.position_before(&old);
                let count = match old.get_operand(0) {
                    Some(inkwell::values::Operand::Value(v)) => v.into_int_value(),
                    _ => return Err(internal("an alloca without a size")),
                };
                let new = b.build_array_alloca(ty, count, "").map_err(internal)?;
                if let (Ok(a), Some(i)) = (old.get_alignment(), new.as_instruction()) {
                    if a > 0 {
                        i.set_alignment(a).map_err(internal)?;
                    }
                }
                let cast = b.build_address_space_cast(new, generic, "").map_err(internal)?;
                let cast = cast.as_instruction().ok_or_else(|| internal("an address-space cast folded away"))?;
                old.replace_all_uses_with(&cast);
                old.erase_from_basic_block();
            }
        }
    }
    Ok(())
}

/// The NVPTX target machine of the options.
pub fn nvptx_machine(options: &CodegenOptions) -> Result<TargetMachine, Vec<Diagnostic>> {
    crate::init_targets();
    let triple = TargetTriple::create(NVPTX_TRIPLE);
    let target = Target::from_triple(&triple)
        .map_err(|e| err(format!("the NVPTX target is not available in this LLVM: {e}")))?;
    let arch = options.gpu.arch.clone().unwrap_or_else(|| DEFAULT_ARCH.into());
    if !arch.starts_with("sm_") {
        return Err(err(format!("unknown GPU architecture `{arch}`: expected sm_NN")));
    }
    target
        .create_target_machine(&triple, &arch, "", options.opt.llvm(), RelocMode::Default, CodeModel::Default)
        .ok_or_else(|| err(format!("cannot create an NVPTX target machine for `{arch}`")))
}

fn internal(e: impl std::fmt::Display) -> Vec<Diagnostic> {
    err(format!("internal code generation error: {e}"))
}

/// Math the NVPTX backend cannot lower itself, by LLVM intrinsic base
/// name; each has a libdevice function `__nv_NAME` (`__nv_NAMEf` for
/// Float32).
const LIBDEVICE_INTRINSICS: &[&str] = &["sin", "cos", "exp", "exp2", "log", "log2", "log10", "pow", "round"];

/// The libdevice function for a math call the device module makes.
fn libdevice_name(name: &str) -> Option<String> {
    if let Some(rest) = name.strip_prefix("llvm.") {
        let (base, ty) = rest.rsplit_once('.')?;
        let suffix = match ty {
            "f64" => "",
            "f32" => "f",
            _ => return None,
        };
        return LIBDEVICE_INTRINSICS.contains(&base).then(|| format!("__nv_{base}{suffix}"));
    }
    // A C math function the lowering calls by name (`tan`, `atan2f`, ...):
    // libdevice has each, with the same `f` convention.
    crate::emit::intrinsic_base(name).map(|_| format!("__nv_{name}"))
}

/// `POSTC_LIBDEVICE`: the libdevice bitcode to link instead of searching.
pub const ENV_LIBDEVICE: &str = "POSTC_LIBDEVICE";

/// Finds `libdevice.10.bc`: `POSTC_LIBDEVICE`, then a CUDA toolkit
/// (`CUDA_HOME`, `CUDA_PATH`, `/usr/local/cuda`, `/opt/cuda`), then the
/// PyPI package `nvidia-cuda-nvcc-cu12` of `python3`.
pub fn find_libdevice() -> Result<std::path::PathBuf, String> {
    use std::path::PathBuf;
    if let Some(p) = std::env::var_os(ENV_LIBDEVICE) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("{ENV_LIBDEVICE} names `{}`, which is not a file", p.display()))
        };
    }
    let rel = "nvvm/libdevice/libdevice.10.bc";
    let mut roots: Vec<PathBuf> =
        ["CUDA_HOME", "CUDA_PATH"].iter().filter_map(std::env::var_os).map(PathBuf::from).collect();
    roots.extend(["/usr/local/cuda", "/opt/cuda"].map(PathBuf::from));
    if let Some(p) = roots.iter().map(|r| r.join(rel)).find(|p| p.is_file()) {
        return Ok(p);
    }
    // Asking python3 costs a process: once per process.
    static PACKAGE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let package = PACKAGE.get_or_init(|| {
        let o = std::process::Command::new("python3")
            .args(["-c", "import nvidia.cuda_nvcc as m; print(list(m.__path__)[0])"])
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        Some(PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join(rel)).filter(|p| p.is_file())
    });
    if let Some(p) = package {
        return Ok(p.clone());
    }
    Err(format!(
        "no libdevice.10.bc found (set {ENV_LIBDEVICE}, install the CUDA toolkit, or `pip install nvidia-cuda-nvcc-cu12`)"
    ))
}

/// Points the device module's math calls at libdevice and links the
/// bitcode in (its functions become internal with the rest).
fn link_libdevice<'c>(
    cx: &'c Context,
    m: &LlModule<'c>,
    tm: &TargetMachine,
    what: &str,
) -> Result<(), Vec<Diagnostic>> {
    let mut wanted = Vec::new();
    for f in m.get_functions() {
        if f.count_basic_blocks() > 0 || f.as_global_value().as_pointer_value().get_first_use().is_none() {
            continue;
        }
        let name = f.get_name().to_string_lossy().into_owned();
        if let Some(nv) = libdevice_name(&name) {
            wanted.push((f, name, nv));
        }
    }
    let Some((_, first, _)) = wanted.first() else { return Ok(()) };
    let path = find_libdevice()
        .map_err(|e| err(format!("gpu function {what}: uses `{first}`, which needs libdevice: {e}")))?;
    for (f, name, nv) in &wanted {
        let decl = m.get_function(nv).unwrap_or_else(|| m.add_function(nv, f.get_type(), None));
        f.replace_all_uses_with(decl);
        if !name.starts_with("llvm.") {
            unsafe { f.delete() };
        }
    }
    let lib = LlModule::parse_bitcode_from_path(&path, cx)
        .map_err(|e| err(format!("cannot read libdevice `{}`: {e}", path.display())))?;
    lib.set_triple(&tm.get_triple());
    lib.set_data_layout(&tm.get_target_data().get_data_layout());
    m.link_in_module(lib).map_err(|e| internal(format!("linking libdevice: {e}")))?;
    // libdevice asks `__nvvm_reflect("__CUDA_FTZ")`: answered here (no
    // flush-to-zero, like the host) so that nothing calls it.
    m.run_passes("nvvm-reflect", tm, PassBuilderOptions::create()).map_err(internal)?;
    Ok(())
}

/// Compiles the device code of a lowered program's gpu functions.
pub fn compile_device(low: &Lowered, options: &CodegenOptions) -> Result<DeviceCode, Vec<Diagnostic>> {
    let (arch, tm) = match options.gpu.mode {
        super::GpuMode::Amdgpu => (Arch::Amdgpu, amdgpu_machine(options)?),
        _ => (Arch::Nvptx, nvptx_machine(options)?),
    };
    let cx = Context::create();
    let text = low.text.clone() + &device_runtime_text(&low.runtime_parts);
    let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "postc.gpu");
    let m = cx.create_module_from_ir(buf).map_err(|e| internal(format!("LLVM rejected the device module: {e}")))?;
    for u in &low.gpu.ufuncs {
        let body = m
            .get_function(&u.symbol)
            .ok_or_else(|| internal(format!("no body `{}` in the device module", u.symbol)))?;
        // Scratch copies come from a buffer the host passes: AMDGPU has no
        // device `malloc`, and NVIDIA's heap is 8 MiB unless enlarged.
        let mut plan = u.plan.clone();
        plan.scratch_from_data = true;
        crate::ufunc::emit_entry_points(&cx, &m, &plan, body).map_err(internal)?;
    }
    let mut kernels = String::new();
    for u in &low.gpu.ufuncs {
        kernels.push_str(&kernel_text(u, arch));
    }
    for g in &low.gpu.functions {
        kernels.push_str(&function_kernel_text(g, arch));
    }
    kernels.push_str(&cooperation_text(&low.gpu.functions, arch));
    match arch {
        Arch::Nvptx => {
            kernels.push_str(&nvptx_coords_text());
        }
        Arch::Amdgpu => {
            kernels.push_str(AMDGPU_DECLS);
            kernels.push_str(&amdgpu_coords_text());
        }
    }
    let kbuf = MemoryBuffer::create_from_memory_range_copy(kernels.as_bytes(), "postc.gpu.kernels");
    let km = cx.create_module_from_ir(kbuf).map_err(|e| internal(format!("LLVM rejected the kernels: {e}")))?;
    m.link_in_module(km).map_err(|e| internal(format!("linking the kernels: {e}")))?;
    m.set_triple(&tm.get_triple());
    m.set_data_layout(&tm.get_target_data().get_data_layout());
    let names = low.gpu.kernel_names();
    let what = low
        .gpu
        .ufuncs
        .iter()
        .map(|u| &u.name)
        .chain(low.gpu.functions.iter().map(|g| &g.name))
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match arch {
        Arch::Nvptx => link_libdevice(&cx, &m, &tm, &what)?,
        Arch::Amdgpu => private_allocas(&cx, &m)?,
    }
    prune(&cx, &m, &tm, &names, &what, arch)?;
    m.verify().map_err(|e| internal(format!("the device module does not verify: {e}")))?;
    let pipeline = format!("default<O{}>", options.opt.as_u8());
    m.run_passes(&pipeline, &tm, PassBuilderOptions::create()).map_err(internal)?;
    match arch {
        Arch::Nvptx => {
            let ptx =
                tm.write_to_memory_buffer(&m, FileType::Assembly).map_err(|e| err(format!("emitting PTX: {e}")))?;
            Ok(DeviceCode::Ptx(String::from_utf8_lossy(ptx.as_slice()).into_owned()))
        }
        Arch::Amdgpu => {
            let obj = tm
                .write_to_memory_buffer(&m, FileType::Object)
                .map_err(|e| err(format!("emitting the AMDGPU object: {e}")))?;
            Ok(DeviceCode::CodeObject(crate::link::amdgpu_code_object(obj.as_slice())?))
        }
    }
}

/// The runtime a device module calls: the stride helper defined (the host's
/// is in the runtime library), the rest declared (what the kernels reach of
/// it is refused by [`prune`]).
fn device_runtime_text(parts: &[crate::runtime::Part]) -> String {
    use crate::runtime::Part;
    let declared: Vec<Part> = parts.iter().copied().filter(|p| *p != Part::Stride).collect();
    let mut text = crate::runtime::parts_text(&declared);
    if parts.contains(&Part::Stride) {
        text.push_str(DEVICE_STRIDE_IR);
    }
    text
}

/// `postc_rt_stride` (see `runtime/src/stride.c`) for the device.
const DEVICE_STRIDE_IR: &str = r#"
define internal i64 @postc_rt_stride(ptr %t, i64 %axis, i64 %elsize) nounwind {
entry:
  %sp = getelementptr i8, ptr %t, i64 32
  %strides = load ptr, ptr %sp
  %nul = icmp eq ptr %strides, null
  br i1 %nul, label %compact, label %given
given:
  %e = getelementptr i64, ptr %strides, i64 %axis
  %s = load i64, ptr %e
  %b = mul i64 %s, %elsize
  ret i64 %b
compact:
  %ndp = getelementptr i8, ptr %t, i64 16
  %nd32 = load i32, ptr %ndp
  %nd = sext i32 %nd32 to i64
  %shp = getelementptr i8, ptr %t, i64 24
  %shape = load ptr, ptr %shp
  %k0 = add i64 %axis, 1
  br label %loop
loop:
  %k = phi i64 [ %k0, %compact ], [ %k1, %body ]
  %acc = phi i64 [ %elsize, %compact ], [ %acc1, %body ]
  %more = icmp slt i64 %k, %nd
  br i1 %more, label %body, label %done
body:
  %de = getelementptr i64, ptr %shape, i64 %k
  %d = load i64, ptr %de
  %acc1 = mul i64 %acc, %d
  %k1 = add i64 %k, 1
  br label %loop
done:
  ret i64 %acc
}
"#;

/// A call that prints a message on the host.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Print {
    /// `dprintf(2, fmt, args...)`.
    Dprintf,
    /// `write(2, msg, len)`.
    Write,
    /// `postc_rt_panic(fmt, args...)`: the message, then a newline.
    Panic,
}

/// A panic's message on NVIDIA: the host's `dprintf(2, fmt, args...)`,
/// `write(2, msg, len)` or `postc_rt_panic(fmt, args...)` becomes CUDA's
/// device `vprintf(fmt, args)` before `call`, the arguments laid out as a
/// struct, so a failed check prints its message and location (on the
/// host's standard output, when the launch ends) before the trap fails the
/// launch.
fn device_print<'c>(
    cx: &'c Context,
    m: &LlModule<'c>,
    f: inkwell::values::FunctionValue<'c>,
    call: inkwell::values::InstructionValue<'c>,
    kind: Print,
) -> Result<(), Vec<Diagnostic>> {
    use inkwell::values::{BasicValueEnum, Operand};
    let ptr = cx.ptr_type(inkwell::AddressSpace::default());
    let vprintf = m
        .get_function("vprintf")
        .unwrap_or_else(|| m.add_function("vprintf", cx.i32_type().fn_type(&[ptr.into(), ptr.into()], false), None));
    let b = cx.create_builder();
    b.position_before(&call);
    let n = call.get_num_operands() - 1;
    let first = if kind == Print::Panic { 0 } else { 1 };
    let args: Vec<BasicValueEnum> = (first..n)
        .filter_map(|k| match call.get_operand(k) {
            Some(Operand::Value(v)) => Some(v),
            _ => None,
        })
        .collect();
    // `write(2, msg, len)` prints `len` bytes of `msg`: "%.*s".
    let (fmt, vals) = if kind == Print::Write {
        let len = args.get(1).ok_or_else(|| internal("write without a length"))?.into_int_value();
        let len32 = b.build_int_truncate(len, cx.i32_type(), "").map_err(internal)?;
        let fmt = b.build_global_string_ptr("%.*s", "postc.gpu.rawfmt").map_err(internal)?;
        (fmt.as_pointer_value().into(), vec![len32.into(), args[0]])
    } else {
        let fmt = *args.first().ok_or_else(|| internal("dprintf without a format"))?;
        (fmt, args[1..].to_vec())
    };
    let buf = if vals.is_empty() {
        ptr.const_null()
    } else {
        let ty = cx.struct_type(&vals.iter().map(|v| v.get_type()).collect::<Vec<_>>(), false);
        let entry = f.get_first_basic_block().ok_or_else(|| internal("a function without blocks"))?;
        let at = cx.create_builder();
        match entry.get_first_instruction() {
            Some(first) => at.position_before(&first),
            None => at.position_at_end(entry),
        }
        let buf = at.build_alloca(ty, "printf.args").map_err(internal)?;
        for (k, v) in vals.iter().enumerate() {
            let slot = b.build_struct_gep(ty, buf, k as u32, "").map_err(internal)?;
            b.build_store(slot, *v).map_err(internal)?;
        }
        buf
    };
    b.build_call(vprintf, &[fmt.into(), buf.into()], "").map_err(internal)?;
    if kind == Print::Panic {
        let nl = b.build_global_string_ptr("\n", "postc.gpu.newline").map_err(internal)?;
        b.build_call(vprintf, &[nl.as_pointer_value().into(), ptr.const_null().into()], "").map_err(internal)?;
    }
    Ok(())
}

/// Why AMDGPU lacks a math function NVPTX gets from libdevice.
fn amd_math(arch: Arch, name: &str) -> &'static str {
    if arch == Arch::Amdgpu && libdevice_name(name).is_some() {
        " (on AMDGPU: the ROCm device libraries are not linked)"
    } else {
        ""
    }
}

/// Keeps only what the kernels reach, turns `abort` into a trap, drops
/// message output, and rejects calls the device cannot make.
fn prune<'c>(
    cx: &'c Context,
    m: &LlModule<'c>,
    tm: &TargetMachine,
    kernels: &[&str],
    what: &str,
    arch: Arch,
) -> Result<(), Vec<Diagnostic>> {
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
    m.run_passes("globaldce", tm, PassBuilderOptions::create()).map_err(internal)?;
    for g in m.get_globals() {
        if g.is_thread_local() {
            return Err(err(format!("gpu function {what}: allocates arrays, which is not supported on the GPU")));
        }
    }
    let mut dead_calls = Vec::new();
    let mut printed = Vec::new();
    let mut panics = Vec::new();
    for f in m.get_functions() {
        for bb in f.get_basic_blocks() {
            for i in bb.get_instructions() {
                if i.get_opcode() == InstructionOpcode::Call && i.get_first_use().is_none() {
                    let n = i.get_num_operands();
                    if let Some(inkwell::values::Operand::Value(callee)) = i.get_operand(n - 1) {
                        let name = callee.get_name().to_bytes();
                        if name == crate::abi::PANIC.as_bytes() {
                            panics.push((f, i));
                        } else if arch == Arch::Nvptx && (name == b"dprintf" || name == b"write") {
                            printed.push((f, i, if name == b"write" { Print::Write } else { Print::Dprintf }));
                        } else if DROPPED_CALLS.contains(&name) {
                            dead_calls.push(i);
                        }
                    }
                }
            }
        }
    }
    for (f, call, kind) in printed {
        device_print(cx, m, f, call, kind)?;
        call.erase_from_basic_block();
    }
    // A panic prints (on NVIDIA) and traps.
    if !panics.is_empty() {
        let trap = Intrinsic::find("llvm.trap")
            .and_then(|t| t.get_declaration(m, &[]))
            .ok_or_else(|| internal("no llvm.trap"))?;
        for (f, call) in panics {
            if arch == Arch::Nvptx {
                device_print(cx, m, f, call, Print::Panic)?;
            }
            let b = cx.create_builder();
            b.position_before(&call);
            b.build_call(trap, &[], "").map_err(internal)?;
            call.erase_from_basic_block();
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
        let used = f.as_global_value().as_pointer_value().get_first_use().is_some();
        let trap = name == "abort";
        if trap && used {
            let b = cx.create_builder();
            let bb = cx.append_basic_block(f, "entry");
            b.position_at_end(bb);
            let trap = Intrinsic::find("llvm.trap")
                .and_then(|t| t.get_declaration(m, &[]))
                .ok_or_else(|| internal("no llvm.trap"))?;
            b.build_call(trap, &[], "").map_err(internal)?;
            b.build_unreachable().map_err(internal)?;
            f.set_linkage(Linkage::Internal);
        } else if !used {
            unsafe { f.delete() };
        } else if [ARENA_ALLOC, ALLOC_ARRAY, ARENA_EXPORT, ARENA_ADOPT, ARENA_MARK].contains(&name.as_str()) {
            return Err(err(format!("gpu function {what}: allocates arrays, which is not supported on the GPU")));
        } else if name.starts_with("llvm.") {
            if !DEVICE_INTRINSICS.iter().any(|p| name.starts_with(p)) {
                return Err(err(format!(
                    "gpu function {what}: uses `{name}`, which has no GPU implementation{}",
                    amd_math(arch, &name)
                )));
            }
        } else if arch == Arch::Amdgpu || !NVPTX_LIBC.contains(&name.as_str()) {
            return Err(err(format!(
                "gpu function {what}: calls `{name}`, which does not exist on the GPU{}",
                amd_math(arch, &name)
            )));
        }
    }
    Ok(())
}
