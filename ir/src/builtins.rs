//! Built-in functions of the `postc.` namespace, which every stage knows:
//! the verifier checks calls to them, the interpreter runs them, codegen
//! lowers them. Functions whose names start with `postc.` are module-private
//! (the cold-outline pass creates them); user code cannot define one.

use crate::dtype::DType;
use crate::types::{Layout, Shape, TypeData};

/// The reserved prefix of built-in and compiler-made functions.
pub const PREFIX: &str = "postc.";

/// The panic built-in: `call postc.panic(%msg: Str, %args: Int64...)`. It
/// never returns: it reports `msg` with each `{}` replaced by the next
/// argument in decimal, located at the call, and aborts.
pub const PANIC: &str = "postc.panic";

/// The print built-in: `call postc.print(%x...)`. It writes the text of
/// its arguments, in order and with nothing between them, as one write to
/// the program's standard output (to the runtime's print handler where one
/// is set, as the Python package sets one to `sys.stdout`): a Str as its
/// bytes, a Bool as `True` or `False`, an Int64 or UInt64 in decimal, a
/// Float64 as Python's `repr` of a float and a Float32 as NumPy prints a
/// `float32` (see [`float_text`]). Python's `print` becomes one call, its
/// separators and line end Str arguments; one call is one write, so lines
/// printed by several threads do not interleave.
pub const PRINT: &str = "postc.print";

/// A built-in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Builtin {
    Panic,
    Print,
    /// `postc.ovf.<op>(a, b: T) -> Bool`: whether `a op b` overflows the
    /// integer dtype `T` (for `pow`, `b` is the exponent, non-negative).
    Overflows(OvfOp),
    /// `postc.gpu.<register>.<axis>() -> Int64`: the launch coordinates of
    /// the running thread, as CUDA's `threadIdx`, `blockIdx`, `blockDim`
    /// and `gridDim`. Only `kernel` functions may call them.
    Gpu(GpuReg, Axis),
    /// `postc.gpu.shared() -> T[]Shape[d0, ...]`: the block-shared array of
    /// this call site, its dtype and static shape given by the result type.
    /// Every thread of a block that reaches the call gets the same array,
    /// every block its own; its elements are unspecified until written (the
    /// interpreter and the host emulation start each block with zeros).
    Shared,
    /// `postc.gpu.sync_threads()`: waits until every thread of the block has
    /// reached a barrier; memory writes made before it by any thread of the
    /// block (shared or global) are visible to all after it. Every thread of
    /// a block must reach the same number of barriers.
    SyncThreads,
    /// `postc.gpu.atomic_add(%a: T[]Shape[...], %i..., %v: T) [-> T]`: adds
    /// `%v` to the element `%a[%i...]` (one integer index per axis, checked
    /// against the extents) as one indivisible step and returns the old
    /// value. `T` is Int32, UInt32, Int64, UInt64, Float32 or Float64;
    /// integers wrap.
    AtomicAdd,
    /// `postc.prange(%kinds: Str, %i: Int64, %stop: Int64, %step: Int64,
    /// %r...)`: marks the `for` loop whose header the block's `br` enters
    /// as a `prange` loop. `%i` is the loop's counter (a `let` local holding
    /// the start), `%stop` the limit its header compares with, `%step` the
    /// step; each `%r` is a `let` local the loop reduces into, with the
    /// operator given by the same position of `%kinds` (a constant): `+`
    /// (`r += e`), `-` (`r -= e`), `*` (`r *= e`), `<` (`r = min(r, e)`) or
    /// `>` (`r = max(r, e)`). It does nothing when run: the loop runs
    /// serially; the `outline-parallel` pass turns it into
    /// `postc.parallel_for`.
    Prange,
    /// `%n: Int64 = call postc.parallel_for(%body: Str, %start: Int64,
    /// %stop: Int64, %step: Int64, %args...)`: runs the iterations of
    /// `range(start, stop, step)` as [`PARALLEL_CHUNKS`] chunks or fewer
    /// (see [`chunk_bounds`]), possibly on several threads, by calling the
    /// module's function named by the constant `%body` as
    /// `body(%chunk, %lo, %hi, %args...)` once per chunk; the result is the
    /// number of chunks. Only the `outline-parallel` pass makes it.
    ParallelFor,
    /// `%stop: Bool = call postc.parallel_stopped(%chunk: Int64)`: whether
    /// a chunk with a lower index than `%chunk` of the `postc.parallel_for`
    /// running this chunk function has panicked (its panic is the one
    /// raised: this chunk's iterations after it cannot matter). The chunk
    /// functions of the `outline-parallel` pass ask on their loop's back
    /// edge and return when it is true.
    ParallelStopped,
    /// `%d: Int64 = call postc.depth()`: the running thread's count of
    /// frames of depth-counted functions (`crate::calls::depth_counted`),
    /// 0 when a thread starts. `insert-checks`' recursion guard reads it
    /// before a counted call.
    Depth,
    /// `call postc.set_depth(%d: Int64)`: sets that count; the recursion
    /// guard counts the callee's frame before the call and restores the
    /// caller's after it. Only the recursion guard makes these two calls;
    /// each backend keeps the count where its target keeps thread-local
    /// state.
    SetDepth,
}

/// `postc.prange`.
pub const PRANGE: &str = "postc.prange";
/// `postc.parallel_for`.
pub const PARALLEL_FOR: &str = "postc.parallel_for";
/// `postc.parallel_stopped`.
pub const PARALLEL_STOPPED: &str = "postc.parallel_stopped";
/// `postc.depth`.
pub const DEPTH: &str = "postc.depth";
/// `postc.set_depth`.
pub const SET_DEPTH: &str = "postc.set_depth";

/// The most chunks a `prange` loop is split into. The chunks depend on the
/// trip count alone, never on the number of threads, so a reduction's
/// partial results, combined in chunk order, are the same bits on any
/// number of threads. The runtime library (`postc_rt_parallel_for`) uses
/// the same constant and formula.
pub const PARALLEL_CHUNKS: u64 = 128;

/// The number of iterations of `range(start, stop, step)` (`step != 0`),
/// which may exceed `i64::MAX`.
pub fn trip_count(start: i64, stop: i64, step: i64) -> u64 {
    if step > 0 && stop > start {
        (stop.wrapping_sub(start) as u64 - 1) / step as u64 + 1
    } else if step < 0 && start > stop {
        (start.wrapping_sub(stop) as u64 - 1) / step.unsigned_abs() + 1
    } else {
        0
    }
}

/// The chunks of `range(start, stop, step)`: `(lo, hi)` per chunk, the
/// first and the end value of the counter, in chunk order. Chunk `c` of
/// `m = min(n, PARALLEL_CHUNKS)` runs the iterations `[c*n/m, (c+1)*n/m)`;
/// the last one ends at `stop` itself.
pub fn chunk_bounds(start: i64, stop: i64, step: i64) -> Vec<(i64, i64)> {
    let n = trip_count(start, stop, step);
    let m = n.min(PARALLEL_CHUNKS);
    let at = |k: u128| start.wrapping_add((k as u64).wrapping_mul(step as u64) as i64);
    (0..m)
        .map(|c| {
            let lo = c as u128 * n as u128 / m as u128;
            let hi = (c as u128 + 1) * n as u128 / m as u128;
            (at(lo), if c + 1 == m { stop } else { at(hi) })
        })
        .collect()
}

/// `postc.gpu.shared`.
pub const SHARED: &str = "postc.gpu.shared";
/// `postc.gpu.sync_threads`.
pub const SYNC_THREADS: &str = "postc.gpu.sync_threads";
/// `postc.gpu.atomic_add`.
pub const ATOMIC_ADD: &str = "postc.gpu.atomic_add";

/// The most bytes of block-shared arrays one kernel may declare (what every
/// NVIDIA GPU gives a block without opting in; AMD GPUs give 64 KiB).
pub const MAX_SHARED_BYTES: u64 = 48 * 1024;

/// Whether `postc.gpu.atomic_add` takes arrays of `d`.
pub fn atomic_dtype(d: DType) -> bool {
    matches!(d, DType::Int32 | DType::UInt32 | DType::Int64 | DType::UInt64 | DType::Float32 | DType::Float64)
}

/// The size in bytes of the block-shared array of type `t`, when `t` is a
/// valid result type of `postc.gpu.shared` (else why not).
pub fn shared_bytes(t: &TypeData) -> Result<u64, String> {
    if !t.is_array || t.is_output {
        return Err(format!("`{SHARED}` returns an array (without `&`), not {t}"));
    }
    if t.dtype.is_complex() || t.dtype.is_text() {
        return Err(format!("`{SHARED}` cannot make an array of {}", t.dtype));
    }
    if matches!(t.layout, Layout::Strides(_)) {
        return Err(format!("`{SHARED}` makes C- or Fortran-order arrays, not {t}"));
    }
    let Shape::Dims(dims) = &t.shape else {
        return Err(format!("`{SHARED}` needs a static shape in its result type, got {t}"));
    };
    let mut bytes = t.dtype.size_bytes() as u64;
    for d in dims {
        match d {
            Some(n) if *n > 0 => bytes = bytes.saturating_mul(*n),
            _ => return Err(format!("`{SHARED}` needs a static shape of positive extents, got {t}")),
        }
    }
    if bytes > MAX_SHARED_BYTES {
        return Err(format!("`{SHARED}`: {t} takes {bytes} bytes, more than the {MAX_SHARED_BYTES} a block may share"));
    }
    Ok(bytes)
}

/// A thread-coordinate register of a kernel launch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GpuReg {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    GridDim,
}

/// An axis of a launch grid or block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl GpuReg {
    pub const ALL: [GpuReg; 4] = [GpuReg::ThreadIdx, GpuReg::BlockIdx, GpuReg::BlockDim, GpuReg::GridDim];

    pub fn name(self) -> &'static str {
        match self {
            GpuReg::ThreadIdx => "thread_idx",
            GpuReg::BlockIdx => "block_idx",
            GpuReg::BlockDim => "block_dim",
            GpuReg::GridDim => "grid_dim",
        }
    }
}

impl Axis {
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];

    pub fn name(self) -> &'static str {
        match self {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::Z => "z",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// The prefix of the thread-coordinate built-ins.
pub const GPU_PREFIX: &str = "postc.gpu.";

/// The name of a thread-coordinate built-in: `postc.gpu.thread_idx.x`.
pub fn gpu_builtin_name(reg: GpuReg, axis: Axis) -> String {
    format!("{GPU_PREFIX}{}.{}", reg.name(), axis.name())
}

/// The coordinates of one thread of a launch, per register and axis.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ThreadCoords {
    pub thread_idx: [u32; 3],
    pub block_idx: [u32; 3],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
}

impl ThreadCoords {
    pub fn get(&self, reg: GpuReg, axis: Axis) -> u32 {
        let r = match reg {
            GpuReg::ThreadIdx => &self.thread_idx,
            GpuReg::BlockIdx => &self.block_idx,
            GpuReg::BlockDim => &self.block_dim,
            GpuReg::GridDim => &self.grid_dim,
        };
        r[axis.index()]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OvfOp {
    Add,
    Sub,
    Mul,
    Pow,
    /// Unary: `postc.ovf.neg(a: T) -> Bool`.
    Neg,
    /// Unary: `postc.ovf.abs(a: T) -> Bool`.
    Abs,
}

impl OvfOp {
    pub const ALL: [OvfOp; 6] = [OvfOp::Add, OvfOp::Sub, OvfOp::Mul, OvfOp::Pow, OvfOp::Neg, OvfOp::Abs];

    pub fn name(self) -> &'static str {
        match self {
            OvfOp::Add => "postc.ovf.add",
            OvfOp::Sub => "postc.ovf.sub",
            OvfOp::Mul => "postc.ovf.mul",
            OvfOp::Pow => "postc.ovf.pow",
            OvfOp::Neg => "postc.ovf.neg",
            OvfOp::Abs => "postc.ovf.abs",
        }
    }

    pub fn arity(self) -> usize {
        match self {
            OvfOp::Neg | OvfOp::Abs => 1,
            _ => 2,
        }
    }
}

impl Builtin {
    pub fn from_name(name: &str) -> Option<Builtin> {
        match name {
            PANIC => return Some(Builtin::Panic),
            PRINT => return Some(Builtin::Print),
            SHARED => return Some(Builtin::Shared),
            SYNC_THREADS => return Some(Builtin::SyncThreads),
            ATOMIC_ADD => return Some(Builtin::AtomicAdd),
            PRANGE => return Some(Builtin::Prange),
            PARALLEL_FOR => return Some(Builtin::ParallelFor),
            PARALLEL_STOPPED => return Some(Builtin::ParallelStopped),
            DEPTH => return Some(Builtin::Depth),
            SET_DEPTH => return Some(Builtin::SetDepth),
            _ => {}
        }
        if let Some(rest) = name.strip_prefix(GPU_PREFIX) {
            let (reg, axis) = rest.split_once('.')?;
            let reg = GpuReg::ALL.into_iter().find(|r| r.name() == reg)?;
            let axis = Axis::ALL.into_iter().find(|a| a.name() == axis)?;
            return Some(Builtin::Gpu(reg, axis));
        }
        OvfOp::ALL.iter().find(|o| o.name() == name).map(|o| Builtin::Overflows(*o))
    }

    /// The built-in's name.
    pub fn name(self) -> String {
        match self {
            Builtin::Panic => PANIC.into(),
            Builtin::Print => PRINT.into(),
            Builtin::Overflows(op) => op.name().into(),
            Builtin::Gpu(reg, axis) => gpu_builtin_name(reg, axis),
            Builtin::Shared => SHARED.into(),
            Builtin::SyncThreads => SYNC_THREADS.into(),
            Builtin::AtomicAdd => ATOMIC_ADD.into(),
            Builtin::Prange => PRANGE.into(),
            Builtin::ParallelFor => PARALLEL_FOR.into(),
            Builtin::ParallelStopped => PARALLEL_STOPPED.into(),
            Builtin::Depth => DEPTH.into(),
            Builtin::SetDepth => SET_DEPTH.into(),
        }
    }

    /// Whether only `kernel` functions may call it.
    pub fn kernel_only(self) -> bool {
        matches!(self, Builtin::Gpu(..) | Builtin::Shared | Builtin::SyncThreads | Builtin::AtomicAdd)
    }

    /// Whether it takes or returns arrays (see [`Builtin::check_typed`]);
    /// the others take and return scalars only ([`Builtin::check`]).
    pub fn takes_arrays(self) -> bool {
        matches!(self, Builtin::Shared | Builtin::AtomicAdd | Builtin::ParallelFor)
    }

    /// Checks the argument and result types of a call to a built-in that
    /// [`Builtin::takes_arrays`], or of one without arguments or result.
    pub fn check_typed(self, args: &[&TypeData], ret: Option<&TypeData>) -> Result<(), String> {
        match self {
            Builtin::Shared => {
                if !args.is_empty() {
                    return Err(format!("`{SHARED}` takes no arguments (its result type gives the array)"));
                }
                match ret {
                    None => Err(format!("`{SHARED}` returns the array: give the call a result")),
                    Some(t) => shared_bytes(t).map(|_| ()),
                }
            }
            Builtin::AtomicAdd => {
                let (Some(a), Some(v)) = (args.first(), args.last()) else {
                    return Err(format!("`{ATOMIC_ADD}` takes an array, its indices and a value"));
                };
                if !a.is_array || !atomic_dtype(a.dtype) {
                    return Err(format!(
                        "`{ATOMIC_ADD}` adds to an array of Int32, UInt32, Int64, UInt64, Float32 or Float64, not {a}"
                    ));
                }
                let Some(nd) = a.ndim() else {
                    return Err(format!("`{ATOMIC_ADD}`: the type of the array must give its rank, got {a}"));
                };
                if args.len() != nd + 2 {
                    return Err(format!(
                        "`{ATOMIC_ADD}` on {a} takes {nd} {}, got {}",
                        if nd == 1 { "index" } else { "indices" },
                        args.len().saturating_sub(2)
                    ));
                }
                if let Some(i) = args[1..args.len() - 1].iter().find(|i| i.is_array || !i.dtype.is_int()) {
                    return Err(format!("`{ATOMIC_ADD}`: an index must be an integer scalar, got {i}"));
                }
                if v.is_array || v.dtype != a.dtype {
                    return Err(format!("`{ATOMIC_ADD}`: the value must be {}, got {v}", a.dtype));
                }
                match ret {
                    Some(r) if r.is_array || r.dtype != a.dtype => {
                        Err(format!("`{ATOMIC_ADD}` returns the old element, {}, not {r}", a.dtype))
                    }
                    _ => Ok(()),
                }
            }
            Builtin::ParallelFor => {
                let ok = args.len() >= 4
                    && !args[0].is_array
                    && args[0].dtype == DType::Str
                    && args[1..4].iter().all(|t| !t.is_array && t.dtype == DType::Int64);
                if !ok {
                    return Err(format!(
                        "`{PARALLEL_FOR}` takes a Str naming the chunk function, then the start, stop and step (Int64)"
                    ));
                }
                match ret {
                    Some(r) if !r.is_array && r.dtype == DType::Int64 => Ok(()),
                    _ => Err(format!("`{PARALLEL_FOR}` returns the number of chunks, Int64")),
                }
            }
            b => {
                if let Some(t) = args.iter().find(|t| t.is_array) {
                    return Err(format!("`{}` takes scalars, got {t}", b.name()));
                }
                if let Some(r) = ret.filter(|r| r.is_array) {
                    return Err(format!("`{}` returns a scalar, not {r}", b.name()));
                }
                let dtypes: Vec<DType> = args.iter().map(|t| t.dtype).collect();
                b.check(&dtypes, ret.map(|r| r.dtype))
            }
        }
    }

    /// Checks argument dtypes (scalars) and the result dtype of a call.
    /// Returns a message describing the mismatch.
    pub fn check(self, args: &[DType], ret: Option<DType>) -> Result<(), String> {
        match self {
            Builtin::Panic => {
                if args.first() != Some(&DType::Str) {
                    return Err("`postc.panic` takes a Str message first".into());
                }
                if args[1..].iter().any(|a| *a != DType::Int64) {
                    return Err("`postc.panic` takes Int64 message arguments".into());
                }
                if ret.is_some() {
                    return Err("`postc.panic` returns nothing".into());
                }
                Ok(())
            }
            Builtin::Print => {
                if let Some(a) = args.iter().find(|a| !printable(**a)) {
                    return Err(format!(
                        "`{PRINT}` prints Str, Bool, Int64, UInt64, Float64 and Float32 values, not {a}"
                    ));
                }
                if ret.is_some() {
                    return Err(format!("`{PRINT}` returns nothing"));
                }
                Ok(())
            }
            Builtin::Overflows(op) => {
                if args.len() != op.arity() {
                    return Err(format!("`{}` takes {} arguments", op.name(), op.arity()));
                }
                if !args[0].is_int() || args.iter().any(|a| *a != args[0]) {
                    return Err(format!("`{}` takes integer arguments of one dtype", op.name()));
                }
                if ret != Some(DType::Bool) {
                    return Err(format!("`{}` returns Bool", op.name()));
                }
                Ok(())
            }
            Builtin::Gpu(reg, axis) => {
                let name = gpu_builtin_name(reg, axis);
                if !args.is_empty() {
                    return Err(format!("`{name}` takes no arguments"));
                }
                if ret != Some(DType::Int64) {
                    return Err(format!("`{name}` returns Int64"));
                }
                Ok(())
            }
            Builtin::SyncThreads => {
                if !args.is_empty() {
                    return Err(format!("`{SYNC_THREADS}` takes no arguments"));
                }
                if ret.is_some() {
                    return Err(format!("`{SYNC_THREADS}` returns nothing"));
                }
                Ok(())
            }
            Builtin::Prange => {
                let ok = args.len() >= 4 && args[0] == DType::Str && args[1..4].iter().all(|a| *a == DType::Int64);
                if !ok {
                    return Err(format!(
                        "`{PRANGE}` takes a Str of operators, then the counter, stop and step (Int64)"
                    ));
                }
                if ret.is_some() {
                    return Err(format!("`{PRANGE}` returns nothing"));
                }
                Ok(())
            }
            Builtin::ParallelStopped => {
                if args != [DType::Int64] {
                    return Err(format!("`{PARALLEL_STOPPED}` takes the chunk's index (Int64)"));
                }
                if ret != Some(DType::Bool) {
                    return Err(format!("`{PARALLEL_STOPPED}` returns Bool"));
                }
                Ok(())
            }
            Builtin::Depth => {
                if !args.is_empty() || ret != Some(DType::Int64) {
                    return Err(format!("`{DEPTH}` takes no arguments and returns Int64"));
                }
                Ok(())
            }
            Builtin::SetDepth => {
                if args != [DType::Int64] || ret.is_some() {
                    return Err(format!("`{SET_DEPTH}` takes the depth (Int64) and returns nothing"));
                }
                Ok(())
            }
            Builtin::Shared | Builtin::AtomicAdd | Builtin::ParallelFor => {
                Err(format!("`{}` takes or returns arrays: check it with its types", self.name()))
            }
        }
    }
}

/// Whether `postc.print` takes a value of dtype `d`.
pub fn printable(d: DType) -> bool {
    matches!(d, DType::Str | DType::Bool | DType::Int64 | DType::UInt64 | DType::Float64 | DType::Float32)
}

/// The text `postc.print` writes for a float: for a Float64 (`single`
/// false) Python's `repr`, for a Float32 NumPy's `str` of a `float32`.
/// Both take the fewest significant digits that read back as the same
/// value of the dtype. The number is written positionally (with `.0` when
/// it is whole) when those digits' decimal exponent is from -4 to 15
/// (Float64, as Python decides) or when `1e-4 <= |x| < 1e6` (Float32, as
/// NumPy decides, on the value itself), and zero always so; otherwise in
/// scientific notation, the exponent signed and of two digits at least
/// (`1e-05`, `1.5e+16`).
/// Every backend's runtime writes the same text.
pub fn float_text(x: f64, single: bool) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.into();
    }
    // Rust's `{:e}` is the shortest text that reads back as the same value.
    let sci = if single { format!("{:e}", x as f32) } else { format!("{x:e}") };
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` writes an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` writes a decimal exponent");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let positional = if single { (1e-4..1e6).contains(&x.abs()) } else { (-4..16).contains(&exp) };
    if x == 0.0 || positional {
        let point = exp + 1;
        let text = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        return format!("{sign}{text}");
    }
    let exp_sign = if exp < 0 { '-' } else { '+' };
    format!("{sign}{mantissa}e{exp_sign}{:02}", exp.unsigned_abs())
}

/// Renders a panic message: each `{}` takes the next argument.
pub fn render_panic(msg: &str, args: &[i128]) -> String {
    let mut out = String::with_capacity(msg.len() + 8);
    let mut rest = msg;
    let mut args = args.iter();
    while let Some(i) = rest.find("{}") {
        out.push_str(&rest[..i]);
        match args.next() {
            Some(a) => out.push_str(&a.to_string()),
            None => out.push_str("{}"),
        }
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// Whether `a op b` overflows `dtype` (exact, over i128).
pub fn overflows(op: OvfOp, dtype: DType, a: i128, b: i128) -> bool {
    let Some((lo, hi)) = dtype.int_range() else { return false };
    let exact: Option<i128> = match op {
        OvfOp::Add => a.checked_add(b),
        OvfOp::Sub => a.checked_sub(b),
        OvfOp::Mul => a.checked_mul(b),
        OvfOp::Neg => a.checked_neg(),
        OvfOp::Abs => a.checked_abs(),
        OvfOp::Pow => {
            if b < 0 {
                return false;
            }
            let mut acc: i128 = 1;
            let mut ok = true;
            for _ in 0..b.min(200) {
                match acc.checked_mul(a) {
                    Some(x) if (lo..=hi).contains(&x) => acc = x,
                    _ => {
                        ok = false;
                        break;
                    }
                }
                if acc == 0 || acc == 1 {
                    break;
                }
                if acc == -1 {
                    // (-1)^b alternates: the result is -1 or 1, both in range.
                    break;
                }
            }
            if ok {
                Some(acc)
            } else {
                None
            }
        }
    };
    match exact {
        Some(x) => x < lo || x > hi,
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_python_and_numpy_write_them() {
        let f64s = [
            (0.1, "0.1"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789.0, "123456789.0"),
            (1e-5, "1e-05"),
            (1e-4, "0.0001"),
            (1.5e-5, "1.5e-05"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (-2.5, "-2.5"),
            (1e300, "1e+300"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (x, want) in f64s {
            assert_eq!(float_text(x, false), want, "{x:e}");
        }
        let f32s = [
            (0.1, "0.1"),
            (123456789.0, "1.2345679e+08"),
            (999999.0, "999999.0"),
            (1e6, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (1e-4, "1e-04"),
            (0.00011, "0.00011"),
            (3.0, "3.0"),
            (-0.0, "-0.0"),
            (3e38, "3e+38"),
        ];
        for (x, want) in f32s {
            assert_eq!(float_text(x as f32 as f64, true), want, "{x:e}");
        }
    }

    #[test]
    fn names_and_checks() {
        assert_eq!(Builtin::from_name("postc.panic"), Some(Builtin::Panic));
        assert_eq!(Builtin::from_name("postc.ovf.mul"), Some(Builtin::Overflows(OvfOp::Mul)));
        assert_eq!(Builtin::from_name("postc.nope"), None);
        assert!(Builtin::Panic.check(&[DType::Str, DType::Int64], None).is_ok());
        assert!(Builtin::Panic.check(&[DType::Int64], None).is_err());
        assert!(Builtin::Overflows(OvfOp::Add).check(&[DType::Int8, DType::Int8], Some(DType::Bool)).is_ok());
        assert!(Builtin::Overflows(OvfOp::Add).check(&[DType::Int8, DType::Int16], Some(DType::Bool)).is_err());
        let tid = Builtin::from_name("postc.gpu.thread_idx.y");
        assert_eq!(tid, Some(Builtin::Gpu(GpuReg::ThreadIdx, Axis::Y)));
        assert_eq!(Builtin::from_name("postc.gpu.grid_dim.z"), Some(Builtin::Gpu(GpuReg::GridDim, Axis::Z)));
        assert_eq!(Builtin::from_name("postc.gpu.thread_idx.w"), None);
        assert_eq!(Builtin::from_name("postc.gpu.lane.x"), None);
        assert!(tid.unwrap().check(&[], Some(DType::Int64)).is_ok());
        assert!(tid.unwrap().check(&[], Some(DType::Int32)).is_err());
        assert!(tid.unwrap().check(&[DType::Int64], Some(DType::Int64)).is_err());
        for reg in GpuReg::ALL {
            for axis in Axis::ALL {
                assert_eq!(Builtin::from_name(&gpu_builtin_name(reg, axis)), Some(Builtin::Gpu(reg, axis)));
            }
        }
        for b in [
            Builtin::Shared,
            Builtin::SyncThreads,
            Builtin::AtomicAdd,
            Builtin::Panic,
            Builtin::Gpu(GpuReg::GridDim, Axis::Z),
        ] {
            assert_eq!(Builtin::from_name(&b.name()), Some(b));
        }
        assert_eq!(Builtin::from_name("postc.gpu.shared.x"), None);
        assert!(
            Builtin::SyncThreads.kernel_only() && Builtin::AtomicAdd.kernel_only() && !Builtin::Panic.kernel_only()
        );
        assert!(Builtin::SyncThreads.check(&[], None).is_ok());
        assert!(Builtin::SyncThreads.check(&[], Some(DType::Int64)).is_err());
        // The array built-ins are checked with their types.
        assert!(Builtin::Shared.check(&[], None).is_err());
        let shared = TypeData::array(DType::Float32, Shape::dims(&[Some(16), Some(16)]), Layout::COrder);
        assert_eq!(shared_bytes(&shared), Ok(1024));
        assert!(Builtin::Shared.check_typed(&[], Some(&shared)).is_ok());
        let i64t = TypeData::scalar(DType::Int64);
        let f32t = TypeData::scalar(DType::Float32);
        assert!(Builtin::AtomicAdd.check_typed(&[&shared, &i64t, &i64t, &f32t], Some(&f32t)).is_ok());
        assert!(Builtin::AtomicAdd.check_typed(&[&shared, &i64t, &f32t], None).is_err());
        // The scalar built-ins refuse arrays through `check_typed` too.
        assert!(Builtin::Overflows(OvfOp::Add)
            .check_typed(&[&shared, &shared], Some(&TypeData::scalar(DType::Bool)))
            .is_err());
        assert!(tid.unwrap().check_typed(&[], Some(&i64t)).is_ok());
    }

    #[test]
    fn renders_and_detects_overflow() {
        assert_eq!(render_panic("index {} of {}", &[5, 3]), "index 5 of 3");
        assert!(overflows(OvfOp::Add, DType::Int8, 127, 1));
        assert!(!overflows(OvfOp::Add, DType::Int8, 126, 1));
        assert!(overflows(OvfOp::Sub, DType::UInt8, 0, 1));
        assert!(overflows(OvfOp::Neg, DType::Int32, i32::MIN as i128, 0));
        assert!(overflows(OvfOp::Abs, DType::Int64, i64::MIN as i128, 0));
        assert!(overflows(OvfOp::Pow, DType::Int8, 2, 7));
        assert!(!overflows(OvfOp::Pow, DType::Int8, 2, 6));
        assert!(!overflows(OvfOp::Pow, DType::Int8, -2, 7));
        assert!(!overflows(OvfOp::Pow, DType::Int64, -1, 1 << 60));
        assert!(overflows(OvfOp::Mul, DType::UInt64, 1 << 40, 1 << 40));
    }
}
