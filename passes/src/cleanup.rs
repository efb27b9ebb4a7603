//! `cleanup`: `const-fold`, `simplify-cfg` and `dce` in one sweep, with
//! exactly the result of running the three in that order.
//!
//! Run in turn over a body that folding mostly deletes, the three copy it
//! twice: `simplify-cfg` rebuilds it without its unreachable blocks, and
//! `dce` then compacts the rebuilt body, and each visits what the previous
//! one is about to drop. Here folding evaluates only the blocks that stay
//! reachable once branches on constants are taken, `simplify-cfg`'s first
//! round is planned but not carried out, the dead instructions are found
//! on the planned body, and one rebuild applies both.
//!
//! That equals the three in turn when `simplify-cfg` would stop after its
//! first round, which [`settles`] decides from the plan. Otherwise (a block
//! of the rebuilt body would be a lone `br` that a branch skips) the
//! remaining rounds and `dce` run as they are.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::{SLOTS, SLOTS_A, SLOTS_AB, SLOTS_NONE};
use crate::simplify_cfg::{self, KEPT, REMOVED};
use crate::{const_fold, dce, FunctionPass, PassInfo, Scope};
use postc_ir::body::{Body, ValueId};
use postc_ir::{EntityId, Function, Opcode};
use std::cell::RefCell;

pub struct Cleanup;

pub static INFO: PassInfo = PassInfo {
    name: "cleanup",
    description: "const-fold, simplify-cfg and dce in one sweep, with the result of the three in turn",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

#[derive(Default)]
struct Scratch {
    forward: Vec<u32>,
    fate: Vec<u8>,
    dead: Vec<bool>,
    work: Vec<ValueId>,
    forwarder: Vec<bool>,
    counts: Vec<(u32, u32)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl FunctionPass for Cleanup {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let folded = const_fold::fold(cx, func, analyses, true);
        if folded {
            analyses.invalidate_except(const_fold::INFO.keeps);
        }
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            let Scratch { forward, fate, dead, work, forwarder, counts } = &mut *s;
            // The first round of simplify-cfg: fold the branches in place,
            // then plan the rebuild.
            let branches = simplify_cfg::fold_branches(&mut func.body, forward);
            let planned = plan(&func.body, fate, counts);
            if (branches || planned) && !settles(&func.body, fate, forwarder) {
                // A second round would change more: the rest as it is.
                let mut cfg = analyses.take_cfg().unwrap_or_else(|| analyses.spare_cfg());
                cfg.recompute(&func.body);
                simplify_cfg::finish_rounds(func, analyses, cfg, branches);
                analyses.invalidate_except(simplify_cfg::INFO.keeps);
                dce::Dce.run(cx, func, analyses);
                return true;
            }
            analyses.invalidate_cfg();
            if !planned {
                // Nothing to rebuild: dce on the body as it is.
                return dce::Dce.run(cx, func, analyses) | folded | branches;
            }
            // The instructions dce would remove from the rebuilt body: those
            // no instruction that stays reads, directly or through others.
            // Marked from the instructions that must stay (not removable)
            // through their operands; in a verified body removable
            // instructions form no cycle, so this is what dce's cascade of
            // use counts leaves. Only the blocks the rebuild keeps count (an
            // absorbed block's `br` reads nothing).
            let body = &func.body;
            let n = body.num_insts();
            let first = ((body.num_params + body.num_core) as usize).min(n);
            dead.clear();
            dead.resize(n, true);
            dead[..first].fill(false);
            work.clear();
            let tags = body.tags.raw();
            let checks = cx.options.overflow_checks;
            for (d, _) in body.blocks.iter().zip(fate.iter()).filter(|(_, &f)| f != REMOVED) {
                let (s, e) = ((d.start as usize).max(first), (d.end as usize).min(n));
                for i in s..e.max(s) {
                    if !dce::may_be_removable(tags[i]) || !dce::is_removable(body, cx.types, ValueId::new(i), checks) {
                        dead[i] = false;
                        work.push(ValueId::new(i));
                    }
                }
            }
            while let Some(v) = work.pop() {
                let mut mark = |x: ValueId| {
                    if let Some(d) = dead.get_mut(x.index()) {
                        if *d {
                            *d = false;
                            work.push(x);
                        }
                    }
                };
                let [a, b] = body.ops[v];
                match SLOTS[tags[v.index()] as usize] {
                    SLOTS_NONE => {}
                    SLOTS_A => mark(ValueId::from_u32(a)),
                    SLOTS_AB => {
                        mark(ValueId::from_u32(a));
                        mark(ValueId::from_u32(b));
                    }
                    _ => body.for_each_operand(v, mark),
                }
            }
            let fate_of = |b: usize| simplify_cfg::block_fate(fate, b);
            let dead = Some(dead.as_slice());
            if !crate::rewrite::compact_blocks_in_place(&mut func.body, fate_of, dead) {
                crate::rewrite::rebuild_blocks(func, fate_of, dead);
            }
            true
        })
    }
}

/// [`simplify_cfg::plan`] without the graph: the blocks the entry reaches,
/// and for each the number of branches from reached blocks into it and the
/// last of them, are all the plan reads. `preds` is scratch.
fn plan(body: &Body, fate: &mut Vec<u8>, preds: &mut Vec<(u32, u32)>) -> bool {
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
    fate.resize(nblocks, REMOVED);
    fate[0] = KEPT;
    // `preds` serves first as the stack of the walk, then as the counts.
    preds.clear();
    preds.push((0, 0));
    while let Some((b, _)) = preds.pop() {
        for t in successors(b as usize) {
            if let Some(f) = fate.get_mut(t as usize) {
                if *f == REMOVED {
                    *f = KEPT;
                    preds.push((t, 0));
                }
            }
        }
    }
    preds.clear();
    preds.resize(nblocks, (0, 0));
    for b in 0..nblocks {
        if fate[b] == REMOVED {
            continue;
        }
        for t in successors(b) {
            if let Some(p) = preds.get_mut(t as usize) {
                *p = (p.0 + 1, b as u32);
            }
        }
    }
    let mut any = fate.contains(&REMOVED);
    // An absorbed block is entered only by a plain branch from its single
    // predecessor, which it then follows in the same block.
    for b in 1..nblocks {
        let (count, p) = preds[b];
        if fate[b] == REMOVED || count != 1 || p as usize == b {
            continue;
        }
        let pd = body.blocks.raw()[p as usize];
        if pd.end > pd.start && body.tags.raw().get(pd.end as usize - 1) == Some(&Opcode::Br) {
            fate[b] = simplify_cfg::ABSORBED;
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
fn settles(body: &Body, fate: &[u8], forwarder: &mut Vec<bool>) -> bool {
    let nblocks = body.blocks.len();
    forwarder.clear();
    forwarder.resize(nblocks, false);
    let mut any = false;
    for b in body.blocks.ids() {
        if fate[b.index()] != KEPT {
            continue;
        }
        // The instructions of the rebuilt block, absorbed `br`s left out.
        let mut len = 0usize;
        let mut cur = b;
        for _ in 0..nblocks {
            let next = simplify_cfg::absorbed_successor(body, fate, cur);
            len += body.blocks[cur].len() - usize::from(next.is_some());
            match next {
                Some(t) => cur = t,
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
        if fate[b.index()] == REMOVED || d.end <= d.start || simplify_cfg::absorbed_successor(body, fate, b).is_some() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use postc_ir::cfg::Cfg;

    /// For each function of `text`: whether `settles` holds after the first
    /// round's branch folding and plan.
    fn settles_after_first_round(text: &str) -> Vec<bool> {
        let m = postc_ir::parse::parse_module("t.pir", text.as_bytes()).expect("parses");
        m.functions
            .iter()
            .map(|f| {
                let mut body = f.body.clone();
                simplify_cfg::fold_branches(&mut body, &mut Vec::new());
                let mut cfg = Cfg::default();
                cfg.recompute(&body);
                let mut fate = Vec::new();
                simplify_cfg::plan(&body, &cfg, &mut fate);
                settles(&body, &fate, &mut Vec::new())
            })
            .collect()
    }

    #[test]
    fn a_branch_left_on_a_forwarder_is_seen() {
        let text = include_str!("../tests/filetests/cleanup-forwarding-cycle.pir");
        assert_eq!(settles_after_first_round(text), vec![true, false]);
        let text = include_str!("../tests/filetests/cleanup-sweep.pir");
        assert_eq!(settles_after_first_round(text), vec![true]);
    }
}
