//! `select-fold`: folds `select` and converts branch diamonds into selects.
//!
//! - `select true, a, b` → `a`; `select c, a, a` → `a`;
//! - `select c, true, false` → `c`; `select c, false, true` → `not c`;
//! - `select c, (select c, a, b), d` → `select c, a, d` (and on the false arm);
//! - if-conversion: `condbr c, T, F` where `T` and `F` are entered only from
//!   there, hold at most a few instructions that cannot fail or have effects
//!   apart from assigning `let` locals, and both branch to the same block,
//!   becomes those instructions in the branching block, one `select` per
//!   assigned local, and a plain branch (a one-armed "triangle" too).

use crate::analysis::{Analyses, AnalysisSet};
use crate::dce::is_removable;
use crate::manager::FuncCx;
use crate::rewrite::{NameGen, Rewriter};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body, InstData, Literal, ValueId};
use postc_ir::cfg::Cfg;
use postc_ir::{EntityId, Function, Opcode, TypeId};

pub struct SelectFold;

pub static INFO: PassInfo = PassInfo {
    name: "select-fold",
    description: "fold selects on constants, equal arms and boolean identities; if-convert pure diamonds",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

/// At most this many instructions are speculated from each arm.
const MAX_ARM: usize = 8;

impl FunctionPass for SelectFold {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let converted = if_convert(cx, func, analyses);
        let folded = fold_selects(func);
        converted | folded
    }
}

fn bool_const(body: &Body, v: ValueId) -> Option<bool> {
    match body.inst(v) {
        InstData::Const(Literal::Bool(b)) => Some(b),
        _ => None,
    }
}

enum Fold {
    To(ValueId),
    Not(ValueId),
    Arms(ValueId, ValueId),
}

/// The values whose reads can differ from place to place: `let` locals and
/// whatever `set` assigns (locals and parameters). A select that read one
/// cannot be replaced by it, since later uses of the select would read the
/// local's later value.
fn mutable_values(body: &Body, out: &mut Vec<bool>) {
    out.clear();
    out.resize(body.num_insts(), false);
    // `let` declares its result; `set` assigns its first operand.
    for (i, (tag, ops)) in body.tags.raw().iter().zip(body.ops.raw()).enumerate() {
        let m = match tag {
            Opcode::Let => i,
            Opcode::Set => ops[0] as usize,
            _ => continue,
        };
        if let Some(slot) = out.get_mut(m) {
            *slot = true;
        }
    }
}

thread_local! {
    static MUTABLE: std::cell::RefCell<Vec<bool>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn fold_one(body: &Body, mutable: &[bool], cond: ValueId, t: ValueId, f: ValueId) -> Option<Fold> {
    let fixed = |v: ValueId| !mutable.get(v.index()).copied().unwrap_or(false);
    if let Some(c) = bool_const(body, cond) {
        let x = if c { t } else { f };
        return fixed(x).then_some(Fold::To(x));
    }
    if t == f {
        return fixed(t).then_some(Fold::To(t));
    }
    match (bool_const(body, t), bool_const(body, f)) {
        (Some(true), Some(false)) => return fixed(cond).then_some(Fold::To(cond)),
        (Some(false), Some(true)) => return Some(Fold::Not(cond)),
        _ => {}
    }
    // The inner select read its condition and arm where it stands: only
    // values no `set` can change in between may be read here instead.
    if !fixed(cond) {
        return None;
    }
    let same_cond_arm = |x: ValueId, take_true: bool| match body.inst(x) {
        InstData::Select { cond: c2, if_true, if_false } if c2 == cond => {
            Some(if take_true { if_true } else { if_false }).filter(|a| fixed(*a))
        }
        _ => None,
    };
    let nt = same_cond_arm(t, true);
    let nf = same_cond_arm(f, false);
    if nt.is_some() || nf.is_some() {
        return Some(Fold::Arms(nt.unwrap_or(t), nf.unwrap_or(f)));
    }
    None
}

fn fold_selects(func: &mut Function) -> bool {
    if !func.body.tags.raw().contains(&Opcode::Select) {
        return false;
    }
    MUTABLE.with(|m| {
        let mut mutable = m.borrow_mut();
        mutable_values(&func.body, &mut mutable);
        fold_selects_with(func, &mutable)
    })
}

fn fold_selects_with(func: &mut Function, mutable: &[bool]) -> bool {
    let body = &func.body;
    let select_fold = |body: &Body, v: ValueId| match body.inst(v) {
        InstData::Select { cond, if_true, if_false } => fold_one(body, mutable, cond, if_true, if_false),
        _ => None,
    };
    let tags = body.tags.raw();
    let any =
        (0..tags.len()).filter(|&i| tags[i] == Opcode::Select).any(|i| select_fold(body, ValueId::new(i)).is_some());
    if !any {
        return false;
    }
    let mut names = NameGen::new(body);
    let old = std::mem::take(&mut func.body);
    let mut rw = Rewriter::new(&old);
    for b in old.blocks.ids() {
        rw.begin_old_block(b);
        let d = old.blocks[b];
        let mut run_start = d.start;
        for i in d.start..d.end {
            let v = ValueId::from_u32(i);
            if old.tags[v] != Opcode::Select {
                continue;
            }
            let InstData::Select { cond, .. } = old.inst(v) else { continue };
            let Some(fold) = select_fold(&old, v) else { continue };
            rw.copy_range(ValueId::from_u32(run_start), v);
            run_start = i + 1;
            match fold {
                Fold::To(x) => {
                    rw.drop_inst(v);
                    rw.replace_uses(v, x);
                }
                Fold::Not(c) => {
                    let base = old.name_bytes(v).unwrap_or(b"");
                    let n = rw.fresh_name(&mut names, &[base, b".not"]);
                    let nv = rw.emit_with_name(Opcode::Not, old.types[v], [c.as_u32(), 0], &[], Some(n), old.loc(v));
                    rw.drop_inst(v);
                    rw.replace_uses(v, nv);
                }
                Fold::Arms(t, f) => {
                    let name = rw.copy_name(v);
                    let nv = rw.emit_with_name(
                        Opcode::Select,
                        old.types[v],
                        [cond.as_u32(), 0],
                        &[t.as_u32(), f.as_u32()],
                        name,
                        old.loc(v),
                    );
                    rw.drop_inst(v);
                    rw.replace_uses(v, nv);
                }
            }
        }
        rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
    }
    func.body = rw.finish();
    crate::rewrite::recycle(old);
    true
}

/// One convertible branch: the head block, its arms (true, false; `None`
/// for the join itself in a triangle) and the join.
struct Diamond {
    head: BlockId,
    cond: ValueId,
    arms: [Option<BlockId>; 2],
    join: BlockId,
}

/// The `let` locals an arm assigns, with the value of the last `set`; `None`
/// if the arm cannot be speculated.
fn arm_sets(cx: &FuncCx<'_>, body: &Body, arm: BlockId, join: BlockId) -> Option<Vec<(ValueId, ValueId)>> {
    let d = body.blocks[arm];
    if d.len() > MAX_ARM + 1 {
        return None;
    }
    let term = body.terminator(arm)?;
    if !matches!(body.inst(term), InstData::Br { target } if target == join) {
        return None;
    }
    let mut sets: Vec<(ValueId, ValueId)> = Vec::new();
    for v in d.insts() {
        if v == term {
            break;
        }
        // The sets move after every speculated instruction: nothing may read
        // a local this arm already assigned.
        let mut reads_assigned = false;
        let skip_target = matches!(body.inst(v), InstData::Set { .. });
        let mut k = 0;
        body.for_each_operand(v, |x| {
            if !(skip_target && k == 0) && sets.iter().any(|(t, _)| *t == x) {
                reads_assigned = true;
            }
            k += 1;
        });
        if reads_assigned {
            return None;
        }
        match body.inst(v) {
            InstData::Set { target, value } => {
                // Only locals declared by `let` (a parameter is not a select operand source here).
                if !matches!(body.inst(target), InstData::Let { .. }) {
                    return None;
                }
                sets.retain(|(t, _)| *t != target);
                sets.push((target, value));
            }
            InstData::Let { .. } => return None,
            _ if is_removable(body, cx.types, v, cx.options.overflow_checks) => {}
            _ => return None,
        }
    }
    Some(sets)
}

/// A diamond with its selects: (local, value if true, value if false).
type Converted = (Diamond, Vec<(ValueId, ValueId, ValueId)>);

fn find_diamonds(cx: &FuncCx<'_>, body: &Body, analyses: &mut Analyses) -> Vec<Converted> {
    let mut out: Vec<Converted> = Vec::new();
    let nblocks = body.blocks.len();
    // The graph is only needed once a branch has the shape of a diamond.
    let mut cfg: Option<&Cfg> = None;
    let mut analyses = Some(analyses);
    let mut used: Vec<bool> = Vec::new();
    for head in body.blocks.ids() {
        let d = body.blocks[head];
        if d.end <= d.start || body.tags[ValueId::from_u32(d.end - 1)] != Opcode::CondBr {
            continue;
        }
        let Some(t) = body.terminator(head) else { continue };
        let InstData::CondBr { cond, if_true, if_false, .. } = body.inst(t) else { continue };
        if if_true == if_false || if_true == head || if_false == head {
            continue;
        }
        let join_of = |arm: BlockId| {
            if arm.index() >= nblocks {
                return None;
            }
            let d = body.blocks[arm];
            if d.end <= d.start || body.tags[ValueId::from_u32(d.end - 1)] != Opcode::Br {
                return None;
            }
            match body.terminator(arm).map(|t| body.inst(t)) {
                Some(InstData::Br { target }) => Some(target),
                _ => None,
            }
        };
        let (jt, jf) = (join_of(if_true), join_of(if_false));
        if !((jt.is_some() && jt == jf) || jt == Some(if_false) || jf == Some(if_true)) {
            continue;
        }
        let cfg = match cfg {
            Some(c) => c,
            None => {
                let c: &Cfg = analyses.take().map(|a| a.cfg(body)).unwrap_or_else(|| unreachable!());
                used = vec![false; nblocks];
                cfg = Some(c);
                c
            }
        };
        if !cfg.is_reachable(head) {
            continue;
        }
        let single_pred = |b: BlockId, p: BlockId| cfg.preds(b).len() == 1 && cfg.preds(b).all(|x| x == p);
        // Diamond: both arms join at J; triangle: one arm is J itself.
        let (arms, join) = if join_of(if_true).is_some() && join_of(if_true) == join_of(if_false) {
            ([Some(if_true), Some(if_false)], join_of(if_true))
        } else if join_of(if_true) == Some(if_false) {
            ([Some(if_true), None], Some(if_false))
        } else if join_of(if_false) == Some(if_true) {
            ([None, Some(if_false)], Some(if_true))
        } else {
            continue;
        };
        let Some(join) = join else { continue };
        if join == head || arms.iter().flatten().any(|a| *a == join || used[a.index()] || !single_pred(*a, head)) {
            continue;
        }
        if used[head.index()] {
            continue;
        }
        let mut sets = [Vec::new(), Vec::new()];
        let mut ok = true;
        for (k, arm) in arms.iter().enumerate() {
            if let Some(a) = arm {
                match arm_sets(cx, body, *a, join) {
                    Some(s) => sets[k] = s,
                    None => ok = false,
                }
            }
        }
        if !ok {
            continue;
        }
        // One select per local: (local, value if true, value if false); an
        // arm that leaves a local alone contributes its current value.
        let mut locals: Vec<ValueId> = Vec::new();
        for (l, _) in sets[0].iter().chain(&sets[1]) {
            if !locals.contains(l) {
                locals.push(*l);
            }
        }
        let pick = |k: usize, l: ValueId| sets[k].iter().find(|(t, _)| *t == l).map_or(l, |(_, v)| *v);
        let selects = locals.iter().map(|&l| (l, pick(0, l), pick(1, l))).collect();
        used[head.index()] = true;
        for a in arms.iter().flatten() {
            used[a.index()] = true;
        }
        out.push((Diamond { head, cond, arms, join }, selects));
    }
    out
}

fn if_convert(cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
    let diamonds = find_diamonds(cx, &func.body, analyses);
    if diamonds.is_empty() {
        return false;
    }
    let mut names = NameGen::new(&func.body);
    let old = std::mem::take(&mut func.body);
    let mut rw = Rewriter::new(&old);
    let mut arm_of = vec![false; old.blocks.len()];
    let mut head_of = vec![u32::MAX; old.blocks.len()];
    for (k, (d, _)) in diamonds.iter().enumerate() {
        for a in d.arms.iter().flatten() {
            arm_of[a.index()] = true;
        }
        if head_of[d.head.index()] == u32::MAX {
            head_of[d.head.index()] = k as u32;
        }
    }
    for b in old.blocks.ids() {
        if arm_of[b.index()] {
            // Its instructions moved into the head (copied there, so left
            // alone here); the block keeps its branch and is now unreachable
            // for simplify-cfg to drop.
            rw.begin_old_block(b);
            if let Some(t) = old.terminator(b) {
                rw.copy(t);
            }
            continue;
        }
        rw.begin_old_block(b);
        let found = diamonds.get(head_of[b.index()] as usize);
        let Some((d, selects)) = found else {
            let bd = old.blocks[b];
            rw.copy_range(ValueId::from_u32(bd.start), ValueId::from_u32(bd.end));
            continue;
        };
        let term = old.terminator(b);
        for v in old.blocks[b].insts() {
            if Some(v) != term {
                rw.copy(v);
                continue;
            }
            let loc = old.loc(v);
            // Speculate the arms' pure instructions (the same ids: uses keep working).
            for arm in d.arms.iter().flatten() {
                let term = old.terminator(*arm);
                for x in old.blocks[*arm].insts() {
                    if Some(x) != term && !matches!(old.inst(x), InstData::Set { .. }) {
                        rw.copy(x);
                    }
                }
            }
            for &(local, t, f) in selects {
                let ty = old.types[local].unwrap_or(TypeId::INT64);
                let n = rw.fresh_name(&mut names, &[old.name_bytes(local).unwrap_or(b""), b".sel"]);
                let s = rw.emit_with_name(
                    Opcode::Select,
                    Some(ty),
                    [d.cond.as_u32(), 0],
                    &[t.as_u32(), f.as_u32()],
                    Some(n),
                    loc,
                );
                rw.emit(Opcode::Set, None, [local.as_u32(), s.as_u32()], &[], None, loc);
            }
            rw.emit(Opcode::Br, None, [d.join.as_u32(), 0], &[], None, loc);
            rw.drop_inst(v);
        }
    }
    func.body = rw.finish();
    crate::rewrite::recycle(old);
    true
}
