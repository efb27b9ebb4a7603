//! Locals read before anything assigns them (CPython's
//! `UnboundLocalError`):
//! - a local only updated (`total *= 2`): each read and each update
//!   refused, found from the body's stores before the sweep;
//! - after a sweep that reported nothing, a local whose bindings read one
//!   another before any assigns it (`x, y = y, x` of two locals nothing
//!   else binds), which no binding types: its first read refused (as a
//!   read of `None` where a binding gives it `None`: `s = None` then
//!   `s = s * 0.5 + x`).

use super::*;

/// A read of the local `name`, which nothing assigns.
pub(crate) fn unassigned_error(name: &str) -> String {
    format!("`{name}` is used before it is assigned")
}

impl Solver<'_> {
    /// The locals of the body whose every store is an update (see the
    /// module's header): not a target of an assignment (a tuple's
    /// element included) or a `for` loop, named in no refused statement
    /// or expression (which may bind it), and bound to no dtype, range or
    /// list, nor annotated.
    pub(super) fn never_assigned(&self) -> ArenaMap<LocalId, ()> {
        let body = self.body;
        // Most bodies update no name: nothing to find.
        let updates_a_name = body
            .stmts
            .values()
            .any(|s| matches!(s, Stmt::AugAssign { target, .. } if self.local_of(*target).is_some()));
        if !updates_a_name {
            return ArenaMap::default();
        }
        let mut updated: ArenaMap<LocalId, ()> = ArenaMap::default();
        let mut assigned: ArenaMap<LocalId, ()> = ArenaMap::default();
        let mut pending: Vec<ExprId> = Vec::new();
        for s in body.stmts.values() {
            match s {
                Stmt::AugAssign { target, .. } => {
                    if let Some(id) = self.local_of(*target) {
                        updated.insert(id, ());
                    }
                }
                Stmt::Assign { targets, .. } => pending.extend(targets.iter().copied()),
                Stmt::AnnAssign { target, .. } | Stmt::For { target, .. } => pending.push(*target),
                Stmt::Refused { exprs, .. } => pending.extend(exprs.iter().copied()),
                _ => {}
            }
        }
        for (e, x) in body.exprs.iter() {
            if let Expr::Refused { .. } = x {
                pending.push(e);
            }
        }
        let mut children = Vec::new();
        while let Some(e) = pending.pop() {
            if let Some(id) = self.local_of(e) {
                assigned.insert(id, ());
            }
            body.push_children(e, &mut children);
            pending.append(&mut children);
        }
        (updated.iter())
            .filter(|(id, _)| {
                let st = &self.states[*id];
                body.locals[*id].kind == LocalKind::Assigned
                    && assigned.get(*id).is_none()
                    && st.dtype.is_none()
                    && st.range.is_none()
                    && st.list.is_none()
                    && st.annotation.is_none()
            })
            .map(|(id, _)| (id, ()))
            .collect()
    }

    /// Refuses `x op= value` (the statement `s`) of a local nothing
    /// assigns; whether it did.
    pub(super) fn check_unassigned_update(&self, s: StmtId) -> bool {
        let Stmt::AugAssign { target, .. } = &self.body.stmts[s] else { return false };
        let Some(id) = self.local_of(*target).filter(|id| self.never_assigned.get(*id).is_some()) else {
            return false;
        };
        self.refuse_statement(s, self.body.expr_ranges[*target], unassigned_error(&self.body.locals[id].name));
        true
    }
}

impl Solver<'_> {
    /// After a sweep that reported nothing (in a function whose signature
    /// and callees have no errors): refuses the first read of
    /// each local that no binding typed (`out` gives it no type, dtype or
    /// list, and it holds no range), left untyped there: its
    /// bindings read one another before any assigns it (`x, y = y, x` of
    /// two locals nothing else binds). With other errors, such a local is
    /// their echo.
    pub(super) fn check_unassigned_reads(&self, out: &LocalTypes) {
        // Not where errors outside the body leave values untyped: a
        // parameter whose annotation was refused, a call of a function
        // whose own errors leave its result unknown.
        let quiet = |r: &Reports| !r.errors.is_empty() || r.calls_broken;
        if self.reports.borrow().as_ref().is_none_or(quiet) || !self.env.decl.poisoned.is_empty() {
            return;
        }
        let body = self.body;
        let exprs = &out.exprs;
        let typed = |id: LocalId| {
            out.scalars.get(id).is_some()
                || out.arrays.get(id).is_some()
                || out.tuples.get(id).is_some()
                || out.dtypes.get(id).is_some()
                || out.lists.contains(&id)
                || self.states[id].range.is_some()
        };
        // Most bodies type every local: nothing to find.
        if !body.locals.iter().any(|(id, local)| local.kind == LocalKind::Assigned && !typed(id)) {
            return;
        }
        // The names assigned, not read (tuple targets' elements too).
        let mut stores: ArenaMap<ExprId, ()> = ArenaMap::default();
        let mut pending: Vec<ExprId> = (body.stmts.values())
            .flat_map(|s| match s {
                Stmt::Assign { targets, .. } => targets.to_vec(),
                Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } | Stmt::For { target, .. } => {
                    vec![*target]
                }
                _ => Vec::new(),
            })
            .collect();
        while let Some(t) = pending.pop() {
            stores.insert(t, ());
            if let Expr::Tuple(elts) | Expr::List(elts) = &body.exprs[t] {
                pending.extend(elts.iter().copied());
            }
        }
        let mut reads: Vec<(ExprId, LocalId)> = (body.exprs.iter())
            .filter_map(|(e, x)| match x {
                Expr::Name(Name::Local(id)) if body.locals[*id].kind == LocalKind::Assigned => Some((e, *id)),
                _ => None,
            })
            .filter(|(e, id)| !typed(*id) && exprs.get(*e).is_none() && stores.get(*e).is_none())
            .collect();
        reads.sort_by_key(|(e, _)| body.expr_ranges[*e].start());
        // `s = None` then `s = s * 0.5 + x`: bound, but to `None` where the
        // number is made of it.
        let none_bound = |id: LocalId| {
            (self.bindings.iter())
                .any(|b| b.local == id && matches!(b.bound, Bound::Value(v) if matches!(body.exprs[v], Expr::None)))
        };
        let mut seen: ArenaMap<LocalId, ()> = ArenaMap::default();
        for (e, id) in reads {
            if seen.insert(id, ()).is_none() {
                let name = &body.locals[id].name;
                let message = match none_bound(id) {
                    true => maybe_none::may_be_none_here_error(name, "a number"),
                    false => unassigned_error(name),
                };
                self.refuse_here(e, message);
            }
        }
    }
}
