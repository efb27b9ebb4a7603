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
use crate::scratch::{Scratch, ScratchVec};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body, InstData, Literal, ValueId};
use postc_ir::cfg::Cfg;
use postc_ir::{EntityId, Function, Opcode, TypeId};
use smallvec::SmallVec;

pub struct SelectFold;

pub static INFO: PassInfo = PassInfo {
    name: "select-fold",
    description: "fold selects on constants, equal arms and boolean identities; if-convert pure diamonds",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    // Folding selects leaves the blocks and branches as they are; a pass
    // that converts a diamond drops the graph itself.
    keeps: AnalysisSet::CFG.union(AnalysisSet::NAMES),
};

/// At most this many instructions are speculated from each arm.
const MAX_ARM: usize = 8;

impl FunctionPass for SelectFold {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    /// If-conversion, then select folding on its result, in one rebuild:
    /// the folds are decided on the body before conversion, which has the
    /// same constants, selects and mutable locals (conversion only moves
    /// instructions, drops the arms' `set`s and adds one select and `set`
    /// per converted local, which nothing else reads).
    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let diamonds = find_diamonds(cx, &func.body, analyses);
        if !diamonds.is_empty() {
            analyses.invalidate_cfg();
        }
        let has_select = !diamonds.is_empty() || func.body.tags.raw().contains(&Opcode::Select);
        if !has_select {
            return false;
        }
        let mutable = mutable_values(&func.body, cx.scratch);
        rebuild(func, &diamonds, &mutable, analyses, cx.scratch)
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
fn mutable_values<'s>(body: &Body, scratch: &'s Scratch) -> ScratchVec<'s, bool> {
    let mut out = scratch.filled(body.num_insts(), false);
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
    out
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
/// The locals an arm assigns, with their values (few: arms are short).
type Sets = SmallVec<[(ValueId, ValueId); 4]>;

fn arm_sets(cx: &FuncCx<'_>, body: &Body, arm: BlockId, join: BlockId) -> Option<Sets> {
    let d = body.blocks[arm];
    if d.len() > MAX_ARM + 1 {
        return None;
    }
    let term = body.terminator(arm)?;
    if !matches!(body.inst(term), InstData::Br { target } if target == join) {
        return None;
    }
    let mut sets: Sets = SmallVec::new();
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
type Converted = (Diamond, SmallVec<[(ValueId, ValueId, ValueId); 2]>);

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
        let mut sets: [Sets; 2] = [SmallVec::new(), SmallVec::new()];
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
        let mut locals: SmallVec<[ValueId; 4]> = SmallVec::new();
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

/// Numbers of fresh names, taken as if conversion and folding ran one
/// after the other: the converted selects' names first, in layout order,
/// then the `not`s of folding, which start after all of them.
struct Names {
    start: Option<u64>,
    /// The start if the analyses know it.
    known: Option<u64>,
    selects: u64,
    total_selects: u64,
    nots: u64,
    /// One past the largest number of a fresh name that was interned.
    used: u64,
}

impl Names {
    fn start(&mut self, body: &Body) -> u64 {
        let known = self.known;
        *self.start.get_or_insert_with(|| known.unwrap_or_else(|| NameGen::new(body).peek()))
    }
    fn next_select(&mut self, body: &Body) -> u64 {
        let n = self.start(body) + self.selects;
        self.selects += 1;
        n
    }
    fn next_not(&mut self, body: &Body) -> u64 {
        let n = self.start(body) + self.total_selects + self.nots;
        self.nots += 1;
        n
    }
}

/// Writes `base$n` into `out`.
fn numbered(out: &mut Vec<u8>, base: &[&[u8]], n: u64) {
    out.clear();
    for p in base {
        out.extend_from_slice(p);
    }
    out.push(b'$');
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// The rebuild of [`SelectFold::run`]; returns whether anything changed.
fn rebuild(
    func: &mut Function,
    diamonds: &[Converted],
    mutable: &[bool],
    analyses: &mut Analyses,
    scratch: &Scratch,
) -> bool {
    let body = &func.body;
    let fold_at = |v: ValueId| match body.inst(v) {
        InstData::Select { cond, if_true, if_false } => fold_one(body, mutable, cond, if_true, if_false),
        _ => None,
    };
    if diamonds.is_empty() {
        let tags = body.tags.raw();
        let any = (0..tags.len()).filter(|&i| tags[i] == Opcode::Select).any(|i| fold_at(ValueId::new(i)).is_some());
        if !any {
            return false;
        }
    }
    let old = std::mem::take(&mut func.body);
    let body = &old;
    let fold_at = |v: ValueId| match body.inst(v) {
        InstData::Select { cond, if_true, if_false } => fold_one(body, mutable, cond, if_true, if_false),
        _ => None,
    };
    let total_selects = diamonds.iter().map(|(_, s)| s.len() as u64).sum();
    let mut names =
        Names { start: None, known: analyses.known_name_start(), selects: 0, total_selects, nots: 0, used: 0 };
    // Whether a named instruction goes (its name may hold the largest number).
    let mut dropped_named = false;
    let mut buf: Vec<u8> = Vec::new();
    let mut rw = Rewriter::new(body, scratch);
    let mut arm_of = vec![false; body.blocks.len()];
    let mut head_of = vec![u32::MAX; body.blocks.len()];
    for (k, (d, _)) in diamonds.iter().enumerate() {
        for a in d.arms.iter().flatten() {
            arm_of[a.index()] = true;
        }
        if head_of[d.head.index()] == u32::MAX {
            head_of[d.head.index()] = k as u32;
        }
    }
    // Applies a fold to select `v` (old or new: `name` is its name) and
    // returns what its uses read instead.
    let apply = |rw: &mut Rewriter<'_>,
                 names: &mut Names,
                 buf: &mut Vec<u8>,
                 fold: Fold,
                 name: &[u8],
                 ty: Option<TypeId>,
                 cond: ValueId,
                 loc: Option<postc_ir::SrcLoc>|
     -> ValueId {
        match fold {
            Fold::To(x) => x,
            Fold::Not(c) => {
                let n = names.next_not(body);
                names.used = names.used.max(n + 1);
                numbered(buf, &[name, b".not"], n);
                let n = rw.intern_name(std::str::from_utf8(buf).unwrap_or(""));
                rw.emit_with_name(Opcode::Not, ty, [c.as_u32(), 0], &[], Some(n), loc)
            }
            Fold::Arms(t, f) => {
                let n = rw.intern_name(std::str::from_utf8(name).unwrap_or(""));
                rw.emit_with_name(Opcode::Select, ty, [cond.as_u32(), 0], &[t.as_u32(), f.as_u32()], Some(n), loc)
            }
        }
    };
    // Copies old instructions `[s, e)`, folding their selects.
    let copy_folding =
        |rw: &mut Rewriter<'_>, names: &mut Names, buf: &mut Vec<u8>, dropped_named: &mut bool, s: u32, e: u32| {
            let mut run_start = s;
            for i in s..e {
                let v = ValueId::from_u32(i);
                if body.tags[v] != Opcode::Select {
                    continue;
                }
                let InstData::Select { cond, .. } = body.inst(v) else { continue };
                let Some(fold) = fold_at(v) else { continue };
                rw.copy_range(ValueId::from_u32(run_start), v);
                run_start = i + 1;
                let name = body.name_bytes(v).unwrap_or(b"");
                *dropped_named |= !matches!(fold, Fold::Arms(..)) && body.names[v].is_some();
                let to = apply(rw, names, buf, fold, name, body.types[v], cond, body.loc(v));
                rw.drop_inst(v);
                rw.replace_uses(v, to);
            }
            rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(e));
        };
    let mut sel_name: Vec<u8> = Vec::new();
    for b in body.blocks.ids() {
        rw.begin_old_block(b);
        if arm_of[b.index()] {
            // Its instructions moved into the head (copied there, so left
            // alone here); the block keeps its branch and is now unreachable
            // for simplify-cfg to drop.
            if let Some(t) = body.terminator(b) {
                rw.copy(t);
            }
            continue;
        }
        let bd = body.blocks[b];
        let Some((d, selects)) = diamonds.get(head_of[b.index()] as usize) else {
            copy_folding(&mut rw, &mut names, &mut buf, &mut dropped_named, bd.start, bd.end);
            continue;
        };
        let Some(term) = body.terminator(b) else { continue };
        copy_folding(&mut rw, &mut names, &mut buf, &mut dropped_named, bd.start, term.as_u32());
        let loc = body.loc(term);
        // Speculate the arms' pure instructions (the same ids: uses keep working).
        for arm in d.arms.iter().flatten() {
            let ad = body.blocks[*arm];
            let end = body.terminator(*arm).map_or(ad.end, |t| t.as_u32());
            let mut run_start = ad.start;
            for x in ad.start..end {
                if body.tags[ValueId::from_u32(x)] == Opcode::Set {
                    dropped_named |= body.names[ValueId::from_u32(x)].is_some();
                    copy_folding(&mut rw, &mut names, &mut buf, &mut dropped_named, run_start, x);
                    run_start = x + 1;
                }
            }
            copy_folding(&mut rw, &mut names, &mut buf, &mut dropped_named, run_start, end);
        }
        for &(local, t, f) in selects {
            let ty = Some(body.types[local].unwrap_or(TypeId::INT64));
            let n = names.next_select(body);
            numbered(&mut sel_name, &[body.name_bytes(local).unwrap_or(b""), b".sel"], n);
            let s = match fold_one(body, mutable, d.cond, t, f) {
                Some(fold) => {
                    if matches!(fold, Fold::Arms(..)) {
                        names.used = names.used.max(n + 1);
                    }
                    apply(&mut rw, &mut names, &mut buf, fold, &sel_name, ty, d.cond, loc)
                }
                None => {
                    names.used = names.used.max(n + 1);
                    let name = rw.intern_name(std::str::from_utf8(&sel_name).unwrap_or(""));
                    rw.emit_with_name(
                        Opcode::Select,
                        ty,
                        [d.cond.as_u32(), 0],
                        &[t.as_u32(), f.as_u32()],
                        Some(name),
                        loc,
                    )
                }
            };
            rw.emit(Opcode::Set, None, [local.as_u32(), s.as_u32()], &[], None, loc);
        }
        rw.emit(Opcode::Br, None, [d.join.as_u32(), 0], &[], None, loc);
        dropped_named |= body.names[term].is_some();
        rw.drop_inst(term);
    }
    func.body = rw.finish();
    // The new names' numbers start above every old one; a dropped name may
    // have held the largest, and then the start is read again when needed.
    let start = names.start.or(names.known);
    analyses.set_name_start(if dropped_named { None } else { start.map(|s| s.max(names.used)) });
    scratch.recycle(old);
    true
}
