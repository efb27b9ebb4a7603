//! The runtime that compiled code calls: a per-thread arena of allocations
//! (arrays from `alloc`, returned arrays), DLPack headers, string helpers,
//! panics, the call depth and the broadcasting driver of ufuncs. It is one
//! C library, `libpostc_runtime.a` (crate `postc-runtime`), that
//! [`crate::link`] links into every shared library and executable; a
//! module only declares what it calls ([`parts_text`]).
//!
//! Arena blocks are `calloc`ed with a 16-byte header whose first word links
//! to the previous block of the thread's arena (`null` at the bottom). An
//! array block holds, after the header, a `DLManagedTensor` (64 bytes), the
//! one-element shape (8 bytes, then 8 of padding) and the data, 16-byte
//! aligned:
//!
//! ```text
//! block: [prev ptr | pad] [DLManagedTensor] [shape[0] | pad] [data ...]
//!         0               16                80               96
//! ```
//!
//! Protocol of a function that allocates (or returns an array):
//! `%m = call ptr @postc_rt_arena_mark()` on entry; on return
//! `call void @postc_rt_arena_release(ptr %m)`, or, when the function returns
//! an array `%a`, `%r = call ptr @postc_rt_arena_export(ptr %m, ptr %a)`,
//! which detaches `%a`'s block from the arena (or wraps a foreign `DLTensor`
//! in a fresh header that shares its data) and releases everything else.
//! The result is a `DLManagedTensor*` whose `deleter` frees it. A caller
//! that receives an array from a compiled function puts it back into its own
//! arena with `postc_rt_arena_adopt`.

// The runtime's entry points and the `DLTensor` layout are the ABI's,
// decided in `crate::abi` for every backend; the LLVM types are this
// backend's.
pub use crate::abi::{
    ALLOC_ARRAY, ARENA_ADOPT, ARENA_ALLOC, ARENA_EXPORT, ARENA_MARK, ARENA_RELEASE, DEPTH, MANAGED_DELETER, PANIC,
    STRIDE, STR_CMP, STR_CONCAT, STR_EQ, UFUNC_DL,
};

/// Byte offsets of the `DLTensor` fields, and its LLVM types.
pub mod dltensor {
    pub use crate::abi::dltensor::*;
    /// The LLVM type of a `DLTensor`.
    pub const LLVM_TYPE: &str = "{ ptr, { i32, i32 }, i32, { i8, i8, i16 }, ptr, ptr, i64 }";
    /// The LLVM type of a `DLManagedTensor`.
    pub const LLVM_MANAGED_TYPE: &str = "{ { ptr, { i32, i32 }, i32, { i8, i8, i16 }, ptr, ptr, i64 }, ptr, ptr }";
}

/// The independent parts of the runtime a module may call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    /// The arena, array allocation and DLPack export/adoption.
    Arena,
    /// [`STRIDE`].
    Stride,
    /// The string helpers.
    Str,
    /// The thread's call depth ([`DEPTH`]).
    Depth,
}

impl Part {
    pub const ALL: [Part; 4] = [Part::Arena, Part::Stride, Part::Str, Part::Depth];

    /// The LLVM declarations of the part's functions (the library defines
    /// them; all but the exported entry points are hidden in it, so calls
    /// need no PLT).
    fn declarations(self) -> &'static str {
        match self {
            Part::Arena => ARENA_DECLS,
            Part::Stride => STRIDE_DECL,
            Part::Str => STR_DECLS,
            Part::Depth => DEPTH_DECL,
        }
    }
}

/// The declarations of the given parts, as LLVM IR text.
pub fn parts_text(parts: &[Part]) -> String {
    Part::ALL.iter().filter(|p| parts.contains(p)).map(|p| p.declarations()).collect()
}

/// The declaration of [`PANIC`].
pub const PANIC_DECL: &str = "declare void @postc_rt_panic(ptr, ...) cold noreturn nounwind";

const ARENA_DECLS: &str = "declare ptr @postc_rt_arena_mark() nounwind
declare void @postc_rt_arena_release(ptr) nounwind
declare hidden ptr @postc_rt_arena_alloc(i64) nounwind
declare hidden ptr @postc_rt_alloc_array(i64, i8 zeroext, i8 zeroext, i64) nounwind
declare hidden ptr @postc_rt_arena_export(ptr, ptr) nounwind
declare hidden void @postc_rt_arena_adopt(ptr) nounwind
";

/// Reads the tensor and its shape only.
pub(crate) const STRIDE_DECL: &str =
    "declare hidden i64 @postc_rt_stride(ptr, i64, i64) nounwind willreturn memory(read)\n";

const STR_DECLS: &str = "declare hidden zeroext i1 @postc_rt_str_eq({ ptr, i64 }, { ptr, i64 }) nounwind
declare hidden i32 @postc_rt_str_cmp({ ptr, i64 }, { ptr, i64 }) nounwind
declare hidden { ptr, i64 } @postc_rt_str_concat({ ptr, i64 }, { ptr, i64 }) nounwind
";

const DEPTH_DECL: &str = "@postc_rt_depth = external hidden thread_local global i64\n";
