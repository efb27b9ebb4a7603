//! Scalars that may be `None`: parameters and locals of `T | None`
//! (`Optional[T]`), results that may be `None`, conditional expressions
//! with a `None` arm, `is None` / `== None` tests, truth, and the
//! narrowing that lets a tested value be used as a number.
//!
//! The IR has no `None`. A parameter or local that may be `None` is its
//! value (a local of `T`, zero while it is `None`) and a Bool local, its
//! presence flag ([`crate::declare::presence_name`]), which every binding
//! sets: a number sets it, `None` clears it. A parameter is the two IR
//! parameters flag and value, a result the tuple `(Bool, T)`
//! (docs/abi.md §2). While being lowered, a value that may be `None` is a
//! [`Val::Maybe`] (the flag and the value) and `None` itself [`Val::None`].
//!
//! Where such a value may go: into a local, a parameter that may be
//! `None`, a `return` of a function whose result may be `None`, an arm of
//! a conditional expression that goes to one of those
//! ([`FnLower::ternary_maybe_none`]), an `is None` / `is not None` /
//! `== None` / `!= None` test ([`FnLower::is_none_test`]; a number never
//! equals `None` in CPython), `==` / `!=` with another value
//! ([`FnLower::equality_maybe_none`]), and a place where only its truth is read (a
//! condition, `not`, an operand of `and`/`or` there, an operand of `or`
//! before the last anywhere): `None` is false, a number its own truth.
//! Anywhere else a number is needed, and a value that may be `None` there
//! is a compile error that says to test it first. The typecheck reports
//! it where it knows a number is read (`typeck::maybe_none`, from the
//! same narrowing followed once over the HIR, `typeck::presence`), and
//! refuses the read; what this module still reports is the rest (an
//! argument of a NumPy function, an array that may be `None`, a local
//! only a narrowing it does not follow leaves unknown).
//!
//! Narrowing: the lowering walks the body in order and keeps the set of
//! locals known to hold a number at the point being lowered
//! ([`FnLower::present`]); a local in it reads as its value. A binding of a
//! number adds the local, one of `None` or of a value that may be `None`
//! removes it. A test (`x is not None`, `x is None`, `x != None`,
//! `x == None`, `x` alone, `not`, `and`, `or`) adds locals to the arm it
//! guards ([`Facts`]); after an `if` a local is
//! known where it is known at the end of every arm that falls through
//! (`if x is None: x = 1.0` and `if x is None: return 0` both leave `x`
//! known), after `assert x is not None` it is known. A loop starts (and
//! ends) knowing what was known before it, less the locals its body may
//! bind to something that may be `None`, so every iteration starts from a
//! state that every earlier one also had.
//!
//! What it does not do: arrays, complex numbers and text that may be
//! `None` (refused at the annotation, `declare.rs`), `None` inside other
//! expressions (`2.0 * (x if c else None)`, a tuple), `is` between two
//! values (CPython's `is` of numbers is identity), and narrowing through
//! anything but the tests above (`isinstance`).

use super::*;
use crate::declare::presence_name;

/// What a condition tells of the locals that may be `None`: those known
/// to hold a number where it is true and where it is false.
#[derive(Default)]
pub(super) struct Facts {
    pub when_true: HashSet<String>,
    pub when_false: HashSet<String>,
}

impl Facts {
    fn swapped(self) -> Facts {
        Facts { when_true: self.when_false, when_false: self.when_true }
    }
}

/// The locals of `body` that may be `None`: the parameters annotated so,
/// and every local bound (anywhere) to `None`, to a call whose result may
/// be `None`, to another such local or to a conditional expression with
/// an arm that is `None` or such a call. `returns_maybe_none` says whether
/// a call's callee returns `T | None`.
pub(super) fn maybe_none_locals(
    body: &hir::Body,
    params: impl Iterator<Item = String>,
    returns_maybe_none: &dyn Fn(hir::ExprId) -> bool,
) -> HashSet<String> {
    let mut found: HashSet<String> = params.collect();
    loop {
        let mut grew = false;
        for_each_assignment(body, &body.top, &mut |target, value| {
            if let hir::Expr::Name(n) = &body.exprs[target] {
                let name = body.name_text(n);
                if !found.contains(name) && may_be_none(body, value, &found, returns_maybe_none) {
                    found.insert(name.to_owned());
                    grew = true;
                }
            }
        });
        if !grew {
            return found;
        }
    }
}

/// Calls `f` with the target and the value of every assignment in
/// `stmts`, nested blocks included (those of refused statements too, which
/// bind names): `target = value`, `target: T = value`, and a `for` loop's
/// target with its iterable.
fn for_each_assignment(body: &hir::Body, stmts: &[hir::StmtId], f: &mut dyn FnMut(hir::ExprId, hir::ExprId)) {
    deep(|| {
        for &s in stmts {
            match &body.stmts[s] {
                hir::Stmt::Assign { targets, value } => targets.iter().for_each(|&t| f(t, *value)),
                &hir::Stmt::AnnAssign { target, value: Some(value), .. } => f(target, value),
                hir::Stmt::For { target, iter, body: inner, orelse, .. } => {
                    f(*target, *iter);
                    for_each_assignment(body, inner, f);
                    for_each_assignment(body, orelse, f);
                }
                hir::Stmt::While { body: inner, orelse, .. } => {
                    for_each_assignment(body, inner, f);
                    for_each_assignment(body, orelse, f);
                }
                hir::Stmt::If { arms } => arms.iter().for_each(|arm| for_each_assignment(body, &arm.body, f)),
                hir::Stmt::Refused { blocks, .. } => blocks.iter().for_each(|b| for_each_assignment(body, b, f)),
                _ => {}
            }
        }
    })
}

/// Whether `value` may be `None`: `None`, a call that may return it, a
/// local that may hold it, or a conditional expression with an arm that
/// is `None` or such a call. An arm naming a local does not count: its
/// test may narrow it (`x if x is not None else 0.0`), which only the
/// lowering knows, and a local that is never `None` stays one.
fn may_be_none(
    body: &hir::Body,
    value: hir::ExprId,
    locals: &HashSet<String>,
    returns_maybe_none: &dyn Fn(hir::ExprId) -> bool,
) -> bool {
    match &body.exprs[value] {
        hir::Expr::None => true,
        hir::Expr::Name(n) => locals.contains(body.name_text(n)),
        hir::Expr::Call { func, .. } => returns_maybe_none(*func),
        &hir::Expr::If { body: then, orelse, .. } => [then, orelse].into_iter().any(|arm| {
            !matches!(body.exprs[arm], hir::Expr::Name(_)) && may_be_none(body, arm, locals, returns_maybe_none)
        }),
        _ => false,
    }
}

/// What the condition `e` tells of the locals for which `maybe` holds:
/// `x is not None`, `x is None`, `x != None`, `x == None` (either way
/// round), `x` alone (true only when `x` holds a number), and `not`,
/// `and` and `or` of these.
fn facts_of(body: &hir::Body, e: hir::ExprId, maybe: &dyn Fn(&str) -> bool) -> Facts {
    match &body.exprs[e] {
        hir::Expr::Compare { ops, operands } if ops.len() == 1 && none_test(ops[0]).is_some() => {
            let tested = match (&body.exprs[operands[0]], &body.exprs[operands[1]]) {
                (hir::Expr::Name(n), hir::Expr::None) | (hir::Expr::None, hir::Expr::Name(n)) => body.name_text(n),
                _ => return Facts::default(),
            };
            if !maybe(tested) {
                return Facts::default();
            }
            let known = HashSet::from([tested.to_owned()]);
            let f = Facts { when_true: known, when_false: HashSet::new() };
            if none_test(ops[0]) == Some(true) {
                f
            } else {
                f.swapped()
            }
        }
        // `if x:` runs where `x` is neither `None` nor zero.
        hir::Expr::Name(n) if maybe(body.name_text(n)) => {
            Facts { when_true: HashSet::from([body.name_text(n).to_owned()]), when_false: HashSet::new() }
        }
        &hir::Expr::UnaryOp { op: ast::UnaryOp::Not, operand } => facts_of(body, operand, maybe).swapped(),
        hir::Expr::BoolOp { op, values } => {
            let parts: Vec<Facts> = values.iter().map(|&v| facts_of(body, v, maybe)).collect();
            let union = |sets: Vec<&HashSet<String>>| sets.into_iter().flatten().cloned().collect();
            let meet = |sets: Vec<&HashSet<String>>| {
                let mut it = sets.into_iter();
                let first = it.next().cloned().unwrap_or_default();
                it.fold(first, |acc: HashSet<String>, s| acc.intersection(s).cloned().collect())
            };
            let trues: Vec<_> = parts.iter().map(|f| &f.when_true).collect();
            let falses: Vec<_> = parts.iter().map(|f| &f.when_false).collect();
            if matches!(op, ast::BoolOp::And) {
                Facts { when_true: union(trues), when_false: meet(falses) }
            } else {
                Facts { when_true: meet(trues), when_false: union(falses) }
            }
        }
        _ => Facts::default(),
    }
}

/// Whether `op` compared with `None` tests for `None`: `Some(true)` when
/// it is true of a number (`is not`, `!=`: CPython's numbers never equal
/// `None`), `Some(false)` when it is true of `None` (`is`, `==`).
pub(crate) fn none_test(op: ast::CmpOp) -> Option<bool> {
    match op {
        ast::CmpOp::IsNot | ast::CmpOp::NotEq => Some(true),
        ast::CmpOp::Is | ast::CmpOp::Eq => Some(false),
        _ => None,
    }
}

/// `None` where a number is needed.
pub(crate) const NONE_IS_NOT_A_NUMBER: &str =
    "`None` is not a number: it can be assigned, returned, passed to a parameter that may be `None` or tested with `is`";

impl<'a, 'c> FnLower<'a, 'c> {
    /// Whether the local `name` may be `None`.
    pub(super) fn is_maybe_none_local(&self, name: &str) -> bool {
        self.locals.get(name).is_some_and(|l| l.maybe_none)
    }

    /// Whether a call of `func` returns `T | None`.
    pub(super) fn returns_maybe_none(&self, func: hir::ExprId) -> bool {
        matches!(self.target_of(func), Some(Target::Func(c)) if c.ret_maybe_none)
    }

    /// `e` lowered where a value that may be `None` may go: `None` gives
    /// [`Val::None`], a local or call that may be `None` [`Val::Maybe`].
    pub(super) fn expr_maybe_none(&mut self, e: crate::hir::ExprId) -> Val {
        self.accept_none = true;
        let v = self.expr(e);
        self.accept_none = false;
        v
    }

    /// The presence flag of the local `name` that may be `None`, as read
    /// here (a constant for a local without a type, which has no storage:
    /// its body has errors).
    pub(super) fn read_presence(&mut self, name: &str) -> ValueId {
        match self.flags.get(name) {
            Some(&f) => f,
            None => {
                let n = self.fresh("given");
                self.b.const_(TypeId::BOOL, Literal::Bool(false), &n)
            }
        }
    }

    /// A local that may be `None`, read where nothing narrowed it: its
    /// flag and its value.
    pub(super) fn read_maybe_none_local(&mut self, name: &str, n: TextRange) -> Val {
        let value = self.read_local(name, n);
        if matches!(value, Val::Err) {
            return Val::Err;
        }
        let present = self.read_presence(name);
        Val::Maybe { present, value: Box::new(value) }
    }

    /// The error for a value that may be `None` where a number is needed.
    pub(super) fn none_where_number_needed(&mut self, e: hir::ExprId, v: &Val) -> Val {
        let at = self.range(e);
        match (&self.hir.exprs[e], v) {
            (hir::Expr::Name(n), _) => {
                let name = self.name_text(n);
                let a = match self.locals.get(name).and_then(|l| l.ty.as_ref()) {
                    Some(LocalTy::Array(_)) => "an array",
                    Some(LocalTy::Tuple(_)) => "a tuple",
                    _ => "a number",
                };
                // Read as a number where the typecheck finds it may be
                // `None` (`typeck::maybe_none`), it is refused there; read
                // elsewhere, it is this one's to report.
                self.err(&at, typeck::maybe_none::may_be_none_here_error(name, a))
            }
            (_, Val::None) => self.err(&at, NONE_IS_NOT_A_NUMBER),
            _ => self.err(&at, typeck::maybe_none::MAYBE_NONE_VALUE),
        }
    }

    /// `a is None`, `a is not None` (or `None is a`), `a == None`,
    /// `a != None`: whether `a`, a value that may be `None`, holds a
    /// number, as Python's `bool` (a number never equals `None`). Of a
    /// value that is never `None` (a number, an array, a tuple) the test is
    /// a constant, as in CPython and Numba (generic code tests values that
    /// are not optional where it is compiled).
    pub(super) fn is_none_test(&mut self, c: &CompareExpr) -> Val {
        let hir = self.hir;
        let negated = none_test(c.ops[0]) == Some(true);
        let tested =
            if matches!(hir.exprs[c.operands[0]], crate::hir::Expr::None) { c.operands[1] } else { c.operands[0] };
        let present = match &hir.exprs[tested] {
            crate::hir::Expr::Name(n) if self.is_maybe_none_local(self.name_text(n)) => {
                // Narrowed or not, the flag says.
                let name = self.name_text(n);
                if matches!(self.read_local(name, self.range(tested)), Val::Err) {
                    return Val::Err;
                }
                Some(self.read_presence(name))
            }
            _ => match self.expr_maybe_none(tested) {
                Val::Maybe { present, .. } => Some(present),
                Val::None => {
                    let n = self.fresh("given");
                    Some(self.b.const_(TypeId::BOOL, Literal::Bool(false), &n))
                }
                Val::Err => None,
                _ => {
                    let n = self.fresh("given");
                    Some(self.b.const_(TypeId::BOOL, Literal::Bool(true), &n))
                }
            },
        };
        let Some(present) = present else { return Val::Err };
        self.at(&c.at);
        let v = if negated {
            present
        } else {
            let n = self.fresh("isnone");
            self.b.unary(Opcode::Not, TypeId::BOOL, present, &n)
        };
        Val::Num { v, s: Scalar::weak(DType::Bool), nonneg: true }
    }

    /// What the condition `e` tells of the locals that may be `None`.
    pub(super) fn facts(&self, e: hir::ExprId) -> Facts {
        facts_of(self.hir, e, &|n| self.is_maybe_none_local(n))
    }

    /// Whether the arm `e` may be `None` where the locals `known` hold
    /// numbers: `None`, a local not known to hold a number, a call that
    /// may return `None`, or a conditional expression with such an arm.
    fn arm_may_be_none(&self, e: crate::hir::ExprId, known: &HashSet<String>) -> bool {
        use crate::hir::Expr as E;
        match &self.hir.exprs[e] {
            E::None => true,
            E::Name(n) => {
                let name = self.name_text(n);
                self.is_maybe_none_local(name) && !known.contains(name)
            }
            E::Call { func, .. } => self.returns_maybe_none(*func),
            &E::If { test, body, orelse } => {
                let f = self.facts(test);
                let with = |more: HashSet<String>| known.iter().cloned().chain(more).collect::<HashSet<String>>();
                self.arm_may_be_none(body, &with(f.when_true)) || self.arm_may_be_none(orelse, &with(f.when_false))
            }
            _ => false,
        }
    }

    /// Whether `e` may be `None` where it is lowered now (an arm of a
    /// conditional expression counts, see [`Self::arm_may_be_none`]).
    pub(super) fn may_be_none_here(&self, e: crate::hir::ExprId) -> bool {
        self.arm_may_be_none(e, &self.present)
    }

    /// `a == b`, `a != b` where `a` or `b` may be `None`: as CPython,
    /// `None` equals `None` only, and two numbers compare as numbers do.
    pub(super) fn equality_maybe_none(&mut self, c: &CompareExpr) -> Val {
        let (l, r) = (self.expr_maybe_none(c.operands[0]), self.expr_maybe_none(c.operands[1]));
        // Each side's flag (`None` for a number) and number (`None` for
        // `None` itself).
        let split = |v: Val| match v {
            Val::None => Some((None, None)),
            Val::Maybe { present, value } => Some((Some(present), Some(*value))),
            Val::Err => None,
            v => Some((None, Some(v))),
        };
        let is_none = |v: &Val| matches!(v, Val::None);
        let (l_none, r_none) = (is_none(&l), is_none(&r));
        let (Some((lp, lv)), Some((rp, rv))) = (split(l), split(r)) else { return Val::Err };
        let weak = [&lv, &rv].iter().all(|v| v.as_ref().and_then(|v| v.scalar()).is_some_and(|s| s.weak));
        self.at(&c.at);
        let flag = |this: &mut Self, p: Option<ValueId>, none: bool| match p {
            Some(p) => p,
            None => {
                let n = this.fresh("given");
                this.b.const_(TypeId::BOOL, Literal::Bool(!none), &n)
            }
        };
        let (lp, rp) = (flag(self, lp, l_none), flag(self, rp, r_none));
        let same_numbers = match (lv, rv) {
            (Some(lv), Some(rv)) => match self.compare_pair(ast::CmpOp::Eq, &lv, &rv, c.at) {
                Some(v) => v,
                None => return Val::Err,
            },
            _ => {
                let n = self.fresh("cmp");
                self.b.const_(TypeId::BOOL, Literal::Bool(false), &n)
            }
        };
        // Both numbers and equal, or both `None`.
        let both = self.result(Opcode::And, DType::Bool, rp, same_numbers);
        let n = self.fresh("isnone");
        let r_absent = self.b.unary(Opcode::Not, TypeId::BOOL, rp, &n);
        let n = self.fresh("eq");
        let mut eq = self.b.select(TypeId::BOOL, lp, both, r_absent, &n);
        if matches!(c.ops[0], ast::CmpOp::NotEq) {
            let n = self.fresh("ne");
            eq = self.b.unary(Opcode::Not, TypeId::BOOL, eq, &n);
        }
        Val::Num { v: eq, s: Scalar { dtype: DType::Bool, weak }, nonneg: true }
    }

    /// `a if c else b` where a value that may be `None` may go: when an
    /// arm may be `None`, a value that may be `None` whose flag and value
    /// the taken arm sets (the value in the arms' common type, zero for a
    /// `None` arm); `None` when both arms are. Without such an arm it is
    /// the number of [`FnLower::ternary`]. The arms run only when taken.
    pub(super) fn ternary_maybe_none(&mut self, i: &IfExpr) -> Val {
        let facts = self.facts(i.test);
        let known_before = self.present.clone();
        let known_true: HashSet<String> = known_before.iter().cloned().chain(facts.when_true).collect();
        let known_false: HashSet<String> = known_before.iter().cloned().chain(facts.when_false).collect();
        if !self.arm_may_be_none(i.body, &known_true) && !self.arm_may_be_none(i.orelse, &known_false) {
            return self.ternary(i);
        }
        let Some(c) = self.cond(i.test) else { return Val::Err };
        let Some(Arms { pre, then_b, else_b, join, t, then_end, f, else_end }) =
            self.arms_in_blocks(i, (known_true, known_false), Self::expr_maybe_none)
        else {
            return Val::Err;
        };
        self.present = known_before;
        // Each arm's number: `Some(None)` for a `None` arm, `None` for an
        // arm in error or not a number.
        let number = |v: &Val| match v {
            Val::None => Some(None),
            Val::Maybe { value, .. } => value.scalar().map(Some),
            Val::Err => None,
            v => v.scalar().map(Some),
        };
        let mut common: Option<Option<Scalar>> = Some(None);
        for (v, arm, other) in [(&t, i.body, i.orelse), (&f, i.orelse, i.body)] {
            let e = self.range(arm);
            // Beside a `None` arm, an arm the typecheck types is its to
            // refuse (`typeck::maybe_none`); beside a local or a call that
            // may be `None`, or untyped, it is still this one's.
            let refused_by_typeck =
                matches!(self.hir.exprs[other], hir::Expr::None) && self.expr_types.get(arm).is_some();
            let Some(s) = number(v) else {
                if !matches!(v, Val::Err) {
                    if refused_by_typeck {
                        self.unrefused(&e);
                    } else {
                        self.err(&e, typeck::maybe_none::none_arm_error(None));
                    }
                }
                common = None;
                continue;
            };
            if let Some(s) = s.filter(|s| kind(s.dtype) > Kind::Float) {
                if refused_by_typeck {
                    self.unrefused(&e);
                } else {
                    self.err(&e, typeck::maybe_none::none_arm_error(Some(s.dtype)));
                }
                common = None;
            }
            common = match (common, s) {
                (Some(None), s) => Some(s),
                (Some(Some(p)), None) => Some(Some(p)),
                (Some(Some(p)), Some(s)) => match promote(p, s) {
                    Some(q) => Some(Some(q)),
                    None => {
                        self.err(
                            &i.at,
                            format!("the arms have incompatible types {} and {}", p.dtype.name(), s.dtype.name()),
                        );
                        None
                    }
                },
                (None, _) => None,
            };
        }
        self.b.switch_to(pre);
        self.at(&i.at);
        let slots = common.map(|p| {
            let n = self.fresh("given");
            let no = self.b.const_(TypeId::BOOL, Literal::Bool(false), &n);
            let n = self.fresh("ifx.given");
            let flag = self.b.let_(TypeId::BOOL, no, &n);
            let value = p.map(|p| {
                let z = self.zero(p.dtype);
                let n = self.fresh("ifx");
                (self.b.let_(TypeId::scalar(p.dtype), z, &n), p)
            });
            (flag, value)
        });
        self.b.condbr(c, then_b, else_b, None);
        for (end, v, e) in [(then_end, &t, self.range(i.body)), (else_end, &f, self.range(i.orelse))] {
            let Some(end) = end else { continue };
            self.b.switch_to(end);
            self.open = true;
            if let Some((flag, value)) = slots {
                let (present, number) = match v {
                    Val::None => (None, None),
                    Val::Maybe { present, value } => (Some(*present), Some(&**value)),
                    v => {
                        let n = self.fresh("given");
                        (Some(self.b.const_(TypeId::BOOL, Literal::Bool(true), &n)), Some(v))
                    }
                };
                if let Some(present) = present {
                    self.b.set(flag, present);
                }
                if let (Some((slot, p)), Some(number)) = (value, number) {
                    if let Some(x) = self.materialize(number, p.dtype, &e) {
                        self.b.set(slot, x);
                    }
                }
            }
            self.br(join);
        }
        self.enter(join);
        let nonneg = |v: &Val| match v {
            Val::None => true,
            Val::Maybe { value, .. } => value.nonneg(),
            v => v.nonneg(),
        };
        match slots {
            None => Val::Err,
            Some((_, None)) => Val::None,
            Some((flag, Some((slot, p)))) => Val::Maybe {
                present: flag,
                value: Box::new(Val::Num { v: slot, s: p, nonneg: nonneg(&t) && nonneg(&f) }),
            },
        }
    }

    /// The locals that may be `None` which `body` may bind to a value that
    /// may be `None` (what a loop over it cannot count on).
    pub(super) fn unnarrowed_in(&self, body: &[crate::hir::StmtId]) -> HashSet<String> {
        let maybe: HashSet<String> = self.locals.iter().filter(|(_, l)| l.maybe_none).map(|(n, _)| n.clone()).collect();
        let mut out = HashSet::new();
        for_each_assignment(self.hir, body, &mut |target, value| {
            if let hir::Expr::Name(n) = &self.hir.exprs[target] {
                let name = self.name_text(n);
                if maybe.contains(name) && may_be_none(self.hir, value, &maybe, &|f| self.returns_maybe_none(f)) {
                    out.insert(name.to_owned());
                }
            }
        });
        out
    }

    /// Binds the local `name` that may be `None` to `v`, `None` or a value
    /// that may be `None` (a number goes through `assign_local`, which
    /// sets the flag).
    pub(super) fn assign_maybe_none(&mut self, name: &str, v: Val, at: TextRange, value_at: TextRange) {
        let info = &self.locals[name];
        if !info.maybe_none {
            // `None`, a call or a conditional expression that may be
            // `None` is the typecheck's to refuse (`typeck::maybe_none`); a
            // local that may be `None` read here is still this one's.
            let param = info.param;
            let dtype = match &info.ty {
                Some(LocalTy::Scalar(s)) => Some(s.dtype),
                _ => None,
            };
            self.err(&value_at, typeck::maybe_none::cannot_be_none_error(param, name, dtype));
            return;
        }
        if info.ty.is_none() && matches!(v, Val::None) {
            // Only ever `None` (refused by the typecheck), or left untyped
            // by errors in its other bindings.
            self.untyped_binding(name, &value_at);
            return;
        }
        let present = match v {
            Val::None => {
                let n = self.fresh("given");
                self.b.const_(TypeId::BOOL, Literal::Bool(false), &n)
            }
            Val::Maybe { present, value } => {
                self.assign_local(name, *value, at, value_at);
                present
            }
            _ => return,
        };
        self.present.remove(name);
        if let Some(&flag) = self.flags.get(name) {
            self.at(&at);
            self.b.set(flag, present);
        }
    }

    /// A number bound to the local `name` that may be `None`: its flag is
    /// set, and it is known to hold a number from here.
    pub(super) fn mark_given(&mut self, name: &str) {
        if !self.is_maybe_none_local(name) {
            return;
        }
        self.present.insert(name.to_owned());
        if let Some(&flag) = self.flags.get(name) {
            let n = self.fresh("given");
            let yes = self.b.const_(TypeId::BOOL, Literal::Bool(true), &n);
            self.b.set(flag, yes);
        }
    }

    /// The elements of this (unannotated) function's tuple result that a
    /// `return` of a tuple display gives as `None`, by place, each with
    /// the type the other `return`s give it there (see
    /// [`typeck::results::optional_elements`]).
    pub(super) fn optional_result_elements(&self) -> HashMap<usize, TypeData> {
        let returns = self.hir.stmts.iter().map(|(id, _)| id);
        typeck::results::optional_elements(self.hir, &self.expr_types, &self.absent_reads, returns)
    }

    /// The elements of a returned tuple display when some may be `None`
    /// ([`FnLower::optional_result_elements`]): each of those its presence
    /// flag (a Bool) and its value (an empty array or zero for `None`),
    /// the others as a display's; their flags' places recorded for the
    /// result. `None` after reporting an error.
    pub(super) fn optional_tuple_display(&mut self, elements: &[hir::ExprId]) -> Option<Vec<Val>> {
        let mut out = Vec::with_capacity(elements.len() + self.optional_results.len());
        let mut flags = Vec::new();
        let mut failed = false;
        for (k, &e) in elements.iter().enumerate() {
            let at = self.range(e);
            let Some(t) = self.optional_results.get(&k).cloned() else {
                let v = self.expr(e);
                // Refused by the typecheck (`typeck::results`) where it
                // types the element.
                if matches!(v, Val::Tuple(_)) {
                    self.err(&at, typeck::results::TUPLE_BESIDE_OPTIONAL);
                    failed = true;
                }
                failed |= matches!(v, Val::Err);
                out.push(self.snapshot(v, &at));
                continue;
            };
            let (present, value) = match self.expr_maybe_none(e) {
                Val::None => {
                    let absent = self.bool_const(false, &at);
                    let value = if t.is_array {
                        self.empty_array_of(&t, at)
                    } else {
                        Val::Num { v: self.zero(t.dtype), s: Scalar::strong(t.dtype), nonneg: true }
                    };
                    (absent, value)
                }
                Val::Maybe { present, value } => (present, *value),
                Val::Err => {
                    failed = true;
                    continue;
                }
                v => (self.bool_const(true, &at), v),
            };
            flags.push(out.len());
            out.push(Val::Num { v: present, s: Scalar::strong(DType::Bool), nonneg: true });
            out.push(self.snapshot(value, &at));
        }
        if failed {
            return None;
        }
        if self.inferred_optional != flags {
            let msg = "internal error: the elements that may be `None` are not those the typecheck found";
            let at = elements.first().map(|e| self.range(*e)).unwrap_or_default();
            self.diags.push(self.cx.src.error(&at, msg));
        }
        Some(out)
    }

    pub(super) fn flag_and_value(&mut self, v: Val, d: DType, at: &impl Ranged, what: &str) -> Option<[ValueId; 2]> {
        let (present, value) = match v {
            Val::None => {
                let n = self.fresh("given");
                let no = self.b.const_(TypeId::BOOL, Literal::Bool(false), &n);
                let zero = self.zero(d);
                return Some([no, zero]);
            }
            Val::Maybe { present, value } => (present, *value),
            Val::Err => return None,
            number => {
                let n = self.fresh("given");
                (self.b.const_(TypeId::BOOL, Literal::Bool(true), &n), number)
            }
        };
        if matches!(value, Val::Err) {
            return None;
        }
        if let Some(message) = optional_number_error(what, d, value.scalar()) {
            self.err(at, message);
            return None;
        }
        Some([present, self.materialize(&value, d, at)?])
    }

    /// `return` in a function whose result may be `None`: the tuple
    /// `(given, value)`. Ends the block.
    pub(super) fn return_maybe_none(&mut self, r: TextRange, value: Option<crate::hir::ExprId>) {
        let t = self.decl.ret.expect("a result that may be None has a type");
        let d = self.types.get(t).dtype;
        let v = match value {
            None => Val::None,
            Some(e) => self.expr_maybe_none(e),
        };
        let what = format!("the result of `{}`", self.decl.name);
        let at: TextRange = value.map_or(r, |e| self.range(e));
        let pair = self.flag_and_value(v, d, &at, &what);
        self.at(&r);
        match pair {
            Some(pair) => {
                let ty = self.decl.ir_ret(self.types).expect("a result");
                let n = self.fresh("ret");
                let tuple = self.b.tuple(ty, &pair, &n);
                self.b.ret(Some(tuple));
            }
            None => {
                self.b.unreachable();
            }
        }
        self.open = false;
    }

    /// The end of a function whose result may be `None`, reached: it
    /// returns `None`, as CPython does.
    pub(super) fn fall_off_maybe_none(&mut self) {
        let t = self.decl.ret.expect("a result that may be None has a type");
        let d = self.types.get(t).dtype;
        let pair = self.flag_and_value(Val::None, d, &TextRange::default(), "").expect("None converts");
        let ty = self.decl.ir_ret(self.types).expect("a result");
        let n = self.fresh("ret");
        let tuple = self.b.tuple(ty, &pair, &n);
        self.b.ret(Some(tuple));
    }

    /// The flag and the value of the call result `v` of type `(Bool, T)`.
    pub(super) fn call_maybe_none(&mut self, v: ValueId, t: &TypeData) -> Val {
        let n = self.fresh("given");
        let present = self.b.extract(TypeId::BOOL, v, 0, &n);
        let n = self.fresh("value");
        let value = self.b.extract(TypeId::scalar(t.dtype), v, 1, &n);
        Val::Maybe { present, value: Box::new(Val::Num { v: value, s: Scalar::strong(t.dtype), nonneg: false }) }
    }

    /// Declares, in the entry block, the presence flags of the locals that
    /// may be `None` (clear until a binding sets them); the parameters'
    /// flags are their own IR parameters.
    pub(super) fn declare_presence_flags(&mut self) {
        let mut names: Vec<String> = (self.locals.iter())
            .filter(|(_, l)| l.maybe_none && !l.param && matches!(l.ty, Some(LocalTy::Scalar(_))))
            .map(|(n, _)| n.clone())
            .collect();
        names.sort();
        for name in names {
            let n = self.fresh("given");
            let no = self.b.const_(TypeId::BOOL, Literal::Bool(false), &n);
            let flag = self.b.let_(TypeId::BOOL, no, &presence_name(&name));
            self.flags.insert(name, flag);
        }
    }
}

/// Why a value of scalar type `v` (`None`: no number, such as an array)
/// is not one of `what` (an argument, a result), a `d | None`: a number
/// that does not widen to `d`, or none.
pub(crate) fn optional_number_error(what: &str, d: DType, v: Option<Scalar>) -> Option<String> {
    match v {
        Some(s) if widens_to(s, d) => None,
        Some(s) => Some(format!("{what} is {} | None, and this is {} (cast explicitly)", d.name(), s.dtype.name())),
        None => Some(format!("{what} is {} | None", d.name())),
    }
}
