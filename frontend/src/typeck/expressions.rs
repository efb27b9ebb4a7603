//! Expressions the lowering would refuse where it lowers them, refused
//! where they are typed: arithmetic whose constant operand the other's
//! dtype cannot hold or that meets a tuple and an array, comparisons and
//! `in` tests of what is not a number, `-t` of a tuple, members of
//! namespaces read as values, an array indexed by a tuple local of the
//! wrong length or with an element that is not an integer, and the
//! elements of `divmod`, `sum` and `min`/`max` of tuples; and the
//! elements of lists that their dtype cannot hold.

use super::*;
use crate::lower::expr::{
    constant_conversion_error, gpu_axes_error, gpu_register_outside_kernel_error, not_a_value_error,
    text_conversion_error, unary_of_tuple_error, ONLY_SCALARS_COMPARED, WHOLE_ARRAY_ARITHMETIC,
};
use crate::lower::lists::LIST_HOLDS_NUMBERS;
use crate::lower::tuples::{tuple_elements_join_error, tuple_elements_kind_error, MEMBERSHIP_IN_TUPLE};
use crate::typeck::maybe_none::{cannot_be_none_error, none_arm_error};

/// Why the value of type `t` cannot be converted to `dtype`, as the
/// lowering's `materialize` refuses it: a constant out of the dtype's
/// range or of no number of it, a string to a number or back.
pub(super) fn conversion_error(t: &Ty, dtype: DType) -> Option<String> {
    match t {
        Ty::Lit { lit, .. } => lit.convert(dtype).is_none().then(|| constant_conversion_error(lit, dtype)),
        Ty::Num { s, .. } if s.dtype != dtype && (s.dtype.is_text() || dtype.is_text()) => {
            Some(text_conversion_error(s.dtype, dtype))
        }
        _ => None,
    }
}

/// Why an argument of type `t` that fits the parameter `p` of a POST
/// function cannot be converted to it, as the lowering's `materialize`
/// refuses it: a constant (or a tuple's) that the parameter's dtype (or
/// its element's) does not hold (`g(300)` of an Int8 parameter).
pub(super) fn argument_conversion_error(p: &TypeData, t: &Ty) -> Option<String> {
    match t {
        Ty::Tuple(elems) if p.is_tuple() => {
            elems.iter().zip(&p.elements).find_map(|(e, d)| conversion_error(e, d.dtype))
        }
        _ if p.is_tuple() || p.is_array => None,
        _ => conversion_error(t, p.dtype),
    }
}

/// Why the lowering's `binop` refuses `l op r`: an array among operands
/// that are not both numbers, a tuple's arithmetic it does not do, the
/// operator's rules for numbers, or an operand its dtype cannot hold (the
/// left one first). `None` where it accepts them or cannot tell.
pub(super) fn binop_error(op: ast::Operator, l: &Ty, r: &Ty) -> Option<String> {
    let (Some(lo), Some(ro)) = (l.operand(), r.operand()) else {
        if matches!(l, Ty::Arr(_)) || matches!(r, Ty::Arr(_)) {
            return Some(WHOLE_ARRAY_ARITHMETIC.to_owned());
        }
        if matches!(l, Ty::Tuple(_)) || matches!(r, Ty::Tuple(_)) {
            return tuple_arith_error(op, Some(l), Some(r));
        }
        return None;
    };
    let a = match arith(op, &lo, &ro) {
        Ok(a) => a,
        Err(message) => return Some(message),
    };
    conversion_error(l, a.operand).or_else(|| conversion_error(r, a.operand))
}

/// Why the lowering's `compare_pair` refuses `l op r` met inside
/// tuples or in a chain: what is not a number, or scalars that do not
/// compare.
fn pair_error(op: ast::CmpOp, l: &Ty, r: &Ty) -> Option<String> {
    match (l.scalar(), r.scalar()) {
        (Some(_), Some(_)) => scalar_comparison_error(op, l, r),
        _ => Some(ONLY_SCALARS_COMPARED.to_owned()),
    }
}

/// Why `l == r` is refused, as the lowering's `values_equal` finds it:
/// tuples of one length element by element; a tuple and a number or a
/// tuple of another length are unequal; anything else a pair.
fn equality_error(l: &Ty, r: &Ty) -> Option<String> {
    match (l, r) {
        (Ty::Tuple(ls), Ty::Tuple(rs)) if ls.len() == rs.len() => {
            ls.iter().zip(rs).find_map(|(a, b)| equality_error(a, b))
        }
        (Ty::Tuple(_), Ty::Num { .. } | Ty::Lit { .. } | Ty::Tuple(_))
        | (Ty::Num { .. } | Ty::Lit { .. }, Ty::Tuple(_)) => None,
        _ => pair_error(ast::CmpOp::Eq, l, r),
    }
}

/// Why `l op r` (no `in`, no `is`) is refused, as the lowering's
/// `compare_values` finds it: an ordering of two tuples from the last
/// position back, each position's equality before its order.
fn compare_values_error(op: ast::CmpOp, l: &Ty, r: &Ty) -> Option<String> {
    use ast::CmpOp as C;
    let tuples = matches!(l, Ty::Tuple(_)) || matches!(r, Ty::Tuple(_));
    match op {
        C::Eq | C::NotEq if tuples => equality_error(l, r),
        C::Lt | C::LtE | C::Gt | C::GtE if tuples => match (l, r) {
            (Ty::Tuple(ls), Ty::Tuple(rs)) => ls
                .iter()
                .zip(rs)
                .rev()
                .find_map(|(a, b)| equality_error(a, b).or_else(|| compare_values_error(op, a, b))),
            _ => Some(orders_two_tuples(op, &describe_a_ty(Some(l)), &describe_a_ty(Some(r)))),
        },
        _ => pair_error(op, l, r),
    }
}

/// Whether the lowering lowers the `...` `e` as a value (and refuses it
/// there): not an entry of a subscript's index (`a[..., 0]`), nor in an
/// expression statement that is no call (`...` as a body), in a target,
/// in a refused construct, or in what the lowering does not lower (an
/// annotation, an `assert`'s message, a `raise`).
pub(super) fn ellipsis_read_as_value(body: &Body, e: ExprId) -> bool {
    let mut excluded = ArenaMap::default();
    let mut roots = unlowered_parts(body);
    for (_, stmt) in body.stmts.iter() {
        match stmt {
            Stmt::Expr(x) if !matches!(body.exprs[*x], Expr::Call { .. }) => roots.push(*x),
            Stmt::Assign { targets, .. } => roots.extend(targets.iter().copied()),
            Stmt::AnnAssign { target, .. } | Stmt::AugAssign { target, .. } | Stmt::For { target, .. } => {
                roots.push(*target)
            }
            _ => {}
        }
    }
    for (id, x) in body.exprs.iter() {
        match x {
            Expr::Subscript { index, .. } => {
                excluded.insert(*index, ());
                if let Expr::Tuple(entries) = &body.exprs[*index] {
                    entries.iter().for_each(|en| {
                        excluded.insert(*en, ());
                    });
                }
            }
            Expr::Refused { .. } => roots.push(id),
            _ => {}
        }
    }
    insert_subtrees(body, roots, &mut excluded);
    excluded.get(e).is_none()
}

impl Solver<'_> {
    /// Refuses a comparison the lowering's `compare` would: a lone `in`
    /// of what is not a tuple (said at the right operand), or of an
    /// element that does not compare with the left one; a lone comparison
    /// of a tuple; and each link of a chain, compared pair by pair (an
    /// array in a chain is no element-wise comparison). `Some` where
    /// refused.
    pub(super) fn comparison_refusal(
        &self,
        e: ExprId,
        ops: &[ast::CmpOp],
        operands: &[ExprId],
        tys: &[Ty],
    ) -> Option<Option<Ty>> {
        use ast::CmpOp as C;
        let message = match (ops, tys) {
            ([C::In | C::NotIn], [l, r]) => {
                let Ty::Tuple(elems) = r else {
                    return Some(self.refuse(e, self.body.expr_ranges[operands[1]], MEMBERSHIP_IN_TUPLE));
                };
                elems.iter().find_map(|x| equality_error(l, x))
            }
            ([op], [l, r]) if matches!(l, Ty::Tuple(_)) || matches!(r, Ty::Tuple(_)) => compare_values_error(*op, l, r),
            ([_], _) => None,
            _ => ops.iter().zip(tys.windows(2)).find_map(|(op, pair)| match op {
                C::Is | C::IsNot | C::In | C::NotIn => None,
                _ => compare_values_error(*op, &pair[0], &pair[1]),
            }),
        };
        message.map(|message| self.refuse_here(e, message))
    }

    /// Refuses a member of a namespace (`math.sin`, `postc.prange`,
    /// `postc.math`) read as a value, as the lowering's `attribute` does:
    /// not a constant of `math` (`postc.math.pi`), nor the base of another
    /// attribute (`postc.thread_idx.x`, read with it). `Some` where
    /// refused.
    pub(super) fn namespace_member_read(&self, e: ExprId, base: ExprId, attr: &str) -> Option<Option<Ty>> {
        let ns = match &self.body.exprs[base] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n) {
                Some(Global::Namespace(ns)) => *ns,
                _ => return None,
            },
            _ if self.names_postc_math(base) => Namespace::PostcMath,
            _ => return None,
        };
        if matches!(ns, Namespace::Math | Namespace::PostcMath) && math_constant(attr).is_some() {
            return None;
        }
        // Not read as a value, or the base of another attribute (a scan
        // of the body, made only where the first does not settle it).
        let read_with_attribute =
            || self.body.exprs.iter().any(|(_, x)| matches!(x, Expr::Attribute { base: b, .. } if *b == e));
        if self.not_values.get(e).is_some() || read_with_attribute() {
            return None;
        }
        let dotted = self.body.dotted(e).unwrap_or_default();
        Some(self.refuse_here(e, not_a_value_error(&dotted)))
    }

    /// Refuses `r.w` of a GPU register `r` (`base`) read as a value, an
    /// axis it does not have, and `r.x` outside a `@kernel` function, as
    /// the lowering's `attribute`. `Some` where refused.
    pub(super) fn gpu_register_read(&self, e: ExprId, base: ExprId, attr: &str) -> Option<Option<Ty>> {
        let reg = match &self.body.exprs[base] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n) {
                Some(Global::GpuRegister(r)) => *r,
                _ => return None,
            },
            Expr::Attribute { attr, .. } => *GpuReg::ALL.iter().find(|r| r.name() == &**attr)?,
            _ => return None,
        };
        if self.not_values.get(e).is_some() {
            return None;
        }
        if !Axis::ALL.iter().any(|x| x.name() == attr) {
            return Some(self.refuse(e, self.body.attr_ranges[e], gpu_axes_error(reg.name())));
        }
        let kernel = self.env.decl.attrs.contains(FuncAttrs::KERNEL);
        (!kernel).then(|| self.refuse_here(e, gpu_register_outside_kernel_error(reg.name())))
    }

    /// Refuses `-t`, `+t` and `~t` of a tuple, as the lowering's `unary`.
    pub(super) fn unary_of_tuple(&self, e: ExprId, op: ast::UnaryOp, v: &Ty) -> Option<Option<Ty>> {
        (matches!(v, Ty::Tuple(_)) && op != ast::UnaryOp::Not).then(|| self.refuse_here(e, unary_of_tuple_error(op)))
    }

    /// Refuses `a[idx]` of a tuple local `idx` (read, not stored) whose
    /// length is not the array's number of axes or with an element that
    /// is not an integer, as the lowering's `element_of`. `Some` where
    /// refused.
    pub(super) fn index_tuple_refusal(
        &self,
        s: ExprId,
        index: ExprId,
        nd: Option<usize>,
        elems: &[Ty],
    ) -> Option<Option<Ty>> {
        let at = self.body.expr_ranges[index];
        let count = nd.and_then(|nd| index_count_error(nd, elems.len()));
        let message = count.or_else(|| elems.iter().find_map(|t| element_index_error(Some(t))))?;
        Some(self.refuse(s, at, message))
    }

    /// Refuses `divmod(a, b)` of two numbers that `//` (then `%`)
    /// refuses, as the lowering's `divmod`.
    pub(super) fn divmod_refusal(&self, e: ExprId, tys: &[Ty]) -> Option<Option<Ty>> {
        let [a, b] = tys else { return None };
        let message = binop_error(ast::Operator::FloorDiv, a, b).or_else(|| binop_error(ast::Operator::Mod, a, b))?;
        Some(self.refuse_here(e, message))
    }

    /// Refuses `sum(t, start)` whose start and elements `+` refuses, one
    /// after another, as the lowering's `sum_of` adds them.
    pub(super) fn sum_refusal(&self, e: ExprId, tys: &[Ty]) -> Option<Option<Ty>> {
        let Some(Ty::Tuple(elems)) = tys.first() else { return None };
        let mut acc = tys.get(1).cloned().unwrap_or(Ty::Lit { lit: Lit::Int(0), s: Scalar::weak(DType::Int64) });
        for x in elems {
            if let Some(message) = binop_error(ast::Operator::Add, &acc, x) {
                return Some(self.refuse_here(e, message));
            }
            acc = self.arith_type(ast::Operator::Add, &acc, x)?;
        }
        None
    }

    /// Refuses `min` or `max` (`word`) of tuples of one length whose
    /// elements are not real numbers or strings, or at one index have no
    /// common type, as the lowering's `min_max_of_tuples`.
    pub(super) fn min_max_of_tuples_refusal(&self, e: ExprId, word: &str, values: &[Ty]) -> Option<Option<Ty>> {
        let tuples = tuple_elements_of(values)?;
        let len = tuples.first()?.len();
        for k in 0..len {
            let mut joined: Option<Scalar> = None;
            for t in &tuples {
                let Some(s) = t[k].scalar().filter(|s| kind(s.dtype) <= Kind::Float || s.dtype.is_text()) else {
                    return Some(self.refuse_here(e, tuple_elements_kind_error(word)));
                };
                joined = match joined {
                    None => Some(s),
                    Some(q) => match promote(q, s) {
                        Some(p) => Some(p),
                        None => return Some(self.refuse_here(e, tuple_elements_join_error(word, q.dtype, s.dtype, k))),
                    },
                };
            }
        }
        None
    }
}

impl Solver<'_> {
    /// The dtype of the list local `list`'s elements, once its bindings
    /// are joined.
    fn list_dtype(&self, list: LocalId) -> Option<DType> {
        self.states[list].list?;
        self.states[list].arr.as_ref().map(|t| t.dtype)
    }

    /// Why `v` (of type `t`) cannot be an element of the list local
    /// `list`, as the lowering's `list_display` and `list_method` refuse
    /// it: not a number, or a value the list's dtype cannot hold (a
    /// string, a constant out of its range).
    pub(super) fn list_element_error(&self, list: LocalId, t: &Ty) -> Option<String> {
        if t.scalar().is_none() {
            return Some(LIST_HOLDS_NUMBERS.to_owned());
        }
        match self.list_dtype(list) {
            Some(d) => conversion_error(t, d),
            // A list of strings only, which the lowering makes no buffer
            // for (and leaves unbound).
            None => super::misuses::list_of_text_error(t),
        }
    }

    /// `xs = [a, b, ...]` (the statement `s`) of a list local: refuses
    /// the first element that is no number or that its dtype cannot
    /// hold, as the lowering's `list_display`.
    pub(super) fn check_list_elements(&self, s: StmtId) {
        let body = self.body;
        let Stmt::Assign { targets, value } = &body.stmts[s] else { return };
        let (Expr::List(elts), [target]) = (&body.exprs[*value], &targets[..]) else { return };
        let Some(list) = self.local_of(*target).filter(|id| self.states[*id].list.is_some()) else { return };
        // Untyped, the lowering lowers the elements for their own errors
        // (and leaves a list of strings unbound).
        if self.list_dtype(list).is_none() {
            return self.refuse_text_list_element(elts);
        }
        for &x in elts.iter() {
            let Some(t) = self.ty(x) else { return };
            if let Some(message) = self.list_element_error(list, &t) {
                self.refuse_here(x, message);
                return;
            }
        }
    }
}

/// What a `for` loop over a tuple binds its name to, as told in
/// [`tuple_loop_mixed_error`]: a number, a tuple of its length, an
/// array of its dtype and number of axes.
fn bound_kind(t: &Ty) -> String {
    match t {
        Ty::Tuple(parts) => format!("a tuple of {} elements", parts.len()),
        Ty::Arr(a) => match a.ndim() {
            Some(nd) => format!("a {nd}-D array of {}", a.dtype.name()),
            None => format!("an array of {}", a.dtype.name()),
        },
        Ty::Num { .. } | Ty::Lit { .. } => "a number".to_owned(),
    }
}

/// The elements of a tuple (or of a list display, `list`) a `for` loop
/// runs over that bind its name (or one of its names) to values of two
/// kinds (`first`, `other`: a number, a tuple of some length, an array of
/// some dtype and number of axes).
pub(crate) fn tuple_loop_mixed_error(list: bool, first: &str, other: &str) -> String {
    format!(
        "the elements of this {} mix {first} and {other}: a `for` loop over them gives its name one kind of value",
        if list { "list" } else { "tuple" },
    )
}

/// Why the elements `elems` of a tuple a `for` loop runs over (unpacked
/// into `names` names, each element a tuple of that many) cannot all be
/// bound to one name, as the lowering's `assign` of each in turn refuses
/// them: values of two kinds.
pub(super) fn tuple_loop_elements_error(list: bool, names: Option<usize>, elems: &[Ty]) -> Option<String> {
    for part in 0..names.unwrap_or(1) {
        let bound = |e: &Ty| match (names, e) {
            (Some(_), Ty::Tuple(p)) => p.get(part).map(bound_kind),
            _ => Some(bound_kind(e)),
        };
        let mut kinds = elems.iter().filter_map(bound);
        let Some(first) = kinds.next() else { continue };
        if let Some(other) = kinds.find(|k| *k != first) {
            return Some(tuple_loop_mixed_error(list, &first, &other));
        }
    }
    None
}

impl Solver<'_> {
    /// `w = a if c else b` (the statement `s`, its targets names) where
    /// an arm may be `None` where it is lowered (`None`, a local that may
    /// be `None` there, a call whose result may be), as the lowering's
    /// `ternary_maybe_none` then `assign_maybe_none` refuse it: the other
    /// arm not a Bool, an integer or a float (beside an arm that is not
    /// `None` itself: [`Solver::beside_none_arm`] refuses the rest), then
    /// a target the lowering does not take to be `None` (an arm naming a
    /// local does not make it so). Arms that are conditional expressions
    /// themselves are the lowering's.
    pub(super) fn check_ternary_that_may_be_none(&self, s: StmtId) {
        let body = self.body;
        let Stmt::Assign { targets, value } = &body.stmts[s] else { return };
        if !targets.iter().all(|t| matches!(body.exprs[*t], Expr::Name(Name::Local(_)))) {
            return;
        }
        let Expr::If { body: then, orelse, .. } = body.exprs[*value] else { return };
        let arms = [then, orelse];
        if self.was_refused(*value) || arms.iter().any(|a| matches!(body.exprs[*a], Expr::If { .. })) {
            return;
        }
        let may_be_none = |e: ExprId| match &body.exprs[e] {
            Expr::None => true,
            Expr::Name(Name::Local(_)) => self.absent_reads.get(e).is_some(),
            Expr::Call { func, .. } => self.returns_maybe_none(*func),
            _ => false,
        };
        if !arms.iter().any(|a| may_be_none(*a)) {
            return;
        }
        for (arm, other) in [(then, orelse), (orelse, then)] {
            if matches!(body.exprs[arm], Expr::None) || matches!(body.exprs[other], Expr::None) {
                continue;
            }
            let Some(t) = self.ty(arm) else { return };
            let message = match t.scalar() {
                None => none_arm_error(None),
                Some(s) if kind(s.dtype) > Kind::Float => none_arm_error(Some(s.dtype)),
                Some(_) => continue,
            };
            self.refuse(*value, body.expr_ranges[arm], message);
            return;
        }
        let maybe = self.presence_locals();
        for t in targets.iter() {
            let Expr::Name(Name::Local(id)) = body.exprs[*t] else { continue };
            if maybe.get(id).is_some() {
                continue;
            }
            let param = body.locals[id].kind == LocalKind::Param;
            let dtype = self.states[id].ty.map(|s| s.dtype);
            let message = cannot_be_none_error(param, &body.locals[id].name, dtype);
            self.refuse_statement(s, body.expr_ranges[*value], message);
            return;
        }
    }
}

impl Solver<'_> {
    /// Refuses the reads in the statement `s` of locals that may be
    /// `None` there ([`Solver::absent_reads`]) where the lowering reads a
    /// number (its `expr`, which takes no `None`): the entries of an index
    /// (`a[y]`, `t[y]`, `a[i, y]`), the arguments of `range`, of a cast
    /// (`float(y)`) and of the builtins of numbers and tuples (`abs(y)`,
    /// `len(y)`), the base of an attribute (`y.real`), a value stored
    /// (`a[0] = y`), and the elements of a tuple display but one returned
    /// where the result is inferred (whose elements may be `None`). The other
    /// places are [`Solver::check_maybe_none_reads`]'s.
    pub(super) fn check_absent_reads_in_parts(&self, s: StmtId) {
        let body = self.body;
        if self.reports.borrow().as_ref().is_some_and(|r| r.refused_stmts.get(s).is_some()) {
            return;
        }
        let (roots, returned) = match &body.stmts[s] {
            // Lowered only as a call.
            Stmt::Expr(e) if !matches!(body.exprs[*e], Expr::Call { .. }) => return,
            // Of a function whose result is inferred, which may hold `None`
            // (`results::optional_elements`).
            Stmt::Return(value) => {
                let decl = self.env.decl;
                let inferred = decl.ret.is_none() && decl.ret_unannotated && !decl.ret_maybe_none && !decl.ret_poisoned;
                (parts_of(&body.stmts[s]).0, value.filter(|_| inferred))
            }
            // Stored (not bound to names, which may take `None`).
            Stmt::Assign { targets, value } if !targets.iter().all(|t| matches!(body.exprs[*t], Expr::Name(_))) => {
                self.value_read(*value);
                (parts_of(&body.stmts[s]).0, None)
            }
            stmt => (parts_of(stmt).0, None),
        };
        let mut pending = roots;
        let mut children = Vec::new();
        while let Some(e) = pending.pop() {
            if self.unlowered.get(e).is_some() {
                continue;
            }
            match &body.exprs[e] {
                &Expr::Subscript { index, .. } => {
                    let entries = match &body.exprs[index] {
                        Expr::Tuple(entries) => &entries[..],
                        _ => std::slice::from_ref(&index),
                    };
                    entries.iter().for_each(|&x| self.value_read(x));
                }
                Expr::Call { func, args, keywords } if keywords.is_empty() && self.reads_numbers(*func) => {
                    args.iter().for_each(|&a| self.value_read(a));
                }
                Expr::Tuple(elements) if Some(e) != returned => elements.iter().for_each(|&x| self.value_read(x)),
                &Expr::Attribute { base, .. } => self.value_read(base),
                _ => {}
            }
            body.push_children(e, &mut children);
            pending.append(&mut children);
        }
    }

    /// Whether a call of `func` reads its arguments as numbers (or
    /// tuples): `range` (`prange`), the casts to a number's type
    /// (`float`, `Int32`) and the builtins of numbers and tuples.
    fn reads_numbers(&self, func: ExprId) -> bool {
        if self.names_range(func) {
            return true;
        }
        match &self.body.exprs[func] {
            Expr::Name(Name::Free(n)) => {
                python_scalar(n).is_some() || matches!(&**n, "abs" | "min" | "max" | "round" | "divmod" | "sum" | "len")
            }
            Expr::Name(Name::Global(n)) => matches!(self.env.globals.get(&**n), Some(Global::Type(_))),
            _ => false,
        }
    }
}
