//! Structured control flow from a function's control-flow graph, after
//! Ramsey, "Beyond Relooper" (ICFP 2022): walk the dominator tree; a loop
//! header (a block some back edge enters) becomes a `loop` around its
//! subtree, each merge node (a block two or more forward edges enter)
//! becomes the code after a `block` opened in its immediate dominator,
//! innermost first in reverse postorder; a branch back to a header is a
//! `br` to its `loop`, a branch to a merge node a `br` out of its `block`,
//! and a branch to any other block (entered by that edge alone, so
//! dominated by the branching block) is that block's code, in place.
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
    merge: Vec<bool>,
    labels: Vec<Label>,
    steps: Vec<Step>,
    work: Vec<Work>,
}

/// The structured form of `body`, or `None` when its graph is irreducible
/// (or a terminator names a block that does not exist).
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
        // A terminator with a target out of range lists fewer successors.
        if body.terminator(b).is_some_and(|t| body.successors_of_inst(t).len() != cfg.succs_raw(b).len()) {
            return None;
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
    let merge = forward_in.iter().map(|&k| k >= 2).collect();
    let mut p = Planner {
        body,
        dom,
        number,
        loop_header,
        merge,
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
        if self.loop_header[b.index()] {
            self.steps.push(Step::Loop);
            self.labels.push(Label::Loop(b));
            self.work.push(Work::Close);
        }
        // The merge nodes `b` immediately dominates, latest first: the
        // outermost `block` is followed by the last of them.
        let mut merges: Vec<BlockId> = self.dom.children(b).filter(|c| self.merge[c.index()]).collect();
        merges.sort_by_key(|c| std::cmp::Reverse(self.number[c.index()]));
        for &m in &merges {
            self.steps.push(Step::Block);
            self.labels.push(Label::Follow(m));
            self.work.push(Work::CloseThenTree(m));
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

    /// What the edge `from` → `to` becomes, `None` when the label it needs
    /// is not open (an irreducible graph slipped through).
    fn edge(&self, from: BlockId, to: BlockId) -> Option<Edge> {
        let (nf, nt) = (self.number[from.index()], self.number[to.index()]);
        let want = if nt <= nf {
            Label::Loop(to)
        } else if self.merge[to.index()] {
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
