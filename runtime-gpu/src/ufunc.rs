//! The staging of a gpu ufunc's inner loop: what `NAME_loop.gpu`, the
//! per-ufunc entry point the LLVM backend emits, calls with NumPy's
//! inner-loop arguments, the ufunc's kernel and host loop, and a constant
//! [`UfuncDescriptor`] of the ufunc's operands (docs/runtime-gpu.md §6).
//!
//! [`postc_gpu_ufunc_launch`], on the calling thread's stream:
//! - does nothing for an empty loop;
//! - runs the host loop instead when a loop or core step of an operand is
//!   not a multiple of its element size (a device cannot load such
//!   elements);
//! - under a mark of the stream's arena, uses an operand in place when the
//!   driver says it is device memory, else copies the byte span its loop and
//!   core axes reach into the arena (a returned output only when that span
//!   has gaps: otherwise the kernel writes all of it);
//! - sizes, when a view operand's core steps differ from those its parameter
//!   type fixes, the scratch buffer the device loop copies such operands
//!   through: one part per thread that runs loop indices, the grid shrunk
//!   so the buffer stays within [`SCRATCH_BUDGET`];
//! - launches the kernel ([`UFUNC_BLOCK`] threads per block, at most
//!   [`UFUNC_MAX_GRID`] blocks; its grid-stride loop covers the rest), copies
//!   every staged output back and restores the arena (which synchronises).
//!
//! It neither broadcasts nor checks shapes (NumPy and `NAME_dl` have done
//! so), nor checks core steps against the strides a parameter type declares
//! (the device's loop does, as the host's).

use std::ffi::c_void;
use std::ptr;

use crate::abi::mgpuLaunchKernel;
use crate::arena::{postc_gpu_arena_alloc, postc_gpu_arena_mark, postc_gpu_arena_restore};
use crate::backend::{DevicePtr, Handle};
use crate::{fatal, ok, postc_gpu_is_device_ptr, postc_gpu_stream, rt};

/// Threads per block of a ufunc launch.
pub const UFUNC_BLOCK: u64 = 256;
/// The most blocks of a ufunc launch.
pub const UFUNC_MAX_GRID: u64 = 65535;
/// The most bytes of scratch copies one launch of a ufunc takes (its grid
/// shrinks to fit when more threads would need more, down to one block).
pub const SCRATCH_BUDGET: u64 = 64 << 20;

/// [`UfuncOperand::flags`]: the body's result, which the kernel writes whole.
pub const OPERAND_RETURNED: u64 = 1;
/// [`UfuncOperand::flags`]: passed to the body as a view, so it takes a part
/// of each thread's scratch buffer whether it is copied there or not.
pub const OPERAND_VIEW: u64 = 2;

/// One operand of a gpu ufunc (inputs first, then outputs).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct UfuncOperand {
    /// Bytes of one element.
    pub elsize: u64,
    /// Where its core axes start in [`UfuncDescriptor::core_dims`]; its core
    /// steps start at `steps[nops + first_core]`.
    pub first_core: u64,
    /// How many core axes it has.
    pub ncore: u64,
    /// [`OPERAND_RETURNED`], [`OPERAND_VIEW`].
    pub flags: u64,
}

/// A core step that a view operand's parameter type fixes: any other value
/// makes the device loop copy the operand through the scratch buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FixedStep {
    /// Its index in `steps`.
    pub step: u64,
    pub bytes: i64,
}

/// What staging needs to know about a gpu ufunc, a constant the compiler
/// emits per ufunc. The kernel's parameters follow from it: a base pointer
/// per operand, every step, every dimension (the loop length first), the
/// scratch buffer and its bytes per thread.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct UfuncDescriptor {
    pub nops: u64,
    pub nin: u64,
    /// Distinct core dimensions: `dimensions` holds the loop length, then these.
    pub ncore_dims: u64,
    /// `nops` operands.
    pub operands: *const UfuncOperand,
    /// Per core axis of every operand, in order: its index in `dimensions`.
    pub core_dims: *const u64,
    /// `nfixed_steps` fixed core steps (NULL when none).
    pub fixed_steps: *const FixedStep,
    pub nfixed_steps: u64,
    /// Each view operand's part of a thread's scratch is rounded up to a
    /// multiple of this (as the device loop lays the parts out).
    pub scratch_align: u64,
}

/// The host inner loop `NAME_loop.host`, NumPy's signature.
pub type HostLoop = unsafe extern "C" fn(*const *mut u8, *const i64, *const i64, *mut c_void);

/// `len` elements at `p`, which may be NULL when `len` is 0.
///
/// # Safety
/// `p` points at `len` valid elements when `len > 0`.
unsafe fn slice<'a, T>(p: *const T, len: usize) -> &'a [T] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, len)
    }
}

/// A descriptor read together with one call's steps and dimensions.
struct Loop<'a> {
    nin: usize,
    operands: &'a [UfuncOperand],
    core_dims: &'a [u64],
    fixed_steps: &'a [FixedStep],
    scratch_align: u64,
    steps: &'a [i64],
    dims: &'a [i64],
}

/// The byte span an operand's elements reach. The arithmetic wraps rather
/// than panics: the extents and steps NumPy passes never overflow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    /// The lowest byte offset from the operand's base.
    lo: i64,
    /// Bytes from `lo` to the end of the highest element; 0 when empty.
    bytes: i64,
    /// Whether the span holds nothing but the elements (no gaps).
    dense: bool,
}

impl<'a> Loop<'a> {
    /// # Safety
    /// `u` describes the ufunc whose loop received `dimensions` and `steps`.
    unsafe fn new(u: &'a UfuncDescriptor, dimensions: *const i64, steps: *const i64) -> Loop<'a> {
        let operands = slice(u.operands, u.nops as usize);
        let ncore: usize = operands.iter().map(|o| o.ncore as usize).sum();
        Loop {
            nin: u.nin as usize,
            operands,
            core_dims: slice(u.core_dims, ncore),
            fixed_steps: slice(u.fixed_steps, u.nfixed_steps as usize),
            scratch_align: u.scratch_align,
            steps: slice(steps, operands.len() + ncore),
            dims: slice(dimensions, 1 + u.ncore_dims as usize),
        }
    }

    fn nops(&self) -> usize {
        self.operands.len()
    }

    /// Every (extent, byte step) operand `j`'s elements are reached by:
    /// the loop's, then its core axes'.
    fn axes(&self, j: usize) -> impl Iterator<Item = (i64, i64)> + '_ {
        let o = &self.operands[j];
        let first = o.first_core as usize;
        let core = first..first + o.ncore as usize;
        std::iter::once((self.dims[0], self.steps[j]))
            .chain(core.map(move |a| (self.dims[self.core_dims[a] as usize], self.steps[self.nops() + a])))
    }

    /// Whether some step is not a multiple of its operand's element size.
    fn misaligned(&self) -> bool {
        (0..self.nops()).any(|j| {
            let e = self.operands[j].elsize;
            e > 1 && self.axes(j).any(|(_, step)| step % e as i64 != 0)
        })
    }

    fn span(&self, j: usize) -> Span {
        let e = self.operands[j].elsize as i64;
        let (mut lo, mut hi, mut count, mut empty) = (0i64, 0i64, 1i64, false);
        for (size, step) in self.axes(j) {
            let reach = size.wrapping_sub(1).wrapping_mul(step);
            hi = hi.wrapping_add(reach.max(0));
            lo = lo.wrapping_add(reach.min(0));
            count = count.wrapping_mul(size);
            empty |= size < 1;
        }
        let bytes = if empty { 0 } else { hi.wrapping_sub(lo).wrapping_add(e) };
        Span { lo, bytes, dense: bytes == count.wrapping_mul(e) }
    }

    /// Whether a view operand's core step differs from the one its
    /// parameter type fixes: the device loop then copies it.
    fn needs_scratch(&self) -> bool {
        self.fixed_steps.iter().any(|f| self.steps[f.step as usize] != f.bytes)
    }

    /// Bytes of one thread's scratch: each view operand's core extents times
    /// its element size, rounded up to the alignment, one after another.
    fn scratch_slot(&self) -> u64 {
        let round = self.scratch_align.max(1);
        let mut slot = 0u64;
        for (j, o) in self.operands.iter().enumerate() {
            if o.flags & OPERAND_VIEW == 0 {
                continue;
            }
            let part = self.axes(j).skip(1).fold(o.elsize, |acc, (size, _)| acc.wrapping_mul(size as u64));
            slot = slot.wrapping_add(part.wrapping_add(round - 1) & !(round - 1));
        }
        slot
    }
}

/// The grid of a launch over `n > 0` loop indices, and with a scratch part
/// of `slot` bytes per thread, the scratch buffer's bytes.
fn geometry(n: i64, slot: Option<u64>) -> (u64, u64) {
    let blocks = (n as u64).wrapping_add(UFUNC_BLOCK - 1) / UFUNC_BLOCK;
    let grid = blocks.min(UFUNC_MAX_GRID);
    let Some(slot) = slot else { return (grid, 0) };
    let per_block = slot.max(1).wrapping_mul(UFUNC_BLOCK);
    let cap = SCRATCH_BUDGET.checked_div(per_block).unwrap_or(0).max(1);
    let grid = grid.min(cap);
    let threads = grid.wrapping_mul(UFUNC_BLOCK).min(n as u64);
    (grid, threads.wrapping_mul(slot))
}

/// What to copy back after the kernel: an output's span on the host and on
/// the device.
struct CopyBack {
    host: *mut u8,
    device: *mut c_void,
    bytes: u64,
}

/// Runs a gpu ufunc's inner loop on the device: `args`, `dimensions`,
/// `steps` and `data` are NumPy's, `kernel` the ufunc's kernel, `host_loop`
/// the same loop on the host, `ufunc` the compiler's description of the
/// ufunc. See the module's documentation for what it does.
#[no_mangle]
pub unsafe extern "C" fn postc_gpu_ufunc_launch(
    args: *const *mut u8,
    dimensions: *const i64,
    steps: *const i64,
    data: *mut c_void,
    kernel: Handle,
    host_loop: HostLoop,
    ufunc: *const UfuncDescriptor,
) {
    if ufunc.is_null() {
        fatal("postc_gpu_ufunc_launch: NULL descriptor");
    }
    let n = *dimensions;
    if n <= 0 {
        return;
    }
    let l = Loop::new(&*ufunc, dimensions, steps);
    if l.misaligned() {
        host_loop(args, dimensions, steps, data);
        return;
    }
    let stream = postc_gpu_stream();
    let mark = postc_gpu_arena_mark(stream);
    let b = rt();
    let nops = l.nops();
    // The base each operand's kernel parameter points at.
    let mut bases: Vec<*mut u8> = Vec::with_capacity(nops);
    let mut copy_back = Vec::new();
    for j in 0..nops {
        let host = *args.add(j);
        if postc_gpu_is_device_ptr(host as *const c_void) != 0 {
            bases.push(host);
            continue;
        }
        let span = l.span(j);
        let device = postc_gpu_arena_alloc(span.bytes as u64, stream);
        let host_span = host.wrapping_offset(span.lo as isize);
        bases.push((device as *mut u8).wrapping_offset(span.lo.wrapping_neg() as isize));
        // A returned output is written whole: only one with gaps needs its
        // old bytes copied in.
        let returned = j >= l.nin && l.operands[j].flags & OPERAND_RETURNED != 0;
        if !(returned && span.dense) {
            ok(b, b.memcpy(device as DevicePtr, host_span as DevicePtr, span.bytes as usize, stream));
        }
        if j >= l.nin {
            copy_back.push(CopyBack { host: host_span, device, bytes: span.bytes as u64 });
        }
    }
    let copies = l.needs_scratch();
    let mut slot = if copies { l.scratch_slot() } else { 0 };
    let (grid, scratch_bytes) = geometry(n, copies.then_some(slot));
    let mut scratch = if copies { postc_gpu_arena_alloc(scratch_bytes, stream) } else { ptr::null_mut() };
    // The kernel's parameters point at the bases and straight at the
    // caller's steps and dimensions.
    let mut params: Vec<*mut c_void> = Vec::with_capacity(nops + l.steps.len() + l.dims.len() + 2);
    params.extend(bases.iter_mut().map(|p| p as *mut *mut u8 as *mut c_void));
    params.extend(l.steps.iter().map(|s| s as *const i64 as *mut c_void));
    params.extend(l.dims.iter().map(|d| d as *const i64 as *mut c_void));
    params.push(&mut scratch as *mut *mut c_void as *mut c_void);
    params.push(&mut slot as *mut u64 as *mut c_void);
    let block = UFUNC_BLOCK as isize;
    let count = params.len();
    mgpuLaunchKernel(kernel, grid as isize, 1, 1, block, 1, 1, 0, stream, params.as_mut_ptr(), ptr::null_mut(), count);
    for c in &copy_back {
        ok(b, b.memcpy(c.host as DevicePtr, c.device as DevicePtr, c.bytes as usize, stream));
    }
    postc_gpu_arena_restore(mark, stream);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cross's operands: three views of 3 Float64s, their core step fixed at 8.
    fn cross() -> ([UfuncOperand; 3], [u64; 3], [FixedStep; 3]) {
        let view = |k: u64| UfuncOperand { elsize: 8, first_core: k, ncore: 1, flags: OPERAND_VIEW };
        let fixed = |k: u64| FixedStep { step: 3 + k, bytes: 8 };
        ([view(0), view(1), view(2)], [1, 1, 1], [fixed(0), fixed(1), fixed(2)])
    }

    fn descriptor(ops: &[UfuncOperand], core: &[u64], fixed: &[FixedStep], nin: u64, ncore: u64) -> UfuncDescriptor {
        UfuncDescriptor {
            nops: ops.len() as u64,
            nin,
            ncore_dims: ncore,
            operands: ops.as_ptr(),
            core_dims: core.as_ptr(),
            fixed_steps: if fixed.is_empty() { ptr::null() } else { fixed.as_ptr() },
            nfixed_steps: fixed.len() as u64,
            scratch_align: 16,
        }
    }

    #[test]
    fn spans_cover_negative_steps_and_gaps() {
        let scalar = |flags| UfuncOperand { elsize: 8, first_core: 0, ncore: 0, flags };
        let ops = [scalar(0), scalar(OPERAND_RETURNED)];
        let d = descriptor(&ops, &[], &[], 1, 0);
        let (dims, steps) = ([10i64], [-8i64, 24]);
        // SAFETY: the arrays match the descriptor.
        let l = unsafe { Loop::new(&d, dims.as_ptr(), steps.as_ptr()) };
        assert_eq!(l.span(0), Span { lo: -72, bytes: 80, dense: true });
        assert_eq!(l.span(1), Span { lo: 0, bytes: 224, dense: false });
        assert!(!l.misaligned() && !l.needs_scratch());
        let steps = [-8i64, 12];
        // SAFETY: as above.
        let l = unsafe { Loop::new(&d, dims.as_ptr(), steps.as_ptr()) };
        assert!(l.misaligned());
    }

    #[test]
    fn an_empty_core_axis_spans_nothing() {
        let (ops, core, fixed) = cross();
        let d = descriptor(&ops, &core, &fixed, 2, 1);
        let (dims, steps) = ([4i64, 0], [24i64, 24, 24, 8, 8, 8]);
        // SAFETY: the arrays match the descriptor.
        let l = unsafe { Loop::new(&d, dims.as_ptr(), steps.as_ptr()) };
        assert_eq!(l.span(2), Span { lo: -8, bytes: 0, dense: true });
    }

    #[test]
    fn scratch_parts_are_rounded_and_only_for_other_steps() {
        let (ops, core, fixed) = cross();
        let d = descriptor(&ops, &core, &fixed, 2, 1);
        let dims = [700i64, 3];
        let contiguous = [24i64, 24, 24, 8, 8, 8];
        // SAFETY: the arrays match the descriptor.
        let l = unsafe { Loop::new(&d, dims.as_ptr(), contiguous.as_ptr()) };
        assert!(!l.needs_scratch());
        assert_eq!(l.scratch_slot(), 96);
        let columns = [8i64, 8, 8, 5600, 5600, 5600];
        // SAFETY: as above.
        let l = unsafe { Loop::new(&d, dims.as_ptr(), columns.as_ptr()) };
        assert!(l.needs_scratch());
        assert_eq!(geometry(700, Some(l.scratch_slot())), (3, 700 * 96));
    }

    #[test]
    fn the_grid_shrinks_to_keep_scratch_within_budget() {
        assert_eq!(geometry(1, None), (1, 0));
        assert_eq!(geometry(1000, None), (4, 0));
        assert_eq!(geometry(i64::MAX, None), (UFUNC_MAX_GRID, 0));
        // 96 bytes a thread: at most 2730 blocks of 256 threads.
        let (grid, bytes) = geometry(10_000_000, Some(96));
        assert_eq!(grid, SCRATCH_BUDGET / (96 * UFUNC_BLOCK));
        assert_eq!(bytes, grid * UFUNC_BLOCK * 96);
        assert!(bytes <= SCRATCH_BUDGET);
        // A part larger than the budget still gets one block, and fewer
        // threads than indices need no more parts than indices.
        assert_eq!(geometry(100, Some(1 << 30)), (1, 100 << 30));
        assert_eq!(geometry(10_000, Some(0)), (40, 0));
    }
}
