//! `forward-sets`: reads of an array local that is assigned once read the
//! assigned value itself.
//!
//! The frontend declares an array local bound inside a loop or a branch
//! (`r = a[i]` in a `for` loop) up front, as a `let`, and assigns it with
//! `set` where Python binds it. Every read then goes through the local, so
//! the view assigned to it escapes: a backend must give it a header that
//! outlives the iteration (the LLVM backend makes it in the call's arena,
//! one per iteration) instead of building it in the frame.
//!
//! A read of a `let` local `L` of array type reads the value `v` instead
//! when:
//!
//! - `L` has exactly one `set L = v`, and `v` is made in the same block
//!   before it, and is not itself a mutable local (a `let` or a
//!   parameter): every run of `v`'s instruction then reaches the `set`
//!   before anything else, so the value in `L` is always the latest `v`;
//! - the `set` dominates the read: every path to the read goes through it,
//!   so the read sees that latest `v`.
//!
//! A local whose every read now reads the value goes, with its `set` (its
//! first value, the frontend's placeholder, is then unused and goes in
//! `dce`). Otherwise the `set` stays, as the local is still read where the
//! `set` does not dominate (`dce` does not remove assignments).
//!
//! Not here: scalars (the backends keep them in registers whatever the
//! form), locals assigned twice or more, and values made in another block.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{InstData, ValueId};
use postc_ir::{EntityId, Function, Opcode};
use std::collections::HashMap;

pub struct ForwardSets;

pub static INFO: PassInfo = PassInfo {
    name: "forward-sets",
    description: "read the value of an array local assigned once where that assignment dominates the read",
    scope: Scope::Function,
    needs: AnalysisSet::DOMINATORS,
    keeps: AnalysisSet::CFG.union(AnalysisSet::DOMINATORS),
};

/// What is known of one array `let`.
#[derive(Default)]
struct Local {
    /// Its `set`s.
    sets: Vec<(ValueId, ValueId)>,
    /// The instructions that read it.
    reads: Vec<ValueId>,
}

impl FunctionPass for ForwardSets {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        let is_array_let = |v: ValueId| {
            v.index() < body.num_insts()
                && body.tags[v] == Opcode::Let
                && body.types[v].is_some_and(|t| cx.types.is_array(t))
        };
        let mut locals: HashMap<ValueId, Local> = HashMap::new();
        for b in body.blocks.ids() {
            for u in body.blocks[b].insts() {
                if let InstData::Set { target, value } = body.inst(u) {
                    if is_array_let(target) {
                        locals.entry(target).or_default().sets.push((u, value));
                    }
                }
                body.for_each_read(u, |x| {
                    if is_array_let(x) {
                        let reads = &mut locals.entry(x).or_default().reads;
                        if reads.last() != Some(&u) {
                            reads.push(u);
                        }
                    }
                });
            }
        }
        if locals.is_empty() {
            return false;
        }
        let dom = analyses.dom(body);
        let mut forward: Vec<(ValueId, ValueId, ValueId)> = Vec::new();
        // The locals whose every read is forwarded, with their `set`s.
        let mut unread: Vec<(ValueId, ValueId)> = Vec::new();
        for (&l, local) in &locals {
            let [(set, value)] = local.sets[..] else { continue };
            let Some(set_block) = body.block_of(set) else { continue };
            let made_before = body.block_of(value) == Some(set_block) && value < set;
            let mutable = matches!(body.tags[value], Opcode::Let | Opcode::Param);
            if !made_before || mutable {
                continue;
            }
            let before = forward.len();
            for &r in &local.reads {
                let dominated = match body.block_of(r) {
                    Some(b) if b == set_block => set < r,
                    Some(b) => dom.dominates(set_block, b),
                    None => false,
                };
                if dominated {
                    forward.push((r, l, value));
                }
            }
            if forward.len() - before == local.reads.len() {
                unread.push((l, set));
            }
        }
        if forward.is_empty() && unread.is_empty() {
            return false;
        }
        for (r, l, value) in forward {
            func.body.map_operands(r, |x| if x == l { value } else { x });
        }
        if !unread.is_empty() {
            let mut dead = cx.scratch.filled(func.body.num_insts(), false);
            for (l, set) in unread {
                dead[l.index()] = true;
                dead[set.index()] = true;
            }
            crate::dce::remove(func, &dead, cx.scratch);
        }
        true
    }
}
