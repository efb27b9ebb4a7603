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
use crate::rewrite::BlockFate;
use crate::simplify_cfg::{self, Plan};
use crate::{const_fold, dce, FunctionPass, PassInfo, Scope};
use postc_ir::body::ValueId;
use postc_ir::{EntityId, Function};

pub struct Cleanup;

pub static INFO: PassInfo = PassInfo {
    name: "cleanup",
    description: "const-fold, simplify-cfg and dce in one sweep, with the result of the three in turn",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

impl FunctionPass for Cleanup {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let folded = const_fold::fold(cx, func, analyses, true);
        if folded {
            analyses.invalidate_except(const_fold::INFO.keeps);
        }
        let scratch = cx.scratch;
        let Plan { mut forward, mut fate, mut preds, mut forwarder } = Plan::new(scratch);
        // The first round of simplify-cfg: fold the branches in place,
        // then plan the rebuild.
        let branches = simplify_cfg::fold_branches(&mut func.body, &mut forward, scratch);
        let planned = simplify_cfg::plan(&func.body, &mut fate, &mut preds);
        if (branches || planned) && !simplify_cfg::settles(&func.body, &fate, &mut forwarder) {
            // A second round would change more: the first round's
            // rebuild, the rest of the rounds and dce as they are.
            if planned {
                simplify_cfg::apply(func, &fate, None, scratch);
            }
            simplify_cfg::rounds(func, analyses, 7, scratch);
            analyses.invalidate_cfg();
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
        let mut dead = scratch.filled(n, true);
        dead[..first].fill(false);
        let mut work = scratch.vec();
        let tags = body.tags.raw();
        for (d, _) in body.blocks.iter().zip(fate.iter()).filter(|(_, &f)| f != BlockFate::Removed) {
            let (s, e) = ((d.start as usize).max(first), (d.end as usize).min(n));
            for i in s..e.max(s) {
                if !dce::may_go(cx, tags[i]) || !dce::removable_unused(cx, body, ValueId::new(i)) {
                    dead[i] = false;
                    work.push(ValueId::new(i));
                }
            }
        }
        while let Some(v) = work.pop() {
            let mark = |x: ValueId| {
                if let Some(d) = dead.get_mut(x.index()) {
                    if *d {
                        *d = false;
                        work.push(x);
                    }
                }
            };
            crate::rewrite::for_each_operand_fast(body, v, mark);
        }
        simplify_cfg::apply(func, &fate, Some(&dead), scratch);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For each function of `text`: whether `settles` holds after the first
    /// round's branch folding and plan.
    fn settles_after_first_round(text: &str) -> Vec<bool> {
        let m = postc_ir::parse::parse_module("t.pir", text.as_bytes()).expect("parses");
        m.functions
            .iter()
            .map(|f| {
                let mut body = f.body.clone();
                let scratch = crate::scratch::Scratch::new();
                let mut plan = Plan::new(&scratch);
                simplify_cfg::fold_branches(&mut body, &mut plan.forward, &scratch);
                simplify_cfg::plan(&body, &mut plan.fate, &mut plan.preds);
                simplify_cfg::settles(&body, &plan.fate, &mut plan.forwarder)
            })
            .collect()
    }

    #[test]
    fn cycles_of_forwarders_settle_in_one_round() {
        let text = include_str!("../tests/filetests/cleanup-forwarding-cycle.pir");
        assert_eq!(settles_after_first_round(text), vec![true, true]);
        let text = include_str!("../tests/filetests/cleanup-sweep.pir");
        assert_eq!(settles_after_first_round(text), vec![true]);
    }

    /// A plan that keeps a branch to a block holding only a `br` (branches
    /// left unfolded here) does not settle.
    #[test]
    fn a_branch_left_on_a_forwarder_is_seen() {
        let text = "module m\n\nfunc f(%c: Bool) {\nentry:\n  condbr %c, a, b\na:\n  br b\nb:\n  return\n}\n";
        let m = postc_ir::parse::parse_module("t.pir", text.as_bytes()).expect("parses");
        let body = &m.functions.iter().next().expect("one function").body;
        let scratch = crate::scratch::Scratch::new();
        let mut plan = Plan::new(&scratch);
        simplify_cfg::plan(body, &mut plan.fate, &mut plan.preds);
        assert!(!simplify_cfg::settles(body, &plan.fate, &mut plan.forwarder));
    }
}
