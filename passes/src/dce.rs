//! `dce`: removes instructions whose results are never read and whose
//! execution has no effect — no side effect and no trap, as the opcode
//! table says ([`Opcode::has_side_effects`], [`Opcode::trap`]) refined by
//! the result type and the overflow-check option. Removal cascades: an
//! operand whose last reader goes is considered in turn.
//!
//! A `view` traps when it is invalid, so it stays until `insert-checks`
//! has run: its validity is then checked by the guard before it (or not at
//! all, by the options), and the view itself can no longer panic. From
//! then on dce removes a view that nothing reads; the guard stays, so an
//! invalid view still panics where it stood (as the index or slice that
//! made it raises in NumPy, or the frontend's own check before it). A
//! `view.inbounds` is valid by construction, so dce removes it whenever
//! nothing reads it; it is not moved either, as it is valid only where
//! its maker's checks have passed.
//!
//! An `alloc` whose extents are constants, none negative, of at most
//! [`MAX_ALLOC_BYTES`] bytes cannot fail, so an unused one goes too (the
//! frontend's placeholder for an array local bound inside a block is an
//! `alloc` of extent 0, which `forward-sets` may leave unread).

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::Rewriter;
use crate::scratch::{Scratch, ScratchVec};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{Body, InstData, Literal, ValueId};
use postc_ir::{EntityId, Function, Opcode, Trap, TypeTable};

pub struct Dce;

pub static INFO: PassInfo = PassInfo {
    name: "dce",
    description: "remove instructions whose results are unused and that have no effect",
    scope: Scope::Function,
    // Use counts are computed straight into a reused buffer (they are
    // consumed as the removal cascades).
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::CFG,
};

/// Whether removing `v` (when its result is unused) cannot change what the
/// program does.
pub fn is_removable(body: &Body, types: &TypeTable, v: ValueId, overflow_checks: bool) -> bool {
    let op = body.tags[v];
    if !op.may_be_removable() {
        return false;
    }
    // Decided from the opcode and the result type alone: no payload is
    // decoded.
    op.trap() == Trap::Never || {
        let dtype = body.types[v].and_then(|t| types.try_get(t)).map(|d| d.dtype);
        !op.may_trap_with(dtype, overflow_checks)
    }
}

/// The largest `alloc` dce may remove, in bytes (the interpreter's
/// largest allocation).
const MAX_ALLOC_BYTES: u64 = postc_ir::interp::MAX_ALLOC_BYTES as u64;

/// Whether the `alloc` `v` has constant extents, none negative, of at most
/// [`MAX_ALLOC_BYTES`] bytes in all: it cannot fail.
fn is_small_constant_alloc(body: &Body, types: &TypeTable, v: ValueId) -> bool {
    let Some(elem) = body.types[v].and_then(|t| types.try_get(t)).map(|d| d.dtype.size_bytes()) else {
        return false;
    };
    let mut bytes = Some(u64::from(elem));
    body.for_each_operand(v, |x| {
        let extent = match body.inst(x) {
            InstData::Const(Literal::Int(k)) => u64::try_from(k).ok(),
            _ => None,
        };
        bytes = bytes.zip(extent).and_then(|(b, e)| b.checked_mul(e));
    });
    bytes.is_some_and(|b| b <= MAX_ALLOC_BYTES)
}

fn is_alloc(op: Opcode) -> bool {
    matches!(op, Opcode::Alloc | Opcode::AllocEmpty)
}

/// Whether an instruction of `op` is a view that can no longer panic in a
/// pass run with `cx`: a `view.inbounds`, or a `view` once `insert-checks`
/// has run (see the module docs).
fn is_settled_view(cx: &FuncCx<'_>, op: Opcode) -> bool {
    op == Opcode::ViewInBounds || cx.checks_inserted && op == Opcode::View
}

/// Whether an instruction of `op` may be removable in a pass run with `cx`:
/// [`Opcode::may_be_removable`], a view that can no longer panic, or an
/// `alloc` (removable when it cannot fail).
pub(crate) fn may_go(cx: &FuncCx<'_>, op: Opcode) -> bool {
    op.may_be_removable() || is_settled_view(cx, op) || is_alloc(op)
}

/// Whether removing `v` when its result is unused, in a pass run with
/// `cx`, cannot change what the program does: [`is_removable`], a view
/// that can no longer panic, or an `alloc` that cannot fail. (Not a
/// licence to move either: a view can no longer panic only because its
/// guard, or its maker's, comes first, and each run of an `alloc` makes a
/// new array.)
pub(crate) fn removable_unused(cx: &FuncCx<'_>, body: &Body, v: ValueId) -> bool {
    let op = body.tags[v];
    is_removable(body, cx.types, v, cx.options.overflow_checks)
        || is_settled_view(cx, op)
        || is_alloc(op) && is_small_constant_alloc(body, cx.types, v)
}

impl FunctionPass for Dce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let scratch = cx.scratch;
        let body = &func.body;
        let n = body.num_insts();
        let first = (body.num_params + body.num_core) as usize;
        let mut uses = match analyses.known_uses() {
            Some(u) => {
                let mut uses = scratch.vec_with_capacity(n);
                uses.extend_from_slice(u.as_slice());
                uses.resize(n, 0);
                uses
            }
            None => crate::analysis::UseCounts::compute_in(body, scratch),
        };
        let mut dead = scratch.filled(n, false);
        let mut work = scratch.vec();
        let tags = body.tags.raw();
        work.extend((first..n).filter(|&i| uses[i] == 0 && may_go(cx, tags[i])).map(ValueId::new));
        let any = cascade(body, cx, first, &mut uses, &mut dead, &mut work);
        if !any {
            return false;
        }
        remove(func, &dead, scratch);
        true
    }
}

/// Removes the instructions flagged in `dead` (and any outside every
/// block): in place when the blocks lie in order, else by a rebuild.
pub(crate) fn remove(func: &mut Function, dead: &[bool], scratch: &Scratch) {
    if !compact_in_place(&mut func.body, dead, scratch) {
        rebuild(func, dead, scratch);
    }
}

/// Flags dead (in `dead`) every removable instruction of `work` whose result
/// is unused, then every operand whose last reader went, and so on; `uses`
/// are the use counts, consumed as readers go. Returns whether any
/// instruction was flagged.
fn cascade(
    body: &Body,
    cx: &FuncCx<'_>,
    first: usize,
    uses: &mut [u32],
    dead: &mut [bool],
    work: &mut ScratchVec<'_, ValueId>,
) -> bool {
    let mut any = false;
    while let Some(v) = work.pop() {
        if dead[v.index()] || uses[v.index()] != 0 || !removable_unused(cx, body, v) {
            continue;
        }
        dead[v.index()] = true;
        any = true;
        let release = |x: ValueId| {
            if let Some(u) = uses.get_mut(x.index()) {
                *u = u.saturating_sub(1);
                if *u == 0 && x.index() >= first {
                    work.push(x);
                }
            }
        };
        // Most removable instructions read their operands from the payload
        // slots themselves.
        crate::rewrite::for_each_operand_fast(body, v, release);
    }
    any
}

/// Removes the dead instructions (`dead[i]`, one flag per instruction) by
/// rebuilding the body.
fn rebuild(func: &mut Function, dead: &[bool], scratch: &Scratch) {
    let old = std::mem::take(&mut func.body);
    let mut rw = Rewriter::new(&old, scratch);
    for b in old.blocks.ids() {
        rw.begin_old_block(b);
        let d = old.blocks[b];
        let mut run_start = d.start;
        for i in d.start..d.end {
            if dead[i as usize] {
                rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(i));
                rw.drop_inst(ValueId::from_u32(i));
                run_start = i + 1;
            }
        }
        rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
    }
    func.body = rw.finish();
    scratch.recycle(old);
}

/// Removes the dead instructions (and any outside every block) in place,
/// with the same result as [`rebuild`] (see
/// [`crate::rewrite::compact_blocks_in_place`]). Returns false, changing
/// nothing, when the blocks do not lie in order one after another past the
/// parameters.
fn compact_in_place(body: &mut Body, dead: &[bool], scratch: &Scratch) -> bool {
    crate::rewrite::compact_blocks_in_place(body, None, Some(dead), scratch)
}
