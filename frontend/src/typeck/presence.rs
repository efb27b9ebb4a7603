//! Where a local that may be `None` is known to hold a number: one
//! forward pass over the body's statements, in the order the lowering
//! walks them, that keeps the set of such locals known present, as the
//! lowering's `FnLower::present` does (see `lower::maybe_none`): a test
//! (`x is not None`, `x is None`, `x != None`, `x == None`, `x` alone,
//! `not`, `and`, `or`) adds the locals it proves to the arm it guards, a
//! binding of a number adds its local and one of what may be `None`
//! removes it, an `if` joins the ends of its arms that fall through, an
//! `assert` adds what its test proves, and a loop starts with what was
//! known before it less what its body may bind to what may be `None`,
//! runs its `else` from there, and ends with what both the end of its
//! `else` and each of its `break`s know.
//!
//! The pass errs towards presence wherever it cannot follow the lowering
//! exactly (a value whose binding may fail, an arm whose end it does not
//! know to be reached), so that a read it finds may be `None` is one the
//! lowering finds may be too: the typecheck reports only those.

use super::*;
use crate::hir::IfArm;
use std::collections::HashSet;

/// The locals known to hold a number.
type Known = HashSet<LocalId>;

/// The reads of locals that may be `None` (each a `Name` expression)
/// where they may be `None`: `maybe` are the locals that may be `None`
/// (the lowering's, or fewer), `returns_maybe_none` says whether a call's
/// callee returns `T | None` (as the lowering says, or less often).
pub(crate) fn absent_reads(
    body: &Body,
    maybe: &ArenaMap<LocalId, ()>,
    returns_maybe_none: &dyn Fn(ExprId) -> bool,
) -> ArenaMap<ExprId, ()> {
    let mut pass = Pass { body, maybe, returns_maybe_none, absent: ArenaMap::default(), breaks: Vec::new() };
    let mut known = Known::new();
    pass.block(&body.top, &mut known);
    pass.absent
}

/// The locals of `body` that may be `None`, as the lowering's
/// `maybe_none_locals` finds them: the parameters annotated so (`params`),
/// and every local bound anywhere to `None`, to a call whose result may be
/// `None`, to another such local or to a conditional expression with an
/// arm (not a name) that is one of these; a parameter only as annotated,
/// a poisoned local never.
pub(crate) fn maybe_none_locals(
    body: &Body,
    params: &dyn Fn(LocalId) -> bool,
    returns_maybe_none: &dyn Fn(ExprId) -> bool,
) -> ArenaMap<LocalId, ()> {
    let mut found = ArenaMap::default();
    for (id, local) in body.locals.iter() {
        if local.kind == LocalKind::Param && params(id) {
            found.insert(id, ());
        }
    }
    loop {
        let mut grew = false;
        for_each_binding(body, &body.top, &mut |target, value| {
            let Expr::Name(Name::Local(id)) = body.exprs[target] else { return };
            let local = &body.locals[id];
            let allowed = match local.kind {
                LocalKind::Param => params(id),
                LocalKind::Poisoned => false,
                _ => true,
            };
            if allowed && found.get(id).is_none() && statically_maybe_none(body, value, &found, returns_maybe_none) {
                found.insert(id, ());
                grew = true;
            }
        });
        if !grew {
            return found;
        }
    }
}

/// Calls `f` with the target and the value of every assignment in
/// `stmts`, nested blocks included (those of refused statements too):
/// `target = value`, `target: T = value`, and a `for` loop's target with
/// its iterable (the lowering's `for_each_assignment`).
fn for_each_binding(body: &Body, stmts: &[StmtId], f: &mut dyn FnMut(ExprId, ExprId)) {
    let mut pending: Vec<&[StmtId]> = vec![stmts];
    while let Some(block) = pending.pop() {
        for &s in block {
            match &body.stmts[s] {
                Stmt::Assign { targets, value } => targets.iter().for_each(|&t| f(t, *value)),
                &Stmt::AnnAssign { target, value: Some(value), .. } => f(target, value),
                Stmt::For { target, iter, body: inner, orelse, .. } => {
                    f(*target, *iter);
                    pending.extend([&inner[..], &orelse[..]]);
                }
                Stmt::While { body: inner, orelse, .. } => pending.extend([&inner[..], &orelse[..]]),
                Stmt::If { arms } => pending.extend(arms.iter().map(|a| &a.body[..])),
                Stmt::Refused { blocks, .. } => pending.extend(blocks.iter().map(|b| &b[..])),
                _ => {}
            }
        }
    }
}

/// Whether `value` may be `None` whatever is known where it is (the
/// lowering's `may_be_none`): `None`, a call that may return it, a local
/// that may hold it, a conditional expression with an arm, not a name,
/// that is one of these.
fn statically_maybe_none(
    body: &Body,
    value: ExprId,
    locals: &ArenaMap<LocalId, ()>,
    returns_maybe_none: &dyn Fn(ExprId) -> bool,
) -> bool {
    let mut pending = vec![(value, true)];
    while let Some((e, names_count)) = pending.pop() {
        let maybe = match &body.exprs[e] {
            Expr::None => true,
            Expr::Name(Name::Local(id)) => names_count && locals.get(*id).is_some(),
            Expr::Call { func, .. } => returns_maybe_none(*func),
            &Expr::If { body: then, orelse, .. } => {
                pending.extend([(then, false), (orelse, false)]);
                false
            }
            _ => false,
        };
        if maybe {
            return true;
        }
    }
    false
}

/// What a condition proves of the locals that may be `None`: those known
/// present where it is true and where it is false.
#[derive(Default)]
struct Facts {
    when_true: Known,
    when_false: Known,
}

struct Pass<'a> {
    body: &'a Body,
    maybe: &'a ArenaMap<LocalId, ()>,
    returns_maybe_none: &'a dyn Fn(ExprId) -> bool,
    absent: ArenaMap<ExprId, ()>,
    /// What was known at each `break` of each enclosing loop, innermost
    /// last.
    breaks: Vec<Vec<Known>>,
}

impl Pass<'_> {
    /// What is known after a loop: what its end by its test (`normal`,
    /// after its `else`; `None` where that end is not reached) and each of
    /// its `break`s know, as the lowering's `loop_end`; whether any is
    /// reached.
    fn loop_end(normal: Option<Known>, breaks: Vec<Known>, known: &mut Known) -> bool {
        let mut ends = normal.into_iter().chain(breaks);
        let Some(first) = ends.next() else { return false };
        *known = ends.fold(first, |acc, k| acc.intersection(&k).copied().collect());
        true
    }

    fn is_maybe(&self, id: LocalId) -> bool {
        self.maybe.get(id).is_some()
    }

    /// Every local that may be `None`: what is known where nothing
    /// reaches (the most, so that nothing there is reported).
    fn everything(&self) -> Known {
        self.maybe.iter().map(|(id, _)| id).collect()
    }

    /// The lowering's `facts_of`.
    fn facts(&self, e: ExprId) -> Facts {
        let body = self.body;
        // `not`, `and` and `or` nest as deep as the source.
        deep(|| match &body.exprs[e] {
            Expr::Compare { ops, operands }
                if ops.len() == 1 && crate::lower::maybe_none::none_test(ops[0]).is_some() =>
            {
                let tested = match (&body.exprs[operands[0]], &body.exprs[operands[1]]) {
                    (Expr::Name(Name::Local(id)), Expr::None) | (Expr::None, Expr::Name(Name::Local(id))) => *id,
                    _ => return Facts::default(),
                };
                if !self.is_maybe(tested) {
                    return Facts::default();
                }
                let known = Known::from([tested]);
                if crate::lower::maybe_none::none_test(ops[0]) == Some(true) {
                    Facts { when_true: known, when_false: Known::new() }
                } else {
                    Facts { when_true: Known::new(), when_false: known }
                }
            }
            Expr::Name(Name::Local(id)) if self.is_maybe(*id) => {
                Facts { when_true: Known::from([*id]), when_false: Known::new() }
            }
            &Expr::UnaryOp { op: ast::UnaryOp::Not, operand } => {
                let f = self.facts(operand);
                Facts { when_true: f.when_false, when_false: f.when_true }
            }
            Expr::BoolOp { op, values } => {
                let parts: Vec<Facts> = values.iter().map(|&v| self.facts(v)).collect();
                let union = |sets: Vec<&Known>| sets.into_iter().flatten().copied().collect::<Known>();
                let meet = |sets: Vec<&Known>| {
                    let mut it = sets.into_iter();
                    let first = it.next().cloned().unwrap_or_default();
                    it.fold(first, |acc: Known, s| acc.intersection(s).copied().collect())
                };
                let trues: Vec<&Known> = parts.iter().map(|f| &f.when_true).collect();
                let falses: Vec<&Known> = parts.iter().map(|f| &f.when_false).collect();
                if matches!(op, ast::BoolOp::And) {
                    Facts { when_true: union(trues), when_false: meet(falses) }
                } else {
                    Facts { when_true: meet(trues), when_false: union(falses) }
                }
            }
            _ => Facts::default(),
        })
    }

    /// Records the reads in `e` of locals that may be `None` where they
    /// may be, each operand of `and`/`or` and arm of a conditional
    /// expression knowing what the tests before it prove.
    fn expr(&mut self, e: ExprId, known: &Known) {
        let body = self.body;
        // Each expression with the index of what is known there; deep
        // expressions (a sum of 100,000 terms) share their parent's.
        let mut states: Vec<Known> = vec![known.clone()];
        let mut pending: Vec<(ExprId, usize)> = vec![(e, 0)];
        let mut children = Vec::new();
        while let Some((e, at)) = pending.pop() {
            match &body.exprs[e] {
                Expr::Name(Name::Local(id)) => {
                    if self.is_maybe(*id) && !states[at].contains(id) {
                        self.absent.insert(e, ());
                    }
                }
                Expr::BoolOp { op, values } => {
                    let mut now = states[at].clone();
                    pending.push((values[0], at));
                    for k in 1..values.len() {
                        let f = self.facts(values[k - 1]);
                        now.extend(if matches!(op, ast::BoolOp::And) { f.when_true } else { f.when_false });
                        states.push(now.clone());
                        pending.push((values[k], states.len() - 1));
                    }
                }
                &Expr::If { test, body: then, orelse } => {
                    let f = self.facts(test);
                    pending.push((test, at));
                    for (arm, more) in [(then, f.when_true), (orelse, f.when_false)] {
                        let mut now = states[at].clone();
                        now.extend(more);
                        states.push(now);
                        pending.push((arm, states.len() - 1));
                    }
                }
                _ => {
                    body.push_children(e, &mut children);
                    pending.extend(children.drain(..).map(|c| (c, at)));
                }
            }
        }
    }

    /// Whether the arm `e` may be `None` where `known` holds (the
    /// lowering's `arm_may_be_none`).
    fn arm_may_be_none(&self, e: ExprId, known: &Known) -> bool {
        deep(|| match &self.body.exprs[e] {
            Expr::None => true,
            Expr::Name(Name::Local(id)) => self.is_maybe(*id) && !known.contains(id),
            Expr::Call { func, .. } => (self.returns_maybe_none)(*func),
            &Expr::If { test, body, orelse } => {
                let f = self.facts(test);
                let with = |more: Known| known.iter().copied().chain(more).collect::<Known>();
                self.arm_may_be_none(body, &with(f.when_true)) || self.arm_may_be_none(orelse, &with(f.when_false))
            }
            _ => false,
        })
    }

    /// Binds the local `target` (if it may be `None`) to `value`: a value
    /// that may be `None` where it is makes it unknown, anything else
    /// known (a number, or what fails to bind, which the lowering leaves
    /// as it was).
    fn bind(&self, target: ExprId, value: Option<ExprId>, known: &mut Known) {
        let Expr::Name(Name::Local(id)) = self.body.exprs[target] else { return };
        if !self.is_maybe(id) {
            return;
        }
        match value {
            Some(v) if self.arm_may_be_none(v, known) => {
                known.remove(&id);
            }
            _ => {
                known.insert(id);
            }
        }
    }

    /// The locals that may be `None` which `stmts` may bind to what may
    /// be `None` (the lowering's `unnarrowed_in`).
    fn unnarrowed_in(&self, stmts: &[StmtId]) -> Known {
        let mut out = Known::new();
        for_each_binding(self.body, stmts, &mut |target, value| {
            if let Expr::Name(Name::Local(id)) = self.body.exprs[target] {
                if self.is_maybe(id) && statically_maybe_none(self.body, value, self.maybe, self.returns_maybe_none) {
                    out.insert(id);
                }
            }
        });
        out
    }

    /// Walks `stmts` from `known`, leaving in it what is known after them;
    /// whether their end may be reached (by falling through).
    fn block(&mut self, stmts: &[StmtId], known: &mut Known) -> bool {
        let mut reached = true;
        for &s in stmts {
            reached = deep(|| self.stmt(s, known));
        }
        reached
    }

    /// Walks the statement `s`; whether it may fall through (a statement
    /// after one that does not is still walked, as the lowering lowers it).
    fn stmt(&mut self, s: StmtId, known: &mut Known) -> bool {
        let body = self.body;
        match &body.stmts[s] {
            Stmt::Expr(e) => self.expr(*e, known),
            Stmt::Assign { targets, value } => {
                self.expr(*value, known);
                // A name assigned to is not read; a subscript's parts are.
                for &t in targets.iter() {
                    if !matches!(body.exprs[t], Expr::Name(_) | Expr::Tuple(_) | Expr::List(_)) {
                        self.expr(t, known);
                    }
                }
                let names = targets.iter().all(|&t| matches!(body.exprs[t], Expr::Name(_)));
                for &t in targets.iter() {
                    match &body.exprs[t] {
                        Expr::Tuple(elts) | Expr::List(elts) => elts.iter().for_each(|&e| self.bind(e, None, known)),
                        _ => self.bind(t, names.then_some(*value), known),
                    }
                }
            }
            Stmt::AnnAssign { target, value, .. } => {
                if let Some(v) = value {
                    self.expr(*v, known);
                    self.bind(*target, Some(*v), known);
                }
            }
            Stmt::AugAssign { target, value, .. } => {
                self.expr(*value, known);
                self.expr(*target, known);
                self.bind(*target, None, known);
            }
            Stmt::If { arms } => return self.if_(arms, known),
            Stmt::While { test, body: inner, orelse } => {
                for id in self.unnarrowed_in(inner) {
                    known.remove(&id);
                }
                let at_head = known.clone();
                self.expr(*test, known);
                let f = self.facts(*test);
                let mut inside = at_head.clone();
                inside.extend(f.when_true);
                self.breaks.push(Vec::new());
                self.block(inner, &mut inside);
                let breaks = self.breaks.pop().unwrap_or_default();
                *known = at_head;
                // `while True` ends only by a `break` (and may never end).
                let forever = body.always_true(*test);
                let normal = match forever {
                    true => None,
                    false => self.block(orelse, known).then(|| known.clone()),
                };
                return Self::loop_end(normal, breaks, known);
            }
            Stmt::For { target, iter, body: inner, orelse, .. } => {
                for id in self.unnarrowed_in(inner) {
                    known.remove(&id);
                }
                let at_head = known.clone();
                self.expr(*iter, known);
                let mut inside = at_head.clone();
                self.bind(*target, None, &mut inside);
                self.breaks.push(Vec::new());
                self.block(inner, &mut inside);
                let breaks = self.breaks.pop().unwrap_or_default();
                *known = at_head;
                let normal = self.block(orelse, known).then(|| known.clone());
                return Self::loop_end(normal, breaks, known);
            }
            Stmt::Return(value) => {
                if let Some(v) = value {
                    self.expr(*v, known);
                }
                return false;
            }
            Stmt::Raise { exc, cause } => {
                for e in [exc, cause].into_iter().flatten() {
                    self.expr(*e, known);
                }
                return false;
            }
            Stmt::Break => {
                if let Some(breaks) = self.breaks.last_mut() {
                    breaks.push(known.clone());
                }
                return false;
            }
            Stmt::Continue => return false,
            Stmt::Assert { test, msg } => {
                self.expr(*test, known);
                if let Some(m) = msg {
                    self.expr(*m, known);
                }
                known.extend(self.facts(*test).when_true);
            }
            Stmt::Refused { blocks, .. } => {
                for b in blocks.iter() {
                    self.block(b, known);
                }
            }
            Stmt::NestedFunction { .. } | Stmt::Global | Stmt::Import | Stmt::Pass => {}
        }
        true
    }

    /// `if`/`elif`/`else`: each arm from what its test (and the ones
    /// before, false) proves; after it, what the ends of the arms that may
    /// fall through all know (everything, where none does).
    fn if_(&mut self, arms: &[IfArm], known: &mut Known) -> bool {
        let mut ends: Vec<Known> = Vec::new();
        let mut now = known.clone();
        let mut has_else = false;
        for arm in arms {
            let Some(test) = arm.test else {
                has_else = true;
                let mut inside = now.clone();
                if self.block(&arm.body, &mut inside) {
                    ends.push(inside);
                }
                break;
            };
            self.expr(test, &now);
            let f = self.facts(test);
            let mut inside = now.clone();
            inside.extend(f.when_true);
            if self.block(&arm.body, &mut inside) {
                ends.push(inside);
            }
            now.extend(f.when_false);
        }
        if !has_else {
            ends.push(now);
        }
        let reached = !ends.is_empty();
        *known = match ends.split_first() {
            Some((first, rest)) => first.iter().filter(|n| rest.iter().all(|r| r.contains(*n))).copied().collect(),
            None => self.everything(),
        };
        reached
    }
}
