//! `irce`: inductive range-check elimination. A counted loop whose bounds
//! checks compare its counter (plus a constant) with extents that do not
//! change in the loop is split in two:
//!
//! - a *main* loop, a copy of the loop without those checks, over the
//!   iterations in which every one of them provably passes: while
//!   `i < min(n, extent - offset, ...)`, entered only when the counter
//!   starts at or above every `-offset` and every check of a loop-invariant
//!   index passes;
//! - the original loop, checks and all, which takes over where the main
//!   loop stops (or from the start when the guard fails) and panics, with
//!   the same message and location, at the first failing check.
//!
//! Every iteration runs exactly once, in order, with the same effects: the
//! main loop only runs iterations that the original would run (`i < n`)
//! and in which each dropped check would pass, so the semantics are exact
//! whatever the body does. Backends whose optimiser does not remove the
//! checks itself (C compilers, QBE, WebAssembly) get a loop they can
//! vectorise.
//!
//! A loop qualifies when:
//!
//! - it is innermost, with one latch, and its header holds only
//!   `%c = lt %i, %n` and `condbr %c, BODY, EXIT`, where `%i` is an `Int64`
//!   `let` local or parameter declared outside the loop and `%n` is
//!   loop-invariant;
//! - `%i` is assigned once in the loop, `set %i = %next` in the latch, with
//!   `%next = add %i, STEP` and `STEP` a positive constant;
//! - every edge leaving the loop other than the header's goes to a block
//!   that ends the function (a panic, a `return`), which the main loop gets
//!   a copy of;
//! - it calls no `postc.gpu.` built-in (a `postc.gpu.shared()` call site is
//!   one array and a barrier must stay one barrier);
//! - it is not the remainder of an earlier split (the loop that the exit of
//!   a loop over the same counter enters), so that the pass is idempotent;
//! - the cost model of [`crate::loop_copy`] finds the split worth it: the
//!   loop is not known to run fewer than 16 iterations, and has at most 64
//!   instructions (exits included) per check the main loop drops.
//!
//! A check is `condbr (lt (cast IDX to UInt64), (cast EXTENT to UInt64)), OK, FAIL`,
//! as `insert-checks` writes it, where `EXTENT` is loop-invariant (or the
//! `dim` of a loop-invariant array of static rank) and `IDX` is either
//! loop-invariant or `%i`, `%i + c` or `%i - c` read before the latch's
//! `set`, with `|c| <= 2^31`. The bound `extent - c` is computed from the
//! extent clamped to `[0, 2^62]`, so neither it nor `%i + STEP` in the main
//! loop overflows.

use crate::analysis::{Analyses, AnalysisSet};
use crate::loop_copy::{
    copy_blocks, counted_loop, int_const, known_trip_count, label, pays, rebuild, Build, CopyMap, CountedLoop,
    MAX_LOOP_INSTS, MIN_TRIP_COUNT,
};
use crate::manager::FuncCx;
use crate::rewrite::NameGen;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body, InstData, ValueId};
use postc_ir::cfg::{Cfg, DomTree};
use postc_ir::{DType, EntityId, Function, Opcode, TypeId};

pub struct Irce;

pub static INFO: PassInfo = PassInfo {
    name: "irce",
    description: "split counted loops into a main loop without bounds checks that provably pass and the checked rest",
    scope: Scope::Function,
    needs: AnalysisSet::DOMINATORS,
    keeps: AnalysisSet::NAMES,
};

/// The largest constant offset or step considered.
const MAX_OFFSET: i64 = 1 << 31;
/// Extents are clamped to this before the offsets are subtracted, so that
/// the main loop's bound and its counter stay far from overflow.
const EXTENT_CAP: i64 = 1 << 62;

/// An extent a check compares with, as the guard reads it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Extent {
    /// A loop-invariant value.
    Value(ValueId),
    /// `dim %array, axis`, read in the loop, of an invariant array whose
    /// rank is static (so reading it cannot fail).
    Dim(ValueId, u32),
}

/// What makes one check pass in every iteration of the main loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    /// The index is `%i + offset`.
    Inductive { offset: i64, extent: Extent },
    /// The index does not change in the loop: checked once by the guard.
    Invariant { index: ValueId, extent: Extent },
}

/// A loop to split.
struct Split {
    header: BlockId,
    /// The loop's blocks other than the header, in reverse post-order.
    blocks: Vec<BlockId>,
    /// Blocks outside the loop that end the function, entered from it.
    exits: Vec<BlockId>,
    in_loop: Vec<bool>,
    counter: ValueId,
    limit: ValueId,
    /// The header's compare.
    more: ValueId,
    body: BlockId,
    /// The checks' branches and what makes each pass.
    checks: Vec<(ValueId, Bound)>,
}

impl FunctionPass for Irce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        let tags = body.tags.raw();
        if !tags.contains(&Opcode::Set) || !tags.contains(&Opcode::CondBr) || body.blocks.len() < 3 {
            return false;
        }
        let cfg = analyses.cfg(body).clone();
        let dom = analyses.dom(body);
        let splits: Vec<Split> =
            (1..body.blocks.len()).map(BlockId::new).filter_map(|h| find_split(cx, body, &cfg, dom, h)).collect();
        if splits.is_empty() {
            return false;
        }
        let names = NameGen::starting_at(analyses.name_start(body));
        let loops: Vec<(BlockId, &[bool])> = splits.iter().map(|s| (s.header, &s.in_loop[..])).collect();
        let next = rebuild(func, &loops, &cfg, names, cx.scratch, |bd, labels, k, guard| {
            emit_split(bd, labels, &splits[k], guard)
        });
        analyses.invalidate_except(AnalysisSet::NONE);
        analyses.set_name_start(Some(next));
        true
    }
}

fn is_int64(body: &Body, v: ValueId) -> bool {
    body.types.get(v).copied().flatten() == Some(TypeId::INT64)
}

/// The split of the loop headed by `header`, if it qualifies.
fn find_split(cx: &FuncCx<'_>, body: &Body, cfg: &Cfg, dom: &DomTree, header: BlockId) -> Option<Split> {
    let lp = counted_loop(body, cfg, dom, header)?;
    if known_trip_count(body, &lp).is_some_and(|n| n < MIN_TRIP_COUNT) {
        return None;
    }
    let CountedLoop { latch, blocks, in_loop, counter, limit, more, body: first, mut size, .. } = lp;
    let declared_outside = |v: ValueId| {
        v.as_u32() < body.num_params + body.num_core || body.block_of(v).is_some_and(|b| !in_loop[b.index()])
    };
    // The counter: declared outside, assigned once in the loop, in the latch.
    if !matches!(body.tags[counter], Opcode::Let | Opcode::Param) || !declared_outside(counter) {
        return None;
    }
    let mut assigned: Vec<ValueId> = Vec::new();
    let mut counter_set = None;
    for &b in &blocks {
        for v in body.blocks[b].insts() {
            match body.inst(v) {
                InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } => {
                    if target == counter {
                        if counter_set.is_some() || b != latch {
                            return None;
                        }
                        counter_set = Some(v);
                    }
                    assigned.push(target);
                }
                InstData::Call { callee, .. } if callee.starts_with("postc.gpu.") => return None,
                _ => {}
            }
        }
    }
    let set = counter_set?;
    let InstData::Set { value: next, .. } = body.inst(set) else { return None };
    let InstData::Binary { op: Opcode::Add, left, right } = body.inst(next) else { return None };
    let step = match (left == counter, right == counter) {
        (true, false) => int_const(body, right),
        (false, true) => int_const(body, left),
        _ => None,
    }?;
    if !(1..=MAX_OFFSET).contains(&step) || !is_int64(body, next) || declared_outside(next) {
        return None;
    }
    let latch_term = body.terminator(latch)?;
    if !matches!(body.inst(latch_term), InstData::Br { target } if target == header) {
        return None;
    }
    let invariant = |v: ValueId| declared_outside(v) && !assigned.contains(&v);
    if !invariant(limit) || is_remainder(body, cfg, dom, header, counter, &in_loop) {
        return None;
    }
    // Whether `reader` reads the counter's value of the current iteration.
    let reads_iteration =
        |reader: ValueId| body.block_of(reader).is_some_and(|b| in_loop[b.index()] && !(b == latch && reader > set));
    // Copies of the counter: locals declared outside the loop whose one
    // assignment in it is `set %c = %i`, with `%i` read as the iteration's
    // (how the frontend lowers `for i in range(...)`). A read dominated by
    // that `set` reads the iteration's counter too.
    let copies: Vec<(ValueId, ValueId)> = blocks
        .iter()
        .flat_map(|&b| body.blocks[b].insts())
        .filter_map(|v| match body.inst(v) {
            InstData::Set { target, value } if value == counter && target != counter => Some((target, v)),
            _ => None,
        })
        .filter(|&(target, set)| {
            assigned.iter().filter(|&&t| t == target).count() == 1
                && matches!(body.tags[target], Opcode::Let | Opcode::Param)
                && declared_outside(target)
                && is_int64(body, target)
                && reads_iteration(set)
        })
        .collect();
    let dominated = |first: ValueId, then: ValueId| match (body.block_of(first), body.block_of(then)) {
        (Some(a), Some(b)) => in_loop[b.index()] && if a == b { first < then } else { dom.dominates(a, b) },
        _ => false,
    };
    // Whether `v`, as `reader` reads it, is the iteration's counter.
    let counter_at = |v: ValueId, reader: ValueId| {
        if v == counter {
            return reads_iteration(reader);
        }
        copies.iter().any(|&(c, set)| c == v && dominated(set, reader))
    };
    let inductive_offset = |idx: ValueId, reader: ValueId| -> Option<i64> {
        if counter_at(idx, reader) {
            return Some(0);
        }
        let (offset, base) = match body.inst(idx) {
            InstData::Binary { op: Opcode::Add, left, right } => match int_const(body, right) {
                Some(c) => (c, left),
                None => (int_const(body, left)?, right),
            },
            InstData::Binary { op: Opcode::Sub, left, right } => (int_const(body, right)?.checked_neg()?, left),
            _ => return None,
        };
        (counter_at(base, idx) && is_int64(body, idx) && offset.unsigned_abs() <= MAX_OFFSET as u64).then_some(offset)
    };
    let extent_of = |e: ValueId| -> Option<Extent> {
        if invariant(e) {
            return Some(Extent::Value(e));
        }
        let InstData::Dim { array, axis } = body.inst(e) else { return None };
        let rank = match body.types[array].and_then(|t| cx.types.try_get(t)).map(|t| &t.shape) {
            Some(postc_ir::Shape::Dims(d)) => d.len(),
            _ => return None,
        };
        (invariant(array) && (axis as usize) < rank).then_some(Extent::Dim(array, axis))
    };
    let u64t = TypeId::scalar(DType::UInt64);
    let mut checks = Vec::new();
    for &b in &blocks {
        let Some(term) = body.terminator(b) else { continue };
        let InstData::CondBr { cond, .. } = body.inst(term) else { continue };
        let InstData::Binary { op: Opcode::Lt, left: iu, right: nu } = body.inst(cond) else { continue };
        let (InstData::Cast { operand: idx }, InstData::Cast { operand: ext }) = (body.inst(iu), body.inst(nu)) else {
            continue;
        };
        if body.types[iu] != Some(u64t) || body.types[nu] != Some(u64t) || !is_int64(body, idx) || !is_int64(body, ext)
        {
            continue;
        }
        let Some(extent) = extent_of(ext) else { continue };
        let bound = if let Some(offset) = inductive_offset(idx, iu) {
            Bound::Inductive { offset, extent }
        } else if invariant(idx) {
            Bound::Invariant { index: idx, extent }
        } else {
            continue;
        };
        checks.push((term, bound));
    }
    if checks.is_empty() {
        return None;
    }
    // The exits that the main loop still reaches, through the branches it keeps.
    let mut exits: Vec<BlockId> = Vec::new();
    for &b in &blocks {
        let Some(term) = body.terminator(b) else { continue };
        let kept = match body.inst(term) {
            InstData::CondBr { if_true, .. } if checks.iter().any(|&(t, _)| t == term) => smallvec::smallvec![if_true],
            _ => body.successors_of_inst(term),
        };
        for s in kept {
            if !in_loop[s.index()] && !exits.contains(&s) {
                size += body.blocks[s].len();
                exits.push(s);
            }
        }
    }
    if size > MAX_LOOP_INSTS || !pays(size, checks.len()) {
        return None;
    }
    Some(Split { header, blocks, exits, in_loop, counter, limit, more, body: first, checks })
}

/// Whether the loop is what a split left behind: an edge into its header
/// leaves a loop whose header compares the same counter.
fn is_remainder(body: &Body, cfg: &Cfg, dom: &DomTree, header: BlockId, counter: ValueId, in_loop: &[bool]) -> bool {
    cfg.preds(header).filter(|p| !in_loop[p.index()]).any(|p| {
        let heads_loop = cfg.preds(p).any(|q| dom.dominates(p, q));
        let Some(term) = body.terminator(p) else { return false };
        let InstData::CondBr { cond, if_false, .. } = body.inst(term) else { return false };
        heads_loop
            && if_false == header
            && matches!(body.inst(cond), InstData::Binary { op: Opcode::Lt, left, .. } if left == counter)
    })
}

/// The guard and the main loop of one split.
fn emit_split(bd: &mut Build<'_, '_>, labels: &mut NameGen, s: &Split, guard: BlockId) {
    let old = bd.old;
    let hlabel = old.label(s.header).as_bytes();
    let main_head = bd.rw.new_block();
    let mut map = CopyMap::new();
    map.blocks.insert(s.header, main_head);
    for &b in s.blocks.iter().chain(&s.exits) {
        let n = bd.rw.new_block();
        map.blocks.insert(b, n);
    }
    // The guard: the bound of the main loop, and whether to enter it.
    let l = label(&mut bd.rw, labels, hlabel, b".guard");
    bd.rw.begin_block_named(guard, l);
    let mut dims: Vec<((ValueId, u32), ValueId)> = Vec::new();
    let mut read = |bd: &mut Build<'_, '_>, e: Extent| match e {
        Extent::Value(v) => v,
        Extent::Dim(array, axis) => match dims.iter().find(|(k, _)| *k == (array, axis)) {
            Some(&(_, v)) => v,
            None => {
                let v = bd.value(Opcode::Dim, TypeId::INT64, [array.as_u32(), axis], &[], "ext");
                dims.push(((array, axis), v));
                v
            }
        },
    };
    // Per extent, the largest and smallest inductive offset.
    let mut spans: Vec<(Extent, i64, i64)> = Vec::new();
    let mut invariant: Vec<(ValueId, Extent)> = Vec::new();
    for &(_, bound) in &s.checks {
        match bound {
            Bound::Inductive { offset, extent } => match spans.iter_mut().find(|(e, _, _)| *e == extent) {
                Some(span) => {
                    span.1 = span.1.min(offset);
                    span.2 = span.2.max(offset);
                }
                None => spans.push((extent, offset, offset)),
            },
            Bound::Invariant { index, extent } => {
                if !invariant.contains(&(index, extent)) {
                    invariant.push((index, extent));
                }
            }
        }
    }
    let mut ok: Option<ValueId> = None;
    let mut hi = s.limit;
    if !spans.is_empty() {
        // i + offset >= 0 for every offset from the first iteration on.
        let lowest = spans.iter().map(|&(_, lo, _)| lo).min().unwrap_or(0);
        let lo = bd.int(-lowest, "lo");
        ok = Some(bd.value(Opcode::Ge, TypeId::BOOL, [s.counter.as_u32(), lo.as_u32()], &[], "ok"));
        let zero = bd.int(0, "zero");
        let cap = bd.int(EXTENT_CAP, "cap");
        for &(extent, _, highest) in &spans {
            let e = read(bd, extent);
            let e = bd.min_max(e, zero, false, "ext");
            let e = bd.min_max(e, cap, true, "ext");
            let bound = if highest == 0 {
                e
            } else {
                let c = bd.int(highest, "off");
                bd.value(Opcode::Sub, TypeId::INT64, [e.as_u32(), c.as_u32()], &[], "bound")
            };
            hi = bd.min_max(bound, hi, true, "hi");
        }
    }
    let u64t = TypeId::scalar(DType::UInt64);
    for &(index, extent) in &invariant {
        let e = read(bd, extent);
        let iu = bd.value(Opcode::Cast, u64t, [index.as_u32(), 0], &[], "iu");
        let nu = bd.value(Opcode::Cast, u64t, [e.as_u32(), 0], &[], "nu");
        let inb = bd.value(Opcode::Lt, TypeId::BOOL, [iu.as_u32(), nu.as_u32()], &[], "inbounds");
        ok = Some(match ok {
            Some(o) => bd.value(Opcode::And, TypeId::BOOL, [o.as_u32(), inb.as_u32()], &[], "ok"),
            None => inb,
        });
    }
    let header = s.header.as_u32();
    let ok = ok.expect("a split has a check");
    bd.rw.emit(Opcode::CondBr, None, [ok.as_u32(), 0], &[main_head.as_u32(), header, 0, 0], None, None);
    // The main loop's header: the original compare holds in every
    // iteration of the main loop, where `%i < hi <= %n`.
    let l = label(&mut bd.rw, labels, hlabel, b".main");
    bd.rw.begin_block_named(main_head, l);
    let more = bd.named(old.name_bytes(s.more).unwrap_or(b"more"), b".main");
    let more = bd.rw.emit_with_name(
        Opcode::Lt,
        Some(TypeId::BOOL),
        [s.counter.as_u32(), hi.as_u32()],
        &[],
        Some(more),
        old.loc(s.more),
    );
    map.values.insert(s.more, more);
    let body = map.block(s.body).as_u32();
    bd.rw.emit(Opcode::CondBr, None, [more.as_u32(), 0], &[body, header, 0, 0], None, old.loc(s.more));
    // The loop's blocks, then its exits, each checked branch now plain.
    let copied: Vec<BlockId> = s.blocks.iter().chain(&s.exits).copied().collect();
    copy_blocks(bd, labels, &copied, &mut map, b".main", |bd, map, v| {
        if !s.checks.iter().any(|&(t, _)| t == v) {
            return false;
        }
        if let InstData::CondBr { if_true, .. } = bd.old.inst(v) {
            let target = map.block(if_true).as_u32();
            bd.rw.emit(Opcode::Br, None, [target, 0], &[], None, bd.old.loc(v));
        }
        true
    });
}
