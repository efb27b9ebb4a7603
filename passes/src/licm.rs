//! `licm`: loop-invariant code motion. An instruction in a loop whose
//! result is the same on every iteration, and whose execution can neither
//! trap nor have an effect, moves before the loop: it then runs once per
//! entry into the loop instead of once per iteration.
//!
//! What this is for: the reads of an array's extents and strides
//! (`dim`, `stride`) and the index arithmetic on them that the frontend
//! writes where an expression needs them, such as those of a row view
//! `a[i]` made on every iteration of a loop over the rows. A backend reads
//! an array parameter's stride from its `DLTensor`, under a test of whether
//! the strides pointer is null; inside the loop that load stays behind the
//! test, which LLVM's own invariant-code motion does not hoist (the load is
//! not safe to speculate), and the unit-stride test and the parameter
//! checks of a callee inlined there stay in the loop with it.
//!
//! An instruction moves when:
//!
//! - removing it would be allowed if its result were unused (`dce`'s
//!   [`crate::dce::is_removable`]: it has a result, no side effect, and
//!   cannot trap with its result type and the overflow-check option), it
//!   is not a `let` (which declares a local afresh on every iteration) and
//!   it does not work on raw addresses;
//! - every operand is defined outside the loop or moves out of it too, and
//!   an operand that is a mutable local (a `let` result or a parameter) is
//!   not assigned (`set`, `setfield`) anywhere in the loop.
//!
//! Such an instruction may be moved from a block that does not run on
//! every iteration (under an `if`, or after a `break`): it computes a
//! value and nothing else, so running it when that value is not needed
//! changes nothing. It moves out of the outermost loop that it is
//! invariant in, into that loop's preheader: the block before the header
//! that every entry from outside the loop goes through. When the header
//! has a single predecessor outside the loop ending in `br HEADER`, that
//! block is the preheader and the instructions go at its end; otherwise a
//! new block `HEADER.pre$N`, laid out just before the header, becomes the
//! target of every branch into the header from outside the loop.
//!
//! A constant does not move on its own (it costs nothing where it is), only
//! with an instruction that reads it and moves out of a loop the constant
//! is in; it goes to the preheader of the outermost such loop.
//!
//! Loops are the natural loops of the back edges (an edge to a block that
//! dominates its source), one per header. Instructions keep their names and
//! their order (instructions moved to the same preheader lie in the order
//! of the blocks in reverse post-order), so an operand is still defined
//! before its reader.
//!
//! What it does not do: move an instruction that may trap (a load, an
//! integer division, a view; checked arithmetic with overflow checks on),
//! even where the loop's guard proves it safe, or sink code below a loop.

use crate::analysis::{Analyses, AnalysisSet};
use crate::dce::is_removable;
use crate::loop_copy::{copy_inst, label, CopyMap};
use crate::manager::FuncCx;
use crate::rewrite::{for_each_operand_fast, NameGen, Rewriter};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body, InstData, Literal, ValueId};
use postc_ir::cfg::{Cfg, DomTree};
use postc_ir::{EntityId, Function, Opcode};
use std::collections::HashMap;

pub struct Licm;

pub static INFO: PassInfo = PassInfo {
    name: "licm",
    description: "move loop-invariant instructions that cannot trap or have an effect out of loops, into a preheader",
    scope: Scope::Function,
    needs: AnalysisSet::DOMINATORS,
    keeps: AnalysisSet::NAMES,
};

/// No loop is considered in a function with more loops than this: a bound
/// on the pass's own work, far above what a program's functions have.
const MAX_LOOPS: usize = 4096;

/// The natural loops of a function, as a tree by nesting.
struct Loops {
    headers: Vec<BlockId>,
    parent: Vec<Option<usize>>,
    /// The innermost loop holding each block.
    loop_of: Vec<Option<usize>>,
    /// Each loop's interval in a pre-order of the tree: a loop holds
    /// another when its interval holds the other's.
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl Loops {
    fn find(body: &Body, cfg: &Cfg, dom: &DomTree) -> Loops {
        let nblocks = body.blocks.len();
        let mut bodies: Vec<(BlockId, Vec<BlockId>)> = Vec::new();
        let mut seen = vec![u32::MAX; nblocks];
        // The entry block is never a branch target (the verifier sees to
        // it), so it heads no loop.
        for h in cfg.rpo().skip(1) {
            let latches: Vec<BlockId> = cfg.preds(h).filter(|&p| dom.is_reachable(p) && dom.dominates(h, p)).collect();
            if latches.is_empty() {
                continue;
            }
            if bodies.len() == MAX_LOOPS {
                bodies.clear();
                break;
            }
            let mark = bodies.len() as u32;
            seen[h.index()] = mark;
            let mut blocks = vec![h];
            let mut stack = latches;
            while let Some(b) = stack.pop() {
                if seen[b.index()] != mark {
                    seen[b.index()] = mark;
                    blocks.push(b);
                    stack.extend(cfg.preds(b).filter(|&p| dom.is_reachable(p)));
                }
            }
            bodies.push((h, blocks));
        }
        // Outer loops first: a loop nested in another has fewer blocks.
        // Each loop's parent is then the innermost loop found so far that
        // holds its header.
        bodies.sort_by_key(|(h, blocks)| (std::cmp::Reverse(blocks.len()), h.as_u32()));
        let n = bodies.len();
        let mut loop_of = vec![None; nblocks];
        let mut parent = vec![None; n];
        for (k, (h, blocks)) in bodies.iter().enumerate() {
            parent[k] = loop_of[h.index()];
            for b in blocks {
                loop_of[b.index()] = Some(k);
            }
        }
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for k in 0..n {
            if let Some(p) = parent[k] {
                children[p].push(k);
            }
        }
        let (mut pre, mut post) = (vec![0; n], vec![0; n]);
        let mut clock = 0u32;
        let mut stack: Vec<(usize, bool)> = (0..n).rev().filter(|&k| parent[k].is_none()).map(|k| (k, false)).collect();
        while let Some((k, done)) = stack.pop() {
            if done {
                post[k] = clock;
                continue;
            }
            pre[k] = clock;
            clock += 1;
            stack.push((k, true));
            stack.extend(children[k].iter().rev().map(|&c| (c, false)));
        }
        let headers = bodies.into_iter().map(|(h, _)| h).collect();
        Loops { headers, parent, loop_of, pre, post }
    }

    /// Whether loop `outer` holds loop `inner` (or is it).
    fn holds(&self, outer: usize, inner: usize) -> bool {
        self.pre[outer] <= self.pre[inner] && self.post[inner] <= self.post[outer]
    }

    /// Whether loop `l` holds block `b`.
    fn holds_block(&self, l: usize, b: BlockId) -> bool {
        self.loop_of[b.index()].is_some_and(|m| self.holds(l, m))
    }

    /// The loops holding block `b`, outermost first.
    fn chain(&self, b: BlockId, out: &mut Vec<usize>) {
        out.clear();
        let mut l = self.loop_of[b.index()];
        while let Some(k) = l {
            out.push(k);
            l = self.parent[k];
        }
        out.reverse();
    }
}

/// Where a value is, for the question whether a loop holds it.
#[derive(Clone, Copy)]
enum Place {
    /// A parameter: before every block.
    Entry,
    /// In an old block, where it stays.
    Block(BlockId),
    /// Moved into the preheader of this loop.
    Preheader(usize),
    /// A constant, which moves with its readers (see the module docs).
    Anywhere,
}

/// What the pass decided for a function.
struct Plan {
    /// The loop each moved instruction goes before, by old id.
    moved: HashMap<ValueId, usize>,
    /// The moved instructions of each loop, in order.
    per_loop: Vec<Vec<ValueId>>,
}

impl FunctionPass for Licm {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        if body.blocks.len() < 2 || !body.tags.raw().iter().any(|t| matches!(t, Opcode::Br | Opcode::CondBr)) {
            return false;
        }
        let labels = NameGen::starting_at(analyses.name_start(body));
        let cfg = analyses.cfg(body).clone();
        let dom = analyses.dom(body);
        let loops = Loops::find(body, &cfg, dom);
        if loops.headers.is_empty() {
            return false;
        }
        let Some(plan) = plan(cx, body, &cfg, &loops) else { return false };
        let next = rebuild(func, &cfg, dom, &loops, &plan, labels, cx);
        analyses.invalidate_except(AnalysisSet::NONE);
        analyses.set_name_start(Some(next));
        true
    }
}

/// Whether `v` may move at all (see the module docs), constants aside.
fn movable(cx: &FuncCx<'_>, body: &Body, v: ValueId) -> bool {
    let op = body.tags[v];
    op != Opcode::Let
        && op != Opcode::Const
        && !op.is_raw()
        && (is_removable(body, cx.types, v, cx.options.overflow_checks) || settled_by_constant(body, v))
}

/// Whether `v` is an integer shift by a non-negative constant count, or a
/// floor division or modulo by a positive constant: what could make it
/// trap (a negative count, a zero divisor, `MIN // -1` overflowing) the
/// constant rules out, as it does for `insert-checks`, which guards none
/// of them. (`strength-reduce` writes `x // 2**k` as such a shift.)
fn settled_by_constant(body: &Body, v: ValueId) -> bool {
    let InstData::Binary { op, right, .. } = body.inst(v) else { return false };
    let InstData::Const(Literal::Int(c)) = body.inst(right) else { return false };
    match op {
        Opcode::Shl | Opcode::Shr => c >= 0,
        Opcode::FDiv | Opcode::Mod => c > 0,
        _ => false,
    }
}

/// Which instructions move out of which loops; `None` when none does.
fn plan(cx: &FuncCx<'_>, body: &Body, cfg: &Cfg, loops: &Loops) -> Option<Plan> {
    let nparams = body.num_params + body.num_core;
    // The blocks that assign each mutable local.
    let mut assigned: HashMap<ValueId, Vec<BlockId>> = HashMap::new();
    for b in cfg.rpo() {
        for v in body.blocks[b].insts() {
            match body.inst(v) {
                InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } => {
                    assigned.entry(target).or_default().push(b)
                }
                _ => continue,
            }
        }
    }
    let mut places: HashMap<ValueId, Place> = HashMap::new();
    let place = |places: &HashMap<ValueId, Place>, x: ValueId| -> Place {
        if x.as_u32() < nparams {
            return Place::Entry;
        }
        if let Some(&p) = places.get(&x) {
            return p;
        }
        if body.tags.get(x) == Some(&Opcode::Const) {
            return Place::Anywhere;
        }
        body.block_of(x).map_or(Place::Entry, Place::Block)
    };
    // Whether `x`'s value is the same throughout loop `l` and available
    // before it.
    let outside = |places: &HashMap<ValueId, Place>, x: ValueId, l: usize| -> bool {
        let held = match place(places, x) {
            Place::Entry | Place::Anywhere => false,
            Place::Block(b) => loops.holds_block(l, b),
            Place::Preheader(m) => m != l && loops.holds(l, m),
        };
        !held && assigned.get(&x).is_none_or(|bs| bs.iter().all(|&b| !loops.holds_block(l, b)))
    };
    let mut order: Vec<ValueId> = Vec::new();
    let mut chain = Vec::new();
    let mut operands: Vec<ValueId> = Vec::new();
    for b in cfg.rpo() {
        loops.chain(b, &mut chain);
        if chain.is_empty() {
            continue;
        }
        for v in body.blocks[b].insts() {
            if !movable(cx, body, v) {
                continue;
            }
            operands.clear();
            for_each_operand_fast(body, v, |x| operands.push(x));
            // Invariance only grows inward: the first loop, from the
            // outermost, whose every operand is outside is the one to
            // leave.
            let Some(&l) = chain.iter().find(|&&l| operands.iter().all(|&x| outside(&places, x, l))) else {
                continue;
            };
            places.insert(v, Place::Preheader(l));
            order.push(v);
        }
    }
    if order.is_empty() {
        return None;
    }
    // The constants that moved instructions read from inside the loops
    // they leave: each to the preheader of the outermost such loop.
    let mut consts: HashMap<ValueId, usize> = HashMap::new();
    for &v in &order {
        let Some(Place::Preheader(l)) = places.get(&v).copied() else { continue };
        for_each_operand_fast(body, v, |x| {
            if x.as_u32() < nparams || body.tags.get(x) != Some(&Opcode::Const) {
                return;
            }
            let Some(xb) = body.block_of(x) else { return };
            if !loops.holds_block(l, xb) {
                return;
            }
            let e = consts.entry(x).or_insert(l);
            if loops.holds(l, *e) {
                *e = l;
            }
        });
    }
    let mut moved: HashMap<ValueId, usize> = HashMap::new();
    for &v in &order {
        if let Some(&Place::Preheader(l)) = places.get(&v) {
            moved.insert(v, l);
        }
    }
    moved.extend(consts);
    // Each preheader's instructions in the order of their blocks in reverse
    // post-order, then of the instructions in a block: an operand first.
    let rpo_pos: Vec<u32> = {
        let mut pos = vec![u32::MAX; body.blocks.len()];
        for (k, b) in cfg.rpo().enumerate() {
            pos[b.index()] = k as u32;
        }
        pos
    };
    let mut all: Vec<(u32, ValueId)> =
        moved.keys().map(|&v| (body.block_of(v).map_or(u32::MAX, |b| rpo_pos[b.index()]), v)).collect();
    all.sort_unstable_by_key(|&(p, v)| (p, v.as_u32()));
    let mut per_loop = vec![Vec::new(); loops.headers.len()];
    for (_, v) in all {
        per_loop[moved[&v]].push(v);
    }
    Some(Plan { moved, per_loop })
}

/// The block before loop `l`'s header that already is its preheader: its
/// only predecessor outside the loop, ending in `br HEADER`.
fn existing_preheader(body: &Body, cfg: &Cfg, dom: &DomTree, loops: &Loops, l: usize) -> Option<BlockId> {
    let h = loops.headers[l];
    let mut outside = cfg.preds(h).filter(|&p| !dom.dominates(h, p));
    let p = outside.next()?;
    if outside.next().is_some() || !dom.is_reachable(p) {
        return None;
    }
    let term = body.terminator(p)?;
    matches!(body.inst(term), InstData::Br { target } if target == h).then_some(p)
}

/// Rebuilds the body with the plan's instructions moved into their
/// loops' preheaders; returns the first free `$N`.
fn rebuild(
    func: &mut Function,
    cfg: &Cfg,
    dom: &DomTree,
    loops: &Loops,
    plan: &Plan,
    mut labels: NameGen,
    cx: &FuncCx<'_>,
) -> u64 {
    let old = std::mem::take(&mut func.body);
    let nloops = loops.headers.len();
    // Per loop that receives instructions: the existing preheader, or a
    // new block (declared in the order of the loops, for a deterministic
    // rebuild).
    let mut rw = Rewriter::new(&old, cx.scratch);
    let mut at_end_of: HashMap<BlockId, usize> = HashMap::new();
    let mut new_pre: HashMap<BlockId, (usize, BlockId)> = HashMap::new();
    for l in (0..nloops).filter(|&l| !plan.per_loop[l].is_empty()) {
        match existing_preheader(&old, cfg, dom, loops, l) {
            Some(p) => {
                at_end_of.insert(p, l);
            }
            None => {
                new_pre.insert(loops.headers[l], (l, rw.new_block()));
            }
        }
    }
    for b in old.blocks.ids() {
        if let Some(&(l, pre)) = new_pre.get(&b) {
            let l_name = label(&mut rw, &mut labels, old.label(b).as_bytes(), b".pre");
            rw.begin_block_named(pre, l_name);
            for &v in &plan.per_loop[l] {
                rw.copy(v);
            }
            rw.emit(Opcode::Br, None, [b.as_u32(), 0], &[], None, None);
        }
        rw.begin_old_block(b);
        let d = old.blocks[b];
        let term = old.terminator(b);
        let body_end = term.map_or(d.end, |t| t.as_u32());
        let mut run = d.start;
        for i in d.start..body_end {
            if plan.moved.contains_key(&ValueId::from_u32(i)) {
                rw.copy_range(ValueId::from_u32(run), ValueId::from_u32(i));
                run = i + 1;
            }
        }
        rw.copy_range(ValueId::from_u32(run), ValueId::from_u32(body_end));
        if let Some(&l) = at_end_of.get(&b) {
            for &v in &plan.per_loop[l] {
                rw.copy(v);
            }
        }
        let Some(term) = term else { continue };
        // A branch into a header from outside its loop enters the new
        // preheader instead.
        let mut map = CopyMap::new();
        for s in cfg.succs(b) {
            if let Some(&(_, pre)) = new_pre.get(&s) {
                if !dom.dominates(s, b) {
                    map.blocks.insert(s, pre);
                }
            }
        }
        if map.blocks.is_empty() {
            rw.copy(term);
        } else {
            let name = rw.copy_name(term);
            copy_inst(&mut rw, &old, term, &map, name);
        }
    }
    func.body = rw.finish();
    cx.scratch.recycle(old);
    labels.peek()
}
