//! `simplify-cfg`: branches on constants and two-way branches to one block
//! become plain branches; branches through empty forwarding blocks go
//! straight to the target; blocks no path from the entry reaches are
//! removed; a block reached only by a plain branch from its single
//! predecessor is merged into it.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::Rewriter;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body, InstData, Literal};
use postc_ir::cfg::Cfg;
use postc_ir::{EntityId, Function, Opcode};

pub struct SimplifyCfg;

pub static INFO: PassInfo = PassInfo {
    name: "simplify-cfg",
    description: "fold constant branches, skip forwarding blocks, drop unreachable blocks, merge straight-line blocks",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

impl FunctionPass for SimplifyCfg {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, _: &FuncCx<'_>, func: &mut Function, _: &mut Analyses) -> bool {
        let mut changed = false;
        // Each round only removes edges or blocks, so a handful suffices;
        // the bound keeps malformed bodies from looping.
        for _ in 0..8 {
            let a = fold_branches(&mut func.body);
            let b = rebuild(func);
            changed |= a | b;
            if !(a | b) {
                break;
            }
        }
        changed
    }
}

/// Rewrites terminators in place: constant or same-target `condbr` → `br`,
/// and targets that are empty forwarding blocks → their final target.
fn fold_branches(body: &mut Body) -> bool {
    let nblocks = body.blocks.len();
    // Where a branch to each block ends up after skipping forwarders.
    let forward: Vec<u32> = (0..nblocks as u32)
        .map(|b| {
            let mut cur = b;
            for _ in 0..nblocks {
                let bid = BlockId::from_u32(cur);
                let d = body.blocks[bid];
                match (d.len() == 1).then(|| body.inst(postc_ir::ValueId::from_u32(d.start))) {
                    Some(InstData::Br { target })
                        if target.index() < nblocks && target != bid && target.index() != 0 =>
                    {
                        cur = target.as_u32()
                    }
                    _ => break,
                }
            }
            cur
        })
        .collect();
    let mut changed = false;
    for b in body.blocks.ids() {
        let Some(t) = body.terminator(b) else { continue };
        let fwd = |x: BlockId| BlockId::from_u32(forward.get(x.index()).copied().unwrap_or(x.as_u32()));
        match body.inst(t) {
            InstData::Br { target } => {
                if fwd(target) != target {
                    body.ops[t][0] = fwd(target).as_u32();
                    changed = true;
                }
            }
            InstData::CondBr { cond, if_true, if_false, .. } => {
                let (tt, ff) = (fwd(if_true), fwd(if_false));
                let constant = match body.inst(cond) {
                    InstData::Const(Literal::Bool(c)) => Some(c),
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
                    body.map_block_operands(t, |x| fwd(x));
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed
}

/// Drops unreachable blocks and merges single-predecessor successors.
fn rebuild(func: &mut Function) -> bool {
    let body = &func.body;
    let nblocks = body.blocks.len();
    if nblocks == 0 {
        return false;
    }
    let cfg = Cfg::compute(body);
    let reachable: Vec<bool> = (0..nblocks).map(|b| cfg.is_reachable(BlockId::new(b))).collect();
    // `merge_into_pred[b]`: b is entered only by a plain branch from its
    // single predecessor, which b then follows in the same block.
    let mut absorbed = vec![false; nblocks];
    for b in 1..nblocks {
        let bid = BlockId::new(b);
        if !reachable[b] {
            continue;
        }
        let preds: Vec<BlockId> = cfg.preds(bid).filter(|p| reachable[p.index()]).collect();
        if let [p] = preds.as_slice() {
            if *p != bid && body.terminator(*p).is_some_and(|t| body.tags[t] == Opcode::Br) {
                absorbed[b] = true;
            }
        }
    }
    if reachable.iter().all(|r| *r) && !absorbed.iter().any(|a| *a) {
        return false;
    }
    let old = std::mem::take(&mut func.body);
    let mut rw = Rewriter::new(&old);
    for b in old.blocks.ids() {
        if !reachable[b.index()] || absorbed[b.index()] {
            continue;
        }
        rw.begin_old_block(b);
        let mut cur = b;
        // Copy `cur`; while its branch goes to an absorbed block, continue
        // with that block's instructions in the same new block.
        for _ in 0..nblocks {
            let mut next = None;
            for v in old.blocks[cur].insts() {
                if let InstData::Br { target } = old.inst(v) {
                    if absorbed.get(target.index()).copied().unwrap_or(false) && target != cur {
                        rw.drop_inst(v);
                        next = Some(target);
                        continue;
                    }
                }
                rw.copy(v);
            }
            match next {
                Some(t) => cur = t,
                None => break,
            }
        }
    }
    func.body = rw.finish();
    true
}
