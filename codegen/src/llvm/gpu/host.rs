//! The host side of the GPU code, built with LLVM's IR builder: the
//! coordinate built-ins of an emulated launch, block-shared storage, the
//! `--gpu off` entry points of kernels (which the runtime's
//! `postc_rt_gpu_emulate` runs, coroutines and barriers included: written
//! once in C, runtime/src/gpu_emulation.c), the embedded device image and
//! the constructor that loads it, per gpu ufunc its constant descriptor,
//! the wrapper `SYMBOL_loop.gpu` and the dispatcher `SYMBOL_loop`, and per
//! `kernel` or plain `gpu` function its launcher (docs/runtime-gpu.md §6).
//!
//! A ufunc's staging (the step check and host fallback, the spans copied
//! in and back, the grid, the scratch buffer, the launch) is not built
//! here: it is written once, in Rust, by the GPU runtime's
//! `postc_gpu_ufunc_launch` (runtime-gpu/src/ufunc.rs), which
//! `SYMBOL_loop.gpu` calls with the descriptor. The launchers of `kernel`
//! and plain `gpu` functions are built here, their arrays staged by the
//! runtime's `postc_gpu_stage_tensor`.
//!
//! Every function is verified once built; a mistake in building one is an
//! internal-error diagnostic naming it and the POST function it serves.
//! Host-side panics go through the runtime's `postc_rt_panic`, as every
//! other panic of compiled code.

use super::{err, DeviceCode, FunctionKind, GpuFunction, GpuUfunc};
use crate::llvm::emit::unit::{add_flags, Types, Unit};
use crate::llvm::emit::FnSig;
use crate::llvm::Lowered;
use inkwell::attributes::AttributeLoc;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::types::{BasicType, BasicTypeEnum, FunctionType, IntType};
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValue, BasicValueEnum, CallSiteValue, FunctionValue, GlobalValue,
    IntValue, PointerValue, StructValue,
};
use inkwell::IntPredicate;
use postc_ir::builtins::{gpu_builtin_name, Axis, GpuReg, SYNC_THREADS};
use postc_ir::diag::Diagnostic;
use postc_ir::DType;

/// The coordinates of the emulated launch's running thread, in the order
/// of [`GpuReg::ALL`] then [`Axis::ALL`] (all zero outside a launch).
const COORDS: &str = "postc.gpu.coords";
const NCOORDS: u32 = 12;

/// The constructor that loads the device image.
const INIT: &str = "postc.gpu.init";
const CTORS: &str = "llvm.global_ctors";
/// The priority of [`INIT`] (the lowest, as C's plain constructors).
const CTOR_PRIORITY: u64 = 65535;

/// The host side of the GPU runtime (docs/runtime-gpu.md §4) and the
/// runtime's emulation of launches.
mod entry {
    pub const USABLE: &str = "__postc_gpu_usable";
    pub const SELECT_RUNTIME: &str = "__postc_gpu_select_runtime";
    pub const MODULE_LOAD: &str = "mgpuModuleLoad";
    pub const MODULE_GET_FUNCTION: &str = "mgpuModuleGetFunction";
    pub const LAUNCH_KERNEL: &str = "mgpuLaunchKernel";
    pub const MEMCPY: &str = "mgpuMemcpy";
    pub const STREAM: &str = "postc_gpu_stream";
    pub const ARENA_MARK: &str = "postc_gpu_arena_mark";
    pub const ARENA_ALLOC: &str = "postc_gpu_arena_alloc";
    pub const ARENA_RESTORE: &str = "postc_gpu_arena_restore";
    pub const STAGE_TENSOR: &str = "postc_gpu_stage_tensor";
    pub const UNSTAGE_TENSOR: &str = "postc_gpu_unstage_tensor";
    pub const UFUNC_LAUNCH: &str = "postc_gpu_ufunc_launch";
    pub const EMULATE: &str = "postc_rt_gpu_emulate";
    pub const SYNC_THREADS: &str = "postc_rt_gpu_sync_threads";
}

/// The flags of an operand in a ufunc's descriptor (runtime-gpu's
/// `OPERAND_RETURNED`, `OPERAND_VIEW`): the body's result, which the kernel
/// writes whole; passed to the body as a view, taking a part of each
/// thread's scratch buffer.
const OPERAND_RETURNED: u64 = 1;
const OPERAND_VIEW: u64 = 2;

/// Whether `module` calls a `postc.gpu.*` coordinate built-in.
pub(super) fn uses_coords(module: &LlModule<'_>) -> bool {
    GpuReg::ALL.iter().any(|r| Axis::ALL.iter().any(|a| module.get_function(&gpu_builtin_name(*r, *a)).is_some()))
}

/// What went wrong building a function: a bug of this module, reported
/// as an internal error.
struct Mistake(String);

impl From<BuilderError> for Mistake {
    fn from(e: BuilderError) -> Self {
        Mistake(e.to_string())
    }
}

type R<T> = Result<T, Mistake>;

/// `%` doubled: text inside a printf format.
fn literal(s: &str) -> String {
    s.replace('%', "%%")
}

fn elsize(d: DType) -> u64 {
    d.size_bytes() as u64
}

/// Building one function's body.
struct Fb<'c> {
    t: Types<'c>,
    f: FunctionValue<'c>,
    b: Builder<'c>,
}

impl<'c> Fb<'c> {
    fn block(&self, name: &str) -> BasicBlock<'c> {
        self.t.cx.append_basic_block(self.f, name)
    }

    /// Continues at the end of `bb`.
    fn at(&self, bb: BasicBlock<'c>) {
        self.b.position_at_end(bb);
    }

    fn int(&self, v: u64) -> IntValue<'c> {
        self.t.i64.const_int(v, false)
    }

    fn param(&self, k: usize) -> R<BasicValueEnum<'c>> {
        self.f.get_nth_param(k as u32).ok_or_else(|| Mistake(format!("no parameter {k}")))
    }

    fn param_ptr(&self, k: usize) -> R<PointerValue<'c>> {
        match self.param(k)? {
            BasicValueEnum::PointerValue(v) => Ok(v),
            _ => Err(Mistake(format!("parameter {k} is not a pointer"))),
        }
    }

    /// Element `k` of the array of `elem` at `base`.
    fn nth(&self, elem: impl BasicType<'c>, base: PointerValue<'c>, k: IntValue<'c>) -> R<PointerValue<'c>> {
        // SAFETY: a plain element offset; the IR does not require it in bounds.
        Ok(unsafe { self.b.build_gep(elem, base, &[k], "")? })
    }

    /// Element `k` of the array alloca or global `[n x elem]` at `base`.
    fn slot(&self, elem: impl BasicType<'c>, n: u32, base: PointerValue<'c>, k: u64) -> R<PointerValue<'c>> {
        let zero = self.int(0);
        // SAFETY: `k < n`, within the array.
        Ok(unsafe { self.b.build_gep(elem.array_type(n), base, &[zero, self.int(k)], "")? })
    }

    /// An 8-byte aligned stack slot.
    fn alloca(&self, ty: impl BasicType<'c>, name: &str) -> R<PointerValue<'c>> {
        let p = self.b.build_alloca(ty, name)?;
        if let Some(i) = p.as_instruction() {
            i.set_alignment(8).map_err(|e| Mistake(e.to_string()))?;
        }
        Ok(p)
    }

    fn load_int(&self, ty: IntType<'c>, p: PointerValue<'c>, name: &str) -> R<IntValue<'c>> {
        Ok(self.b.build_load(ty, p, name)?.into_int_value())
    }

    fn load_ptr(&self, p: PointerValue<'c>, name: &str) -> R<PointerValue<'c>> {
        Ok(self.b.build_load(self.t.ptr, p, name)?.into_pointer_value())
    }

    fn store(&self, p: PointerValue<'c>, v: impl BasicValue<'c>) -> R<()> {
        self.b.build_store(p, v)?;
        Ok(())
    }

    fn call(&self, f: FunctionValue<'c>, args: &[BasicMetadataValueEnum<'c>]) -> R<CallSiteValue<'c>> {
        Ok(self.b.build_call(f, args, "")?)
    }

    fn result(c: CallSiteValue<'c>) -> R<BasicValueEnum<'c>> {
        c.try_as_basic_value().basic().ok_or_else(|| Mistake("a call without a result".into()))
    }

    fn call_int(&self, f: FunctionValue<'c>, args: &[BasicMetadataValueEnum<'c>]) -> R<IntValue<'c>> {
        match Self::result(self.call(f, args)?)? {
            BasicValueEnum::IntValue(v) => Ok(v),
            _ => Err(Mistake("an integer call of another type".into())),
        }
    }

    fn call_ptr(&self, f: FunctionValue<'c>, args: &[BasicMetadataValueEnum<'c>]) -> R<PointerValue<'c>> {
        match Self::result(self.call(f, args)?)? {
            BasicValueEnum::PointerValue(v) => Ok(v),
            _ => Err(Mistake("a pointer call of another type".into())),
        }
    }

    fn cmp(&self, p: IntPredicate, a: IntValue<'c>, b: IntValue<'c>, name: &str) -> R<IntValue<'c>> {
        Ok(self.b.build_int_compare(p, a, b, name)?)
    }

    fn condbr(&self, c: IntValue<'c>, yes: BasicBlock<'c>, no: BasicBlock<'c>) -> R<()> {
        self.b.build_conditional_branch(c, yes, no)?;
        Ok(())
    }

    fn ret_void(&self) -> R<()> {
        self.b.build_return(None)?;
        Ok(())
    }
}

/// Builds the host side of the GPU code into one module.
pub(super) struct Host<'c, 'm> {
    u: Unit<'c, 'm>,
}

impl<'c, 'm> Host<'c, 'm> {
    pub fn new(cx: &'c Context, module: &'m LlModule<'c>) -> Self {
        Host { u: Unit::new(cx, module) }
    }

    fn t(&self) -> Types<'c> {
        self.u.t
    }

    fn module(&self) -> &'m LlModule<'c> {
        self.u.module
    }

    /// The function `name` of type `ty` to define: the module's declaration
    /// of it, or a new one; with `linkage` when given.
    fn function(
        &self,
        name: &str,
        ty: FunctionType<'c>,
        linkage: Option<Linkage>,
    ) -> Result<FunctionValue<'c>, Vec<Diagnostic>> {
        let f = match self.module().get_function(name) {
            Some(f) if f.count_basic_blocks() > 0 => {
                return Err(err(format!(
                    "internal code generation error: the GPU host function `{name}` is defined twice"
                )))
            }
            Some(f) if f.get_type() != ty => {
                return Err(err(format!(
                    "internal code generation error: the GPU host function `{name}` is declared with another type"
                )))
            }
            Some(f) => f,
            None => self.module().add_function(name, ty, None),
        };
        if let Some(l) = linkage {
            f.set_linkage(l);
        }
        Ok(f)
    }

    /// A function the host code calls, declared on first use.
    fn callee(&self, name: &str) -> R<FunctionValue<'c>> {
        let t = self.t();
        let (ptr, i64, i32) = (t.ptr.into(), t.i64.into(), t.i32.into());
        let void = t.cx.void_type();
        let (ty, flags): (FunctionType<'c>, &[&str]) = match name {
            entry::USABLE => (t.i32.fn_type(&[], false), &[]),
            entry::SELECT_RUNTIME => (void.fn_type(&[i32], false), &[]),
            entry::MODULE_LOAD => (t.ptr.fn_type(&[ptr, i64], false), &[]),
            entry::MODULE_GET_FUNCTION => (t.ptr.fn_type(&[ptr, ptr], false), &[]),
            entry::LAUNCH_KERNEL => {
                (void.fn_type(&[ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64], false), &[])
            }
            entry::MEMCPY => (void.fn_type(&[ptr, ptr, i64, ptr], false), &[]),
            entry::STREAM => (t.ptr.fn_type(&[], false), &[]),
            entry::ARENA_MARK => (t.i64.fn_type(&[ptr], false), &[]),
            entry::ARENA_ALLOC => (t.ptr.fn_type(&[i64, ptr], false), &[]),
            entry::ARENA_RESTORE => (void.fn_type(&[i64, ptr], false), &[]),
            entry::STAGE_TENSOR => (t.ptr.fn_type(&[ptr, ptr, ptr], false), &[]),
            entry::UNSTAGE_TENSOR => (void.fn_type(&[ptr], false), &[]),
            entry::UFUNC_LAUNCH => (void.fn_type(&[ptr; 7], false), &[]),
            entry::EMULATE => (void.fn_type(&[ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, i32], false), &[]),
            _ => return Err(Mistake(format!("no declaration of `{name}`"))),
        };
        let f = self.u.declare(name, ty, flags);
        // A program's own function of that name would take the calls.
        if f.get_type() != ty {
            return Err(Mistake(format!("`{name}` is already a function of another type")));
        }
        Ok(f)
    }

    /// A private constant holding the printf format `fmt`.
    fn format(&mut self, fmt: &str) -> PointerValue<'c> {
        self.u.cstring(fmt.as_bytes())
    }

    /// Panics with the format `fmt` and its arguments; ends the block.
    fn panic(&self, fb: &Fb<'c>, fmt: PointerValue<'c>, args: &[BasicMetadataValueEnum<'c>]) -> R<()> {
        self.u.build_panic(&fb.b, fmt, args)?;
        fb.b.build_unreachable()?;
        Ok(())
    }

    /// Builds the body of `f` with `body` and verifies it; `owner` names
    /// what the function serves.
    fn define(
        &mut self,
        f: FunctionValue<'c>,
        owner: &str,
        body: impl FnOnce(&mut Self, &Fb<'c>) -> R<()>,
    ) -> Result<(), Vec<Diagnostic>> {
        let t = self.t();
        let fb = Fb { t, f, b: t.cx.create_builder() };
        fb.at(fb.block("entry"));
        let name = f.get_name().to_string_lossy().into_owned();
        if let Err(Mistake(why)) = body(self, &fb) {
            return Err(err(format!("internal code generation error: building `{name}` for {owner}: {why}")));
        }
        if !f.verify(false) {
            let why = self.module().verify().err().map(|e| e.to_string()).unwrap_or_default();
            return Err(err(format!(
                "internal code generation error: the LLVM function `{name}` built for {owner} does not verify: {}",
                why.trim()
            )));
        }
        Ok(())
    }

    /// Gives `f`'s parameters from `first` on and its result the attributes
    /// of `sig`.
    fn abi_attrs(&self, f: FunctionValue<'c>, sig: &FnSig, first: u32) {
        for (k, a) in sig.param_attrs.iter().enumerate() {
            for attr in self.t().param_attrs(*a) {
                f.add_attribute(AttributeLoc::Param(first + k as u32), attr);
            }
        }
        for attr in self.t().param_attrs(sig.ret_attr) {
            f.add_attribute(AttributeLoc::Return, attr);
        }
    }

    /// A call of a function of signature `sig`, with its attributes at the
    /// call site too.
    fn call_abi(
        &self,
        fb: &Fb<'c>,
        callee: FunctionValue<'c>,
        args: &[BasicMetadataValueEnum<'c>],
        sig: &FnSig,
    ) -> R<CallSiteValue<'c>> {
        let c = fb.call(callee, args)?;
        for (k, a) in sig.param_attrs.iter().enumerate() {
            for attr in self.t().param_attrs(*a) {
                c.add_attribute(AttributeLoc::Param(k as u32), attr);
            }
        }
        for attr in self.t().param_attrs(sig.ret_attr) {
            c.add_attribute(AttributeLoc::Return, attr);
        }
        Ok(c)
    }

    /// A function the module already has (one this module renamed or added).
    fn existing(&self, name: &str) -> R<FunctionValue<'c>> {
        self.module().get_function(name).ok_or_else(|| Mistake(format!("no function `{name}`")))
    }

    /// A global of the module, new (LLVM renames it on a clash).
    fn global(
        &self,
        name: &str,
        ty: impl BasicType<'c>,
        init: &dyn BasicValue<'c>,
        linkage: Linkage,
    ) -> GlobalValue<'c> {
        let g = self.module().add_global(ty, None, name);
        g.set_initializer(init);
        g.set_linkage(linkage);
        g
    }

    /// `[12 x i64]` thread-local coordinates of the emulated launch.
    fn coords(&self) -> GlobalValue<'c> {
        if let Some(g) = self.module().get_global(COORDS) {
            return g;
        }
        let ty = self.t().i64.array_type(NCOORDS);
        let g = self.global(COORDS, ty, &ty.const_zero(), Linkage::Internal);
        g.set_thread_local(true);
        g
    }

    fn coord(&self, fb: &Fb<'c>, k: u64) -> R<PointerValue<'c>> {
        fb.slot(self.t().i64, NCOORDS, self.coords().as_pointer_value(), k)
    }

    /// The host's coordinate built-ins that the module calls: they read the
    /// emulated launch's coordinates.
    pub fn coordinates(&mut self) -> Result<(), Vec<Diagnostic>> {
        self.coords();
        for (r, reg) in GpuReg::ALL.iter().enumerate() {
            for (a, axis) in Axis::ALL.iter().enumerate() {
                let name = gpu_builtin_name(*reg, *axis);
                let Some(f) = self.module().get_function(&name) else { continue };
                f.set_linkage(Linkage::Internal);
                let k = (3 * r + a) as u64;
                self.define(f, "the coordinates of an emulated launch", |h, fb| {
                    let v = fb.load_int(h.t().i64, h.coord(fb, k)?, "v")?;
                    fb.b.build_return(Some(&v))?;
                    Ok(())
                })?;
            }
        }
        Ok(())
    }

    /// Block-shared storage: per shared array of a kernel, a thread-local
    /// buffer and the function that returns it (the emulation clears it
    /// before each block). A barrier the kernels' host bodies wait at is the
    /// runtime's `postc_rt_gpu_sync_threads`, which returns at once outside
    /// an emulated cooperative launch.
    pub fn shared_storage(&mut self, functions: &[GpuFunction]) -> Result<(), Vec<Diagnostic>> {
        let t = self.t();
        for g in functions {
            for s in &g.shared {
                let ty = t.i8.array_type(s.bytes as u32);
                let mem = self.global(&format!("{}.mem", s.symbol), ty, &ty.const_zero(), Linkage::Internal);
                mem.set_thread_local(true);
                mem.set_alignment(16);
                let f = self.function(&s.symbol, t.ptr.fn_type(&[], false), Some(Linkage::Internal))?;
                add_flags(&t, f, &["nounwind"]);
                self.define(f, &format!("kernel function `{}`", g.name), |_, fb| {
                    fb.b.build_return(Some(&mem.as_pointer_value()))?;
                    Ok(())
                })?;
            }
        }
        if let Some(sync) = self.module().get_function(SYNC_THREADS) {
            sync.as_global_value().set_name(entry::SYNC_THREADS);
            sync.set_linkage(Linkage::External);
        }
        Ok(())
    }

    /// The entry point `void SYMBOL(const postc_launch *cfg, ...)` of a
    /// kernel function (declared by the caller), its parameters given the
    /// body's attributes.
    fn launch_entry(&self, g: &GpuFunction) -> Result<FunctionValue<'c>, Vec<Diagnostic>> {
        let f = self.module().get_function(&g.symbol).ok_or_else(|| {
            err(format!(
                "internal code generation error: no entry point `{}` for kernel function `{}`",
                g.symbol, g.name
            ))
        })?;
        if !g.sig.exported {
            f.set_linkage(Linkage::Internal);
        }
        self.abi_attrs(f, &g.sig, 1);
        Ok(f)
    }

    /// Loads the six launch dimensions of the `postc_launch` in parameter 0
    /// (`grid[3]` then `block[3]`, unsigned 32-bit), panicking on a NULL
    /// configuration.
    fn launch_config(&mut self, fb: &Fb<'c>, g: &GpuFunction) -> R<[IntValue<'c>; 6]> {
        let t = self.t();
        let cfg = fb.param_ptr(0)?;
        let nocfg =
            self.format(&format!("panic: kernel function {}: the launch configuration is NULL", literal(&g.name)));
        let (bad, ok) = (fb.block("bad"), fb.block("cfgok"));
        fb.condbr(fb.b.build_is_null(cfg, "nocfg")?, bad, ok)?;
        fb.at(bad);
        self.panic(fb, nocfg, &[])?;
        fb.at(ok);
        let mut dims = [fb.int(0); 6];
        for (i, d) in dims.iter_mut().enumerate() {
            let v = fb.load_int(t.i32, fb.nth(t.i32, cfg, fb.int(i as u64))?, "")?;
            *d = fb.b.build_int_z_extend(v, t.i64, &format!("g{i}"))?;
        }
        Ok(dims)
    }

    /// Without GPU code, `void SYMBOL(const postc_launch *cfg, ...)` checks
    /// the configuration, keeps the launch's arguments in a buffer and has
    /// the runtime's `postc_rt_gpu_emulate` run every thread of the launch
    /// on the calling thread as the interpreter's `launch` does, each a call
    /// of `SYMBOL.thread(buffer)`, which calls the body with the arguments;
    /// a cooperating kernel's threads as coroutines, given its shared
    /// arrays to clear before each block.
    pub fn emulation(&mut self, g: &GpuFunction) -> Result<(), Vec<Diagnostic>> {
        let t = self.t();
        let owner = format!("kernel function `{}`", g.name);
        let fields: Vec<BasicTypeEnum> = g.sig.params.iter().filter_map(|p| t.abi(*p)).collect();
        let args_ty = t.cx.struct_type(&fields, false);
        let thread = self.function(
            &format!("{}.thread", g.symbol),
            t.cx.void_type().fn_type(&[t.ptr.into()], false),
            Some(Linkage::Internal),
        )?;
        let name = self.format(&g.name);
        let f = self.launch_entry(g)?;
        self.define(f, &owner, |h, fb| {
            h.launch_config(fb, g)?;
            let argbuf = fb.alloca(args_ty, "argbuf")?;
            for k in 0..fields.len() {
                let at = fb.b.build_struct_gep(args_ty, argbuf, k as u32, "")?;
                fb.store(at, fb.param(k + 1)?)?;
            }
            let n = g.shared.len() as u32;
            let shared = fb.alloca(t.ptr.array_type(n.max(1)), "shared")?;
            let bytes = fb.alloca(t.i64.array_type(n.max(1)), "bytes")?;
            for (k, sh) in g.shared.iter().enumerate() {
                let p = fb.call_ptr(h.existing(&sh.symbol)?, &[])?;
                fb.store(fb.slot(t.ptr, n, shared, k as u64)?, p)?;
                fb.store(fb.slot(t.i64, n, bytes, k as u64)?, fb.int(sh.bytes))?;
            }
            let coords = h.coords().as_pointer_value();
            let entry = thread.as_global_value().as_pointer_value();
            let cooperative = t.i32.const_int(g.cooperates() as u64, false);
            let args = [name, fb.param_ptr(0)?, coords, entry, argbuf, shared, bytes];
            let mut args: Vec<BasicMetadataValueEnum> = args.into_iter().map(Into::into).collect();
            args.extend::<[BasicMetadataValueEnum; 2]>([fb.int(n as u64).into(), cooperative.into()]);
            fb.call(h.callee(entry::EMULATE)?, &args)?;
            fb.ret_void()
        })?;
        self.define(thread, &owner, |h, fb| {
            let body = h.existing(&format!("{}.host", g.symbol))?;
            let argbuf = fb.param_ptr(0)?;
            let mut args: Vec<BasicMetadataValueEnum> = Vec::new();
            for (k, ty) in fields.iter().enumerate() {
                let at = fb.b.build_struct_gep(args_ty, argbuf, k as u32, "")?;
                args.push(fb.b.build_load(*ty, at, "")?.into());
            }
            h.call_abi(fb, body, &args, &g.sig)?;
            fb.ret_void()
        })
    }

    /// With GPU code: the device image and the constructor that loads it,
    /// then per gpu ufunc its descriptor, wrapper and dispatcher, per `kernel`
    /// or plain `gpu` function its launcher.
    pub fn device_side(&mut self, low: &Lowered<'_>, code: &DeviceCode) -> Result<(), Vec<Diagnostic>> {
        let t = self.t();
        let image = code.image();
        let image_ty = t.i8.array_type(image.len() as u32);
        let image_g = self.global("postc.gpu.image", image_ty, &t.cx.const_string(&image, false), Linkage::Private);
        image_g.set_constant(true);
        image_g.set_unnamed_addr(true);
        image_g.set_alignment(8);
        let loaded = self.global("postc.gpu.module", t.ptr, &t.ptr.const_null(), Linkage::Internal);
        loaded.set_alignment(8);
        let kernels = low.gpu.kernel_names();
        let mut handles = Vec::with_capacity(kernels.len());
        for (i, k) in kernels.iter().enumerate() {
            let h = self.global(&format!("postc.gpu.fn.{i}"), t.ptr, &t.ptr.const_null(), Linkage::Internal);
            h.set_alignment(8);
            let name_ty = t.i8.array_type(k.len() as u32 + 1);
            let name = self.global(
                &format!("postc.gpu.name.{i}"),
                name_ty,
                &t.cx.const_string(k.as_bytes(), true),
                Linkage::Private,
            );
            name.set_constant(true);
            name.set_unnamed_addr(true);
            handles.push((h.as_pointer_value(), name.as_pointer_value()));
        }
        let us = &low.gpu.ufuncs;
        let fs = &low.gpu.functions;
        // Without a GPU, a program whose GPU code has no host body to fall
        // back on stops at load, naming `gpu` (or `kernel` when only kernels
        // lack one).
        let bare = us
            .iter()
            .filter(|u| !u.fallback)
            .map(|u| ("gpu", &u.name))
            .chain(fs.iter().filter(|g| g.kind == FunctionKind::Single && !g.fallback).map(|g| ("gpu", &g.name)))
            .chain(fs.iter().filter(|g| g.kind == FunctionKind::Kernel).map(|g| ("kernel", &g.name)))
            .next();
        let nogpu = bare
            .map(|(what, name)| self.format(&format!("panic: no usable GPU for {what} function {}", literal(name))));
        let init = self.function(INIT, t.cx.void_type().fn_type(&[], false), Some(Linkage::Internal))?;
        self.constructor(init)?;
        self.define(init, "the loader of the GPU code", |h, fb| {
            let kind = t.i32.const_int(code.runtime_kind() as u64, false);
            fb.call(h.callee(entry::SELECT_RUNTIME)?, &[kind.into()])?;
            let usable = fb.call_int(h.callee(entry::USABLE)?, &[])?;
            let (none, load) = (fb.block("none"), fb.block("load"));
            fb.condbr(fb.cmp(IntPredicate::NE, usable, t.i32.const_zero(), "ok")?, load, none)?;
            fb.at(none);
            match nogpu {
                Some(fmt) => h.panic(fb, fmt, &[])?,
                None => fb.ret_void()?,
            }
            fb.at(load);
            let image = image_g.as_pointer_value();
            let m =
                fb.call_ptr(h.callee(entry::MODULE_LOAD)?, &[image.into(), fb.int(image_ty.len() as u64).into()])?;
            fb.store(loaded.as_pointer_value(), m)?;
            for (handle, name) in &handles {
                let f = fb.call_ptr(h.callee(entry::MODULE_GET_FUNCTION)?, &[m.into(), (*name).into()])?;
                fb.store(*handle, f)?;
            }
            fb.ret_void()
        })?;
        for (i, u) in us.iter().enumerate() {
            self.staging(u, handles[i].0)?;
            self.dispatcher(u)?;
        }
        for (i, g) in fs.iter().enumerate() {
            let handle = handles[us.len() + i].0;
            match g.kind {
                FunctionKind::Kernel => self.kernel_launcher(g, handle)?,
                FunctionKind::Single => self.single_launcher(g, handle)?,
            }
        }
        Ok(())
    }

    /// Adds `init` to `llvm.global_ctors` (after the constructors that
    /// `--link-ir` files brought).
    fn constructor(&self, init: FunctionValue<'c>) -> Result<(), Vec<Diagnostic>> {
        let t = self.t();
        let entry_ty = t.cx.struct_type(&[t.i32.into(), t.ptr.into(), t.ptr.into()], false);
        let mut entries = Vec::new();
        if let Some(old) = self.module().get_global(CTORS) {
            let bad = || err(format!("`{CTORS}` of a `--link-ir` file is not an array of `{{ i32, ptr, ptr }}`"));
            match old.get_initializer() {
                Some(BasicValueEnum::ArrayValue(arr)) if arr.get_type().get_element_type() == entry_ty.into() => {
                    for k in 0..arr.get_type().len() {
                        // SAFETY: `arr` is a constant array of `entry_ty`
                        // structs and `k` below its length.
                        let e = unsafe { inkwell::llvm_sys::core::LLVMGetAggregateElement(arr.as_value_ref(), k) };
                        if e.is_null() {
                            return Err(bad());
                        }
                        // SAFETY: an element of an array of structs is a struct.
                        entries.push(unsafe { StructValue::new(e) });
                    }
                }
                None => {}
                Some(_) => return Err(bad()),
            }
            // SAFETY: replaced below; nothing refers to `llvm.global_ctors`.
            unsafe { old.delete() };
        }
        let fp = init.as_global_value().as_pointer_value();
        let entry = entry_ty.const_named_struct(&[
            t.i32.const_int(CTOR_PRIORITY, false).into(),
            fp.into(),
            t.ptr.const_null().into(),
        ]);
        entries.push(entry);
        let arr = entry_ty.const_array(&entries);
        self.global(CTORS, arr.get_type(), &arr, Linkage::Appending);
        Ok(())
    }

    /// `SYMBOL_loop`: `SYMBOL_loop.gpu`, or for `gpu(fallback)` without a
    /// usable GPU `SYMBOL_loop.host`.
    fn dispatcher(&mut self, u: &GpuUfunc) -> Result<(), Vec<Diagnostic>> {
        let name = crate::llvm::ufunc::loop_symbol(&u.symbol);
        let f = self.module().get_function(&name).ok_or_else(|| {
            err(format!("internal code generation error: no entry point `{name}` for gpu ufunc `{}`", u.name))
        })?;
        self.define(f, &format!("gpu ufunc `{}`", u.name), |h, fb| {
            let args: Vec<BasicMetadataValueEnum> = (0..4).map(|k| Ok(fb.param(k)?.into())).collect::<R<_>>()?;
            let gpu = h.existing(&format!("{name}.gpu"))?;
            if u.fallback {
                let usable = fb.call_int(h.callee(entry::USABLE)?, &[])?;
                let (on, off) = (fb.block("gpu"), fb.block("host"));
                fb.condbr(fb.cmp(IntPredicate::NE, usable, h.t().i32.const_zero(), "ok")?, on, off)?;
                fb.at(on);
                fb.call(gpu, &args)?;
                fb.ret_void()?;
                fb.at(off);
                fb.call(h.existing(&format!("{name}.host"))?, &args)?;
            } else {
                fb.call(gpu, &args)?;
            }
            fb.ret_void()
        })
    }

    /// `SYMBOL_loop.gpu`, with `SYMBOL_loop`'s arguments: loads the kernel's
    /// handle and has the runtime's `postc_gpu_ufunc_launch` stage, launch
    /// and copy back, given `SYMBOL_loop.host` for steps a device cannot
    /// take and the ufunc's descriptor.
    fn staging(&mut self, u: &GpuUfunc, handle: PointerValue<'c>) -> Result<(), Vec<Diagnostic>> {
        let t = self.t();
        let name = crate::llvm::ufunc::loop_symbol(&u.symbol);
        let ptr = t.ptr.into();
        let f = self.function(&format!("{name}.gpu"), t.cx.void_type().fn_type(&[ptr, ptr, ptr, ptr], false), None)?;
        let descriptor = self.ufunc_descriptor(u, &name);
        self.define(f, &format!("gpu ufunc `{}`", u.name), |h, fb| {
            let kernel = fb.load_ptr(handle, "f")?;
            let host = h.existing(&format!("{name}.host"))?.as_global_value().as_pointer_value();
            let mut args: Vec<BasicMetadataValueEnum> = (0..4).map(|k| Ok(fb.param(k)?.into())).collect::<R<_>>()?;
            args.extend::<[BasicMetadataValueEnum; 3]>([kernel.into(), host.into(), descriptor.into()]);
            fb.call(h.callee(entry::UFUNC_LAUNCH)?, &args)?;
            fb.ret_void()
        })
    }

    /// The constant `UfuncDescriptor` of `u` (runtime-gpu/src/ufunc.rs, field
    /// for field: every field 64 bits wide, so no padding to agree on), with
    /// its arrays, named after the loop `name`.
    fn ufunc_descriptor(&self, u: &GpuUfunc, name: &str) -> PointerValue<'c> {
        let t = self.t();
        let plan = &u.plan;
        let int = |v: u64| t.i64.const_int(v, false);
        let views = plan.scratch_operands();
        let pair = t.cx.struct_type(&[t.i64.into(), t.i64.into()], false);
        let operand_ty = t.cx.struct_type(&[t.i64.into(); 4], false);
        let operands: Vec<StructValue> = (0..plan.nops)
            .map(|j| {
                let flags =
                    u64::from(plan.is_returned(j)) * OPERAND_RETURNED + u64::from(views.contains(&j)) * OPERAND_VIEW;
                let first_core = (plan.core_step_base(j) - plan.nops) as u64;
                let fields = [elsize(plan.dtypes[j]), first_core, plan.core[j].len() as u64, flags];
                operand_ty.const_named_struct(&fields.map(|v| int(v).into()))
            })
            .collect();
        let core_dims: Vec<IntValue> = plan.core.iter().flatten().map(|d| int(*d as u64 + 1)).collect();
        let fixed_steps: Vec<StructValue> = views
            .iter()
            .flat_map(|&i| plan.fixed_core_strides(i).into_iter().map(move |(a, s)| (plan.core_step_base(i) + a, s)))
            .map(|(k, s)| pair.const_named_struct(&[int(k as u64).into(), t.i64.const_int(s as u64, true).into()]))
            .collect();
        // A private constant `NAME.WHAT`.
        let constant = |what: &str, value: &dyn BasicValue<'c>, ty: BasicTypeEnum<'c>| {
            let g = self.global(&format!("{name}.{what}"), ty, value, Linkage::Private);
            g.set_constant(true);
            g.set_unnamed_addr(true);
            g.as_pointer_value()
        };
        // A constant array, or NULL for none.
        let array = |what: &str, len: usize, value: &dyn BasicValue<'c>, ty: BasicTypeEnum<'c>| {
            if len == 0 {
                t.ptr.const_null()
            } else {
                constant(what, value, ty)
            }
        };
        let ops = operand_ty.const_array(&operands);
        let cores = t.i64.const_array(&core_dims);
        let fixed = pair.const_array(&fixed_steps);
        let descriptor = t.cx.const_struct(
            &[
                int(plan.nops as u64).into(),
                int(plan.nin as u64).into(),
                int(plan.dims.len() as u64).into(),
                array("operands", operands.len(), &ops, ops.get_type().into()).into(),
                array("core_dims", core_dims.len(), &cores, cores.get_type().into()).into(),
                array("fixed_steps", fixed_steps.len(), &fixed, fixed.get_type().into()).into(),
                int(fixed_steps.len() as u64).into(),
                int(crate::ufunc_plan::SCRATCH_ALIGN).into(),
            ],
            false,
        );
        constant("ufunc", &descriptor, descriptor.get_type().into())
    }

    /// The kernel's parameter array and a slot per argument of `g` (a
    /// `DLTensor` pointer for an array, with the six words of its staging
    /// record), each slot's address in the array; `np` entries.
    fn arg_slots(&self, fb: &Fb<'c>, g: &GpuFunction, np: u32) -> R<ArgSlots<'c>> {
        let t = self.t();
        let params = fb.alloca(t.ptr.array_type(np), "params")?;
        let mut slots = Vec::with_capacity(g.params.len());
        for (k, p) in g.params.iter().enumerate() {
            let (rec, slot) = if p.tensor {
                let rec = fb.alloca(t.i64.array_type(6), &format!("rec{k}"))?;
                (Some(rec), fb.alloca(t.ptr, &format!("slot{k}"))?)
            } else {
                (None, fb.alloca(t.mem(p.dtype), &format!("slot{k}"))?)
            };
            fb.store(fb.slot(t.ptr, np, params, k as u64)?, slot)?;
            slots.push((rec, slot));
        }
        Ok(ArgSlots { params, np, slots })
    }

    /// Stages the arguments of `g` (`first` the index of its first
    /// parameter) into their slots, after a mark of the stream's arena.
    fn stage_args(
        &self,
        fb: &Fb<'c>,
        g: &GpuFunction,
        first: usize,
        s: &ArgSlots<'c>,
        stream: PointerValue<'c>,
    ) -> R<()> {
        let t = self.t();
        for (k, p) in g.params.iter().enumerate() {
            let a = fb.param(first + k)?;
            let (rec, slot) = s.slots[k];
            if let Some(rec) = rec {
                let stage = self.callee(entry::STAGE_TENSOR)?;
                let dt = fb.call_ptr(stage, &[a.into(), rec.into(), stream.into()])?;
                fb.store(slot, dt)?;
            } else if let (DType::Bool, BasicValueEnum::IntValue(a)) = (p.dtype, a) {
                let z = fb.b.build_int_z_extend(a, t.i8, "")?;
                fb.store(slot, z)?;
            } else {
                fb.store(slot, a)?;
            }
        }
        Ok(())
    }

    /// Copies the `&` arrays of `g` back.
    fn unstage_outputs(&self, fb: &Fb<'c>, g: &GpuFunction, s: &ArgSlots<'c>) -> R<()> {
        for (p, (rec, _)) in g.params.iter().zip(&s.slots) {
            if let (true, Some(rec)) = (p.output, rec) {
                fb.call(self.callee(entry::UNSTAGE_TENSOR)?, &[(*rec).into()])?;
            }
        }
        Ok(())
    }

    /// The launcher of a `kernel` function: `void SYMBOL(const postc_launch
    /// *cfg, ...)` stages the arrays, launches over the configuration's grid
    /// and copies the `&` arrays back.
    fn kernel_launcher(&mut self, g: &GpuFunction, handle: PointerValue<'c>) -> Result<(), Vec<Diagnostic>> {
        let f = self.launch_entry(g)?;
        self.define(f, &format!("kernel function `{}`", g.name), |h, fb| {
            let t = h.t();
            let s = h.arg_slots(fb, g, g.params.len() as u32)?;
            let [g0, g1, g2, g3, g4, g5] = h.launch_config(fb, g)?;
            let stream = fb.call_ptr(h.callee(entry::STREAM)?, &[])?;
            let mark = fb.call_int(h.callee(entry::ARENA_MARK)?, &[stream.into()])?;
            h.stage_args(fb, g, 1, &s, stream)?;
            let kernel = fb.load_ptr(handle, "f")?;
            let launch = [
                kernel.into(),
                g0.into(),
                g1.into(),
                g2.into(),
                g3.into(),
                g4.into(),
                g5.into(),
                t.i32.const_zero().into(),
                stream.into(),
                s.params.into(),
                t.ptr.const_null().into(),
                fb.int(s.np as u64).into(),
            ];
            fb.call(h.callee(entry::LAUNCH_KERNEL)?, &launch)?;
            h.unstage_outputs(fb, g, &s)?;
            fb.call(h.callee(entry::ARENA_RESTORE)?, &[mark.into(), stream.into()])?;
            fb.ret_void()
        })
    }

    /// A plain `gpu` function: `SYMBOL.gpu` runs the body on one device
    /// thread (the result comes back through an 8-byte device slot);
    /// `SYMBOL` calls it, or asks `__postc_gpu_usable` first for
    /// `gpu(fallback)`.
    fn single_launcher(&mut self, g: &GpuFunction, handle: PointerValue<'c>) -> Result<(), Vec<Diagnostic>> {
        let t = self.t();
        let owner = format!("gpu function `{}`", g.name);
        let ty = t.fn_type(&g.sig);
        let on_gpu = self.function(&format!("{}.gpu", g.symbol), ty, Some(Linkage::Internal))?;
        self.abi_attrs(on_gpu, &g.sig, 0);
        self.define(on_gpu, &owner, |h, fb| {
            let np = (g.params.len() + usize::from(g.ret.is_some())) as u32;
            let s = h.arg_slots(fb, g, np)?;
            let rslot = fb.alloca(t.ptr, "rslot")?;
            let hret = fb.alloca(t.i64, "hret")?;
            let stream = fb.call_ptr(h.callee(entry::STREAM)?, &[])?;
            let mark = fb.call_int(h.callee(entry::ARENA_MARK)?, &[stream.into()])?;
            h.stage_args(fb, g, 0, &s, stream)?;
            let result = match g.ret {
                Some(_) => {
                    let rdev = fb.call_ptr(h.callee(entry::ARENA_ALLOC)?, &[fb.int(8).into(), stream.into()])?;
                    fb.store(rslot, rdev)?;
                    fb.store(fb.slot(t.ptr, np, s.params, g.params.len() as u64)?, rslot)?;
                    Some(rdev)
                }
                None => None,
            };
            let kernel = fb.load_ptr(handle, "f")?;
            let one = fb.int(1);
            let launch = [
                kernel.into(),
                one.into(),
                one.into(),
                one.into(),
                one.into(),
                one.into(),
                one.into(),
                t.i32.const_zero().into(),
                stream.into(),
                s.params.into(),
                t.ptr.const_null().into(),
                fb.int(np as u64).into(),
            ];
            fb.call(h.callee(entry::LAUNCH_KERNEL)?, &launch)?;
            if let Some(rdev) = result {
                fb.call(h.callee(entry::MEMCPY)?, &[hret.into(), rdev.into(), fb.int(8).into(), stream.into()])?;
            }
            h.unstage_outputs(fb, g, &s)?;
            fb.call(h.callee(entry::ARENA_RESTORE)?, &[mark.into(), stream.into()])?;
            match g.ret {
                None => fb.ret_void()?,
                Some(DType::Bool) => {
                    let byte = fb.load_int(t.i8, hret, "")?;
                    let r = fb.b.build_int_truncate(byte, t.i1, "r")?;
                    fb.b.build_return(Some(&r))?;
                }
                Some(d) => {
                    let r = fb.b.build_load(t.scalar(d), hret, "r")?;
                    fb.b.build_return(Some(&r))?;
                }
            }
            Ok(())
        })?;
        let f = self.module().get_function(&g.symbol).ok_or_else(|| {
            err(format!("internal code generation error: no entry point `{}` for gpu function `{}`", g.symbol, g.name))
        })?;
        if !g.sig.exported {
            f.set_linkage(Linkage::Internal);
        }
        self.abi_attrs(f, &g.sig, 0);
        self.define(f, &owner, |h, fb| {
            let args: Vec<BasicMetadataValueEnum> =
                (0..g.sig.params.len()).map(|k| Ok(fb.param(k)?.into())).collect::<R<_>>()?;
            // The call of `callee` and the return of its result.
            let call_and_return = |callee: FunctionValue<'c>| -> R<()> {
                let c = h.call_abi(fb, callee, &args, &g.sig)?;
                match c.try_as_basic_value().basic() {
                    Some(v) => fb.b.build_return(Some(&v))?,
                    None => fb.b.build_return(None)?,
                };
                Ok(())
            };
            if g.fallback {
                let usable = fb.call_int(h.callee(entry::USABLE)?, &[])?;
                let (on, off) = (fb.block("gpu"), fb.block("host"));
                fb.condbr(fb.cmp(IntPredicate::NE, usable, t.i32.const_zero(), "ok")?, on, off)?;
                fb.at(on);
                call_and_return(on_gpu)?;
                fb.at(off);
                call_and_return(h.existing(&format!("{}.host", g.symbol))?)
            } else {
                call_and_return(on_gpu)
            }
        })
    }
}

/// The parameter array of a launch and the slots of the arguments.
struct ArgSlots<'c> {
    params: PointerValue<'c>,
    np: u32,
    /// Per argument: the staging record of an array, and the slot.
    slots: Vec<(Option<PointerValue<'c>>, PointerValue<'c>)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistake_is_an_internal_error_naming_the_function() {
        let cx = Context::create();
        let m = cx.create_module("host");
        let mut h = Host::new(&cx, &m);
        let ty = cx.void_type().fn_type(&[], false);
        let f = m.add_function("k.launch", ty, None);
        let e = h.define(f, "kernel function `k`", |_, fb| fb.param(0).map(|_| ())).unwrap_err();
        let msg = &e[0].message;
        assert!(
            msg.starts_with("internal code generation error: building `k.launch` for kernel function `k`"),
            "{msg}"
        );
        assert!(msg.ends_with("no parameter 0"), "{msg}");
        // A block without a terminator: the function does not verify.
        let g = m.add_function("k.unfinished", ty, None);
        let e = h.define(g, "kernel function `k`", |_, _| Ok(())).unwrap_err();
        let msg = &e[0].message;
        assert!(
            msg.starts_with(
                "internal code generation error: the LLVM function `k.unfinished` built for kernel function `k` does \
                 not verify"
            ),
            "{msg}"
        );
    }

    #[test]
    fn a_second_definition_is_refused() {
        let cx = Context::create();
        let m = cx.create_module("host");
        let mut h = Host::new(&cx, &m);
        let ty = cx.void_type().fn_type(&[], false);
        let f = h.function("postc.gpu.init", ty, None).unwrap();
        h.define(f, "the loader of the GPU code", |_, fb| fb.ret_void()).unwrap();
        let e = h.function("postc.gpu.init", ty, None).unwrap_err();
        assert!(e[0].message.contains("`postc.gpu.init` is defined twice"), "{}", e[0].message);
        let other = cx.i32_type().fn_type(&[], false);
        m.add_function("postc.gpu.other", ty, None);
        let e = h.function("postc.gpu.other", other, None).unwrap_err();
        assert!(e[0].message.contains("declared with another type"), "{}", e[0].message);
    }
}
