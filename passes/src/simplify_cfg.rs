//! `simplify-cfg`: branches on constants and two-way branches to one block
//! become plain branches; branches through empty forwarding blocks go
//! straight to the target; blocks no path from the entry reaches are
//! removed; a block reached only by a plain branch from its single
//! predecessor is merged into it.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::{appended_to, BlockFate};
use crate::scratch::{Scratch, ScratchVec};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body};
use postc_ir::{EntityId, Function, Opcode, TypeId, ValueId};

pub struct SimplifyCfg;

pub static INFO: PassInfo = PassInfo {
    name: "simplify-cfg",
    description: "fold constant branches, skip forwarding blocks, drop unreachable blocks, merge straight-line blocks",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    // The graph is kept when nothing changed (and dropped otherwise).
    keeps: AnalysisSet::CFG,
};

impl FunctionPass for SimplifyCfg {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        rounds(func, analyses, 8, cx.scratch)
    }
}

/// Rounds of branch folding and rebuilding, at most `max`, until one
/// changes nothing; a round after which [`settles`] shows the next would
/// change nothing is the last.
pub(crate) fn rounds(func: &mut Function, analyses: &mut Analyses, max: usize, scratch: &Scratch) -> bool {
    let mut changed = false;
    let Plan { mut forward, mut fate, mut preds, mut forwarder } = Plan::new(scratch);
    // Each round only removes edges or blocks, so a handful suffices;
    // the bound keeps malformed bodies from looping.
    for _ in 0..max {
        let folded = fold_branches(&mut func.body, &mut forward, scratch);
        let planned = plan(&func.body, &mut fate, &mut preds);
        if !(folded | planned) {
            break;
        }
        changed = true;
        let settled = settles(&func.body, &fate, &mut forwarder);
        if planned {
            apply(func, &fate, None, scratch);
        }
        if settled {
            break;
        }
    }
    if changed {
        analyses.invalidate_cfg();
    }
    changed
}

/// The buffers of a round, in the worker's scratch memory.
pub(crate) struct Plan<'s> {
    /// Where a branch to each block ends up (see [`fold_branches`]).
    pub forward: ScratchVec<'s, u32>,
    /// What becomes of each block (see [`plan`]).
    pub fate: ScratchVec<'s, BlockFate>,
    pub preds: ScratchVec<'s, (u32, u32)>,
    pub forwarder: ScratchVec<'s, bool>,
}

impl<'s> Plan<'s> {
    pub fn new(scratch: &'s Scratch) -> Plan<'s> {
        Plan { forward: scratch.vec(), fate: scratch.vec(), preds: scratch.vec(), forwarder: scratch.vec() }
    }
}

/// The target of a block made of a single `br`, if that is all it holds.
#[inline]
fn forwarding_target(body: &Body, b: usize) -> Option<u32> {
    let d = body.blocks.raw()[b];
    if d.len() != 1 || body.tags.raw().get(d.start as usize) != Some(&Opcode::Br) {
        return None;
    }
    Some(body.ops.raw()[d.start as usize][0])
}

/// Fills `forward` with where a branch to each block ends up after skipping
/// the empty forwarding blocks (never into the entry block); on a cycle of
/// forwarders, at the first block of the cycle that the walk meets. Every
/// block is walked once: a walk stops at a block already resolved, and all
/// the blocks it passed resolve to the same end. Returns whether any block
/// forwards.
fn forward_targets(body: &Body, forward: &mut ScratchVec<'_, u32>, scratch: &Scratch) -> bool {
    const UNSEEN: u32 = u32::MAX;
    const ON_PATH: u32 = u32::MAX - 1;
    let nblocks = body.blocks.len();
    forward.clear();
    forward.resize(nblocks, UNSEEN);
    let mut path: ScratchVec<'_, u32> = scratch.vec();
    let mut any = false;
    for b in 0..nblocks as u32 {
        if forward[b as usize] != UNSEEN {
            continue;
        }
        path.clear();
        let mut cur = b;
        let end = loop {
            match forward[cur as usize] {
                UNSEEN => {}
                // Around a cycle: this block is where it is entered.
                ON_PATH => break cur,
                done => break done,
            }
            forward[cur as usize] = ON_PATH;
            path.push(cur);
            match forwarding_target(body, cur as usize) {
                Some(target) if (target as usize) < nblocks && target != cur && target != 0 => cur = target,
                _ => break cur,
            }
        };
        for &p in &path {
            forward[p as usize] = end;
            any |= end != p;
        }
    }
    any
}

/// Rewrites terminators in place: constant or same-target `condbr` → `br`,
/// and targets that are empty forwarding blocks → their final target.
pub(crate) fn fold_branches(body: &mut Body, forward: &mut ScratchVec<'_, u32>, scratch: &Scratch) -> bool {
    let nblocks = body.blocks.len();
    // Where a branch to each block ends up after skipping forwarders.
    let any_forward = forward_targets(body, forward, scratch);
    let mut changed = false;
    for b in 0..nblocks {
        let d = body.blocks.raw()[b];
        if d.end <= d.start {
            continue;
        }
        let t = ValueId::from_u32(d.end - 1);
        let fwd = |x: BlockId| BlockId::from_u32(forward.get(x.index()).copied().unwrap_or(x.as_u32()));
        match body.tags[t] {
            Opcode::Br if any_forward => {
                let target = BlockId::from_u32(body.ops[t][0]);
                if fwd(target) != target {
                    body.ops[t][0] = fwd(target).as_u32();
                    changed = true;
                }
            }
            Opcode::CondBr => {
                // The payload read directly: `[cond, at]`, targets at
                // `extra[at..at + 2]`, weights after them.
                let [c, at] = body.ops[t];
                let Some(&[if_true, if_false, _, _]) = body.extra.get(at as usize..at as usize + 4) else { continue };
                let (if_true, if_false) = (BlockId::from_u32(if_true), BlockId::from_u32(if_false));
                let (tt, ff) = (fwd(if_true), fwd(if_false));
                let cond = ValueId::from_u32(c);
                // A Bool constant's payload is `[0 or 1, 0]`.
                let constant = match body.tags.get(cond) {
                    Some(Opcode::Const) if body.types.get(cond).copied().flatten() == Some(TypeId::BOOL) => {
                        Some(body.ops[cond][0] != 0)
                    }
                    _ => None,
                };
                let target = match constant {
                    Some(true) => Some(tt),
                    Some(false) => Some(ff),
                    None if tt == ff => Some(tt),
                    None => None,
                };
                if let Some(target) = target {
                    body.tags[t] = Opcode::Br;
                    body.ops[t] = [target.as_u32(), 0];
                    changed = true;
                } else if (tt, ff) != (if_true, if_false) {
                    body.map_block_operands(t, fwd);
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed
}

/// What a round does with each block of `body`: removes it (unreachable),
/// keeps it, or appends it to its single predecessor. No graph is built: the blocks the entry reaches, and for each the number of
/// branches from reached blocks into it and the last of them, are all it
/// takes. `preds` is scratch. Returns whether any block is not simply kept.
pub(crate) fn plan(body: &Body, fate: &mut ScratchVec<'_, BlockFate>, preds: &mut ScratchVec<'_, (u32, u32)>) -> bool {
    let nblocks = body.blocks.len();
    let n = body.num_insts();
    fate.clear();
    if nblocks == 0 {
        return false;
    }
    // The successors of a block, straight from its terminator's payload.
    let successors = |b: usize| -> [u32; 2] {
        const NONE: u32 = u32::MAX;
        let d = body.blocks.raw()[b];
        if d.end <= d.start || d.end as usize > n {
            return [NONE; 2];
        }
        let t = d.end as usize - 1;
        let [a, at] = body.ops.raw()[t];
        let valid = |x: u32| if (x as usize) < nblocks { x } else { NONE };
        match body.tags.raw()[t] {
            Opcode::Br => [valid(a), NONE],
            Opcode::CondBr => match body.extra.get(at as usize..at as usize + 2) {
                Some(&[x, y]) => [valid(x), valid(y)],
                _ => [NONE; 2],
            },
            _ => [NONE; 2],
        }
    };
    fate.resize(nblocks, BlockFate::Removed);
    fate[0] = BlockFate::Kept;
    // `preds` serves first as the stack of the walk, then as the counts.
    preds.clear();
    preds.push((0, 0));
    while let Some((b, _)) = preds.pop() {
        for t in successors(b as usize) {
            if let Some(f) = fate.get_mut(t as usize) {
                if *f == BlockFate::Removed {
                    *f = BlockFate::Kept;
                    preds.push((t, 0));
                }
            }
        }
    }
    preds.clear();
    preds.resize(nblocks, (0, 0));
    for (b, &f) in fate.iter().enumerate() {
        if f == BlockFate::Removed {
            continue;
        }
        for t in successors(b) {
            if let Some(p) = preds.get_mut(t as usize) {
                *p = (p.0 + 1, b as u32);
            }
        }
    }
    let mut any = fate.contains(&BlockFate::Removed);
    // An absorbed block is entered only by a plain branch from its single
    // predecessor, which it then follows in the same block.
    for b in 1..nblocks {
        let (count, p) = preds[b];
        if fate[b] == BlockFate::Removed || count != 1 || p as usize == b {
            continue;
        }
        let pd = body.blocks.raw()[p as usize];
        if pd.end > pd.start && body.tags.raw().get(pd.end as usize - 1) == Some(&Opcode::Br) {
            fate[b] = BlockFate::Appended;
            any = true;
        }
    }
    any
}

/// Whether `simplify-cfg`, having folded the branches of `body` and then
/// rebuilt it as `fate` says, would change nothing in its next round.
///
/// The rebuild leaves no unreachable block, and no block that a plain
/// branch from its single predecessor enters (each was absorbed, and
/// absorbing keeps every other block's predecessors), so the next round
/// can only change a branch: one to a block of the rebuilt body that holds
/// nothing but a `br` elsewhere. Branches on constants and two-way branches
/// to one block were all folded already.
pub(crate) fn settles(body: &Body, fate: &[BlockFate], forwarder: &mut ScratchVec<'_, bool>) -> bool {
    let nblocks = body.blocks.len();
    forwarder.clear();
    forwarder.resize(nblocks, false);
    let mut any = false;
    for b in body.blocks.ids() {
        if fate[b.index()] != BlockFate::Kept {
            continue;
        }
        // The instructions of the rebuilt block, absorbed `br`s left out.
        let mut len = 0usize;
        let mut cur = b;
        for _ in 0..nblocks {
            let next = appended_to(body, fate, cur.index());
            len += body.blocks[cur].len() - usize::from(next.is_some());
            match next {
                Some(t) => cur = BlockId::new(t),
                None => break,
            }
        }
        let d = body.blocks[cur];
        if len != 1 || d.end <= d.start || body.tags[ValueId::from_u32(d.end - 1)] != Opcode::Br {
            continue;
        }
        let target = body.ops[ValueId::from_u32(d.end - 1)][0] as usize;
        if target < nblocks && target != b.index() && target != 0 {
            forwarder[b.index()] = true;
            any = true;
        }
    }
    if !any {
        return true;
    }
    // Does any branch of the rebuilt body go to such a block? Its branches
    // are those that end a block it keeps and are not absorbed.
    let is_forwarder = |t: u32| forwarder.get(t as usize).copied().unwrap_or(false);
    for b in body.blocks.ids() {
        let d = body.blocks[b];
        if fate[b.index()] == BlockFate::Removed || d.end <= d.start || appended_to(body, fate, b.index()).is_some() {
            continue;
        }
        let t = ValueId::from_u32(d.end - 1);
        let targets_forwarder = match body.tags[t] {
            Opcode::Br => is_forwarder(body.ops[t][0]),
            Opcode::CondBr => {
                let at = body.ops[t][1] as usize;
                body.extra.get(at..at + 2).is_some_and(|e| is_forwarder(e[0]) || is_forwarder(e[1]))
            }
            _ => false,
        };
        if targets_forwarder {
            return false;
        }
    }
    true
}

/// Rebuilds the body as `fate` says, leaving out the instructions flagged
/// in `dead` too, if given: in place when the blocks it keeps already lie
/// in their new order, else by copying.
pub(crate) fn apply(func: &mut Function, fate: &[BlockFate], dead: Option<&[bool]>, scratch: &Scratch) {
    if !crate::rewrite::compact_blocks_in_place(&mut func.body, Some(fate), dead, scratch) {
        crate::rewrite::rebuild_blocks(func, fate, dead, scratch);
    }
}
