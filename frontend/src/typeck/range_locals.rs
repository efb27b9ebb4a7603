//! The locals that hold a `range` (`r = range(n)`, then `for i in r`),
//! refused as the lowering's `range_local` refuses them: bound to a
//! `range` again, or read but as what a loop runs over.

use super::*;
use crate::lower::range_local::{range_read_error, range_rebound_error};

impl Solver<'_> {
    /// Whether `id` holds a `range`: a local, no parameter, bound to one
    /// and given no type by any other binding (as the lowering's
    /// `bind_range` takes it).
    pub(super) fn holds_range(&self, id: LocalId) -> bool {
        let st = &self.states[id];
        st.range.is_some()
            && self.body.locals[id].kind != LocalKind::Param
            && st.ty.is_none()
            && st.arr.is_none()
            && st.elems.is_none()
    }

    /// `r = range(...)` (the statement `s`) binding a local that holds
    /// another `range` already.
    pub(super) fn range_rebound(&self, s: StmtId) {
        let Stmt::Assign { targets, value } = &self.body.stmts[s] else { return };
        let [target] = targets[..] else { return };
        let Expr::Name(Name::Local(id)) = self.body.exprs[target] else { return };
        if range_value(self.body, *value).is_none() || !self.holds_range(id) || self.states[id].range == Some(*value) {
            return;
        }
        let name = &self.body.locals[id].name;
        self.refuse_statement(s, self.body.expr_ranges[target], range_rebound_error(name));
    }

    /// The read `e` of a local holding a `range` where the lowering reads
    /// a value (not what a `for` loop runs over, a target, or what it
    /// does not lower).
    pub(super) fn range_read(&self, e: ExprId, id: LocalId) -> Option<Ty> {
        if !self.holds_range(id) || self.range_iterables.get(e).is_some() || self.unlowered.get(e).is_some() {
            return None;
        }
        self.refuse_here(e, range_read_error(&self.body.locals[id].name))
    }
}

/// What the `for` loops of `body` run over and the targets of its
/// assignments: where a local holding a `range` is not read as a value.
pub(super) fn range_iterables(body: &Body) -> ArenaMap<ExprId, ()> {
    let mut out = ArenaMap::default();
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::For { iter, target, .. } => {
                out.insert(*iter, ());
                out.insert(*target, ());
            }
            Stmt::Assign { targets, .. } => targets.iter().for_each(|t| {
                out.insert(*t, ());
            }),
            Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } => {
                out.insert(*target, ());
            }
            _ => {}
        }
    }
    out
}
