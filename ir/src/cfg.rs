//! Control-flow analyses of one function body: the [`Cfg`] (successors and
//! predecessors in flat arrays, reverse post-order, reachability) and the
//! [`DomTree`] (Cooper–Harvey–Kennedy iterative dominators over the RPO,
//! with O(1) dominance queries from DFS numbers of the tree).
//!
//! The iterative algorithm is the fastest on the graphs code has, but its
//! intersections walk up the tree from each predecessor: a block with many
//! predecessors deep in the tree (the join of `a and b and c and ...`, of
//! an `elif` chain, of a long conditional expression) costs the sum of
//! their depths, quadratic in the chain's length. So the walks are counted,
//! and past a budget linear in the graph's size the tree is computed again
//! by Lengauer–Tarjan with path compression (O(m log n) on any graph).
//!
//! Both tolerate malformed bodies: a block whose range is invalid or whose
//! last instruction is not a terminator has no successors, and branch
//! targets out of range are ignored (the verifier reports them). Both can be
//! recomputed into their existing buffers, so a pass manager can keep one of
//! each per thread and never reallocate in the steady state.

use crate::body::{BlockId, Body, ValueId};
use crate::entity::EntityId;
use crate::opcode::Format;

/// "No block" / "not numbered" in the flat tables.
const NONE: u32 = u32::MAX;
/// A block pushed on the DFS stack but not yet numbered.
const VISITING: u32 = u32::MAX - 1;

/// The successor blocks a terminator names, straight from its payload,
/// keeping only targets below `nblocks`. Returns the number written.
#[inline]
fn raw_successors(body: &Body, v: ValueId, nblocks: usize, out: &mut [u32; 2]) -> usize {
    let [a, b] = body.ops[v];
    let mut n = 0;
    let mut push = |t: u32| {
        if (t as usize) < nblocks {
            out[n] = t;
            n += 1;
        }
    };
    match body.tags[v].format() {
        Format::Br => push(a),
        Format::CondBr => {
            let b = b as usize;
            if let Some(e) = body.extra.get(b..b.saturating_add(2)) {
                push(e[0]);
                push(e[1]);
            }
        }
        _ => {}
    }
    n
}

/// The control-flow graph of a body.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    succ_start: Vec<u32>,
    succs: Vec<u32>,
    pred_start: Vec<u32>,
    preds: Vec<u32>,
    /// Reachable blocks in reverse post-order (entry first).
    rpo: Vec<u32>,
    /// Position of each block in `rpo`, `NONE` when unreachable.
    rpo_num: Vec<u32>,
    stack: Vec<(u32, u32)>,
}

impl Cfg {
    /// An empty graph whose buffers [`Cfg::recompute`] fills.
    pub fn new() -> Cfg {
        Cfg::default()
    }

    /// Computes the graph of `body`.
    pub fn compute(body: &Body) -> Cfg {
        let mut c = Cfg::new();
        c.recompute(body);
        c
    }

    /// Recomputes the graph of `body` into this one's buffers.
    pub fn recompute(&mut self, body: &Body) {
        let nblocks = body.blocks.len();
        let ninsts = body.num_insts().min(body.ops.len());
        self.succ_start.clear();
        self.succs.clear();
        self.succ_start.reserve(nblocks + 1);
        self.succ_start.push(0);
        let mut buf = [0u32; 2];
        for bd in body.blocks.iter() {
            if bd.end > bd.start && bd.end as usize <= ninsts {
                let n = raw_successors(body, ValueId::from_u32(bd.end - 1), nblocks, &mut buf);
                // At most two edges: pushed one by one, not copied.
                for &t in &buf[..n] {
                    self.succs.push(t);
                }
            }
            self.succ_start.push(self.succs.len() as u32);
        }

        // Predecessors by counting sort over the edges.
        self.pred_start.clear();
        self.pred_start.resize(nblocks + 1, 0);
        for &t in &self.succs {
            self.pred_start[t as usize + 1] += 1;
        }
        for i in 0..nblocks {
            self.pred_start[i + 1] += self.pred_start[i];
        }
        self.preds.clear();
        self.preds.resize(self.succs.len(), 0);
        // Fill using the start offsets as cursors, then restore them.
        for b in 0..nblocks {
            for e in self.succ_start[b]..self.succ_start[b + 1] {
                let t = self.succs[e as usize] as usize;
                let at = self.pred_start[t];
                self.preds[at as usize] = b as u32;
                self.pred_start[t] += 1;
            }
        }
        for i in (0..nblocks).rev() {
            self.pred_start[i + 1] = self.pred_start[i];
        }
        if nblocks > 0 {
            self.pred_start[0] = 0;
        }

        // Reverse post-order by an iterative depth-first search.
        self.rpo_num.clear();
        self.rpo_num.resize(nblocks, NONE);
        self.rpo.clear();
        self.stack.clear();
        if nblocks == 0 {
            return;
        }
        self.rpo_num[0] = VISITING;
        self.stack.push((0, self.succ_start[0]));
        while let Some(top) = self.stack.last_mut() {
            let (b, next) = *top;
            if next < self.succ_start[b as usize + 1] {
                top.1 += 1;
                let t = self.succs[next as usize];
                if self.rpo_num[t as usize] == NONE {
                    self.rpo_num[t as usize] = VISITING;
                    self.stack.push((t, self.succ_start[t as usize]));
                }
            } else {
                self.rpo.push(b);
                self.stack.pop();
            }
        }
        self.rpo.reverse();
        for (i, &b) in self.rpo.iter().enumerate() {
            self.rpo_num[b as usize] = i as u32;
        }
    }

    pub fn num_blocks(&self) -> usize {
        self.rpo_num.len()
    }

    /// Successors of `b` as raw block indices, in terminator order (a
    /// `condbr` to the same block twice lists it twice).
    #[inline]
    pub fn succs_raw(&self, b: BlockId) -> &[u32] {
        let i = b.index();
        &self.succs[self.succ_start[i] as usize..self.succ_start[i + 1] as usize]
    }

    /// Predecessors of `b` as raw block indices (one per edge).
    #[inline]
    pub fn preds_raw(&self, b: BlockId) -> &[u32] {
        let i = b.index();
        &self.preds[self.pred_start[i] as usize..self.pred_start[i + 1] as usize]
    }

    pub fn succs(&self, b: BlockId) -> impl ExactSizeIterator<Item = BlockId> + '_ {
        self.succs_raw(b).iter().map(|&x| BlockId::from_u32(x))
    }

    pub fn preds(&self, b: BlockId) -> impl ExactSizeIterator<Item = BlockId> + '_ {
        self.preds_raw(b).iter().map(|&x| BlockId::from_u32(x))
    }

    /// The reachable blocks in reverse post-order, entry first.
    pub fn rpo(&self) -> impl ExactSizeIterator<Item = BlockId> + '_ {
        self.rpo.iter().map(|&x| BlockId::from_u32(x))
    }

    pub fn rpo_raw(&self) -> &[u32] {
        &self.rpo
    }

    /// Position of `b` in the reverse post-order; `None` when unreachable.
    #[inline]
    pub fn rpo_number(&self, b: BlockId) -> Option<u32> {
        self.rpo_num.get(b.index()).copied().filter(|&n| n != NONE)
    }

    /// Whether `b` is reachable from the entry block.
    #[inline]
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.rpo_num.get(b.index()).is_some_and(|&n| n != NONE)
    }

    pub fn num_reachable(&self) -> usize {
        self.rpo.len()
    }
}

/// The dominator tree of a [`Cfg`]. Unreachable blocks are not in the tree:
/// they have no immediate dominator and are dominated only by themselves.
#[derive(Clone, Debug, Default)]
pub struct DomTree {
    /// Immediate dominator per block; the entry's is itself, `NONE` when
    /// unreachable.
    idom: Vec<u32>,
    /// Per block: DFS pre-order number in the tree and the largest
    /// pre-order number of its subtree (`NONE` when unreachable).
    range: Vec<[u32; 2]>,
    child_start: Vec<u32>,
    children: Vec<u32>,
    /// Scratch: dominators by RPO position.
    doms: Vec<u32>,
    stack: Vec<(u32, u32)>,
    lt: LtScratch,
}

/// Scratch of [`DomTree::lengauer_tarjan`], indexed by DFS pre-order number
/// (`pre` by block).
#[derive(Clone, Debug, Default)]
struct LtScratch {
    pre: Vec<u32>,
    vertex: Vec<u32>,
    parent: Vec<u32>,
    semi: Vec<u32>,
    label: Vec<u32>,
    ancestor: Vec<u32>,
    idom: Vec<u32>,
    /// Buckets: the first vertex whose semidominator each vertex is, and
    /// the next in the same bucket.
    head: Vec<u32>,
    next: Vec<u32>,
    stack: Vec<(u32, u32)>,
    path: Vec<u32>,
}

impl DomTree {
    pub fn new() -> DomTree {
        DomTree::default()
    }

    pub fn compute(cfg: &Cfg) -> DomTree {
        let mut d = DomTree::new();
        d.recompute(cfg);
        d
    }

    /// Recomputes the tree of `cfg` into this one's buffers.
    pub fn recompute(&mut self, cfg: &Cfg) {
        self.recompute_with_budget(cfg, 8 * (cfg.preds.len() + cfg.rpo.len()) + 1024);
    }

    /// [`DomTree::recompute`], the iterative algorithm allowed `budget`
    /// steps up the tree before Lengauer–Tarjan takes over.
    fn recompute_with_budget(&mut self, cfg: &Cfg, mut budget: usize) {
        let n = cfg.num_blocks();
        let r = cfg.rpo.len();
        let doms = &mut self.doms;
        doms.clear();
        doms.resize(r, NONE);
        if r > 0 {
            doms[0] = 0;
        }
        // One pass in reverse post-order ignores the back edges (their
        // sources are not numbered yet) and yields the dominators of the
        // forward graph. Those are the dominators of the whole graph when
        // every back edge targets an ancestor of its source in that tree: a
        // further pass would intersect each block's dominator with a
        // descendant and change nothing. Otherwise (irreducible flow) the
        // passes go on until nothing changes.
        let mut back_edges = false;
        let mut changed = r > 1;
        let mut first = true;
        'passes: while changed {
            changed = false;
            for i in 1..r {
                let b = cfg.rpo[i] as usize;
                let mut new = NONE;
                for &p in &cfg.preds[cfg.pred_start[b] as usize..cfg.pred_start[b + 1] as usize] {
                    let pi = cfg.rpo_num[p as usize];
                    if pi == NONE {
                        continue;
                    }
                    if pi as usize >= i {
                        back_edges = true;
                    }
                    if doms[pi as usize] == NONE {
                        continue;
                    }
                    new = if new == NONE {
                        pi
                    } else {
                        let (mut x, mut y) = (pi, new);
                        while x != y {
                            while x > y {
                                x = doms[x as usize];
                                budget = budget.saturating_sub(1);
                            }
                            while y > x {
                                y = doms[y as usize];
                                budget = budget.saturating_sub(1);
                            }
                        }
                        if budget == 0 {
                            Self::lengauer_tarjan(cfg, doms, &mut self.lt);
                            break 'passes;
                        }
                        x
                    };
                }
                if doms[i] != new {
                    doms[i] = new;
                    changed = true;
                }
            }
            if first && changed {
                first = false;
                changed = back_edges && !Self::back_edges_target_ancestors(cfg, doms);
            }
        }

        self.idom.clear();
        self.idom.resize(n, NONE);
        for (&b, &d) in cfg.rpo[..r].iter().zip(&doms[..r]) {
            self.idom[b as usize] = cfg.rpo[d as usize];
        }

        // Children of each block, in RPO order, by counting sort.
        self.child_start.clear();
        self.child_start.resize(n + 1, 0);
        for &b in cfg.rpo.iter().skip(1) {
            self.child_start[self.idom[b as usize] as usize + 1] += 1;
        }
        for i in 0..n {
            self.child_start[i + 1] += self.child_start[i];
        }
        self.children.clear();
        self.children.resize(r.saturating_sub(1), 0);
        for &b in cfg.rpo.iter().skip(1) {
            let p = self.idom[b as usize] as usize;
            self.children[self.child_start[p] as usize] = b;
            self.child_start[p] += 1;
        }
        for i in (0..n).rev() {
            self.child_start[i + 1] = self.child_start[i];
        }
        if n > 0 {
            self.child_start[0] = 0;
        }

        // Pre-order numbers and subtree extents.
        self.range.clear();
        self.range.resize(n, [NONE, NONE]);
        self.stack.clear();
        if r == 0 {
            return;
        }
        let mut counter = 0u32;
        let entry = cfg.rpo[0];
        self.range[entry as usize][0] = counter;
        counter += 1;
        self.stack.push((entry, self.child_start[entry as usize]));
        while let Some(top) = self.stack.last_mut() {
            let (b, next) = *top;
            if next < self.child_start[b as usize + 1] {
                top.1 += 1;
                let c = self.children[next as usize];
                self.range[c as usize][0] = counter;
                counter += 1;
                self.stack.push((c, self.child_start[c as usize]));
            } else {
                self.range[b as usize][1] = counter - 1;
                self.stack.pop();
            }
        }
    }

    /// The dominators of `cfg` by Lengauer and Tarjan's algorithm with path
    /// compression (the simple version: O(m log n)), written into `doms` by
    /// RPO position as the iterative algorithm leaves them. Every walk is a
    /// loop over an explicit stack.
    fn lengauer_tarjan(cfg: &Cfg, doms: &mut [u32], lt: &mut LtScratch) {
        let n = cfg.num_blocks();
        let r = cfg.rpo.len();
        if r == 0 {
            return;
        }
        let LtScratch { pre, vertex, parent, semi, label, ancestor, idom, head, next, stack, path } = lt;
        // Depth-first pre-order numbers, and each vertex's tree parent.
        pre.clear();
        pre.resize(n, NONE);
        vertex.clear();
        parent.clear();
        stack.clear();
        let entry = cfg.rpo[0];
        pre[entry as usize] = 0;
        vertex.push(entry);
        parent.push(NONE);
        stack.push((entry, 0));
        while let Some(top) = stack.last_mut() {
            let (b, k) = *top;
            let succs = &cfg.succs[cfg.succ_start[b as usize] as usize..cfg.succ_start[b as usize + 1] as usize];
            if (k as usize) < succs.len() {
                top.1 += 1;
                let s = succs[k as usize];
                if pre[s as usize] == NONE {
                    pre[s as usize] = vertex.len() as u32;
                    parent.push(pre[b as usize]);
                    vertex.push(s);
                    stack.push((s, 0));
                }
            } else {
                stack.pop();
            }
        }
        let m = vertex.len();
        semi.clear();
        semi.extend(0..m as u32);
        label.clear();
        label.extend(0..m as u32);
        ancestor.clear();
        ancestor.resize(m, NONE);
        idom.clear();
        idom.resize(m, 0);
        head.clear();
        head.resize(m, NONE);
        next.clear();
        next.resize(m, NONE);
        // The vertex of least semidominator on the compressed path from `v`
        // up to the root of its tree in the forest.
        let eval = |v: u32, ancestor: &mut Vec<u32>, label: &mut Vec<u32>, semi: &Vec<u32>, path: &mut Vec<u32>| {
            if ancestor[v as usize] == NONE {
                return v;
            }
            path.clear();
            let mut x = v;
            while ancestor[ancestor[x as usize] as usize] != NONE {
                path.push(x);
                x = ancestor[x as usize];
            }
            while let Some(y) = path.pop() {
                let a = ancestor[y as usize];
                if semi[label[a as usize] as usize] < semi[label[y as usize] as usize] {
                    label[y as usize] = label[a as usize];
                }
                ancestor[y as usize] = ancestor[a as usize];
            }
            label[v as usize]
        };
        for w in (1..m).rev() {
            let b = vertex[w] as usize;
            for &p in &cfg.preds[cfg.pred_start[b] as usize..cfg.pred_start[b + 1] as usize] {
                let v = pre[p as usize];
                if v == NONE {
                    continue;
                }
                let u = eval(v, ancestor, label, semi, path);
                if semi[u as usize] < semi[w] {
                    semi[w] = semi[u as usize];
                }
            }
            let s = semi[w] as usize;
            next[w] = head[s];
            head[s] = w as u32;
            let pw = parent[w];
            ancestor[w] = pw;
            let mut v = std::mem::replace(&mut head[pw as usize], NONE);
            while v != NONE {
                let after = next[v as usize];
                let u = eval(v, ancestor, label, semi, path);
                idom[v as usize] = if semi[u as usize] < semi[v as usize] { u } else { pw };
                v = after;
            }
        }
        for w in 1..m {
            if idom[w] != semi[w] {
                idom[w] = idom[idom[w] as usize];
            }
        }
        for w in 1..m {
            let b = vertex[w] as usize;
            let d = vertex[idom[w] as usize] as usize;
            doms[cfg.rpo_num[b] as usize] = cfg.rpo_num[d];
        }
    }

    /// Whether every edge to a block no later in reverse post-order goes
    /// from a block its target dominates in the tree `doms` (by RPO position).
    fn back_edges_target_ancestors(cfg: &Cfg, doms: &[u32]) -> bool {
        for (i, &b) in cfg.rpo.iter().enumerate() {
            let b = b as usize;
            for &p in &cfg.preds[cfg.pred_start[b] as usize..cfg.pred_start[b + 1] as usize] {
                let mut x = cfg.rpo_num[p as usize];
                if x == NONE || (x as usize) < i {
                    continue;
                }
                while x as usize > i {
                    let up = doms[x as usize];
                    if up == NONE || up >= x {
                        return false;
                    }
                    x = up;
                }
                if x as usize != i {
                    return false;
                }
            }
        }
        true
    }

    /// The immediate dominator of `b`; `None` for the entry block and for
    /// unreachable blocks.
    #[inline]
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        let d = *self.idom.get(b.index())?;
        (d != NONE && d as usize != b.index()).then(|| BlockId::from_u32(d))
    }

    /// Whether `b` is in the tree (reachable from the entry).
    #[inline]
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.range.get(b.index()).is_some_and(|r| r[0] != NONE)
    }

    /// Whether `a` dominates `b` (every block dominates itself). O(1).
    #[inline]
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        match (self.range.get(a.index()), self.range.get(b.index())) {
            (Some(ra), Some(rb)) => ra[0] != NONE && ra[0] <= rb[0] && rb[0] <= ra[1],
            _ => false,
        }
    }

    /// The pre-order number of `b` in the tree and the largest pre-order
    /// number of its subtree: `a` dominates `b` iff `b`'s number lies in
    /// `a`'s range. `[u32::MAX; 2]` for an unreachable or unknown block.
    #[inline]
    pub fn preorder_range(&self, b: BlockId) -> [u32; 2] {
        self.range.get(b.index()).copied().unwrap_or([NONE, NONE])
    }

    /// Whether `a` dominates `b` and differs from it.
    #[inline]
    pub fn strictly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The children of `b` in the tree, in reverse post-order.
    pub fn children(&self, b: BlockId) -> impl ExactSizeIterator<Item = BlockId> + '_ {
        let i = b.index();
        let (s, e) = match (self.child_start.get(i), self.child_start.get(i + 1)) {
            (Some(&s), Some(&e)) => (s as usize, e as usize),
            _ => (0, 0),
        };
        self.children[s..e].iter().map(|&x| BlockId::from_u32(x))
    }

    /// Whether the definition `def` in block `def_block` dominates a use by
    /// instruction `user` in block `use_block`: the blocks dominate strictly,
    /// or they are the same block and `def` comes first.
    #[inline]
    pub fn def_dominates_use(&self, def_block: BlockId, def: ValueId, use_block: BlockId, user: ValueId) -> bool {
        if def_block == use_block {
            def < user && self.is_reachable(use_block)
        } else {
            self.dominates(def_block, use_block)
        }
    }

    /// Whether the instruction defining `def` dominates the instruction
    /// `user` of `body` (parameters dominate everything). Finds the blocks
    /// by binary search; callers that know them use
    /// [`DomTree::def_dominates_use`].
    pub fn value_dominates(&self, body: &Body, def: ValueId, user: ValueId) -> bool {
        if def.as_u32() < body.num_params + body.num_core {
            return true;
        }
        match (body.block_of(def), body.block_of(user)) {
            (Some(db), Some(ub)) => self.def_dominates_use(db, def, ub, user),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::FunctionBuilder;
    use crate::module::Function;
    use crate::types::TypeId;

    fn bid(i: u32) -> BlockId {
        BlockId::from_u32(i)
    }

    /// Builds a function whose block `i` branches to `edges[i]` (no
    /// successors: return; one: br; two: condbr on a Bool parameter).
    fn graph(edges: &[&[u32]]) -> Function {
        let mut b = FunctionBuilder::new("g");
        let c = b.param("c", TypeId::BOOL);
        let blocks: Vec<BlockId> = (0..edges.len()).map(|i| b.create_block(&format!("b{i}"))).collect();
        for (i, succ) in edges.iter().enumerate() {
            b.switch_to(blocks[i]);
            match succ {
                [] => {
                    b.ret(None);
                }
                [t] => {
                    b.br(blocks[*t as usize]);
                }
                [t, f] => {
                    b.condbr(c, blocks[*t as usize], blocks[*f as usize], None);
                }
                _ => unreachable!(),
            }
        }
        b.finish()
    }

    fn idoms(d: &DomTree, n: u32) -> Vec<Option<u32>> {
        (0..n).map(|i| d.idom(bid(i)).map(|x| x.as_u32())).collect()
    }

    #[test]
    fn diamond() {
        let f = graph(&[&[1, 2], &[3], &[3], &[]]);
        let cfg = Cfg::compute(&f.body);
        assert_eq!(cfg.succs_raw(bid(0)), &[1, 2]);
        assert_eq!(cfg.preds_raw(bid(3)), &[1, 2]);
        assert_eq!(cfg.rpo_raw()[0], 0);
        assert_eq!(cfg.rpo_raw()[3], 3);
        let d = DomTree::compute(&cfg);
        assert_eq!(idoms(&d, 4), vec![None, Some(0), Some(0), Some(0)]);
        assert!(d.dominates(bid(0), bid(3)));
        assert!(!d.dominates(bid(1), bid(3)));
        assert!(!d.dominates(bid(3), bid(0)));
        assert!(d.dominates(bid(2), bid(2)));
        assert!(!d.strictly_dominates(bid(2), bid(2)));
        assert_eq!(d.children(bid(0)).count(), 3);
    }

    #[test]
    fn loop_with_exit() {
        // 0 -> 1 (head) -> 2 (body) -> 1, head -> 3 (exit)
        let f = graph(&[&[1], &[2, 3], &[1], &[]]);
        let cfg = Cfg::compute(&f.body);
        assert_eq!(cfg.preds_raw(bid(1)), &[0, 2]);
        let d = DomTree::compute(&cfg);
        assert_eq!(idoms(&d, 4), vec![None, Some(0), Some(1), Some(1)]);
        assert!(d.dominates(bid(1), bid(2)));
        assert!(!d.dominates(bid(2), bid(1)));
        assert!(d.dominates(bid(0), bid(2)));
    }

    #[test]
    fn irreducible() {
        // 0 -> 1, 0 -> 2, 1 <-> 2, 2 -> 3: neither 1 nor 2 dominates the other.
        let f = graph(&[&[1, 2], &[2], &[1, 3], &[]]);
        let d = DomTree::compute(&Cfg::compute(&f.body));
        assert_eq!(idoms(&d, 4), vec![None, Some(0), Some(0), Some(2)]);
        assert!(!d.dominates(bid(1), bid(2)));
        assert!(!d.dominates(bid(2), bid(1)));
        assert!(d.dominates(bid(2), bid(3)));
        assert!(!d.dominates(bid(1), bid(3)));
    }

    #[test]
    fn unreachable_blocks() {
        // 2 is unreachable and branches into 1.
        let f = graph(&[&[1], &[], &[1]]);
        let cfg = Cfg::compute(&f.body);
        assert!(cfg.is_reachable(bid(1)));
        assert!(!cfg.is_reachable(bid(2)));
        assert_eq!(cfg.rpo_number(bid(2)), None);
        assert_eq!(cfg.num_reachable(), 2);
        assert_eq!(cfg.preds_raw(bid(1)), &[0, 2]);
        let d = DomTree::compute(&cfg);
        assert_eq!(idoms(&d, 3), vec![None, Some(0), None]);
        assert!(!d.dominates(bid(0), bid(2)));
        assert!(!d.dominates(bid(2), bid(1)));
        assert!(d.dominates(bid(2), bid(2)));
        assert!(!d.is_reachable(bid(2)));
    }

    #[test]
    fn self_loop() {
        let f = graph(&[&[1], &[1, 2], &[]]);
        let cfg = Cfg::compute(&f.body);
        assert_eq!(cfg.succs_raw(bid(1)), &[1, 2]);
        assert_eq!(cfg.preds_raw(bid(1)), &[0, 1]);
        let d = DomTree::compute(&cfg);
        assert_eq!(idoms(&d, 3), vec![None, Some(0), Some(1)]);
        // An entry block looping to itself.
        let f = graph(&[&[0, 1], &[]]);
        let d = DomTree::compute(&Cfg::compute(&f.body));
        assert_eq!(idoms(&d, 2), vec![None, Some(0)]);
    }

    #[test]
    fn instruction_dominance() {
        let mut b = FunctionBuilder::new("h");
        let p = b.param("p", TypeId::INT64);
        let e = b.create_block("entry");
        let x = b.create_block("x");
        b.switch_to(e);
        let one = b.int(TypeId::INT64, 1, "one");
        let two = b.int(TypeId::INT64, 2, "two");
        b.br(x);
        b.switch_to(x);
        let s = b.binary(crate::Opcode::Add, TypeId::INT64, one, two, "s");
        b.ret(None);
        let f = b.finish();
        let d = DomTree::compute(&Cfg::compute(&f.body));
        assert!(d.value_dominates(&f.body, one, two));
        assert!(!d.value_dominates(&f.body, two, one));
        assert!(!d.value_dominates(&f.body, one, one));
        assert!(d.value_dominates(&f.body, two, s));
        assert!(!d.value_dominates(&f.body, s, two));
        assert!(d.value_dominates(&f.body, p, one));
    }

    /// The one-pass shortcut for graphs whose back edges all go to an
    /// ancestor agrees with plain dataflow dominators on random graphs,
    /// irreducible ones included.
    #[test]
    fn random_graphs_match_dataflow_dominators() {
        let mut x: u32 = 0x9e37_79b9;
        let mut next = |m: u32| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % m
        };
        for round in 0..600 {
            let n = 1 + next(if round < 300 { 12 } else { 31 }) as usize;
            let edges: Vec<Vec<u32>> = (0..n)
                .map(|i| match next(4) {
                    0 if i + 1 < n => vec![],
                    1 => vec![next(n as u32)],
                    _ => vec![next(n as u32), next(n as u32)],
                })
                .collect();
            let refs: Vec<&[u32]> = edges.iter().map(|e| e.as_slice()).collect();
            let f = graph(&refs);
            let cfg = Cfg::compute(&f.body);
            let d = DomTree::compute(&cfg);
            // With no budget, Lengauer–Tarjan computes every tree that has
            // a join.
            let mut lt = DomTree::new();
            lt.recompute_with_budget(&cfg, 0);
            // dom[b]: bit set of the blocks dominating b (reachable blocks only).
            let all = (1u32 << n) - 1;
            let mut dom: Vec<u32> = (0..n).map(|b| if b == 0 { 1 } else { all }).collect();
            let mut changed = true;
            while changed {
                changed = false;
                for b in 1..n {
                    if !cfg.is_reachable(bid(b as u32)) {
                        continue;
                    }
                    let mut m = all;
                    for p in cfg.preds(bid(b as u32)).filter(|p| cfg.is_reachable(*p)) {
                        m &= dom[p.index()];
                    }
                    let m = m | (1 << b);
                    if m != dom[b] {
                        dom[b] = m;
                        changed = true;
                    }
                }
            }
            for b in 0..n {
                for a in 0..n {
                    let expect = if cfg.is_reachable(bid(b as u32)) { dom[b] >> a & 1 == 1 } else { a == b };
                    assert_eq!(d.dominates(bid(a as u32), bid(b as u32)), expect, "{edges:?}: {a} dom {b}");
                    assert_eq!(lt.dominates(bid(a as u32), bid(b as u32)), expect, "LT {edges:?}: {a} dom {b}");
                }
            }
        }
    }

    /// The join of a chain of 20,000 conditional branches (the shape of
    /// `a and b and ...`): every block of the chain is dominated by the one
    /// before, the join by the entry only. The iterative algorithm's walks
    /// up the tree would take 2·10⁸ steps; Lengauer–Tarjan takes over.
    #[test]
    fn a_join_of_a_long_chain_is_dominated_by_the_entry() {
        let n = 20_000u32;
        let join = n;
        let edges: Vec<Vec<u32>> = (0..=n)
            .map(|i| {
                if i < join - 1 {
                    vec![i + 1, join]
                } else if i == join - 1 {
                    vec![join]
                } else {
                    vec![]
                }
            })
            .collect();
        let refs: Vec<&[u32]> = edges.iter().map(|e| e.as_slice()).collect();
        let f = graph(&refs);
        let cfg = Cfg::compute(&f.body);
        let d = DomTree::compute(&cfg);
        assert_eq!(d.idom(bid(join)), Some(bid(0)));
        for i in 1..join {
            assert_eq!(d.idom(bid(i)), Some(bid(i - 1)));
        }
        assert!(d.dominates(bid(n / 2), bid(n - 1)) && !d.dominates(bid(n / 2), bid(join)));
    }

    #[test]
    fn recompute_reuses_buffers_and_handles_empty() {
        let mut cfg = Cfg::new();
        let mut d = DomTree::new();
        cfg.recompute(&crate::Body::new());
        d.recompute(&cfg);
        assert_eq!(cfg.num_blocks(), 0);
        let f = graph(&[&[1, 2], &[3], &[3], &[]]);
        cfg.recompute(&f.body);
        d.recompute(&cfg);
        assert_eq!(idoms(&d, 4), vec![None, Some(0), Some(0), Some(0)]);
    }
}
