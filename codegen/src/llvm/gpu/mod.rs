//! GPU code generation (docs/runtime-gpu.md).
//!
//! Every `gpu` / `gpu(fallback)` ufunc — elementwise or generalized — is
//! compiled twice: the host entry points as usual, and a kernel
//! `__postc_kernel_SYMBOL` that runs one iteration of the ufunc's loop per
//! thread in a grid-stride loop. The kernel calls a device copy of
//! `SYMBOL_loop` (the same NumPy inner loop the host has) once per index, so
//! core dimensions, strided views and scratch copies behave exactly as on
//! the host. [`device`] builds the device module; [`host`] the staging
//! wrappers and the loader.
//!
//! The device module is the host lowering parsed for the GPU triple: the
//! kernels call the ufunc bodies, everything else is made internal and
//! dropped by `globaldce`. A panic on the device (`abort`) is a trap; its
//! message is not printed.

mod device;
mod host;
mod kernels;

pub use device::{
    compile_device, find_libdevice, nvptx_machine, DeviceCode, AMDGPU_TRIPLE, DEFAULT_AMD_ARCH, ENV_LIBDEVICE,
};

use crate::llvm::emit::FnSig;
use crate::llvm::Lowered;
use crate::ufunc_plan::Plan;
use crate::CodegenOptions;
use inkwell::context::Context;
use inkwell::module::Module as LlModule;
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{DType, FuncId, ModuleId, Program};
use std::collections::HashMap;

/// Which GPU code a build makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum GpuMode {
    /// NVIDIA, through the NVPTX backend (the default).
    #[default]
    Nvptx,
    /// AMD, through the AMDGPU backend.
    Amdgpu,
    /// No GPU code: `gpu` functions are compiled for the host only.
    Off,
}

/// GPU options of a build.
#[derive(Clone, Debug, Default)]
pub struct GpuOptions {
    pub mode: GpuMode,
    /// The GPU architecture (`sm_90` for NVPTX, `gfx90a` for AMDGPU by
    /// default).
    pub arch: Option<String>,
}

impl GpuOptions {
    /// The architecture device code is compiled for: the one named, or the
    /// mode's default (`None` with GPU code off).
    pub fn arch_or_default(&self) -> Option<String> {
        let default = match self.mode {
            GpuMode::Nvptx => DEFAULT_ARCH,
            GpuMode::Amdgpu => DEFAULT_AMD_ARCH,
            GpuMode::Off => return None,
        };
        Some(self.arch.clone().unwrap_or_else(|| default.into()))
    }

    /// Whether LLVM knows the architecture for the mode's target: an
    /// unknown one would only draw LLVM's warnings and make code for a
    /// generic processor. The message lists the known ones.
    pub fn check_arch(&self) -> Result<(), String> {
        let (Some(arch), triple, what) = (
            self.arch_or_default(),
            if self.mode == GpuMode::Amdgpu { AMDGPU_TRIPLE } else { NVPTX_TRIPLE },
            if self.mode == GpuMode::Amdgpu { "amdgpu" } else { "nvptx" },
        ) else {
            return Ok(());
        };
        crate::llvm::init_targets();
        match crate::llvm::cpu_known(triple, &arch) {
            Some(true) => Ok(()),
            Some(false) => {
                let known = crate::llvm::cpu_names(triple).unwrap_or_default().join(", ");
                Err(format!("unknown GPU architecture `{arch}` for {what}; the known ones are: {known}"))
            }
            None => Err(format!("the {what} target is not available in this LLVM")),
        }
    }
}

/// The NVPTX triple.
pub const NVPTX_TRIPLE: &str = "nvptx64-nvidia-cuda";
/// The default NVIDIA architecture.
pub const DEFAULT_ARCH: &str = "sm_90";

/// One gpu ufunc.
#[derive(Clone, Debug)]
pub struct GpuUfunc {
    pub name: String,
    /// The body's symbol; the entry points are `SYMBOL_loop` and `SYMBOL_dl`.
    pub symbol: String,
    /// The kernel's name in the device code.
    pub kernel: String,
    pub plan: Plan,
    pub fallback: bool,
}

impl GpuUfunc {
    /// Kernel parameters: a base pointer per operand, every step of
    /// `SYMBOL_loop`, every dimension (the loop length first), then the
    /// scratch buffer and the bytes of it per thread.
    pub fn num_kernel_params(&self) -> usize {
        self.plan.nops + self.plan.num_steps() + 1 + self.plan.dims.len() + 2
    }
}

/// How a function (not a ufunc) runs on the GPU.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FunctionKind {
    /// A `kernel` function: launched over a grid the caller chooses; its
    /// threads read their coordinates through the `postc.gpu.*` built-ins.
    Kernel,
    /// A plain `gpu` function: one device thread runs the body.
    Single,
}

/// One parameter of a gpu function.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GpuParam {
    pub dtype: DType,
    /// An array, passed as a `DLTensor *` and staged.
    pub tensor: bool,
    /// A `&` array: copied back after the kernel.
    pub output: bool,
}

/// One `kernel` or plain `gpu` function.
#[derive(Clone, Debug)]
pub struct GpuFunction {
    pub name: String,
    pub symbol: String,
    /// The kernel's name in the device code.
    pub kernel: String,
    pub kind: FunctionKind,
    pub params: Vec<GpuParam>,
    pub ret: Option<DType>,
    /// The body's C ABI.
    pub sig: FnSig,
    pub fallback: bool,
    /// The block-shared arrays a `kernel` function declares.
    pub shared: Vec<SharedArray>,
    /// Whether a `kernel` function synchronises its blocks.
    pub barrier: bool,
}

impl GpuFunction {
    /// Whether the threads of a block cooperate (shared arrays or
    /// barriers): the host emulation then runs them as coroutines.
    pub fn cooperates(&self) -> bool {
        self.barrier || !self.shared.is_empty()
    }
}

/// One block-shared array: a `postc.gpu.shared` call of a kernel.
#[derive(Clone, Debug)]
pub struct SharedArray {
    /// What returns its storage ([`shared_symbol`]).
    pub symbol: String,
    pub bytes: u64,
}

/// The GPU part of a lowered program.
#[derive(Clone, Debug, Default)]
pub struct GpuPlan {
    pub ufuncs: Vec<GpuUfunc>,
    pub functions: Vec<GpuFunction>,
    /// `gpu` functions this backend cannot compile for the GPU; errors
    /// unless the build's GPU mode is `off`.
    pub unsupported: Vec<Diagnostic>,
}

impl GpuPlan {
    pub fn is_empty(&self) -> bool {
        self.ufuncs.is_empty() && self.functions.is_empty() && self.unsupported.is_empty()
    }

    /// Every kernel's name, in the order of the loader's handles: the
    /// ufuncs', then the functions'.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.ufuncs.iter().map(|u| u.kernel.as_str()).chain(self.functions.iter().map(|f| f.kernel.as_str())).collect()
    }
}

/// The function that returns the storage of the block-shared array made by
/// the `postc.gpu.shared` call `site` of the function `symbol`: defined by
/// the device code (a global in the shared address space) and by the host
/// (a thread-local buffer the emulation clears for each block).
pub fn shared_symbol(symbol: &str, site: postc_ir::ValueId) -> String {
    format!("{}.{symbol}.{}", postc_ir::builtins::SHARED, site.as_u32())
}

/// Whether a program has GPU functions (`gpu`, `gpu(fallback)`, `kernel`).
pub fn has_gpu(program: &Program) -> bool {
    program.modules.iter().any(|m| m.functions.iter().any(|f| f.attrs.is_device()))
}

/// Dtypes a kernel can load and store: complex numbers travel by host
/// pointer and strings point into host memory.
fn supported_dtype(d: DType) -> bool {
    !(d.is_complex() || matches!(d, DType::Str | DType::Bytes))
}

/// Finds the gpu functions of a lowered program.
pub fn plan(program: &Program, sigs: &HashMap<(ModuleId, FuncId), FnSig>, ufuncs: &[Plan]) -> GpuPlan {
    let mut out = GpuPlan::default();
    for (mid, m) in program.modules.iter_enumerated() {
        for (fid, f) in m.functions.iter_enumerated() {
            if !f.attrs.is_device() {
                continue;
            }
            let at = f.loc.map(|l| Pos::from_loc(&m.files, l));
            let sig = &sigs[&(mid, fid)];
            let kernel = f.attrs.contains(postc_ir::FuncAttrs::KERNEL);
            let what = if kernel { "kernel" } else { "gpu" };
            let unsupported = |why: String| {
                Diagnostic::error(format!("{what} function `{}`: {why} (not supported on the GPU)", f.name), at.clone())
            };
            if f.ufunc_sig.is_none() {
                let mut params = Vec::new();
                let mut bad = None;
                for p in f.params() {
                    let Some(td) = f.body.ty(p).map(|t| m.types.get(t)) else { continue };
                    if !supported_dtype(td.dtype) {
                        bad = Some(format!("{} parameters", td.dtype));
                    }
                    params.push(GpuParam { dtype: td.dtype, tensor: td.is_array, output: td.is_output });
                }
                let ret = f.ret.map(|t| m.types.get(t));
                if let Some(t) = ret {
                    if t.is_array {
                        bad = Some("an array result (return it through a `&` parameter)".into());
                    } else if !supported_dtype(t.dtype) {
                        bad = Some(format!("a {} result", t.dtype));
                    }
                }
                if let Some(why) = bad {
                    out.unsupported.push(unsupported(why));
                    continue;
                }
                if sig.params.len() != params.len() || sig.complex_out || sig.array_ret {
                    out.unsupported.push(unsupported("its C signature".into()));
                    continue;
                }
                let mut shared = Vec::new();
                let mut barrier = false;
                for v in f.body.tags.ids() {
                    let postc_ir::InstData::Call { callee, .. } = f.body.inst(v) else { continue };
                    match postc_ir::builtins::Builtin::from_name(callee) {
                        Some(postc_ir::builtins::Builtin::Shared) => {
                            let bytes = f
                                .body
                                .ty(v)
                                .and_then(|t| postc_ir::builtins::shared_bytes(m.types.get(t)).ok())
                                .unwrap_or(0);
                            shared.push(SharedArray { symbol: shared_symbol(&sig.symbol, v), bytes });
                        }
                        Some(postc_ir::builtins::Builtin::SyncThreads) => barrier = true,
                        _ => {}
                    }
                }
                out.functions.push(GpuFunction {
                    name: f.name.clone(),
                    symbol: sig.symbol.clone(),
                    kernel: format!("__postc_kernel_{}", sig.symbol.replace('.', "_")),
                    kind: if kernel { FunctionKind::Kernel } else { FunctionKind::Single },
                    params,
                    ret: ret.map(|t| t.dtype),
                    sig: sig.clone(),
                    fallback: f.attrs.contains(postc_ir::FuncAttrs::GPU_FALLBACK),
                    shared,
                    barrier,
                });
                continue;
            }
            if !sig.exported {
                out.unsupported.push(unsupported("a gpu ufunc must be exported".into()));
                continue;
            }
            let Some(plan) = ufuncs.iter().find(|p| p.symbol == sig.symbol) else {
                out.unsupported.push(unsupported("the ufunc has no entry points".into()));
                continue;
            };
            if let Some(d) = plan.dtypes.iter().find(|d| !supported_dtype(**d)) {
                out.unsupported.push(unsupported(format!("{d} operands")));
                continue;
            }
            out.ufuncs.push(GpuUfunc {
                name: f.name.clone(),
                symbol: sig.symbol.clone(),
                kernel: format!("__postc_kernel_{}", sig.symbol.replace('.', "_")),
                plan: plan.clone(),
                fallback: f.attrs.contains(postc_ir::FuncAttrs::GPU_FALLBACK),
            });
        }
    }
    out
}

pub(crate) fn err(msg: impl Into<String>) -> Vec<Diagnostic> {
    vec![Diagnostic::error(msg.into(), None)]
}

/// Checks the mode and the plan: `Ok(false)` when the build makes no GPU
/// code.
fn active(low: &Lowered<'_>, options: &CodegenOptions) -> Result<bool, Vec<Diagnostic>> {
    if options.gpu.mode == GpuMode::Off {
        return Ok(false);
    }
    if !low.gpu.unsupported.is_empty() {
        return Err(low.gpu.unsupported.clone());
    }
    Ok(!low.gpu.ufuncs.is_empty() || !low.gpu.functions.is_empty())
}

/// The device code of a program's gpu functions, for the options' GPU.
pub fn emit_device(program: &Program, options: &CodegenOptions) -> Result<DeviceCode, Vec<Diagnostic>> {
    let prepared = crate::prepare_serial(program, options, crate::llvm::FEATURES)?;
    let low = crate::llvm::lower(&prepared)?;
    if options.gpu.mode == GpuMode::Off {
        return Err(err("no device code with `--gpu off`"));
    }
    if !active(&low, options)? {
        return Err(err("the program has no gpu function"));
    }
    compile_device(&low, options)
}

/// `--emit ptx`: the PTX of a program's gpu functions.
pub fn emit_ptx(program: &Program, options: &CodegenOptions) -> Result<String, Vec<Diagnostic>> {
    if options.gpu.mode != GpuMode::Nvptx {
        return Err(err("PTX is NVIDIA's: `--emit ptx` needs `--gpu nvptx`"));
    }
    match emit_device(program, options)? {
        DeviceCode::Ptx(text) => Ok(text),
        DeviceCode::CodeObject(_) => Err(err("internal code generation error: an AMDGPU code object for NVPTX")),
    }
}

/// `--emit hsaco`: the AMDGPU code object of a program's gpu functions.
pub fn emit_code_object(program: &Program, options: &CodegenOptions) -> Result<Vec<u8>, Vec<Diagnostic>> {
    if options.gpu.mode != GpuMode::Amdgpu {
        return Err(err("a code object is AMD's: `--emit hsaco` needs `--gpu amdgpu`"));
    }
    match emit_device(program, options)? {
        DeviceCode::CodeObject(bytes) => Ok(bytes),
        DeviceCode::Ptx(_) => Err(err("internal code generation error: PTX for AMDGPU")),
    }
}

/// The GPU step of [`crate::llvm::build_unit`]: compiles the device code and adds the
/// host side to `module` (after the ufunc entry points exist), built with
/// the IR builder ([`host`]).
pub fn emit_host_unit<'c>(
    cx: &'c Context,
    module: &LlModule<'c>,
    low: &Lowered<'_>,
    options: &CodegenOptions,
) -> Result<(), Vec<Diagnostic>> {
    let on = active(low, options)?;
    let mut h = host::Host::new(cx, module);
    if host::uses_coords(module) || !low.gpu.functions.is_empty() {
        h.coordinates()?;
    }
    // Kernel functions keep their body as `SYMBOL.host`; `SYMBOL` becomes
    // the launcher (or, without GPU code, the host emulation of a launch).
    for g in low.gpu.functions.iter().filter(|g| g.kind == FunctionKind::Kernel) {
        let f = module.get_function(&g.symbol).ok_or_else(|| {
            err(format!("internal code generation error: no `{}` for kernel function `{}`", g.symbol, g.name))
        })?;
        f.as_global_value().set_name(&format!("{}.host", g.symbol));
        // An alias of the kernel names the entry point, not the body.
        let ptr = module.get_context().ptr_type(inkwell::AddressSpace::default());
        let mut params = vec![ptr.into()];
        params.extend(f.get_type().get_param_types());
        let entry = module.add_function(&g.symbol, module.get_context().void_type().fn_type(&params, false), None);
        f.replace_all_uses_with(entry);
    }
    // Block storage and the runtime's barrier, for the kernels' host bodies
    // and the emulation.
    h.shared_storage(&low.gpu.functions)?;
    if !on {
        for g in low.gpu.functions.iter().filter(|g| g.kind == FunctionKind::Kernel) {
            h.emulation(g)?;
        }
        return internalize_kernel_bodies(module, low);
    }
    let code = compile_device(low, options)?;
    for g in low.gpu.functions.iter().filter(|g| g.kind == FunctionKind::Single) {
        let f = module.get_function(&g.symbol).ok_or_else(|| {
            err(format!("internal code generation error: no `{}` for gpu function `{}`", g.symbol, g.name))
        })?;
        f.as_global_value().set_name(&format!("{}.host", g.symbol));
        let decl = module.add_function(&g.symbol, f.get_type(), None);
        f.replace_all_uses_with(decl);
    }
    for u in &low.gpu.ufuncs {
        let name = crate::llvm::ufunc::loop_symbol(&u.symbol);
        let f = module
            .get_function(&name)
            .ok_or_else(|| err(format!("internal code generation error: no `{name}` for gpu ufunc `{}`", u.name)))?;
        f.as_global_value().set_name(&format!("{name}.host"));
        let decl = module.add_function(&name, f.get_type(), None);
        f.replace_all_uses_with(decl);
    }
    h.device_side(low, &code)?;
    internalize_kernel_bodies(module, low)
}

/// A kernel function's host body is only the emulation's: internal once
/// the emulation (linked by name) calls it.
fn internalize_kernel_bodies(module: &LlModule<'_>, low: &Lowered<'_>) -> Result<(), Vec<Diagnostic>> {
    for g in low.gpu.functions.iter().filter(|g| g.kind == FunctionKind::Kernel) {
        if let Some(f) = module.get_function(&format!("{}.host", g.symbol)) {
            f.set_linkage(inkwell::module::Linkage::Internal);
        }
    }
    Ok(())
}
