//! The typecheck's checks of assignments (`x = v`, `x: T = v`, `x op= v`,
//! `a, b = v`), each as the lowering's `assign`, `unpack`,
//! `assign_local`, `assign_tuple_local`, `aug_assign` and the stores
//! through subscripts would refuse it:
//!
//! - targets compiled code does not store into, values that do not unpack
//!   into their targets, values a local's type does not hold (joined as
//!   the solve joins them: the solve leaves such a value out of the local's
//!   type, and it is reported here against the type the others give), the
//!   operator of an augmented assignment of a number: the statement is
//!   refused, and the lowering checks its value only;
//! - stores into elements, views and through array indices (every
//!   target): the target is refused; a write into read-only memory (an
//!   input array, a module-level array, a view of one) is reported beside
//!   the statement's other errors (see [`super::read_only`]).
//!
//! What this module does not type (a value of no type, one that may be
//! `None`, stores through a mixed index `a[i, idx]`, an array stored
//! through an array index) is the lowering's. The messages are written
//! here once; the lowering reports them too, for those values.

use super::*;

/// Where a target of no form compiled code stores into is refused.
pub(crate) fn cannot_assign_error(construct: &str) -> String {
    format!("cannot assign to {construct}")
}

pub(crate) const STARRED_TARGET: &str = "starred assignment is not supported";

pub(crate) const AUGMENTED_ARRAY_INDEX: &str =
    "an augmented assignment through an array index is not supported: write `a[idx] = a[idx] + v`";

/// `a op= v` of a whole array with an operator NumPy's in-place ufuncs
/// are not compiled for; `None` for `+=`, `-=`, `*=` and `/=`.
pub(crate) fn whole_array_update_error(op: ast::Operator) -> Option<String> {
    use ast::Operator as O;
    (!matches!(op, O::Add | O::Sub | O::Mult | O::Div))
        .then(|| format!("`{}=` on a whole array is not supported: loop over the elements", op.as_str()))
}

/// `count` targets unpacking `values` values.
pub(crate) fn count_error(count: usize, values: usize) -> String {
    format!("{count} targets but {values} values: the counts must match")
}

/// `count` targets unpacking the shape of an array of `nd` axes.
pub(crate) fn shape_count_error(count: usize, nd: usize) -> String {
    let s = if nd == 1 { "" } else { "s" };
    format!("{count} targets but the shape of a {nd}-D array has {nd} extent{s}: the counts must match")
}

pub(crate) const UNPACKED_ARRAY: &str = "only a 1-D array can be unpacked, into its elements";

/// A value (`what`: its dtype, "a tuple", ...) that is neither a tuple nor
/// an array, unpacked.
pub(crate) fn not_unpackable_error(what: &str) -> String {
    format!("only a tuple or a 1-D array can be unpacked, not {what}")
}

/// A number `s` bound to the local `shown` of another type `t`, which it
/// does not join.
pub(crate) fn join_error(shown: &str, s: DType, t: DType) -> String {
    format!("`{shown}` is assigned {} here but {} elsewhere", s.name(), t.name())
}

/// A number `s` bound to the annotated local or parameter `name` of type
/// `t`, which it does not widen to.
pub(crate) fn narrowing_error(param: bool, name: &str, s: DType, t: DType) -> String {
    let what = if param { "parameter" } else { "local" };
    format!(
        "cannot assign {} to {what} `{name}` of type {}: it would narrow the value (cast explicitly)",
        s.name(),
        t.name()
    )
}

/// A number bound to the local `shown` holding `held` ("an array", "a
/// tuple").
pub(crate) fn scalar_into_error(shown: &str, held: &str) -> String {
    format!("`{shown}` holds {held} and cannot be assigned a scalar")
}

/// An array bound to a local holding another type.
pub(crate) fn different_types_error(shown: &str) -> String {
    format!("`{shown}` is bound to values of different types")
}

/// A tuple bound to the local or parameter `shown` holding no tuple.
pub(crate) fn not_a_tuple_local_error(param: bool, shown: &str) -> String {
    let what = if param { "parameter" } else { "local" };
    format!("{what} `{shown}` does not hold a tuple and cannot be bound to one")
}

/// A tuple of `m` elements bound to the local `shown` holding tuples of
/// `n`.
pub(crate) fn tuple_length_error(shown: &str, n: usize, m: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("`{shown}` holds a tuple of {n} element{s} and cannot be bound to one of {m}")
}

/// The array parameter `name`, of type `was` (`None`: not an array),
/// bound to an array of type `now`.
pub(crate) fn rebound_parameter_error(name: &str, was: Option<&TypeData>, now: &TypeData) -> String {
    let shown = |t: &TypeData| match t.ndim() {
        Some(1) => format!("a 1-D array of {}", t.dtype.name()),
        Some(n) => format!("a {n}-D array of {}", t.dtype.name()),
        None => format!("an array of {}", t.dtype.name()),
    };
    let was = match was {
        Some(t) if t.is_output => "an `Out` array, which stays the caller's".to_owned(),
        Some(t) => shown(t),
        None => "an array".to_owned(),
    };
    let mut now = shown(now);
    if now == was {
        now.push_str(" of another layout or static shape");
    }
    format!("the parameter `{name}` is {was}: it cannot be rebound to {now}")
}

pub(crate) const TUPLE_ELEMENTS_ASSIGNED: &str = "a tuple's elements cannot be assigned";

pub(crate) const ONLY_ARRAYS_INDEXED_BY_ARRAYS: &str = "only an array is indexed by an array";

pub(crate) const ONLY_ARRAYS_SLICED: &str = "only an array can be sliced";

pub(crate) const TEXT_IN_A_VIEW: &str = "cannot store text in an array of numbers";

/// An array of `sr` axes assigned to a view of `dr` fewer.
pub(crate) fn view_rank_error(sr: usize, dr: usize) -> String {
    format!("a {sr}-D array cannot be assigned to a {dr}-D slice")
}

/// An array of `src` copied into one of `dst` (text, or complex numbers
/// into real ones).
pub(crate) fn copy_dtype_error(src: DType, dst: DType) -> Option<String> {
    (src.is_text() || (src.is_complex() && !dst.is_complex()))
        .then(|| format!("cannot store {} in an array of {}", src.name(), dst.name()))
}

pub(crate) const NOT_A_SCALAR_STORED: &str = "only a scalar can be stored in an array element";

/// Why a value of type `v` is not stored in an element of an array of
/// `d` (the lowering's `store`): text in an array of numbers or of
/// another text type, a number in an array of text, a complex number in
/// an array of real numbers, an array or a tuple; then a constant the
/// element's dtype cannot hold (`a[0] = 300` of Int8 elements).
pub(crate) fn store_error(v: &Ty, d: DType) -> Option<String> {
    let Some(s) = v.scalar() else { return Some(NOT_A_SCALAR_STORED.into()) };
    let refused =
        s.dtype.is_text() != d.is_text() || (d.is_text() && s.dtype != d) || (s.dtype.is_complex() && !d.is_complex());
    if refused {
        return Some(format!("cannot store {} in an array of {}", s.dtype.name(), d.name()));
    }
    super::expressions::conversion_error(v, d)
}

/// What a local holds once its types are solved, as the lowering's
/// `LocalInfo` has it.
enum Held {
    /// A number: fixed when annotated (or a parameter no binding widens).
    Scalar {
        t: Scalar,
        fixed: bool,
        param: bool,
    },
    Array {
        t: TypeData,
        param: bool,
    },
    /// A tuple: its elements' types, but a parameter's.
    Tuple {
        len: usize,
        param: bool,
        elems: Option<Vec<Element>>,
    },
}

/// A target of an assignment that compiled code does not store into (a
/// name, an element or a view, or names unpacked): why.
fn target_error(body: &Body, t: ExprId) -> Option<String> {
    match &body.exprs[t] {
        Expr::Name(_) | Expr::Subscript { .. } | Expr::Tuple(_) | Expr::List(_) => None,
        Expr::Starred(_) => Some(STARRED_TARGET.into()),
        _ => Some(cannot_assign_error(body.construct_name(t))),
    }
}

impl Solver<'_> {
    /// Refuses the assignment `s` when a target is of a form compiled code
    /// does not store into (an attribute, a call, a starred name), every
    /// one, before its values are typed. An unpacking refused for its form
    /// is refused once.
    pub(super) fn check_assignment_targets(&self, s: StmtId) {
        let body = self.body;
        let targets: Vec<ExprId> = match &body.stmts[s] {
            Stmt::Assign { targets, .. } => {
                let mut all = Vec::new();
                for &t in targets {
                    match &body.exprs[t] {
                        Expr::Tuple(elts) | Expr::List(elts) => all.extend(elts.iter().copied()),
                        _ => all.push(t),
                    }
                }
                all
            }
            Stmt::AugAssign { target, .. } => match body.exprs[*target] {
                // Never a tuple (CPython's parser refuses it).
                Expr::Tuple(_) | Expr::List(_) => return,
                _ => vec![*target],
            },
            _ => return,
        };
        for t in targets {
            if let Some(message) = target_error(body, t) {
                self.refuse_statement(s, body.expr_ranges[t], message);
            }
        }
    }

    /// Refuses the assignment `s` for the types of its values, once they
    /// are typed: an augmented assignment through an array index, values
    /// that do not unpack into the targets, and every binding of a local
    /// whose type does not hold its value (see [`Solver::binding_errors`]),
    /// and the stores into its subscript targets (see
    /// [`Solver::check_element_stores`]); every write into read-only
    /// memory, the statement refused or not (see
    /// [`Solver::check_read_only_targets`]).
    /// A value it does not type is the lowering's.
    /// Refuses the name a `for` loop over an array binds to each step
    /// (`for v in a`) where the local holds another kind of value (see
    /// [`Solver::binding_errors`]): `v` a number elsewhere and a row here.
    pub(super) fn check_loop_binding(&self, s: StmtId) {
        let body = self.body;
        let Stmt::For { target, iter, .. } = &body.stmts[s] else { return };
        let Some(id) = self.local_of(*target) else { return };
        // The bindings of this statement (see `Solver::collect`).
        let here = self.reading_at.get();
        let first = self.bindings.partition_point(|b| b.at < here);
        let bound = (self.bindings[first..].iter().take_while(|b| b.at == here))
            .find(|b| b.local == id && matches!(b.bound, Bound::EveryElement(i) if i == *iter));
        let Some(b) = bound else { return };
        if let Some((at, message)) = self.binding_errors(*target, id, b.bound, *iter).into_iter().next() {
            self.refuse_statement(s, at, message);
        }
    }

    pub(super) fn check_assignment(&self, s: StmtId) {
        let body = self.body;
        self.check_read_only_targets(s);
        if self.reports.borrow().as_ref().is_some_and(|r| r.refused_stmts.get(s).is_some()) {
            // Refused for its form (see `check_assignment_targets`): its
            // stores are checked all the same, without their values.
            let targets: Vec<ExprId> = match &body.stmts[s] {
                Stmt::Assign { targets, .. } => targets
                    .iter()
                    .flat_map(|t| match &body.exprs[*t] {
                        Expr::Tuple(elts) | Expr::List(elts) => elts.to_vec(),
                        _ => vec![*t],
                    })
                    .collect(),
                Stmt::AugAssign { target, .. } => vec![*target],
                _ => return,
            };
            let aug = matches!(body.stmts[s], Stmt::AugAssign { .. });
            return self.check_element_stores(&targets, &vec![None; targets.len()], aug);
        }
        let at = body.stmt_ranges[s];
        let (targets, whole): (Vec<ExprId>, ExprId) = match &body.stmts[s] {
            Stmt::Assign { targets, value } => {
                if let [t] = &targets[..] {
                    if let Expr::Tuple(elts) | Expr::List(elts) = &body.exprs[*t] {
                        if let Some((at, message)) = self.unpacking_error(at, elts, *value) {
                            return self.refuse_statement(s, at, message);
                        }
                        (elts.to_vec(), *value)
                    } else {
                        (targets.to_vec(), *value)
                    }
                } else {
                    (targets.to_vec(), *value)
                }
            }
            Stmt::AnnAssign { target, value: Some(value), .. } => (vec![*target], *value),
            Stmt::AugAssign { target, op, value } => {
                if let Expr::Subscript { index, .. } = body.exprs[*target] {
                    let single =
                        !matches!(body.exprs[index], Expr::Tuple(_) | Expr::Slice { .. } | Expr::None | Expr::Ellipsis);
                    if single && matches!(self.ty(index), Some(Ty::Arr(_))) {
                        return self.refuse_statement(s, at, AUGMENTED_ARRAY_INDEX);
                    }
                }
                if let Some(message) =
                    whole_array_update_error(*op).filter(|_| matches!(self.ty(*target), Some(Ty::Arr(_))))
                {
                    return self.refuse_statement(s, at, message);
                }
                if let Some((at, message)) = self.update_error(at, *target, *op, *value) {
                    return self.refuse_statement(s, at, message);
                }
                (vec![*target], *value)
            }
            _ => return,
        };
        // The value each target stores: the statement's, or the element of
        // a tuple display it unpacks; none that is typed here for an
        // augmented assignment or another unpacking.
        let unpacked = matches!(&body.stmts[s], Stmt::Assign { targets, .. }
            if targets.iter().any(|t| matches!(body.exprs[*t], Expr::Tuple(_) | Expr::List(_))));
        let values: Vec<Option<ExprId>> = match (&body.stmts[s], &body.exprs[whole]) {
            (Stmt::Assign { .. }, Expr::Tuple(values) | Expr::List(values)) if unpacked => {
                values.iter().map(|v| Some(*v)).collect()
            }
            (Stmt::Assign { .. }, _) if !unpacked => vec![Some(whole); targets.len()],
            _ => vec![None; targets.len()],
        };
        self.check_element_stores(&targets, &values, matches!(body.stmts[s], Stmt::AugAssign { .. }));
        // `a[0], a[1] = t` of a tuple not displayed (a local, a call, a
        // conditional expression): each element stored as its own value.
        if let (true, Stmt::Assign { .. }, Some(Ty::Tuple(elems))) =
            (unpacked && !matches!(body.exprs[whole], Expr::Tuple(_) | Expr::List(_)), &body.stmts[s], self.ty(whole))
        {
            for (&t, elem) in targets.iter().zip(&elems).filter(|_| elems.len() == targets.len()) {
                if let Expr::Subscript { base, index } = body.exprs[t] {
                    if let Some((at, message)) = self.element_store_error(t, base, index, Some(elem.clone())) {
                        self.refuse(t, at, message);
                    }
                }
            }
        }
        // The bindings of the statement, one per name target in order (see
        // `Solver::collect`); none where a name is bound to a range, a
        // dtype or a list, which bind no value.
        let here = self.reading_at.get();
        let first = self.bindings.partition_point(|b| b.at < here);
        let bindings: Vec<&Binding> = self.bindings[first..].iter().take_while(|b| b.at == here).collect();
        let names: Vec<(ExprId, LocalId)> = targets.iter().filter_map(|t| Some((*t, self.local_of(*t)?))).collect();
        if names.len() != bindings.len() || names.iter().zip(&bindings).any(|((_, id), b)| *id != b.local) {
            return;
        }
        for ((target, id), b) in names.into_iter().zip(bindings) {
            for (at, message) in self.binding_errors(target, id, b.bound, whole) {
                self.refuse_statement(s, at, message);
            }
        }
    }

    /// Why `(targets) = value` does not unpack, where the value is typed:
    /// a tuple of another length (the shape of an array of another number
    /// of axes), an array not of one axis, a number.
    fn unpacking_error(&self, at: TextRange, targets: &[ExprId], value: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        let value_at = body.expr_ranges[value];
        let count = targets.len();
        if let Expr::Tuple(_) | Expr::List(_) = body.exprs[value] {
            // Counted by `unpacking_error` before.
            return None;
        }
        match self.ty(value)? {
            Ty::Tuple(elems) if elems.len() == count => None,
            Ty::Tuple(elems) => {
                let shape = matches!(&body.exprs[value], Expr::Attribute { attr, .. } if &**attr == "shape");
                let message =
                    if shape { shape_count_error(count, elems.len()) } else { count_error(count, elems.len()) };
                Some((at, message))
            }
            Ty::Arr(t) if t.ndim() == Some(1) => None,
            Ty::Arr(_) => Some((value_at, UNPACKED_ARRAY.into())),
            // A value that may be `None` is the lowering's.
            _ if self.maybe_none(value) => None,
            t => Some((value_at, not_unpackable_error(t.scalar()?.dtype.name()))),
        }
    }

    /// Why `target op= value` of a number (a scalar local or an element of
    /// an array) is refused, as the lowering's `binop` then `store` refuse
    /// it: operands the operator does not take (`pytypes::arith`) or a
    /// constant operand their dtype does not hold, a result an element
    /// does not hold (see [`store_error`]). Arrays,
    /// tuples and values that may be `None` are the lowering's.
    /// Located at the statement (`at`), or at the element stored.
    fn update_error(
        &self,
        at: TextRange,
        target: ExprId,
        op: ast::Operator,
        value: ExprId,
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        if self.may_be_none(target) || self.may_be_none(value) {
            return None;
        }
        if let Some(message) = self.in_place_operand_error(target, op, value) {
            return Some((at, message));
        }
        // A whole array (or a view) updated in place, as the lowering's
        // `fuse` writes it: a result of more axes, or of a dtype NumPy's
        // `same_kind` rule does not cast to the array's.
        if let Some(Ty::Arr(written)) = self.ty(target) {
            use crate::lower::elementwise::{in_place_cast_error, in_place_rank_error};
            let rhs = self.ty(value)?;
            // A constant the operands' dtype does not hold (`a[:] += 300`
            // of Int8 elements).
            if !written.dtype.is_text() && matches!(rhs, Ty::Lit { .. }) {
                let element = Ty::Num { s: Scalar::strong(written.dtype), nonneg: false };
                if let (Some(_), Some(_)) = (rhs.operand(), element.operand()) {
                    let arith_ok = arith(op, &element.operand()?, &rhs.operand()?).is_ok();
                    if let Some(message) = super::expressions::binop_error(op, &element, &rhs).filter(|_| arith_ok) {
                        return Some((at, message));
                    }
                }
            }
            let element = |e: &[Ty]| self.arith_type(op, &e[0], &e[1]);
            let Some(Some(Ty::Arr(result))) = self.elementwise(&[Ty::Arr(written.clone()), rhs], element) else {
                return None;
            };
            let (nd, result_nd) = (written.ndim()?, result.ndim()?);
            if result_nd > nd {
                return Some((at, in_place_rank_error(result_nd, nd)));
            }
            return in_place_cast_error(op, result.dtype, written.dtype).map(|message| (at, message));
        }
        let (current, element) = match body.exprs[target] {
            Expr::Name(Name::Local(id)) => match self.held(id)? {
                Held::Scalar { t, .. } => (Ty::Num { s: t, nonneg: self.states[id].nonneg }, false),
                _ => return None,
            },
            Expr::Subscript { .. } => match self.ty(target)? {
                t @ Ty::Num { .. } => (t, true),
                _ => return None,
            },
            _ => return None,
        };
        let rhs = self.ty(value)?;
        if let Some(message) = super::misuses::number_updated_by_array_error(&rhs) {
            return Some((at, message.into()));
        }
        // A tuple added to a number (`x += t`): the lowering's
        // `tuple_arith` refuses it.
        if matches!(rhs, Ty::Tuple(_)) {
            return super::expressions::binop_error(op, &current, &rhs).map(|message| (at, message));
        }
        current.operand()?;
        rhs.operand()?;
        // The operator's rules, then a constant the operands' dtype does
        // not hold (`x += 300` of an Int8 `x`).
        if let Some(message) = super::expressions::binop_error(op, &current, &rhs) {
            return Some((at, message));
        }
        let d = current.scalar()?.dtype;
        let result = self.arith_type(op, &current, &rhs).filter(|_| element)?;
        store_error(&result, d).map(|message| (body.expr_ranges[target], message))
    }

    /// Refuses each of `targets` that stores into an element (see
    /// [`Solver::element_store_error`]) its value (of `values`) refused
    /// (`aug`: the target of an augmented assignment).
    fn check_element_stores(&self, targets: &[ExprId], values: &[Option<ExprId>], aug: bool) {
        for (&t, &value) in targets.iter().zip(values) {
            if let Expr::Subscript { base, index } = self.body.exprs[t] {
                if let Some((at, message)) = self.array_index_store_error(t, base, index) {
                    self.refuse(t, at, message);
                } else if let Some((at, message)) = self.element_store_error(t, base, index, self.stored_type(value)) {
                    self.refuse(t, at, message);
                } else {
                    self.check_view_store(t, base, index, value);
                }
                self.check_array_store(t, base, index, value, aug);
            }
        }
    }

    /// Why the store through the array index of `s` (`base[idx] = value`,
    /// `base[mask] = value`) is refused, as the lowering's
    /// `assign_through_array_index` and `scatter` refuse it, where it
    /// types the base and the index: what is not an array indexed, an
    /// index not of integers or Bools ([`array_index_error`]), an array
    /// of no axes, a mask of more axes than the array. The value is the
    /// lowering's; a write to an input array is reported by
    /// [`Solver::check_read_only_targets`].
    fn array_index_store_error(&self, s: ExprId, base: ExprId, index: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        if matches!(body.exprs[index], Expr::Tuple(_) | Expr::Slice { .. } | Expr::None | Expr::Ellipsis) {
            return None;
        }
        let Some(Ty::Arr(it)) = self.ty(index) else { return None };
        let ty = match self.ty(base)? {
            Ty::Arr(ty) => ty,
            _ => return Some((body.expr_ranges[base], ONLY_ARRAYS_INDEXED_BY_ARRAYS.into())),
        };
        if let Some(message) = array_index_error(it.dtype) {
            return Some((body.expr_ranges[index], message));
        }
        let (nd, ind) = (ty.ndim()?, it.ndim()?);
        let at = body.expr_ranges[s];
        if nd == 0 {
            return Some((at, NO_AXES_INDEXED_BY_ARRAY.into()));
        }
        mask_axes_error(nd, ind).filter(|_| it.dtype == DType::Bool).map(|message| (at, message))
    }

    /// Refuses the store into the view `s` (`base[index] = value` where
    /// the index has a slice, `None` or `...`, or names fewer axes than
    /// the local `base` has; `base[index] op= ...` without a value) as the
    /// lowering's `assign_to_view` and `view_in_place` refuse it, where it
    /// types the base and the index: what is not an array sliced, the
    /// view's indices (as [`Solver::view`] refuses them where read), text
    /// stored, an array of more axes or of text or complex numbers into
    /// real ones copied. Array indices are the lowering's; a write to an
    /// input array is reported by [`Solver::check_read_only_targets`].
    fn check_view_store(&self, s: ExprId, base: ExprId, index: ExprId, value: Option<ExprId>) {
        let body = self.body;
        let entries: &[ExprId] = match &body.exprs[index] {
            Expr::Tuple(es) => es,
            _ => std::slice::from_ref(&index),
        };
        let special =
            entries.iter().any(|e| matches!(body.exprs[*e], Expr::Slice { .. } | Expr::None | Expr::Ellipsis));
        if entries.iter().any(|e| matches!(self.ty(*e), Some(Ty::Arr(_)))) {
            return;
        }
        let ty = match self.ty(base) {
            Some(Ty::Arr(ty)) => ty,
            Some(_) if special => {
                self.refuse(s, body.expr_ranges[base], ONLY_ARRAYS_SLICED);
                return;
            }
            _ => return,
        };
        let fewer = matches!(body.exprs[base], Expr::Name(_)) && ty.ndim().is_some_and(|n| entries.len() < n);
        if !(special || fewer) {
            return;
        }
        let refused = || self.reports.borrow().as_ref().is_some_and(|r| r.refused.get(s).is_some());
        self.view(s, true, &ty, index, entries);
        if refused() {
            return;
        }
        let Some(value) = value.filter(|v| !self.may_be_none(*v)) else { return };
        let (Some(dst), Some(v)) = (self.ty(s), self.ty(value)) else { return };
        let at = body.expr_ranges[s];
        let message = match (&dst, &v) {
            // `r[..., 0] = x` of a 1-D `r`: the one element.
            (Ty::Num { .. }, _) => store_error(&v, ty.dtype),
            (Ty::Arr(_), Ty::Num { s: n, .. } | Ty::Lit { s: n, .. }) if n.dtype.is_text() => {
                Some(TEXT_IN_A_VIEW.into())
            }
            // A constant the elements do not hold (`r[:] = 300` of Int8),
            // a complex one for reals said so.
            (Ty::Arr(d), Ty::Lit { .. }) => {
                self.view_value_error(d, &v).or_else(|| super::expressions::conversion_error(&v, d.dtype))
            }
            (Ty::Arr(d), Ty::Arr(src)) => match (d.ndim(), src.ndim()) {
                (Some(dr), Some(sr)) if sr > dr => Some(view_rank_error(sr, dr)),
                (Some(_), Some(_)) => copy_dtype_error(src.dtype, d.dtype),
                _ => None,
            },
            _ => None,
        };
        let message = message.or_else(|| match &dst {
            Ty::Arr(d) => self.view_value_error(d, &v),
            _ => None,
        });
        if let Some(message) = message {
            self.refuse(s, at, message);
        }
    }

    /// Why the store into the element `s` (`base[index] = value`, or
    /// `base[index] op= ...` without a value) is refused, as the
    /// lowering's `element_of` and `store` refuse it, where it types the
    /// base and every index (not an array index, a view, or a tuple of
    /// indices, which are stored through otherwise): a number or a tuple
    /// indexed, more indices than axes, an index that is not an integer,
    /// a value an element does not hold (see [`store_error`]; `value` its
    /// type, where it is known). A write to an input array is reported by
    /// [`Solver::check_read_only_targets`].
    fn element_store_error(
        &self,
        s: ExprId,
        base: ExprId,
        index: ExprId,
        value: Option<Ty>,
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let entries: &[ExprId] = match &body.exprs[index] {
            Expr::Tuple(es) => es,
            _ => std::slice::from_ref(&index),
        };
        let special = |e: &ExprId| matches!(body.exprs[*e], Expr::Slice { .. } | Expr::None | Expr::Ellipsis);
        if entries.iter().any(special) {
            return None;
        }
        // `a[idx] = v` of a tuple local `idx`: its elements are the
        // indices, as the lowering's `element_of` takes them.
        if let (Expr::Name(_), Some(Ty::Tuple(elems))) = (&body.exprs[index], self.ty(index)) {
            let Some(Ty::Arr(ty)) = self.ty(base) else { return None };
            let count = ty.ndim().and_then(|nd| index_count_error(nd, elems.len()));
            if let Some(message) = count.or_else(|| elems.iter().find_map(|t| element_index_error(Some(t)))) {
                return Some((body.expr_ranges[index], message));
            }
            return store_error(&value?, ty.dtype).map(|message| (body.expr_ranges[s], message));
        }
        let base_ty = self.ty(base)?;
        let tys: Vec<Ty> = entries.iter().map(|e| self.ty(*e)).collect::<Option<_>>()?;
        if tys.iter().any(|t| matches!(t, Ty::Arr(_) | Ty::Tuple(_))) {
            return None;
        }
        let base_at = body.expr_ranges[base];
        let ty = match base_ty {
            Ty::Num { s, .. } | Ty::Lit { s, .. } => return Some((base_at, scalar_indexed(s.dtype))),
            Ty::Tuple(_) => return Some((base_at, TUPLE_ELEMENTS_ASSIGNED.into())),
            Ty::Arr(ty) => ty,
        };
        // Fewer indices than the axes of a local: a view, written whole.
        if matches!(body.exprs[base], Expr::Name(_)) && ty.ndim().is_some_and(|n| entries.len() < n) {
            return None;
        }
        if let Some(message) = ty.ndim().and_then(|nd| index_count_error(nd, entries.len())) {
            return Some((body.expr_ranges[index], message));
        }
        for (e, t) in entries.iter().zip(&tys) {
            if let Some(message) = element_index_error(Some(t)) {
                return Some((body.expr_ranges[*e], message));
            }
        }
        store_error(&value?, ty.dtype).map(|message| (body.expr_ranges[s], message))
    }

    /// The type of `value` stored, where it is typed and not what may be
    /// `None` (the lowering's to report).
    fn stored_type(&self, value: Option<ExprId>) -> Option<Ty> {
        self.ty(value.filter(|v| !self.may_be_none(*v))?)
    }

    /// What the local `id` holds, its types solved, as the lowering's
    /// `LocalInfo`: `None` for a local without a type (the lowering reports
    /// its bindings as not inferred), a list, a local that may be `None`
    /// by its declaration, and a text parameter.
    fn held(&self, id: LocalId) -> Option<Held> {
        let local = &self.body.locals[id];
        let st = &self.states[id];
        match local.kind {
            LocalKind::Param => {
                if let Some(declared) = scalar_parameter(self.env, &local.name) {
                    let t = st.ty.filter(|_| st.open)?;
                    return Some(Held::Scalar { t, fixed: t == declared, param: true });
                }
                let decl = self.env.decl;
                let at = decl.params.iter().position(|(n, _)| **n == *local.name)?;
                let td = self.env.types.get(decl.params[at].1);
                if td.is_tuple() {
                    Some(Held::Tuple { len: td.elements.len(), param: true, elems: None })
                } else if td.is_array {
                    Some(Held::Array { t: td.clone(), param: true })
                } else {
                    None
                }
            }
            LocalKind::Assigned if st.open && st.list.is_none() && st.dtype.is_none() => {
                if let Some(t) = st.ty {
                    Some(Held::Scalar { t, fixed: st.annotation.is_some(), param: false })
                } else if let Some(elems) = &st.elems {
                    Some(Held::Tuple { len: elems.len(), param: false, elems: Some(elems.clone()) })
                } else {
                    st.arr.as_ref().map(|t| Held::Array { t: t.clone(), param: false })
                }
            }
            _ => None,
        }
    }

    /// Why the local `id`'s type does not hold what `bound` (of the target
    /// `target`) binds to it, and where, as the lowering's `assign_local`
    /// and `assign_tuple_local` refuse it: a number that does not join the
    /// local's type or narrows an annotated local or a parameter, a number
    /// bound to an array or tuple local, an array of another type (a
    /// parameter's: rebound), a tuple bound to what holds none or holds
    /// tuples of another length. Values it does not type, that may be
    /// `None`, and `None` are the lowering's.
    fn binding_errors(&self, target: ExprId, id: LocalId, bound: Bound, whole: ExprId) -> Vec<(TextRange, String)> {
        let body = self.body;
        let value = match bound {
            Bound::Value(v) | Bound::Update(_, v) => v,
            Bound::Extent { .. } | Bound::Element { .. } => whole,
            // `for v in a`: each step of an array.
            Bound::EveryElement(iter) if matches!(self.ty(iter), Some(Ty::Arr(_))) => iter,
            _ => return Vec::new(),
        };
        let value_at = body.expr_ranges[value];
        if matches!(body.exprs[value], Expr::None) || self.may_be_none(value) {
            let bound_to = matches!(bound, Bound::Value(_)).then(|| self.none_binding_error(id, value));
            return bound_to.flatten().into_iter().collect();
        }
        let ty = match bound {
            Bound::EveryElement(iter) => match self.ty(iter) {
                Some(Ty::Arr(t)) => array_step(&t),
                _ => None,
            },
            _ => self.binding_type(bound, id),
        };
        let (Some(held), Some(ty)) = (self.held(id), ty) else { return Vec::new() };
        let at = body.expr_ranges[target];
        let name = &*body.locals[id].name;
        let shown = crate::lower::tuples::shown_local(name);
        let message = match (&ty, held) {
            (Ty::Tuple(elems), Held::Tuple { len, .. }) if elems.len() != len => {
                return vec![(value_at, tuple_length_error(&shown, len, elems.len()))];
            }
            (Ty::Tuple(tys), Held::Tuple { elems: Some(elems), .. }) => {
                let mut errors = Vec::new();
                self.element_errors(&shown, &elems, tys, (at, value_at), &mut errors);
                return errors;
            }
            (Ty::Tuple(_), Held::Tuple { .. }) => return Vec::new(),
            (Ty::Tuple(_), Held::Scalar { param, .. } | Held::Array { param, .. }) => {
                not_a_tuple_local_error(param, &shown)
            }
            (Ty::Arr(now), Held::Array { t, .. }) if *now == t => return Vec::new(),
            (Ty::Arr(now), Held::Array { t, param: true }) => rebound_parameter_error(name, Some(&t), now),
            (Ty::Arr(now), Held::Scalar { param: true, .. } | Held::Tuple { param: true, .. }) => {
                rebound_parameter_error(name, None, now)
            }
            (Ty::Arr(_), _) => different_types_error(&shown),
            (_, Held::Array { .. }) => scalar_into_error(&shown, "an array"),
            (_, Held::Tuple { .. }) => scalar_into_error(&shown, "a tuple"),
            (_, Held::Scalar { t, fixed, param }) => {
                let Some(s) = ty.scalar() else { return Vec::new() };
                // A constant the local's dtype cannot hold (a Python int
                // beyond Int64's range bound to a local of Python ints).
                if let Ty::Lit { lit, .. } = &ty {
                    if lit.convert(t.dtype).is_none() && widens_to(s, t.dtype) {
                        return vec![(value_at, crate::lower::expr::constant_conversion_error(lit, t.dtype))];
                    }
                }
                let error = if fixed {
                    (!widens_to(s, t.dtype)).then(|| narrowing_error(param, name, s.dtype, t.dtype))
                } else {
                    join(t, s).is_none().then(|| join_error(&shown, s.dtype, t.dtype))
                };
                return error.map(|message| (value_at, message)).into_iter().collect();
            }
        };
        vec![(at, message)]
    }

    /// The errors of binding the tuple `tys` to the elements `elems` of
    /// the tuple local `shown` (at the target and the value `at`), each
    /// element as a local of its own, as the lowering's
    /// `assign_tuple_local` binds them: a number that does not join the
    /// element's type, an array of another type, a number or a tuple
    /// where another kind of value is.
    fn element_errors(
        &self,
        shown: &str,
        elems: &[Element],
        tys: &[Ty],
        at: (TextRange, TextRange),
        errors: &mut Vec<(TextRange, String)>,
    ) {
        let (target_at, value_at) = at;
        for (i, (element, ty)) in elems.iter().zip(tys).enumerate() {
            let shown = format!("{shown}[{i}]");
            let error = match (element, ty) {
                (Element::Scalar(t, _), Ty::Num { .. } | Ty::Lit { .. }) => {
                    let s = ty.scalar().expect("a number");
                    join(*t, s).is_none().then(|| (value_at, join_error(&shown, s.dtype, t.dtype)))
                }
                (Element::Array(t), Ty::Arr(now)) => (t != now).then(|| (target_at, different_types_error(&shown))),
                (Element::Tuple(inner), Ty::Tuple(parts)) if inner.len() == parts.len() => {
                    self.element_errors(&shown, inner, parts, at, errors);
                    None
                }
                (Element::Tuple(inner), Ty::Tuple(parts)) => {
                    Some((value_at, tuple_length_error(&shown, inner.len(), parts.len())))
                }
                (Element::Scalar(..) | Element::Array(_), Ty::Tuple(_)) => {
                    Some((target_at, not_a_tuple_local_error(false, &shown)))
                }
                (Element::Array(_), _) => Some((target_at, scalar_into_error(&shown, "an array"))),
                (Element::Tuple(_), Ty::Num { .. } | Ty::Lit { .. }) => {
                    Some((target_at, scalar_into_error(&shown, "a tuple")))
                }
                (Element::Scalar(..) | Element::Tuple(_), Ty::Arr(_)) => {
                    Some((target_at, different_types_error(&shown)))
                }
            };
            errors.extend(error);
        }
    }

    /// The locals that may hold `None`, as the lowering's
    /// `maybe_none_locals` finds them (or more): those bound to a value
    /// that may be `None` (see [`Solver::may_be_none`]).
    pub(super) fn maybe_none_locals(&self) -> ArenaMap<LocalId, ()> {
        let mut found = ArenaMap::default();
        loop {
            let mut grew = false;
            for b in &self.bindings {
                if let (Bound::Value(v), None) = (b.bound, found.get(b.local)) {
                    if self.may_be_none_in(v, &found) {
                        found.insert(b.local, ());
                        grew = true;
                    }
                }
            }
            if !grew {
                return found;
            }
        }
    }

    /// Whether `e` may be `None` where the lowering binds it (or may be:
    /// the lowering refuses what it binds then, not this module): `None`,
    /// a parameter or local that may be, a call of a POST function whose
    /// result may be, a conditional expression with such an arm.
    pub(super) fn may_be_none(&self, e: ExprId) -> bool {
        self.may_be_none_in(e, &self.none_locals)
    }

    pub(super) fn may_be_none_in(&self, e: ExprId, locals: &ArenaMap<LocalId, ()>) -> bool {
        let body = self.body;
        // Conditional expressions nest as deep as the source: a stack of
        // the arms still to look at.
        let mut pending = vec![e];
        while let Some(e) = pending.pop() {
            let maybe = match &body.exprs[e] {
                Expr::None => true,
                Expr::Name(Name::Local(id)) => match body.locals[*id].kind {
                    LocalKind::Param => self.maybe_none(e),
                    _ => locals.get(*id).is_some(),
                },
                Expr::Call { func, .. } => match &body.exprs[*func] {
                    Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n) {
                        Some(Global::Generic(g)) => self.env.generics.decls[*g].ret_maybe_none,
                        _ => self.callee(n).is_some_and(|c| c.ret_maybe_none),
                    },
                    // A function of another POST module (`geometry.area(...)`).
                    Expr::Attribute { base, .. } => match &body.exprs[*base] {
                        Expr::Name(Name::Global(m)) => {
                            matches!(self.env.globals.get(&**m), Some(Global::PostModule(_)))
                        }
                        _ => false,
                    },
                    _ => false,
                },
                &Expr::If { body: then, orelse, .. } => {
                    pending.extend([then, orelse]);
                    false
                }
                _ => false,
            };
            if maybe {
                return true;
            }
        }
        false
    }
}
