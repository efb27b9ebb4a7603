//! `for i in prange(...)`: which variables of the loop's body are
//! reductions, and the diagnostics for bodies whose iterations are not
//! independent (as Numba reports them).
//!
//! A name the body assigns is either
//! - a reduction: every assignment to it in the body is `s += e`,
//!   `s -= e`, `s *= e`, `s = min(s, e)` or `s = max(s, e)` (one operator
//!   for all of them), and the body reads it nowhere else; or
//! - private to an iteration: it is assigned before it is read on every
//!   path through the iteration, not read after the loop, and not
//!   assigned before it unless nothing outside the loop reads it (a
//!   parameter counts as assigned before and read).
//!
//! Anything else is a located error. This is a syntactic check on the
//! Python source ([`prange_body`]), which the typecheck reports
//! (`typeck::loops::prange_checks`), with whether a reduction's type
//! allows its operator ([`reduction_error`]); the lowering reads the
//! reductions, and checks a reduction's type where the marker is emitted
//! only for a local the typecheck does not type. Array
//! elements may be written freely: keeping those writes independent is
//! the program's business, as in Numba.

use super::*;
use crate::hir::{ExprId, StmtId};
use ruff_text_size::TextSize;

/// The names of statements and expressions, each with where it is and
/// whether it is written: a name in a target's place (an assignment's,
/// an augmented assignment's, a `for` loop's, inside a tuple, list or
/// `*` there) is written, every other name read. The parts of refused
/// constructs that the body keeps are read.
struct Names<'b> {
    body: &'b hir::Body,
    /// Also report the target of `x += e` as read (it is read and
    /// written, at one place).
    aug_reads: bool,
    out: Vec<(&'b str, TextRange, bool)>,
}

impl<'b> Names<'b> {
    fn new(body: &'b hir::Body) -> Self {
        Names { body, aug_reads: false, out: Vec::new() }
    }

    fn expr(&mut self, e: ExprId, store: bool) {
        deep(|| match &self.body.exprs[e] {
            hir::Expr::Name(n) => self.out.push((self.body.name_text(n), self.body.expr_ranges[e], store)),
            hir::Expr::Tuple(_) | hir::Expr::List(_) | hir::Expr::Starred(_) => {
                self.body.children(e).into_iter().for_each(|c| self.expr(c, store))
            }
            _ => self.body.children(e).into_iter().for_each(|c| self.expr(c, false)),
        })
    }

    fn stmts(&mut self, stmts: &[StmtId]) {
        stmts.iter().for_each(|&s| self.stmt(s));
    }

    fn stmt(&mut self, s: StmtId) {
        let body = self.body;
        deep(|| match &body.stmts[s] {
            &hir::Stmt::Expr(e) => self.expr(e, false),
            hir::Stmt::Assign { targets, value } => {
                self.expr(*value, false);
                targets.iter().for_each(|&t| self.expr(t, true));
            }
            &hir::Stmt::AnnAssign { target, annotation, value } => {
                value.into_iter().for_each(|v| self.expr(v, false));
                self.expr(annotation, false);
                self.expr(target, true);
            }
            &hir::Stmt::AugAssign { target, value, .. } => {
                if let (true, hir::Expr::Name(n)) = (self.aug_reads, &body.exprs[target]) {
                    self.out.push((body.name_text(n), body.expr_ranges[target], false));
                }
                self.expr(value, false);
                self.expr(target, true);
            }
            hir::Stmt::If { arms } => {
                for arm in arms.iter() {
                    arm.test.into_iter().for_each(|t| self.expr(t, false));
                    self.stmts(&arm.body);
                }
            }
            hir::Stmt::While { test, body: inner, orelse } => {
                self.expr(*test, false);
                self.stmts(inner);
                self.stmts(orelse);
            }
            hir::Stmt::For { target, iter, body: inner, orelse, .. } => {
                self.expr(*iter, false);
                self.expr(*target, true);
                self.stmts(inner);
                self.stmts(orelse);
            }
            &hir::Stmt::Return(value) => value.into_iter().for_each(|v| self.expr(v, false)),
            &hir::Stmt::Assert { test, msg } => {
                [Some(test), msg].into_iter().flatten().for_each(|e| self.expr(e, false))
            }
            &hir::Stmt::Raise { exc, cause } => [exc, cause].into_iter().flatten().for_each(|e| self.expr(e, false)),
            hir::Stmt::Refused { exprs, blocks, .. } => {
                exprs.iter().for_each(|&e| self.expr(e, false));
                blocks.iter().for_each(|b| self.stmts(b));
            }
            hir::Stmt::Break
            | hir::Stmt::Continue
            | hir::Stmt::Pass
            | hir::Stmt::NestedFunction { .. }
            | hir::Stmt::Global
            | hir::Stmt::Import => {}
        })
    }

    /// The names read, in order.
    fn reads(self) -> Vec<(String, TextRange)> {
        self.out.into_iter().filter(|(_, _, store)| !store).map(|(n, at, _)| (n.to_owned(), at)).collect()
    }
}

/// Every occurrence of a name in a function's body: where, and whether it
/// is written or read (an augmented assignment's target is both).
pub(crate) fn name_uses(body: &hir::Body) -> Vec<(String, TextSize, bool)> {
    let mut names = Names::new(body);
    names.aug_reads = true;
    names.stmts(&body.top);
    names.out.into_iter().map(|(n, at, store)| (n.to_owned(), at.start(), store)).collect()
}

/// The reduction operator of a statement that updates `name`, if it is one.
fn reduction_of(body: &hir::Body, s: StmtId) -> Option<(&str, char)> {
    let name = |e: ExprId| match &body.exprs[e] {
        hir::Expr::Name(n) => Some(body.name_text(n)),
        _ => None,
    };
    match &body.stmts[s] {
        &hir::Stmt::AugAssign { target, op, .. } => {
            let n = name(target)?;
            let op = match op {
                ast::Operator::Add => '+',
                ast::Operator::Sub => '-',
                ast::Operator::Mult => '*',
                _ => return None,
            };
            Some((n, op))
        }
        hir::Stmt::Assign { targets, value } => {
            let &[target] = &targets[..] else { return None };
            let n = name(target)?;
            let hir::Expr::Call { func, args, keywords } = &body.exprs[*value] else { return None };
            let op = match name(*func)? {
                "min" => '<',
                "max" => '>',
                _ => return None,
            };
            if !keywords.is_empty() || args.len() != 2 {
                return None;
            }
            (name(args[0]) == Some(n)).then_some((n, op))
        }
        _ => None,
    }
}

/// Every statement of `stmts`, nested ones included, in source order.
fn all_stmts(body: &hir::Body, stmts: &[StmtId], out: &mut Vec<StmtId>) {
    deep(|| {
        for &s in stmts {
            out.push(s);
            match &body.stmts[s] {
                hir::Stmt::If { arms } => arms.iter().for_each(|arm| all_stmts(body, &arm.body, out)),
                hir::Stmt::For { body: inner, orelse, .. } | hir::Stmt::While { body: inner, orelse, .. } => {
                    all_stmts(body, inner, out);
                    all_stmts(body, orelse, out);
                }
                _ => {}
            }
        }
    })
}

/// The names an expression reads, in order.
fn reads(body: &hir::Body, e: ExprId, out: &mut Vec<(String, TextRange)>) {
    let mut names = Names::new(body);
    names.expr(e, false);
    out.extend(names.reads());
}

/// The names a target assigns, and what it reads (a subscript's array and
/// indices).
fn target(body: &hir::Body, e: ExprId, assigned: &mut Vec<String>, read: &mut Vec<(String, TextRange)>) {
    match &body.exprs[e] {
        hir::Expr::Name(n) => assigned.push(body.name_text(n).to_owned()),
        hir::Expr::Tuple(parts) | hir::Expr::List(parts) => parts.iter().for_each(|&p| target(body, p, assigned, read)),
        _ => {
            let mut names = Names::new(body);
            names.expr(e, true);
            read.extend(names.reads());
        }
    }
}

/// Definite assignment over one iteration: reports the first read of each
/// private name (in `private`) that some path reaches before assigning it.
fn definite(
    body: &hir::Body,
    stmts: &[StmtId],
    assigned: &mut HashSet<String>,
    private: &HashSet<String>,
    bad: &mut Vec<(String, TextRange)>,
) {
    deep(|| definite_inner(body, stmts, assigned, private, bad))
}

fn definite_inner(
    body: &hir::Body,
    stmts: &[StmtId],
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
    for &s in stmts {
        let mut read = Vec::new();
        let mut names = Vec::new();
        match &body.stmts[s] {
            hir::Stmt::Assign { targets, value } => {
                reads(body, *value, &mut read);
                targets.iter().for_each(|&t| target(body, t, &mut names, &mut read));
            }
            &hir::Stmt::AnnAssign { target: t, value: Some(value), .. } => {
                reads(body, value, &mut read);
                target(body, t, &mut names, &mut read);
            }
            hir::Stmt::AnnAssign { value: None, .. } => {}
            &hir::Stmt::AugAssign { target: t, value, .. } => {
                reads(body, value, &mut read);
                reads(body, t, &mut read);
                target(body, t, &mut names, &mut Vec::new());
            }
            hir::Stmt::If { arms } => {
                let mut after: Option<HashSet<String>> = None;
                let mut has_else = false;
                for arm in arms.iter() {
                    match arm.test {
                        Some(t) => {
                            let mut r = Vec::new();
                            reads(body, t, &mut r);
                            check(r, assigned, bad);
                        }
                        None => has_else = true,
                    }
                    let mut a = assigned.clone();
                    definite(body, &arm.body, &mut a, private, bad);
                    after = Some(match after.take() {
                        None => a,
                        Some(prev) => prev.intersection(&a).cloned().collect(),
                    });
                }
                if has_else {
                    if let Some(a) = after {
                        *assigned = a;
                    }
                }
                continue;
            }
            hir::Stmt::For { target: t, iter, body: inner, .. } => {
                reads(body, *iter, &mut read);
                check(read, assigned, bad);
                let mut a = assigned.clone();
                target(body, *t, &mut names, &mut Vec::new());
                a.extend(names);
                definite(body, inner, &mut a, private, bad);
                continue;
            }
            hir::Stmt::While { test, body: inner, .. } => {
                reads(body, *test, &mut read);
                check(read, assigned, bad);
                let mut a = assigned.clone();
                definite(body, inner, &mut a, private, bad);
                continue;
            }
            _ => {
                let mut names = Names::new(body);
                names.stmt(s);
                read.extend(names.reads());
            }
        }
        check(read, assigned, bad);
        assigned.extend(names);
    }
}

/// The body of a `prange` loop: its reductions (name and operator), and
/// why its iterations are not independent.
pub(crate) struct PrangeBody {
    pub(crate) reductions: Vec<(String, char)>,
    pub(crate) errors: Vec<(TextRange, String)>,
}

/// Checks the body of `for var in prange(...)`, the statement `id` of
/// `hir` whose names are used at `uses` (see [`name_uses`]): a `return`
/// in it, the loop's variable assigned in it or read after it, a
/// variable of the function assigned in it that is not a reduction (and
/// is assigned before it or read after it), a variable read before it is
/// assigned in an iteration.
pub(crate) fn prange_body(hir: &hir::Body, uses: &[(String, TextSize, bool)], id: StmtId, var: &str) -> PrangeBody {
    let hir::Stmt::For { target: loop_target, body: loop_body, .. } = &hir.stmts[id] else {
        return PrangeBody { reductions: Vec::new(), errors: Vec::new() };
    };
    let at = hir.stmt_ranges[id];
    let mut stmts = Vec::new();
    all_stmts(hir, loop_body, &mut stmts);
    let (start, end) = (at.start(), at.end());
    let mut returns: Vec<(TextRange, String)> = Vec::new();
    // Assignments in the body, by name: the statement and its
    // reduction operator, if it is a reduction.
    let mut writes: Vec<(String, TextRange, Option<char>)> = Vec::new();
    for &s in &stmts {
        let at = hir.stmt_ranges[s];
        match &hir.stmts[s] {
            hir::Stmt::Return(_) => {
                returns.push((at, PRANGE_RETURN.into()));
            }
            other => {
                let red = reduction_of(hir, s);
                let mut names = Vec::new();
                match other {
                    hir::Stmt::Assign { targets, .. } => {
                        targets.iter().for_each(|&t| target(hir, t, &mut names, &mut Vec::new()))
                    }
                    &hir::Stmt::AnnAssign { target: t, .. }
                    | &hir::Stmt::AugAssign { target: t, .. }
                    | &hir::Stmt::For { target: t, .. } => target(hir, t, &mut names, &mut Vec::new()),
                    _ => {}
                }
                for n in names {
                    let op = red.filter(|(r, _)| *r == n).map(|(_, op)| op);
                    writes.push((n, at, op));
                }
            }
        }
    }
    // The bodies of the other `for` loops over a name (not one that
    // holds this loop): a read there sees that loop's binding of it,
    // made before its body runs (its `else` clause, which runs after
    // no iteration too, is not in the body).
    let other_loops: Vec<(&str, TextSize, TextSize)> = (hir.stmts.iter())
        .filter_map(|(id, st)| match st {
            hir::Stmt::For { target, body, .. } => {
                let hir::Expr::Name(t) = &hir.exprs[*target] else { return None };
                let first = body.first().map(|&b| hir.stmt_ranges[b].start())?;
                let last = body.last().map(|&b| hir.stmt_ranges[b].end())?;
                let holds_this = hir.stmt_ranges[id].start() <= start && end <= hir.stmt_ranges[id].end();
                (!holds_this).then_some((hir.name_text(t), first, last))
            }
            _ => None,
        })
        .collect();
    let rebound_by_loop = |name: &str, p: TextSize| other_loops.iter().any(|&(n, a, b)| n == name && p >= a && p < b);
    let body_start = loop_body.first().map_or(end, |&s| hir.stmt_ranges[s].start());
    let in_body = |p: TextSize| p >= body_start && p < end;
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
        // A name assigned before the loop is still private when
        // nothing outside the loop reads it: the value before the loop
        // is never seen, whatever each iteration leaves (as Numba
        // privatizes it). A read before the loop may run after it, in
        // an enclosing loop; one in another loop over the name does not
        // see it (`j` counting loops before, inside and after).
        let param = hir.locals.iter().any(|(_, l)| l.name.as_ref() == n && l.kind == hir::LocalKind::Param);
        let rebound_there = |p: TextSize| rebound_by_loop(n, p);
        let read_outside = uses.iter().any(|(u, p, w)| u == n && !w && (*p < start || *p >= end) && !rebound_there(*p));
        let before = param || (read_outside && uses.iter().any(|(u, p, w)| u == n && *w && *p < start));
        let after = uses.iter().any(|(u, p, w)| u == n && !w && *p >= end && !rebound_there(*p));
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
    // A read after the loop sees its last value, unless it is in the
    // body of a later `for` loop over the same name, which binds it
    // before its body runs (`for i in prange(n)` twice).
    if uses.iter().any(|(u, p, w)| u == var && !w && *p >= end && !rebound_by_loop(var, *p)) {
        errors.push((
            hir.expr_ranges[*loop_target],
            format!("the `prange` loop variable `{var}` is read after the loop"),
        ));
    }
    let mut bad = Vec::new();
    definite(hir, loop_body, &mut HashSet::new(), &private, &mut bad);
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
    returns.extend(errors);
    PrangeBody { reductions, errors: returns }
}

/// `return` inside a `prange` loop.
pub(crate) const PRANGE_RETURN: &str =
    "`return` inside a `prange` loop: its iterations run independently, in any order";

/// Why the reduction `name` by `op` (`<` for `min`, `>` for `max`, else
/// the operator) of a parallel `prange` loop is refused, for its dtype
/// (`None`: not a number): it is not a numeric scalar, or not one the
/// operator reduces.
pub(crate) fn reduction_error(name: &str, op: char, dtype: Option<DType>) -> Option<String> {
    let Some(dtype) = dtype else {
        return Some(format!("the reduction `{name}` of this `prange` loop must be a numeric scalar"));
    };
    let fits = match op {
        '<' | '>' => dtype.is_int() || dtype.is_float(),
        _ => dtype.is_int() || dtype.is_float() || dtype.is_complex(),
    };
    let what = match op {
        '<' => "`min`",
        '>' => "`max`",
        _ => "this operator",
    };
    (!fits).then(|| {
        format!("the reduction `{name}` of this `prange` loop is {}, which {what} cannot reduce", dtype.name())
    })
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// The reductions (name and operator) of `for var in prange(...)` at
    /// `f`, or `None` where the typecheck refuses its body
    /// ([`prange_body`]).
    pub(super) fn prange_reductions(&mut self, f: &ForLoop, var: &str) -> Option<Vec<(String, char)>> {
        let checked = prange_body(self.hir, &self.name_uses, f.id, var);
        if let Some((at, _)) = checked.errors.first() {
            self.refused_statement(at);
            return None;
        }
        Some(checked.reductions)
    }
}
