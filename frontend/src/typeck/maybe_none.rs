//! Values that may be `None` where the function cannot hold them,
//! found without following the flow of the body: `None` (or a call whose
//! result may be `None`) bound to a parameter not annotated `T | None`, a
//! local bound only ever to `None`, and a conditional expression with a
//! `None` arm whose other arm is not a Bool, an integer or a float.

use super::*;

/// A value that may be `None` bound to the parameter or local `name`
/// (of the scalar type `dtype`, `None` for another) that cannot hold it.
pub(crate) fn cannot_be_none_error(param: bool, name: &str, dtype: Option<DType>) -> String {
    let what = if param { "parameter" } else { "local" };
    let ty = dtype.map_or("a number", |d| d.name());
    format!("{what} `{name}` of type {ty} cannot be `None`: annotate it `{ty} | None` to allow `None`")
}

/// A local whose every binding is `None`: it has no type to hold a number
/// in.
pub(crate) fn only_ever_none_error(name: &str) -> String {
    format!(
        "`{name}` is only ever `None`: a local that may be `None` is also bound to a number (Bool, an integer or a \
         float) somewhere"
    )
}

/// An arm beside one that may be `None` that is not a number (`dtype`
/// `None`: an array, a tuple) or a number that cannot be `None` (a
/// complex number, text).
pub(crate) fn none_arm_error(dtype: Option<DType>) -> String {
    let base = "an arm of a conditional expression that may be `None` is `None` or a number (Bool, an integer or a \
                float)";
    match dtype {
        Some(d) => format!("{base}, not {}", d.name()),
        None => base.to_owned(),
    }
}

impl Solver<'_> {
    /// Whether `e` is `None` or a value that may be `None` wherever it is
    /// (whatever tests come before it): `None`, a call whose result may be
    /// `None`, a conditional expression with such an arm whose other arm
    /// is one too or a number. A local that may be `None` is not: a test
    /// may narrow it, which only the lowering follows.
    fn certainly_maybe_none(&self, e: ExprId) -> bool {
        let body = self.body;
        // Conditional expressions nest as deep as the source.
        let mut pending = vec![e];
        let mut found = false;
        while let Some(e) = pending.pop() {
            match body.exprs[e] {
                Expr::None => found = true,
                Expr::Call { .. } if !self.was_refused(e) && self.may_be_none_in(e, &ArenaMap::default()) => {
                    found = true
                }
                Expr::If { body: then, orelse, .. } if !self.was_refused(e) => {
                    for arm in [then, orelse] {
                        if matches!(body.exprs[arm], Expr::None | Expr::Call { .. } | Expr::If { .. }) {
                            pending.push(arm);
                        } else if self.number_arm(arm).is_none() {
                            return false;
                        }
                    }
                }
                _ => return false,
            }
        }
        found
    }

    /// The error of binding `value` to the local `id` where it is `None`
    /// or may be, as the lowering's `assign_maybe_none` refuses it: a
    /// parameter not annotated `T | None` bound to what is certainly
    /// `None` or may be ([`Solver::certainly_maybe_none`]), and a local
    /// bound only ever to `None` (at its first binding only), updated
    /// (`x += v`) or not.
    pub(super) fn none_binding_error(&self, id: LocalId, value: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        let local = &body.locals[id];
        let value_at = body.expr_ranges[value];
        // `i, j = (x, None)`: the `None` refused where it is read as a
        // number has its error.
        if self.was_refused(value) {
            return None;
        }
        match local.kind {
            LocalKind::Param => {
                let decl = self.env.decl;
                let at = decl.params.iter().position(|(n, _)| **n == *local.name)?;
                if decl.maybe_none[at] || !self.certainly_maybe_none(value) {
                    return None;
                }
                let dtype = scalar_parameter(self.env, &local.name).map(|s| s.dtype);
                Some((value_at, cannot_be_none_error(true, &local.name, dtype)))
            }
            LocalKind::Assigned => {
                let st = self.states.get(id)?;
                // Bound to nothing else: no dtype, range or list either.
                let typed = st.ty.is_some() || st.annotation.is_some() || st.elems.is_some() || st.arr.is_some();
                let other = st.dtype.is_some() || st.range.is_some() || st.list.is_some();
                let mut bindings = self.bindings.iter().filter(|b| b.local == id);
                let first = bindings.clone().next()?;
                // `x += v` updates what it holds, never a number here.
                let only_none = bindings.all(|b| match b.bound {
                    Bound::Value(v) => matches!(body.exprs[v], Expr::None),
                    Bound::Update(..) => true,
                    _ => false,
                });
                let at_first = matches!(first.bound, Bound::Value(v) if v == value);
                (only_none && !typed && !other && at_first).then(|| (value_at, only_ever_none_error(&local.name)))
            }
            _ => None,
        }
    }

    /// The conditional expression `e` of a `None` arm and the arm `arm`:
    /// the type of `arm`, which must be a Bool, an integer or a float (as
    /// the lowering's `ternary_maybe_none` takes it: wherever it is, the
    /// `None` arm is `None` or not a number).
    pub(super) fn beside_none_arm(&self, e: ExprId, arm: ExprId) -> Option<Ty> {
        let t = self.ty(arm)?;
        let at = self.body.expr_ranges[arm];
        match t.scalar() {
            None => self.refuse(e, at, none_arm_error(None)),
            Some(s) if kind(s.dtype) > Kind::Float => self.refuse(e, at, none_arm_error(Some(s.dtype))),
            Some(_) => self.number_arm(arm),
        }
    }
}

/// The local `name` that may be `None` read where nothing proves it is
/// not, as `what` (a number, an array, a tuple).
pub(crate) fn may_be_none_here_error(name: &str, what: &str) -> String {
    format!(
        "`{name}` may be `None` here: test `{name} is not None` first (or give it {what} when `{name} is None`) \
         before using it as {what}"
    )
}

impl Solver<'_> {
    /// The locals that may be `None` as the presence analysis reads them
    /// ([`presence::maybe_none_locals`]): parameters declared `T | None`,
    /// and locals bound to what may be `None`.
    pub(super) fn presence_locals(&self) -> ArenaMap<LocalId, ()> {
        let body = self.body;
        let decl = self.env.decl;
        let declared = |id: LocalId| {
            let name = &*body.locals[id].name;
            decl.params.iter().position(|(n, _)| **n == *name).is_some_and(|i| decl.maybe_none[i])
        };
        let returns = |func: ExprId| self.returns_maybe_none(func);
        presence::maybe_none_locals(body, &declared, &returns)
    }

    /// The reads of locals that may be `None` where they may be
    /// ([`presence::absent_reads`]), of the locals and callees the
    /// lowering takes to be `None` (or fewer).
    pub(super) fn absent_reads(&self) -> ArenaMap<ExprId, ()> {
        let body = self.body;
        let maybe = self.presence_locals();
        if maybe.iter().next().is_none() {
            return ArenaMap::default();
        }
        let returns = |func: ExprId| self.returns_maybe_none(func);
        presence::absent_reads(body, &maybe, &returns)
    }

    /// Reports the reads in the statement `s` of locals that may be
    /// `None` there ([`Solver::absent_reads`]) as the operands of
    /// arithmetic on numbers, of a unary operator but `not`, of
    /// orderings of numbers, the operands of `and` and the last of `or`
    /// whose value is used, the target and value of an augmented
    /// assignment of numbers, a value returned where the result is a
    /// number (never `None`): where the lowering reads a number; and the
    /// base of an index and the arguments of a NumPy function, a `math`
    /// function or an array's method ([`Solver::value_read`]), where it
    /// reads a number, an array or a tuple. Elsewhere (an argument of a
    /// POST function, a value assigned, a condition) it may take `None`
    /// or not, and the lowering reports the read.
    pub(super) fn check_maybe_none_reads(&self, s: StmtId) {
        let body = self.body;
        if self.reports.borrow().as_ref().is_some_and(|r| r.refused_stmts.get(s).is_some()) {
            return;
        }
        let scalar = |e: ExprId| self.ty(e).is_some_and(|t| t.scalar().is_some());
        let report = |e: ExprId| self.number_read(e);
        let roots = match &body.stmts[s] {
            // Lowered only as a call.
            Stmt::Expr(e) if !matches!(body.exprs[*e], Expr::Call { .. }) => return,
            &Stmt::AugAssign { target, value, .. } => {
                // Of a number (an array is updated in place).
                let array = matches!(self.ty(target), Some(Ty::Arr(_) | Ty::Tuple(_)));
                if matches!(body.exprs[target], Expr::Name(_)) && !array {
                    report(target);
                    report(value);
                }
                vec![value]
            }
            // A number returned where the result is a number (not one
            // that may be `None`).
            &Stmt::Return(Some(value)) => {
                let decl = self.env.decl;
                let number = decl.ret.filter(|_| !decl.ret_maybe_none && !decl.ret_poisoned).is_some_and(|t| {
                    let td = self.env.types.get(t);
                    !td.is_array && !td.is_tuple() && !td.dtype.is_text()
                });
                if number {
                    report(value);
                }
                vec![value]
            }
            stmt => parts_of(stmt).0,
        };
        let mut pending = roots;
        let mut children = Vec::new();
        while let Some(e) = pending.pop() {
            if self.unlowered.get(e).is_some() {
                continue;
            }
            // A refused expression's parts are lowered where they may be
            // `None` (the lowering's `expr_value`).
            if !self.was_refused(e) {
                match &body.exprs[e] {
                    &Expr::BinOp { op, lhs, rhs } if op != ast::Operator::MatMult => {
                        if scalar(rhs) {
                            report(lhs);
                        }
                        if scalar(lhs) {
                            report(rhs);
                        }
                    }
                    &Expr::UnaryOp { op, operand } if op != ast::UnaryOp::Not => report(operand),
                    // The value of `and`/`or` (not a condition): every
                    // operand of `and`, the last of `or` (one before it is
                    // taken only when true).
                    Expr::BoolOp { op, values } if self.conditions.get(e).is_none() => {
                        let last = values.len() - 1;
                        for (k, &v) in values.iter().enumerate() {
                            if matches!(op, ast::BoolOp::And) || k == last {
                                report(v);
                            }
                        }
                    }
                    Expr::Compare { ops, operands }
                        if ops.iter().all(|op| is_ordering(*op)) && operands.iter().all(|&o| scalar(o)) =>
                    {
                        operands.iter().for_each(|&o| report(o));
                    }
                    // Indexed: an array or a tuple.
                    &Expr::Subscript { base, .. } => self.value_read(base),
                    // Every argument of a NumPy function, a `math`
                    // function or an array's method (not of
                    // `np.histogram`, whose `range=` may be `None`).
                    Expr::Call { func, args, keywords } if self.takes_no_none(*func) => {
                        args.iter().for_each(|&a| self.value_read(a));
                        keywords.iter().for_each(|k| self.value_read(k.value));
                    }
                    _ => {}
                }
            }
            body.push_children(e, &mut children);
            pending.append(&mut children);
        }
    }

    /// Reports the argument `a` of a POST function's parameter `p` that
    /// is a number (never `None`) if it may be `None` there
    /// ([`Solver::number_read`]; the call keeps its type).
    pub(super) fn absent_argument(&self, a: ExprId, p: &TypeData) {
        if !p.is_array && !p.is_tuple() && !p.dtype.is_text() {
            self.number_read(a);
        }
    }

    /// Reports what in `e`, read where a number is needed (and lowered as
    /// one, conditional expressions' arms included), may be `None` there:
    /// a local that may be `None` there ([`Solver::absent_reads`]), a call
    /// whose result may be `None`, and `None` as an arm (`None` itself is
    /// refused as an operand, [`none_operands`], or returned,
    /// [`Solver::return_error`]).
    fn number_read(&self, e: ExprId) {
        let body = self.body;
        let mut pending = vec![(e, false)];
        while let Some((e, arm)) = pending.pop() {
            if self.was_refused(e) {
                continue;
            }
            match &body.exprs[e] {
                Expr::Name(Name::Local(id))
                    if self.absent_reads.get(e).is_some() && self.ty(e).is_some_and(|t| t.scalar().is_some()) =>
                {
                    self.refuse_here(e, may_be_none_here_error(&body.locals[*id].name, "a number"));
                }
                Expr::None if arm => {
                    self.refuse_here(e, crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER);
                }
                Expr::Call { func, .. } if self.returns_maybe_none(*func) && self.ty(e).is_some() => {
                    self.refuse_here(e, MAYBE_NONE_VALUE);
                }
                // Both arms are read as numbers where the test is lowered.
                &Expr::If { test, body: then, orelse } if self.ty(test).is_some() => {
                    pending.extend([(then, true), (orelse, true)]);
                }
                _ => {}
            }
        }
    }

    /// Reports `e`, a local that may be `None` there
    /// ([`Solver::absent_reads`]) read where the lowering takes its value
    /// (a number, an array or a tuple, as it is typed) and never `None`.
    pub(super) fn value_read(&self, e: ExprId) {
        let body = self.body;
        let Expr::Name(Name::Local(id)) = body.exprs[e] else { return };
        if self.was_refused(e) || self.absent_reads.get(e).is_none() {
            return;
        }
        let what = match self.ty(e) {
            Some(Ty::Arr(_)) => "an array",
            Some(Ty::Tuple(_)) => "a tuple",
            Some(t) if t.scalar().is_some() => "a number",
            _ => return,
        };
        self.refuse_here(e, may_be_none_here_error(&body.locals[id].name, what));
    }

    /// Whether a call of `func` lowers its arguments where they are never
    /// `None`: a NumPy function (but `np.histogram`), a `math` function
    /// or a method of an array.
    fn takes_no_none(&self, func: ExprId) -> bool {
        if self.array_function(func).is_some() || self.scalar_library_function(func).is_some() {
            return true;
        }
        match self.numpy_array_function(func) {
            Some(g) => g != NpFn::Histogram,
            None => match self.body.exprs[func] {
                Expr::Attribute { base, .. } => matches!(self.ty(base), Some(Ty::Arr(_))),
                _ => false,
            },
        }
    }

    /// Whether a call of `func` returns `T | None`, as the lowering finds
    /// it (a function of this module; or `false`).
    pub(super) fn returns_maybe_none(&self, func: ExprId) -> bool {
        match &self.body.exprs[func] {
            Expr::Name(Name::Global(n)) => {
                matches!(self.env.globals.get(&**n), Some(Global::Func(_)))
                    && self.callee(n).is_some_and(|c| c.ret_maybe_none)
            }
            _ => false,
        }
    }
}

/// A call whose result may be `None` where a number is needed.
pub(crate) const MAYBE_NONE_VALUE: &str =
    "this may be `None`: assign it to a local and test `is not None` before using it as a number";
