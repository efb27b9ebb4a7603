//! The types of a function's scalar and tuple locals, solved once over
//! its HIR.
//!
//! What it does: collects every binding of every local (assignments,
//! annotations, augmented assignments, unpackings of tuples, of
//! `a.shape` and of 1-D arrays, `for` counters over `range` and `for`
//! variables over tuples), then
//! runs one worklist: a binding's value is typed from the types known so
//! far, joined into its local's type ([`join`], along the numeric tower
//! and NEP 50; an annotated local keeps its annotation; a tuple local's
//! elements each join as a scalar local does) and its
//! non-negativity; when a local's type changes, only the bindings that
//! read it are typed again. The lattice is finite and joins only go up,
//! so it ends.
//!
//! What it does not do (yet): type every expression. It knows literals,
//! module constants, parameters, arithmetic, comparisons, `and`/`or`,
//! conditional expressions, indexing one element of an array parameter,
//! an array parameter's extents, casts, `len`, `abs`, `min`, `max`,
//! `postc.math` intrinsics and calls of the module's scalar functions,
//! and tuples of scalars: displays, `a.shape`, `divmod`, indexing,
//! `sum`, `==` and `in`, each by the rule the lowering applies. A local
//! bound by anything else (an array, a tuple of arrays or of tuples, a
//! NumPy call, a `for` over arrays, a construct in error) gets no type
//! here,
//! and the lowering infers it in rounds as before. It reports nothing:
//! where a rule would refuse its operands the type is simply not known.
//!
//! A type it gives is the one the lowering's rounds reach: in a debug
//! build the lowering checks that, for every body, against its rounds.

use crate::declare::{python_scalar, FuncDecl, Global};
use crate::hir::{Body, Expr, ExprId, LocalId, LocalKind, Name, Stmt, StmtId};
use crate::pytypes::{arith, join, kind, promote, widens_to, Kind, Operand, Scalar};
use crate::syntax::{deep, Lit};
use la_arena::ArenaMap;
use postc_ir::{DType, TypeData, TypeTable};
use ruff_python_ast as ast;
use std::collections::HashMap;

/// What a function body is typed against.
pub(crate) struct TypeEnv<'a> {
    pub globals: &'a HashMap<String, Global>,
    pub funcs: &'a [FuncDecl],
    pub types: &'a TypeTable,
    pub decl: &'a FuncDecl,
}

/// A scalar local's type, as the lowering's `LocalInfo` holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LocalType {
    pub scalar: Scalar,
    /// Every value bound to it is non-negative.
    pub nonneg: bool,
    /// Its type is its annotation.
    pub annotated: bool,
}

/// The locals the typecheck types: scalars, and tuples of scalars
/// element by element (as the lowering's element locals hold them).
#[derive(Default)]
pub(crate) struct LocalTypes {
    pub scalars: ArenaMap<LocalId, LocalType>,
    pub tuples: ArenaMap<LocalId, Vec<LocalType>>,
}

impl LocalTypes {
    pub(crate) fn contains(&self, id: LocalId) -> bool {
        self.scalars.get(id).is_some() || self.tuples.get(id).is_some()
    }
}

/// The types of the scalar and tuple locals of `body` whose every binding
/// is typed, from values that read only such locals, parameters and
/// constants.
pub(crate) fn local_types(body: &Body, env: &TypeEnv) -> LocalTypes {
    let mut cx = Solver { body, env, states: ArenaMap::default(), bindings: Vec::new(), readers: ArenaMap::default() };
    for (id, local) in body.locals.iter() {
        let open = local.kind == LocalKind::Assigned;
        cx.states.insert(id, State { ty: None, elems: None, nonneg: true, annotation: None, open, bindings: 0 });
    }
    cx.collect(&body.top);
    cx.solve();
    // A local typed from another that is not (a partial type) is not
    // typed either.
    let assigned = |id: LocalId| body.locals[id].kind == LocalKind::Assigned;
    let mut untyped: Vec<LocalId> = (cx.states.iter())
        .filter(|(id, st)| assigned(*id) && (!st.open || (st.ty.is_none() && st.elems.is_none())))
        .map(|(id, _)| id)
        .collect();
    untyped.extend(cx.bindings.iter().filter(|b| !b.typed && assigned(b.local)).map(|b| b.local));
    for id in &untyped {
        cx.states[*id].open = false;
    }
    while let Some(id) = untyped.pop() {
        for &r in cx.readers.get(id).into_iter().flatten() {
            let reader = cx.bindings[r].local;
            if cx.states[reader].open {
                cx.states[reader].open = false;
                untyped.push(reader);
            }
        }
    }
    let mut out = LocalTypes::default();
    for (id, st) in cx.states.iter() {
        if !(st.open && st.bindings > 0) {
            continue;
        }
        if let Some(scalar) = st.ty {
            out.scalars.insert(id, LocalType { scalar, nonneg: st.nonneg, annotated: st.annotation.is_some() });
        } else if let Some(elems) = &st.elems {
            let elems = elems.iter().map(|&(scalar, nonneg)| LocalType { scalar, nonneg, annotated: false });
            out.tuples.insert(id, elems.collect());
        }
    }
    out
}

/// What the solver knows of a local.
struct State {
    ty: Option<Scalar>,
    /// A tuple local's elements: each one's type and non-negativity.
    elems: Option<Vec<(Scalar, bool)>>,
    nonneg: bool,
    annotation: Option<DType>,
    /// Still typeable here: no binding of it is one this module does not
    /// know, and no two of them conflict.
    open: bool,
    bindings: usize,
}

#[derive(Clone, Copy)]
enum Bound {
    /// `x = value` (or `x: T = value`).
    Value(ExprId),
    /// `x op= value`.
    Update(ast::Operator, ExprId),
    /// `for x in range(...)`: the call.
    RangeCounter(ExprId),
    /// `n, m = a.shape`: one extent of the array `a` of `axes` axes.
    Extent { array: ExprId, axes: usize },
    /// `x, y = t`: element `index` of `count` of a tuple, or of a 1-D
    /// array.
    Element { value: ExprId, index: usize, count: usize },
    /// `for x in t` over a tuple: each of its elements in turn.
    EveryElement(ExprId),
}

struct Binding {
    local: LocalId,
    bound: Bound,
    /// Typed on the last visit.
    typed: bool,
}

/// The type of a value, as the lowering's `Val` would have it.
#[derive(Clone, Debug)]
enum Ty {
    Num { s: Scalar, nonneg: bool },
    Lit { lit: Lit, s: Scalar },
    Arr(TypeData),
    Tuple(Vec<Ty>),
}

impl Ty {
    fn scalar(&self) -> Option<Scalar> {
        match self {
            Ty::Num { s, .. } | Ty::Lit { s, .. } => Some(*s),
            Ty::Arr(_) | Ty::Tuple(_) => None,
        }
    }

    /// As `Val::nonneg`.
    fn nonneg(&self) -> bool {
        match self {
            Ty::Num { nonneg, s } => *nonneg || s.dtype.is_unsigned_int(),
            Ty::Lit { lit: Lit::Int(i), .. } => *i >= 0,
            Ty::Lit { lit: Lit::Bool(_), .. } => true,
            _ => false,
        }
    }

    fn operand(&self) -> Option<Operand<'_>> {
        let (s, lit) = match self {
            Ty::Num { s, .. } => (*s, None),
            Ty::Lit { lit, s } => (*s, Some(lit)),
            Ty::Arr(_) | Ty::Tuple(_) => return None,
        };
        Some(Operand { s, nonneg: self.nonneg(), lit })
    }

    /// Whether the lowering's `materialize` converts it to `dtype`
    /// without an error.
    fn converts_to(&self, dtype: DType) -> bool {
        match self {
            Ty::Lit { lit, .. } => lit.convert(dtype).is_some(),
            Ty::Num { s, .. } => s.dtype == dtype || !(s.dtype.is_text() || dtype.is_text()),
            Ty::Arr(_) | Ty::Tuple(_) => false,
        }
    }

    /// Whether it is a condition (the lowering's `truth`).
    fn is_condition(&self) -> bool {
        match self.scalar() {
            Some(s) if kind(s.dtype) <= Kind::Complex => self.converts_to(s.dtype),
            _ => false,
        }
    }
}

/// Joins a tuple into a local's state, element by element, as the
/// lowering's `assign_tuple_local` does; whether the state changed.
fn join_tuple_into(st: &mut State, elems: &[Ty]) -> bool {
    let new: Option<Vec<(Scalar, bool)>> = elems.iter().map(|e| Some((e.scalar()?, e.nonneg()))).collect();
    let Some(new) = new.filter(|_| st.ty.is_none() && st.annotation.is_none()) else {
        // A tuple of arrays or tuples (not typed here), or a scalar local
        // bound to a tuple (refused by the lowering).
        st.open = false;
        return false;
    };
    let Some(old) = &st.elems else {
        st.elems = Some(new);
        return true;
    };
    if old.len() != new.len() {
        st.open = false;
        return false;
    }
    let mut joined = Vec::with_capacity(new.len());
    for (&(t, t_nonneg), &(s, s_nonneg)) in old.iter().zip(&new) {
        let Some(j) = join(t, s) else {
            st.open = false;
            return false;
        };
        joined.push((j, t_nonneg && s_nonneg));
    }
    let changed = *old != joined;
    st.elems = Some(joined);
    changed
}

/// An array's extent: a Python int, never negative.
fn extent() -> Ty {
    Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }
}

fn bool_result(weak: bool) -> Ty {
    Ty::Num { s: Scalar { dtype: DType::Bool, weak }, nonneg: true }
}

struct Solver<'a> {
    body: &'a Body,
    env: &'a TypeEnv<'a>,
    states: ArenaMap<LocalId, State>,
    bindings: Vec<Binding>,
    /// The bindings whose values read each local.
    readers: ArenaMap<LocalId, Vec<usize>>,
}

impl Solver<'_> {
    // ---- bindings ---------------------------------------------------------

    fn bind(&mut self, local: LocalId, bound: Bound) {
        self.states[local].bindings += 1;
        self.bindings.push(Binding { local, bound, typed: false });
    }

    /// Every local named in `e`, which a construct binds in a way not
    /// typed here.
    fn close_names_in(&mut self, e: ExprId) {
        let mut pending = vec![e];
        while let Some(e) = pending.pop() {
            match &self.body.exprs[e] {
                Expr::Name(Name::Local(id)) => self.states[*id].open = false,
                Expr::Tuple(es) | Expr::List(es) => pending.extend(es.iter()),
                Expr::Starred(e) => pending.push(*e),
                _ => {}
            }
        }
    }

    fn local_of(&self, e: ExprId) -> Option<LocalId> {
        match self.body.exprs[e] {
            Expr::Name(Name::Local(id)) => Some(id),
            _ => None,
        }
    }

    /// The bindings of `block` and the blocks in it, in source order.
    fn collect(&mut self, block: &[StmtId]) {
        // Blocks nest as deep as the source: a stack of the statements
        // still to visit, innermost first.
        let mut pending: Vec<StmtId> = block.iter().rev().copied().collect();
        while let Some(s) = pending.pop() {
            let push_blocks = |pending: &mut Vec<StmtId>, blocks: &[&[StmtId]]| {
                for b in blocks.iter().rev() {
                    pending.extend(b.iter().rev());
                }
            };
            match &self.body.stmts[s] {
                Stmt::Assign { targets, value } => {
                    let unpacks = targets.iter().any(|t| matches!(self.body.exprs[*t], Expr::Tuple(_) | Expr::List(_)));
                    if let (true, [target]) = (unpacks, &targets[..]) {
                        self.unpacking(*target, *value);
                        continue;
                    }
                    for &t in targets.iter() {
                        match self.local_of(t) {
                            Some(id) if !unpacks => self.bind(id, Bound::Value(*value)),
                            _ => self.close_names_in(t),
                        }
                    }
                }
                Stmt::AnnAssign { target, annotation, value } => {
                    let Some(id) = self.local_of(*target) else { continue };
                    match (self.annotation(*annotation), self.states[id].annotation) {
                        (Some(d), None) => {
                            // The annotation is the type, bound or not.
                            self.states[id].annotation = Some(d);
                            self.states[id].ty = Some(Scalar::strong(d));
                        }
                        (Some(d), Some(before)) if d == before => {}
                        // Refused or conflicting: its value is not bound.
                        _ => {
                            self.states[id].open = false;
                            continue;
                        }
                    }
                    if let Some(v) = value {
                        self.bind(id, Bound::Value(*v));
                    }
                }
                Stmt::AugAssign { target, op, value } => {
                    if let Some(id) = self.local_of(*target) {
                        self.bind(id, Bound::Update(*op, *value));
                    }
                }
                Stmt::For { is_async, target, iter, body, orelse } => {
                    match self.local_of(*target) {
                        Some(id) if !is_async && self.is_range_call(*iter) => self.bind(id, Bound::RangeCounter(*iter)),
                        Some(id) if !is_async && self.may_be_tuple(*iter) => self.bind(id, Bound::EveryElement(*iter)),
                        _ => self.close_names_in(*target),
                    }
                    push_blocks(&mut pending, &[body, orelse]);
                }
                Stmt::If { arms } => {
                    let blocks: Vec<&[StmtId]> = arms.iter().map(|a| &*a.body).collect();
                    push_blocks(&mut pending, &blocks);
                }
                Stmt::While { body, orelse, .. } => push_blocks(&mut pending, &[body, orelse]),
                Stmt::Refused { exprs, blocks, .. } => {
                    for &e in exprs.iter() {
                        self.close_names_in(e);
                    }
                    let blocks: Vec<&[StmtId]> = blocks.iter().map(|b| &**b).collect();
                    push_blocks(&mut pending, &blocks);
                }
                Stmt::Expr(_)
                | Stmt::Break
                | Stmt::Continue
                | Stmt::Pass
                | Stmt::Return(_)
                | Stmt::Assert { .. }
                | Stmt::Raise { .. }
                | Stmt::NestedFunction { .. }
                | Stmt::Global
                | Stmt::Import => {}
            }
        }
    }

    /// `a, b = x, y` and `n, m = a.shape`, as the lowering's `unpack`
    /// takes them: one level of names (or elements), as many values as
    /// targets; each name is bound to its value.
    fn unpacking(&mut self, target: ExprId, value: ExprId) {
        let (Expr::Tuple(targets) | Expr::List(targets)) = &self.body.exprs[target] else { return };
        let nested = |e: &ExprId| matches!(self.body.exprs[*e], Expr::Tuple(_) | Expr::List(_) | Expr::Starred(_));
        let bounds: Option<Vec<Bound>> = match &self.body.exprs[value] {
            _ if targets.iter().any(nested) => None,
            Expr::Tuple(values) | Expr::List(values) => {
                let plain = values.len() == targets.len() && !values.iter().any(nested);
                plain.then(|| values.iter().map(|v| Bound::Value(*v)).collect())
            }
            Expr::Attribute { base, attr } if &**attr == "shape" => {
                Some(vec![Bound::Extent { array: *base, axes: targets.len() }; targets.len()])
            }
            _ => {
                let count = targets.len();
                Some((0..count).map(|index| Bound::Element { value, index, count }).collect())
            }
        };
        let Some(bounds) = bounds else { return self.close_names_in(target) };
        for (t, bound) in targets.iter().zip(bounds) {
            if let Some(id) = self.local_of(*t) {
                self.bind(id, bound);
            }
        }
    }

    /// A local's annotation, when it is a scalar type named plainly
    /// (`Float32`, `float`).
    fn annotation(&self, e: ExprId) -> Option<DType> {
        match &self.body.exprs[e] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n) {
                Some(Global::Type(t)) => Some(*t),
                _ => None,
            },
            Expr::Name(Name::Free(n)) => python_scalar(n),
            _ => None,
        }
    }

    /// Whether a `for` loop over `e` may run over a tuple (as the
    /// lowering's `is_tuple_expr` decides once types are known).
    fn may_be_tuple(&self, e: ExprId) -> bool {
        match &self.body.exprs[e] {
            Expr::Tuple(_) | Expr::Name(Name::Local(_)) => true,
            Expr::Attribute { attr, .. } => &**attr == "shape",
            _ => false,
        }
    }

    /// `range(...)` with the builtin `range`, without keywords.
    fn is_range_call(&self, e: ExprId) -> bool {
        match &self.body.exprs[e] {
            Expr::Call { func, keywords, .. } => {
                keywords.is_empty() && matches!(&self.body.exprs[*func], Expr::Name(Name::Free(n)) if &**n == "range")
            }
            _ => false,
        }
    }

    // ---- the worklist -------------------------------------------------------

    fn solve(&mut self) {
        let mut readers: ArenaMap<LocalId, Vec<usize>> = ArenaMap::default();
        for (i, b) in self.bindings.iter().enumerate() {
            let (value, updated) = match b.bound {
                Bound::Value(v)
                | Bound::RangeCounter(v)
                | Bound::Extent { array: v, .. }
                | Bound::Element { value: v, .. }
                | Bound::EveryElement(v) => (v, None),
                Bound::Update(_, v) => (v, Some(b.local)),
            };
            for id in self.locals_read(value).into_iter().chain(updated) {
                let r = readers.entry(id).or_default();
                if r.last() != Some(&i) {
                    r.push(i);
                }
            }
        }
        let mut queued = vec![true; self.bindings.len()];
        let mut queue: std::collections::VecDeque<usize> = (0..self.bindings.len()).collect();
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            let local = self.bindings[i].local;
            if !self.states[local].open {
                continue;
            }
            let tys = self.binding_types(self.bindings[i].bound, local);
            self.bindings[i].typed = tys.is_some();
            let Some(tys) = tys else { continue };
            let mut changed = false;
            for ty in &tys {
                changed |= self.join_into(local, ty);
            }
            if changed {
                for &r in readers.get(local).into_iter().flatten() {
                    if !queued[r] {
                        queued[r] = true;
                        queue.push_back(r);
                    }
                }
            }
        }
        self.readers = readers;
    }

    /// The locals an expression reads.
    fn locals_read(&self, e: ExprId) -> Vec<LocalId> {
        let mut out = Vec::new();
        let mut pending = vec![e];
        while let Some(e) = pending.pop() {
            let children: &[ExprId] = match &self.body.exprs[e] {
                Expr::Name(Name::Local(id)) => {
                    out.push(*id);
                    &[]
                }
                Expr::BinOp { lhs, rhs, .. } => {
                    pending.extend([*lhs, *rhs]);
                    &[]
                }
                Expr::UnaryOp { operand, .. } | Expr::Starred(operand) => {
                    pending.push(*operand);
                    &[]
                }
                Expr::If { test, body, orelse } => {
                    pending.extend([*test, *body, *orelse]);
                    &[]
                }
                Expr::Attribute { base, .. } => {
                    pending.push(*base);
                    &[]
                }
                Expr::Subscript { base, index } => {
                    pending.extend([*base, *index]);
                    &[]
                }
                Expr::Slice { lower, upper, step } => {
                    pending.extend([*lower, *upper, *step].into_iter().flatten());
                    &[]
                }
                Expr::Call { func, args, keywords } => {
                    pending.push(*func);
                    pending.extend(keywords.iter().map(|k| k.value));
                    args
                }
                Expr::BoolOp { values: es, .. }
                | Expr::Compare { operands: es, .. }
                | Expr::Tuple(es)
                | Expr::List(es)
                | Expr::Refused { parts: es, .. } => es,
                Expr::Name(_) | Expr::Literal(_) | Expr::IntTooLarge | Expr::None | Expr::Ellipsis => &[],
            };
            pending.extend(children.iter().copied());
        }
        out
    }

    /// Joins a value bound to `local` into its type, as the lowering's
    /// `assign_local` does; whether its state changed.
    fn join_into(&mut self, local: LocalId, ty: &Ty) -> bool {
        let st = &mut self.states[local];
        if let Ty::Tuple(elems) = ty {
            return join_tuple_into(st, elems);
        }
        let Some(s) = ty.scalar() else {
            st.open = false;
            return false;
        };
        if st.elems.is_some() {
            // A tuple local bound to a scalar: refused by the lowering.
            st.open = false;
            return false;
        }
        let before = (st.ty, st.nonneg);
        match (st.annotation, st.ty) {
            (Some(annotated), _) if !widens_to(s, annotated) => {
                st.open = false;
                return false;
            }
            (Some(annotated), _) => st.ty = Some(Scalar::strong(annotated)),
            (None, None) => st.ty = Some(s),
            (None, Some(t)) => match join(t, s) {
                Some(j) => st.ty = Some(j),
                None => {
                    st.open = false;
                    return false;
                }
            },
        }
        st.nonneg &= ty.nonneg();
        (st.ty, st.nonneg) != before
    }

    /// The types a binding gives its local, in order (a `for` loop over a
    /// tuple gives it each element's).
    fn binding_types(&self, bound: Bound, local: LocalId) -> Option<Vec<Ty>> {
        match bound {
            Bound::EveryElement(iter) => match self.ty(iter)? {
                Ty::Tuple(elems) => Some(elems),
                _ => None,
            },
            other => self.binding_type(other, local).map(|t| vec![t]),
        }
    }

    fn binding_type(&self, bound: Bound, local: LocalId) -> Option<Ty> {
        match bound {
            Bound::Value(v) => self.ty(v),
            Bound::Update(op, v) => {
                let st = &self.states[local];
                let current = Ty::Num { s: st.ty?, nonneg: st.nonneg };
                let value = self.ty(v)?;
                self.arith_type(op, &current, &value)
            }
            Bound::RangeCounter(call) => self.range_counter(call),
            Bound::Extent { array, axes } => match self.ty(array)? {
                Ty::Arr(ty) if ty.ndim() == Some(axes) => Some(extent()),
                _ => None,
            },
            // As the lowering's `unpacked`.
            Bound::Element { value, index, count } => match self.ty(value)? {
                Ty::Tuple(mut elems) if elems.len() == count => Some(elems.swap_remove(index)),
                Ty::Arr(ty) if ty.ndim() == Some(1) => Some(Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false }),
                _ => None,
            },
            Bound::EveryElement(_) => None,
        }
    }

    // ---- expressions --------------------------------------------------------

    fn ty(&self, e: ExprId) -> Option<Ty> {
        // A sum of 100,000 terms is 100,000 levels deep.
        deep(|| self.ty_inner(e))
    }

    fn ty_inner(&self, e: ExprId) -> Option<Ty> {
        match &self.body.exprs[e] {
            Expr::Literal(lit) => {
                let d = lit.default_dtype();
                Some(Ty::Lit { lit: lit.clone(), s: Scalar { dtype: d, weak: !d.is_text() } })
            }
            Expr::Name(name) => self.name(name),
            Expr::BinOp { op, lhs, rhs } => {
                let (l, r) = (self.ty(*lhs)?, self.ty(*rhs)?);
                self.arith_type(*op, &l, &r)
            }
            Expr::UnaryOp { op, operand } => unary(*op, self.ty(*operand)?),
            Expr::Compare { ops, operands } => self.compare(ops, operands),
            Expr::BoolOp { values, .. } => {
                for v in values.iter() {
                    let t = self.ty(*v)?;
                    if t.scalar()?.dtype != DType::Bool || !t.converts_to(DType::Bool) {
                        return None;
                    }
                }
                Some(bool_result(false))
            }
            Expr::If { test, body, orelse } => {
                if !self.ty(*test)?.is_condition() {
                    return None;
                }
                let (t, f) = (self.ty(*body)?, self.ty(*orelse)?);
                if let (Ty::Tuple(ts), Ty::Tuple(fs)) = (&t, &f) {
                    return arms_of_tuples(ts, fs);
                }
                let p = promote(t.scalar()?, f.scalar()?)?;
                (t.converts_to(p.dtype) && f.converts_to(p.dtype))
                    .then(|| Ty::Num { s: p, nonneg: t.nonneg() && f.nonneg() })
            }
            Expr::Call { func, args, keywords } if keywords.is_empty() => self.call(*func, args),
            Expr::Subscript { base, index } => self.element(*base, *index),
            Expr::Tuple(es) => {
                let elems = es.iter().map(|e| match self.body.exprs[*e] {
                    Expr::Starred(_) => None,
                    _ => self.ty(*e),
                });
                Some(Ty::Tuple(elems.collect::<Option<_>>()?))
            }
            Expr::Attribute { base, attr } if &**attr == "shape" => match self.ty(*base)? {
                Ty::Arr(ty) => Some(Ty::Tuple(vec![extent(); ty.ndim()?])),
                _ => None,
            },
            _ => None,
        }
    }

    fn name(&self, name: &Name) -> Option<Ty> {
        match name {
            Name::Local(id) => match self.body.locals[*id].kind {
                LocalKind::Param => {
                    let decl = self.env.decl;
                    let at = decl.params.iter().position(|(n, _)| **n == *self.body.locals[*id].name)?;
                    // A parameter that may be `None` is a number only where
                    // a test narrows it, which the lowering follows.
                    if decl.maybe_none[at] {
                        return None;
                    }
                    let t = &decl.params[at].1;
                    let td = self.env.types.get(*t);
                    Some(if td.is_array {
                        Ty::Arr(td.clone())
                    } else {
                        Ty::Num { s: Scalar::strong(td.dtype), nonneg: false }
                    })
                }
                LocalKind::Poisoned => None,
                LocalKind::Assigned => {
                    let st = &self.states[*id];
                    if let Some(elems) = &st.elems {
                        return Some(Ty::Tuple(elems.iter().map(|&(s, nonneg)| Ty::Num { s, nonneg }).collect()));
                    }
                    Some(Ty::Num { s: st.ty?, nonneg: st.nonneg })
                }
            },
            Name::Global(n) => match self.env.globals.get(&**n)? {
                Global::Const { lit, scalar } => Some(Ty::Lit { lit: lit.clone(), s: *scalar }),
                _ => None,
            },
            Name::Free(_) => None,
        }
    }

    fn arith_type(&self, op: ast::Operator, l: &Ty, r: &Ty) -> Option<Ty> {
        let a = arith(op, &l.operand()?, &r.operand()?).ok()?;
        (l.converts_to(a.operand) && r.converts_to(a.operand)).then_some(Ty::Num { s: a.result, nonneg: a.nonneg })
    }

    /// `a < b`, `a < b <= c`: as the lowering's `compare_pair` accepts
    /// each pair.
    fn compare(&self, ops: &[ast::CmpOp], operands: &[ExprId]) -> Option<Ty> {
        use ast::CmpOp as C;
        let tys: Vec<Ty> = operands.iter().map(|e| self.ty(*e)).collect::<Option<_>>()?;
        if let ([op], [l, r]) = (ops, &tys[..]) {
            let tuple = matches!(l, Ty::Tuple(_)) || matches!(r, Ty::Tuple(_));
            match op {
                // As the lowering's `tuple_compare` (which refuses a call
                // on the right of `in` before lowering it).
                C::In | C::NotIn => {
                    let Ty::Tuple(elems) = r else { return None };
                    if matches!(self.body.exprs[operands[1]], Expr::Call { .. }) {
                        return None;
                    }
                    return elems.iter().all(|e| self.equality_typed(l, e)).then(|| bool_result(true));
                }
                C::Eq | C::NotEq if tuple => return self.equality_typed(l, r).then(|| bool_result(true)),
                _ => {}
            }
        }
        for (op, pair) in ops.iter().zip(tys.windows(2)) {
            if matches!(op, C::Is | C::IsNot | C::In | C::NotIn) || !self.comparable(*op, &pair[0], &pair[1]) {
                return None;
            }
        }
        // Comparing Python scalars gives a Python bool.
        let weak = ops.len() == 1 && tys.iter().all(|t| t.scalar().is_some_and(|s| s.weak));
        Some(bool_result(weak))
    }

    /// Whether `l op r` of two scalars is a comparison the lowering's
    /// `compare_pair` makes.
    fn comparable(&self, op: ast::CmpOp, l: &Ty, r: &Ty) -> bool {
        use ast::CmpOp as C;
        let (Some(ls), Some(rs)) = (l.scalar(), r.scalar()) else { return false };
        let Some(mut p) = promote(ls, rs) else { return false };
        let out_of_range = |t: &Ty| match t {
            Ty::Lit { lit: Lit::Int(i), .. } => p.dtype.int_range().is_some_and(|(lo, hi)| *i < lo || *i > hi),
            _ => false,
        };
        let python_int = |t: &Ty| matches!(t, Ty::Num { s, .. } if s.weak && s.dtype.is_int());
        if p.dtype.is_int() && (out_of_range(l) || out_of_range(r)) {
            if p.dtype == DType::UInt64 {
                return true;
            }
            p = Scalar::strong(DType::Int64);
        }
        if p.dtype.is_int() && !p.weak && p.dtype != DType::Int64 && (python_int(l) || python_int(r)) {
            if p.dtype == DType::UInt64 {
                return true;
            }
            p = Scalar::strong(DType::Int64);
        }
        if p.dtype.is_complex() && !matches!(op, C::Eq | C::NotEq) {
            return false;
        }
        l.converts_to(p.dtype) && r.converts_to(p.dtype)
    }

    /// Whether the lowering's `values_equal` compares `l` and `r`: tuples
    /// element by element, a tuple and another value as unequal, scalars
    /// with `==`.
    fn equality_typed(&self, l: &Ty, r: &Ty) -> bool {
        match (l, r) {
            (Ty::Tuple(ls), Ty::Tuple(rs)) if ls.len() == rs.len() => {
                ls.iter().zip(rs).all(|(a, b)| self.equality_typed(a, b))
            }
            (Ty::Arr(_), _) | (_, Ty::Arr(_)) => false,
            (Ty::Tuple(_), _) | (_, Ty::Tuple(_)) => true,
            _ => self.comparable(ast::CmpOp::Eq, l, r),
        }
    }

    /// `a[i, j]`: one element of an array, every index an integer; or
    /// `a.shape[k]`, one extent.
    fn element(&self, base: ExprId, index: ExprId) -> Option<Ty> {
        if let Expr::Attribute { base: array, attr } = &self.body.exprs[base] {
            if &**attr != "shape" {
                return None;
            }
            let Ty::Arr(ty) = self.ty(*array)? else { return None };
            // A literal axis, as written (not a constant's name).
            let k = match &self.body.exprs[index] {
                Expr::Literal(Lit::Int(k)) => *k,
                Expr::UnaryOp { op: ast::UnaryOp::USub, operand } => match &self.body.exprs[*operand] {
                    Expr::Literal(Lit::Int(k)) => -*k,
                    _ => return None,
                },
                _ => return None,
            };
            let axes = ty.ndim()? as i128;
            let axis = if k < 0 { k + axes } else { k };
            return (0..axes).contains(&axis).then(extent);
        }
        let ty = match self.ty(base)? {
            Ty::Arr(ty) => ty,
            Ty::Tuple(elems) => return self.tuple_element(elems, index),
            _ => return None,
        };
        let entries: &[ExprId] = match &self.body.exprs[index] {
            Expr::Tuple(es) => es,
            _ => std::slice::from_ref(&index),
        };
        if ty.ndim()? != entries.len() {
            return None;
        }
        for e in entries {
            if matches!(self.body.exprs[*e], Expr::Slice { .. } | Expr::None | Expr::Ellipsis | Expr::Starred(_)) {
                return None;
            }
            let t = self.ty(*e)?;
            if kind(t.scalar()?.dtype) != Kind::Int || !t.converts_to(DType::Int64) {
                return None;
            }
        }
        Some(Ty::Num { s: Scalar::strong(ty.dtype), nonneg: false })
    }

    /// `t[k]` of a tuple, as the lowering's `tuple_subscript`: a constant
    /// index picks its element; another integer index one of a single
    /// dtype shared by every element.
    fn tuple_element(&self, mut elems: Vec<Ty>, index: ExprId) -> Option<Ty> {
        if matches!(self.body.exprs[index], Expr::Slice { .. }) {
            return None;
        }
        let i = self.ty(index)?;
        if let Ty::Lit { lit: Lit::Int(k), .. } = i {
            let len = elems.len() as i128;
            let at = if k < 0 { k + len } else { k };
            return (0..len).contains(&at).then(|| elems.swap_remove(at as usize));
        }
        if !i.scalar()?.dtype.is_int() || !i.converts_to(DType::Int64) {
            return None;
        }
        let common = elems.first()?.scalar()?.dtype;
        let mut weak = true;
        let mut nonneg = true;
        for e in &elems {
            let s = e.scalar()?;
            if s.dtype != common || !e.converts_to(common) {
                return None;
            }
            weak &= s.weak;
            nonneg &= e.nonneg();
        }
        Some(Ty::Num { s: Scalar { dtype: common, weak }, nonneg })
    }

    fn call(&self, func: ExprId, args: &[ExprId]) -> Option<Ty> {
        if args.iter().any(|a| matches!(self.body.exprs[*a], Expr::Starred(_))) {
            return None;
        }
        let Expr::Name(name) = &self.body.exprs[func] else { return None };
        let tys = || args.iter().map(|a| self.ty(*a)).collect::<Option<Vec<Ty>>>();
        match name {
            Name::Free(n) => match &**n {
                "len" => len(&tys()?),
                "abs" => abs(&tys()?),
                "min" => min_max(&spread_one_tuple(tys()?), true),
                "max" => min_max(&spread_one_tuple(tys()?), false),
                "sum" => self.sum(tys()?),
                "divmod" => match &tys()?[..] {
                    [a, b] => Some(Ty::Tuple(vec![
                        self.arith_type(ast::Operator::FloorDiv, a, b)?,
                        self.arith_type(ast::Operator::Mod, a, b)?,
                    ])),
                    _ => None,
                },
                n => cast(python_scalar(n)?, true, &tys()?),
            },
            Name::Global(n) => match self.env.globals.get(&**n)? {
                Global::Type(t) => cast(*t, false, &tys()?),
                Global::Intrinsic { .. } => intrinsic(&tys()?),
                Global::Func(i) => self.scalar_function(&self.env.funcs[*i], &tys()?),
                _ => None,
            },
            Name::Local(_) => None,
        }
    }

    /// `sum(t)` or `sum(t, start)` of a tuple, as the lowering's `sum`:
    /// `start` (a Python 0 unless given) plus each element in turn.
    fn sum(&self, args: Vec<Ty>) -> Option<Ty> {
        let mut args = args.into_iter();
        let Some(Ty::Tuple(elems)) = args.next() else { return None };
        let mut acc = args.next().unwrap_or(Ty::Lit { lit: Lit::Int(0), s: Scalar::weak(DType::Int64) });
        if args.next().is_some() {
            return None;
        }
        for e in &elems {
            acc = self.arith_type(ast::Operator::Add, &acc, e)?;
        }
        Some(acc)
    }

    /// A call of a function of this module taking and returning scalars.
    fn scalar_function(&self, callee: &FuncDecl, args: &[Ty]) -> Option<Ty> {
        // A result that may be `None` is left to the lowering.
        if callee.ret_maybe_none || callee.maybe_none.iter().any(|m| *m) {
            return None;
        }
        // The parameters left out take their defaults, which fit them.
        if args.len() > callee.params.len() || args.len() + callee.defaults.len() < callee.params.len() {
            return None;
        }
        for (a, (_, p)) in args.iter().zip(&callee.params) {
            let p = self.env.types.get(*p);
            if p.is_array || !widens_to(a.scalar()?, p.dtype) || !a.converts_to(p.dtype) {
                return None;
            }
        }
        let ret = self.env.types.get(callee.ret?);
        (!ret.is_array && !ret.is_tuple()).then(|| Ty::Num { s: Scalar::strong(ret.dtype), nonneg: false })
    }

    /// The counter of `for x in range(...)`: a Python int, non-negative
    /// when the range says so.
    fn range_counter(&self, call: ExprId) -> Option<Ty> {
        let Expr::Call { args, .. } = &self.body.exprs[call] else { return None };
        if args.is_empty() || args.len() > 3 {
            return None;
        }
        let mut tys = Vec::new();
        for a in args.iter() {
            let t = self.ty(*a)?;
            if !matches!(kind(t.scalar()?.dtype), Kind::Int | Kind::Bool) || !t.converts_to(DType::Int64) {
                return None;
            }
            tys.push(t);
        }
        let int = |i| Ty::Lit { lit: Lit::Int(i), s: Scalar::weak(DType::Int64) };
        let (start, stop, step) = match &tys[..] {
            [stop] => (int(0), stop.clone(), int(1)),
            [start, stop] => (start.clone(), stop.clone(), int(1)),
            [start, stop, step, ..] => (start.clone(), stop.clone(), step.clone()),
            [] => return None,
        };
        let step_const = match &step {
            Ty::Lit { lit: Lit::Int(i), .. } => Some(*i),
            _ => None,
        };
        let nonneg = match step_const {
            Some(0) => return None,
            Some(s) if s > 0 => start.nonneg(),
            Some(_) => matches!(&stop, Ty::Lit { lit: Lit::Int(i), .. } if *i >= -1) || stop.nonneg(),
            None => start.nonneg() && stop.nonneg(),
        };
        Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg })
    }
}

/// `min(t)` and `max(t)` of one tuple take its elements.
fn spread_one_tuple(mut args: Vec<Ty>) -> Vec<Ty> {
    match &mut args[..] {
        [Ty::Tuple(elems)] => std::mem::take(elems),
        _ => args,
    }
}

/// A conditional expression choosing between tuples of scalars, as the
/// lowering's `ternary`: each element the arms' promotion.
fn arms_of_tuples(ts: &[Ty], fs: &[Ty]) -> Option<Ty> {
    if ts.len() != fs.len() {
        return None;
    }
    let mut elems = Vec::with_capacity(ts.len());
    for (t, f) in ts.iter().zip(fs) {
        let p = promote(t.scalar()?, f.scalar()?)?;
        if !(t.converts_to(p.dtype) && f.converts_to(p.dtype)) {
            return None;
        }
        elems.push(Ty::Num { s: p, nonneg: t.nonneg() && f.nonneg() });
    }
    Some(Ty::Tuple(elems))
}

/// A unary operator, as the lowering's `unary` applies it.
fn unary(op: ast::UnaryOp, v: Ty) -> Option<Ty> {
    use ast::UnaryOp as U;
    // Literals fold (`-1` stays a literal).
    if let Ty::Lit { lit, s } = &v {
        let folded = match (op, lit) {
            (U::USub, Lit::Int(i)) => Some(Lit::Int(-i)),
            (U::USub, Lit::Float(x)) => Some(Lit::Float(-x)),
            (U::USub, Lit::Complex(a, b)) => Some(Lit::Complex(-a, -b)),
            (U::UAdd, Lit::Int(_) | Lit::Float(_) | Lit::Complex(..)) => Some(lit.clone()),
            (U::Not, Lit::Bool(b)) => Some(Lit::Bool(!b)),
            _ => None,
        };
        if let Some(lit) = folded {
            return Some(Ty::Lit { lit, s: *s });
        }
    }
    let mut s = v.scalar()?;
    let mut v = v;
    // `-` and `~` of a Python bool are Python ints.
    if s.dtype == DType::Bool && s.weak && matches!(op, U::USub | U::Invert) {
        if !v.converts_to(DType::Int64) {
            return None;
        }
        s = Scalar::weak(DType::Int64);
        v = Ty::Num { s, nonneg: true };
    }
    match op {
        U::UAdd => (kind(s.dtype) <= Kind::Complex && s.dtype != DType::Bool).then_some(v),
        U::USub => (matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) && v.converts_to(s.dtype))
            .then_some(Ty::Num { s, nonneg: false }),
        U::Not => v.is_condition().then(|| bool_result(false)),
        U::Invert => match kind(s.dtype) {
            _ if !v.converts_to(s.dtype) => None,
            Kind::Bool => Some(Ty::Num { s, nonneg: true }),
            Kind::Int => Some(Ty::Num { s, nonneg: false }),
            _ => None,
        },
    }
}

/// `len(a)` (`len(t)` of a tuple too), as the lowering's `call_builtin`
/// gives it.
fn len(args: &[Ty]) -> Option<Ty> {
    let [v] = args else { return None };
    let python_int = |i: usize| Ty::Lit { lit: Lit::Int(i as i128), s: Scalar::weak(DType::Int64) };
    match v {
        Ty::Arr(ty) if ty.ndim() != Some(0) => Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }),
        Ty::Lit { lit: Lit::Str(s), .. } => Some(python_int(s.chars().count())),
        Ty::Lit { lit: Lit::Bytes(b), .. } => Some(python_int(b.len())),
        Ty::Tuple(elems) => Some(python_int(elems.len())),
        Ty::Num { s, .. } if s.dtype.is_text() => Some(Ty::Num { s: Scalar::weak(DType::Int64), nonneg: true }),
        _ => None,
    }
}

/// `abs(x)`.
fn abs(args: &[Ty]) -> Option<Ty> {
    let [v] = args else { return None };
    let s = v.scalar()?;
    match v {
        Ty::Lit { lit: Lit::Int(i), s } => Some(Ty::Lit { lit: Lit::Int(i.abs()), s: *s }),
        _ if s.dtype == DType::Bool => Some(v.clone()),
        Ty::Lit { lit: Lit::Float(x), s } => Some(Ty::Lit { lit: Lit::Float(x.abs()), s: *s }),
        _ if matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) && v.converts_to(s.dtype) => {
            let real = s.dtype.complex_part().unwrap_or(s.dtype);
            Some(Ty::Num { s: Scalar { dtype: real, weak: s.weak }, nonneg: kind(real) == Kind::Float })
        }
        _ => None,
    }
}

/// `min(a, b, ...)` or `max(a, b, ...)`.
fn min_max(args: &[Ty], is_min: bool) -> Option<Ty> {
    let (first, rest) = args.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let mut p: Option<Scalar> = None;
    for a in args {
        let s = a.scalar()?;
        if !(kind(s.dtype) <= Kind::Float || s.dtype.is_text()) {
            return None;
        }
        p = Some(match p {
            None => s,
            Some(q) => promote(q, s)?,
        });
    }
    let p = p?;
    if !args.iter().all(|a| a.converts_to(p.dtype)) {
        return None;
    }
    let mut nonneg = first.nonneg();
    for a in rest {
        nonneg = if is_min { nonneg && a.nonneg() } else { nonneg || a.nonneg() };
    }
    Some(Ty::Num { s: p, nonneg })
}

/// A `postc.math` function: a NumPy float of its arguments' float dtype
/// (Float64 for integers), whatever their kind.
fn intrinsic(args: &[Ty]) -> Option<Ty> {
    let mut common: Option<Scalar> = None;
    for a in args {
        let s = a.scalar()?;
        if kind(s.dtype) > Kind::Float {
            return None;
        }
        common = Some(match common {
            None => s,
            Some(c) => promote(c, s).unwrap_or(s),
        });
    }
    let common = common?;
    let d = if kind(common.dtype) == Kind::Float { common.dtype } else { DType::Float64 };
    args.iter().all(|a| a.converts_to(d)).then_some(Ty::Num { s: Scalar::strong(d), nonneg: false })
}

/// A cast to `dtype` (`Float32(x)`; `float(x)`, `int(x)` and
/// `complex(re, im)` give weak values), as the lowering's `cast_call`.
fn cast(dtype: DType, weak: bool, args: &[Ty]) -> Option<Ty> {
    let result = Scalar { dtype, weak };
    if dtype == DType::Complex128 && weak && args.len() == 2 {
        for a in args {
            if kind(a.scalar()?.dtype) > Kind::Float || !a.converts_to(DType::Float64) {
                return None;
            }
        }
        return Some(Ty::Num { s: Scalar::weak(DType::Complex128), nonneg: false });
    }
    let [v] = args else { return None };
    match v {
        Ty::Lit { lit, .. } => lit.cast(dtype).ok().map(|lit| Ty::Lit { lit, s: result }),
        Ty::Num { s, .. } if s.dtype.is_text() || dtype.is_text() => (s.dtype == dtype).then(|| v.clone()),
        Ty::Num { s, .. } => {
            if s.dtype.is_complex() && !dtype.is_complex() && dtype != DType::Bool && weak {
                return None;
            }
            let nonneg = s.dtype == dtype
                || (kind(dtype) == Kind::Int && dtype.bits() >= s.dtype.bits() && kind(s.dtype) == Kind::Int);
            Some(Ty::Num { s: result, nonneg: v.nonneg() && nonneg })
        }
        Ty::Arr(_) | Ty::Tuple(_) => None,
    }
}

#[cfg(test)]
mod tests;
