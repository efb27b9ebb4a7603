//! The NumPy-facing entry points of a ufunc (docs/abi.md, "UFuncs").
//!
//! The body `NAME` computes one iteration (docs/ir-text.md, Semantics).
//! Its inner loop `NAME_loop` is the compiler-made function `ufunc-entry`
//! wrote, compiled with the program; emitted here are:
//!
//! - for a `gpu` ufunc's device code only, `void NAME_loop(char **args,
//!   const intptr_t *dimensions, const intptr_t *steps, void *data)`:
//!   NumPy's generalized-ufunc inner loop, as `ufunc-entry` writes it for
//!   the host but with the scratch copies in the buffer `data` points to
//!   (a device has no `malloc`; [`Plan::scratch_from_data`], which the
//!   unit tests below also leave off, for the host's `malloc`).
//!   `dimensions[0]` is the outer length, then the size of each distinct
//!   core dimension in order of first appearance; `steps[0..nops]` are the
//!   outer byte strides, then each operand's core byte strides. Scalars
//!   are loaded from (and a returned scalar stored to) the element
//!   pointers; array operands become `DLTensor` views of their core axes.
//! - for every ufunc, `void NAME_dl(DLTensor *op0, ..., DLTensor *opN)`: inputs then outputs,
//!   all as tensors. Checks device, dtype and rank, broadcasts the loop
//!   dimensions NumPy-style (right-aligned, size 1 stretches), checks the
//!   core sizes and the outputs' shape, and calls `NAME_loop` once per index
//!   of every loop axis but the innermost: a stub that hands the operands and
//!   the ufunc's descriptor to the driver shared by all ufuncs
//!   (`postc_rt_ufunc_dl` in the runtime library).
//!
//! Both reach the body through its C ABI (the one a C caller sees), which is
//! read back from the body's LLVM function type: a scalar parameter that is
//! a pointer receives the element's address (complex by pointer), any other
//! receives the loaded element; a returned output is stored, or, for a void
//! body with one more trailing pointer parameter, written through it.

use inkwell::attributes::AttributeLoc;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum, StructType};
use inkwell::values::{BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use postc_ir::{DType, Layout};

use crate::ufunc_plan::{MAX_LOOP_DIMS, SCRATCH_ALIGN};

/// The LLVM type of DLPack's `DLTensor`:
/// `{ ptr data, {i32, i32} device, i32 ndim, {i8, i8, i16} dtype,
///    ptr shape, ptr strides, i64 byte_offset }` (48 bytes on 64-bit hosts).
pub(crate) fn dltensor_type(cx: &Context) -> StructType<'_> {
    let ptr = cx.ptr_type(AddressSpace::default());
    let i32t = cx.i32_type();
    let device = cx.struct_type(&[i32t.into(), i32t.into()], false);
    let dtype = cx.struct_type(&[cx.i8_type().into(), cx.i8_type().into(), cx.i16_type().into()], false);
    cx.struct_type(
        &[ptr.into(), device.into(), i32t.into(), dtype.into(), ptr.into(), ptr.into(), cx.i64_type().into()],
        false,
    )
}

/// Field indices of `DLTensor`.
mod field {
    pub const DATA: u32 = 0;
    pub const DEVICE: u32 = 1;
    pub const NDIM: u32 = 2;
    pub const DTYPE: u32 = 3;
    pub const SHAPE: u32 = 4;
    pub const STRIDES: u32 = 5;
    pub const BYTE_OFFSET: u32 = 6;
}

/// The in-memory LLVM type of one element of a dtype (Bool is a byte).
fn element_type<'ctx>(cx: &'ctx Context, d: DType) -> BasicTypeEnum<'ctx> {
    match d {
        DType::Bool | DType::Int8 | DType::UInt8 => cx.i8_type().into(),
        DType::Int16 | DType::UInt16 => cx.i16_type().into(),
        DType::Int32 | DType::UInt32 => cx.i32_type().into(),
        DType::Int64 | DType::UInt64 => cx.i64_type().into(),
        DType::Float16 => cx.f16_type().into(),
        DType::Float32 => cx.f32_type().into(),
        DType::Float64 => cx.f64_type().into(),
        DType::Complex64 => cx.struct_type(&[cx.f32_type().into(), cx.f32_type().into()], false).into(),
        DType::Complex128 => cx.struct_type(&[cx.f64_type().into(), cx.f64_type().into()], false).into(),
        DType::Str | DType::Bytes => {
            cx.struct_type(&[cx.ptr_type(AddressSpace::default()).into(), cx.i64_type().into()], false).into()
        }
    }
}

use crate::ufunc_plan::{fixed_stride, Pass, Plan};

pub use crate::abi::{dl_symbol, loop_symbol};

/// Emits `NAME_dl` of every planned ufunc whose body `owned` says this
/// codegen unit defines (its `NAME_loop` is in the unit already).
pub(crate) fn emit_unit<'ctx>(
    cx: &'ctx Context,
    llmod: &Module<'ctx>,
    plans: &[Plan],
    shield: &crate::llvm::imports::Shield,
    owned: impl Fn(&str) -> bool,
) -> Result<(), String> {
    for plan in plans.iter().filter(|p| owned(&p.symbol)) {
        let symbol = loop_symbol(&plan.symbol);
        let lp = llmod
            .get_function(&shield.text_symbol(&symbol))
            .filter(|_| plan.loop_in_ir)
            .ok_or_else(|| format!("ufunc `{}` has no inner loop `{symbol}` (`ufunc-entry` writes it)", plan.name))?;
        Gen::new(cx, llmod, plan).emit_dl(lp)?;
    }
    Ok(())
}

/// Emits `SYMBOL_loop` and `SYMBOL_dl` for the ufunc of `plan` whose C-ABI
/// body is `body`, into `llmod`. The entry points take the body's linkage.
pub(crate) fn emit_entry_points<'ctx>(
    cx: &'ctx Context,
    llmod: &Module<'ctx>,
    plan: &Plan,
    body: FunctionValue<'ctx>,
) -> Result<(FunctionValue<'ctx>, FunctionValue<'ctx>), String> {
    let g = Gen::new(cx, llmod, plan);
    let lp = g.emit_loop(body)?;
    let dl = g.emit_dl(lp)?;
    let linkage = body.get_linkage();
    if matches!(linkage, Linkage::Private | Linkage::Internal) {
        lp.set_linkage(linkage);
        dl.set_linkage(linkage);
    }
    Ok((lp, dl))
}

/// What LLVM's loop passes may do with a loop of `NAME_loop`.
#[derive(Clone, Copy)]
pub(crate) enum LoopHint {
    /// Vectorise it, without interleaving vector iterations (the contiguous
    /// loop: its vector body is what runs).
    Vector,
    /// Neither vectorise nor unroll it (the strided loop: vector versions
    /// of it, on a stride of one byte or through gathers, never ran for
    /// wider elements and took most of a ufunc's compile time).
    Scalar,
    /// Leave it to LLVM, but without run-time unrolling (a loop of a POST
    /// function; see `postc_codegen::llvm::emit::body`).
    NoRuntimeUnroll,
}

/// An array operand of `NAME_loop`: its view tensor and, when its strides
/// do not suit the body, the scratch copy.
#[derive(Clone)]
struct View<'ctx> {
    tensor: PointerValue<'ctx>,
    /// Whether elements go through `scratch` (loop-invariant).
    copy: IntValue<'ctx>,
    scratch: PointerValue<'ctx>,
    sizes: Vec<IntValue<'ctx>>,
    /// Byte strides of the operand's core axes, and of the scratch copy.
    src_bytes: Vec<IntValue<'ctx>>,
    scratch_bytes: Vec<IntValue<'ctx>>,
    output: bool,
}

struct Gen<'a, 'ctx> {
    cx: &'ctx Context,
    llmod: &'a Module<'ctx>,
    plan: &'a Plan,
    b: Builder<'ctx>,
    i64t: inkwell::types::IntType<'ctx>,
    ptr: inkwell::types::PointerType<'ctx>,
    dlt: StructType<'ctx>,
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    fn new(cx: &'ctx Context, llmod: &'a Module<'ctx>, plan: &'a Plan) -> Self {
        Gen {
            cx,
            llmod,
            plan,
            b: cx.create_builder(),
            i64t: cx.i64_type(),
            ptr: cx.ptr_type(AddressSpace::default()),
            dlt: dltensor_type(cx),
        }
    }

    fn c(&self, v: u64) -> IntValue<'ctx> {
        self.i64t.const_int(v, false)
    }

    fn func(&self) -> FunctionValue<'ctx> {
        self.b.get_insert_block().and_then(|bb| bb.get_parent()).expect("positioned builder")
    }

    fn block(&self, name: &str) -> BasicBlock<'ctx> {
        self.cx.append_basic_block(self.func(), name)
    }

    /// Pointer to element `i` of an `i64` or `ptr` array at `base`.
    fn at(&self, ty: impl BasicType<'ctx>, base: PointerValue<'ctx>, i: IntValue<'ctx>) -> PointerValue<'ctx> {
        unsafe { self.b.build_in_bounds_gep(ty, base, &[i], "").unwrap() }
    }

    fn load_i64(&self, base: PointerValue<'ctx>, i: IntValue<'ctx>) -> IntValue<'ctx> {
        self.b.build_load(self.i64t, self.at(self.i64t, base, i), "").unwrap().into_int_value()
    }

    fn store_i64(&self, base: PointerValue<'ctx>, i: IntValue<'ctx>, v: IntValue<'ctx>) {
        self.b.build_store(self.at(self.i64t, base, i), v).unwrap();
    }

    fn byte_gep(&self, p: PointerValue<'ctx>, off: IntValue<'ctx>) -> PointerValue<'ctx> {
        unsafe { self.b.build_gep(self.cx.i8_type(), p, &[off], "").unwrap() }
    }

    fn alloca_array(&self, ty: impl BasicType<'ctx>, n: u64, name: &str) -> PointerValue<'ctx> {
        self.b.build_alloca(ty.array_type(n.max(1) as u32), name).unwrap()
    }

    fn field_ptr(&self, t: PointerValue<'ctx>, idx: u32) -> PointerValue<'ctx> {
        self.b.build_struct_gep(self.dlt, t, idx, "").unwrap()
    }

    /// A libc function, declared once.
    fn libc(&self, name: &str, ty: inkwell::types::FunctionType<'ctx>) -> FunctionValue<'ctx> {
        self.llmod.get_function(name).unwrap_or_else(|| self.llmod.add_function(name, ty, Some(Linkage::External)))
    }

    /// When `v.copy` holds, copies the core block of `v` from `src` to `dst`,
    /// element by element, with the given byte strides.
    fn copy_if(
        &self,
        v: &View<'ctx>,
        src: PointerValue<'ctx>,
        dst: PointerValue<'ctx>,
        src_bytes: &[IntValue<'ctx>],
        dst_bytes: &[IntValue<'ctx>],
        d: DType,
    ) {
        let yes = self.block("copy");
        let done = self.block("copy.done");
        self.b.build_conditional_branch(v.copy, yes, done).unwrap();
        self.b.position_at_end(yes);
        let ty = element_type(self.cx, d);
        #[allow(clippy::too_many_arguments)]
        fn nest<'ctx>(
            g: &Gen<'_, 'ctx>,
            a: usize,
            v: &View<'ctx>,
            s: PointerValue<'ctx>,
            t: PointerValue<'ctx>,
            sb: &[IntValue<'ctx>],
            tb: &[IntValue<'ctx>],
            ty: BasicTypeEnum<'ctx>,
        ) {
            if a == v.sizes.len() {
                let x = g.b.build_load(ty, s, "").unwrap();
                g.b.build_store(t, x).unwrap();
                return;
            }
            g.for_range(g.c(0), v.sizes[a], |k| {
                let s2 = g.byte_gep(s, g.b.build_int_mul(k, sb[a], "").unwrap());
                let t2 = g.byte_gep(t, g.b.build_int_mul(k, tb[a], "").unwrap());
                nest(g, a + 1, v, s2, t2, sb, tb, ty);
            });
        }
        nest(self, 0, v, src, dst, src_bytes, dst_bytes, ty);
        self.b.build_unconditional_branch(done).unwrap();
        self.b.position_at_end(done);
    }

    /// `postc_rt_panic`, which every failed check calls with the format
    /// `%s` and its message.
    fn fail_fn(&self) -> FunctionValue<'ctx> {
        if let Some(f) = self.llmod.get_function(crate::abi::PANIC) {
            return f;
        }
        let cx = self.cx;
        let f = self.llmod.add_function(crate::abi::PANIC, cx.void_type().fn_type(&[self.ptr.into()], true), None);
        for a in ["cold", "noreturn", "nounwind"] {
            let kind = inkwell::attributes::Attribute::get_named_enum_kind_id(a);
            f.add_attribute(inkwell::attributes::AttributeLoc::Function, cx.create_enum_attribute(kind, 0));
        }
        f
    }

    /// Branches to a panic `ufunc NAME: what` when `bad` holds.
    fn fail_if(&self, bad: IntValue<'ctx>, what: &str) {
        let fail = self.block("fail");
        let ok = self.block("ok");
        let br = self.b.build_conditional_branch(bad, fail, ok).unwrap();
        let weights = self.cx.metadata_node(&[
            self.cx.metadata_string("branch_weights").into(),
            self.cx.i32_type().const_int(1, false).into(),
            self.cx.i32_type().const_int(2000, false).into(),
        ]);
        let _ = br.set_metadata(weights, self.cx.get_kind_id("prof"));
        self.b.position_at_end(fail);
        let msg = format!("panic: ufunc {}: {}{}", self.plan.name, what, self.plan.at);
        let s = self.cstring(&msg, "postc.ufunc.msg");
        let fmt = self.cstring("%s", "postc.ufunc.fmt");
        self.b.build_call(self.fail_fn(), &[fmt.into(), s.into()], "").unwrap();
        self.b.build_unreachable().unwrap();
        self.b.position_at_end(ok);
    }

    /// `for (i = start; i < end; i++) body(i)`; the builder ends after it.
    fn for_range(&self, start: IntValue<'ctx>, end: IntValue<'ctx>, body: impl FnOnce(IntValue<'ctx>)) {
        self.counted_loop(start, end, None, body);
    }

    /// [`Gen::for_range`], the loop marked with `hint` for LLVM.
    fn counted_loop(
        &self,
        start: IntValue<'ctx>,
        end: IntValue<'ctx>,
        hint: Option<LoopHint>,
        body: impl FnOnce(IntValue<'ctx>),
    ) {
        let pre = self.b.get_insert_block().unwrap();
        let head = self.block("for.head");
        let bodyb = self.block("for.body");
        let exit = self.block("for.exit");
        self.b.build_unconditional_branch(head).unwrap();
        self.b.position_at_end(head);
        let phi = self.b.build_phi(self.i64t, "i").unwrap();
        phi.add_incoming(&[(&start, pre)]);
        let i = phi.as_basic_value().into_int_value();
        let more = self.b.build_int_compare(IntPredicate::SLT, i, end, "").unwrap();
        self.b.build_conditional_branch(more, bodyb, exit).unwrap();
        self.b.position_at_end(bodyb);
        body(i);
        let next = self.b.build_int_add(i, self.c(1), "").unwrap();
        let latch = self.b.get_insert_block().unwrap();
        let back = self.b.build_unconditional_branch(head).unwrap();
        if let Some(hint) = hint {
            mark_loop(self.cx, back, hint);
        }
        phi.add_incoming(&[(&next, latch)]);
        self.b.position_at_end(exit);
    }

    /// Converts a value loaded from memory to the body's parameter type.
    fn to_param(&self, v: BasicValueEnum<'ctx>, want: BasicTypeEnum<'ctx>) -> Result<BasicValueEnum<'ctx>, String> {
        if v.get_type() == want {
            return Ok(v);
        }
        match (v, want) {
            (BasicValueEnum::IntValue(x), BasicTypeEnum::IntType(t)) if t.get_bit_width() == 1 => {
                Ok(self.b.build_int_compare(IntPredicate::NE, x, x.get_type().const_zero(), "").unwrap().into())
            }
            _ => Err(format!(
                "ufunc `{}`: cannot pass a {:?} element as a {:?} parameter",
                self.plan.name,
                v.get_type(),
                want
            )),
        }
    }

    /// Fills the constant fields of a view tensor (all but `data`).
    fn init_view(&self, view: PointerValue<'ctx>, i: usize, shape: PointerValue<'ctx>, strides: PointerValue<'ctx>) {
        let cx = self.cx;
        let (code, bits) = crate::abi::dlpack_dtype(self.plan.dtypes[i]);
        let dev = self.field_ptr(view, field::DEVICE);
        let dev_t = cx.struct_type(&[cx.i32_type().into(), cx.i32_type().into()], false);
        let dev_v =
            dev_t.const_named_struct(&[cx.i32_type().const_int(1, false).into(), cx.i32_type().const_zero().into()]);
        self.b.build_store(dev, dev_v).unwrap();
        let nd = cx.i32_type().const_int(self.plan.core[i].len() as u64, false);
        self.b.build_store(self.field_ptr(view, field::NDIM), nd).unwrap();
        let dt_t = cx.struct_type(&[cx.i8_type().into(), cx.i8_type().into(), cx.i16_type().into()], false);
        let dt_v = dt_t.const_named_struct(&[
            cx.i8_type().const_int(code as u64, false).into(),
            cx.i8_type().const_int(bits as u64, false).into(),
            cx.i16_type().const_int(1, false).into(),
        ]);
        self.b.build_store(self.field_ptr(view, field::DTYPE), dt_v).unwrap();
        self.b.build_store(self.field_ptr(view, field::SHAPE), shape).unwrap();
        self.b.build_store(self.field_ptr(view, field::STRIDES), strides).unwrap();
        self.b.build_store(self.field_ptr(view, field::BYTE_OFFSET), self.c(0)).unwrap();
    }

    /// `void NAME_loop(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data)`
    fn emit_loop(&self, body: FunctionValue<'ctx>) -> Result<FunctionValue<'ctx>, String> {
        let plan = self.plan;
        let cx = self.cx;
        let p = self.ptr;
        let fty = cx.void_type().fn_type(&[p.into(), p.into(), p.into(), p.into()], false);
        let sym = loop_symbol(&plan.symbol);
        let f = self.llmod.add_function(&sym, fty, None);
        for (k, n) in ["args", "dimensions", "steps", "data"].iter().enumerate() {
            f.get_nth_param(k as u32).unwrap().set_name(n);
        }
        let args = f.get_nth_param(0).unwrap().into_pointer_value();
        let dims = f.get_nth_param(1).unwrap().into_pointer_value();
        let steps = f.get_nth_param(2).unwrap().into_pointer_value();
        let data = f.get_nth_param(3).unwrap().into_pointer_value();
        self.b.position_at_end(cx.append_basic_block(f, "entry"));

        let n = self.load_i64(dims, self.c(0));
        let sizes: Vec<IntValue> = (0..plan.dims.len()).map(|d| self.load_i64(dims, self.c(1 + d as u64))).collect();
        let mut bases = Vec::with_capacity(plan.nops);
        let mut outer = Vec::with_capacity(plan.nops);
        for i in 0..plan.nops {
            let a = self.at(p, args, self.c(i as u64));
            bases.push(self.b.build_load(p, a, "").unwrap().into_pointer_value());
            outer.push(self.load_i64(steps, self.c(i as u64)));
        }
        // One view tensor per array operand; only `data` changes per index.
        // When the operand's core strides differ from those the body's
        // parameter type fixes, each element goes through a compact scratch
        // copy in the type's order (copied back for outputs).
        // (On a device, the copies come from the thread's part of a buffer
        // the host allocated: `data`.)
        let from_data = plan.scratch_from_data;
        let (malloc, free) = if from_data {
            (None, None)
        } else {
            (
                Some(self.libc("malloc", p.fn_type(&[self.i64t.into()], false))),
                Some(self.libc("free", cx.void_type().fn_type(&[p.into()], false))),
            )
        };
        let mut scratch_at = self.c(0);
        let mut views: Vec<Option<View>> = vec![None; plan.nops];
        #[allow(clippy::needless_range_loop)] // `i` indexes the plan's parallel arrays
        for i in 0..plan.nops {
            if plan.pass[i] != Pass::View {
                continue;
            }
            let td = plan.types[i].as_ref().expect("a view's type");
            let nd = plan.core[i].len();
            let view = self.b.build_alloca(self.dlt, "view").unwrap();
            let shape = self.alloca_array(self.i64t, nd as u64, "view.shape");
            let strides = self.alloca_array(self.i64t, nd as u64, "view.strides");
            let size = plan.dtypes[i].size_bytes() as u64;
            let core_sizes: Vec<IntValue> = plan.core[i].iter().map(|&d| sizes[d]).collect();
            let mut bytes = Vec::with_capacity(nd);
            let mut copy = self.cx.bool_type().const_zero();
            #[allow(clippy::needless_range_loop)] // `a` indexes four parallel arrays
            for a in 0..nd {
                self.store_i64(shape, self.c(a as u64), core_sizes[a]);
                let st = self.load_i64(steps, self.c((plan.core_step_base(i) + a) as u64));
                if let Some(fx) = fixed_stride(td, a) {
                    let ne = self.b.build_int_compare(IntPredicate::NE, st, self.c(fx as u64), "").unwrap();
                    copy = self.b.build_or(copy, ne, "").unwrap();
                }
                bytes.push(st);
            }
            // Compact strides (elements) in the type's order.
            let mut compact = vec![self.c(1); nd];
            match td.layout {
                Layout::FOrder => {
                    for a in 1..nd {
                        compact[a] = self.b.build_int_mul(compact[a - 1], core_sizes[a - 1], "").unwrap();
                    }
                }
                _ => {
                    for a in (0..nd.saturating_sub(1)).rev() {
                        compact[a] = self.b.build_int_mul(compact[a + 1], core_sizes[a + 1], "").unwrap();
                    }
                }
            }
            if matches!(td.layout, Layout::Strides(_)) {
                self.fail_if(copy, &format!("operand {i} does not have the strides its parameter type declares"));
                copy = self.cx.bool_type().const_zero();
            }
            let mut elems = Vec::with_capacity(nd);
            for a in 0..nd {
                let el = if size > 1 {
                    let rem = self.b.build_int_signed_rem(bytes[a], self.c(size), "").unwrap();
                    let bad = self.b.build_int_compare(IntPredicate::NE, rem, self.c(0), "").unwrap();
                    let not_copied = self.b.build_not(copy, "").unwrap();
                    let bad = self.b.build_and(bad, not_copied, "").unwrap();
                    self.fail_if(bad, &format!("a core stride of operand {i} is not a multiple of its element size"));
                    self.b.build_int_signed_div(bytes[a], self.c(size), "").unwrap()
                } else {
                    bytes[a]
                };
                let el = self.b.build_select(copy, compact[a], el, "").unwrap().into_int_value();
                self.store_i64(strides, self.c(a as u64), el);
                elems.push(el);
            }
            let count = core_sizes.iter().fold(self.c(1), |acc, n| self.b.build_int_mul(acc, *n, "").unwrap());
            let nbytes = self.b.build_int_mul(count, self.c(size), "").unwrap();
            let scratch = match malloc {
                None => {
                    // This operand's part of the thread's scratch buffer.
                    let part = self.byte_gep(data, scratch_at);
                    let rounded = self.b.build_int_add(nbytes, self.c(SCRATCH_ALIGN - 1), "").unwrap();
                    let rounded = self.b.build_and(rounded, self.c(!(SCRATCH_ALIGN - 1)), "").unwrap();
                    scratch_at = self.b.build_int_add(scratch_at, rounded, "").unwrap();
                    let none = self.b.build_is_null(data, "").unwrap();
                    let missing = self.b.build_and(copy, none, "").unwrap();
                    self.fail_if(missing, &format!("operand {i} needs a scratch copy but the launch has no buffer"));
                    self.b.build_select(copy, part, p.const_null(), "scratch").unwrap().into_pointer_value()
                }
                Some(malloc) => {
                    // Only a copied operand allocates (a call per `NAME_loop` call).
                    let pre = self.b.get_insert_block().unwrap();
                    let alloc = self.block("scratch.alloc");
                    let have = self.block("scratch.done");
                    self.b.build_conditional_branch(copy, alloc, have).unwrap();
                    self.b.position_at_end(alloc);
                    let m = self
                        .b
                        .build_call(malloc, &[nbytes.into()], "scratch")
                        .unwrap()
                        .try_as_basic_value()
                        .basic()
                        .expect("malloc result")
                        .into_pointer_value();
                    self.b.build_unconditional_branch(have).unwrap();
                    self.b.position_at_end(have);
                    let phi = self.b.build_phi(p, "scratch").unwrap();
                    phi.add_incoming(&[(&m, alloc), (&p.const_null(), pre)]);
                    phi.as_basic_value().into_pointer_value()
                }
            };
            let compact_bytes: Vec<IntValue> =
                compact.iter().map(|c| self.b.build_int_mul(*c, self.c(size), "").unwrap()).collect();
            self.init_view(view, i, shape, strides);
            views[i] = Some(View {
                tensor: view,
                copy,
                scratch,
                sizes: core_sizes,
                src_bytes: bytes,
                scratch_bytes: compact_bytes,
                output: td.is_output,
            });
        }
        let core_args: Vec<IntValue> = plan.core_params.iter().map(|&d| sizes[d]).collect();

        let ptypes = body.get_type().get_param_types();
        let ret_ty = body.get_type().get_return_type();
        let this = self;
        let mut err = None;
        // One iteration, given each operand's element.
        let mut iteration = |elem: Vec<PointerValue<'ctx>>| {
            let mut call: Vec<BasicMetadataValueEnum> = Vec::new();
            let mut pi = 0usize;
            let mut out_ptr = None;
            for i in 0..plan.nops {
                match plan.pass[i] {
                    Pass::View => {
                        let v = views[i].as_ref().unwrap();
                        this.copy_if(v, elem[i], v.scratch, &v.src_bytes, &v.scratch_bytes, plan.dtypes[i]);
                        let data = this.b.build_select(v.copy, v.scratch, elem[i], "").unwrap();
                        this.b.build_store(this.field_ptr(v.tensor, field::DATA), data).unwrap();
                        call.push(v.tensor.into());
                        pi += 1;
                    }
                    Pass::Scalar => {
                        let want = ptypes.get(pi).copied();
                        match want {
                            Some(BasicMetadataTypeEnum::PointerType(_)) if !plan.dtypes[i].is_text() => {
                                call.push(elem[i].into())
                            }
                            Some(t) => {
                                let t = BasicTypeEnum::try_from(t).map_err(|_| ()).expect("basic parameter type");
                                let v = this.b.build_load(element_type(this.cx, plan.dtypes[i]), elem[i], "").unwrap();
                                match this.to_param(v, t) {
                                    Ok(v) => call.push(v.into()),
                                    Err(e) => err = Some(e),
                                }
                            }
                            None => err = Some(format!("ufunc `{}`: the body has too few parameters", plan.name)),
                        }
                        pi += 1;
                    }
                    Pass::Returned => out_ptr = Some((i, elem[i])),
                }
            }
            for c in &core_args {
                call.push((*c).into());
                pi += 1;
            }
            let through_pointer = ret_ty.is_none() && out_ptr.is_some() && pi + 1 == ptypes.len();
            if through_pointer {
                call.push(out_ptr.unwrap().1.into());
                pi += 1;
            }
            if pi != ptypes.len() {
                err = Some(format!(
                    "ufunc `{}`: the body takes {} parameters, the signature gives {pi}",
                    plan.name,
                    ptypes.len()
                ));
                return;
            }
            let r = this.b.build_call(body, &call, "").unwrap();
            // The callee's extension attributes (zeroext Bool, signext Int8,
            // ...) are part of its C ABI: the call site carries them too.
            for k in 0..ptypes.len() as u32 {
                for a in body.attributes(AttributeLoc::Param(k)) {
                    r.add_attribute(AttributeLoc::Param(k), a);
                }
            }
            for a in body.attributes(AttributeLoc::Return) {
                r.add_attribute(AttributeLoc::Return, a);
            }
            if let (Some((i, dst)), false) = (out_ptr, through_pointer) {
                let Some(v) = r.try_as_basic_value().basic() else {
                    err = Some(format!("ufunc `{}`: the body returns no value", plan.name));
                    return;
                };
                let mem = element_type(this.cx, plan.dtypes[i]);
                let v = match (v, mem) {
                    (BasicValueEnum::IntValue(x), BasicTypeEnum::IntType(t)) if x.get_type() != t => {
                        this.b.build_int_z_extend(x, t, "").unwrap().into()
                    }
                    _ => v,
                };
                this.b.build_store(dst, v).unwrap();
            }
            for (i, v) in views.iter().enumerate() {
                if let Some(v) = v.as_ref().filter(|v| v.output) {
                    this.copy_if(v, v.scratch, elem[i], &v.scratch_bytes, &v.src_bytes, plan.dtypes[i]);
                }
            }
        };
        // The elements `k` steps along, in bytes.
        let strided = |k: IntValue<'ctx>| -> Vec<PointerValue<'ctx>> {
            (0..plan.nops)
                .map(|i| {
                    let off = this.b.build_int_mul(k, outer[i], "").unwrap();
                    this.byte_gep(bases[i], off)
                })
                .collect()
        };
        if views.iter().all(Option::is_none) {
            // Elementwise: when every operand is contiguous (NumPy's usual
            // inner loop), a loop over element indices, which LLVM
            // vectorises with unit strides; otherwise the strided loop,
            // which it leaves scalar.
            let mut contiguous = self.cx.bool_type().const_all_ones();
            for (i, step) in outer.iter().enumerate() {
                let size = self.c(plan.dtypes[i].size_bytes() as u64);
                let unit = self.b.build_int_compare(IntPredicate::EQ, *step, size, "").unwrap();
                contiguous = self.b.build_and(contiguous, unit, "").unwrap();
            }
            let (fast, slow, done) = (self.block("contiguous"), self.block("strided"), self.block("done"));
            self.b.build_conditional_branch(contiguous, fast, slow).unwrap();
            self.b.position_at_end(fast);
            self.counted_loop(self.c(0), n, Some(LoopHint::Vector), |k| {
                let elem = (0..plan.nops)
                    .map(|i| unsafe {
                        let t = element_type(this.cx, plan.dtypes[i]);
                        this.b.build_gep(t, bases[i], &[k], "").unwrap()
                    })
                    .collect();
                iteration(elem)
            });
            self.b.build_unconditional_branch(done).unwrap();
            self.b.position_at_end(slow);
            self.counted_loop(self.c(0), n, Some(LoopHint::Scalar), |k| iteration(strided(k)));
            self.b.build_unconditional_branch(done).unwrap();
            self.b.position_at_end(done);
        } else {
            self.counted_loop(self.c(0), n, Some(LoopHint::Scalar), |k| iteration(strided(k)));
        }
        for v in views.iter().flatten() {
            let Some(free) = free else { break };
            let release = self.block("scratch.free");
            let done = self.block("scratch.freed");
            self.b.build_conditional_branch(v.copy, release, done).unwrap();
            self.b.position_at_end(release);
            self.b.build_call(free, &[v.scratch.into()], "").unwrap();
            self.b.build_unconditional_branch(done).unwrap();
            self.b.position_at_end(done);
        }
        if let Some(e) = err {
            unsafe { f.delete() };
            return Err(e);
        }
        self.b.build_return(None).unwrap();
        Ok(f)
    }

    /// A private NUL-terminated string constant.
    fn cstring(&self, text: &str, name: &str) -> PointerValue<'ctx> {
        self.constant(self.cx.const_string(text.as_bytes(), true), name)
    }

    /// A private constant global of `v`.
    fn constant(&self, v: impl BasicValue<'ctx>, name: &str) -> PointerValue<'ctx> {
        let v = v.as_basic_value_enum();
        let g = self.llmod.add_global(v.get_type(), None, name);
        g.set_initializer(&v);
        g.set_constant(true);
        g.set_linkage(Linkage::Private);
        g.set_unnamed_addr(true);
        g.as_pointer_value()
    }

    /// The ufunc's descriptor for the broadcasting driver (the layout of
    /// `postc_rt_ufunc_desc` in `runtime/include/postc_runtime.h`).
    fn descriptor(&self) -> PointerValue<'ctx> {
        let plan = self.plan;
        let (cx, p, i64t) = (self.cx, self.ptr, self.i64t);
        let op_t = cx.struct_type(
            &[i64t.into(), i64t.into(), i64t.into(), i64t.into(), i64t.into(), p.into(), p.into(), p.into()],
            false,
        );
        let dim_t = cx.struct_type(&[i64t.into(), i64t.into(), p.into()], false);
        let mut ops = Vec::with_capacity(plan.nops);
        for i in 0..plan.nops {
            let (code, bits) = crate::abi::dlpack_dtype(plan.dtypes[i]);
            let core = &plan.core[i];
            let core_p = if core.is_empty() {
                p.const_null()
            } else {
                let vals: Vec<IntValue> = core.iter().map(|&d| self.c(d as u64)).collect();
                self.constant(i64t.const_array(&vals), "postc.ufunc.core")
            };
            let sig = core.iter().map(|&d| plan.dims[d].0.as_str()).collect::<Vec<_>>().join(",");
            ops.push(op_t.const_named_struct(&[
                self.c(code as u64).into(),
                self.c(bits as u64).into(),
                self.c(plan.dtypes[i].size_bytes() as u64).into(),
                self.c(core.len() as u64).into(),
                self.c(plan.core_step_base(i) as u64).into(),
                core_p.into(),
                self.cstring(&plan.dtypes[i].to_string(), "postc.ufunc.dtype").into(),
                self.cstring(&sig, "postc.ufunc.sig").into(),
            ]));
        }
        let dims: Vec<_> = plan
            .dims
            .iter()
            .map(|(name, fixed)| {
                dim_t.const_named_struct(&[
                    self.c(fixed.is_some() as u64).into(),
                    self.c(fixed.unwrap_or(0)).into(),
                    self.cstring(name, "postc.ufunc.dim").into(),
                ])
            })
            .collect();
        let ops_p = self.constant(op_t.const_array(&ops), "postc.ufunc.ops");
        let dims_p =
            if dims.is_empty() { p.const_null() } else { self.constant(dim_t.const_array(&dims), "postc.ufunc.dims") };
        let maxcore = plan.core.iter().map(Vec::len).max().unwrap_or(0) as u64;
        let desc = cx.const_struct(
            &[
                self.c(plan.nin as u64).into(),
                self.c(plan.nops as u64).into(),
                self.c(plan.dims.len() as u64).into(),
                self.c(plan.num_steps() as u64).into(),
                self.c(MAX_LOOP_DIMS + maxcore).into(),
                self.cstring(&plan.name, "postc.ufunc.name").into(),
                self.cstring(&plan.at, "postc.ufunc.at").into(),
                ops_p.into(),
                dims_p.into(),
                self.c(plan.device_operands as u64).into(),
            ],
            false,
        );
        self.constant(desc, "postc.ufunc.desc")
    }

    /// `void NAME_dl(DLTensor *op0, ..., DLTensor *opN)`: the operands in an
    /// array, handed to the shared driver with the ufunc's descriptor.
    fn emit_dl(&self, lp: FunctionValue<'ctx>) -> Result<FunctionValue<'ctx>, String> {
        let plan = self.plan;
        let cx = self.cx;
        let p = self.ptr;
        let driver = driver_decl(cx, self.llmod);
        let params: Vec<BasicMetadataTypeEnum> = vec![p.into(); plan.nops];
        let f = self.llmod.add_function(&dl_symbol(&plan.symbol), cx.void_type().fn_type(&params, false), None);
        self.b.position_at_end(cx.append_basic_block(f, "entry"));
        let ops = self.alloca_array(p, plan.nops as u64, "ops");
        for i in 0..plan.nops {
            let t = f.get_nth_param(i as u32).unwrap().into_pointer_value();
            t.set_name(&format!("op{i}"));
            self.b.build_store(self.at(p, ops, self.c(i as u64)), t).unwrap();
        }
        let desc = self.descriptor();
        let lp = lp.as_global_value().as_pointer_value();
        self.b.build_call(driver, &[desc.into(), ops.into(), lp.into()], "").unwrap();
        self.b.build_return(None).unwrap();
        Ok(f)
    }
}

/// The declaration of the broadcasting driver of `NAME_dl` in `llmod`
/// (`postc_rt_ufunc_dl`, hidden in the runtime library).
fn driver_decl<'ctx>(cx: &'ctx Context, llmod: &Module<'ctx>) -> FunctionValue<'ctx> {
    llmod.get_function(crate::abi::UFUNC_DL).unwrap_or_else(|| {
        let p = cx.ptr_type(AddressSpace::default());
        let f = llmod.add_function(
            crate::abi::UFUNC_DL,
            cx.void_type().fn_type(&[p.into(), p.into(), p.into()], false),
            None,
        );
        f.as_global_value().set_visibility(inkwell::GlobalVisibility::Hidden);
        f
    })
}

/// Marks the loop whose back edge is `back` with `hint`: `!llvm.loop`
/// metadata, a node whose first operand is itself (made through a
/// temporary node), then the hint's properties.
pub(crate) fn mark_loop(cx: &Context, back: inkwell::values::InstructionValue<'_>, hint: LoopHint) {
    use inkwell::llvm_sys::core::{
        LLVMConstInt, LLVMGetMDKindIDInContext, LLVMInt1TypeInContext, LLVMInt32TypeInContext, LLVMMDNodeInContext2,
        LLVMMDStringInContext2, LLVMMetadataAsValue, LLVMSetMetadata, LLVMValueAsMetadata,
    };
    use inkwell::llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
    use inkwell::llvm_sys::prelude::LLVMMetadataRef;
    use inkwell::values::AsValueRef;
    let text = |s: &str| (s.as_ptr().cast::<std::ffi::c_char>(), s.len());
    // SAFETY: every call takes the unit's context and metadata made in
    // it; the strings outlive the calls, which copy them; the temporary
    // node is replaced (and so freed) before the node is attached.
    unsafe {
        let cx = cx.raw();
        let property = |name: &str, value: Option<LLVMMetadataRef>| {
            let (p, n) = text(name);
            let mut ops = vec![LLVMMDStringInContext2(cx, p, n)];
            ops.extend(value);
            LLVMMDNodeInContext2(cx, ops.as_mut_ptr(), ops.len())
        };
        let tmp = LLVMTemporaryMDNode(cx, std::ptr::null_mut(), 0);
        let mut ops = vec![tmp];
        match hint {
            LoopHint::Scalar => {
                let off = LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(cx), 0, 0));
                ops.push(property("llvm.loop.vectorize.enable", Some(off)));
                ops.push(property("llvm.loop.unroll.disable", None));
            }
            LoopHint::Vector => {
                let one = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(cx), 1, 0));
                ops.push(property("llvm.loop.interleave.count", Some(one)));
            }
            LoopHint::NoRuntimeUnroll => ops.push(property("llvm.loop.unroll.runtime.disable", None)),
        }
        let id = LLVMMDNodeInContext2(cx, ops.as_mut_ptr(), ops.len());
        LLVMMetadataReplaceAllUsesWith(tmp, id);
        let (kind, kind_len) = text("llvm.loop");
        let kind = LLVMGetMDKindIDInContext(cx, kind, kind_len as u32);
        LLVMSetMetadata(back.as_value_ref(), kind, LLVMMetadataAsValue(cx, id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine};
    use inkwell::OptimizationLevel;

    const SRC: &str = r#"module uf
ufunc axpy(%a: Float64, %x: Float64, %y: Float64) -> Float64 "(),(),()->()" {
entry:
  %ax: Float64 = mul %a, %x
  %r: Float64 = add %ax, %y
  return %r
}
ufunc rowdot(%a: Float64[]Shape[?], %b: Float64[]Shape[?]) -> Float64 "(n),(n)->()" core(%n: Int64) {
entry:
  %z: Float64 = const 0.0
  return %z
}
ufunc mm(%a: Float64[]Shape[?, ?], %b: Float64[]Shape[?, ?], %c: &Float64[]Shape[?, ?]) "(m,k),(k,n)->(m,n)" core(%m: Int64, %k: Int64, %n: Int64) {
entry:
  return
}
ufunc cross(%a: Float32[]Shape[3], %b: Float32[]Shape[3], %c: &Float32[]Shape[3]) "(3),(3)->(3)" {
entry:
  return
}
ufunc cscale(%a: Complex128, %s: Float64) -> Complex128 "(),()->()" {
entry:
  return %a
}
ufunc twice(%a: Float64[]Shape[3], %b: &Float64[]Shape[3]) "(3)->(3)" {
entry:
  return
}
ufunc isneg(%a: Int16) -> Bool "()->()" {
entry:
  %z: Bool = const false
  return %z
}
"#;

    #[test]
    fn plans_follow_numpy_dimension_order() {
        let m = postc_ir::parse::parse_str("uf.pir", SRC).unwrap();
        let f = |n: &str| &m.functions[m.get_function(n).unwrap()];
        let p = Plan::new(&m, f("mm")).unwrap();
        assert_eq!(p.nops, 3);
        assert_eq!(p.dims.iter().map(|d| d.0.as_str()).collect::<Vec<_>>(), ["m", "k", "n"]);
        assert_eq!(p.core, vec![vec![0, 1], vec![1, 2], vec![0, 2]]);
        assert_eq!(p.core_params, vec![0, 1, 2]);
        assert_eq!(p.num_steps(), 3 + 6);
        let p = Plan::new(&m, f("cross")).unwrap();
        assert_eq!(p.dims, vec![("3".to_string(), Some(3))]);
        assert!(p.core_params.is_empty());
        let p = Plan::new(&m, f("rowdot")).unwrap();
        assert_eq!(p.pass, vec![Pass::View, Pass::View, Pass::Returned]);
        assert!(p.at.starts_with(" at uf.pir:"), "{}", p.at);
    }

    /// Declares C-ABI bodies for the test ufuncs with simple definitions
    /// (written here directly in LLVM, standing in for compiled bodies).
    fn bodies<'ctx>(cx: &'ctx Context, md: &Module<'ctx>) {
        let f64t = cx.f64_type();
        let i64t = cx.i64_type();
        let p = cx.ptr_type(AddressSpace::default());
        let b = cx.create_builder();
        // double axpy(double a, double x, double y) = a*x + y
        let f = md.add_function("axpy", f64t.fn_type(&[f64t.into(), f64t.into(), f64t.into()], false), None);
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let a = f.get_nth_param(0).unwrap().into_float_value();
        let x = f.get_nth_param(1).unwrap().into_float_value();
        let y = f.get_nth_param(2).unwrap().into_float_value();
        let ax = b.build_float_mul(a, x, "").unwrap();
        b.build_return(Some(&b.build_float_add(ax, y, "").unwrap())).unwrap();
        // double rowdot(DLTensor *a, DLTensor *b, int64_t n): sums a[i]*b[i]
        // through the views' strides.
        let f = md.add_function("rowdot", f64t.fn_type(&[p.into(), p.into(), i64t.into()], false), None);
        let entry = cx.append_basic_block(f, "entry");
        let head = cx.append_basic_block(f, "head");
        let body = cx.append_basic_block(f, "body");
        let done = cx.append_basic_block(f, "done");
        b.position_at_end(entry);
        let dlt = dltensor_type(cx);
        let load_view = |t: PointerValue<'ctx>| {
            let data = b.build_load(p, b.build_struct_gep(dlt, t, 0, "").unwrap(), "").unwrap().into_pointer_value();
            let sp = b.build_load(p, b.build_struct_gep(dlt, t, 5, "").unwrap(), "").unwrap().into_pointer_value();
            let s = b.build_load(i64t, sp, "").unwrap().into_int_value();
            (data, s)
        };
        let (da, sa) = load_view(f.get_nth_param(0).unwrap().into_pointer_value());
        let (db, sb) = load_view(f.get_nth_param(1).unwrap().into_pointer_value());
        let n = f.get_nth_param(2).unwrap().into_int_value();
        b.build_unconditional_branch(head).unwrap();
        b.position_at_end(head);
        let i = b.build_phi(i64t, "i").unwrap();
        let acc = b.build_phi(f64t, "acc").unwrap();
        i.add_incoming(&[(&i64t.const_zero(), entry)]);
        acc.add_incoming(&[(&f64t.const_zero(), entry)]);
        let iv = i.as_basic_value().into_int_value();
        let more = b.build_int_compare(IntPredicate::SLT, iv, n, "").unwrap();
        b.build_conditional_branch(more, body, done).unwrap();
        b.position_at_end(body);
        let ea = unsafe { b.build_gep(f64t, da, &[b.build_int_mul(iv, sa, "").unwrap()], "").unwrap() };
        let eb = unsafe { b.build_gep(f64t, db, &[b.build_int_mul(iv, sb, "").unwrap()], "").unwrap() };
        let va = b.build_load(f64t, ea, "").unwrap().into_float_value();
        let vb = b.build_load(f64t, eb, "").unwrap().into_float_value();
        let prod = b.build_float_mul(va, vb, "").unwrap();
        let acc2 = b.build_float_add(acc.as_basic_value().into_float_value(), prod, "").unwrap();
        let i2 = b.build_int_add(iv, i64t.const_int(1, false), "").unwrap();
        i.add_incoming(&[(&i2, body)]);
        acc.add_incoming(&[(&acc2, body)]);
        b.build_unconditional_branch(head).unwrap();
        b.position_at_end(done);
        b.build_return(Some(&acc.as_basic_value())).unwrap();
        // void cscale(const double _Complex *a, double s, double _Complex *out)
        let f = md.add_function("cscale", cx.void_type().fn_type(&[p.into(), f64t.into(), p.into()], false), None);
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let c = cx.struct_type(&[f64t.into(), f64t.into()], false);
        let a = f.get_nth_param(0).unwrap().into_pointer_value();
        let s = f.get_nth_param(1).unwrap().into_float_value();
        let out = f.get_nth_param(2).unwrap().into_pointer_value();
        for k in 0..2 {
            let src = b.build_struct_gep(c, a, k, "").unwrap();
            let v = b.build_load(f64t, src, "").unwrap().into_float_value();
            let dst = b.build_struct_gep(c, out, k, "").unwrap();
            b.build_store(dst, b.build_float_mul(v, s, "").unwrap()).unwrap();
        }
        b.build_return(None).unwrap();
        // void twice(DLTensor *a, DLTensor *b): b[i] = 2 a[i] for i < 3,
        // reading both as contiguous, as a compiled body of these
        // static-shape C-order parameter types does.
        let f = md.add_function("twice", cx.void_type().fn_type(&[p.into(), p.into()], false), None);
        let entry = cx.append_basic_block(f, "entry");
        let head = cx.append_basic_block(f, "head");
        let body = cx.append_basic_block(f, "body");
        let done = cx.append_basic_block(f, "done");
        b.position_at_end(entry);
        let data = |t: PointerValue<'ctx>| {
            b.build_load(p, b.build_struct_gep(dlt, t, 0, "").unwrap(), "").unwrap().into_pointer_value()
        };
        let da = data(f.get_nth_param(0).unwrap().into_pointer_value());
        let db = data(f.get_nth_param(1).unwrap().into_pointer_value());
        let n = i64t.const_int(3, false);
        b.build_unconditional_branch(head).unwrap();
        b.position_at_end(head);
        let i = b.build_phi(i64t, "i").unwrap();
        i.add_incoming(&[(&i64t.const_zero(), entry)]);
        let iv = i.as_basic_value().into_int_value();
        let more = b.build_int_compare(IntPredicate::SLT, iv, n, "").unwrap();
        b.build_conditional_branch(more, body, done).unwrap();
        b.position_at_end(body);
        let ea = unsafe { b.build_gep(f64t, da, &[iv], "").unwrap() };
        let eb = unsafe { b.build_gep(f64t, db, &[iv], "").unwrap() };
        let va = b.build_load(f64t, ea, "").unwrap().into_float_value();
        b.build_store(eb, b.build_float_add(va, va, "").unwrap()).unwrap();
        let i2 = b.build_int_add(iv, i64t.const_int(1, false), "").unwrap();
        i.add_incoming(&[(&i2, body)]);
        b.build_unconditional_branch(head).unwrap();
        b.position_at_end(done);
        b.build_return(None).unwrap();
        // _Bool isneg(int16_t a), with the C ABI's extension attributes
        let f = md.add_function("isneg", cx.bool_type().fn_type(&[cx.i16_type().into()], false), None);
        let ext = |n: &str| cx.create_enum_attribute(inkwell::attributes::Attribute::get_named_enum_kind_id(n), 0);
        f.add_attribute(AttributeLoc::Param(0), ext("signext"));
        f.add_attribute(AttributeLoc::Return, ext("zeroext"));
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let a = f.get_nth_param(0).unwrap().into_int_value();
        let r = b.build_int_compare(IntPredicate::SLT, a, cx.i16_type().const_zero(), "").unwrap();
        b.build_return(Some(&r)).unwrap();
    }

    fn build(dir: &std::path::Path) -> std::path::PathBuf {
        let m = postc_ir::parse::parse_str("uf.pir", SRC).unwrap();
        let cx = Context::create();
        let md = cx.create_module("uf");
        bodies(&cx, &md);
        for name in ["axpy", "rowdot", "cscale", "twice", "isneg"] {
            let plan = Plan::new(&m, &m.functions[m.get_function(name).unwrap()]).unwrap();
            emit_entry_points(&cx, &md, &plan, md.get_function(name).unwrap()).unwrap();
        }
        // The device's flavour of `twice_loop`, named `twice.dev_loop`:
        // scratch copies from `data`, never `malloc`.
        let mut plan = Plan::new(&m, &m.functions[m.get_function("twice").unwrap()]).unwrap();
        plan.symbol = "twice.dev".into();
        plan.scratch_from_data = true;
        assert_eq!(plan.scratch_operands(), vec![0, 1]);
        assert_eq!(plan.fixed_core_strides(0), vec![(0, 8)]);
        let (lp, _) = emit_entry_points(&cx, &md, &plan, md.get_function("twice").unwrap()).unwrap();
        for bb in lp.get_basic_blocks() {
            for i in bb.get_instructions().filter(|i| i.get_opcode() == inkwell::values::InstructionOpcode::Call) {
                let callee = i.get_operand(i.get_num_operands() - 1).and_then(|o| o.value());
                let name = callee.map(|c| c.get_name().to_string_lossy().into_owned()).unwrap_or_default();
                assert!(name != "malloc" && name != "free", "the device loop calls {name}");
            }
        }
        md.verify().unwrap_or_else(|e| panic!("{}\n{}", e.to_string(), md.print_to_string().to_string()));
        let tm = native_machine(&md);
        md.run_passes("default<O2>", &tm, inkwell::passes::PassBuilderOptions::create()).unwrap();
        let obj = dir.join("uf.o");
        tm.write_to_file(&md, FileType::Object, &obj).unwrap();
        obj
    }

    /// A generic target machine of the host, with `md` set up for it.
    fn native_machine(md: &inkwell::module::Module<'_>) -> TargetMachine {
        Target::initialize_native(&InitializationConfig::default()).unwrap();
        let triple = TargetMachine::get_default_triple();
        let tm = Target::from_triple(&triple)
            .unwrap()
            .create_target_machine(
                &triple,
                "generic",
                "",
                OptimizationLevel::Default,
                RelocMode::PIC,
                CodeModel::Default,
            )
            .unwrap();
        md.set_triple(&triple);
        md.set_data_layout(&tm.get_target_data().get_data_layout());
        tm
    }

    /// An elementwise ufunc's loop has a contiguous version over element
    /// indices, which LLVM vectorises, and a strided one marked scalar; a
    /// gufunc's loop is the strided one alone.
    #[test]
    fn contiguous_loops_vectorise_and_strided_ones_stay_scalar() {
        let m = postc_ir::parse::parse_str("uf.pir", SRC).unwrap();
        let cx = Context::create();
        let md = cx.create_module("uf");
        bodies(&cx, &md);
        for name in ["axpy", "rowdot"] {
            let plan = Plan::new(&m, &m.functions[m.get_function(name).unwrap()]).unwrap();
            emit_entry_points(&cx, &md, &plan, md.get_function(name).unwrap()).unwrap();
        }
        md.verify().unwrap_or_else(|e| panic!("{}", e.to_string()));
        use inkwell::values::AnyValue;
        let text = |f: &str| md.get_function(f).unwrap().print_to_string().to_string();
        let axpy = text("axpy_loop");
        assert!(axpy.contains("contiguous:") && axpy.contains("strided:"), "{axpy}");
        assert_eq!(axpy.matches("!llvm.loop").count(), 2, "{axpy}");
        assert_eq!(text("rowdot_loop").matches("!llvm.loop").count(), 1);
        let tm = native_machine(&md);
        let module = md.print_to_string().to_string();
        assert!(module.contains("!{!\"llvm.loop.vectorize.enable\", i1 false}"), "{module}");
        assert!(module.contains("!{!\"llvm.loop.unroll.disable\"}") && module.contains("llvm.loop.interleave.count"));
        md.run_passes("default<O2>", &tm, inkwell::passes::PassBuilderOptions::create()).unwrap();
        let axpy = text("axpy_loop");
        assert!(axpy.contains("load <2 x double>"), "the contiguous loop is not vectorised:\n{axpy}");
        assert!(!axpy.contains("masked.gather"), "{axpy}");
    }

    /// Links the entry points with a C caller and runs it: the NumPy loop
    /// convention, broadcasting, strides NULL and explicit, byte_offset,
    /// complex by pointer, Bool results, and the panics.
    #[test]
    fn entry_points_run_from_c() {
        let dir = std::env::temp_dir().join(format!("postc-ufunc-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let obj = build(&dir);
        let inc = concat!(env!("CARGO_MANIFEST_DIR"), "/../include");
        let c = dir.join("main.c");
        std::fs::write(&c, C_MAIN).unwrap();
        let exe = dir.join("main");
        let st = std::process::Command::new("cc")
            .args(["-std=c11", "-Wall", "-O1", "-I", inc])
            .arg(&c)
            .arg(&obj)
            .arg(postc_runtime::STATIC_LIB_PATH)
            .arg("-ldl")
            .arg("-o")
            .arg(&exe)
            .status();
        let Ok(st) = st else {
            eprintln!("skipped: no C compiler `cc`");
            return;
        };
        assert!(st.success());
        let out = std::process::Command::new(&exe).output().unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        for (arg, msg) in [
            ("bcast", "panic: ufunc axpy: operands could not be broadcast together at uf.pir:2:1\n"),
            ("dtype", "panic: ufunc axpy: input operand 1 is not a Float64 tensor at uf.pir:2:1\n"),
            ("core", "panic: ufunc rowdot: core dimension `n` of operand 1 does not match its size in an earlier operand at uf.pir:8:1\n"),
            ("outshape", "panic: ufunc axpy: output operand 3 does not have the broadcast loop shape at uf.pir:2:1\n"),
            ("rank", "panic: ufunc rowdot: input operand 0 has fewer dimensions than its core signature (n) at uf.pir:8:1\n"),
            (
                "noscratch",
                "panic: ufunc twice: operand 0 needs a scratch copy but the launch has no buffer at uf.pir:25:1\n",
            ),
        ] {
            let out = std::process::Command::new(&exe).arg(arg).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stderr), msg, "{arg}");
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(out.status.signal(), Some(6), "{arg}: SIGABRT");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    const C_MAIN: &str = r#"
#include "postc.h"
#include <complex.h>
#include <stdio.h>
#include <string.h>
void axpy_loop(char **, const intptr_t *, const intptr_t *, void *);
void axpy_dl(DLTensor *, DLTensor *, DLTensor *, DLTensor *);
void rowdot_loop(char **, const intptr_t *, const intptr_t *, void *);
void rowdot_dl(DLTensor *, DLTensor *, DLTensor *);
void cscale_dl(DLTensor *, DLTensor *, DLTensor *);
void isneg_dl(DLTensor *, DLTensor *);
void twice_dl(DLTensor *, DLTensor *);
void twice_dev_loop(char **, const intptr_t *, const intptr_t *, void *) __asm__("twice.dev_loop");
static DLTensor T(void *data, int nd, int64_t *shape, int64_t *strides, DLDataType dt) {
  DLTensor t = {data, {kDLCPU, 0}, nd, dt, shape, strides, 0};
  return t;
}
#define CHECK(c) do { if (!(c)) { printf("line %d: %s\n", __LINE__, #c); return 1; } } while (0)
int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  /* NumPy convention: axpy over 4 elements, a broadcast (step 0). */
  double a = 2.0, x[4] = {1, 2, 3, 4}, y[8] = {10, 0, 20, 0, 30, 0, 40, 0}, r[4];
  char *args[4] = {(char *)&a, (char *)x, (char *)y, (char *)r};
  intptr_t dims[1] = {4}, steps[4] = {0, 8, 16, 8};
  axpy_loop(args, dims, steps, NULL);
  for (int i = 0; i < 4; i++) CHECK(r[i] == 2.0 * x[i] + y[2 * i]);
  /* rowdot over 2 rows of a 2x3 matrix with a shared vector. */
  double m[6] = {1, 2, 3, 4, 5, 6}, v[3] = {1, 10, 100}, d[2];
  char *a2[3] = {(char *)m, (char *)v, (char *)d};
  intptr_t dims2[2] = {2, 3}, steps2[5] = {24, 0, 8, 8, 8};
  rowdot_loop(a2, dims2, steps2, NULL);
  CHECK(d[0] == 321 && d[1] == 654);
  /* _dl: (2,3) + (3,) broadcast, scalar a as a 0-d tensor, output (2,3). */
  int64_t s23[2] = {2, 3}, s3[1] = {3}, s1[1] = {1};
  double out[6], aa = 3.0, yy[3] = {1, 2, 3};
  DLTensor ta = T(&aa, 0, NULL, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tx = T(m, 2, s23, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor ty = T(yy, 1, s3, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor to = T(out, 2, s23, NULL, POSTC_DTYPE_FLOAT64);
  axpy_dl(&ta, &tx, &ty, &to);
  for (int i = 0; i < 6; i++) CHECK(out[i] == 3.0 * m[i] + yy[i % 3]);
  /* Transposed x (explicit strides), y as a (1,) stretched, byte_offset. */
  int64_t s32[2] = {3, 2}, st_t[2] = {1, 3}, st_o[2] = {2, 1};
  double out2[6], yb[2] = {-1, 5};
  DLTensor txt = T(m, 2, s32, st_t, POSTC_DTYPE_FLOAT64);
  DLTensor ty1 = T(yb, 1, s1, NULL, POSTC_DTYPE_FLOAT64);
  ty1.byte_offset = 8;
  DLTensor to2 = T(out2, 2, s32, st_o, POSTC_DTYPE_FLOAT64);
  axpy_dl(&ta, &txt, &ty1, &to2);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) CHECK(out2[i * 2 + j] == 3.0 * m[j * 3 + i] + 5);
  /* Three loop dims with a zero-size axis: nothing is written. */
  int64_t s203[3] = {2, 0, 3};
  double never = 7;
  DLTensor tz = T(&never, 3, s203, NULL, POSTC_DTYPE_FLOAT64);
  axpy_dl(&ta, &tz, &ty, &tz);
  CHECK(never == 7);
  /* rowdot_dl over (2,2,3) rows with a (3,) vector; output (2,2). */
  double cube[12], res[4];
  for (int i = 0; i < 12; i++) cube[i] = i;
  int64_t s223[3] = {2, 2, 3}, s22[2] = {2, 2};
  DLTensor tc = T(cube, 3, s223, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tv = T(v, 1, s3, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tr = T(res, 2, s22, NULL, POSTC_DTYPE_FLOAT64);
  rowdot_dl(&tc, &tv, &tr);
  for (int i = 0; i < 4; i++) CHECK(res[i] == cube[3 * i] + 10 * cube[3 * i + 1] + 100 * cube[3 * i + 2]);
  /* A strided vector operand goes through a compact copy. */
  double v2[6] = {1, -1, 10, -1, 100, -1};
  int64_t st2[1] = {2};
  DLTensor tv2 = T(v2, 1, s3, st2, POSTC_DTYPE_FLOAT64);
  double res2[4];
  DLTensor tr2 = T(res2, 2, s22, NULL, POSTC_DTYPE_FLOAT64);
  rowdot_dl(&tc, &tv2, &tr2);
  for (int i = 0; i < 4; i++) CHECK(res2[i] == res[i]);
  /* (3)->(3) over the columns of a 3x2 C array (core stride 2) into the
   * rows of a transposed output: copied in, and the output copied back. */
  double src[6] = {1, 2, 3, 4, 5, 6}, dst[6] = {0};
  int64_t s2x3[2] = {2, 3}, stc[2] = {1, 2}, str[2] = {1, 2};
  DLTensor tsrc = T(src, 2, s2x3, stc, POSTC_DTYPE_FLOAT64); /* src.T */
  DLTensor tdst = T(dst, 2, s2x3, str, POSTC_DTYPE_FLOAT64); /* dst.T, F order */
  twice_dl(&tsrc, &tdst);
  for (int i = 0; i < 6; i++) CHECK(dst[i] == 2 * src[i]);
  /* The device's loop: the same two columns (core step 16 bytes), copies in
   * the 2 x 32 bytes of `data` (each operand's 24 rounded to 16), and none
   * beyond; contiguous operands need no buffer. */
  {
    unsigned char scratch[80];
    memset(scratch, 0xAB, sizeof scratch);
    double col_out[6] = {0};
    char *dargs[2] = {(char *)src, (char *)col_out};
    intptr_t ddims[2] = {2, 3}, dsteps[4] = {8, 8, 16, 16};
    twice_dev_loop(dargs, ddims, dsteps, scratch);
    for (int i = 0; i < 6; i++) CHECK(col_out[i] == 2 * src[i]);
    double last_in[3];
    memcpy(last_in, scratch, sizeof last_in);
    CHECK(last_in[0] == 2 && last_in[1] == 4 && last_in[2] == 6);
    for (int k = 64; k < 80; k++) CHECK(scratch[k] == 0xAB);
    double rows_out[6] = {0};
    char *cargs[2] = {(char *)src, (char *)rows_out};
    intptr_t csteps[4] = {24, 24, 8, 8};
    twice_dev_loop(cargs, ddims, csteps, NULL);
    for (int i = 0; i < 6; i++) CHECK(rows_out[i] == 2 * src[i]);
    if (!strcmp(mode, "noscratch")) twice_dev_loop(dargs, ddims, dsteps, NULL);
  }
  /* complex by pointer through the loop, written through the out pointer. */
  double _Complex z[2] = {1 + 2 * I, -3 + 0.5 * I}, zr[2];
  double sc = 2;
  DLTensor tzc = T(z, 1, s1, NULL, POSTC_DTYPE_COMPLEX128);
  int64_t s2[1] = {2};
  tzc.shape = s2;
  DLTensor tsc = T(&sc, 0, NULL, NULL, POSTC_DTYPE_FLOAT64);
  DLTensor tzr = T(zr, 1, s2, NULL, POSTC_DTYPE_COMPLEX128);
  cscale_dl(&tzc, &tsc, &tzr);
  CHECK(zr[0] == 2 + 4 * I && zr[1] == -6 + 1 * I);
  /* Bool results are bytes 0/1. */
  int16_t iv[4] = {-1, 0, 5, -7};
  _Bool bv[4];
  int64_t s4[1] = {4};
  DLTensor ti = T(iv, 1, s4, NULL, POSTC_DTYPE_INT16);
  DLTensor tb = T(bv, 1, s4, NULL, POSTC_DTYPE_BOOL);
  isneg_dl(&ti, &tb);
  CHECK(bv[0] == 1 && bv[1] == 0 && bv[2] == 0 && bv[3] == 1);
  /* Failures. */
  if (!strcmp(mode, "bcast")) {
    int64_t s2b[1] = {2};
    DLTensor bad = T(yy, 1, s2b, NULL, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &tx, &bad, &to);
  }
  if (!strcmp(mode, "dtype")) {
    DLTensor bad = T(yy, 1, s3, NULL, POSTC_DTYPE_FLOAT32);
    axpy_dl(&ta, &bad, &ty, &to);
  }
  if (!strcmp(mode, "core")) {
    int64_t s4b[1] = {4};
    DLTensor bad = T(cube, 1, s4b, NULL, POSTC_DTYPE_FLOAT64);
    rowdot_dl(&tc, &bad, &tr);
  }
  if (!strcmp(mode, "outshape")) {
    DLTensor bad = T(out, 1, s3, NULL, POSTC_DTYPE_FLOAT64);
    axpy_dl(&ta, &tx, &ty, &bad);
  }
  if (!strcmp(mode, "rank")) {
    rowdot_dl(&ta, &tv, &tr);
  }
  puts("ok");
  return 0;
}
"#;
}
