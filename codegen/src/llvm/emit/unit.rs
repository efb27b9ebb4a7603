//! What the bodies of one LLVM module share: the types of the context, the
//! declarations of what they call, private constants, metadata, the panic
//! paths codegen makes, and the runtime parts they use.

use super::{AbiType, FnSig, ParamAttr};
use crate::llvm::debug::DebugInfo;
use crate::llvm::runtime;
use crate::llvm::Lowered;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::types::{
    BasicMetadataTypeEnum, BasicType, BasicTypeEnum, FloatType, FunctionType, IntType, PointerType, StructType,
};
use inkwell::values::{
    BasicMetadataValueEnum, FunctionValue, GlobalValue, InstructionValue, MetadataValue, PointerValue,
};
use inkwell::{AddressSpace, GlobalVisibility};
use postc_ir::diag::Diagnostic;
use postc_ir::{DType, FuncId, ModuleId};
use std::collections::{HashMap, HashSet};

/// The LLVM types the lowering uses, made once per context.
#[derive(Clone, Copy)]
pub(crate) struct Types<'c> {
    pub cx: &'c Context,
    pub ptr: PointerType<'c>,
    pub i1: IntType<'c>,
    pub i8: IntType<'c>,
    pub i16: IntType<'c>,
    pub i32: IntType<'c>,
    pub i64: IntType<'c>,
    pub f16: FloatType<'c>,
    pub f32: FloatType<'c>,
    pub f64: FloatType<'c>,
    /// `{ ptr, i64 }`: a Str or Bytes value.
    pub text: StructType<'c>,
    pub c64: StructType<'c>,
    pub c128: StructType<'c>,
}

impl<'c> Types<'c> {
    pub fn new(cx: &'c Context) -> Types<'c> {
        let ptr = cx.ptr_type(AddressSpace::default());
        let (f32, f64) = (cx.f32_type(), cx.f64_type());
        Types {
            cx,
            ptr,
            i1: cx.bool_type(),
            i8: cx.i8_type(),
            i16: cx.i16_type(),
            i32: cx.i32_type(),
            i64: cx.i64_type(),
            f16: cx.f16_type(),
            f32,
            f64,
            text: cx.struct_type(&[ptr.into(), cx.i64_type().into()], false),
            c64: cx.struct_type(&[f32.into(), f32.into()], false),
            c128: cx.struct_type(&[f64.into(), f64.into()], false),
        }
    }

    /// The value type of a scalar dtype.
    pub fn scalar(&self, d: DType) -> BasicTypeEnum<'c> {
        match d {
            DType::Bool => self.i1.into(),
            DType::Int8 | DType::UInt8 => self.i8.into(),
            DType::Int16 | DType::UInt16 => self.i16.into(),
            DType::Int32 | DType::UInt32 => self.i32.into(),
            DType::Int64 | DType::UInt64 => self.i64.into(),
            DType::Float16 => self.f16.into(),
            DType::Float32 => self.f32.into(),
            DType::Float64 => self.f64.into(),
            DType::Complex64 => self.c64.into(),
            DType::Complex128 => self.c128.into(),
            DType::Str | DType::Bytes => self.text.into(),
        }
    }

    /// The in-memory type of an array element (Bool is a byte).
    pub fn mem(&self, d: DType) -> BasicTypeEnum<'c> {
        if d == DType::Bool {
            self.i8.into()
        } else {
            self.scalar(d)
        }
    }

    /// The integer type of an integer or Bool dtype.
    pub fn int(&self, d: DType) -> IntType<'c> {
        self.scalar(d).into_int_type()
    }

    /// The float type of a float dtype (or of a complex dtype's parts).
    pub fn float(&self, d: DType) -> FloatType<'c> {
        match d {
            DType::Float16 => self.f16,
            DType::Float32 | DType::Complex64 => self.f32,
            _ => self.f64,
        }
    }

    /// The LLVM type of an ABI type (`None` for void).
    pub fn abi(&self, t: AbiType) -> Option<BasicTypeEnum<'c>> {
        match t {
            AbiType::Void => None,
            AbiType::Scalar(d) => Some(self.scalar(d)),
            AbiType::Ptr => Some(self.ptr.into()),
        }
    }

    /// The function type of a signature.
    pub fn fn_type(&self, sig: &FnSig) -> FunctionType<'c> {
        let params: Vec<BasicMetadataTypeEnum> =
            sig.params.iter().filter_map(|p| self.abi(*p)).map(Into::into).collect();
        self.function(self.abi(sig.ret), &params)
    }

    /// The type of a function returning `ret` (void for `None`).
    pub fn function(&self, ret: Option<BasicTypeEnum<'c>>, params: &[BasicMetadataTypeEnum<'c>]) -> FunctionType<'c> {
        match ret {
            Some(r) => r.fn_type(params, false),
            None => self.cx.void_type().fn_type(params, false),
        }
    }

    /// The attributes of a [`ParamAttr`].
    pub fn param_attrs(&self, a: ParamAttr) -> Vec<Attribute> {
        let e = |name: &str, v: u64| self.cx.create_enum_attribute(Attribute::get_named_enum_kind_id(name), v);
        match a {
            ParamAttr::None => Vec::new(),
            ParamAttr::ZeroExt => vec![e("zeroext", 0)],
            ParamAttr::SignExt => vec![e("signext", 0)],
            ParamAttr::Tensor => {
                vec![e("noundef", 0), e("nonnull", 0), e("align", 8), e("dereferenceable", crate::abi::dltensor::SIZE)]
            }
        }
    }

    /// A function attribute without a value (`nounwind`, `cold`, ...).
    pub fn flag(&self, name: &str) -> Attribute {
        self.cx.create_enum_attribute(Attribute::get_named_enum_kind_id(name), 0)
    }
}

/// `memory(read)`: LLVM 22's encoding of memory effects, two bits per
/// location (argument, inaccessible, errno, other, two target locations),
/// `01` reading.
pub(crate) fn read_only<'c>(t: &Types<'c>) -> inkwell::attributes::Attribute {
    const READ_EVERYWHERE: u64 = 0b01_01_01_01_01_01;
    let kind = inkwell::attributes::Attribute::get_named_enum_kind_id("memory");
    t.cx.create_enum_attribute(kind, READ_EVERYWHERE)
}

/// Adds the attributes named in `flags` to `f`.
pub(crate) fn add_flags(t: &Types<'_>, f: FunctionValue<'_>, flags: &[&str]) {
    for a in flags {
        f.add_attribute(AttributeLoc::Function, t.flag(a));
    }
}

/// The module-wide state of building one LLVM module.
pub(crate) struct Unit<'c, 'm> {
    pub t: Types<'c>,
    pub module: &'m LlModule<'c>,
    /// Metadata kinds `tbaa` and `prof`.
    kind_tbaa: u32,
    kind_prof: u32,
    nconst: usize,
    /// The TBAA access tags (header, data), once made.
    tbaa: Option<(MetadataValue<'c>, MetadataValue<'c>)>,
    weights: HashMap<(u32, u32), MetadataValue<'c>>,
    /// The debug information being built (`-g`), see [`crate::llvm::debug`].
    pub debug: Option<DebugInfo<'c>>,
}

impl<'c, 'm> Unit<'c, 'm> {
    pub fn new(cx: &'c Context, module: &'m LlModule<'c>) -> Unit<'c, 'm> {
        Unit {
            t: Types::new(cx),
            module,
            kind_tbaa: cx.get_kind_id("tbaa"),
            kind_prof: cx.get_kind_id("prof"),
            nconst: 0,
            tbaa: None,
            weights: HashMap::new(),
            debug: None,
        }
    }

    /// The function `name`, declared with type `ty` and the attributes
    /// `flags` when the module has none of that name.
    pub fn declare(&self, name: &str, ty: FunctionType<'c>, flags: &[&str]) -> FunctionValue<'c> {
        if let Some(f) = self.module.get_function(name) {
            return f;
        }
        let f = self.module.add_function(name, ty, None);
        add_flags(&self.t, f, flags);
        f
    }

    /// An LLVM intrinsic (or another external function) of a float type:
    /// `ret name(ty, ty, ...)` with `n` parameters.
    pub fn float_fn(&self, name: &str, ty: FloatType<'c>, n: usize, flags: &[&str]) -> FunctionValue<'c> {
        let params: Vec<BasicMetadataTypeEnum> = vec![ty.into(); n];
        self.declare(name, ty.fn_type(&params, false), flags)
    }

    /// A private constant; returns its address.
    fn constant(
        &mut self,
        prefix: &str,
        ty: BasicTypeEnum<'c>,
        init: &dyn inkwell::values::BasicValue<'c>,
        align: u32,
    ) -> PointerValue<'c> {
        let g: GlobalValue<'c> = self.module.add_global(ty, None, &format!("{prefix}.{}", self.nconst));
        self.nconst += 1;
        g.set_initializer(init);
        g.set_linkage(Linkage::Private);
        g.set_unnamed_addr(true);
        g.set_constant(true);
        g.set_alignment(align);
        g.as_pointer_value()
    }

    /// A private constant holding `bytes` and a NUL; returns its address.
    pub fn cstring(&mut self, bytes: &[u8]) -> PointerValue<'c> {
        let init = self.t.cx.const_string(bytes, true);
        let ty = self.t.i8.array_type(bytes.len() as u32 + 1);
        self.constant(".str", ty.into(), &init, 1)
    }

    /// A private constant array of `i64`s; returns its address.
    pub fn const_i64s(&mut self, xs: &[i64]) -> PointerValue<'c> {
        let items: Vec<_> = xs.iter().map(|x| self.t.i64.const_int(*x as u64, true)).collect();
        let init = self.t.i64.const_array(&items);
        let ty = self.t.i64.array_type(xs.len() as u32);
        self.constant(".i64s", ty.into(), &init, 8)
    }

    /// Branch weights `!{!"branch_weights", i32 a, i32 b}`.
    fn weights(&mut self, w: (u32, u32)) -> MetadataValue<'c> {
        if let Some(md) = self.weights.get(&w) {
            return *md;
        }
        let cx = self.t.cx;
        let md = cx.metadata_node(&[
            cx.metadata_string("branch_weights").into(),
            self.t.i32.const_int(w.0 as u64, false).into(),
            self.t.i32.const_int(w.1 as u64, false).into(),
        ]);
        self.weights.insert(w, md);
        md
    }

    /// Gives a conditional branch its weights.
    pub fn set_weights(&mut self, br: InstructionValue<'c>, w: (u32, u32)) {
        let md = self.weights(w);
        let _ = br.set_metadata(md, self.kind_prof);
    }

    /// The TBAA access tags `(header, data)`: a `DLTensor` header (and its
    /// shape and strides arrays) and array elements never alias, so loads of
    /// `data`, `byte_offset`, `shape[k]` and `strides[k]` stay loop
    /// invariant across stores to elements (docs/abi.md §3).
    fn tbaa_tags(&mut self) -> (MetadataValue<'c>, MetadataValue<'c>) {
        if let Some(t) = self.tbaa {
            return t;
        }
        let cx = self.t.cx;
        let root = cx.metadata_node(&[cx.metadata_string("postc tbaa").into()]);
        let zero = self.t.i64.const_zero();
        let tag = |name: &str| {
            let ty = cx.metadata_node(&[cx.metadata_string(name).into(), root.into(), zero.into()]);
            cx.metadata_node(&[ty.into(), ty.into(), zero.into()])
        };
        let tags = (tag("postc.dltensor"), tag("postc.data"));
        self.tbaa = Some(tags);
        tags
    }

    /// Tags a load or store of a `DLTensor` header field (or of its shape
    /// or strides).
    pub fn tag_header(&mut self, access: InstructionValue<'c>) {
        let (h, _) = self.tbaa_tags();
        let _ = access.set_metadata(h, self.kind_tbaa);
    }

    /// Tags a load or store of an array element.
    pub fn tag_data(&mut self, access: InstructionValue<'c>) {
        let (_, d) = self.tbaa_tags();
        let _ = access.set_metadata(d, self.kind_tbaa);
    }

    /// `void postc_rt_panic(ptr fmt, ...)`: the runtime's panic (cold,
    /// never returns).
    fn panic_fn(&self) -> FunctionValue<'c> {
        let ty = self.t.cx.void_type().fn_type(&[self.t.ptr.into()], true);
        self.declare(runtime::PANIC, ty, &["cold", "noreturn", "nounwind"])
    }

    /// Panics with the message of the printf format `fmt` and its
    /// arguments (through the runtime's panic); `b` is left after the call
    /// (the caller ends the block).
    pub fn build_panic(
        &self,
        b: &Builder<'c>,
        fmt: PointerValue<'c>,
        args: &[BasicMetadataValueEnum<'c>],
    ) -> Result<(), inkwell::builder::BuilderError> {
        let mut all: Vec<BasicMetadataValueEnum> = vec![fmt.into()];
        all.extend_from_slice(args);
        b.build_call(self.panic_fn(), &all, "")?;
        Ok(())
    }

    /// A runtime entry point (the runtime library defines it; all but the
    /// exported ones are hidden in it, so calls need no PLT).
    pub fn runtime(&self, name: &str) -> FunctionValue<'c> {
        if let Some(f) = self.module.get_function(name) {
            return f;
        }
        let t = &self.t;
        let (ptr, i64, i8) = (t.ptr.into(), t.i64.into(), t.i8.into());
        let text = t.text.into();
        let void = t.cx.void_type();
        let ty = match name {
            runtime::ARENA_MARK => t.ptr.fn_type(&[], false),
            runtime::ARENA_RELEASE | runtime::ARENA_ADOPT => void.fn_type(&[ptr], false),
            runtime::ARENA_ALLOC => t.ptr.fn_type(&[i64], false),
            runtime::ALLOC_ARRAY | runtime::ALLOC_ARRAY_EMPTY => t.ptr.fn_type(&[i64, i8, i8, i64], false),
            runtime::ALLOC_ND | runtime::ALLOC_ND_EMPTY => t.ptr.fn_type(&[i64, ptr, i8, i8, i64], false),
            runtime::ARENA_EXPORT => t.ptr.fn_type(&[ptr, ptr], false),
            runtime::ARENA_EXPORT_TUPLE => void.fn_type(&[ptr, i64, ptr], false),
            runtime::VIEW => t.ptr.fn_type(&[ptr, i64, i64, ptr, ptr, i64], false),
            runtime::STRIDE => t.i64.fn_type(&[ptr, i64, i64], false),
            runtime::PRINT_STR => void.fn_type(&[ptr, i64], false),
            runtime::PRINT_BOOL => void.fn_type(&[t.i32.into()], false),
            runtime::PRINT_INT | runtime::PRINT_UINT => void.fn_type(&[i64], false),
            runtime::PRINT_F64 => void.fn_type(&[t.f64.into()], false),
            runtime::PRINT_F32 => void.fn_type(&[t.f32.into()], false),
            runtime::PRINT_END => void.fn_type(&[], false),
            _ => t.text.fn_type(&[text, text], false),
        };
        let f = self.declare(name, ty, &["nounwind"]);
        if !crate::abi::EXPORTED.contains(&name) {
            f.as_global_value().set_visibility(GlobalVisibility::Hidden);
        }
        let zeroext = || t.param_attrs(ParamAttr::ZeroExt);
        match name {
            runtime::ALLOC_ARRAY | runtime::ALLOC_ARRAY_EMPTY => {
                for a in zeroext() {
                    f.add_attribute(AttributeLoc::Param(1), a);
                    f.add_attribute(AttributeLoc::Param(2), a);
                }
            }
            runtime::ALLOC_ND | runtime::ALLOC_ND_EMPTY => {
                for a in zeroext() {
                    f.add_attribute(AttributeLoc::Param(2), a);
                    f.add_attribute(AttributeLoc::Param(3), a);
                }
            }
            // Reads the tensor and its shape only.
            runtime::STRIDE => {
                add_flags(t, f, &["willreturn"]);
                f.add_attribute(AttributeLoc::Function, read_only(t));
            }
            _ => {}
        }
        f
    }

    /// The thread's call depth ([`crate::abi::DEPTH`], in the runtime library).
    pub fn depth(&self) -> PointerValue<'c> {
        if let Some(g) = self.module.get_global(crate::abi::DEPTH) {
            return g.as_pointer_value();
        }
        let g = self.module.add_global(self.t.i64, None, crate::abi::DEPTH);
        g.set_thread_local(true);
        g.set_visibility(GlobalVisibility::Hidden);
        g.as_pointer_value()
    }
}

/// Builds the module of a lowered program into `module`: every function
/// of `functions` (all of the program's when `None`) declared, then their
/// bodies (see [`super::body`]), each verified. `functions` must hold
/// every function its members refer to ([`crate::calls::reachable`]). With
/// `debug` (whether the code is optimised) the bodies carry debug
/// information, which the caller completes with [`DebugInfo::finish`] once
/// the module has every function.
pub fn build_module<'c>(
    cx: &'c Context,
    module: &LlModule<'c>,
    low: &Lowered<'_>,
    functions: Option<&HashSet<(ModuleId, FuncId)>>,
    debug: Option<bool>,
) -> Result<Option<DebugInfo<'c>>, Vec<Diagnostic>> {
    let wanted = |id: &(ModuleId, FuncId)| functions.is_none_or(|fs| fs.contains(id));
    let mut unit = Unit::new(cx, module);
    unit.debug = debug.map(|optimized| DebugInfo::new(cx, module, low.program, optimized));
    let mut functions = HashMap::new();
    for (mid, m) in low.program.modules.iter_enumerated() {
        for (fid, _) in m.functions.iter_enumerated().filter(|(fid, _)| wanted(&(mid, *fid))) {
            let sig = &low.sigs[&(mid, fid)];
            let name = low.shield.text_symbol(&sig.symbol);
            let f = module.add_function(&name, unit.t.fn_type(sig), None);
            if sig.exported {
                f.as_global_value().set_visibility(GlobalVisibility::Protected);
            } else {
                f.set_linkage(Linkage::Private);
            }
            for (i, a) in sig.param_attrs.iter().enumerate() {
                for attr in unit.t.param_attrs(*a) {
                    f.add_attribute(AttributeLoc::Param(i as u32), attr);
                }
            }
            for attr in unit.t.param_attrs(sig.ret_attr) {
                f.add_attribute(AttributeLoc::Return, attr);
            }
            functions.insert((mid, fid), f);
        }
    }
    let mut diags = Vec::new();
    for (mid, m) in low.program.modules.iter_enumerated() {
        for (fid, f) in m.functions.iter_enumerated().filter(|(fid, _)| wanted(&(mid, *fid))) {
            let func = functions[&(mid, fid)];
            if let Err(d) = super::body::build(&mut unit, low, &functions, (mid, fid), func) {
                diags.push(*d);
                continue;
            }
            if !func.verify(false) {
                let why = module.verify().err().map(|e| e.to_string()).unwrap_or_default();
                diags.push(Diagnostic::error(
                    format!(
                        "internal code generation error: the LLVM function built for `{}` does not verify: {}",
                        f.name,
                        why.trim()
                    ),
                    f.loc.map(|l| postc_ir::diag::Pos::from_loc(&m.files, l)),
                ));
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(unit.debug)
}
