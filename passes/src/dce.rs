//! `dce`: removes instructions whose results are never read and whose
//! execution has no effect — no store, no call, no terminator, and nothing
//! that can panic (integer division, shifts and powers, memory reads, and
//! integer arithmetic when overflow is checked). Removal cascades: an
//! operand whose last reader goes is considered in turn.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::Rewriter;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{Body, InstData, ValueId};
use postc_ir::{EntityId, Function, Opcode, TypeTable};

pub struct Dce;

pub static INFO: PassInfo = PassInfo {
    name: "dce",
    description: "remove instructions whose results are unused and that have no effect",
    scope: Scope::Function,
    needs: AnalysisSet::USES,
    keeps: AnalysisSet::CFG,
};

/// Whether removing `v` (when its result is unused) cannot change what the
/// program does.
pub fn is_removable(body: &Body, types: &TypeTable, v: ValueId, overflow_checks: bool) -> bool {
    let int_result = || body.types[v].is_some_and(|t| types.try_get(t).is_some_and(|d| d.dtype.is_int()));
    match body.inst(v) {
        InstData::Const(_)
        | InstData::Cast { .. }
        | InstData::Dim { .. }
        | InstData::Stride { .. }
        | InstData::Select { .. }
        | InstData::GetField { .. }
        | InstData::Let { .. } => true,
        InstData::Binary { op, .. } => match op {
            Opcode::FDiv | Opcode::Mod | Opcode::Shl | Opcode::Shr | Opcode::Pow => !int_result(),
            Opcode::Add | Opcode::Sub | Opcode::Mul => !(overflow_checks && int_result()),
            _ => true,
        },
        InstData::Unary { op, .. } => !(overflow_checks && matches!(op, Opcode::Neg | Opcode::Abs) && int_result()),
        _ => false,
    }
}

impl FunctionPass for Dce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        let n = body.num_insts();
        let first = (body.num_params + body.num_core) as usize;
        let mut uses: Vec<u32> = analyses.uses(body).as_slice().to_vec();
        uses.resize(n, 0);
        let mut dead = vec![false; n];
        let mut work: Vec<ValueId> = (first..n).map(ValueId::new).filter(|v| uses[v.index()] == 0).collect();
        let mut any = false;
        while let Some(v) = work.pop() {
            if dead[v.index()] || uses[v.index()] != 0 || !is_removable(body, cx.types, v, cx.options.overflow_checks) {
                continue;
            }
            dead[v.index()] = true;
            any = true;
            body.for_each_operand(v, |x| {
                if let Some(u) = uses.get_mut(x.index()) {
                    *u = u.saturating_sub(1);
                    if *u == 0 && x.index() >= first {
                        work.push(x);
                    }
                }
            });
        }
        if !any {
            return false;
        }
        let old = std::mem::take(&mut func.body);
        let mut rw = Rewriter::new(&old);
        for b in old.blocks.ids() {
            rw.begin_old_block(b);
            for v in old.blocks[b].insts() {
                if dead[v.index()] {
                    rw.drop_inst(v);
                } else {
                    rw.copy(v);
                }
            }
        }
        func.body = rw.finish();
        true
    }
}
