//! Functions whose annotated result is not `None` and whose body can
//! reach its end (and so return no value), found from the structure of
//! the body as the lowering's control flow finds it: a block ends only
//! where its last statement does.

use super::*;

/// The function `name`, whose result is `shown`, can reach the end of its
/// body.
pub(crate) fn falls_off_error(name: &str, shown: &str) -> String {
    format!("function `{name}` can reach its end without returning a value (it returns {shown})")
}

/// Whether control can leave the statements `stmts` at their end, as the
/// lowering lowers them: unless the last one is a `return`, a `raise`, an
/// `if` with an `else` whose every arm ends so, or a `while` over a true
/// constant (`while True`, `while 1`) without a `break` of its own. A
/// construct POST Python refuses (`try`, `with`) is taken to end: what it
/// would do is not known.
pub(crate) fn can_fall_off(body: &Body, stmts: &[StmtId]) -> bool {
    // `if`/`elif` chains nest as deep as the source: the arms still to
    // look at, each a block whose end must not be reachable.
    let mut pending = vec![stmts];
    while let Some(block) = pending.pop() {
        let Some(&last) = block.last() else { return true };
        match &body.stmts[last] {
            Stmt::Return(_) | Stmt::Raise { .. } | Stmt::Refused { .. } => {}
            Stmt::If { arms } => {
                if arms.last().is_none_or(|a| a.test.is_some()) {
                    return true;
                }
                pending.extend(arms.iter().map(|a| &*a.body));
            }
            Stmt::While { test, body: inner, .. } => {
                let forever = body.always_true(*test);
                if !forever || breaks_out(body, inner) {
                    return true;
                }
            }
            _ => return true,
        }
    }
    false
}

/// Whether the statements `stmts` of a loop hold a `break` of that loop
/// (not of a loop inside it).
fn breaks_out(body: &Body, stmts: &[StmtId]) -> bool {
    let mut pending: Vec<StmtId> = stmts.to_vec();
    while let Some(s) = pending.pop() {
        match &body.stmts[s] {
            Stmt::Break => return true,
            Stmt::If { arms } => arms.iter().for_each(|a| pending.extend(a.body.iter().copied())),
            // A loop's own `break`s leave it; its `else` is this loop's.
            Stmt::While { orelse, .. } | Stmt::For { orelse, .. } => pending.extend(orelse.iter().copied()),
            Stmt::Refused { blocks, .. } => blocks.iter().for_each(|b| pending.extend(b.iter().copied())),
            _ => {}
        }
    }
    false
}

impl Solver<'_> {
    /// Reports a function whose result is annotated (not `T | None`) and
    /// whose body can reach its end ([`can_fall_off`]), at its name; not
    /// a generator (its `yield` is refused), whose end returns nothing.
    pub(super) fn check_fall_off(&self) {
        let decl = self.env.decl;
        let Some(t) = decl.ret.filter(|_| !decl.ret_maybe_none) else { return };
        let body = self.body;
        let generator =
            body.exprs.values().any(|e| matches!(e, Expr::Refused { construct: "`yield`" | "`yield from`", .. }));
        if !generator && can_fall_off(body, &body.top) {
            let shown = self.env.types.get(t).to_string();
            self.report(self.env.def_name, falls_off_error(&decl.name, &shown));
        }
    }
}
