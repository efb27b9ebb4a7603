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
use std::cell::RefCell;

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
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            let Scratch { known, vals } = &mut *s;
            run(cx, func, analyses, known, vals)
        })
    }
}

/// `known[v]`: not evaluated yet, a constant whose literal has no value, or
/// the index of `v`'s value in the side table.
const UNKNOWN: u32 = u32::MAX;
const NO_LITERAL: u32 = u32::MAX - 1;

#[derive(Default)]
struct Scratch {
    known: Vec<u32>,
    vals: Vec<Value>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

fn run(
    cx: &FuncCx<'_>,
    func: &mut Function,
    analyses: &mut Analyses,
    known: &mut Vec<u32>,
    vals: &mut Vec<Value>,
) -> bool {
    let body = &func.body;
    let n = body.num_insts();
    let dtype = |v: ValueId| body.types.get(v).copied().flatten().and_then(|t| cx.types.try_get(t)).map(|t| t.dtype);
    known.clear();
    known.resize(n, UNKNOWN);
    vals.clear();
    let tags = body.tags.raw();
    // The value of a constant is computed when an instruction first reads it.
    let value_of = |x: ValueId, known: &mut Vec<u32>, vals: &mut Vec<Value>| -> Option<usize> {
        let k = *known.get(x.index())?;
        match k {
            NO_LITERAL => None,
            UNKNOWN if tags[x.index()] == Opcode::Const => {
                let lit = match (body.inst(x), dtype(x)) {
                    (InstData::Const(lit), Some(d)) => literal_value(d, lit),
                    _ => None,
                };
                match lit {
                    Some(val) => {
                        known[x.index()] = vals.len() as u32;
                        vals.push(val);
                        Some(vals.len() - 1)
                    }
                    None => {
                        known[x.index()] = NO_LITERAL;
                        None
                    }
                }
            }
            UNKNOWN => None,
            i => Some(i as usize),
        }
    };
    let checks = cx.options.overflow_checks;
    let mut any = false;
    // Reverse post-order: operands are seen before the instructions
    // their blocks dominate.
    let cfg = analyses.cfg(body);
    for &b in cfg.rpo_raw() {
        let d = body.blocks[postc_ir::BlockId::from_u32(b)];
        for i in d.start as usize..(d.end as usize).min(n) {
            let v = ValueId::new(i);
            // Only instructions with an operand that is itself constant can fold
            // (dim and stride of a static type have no constant operand).
            let candidate = match tags[i] {
                Opcode::Dim | Opcode::Stride => true,
                Opcode::Const | Opcode::Param | Opcode::Let => false,
                op if op.is_terminator() => false,
                _ => {
                    if known[i] != UNKNOWN {
                        continue;
                    }
                    let mut any_known = false;
                    body.for_each_operand(v, |x| {
                        any_known |= known.get(x.index()).is_some_and(|&k| k != UNKNOWN && k != NO_LITERAL)
                            || tags.get(x.index()) == Some(&Opcode::Const)
                    });
                    any_known
                }
            };
            if !candidate || known[i] != UNKNOWN {
                continue;
            }
            let Some(rd) = dtype(v) else { continue };
            macro_rules! k {
                ($x:expr) => {
                    value_of($x, known, vals)
                };
            }
            let result = match body.inst(v) {
                InstData::Binary { op, left, right } => match (k!(left), k!(right)) {
                    (Some(a), Some(b)) if !libm_dependent(op, rd) => fold_binary(op, rd, &vals[a], &vals[b], checks),
                    _ => None,
                },
                InstData::Unary { op, operand } => match k!(operand) {
                    Some(a) if !(op == Opcode::Abs && vals[a].dtype().is_complex()) => {
                        fold_unary(op, rd, &vals[a], checks)
                    }
                    _ => None,
                },
                InstData::Cast { operand } => k!(operand).and_then(|a| fold_cast(rd, &vals[a])),
                InstData::Select { cond, if_true, if_false } => {
                    let c = k!(cond).and_then(|c| match vals[c] {
                        Value::Bool(b) => Some(b),
                        _ => None,
                    });
                    match c {
                        Some(c) => k!(if c { if_true } else { if_false }).map(|x| vals[x].clone()),
                        None => None,
                    }
                }
                InstData::Dim { array, axis } => {
                    let t = body.types[array].and_then(|t| cx.types.try_get(t));
                    match t.map(|t| &t.shape) {
                        Some(Shape::Dims(d)) => d.get(axis as usize).copied().flatten().map(|x| Value::i64(x as i64)),
                        _ => None,
                    }
                }
                InstData::Stride { array, axis } => body.types[array]
                    .and_then(|t| cx.types.try_get(t))
                    .and_then(|t| static_stride(t, axis as usize))
                    .map(Value::i64),
                InstData::Call { callee, args } => match Builtin::from_name(callee) {
                    Some(Builtin::Overflows(op)) => {
                        let idx: Option<Vec<usize>> = args.iter().map(|a| k!(a)).collect();
                        idx.and_then(|idx| {
                            let vals: Vec<Value> = idx.iter().map(|&i| vals[i].clone()).collect();
                            fold_overflow(op, &vals)
                        })
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some(r) = result.filter(|r| !r.is_array() && r.dtype() == rd) {
                known[i] = vals.len() as u32;
                vals.push(r);
                any = true;
            }
        }
    }
    if !any {
        return false;
    }
    // Folded: a known value on anything but a constant.
    let old = std::mem::take(&mut func.body);
    let folded = |i: usize| old.tags.raw()[i] != Opcode::Const && known[i] < NO_LITERAL;
    let mut rw = Rewriter::new(&old);
    for b in old.blocks.ids() {
        rw.begin_old_block(b);
        let d = old.blocks[b];
        let mut run_start = d.start;
        for i in d.start..d.end {
            let v = ValueId::from_u32(i);
            if !folded(i as usize) {
                continue;
            }
            let lit = value_literal(&vals[known[i as usize] as usize]);
            if let (Some(lit), Some(ty)) = (lit, old.types[v]) {
                rw.copy_range(ValueId::from_u32(run_start), v);
                run_start = i + 1;
                let name = match rw.copy_name(v) {
                    Some(n) => n,
                    None => rw.intern_name("c"),
                };
                let c = rw.emit_const_with_name(ty, lit.as_literal(), Some(name), old.loc(v));
                rw.drop_inst(v);
                rw.replace_uses(v, c);
            }
        }
        rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
    }
    func.body = rw.finish();
    crate::rewrite::recycle(old);
    true
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
