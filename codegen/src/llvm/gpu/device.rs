//! The device module: the program's module built for the GPU triple, the
//! ufuncs' `SYMBOL_loop` emitted into it, and the kernels ([`super::kernels`]).

use super::kernels::{Arch, Kernels};
use super::{err, DEFAULT_ARCH, NVPTX_TRIPLE};
use crate::llvm::emit::unit::Types;
use crate::llvm::runtime::{
    ALLOC_ARRAY, ALLOC_ARRAY_EMPTY, ALLOC_ND, ALLOC_ND_EMPTY, ARENA_ADOPT, ARENA_ALLOC, ARENA_EXPORT, ARENA_MARK, VIEW,
};
use crate::llvm::Lowered;
use crate::CodegenOptions;
use inkwell::context::Context;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::values::{BasicValue as _, InstructionOpcode};
use inkwell::GlobalVisibility;
use postc_ir::diag::Diagnostic;

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
    crate::llvm::init_targets();
    let triple = TargetTriple::create(AMDGPU_TRIPLE);
    let target = Target::from_triple(&triple)
        .map_err(|e| err(format!("the AMDGPU target is not available in this LLVM: {e}")))?;
    let arch = options.gpu.arch.clone().unwrap_or_else(|| DEFAULT_AMD_ARCH.into());
    let amd = super::GpuOptions { mode: super::GpuMode::Amdgpu, arch: Some(arch.clone()) };
    amd.check_arch().map_err(err)?;
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
    crate::llvm::init_targets();
    let triple = TargetTriple::create(NVPTX_TRIPLE);
    let target = Target::from_triple(&triple)
        .map_err(|e| err(format!("the NVPTX target is not available in this LLVM: {e}")))?;
    let arch = options.gpu.arch.clone().unwrap_or_else(|| DEFAULT_ARCH.into());
    let nv = super::GpuOptions { mode: super::GpuMode::Nvptx, arch: Some(arch.clone()) };
    nv.check_arch().map_err(err)?;
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
    crate::calls::intrinsic_base(name).map(|_| format!("__nv_{name}"))
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
pub fn compile_device(low: &Lowered<'_>, options: &CodegenOptions) -> Result<DeviceCode, Vec<Diagnostic>> {
    let (arch, tm) = match options.gpu.mode {
        super::GpuMode::Amdgpu => (Arch::Amdgpu, amdgpu_machine(options)?),
        _ => (Arch::Nvptx, nvptx_machine(options)?),
    };
    // The host's inner loops allocate their scratch copies in the host's
    // arena: the device runs `ufunc-device-entry`'s in their place, whose
    // scratch copies come from a buffer the host passes (AMDGPU has no
    // device `malloc`, and NVIDIA's heap is 8 MiB unless enlarged).
    let mut program = low.program.clone();
    for module in program.modules.iter_mut() {
        postc_passes::ModulePass::run(&postc_passes::ufunc_entry::UFuncDeviceEntry, module, &Default::default())?;
    }
    let low = &crate::llvm::lower(&program)?;
    let cx = Context::create();
    let m = cx.create_module("postc.gpu");
    crate::llvm::emit::build_module(&cx, &m, low, None, None)?;
    let kernels = Kernels::new(Types::new(&cx), &m, arch);
    for u in &low.gpu.ufuncs {
        kernels.ufunc_kernel(u).map_err(internal)?;
    }
    for g in &low.gpu.functions {
        kernels.function_kernel(g).map_err(internal)?;
    }
    kernels.cooperation(&low.gpu.functions).map_err(internal)?;
    kernels.coordinates().map_err(internal)?;
    kernels.runtime_stride().map_err(internal)?;
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
                        } else if name.starts_with(b"postc_rt_print_") {
                            return Err(err(format!(
                                "gpu function {what}: calls `print`, which is not supported on the GPU"
                            )));
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
        } else if [
            ARENA_ALLOC,
            ALLOC_ARRAY,
            ALLOC_ARRAY_EMPTY,
            ALLOC_ND,
            ALLOC_ND_EMPTY,
            ARENA_EXPORT,
            ARENA_ADOPT,
            ARENA_MARK,
        ]
        .contains(&name.as_str())
        {
            return Err(err(format!("gpu function {what}: allocates arrays, which is not supported on the GPU")));
        } else if name == VIEW {
            return Err(err(format!("gpu function {what}: makes array views, which is not supported on the GPU")));
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
