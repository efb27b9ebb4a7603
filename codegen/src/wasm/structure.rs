//! Structured control flow from a function's control-flow graph, after
//! Ramsey, "Beyond Relooper" (ICFP 2022): walk the dominator tree; a loop
//! header (a block some back edge enters) becomes a `loop` around its
//! subtree, each merge node (a block two or more forward edges enter)
//! becomes the code after a `block` opened in its immediate dominator,
//! innermost first in reverse postorder; a branch back to a header is a
//! `br` to its `loop`, a branch to a merge node a `br` out of its `block`,
//! and a branch to any other block (entered by that edge alone, so
//! dominated by the branching block) is that block's code, in place.
//! One refinement: the blocks a loop header immediately dominates that lie
//! outside its loop (the loop's exits, a failed check's panic) follow the
//! `loop` rather than sit inside it, each after a `block` around the loop,
//! so a loop is left by a `br_if` and its body holds only what repeats.
//!
//! The result is a [`Step`] list that the emitter turns into instructions.
//! Only reducible graphs have such a form (every edge that goes back in
//! reverse postorder enters a block that dominates its source);
//! [`plan`] returns `None` for the others, which keep a dispatch loop.
//! The IR can have them: the text format allows any branch.

use postc_ir::body::{BlockId, Body, InstData};
use postc_ir::cfg::{Cfg, DomTree};
use postc_ir::EntityId;

/// One piece of a structured function body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `loop`, a back edge's target.
    Loop,
    /// `block`, a forward branch's target at its `end`.
    Block,
    /// `if` on the condition of the block's `condbr`, entered when the
    /// condition equals `when`.
    If { block: BlockId, when: bool },
    /// The end of the innermost open `loop`, `block` or `if`.
    End,
    /// The block's instructions, all but a closing `br` or `condbr`.
    Insts(BlockId),
    /// `br` to the label `depth` constructs out.
    Br(u32),
    /// `br_if` on the condition of the block's `condbr`, taken when the
    /// condition equals `when`.
    BrIf { block: BlockId, when: bool, depth: u32 },
    /// `unreachable`: after the last `end`, which no path passes.
    Unreachable,
}

/// Reverse postorder of the blocks reachable from the entry, successors
/// visited last to first so that a block's first successor (a branch's
/// `true` side: the loop body, the in-bounds path) comes right after it
/// where it can.
pub(crate) fn rpo(cfg: &Cfg) -> Vec<BlockId> {
    let n = cfg.num_blocks();
    if n == 0 {
        return Vec::new();
    }
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(BlockId, usize)> = vec![(BlockId::from_u32(0), 0)];
    seen[0] = true;
    while let Some((b, i)) = stack.pop() {
        let succ = cfg.succs_raw(b);
        if i < succ.len() {
            stack.push((b, i + 1));
            let s = succ[succ.len() - 1 - i] as usize;
            if !seen[s] {
                seen[s] = true;
                stack.push((BlockId::from_u32(s as u32), 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

/// What a branch from one block to another becomes.
enum Edge {
    /// A `br` (or `br_if`) this many labels out.
    Label(u32),
    /// The target's code, in place.
    Inline,
}

/// An open construct, innermost last.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    /// A `loop` headed by the block: a branch to it continues the loop.
    Loop(BlockId),
    /// A `block` followed by the block's code: a branch to it leaves.
    Follow(BlockId),
    /// An `if` arm.
    If,
}

/// Work left to do, last pushed first done.
enum Work {
    /// The code of the block and of the blocks it dominates.
    Tree(BlockId),
    /// A branch from a block to another.
    Branch(BlockId, BlockId),
    /// `end` of the innermost construct.
    Close,
    /// `end` of the innermost `block`, then the code of the block after it.
    CloseThenTree(BlockId),
}

struct Planner<'b> {
    body: &'b Body,
    dom: DomTree,
    /// Position in reverse postorder; `u32::MAX` when unreachable.
    number: Vec<u32>,
    loop_header: Vec<bool>,
    /// Blocks entered by a `br` to the end of a `block`: the merge nodes,
    /// and loop exits once their header is reached.
    follows: Vec<bool>,
    cfg: Cfg,
    /// Scratch for the blocks of one loop: the header's number + 1 marks
    /// a member.
    in_loop: Vec<u32>,
    labels: Vec<Label>,
    steps: Vec<Step>,
    work: Vec<Work>,
}

/// The structured form of `body`, or `None` when its graph is irreducible
/// (or, in a body the verifier rejects, a reachable block lacks a
/// terminator or branches to a block that does not exist).
pub(crate) fn plan(body: &Body) -> Option<Vec<Step>> {
    let cfg = Cfg::compute(body);
    let order = rpo(&cfg);
    let n = cfg.num_blocks();
    if order.is_empty() {
        return None;
    }
    let dom = DomTree::compute(&cfg);
    let mut number = vec![u32::MAX; n];
    for (k, b) in order.iter().enumerate() {
        number[b.index()] = k as u32;
    }
    let mut loop_header = vec![false; n];
    let mut forward_in = vec![0u32; n];
    for &b in &order {
        // A block must end in a terminator whose targets exist (one out of
        // range is missing from the graph's successors).
        match body.terminator(b) {
            Some(t) if body.successors_of_inst(t).len() == cfg.succs_raw(b).len() => {}
            _ => return None,
        }
        for s in cfg.succs(b) {
            if number[s.index()] <= number[b.index()] {
                if !dom.dominates(s, b) {
                    return None;
                }
                loop_header[s.index()] = true;
            } else {
                forward_in[s.index()] += 1;
            }
        }
    }
    let follows = forward_in.iter().map(|&k| k >= 2).collect();
    let mut p = Planner {
        body,
        dom,
        number,
        loop_header,
        follows,
        cfg,
        in_loop: vec![0; n],
        labels: Vec::new(),
        steps: Vec::with_capacity(3 * order.len()),
        work: vec![Work::Tree(order[0])],
    };
    while let Some(w) = p.work.pop() {
        match w {
            Work::Tree(b) => p.tree(b)?,
            Work::Branch(from, to) => match p.edge(from, to)? {
                Edge::Label(depth) => p.steps.push(Step::Br(depth)),
                Edge::Inline => p.work.push(Work::Tree(to)),
            },
            Work::Close => p.close(),
            Work::CloseThenTree(b) => {
                p.close();
                p.work.push(Work::Tree(b));
            }
        }
    }
    // No path falls off the end, but a function with a result needs a
    // value or `unreachable` after a closing `end` to validate.
    if p.steps.last() == Some(&Step::End) {
        p.steps.push(Step::Unreachable);
    }
    Some(p.steps)
}

impl Planner<'_> {
    /// Opens the constructs of block `b`'s tree and writes its code; what
    /// follows it is left as work.
    fn tree(&mut self, b: BlockId) -> Option<()> {
        // The blocks that follow a `block` opened here, latest first: the
        // outermost `block` is followed by the last of them.
        let mut children: Vec<BlockId> = self.dom.children(b).collect();
        children.sort_by_key(|c| std::cmp::Reverse(self.number[c.index()]));
        let header = self.loop_header[b.index()];
        let mark = if header { self.mark_loop(b) } else { 0 };
        let (outside, inside): (Vec<BlockId>, Vec<BlockId>) =
            children.into_iter().partition(|c| header && self.in_loop[c.index()] != mark);
        for &c in &outside {
            self.follows[c.index()] = true;
            self.open_follow(c);
        }
        if header {
            self.steps.push(Step::Loop);
            self.labels.push(Label::Loop(b));
            self.work.push(Work::Close);
        }
        for c in inside {
            if self.follows[c.index()] {
                self.open_follow(c);
            }
        }
        self.steps.push(Step::Insts(b));
        let Some(t) = self.body.terminator(b) else { return Some(()) };
        match self.body.inst(t) {
            InstData::Br { target } => self.work.push(Work::Branch(b, target)),
            InstData::CondBr { if_true, if_false, .. } => self.cond(b, if_true, if_false)?,
            // `return` and `unreachable` are among the instructions.
            _ => {}
        }
        Some(())
    }

    /// The two-way branch ending block `b`.
    fn cond(&mut self, b: BlockId, if_true: BlockId, if_false: BlockId) -> Option<()> {
        match (self.edge(b, if_true)?, self.edge(b, if_false)?) {
            (Edge::Label(dt), Edge::Label(df)) => {
                if if_true != if_false {
                    self.steps.push(Step::BrIf { block: b, when: true, depth: dt });
                }
                self.steps.push(Step::Br(df));
            }
            (Edge::Label(dt), Edge::Inline) => {
                self.steps.push(Step::BrIf { block: b, when: true, depth: dt });
                self.work.push(Work::Tree(if_false));
            }
            (Edge::Inline, Edge::Label(df)) => {
                self.steps.push(Step::BrIf { block: b, when: false, depth: df });
                self.work.push(Work::Tree(if_true));
            }
            (Edge::Inline, Edge::Inline) => {
                // The smaller side (by dominator subtree; a block that
                // leaves the function before one that goes on) goes in an
                // `if` arm that never falls through; the other continues at
                // this level, so chains of checks do not nest.
                let size = |x: BlockId| {
                    let [lo, hi] = self.dom.preorder_range(x);
                    (hi - lo, self.body.successors(x).len())
                };
                let (arm, rest, when) =
                    if size(if_false) < size(if_true) { (if_false, if_true, false) } else { (if_true, if_false, true) };
                self.steps.push(Step::If { block: b, when });
                self.labels.push(Label::If);
                self.work.push(Work::Tree(rest));
                self.work.push(Work::Close);
                self.work.push(Work::Tree(arm));
            }
        }
        Some(())
    }

    /// Opens a `block` that block `c` follows.
    fn open_follow(&mut self, c: BlockId) {
        self.steps.push(Step::Block);
        self.labels.push(Label::Follow(c));
        self.work.push(Work::CloseThenTree(c));
    }

    /// Marks the blocks of the loop headed by `h` in `in_loop` (those that
    /// reach a branch back to `h` without passing `h`) with the mark it
    /// returns.
    fn mark_loop(&mut self, h: BlockId) -> u32 {
        let mark = self.number[h.index()] + 1;
        self.in_loop[h.index()] = mark;
        let mut stack: Vec<BlockId> = self.cfg.preds(h).filter(|p| self.dom.dominates(h, *p)).collect();
        while let Some(b) = stack.pop() {
            if self.in_loop[b.index()] == mark || !self.cfg.is_reachable(b) {
                continue;
            }
            self.in_loop[b.index()] = mark;
            stack.extend(self.cfg.preds(b));
        }
        mark
    }

    /// What the edge `from` → `to` becomes, `None` when the label it needs
    /// is not open (an irreducible graph slipped through).
    fn edge(&self, from: BlockId, to: BlockId) -> Option<Edge> {
        let (nf, nt) = (self.number[from.index()], self.number[to.index()]);
        let want = if nt <= nf {
            Label::Loop(to)
        } else if self.follows[to.index()] {
            Label::Follow(to)
        } else {
            return Some(Edge::Inline);
        };
        let at = self.labels.iter().rposition(|l| *l == want)?;
        Some(Edge::Label((self.labels.len() - 1 - at) as u32))
    }

    /// Ends the innermost construct; a `br` to the end of a `block` or `if`
    /// right before it is dropped, since falling through goes there too.
    fn close(&mut self) {
        let label = self.labels.pop();
        if matches!(label, Some(Label::Follow(_) | Label::If)) && self.steps.last() == Some(&Step::Br(0)) {
            self.steps.pop();
        }
        self.steps.push(Step::End);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use postc_ir::builder::FunctionBuilder;
    use postc_ir::module::Function;
    use postc_ir::types::TypeId;
    use std::collections::BTreeSet;

    /// A function whose block `i` branches to `edges[i]` (no successors:
    /// return; one: br; two: condbr on a Bool parameter).
    fn graph(edges: &[Vec<u32>]) -> Function {
        let mut b = FunctionBuilder::new("g");
        let c = b.param("c", TypeId::BOOL);
        let blocks: Vec<BlockId> = (0..edges.len()).map(|i| b.create_block(&format!("b{i}"))).collect();
        for (i, succ) in edges.iter().enumerate() {
            b.switch_to(blocks[i]);
            match succ[..] {
                [] => {
                    b.ret(None);
                }
                [t] => {
                    b.br(blocks[t as usize]);
                }
                [t, f] => {
                    b.condbr(c, blocks[t as usize], blocks[f as usize], None);
                }
                _ => unreachable!(),
            }
        }
        b.finish()
    }

    /// Reducibility by the T1/T2 transformations: remove self loops, fold
    /// a block with one predecessor into it; the graph reduces to its
    /// entry exactly when it is reducible.
    fn reducible(edges: &[Vec<u32>], reachable: &[bool]) -> bool {
        let mut succs: Vec<BTreeSet<usize>> = edges
            .iter()
            .enumerate()
            .map(|(i, s)| if reachable[i] { s.iter().map(|&x| x as usize).collect() } else { BTreeSet::new() })
            .collect();
        let mut alive: BTreeSet<usize> = (0..edges.len()).filter(|&i| reachable[i]).collect();
        loop {
            for (i, s) in succs.iter_mut().enumerate() {
                s.remove(&i);
            }
            let fold = alive.iter().copied().filter(|&x| x != 0).find_map(|x| {
                let preds: Vec<usize> = alive.iter().copied().filter(|&p| succs[p].contains(&x)).collect();
                (preds.len() == 1).then(|| (x, preds[0]))
            });
            let Some((x, p)) = fold else { break };
            let moved = std::mem::take(&mut succs[x]);
            succs[p].remove(&x);
            succs[p].extend(moved);
            alive.remove(&x);
        }
        alive.len() == 1
    }

    /// Checks that `steps` nest, that every `br` names an open label, and
    /// that each reachable block's code is written exactly once.
    fn check_shape(steps: &[Step], reachable: &[bool]) {
        let mut open = 0u32;
        let mut written = vec![0; reachable.len()];
        for s in steps {
            match *s {
                Step::Loop | Step::Block | Step::If { .. } => open += 1,
                Step::End => {
                    assert!(open > 0, "unbalanced `end` in {steps:?}");
                    open -= 1;
                }
                Step::Br(d) | Step::BrIf { depth: d, .. } => assert!(d < open, "`br {d}` with {open} open"),
                Step::Insts(b) => written[b.index()] += 1,
                Step::Unreachable => {}
            }
        }
        assert_eq!(open, 0, "unclosed constructs in {steps:?}");
        for (i, &r) in reachable.iter().enumerate() {
            assert_eq!(written[i], usize::from(r), "block {i} written {} times in {steps:?}", written[i]);
        }
    }

    /// Runs `steps` with conditions drawn from `coin`, checking that the
    /// blocks they enter follow the graph's edges, until a block returns
    /// or `budget` blocks have run.
    fn execute(steps: &[Step], body: &Body, mut coin: impl FnMut() -> bool, budget: usize) {
        let mut ends = vec![usize::MAX; steps.len()];
        let mut stack = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            match s {
                Step::Loop | Step::Block | Step::If { .. } => stack.push(i),
                Step::End => ends[stack.pop().unwrap()] = i,
                _ => {}
            }
        }
        let mut open: Vec<usize> = Vec::new();
        let mut pc = 0;
        let mut expected = Some(BlockId::from_u32(0));
        let mut pending: Option<(BlockId, bool)> = None;
        let mut ran = 0;
        let mut decide = |b: BlockId, pending: &mut Option<(BlockId, bool)>, expected: &mut Option<BlockId>| -> bool {
            if let Some((p, v)) = *pending {
                assert_eq!(p, b, "a condition of another block");
                return v;
            }
            assert_eq!(*expected, None, "block {b:?}'s condition is read before its code ran");
            let v = coin();
            *pending = Some((b, v));
            let Some(InstData::CondBr { if_true, if_false, .. }) = body.terminator(b).map(|t| body.inst(t)) else {
                panic!("a condition of block {b:?}, which has no condbr")
            };
            *expected = Some(if v { if_true } else { if_false });
            v
        };
        loop {
            let Some(step) = steps.get(pc) else { panic!("fell off the end of {steps:?}") };
            let branch = |depth: u32, open: &mut Vec<usize>| -> usize {
                let at = open.len() - 1 - depth as usize;
                let target = open[at];
                if steps[target] == Step::Loop {
                    open.truncate(at + 1);
                    target + 1
                } else {
                    open.truncate(at);
                    ends[target] + 1
                }
            };
            pc = match *step {
                Step::Loop | Step::Block => {
                    open.push(pc);
                    pc + 1
                }
                Step::End => {
                    open.pop();
                    pc + 1
                }
                Step::If { block, when } => {
                    if decide(block, &mut pending, &mut expected) == when {
                        open.push(pc);
                        pc + 1
                    } else {
                        ends[pc] + 1
                    }
                }
                Step::BrIf { block, when, depth } => {
                    if decide(block, &mut pending, &mut expected) == when {
                        branch(depth, &mut open)
                    } else {
                        pc + 1
                    }
                }
                Step::Br(depth) => branch(depth, &mut open),
                Step::Unreachable => panic!("reached `unreachable` in {steps:?}"),
                Step::Insts(b) => {
                    assert_eq!(expected, Some(b), "entered {b:?} instead of {expected:?} in {steps:?}");
                    pending = None;
                    ran += 1;
                    match body.terminator(b).map(|t| body.inst(t)) {
                        Some(InstData::Br { target }) => expected = Some(target),
                        // Both ways to one block: no condition is read.
                        Some(InstData::CondBr { if_true, if_false, .. }) if if_true == if_false => {
                            expected = Some(if_true)
                        }
                        Some(InstData::CondBr { .. }) => expected = None,
                        _ => return,
                    }
                    if ran == budget {
                        return;
                    }
                    pc + 1
                }
            };
        }
    }

    fn random_edges(next: &mut impl FnMut(u32) -> u32) -> Vec<Vec<u32>> {
        let n = 1 + next(14) as usize;
        (0..n)
            .map(|i| match next(5) {
                0 if i + 1 < n => vec![],
                1 => vec![next(n as u32)],
                2 if i + 1 < n => vec![i as u32 + 1],
                _ => vec![next(n as u32), next(n as u32)],
            })
            .collect()
    }

    /// Random graphs: a plan exactly for the reducible ones, well nested,
    /// every reachable block once, and every run of it a path of the graph.
    #[test]
    fn plans_of_random_graphs_follow_their_edges() {
        let mut x: u32 = 0x2545_f491;
        let mut next = |m: u32| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % m
        };
        let (mut planned, mut refused) = (0, 0);
        for _ in 0..3000 {
            let edges = random_edges(&mut next);
            let f = graph(&edges);
            let cfg = Cfg::compute(&f.body);
            let reachable: Vec<bool> =
                (0..edges.len()).map(|i| cfg.is_reachable(BlockId::from_u32(i as u32))).collect();
            let want = reducible(&edges, &reachable);
            match plan(&f.body) {
                Some(steps) => {
                    assert!(want, "{edges:?} is irreducible but was planned");
                    planned += 1;
                    check_shape(&steps, &reachable);
                    for _ in 0..4 {
                        execute(&steps, &f.body, || next(2) == 1, 60);
                    }
                }
                None => {
                    assert!(!want, "{edges:?} is reducible but was refused");
                    refused += 1;
                }
            }
        }
        assert!(planned > 1000 && refused > 100, "{planned} planned, {refused} refused");
    }

    /// The shapes the backend relies on for speed.
    #[test]
    fn a_counted_loop_is_left_by_br_if() {
        // 0 -> 1 (head) -> 2 (body) -> 1, head -> 3 (return): the exit
        // follows the loop.
        let f = graph(&[vec![1], vec![2, 3], vec![1], vec![]]);
        let steps = plan(&f.body).unwrap();
        let b = BlockId::from_u32;
        assert_eq!(
            steps,
            vec![
                Step::Insts(b(0)),
                Step::Block,
                Step::Loop,
                Step::Insts(b(1)),
                Step::BrIf { block: b(1), when: false, depth: 1 },
                Step::Insts(b(2)),
                Step::Br(0),
                Step::End,
                Step::End,
                Step::Insts(b(3)),
            ]
        );
        // A check in the loop body: its panic stays in an `if` there.
        // 0 -> 1 (head) -> 2 (check) -> 3 (store) -> 1, 2 -> 4 (panic),
        // head -> 5 (return).
        let f = graph(&[vec![1], vec![2, 5], vec![3, 4], vec![1], vec![], vec![]]);
        let steps = plan(&f.body).unwrap();
        assert_eq!(
            steps,
            vec![
                Step::Insts(b(0)),
                Step::Block,
                Step::Loop,
                Step::Insts(b(1)),
                Step::BrIf { block: b(1), when: false, depth: 1 },
                Step::Insts(b(2)),
                Step::If { block: b(2), when: false },
                Step::Insts(b(4)),
                Step::End,
                Step::Insts(b(3)),
                Step::Br(0),
                Step::End,
                Step::End,
                Step::Insts(b(5)),
            ]
        );
        // A diamond: one `block` for the merge, the branch into it dropped
        // where it falls through.
        let f = graph(&[vec![1, 2], vec![3], vec![3], vec![]]);
        let steps = plan(&f.body).unwrap();
        assert_eq!(
            steps,
            vec![
                Step::Block,
                Step::Insts(b(0)),
                Step::If { block: b(0), when: true },
                Step::Insts(b(1)),
                Step::Br(1),
                Step::End,
                Step::Insts(b(2)),
                Step::End,
                Step::Insts(b(3)),
            ]
        );
        // Irreducible: two blocks entering each other.
        assert_eq!(plan(&graph(&[vec![1, 2], vec![2], vec![1, 3], vec![]]).body), None);
    }
}
