//! Lists of numbers that grow by `append`, as Numba's reflected lists of
//! numbers are written: `xs = [xs0]` (or `ys = []`), `xs.append(x)` in a
//! loop, `xs[-1]`, `len(xs)`, `for x in xs`, and `np.array(xs)` at the
//! end.
//!
//! What it does: a list local (`typeck::list_locals`: every binding of it
//! a display) is a 1-D array local, the view of its first `len` elements
//! of a buffer in the call's arena, whose element dtype the typecheck
//! joined from every element and appended value as `np.array` joins
//! numbers (a Python int as Int64, a Python float as Float64). `append`
//! stores into the buffer, first moving it into one twice as large (at
//! least 4) when it is full, and rebinds the local to the longer view, so
//! indexing (negative indices, bounds checks), `len` and `for` are the
//! array's. `np.array(xs)` copies it. A list comprehension assigned to a
//! name (`xs = [f(x) for x in a if c]`) is such a local: the HIR builds
//! it as `xs = []` and a `for` loop that appends (`hir`'s
//! `BodyBuilder::comprehension`, its names its own), so its dtype is the
//! element's even when the loop never runs. `return xs`, and `xs` as an
//! element of a returned tuple display, return a new array of its
//! elements (`copy_of`), recorded in the IR function's `list_results` so
//! that Python callers get a `list` (`postc_ir::exports::Ret::List`); a
//! result that is a list has no annotation (`lib.rs` and
//! `inferred_result` find it, `return_tuple_values` for an element).
//!
//! What it does not: a list does not grow inside a `prange` loop that
//! runs in parallel; a list is not a value — read otherwise than by
//! index, `len`, a `for` loop, `np.array`/`np.asarray`, `.append` or a
//! `return` (bound to another name, passed to a function), it is a
//! compile error, as are its other methods; a POST caller of a function
//! that returns a list is refused (`post_call`), as is a list returned
//! under an annotated result or inside a tuple inside the result; a
//! comprehension elsewhere than assigned to a name, or with two `for`s,
//! stays a refused expression; since its elements share one
//! dtype, `xs[i]` of `[1]` appended `2.5` reads Float64 `1.0` where
//! CPython's list holds the int `1` (equal values). A list that is never
//! given an element has no element type: a compile error.

use super::*;

/// A method of the list local `name` other than `append`.
pub(crate) fn list_method_error(name: &str, attr: &str) -> String {
    format!("`{name}.{attr}` is not compiled: a list grows by `append` and is read by index")
}

/// What is not a number given to a list.
pub(crate) const LIST_HOLDS_NUMBERS: &str = "a list holds numbers here";

/// A read of the list local `name` as a value (see
/// `typeck::lists::list_misreads`).
pub(crate) fn list_read_error(name: &str) -> String {
    format!(
        "the list `{name}` is read here as a value: compiled code reads a list by index, `len`, a `for` loop or \
         `np.array({name})`, and returns it (alone or in a tuple)"
    )
}

/// `xs.append(...)` in a `prange` loop that runs in parallel: iterations
/// would move and write the one buffer at once.
pub(crate) fn list_grown_in_parallel_error(name: &str) -> String {
    format!("the list `{name}` cannot grow in a `prange` loop that runs in parallel")
}

/// `xs.append(...)` of other than one value.
pub(crate) const APPEND_TAKES_ONE_VALUE: &str = "`append` takes one value";

impl<'a, 'c> FnLower<'a, 'c> {
    /// Declares in the entry block the buffer of every list local, an
    /// empty array of its dtype until the list is bound.
    pub(super) fn declare_list_buffers(&mut self) {
        let mut names: Vec<(String, TypeData)> = (self.lists.keys())
            .filter_map(|n| match &self.locals.get(n)?.ty {
                Some(LocalTy::Array(t)) => Some((n.clone(), t.clone())),
                _ => None,
            })
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (n, ty) in names {
            let tid = self.types.intern(ty);
            let zero = self.zero(DType::Int64);
            let nm = self.fresh("unbound");
            let init = self.b.alloc(tid, &[zero], &nm);
            let nm = self.fresh(&format!("{n}.buffer"));
            let buf = self.b.let_(tid, init, &nm);
            self.lists.insert(n, Some(buf));
        }
    }

    /// `xs = [a, b, ...]` of a list local: whether `target` is one (and
    /// the display bound, or reported).
    pub(super) fn bind_list(&mut self, target: hir::ExprId, value: hir::ExprId) -> bool {
        let hir = self.hir;
        let (hir::Expr::Name(n), hir::Expr::List(elts)) = (&hir.exprs[target], &hir.exprs[value]) else {
            return false;
        };
        let name = self.name_text(n).to_owned();
        let Some(&buffer) = self.lists.get(&name) else { return false };
        let at = self.range(value);
        let (Some(buf), Some(LocalTy::Array(ty))) = (buffer, self.locals[&name].ty.clone()) else {
            // Checked for the errors of its own all the same.
            for &e in elts.iter() {
                self.expr(e);
            }
            // With elements or appends, what made them untyped is their
            // own error; without, the typecheck refuses the statement.
            let local = match n {
                hir::Name::Local(id) => Some(*id),
                _ => None,
            };
            let appended =
                (hir.exprs.iter()).any(|(e, _)| typeck::list_append(hir, e).is_some_and(|(id, _)| Some(id) == local));
            if elts.is_empty() && !appended {
                self.refused_statement(&self.range(target));
            }
            return true;
        };
        let d = ty.dtype;
        let mut vals = Vec::with_capacity(elts.len());
        for &e in elts.iter() {
            let v = self.expr(e);
            let e_at = self.range(e);
            if v.scalar().is_none() {
                if !matches!(v, Val::Err) {
                    self.err(&e_at, LIST_HOLDS_NUMBERS);
                }
                return true;
            }
            let Some(x) = self.materialize(&v, d, &e_at) else { return true };
            vals.push(x);
        }
        self.at(&at);
        let nm = self.fresh("len");
        let len = self.b.int(TypeId::INT64, vals.len() as i128, &nm);
        let (arr, _) = self.new_array(d, &[(len, true)], &at);
        for (i, x) in vals.into_iter().enumerate() {
            let nm = self.fresh("i");
            let i = self.b.int(TypeId::INT64, i as i128, &nm);
            self.b.index_store(arr, &[i], x);
        }
        self.b.set(buf, arr);
        self.assign_local(&name, Val::Arr { v: arr, ty }, self.range(target), at);
        true
    }

    /// `xs.append(v)` of a list local `xs`, if `c` is one.
    pub(super) fn list_method(&mut self, c: &CallExpr) -> Option<Val> {
        let hir = self.hir;
        let &hir::Expr::Attribute { base, ref attr } = &hir.exprs[c.func] else { return None };
        let hir::Expr::Name(n) = &hir.exprs[base] else { return None };
        let name = self.name_text(n).to_owned();
        let buffer = *self.lists.get(&name)?;
        if &**attr != "append" {
            return Some(self.err(&hir.attr_ranges[c.func], list_method_error(&name, attr)));
        }
        let ([arg], []) = (c.args, c.keywords) else {
            return Some(self.err(c, APPEND_TAKES_ONE_VALUE));
        };
        if self.parallel_depth > 0 {
            // Iterations would move and write the one buffer at once.
            return Some(self.err(c, list_grown_in_parallel_error(&name)));
        }
        let v = self.expr(*arg);
        let arg_at = self.range(*arg);
        if v.scalar().is_none() {
            if !matches!(v, Val::Err) {
                self.err(&arg_at, LIST_HOLDS_NUMBERS);
            }
            return Some(Val::Err);
        }
        let (Some(buf), Some(LocalTy::Array(ty))) = (buffer, self.locals[&name].ty.clone()) else {
            return Some(Val::Err);
        };
        let d = ty.dtype;
        let Some(x) = self.materialize(&v, d, &arg_at) else { return Some(Val::Err) };
        let list = self.slots[&name];
        self.at(c);
        let nm = self.fresh("len");
        let len = self.b.dim(list, 0, &nm);
        let nm = self.fresh("cap");
        let cap = self.b.dim(buf, 0, &nm);
        let full = self.result(Opcode::Ge, DType::Bool, len, cap);
        let (grow, store) = (self.block("list.grow"), self.block("list.store"));
        self.b.condbr(full, grow, store, None);
        self.enter(grow);
        // Twice the length, at least 4.
        let twice = self.result(Opcode::Add, DType::Int64, len, len);
        let four = self.int_const(4, c);
        let small = self.result(Opcode::Lt, DType::Bool, twice, four);
        let nm = self.fresh("newcap");
        let newcap = self.b.select(TypeId::INT64, small, four, twice, &nm);
        let (larger, _) = self.new_array(d, &[(newcap, true)], c);
        let open = self.loops_open(&[len], c);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let nm = self.fresh("el");
        let el = self.b.index_load(TypeId::scalar(d), buf, &idx, &nm);
        self.b.index_store(larger, &idx, el);
        self.loops_close(open, c);
        self.b.set(buf, larger);
        self.br(store);
        self.enter(store);
        self.b.index_store(buf, &[len], x);
        let one = self.int_const(1, c);
        let longer = self.result(Opcode::Add, DType::Int64, len, one);
        let zero = self.int_const(0, c);
        let itemsize = self.int_const(i64::from(d.size_bytes()), c);
        let view = self.make_view(buf, &ty, zero, &[longer], &[itemsize], c);
        let Val::Arr { v: view, .. } = view else { return Some(Val::Err) };
        self.b.set(list, view);
        Some(Val::Void)
    }

    /// Whether `e` names a list local.
    pub(super) fn is_list_name(&self, e: hir::ExprId) -> bool {
        matches!(&self.hir.exprs[e], hir::Expr::Name(n) if self.lists.contains_key(self.name_text(n)))
    }
}
