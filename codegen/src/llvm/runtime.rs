//! The runtime that compiled code calls: a per-thread arena of allocations
//! (arrays from `alloc`, returned arrays), DLPack headers, string helpers,
//! panics and the call depth. It is one
//! C library, `libpostc_runtime.a` (crate `postc-runtime`), that
//! [`crate::link`] links into every shared library and executable; a
//! module only declares what it calls.
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
// decided in `crate::abi` for every backend; the LLVM backend declares what
// a module calls with the IR builder (`crate::llvm::emit::unit::Unit::runtime`).
pub use crate::abi::{
    ALLOC_ARRAY, ALLOC_ARRAY_EMPTY, ALLOC_ND, ALLOC_ND_EMPTY, ARENA_ADOPT, ARENA_ALLOC, ARENA_EXPORT,
    ARENA_EXPORT_TUPLE, ARENA_MARK, ARENA_RELEASE, DEPTH, MANAGED_DELETER, PANIC, PRINT_BOOL, PRINT_END, PRINT_F32,
    PRINT_F64, PRINT_INT, PRINT_STR, PRINT_UINT, STRIDE, STR_CONCAT, VIEW,
};

/// Byte offsets of the `DLTensor` fields.
pub mod dltensor {
    pub use crate::abi::dltensor::*;
}
