//! `outline-parallel`: turns each loop marked by `call postc.prange(...)`
//! (the frontend's `for i in prange(...)`) into a chunk function and one
//! call of `postc.parallel_for`, which the backends lower to the runtime's
//! thread pool.
//!
//! For a marked loop the pass
//! - copies the loop's header and body into a new module-private function
//!   `postc.prange.F.N(%chunk, %lo, %hi, %partials..., %captures...)`
//!   whose counter starts at `%lo` and whose header compares it with `%hi`
//!   (where it compared with the loop's stop); every value from outside
//!   the loop that the body reads is a parameter (constants are made
//!   again inside), and a `let` local that the body assigns gets a local
//!   copy that starts with the caller's value (the frontend has checked
//!   that such a local is private to each iteration);
//! - runs the chunk's iterations in blocks of at most [`STOP_CHECK_EVERY`]
//!   and calls `postc.parallel_stopped(%chunk)` between blocks, which
//!   returns from the chunk once a chunk with a lower index has panicked
//!   (the runtime raises that one's panic, so this chunk's later
//!   iterations cannot matter). A block is the loop itself with the
//!   block's end as its limit, so nothing but the loop's own compare is
//!   left in it and a backend vectorises it as it would the serial loop.
//!   That needs the step to be a constant (the counter value a block ends
//!   at is then one add, and the header compares the counter with it as
//!   with the stop); with a step known only at run time the check stays
//!   on every iteration's back edge;
//! - starts each reduction's copy at its operator's identity (`-0.0` for a
//!   float sum, so that `x + identity` is `x` for every `x`; 1; the
//!   largest or smallest value for `min`/`max`) and, when the chunk ends,
//!   stores it to `%partials[j][%chunk]`;
//! - replaces the loop in the caller with `alloc`s of the partials (one
//!   slot per chunk, `postc.builtins::PARALLEL_CHUNKS`), the
//!   `postc.parallel_for` call, and a loop that combines the partials in
//!   chunk order into the reductions (`r = r + p`, also for `-=`, whose
//!   partials are differences; `r = r * p`; `min`/`max` as Python's
//!   `min(r, p)`/`max(r, p)`).
//!
//! The chunks depend on the trip count alone, so the result is the same
//! bits on any number of threads; a float reduction may round differently
//! from the serial loop, which adds in another order.
//!
//! With `PassOptions::parallel` off (the WebAssembly backend) and for a
//! marker whose loop does not have the frontend's shape, the pass only
//! deletes the marker: the loop runs serially, as the interpreter runs it.
//! It runs first, before any check is inserted, so the chunk function gets
//! its bounds and overflow checks from `insert-checks` like any function.

use crate::analysis::AnalysisSet;
use crate::rewrite::NameGen;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::body::{Body, InstData, Literal, ValueId};
use postc_ir::builtins::{PARALLEL_CHUNKS, PARALLEL_FOR, PARALLEL_STOPPED, PRANGE};
use postc_ir::diag::Diagnostic;
use postc_ir::types::{Layout, Shape, TypeData};
use postc_ir::{BlockId, DType, EntityId, Function, FunctionBuilder, Module, Opcode, TypeId};
use std::collections::{HashMap, HashSet};

pub struct OutlineParallel;

pub static INFO: PassInfo = PassInfo {
    name: "outline-parallel",
    description: "outline `prange` loops into chunk functions run by `postc.parallel_for` (or run them serially)",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

/// The prefix of outlined chunk functions.
pub const CHUNK_PREFIX: &str = "postc.prange.";

/// How much likelier a chunk goes on than stops where it checks (a branch
/// weight): a stop happens once a loop, after a panic.
const STOP_WEIGHT: u32 = 1 << 20;

/// The most iterations a chunk runs between two reads of the stop word.
/// Enough that the read, its compare and branch are a few percent of a
/// block even of a one-instruction body, and a block holds several
/// vector iterations of the widest vectors (8 lanes, unrolled 4 times);
/// few enough that a chunk which should stop runs on for at most a few
/// dozen iterations.
pub const STOP_CHECK_EVERY: i64 = 64;

impl ModulePass for OutlineParallel {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, m: &mut Module, options: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        let mut changed = false;
        let mut next = m.functions.iter().filter(|f| f.name.starts_with(CHUNK_PREFIX)).count();
        let mut fi = 0;
        while fi < m.functions.len() {
            let fid = postc_ir::FuncId::new(fi);
            loop {
                let Some(marker) = find_marker(&m.functions[fid].body) else { break };
                changed = true;
                let outlined = if options.parallel {
                    let name = format!("{CHUNK_PREFIX}{}.{next}", m.functions[fid].name);
                    outline(m, fid, marker, &name)
                } else {
                    None
                };
                match outlined {
                    Some((caller, chunk)) => {
                        m.functions[fid] = caller;
                        m.functions.push(chunk);
                        next += 1;
                    }
                    None => {
                        let f = &m.functions[fid];
                        let stripped = rebuild(f, &HashSet::from([marker]), None, |_, _, _, _| {});
                        m.functions[fid] = stripped;
                    }
                }
            }
            fi += 1;
        }
        Ok(changed)
    }
}

fn find_marker(body: &Body) -> Option<ValueId> {
    body.tags
        .iter_enumerated()
        .find(|(v, op)| **op == Opcode::Call && matches!(body.inst(*v), InstData::Call { callee: PRANGE, .. }))
        .map(|(v, _)| v)
}

/// Copies one instruction of `old` into `b`, with operands and blocks
/// mapped.
fn copy_inst(
    old: &Body,
    v: ValueId,
    b: &mut FunctionBuilder,
    vm: &impl Fn(ValueId) -> ValueId,
    bm: &impl Fn(BlockId) -> BlockId,
) -> ValueId {
    b.set_loc(old.loc(v));
    let ty = old.ty(v);
    let name = old.name(v).unwrap_or("");
    let t = || ty.expect("a typed result");
    match old.inst(v) {
        InstData::Param { .. } | InstData::Malformed => unreachable!("not copied"),
        InstData::Const(lit) => b.const_(t(), lit, name),
        InstData::Binary { op, left, right } => b.binary(op, t(), vm(left), vm(right), name),
        InstData::Unary { op, operand } => b.unary(op, t(), vm(operand), name),
        InstData::Cast { operand } => b.cast(t(), vm(operand), name),
        InstData::Bitcast { operand } => b.unary(Opcode::Bitcast, t(), vm(operand), name),
        InstData::Load { array, offset } => b.load(t(), vm(array), vm(offset), name),
        InstData::Store { array, offset, value } => b.store(vm(array), vm(offset), vm(value)),
        InstData::Dim { array, axis } => b.dim(vm(array), axis, name),
        InstData::Stride { array, axis } => b.stride(vm(array), axis, name),
        InstData::Call { callee, args } => {
            let a: Vec<ValueId> = args.iter().map(vm).collect();
            b.call(callee, &a, ty, name)
        }
        InstData::Let { value } => b.let_(t(), vm(value), name),
        InstData::Set { target, value } => b.set(vm(target), vm(value)),
        InstData::Select { cond, if_true, if_false } => b.select(t(), vm(cond), vm(if_true), vm(if_false), name),
        InstData::Alloc { dims } => {
            let d: Vec<ValueId> = dims.iter().map(vm).collect();
            b.alloc(t(), &d, name)
        }
        InstData::GetField { aggregate, field } => b.getfield(t(), vm(aggregate), field, name),
        InstData::SetField { aggregate, field, value } => b.setfield(vm(aggregate), field, vm(value)),
        InstData::IndexLoad { array, indices } => {
            let i: Vec<ValueId> = indices.iter().map(vm).collect();
            b.index_load(t(), vm(array), &i, name)
        }
        InstData::IndexStore { array, indices, value } => {
            let i: Vec<ValueId> = indices.iter().map(vm).collect();
            b.index_store(vm(array), &i, vm(value))
        }
        InstData::View { base, offset, extents, strides } => {
            let e: Vec<ValueId> = extents.iter().map(vm).collect();
            let s: Vec<ValueId> = strides.iter().map(vm).collect();
            b.view_of(old.tags[v], t(), vm(base), vm(offset), &e, &s, name)
        }
        InstData::Return { value } => b.ret(value.map(vm)),
        InstData::Br { target } => b.br(bm(target)),
        InstData::CondBr { cond, if_true, if_false, weights } => b.condbr(vm(cond), bm(if_true), bm(if_false), weights),
        InstData::Unreachable => b.unreachable(),
        InstData::RawRead { op, base, index } => b.raw_read(op, vm(base), index, name),
        InstData::RawOffset { address, bytes } => b.raw_offset(vm(address), vm(bytes), name),
        InstData::RawLoad { address } if old.opcode(v) == Opcode::RawIsNull => b.raw_is_null(vm(address), name),
        InstData::RawLoad { address } => b.raw_load(t(), vm(address), name),
        InstData::RawStore { address, value } => b.raw_put(old.opcode(v), vm(address), vm(value)),
        InstData::RawView { address, offset, extents, strides } => {
            let e: Vec<ValueId> = extents.iter().map(vm).collect();
            let s: Vec<ValueId> = strides.iter().map(vm).collect();
            b.raw_view(t(), vm(address), vm(offset), &e, &s, name)
        }
        InstData::RawData { array } => b.raw_data(vm(array), name),
        InstData::TextByte { text, index } => b.text_byte(vm(text), vm(index), name),
        InstData::Tuple { elements } => {
            let e: Vec<ValueId> = elements.iter().map(vm).collect();
            b.tuple(t(), &e, name)
        }
        InstData::Extract { tuple, index } => b.extract(t(), vm(tuple), index, name),
    }
}

fn builder_like(f: &Function, name: &str) -> FunctionBuilder {
    let mut b = FunctionBuilder::new(name);
    b.set_return(f.ret);
    b.set_attrs(f.attrs);
    b.set_doc(f.doc.clone());
    b.set_ufunc_sig(f.ufunc_sig.clone());
    b.set_func_loc(f.loc);
    b
}

fn finish(b: FunctionBuilder, old: &Body) -> Function {
    let mut f = b.finish();
    f.body.src_file = old.src_file;
    f.body.pir_file = old.pir_file;
    f
}

/// `f` without the instructions in `drop` (and without the blocks all of
/// whose instructions are dropped). With `redirect`, that block's
/// terminator becomes a `br` to a new block, which `fill` lays out (with
/// any blocks of its own) after the old ones, given the maps of old values
/// and blocks to new.
fn rebuild(
    f: &Function,
    drop: &HashSet<ValueId>,
    redirect: Option<BlockId>,
    fill: impl FnOnce(&mut FunctionBuilder, BlockId, &dyn Fn(ValueId) -> ValueId, &dyn Fn(BlockId) -> BlockId),
) -> Function {
    let old = &f.body;
    let mut b = builder_like(f, &f.name);
    let np = old.num_params + old.num_core;
    let mut vmap: Vec<u32> = vec![u32::MAX; old.num_insts()];
    for p in old.all_params() {
        let name = old.name(p).unwrap_or("");
        let ty = old.ty(p).expect("typed param");
        let core = matches!(old.inst(p), InstData::Param { core: true, .. });
        vmap[p.index()] = if core { b.core_param(name, ty) } else { b.param(name, ty) }.as_u32();
    }
    let mut next = np;
    let mut bmap: Vec<u32> = vec![u32::MAX; old.blocks.len()];
    for (bid, bd) in old.blocks.iter_enumerated() {
        if bd.insts().any(|v| !drop.contains(&v)) {
            let label = old.label(bid).to_owned();
            bmap[bid.index()] = b.create_block(&label).as_u32();
            for v in bd.insts() {
                if !drop.contains(&v) {
                    vmap[v.index()] = next;
                    next += 1;
                }
            }
        }
    }
    let mut labels = NameGen::labels(old);
    let new_block = redirect.map(|_| b.create_block(labels.fresh("prange")));
    let vm = |x: ValueId| ValueId::from_u32(vmap[x.index()]);
    let bm = |t: BlockId| BlockId::from_u32(bmap[t.index()]);
    for (bid, bd) in old.blocks.iter_enumerated() {
        if bmap[bid.index()] == u32::MAX {
            continue;
        }
        b.switch_to(bm(bid));
        for v in bd.insts() {
            if drop.contains(&v) {
                continue;
            }
            if Some(v) == old.terminator(bid) && Some(bid) == redirect {
                b.set_loc(old.loc(v));
                b.br(new_block.expect("a new block"));
                continue;
            }
            copy_inst(old, v, &mut b, &vm, &bm);
        }
    }
    if let Some(nb) = new_block {
        fill(&mut b, nb, &vm, &bm);
    }
    finish(b, old)
}

/// A reduction: its local in the caller, its dtype and operator.
struct Reduction {
    local: ValueId,
    ty: TypeId,
    dtype: DType,
    op: char,
}

fn identity(dtype: DType, op: char) -> Literal<'static> {
    match op {
        '*' if dtype.is_complex() => Literal::Complex(1f64.to_bits(), 0f64.to_bits()),
        '*' if dtype.is_float() => Literal::Float(postc_ir::body::f64_to_float_bits(dtype, 1.0)),
        '*' => Literal::Int(1),
        '<' | '>' if dtype.is_float() => {
            let inf = if op == '<' { f64::INFINITY } else { f64::NEG_INFINITY };
            Literal::Float(postc_ir::body::f64_to_float_bits(dtype, inf))
        }
        '<' | '>' => {
            let (lo, hi) = dtype.int_range().expect("an integer dtype");
            Literal::Int(if op == '<' { hi } else { lo })
        }
        _ if dtype.is_complex() => {
            let z = postc_ir::body::f64_to_float_bits(dtype, -0.0);
            Literal::Complex(z, z)
        }
        _ if dtype.is_float() => Literal::Float(postc_ir::body::f64_to_float_bits(dtype, -0.0)),
        _ => Literal::Int(0),
    }
}

/// Where a chunk function reads the stop word.
enum StopChecks {
    /// Between blocks of [`STOP_CHECK_EVERY`] iterations (a constant step).
    Blocks(BlockStops),
    /// On every back edge, which goes through this block.
    EveryIteration(BlockId),
}

/// The blocks of a chunk function that run its iterations in blocks:
/// `start` sets the counter value the block ends at (the chunk's end when
/// it is nearer), the loop runs to it, and `end`, where the loop's header
/// exits, returns once the chunk's end is reached or a lower chunk has
/// panicked, and starts the next block otherwise.
struct BlockStops {
    /// The counter value a block ends at, less its start: the step times
    /// [`STOP_CHECK_EVERY`].
    span: i64,
    start: BlockId,
    /// The block's end is `start + span`, which fits an Int64.
    near: BlockId,
    /// The chunk's end is nearer than an Int64 can count.
    last: BlockId,
    end: BlockId,
    check: BlockId,
}

impl BlockStops {
    fn new(cb: &mut FunctionBuilder, names: &mut NameGen, span: i64) -> BlockStops {
        let mut block = |label: &str| cb.create_block(names.fresh(label));
        BlockStops {
            span,
            start: block("block"),
            near: block("block.near"),
            last: block("block.last"),
            end: block("block.done"),
            check: block("block.check"),
        }
    }

    /// Fills the blocks; `counter` is the chunk's counter, `hi` the
    /// chunk's end and `limit` the local the loop's header compares the
    /// counter with; `header` is the loop's, `done` ends the chunk.
    fn fill(
        &self,
        cb: &mut FunctionBuilder,
        names: &mut NameGen,
        [counter, chunk, hi, limit]: [ValueId; 4],
        header: BlockId,
        done: BlockId,
    ) {
        let up = self.span > 0;
        // `counter + span` does not overflow while the counter is at most
        // `i64::MAX - span` going up, at least `i64::MIN - span` going down
        // (neither bound overflows: span has the step's sign).
        let (bound, toward) = if up { (i64::MAX - self.span, Opcode::Lt) } else { (i64::MIN - self.span, Opcode::Gt) };
        cb.switch_to(self.start);
        let bound = cb.int(TypeId::INT64, bound as i128, names.fresh("block.bound"));
        let fits_op = if up { Opcode::Le } else { Opcode::Ge };
        let fits = cb.binary(fits_op, TypeId::BOOL, counter, bound, names.fresh("block.fits"));
        cb.condbr(fits, self.near, self.last, Some((STOP_WEIGHT, 1)));
        cb.switch_to(self.near);
        let span = cb.int(TypeId::INT64, self.span as i128, names.fresh("block.span"));
        let next = cb.binary(Opcode::Add, TypeId::INT64, counter, span, names.fresh("block.next"));
        let before = cb.binary(toward, TypeId::BOOL, next, hi, names.fresh("block.inside"));
        let end = cb.select(TypeId::INT64, before, next, hi, names.fresh("block.limit"));
        cb.set(limit, end);
        cb.br(header);
        cb.switch_to(self.last);
        cb.set(limit, hi);
        cb.br(header);
        // The loop's header exits here: at the chunk's end, or at a block's.
        cb.switch_to(self.end);
        let whole = cb.binary(Opcode::Eq, TypeId::BOOL, limit, hi, names.fresh("chunk.ended"));
        cb.condbr(whole, done, self.check, None);
        cb.switch_to(self.check);
        let stopped = cb.call(PARALLEL_STOPPED, &[chunk], Some(TypeId::BOOL), names.fresh("stopped"));
        cb.condbr(stopped, done, self.start, Some((1, STOP_WEIGHT)));
    }
}

/// Outlines the loop that `marker` marks; `None` when it does not have the
/// frontend's shape.
fn outline(m: &mut Module, fid: postc_ir::FuncId, marker: ValueId, chunk_name: &str) -> Option<(Function, Function)> {
    let f = &m.functions[fid];
    let old = &f.body;
    let InstData::Call { args, .. } = old.inst(marker) else { return None };
    let args: Vec<ValueId> = args.iter().collect();
    if args.len() < 4 {
        return None;
    }
    let InstData::Const(Literal::Str(kinds)) = old.inst(args[0]) else { return None };
    let (counter, stop, step) = (args[1], args[2], args[3]);
    if kinds.chars().count() != args.len() - 4 || !matches!(old.inst(counter), InstData::Let { .. }) {
        return None;
    }
    let mut reductions = Vec::new();
    for (op, &local) in kinds.chars().zip(&args[4..]) {
        if !matches!(old.inst(local), InstData::Let { .. }) || !"+-*<>".contains(op) {
            return None;
        }
        let ty = old.ty(local)?;
        let td = m.types.get(ty);
        if td.is_array {
            return None;
        }
        reductions.push(Reduction { local, ty, dtype: td.dtype, op });
    }
    // The marker ends its block but for the `br` into the header.
    let mblock = old.block_of(marker)?;
    let term = old.terminator(mblock)?;
    if term.as_u32() != marker.as_u32() + 1 {
        return None;
    }
    let InstData::Br { target: header } = old.inst(term) else { return None };
    let InstData::CondBr { if_true: first, if_false: exit, .. } = old.inst(old.terminator(header)?) else {
        return None;
    };
    // The loop: what the header's true edge reaches without the header or
    // the exit.
    let mut in_loop = vec![false; old.blocks.len()];
    in_loop[header.index()] = true;
    let mut stack = vec![first];
    while let Some(bb) = stack.pop() {
        if in_loop[bb.index()] || bb == exit {
            continue;
        }
        in_loop[bb.index()] = true;
        stack.extend(old.successors(bb));
    }
    if in_loop[exit.index()] || in_loop[mblock.index()] {
        return None;
    }
    let loop_blocks: Vec<BlockId> = old.blocks.ids().filter(|b| in_loop[b.index()]).collect();
    let in_loop_v = |v: ValueId| old.block_of(v).is_some_and(|b| in_loop[b.index()]);
    // Nothing in the loop may return or read a value the caller defines
    // in it afterwards (the frontend never does either).
    let mut set_outer: HashSet<ValueId> = HashSet::new();
    let mut captured: Vec<ValueId> = Vec::new();
    let mut seen: HashSet<ValueId> = HashSet::new();
    let red_locals: HashSet<ValueId> = reductions.iter().map(|r| r.local).collect();
    for &bb in &loop_blocks {
        for v in old.blocks[bb].insts() {
            match old.inst(v) {
                InstData::Return { .. } => return None,
                InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } if !in_loop_v(target) => {
                    set_outer.insert(target);
                }
                _ => {}
            }
            for x in old.operands(v) {
                if in_loop_v(x) || x == counter || red_locals.contains(&x) || !seen.insert(x) {
                    continue;
                }
                captured.push(x);
            }
        }
    }
    for bb in old.blocks.ids().filter(|b| !in_loop[b.index()]) {
        for v in old.blocks[bb].insts() {
            if old.operands(v).iter().any(|&x| in_loop_v(x)) {
                return None;
            }
        }
    }
    // Constants are made again in the chunk function.
    let consts: Vec<ValueId> =
        captured.iter().copied().filter(|&x| matches!(old.inst(x), InstData::Const(_))).collect();
    captured.retain(|x| !matches!(old.inst(*x), InstData::Const(_)));

    let mut names = NameGen::new(old);
    let partial_tys: Vec<TypeId> = reductions
        .iter()
        .map(|r| m.types.intern(TypeData::array(r.dtype, Shape::Dims(smallvec::smallvec![None]), Layout::COrder)))
        .collect();
    let f = &m.functions[fid];
    let old = &f.body;

    // ---- the chunk function -------------------------------------------
    let mut cb = FunctionBuilder::new(chunk_name);
    cb.set_func_loc(old.loc(marker).or(f.loc));
    let p_chunk = cb.param(&names.fresh("chunk").to_owned(), TypeId::INT64);
    let p_lo = cb.param(&names.fresh("lo").to_owned(), TypeId::INT64);
    let p_hi = cb.param(&names.fresh("hi").to_owned(), TypeId::INT64);
    let p_partials: Vec<ValueId> = partial_tys
        .iter()
        .map(|&t| {
            let n = names.fresh("partial").to_owned();
            cb.param(&n, t)
        })
        .collect();
    let mut map: HashMap<ValueId, ValueId> = HashMap::new();
    let mut p_captured = Vec::new();
    for &x in &captured {
        let n = names.fresh(old.name(x).unwrap_or("arg")).to_owned();
        let p = cb.param(&n, old.ty(x)?);
        p_captured.push(p);
        map.insert(x, p);
    }
    let entry = cb.create_block("entry");
    let mut bmap: HashMap<BlockId, BlockId> = HashMap::new();
    for &bb in &loop_blocks {
        bmap.insert(bb, cb.create_block(old.label(bb)));
    }
    let done = cb.create_block(&names.fresh("chunk.done").to_owned());
    // The counter value a block of iterations ends at: a constant step
    // times the block's length, when that fits an Int64.
    let block_span = match old.inst(step) {
        InstData::Const(Literal::Int(s)) => i64::try_from(s).ok().and_then(|s| s.checked_mul(STOP_CHECK_EVERY)),
        _ => None,
    };
    let stops = match block_span {
        Some(span) => StopChecks::Blocks(BlockStops::new(&mut cb, &mut names, span)),
        None => StopChecks::EveryIteration(cb.create_block(names.fresh("chunk.next"))),
    };
    cb.switch_to(entry);
    cb.set_loc(old.loc(marker));
    for &c in &consts {
        let v = copy_inst(old, c, &mut cb, &|x| x, &|b| b);
        map.insert(c, v);
    }
    let k = cb.let_(TypeId::INT64, p_lo, old.name(counter).unwrap_or("i"));
    map.insert(counter, k);
    let mut red_new = Vec::new();
    for r in &reductions {
        let n = names.fresh("identity").to_owned();
        let id = cb.const_(r.ty, identity(r.dtype, r.op), &n);
        let l = cb.let_(r.ty, id, old.name(r.local).unwrap_or("r"));
        map.insert(r.local, l);
        red_new.push(l);
    }
    for (&x, &p) in captured.iter().zip(&p_captured) {
        if set_outer.contains(&x) {
            let n = names.fresh(old.name(x).unwrap_or("local")).to_owned();
            let l = cb.let_(old.ty(x)?, p, &n);
            map.insert(x, l);
        }
    }
    // What the header compares the counter with: the end of the block,
    // or of the chunk.
    let limit = match &stops {
        StopChecks::Blocks(blocks) => {
            let end = cb.let_(TypeId::INT64, p_hi, names.fresh("block.end"));
            cb.br(blocks.start);
            end
        }
        StopChecks::EveryIteration(_) => {
            cb.br(bmap[&header]);
            p_hi
        }
    };
    // Loop instructions take the next ids in order.
    let mut next = cb.function().body.num_insts() as u32;
    for &bb in &loop_blocks {
        for v in old.blocks[bb].insts() {
            map.insert(v, ValueId::from_u32(next));
            next += 1;
        }
    }
    // Every branch to the header from inside the loop is a back edge; the
    // header's exit ends a block.
    let (back_edge, header_exit) = match &stops {
        StopChecks::Blocks(blocks) => (bmap[&header], blocks.end),
        StopChecks::EveryIteration(next_iteration) => (*next_iteration, done),
    };
    for &bb in &loop_blocks {
        cb.switch_to(bmap[&bb]);
        let in_header = bb == header;
        let vm = |x: ValueId| if in_header && x == stop { limit } else { map[&x] };
        let bm = |t: BlockId| match t {
            t if t == exit && in_header => header_exit,
            t if t == exit => done,
            t if t == header => back_edge,
            t => bmap[&t],
        };
        for v in old.blocks[bb].insts() {
            copy_inst(old, v, &mut cb, &vm, &bm);
        }
    }
    // The chunk returns once a lower chunk has panicked.
    cb.set_loc(old.loc(marker));
    match stops {
        StopChecks::Blocks(blocks) => blocks.fill(&mut cb, &mut names, [k, p_chunk, p_hi, limit], bmap[&header], done),
        StopChecks::EveryIteration(next_iteration) => {
            cb.switch_to(next_iteration);
            let stopped = cb.call(PARALLEL_STOPPED, &[p_chunk], Some(TypeId::BOOL), names.fresh("stopped"));
            cb.condbr(stopped, done, bmap[&header], Some((1, STOP_WEIGHT)));
        }
    }
    cb.switch_to(done);
    cb.set_loc(old.loc(marker));
    for (&p, &l) in p_partials.iter().zip(&red_new) {
        cb.index_store(p, &[p_chunk], l);
    }
    cb.ret(None);
    let chunk_fn = finish(cb, old);

    // ---- the caller ---------------------------------------------------
    let mut drop: HashSet<ValueId> = HashSet::from([marker]);
    for &bb in &loop_blocks {
        drop.extend(old.blocks[bb].insts());
    }
    let loc = old.loc(marker);
    let caller = rebuild(f, &drop, Some(mblock), |b, disp, vm, bm| {
        let mut labels = NameGen::labels(old);
        labels.take();
        let head = b.create_block(labels.fresh("combine"));
        let cbody = b.create_block(labels.fresh("combine.body"));
        b.switch_to(disp);
        b.set_loc(loc);
        let len = b.int(TypeId::INT64, PARALLEL_CHUNKS as i128, names.fresh("chunks"));
        let partials: Vec<ValueId> = partial_tys
            .iter()
            .map(|&t| {
                let n = names.fresh("partials").to_owned();
                b.alloc(t, &[len], &n)
            })
            .collect();
        let fname = b.const_(TypeId::scalar(DType::Str), Literal::Str(chunk_name), names.fresh("chunk.fn"));
        let mut call_args = vec![fname, vm(counter), vm(stop), vm(step)];
        call_args.extend(partials.iter().copied());
        call_args.extend(captured.iter().map(|&x| vm(x)));
        let nch = b.call(PARALLEL_FOR, &call_args, Some(TypeId::INT64), names.fresh("nchunks"));
        let zero = b.int(TypeId::INT64, 0, names.fresh("c0"));
        let c = b.let_(TypeId::INT64, zero, names.fresh("c"));
        b.br(head);
        b.switch_to(head);
        let more = b.binary(Opcode::Lt, TypeId::BOOL, c, nch, names.fresh("more"));
        b.condbr(more, cbody, bm(exit), None);
        b.switch_to(cbody);
        for (r, &p) in reductions.iter().zip(&partials) {
            let part = b.index_load(r.ty, p, &[c], names.fresh("part"));
            let cur = vm(r.local);
            let v = match r.op {
                '+' | '-' => b.binary(Opcode::Add, r.ty, cur, part, names.fresh("sum")),
                '*' => b.binary(Opcode::Mul, r.ty, cur, part, names.fresh("prod")),
                op => {
                    let cmp = if op == '<' { Opcode::Lt } else { Opcode::Gt };
                    let better = b.binary(cmp, TypeId::BOOL, part, cur, names.fresh("better"));
                    b.select(r.ty, better, part, cur, names.fresh("best"))
                }
            };
            b.set(cur, v);
        }
        let one = b.int(TypeId::INT64, 1, names.fresh("c1"));
        let c2 = b.binary(Opcode::Add, TypeId::INT64, c, one, names.fresh("cnext"));
        b.set(c, c2);
        b.br(head);
    });
    Some((caller, chunk_fn))
}
