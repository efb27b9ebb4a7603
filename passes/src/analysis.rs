//! Analyses of one function, computed on demand and cached by the pass
//! manager until a pass that changed the function does not keep them.

use postc_ir::body::{Body, ValueId};
use postc_ir::cfg::{Cfg, DomTree};
use postc_ir::{EntityId, ValueSlots};

/// A set of analyses, as a pass declares what it needs and keeps.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct AnalysisSet(u8);

impl AnalysisSet {
    pub const NONE: AnalysisSet = AnalysisSet(0);
    pub const CFG: AnalysisSet = AnalysisSet(1);
    pub const DOMINATORS: AnalysisSet = AnalysisSet(2 | 1);
    pub const USES: AnalysisSet = AnalysisSet(4);
    /// Where fresh `$N` names start (see [`crate::rewrite::NameGen`]).
    pub const NAMES: AnalysisSet = AnalysisSet(8);
    pub const ALL: AnalysisSet = AnalysisSet(15);

    pub const fn union(self, o: AnalysisSet) -> AnalysisSet {
        AnalysisSet(self.0 | o.0)
    }
    pub fn contains(self, o: AnalysisSet) -> bool {
        self.0 & o.0 == o.0
    }
}

/// How many times each value is read (a `set` target counts as a read).
#[derive(Clone, Debug, Default)]
pub struct UseCounts {
    counts: Vec<u32>,
}

impl UseCounts {
    pub fn compute(body: &Body) -> UseCounts {
        let mut counts = Vec::new();
        Self::compute_into(body, &mut counts);
        UseCounts { counts }
    }

    /// [`UseCounts::compute`] into a reused buffer.
    pub fn compute_into(body: &Body, counts: &mut Vec<u32>) {
        let n = body.num_insts();
        counts.clear();
        // A last slot absorbs ids out of range, so the common formats count
        // their operands without a branch.
        counts.resize(n + 1, 0);
        let (tags, ops) = (body.tags.raw(), body.ops.raw());
        for b in body.blocks.iter() {
            let (s, e) = (b.start as usize, (b.end as usize).min(n));
            if s >= e {
                continue;
            }
            for (i, (tag, &[x, y])) in tags[s..e].iter().zip(&ops[s..e]).enumerate() {
                let slots = tag.value_slots();
                if slots == ValueSlots::Other {
                    body.for_each_operand(ValueId::new(s + i), |x| counts[x.index().min(n)] += 1);
                    continue;
                }
                counts[(x as usize).min(n)] += (slots != ValueSlots::None) as u32;
                counts[(y as usize).min(n)] += (slots == ValueSlots::AB) as u32;
            }
        }
        counts.truncate(n);
    }
    pub fn as_slice(&self) -> &[u32] {
        &self.counts
    }
    pub fn get(&self, v: ValueId) -> u32 {
        self.counts.get(v.index()).copied().unwrap_or(0)
    }
}

thread_local! {
    /// Graphs whose buffers are reused by the next function on this thread.
    static SPARE_CFGS: std::cell::RefCell<Vec<Cfg>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The graph of `body`, in the buffers of a spare one if there is one.
fn pooled_cfg(body: &Body) -> Cfg {
    let mut cfg = SPARE_CFGS.with(|s| s.borrow_mut().pop()).unwrap_or_default();
    cfg.recompute(body);
    cfg
}

/// Gives a graph's buffers back for reuse on this thread.
pub(crate) fn recycle_cfg(cfg: Cfg) {
    SPARE_CFGS.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < 2 {
            s.push(cfg);
        }
    });
}

/// The analysis cache of one function.
#[derive(Default)]
pub struct Analyses {
    cfg: Option<Cfg>,
    dom: Option<DomTree>,
    uses: Option<UseCounts>,
    /// The first free `N` of fresh `BASE$N` names: a pass that adds names
    /// knows the next one without reading the name pool again.
    names: Option<u64>,
}

impl Analyses {
    /// Computes what `needs` asks for and is not cached.
    pub fn prepare(&mut self, needs: AnalysisSet, body: &Body) {
        if needs.contains(AnalysisSet::CFG) && self.cfg.is_none() {
            self.cfg = Some(pooled_cfg(body));
        }
        if needs.contains(AnalysisSet::DOMINATORS) && self.dom.is_none() {
            let cfg = self.cfg.get_or_insert_with(|| pooled_cfg(body));
            self.dom = Some(DomTree::compute(cfg));
        }
        if needs.contains(AnalysisSet::USES) && self.uses.is_none() {
            self.uses = Some(UseCounts::compute(body));
        }
    }

    /// Drops every cached analysis not in `keep`.
    pub fn invalidate_except(&mut self, keep: AnalysisSet) {
        if !keep.contains(AnalysisSet::CFG) {
            self.invalidate_cfg();
        }
        if !keep.contains(AnalysisSet::DOMINATORS) {
            self.dom = None;
        }
        if !keep.contains(AnalysisSet::USES) {
            self.uses = None;
        }
        if !keep.contains(AnalysisSet::NAMES) {
            self.names = None;
        }
    }

    pub fn cfg(&mut self, body: &Body) -> &Cfg {
        self.cfg.get_or_insert_with(|| pooled_cfg(body))
    }

    /// Drops the graph and the dominators, for a pass that keeps
    /// [`AnalysisSet::CFG`] but changed the control flow this time.
    pub fn invalidate_cfg(&mut self) {
        self.dom = None;
        if let Some(cfg) = self.cfg.take() {
            recycle_cfg(cfg);
        }
    }

    pub fn dom(&mut self, body: &Body) -> &DomTree {
        let cfg = self.cfg.get_or_insert_with(|| pooled_cfg(body));
        self.dom.get_or_insert_with(|| DomTree::compute(cfg))
    }
    /// The first `N` that [`crate::rewrite::NameGen::new`] would give.
    pub fn name_start(&mut self, body: &Body) -> u64 {
        *self.names.get_or_insert_with(|| crate::rewrite::NameGen::new(body).peek())
    }

    /// [`Analyses::name_start`] if known, without computing it.
    pub fn known_name_start(&self) -> Option<u64> {
        self.names
    }

    /// Records the first free `N` of the body as a pass left it (`None`:
    /// unknown), for a pass that keeps [`AnalysisSet::NAMES`].
    pub fn set_name_start(&mut self, next: Option<u64>) {
        self.names = next;
    }

    /// The use counts if cached, without computing them.
    pub fn known_uses(&self) -> Option<&UseCounts> {
        self.uses.as_ref()
    }

    pub fn uses(&mut self, body: &Body) -> &UseCounts {
        self.uses.get_or_insert_with(|| UseCounts::compute(body))
    }
}

impl Drop for Analyses {
    fn drop(&mut self) {
        if let Some(cfg) = self.cfg.take() {
            recycle_cfg(cfg);
        }
    }
}
