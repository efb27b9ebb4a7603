//! Analyses of one function, computed on demand and cached by the pass
//! manager until a pass that changed the function does not keep them.

use crate::scratch::{Scratch, ScratchVec};
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
        let n = body.num_insts();
        let mut counts = vec![0; n + 1];
        Self::count(body, &mut counts);
        counts.truncate(n);
        UseCounts { counts }
    }

    /// [`UseCounts::compute`] into the worker's scratch memory.
    pub fn compute_in<'s>(body: &Body, scratch: &'s Scratch) -> ScratchVec<'s, u32> {
        let n = body.num_insts();
        let mut counts = scratch.filled(n + 1, 0);
        Self::count(body, &mut counts);
        counts.truncate(n);
        counts
    }

    /// Counts the reads of each value into `counts`, zeros with one slot
    /// more than the body has instructions: the last slot absorbs ids out
    /// of range, so the common formats count their operands without a
    /// branch.
    fn count(body: &Body, counts: &mut [u32]) {
        let n = body.num_insts();
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
    }
    pub fn as_slice(&self) -> &[u32] {
        &self.counts
    }
    pub fn get(&self, v: ValueId) -> u32 {
        self.counts.get(v.index()).copied().unwrap_or(0)
    }
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
    /// Graphs whose buffers the next graph reuses: a worker's, lent for
    /// the function (see [`crate::scratch::Scratch`]).
    spare_cfgs: Vec<Cfg>,
}

/// The graph of `body`, in the buffers of a spare one if there is one.
fn pooled_cfg(spares: &mut Vec<Cfg>, body: &Body) -> Cfg {
    let mut cfg = spares.pop().unwrap_or_default();
    cfg.recompute(body);
    cfg
}

impl Analyses {
    /// An empty cache whose graphs reuse the buffers of `spare_cfgs`.
    pub fn with_spare_cfgs(spare_cfgs: Vec<Cfg>) -> Analyses {
        Analyses { spare_cfgs, ..Analyses::default() }
    }

    /// The graphs' buffers, for the next function.
    pub fn into_spare_cfgs(mut self) -> Vec<Cfg> {
        self.invalidate_cfg();
        std::mem::take(&mut self.spare_cfgs)
    }

    /// Computes what `needs` asks for and is not cached.
    pub fn prepare(&mut self, needs: AnalysisSet, body: &Body) {
        if needs.contains(AnalysisSet::CFG) && self.cfg.is_none() {
            self.cfg = Some(pooled_cfg(&mut self.spare_cfgs, body));
        }
        if needs.contains(AnalysisSet::DOMINATORS) && self.dom.is_none() {
            let cfg = self.cfg.get_or_insert_with(|| pooled_cfg(&mut self.spare_cfgs, body));
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
        self.cfg.get_or_insert_with(|| pooled_cfg(&mut self.spare_cfgs, body))
    }

    /// Drops the graph and the dominators, for a pass that keeps
    /// [`AnalysisSet::CFG`] but changed the control flow this time.
    pub fn invalidate_cfg(&mut self) {
        self.dom = None;
        if let Some(cfg) = self.cfg.take() {
            self.spare_cfgs.push(cfg);
        }
    }

    pub fn dom(&mut self, body: &Body) -> &DomTree {
        let cfg = self.cfg.get_or_insert_with(|| pooled_cfg(&mut self.spare_cfgs, body));
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
