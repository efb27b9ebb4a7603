//! Where a local may be read before anything binds it on the path taken
//! (`if c: w = 1` then `return w`; a name bound late in a loop's body and
//! read early in it; a `for` loop's name read after a loop that may not
//! run), which CPython raises as `UnboundLocalError` when it happens: one
//! forward pass over the body's statements keeps the set of locals bound
//! on every path so far. An assignment, an annotated assignment with a
//! value, an augmented assignment and a `for` loop's target (in its body)
//! bind; an `if` joins the ends of its arms that fall through; a loop's
//! body starts with what was bound before it (its first run is the one
//! that has the least bound), and after it only that is known, with what
//! its `else` binds, met by what its `break`s had bound (a `while` whose
//! test is a true constant ends only by a `break`); `return`, `raise`,
//! `break` and `continue` end a path.
//!
//! The lowering checks each read found here when it runs and raises
//! CPython's `UnboundLocalError` (`lower::unbound`). A read in a
//! `prange` loop, or of a local a `prange` loop binds, is left out: its
//! iterations would share the flag. Locals that hold no value (a dtype, a
//! range) are left out too.

use super::*;

/// A set of locals, one bit each: copied at every branch and loop (in
/// place for a body of up to 128 locals).
#[derive(Clone, Default)]
struct Locals(smallvec::SmallVec<[u64; 2]>);

impl Locals {
    fn index(id: LocalId) -> (usize, u64) {
        let i = id.into_raw().into_u32() as usize;
        (i / 64, 1 << (i % 64))
    }

    fn insert(&mut self, id: LocalId) {
        let (word, bit) = Self::index(id);
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        self.0[word] |= bit;
    }

    fn contains(&self, id: LocalId) -> bool {
        let (word, bit) = Self::index(id);
        self.0.get(word).is_some_and(|w| w & bit != 0)
    }

    fn intersect(&mut self, other: &Locals) {
        self.0.truncate(other.0.len());
        for (w, o) in self.0.iter_mut().zip(&other.0) {
            *w &= o;
        }
    }
}

/// The locals bound on every path so far; `None` where no path runs.
type Bound = Option<Locals>;

/// The ends of the paths that meet after a statement.
type Ends = smallvec::SmallVec<[Bound; 4]>;

/// The message of a read of `name` where nothing bound it, CPython's.
pub(crate) fn unbound_read_error(name: &str) -> String {
    format!("UnboundLocalError: cannot access local variable '{name}' where it is not associated with a value")
}

/// The reads of locals of `body` that may happen before anything binds
/// them (see the module's header); `checked` says which locals are
/// checked at all.
pub(crate) fn maybe_unbound_reads(
    body: &Body,
    checked: &dyn Fn(LocalId) -> bool,
    parallel: &dyn Fn(ExprId) -> bool,
) -> ArenaMap<ExprId, ()> {
    let mut pass = Pass {
        body,
        checked,
        parallel_loop: parallel,
        out: ArenaMap::default(),
        breaks: Vec::new(),
        parallel: Locals::default(),
        scratch: Vec::new(),
    };
    // Most bodies have no `prange` loop.
    let has_prange = body.stmts.values().any(|s| matches!(s, Stmt::For { iter, .. } if parallel(*iter)));
    if has_prange {
        pass.parallel = pass.bound_in_parallel_loops();
    }
    let mut bound = Some(Locals::default());
    pass.block(&body.top, &mut bound);
    pass.out
}

struct Pass<'a> {
    body: &'a Body,
    checked: &'a dyn Fn(LocalId) -> bool,
    /// Whether a `for` loop's iterable is `prange(...)` (under any name).
    parallel_loop: &'a dyn Fn(ExprId) -> bool,
    out: ArenaMap<ExprId, ()>,
    /// What each enclosing loop's `break`s had bound, innermost last.
    breaks: Vec<Vec<Locals>>,
    /// The locals a `prange` loop binds.
    parallel: Locals,
    /// The expressions still to visit of [`Pass::reads`], kept for the
    /// next.
    scratch: Vec<ExprId>,
}

impl Pass<'_> {
    fn block(&mut self, stmts: &[StmtId], bound: &mut Bound) {
        for &s in stmts {
            // Blocks nest as deep as the source.
            deep(|| self.stmt(s, bound));
        }
    }

    fn stmt(&mut self, s: StmtId, bound: &mut Bound) {
        let body = self.body;
        match &body.stmts[s] {
            Stmt::Assign { targets, value } => {
                self.reads(*value, bound);
                targets.iter().for_each(|&t| self.target_reads(t, bound));
                targets.iter().for_each(|&t| self.bind(t, bound));
            }
            Stmt::AnnAssign { target, value, .. } => {
                if let Some(v) = value {
                    self.reads(*v, bound);
                    self.bind(*target, bound);
                }
            }
            Stmt::AugAssign { target, value, .. } => {
                // The target is read first (`x += 1` of an unbound `x`).
                self.reads(*target, bound);
                self.reads(*value, bound);
                self.bind(*target, bound);
            }
            Stmt::Expr(e) => self.reads(*e, bound),
            Stmt::Assert { test, msg } => {
                self.reads(*test, bound);
                if let Some(m) = msg {
                    self.reads(*m, bound);
                }
            }
            Stmt::Return(value) => {
                if let Some(v) = value {
                    self.reads(*v, bound);
                }
                *bound = None;
            }
            Stmt::Raise { exc, cause } => {
                exc.iter().chain(cause).for_each(|&e| self.reads(e, bound));
                *bound = None;
            }
            Stmt::Break => {
                if let (Some(b), Some(loop_breaks)) = (bound.take(), self.breaks.last_mut()) {
                    loop_breaks.push(b);
                }
            }
            Stmt::Continue => *bound = None,
            Stmt::If { arms } => {
                let mut ends: Ends = Ends::new();
                let mut rest = bound.clone();
                let mut has_else = false;
                for arm in arms.iter() {
                    match arm.test {
                        Some(t) => self.reads(t, &rest),
                        None => has_else = true,
                    }
                    let mut inner = rest.clone();
                    self.block(&arm.body, &mut inner);
                    ends.push(inner);
                }
                if !has_else {
                    ends.push(rest.take());
                }
                *bound = meet(ends);
            }
            Stmt::While { test, body: inner, orelse } => {
                self.reads(*test, bound);
                let forever = body.always_true(*test);
                let before = bound.clone();
                self.breaks.push(Vec::new());
                let mut run = before.clone();
                self.block(inner, &mut run);
                let breaks = self.breaks.pop().unwrap_or_default();
                // The test fails, and the `else` runs, with at least what
                // was bound before.
                let mut ends: Ends = breaks.into_iter().map(Some).collect();
                if !forever {
                    let mut rest = before;
                    self.block(orelse, &mut rest);
                    ends.push(rest);
                }
                *bound = meet(ends);
            }
            Stmt::For { target, iter, body: inner, orelse, .. } => {
                self.reads(*iter, bound);
                let parallel = (self.parallel_loop)(*iter);
                let before = bound.clone();
                self.breaks.push(Vec::new());
                let mut run = before.clone();
                self.target_reads(*target, &run);
                self.bind(*target, &mut run);
                if parallel {
                    // Its reads are not checked (see the module's header).
                    let saved = std::mem::take(&mut self.out);
                    self.block(inner, &mut run);
                    self.out = saved;
                } else {
                    self.block(inner, &mut run);
                }
                let breaks = self.breaks.pop().unwrap_or_default();
                let mut rest = before;
                self.block(orelse, &mut rest);
                let mut ends: Ends = breaks.into_iter().map(Some).collect();
                ends.push(rest);
                *bound = meet(ends);
            }
            // Not lowered: a refused statement's reads are the typecheck's
            // errors.
            Stmt::Refused { .. } | Stmt::Pass | Stmt::NestedFunction { .. } | Stmt::Global | Stmt::Import => {}
        }
    }

    /// Records the reads of locals in `e` that `bound` does not hold.
    fn reads(&mut self, e: ExprId, bound: &Bound) {
        let Some(bound) = bound else { return };
        let body = self.body;
        let mut pending = std::mem::take(&mut self.scratch);
        pending.push(e);
        while let Some(e) = pending.pop() {
            if let Expr::Name(Name::Local(id)) = body.exprs[e] {
                let local = &body.locals[id];
                if local.kind == LocalKind::Assigned
                    && !bound.contains(id)
                    && !self.parallel.contains(id)
                    && (self.checked)(id)
                {
                    self.out.insert(e, ());
                }
            }
            body.push_children(e, &mut pending);
        }
        self.scratch = pending;
    }

    /// The reads in the target `t` of an assignment: the bases and
    /// indices of what it stores into (`a[i] = v`).
    fn target_reads(&mut self, t: ExprId, bound: &Bound) {
        let mut pending = vec![t];
        while let Some(t) = pending.pop() {
            match &self.body.exprs[t] {
                Expr::Name(_) => {}
                Expr::Tuple(ts) | Expr::List(ts) => pending.extend(ts.iter().copied()),
                Expr::Starred(inner) => pending.push(*inner),
                _ => self.reads(t, bound),
            }
        }
    }

    /// Adds the locals `t` binds.
    fn bind(&self, t: ExprId, bound: &mut Bound) {
        let Some(bound) = bound else { return };
        for n in self.body.names_bound(t) {
            if let Expr::Name(Name::Local(id)) = self.body.exprs[n] {
                bound.insert(id);
            }
        }
    }

    /// The locals bound anywhere in the body of a `prange` loop (its
    /// target included).
    fn bound_in_parallel_loops(&self) -> Locals {
        let body = self.body;
        let mut out = Some(Locals::default());
        let mut pending: Vec<(StmtId, bool)> = body.top.iter().map(|&s| (s, false)).collect();
        while let Some((s, inside)) = pending.pop() {
            let stmt = &body.stmts[s];
            let inside = inside || matches!(stmt, Stmt::For { iter, .. } if (self.parallel_loop)(*iter));
            if inside {
                match stmt {
                    Stmt::Assign { targets, .. } => targets.iter().for_each(|&t| self.bind(t, &mut out)),
                    Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } | Stmt::For { target, .. } => {
                        self.bind(*target, &mut out)
                    }
                    _ => {}
                }
            }
            for b in parts_of(stmt).1 {
                pending.extend(b.iter().map(|&s| (s, inside)));
            }
        }
        out.unwrap_or_default()
    }
}

/// What every one of `ends` binds (the paths that reach a join); `None`
/// when none does.
fn meet(ends: Ends) -> Bound {
    let mut out: Bound = None;
    for end in ends.into_iter().flatten() {
        match &mut out {
            None => out = Some(end),
            Some(acc) => acc.intersect(&end),
        }
    }
    out
}
