//! Building a [`Body`] from ruff's syntax tree of a function.

use super::{Body, Expr, ExprId, IfArm, Keyword, Local, LocalId, LocalKind, Name, Stmt, StmtId};
use crate::syntax::{construct_name, deep, for_each_binding, literal, stmt_name, Binding};
use ruff_python_ast as ast;
use ruff_text_size::Ranged;
use std::collections::{HashMap, HashSet};

/// Every name a body binds, in the order of first binding: Python's rule
/// for what is local to a function.
pub(crate) fn local_names(body: &[ast::Stmt]) -> Vec<String> {
    // Names bound by refused constructs (nested or starred targets, the
    // names of `with`, `except` and `case`, the assignments in their
    // bodies) are locals too, so that their uses do not echo the refusal
    // as undefined names.
    fn target(e: &ast::Expr, out: &mut Vec<String>) {
        match e {
            ast::Expr::Name(n) => out.push(n.id.to_string()),
            // `a, b = ...`: each name (nested targets are refused later).
            ast::Expr::Tuple(t) => t.elts.iter().for_each(|e| target(e, out)),
            ast::Expr::List(l) => l.elts.iter().for_each(|e| target(e, out)),
            ast::Expr::Starred(s) => target(&s.value, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for_each_binding(body, &mut |b| match b {
        Binding::Target(t) => target(t, &mut out),
        Binding::Name(n) => out.push(n.to_owned()),
    });
    let mut seen = HashSet::new();
    out.retain(|n| seen.insert(n.clone()));
    out
}

/// Builds one function's [`Body`].
pub(crate) struct BodyBuilder<'g> {
    body: Body,
    scope: HashMap<String, LocalId>,
    /// Whether the module level binds a name.
    is_global: &'g dyn Fn(&str) -> bool,
    /// Whether a module-level name is an array constant: read in the
    /// body, it is a [`LocalKind::Constant`] local.
    is_array: &'g dyn Fn(&str) -> bool,
    /// The parameters a top-level assignment makes a new local of (see
    /// [`BodyBuilder::top_level`]).
    rebindable: HashSet<String>,
    /// How many versions each of them has had.
    versions: HashMap<String, u32>,
    /// How many list comprehensions have been read (see
    /// [`BodyBuilder::comprehension`]).
    comprehensions: u32,
}

impl<'g> BodyBuilder<'g> {
    /// The body of `def`, whose parameters are `params` (those whose
    /// annotations have errors are also in `poisoned`).
    #[cfg(test)]
    pub fn build<'p>(
        def: &ast::StmtFunctionDef,
        params: impl IntoIterator<Item = &'p str>,
        poisoned: &[String],
        is_global: &'g dyn Fn(&str) -> bool,
    ) -> Body {
        let params: Vec<&str> = params.into_iter().collect();
        Self::build_with_arrays(def, params.iter().copied(), poisoned, is_global, &|_| false, &params)
    }

    /// As [`BodyBuilder::build`], where `is_array` tells the module-level
    /// arrays among the globals, and `rebindable` the parameters a
    /// top-level assignment gives a new local.
    pub fn build_with_arrays<'p>(
        def: &ast::StmtFunctionDef,
        params: impl IntoIterator<Item = &'p str>,
        poisoned: &[String],
        is_global: &'g dyn Fn(&str) -> bool,
        is_array: &'g dyn Fn(&str) -> bool,
        rebindable: &[&str],
    ) -> Body {
        let rebindable = rebindable.iter().map(|p| p.to_string()).collect();
        let mut b = BodyBuilder {
            body: Body::default(),
            scope: HashMap::new(),
            is_global,
            is_array,
            rebindable,
            versions: HashMap::new(),
            comprehensions: 0,
        };
        for p in params {
            b.declare(p, LocalKind::Param);
        }
        // A function defined in the body is refused; its name, like a
        // parameter whose annotation is refused, is quiet where it is used.
        let nested = def.body.iter().filter_map(|s| match s {
            ast::Stmt::FunctionDef(f) => Some(f.name.id.as_str()),
            _ => None,
        });
        for name in poisoned.iter().map(String::as_str).chain(nested) {
            let id = b.declare(name, LocalKind::Poisoned);
            b.body.locals[id].kind = LocalKind::Poisoned;
        }
        for name in local_names(&def.body) {
            b.declare(&name, LocalKind::Assigned);
        }
        let mut top = Vec::with_capacity(def.body.len());
        for s in &def.body {
            match b.comprehension(s) {
                Some(stmts) => top.extend(stmts),
                None => top.push(b.top_level(s)),
            }
        }
        b.body.top = top.into();
        b.body
    }

    /// A statement of the function's top level. `p = value` of a
    /// parameter `p` there (or `p, q = value`, unpacking) binds a new local, a version of `p` named
    /// `p$1` (`p$2` for the next; `$` is in no Python name), which every
    /// later use of `p` names, as Numba gives each such binding a variable
    /// of its own: `n = np.log(n)` of an integer `n` makes a float,
    /// `v = v.sum(axis=0)` of a 2-D `v` a 1-D array, `a = a.astype(...)`
    /// an array of another dtype, and the parameter stays what the caller
    /// passed. Only at the top level: no later statement can still see
    /// the parameter there (a binding inside a loop or a branch is not
    /// one every path takes), and the value is read before the new local
    /// is bound.
    fn top_level(&mut self, s: &ast::Stmt) -> StmtId {
        let ast::Stmt::Assign(a) = s else { return self.stmt(s) };
        // `p = value`, or `p, q = value` unpacking into names.
        let [target] = &a.targets[..] else { return self.stmt(s) };
        let mut names = Vec::new();
        let mut pending = vec![target];
        while let Some(t) = pending.pop() {
            match t {
                ast::Expr::Name(n) => names.push(n.id.as_str()),
                ast::Expr::Tuple(t) => pending.extend(t.elts.iter()),
                ast::Expr::List(l) => pending.extend(l.elts.iter()),
                _ => return self.stmt(s),
            }
        }
        let rebound: Vec<&str> = names.into_iter().filter(|n| self.rebindable.contains(*n)).collect();
        if rebound.is_empty() {
            return self.stmt(s);
        }
        let value = self.expr(&a.value);
        for name in rebound {
            let k = self.versions.entry(name.to_owned()).or_insert(0);
            *k += 1;
            let version = format!("{name}${k}");
            let id = self.body.locals.alloc(Local { name: version.into(), kind: LocalKind::Assigned });
            self.scope.insert(name.to_owned(), id);
        }
        let targets = Box::new([self.expr(target)]);
        self.alloc_stmt(Stmt::Assign { targets, value }, s)
    }

    /// `xs = [elt for x in iter if cond]` (one `for`, any number of
    /// `if`s) assigned to a name: the statements it equals,
    ///
    /// ```python
    /// xs = []
    /// for x in iter:
    ///     if cond:
    ///         xs.append(elt)
    /// ```
    ///
    /// a list local as `lower/lists.rs` compiles it, each statement and
    /// expression located at the part of the comprehension it comes from.
    /// The comprehension's names (`x`) are locals of its own, as in
    /// CPython 3 (named `x$0k`, the `k`th comprehension's: `$` is in no
    /// Python name, and a parameter's versions have no leading zero);
    /// `iter` is read outside them. The list is bound before `iter` and
    /// `elt` are read rather than after: a comprehension that reads the
    /// name it is assigned to is refused (the assignment of a refused
    /// expression). `None` for every other statement (a comprehension of
    /// another form, or elsewhere, stays a refused expression).
    fn comprehension(&mut self, s: &ast::Stmt) -> Option<Vec<StmtId>> {
        let ast::Stmt::Assign(a) = s else { return None };
        let ([ast::Expr::Name(list)], ast::Expr::ListComp(c)) = (&a.targets[..], &*a.value) else { return None };
        let [g] = &c.generators[..] else { return None };
        if g.is_async {
            return None;
        }
        let list_name = list.id.as_str();
        let mut bound = Vec::new();
        comprehension_names(&g.target, &mut bound);
        let reads_list = |e: &ast::Expr, inside: bool| {
            names_read(e).into_iter().any(|n| n == list_name && !(inside && bound.contains(&n)))
        };
        if reads_list(&g.iter, false) || g.ifs.iter().chain([&*c.elt]).any(|e| reads_list(e, true)) {
            let targets = Box::new([self.expr(&a.targets[0])]);
            let construct = "a list comprehension that reads the name it is assigned to";
            let value = self.alloc_expr(Expr::Refused { construct, parts: Box::new([]) }, &a.value);
            return Some(vec![self.alloc_stmt(Stmt::Assign { targets, value }, s)]);
        }
        let Name::Local(list_id) = self.resolve(list_name) else { return None };
        let list_at = list.range;
        let target = self.alloc_expr(Expr::Name(Name::Local(list_id)), &a.targets[0]);
        let empty = self.alloc_expr(Expr::List(Box::new([])), &a.value);
        let init = self.alloc_stmt(Stmt::Assign { targets: Box::new([target]), value: empty }, s);
        // Read where the comprehension starts, outside its names.
        let iter = self.expr(&g.iter);
        self.comprehensions += 1;
        let k = self.comprehensions;
        let mut shadowed = Vec::with_capacity(bound.len());
        for n in &bound {
            let id = self.body.locals.alloc(Local { name: format!("{n}$0{k}").into(), kind: LocalKind::Assigned });
            shadowed.push((n.clone(), self.scope.insert(n.clone(), id)));
        }
        let for_target = self.expr(&g.target);
        let tests: Vec<ExprId> = g.ifs.iter().map(|e| self.expr(e)).collect();
        let elt = self.expr(&c.elt);
        for (n, before) in shadowed.into_iter().rev() {
            match before {
                Some(id) => self.scope.insert(n, id),
                None => self.scope.remove(&n),
            };
        }
        let elt_at = c.elt.range();
        let base = self.alloc_expr_at(Expr::Name(Name::Local(list_id)), list_at);
        let append = self.alloc_expr_at(Expr::Attribute { base, attr: "append".into() }, elt_at);
        self.body.attr_ranges.insert(append, elt_at);
        let call =
            self.alloc_expr_at(Expr::Call { func: append, args: Box::new([elt]), keywords: Box::new([]) }, elt_at);
        let mut inner = self.alloc_stmt_at(Stmt::Expr(call), elt_at);
        for (&test, e) in tests.iter().zip(&g.ifs).rev() {
            let arms = Box::new([IfArm { test: Some(test), body: Box::new([inner]) }]);
            inner = self.alloc_stmt_at(Stmt::If { arms }, e.range());
        }
        let looped =
            Stmt::For { is_async: false, target: for_target, iter, body: Box::new([inner]), orelse: Box::new([]) };
        let looped = self.alloc_stmt_at(looped, c.range);
        Some(vec![init, looped])
    }

    /// The local named `name`, made with `kind` if it is new.
    fn declare(&mut self, name: &str, kind: LocalKind) -> LocalId {
        if let Some(&id) = self.scope.get(name) {
            return id;
        }
        let id = self.body.locals.alloc(Local { name: name.into(), kind });
        self.scope.insert(name.to_owned(), id);
        id
    }

    /// `st.f` (or `a.b.f`), where `st` is not a local and the module
    /// level declares the dotted name: a function of a POST module
    /// imported whole (see `Declarer::module_members`).
    fn module_member(&self, e: &ast::Expr) -> Option<String> {
        let mut root = e;
        while let ast::Expr::Attribute(a) = root {
            root = &a.value;
        }
        let ast::Expr::Name(n) = root else { return None };
        if self.scope.contains_key(n.id.as_str()) || !(self.is_global)(n.id.as_str()) {
            return None;
        }
        crate::syntax::dotted(e).filter(|d| (self.is_global)(d))
    }

    fn resolve(&mut self, name: &str) -> Name {
        match self.scope.get(name) {
            Some(&id) => Name::Local(id),
            None if (self.is_array)(name) => Name::Local(self.declare(name, LocalKind::Constant)),
            None if (self.is_global)(name) => Name::Global(name.into()),
            None => Name::Free(name.into()),
        }
    }

    fn alloc_expr(&mut self, e: Expr, syntax: &ast::Expr) -> ExprId {
        let id = self.body.exprs.alloc(e);
        self.body.expr_ranges.insert(id, syntax.range());
        id
    }

    fn alloc_stmt(&mut self, s: Stmt, syntax: &ast::Stmt) -> StmtId {
        self.alloc_stmt_at(s, syntax.range())
    }

    /// An expression or statement a construct stands for (see
    /// [`BodyBuilder::comprehension`]), located at `at`.
    fn alloc_expr_at(&mut self, e: Expr, at: ruff_text_size::TextRange) -> ExprId {
        let id = self.body.exprs.alloc(e);
        self.body.expr_ranges.insert(id, at);
        id
    }

    fn alloc_stmt_at(&mut self, s: Stmt, at: ruff_text_size::TextRange) -> StmtId {
        let id = self.body.stmts.alloc(s);
        self.body.stmt_ranges.insert(id, at);
        id
    }

    fn block(&mut self, stmts: &[ast::Stmt]) -> Box<[StmtId]> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            match self.comprehension(s) {
                Some(stmts) => out.extend(stmts),
                None => out.push(self.stmt(s)),
            }
        }
        out.into()
    }

    fn exprs(&mut self, es: &[ast::Expr]) -> Box<[ExprId]> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn opt_expr(&mut self, e: Option<&ast::Expr>) -> Option<ExprId> {
        e.map(|e| self.expr(e))
    }

    fn stmt(&mut self, s: &ast::Stmt) -> StmtId {
        // Blocks nest as deep as the source does.
        deep(|| self.stmt_inner(s))
    }

    fn stmt_inner(&mut self, s: &ast::Stmt) -> StmtId {
        use ast::Stmt as S;
        let hir = match s {
            S::Expr(e) => Stmt::Expr(self.expr(&e.value)),
            S::Assign(a) => {
                let targets = self.exprs(&a.targets);
                Stmt::Assign { targets, value: self.expr(&a.value) }
            }
            S::AnnAssign(a) => Stmt::AnnAssign {
                target: self.expr(&a.target),
                annotation: self.expr(&a.annotation),
                value: self.opt_expr(a.value.as_deref()),
            },
            S::AugAssign(a) => Stmt::AugAssign { target: self.expr(&a.target), op: a.op, value: self.expr(&a.value) },
            S::If(i) => {
                let mut arms = vec![IfArm { test: Some(self.expr(&i.test)), body: self.block(&i.body) }];
                for clause in &i.elif_else_clauses {
                    let test = self.opt_expr(clause.test.as_ref());
                    arms.push(IfArm { test, body: self.block(&clause.body) });
                }
                Stmt::If { arms: arms.into() }
            }
            S::While(w) => {
                Stmt::While { test: self.expr(&w.test), body: self.block(&w.body), orelse: self.block(&w.orelse) }
            }
            S::For(f) => Stmt::For {
                is_async: f.is_async,
                target: self.expr(&f.target),
                iter: self.expr(&f.iter),
                body: self.block(&f.body),
                orelse: self.block(&f.orelse),
            },
            S::Break(_) => Stmt::Break,
            S::Continue(_) => Stmt::Continue,
            S::Pass(_) => Stmt::Pass,
            S::Return(r) => Stmt::Return(self.opt_expr(r.value.as_deref())),
            S::Assert(a) => Stmt::Assert { test: self.expr(&a.test), msg: self.opt_expr(a.msg.as_deref()) },
            S::Raise(r) => {
                Stmt::Raise { exc: self.opt_expr(r.exc.as_deref()), cause: self.opt_expr(r.cause.as_deref()) }
            }
            S::FunctionDef(f) => Stmt::NestedFunction { name_range: f.name.range },
            S::Global(_) => Stmt::Global,
            S::Import(_) | S::ImportFrom(_) => Stmt::Import,
            S::With(w) => {
                let mut exprs = Vec::new();
                for item in &w.items {
                    exprs.push(self.expr(&item.context_expr));
                    exprs.extend(self.opt_expr(item.optional_vars.as_deref()));
                }
                let blocks = Box::new([self.block(&w.body)]);
                Stmt::Refused { construct: stmt_name(s), exprs: exprs.into(), blocks }
            }
            S::Try(t) => {
                let mut exprs = Vec::new();
                let mut blocks = vec![self.block(&t.body)];
                for ast::ExceptHandler::ExceptHandler(h) in &t.handlers {
                    exprs.extend(self.opt_expr(h.type_.as_deref()));
                    blocks.push(self.block(&h.body));
                }
                blocks.push(self.block(&t.orelse));
                blocks.push(self.block(&t.finalbody));
                Stmt::Refused { construct: stmt_name(s), exprs: exprs.into(), blocks: blocks.into() }
            }
            S::Match(m) => {
                let mut exprs = vec![self.expr(&m.subject)];
                let mut blocks = Vec::new();
                for case in &m.cases {
                    exprs.extend(self.opt_expr(case.guard.as_deref()));
                    blocks.push(self.block(&case.body));
                }
                Stmt::Refused { construct: stmt_name(s), exprs: exprs.into(), blocks: blocks.into() }
            }
            S::Delete(d) => {
                Stmt::Refused { construct: stmt_name(s), exprs: self.exprs(&d.targets), blocks: Box::new([]) }
            }
            // A class body and a `type` alias see names of their own.
            S::ClassDef(_) | S::TypeAlias(_) | S::Nonlocal(_) | S::IpyEscapeCommand(_) => {
                Stmt::Refused { construct: stmt_name(s), exprs: Box::new([]), blocks: Box::new([]) }
            }
        };
        self.alloc_stmt(hir, s)
    }

    fn expr(&mut self, e: &ast::Expr) -> ExprId {
        // A sum of 100,000 terms is 100,000 levels deep.
        deep(|| self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> ExprId {
        use ast::Expr as E;
        if let Some(l) = literal(e) {
            let hir = match l {
                Ok(lit) => Expr::Literal(lit),
                Err(_) => Expr::IntTooLarge,
            };
            return self.alloc_expr(hir, e);
        }
        let hir = match e {
            E::Name(n) => Expr::Name(self.resolve(n.id.as_str())),
            E::NoneLiteral(_) => Expr::None,
            E::EllipsisLiteral(_) => Expr::Ellipsis,
            E::BinOp(b) => Expr::BinOp { op: b.op, lhs: self.expr(&b.left), rhs: self.expr(&b.right) },
            E::UnaryOp(u) => Expr::UnaryOp { op: u.op, operand: self.expr(&u.operand) },
            E::BoolOp(b) => Expr::BoolOp { op: b.op, values: self.exprs(&b.values) },
            E::Compare(c) => {
                let mut operands = vec![self.expr(&c.left)];
                operands.extend(c.comparators.iter().map(|e| self.expr(e)));
                Expr::Compare { ops: c.ops.clone(), operands: operands.into() }
            }
            E::If(i) => Expr::If { test: self.expr(&i.test), body: self.expr(&i.body), orelse: self.expr(&i.orelse) },
            E::Call(c) => {
                let func = self.expr(&c.func);
                let args = match (&self.body.exprs[func], &*c.arguments.args, &*c.arguments.keywords) {
                    // `max([a, b])`: the list display is only iterated, so
                    // it is the tuple `(a, b)`.
                    (Expr::Name(Name::Free(f)), [ast::Expr::List(l)], [])
                        if matches!(&**f, "min" | "max" | "sum")
                            && !l.elts.iter().any(|e| matches!(e, ast::Expr::Starred(_))) =>
                    {
                        let elements = self.exprs(&l.elts);
                        Box::new([self.alloc_expr(Expr::Tuple(elements), &c.arguments.args[0])])
                    }
                    _ => self.exprs(&c.arguments.args),
                };
                let keywords = (c.arguments.keywords.iter())
                    .map(|k| Keyword {
                        name: k.arg.as_ref().map(|n| n.id.as_str().into()),
                        value: self.expr(&k.value),
                        range: k.range,
                    })
                    .collect();
                Expr::Call { func, args, keywords }
            }
            E::Attribute(a) => {
                if let Some(member) = self.module_member(e) {
                    return self.alloc_expr(Expr::Name(Name::Global(member.into())), e);
                }
                let hir = Expr::Attribute { base: self.expr(&a.value), attr: a.attr.id.as_str().into() };
                let id = self.alloc_expr(hir, e);
                self.body.attr_ranges.insert(id, a.attr.range);
                return id;
            }
            E::Subscript(s) => Expr::Subscript { base: self.expr(&s.value), index: self.expr(&s.slice) },
            E::Slice(s) => Expr::Slice {
                lower: self.opt_expr(s.lower.as_deref()),
                upper: self.opt_expr(s.upper.as_deref()),
                step: self.opt_expr(s.step.as_deref()),
            },
            E::Tuple(t) => Expr::Tuple(self.exprs(&t.elts)),
            E::List(l) => Expr::List(self.exprs(&l.elts)),
            E::Starred(s) => Expr::Starred(self.expr(&s.value)),
            other => {
                let parts = refused_parts(other).into_iter().map(|p| self.expr(p)).collect();
                // A list comprehension of another form than
                // `BodyBuilder::comprehension` compiles, or elsewhere.
                let construct = match other {
                    E::ListComp(c) if c.generators.len() > 1 => "a list comprehension with more than one `for`",
                    E::ListComp(c) if c.generators.iter().any(|g| g.is_async) => "an asynchronous comprehension",
                    other => construct_name(other),
                };
                Expr::Refused { construct, parts }
            }
        };
        self.alloc_expr(hir, e)
    }
}

/// The names a comprehension's `for` target binds (`x`, `i, x`).
fn comprehension_names(target: &ast::Expr, out: &mut Vec<String>) {
    match target {
        ast::Expr::Name(n) => out.push(n.id.to_string()),
        ast::Expr::Tuple(t) => t.elts.iter().for_each(|e| comprehension_names(e, out)),
        ast::Expr::List(l) => l.elts.iter().for_each(|e| comprehension_names(e, out)),
        ast::Expr::Starred(s) => comprehension_names(&s.value, out),
        _ => {}
    }
}

/// Every name `e` reads, nested scopes' included.
fn names_read(e: &ast::Expr) -> Vec<String> {
    use ruff_python_ast::visitor::{walk_expr, Visitor};
    struct Names(Vec<String>);
    impl<'e> Visitor<'e> for Names {
        fn visit_expr(&mut self, e: &'e ast::Expr) {
            if let ast::Expr::Name(n) = e {
                self.0.push(n.id.to_string());
            }
            deep(|| walk_expr(self, e));
        }
    }
    let mut names = Names(Vec::new());
    names.visit_expr(e);
    names.0
}

/// The children of a refused expression that are checked on their own: a
/// lambda's body and a comprehension's parts are not (they see names of
/// their own), nor is the name `:=` binds.
pub(crate) fn refused_parts(e: &ast::Expr) -> Vec<&ast::Expr> {
    use ruff_python_ast::visitor::{walk_expr, Visitor};
    struct Children<'e>(Vec<&'e ast::Expr>);
    impl<'e> Visitor<'e> for Children<'e> {
        fn visit_expr(&mut self, e: &'e ast::Expr) {
            self.0.push(e);
        }
    }
    match e {
        ast::Expr::Lambda(_)
        | ast::Expr::ListComp(_)
        | ast::Expr::SetComp(_)
        | ast::Expr::DictComp(_)
        | ast::Expr::Generator(_) => Vec::new(),
        ast::Expr::Named(n) => vec![&*n.value],
        e => {
            let mut children = Children(Vec::new());
            walk_expr(&mut children, e);
            children.0
        }
    }
}
