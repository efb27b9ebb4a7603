//! `for i in prange(...)`: which variables of the loop's body are
//! reductions, and the diagnostics for bodies whose iterations are not
//! independent (as Numba reports them).
//!
//! A name the body assigns is either
//! - a reduction: every assignment to it in the body is `s += e`,
//!   `s -= e`, `s *= e`, `s = min(s, e)` or `s = max(s, e)` (one operator
//!   for all of them), and the body reads it nowhere else; or
//! - private to an iteration: it is assigned before it is read on every
//!   path through the iteration, and neither assigned before the loop nor
//!   read after it (a parameter counts as assigned before).
//!
//! Anything else is a located error. This is a syntactic check on the
//! Python source; whether a reduction's type allows its operator is
//! checked where the marker is emitted, once the types are known. Array
//! elements may be written freely: keeping those writes independent is
//! the program's business, as in Numba.

use super::*;
use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_text_size::TextSize;

/// Every occurrence of a name in a function: where, and whether it is
/// written (`Store`) or read (`Load`; an augmented assignment's target is
/// both).
pub(super) fn name_uses(body: &[Stmt]) -> Vec<(String, TextSize, bool)> {
    struct V(Vec<(String, TextSize, bool)>);
    impl<'a> Visitor<'a> for V {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if let Stmt::AugAssign(a) = s {
                if let Expr::Name(n) = &*a.target {
                    self.0.push((n.id.to_string(), n.range.start(), false));
                }
            }
            deep(|| walk_stmt(self, s))
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Name(n) = e {
                self.0.push((n.id.to_string(), n.range.start(), !matches!(n.ctx, ast::ExprContext::Load)));
            }
            deep(|| walk_expr(self, e))
        }
    }
    let mut v = V(Vec::new());
    deep(|| v.visit_body(body));
    v.0
}

/// The reduction operator of a statement that updates `name`, if it is one.
fn reduction_of(s: &Stmt) -> Option<(&str, char)> {
    match s {
        Stmt::AugAssign(a) => {
            let Expr::Name(n) = &*a.target else { return None };
            let op = match a.op {
                ast::Operator::Add => '+',
                ast::Operator::Sub => '-',
                ast::Operator::Mult => '*',
                _ => return None,
            };
            Some((n.id.as_str(), op))
        }
        Stmt::Assign(a) => {
            let [Expr::Name(n)] = &a.targets[..] else { return None };
            let Expr::Call(c) = &*a.value else { return None };
            let Expr::Name(f) = &*c.func else { return None };
            let op = match f.id.as_str() {
                "min" => '<',
                "max" => '>',
                _ => return None,
            };
            if !c.arguments.keywords.is_empty() || c.arguments.args.len() != 2 {
                return None;
            }
            match &c.arguments.args[0] {
                Expr::Name(first) if first.id == n.id => Some((n.id.as_str(), op)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Every statement of `body`, nested ones included, in source order.
fn all_stmts<'s>(body: &'s [Stmt], out: &mut Vec<&'s Stmt>) {
    deep(|| all_stmts_inner(body, out))
}

fn all_stmts_inner<'s>(body: &'s [Stmt], out: &mut Vec<&'s Stmt>) {
    for s in body {
        out.push(s);
        match s {
            Stmt::If(i) => {
                all_stmts(&i.body, out);
                for c in &i.elif_else_clauses {
                    all_stmts(&c.body, out);
                }
            }
            Stmt::For(f) => {
                all_stmts(&f.body, out);
                all_stmts(&f.orelse, out);
            }
            Stmt::While(w) => {
                all_stmts(&w.body, out);
                all_stmts(&w.orelse, out);
            }
            _ => {}
        }
    }
}

/// The names an expression reads, in order.
fn reads(e: &Expr, out: &mut Vec<(String, TextRange)>) {
    struct V<'o>(&'o mut Vec<(String, TextRange)>);
    impl<'a> Visitor<'a> for V<'_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let Expr::Name(n) = e {
                if matches!(n.ctx, ast::ExprContext::Load) {
                    self.0.push((n.id.to_string(), n.range));
                }
            }
            deep(|| walk_expr(self, e))
        }
    }
    V(out).visit_expr(e)
}

/// The names a target assigns, and what it reads (a subscript's array and
/// indices).
fn target(e: &Expr, assigned: &mut Vec<String>, read: &mut Vec<(String, TextRange)>) {
    match e {
        Expr::Name(n) => assigned.push(n.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| target(e, assigned, read)),
        Expr::List(l) => l.elts.iter().for_each(|e| target(e, assigned, read)),
        other => reads(other, read),
    }
}

/// Definite assignment over one iteration: reports the first read of each
/// private name (in `private`) that some path reaches before assigning it.
fn definite(
    body: &[Stmt],
    assigned: &mut HashSet<String>,
    private: &HashSet<String>,
    bad: &mut Vec<(String, TextRange)>,
) {
    deep(|| definite_inner(body, assigned, private, bad))
}

fn definite_inner(
    body: &[Stmt],
    assigned: &mut HashSet<String>,
    private: &HashSet<String>,
    bad: &mut Vec<(String, TextRange)>,
) {
    let check = |read: Vec<(String, TextRange)>, assigned: &HashSet<String>, bad: &mut Vec<(String, TextRange)>| {
        for (n, r) in read {
            if private.contains(&n) && !assigned.contains(&n) && !bad.iter().any(|(b, _)| *b == n) {
                bad.push((n, r));
            }
        }
    };
    for s in body {
        let mut read = Vec::new();
        let mut names = Vec::new();
        match s {
            Stmt::Assign(a) => {
                reads(&a.value, &mut read);
                a.targets.iter().for_each(|t| target(t, &mut names, &mut read));
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    reads(v, &mut read);
                    target(&a.target, &mut names, &mut read);
                }
            }
            Stmt::AugAssign(a) => {
                reads(&a.value, &mut read);
                match &*a.target {
                    Expr::Name(n) => read.push((n.id.to_string(), n.range)),
                    t => reads(t, &mut read),
                }
                target(&a.target, &mut names, &mut Vec::new());
            }
            Stmt::If(i) => {
                reads(&i.test, &mut read);
                check(read, assigned, bad);
                let mut after: Option<HashSet<String>> = None;
                let mut arm = |stmts: &[Stmt], bad: &mut Vec<(String, TextRange)>| {
                    let mut a = assigned.clone();
                    definite(stmts, &mut a, private, bad);
                    after = Some(match after.take() {
                        None => a,
                        Some(prev) => prev.intersection(&a).cloned().collect(),
                    });
                };
                arm(&i.body, bad);
                let mut has_else = false;
                for c in &i.elif_else_clauses {
                    if let Some(t) = &c.test {
                        let mut r = Vec::new();
                        reads(t, &mut r);
                        check(r, assigned, bad);
                    } else {
                        has_else = true;
                    }
                    arm(&c.body, bad);
                }
                if has_else {
                    if let Some(a) = after {
                        *assigned = a;
                    }
                }
                continue;
            }
            Stmt::For(f) => {
                reads(&f.iter, &mut read);
                check(read, assigned, bad);
                let mut a = assigned.clone();
                target(&f.target, &mut names, &mut Vec::new());
                a.extend(names);
                definite(&f.body, &mut a, private, bad);
                continue;
            }
            Stmt::While(w) => {
                reads(&w.test, &mut read);
                check(read, assigned, bad);
                let mut a = assigned.clone();
                definite(&w.body, &mut a, private, bad);
                continue;
            }
            other => {
                struct V<'o>(&'o mut Vec<(String, TextRange)>);
                impl<'a> Visitor<'a> for V<'_> {
                    fn visit_expr(&mut self, e: &'a Expr) {
                        reads(e, self.0)
                    }
                }
                walk_stmt(&mut V(&mut read), other);
            }
        }
        check(read, assigned, bad);
        assigned.extend(names);
    }
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// Checks the body of `for var in prange(...)` at `f`; returns its
    /// reductions (name and operator), or `None` after reporting why the
    /// iterations are not independent.
    pub(super) fn prange_reductions(&mut self, f: &ast::StmtFor, var: &str) -> Option<Vec<(String, char)>> {
        let mut stmts = Vec::new();
        all_stmts(&f.body, &mut stmts);
        let (start, end) = (f.range.start(), f.range.end());
        let mut ok = true;
        // Assignments in the body, by name: the statement and its
        // reduction operator, if it is a reduction.
        let mut writes: Vec<(String, TextRange, Option<char>)> = Vec::new();
        for s in &stmts {
            match s {
                Stmt::Return(r) => {
                    self.err(r, "`return` inside a `prange` loop: its iterations run independently, in any order");
                    ok = false;
                }
                _ => {
                    let red = reduction_of(s);
                    let mut names = Vec::new();
                    match s {
                        Stmt::Assign(a) => a.targets.iter().for_each(|t| target(t, &mut names, &mut Vec::new())),
                        Stmt::AnnAssign(a) => target(&a.target, &mut names, &mut Vec::new()),
                        Stmt::AugAssign(a) => target(&a.target, &mut names, &mut Vec::new()),
                        Stmt::For(l) => target(&l.target, &mut names, &mut Vec::new()),
                        _ => {}
                    }
                    for n in names {
                        let op = red.filter(|(r, _)| *r == n).map(|(_, op)| op);
                        writes.push((n, s.range(), op));
                    }
                }
            }
        }
        let uses = &self.name_uses;
        let in_body = |p: TextSize| p >= f.body[0].range().start() && p < end;
        let mut reductions: Vec<(String, char)> = Vec::new();
        let mut private: HashSet<String> = HashSet::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut errors: Vec<(TextRange, String)> = Vec::new();
        for (n, at, _) in &writes {
            if !seen.insert(n.clone()) {
                continue;
            }
            if n == var {
                errors.push((*at, format!("the `prange` loop variable `{n}` cannot be assigned in the loop")));
                continue;
            }
            let mine: Vec<&(String, TextRange, Option<char>)> = writes.iter().filter(|w| w.0 == *n).collect();
            let op = mine[0].2;
            // Each reduction statement reads the name once (the target of
            // `+=`, the first argument of `min`/`max`).
            let body_reads = uses.iter().filter(|(u, p, w)| u == n && !w && in_body(*p)).count();
            if let Some(op) = op {
                if mine.iter().all(|w| w.2 == Some(op)) && body_reads == mine.len() {
                    reductions.push((n.clone(), op));
                    continue;
                }
            }
            let param = self.locals.get(n).is_some_and(|l| l.param);
            let before = param || uses.iter().any(|(u, p, w)| u == n && *w && *p < start);
            let after = uses.iter().any(|(u, p, w)| u == n && !w && *p >= end);
            if before || after {
                let why = if before { "is assigned before the loop" } else { "is read after the loop" };
                errors.push((
                    *at,
                    format!(
                        "`{n}` {why} and assigned in the `prange` loop: its iterations run independently, so a \
                         variable of the function may only be updated as a reduction (`{n} += e`, `{n} -= e`, \
                         `{n} *= e`, `{n} = min({n}, e)` or `{n} = max({n}, e)`, and read nowhere else in the loop)"
                    ),
                ));
                continue;
            }
            private.insert(n.clone());
        }
        if uses.iter().any(|(u, p, w)| u == var && !w && *p >= end) {
            errors.push((f.target.range(), format!("the `prange` loop variable `{var}` is read after the loop")));
        }
        let mut bad = Vec::new();
        definite(&f.body, &mut HashSet::new(), &private, &mut bad);
        for (n, r) in bad {
            errors.push((
                r,
                format!(
                    "`{n}` is read before it is assigned in this iteration of the `prange` loop: a value carried \
                     from one iteration to the next must be a reduction (`{n} += e`, `{n} *= e`, \
                     `{n} = min({n}, e)`, ...)"
                ),
            ));
        }
        errors.sort_by_key(|(r, _)| r.start());
        for (r, msg) in errors {
            self.err(&r, msg);
            ok = false;
        }
        ok.then_some(reductions)
    }
}
