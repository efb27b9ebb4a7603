//! Which reads of a local may see the memory of a read-only array, so
//! that writes through them are refused: an input array parameter (one
//! not marked `Out`) or a module-level array, which compiled code never
//! writes.
//!
//! The answer is per read, not per local, and follows the body's control
//! flow: `x_pad = np.zeros(n); x_pad[k:] = x` writes a new array even when
//! another branch binds `x_pad = x`, and only reads that the binding to
//! `x` can reach are refused as writes. What it does, once per body
//! before lowering:
//!
//! - a forward "may" analysis over the structured statements; its state is
//!   the set of locals that may hold a read-only array or a view of one;
//! - a binding (`=`, an annotated assignment, a `for` target) puts its
//!   target in the state when its value may share such memory (a root
//!   name, a view of one — `a[i]`, `a[lo:hi]`, `a.T`, `reshape`, `ravel`,
//!   `transpose` —, either arm of a conditional expression, the arrays
//!   that `enumerate` or `zip` walk) and takes it out otherwise; a tuple
//!   bound to a tuple of the same length pairs them, any other tuple
//!   target takes every root of the value;
//! - the arms of an `if` join by union, without an `else` with the state
//!   before it; a loop walks its body until the state at its head stops
//!   growing, every state inside it joining the state after it (which a
//!   `break` can reach);
//! - `break`, `continue` and `return` are walked as if control went on:
//!   that only adds states, so the answer stays on the refusing side.
//!
//! A call of a POST function whose result may be a view of its array
//! arguments ([`FuncDecl::returns_view`], found by [`mark_returned_views`]
//! for the functions of a module, assumed of every imported one) shares
//! the memory of the arrays it is given. Nothing else is followed through
//! calls: NumPy's functions that return views are the `view_bases` of
//! `slicing.rs`; every other call makes a new array or a number.
//!
//! Its answers ([`ReadOnly`], with the messages of the writes refused)
//! are found before the typecheck runs and given to it: the typecheck
//! refuses each write where it types the array written
//! (`typeck::read_only`), the lowering only the others.

use super::ModuleCx;
use crate::declare::{FuncDecl, Global};
use crate::hir;
use la_arena::ArenaMap;
use postc_ir::TypeTable;
use ruff_python_ast as ast;
use std::collections::HashSet;

/// What the analysis finds of one body.
pub(super) struct Shared {
    /// The reads (`Expr::Name` ids) of names that may hold one of the
    /// roots or a view of one where they are read: a root itself until it
    /// is bound to something else, and every local bound to one.
    pub reads: ArenaMap<hir::ExprId, ()>,
    /// Whether a `return` may give one of them.
    pub returned: bool,
}

/// Follows the memory of `roots` (parameters or module-level arrays, by
/// name) through the body; `returns_view` says which callees' results
/// may be views of their arguments.
pub(super) fn shared_memory(
    hir: &hir::Body,
    roots: &HashSet<String>,
    returns_view: &dyn Fn(&hir::Name) -> bool,
) -> Shared {
    let mut walk = Walk { hir, returns_view, found: ArenaMap::default(), loop_states: Vec::new(), returned: false };
    walk.block(&hir.top, roots.iter().map(String::as_str).collect());
    Shared { reads: walk.found, returned: walk.returned }
}

/// Whether a call of the module-level name `name` may return a view of
/// the arrays it is given: a function of the module whose
/// [`FuncDecl::returns_view`] says so, and every function of another
/// module (its body is not at hand).
pub(super) fn callee_returns_view(cx: &ModuleCx<'_>, funcs: &[FuncDecl], name: &str) -> bool {
    let mut name = name;
    // An alias of an alias ... of a function, as far as calls follow them.
    for _ in 0..8 {
        match cx.globals.get(name) {
            Some(Global::Func(i)) => return funcs.get(*i).is_some_and(|f| f.returns_view),
            // Whichever instance the call names: assumed.
            Some(Global::PostImport { .. } | Global::Generic(_)) => return true,
            Some(Global::Alias(target)) => name = target,
            _ => return false,
        }
    }
    false
}

/// Sets [`FuncDecl::returns_view`] of every function of `funcs` (the
/// module's, `def` statements in `stmts`) that may return one of its
/// array parameters or a view of one, directly or through calls of
/// others, until no more are found.
pub(crate) fn mark_returned_views(cx: &ModuleCx<'_>, funcs: &mut [FuncDecl], stmts: &[ast::Stmt], types: &TypeTable) {
    let returns_arrays = |t: Option<postc_ir::TypeId>| {
        t.is_none_or(|t| {
            let td = types.get(t);
            td.is_array || td.elements.iter().any(|e| e.is_array)
        })
    };
    let bodies: Vec<Option<(hir::Body, HashSet<String>)>> = (funcs.iter())
        .map(|decl| {
            let ast::Stmt::FunctionDef(def) = stmts.get(decl.stmt)? else { return None };
            let arrays: HashSet<String> =
                (decl.params.iter()).filter(|(_, t)| types.get(*t).is_array).map(|(n, _)| n.clone()).collect();
            (!arrays.is_empty() && returns_arrays(decl.ret)).then(|| (super::body_hir(cx, decl, def), arrays))
        })
        .collect();
    loop {
        let found: Vec<usize> = (0..funcs.len())
            .filter(|&i| !funcs[i].returns_view)
            .filter(|&i| {
                let Some((hir, arrays)) = &bodies[i] else { return false };
                let returns_view = |n: &hir::Name| match n {
                    hir::Name::Global(g) => callee_returns_view(cx, funcs, g),
                    _ => false,
                };
                shared_memory(hir, arrays, &returns_view).returned
            })
            .collect();
        if found.is_empty() {
            return;
        }
        for i in found {
            funcs[i].returns_view = true;
        }
    }
}

struct Walk<'a, 'f> {
    hir: &'a hir::Body,
    returns_view: &'f dyn Fn(&hir::Name) -> bool,
    returned: bool,
    found: ArenaMap<hir::ExprId, ()>,
    /// For each enclosing loop, the union of the states inside its body.
    loop_states: Vec<HashSet<&'a str>>,
}

impl<'a> Walk<'a, '_> {
    fn block(&mut self, stmts: &[hir::StmtId], mut state: HashSet<&'a str>) -> HashSet<&'a str> {
        for &s in stmts {
            self.join_loop(&state);
            // Blocks nest as deep as the source does.
            state = crate::syntax::deep(|| self.stmt(s, state));
        }
        self.join_loop(&state);
        state
    }

    fn join_loop(&mut self, state: &HashSet<&'a str>) {
        if let Some(seen) = self.loop_states.last_mut() {
            seen.extend(state.iter().copied());
        }
    }

    fn stmt(&mut self, s: hir::StmtId, mut state: HashSet<&'a str>) -> HashSet<&'a str> {
        let hir = self.hir;
        match &hir.stmts[s] {
            &hir::Stmt::Expr(e) => self.reads(e, &state),
            &hir::Stmt::Return(Some(e)) => {
                self.reads(e, &state);
                self.returned |= self.shares(e, &state);
            }
            hir::Stmt::Assign { targets, value } => {
                self.reads(*value, &state);
                for &t in targets.iter() {
                    self.reads(t, &state);
                }
                for &t in targets.iter() {
                    self.bind(t, *value, &mut state);
                }
            }
            &hir::Stmt::AnnAssign { target, value, .. } => {
                if let Some(value) = value {
                    self.reads(value, &state);
                    self.reads(target, &state);
                    self.bind(target, value, &mut state);
                }
            }
            // `a += b` updates `a` in place (an array) or rebinds a number.
            &hir::Stmt::AugAssign { target, value, .. } => {
                self.reads(value, &state);
                self.reads(target, &state);
            }
            hir::Stmt::If { arms } => {
                let mut joined = HashSet::new();
                let mut has_else = false;
                for arm in arms.iter() {
                    match arm.test {
                        Some(t) => self.reads(t, &state),
                        None => has_else = true,
                    }
                    joined.extend(self.block(&arm.body, state.clone()));
                }
                if !has_else {
                    joined.extend(state);
                }
                state = joined;
            }
            hir::Stmt::While { test, body, orelse } => {
                let test = *test;
                let head = self.repeat(state, |w, s| {
                    w.reads(test, s);
                    w.block(body, s.clone())
                });
                self.reads(test, &head);
                let after = self.block(orelse, head.clone());
                state = head.into_iter().chain(after).collect();
            }
            hir::Stmt::For { target, iter, body, orelse, .. } => {
                let (target, iter) = (*target, *iter);
                self.reads(iter, &state);
                let head = self.repeat(state, |w, s| {
                    let mut s = s.clone();
                    w.bind(target, iter, &mut s);
                    w.block(body, s)
                });
                let after = self.block(orelse, head.clone());
                state = head.into_iter().chain(after).collect();
            }
            hir::Stmt::Assert { test, msg } => {
                self.reads(*test, &state);
                if let Some(m) = msg {
                    self.reads(*m, &state);
                }
            }
            hir::Stmt::Raise { exc, cause } => {
                for e in exc.iter().chain(cause.iter()) {
                    self.reads(*e, &state);
                }
            }
            hir::Stmt::Refused { exprs, blocks, .. } => {
                for &e in exprs.iter() {
                    self.reads(e, &state);
                }
                for b in blocks.iter() {
                    let after = self.block(b, state.clone());
                    state.extend(after);
                }
            }
            hir::Stmt::Return(None)
            | hir::Stmt::Break
            | hir::Stmt::Continue
            | hir::Stmt::Pass
            | hir::Stmt::NestedFunction { .. }
            | hir::Stmt::Global
            | hir::Stmt::Import => {}
        }
        state
    }

    /// The state at a loop's head: `entry`, joined with every state its
    /// body (walked by `body` from the head) reaches, until it stops
    /// growing. Reads inside are recorded under each state tried, the
    /// last being the largest.
    fn repeat(
        &mut self,
        entry: HashSet<&'a str>,
        mut body: impl FnMut(&mut Self, &HashSet<&'a str>) -> HashSet<&'a str>,
    ) -> HashSet<&'a str> {
        let mut head = entry;
        loop {
            self.loop_states.push(HashSet::new());
            let end = body(self, &head);
            let inside = self.loop_states.pop().expect("pushed above");
            let before = head.len();
            head.extend(end);
            head.extend(inside);
            if head.len() == before {
                // The loop's states join the enclosing loop's too.
                self.join_loop(&head);
                return head;
            }
        }
    }

    /// Binds `target` to `value` in `state`.
    fn bind(&self, target: hir::ExprId, value: hir::ExprId, state: &mut HashSet<&'a str>) {
        let hir = self.hir;
        match (&hir.exprs[target], &hir.exprs[value]) {
            (hir::Expr::Tuple(ts) | hir::Expr::List(ts), hir::Expr::Tuple(vs) | hir::Expr::List(vs))
                if ts.len() == vs.len() =>
            {
                // `x, y = y, x`: every value is read before any target is bound.
                let shares: Vec<bool> = vs.iter().map(|&v| self.shares(v, state)).collect();
                for (&t, shares) in ts.iter().zip(shares) {
                    self.set(t, shares, state);
                }
            }
            (hir::Expr::Tuple(ts) | hir::Expr::List(ts), _) => {
                let shares = self.shares(value, state);
                for &t in ts.iter() {
                    self.set(t, shares, state);
                }
            }
            _ => {
                let shares = self.shares(value, state);
                self.set(target, shares, state);
            }
        }
    }

    fn set(&self, target: hir::ExprId, shares: bool, state: &mut HashSet<&'a str>) {
        match &self.hir.exprs[target] {
            hir::Expr::Name(n) => {
                let name = self.hir.name_text(n);
                if shares {
                    state.insert(name);
                } else {
                    state.remove(name);
                }
            }
            // A nested tuple target: its names take the whole value's answer.
            hir::Expr::Tuple(ts) | hir::Expr::List(ts) => {
                for &t in ts.iter() {
                    self.set(t, shares, state);
                }
            }
            _ => {}
        }
    }

    /// Whether `value` may share the memory of a root, given `state`.
    fn shares(&self, value: hir::ExprId, state: &HashSet<&'a str>) -> bool {
        let hir = self.hir;
        let mut todo = vec![value];
        while let Some(e) = todo.pop() {
            match &hir.exprs[e] {
                hir::Expr::Name(n) => {
                    let name = hir.name_text(n);
                    if state.contains(name) {
                        return true;
                    }
                }
                hir::Expr::Tuple(elts) => todo.extend(elts.iter().copied()),
                // A callee that may return a view of what it is given.
                hir::Expr::Call { func, .. } if matches!(&hir.exprs[*func], hir::Expr::Name(n) if (self.returns_view)(n)) => {
                    todo.extend(hir.children(e).into_iter().skip(1))
                }
                &hir::Expr::If { body, orelse, .. } => todo.extend([body, orelse]),
                hir::Expr::Call { func, args, .. }
                    if matches!(&hir.exprs[*func],
                        hir::Expr::Name(n) if matches!(hir.name_text(n), "enumerate" | "zip")) =>
                {
                    todo.extend(args.iter().copied())
                }
                _ => todo.extend(super::slicing::view_bases(hir, e)),
            }
        }
        false
    }

    /// Records the reads in `e` of locals `state` holds.
    fn reads(&mut self, e: hir::ExprId, state: &HashSet<&'a str>) {
        let hir = self.hir;
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            if let hir::Expr::Name(n) = &hir.exprs[e] {
                if state.contains(hir.name_text(n)) {
                    self.found.insert(e, ());
                }
            }
            todo.extend(hir.children(e));
        }
    }
}

/// The reads of one body that may see read-only memory (see
/// [`shared_memory`]), found before the typecheck runs: both it and the
/// lowering refuse the writes through them, with [`ReadOnly::message`].
#[derive(Default)]
pub(crate) struct ReadOnly {
    /// The reads that may see an input array or a module-level array.
    pub inputs: ArenaMap<hir::ExprId, ()>,
    /// The reads that may see a module-level array.
    pub constants: ArenaMap<hir::ExprId, ()>,
    /// The calls of POST functions whose results may be views of the
    /// arrays they are given (see [`callee_returns_view`]).
    pub view_calls: ArenaMap<hir::ExprId, ()>,
}

impl ReadOnly {
    /// The reads of `hir` (of a function declared as `decl`) that may see
    /// read-only memory.
    pub(super) fn of(cx: &ModuleCx<'_>, hir: &hir::Body, decl: &FuncDecl, types: &TypeTable) -> Self {
        let mut input_arrays: HashSet<String> = (decl.params.iter())
            .filter(|(_, t)| types.get(*t).is_array && !types.get(*t).is_output)
            .map(|(n, _)| n.clone())
            .collect();
        let constants: HashSet<String> =
            (hir.locals.values()).filter(|l| l.kind == hir::LocalKind::Constant).map(|l| l.name.to_string()).collect();
        input_arrays.extend(constants.iter().cloned());
        let returns_view = |n: &hir::Name| match n {
            hir::Name::Global(g) => callee_returns_view(cx, cx.funcs, g),
            _ => false,
        };
        let mut view_calls = ArenaMap::default();
        for (e, expr) in hir.exprs.iter() {
            if let hir::Expr::Call { func, .. } = expr {
                if matches!(&hir.exprs[*func], hir::Expr::Name(n) if returns_view(n)) {
                    view_calls.insert(e, ());
                }
            }
        }
        ReadOnly {
            constants: shared_memory(hir, &constants, &returns_view).reads,
            inputs: shared_memory(hir, &input_arrays, &returns_view).reads,
            view_calls,
        }
    }

    /// Whether `e` reads the memory of an input (not `Out`) array
    /// parameter or of a module-level array, so that writes through it
    /// are refused: the array itself, a view of it (`a[i]`, `a[:, j]`,
    /// `a.T`, what a POST function returning views of its arguments gives
    /// of it), or a local bound to such a view.
    pub(crate) fn reads_input_memory(&self, hir: &hir::Body, e: hir::ExprId) -> bool {
        match &hir.exprs[e] {
            hir::Expr::Name(_) => self.inputs.contains_idx(e),
            _ => self.bases(hir, e).into_iter().any(|b| self.reads_input_memory(hir, b)),
        }
    }

    /// The arrays whose memory `e` may share: the [`view_bases`] of a
    /// view, the arguments of a call in `view_calls`.
    ///
    /// [`view_bases`]: super::slicing::view_bases
    fn bases(&self, hir: &hir::Body, e: hir::ExprId) -> Vec<hir::ExprId> {
        match &hir.exprs[e] {
            hir::Expr::Call { .. } if self.view_calls.contains_idx(e) => hir.children(e).into_iter().skip(1).collect(),
            _ => super::slicing::view_bases(hir, e),
        }
    }

    /// Whether `e` is a module-level array, a view of one, or a local
    /// bound to such a view.
    pub(crate) fn reads_constant(&self, hir: &hir::Body, e: hir::ExprId) -> bool {
        match &hir.exprs[e] {
            hir::Expr::Name(hir::Name::Local(id)) if hir.locals[*id].kind == hir::LocalKind::Constant => true,
            hir::Expr::Name(_) => self.constants.contains_idx(e),
            _ => self.bases(hir, e).into_iter().any(|b| self.reads_constant(hir, b)),
        }
    }

    /// Why a write to `e`, which [`ReadOnly::reads_input_memory`], is
    /// refused, in a function that is an instance of a generic one or not.
    pub(crate) fn message(&self, hir: &hir::Body, instance: bool, e: hir::ExprId) -> String {
        // An instance of a generic function is given its caller's input
        // array: the caller's parameter is what to mark.
        let fix = if !instance {
            "cannot be written: mark the parameter `Out[...]`"
        } else {
            "cannot be written: a caller passes its input array here (mark that parameter `Out[...]`)"
        };
        let constant = "cannot be written: a module-level array is a read-only constant of compiled code (copy it \
                        with `.copy()` to write)";
        match &hir.exprs[e] {
            hir::Expr::Name(hir::Name::Local(id)) if hir.locals[*id].kind == hir::LocalKind::Constant => {
                format!("`{}` is a module-level array and {constant}", hir.locals[*id].name)
            }
            hir::Expr::Name(n) if self.constants.contains_idx(e) => {
                format!("`{}` is a view of a module-level array and {constant}", hir.name_text(n))
            }
            _ if self.reads_constant(hir, e) => format!("this is a view of a module-level array and {constant}"),
            hir::Expr::Name(hir::Name::Local(id))
                if matches!(hir.locals[*id].kind, hir::LocalKind::Param | hir::LocalKind::Poisoned) =>
            {
                format!("`{}` is an input array and {fix}", hir.locals[*id].name)
            }
            hir::Expr::Name(n) => format!("`{}` is a view of an input array and {fix}", hir.name_text(n)),
            _ => format!("this is a view of an input array and {fix}"),
        }
    }

    /// Why the array `given` for parameter `i` (counted from 0) of
    /// `callee`, which writes it (`Out`), is refused: a module-level array
    /// or a view of one, an input array or a view of one; `None` for an
    /// array the caller may write.
    pub(crate) fn written_argument_error(
        &self,
        hir: &hir::Body,
        callee: &str,
        i: usize,
        given: hir::ExprId,
    ) -> Option<String> {
        let nth = i + 1;
        if self.reads_constant(hir, given) {
            return Some(format!(
                "argument {nth} of `{callee}` is written by it, but this array is a module-level array, a read-only \
                 constant of compiled code (pass a `.copy()`)"
            ));
        }
        (self.reads_input_memory(hir, given))
            .then(|| format!("argument {nth} of `{callee}` is written by it, but this array is an input"))
    }
}
