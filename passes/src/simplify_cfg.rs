//! `simplify-cfg`: branches on constants and two-way branches to one block
//! become plain branches; branches through empty forwarding blocks go
//! straight to the target; blocks no path from the entry reaches are
//! removed; a block reached only by a plain branch from its single
//! predecessor is merged into it.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::BlockFate;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body};
use postc_ir::cfg::Cfg;
use postc_ir::{EntityId, Function, Opcode, TypeId, ValueId};
use std::cell::RefCell;

pub struct SimplifyCfg;

pub static INFO: PassInfo = PassInfo {
    name: "simplify-cfg",
    description: "fold constant branches, skip forwarding blocks, drop unreachable blocks, merge straight-line blocks",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    // The graph of the last round, which changed nothing, is handed on.
    keeps: AnalysisSet::CFG,
};

impl FunctionPass for SimplifyCfg {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, _: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        // A cached graph is that of the body as it is on entry.
        let (cfg, valid) = match analyses.take_cfg() {
            Some(cfg) => (cfg, true),
            None => (analyses.spare_cfg(), false),
        };
        rounds(func, analyses, cfg, valid, None)
    }
}

/// Finishes what [`SimplifyCfg`] does to a body whose branches its first
/// round has folded already (`folded`: whether that changed anything);
/// `cfg` is the graph of the body as it is now.
pub(crate) fn finish_rounds(func: &mut Function, analyses: &mut Analyses, cfg: Cfg, folded: bool) -> bool {
    rounds(func, analyses, cfg, true, Some(folded))
}

/// Rounds of branch folding and rebuilding until one changes nothing.
/// `valid`: whether `cfg` is the graph of the body; `first_fold`: the
/// outcome of the first round's branch folding, if it was done already.
fn rounds(
    func: &mut Function,
    analyses: &mut Analyses,
    mut cfg: Cfg,
    mut valid: bool,
    first_fold: Option<bool>,
) -> bool {
    let mut changed = false;
    // Each round only removes edges or blocks, so a handful suffices;
    // the bound keeps malformed bodies from looping.
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        let Scratch { forward, fate } = &mut *s;
        for round in 0..8 {
            let a = match first_fold {
                Some(a) if round == 0 => a,
                _ => {
                    let a = fold_branches(&mut func.body, forward);
                    valid &= !a;
                    a
                }
            };
            let b = rebuild(func, &mut cfg, valid, fate);
            // The graph is now that of the body before the rebuild.
            valid = !b;
            changed |= a | b;
            if !(a | b) {
                break;
            }
        }
    });
    if valid {
        analyses.set_cfg(cfg);
    } else {
        crate::analysis::recycle_cfg(cfg);
    }
    changed
}

#[derive(Default)]
struct Scratch {
    forward: Vec<u32>,
    /// Per block: 0 removed (unreachable), 1 kept, 2 absorbed into its predecessor.
    fate: Vec<u8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
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

/// Rewrites terminators in place: constant or same-target `condbr` → `br`,
/// and targets that are empty forwarding blocks → their final target.
pub(crate) fn fold_branches(body: &mut Body, forward: &mut Vec<u32>) -> bool {
    let nblocks = body.blocks.len();
    // Where a branch to each block ends up after skipping forwarders.
    forward.clear();
    let mut any_forward = false;
    forward.extend((0..nblocks as u32).map(|b| {
        let mut cur = b;
        for _ in 0..nblocks {
            match forwarding_target(body, cur as usize) {
                Some(target) if (target as usize) < nblocks && target != cur && target != 0 => cur = target,
                _ => break,
            }
        }
        any_forward |= cur != b;
        cur
    }));
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

/// Drops unreachable blocks and merges single-predecessor successors.
/// `cfg` is recomputed unless `valid` says it is that of the body already;
/// either way it is that of the body as it was before the rebuild.
fn rebuild(func: &mut Function, cfg: &mut Cfg, valid: bool, fate: &mut Vec<u8>) -> bool {
    if !valid {
        cfg.recompute(&func.body);
    }
    if !plan(&func.body, cfg, fate) {
        return false;
    }
    apply(func, fate);
    true
}

/// What [`rebuild`] does with each block of `body`, whose graph is `cfg`:
/// `fate[b]` is [`REMOVED`] (unreachable), [`KEPT`] or [`ABSORBED`] (into
/// its predecessor). Returns whether any block is not simply kept.
pub(crate) fn plan(body: &Body, cfg: &Cfg, fate: &mut Vec<u8>) -> bool {
    let nblocks = body.blocks.len();
    fate.clear();
    if nblocks == 0 {
        return false;
    }
    fate.extend((0..nblocks).map(|b| if cfg.is_reachable(BlockId::new(b)) { KEPT } else { REMOVED }));
    let mut any = fate.contains(&REMOVED);
    // An absorbed block is entered only by a plain branch from its single
    // predecessor, which it then follows in the same block.
    for b in 1..nblocks {
        if fate[b] == REMOVED {
            continue;
        }
        let bid = BlockId::new(b);
        let mut preds = cfg.preds_raw(bid).iter().filter(|&&p| fate[p as usize] != REMOVED);
        if let (Some(&p), None) = (preds.next(), preds.next()) {
            let pd = body.blocks.raw()[p as usize];
            if p as usize != b && pd.end > pd.start && body.tags.raw()[pd.end as usize - 1] == Opcode::Br {
                fate[b] = ABSORBED;
                any = true;
            }
        }
    }
    any
}

pub(crate) const REMOVED: u8 = 0;
pub(crate) const KEPT: u8 = 1;
pub(crate) const ABSORBED: u8 = 2;

/// The block that kept block `b` continues with: the target of its closing
/// `br` when that block is absorbed.
#[inline]
pub(crate) fn absorbed_successor(body: &Body, fate: &[u8], b: BlockId) -> Option<BlockId> {
    let d = body.blocks[b];
    if d.end <= d.start {
        return None;
    }
    let t = ValueId::from_u32(d.end - 1);
    if body.tags[t] != Opcode::Br {
        return None;
    }
    let target = BlockId::from_u32(body.ops[t][0]);
    (fate.get(target.index()).copied() == Some(ABSORBED) && target != b).then_some(target)
}

/// Fate of a block for [`crate::rewrite::compact_blocks_in_place`].
pub(crate) fn block_fate(fate: &[u8], b: usize) -> BlockFate {
    match fate.get(b).copied() {
        Some(KEPT) => BlockFate::Kept,
        Some(ABSORBED) => BlockFate::Appended,
        _ => BlockFate::Removed,
    }
}

/// Rebuilds the body as `fate` says: in place when the blocks it keeps
/// already lie in their new order, else by copying.
pub(crate) fn apply(func: &mut Function, fate: &[u8]) {
    let fate_of = |b: usize| block_fate(fate, b);
    if !crate::rewrite::compact_blocks_in_place(&mut func.body, fate_of, None) {
        crate::rewrite::rebuild_blocks(func, fate_of, None);
    }
}
