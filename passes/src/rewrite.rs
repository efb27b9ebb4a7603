//! Rebuilding a function body in one linear sweep.
//!
//! A pass that inserts or removes instructions or splits blocks takes the
//! old body, walks it block by block, and for each instruction either
//! copies it, drops it (optionally redirecting its uses to another value)
//! or emits new instructions and blocks around it. Operands are written in
//! an *extended* id space — the old body's ids, then ids of instructions and
//! blocks created by the pass — and [`Rewriter::finish`] maps every operand
//! to its final position in one sweep.

use crate::scratch::{Scratch, ScratchVec};
use postc_ir::body::{operand_places, BlockData, BlockId, Body, Literal, NameId, NamePool, OperandAt, ValueId};
use postc_ir::opcode::{Format, Opcode, Slot, ValueSlots};
use postc_ir::{DType, EntityId, Function, SrcLoc, TypeId};
use smallvec::SmallVec;
use std::mem::ManuallyDrop;

/// The position of a value that is not in the new body. It is also what a
/// use of it becomes (a visibly broken id for the verifier, never
/// `NO_VALUE`), so final positions need no second table.
const DROPPED: u32 = u32::MAX - 1;
/// `replaced[x]` of a value that was not replaced.
const KEPT: u32 = u32::MAX;

/// The same location, printed: see [`Rewriter::emit`].
pub fn explicit(loc: Option<SrcLoc>) -> Option<SrcLoc> {
    loc.map(|l| SrcLoc { implicit: false, ..l })
}

/// `n` copies of `value` in the arena, with room to grow by a quarter.
fn grown_scratch(scratch: &Scratch, n: usize, value: u32) -> ScratchVec<'_, u32> {
    let mut v = scratch.vec_with_capacity(n + n / 4 + 16);
    v.resize(n, value);
    v
}

/// Makes room for `cap` items in an empty vector: a larger one is allocated
/// afresh rather than grown, since there is nothing to copy.
fn fresh_capacity<T>(v: &mut Vec<T>, cap: usize) {
    if v.capacity() < cap {
        *v = Vec::with_capacity(cap);
    }
}

/// A spare body with `old`'s parameter counts and files, and room for its
/// instructions and blocks; locations and pools are the caller's.
fn body_like(old: &Body, scratch: &Scratch) -> Body {
    let n = old.num_insts();
    let mut new = scratch.take_body();
    new.num_params = old.num_params;
    new.num_core = old.num_core;
    new.pir_file = old.pir_file;
    new.src_file = old.src_file;
    let room = |k: usize| k + k / 4 + 16;
    fresh_capacity(new.tags.raw_mut(), room(n));
    fresh_capacity(new.types.raw_mut(), room(n));
    fresh_capacity(new.ops.raw_mut(), room(n));
    fresh_capacity(new.names.raw_mut(), room(n));
    fresh_capacity(new.locs.raw_mut(), room(n));
    fresh_capacity(new.blocks.raw_mut(), room(old.blocks.len()));
    new
}

/// Calls `f` on every value operand of `v`: straight from the payload slots
/// for the formats that keep operands there, through the format otherwise.
#[inline]
pub(crate) fn for_each_operand_fast(body: &Body, v: ValueId, mut f: impl FnMut(ValueId)) {
    let [a, b] = body.ops[v];
    match body.tags[v].value_slots() {
        ValueSlots::None => {}
        ValueSlots::A => f(ValueId::from_u32(a)),
        ValueSlots::AB => {
            f(ValueId::from_u32(a));
            f(ValueId::from_u32(b));
        }
        _ => body.for_each_operand(v, f),
    }
}

/// A table of ids in the worker's arena. Never dropped: ids need no drop,
/// and the arena frees the memory when it is reset. So a rewriter has no
/// destructor that could read the old body, and the old body can be
/// recycled once the rewriter is finished even where the rewriter was
/// moved out of a larger struct.
type IdMap<'a> = ManuallyDrop<ScratchVec<'a, u32>>;

pub struct Rewriter<'a> {
    old: &'a Body,
    new: Body,
    /// Where the maps live, and the spare body `new` came from.
    scratch: &'a Scratch,
    /// Extended value id → position in the new body (`DROPPED` if none).
    value_pos: IdMap<'a>,
    /// Extended value id → extended value it was replaced by (`KEPT` if not).
    replaced: IdMap<'a>,
    /// Extended block id → new block index (`DROPPED` before it is begun).
    block_pos: IdMap<'a>,
    current: Option<u32>,
    /// Old instructions `[pending.0, pending.1)` copied but not yet written:
    /// consecutive copies (a block after block) are written as one run.
    pending: (u32, u32),
    /// Old instructions dropped after they were copied: still in the new
    /// body, so their names stay readable.
    copied_dropped: IdMap<'a>,
    /// Whether the new body holds the old pools yet (see
    /// [`Rewriter::new_dropping`]).
    pools: bool,
}

impl<'a> Rewriter<'a> {
    /// Starts a rebuild of `old`, with maps in the worker's `scratch`; its
    /// parameters are copied at once.
    pub fn new(old: &'a Body, scratch: &'a Scratch) -> Rewriter<'a> {
        let mut rw = Rewriter::new_dropping(old, scratch);
        rw.ensure_pools();
        rw
    }

    /// [`Rewriter::new`] for a rebuild that keeps less than it drops: the
    /// old pools are not copied up front (only once something new is
    /// written to them), and [`Rewriter::finish`] lays out fresh ones with
    /// what the kept instructions use.
    pub fn new_dropping(old: &'a Body, scratch: &'a Scratch) -> Rewriter<'a> {
        let n = old.num_insts();
        let mut new = body_like(old, scratch);
        // Copied instructions keep their packed locations as they are.
        new.far_locs.extend_from_slice(&old.far_locs);
        let mut rw = Rewriter {
            old,
            new,
            scratch,
            // Room for what a pass typically adds, and the end slot of
            // [`Rewriter::finish`].
            value_pos: ManuallyDrop::new(grown_scratch(scratch, n, DROPPED)),
            // Sized on the first replacement: most rebuilds make none.
            replaced: ManuallyDrop::new(scratch.vec()),
            block_pos: ManuallyDrop::new(grown_scratch(scratch, old.blocks.len(), DROPPED)),
            current: None,
            pending: (0, 0),
            copied_dropped: ManuallyDrop::new(scratch.vec()),
            pools: false,
        };
        let np = (old.num_params + old.num_core).min(n as u32);
        rw.copy_range(ValueId::from_u32(0), ValueId::from_u32(np));
        rw
    }

    pub fn old(&self) -> &'a Body {
        self.old
    }

    /// Copies the old pools whole into the new body, once: copied
    /// instructions then keep their payloads and names as they are; what
    /// only dropped instructions used stays behind, unread (see
    /// [`Rewriter::finish`]).
    fn ensure_pools(&mut self) {
        if self.pools {
            return;
        }
        self.pools = true;
        let (old, new) = (self.old, &mut self.new);
        let room = |k: usize| k + k / 4 + 16;
        new.strings.reserve(room(old.strings.byte_len()));
        new.strings.extend_raw(old.strings.as_bytes());
        fresh_capacity(&mut new.extra, room(old.extra.len()));
        new.extra.extend_from_slice(&old.extra);
        fresh_capacity(&mut new.bytes, room(old.bytes.len()));
        new.bytes.extend_from_slice(&old.bytes);
    }

    /// The body being built (ids in it are final positions, not extended ids).
    pub fn new_body(&mut self) -> &Body {
        self.ensure_pools();
        self.flush();
        &self.new
    }

    /// The position the next instruction will take in the new body.
    #[inline]
    fn len(&self) -> u32 {
        self.new.num_insts() as u32 + (self.pending.1 - self.pending.0)
    }

    /// Begins the copy of an old block: a new block with the same label,
    /// which every branch to the old block will target.
    pub fn begin_old_block(&mut self, b: BlockId) {
        self.close_block();
        let idx = self.push_block_named(self.old.blocks[b].label);
        self.block_pos[b.index()] = idx;
        self.current = Some(idx);
    }

    /// Declares a new block (laid out where [`Rewriter::begin_block`] starts
    /// it) and returns its extended id.
    pub fn new_block(&mut self) -> BlockId {
        self.block_pos.push(DROPPED);
        BlockId::new(self.block_pos.len() - 1)
    }

    /// Starts laying out a block declared by [`Rewriter::new_block`].
    pub fn begin_block(&mut self, b: BlockId, label: &str) {
        self.ensure_pools();
        self.close_block();
        let label = self.new.strings.push(label);
        let idx = self.push_block_named(label);
        if let Some(slot) = self.block_pos.get_mut(b.index()) {
            *slot = idx;
        }
        self.current = Some(idx);
    }

    /// [`Rewriter::begin_block`] with the label already in the new pool.
    pub fn begin_block_named(&mut self, b: BlockId, label: NameId) {
        self.ensure_pools();
        self.close_block();
        let idx = self.push_block_named(label);
        if let Some(slot) = self.block_pos.get_mut(b.index()) {
            *slot = idx;
        }
        self.current = Some(idx);
    }

    fn push_block_named(&mut self, label: NameId) -> u32 {
        let start = self.len();
        self.new.blocks.push(BlockData { label, start, end: start }).as_u32()
    }

    fn close_block(&mut self) {
        if let Some(c) = self.current.take() {
            let end = self.len();
            self.new.blocks[BlockId::from_u32(c)].end = end;
        }
    }

    /// Copies an old instruction unchanged (operands still old ids).
    #[inline]
    pub fn copy(&mut self, v: ValueId) -> ValueId {
        self.flush();
        let old = self.old;
        let b = &mut self.new;
        let pos = b.tags.push(old.tags[v]);
        b.types.push(old.types[v]);
        b.ops.push(old.ops[v]);
        b.names.push(old.names[v]);
        b.locs.push(old.locs[v]);
        self.value_pos[v.index()] = pos.as_u32();
        v
    }

    /// Copies the old instructions `[start, end)` unchanged, as
    /// [`Rewriter::copy`] of each in turn would.
    pub fn copy_range(&mut self, start: ValueId, end: ValueId) {
        let (s, e) = (start.index(), end.index().min(self.old.num_insts()));
        if s >= e {
            return;
        }
        let at = self.len() as usize;
        for (k, slot) in self.value_pos[s..e].iter_mut().enumerate() {
            *slot = (at + k) as u32;
        }
        let (ps, pe) = self.pending;
        if ps == pe || pe as usize != s {
            self.flush();
            self.pending.0 = s as u32;
        }
        self.pending.1 = e as u32;
    }

    /// Writes the pending copied run into the new body's tables.
    fn flush(&mut self) {
        let (s, e) = (self.pending.0 as usize, self.pending.1 as usize);
        if s >= e {
            return;
        }
        self.pending = (0, 0);
        let old = self.old;
        self.new.tags.raw_mut().extend_from_slice(&old.tags.raw()[s..e]);
        self.new.types.raw_mut().extend_from_slice(&old.types.raw()[s..e]);
        self.new.locs.raw_mut().extend_from_slice(&old.locs.raw()[s..e]);
        self.new.ops.raw_mut().extend_from_slice(&old.ops.raw()[s..e]);
        self.new.names.raw_mut().extend_from_slice(&old.names.raw()[s..e]);
    }

    /// Drops an old instruction; its uses must be redirected with
    /// [`Rewriter::replace_uses`] unless it has none.
    pub fn drop_inst(&mut self, v: ValueId) {
        let slot = &mut self.value_pos[v.index()];
        if *slot != DROPPED && v.index() < self.old.num_insts() {
            self.copied_dropped.push(v.as_u32());
        }
        *slot = DROPPED;
    }

    /// Every use of `v` (an extended id) reads `with` instead.
    pub fn replace_uses(&mut self, v: ValueId, with: ValueId) {
        if self.replaced.is_empty() {
            self.replaced.resize(self.value_pos.len(), KEPT);
        }
        if let Some(slot) = self.replaced.get_mut(v.index()) {
            *slot = with.as_u32();
        }
    }

    /// Emits a new instruction into the current block. Its location, if
    /// any, becomes explicit: an implicit location is a position in the text
    /// the *old* instruction was read from, which a synthesized instruction
    /// does not have once printed. `ops` holds operand
    /// ids in the extended space, laid out as the opcode's format says
    /// (`extra` items, if any, are passed in `extra` and appended).
    pub fn emit(
        &mut self,
        op: Opcode,
        ty: Option<TypeId>,
        ops: [u32; 2],
        extra: &[u32],
        name: Option<&str>,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        self.ensure_pools();
        let name = name.map(|n| self.new.strings.push(n));
        self.emit_with_name(op, ty, ops, extra, name, loc)
    }

    /// [`Rewriter::emit`] with the name already in the new body's pool.
    pub fn emit_with_name(
        &mut self,
        op: Opcode,
        ty: Option<TypeId>,
        ops: [u32; 2],
        extra: &[u32],
        name: Option<NameId>,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        self.ensure_pools();
        let ops = if extra.is_empty() {
            ops
        } else {
            let at = self.new.extra.len() as u32;
            self.new.extra.extend_from_slice(extra);
            [ops[0], at]
        };
        let pos = self.push_inst(op, ty, ops, name, explicit(loc));
        self.push_ext(pos)
    }

    fn push_ext(&mut self, pos: u32) -> ValueId {
        self.value_pos.push(pos);
        if !self.replaced.is_empty() {
            self.replaced.push(KEPT);
        }
        ValueId::new(self.value_pos.len() - 1)
    }

    /// Interns a callee name in the new body's pool; the result goes in a
    /// `call`'s first payload slot.
    pub fn intern(&mut self, name: &str) -> u32 {
        self.ensure_pools();
        self.new.strings.push(name).as_u32()
    }

    /// Appends `data` to the new body's literal bytes; the result is the
    /// payload of a `Str` or `Bytes` constant holding it, which several
    /// constants may share.
    pub fn push_literal_bytes(&mut self, data: &[u8]) -> [u32; 2] {
        self.ensure_pools();
        let at = self.new.bytes.len() as u32;
        self.new.bytes.extend_from_slice(data);
        [at, data.len() as u32]
    }

    /// Interns a name in the new body's pool.
    pub fn intern_name(&mut self, name: &str) -> NameId {
        self.ensure_pools();
        self.new.strings.push(name)
    }

    /// Copies the name of an old value into the new body's pool.
    pub fn copy_name(&mut self, v: ValueId) -> Option<NameId> {
        self.ensure_pools();
        self.old.names[v].map(|n| self.new.strings.push_from(&self.old.strings, n))
    }

    /// Interns `base$N` for the next `N` of `names`.
    pub fn fresh_name(&mut self, names: &mut NameGen, base: &[&[u8]]) -> NameId {
        self.ensure_pools();
        let mut digits = itoa::Buffer::new();
        let d = digits.format(names.take()).as_bytes();
        let mut parts: [&[u8]; 6] = [&[]; 6];
        let k = base.len().min(4);
        parts[..k].copy_from_slice(&base[..k]);
        parts[k] = b"$";
        parts[k + 1] = d;
        self.new.strings.push_concat(&parts[..k + 2])
    }

    /// Emits a constant.
    pub fn emit_const(&mut self, ty: TypeId, lit: Literal<'_>, name: &str, loc: Option<SrcLoc>) -> ValueId {
        self.ensure_pools();
        let name = self.new.strings.push(name);
        self.emit_const_with_name(ty, lit, Some(name), loc)
    }

    /// [`Rewriter::emit_const`] with the name already in the new body's pool.
    pub fn emit_const_with_name(
        &mut self,
        ty: TypeId,
        lit: Literal<'_>,
        name: Option<NameId>,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        self.ensure_pools();
        let dtype = DType::from_index(ty.as_u32()).unwrap_or(DType::Int64);
        let ops = self.new.encode_literal(dtype, lit);
        let pos = self.push_inst(Opcode::Const, Some(ty), ops, name, explicit(loc));
        self.push_ext(pos)
    }

    fn push_inst(
        &mut self,
        op: Opcode,
        ty: Option<TypeId>,
        ops: [u32; 2],
        name: Option<NameId>,
        loc: Option<SrcLoc>,
    ) -> u32 {
        self.flush();
        let loc = match loc {
            Some(l) => self.new.encode_loc(l),
            None => postc_ir::Loc::NONE,
        };
        let b = &mut self.new;
        let v = b.tags.push(op);
        b.types.push(ty);
        b.ops.push(ops);
        b.names.push(name);
        b.locs.push(loc);
        v.as_u32()
    }

    /// The new pool holds every string of the old one: those of old
    /// instructions and blocks that are not in the new body are left unread,
    /// and lose their `$`, so that fresh names (see [`NameGen`]) are
    /// numbered as if the pool held only the strings the body uses.
    fn blank_unused_names(&mut self) {
        let old = self.old;
        let n = old.num_insts();
        let copied_dropped = &self.copied_dropped;
        let mut dead = old.dead_pool_bytes;
        for (i, &p) in self.value_pos[..n].iter().enumerate() {
            if p != DROPPED || copied_dropped.contains(&(i as u32)) {
                continue;
            }
            dead += forget_inst(&mut self.new.strings, old, ValueId::new(i));
        }
        for (b, &p) in self.block_pos[..old.blocks.len()].iter().enumerate() {
            if p == DROPPED {
                dead += forget_name(&mut self.new.strings, old.blocks[BlockId::new(b)].label);
            }
        }
        self.new.dead_pool_bytes = dead;
    }

    /// Finishes the body: closes the last block and maps every operand and
    /// branch target from extended ids to final positions.
    pub fn finish(mut self) -> Body {
        self.flush();
        self.close_block();
        // With more instructions gone than kept, the pools are laid out
        // afresh at the end (at a cost bounded by what is kept) instead of
        // going through what is gone.
        let n = self.old.num_insts();
        let kept = self.value_pos[..n].iter().filter(|&&p| p != DROPPED).count();
        let relayout = n - kept > kept;
        if !self.pools {
            // Nothing new was written to the pools: the kept instructions
            // take fresh ones, read from the old.
            let old = self.old;
            compact_pools_from(&mut self.new, &old.strings, &old.extra, &old.bytes, self.scratch);
        } else if !relayout {
            self.blank_unused_names();
        }
        // Final position of every extended id: its position, or for a
        // replaced value that of the end of its replacement chain (acyclic
        // by construction; bounded anyway). A use of a dropped value with no
        // replacement stays visibly broken for the verifier instead of
        // aliasing another value.
        const BROKEN: u32 = DROPPED;
        let (replaced, value_pos) = (&self.replaced, &mut self.value_pos);
        let mut fin = self.scratch.vec();
        let hops = replaced.len().min(64);
        for (i, &r) in replaced.iter().enumerate() {
            if r == KEPT {
                continue;
            }
            let mut x = i as u32;
            for _ in 0..hops {
                match replaced.get(x as usize) {
                    Some(&r) if r != KEPT && r != x => x = r,
                    _ => break,
                }
            }
            fin.extend([i as u32, value_pos.get(x as usize).copied().unwrap_or(BROKEN)]);
        }
        for p in fin.chunks_exact(2) {
            value_pos[p[0] as usize] = p[1];
        }
        // A last slot stands for every id out of range, so the common
        // formats map their slots without a branch.
        value_pos.push(BROKEN);
        let fin: &[u32] = value_pos;
        let top = fin.len() - 1;
        let map = |x: u32| fin[(x as usize).min(top)];
        let block_pos = &self.block_pos;
        let bmap = |b: u32| block_pos.get(b as usize).copied().filter(|&p| p != DROPPED).unwrap_or(BROKEN);
        // Items of copied instructions are mapped from the old pool (an
        // instruction copied twice shares them), new ones in place; after a
        // fresh layout, all in place.
        let old_extra = if self.pools { self.old.extra.as_slice() } else { &[] };
        remap_operands(&mut self.new, old_extra, map, bmap);
        let Rewriter { mut new, pools, scratch, .. } = self;
        if pools {
            if relayout {
                compact_pools(&mut new, scratch);
            } else {
                compact_pools_if_sparse(&mut new, scratch);
            }
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use postc_ir::builder::FunctionBuilder;

    /// The numbers after `$` in each string, read string by string.
    fn reference_next(strings: &[String]) -> u64 {
        let mut next = 0u64;
        for s in strings {
            let b = s.as_bytes();
            for (k, _) in b.iter().enumerate().filter(|(_, &c)| c == b'$') {
                let digits: String = b[k + 1..].iter().take_while(|c| c.is_ascii_digit()).map(|&c| c as char).collect();
                next = next.max(digits.parse::<u64>().map_or(0, |x| x) + 1);
            }
        }
        next
    }

    #[test]
    fn name_gen_reads_whole_strings_only() {
        let long_digits = format!("{}", "7".repeat(36));
        let cases: Vec<Vec<String>> = vec![
            vec!["a".into(), "b$3".into(), "c".into()],
            // A string of length 36 has `$` as its length prefix.
            vec!["x".repeat(36), "9".into()],
            vec![long_digits.clone()],
            // Digits end with the string even when the next length is a digit.
            vec!["a$1".into(), "5".repeat(50), "$".into()],
            vec!["p$12.q$7$".into(), "y".repeat(300), "z$99999".into()],
            vec!["$$$".into(), "$0".into(), "v$4.sel$2".into()],
        ];
        for strings in cases {
            let mut body = Body::new();
            for s in &strings {
                body.strings.push(s);
            }
            assert_eq!(NameGen::new(&body).next, reference_next(&strings), "{strings:?}");
        }
    }
    use postc_ir::print::print_module;
    use postc_ir::Module;

    /// entry: x+1 then return; rewritten so the add is replaced by x*2 placed
    /// in a new block reached through a branch, and a constant is dropped.
    #[test]
    fn rebuild_splits_blocks_and_redirects_uses() {
        let mut m = Module::new("t");
        let mut b = FunctionBuilder::new("f");
        let x = b.param("x", TypeId::INT64);
        b.set_return(Some(TypeId::INT64));
        let e = b.create_block("entry");
        b.switch_to(e);
        let one = b.int(TypeId::INT64, 1, "one");
        let s = b.binary(Opcode::Add, TypeId::INT64, x, one, "s");
        b.ret(Some(s));
        let f = m.add_function(b.finish());

        let old = std::mem::take(&mut m.functions[f].body);
        let scratch = crate::scratch::Scratch::new();
        let mut rw = Rewriter::new(&old, &scratch);
        let entry = old.entry().unwrap();
        rw.begin_old_block(entry);
        let mut ret = None;
        for v in old.blocks[entry].insts() {
            match old.tags[v] {
                Opcode::Const => rw.drop_inst(v),
                Opcode::Add => {
                    let cont = rw.new_block();
                    rw.emit(Opcode::Br, None, [cont.as_u32(), 0], &[], None, None);
                    rw.begin_block(cont, "cont");
                    let two = rw.emit_const(TypeId::INT64, Literal::Int(2), "two", None);
                    let d = rw.emit(Opcode::Mul, Some(TypeId::INT64), [x.as_u32(), two.as_u32()], &[], Some("d"), None);
                    rw.drop_inst(v);
                    rw.replace_uses(v, d);
                }
                _ => ret = Some(rw.copy(v)),
            }
        }
        assert!(ret.is_some());
        m.functions[f].body = rw.finish();
        assert_eq!(
            print_module(&m),
            "module t\n\nfunc f(%x: Int64) -> Int64 {\nentry:\n  br cont\ncont:\n  %two: Int64 = const 2\n  \
             %d: Int64 = mul %x, %two\n  return %d\n}\n"
        );
    }
}

/// Takes the `$` out of a string of `pool` that nothing uses any more, so
/// that it no longer counts for fresh names (see [`NameGen`]). Returns the
/// bytes it held.
pub(crate) fn forget_name(pool: &mut NamePool, id: NameId) -> usize {
    let s = pool.get_bytes(id);
    let len = s.len() + 1;
    if s.contains(&b'$') {
        pool.blank_dollars(id);
    }
    len
}

/// Forgets the name, callee and payload of an instruction of `old` that is
/// gone (see [`forget_name`]); `pool` holds `old`'s strings at the same
/// places. Returns the pool bytes they held.
pub(crate) fn forget_inst(pool: &mut NamePool, old: &Body, v: ValueId) -> usize {
    let mut dead = 0;
    if let Some(name) = old.names[v] {
        dead += forget_name(pool, name);
    }
    if old.tags[v] == Opcode::Call {
        dead += forget_name(pool, NameId::from_u32(old.ops[v][0]));
    }
    let (e, b) = old.payload_ranges(v);
    dead + 4 * e.len() + b.len()
}

/// [`forget_inst`] of instruction `i` in `body`'s own pool.
pub(crate) fn forget_in_place(body: &mut Body, i: usize) -> usize {
    let mut pool = std::mem::take(&mut body.strings);
    let dead = forget_inst(&mut pool, body, ValueId::new(i));
    body.strings = pool;
    dead
}

/// What a rebuild ([`compact_blocks_in_place`], [`rebuild_blocks`]) does
/// with a block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BlockFate {
    /// Removed with its instructions (unreachable).
    Removed,
    /// Kept, as a new block.
    Kept,
    /// Appended to its single predecessor, whose closing `br` (to it) goes.
    Appended,
}

/// The block appended to block `b` by `fate`: the target of `b`'s closing
/// `br`, when that block is appended (and is not `b`).
#[inline]
pub(crate) fn appended_to(body: &Body, fate: &[BlockFate], b: usize) -> Option<usize> {
    let d = *body.blocks.raw().get(b)?;
    let t = (d.end as usize).checked_sub(1).filter(|&t| t >= d.start as usize && t < body.num_insts())?;
    let target = body.ops.raw()[t][0] as usize;
    (body.tags.raw()[t] == Opcode::Br && target != b && fate.get(target) == Some(&BlockFate::Appended))
        .then_some(target)
}

/// Rebuilds `body` in place: blocks as `fate` says (every block kept
/// without one), and of the
/// instructions that stay, those flagged in `dead` (if given) go too, with
/// the result a [`Rewriter`] copying the same blocks and instructions would
/// give. Columns close up in one sweep, operands are renumbered in a
/// second, and the pools keep what stays (those of what goes are forgotten,
/// or laid out afresh when most of the body goes). Returns false, changing
/// nothing, when the blocks do not lie in order one after another past the
/// parameters, or when an appended block does not follow a block whose
/// closing `br` goes to it.
pub(crate) fn compact_blocks_in_place(
    body: &mut Body,
    fate: Option<&[BlockFate]>,
    dead: Option<&[bool]>,
    scratch: &Scratch,
) -> bool {
    let fate = |b: usize| fate.map_or(BlockFate::Kept, |f| f.get(b).copied().unwrap_or(BlockFate::Removed));
    const GONE: u32 = DROPPED;
    let n = body.num_insts();
    let nblocks = body.blocks.len();
    let first = ((body.num_params + body.num_core) as usize).min(n);
    // Check the layout first; count what stays.
    let mut at = first;
    let mut prev: Option<usize> = None;
    let mut kept = 0usize;
    for b in 0..nblocks {
        let d = body.blocks.raw()[b];
        let (s, e) = (d.start as usize, d.end as usize);
        if s < at || e < s || e > n {
            return false;
        }
        at = e;
        match fate(b) {
            BlockFate::Removed => continue,
            BlockFate::Kept => {}
            BlockFate::Appended => {
                let Some(p) = prev else { return false };
                let pd = body.blocks.raw()[p];
                let t = pd.end as usize;
                if t <= pd.start as usize
                    || body.tags.raw()[t - 1] != Opcode::Br
                    || body.ops.raw()[t - 1][0] != b as u32
                {
                    return false;
                }
                kept -= 1;
            }
        }
        kept += e - s - dead.map_or(0, |dead| dead[s..e].iter().filter(|&&x| x).count());
        prev = Some(b);
    }
    // With more instructions gone than kept, the pools are laid out afresh
    // at the end instead of going through what is gone.
    let relayout = 2 * kept < n - first;
    let forget_range = |body: &mut Body, s: usize, e: usize| {
        if !relayout {
            for i in s..e {
                body.dead_pool_bytes += forget_in_place(body, i);
            }
        }
    };
    let mut pos = scratch.filled(n + 1, GONE);
    for (i, p) in pos[..first].iter_mut().enumerate() {
        *p = i as u32;
    }
    let mut block_pos = scratch.filled(nblocks, GONE);
    let mut w = first;
    let mut at = first;
    let mut nb = 0usize;
    for (b, slot) in block_pos.iter_mut().enumerate() {
        let d = body.blocks.raw()[b];
        let (s, e) = (d.start as usize, d.end as usize);
        // Instructions between blocks are in no block: removed too.
        forget_range(body, at, s);
        at = e;
        let f = fate(b);
        if f == BlockFate::Removed {
            forget_range(body, s, e);
            if !relayout {
                body.dead_pool_bytes += forget_name(&mut body.strings, d.label);
            }
            continue;
        }
        if f == BlockFate::Kept {
            if nb > 0 {
                body.blocks.raw_mut()[nb - 1].end = w as u32;
            }
            body.blocks.raw_mut()[nb] = postc_ir::body::BlockData { label: d.label, start: w as u32, end: w as u32 };
            *slot = nb as u32;
            nb += 1;
        } else if !relayout {
            body.dead_pool_bytes += forget_name(&mut body.strings, d.label);
        }
        // The closing `br` of a block whose successor is appended goes.
        let appended_next =
            (b + 1..nblocks).find(|&x| fate(x) != BlockFate::Removed).is_some_and(|x| fate(x) == BlockFate::Appended);
        let end = if appended_next { e - 1 } else { e };
        if appended_next {
            forget_range(body, end, e);
        }
        let mut i = s;
        while i < end {
            let run = i;
            while i < end && dead.is_some_and(|dead| dead[i]) {
                i += 1;
            }
            forget_range(body, run, i);
            let run = i;
            while i < end && !dead.is_some_and(|dead| dead[i]) {
                i += 1;
            }
            if run < i {
                for (k, p) in pos[run..i].iter_mut().enumerate() {
                    *p = (w + k) as u32;
                }
                if w != run {
                    body.tags.raw_mut().copy_within(run..i, w);
                    body.types.raw_mut().copy_within(run..i, w);
                    body.ops.raw_mut().copy_within(run..i, w);
                    body.names.raw_mut().copy_within(run..i, w);
                    body.locs.raw_mut().copy_within(run..i, w);
                }
                w += i - run;
            }
        }
    }
    forget_range(body, at, n);
    if nb > 0 {
        body.blocks.raw_mut()[nb - 1].end = w as u32;
    }
    body.blocks.raw_mut().truncate(nb);
    body.tags.truncate(w);
    body.types.truncate(w);
    body.ops.truncate(w);
    body.names.truncate(w);
    body.locs.truncate(w);
    let top = pos.len() - 1;
    let map = |x: u32| pos[(x as usize).min(top)];
    let bmap = |x: u32| block_pos.get(x as usize).copied().unwrap_or(GONE);
    remap_operands(body, &[], map, bmap);
    if relayout {
        compact_pools(body, scratch);
    } else {
        compact_pools_if_sparse(body, scratch);
    }
    true
}

/// Rebuilds `func` as [`compact_blocks_in_place`] would, for any layout:
/// each kept block in layout order followed by the blocks appended to it
/// (each is the target of the closing `br` of the one before, which goes),
/// copied into a fresh body. With most of the body gone, the pools are
/// laid out afresh; otherwise they move over whole and what went is
/// forgotten in them.
pub(crate) fn rebuild_blocks(func: &mut Function, fate: &[BlockFate], dead: Option<&[bool]>, scratch: &Scratch) {
    const GONE: u32 = DROPPED;
    let mut old = std::mem::take(&mut func.body);
    let n = old.num_insts();
    let nblocks = old.blocks.len();
    let first = ((old.num_params + old.num_core) as usize).min(n);
    let mut new = body_like(&old, scratch);
    std::mem::swap(&mut new.far_locs, &mut old.far_locs);
    let mut pos = scratch.filled(n + 1, GONE);
    let mut block_pos = scratch.filled(nblocks, GONE);
    let (tags, types, ops, names, locs) =
        (old.tags.raw(), old.types.raw(), old.ops.raw(), old.names.raw(), old.locs.raw());
    let mut copy = |new: &mut Body, s: usize, e: usize| {
        let at = new.num_insts();
        for (k, p) in pos[s..e].iter_mut().enumerate() {
            *p = (at + k) as u32;
        }
        new.tags.raw_mut().extend_from_slice(&tags[s..e]);
        new.types.raw_mut().extend_from_slice(&types[s..e]);
        new.ops.raw_mut().extend_from_slice(&ops[s..e]);
        new.names.raw_mut().extend_from_slice(&names[s..e]);
        new.locs.raw_mut().extend_from_slice(&locs[s..e]);
    };
    copy(&mut new, 0, first);
    for (b, slot) in block_pos.iter_mut().enumerate() {
        if fate.get(b) != Some(&BlockFate::Kept) {
            continue;
        }
        let start = new.num_insts() as u32;
        *slot = new.blocks.len() as u32;
        let mut cur = b;
        for _ in 0..nblocks {
            let d = old.blocks.raw()[cur];
            let next = appended_to(&old, fate, cur);
            let (s, e) = ((d.start as usize).min(n), (d.end as usize - usize::from(next.is_some())).min(n));
            // Runs of instructions that stay, copied whole.
            let is_dead = |i: usize| dead.is_some_and(|dead| dead[i]);
            let mut i = s;
            while i < e {
                while i < e && is_dead(i) {
                    i += 1;
                }
                let run = i;
                while i < e && !is_dead(i) {
                    i += 1;
                }
                if run < i {
                    copy(&mut new, run, i);
                }
            }
            match next {
                Some(t) => cur = t,
                None => break,
            }
        }
        let end = new.num_insts() as u32;
        new.blocks.push(BlockData { label: old.blocks.raw()[b].label, start, end });
    }
    let kept = new.num_insts() - first;
    if 2 * kept < n - first {
        compact_pools_from(&mut new, &old.strings, &old.extra, &old.bytes, scratch);
    } else {
        // What went is forgotten in the old pools, which then move over.
        let mut dead_bytes = old.dead_pool_bytes;
        for (i, &p) in pos.iter().enumerate().take(n).skip(first) {
            if p == GONE {
                dead_bytes += forget_in_place(&mut old, i);
            }
        }
        let mut pool = std::mem::take(&mut old.strings);
        for (b, &p) in block_pos.iter().enumerate() {
            if p == GONE {
                dead_bytes += forget_name(&mut pool, old.blocks.raw()[b].label);
            }
        }
        new.strings = pool;
        std::mem::swap(&mut new.extra, &mut old.extra);
        std::mem::swap(&mut new.bytes, &mut old.bytes);
        new.dead_pool_bytes = dead_bytes;
    }
    let top = pos.len() - 1;
    let map = |x: u32| pos[(x as usize).min(top)];
    let bmap = |x: u32| block_pos.get(x as usize).copied().unwrap_or(GONE);
    remap_operands(&mut new, &[], map, bmap);
    compact_pools_if_sparse(&mut new, scratch);
    func.body = new;
    scratch.recycle(old);
}

/// Lays out the pools afresh with only what the instructions and blocks
/// use, once most of what they hold is unused.
pub(crate) fn compact_pools_if_sparse(body: &mut Body, scratch: &Scratch) {
    let total = body.strings.byte_len() + 4 * body.extra.len() + body.bytes.len();
    if body.dead_pool_bytes * 2 > total {
        compact_pools(body, scratch);
    }
}

/// Lays out the pools afresh with only what the instructions and blocks use.
pub(crate) fn compact_pools(body: &mut Body, scratch: &Scratch) {
    // The pools move to a spare body (whose empty ones take their place),
    // so both sets of buffers are kept for reuse.
    let mut src = scratch.take_body();
    std::mem::swap(&mut src.strings, &mut body.strings);
    std::mem::swap(&mut src.extra, &mut body.extra);
    std::mem::swap(&mut src.bytes, &mut body.bytes);
    compact_pools_from(body, &src.strings, &src.extra, &src.bytes, scratch);
    scratch.recycle(src);
}

/// Gives `body` fresh pools with only what its instructions and blocks use,
/// read from the given pools (which their names and payloads point into).
pub(crate) fn compact_pools_from(
    body: &mut Body,
    src_strings: &NamePool,
    src_extra: &[u32],
    src_bytes: &[u8],
    scratch: &Scratch,
) {
    let mut fresh = scratch.take_body();
    let (strings, extra, bytes) = (&mut fresh.strings, &mut fresh.extra, &mut fresh.bytes);
    strings.reserve(src_strings.byte_len() / 2);
    extra.reserve(src_extra.len() / 2);
    let copy_extra = |extra: &mut Vec<u32>, r: std::ops::Range<usize>| -> u32 {
        let at = extra.len() as u32;
        if let Some(items) = src_extra.get(r) {
            extra.extend_from_slice(items);
        }
        at
    };
    for i in 0..body.num_insts() {
        let v = ValueId::new(i);
        if let Some(id) = body.names[v] {
            body.names[v] = Some(strings.push_from(src_strings, id));
        }
        let [a, b] = body.ops[v];
        let tag = body.tags[v];
        let (er, br) = postc_ir::body::payload_ranges_in(tag, body.types[v], [a, b], src_extra);
        let layout = tag.format().layout();
        let ops = match tag.format() {
            Format::Call => {
                let e = copy_extra(extra, er);
                [strings.push_from(src_strings, NameId::from_u32(a)).as_u32(), e]
            }
            _ if layout.b == Slot::Extra => [a, copy_extra(extra, er)],
            Format::Const if !er.is_empty() => [copy_extra(extra, er), b],
            Format::Const
                if matches!(
                    body.types[v].and_then(|t| DType::from_index(t.as_u32())),
                    Some(DType::Str | DType::Bytes)
                ) =>
            {
                let at = bytes.len() as u32;
                if let Some(data) = src_bytes.get(br) {
                    bytes.extend_from_slice(data);
                }
                [at, b]
            }
            _ => [a, b],
        };
        body.ops[v] = ops;
    }
    for d in body.blocks.raw_mut() {
        d.label = strings.push_from(src_strings, d.label);
    }
    std::mem::swap(&mut body.strings, &mut fresh.strings);
    std::mem::swap(&mut body.extra, &mut fresh.extra);
    std::mem::swap(&mut body.bytes, &mut fresh.bytes);
    body.dead_pool_bytes = 0;
    scratch.recycle(fresh);
}

/// Maps every value operand through `map` and every block operand through
/// `bmap`. Items in `extra` are read from `old_extra` where it covers them
/// (a rebuild's copied instructions keep the old pool's positions; one
/// copied twice shares them) and in place elsewhere; an empty `old_extra`
/// maps in place.
pub(crate) fn remap_operands(body: &mut Body, old_extra: &[u32], map: impl Fn(u32) -> u32, bmap: impl Fn(u32) -> u32) {
    let extra = &mut body.extra;
    for (tag, ops) in body.tags.raw().iter().zip(body.ops.raw_mut().iter_mut()) {
        let [a, b] = *ops;
        let slots = tag.value_slots();
        if slots != ValueSlots::Other {
            let (ma, mb) = (map(a), map(b));
            *ops = [if slots != ValueSlots::None { ma } else { a }, if slots == ValueSlots::AB { mb } else { b }];
            continue;
        }
        let mut values: SmallVec<[OperandAt; 8]> = SmallVec::new();
        let mut blocks: SmallVec<[OperandAt; 2]> = SmallVec::new();
        operand_places(*tag, [a, b], extra, |p| values.push(p), |p| blocks.push(p));
        let mut new = [a, b];
        let places = values.into_iter().map(|p| (p, false)).chain(blocks.into_iter().map(|p| (p, true)));
        for (p, is_block) in places {
            // An `extra` item is read from the old pool where it covers it.
            let x = match p {
                OperandAt::Extra(k) => old_extra.get(k).copied().unwrap_or_else(|| p.read([a, b], extra)),
                _ => p.read([a, b], extra),
            };
            p.write(&mut new, extra, if is_block { bmap(x) } else { map(x) });
        }
        *ops = new;
    }
}

/// Fresh value names and labels that collide with no name of a function:
/// `BASE$N`, with `N` above every number that follows a `$` in any string
/// of the function's name pool. An existing name either does not end in
/// `$digits` or ends in a smaller number, so no lookup is needed per name.
/// The pool is read string by string, so the result depends on the strings
/// it holds, not on their order (rebuilds lay the pool out as they go).
pub struct NameGen {
    next: u64,
    buf: String,
}

/// The length of the pool string whose prefix starts at `i`, and where its
/// bytes start (the prefix is seven bits a byte, as `NamePool` writes it).
#[inline]
fn string_at(bytes: &[u8], mut i: usize) -> (usize, usize) {
    if let Some(&n) = bytes.get(i) {
        if n < 0x80 {
            return (n as usize, i + 1);
        }
    }
    let (mut n, mut shift) = (0usize, 0u32);
    while let Some(&byte) = bytes.get(i) {
        n |= ((byte & 0x7f) as usize) << shift;
        i += 1;
        shift += 7;
        if byte & 0x80 == 0 || shift > 28 {
            break;
        }
    }
    (n, i)
}

/// The first position in `[from, end)` holding `needle`, eight bytes at a
/// time (words may read past `end` within `bytes`; those bytes are masked).
#[inline]
fn find_byte(bytes: &[u8], from: usize, end: usize, needle: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let pattern = LO * needle as u64;
    let end = end.min(bytes.len());
    let mut i = from;
    while i < end {
        let Some(chunk) = bytes.get(i..i + 8) else {
            return bytes[i..end].iter().position(|&b| b == needle).map(|k| i + k);
        };
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let x = u64::from_le_bytes(w) ^ pattern;
        // The lowest flagged byte is exact (borrows only run upwards).
        let mut found = x.wrapping_sub(LO) & !x & HI;
        if end - i < 8 {
            found &= (1u64 << (8 * (end - i))) - 1;
        }
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    None
}

impl NameGen {
    pub fn new(body: &Body) -> NameGen {
        let bytes = body.strings.as_bytes();
        let mut next = 0u64;
        // Most pools before insert-checks hold no `$` at all.
        if !bytes.contains(&b'$') {
            return NameGen { next, buf: String::new() };
        }
        // String by string (length prefix, bytes): a `$` that is a length
        // prefix is no `$`, and digits stop at the end of the string.
        let mut i = 0usize;
        while i < bytes.len() {
            let (len, at) = string_at(bytes, i);
            let end = at.saturating_add(len).min(bytes.len());
            let mut from = at;
            while let Some(p) = find_byte(bytes, from, end, b'$') {
                let mut j = p + 1;
                let mut x = 0u64;
                while j < end && bytes[j].is_ascii_digit() && x < u64::MAX / 20 {
                    x = x * 10 + (bytes[j] - b'0') as u64;
                    j += 1;
                }
                next = next.max(x + 1);
                from = j;
            }
            i = end.max(i + 1);
        }
        NameGen { next, buf: String::new() }
    }

    /// A generator whose first `N` is `next` (as [`NameGen::new`] of a
    /// body whose pool gives that).
    pub fn starting_at(next: u64) -> NameGen {
        NameGen { next, buf: String::new() }
    }

    /// The next `N`, not taken.
    pub fn peek(&self) -> u64 {
        self.next
    }

    /// Fresh block labels of a function (labels share the name pool).
    pub fn labels(body: &Body) -> NameGen {
        NameGen::new(body)
    }

    /// A second generator continuing from the same number.
    pub fn same_start(&self) -> NameGen {
        NameGen { next: self.next, buf: String::new() }
    }

    /// The next `N`, taken.
    pub fn take(&mut self) -> u64 {
        let n = self.next;
        self.next += 1;
        n
    }

    /// `base$N` for the next `N`.
    pub fn fresh(&mut self, base: &str) -> &str {
        let n = self.take();
        self.buf.clear();
        self.buf.push_str(base);
        self.buf.push('$');
        self.buf.push_str(itoa::Buffer::new().format(n));
        &self.buf
    }
}
