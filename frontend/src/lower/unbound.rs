//! Reads of locals that may come before anything binds them on the path
//! taken (`typeck::unbound` finds them), checked when they run: each such
//! local has a Bool flag, false on entry, set where a statement binds it
//! (an assignment, or a `for` loop's target at the start of each run of
//! its body), and a read the typecheck found panics with CPython's
//! `UnboundLocalError` unless the flag is set. Nothing else reads the
//! flags, so a body without such reads is lowered as it was.

use super::*;

impl FnLower<'_, '_> {
    /// A flag for each local that a read may find unbound, false on entry.
    pub(super) fn declare_bound_flags(&mut self) {
        let hir = self.hir;
        let mut names: Vec<String> = (self.unbound_reads.iter())
            .filter_map(|(e, _)| match &hir.exprs[e] {
                hir::Expr::Name(hir::Name::Local(id)) => Some(hir.locals[*id].name.to_string()),
                _ => None,
            })
            .collect();
        names.sort();
        names.dedup();
        for name in names {
            let n = self.fresh("unbound");
            let no = self.b.const_(TypeId::BOOL, Literal::Bool(false), &n);
            let flag = self.b.let_(TypeId::BOOL, no, &format!("{name}.bound"));
            self.bound_flags.insert(name, flag);
        }
    }

    /// Sets the flags of the locals the target `t` binds.
    pub(super) fn mark_bound(&mut self, t: hir::ExprId) {
        if self.bound_flags.is_empty() || !self.open {
            return;
        }
        let hir = self.hir;
        for n in hir.names_bound(t) {
            let hir::Expr::Name(name) = &hir.exprs[n] else { continue };
            if let Some(&flag) = self.bound_flags.get(self.name_text(name)) {
                let at = self.range(n);
                let yes = self.bool_const(true, &at);
                self.b.set(flag, yes);
            }
        }
    }

    /// Raises `UnboundLocalError` where the read `e` of the local `name`
    /// finds it unbound, if the typecheck found it may.
    pub(super) fn check_bound(&mut self, e: hir::ExprId, name: &str, at: TextRange) {
        if self.unbound_reads.get(e).is_none() {
            return;
        }
        let Some(&flag) = self.bound_flags.get(name) else { return };
        let message = typeck::unbound::unbound_read_error(&tuples::shown_local(name));
        self.panic_unless(flag, &message, &at);
    }
}
