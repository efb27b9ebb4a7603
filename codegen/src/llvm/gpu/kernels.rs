//! The device side's own functions, built with the IR builder: one kernel
//! per gpu ufunc and per `kernel` or plain `gpu` function, the coordinate
//! built-ins of each target, its barrier, and the storage of block-shared
//! arrays.

use super::{GpuFunction, GpuUfunc};
use crate::llvm::emit::unit::{add_flags, Types};
use inkwell::attributes::AttributeLoc;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::types::{BasicMetadataTypeEnum, BasicType};
use inkwell::values::{BasicMetadataValueEnum, BasicValue, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use postc_ir::builtins::{gpu_builtin_name, Axis, GpuReg};
use postc_ir::DType;

/// The device target of a build.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Arch {
    Nvptx,
    Amdgpu,
}

impl Arch {
    /// The calling convention of a kernel (`ptx_kernel`, `amdgpu_kernel`).
    fn kernel_cc(self) -> u32 {
        match self {
            Arch::Nvptx => 71,
            Arch::Amdgpu => 91,
        }
    }
}

/// The shared address space (NVIDIA's shared memory, AMD's LDS).
const SHARED: u16 = 3;
/// AMDGPU's constant address space (the dispatch packet).
const CONSTANT: u16 = 4;

type R<T> = Result<T, BuilderError>;

/// Names the parameters of `f` (the AMDGPU code object lists a kernel's
/// argument names).
fn name_params(f: FunctionValue<'_>, names: &[String]) {
    for (p, n) in f.get_param_iter().zip(names) {
        p.set_name(n);
    }
}

/// Builds the device's own functions into a module.
pub(super) struct Kernels<'c, 'm> {
    t: Types<'c>,
    m: &'m LlModule<'c>,
    b: Builder<'c>,
    arch: Arch,
}

impl<'c, 'm> Kernels<'c, 'm> {
    pub fn new(t: Types<'c>, m: &'m LlModule<'c>, arch: Arch) -> Self {
        Kernels { t, m, b: t.cx.create_builder(), arch }
    }

    /// The function `name` of type `ty` (declared when the module has none).
    fn function(&self, name: &str, ty: inkwell::types::FunctionType<'c>) -> FunctionValue<'c> {
        self.m.get_function(name).unwrap_or_else(|| self.m.add_function(name, ty, None))
    }

    /// A kernel `name(params)` of the target's convention, positioned at
    /// its entry.
    fn kernel(&self, name: &str, params: &[BasicMetadataTypeEnum<'c>]) -> FunctionValue<'c> {
        let f = self.m.add_function(name, self.t.cx.void_type().fn_type(params, false), None);
        f.set_call_conventions(self.arch.kernel_cc());
        self.b.position_at_end(self.t.cx.append_basic_block(f, "entry"));
        f
    }

    fn param_int(f: FunctionValue<'c>, k: usize) -> IntValue<'c> {
        f.get_nth_param(k as u32).map(|p| p.into_int_value()).expect("a kernel parameter of the kernel's type")
    }

    fn param_ptr(f: FunctionValue<'c>, k: usize) -> PointerValue<'c> {
        f.get_nth_param(k as u32).map(|p| p.into_pointer_value()).expect("a kernel parameter of the kernel's type")
    }

    /// Element `k` of an array alloca of `n` elements of `ty`.
    fn slot(&self, ty: impl BasicType<'c>, n: usize, base: PointerValue<'c>, k: usize) -> R<PointerValue<'c>> {
        let arr = ty.array_type(n as u32);
        let zero = self.t.i64.const_zero();
        // SAFETY: `k < n`, within the alloca.
        unsafe { self.b.build_in_bounds_gep(arr, base, &[zero, self.t.i64.const_int(k as u64, false)], "") }
    }

    /// A coordinate built-in's value (the target defines it, see
    /// [`Kernels::coordinates`]).
    fn coordinate(&self, reg: GpuReg, axis: Axis) -> R<IntValue<'c>> {
        let f = self.function(&gpu_builtin_name(reg, axis), self.t.i64.fn_type(&[], false));
        let r = self.b.build_call(f, &[], "")?;
        Ok(r.try_as_basic_value().basic().map(|v| v.into_int_value()).unwrap_or_else(|| self.t.i64.get_poison()))
    }

    /// The kernel of one gpu ufunc: thread `t` of `T` runs the iterations
    /// `t, t + T, ...` of the loop, each as a call to the device's
    /// `SYMBOL_loop` with a loop length of one. The last two parameters are
    /// the scratch buffer the host allocated for operands that need a copy
    /// (NULL when none does) and the bytes of it each thread takes: thread
    /// `t`'s part is passed as the loop's `data`.
    pub fn ufunc_kernel(&self, u: &GpuUfunc) -> R<()> {
        let plan = &u.plan;
        let (nops, nsteps, ndims) = (plan.nops, plan.num_steps(), 1 + plan.dims.len());
        let (ptr, i64t) = (self.t.ptr, self.t.i64);
        let mut params: Vec<BasicMetadataTypeEnum> = vec![ptr.into(); nops];
        params.extend(std::iter::repeat_n(BasicMetadataTypeEnum::from(i64t), nsteps + ndims));
        params.push(ptr.into());
        params.push(i64t.into());
        let f = self.kernel(&u.kernel, &params);
        let mut names: Vec<String> = (0..nops).map(|j| format!("p{j}")).collect();
        names.extend((0..nsteps).map(|k| format!("s{k}")));
        names.extend((0..ndims).map(|k| format!("d{k}")));
        names.extend(["scratch".to_owned(), "slot".to_owned()]);
        name_params(f, &names);
        let entry = f.get_first_basic_block().expect("the kernel's entry");
        let b = &self.b;
        let args = b.build_alloca(ptr.array_type(nops as u32), "args")?;
        let steps = b.build_alloca(i64t.array_type(nsteps as u32), "steps")?;
        let dims = b.build_alloca(i64t.array_type(ndims as u32), "dims")?;
        for k in 0..nsteps {
            b.build_store(self.slot(i64t, nsteps, steps, k)?, Self::param_int(f, nops + k))?;
        }
        for k in 0..ndims {
            let v = if k == 0 { i64t.const_int(1, false) } else { Self::param_int(f, nops + nsteps + k) };
            b.build_store(self.slot(i64t, ndims, dims, k)?, v)?;
        }
        let d0 = Self::param_int(f, nops + nsteps);
        let (scratch, slot) =
            (Self::param_ptr(f, nops + nsteps + ndims), Self::param_int(f, nops + nsteps + ndims + 1));
        let (start, stride) = self.grid_stride()?;
        let soff = b.build_int_mul(start, slot, "")?;
        // SAFETY: a getelementptr without `inbounds`; the host sized the
        // buffer for every thread's part.
        let mine = unsafe { b.build_gep(self.t.i8, scratch, &[soff], "mine")? };
        let (head, body, done) = (
            self.t.cx.append_basic_block(f, "head"),
            self.t.cx.append_basic_block(f, "body"),
            self.t.cx.append_basic_block(f, "done"),
        );
        b.build_unconditional_branch(head)?;
        b.position_at_end(head);
        let i = b.build_phi(i64t, "i")?;
        let iv = i.as_basic_value().into_int_value();
        let more = b.build_int_compare(IntPredicate::SLT, iv, d0, "")?;
        b.build_conditional_branch(more, body, done)?;
        b.position_at_end(body);
        for j in 0..nops {
            let o = b.build_int_mul(iv, Self::param_int(f, nops + j), "")?;
            // SAFETY: as for `mine`: the operand's element of iteration `i`.
            let a = unsafe { b.build_gep(self.t.i8, Self::param_ptr(f, j), &[o], "")? };
            b.build_store(self.slot(ptr, nops, args, j)?, a)?;
        }
        let lp = self.function(
            &crate::llvm::ufunc::loop_symbol(&u.symbol),
            self.t.cx.void_type().fn_type(&[ptr.into(), ptr.into(), ptr.into(), ptr.into()], false),
        );
        b.build_call(lp, &[args.into(), dims.into(), steps.into(), mine.into()], "")?;
        let next = b.build_int_add(iv, stride, "")?;
        b.build_unconditional_branch(head)?;
        i.add_incoming(&[(&start, entry), (&next, body)]);
        b.position_at_end(done);
        b.build_return(None)?;
        Ok(())
    }

    /// This thread's first index and the threads in the grid, for a
    /// grid-stride loop over the x axis.
    fn grid_stride(&self) -> R<(IntValue<'c>, IntValue<'c>)> {
        let tid = self.coordinate(GpuReg::ThreadIdx, Axis::X)?;
        let ntid = self.coordinate(GpuReg::BlockDim, Axis::X)?;
        let ctaid = self.coordinate(GpuReg::BlockIdx, Axis::X)?;
        let nctaid = self.coordinate(GpuReg::GridDim, Axis::X)?;
        let base = self.b.build_int_mul(ctaid, ntid, "")?;
        let start = self.b.build_int_add(base, tid, "start")?;
        let stride = self.b.build_int_mul(nctaid, ntid, "stride")?;
        Ok((start, stride))
    }

    /// The kernel of a `kernel` function (its parameters, a Bool as a
    /// byte) or of a plain `gpu` function (the same, then a pointer the
    /// result is stored to; launched on one thread).
    pub fn function_kernel(&self, g: &GpuFunction) -> R<()> {
        let t = &self.t;
        let mut params: Vec<BasicMetadataTypeEnum> =
            g.params.iter().map(|p| if p.tensor { t.ptr.into() } else { t.mem(p.dtype).into() }).collect();
        if g.ret.is_some() {
            params.push(t.ptr.into());
        }
        let f = self.kernel(&g.kernel, &params);
        let mut names: Vec<String> = (0..g.params.len()).map(|k| format!("a{k}")).collect();
        names.push("ret".to_owned());
        name_params(f, &names);
        let b = &self.b;
        let mut args: Vec<BasicMetadataValueEnum> = Vec::new();
        for (k, p) in g.params.iter().enumerate() {
            let a = f.get_nth_param(k as u32).expect("a kernel parameter");
            let v = if !p.tensor && p.dtype == DType::Bool {
                b.build_int_truncate(a.into_int_value(), t.i1, "")?.into()
            } else {
                a
            };
            args.push(v.into());
        }
        let body = self.function(&g.symbol, t.fn_type(&g.sig));
        let call = b.build_call(body, &args, "")?;
        for (i, a) in g.sig.param_attrs.iter().enumerate() {
            for attr in t.param_attrs(*a) {
                call.add_attribute(AttributeLoc::Param(i as u32), attr);
            }
        }
        for attr in t.param_attrs(g.sig.ret_attr) {
            call.add_attribute(AttributeLoc::Return, attr);
        }
        if let (Some(d), Some(r)) = (g.ret, call.try_as_basic_value().basic()) {
            let out = Self::param_ptr(f, g.params.len());
            let r = if d == DType::Bool { b.build_int_z_extend(r.into_int_value(), t.i8, "")?.into() } else { r };
            b.build_store(out, r)?;
        }
        b.build_return(None)?;
        Ok(())
    }

    /// Starts the body of the coordinate built-in `reg.axis`.
    fn coordinate_body(&self, reg: GpuReg, axis: Axis) -> FunctionValue<'c> {
        let f = self.function(&gpu_builtin_name(reg, axis), self.t.i64.fn_type(&[], false));
        f.set_linkage(Linkage::LinkOnceODR);
        self.b.position_at_end(self.t.cx.append_basic_block(f, ""));
        f
    }

    /// The coordinate built-ins of the target.
    pub fn coordinates(&self) -> R<()> {
        for reg in GpuReg::ALL {
            for axis in Axis::ALL {
                self.coordinate_body(reg, axis);
                let v = match self.arch {
                    Arch::Nvptx => self.nvptx_coordinate(reg, axis)?,
                    Arch::Amdgpu => self.amdgpu_coordinate(reg, axis)?,
                };
                self.b.build_return(Some(&v))?;
            }
        }
        Ok(())
    }

    /// A `i32 name()` intrinsic's value, widened.
    fn read_u32(&self, name: &str) -> R<IntValue<'c>> {
        let f = self.function(name, self.t.i32.fn_type(&[], false));
        let r = self.b.build_call(f, &[], "")?;
        let r = r.try_as_basic_value().basic().map(|v| v.into_int_value()).unwrap_or_else(|| self.t.i32.get_poison());
        self.b.build_int_z_extend(r, self.t.i64, "")
    }

    /// On NVPTX: the special registers.
    fn nvptx_coordinate(&self, reg: GpuReg, axis: Axis) -> R<IntValue<'c>> {
        let sreg = match reg {
            GpuReg::ThreadIdx => "tid",
            GpuReg::BlockIdx => "ctaid",
            GpuReg::BlockDim => "ntid",
            GpuReg::GridDim => "nctaid",
        };
        self.read_u32(&format!("llvm.nvvm.read.ptx.sreg.{sreg}.{}", axis.name()))
    }

    /// On AMDGPU: work-item and work-group ids, and the dispatch packet's
    /// work-group size (bytes 4, 6, 8) and grid size in work-items (bytes
    /// 12, 16, 20).
    fn amdgpu_coordinate(&self, reg: GpuReg, axis: Axis) -> R<IntValue<'c>> {
        let (a, i) = (axis.name(), axis.index() as u64);
        match reg {
            GpuReg::ThreadIdx => self.read_u32(&format!("llvm.amdgcn.workitem.id.{a}")),
            GpuReg::BlockIdx => self.read_u32(&format!("llvm.amdgcn.workgroup.id.{a}")),
            GpuReg::BlockDim | GpuReg::GridDim => {
                let constant = self.t.cx.ptr_type(AddressSpace::from(CONSTANT));
                let dispatch = self.function("llvm.amdgcn.dispatch.ptr", constant.fn_type(&[], false));
                let dp = self.b.build_call(dispatch, &[], "")?;
                let dp = dp
                    .try_as_basic_value()
                    .basic()
                    .map(|v| v.into_pointer_value())
                    .unwrap_or_else(|| constant.get_poison());
                let field = |off: u64, ty: inkwell::types::IntType<'c>, align: u32| -> R<IntValue<'c>> {
                    // SAFETY: within the dispatch packet.
                    let at = unsafe { self.b.build_gep(self.t.i8, dp, &[self.t.i64.const_int(off, false)], "")? };
                    let x = self.b.build_load(ty, at, "")?;
                    if let Some(l) = x.as_instruction_value() {
                        let _ = l.set_alignment(align);
                    }
                    self.b.build_int_z_extend(x.into_int_value(), self.t.i64, "")
                };
                let w = field(4 + 2 * i, self.t.i16, 2)?;
                if reg == GpuReg::BlockDim {
                    return Ok(w);
                }
                let g = field(12 + 4 * i, self.t.i32, 4)?;
                self.b.build_int_unsigned_div(g, w, "")
            }
        }
    }

    /// The barrier of a block (when a function synchronises), and the
    /// storage of every block-shared array: a global in the shared address
    /// space, reached through a generic pointer.
    pub fn cooperation(&self, functions: &[GpuFunction]) -> R<()> {
        let void = self.t.cx.void_type().fn_type(&[], false);
        if functions.iter().any(|g| g.barrier) {
            let f = self.function(postc_ir::builtins::SYNC_THREADS, void);
            f.set_linkage(Linkage::LinkOnceODR);
            add_flags(&self.t, f, &["convergent", "nounwind"]);
            self.b.position_at_end(self.t.cx.append_basic_block(f, ""));
            match self.arch {
                Arch::Nvptx => {
                    // `bar.sync 0`: every thread of the block.
                    let f = self.function(
                        "llvm.nvvm.barrier.cta.sync.aligned.all",
                        self.t.cx.void_type().fn_type(&[self.t.i32.into()], false),
                    );
                    add_flags(&self.t, f, &["convergent", "nounwind"]);
                    self.b.build_call(f, &[self.t.i32.const_zero().into()], "")?;
                }
                // As HIP's __syncthreads: the work-group's memory
                // operations before the barrier are visible to every
                // work-item after it.
                Arch::Amdgpu => {
                    self.workgroup_fence(inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingRelease);
                    self.barrier_call("llvm.amdgcn.s.barrier")?;
                    self.workgroup_fence(inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingAcquire);
                }
            }
            self.b.build_return(None)?;
        }
        for s in functions.iter().flat_map(|g| &g.shared) {
            let ty = self.t.i8.array_type(s.bytes as u32);
            let g = self.m.add_global(ty, Some(AddressSpace::from(SHARED)), &format!("{}.mem", s.symbol));
            g.set_initializer(&ty.get_poison());
            g.set_linkage(Linkage::Internal);
            g.set_alignment(16);
            let f = self.function(&s.symbol, self.t.ptr.fn_type(&[], false));
            f.set_linkage(Linkage::LinkOnceODR);
            add_flags(&self.t, f, &["nounwind"]);
            self.b.position_at_end(self.t.cx.append_basic_block(f, ""));
            let generic = g.as_pointer_value().const_address_space_cast(self.t.ptr);
            self.b.build_return(Some(&generic))?;
        }
        Ok(())
    }

    /// `postc_rt_stride` for the device, when the module calls it (the
    /// host's is in the runtime library, see `runtime/src/stride.c`): the
    /// byte stride of an axis, compact row-major when `strides` is null.
    pub fn runtime_stride(&self) -> R<()> {
        let Some(f) = self.m.get_function(crate::llvm::runtime::STRIDE).filter(|f| f.count_basic_blocks() == 0) else {
            return Ok(());
        };
        use crate::abi::dltensor::{NDIM, SHAPE, STRIDES};
        let (t, b) = (&self.t, &self.b);
        f.as_global_value().set_visibility(inkwell::GlobalVisibility::Default);
        f.set_linkage(Linkage::Internal);
        let (tensor, axis, elsize) = (Self::param_ptr(f, 0), Self::param_int(f, 1), Self::param_int(f, 2));
        let block = |name: &str| t.cx.append_basic_block(f, name);
        let (entry, given, compact, lp, body, done) =
            (block("entry"), block("given"), block("compact"), block("loop"), block("body"), block("done"));
        // SAFETY (every getelementptr here): within the `DLTensor` header
        // or its shape and strides arrays, whose rank the caller trusts.
        let field = |off: u64| unsafe { b.build_gep(t.i8, tensor, &[t.i64.const_int(off, false)], "") };
        b.position_at_end(entry);
        let strides = b.build_load(t.ptr, field(STRIDES)?, "strides")?.into_pointer_value();
        let nul = b.build_is_null(strides, "")?;
        b.build_conditional_branch(nul, compact, given)?;
        b.position_at_end(given);
        let e = unsafe { b.build_gep(t.i64, strides, &[axis], "")? };
        let s = b.build_load(t.i64, e, "")?.into_int_value();
        b.build_return(Some(&b.build_int_mul(s, elsize, "")?))?;
        b.position_at_end(compact);
        let nd32 = b.build_load(t.i32, field(NDIM)?, "")?.into_int_value();
        let nd = b.build_int_s_extend(nd32, t.i64, "nd")?;
        let shape = b.build_load(t.ptr, field(SHAPE)?, "shape")?.into_pointer_value();
        let k0 = b.build_int_add(axis, t.i64.const_int(1, false), "")?;
        b.build_unconditional_branch(lp)?;
        b.position_at_end(lp);
        let k = b.build_phi(t.i64, "k")?;
        let acc = b.build_phi(t.i64, "acc")?;
        let (kv, accv) = (k.as_basic_value().into_int_value(), acc.as_basic_value().into_int_value());
        let more = b.build_int_compare(IntPredicate::SLT, kv, nd, "")?;
        b.build_conditional_branch(more, body, done)?;
        b.position_at_end(body);
        let de = unsafe { b.build_gep(t.i64, shape, &[kv], "")? };
        let d = b.build_load(t.i64, de, "")?.into_int_value();
        let acc1 = b.build_int_mul(accv, d, "")?;
        let k1 = b.build_int_add(kv, t.i64.const_int(1, false), "")?;
        b.build_unconditional_branch(lp)?;
        k.add_incoming(&[(&k0, compact), (&k1, body)]);
        acc.add_incoming(&[(&elsize, compact), (&acc1, body)]);
        b.position_at_end(done);
        b.build_return(Some(&accv))?;
        Ok(())
    }

    /// A convergent barrier intrinsic's call.
    fn barrier_call(&self, name: &str) -> R<()> {
        let f = self.function(name, self.t.cx.void_type().fn_type(&[], false));
        add_flags(&self.t, f, &["convergent", "nounwind"]);
        self.b.build_call(f, &[], "")?;
        Ok(())
    }

    /// `fence syncscope("workgroup") ORDERING`.
    fn workgroup_fence(&self, ordering: inkwell::llvm_sys::LLVMAtomicOrdering) {
        use inkwell::llvm_sys::core::{LLVMBuildFenceSyncScope, LLVMGetSyncScopeID};
        let scope = "workgroup";
        // SAFETY: the context and builder are valid; the scope name is
        // valid for its length and the fence's name is NUL-terminated.
        unsafe {
            let id = LLVMGetSyncScopeID(self.t.cx.raw(), scope.as_ptr().cast(), scope.len());
            LLVMBuildFenceSyncScope(self.b.as_mut_ptr(), ordering, id, c"".as_ptr());
        }
    }
}
