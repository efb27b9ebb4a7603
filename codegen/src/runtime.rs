//! The runtime that compiled code links into itself: a per-thread arena of
//! allocations (arrays from `alloc`, returned arrays), DLPack headers, string
//! helpers. Everything is LLVM IR text, `linkonce_odr hidden`, emitted into
//! each module that uses it, on top of libc `malloc`/`calloc`/`free`.
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
//! `%m = call ptr @postc.rt.arena_mark()` on entry; on return
//! `call void @postc.rt.arena_release(ptr %m)`, or, when the function returns
//! an array `%a`, `%r = call ptr @postc.rt.arena_export(ptr %m, ptr %a)`,
//! which detaches `%a`'s block from the arena (or wraps a foreign `DLTensor`
//! in a fresh header that shares its data) and releases everything else.
//! The result is a `DLManagedTensor*` whose `deleter` frees it. A caller
//! that receives an array from a compiled function puts it back into its own
//! arena with `postc.rt.arena_adopt`.

// The runtime's entry points and the `DLTensor` layout are the ABI's,
// decided in `crate::abi` for every backend; the LLVM types are this
// backend's.
pub use crate::abi::{
    ALLOC_ARRAY, ARENA_ADOPT, ARENA_ALLOC, ARENA_EXPORT, ARENA_MARK, ARENA_RELEASE, MANAGED_DELETER, STRIDE, STR_CMP,
    STR_CONCAT, STR_EQ,
};

/// Byte offsets of the `DLTensor` fields, and its LLVM types.
pub mod dltensor {
    pub use crate::abi::dltensor::*;
    /// The LLVM type of a `DLTensor`.
    pub const LLVM_TYPE: &str = "{ ptr, { i32, i32 }, i32, { i8, i8, i16 }, ptr, ptr, i64 }";
    /// The LLVM type of a `DLManagedTensor`.
    pub const LLVM_MANAGED_TYPE: &str = "{ { ptr, { i32, i32 }, i32, { i8, i8, i16 }, ptr, ptr, i64 }, ptr, ptr }";
}

/// The libc declarations the runtime needs (emit once per module).
pub const LIBC_DECLS: &[(&str, &str)] = &[
    ("malloc", "declare noalias ptr @malloc(i64)"),
    ("calloc", "declare noalias ptr @calloc(i64, i64)"),
    ("free", "declare void @free(ptr)"),
    ("memcpy", "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)"),
    ("memcmp", "declare i32 @memcmp(ptr, ptr, i64)"),
    ("abort", "declare void @abort() noreturn nounwind"),
    ("dprintf", "declare i32 @dprintf(i32, ptr, ...)"),
];

/// The independent parts of the runtime: a module includes only those its
/// code uses, since every definition costs compile time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    /// The arena, array allocation and DLPack export/adoption.
    Arena,
    /// [`STRIDE`].
    Stride,
    /// The string helpers.
    Str,
    /// The thread's call depth ([`crate::emit::DEPTH`]).
    Depth,
}

impl Part {
    pub const ALL: [Part; 4] = [Part::Arena, Part::Stride, Part::Str, Part::Depth];
}

/// The definitions of the given parts, as LLVM IR text (needs
/// [`LIBC_DECLS`] and [`RUNTIME_DECLS`]); with `machine_code`, those that
/// objects take as machine code (see [`crate::machine_code`]) are declared.
pub fn parts_text(parts: &[Part], machine_code: bool) -> String {
    let mut out = String::new();
    if parts.iter().any(|p| matches!(p, Part::Arena | Part::Str)) {
        out.push_str(OOM_IR);
    }
    for p in Part::ALL {
        if parts.contains(&p) {
            out.push_str(match p {
                Part::Arena => ARENA_IR,
                Part::Stride if machine_code => STRIDE_DECL,
                Part::Stride => STRIDE_IR,
                Part::Str => STR_IR,
                Part::Depth => DEPTH_IR,
            });
        }
    }
    out
}

/// The whole runtime, as LLVM IR text (needs [`LIBC_DECLS`] and
/// [`RUNTIME_DECLS`]).
pub fn ir_text() -> String {
    parts_text(&Part::ALL, false)
}

const OOM_IR: &str = r#"
@postc.rt.oom_msg = linkonce_odr hidden unnamed_addr constant [27 x i8] c"panic: out of memory (%s)\0A\00"
@postc.rt.oom_what = linkonce_odr hidden unnamed_addr constant [6 x i8] c"arena\00"

define linkonce_odr hidden void @postc.rt.oom() cold noinline noreturn nounwind {
  %1 = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @postc.rt.oom_msg, ptr @postc.rt.oom_what)
  call void @abort()
  unreachable
}
"#;

const ARENA_IR: &str = r#"
@postc.rt.arena_top = linkonce_odr hidden thread_local global ptr null

define linkonce_odr hidden ptr @postc.rt.arena_mark() nounwind {
  %t = load ptr, ptr @postc.rt.arena_top
  ret ptr %t
}

define linkonce_odr hidden void @postc.rt.arena_release(ptr %mark) nounwind {
entry:
  br label %loop
loop:
  %t = load ptr, ptr @postc.rt.arena_top
  %at = icmp eq ptr %t, %mark
  %nul = icmp eq ptr %t, null
  %stop = or i1 %at, %nul
  br i1 %stop, label %done, label %pop
pop:
  %prev = load ptr, ptr %t
  store ptr %prev, ptr @postc.rt.arena_top
  call void @free(ptr %t)
  br label %loop
done:
  ret void
}

define linkonce_odr hidden ptr @postc.rt.arena_alloc(i64 %bytes) nounwind {
  %big = icmp ugt i64 %bytes, 9223372036854775000
  br i1 %big, label %oom, label %go
go:
  %n = add i64 %bytes, 16
  %b = call ptr @calloc(i64 1, i64 %n)
  %nul = icmp eq ptr %b, null
  br i1 %nul, label %oom, label %ok
ok:
  %t = load ptr, ptr @postc.rt.arena_top
  store ptr %t, ptr %b
  store ptr %b, ptr @postc.rt.arena_top
  %p = getelementptr i8, ptr %b, i64 16
  ret ptr %p
oom:
  call void @postc.rt.oom()
  unreachable
}

define linkonce_odr hidden void @postc.rt.managed_deleter(ptr %m) nounwind {
  %nul = icmp eq ptr %m, null
  br i1 %nul, label %done, label %free
free:
  %b = getelementptr i8, ptr %m, i64 -16
  call void @free(ptr %b)
  br label %done
done:
  ret void
}

define linkonce_odr hidden ptr @postc.rt.alloc_array(i64 %n0, i8 %code, i8 %bits, i64 %elsize) nounwind {
  %neg = icmp slt i64 %n0, 0
  %n = select i1 %neg, i64 0, i64 %n0
  %mul = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %n, i64 %elsize)
  %bytes = extractvalue { i64, i1 } %mul, 0
  %ovf = extractvalue { i64, i1 } %mul, 1
  br i1 %ovf, label %oom, label %go
go:
  %total = add i64 %bytes, 80
  %p = call ptr @postc.rt.arena_alloc(i64 %total)
  %shape = getelementptr i8, ptr %p, i64 64
  %data = getelementptr i8, ptr %p, i64 80
  store ptr %data, ptr %p
  %dev = getelementptr i8, ptr %p, i64 8
  store i32 1, ptr %dev
  %ndim = getelementptr i8, ptr %p, i64 16
  store i32 1, ptr %ndim
  %dcode = getelementptr i8, ptr %p, i64 20
  store i8 %code, ptr %dcode
  %dbits = getelementptr i8, ptr %p, i64 21
  store i8 %bits, ptr %dbits
  %dlanes = getelementptr i8, ptr %p, i64 22
  store i16 1, ptr %dlanes
  %shp = getelementptr i8, ptr %p, i64 24
  store ptr %shape, ptr %shp
  store i64 %n, ptr %shape
  %del = getelementptr i8, ptr %p, i64 56
  store ptr @postc.rt.managed_deleter, ptr %del
  ret ptr %p
oom:
  call void @postc.rt.oom()
  unreachable
}

define linkonce_odr hidden void @postc.rt.arena_adopt(ptr %m) nounwind {
  %nul = icmp eq ptr %m, null
  br i1 %nul, label %done, label %go
go:
  %b = getelementptr i8, ptr %m, i64 -16
  %t = load ptr, ptr @postc.rt.arena_top
  store ptr %t, ptr %b
  store ptr %b, ptr @postc.rt.arena_top
  br label %done
done:
  ret void
}

define linkonce_odr hidden ptr @postc.rt.arena_export(ptr %mark, ptr %tensor) nounwind {
entry:
  br label %search
search:
  %link = phi ptr [ @postc.rt.arena_top, %entry ], [ %b, %next ]
  %b = load ptr, ptr %link
  %at = icmp eq ptr %b, %mark
  %nul = icmp eq ptr %b, null
  %stop = or i1 %at, %nul
  br i1 %stop, label %wrap, label %test
test:
  %payload = getelementptr i8, ptr %b, i64 16
  %hit = icmp eq ptr %payload, %tensor
  br i1 %hit, label %unlink, label %next
next:
  br label %search
unlink:
  %prev = load ptr, ptr %b
  store ptr %prev, ptr %link
  store ptr null, ptr %b
  call void @postc.rt.arena_release(ptr %mark)
  ret ptr %tensor
wrap:
  %ndim32 = getelementptr i8, ptr %tensor, i64 16
  %ndim.i = load i32, ptr %ndim32
  %ndim = sext i32 %ndim.i to i64
  %ndneg = icmp slt i64 %ndim, 0
  %nd = select i1 %ndneg, i64 0, i64 %ndim
  %arr = mul i64 %nd, 16
  %size = add i64 %arr, 96
  %blk = call ptr @calloc(i64 1, i64 %size)
  %bnul = icmp eq ptr %blk, null
  br i1 %bnul, label %oom, label %fill
fill:
  %p = getelementptr i8, ptr %blk, i64 16
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %tensor, i64 48, i1 false)
  %nshape = getelementptr i8, ptr %p, i64 64
  %shbytes = mul i64 %nd, 8
  %nstrides = getelementptr i8, ptr %nshape, i64 %shbytes
  %oshape.p = getelementptr i8, ptr %tensor, i64 24
  %oshape = load ptr, ptr %oshape.p
  call void @llvm.memcpy.p0.p0.i64(ptr %nshape, ptr %oshape, i64 %shbytes, i1 false)
  %shp = getelementptr i8, ptr %p, i64 24
  store ptr %nshape, ptr %shp
  %ostr.p = getelementptr i8, ptr %tensor, i64 32
  %ostr = load ptr, ptr %ostr.p
  %snul = icmp eq ptr %ostr, null
  br i1 %snul, label %finish, label %cpstrides
cpstrides:
  call void @llvm.memcpy.p0.p0.i64(ptr %nstrides, ptr %ostr, i64 %shbytes, i1 false)
  %strp = getelementptr i8, ptr %p, i64 32
  store ptr %nstrides, ptr %strp
  br label %finish
finish:
  %del = getelementptr i8, ptr %p, i64 56
  store ptr @postc.rt.managed_deleter, ptr %del
  call void @postc.rt.arena_release(ptr %mark)
  ret ptr %p
oom:
  call void @postc.rt.oom()
  unreachable
}

"#;

const DEPTH_IR: &str = "\n@postc.rt.depth = linkonce_odr hidden thread_local global i64 0\n";

const STRIDE_DECL: &str = "declare i64 @postc.rt.stride(ptr, i64, i64) nounwind\n";

// Out of line and small: it runs once per array on entry, and inlined, its
// loop over the axes would be vectorised at every call site.
const STRIDE_IR: &str = r#"
define linkonce_odr hidden i64 @postc.rt.stride(ptr %t, i64 %axis, i64 %elsize) noinline nounwind optsize minsize {
entry:
  %sp = getelementptr i8, ptr %t, i64 32
  %strides = load ptr, ptr %sp
  %nul = icmp eq ptr %strides, null
  br i1 %nul, label %compact, label %given
given:
  %e = getelementptr i64, ptr %strides, i64 %axis
  %s = load i64, ptr %e
  %b = mul i64 %s, %elsize
  ret i64 %b
compact:
  %ndp = getelementptr i8, ptr %t, i64 16
  %nd32 = load i32, ptr %ndp
  %nd = sext i32 %nd32 to i64
  %shp = getelementptr i8, ptr %t, i64 24
  %shape = load ptr, ptr %shp
  %k0 = add i64 %axis, 1
  br label %loop
loop:
  %k = phi i64 [ %k0, %compact ], [ %k1, %body ]
  %acc = phi i64 [ %elsize, %compact ], [ %acc1, %body ]
  %more = icmp slt i64 %k, %nd
  br i1 %more, label %body, label %done
body:
  %de = getelementptr i64, ptr %shape, i64 %k
  %d = load i64, ptr %de
  %acc1 = mul i64 %acc, %d
  %k1 = add i64 %k, 1
  br label %loop
done:
  ret i64 %acc
}

"#;

const STR_IR: &str = r#"
define linkonce_odr hidden i1 @postc.rt.str_eq({ ptr, i64 } %a, { ptr, i64 } %b) nounwind {
  %ap = extractvalue { ptr, i64 } %a, 0
  %an = extractvalue { ptr, i64 } %a, 1
  %bp = extractvalue { ptr, i64 } %b, 0
  %bn = extractvalue { ptr, i64 } %b, 1
  %same = icmp eq i64 %an, %bn
  %n = select i1 %same, i64 %an, i64 0
  %c = call i32 @memcmp(ptr %ap, ptr %bp, i64 %n)
  %z = icmp eq i32 %c, 0
  %r = and i1 %same, %z
  ret i1 %r
}

define linkonce_odr hidden i32 @postc.rt.str_cmp({ ptr, i64 } %a, { ptr, i64 } %b) nounwind {
  %ap = extractvalue { ptr, i64 } %a, 0
  %an = extractvalue { ptr, i64 } %a, 1
  %bp = extractvalue { ptr, i64 } %b, 0
  %bn = extractvalue { ptr, i64 } %b, 1
  %alt = icmp ult i64 %an, %bn
  %n = select i1 %alt, i64 %an, i64 %bn
  %c = call i32 @memcmp(ptr %ap, ptr %bp, i64 %n)
  %cz = icmp eq i32 %c, 0
  %agt = icmp ugt i64 %an, %bn
  %l1 = select i1 %agt, i32 1, i32 0
  %l = select i1 %alt, i32 -1, i32 %l1
  %r = select i1 %cz, i32 %l, i32 %c
  ret i32 %r
}

define linkonce_odr hidden { ptr, i64 } @postc.rt.str_concat({ ptr, i64 } %a, { ptr, i64 } %b) nounwind {
  %ap = extractvalue { ptr, i64 } %a, 0
  %an = extractvalue { ptr, i64 } %a, 1
  %bp = extractvalue { ptr, i64 } %b, 0
  %bn = extractvalue { ptr, i64 } %b, 1
  %n = add i64 %an, %bn
  %n1 = add i64 %n, 1
  %p = call ptr @malloc(i64 %n1)
  %nul = icmp eq ptr %p, null
  br i1 %nul, label %oom, label %go
go:
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %ap, i64 %an, i1 false)
  %q = getelementptr i8, ptr %p, i64 %an
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %bp, i64 %bn, i1 false)
  %e = getelementptr i8, ptr %p, i64 %n
  store i8 0, ptr %e
  %r0 = insertvalue { ptr, i64 } undef, ptr %p, 0
  %r = insertvalue { ptr, i64 } %r0, i64 %n, 1
  ret { ptr, i64 } %r
oom:
  call void @postc.rt.oom()
  unreachable
}
"#;

/// Extra declarations the runtime text uses beyond [`LIBC_DECLS`].
pub const RUNTIME_DECLS: &[(&str, &str)] =
    &[("llvm.umul.with.overflow.i64", "declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)")];
