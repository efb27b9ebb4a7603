//! What the ABI fixes for every backend, decided once: how array dtypes
//! are described to DLPack, the layout of a `DLTensor`, the names of a
//! ufunc's entry points and of the runtime's entry points (whose protocol
//! `crate::llvm::runtime` describes and `libpostc_runtime.a` implements).

// How dtypes are described to DLPack is the dtype's own business: the
// Python calls, which do not link codegen, read it too.
pub use postc_ir::dtype::{dlpack_code as code, dlpack_dtype};

/// The prefix of the symbol of an exported name that starts with `_`.
pub const EXPORT_PREFIX: &str = "postc_export_";

/// The symbol an exported function or alias `name` has, the same in every
/// backend: its own name, unless the name starts with `_`. C reserves every
/// identifier starting with `_` at file scope (and `__x`, `_X` everywhere:
/// the compiler's support routines, the start files' `_init`), yet private
/// helpers named so are the norm in Python; such a name is exported as
/// `postc_export_NAME` (`_helper` is `postc_export__helper`), which the
/// package and `--emit c-header` use, and which no other exported name can
/// take.
pub fn export_symbol(name: &str) -> std::borrow::Cow<'_, str> {
    if name.starts_with('_') {
        format!("{EXPORT_PREFIX}{name}").into()
    } else {
        name.into()
    }
}

/// The entry point of ufunc `name` that NumPy's generalized-ufunc loop
/// calls: `void NAME_loop(char **args, const intptr_t *dims, const intptr_t
/// *steps, void *data)`.
pub fn loop_symbol(name: &str) -> String {
    format!("{name}_loop")
}

/// The entry point of ufunc `name` that broadcasts `DLTensor` operands as
/// NumPy does.
pub fn dl_symbol(name: &str) -> String {
    format!("{name}_dl")
}

/// The printf format of a panic message, as the runtime's panic entry
/// point takes it: `panic: ` and the message, whose `{}` become `%lld` (as
/// many as there are arguments), `%` doubled, then ` at LOC` when located;
/// no newline (the runtime ends the line).
pub fn panic_format(msg: &str, nargs: usize, loc: Option<&str>) -> String {
    let mut out = String::from("panic: ");
    let mut rest = msg;
    let mut left = nargs;
    while let Some(i) = rest.find("{}") {
        out.push_str(&rest[..i].replace('%', "%%"));
        if left > 0 {
            out.push_str("%lld");
            left -= 1;
        } else {
            out.push_str("{}");
        }
        rest = &rest[i + 2..];
    }
    out.push_str(&rest.replace('%', "%%"));
    if let Some(l) = loc {
        out.push_str(" at ");
        out.push_str(&l.replace('%', "%%"));
    }
    out
}

/// The printf format of a panic whose message is known only at run time:
/// `panic: ` and the message (a `%.*s` of its length and bytes), then
/// `nargs` arguments as ` %lld` each and ` at LOC` when located.
pub fn runtime_panic_format(nargs: usize, loc: Option<&str>) -> String {
    let mut fmt = String::from("panic: %.*s");
    for _ in 0..nargs {
        fmt.push_str(" %lld");
    }
    if let Some(l) = loc {
        fmt.push_str(" at ");
        fmt.push_str(&l.replace('%', "%%"));
    }
    fmt
}

/// Where instruction `v` of `f` in module `m` is, as a panic names it
/// (`FILE:LINE:COL`).
pub fn loc_text(m: &postc_ir::Module, f: &postc_ir::Function, v: postc_ir::body::ValueId) -> Option<String> {
    f.body.loc(v).map(|l| format!("{}:{}:{}", m.files.path(l.file), l.line, l.col))
}

// The runtime's entry points: `runtime/include/postc_runtime.h` declares
// them in C; `libpostc_runtime.a` defines them.

/// `void @postc_rt_panic(ptr fmt, ...)`: formats the message, calls the
/// thread's panic handler, else prints it and aborts; never returns.
pub const PANIC: &str = "postc_rt_panic";
/// `ptr @postc_rt_arena_mark()`: the current top of the thread's arena.
pub const ARENA_MARK: &str = "postc_rt_arena_mark";
/// `void @postc_rt_arena_release(ptr mark)`: frees every block allocated
/// after `mark`.
pub const ARENA_RELEASE: &str = "postc_rt_arena_release";
/// `ptr @postc_rt_arena_alloc(i64 bytes)`: zeroed, 16-byte aligned memory
/// owned by the arena.
pub const ARENA_ALLOC: &str = "postc_rt_arena_alloc";
/// `ptr @postc_rt_alloc_array(i64 n, i8 code, i8 bits, i64 elsize)`: a
/// fresh zeroed 1-D array in the arena; the result points at its
/// `DLManagedTensor`, whose first field is the `DLTensor`. A negative `n`
/// counts as 0 (callers check it first).
pub const ALLOC_ARRAY: &str = "postc_rt_alloc_array";
/// `ptr @postc_rt_alloc_nd(i64 ndim, ptr dims, i8 code, i8 bits, i64
/// elsize)`: a fresh zeroed compact C-order array of `ndim` axes whose
/// extents are the `ndim` Int64s at `dims` (callers check them first).
pub const ALLOC_ND: &str = "postc_rt_alloc_nd";
/// `ptr @postc_rt_alloc_array_empty(i64 n, i8 code, i8 bits, i64
/// elsize)`: as [`ALLOC_ARRAY`], the elements not zeroed (`alloc.empty`).
pub const ALLOC_ARRAY_EMPTY: &str = "postc_rt_alloc_array_empty";
/// `ptr @postc_rt_alloc_nd_empty(i64 ndim, ptr dims, i8 code, i8 bits, i64
/// elsize)`: as [`ALLOC_ND`], the elements not zeroed (`alloc.empty`).
pub const ALLOC_ND_EMPTY: &str = "postc_rt_alloc_nd_empty";
/// `ptr @postc_rt_arena_export(ptr mark, ptr tensor)`: see the module docs.
pub const ARENA_EXPORT: &str = "postc_rt_arena_export";
/// `void @postc_rt_arena_export_tuple(ptr mark, i64 n, ptr tensors)`: as
/// [`ARENA_EXPORT`] for the `n` arrays of a tuple result, each element of
/// the array `tensors` replaced by the `DLManagedTensor*` the caller
/// owns (an array whose memory an earlier one took comes back copied).
pub const ARENA_EXPORT_TUPLE: &str = "postc_rt_arena_export_tuple";
/// `void @postc_rt_arena_adopt(ptr managed)`: a `DLManagedTensor*` made by
/// this runtime joins the thread's arena (freed at the next release).
pub const ARENA_ADOPT: &str = "postc_rt_arena_adopt";
/// `i64 @postc_rt_parallel_for(ptr fn, ptr env, i64 start, i64 stop, i64
/// step)`: runs the chunks of `range(start, stop, step)` (see
/// `postc_ir::builtins::chunk_bounds`) on the thread pool, calling
/// `fn(env, chunk, lo, hi)` once per chunk; returns the number of chunks.
/// A panic in a chunk is raised on the calling thread once every chunk
/// has stopped.
pub const PARALLEL_FOR: &str = "postc_rt_parallel_for";
/// `ptr @postc_rt_view(ptr base, i64 offset, i64 ndim, ptr extents, ptr
/// strides, i64 elsize)`: a view of `base` in the arena, `ndim` extents and
/// byte strides at `extents` and `strides` (checked before, by
/// `insert-checks`); it borrows `base`, and `postc_rt_arena_export` keeps
/// the bases it lies in alive with it.
pub const VIEW: &str = "postc_rt_view";
/// Whether an instruction of `op` takes memory from the per-call arena, so
/// that its function marks the arena on entry and releases it on return:
/// an `alloc`'s array, a `view`'s header.
pub fn allocates_in_arena(op: postc_ir::Opcode) -> bool {
    matches!(
        op,
        postc_ir::Opcode::Alloc
            | postc_ir::Opcode::AllocEmpty
            | postc_ir::Opcode::View
            | postc_ir::Opcode::ViewInBounds
    )
}
/// `ptr @postc_rt_parallel_stop_word()`: the `i64` holding the lowest
/// panicked chunk of the loop whose chunk the thread runs (the chunk count
/// while none has). A chunk function takes it once and compares its chunk
/// with it (a `monotonic` load) on its loop's back edge: `postc.parallel_stopped`.
pub const PARALLEL_STOP_WORD: &str = "postc_rt_parallel_stop_word";
/// `void @postc_rt_managed_deleter(ptr managed)`: the deleter of every
/// `DLManagedTensor` the runtime hands out (it deletes the bases that a
/// view owns with it).
pub const MANAGED_DELETER: &str = "postc_rt_managed_deleter";
/// `i64 @postc_rt_stride(ptr tensor, i64 axis, i64 elsize)`: the byte
/// stride of an axis (compact row-major when `strides` is null).
pub const STRIDE: &str = "postc_rt_stride";
/// `{ptr, i64} @postc_rt_str_concat({ptr, i64}, {ptr, i64})`: a `malloc`ed,
/// NUL-terminated concatenation (never freed).
pub const STR_CONCAT: &str = "postc_rt_str_concat";
/// What `postc.print` becomes in every native backend: one call of the
/// entry of each argument's dtype ([`print_entry`]), which appends its
/// text to the thread's line, then `void @postc_rt_print_end()`, which
/// writes the line at once. (The wasm backend imports the same names from
/// its loader.)
pub const PRINT_END: &str = "postc_rt_print_end";
/// `void @postc_rt_print_str(ptr, i64)`: a Str's bytes.
pub const PRINT_STR: &str = "postc_rt_print_str";
/// `void @postc_rt_print_bool(i32)`: 0 or 1.
pub const PRINT_BOOL: &str = "postc_rt_print_bool";
/// `void @postc_rt_print_int(i64)` and `void @postc_rt_print_uint(i64)`.
pub const PRINT_INT: &str = "postc_rt_print_int";
pub const PRINT_UINT: &str = "postc_rt_print_uint";
/// `void @postc_rt_print_f64(double)` and `void @postc_rt_print_f32(float)`.
pub const PRINT_F64: &str = "postc_rt_print_f64";
pub const PRINT_F32: &str = "postc_rt_print_f32";

/// The runtime's print entry for an argument of dtype `d` (one that
/// `postc.print` takes).
pub fn print_entry(d: postc_ir::DType) -> &'static str {
    use postc_ir::DType;
    match d {
        DType::Str => PRINT_STR,
        DType::Bool => PRINT_BOOL,
        DType::UInt64 => PRINT_UINT,
        DType::Float64 => PRINT_F64,
        DType::Float32 => PRINT_F32,
        _ => PRINT_INT,
    }
}

/// `ptr @postc_rt_libm_symbol(ptr name)`: the math library's function
/// `name`, past the program's exports of that name.
pub const LIBM_SYMBOL: &str = "postc_rt_libm_symbol";

/// `@postc_rt_depth`: the thread's depth of calls between POST functions
/// (an `i64` thread-local variable).
pub const DEPTH: &str = "postc_rt_depth";

/// `ptr @postc_rt_depth_addr()`: the address of the running thread's
/// [`DEPTH`], for a backend that cannot name thread-local data (QBE).
pub const DEPTH_ADDR: &str = "postc_rt_depth_addr";
/// The runtime's entry points that every shared library exports (the
/// others are hidden in it).
pub const EXPORTED: [&str; 8] = [
    PANIC,
    "postc_rt_set_panic_handler",
    "postc_rt_set_print_handler",
    ARENA_MARK,
    ARENA_RELEASE,
    "postc_rt_set_num_threads",
    "postc_rt_get_num_threads",
    "postc_rt_parallel_ufunc_loop",
];

/// Whether `name` is one of the runtime's symbols, which programs cannot
/// export.
pub fn is_runtime_symbol(name: &str) -> bool {
    name.starts_with("postc_rt_")
}

/// Byte offsets of the `DLTensor` fields.
pub mod dltensor {
    pub const DATA: u64 = 0;
    pub const DEVICE: u64 = 8;
    pub const NDIM: u64 = 16;
    pub const DTYPE: u64 = 20;
    pub const SHAPE: u64 = 24;
    pub const STRIDES: u64 = 32;
    pub const BYTE_OFFSET: u64 = 40;
    /// `sizeof(DLTensor)`.
    pub const SIZE: u64 = 48;
    /// `DLManagedTensor`: `manager_ctx` and `deleter` follow the tensor.
    pub const MANAGER_CTX: u64 = 48;
    pub const DELETER: u64 = 56;
    pub const MANAGED_SIZE: u64 = 64;
}

/// C library functions that compiled code or LLVM may call, besides libm's.
const LIBC: &[&str] =
    &["malloc", "calloc", "free", "memcpy", "memmove", "memset", "memcmp", "bcmp", "abort", "dprintf", "write"];

/// libm functions LLVM may introduce beyond those an intrinsic import can
/// name (see [`crate::calls::intrinsic_base`]).
const LIBM_MORE: &[&str] = &["exp10", "exp10f", "ldexp", "ldexpf", "sincos", "sincosf", "roundeven", "roundevenf"];

/// Whether compiled code may call the C library's function `name`, directly
/// or through LLVM: an exported function of that name needs care in every backend (the
/// LLVM backend's `Shield`, a refusal in others).
pub fn is_c_function(name: &str) -> bool {
    LIBC.contains(&name) || LIBM_MORE.contains(&name) || crate::calls::intrinsic_base(name).is_some()
}

/// Names that an exported function may not take at all: C reserves
/// identifiers starting with `__` or `_` and a capital letter for the
/// implementation (the compiler's support routines such as `__truncdfhf2`,
/// which LLVM calls and the C library does not provide), and the start
/// files define `_init`, `_fini` and `_start`; the runtime library's
/// symbols start with `postc_rt_`.
pub fn reserved(name: &str) -> bool {
    let b = name.as_bytes();
    (b.len() > 1 && b[0] == b'_' && (b[1] == b'_' || b[1].is_ascii_uppercase()))
        || matches!(name, "_init" | "_fini" | "_start")
        || is_runtime_symbol(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use postc_ir::DType;

    #[test]
    fn c_function_names() {
        for n in
            ["fmod", "pow", "powf", "hypot", "sqrt", "malloc", "free", "memcpy", "abort", "write", "dprintf", "sincos"]
        {
            assert!(is_c_function(n), "{n}");
        }
        for n in ["exit", "saxpy", "fmod2", "main", "dlsym"] {
            assert!(!is_c_function(n), "{n}");
        }
    }

    #[test]
    fn reserved_names() {
        for n in ["__truncdfhf2", "__x", "_Foo", "_init", "_fini", "_start"] {
            assert!(reserved(n), "{n}");
        }
        for n in ["_foo", "_", "init", "x__y", "_1"] {
            assert!(!reserved(n), "{n}");
        }
    }

    #[test]
    fn dtypes_map_to_dlpack_types() {
        assert_eq!(dlpack_dtype(DType::Bool), (6, 8));
        assert_eq!(dlpack_dtype(DType::Int32), (0, 32));
        assert_eq!(dlpack_dtype(DType::UInt8), (1, 8));
        assert_eq!(dlpack_dtype(DType::Float16), (2, 16));
        assert_eq!(dlpack_dtype(DType::Complex64), (5, 64));
        assert_eq!(dlpack_dtype(DType::Str), (3, 128));
        assert_eq!(dlpack_dtype(DType::Bytes), (3, 128));
    }
}
