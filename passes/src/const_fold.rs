//! `const-fold`: evaluates instructions whose operands are constants, with
//! the reference interpreter's semantics (DESIGN §3: Python floor division,
//! wrapping, saturating casts), so folding and running never disagree. An
//! operation that would panic is left in place: a panic is never folded
//! away. Also folds `dim`/`stride` fixed by a static type and `postc.ovf.*`
//! checks of constants. Results that depend on a libm (`pow` on floats,
//! complex division, magnitude, intrinsic calls) are not folded.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::Rewriter;
use crate::stride_lower::static_stride;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{InstData, ValueId};
use postc_ir::builtins::Builtin;
use postc_ir::interp::fold::{fold_binary, fold_cast, fold_overflow, fold_unary, literal_value, value_literal};
use postc_ir::interp::Value;
use postc_ir::{DType, EntityId, Function, Opcode, Shape};

pub struct ConstFold;

pub static INFO: PassInfo = PassInfo {
    name: "const-fold",
    description: "evaluate instructions on constants with the interpreter's semantics; never folds a panic away",
    scope: Scope::Function,
    needs: AnalysisSet::CFG,
    keeps: AnalysisSet::CFG,
};

impl FunctionPass for ConstFold {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        let n = body.num_insts();
        let dtype =
            |v: ValueId| body.types.get(v).copied().flatten().and_then(|t| cx.types.try_get(t)).map(|t| t.dtype);
        let mut known: Vec<Option<Value>> = vec![None; n];
        for v in body.tags.ids() {
            if let (InstData::Const(lit), Some(d)) = (body.inst(v), dtype(v)) {
                known[v.index()] = literal_value(d, lit);
            }
        }
        let checks = cx.options.overflow_checks;
        let mut folded = vec![false; n];
        let mut any = false;
        // Reverse post-order: operands are seen before the instructions
        // their blocks dominate.
        let rpo: Vec<_> = analyses.cfg(body).rpo().collect();
        for b in rpo {
            for v in body.blocks[b].insts() {
                if v.index() >= n || known[v.index()].is_some() {
                    continue;
                }
                // Only instructions with an operand that is itself constant can fold
                // (dim and stride of a static type have no constant operand).
                let candidate = match body.tags[v] {
                    Opcode::Dim | Opcode::Stride => true,
                    Opcode::Const | Opcode::Param | Opcode::Let => false,
                    op if op.is_terminator() => false,
                    _ => {
                        let mut any_known = false;
                        body.for_each_operand(v, |x| any_known |= known.get(x.index()).is_some_and(|o| o.is_some()));
                        any_known
                    }
                };
                if !candidate {
                    continue;
                }
                let k = |x: ValueId| known.get(x.index()).and_then(|o| o.as_ref());
                let Some(rd) = dtype(v) else { continue };
                let result = match body.inst(v) {
                    InstData::Binary { op, left, right } => match (k(left), k(right)) {
                        (Some(a), Some(b)) if !libm_dependent(op, rd) => fold_binary(op, rd, a, b, checks),
                        _ => None,
                    },
                    InstData::Unary { op, operand } => match k(operand) {
                        Some(a) if !(op == Opcode::Abs && a.dtype().is_complex()) => fold_unary(op, rd, a, checks),
                        _ => None,
                    },
                    InstData::Cast { operand } => k(operand).and_then(|a| fold_cast(rd, a)),
                    InstData::Select { cond, if_true, if_false } => match k(cond) {
                        Some(Value::Bool(c)) => k(if *c { if_true } else { if_false }).cloned(),
                        _ => None,
                    },
                    InstData::Dim { array, axis } => {
                        let t = body.types[array].and_then(|t| cx.types.try_get(t));
                        match t.map(|t| &t.shape) {
                            Some(Shape::Dims(d)) => {
                                d.get(axis as usize).copied().flatten().map(|x| Value::i64(x as i64))
                            }
                            _ => None,
                        }
                    }
                    InstData::Stride { array, axis } => body.types[array]
                        .and_then(|t| cx.types.try_get(t))
                        .and_then(|t| static_stride(t, axis as usize))
                        .map(Value::i64),
                    InstData::Call { callee, args } => match Builtin::from_name(callee) {
                        Some(Builtin::Overflows(op)) => {
                            let vals: Option<Vec<Value>> = args.iter().map(|a| k(a).cloned()).collect();
                            vals.and_then(|vals| fold_overflow(op, &vals))
                        }
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(r) = result.filter(|r| !r.is_array() && r.dtype() == rd) {
                    known[v.index()] = Some(r);
                    folded[v.index()] = true;
                    any = true;
                }
            }
        }
        if !any {
            return false;
        }
        let old = std::mem::take(&mut func.body);
        let mut rw = Rewriter::new(&old);
        for b in old.blocks.ids() {
            rw.begin_old_block(b);
            for v in old.blocks[b].insts() {
                let lit = folded[v.index()].then(|| known[v.index()].as_ref().and_then(value_literal)).flatten();
                match (lit, old.types[v]) {
                    (Some(lit), Some(ty)) => {
                        let name = old.name(v).unwrap_or("c").to_owned();
                        let c = rw.emit_const(ty, lit.as_literal(), &name, old.loc(v));
                        rw.drop_inst(v);
                        rw.replace_uses(v, c);
                    }
                    _ => {
                        rw.copy(v);
                    }
                }
            }
        }
        func.body = rw.finish();
        true
    }
}

/// Whether the folded result would depend on the host's libm rather than
/// on exactly specified arithmetic.
fn libm_dependent(op: Opcode, rd: DType) -> bool {
    match op {
        Opcode::Pow => !rd.is_int(),
        Opcode::Div => rd.is_complex(),
        _ => false,
    }
}
