//! Copying innermost loops: what `irce` and `stride-version` share. Both
//! find an innermost loop headed by a counted compare, lay a guard block
//! before its header that every entry from outside the loop goes through,
//! and copy the loop (and the blocks ending the function that it exits to)
//! after the guard, which chooses between the copy and the original.
//!
//! Both also share the cost model that decides whether a copy pays. A copy
//! costs compile time in every backend about as much as the loop itself:
//! the backend's optimiser unrolls and vectorises each copy on its own. It
//! gains run time only per iteration, and only what it saves: the checks
//! `irce` drops, the strided accesses `stride-version` makes unit. So a
//! loop is not copied
//!
//! - when it is known to run fewer than [`MIN_TRIP_COUNT`] iterations
//!   ([`known_trip_count`]), too few for the saving to show;
//! - when it has more than [`INSTS_PER_SAVING`] instructions per thing the
//!   copy saves ([`pays`]): the saving is then lost in what an iteration
//!   does anyway.
//!
//! A loop that saves nothing (no check against an unchanging extent, no
//! access scaled by a run-time stride of a last axis) was never copied.
//!
//! What the model does not do: weigh a loop's nesting depth, estimate a
//! trip count it cannot read off constants, or decline a loop because it
//! will not vectorise: the unit-stride copy of an in-order float sum, which
//! no backend vectorises, still runs 18% faster through the LLVM backend
//! with bounds checks (`dot` and `sum2d` of the run-time benches,
//! docs/performance.md).

use crate::rewrite::{NameGen, Rewriter};
use crate::scratch::Scratch;
use postc_ir::body::{operand_places, BlockId, Body, InstData, Literal, NameId, OperandAt, ValueId};
use postc_ir::cfg::{Cfg, DomTree};
use postc_ir::{EntityId, Function, Opcode, TypeId};
use smallvec::SmallVec;
use std::collections::HashMap;

/// Loops with more instructions (exits included) are not copied, whatever
/// they save: a bound on what one copy can add to the function.
pub(crate) const MAX_LOOP_INSTS: usize = 4096;

/// A loop known to run fewer iterations than this is not copied. It is the
/// trip count below which LLVM's loop vectoriser does not vectorise a loop
/// whose trip count it knows (`vectorizer-min-trip-count`), and at which a
/// vector loop of the widest common factor (8 lanes, unrolled twice) first
/// runs once: below it the copy runs scalar code that differs from the
/// original by a few instructions an iteration, on a handful of iterations.
pub(crate) const MIN_TRIP_COUNT: i64 = 16;

/// A copy must save at least one check or strided access per this many
/// instructions of the loop (exits included). A check is four
/// instructions (two casts, the compare, the branch) and a strided access
/// one multiply: with 64 instructions per saving, what the copy saves is
/// at most 6% of an iteration, within the run-to-run noise of the run-time
/// benches on this kind of machine (up to 5%, docs/performance.md), while
/// the copy still doubles the loop's compile time. The hot loops of those
/// benches (`benches/kernels.pir`) have 11 to 13 instructions per check.
pub(crate) const INSTS_PER_SAVING: usize = 64;

/// Whether copying a loop of `size` instructions that saves `savings`
/// checks or strided accesses pays (see [`INSTS_PER_SAVING`]).
pub(crate) fn pays(size: usize, savings: usize) -> bool {
    savings > 0 && size <= savings.saturating_mul(INSTS_PER_SAVING)
}

/// The value of an `Int64` constant.
pub(crate) fn int_const(body: &Body, v: ValueId) -> Option<i64> {
    match body.inst(v) {
        InstData::Const(Literal::Int(x)) if body.types[v] == Some(TypeId::INT64) => i64::try_from(x).ok(),
        _ => None,
    }
}

/// The most iterations the loop can run, when its limit and every value
/// its counter starts from (the `let` and each `set` outside the loop) are
/// constants and the counter steps by a positive constant in the loop.
pub(crate) fn known_trip_count(body: &Body, lp: &CountedLoop) -> Option<i64> {
    let limit = int_const(body, lp.limit)?;
    let InstData::Let { value } = body.inst(lp.counter) else { return None };
    let mut lowest = int_const(body, value)?;
    let mut stepped = false;
    for b in body.blocks.ids() {
        let in_loop = lp.in_loop[b.index()];
        for v in body.blocks[b].insts() {
            let InstData::Set { target, value } = body.inst(v) else { continue };
            if target != lp.counter {
                continue;
            }
            if !in_loop {
                lowest = lowest.min(int_const(body, value)?);
                continue;
            }
            // In the loop: only `set %i = add %i, STEP`, STEP >= 1, once.
            let InstData::Binary { op: Opcode::Add, left, right } = body.inst(value) else { return None };
            let step = match (left == lp.counter, right == lp.counter) {
                (true, false) => int_const(body, right)?,
                (false, true) => int_const(body, left)?,
                _ => return None,
            };
            if step < 1 || stepped {
                return None;
            }
            stepped = true;
        }
    }
    stepped.then(|| limit.saturating_sub(lowest).max(0))
}

/// An innermost loop whose header holds only `%more = lt %i, %n` and
/// `condbr %more, BODY, EXIT`, with one latch, and whose other exits go to
/// blocks that end the function.
pub(crate) struct CountedLoop {
    pub(crate) latch: BlockId,
    /// The loop's blocks other than the header, in reverse post-order.
    pub(crate) blocks: Vec<BlockId>,
    pub(crate) in_loop: Vec<bool>,
    pub(crate) counter: ValueId,
    pub(crate) limit: ValueId,
    /// The header's compare.
    pub(crate) more: ValueId,
    /// The header's successor in the loop.
    pub(crate) body: BlockId,
    /// Instructions in the loop's blocks, the header's included.
    pub(crate) size: usize,
}

fn is_int64(body: &Body, v: ValueId) -> bool {
    body.types.get(v).copied().flatten() == Some(TypeId::INT64)
}

/// The counted loop headed by `header`, if it has that shape.
pub(crate) fn counted_loop(body: &Body, cfg: &Cfg, dom: &DomTree, header: BlockId) -> Option<CountedLoop> {
    if !dom.is_reachable(header) {
        return None;
    }
    let mut latches = cfg.preds(header).filter(|&p| dom.dominates(header, p));
    let latch = latches.next()?;
    if latches.next().is_some() {
        return None;
    }
    // The header: `%more = lt %i, %n` and `condbr %more, BODY, EXIT`.
    let hd = body.blocks[header];
    if hd.end - hd.start != 2 {
        return None;
    }
    let more = ValueId::from_u32(hd.start);
    let InstData::Binary { op: Opcode::Lt, left: counter, right: limit } = body.inst(more) else { return None };
    let InstData::CondBr { cond, if_true: first, if_false: exit, .. } = body.inst(ValueId::from_u32(hd.start + 1))
    else {
        return None;
    };
    if cond != more || !is_int64(body, counter) || !is_int64(body, limit) || first == header {
        return None;
    }
    // The natural loop of the back edge.
    let nblocks = body.blocks.len();
    let mut in_loop = vec![false; nblocks];
    in_loop[header.index()] = true;
    let mut stack = vec![latch];
    while let Some(b) = stack.pop() {
        if !in_loop[b.index()] {
            in_loop[b.index()] = true;
            stack.extend(cfg.preds(b).filter(|&p| dom.is_reachable(p)));
        }
    }
    if !in_loop[first.index()] || in_loop[exit.index()] {
        return None;
    }
    let blocks: Vec<BlockId> = cfg.rpo().filter(|&b| in_loop[b.index()] && b != header).collect();
    // Innermost: no other block of the loop heads a loop.
    if blocks.iter().any(|&b| cfg.preds(b).any(|p| dom.dominates(b, p))) {
        return None;
    }
    let mut size = 2;
    for &b in &blocks {
        size += body.blocks[b].len();
        if cfg.succs(b).any(|s| !in_loop[s.index()] && cfg.succs(s).len() != 0) {
            return None;
        }
    }
    if size > MAX_LOOP_INSTS {
        return None;
    }
    Some(CountedLoop { latch, blocks, in_loop, counter, limit, more, body: first, size })
}

/// Whether the loop headed by `header` is the one a guard falls back to or
/// a loop's exit continues in: a branch from outside it enters it as the
/// other way out of a compare of `counter` that heads a loop, or alongside
/// such a loop's header.
pub(crate) fn follows_copy(
    body: &Body,
    cfg: &Cfg,
    dom: &DomTree,
    header: BlockId,
    counter: ValueId,
    in_loop: &[bool],
) -> bool {
    let heads_counted = |b: BlockId| {
        let d = body.blocks[b];
        d.end > d.start
            && cfg.preds(b).any(|q| dom.dominates(b, q))
            && matches!(body.inst(ValueId::from_u32(d.start)), InstData::Binary { op: Opcode::Lt, left, .. } if left == counter)
    };
    cfg.preds(header).filter(|p| !in_loop[p.index()]).any(|p| {
        let Some(term) = body.terminator(p) else { return false };
        let InstData::CondBr { cond, if_true, if_false, .. } = body.inst(term) else { return false };
        if if_false != header {
            return false;
        }
        // The remainder of a split: `p` heads a loop over the same counter.
        let remainder = heads_counted(p)
            && matches!(body.inst(cond), InstData::Binary { op: Opcode::Lt, left, .. } if left == counter);
        // The fallback of a guard: its other branch heads such a loop.
        remainder || (if_true != header && heads_counted(if_true))
    })
}

/// The old name's base without its `$N` suffix, then `suffix`.
pub(crate) fn base_name(old: &[u8], suffix: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let cut = match old.iter().rposition(|&c| c == b'$') {
        Some(k) if k + 1 < old.len() && old[k + 1..].iter().all(u8::is_ascii_digit) => k,
        _ => old.len(),
    };
    out.extend_from_slice(&old[..cut]);
    out.extend_from_slice(suffix);
}

/// Old ids → ids in the rebuild's extended space of their copies; an id
/// without a copy stands for itself.
pub(crate) struct CopyMap {
    pub(crate) values: HashMap<ValueId, ValueId>,
    pub(crate) blocks: HashMap<BlockId, BlockId>,
}

impl CopyMap {
    pub(crate) fn new() -> CopyMap {
        CopyMap { values: HashMap::new(), blocks: HashMap::new() }
    }
    pub(crate) fn value(&self, v: ValueId) -> ValueId {
        self.values.get(&v).copied().unwrap_or(v)
    }
    pub(crate) fn block(&self, b: BlockId) -> BlockId {
        self.blocks.get(&b).copied().unwrap_or(b)
    }
}

/// Emits a copy of old instruction `v` named `name`, its operands and
/// targets read through `map`.
pub(crate) fn copy_inst(rw: &mut Rewriter<'_>, old: &Body, v: ValueId, map: &CopyMap, name: Option<NameId>) -> ValueId {
    let tag = old.tags[v];
    let [a, b] = old.ops[v];
    let (items_at, _) = old.payload_ranges(v);
    let mut items: SmallVec<[u32; 8]> = SmallVec::from_slice(old.extra.get(items_at.clone()).unwrap_or(&[]));
    let mut ops = [a, b];
    let put = |p: OperandAt, x: u32, ops: &mut [u32; 2], items: &mut [u32]| match p {
        OperandAt::A => ops[0] = x,
        OperandAt::B => ops[1] = x,
        OperandAt::Extra(k) => {
            if let Some(slot) = k.checked_sub(items_at.start).and_then(|k| items.get_mut(k)) {
                *slot = x;
            }
        }
    };
    let mut values: SmallVec<[OperandAt; 8]> = SmallVec::new();
    let mut blocks: SmallVec<[OperandAt; 2]> = SmallVec::new();
    operand_places(tag, [a, b], &old.extra, |p| values.push(p), |p| blocks.push(p));
    for p in values {
        let x = map.value(ValueId::from_u32(p.read([a, b], &old.extra))).as_u32();
        put(p, x, &mut ops, &mut items);
    }
    for p in blocks {
        let x = map.block(BlockId::from_u32(p.read([a, b], &old.extra))).as_u32();
        put(p, x, &mut ops, &mut items);
    }
    rw.emit_with_name(tag, old.types[v], ops, &items, name, old.loc(v))
}

/// A rewrite in progress and the names it hands out.
pub(crate) struct Build<'a, 'b> {
    pub(crate) rw: Rewriter<'a>,
    pub(crate) old: &'a Body,
    pub(crate) names: &'b mut NameGen,
    buf: Vec<u8>,
}

impl Build<'_, '_> {
    pub(crate) fn named(&mut self, old_name: &[u8], suffix: &[u8]) -> NameId {
        let mut buf = std::mem::take(&mut self.buf);
        base_name(old_name, suffix, &mut buf);
        let n = self.rw.fresh_name(self.names, &[&buf]);
        self.buf = buf;
        n
    }

    pub(crate) fn value(&mut self, op: Opcode, ty: TypeId, ops: [u32; 2], extra: &[u32], base: &str) -> ValueId {
        let n = self.named(base.as_bytes(), b"");
        self.rw.emit_with_name(op, Some(ty), ops, extra, Some(n), None)
    }

    pub(crate) fn int(&mut self, x: i64, base: &str) -> ValueId {
        let n = self.named(base.as_bytes(), b"");
        self.rw.emit_const_with_name(TypeId::INT64, Literal::Int(x.into()), Some(n), None)
    }

    /// `select (lt a, b), a, b` or its mirror: the smaller or larger.
    pub(crate) fn min_max(&mut self, a: ValueId, b: ValueId, min: bool, base: &str) -> ValueId {
        let lt = self.value(Opcode::Lt, TypeId::BOOL, [a.as_u32(), b.as_u32()], &[], "lt");
        let (t, f) = if min { (a, b) } else { (b, a) };
        self.value(Opcode::Select, TypeId::INT64, [lt.as_u32(), 0], &[t.as_u32(), f.as_u32()], base)
    }
}

/// Rebuilds the body with, before each loop header in `loops`, a new guard
/// block that every branch into the header from outside its loop now
/// enters, and whatever `emit` lays out there (the guard's code and the
/// loop's copy, `emit` starts the guard block itself); returns the first
/// free `$N`.
pub(crate) fn rebuild(
    func: &mut Function,
    loops: &[(BlockId, &[bool])],
    cfg: &Cfg,
    mut names: NameGen,
    scratch: &Scratch,
    mut emit: impl FnMut(&mut Build<'_, '_>, &mut NameGen, usize, BlockId),
) -> u64 {
    let old = std::mem::take(&mut func.body);
    let mut labels = names.same_start();
    let mut bd = Build { rw: Rewriter::new(&old, scratch), old: &old, names: &mut names, buf: Vec::new() };
    let guards: Vec<BlockId> = loops.iter().map(|_| bd.rw.new_block()).collect();
    let entering = |b: BlockId| loops.iter().any(|&(h, in_loop)| !in_loop[b.index()] && cfg.succs(b).any(|x| x == h));
    for b in old.blocks.ids() {
        if let Some(k) = loops.iter().position(|&(h, _)| h == b) {
            emit(&mut bd, &mut labels, k, guards[k]);
        }
        bd.rw.begin_old_block(b);
        let d = old.blocks[b];
        match old.terminator(b) {
            Some(term) if entering(b) => {
                bd.rw.copy_range(ValueId::from_u32(d.start), term);
                let mut map = CopyMap::new();
                for (&(h, in_loop), &g) in loops.iter().zip(&guards) {
                    if !in_loop[b.index()] {
                        map.blocks.insert(h, g);
                    }
                }
                let name = bd.rw.copy_name(term);
                copy_inst(&mut bd.rw, &old, term, &map, name);
            }
            _ => bd.rw.copy_range(ValueId::from_u32(d.start), ValueId::from_u32(d.end)),
        }
    }
    let next = bd.names.peek().max(labels.peek());
    func.body = bd.rw.finish();
    scratch.recycle(old);
    next
}

/// Copies `blocks` (already given new ids in `map`), their labels and
/// value names followed by `suffix`, their operands read through `map`;
/// `replace` may emit something else for an instruction and return true.
pub(crate) fn copy_blocks(
    bd: &mut Build<'_, '_>,
    labels: &mut NameGen,
    blocks: &[BlockId],
    map: &mut CopyMap,
    suffix: &[u8],
    mut replace: impl FnMut(&mut Build<'_, '_>, &CopyMap, ValueId) -> bool,
) {
    let old = bd.old;
    let mut buf = Vec::new();
    for &b in blocks {
        base_name(old.label(b).as_bytes(), suffix, &mut buf);
        let l = bd.rw.fresh_name(labels, &[&buf]);
        bd.rw.begin_block_named(map.block(b), l);
        for v in old.blocks[b].insts() {
            if replace(bd, map, v) {
                continue;
            }
            let name = old.name_bytes(v).map(|n| n.to_vec());
            let name = name.map(|n| bd.named(&n, suffix));
            let new = copy_inst(&mut bd.rw, old, v, map, name);
            map.values.insert(v, new);
        }
    }
}

/// A fresh block label: `base` without its `$N`, then `suffix`.
pub(crate) fn label(rw: &mut Rewriter<'_>, labels: &mut NameGen, base: &[u8], suffix: &[u8]) -> NameId {
    let mut buf = Vec::new();
    base_name(base, suffix, &mut buf);
    rw.fresh_name(labels, &[&buf])
}
