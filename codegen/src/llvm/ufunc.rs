//! What the LLVM backend keeps of a ufunc's entry points (docs/abi.md,
//! "UFuncs"): both `NAME_loop` and `NAME_dl` are compiler-made functions
//! (`ufunc-entry`, `ufunc-dl`), compiled as any other; here are the LLVM
//! type of a `DLTensor` (the headers `raw.view` writes) and the loop
//! metadata of `NAME_loop`'s loops.

use inkwell::context::Context;
use inkwell::types::StructType;
use inkwell::AddressSpace;

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

pub use crate::abi::{dl_symbol, loop_symbol};

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
