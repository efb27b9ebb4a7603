//! `strength-reduce`: integer floor division and modulo by a power-of-two
//! constant become a shift and a mask.
//!
//! - `fdiv %x, 2^k` → `shr %x, k` (arithmetic on signed integers, which
//!   rounds toward −∞ exactly as `//` does);
//! - `mod %x, 2^k` → `band %x, 2^k - 1` (in two's complement the low bits
//!   are the remainder that takes the positive divisor's sign, as `%` does).
//!
//! Both hold for every dividend, so nothing is assumed about `%x`. Backends
//! get the cheap form without recognising Python's floor semantics in their
//! own optimisers (which miss it once the floor adjustment is written out);
//! other constant divisors stay as they are, for the backend's
//! multiply-high lowering. A divisor of zero or a negative one, or a check
//! of either, is never touched: a division that may panic keeps its panic.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::{NameGen, Rewriter};
use crate::scratch::Scratch;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{Body, InstData, Literal, ValueId};
use postc_ir::{Function, Opcode, TypeId};
use smallvec::SmallVec;

pub struct StrengthReduce;

pub static INFO: PassInfo = PassInfo {
    name: "strength-reduce",
    description: "integer // and % by a power-of-two constant become a shift and a mask",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    // Instructions are replaced in place within their blocks, keeping
    // their names; the new constants get fresh ones.
    keeps: AnalysisSet::CFG.union(AnalysisSet::NAMES),
};

impl FunctionPass for StrengthReduce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        let tags = body.tags.raw();
        if !tags.iter().any(|&t| t == Opcode::FDiv || t == Opcode::Mod) {
            return false;
        }
        let found: SmallVec<[(ValueId, Reduced); 8]> = (0..body.num_insts() as u32)
            .map(ValueId::from_u32)
            .filter(|&v| matches!(body.tags[v], Opcode::FDiv | Opcode::Mod))
            .filter_map(|v| reduce(cx, body, v).map(|r| (v, r)))
            .collect();
        if found.is_empty() {
            return false;
        }
        let start = analyses.name_start(&func.body);
        let next = rebuild(func, &found, start, cx.scratch);
        // It keeps the names: the first free `$N` is past the new constants'.
        analyses.set_name_start(Some(next));
        true
    }
}

/// What a division or modulo becomes: `op %x, constant` of type `ty`.
#[derive(Clone, Copy)]
struct Reduced {
    op: Opcode,
    x: ValueId,
    constant: i128,
    ty: TypeId,
}

/// The reduced form of `v`, when it is an integer `fdiv` or `mod` whose
/// divisor is a constant power of two.
fn reduce(cx: &FuncCx<'_>, body: &Body, v: ValueId) -> Option<Reduced> {
    let InstData::Binary { op, left, right } = body.inst(v) else { return None };
    let ty = body.types[v]?;
    let data = cx.types.try_get(ty)?;
    if data.is_array || !data.dtype.is_int() {
        return None;
    }
    let InstData::Const(Literal::Int(d)) = body.inst(right) else { return None };
    if d <= 0 || d & (d - 1) != 0 {
        return None;
    }
    let (op, constant) = match op {
        Opcode::FDiv => (Opcode::Shr, i128::from(d.trailing_zeros())),
        _ => (Opcode::BAnd, d - 1),
    };
    Some(Reduced { op, x: left, constant, ty })
}

/// Replaces each found instruction by its constant and its shift or mask,
/// in place in its block; the old instruction's uses read the new one.
/// New names start at `$start`; returns the first free `N` after them.
fn rebuild(func: &mut Function, found: &[(ValueId, Reduced)], start: u64, scratch: &Scratch) -> u64 {
    let old = std::mem::take(&mut func.body);
    let mut rw = Rewriter::new(&old, scratch);
    let mut names = NameGen::starting_at(start);
    let mut next = found.iter().peekable();
    for b in old.blocks.ids() {
        rw.begin_old_block(b);
        let d = old.blocks[b];
        let mut run_start = d.start;
        while let Some(&&(v, r)) = next.peek().filter(|(v, _)| v.as_u32() < d.end) {
            next.next();
            rw.copy_range(ValueId::from_u32(run_start), v);
            let loc = old.loc(v);
            let c_name = rw.fresh_name(&mut names, &[if r.op == Opcode::Shr { b"shift" } else { b"mask" }]);
            let c = rw.emit_const_with_name(r.ty, Literal::Int(r.constant), Some(c_name), None);
            let name = rw.copy_name(v);
            let new = rw.emit_with_name(r.op, Some(r.ty), [r.x.as_u32(), c.as_u32()], &[], name, loc);
            rw.drop_inst(v);
            rw.replace_uses(v, new);
            run_start = v.as_u32() + 1;
        }
        rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
    }
    func.body = rw.finish();
    scratch.recycle(old);
    names.peek()
}
