//! The errors of `for` loops (what a loop runs over and the names it
//! binds: ranges, arrays, `enumerate`, `zip`, `np.ndindex`, tuples and
//! list displays), of `prange` loops (`break` out of one, bodies whose
//! iterations are not independent, reductions of types their operator
//! does not reduce), and of `return`s of tuples, and of what is not one
//! for a tuple, in a function whose result is annotated (`-> None`
//! included), as the lowering's `for_inner`, `prange_reductions`,
//! `prange_marker` and `return_tuple_values` find them. The messages are
//! written here once (a `prange` body's in `lower::prange`): the lowering
//! reports the same ones for the values the typecheck does not type.

use super::*;

/// The errors of a `for` loop's target and iterable (the lowering's
/// `for_over_range`, `for_over_arrays` and `for_over_ndindex`).
pub(crate) const FOR_RANGE_BINDS_ONE: &str = "a `for` loop over a `range` binds one variable";
pub(crate) const FOR_BINDS_NAMES: &str = "a `for` loop binds names";
pub(crate) const FOR_ITERABLE: &str =
    "a `for` loop runs over `range(...)`, a 1-D array, `enumerate(...)` or `zip(...)` of 1-D arrays";
pub(crate) const FOR_AXES_UNKNOWN: &str = "a `for` loop runs over arrays whose number of axes is known";
pub(crate) const FOR_KEYWORD: &str = "keyword arguments are not supported here";
pub(crate) const ENUMERATE_ARITY: &str = "`enumerate` takes one 1-D array here (no `start`)";
pub(crate) const ZIP_ARITY: &str = "`zip` takes one or more 1-D arrays";
pub(crate) const NDINDEX_SHAPE: &str = "`np.ndindex` takes a shape: a tuple of integers, or the integers";
pub(crate) const PRANGE_BREAK: &str = "`break` out of a `prange` loop: its iterations run independently, in any order";

/// Why the target of a loop that gives `want` values at each step is
/// refused: `got` names unpacked (`None`: not a tuple of names).
pub(crate) fn step_count_error(want: usize, got: Option<usize>) -> Option<String> {
    match got {
        Some(n) if want == 1 => Some(format!("this loop gives one value at each step, not {n}")),
        None if want == 1 => None,
        None => Some(format!("this loop gives {want} values at each step: unpack them (`a, b`)")),
        Some(n) if n != want => Some(format!("this loop gives {want} values at each step, not {n}")),
        Some(_) => None,
    }
}

/// A tuple of names bound where only a name is (an assignment's
/// target, a name among those of an `np.ndindex` loop).
pub(crate) const TUPLE_UNPACKING: &str = "tuple unpacking is not supported: assign each variable on its own line";

/// Why the target of `for ... in np.ndindex(...)` of `rank` indices is
/// refused: not a name or as many names.
pub(crate) fn ndindex_target_error(rank: usize) -> String {
    format!("a `for` loop over `np.ndindex` binds a name, or {rank} names")
}

/// The errors of a `for` loop over a tuple (the lowering's
/// `for_over_tuple`).
pub(crate) const TUPLE_LOOP_TARGET: &str = "a `for` loop over a tuple binds a name, or unpacks each element into names";
pub(crate) fn tuple_loop_not_tuple(what: &str) -> String {
    format!("a `for` loop over a tuple runs over a tuple, not {what}")
}
pub(crate) fn tuple_loop_unpack_error(names: usize, what: &str) -> String {
    format!("each element unpacks into {names} names, but one is {what}")
}
/// The elements of a tuple (or of a list display, `list`) a `for` loop
/// runs over that mix numbers of kinds `first` and `other`.
pub(crate) fn tuple_loop_kinds_error(list: bool, first: DType, other: DType) -> String {
    format!(
        "the elements of this {} mix {} and {}: a `for` loop over them gives its name one type, so convert them to \
         one kind of number first",
        if list { "list" } else { "tuple" },
        first.name(),
        other.name()
    )
}

/// The errors of `return` of a tuple (the lowering's
/// `return_tuple_values`) in a function `name`.
pub(crate) const NESTED_TUPLE_RESULT: &str =
    "a result may hold tuples of scalars and arrays, not an empty tuple or a tuple of tuples";
pub(crate) fn tuple_in_annotated_result(name: &str) -> String {
    format!(
        "a tuple inside the result of function `{name}` needs the result unannotated: its type is what the \
         `return`s give"
    )
}
pub(crate) fn list_in_annotated_result(name: &str) -> String {
    format!(
        "a list in the result of function `{name}` needs the result unannotated: its type is what the `return`s give"
    )
}
pub(crate) fn tuple_for_non_tuple(name: &str, declared: &TypeData) -> String {
    format!("function `{name}` returns {}, but this returns a tuple", annotation_text(declared))
}
pub(crate) fn tuple_for_nothing(name: &str) -> String {
    format!("function `{name}` returns nothing (`-> None`), but this returns a tuple")
}
pub(crate) fn value_for_nothing(name: &str) -> String {
    format!("function `{name}` returns nothing (`-> None`), but this returns a value")
}
/// Why a value (of type `v`; `None`: a call that returns nothing) is
/// refused as the result of a function `name` that returns the tuple
/// `td`: it is not a tuple (a tuple is checked by
/// [`Solver::tuple_return_error`]).
pub(crate) fn non_tuple_for_tuple(name: &str, td: &TypeData, v: Option<&Ty>) -> Option<String> {
    let declared = annotation_text(td);
    let what = match v {
        Some(Ty::Tuple(_)) => return None,
        Some(Ty::Arr(a)) => annotation_text(a),
        Some(v) => v.scalar().map_or("", |s| s.dtype.name()).to_owned(),
        None => return Some(format!("function `{name}` returns {declared}")),
    };
    Some(format!("this returns {what}, but function `{name}` returns {declared}"))
}
pub(crate) fn tuple_count_error(name: &str, got: usize, want: usize) -> String {
    format!("this returns a tuple of {got}, but function `{name}` returns a tuple of {want}")
}
pub(crate) fn tuple_element_error(name: &str, k: usize, want: &TypeData) -> String {
    format!("element {k} of the result of function `{name}` is {}", annotation_text(want))
}

/// What the typecheck refuses in `prange` loops, found once before the
/// sweep: the breaks whose innermost loop is a `prange` loop that runs
/// in parallel, the errors of each `prange` loop's body and reductions,
/// and the expressions a `prange` loop that runs in parallel holds (where
/// a list cannot grow).
#[derive(Default)]
pub(super) struct PrangeChecks {
    pub(super) breaks: ArenaMap<StmtId, ()>,
    pub(super) loops: ArenaMap<StmtId, Vec<(TextRange, String)>>,
    pub(super) in_parallel: ArenaMap<ExprId, ()>,
}

/// The [`PrangeChecks`] of the function `cx` sweeps. A `prange` loop
/// runs in parallel when no `prange` loop holds it, in a function that is
/// not a ufunc's body or GPU code (elsewhere it is a `range`); the body
/// of every `prange` loop over a name is checked
/// ([`crate::lower::prange::prange_body`]), and the reductions of one
/// that runs in parallel, whose body is not refused, each for its type
/// ([`crate::lower::prange::reduction_error`]; not a local without one).
pub(super) fn prange_checks(cx: &Solver) -> PrangeChecks {
    let mut out = PrangeChecks::default();
    let decl = cx.env.decl;
    let body = cx.body;
    if !body.stmts.iter().any(|(_, s)| matches!(s, Stmt::For { is_async: false, iter, .. } if cx.is_prange_call(*iter)))
    {
        return out;
    }
    let gpu = decl.attrs.contains(postc_ir::FuncAttrs::KERNEL) || decl.attrs.contains(postc_ir::FuncAttrs::GPU);
    let serial = decl.ufunc_sig.is_some() || gpu;
    let uses = crate::lower::prange::name_uses(body);
    // Each block with whether its innermost loop is a parallel `prange`,
    // whether a `prange` loop holds it, and whether one that runs in
    // parallel does.
    let mut pending: Vec<(&[StmtId], bool, bool, bool)> = vec![(&body.top, false, false, false)];
    while let Some((block, parallel, in_prange, in_parallel)) = pending.pop() {
        for &s in block {
            if in_parallel {
                insert_subtrees(body, parts_of(&body.stmts[s]).0, &mut out.in_parallel);
            }
            match &body.stmts[s] {
                Stmt::Break if parallel => {
                    out.breaks.insert(s, ());
                }
                Stmt::For { is_async, target, iter, body: inner, orelse } => {
                    // `async for` is refused whatever it runs over.
                    let prange = !*is_async && cx.is_prange_call(*iter);
                    let runs_parallel = prange && !in_prange && !serial;
                    if let (true, Expr::Name(var)) = (prange, &body.exprs[*target]) {
                        let errors = cx.prange_errors(&uses, s, body.name_text(var), *iter, runs_parallel);
                        if !errors.is_empty() {
                            out.loops.insert(s, errors);
                        }
                    }
                    pending.push((inner, runs_parallel, in_prange || prange, in_parallel || runs_parallel));
                    pending.push((orelse, parallel, in_prange, in_parallel));
                }
                Stmt::While { body: inner, orelse, .. } => {
                    pending.push((inner, false, in_prange, in_parallel));
                    pending.push((orelse, parallel, in_prange, in_parallel));
                }
                Stmt::If { arms } => pending.extend(arms.iter().map(|a| (&*a.body, parallel, in_prange, in_parallel))),
                Stmt::Refused { blocks, .. } => {
                    pending.extend(blocks.iter().map(|b| (&**b, parallel, in_prange, in_parallel)))
                }
                _ => {}
            }
        }
    }
    out
}

impl Solver<'_> {
    /// The errors of the `prange` loop `s` over `var` (`iter` its
    /// `prange(...)`): of its body, else of its reductions' types when it
    /// runs in parallel.
    fn prange_errors(
        &self,
        uses: &[(String, ruff_text_size::TextSize, bool)],
        s: StmtId,
        var: &str,
        iter: ExprId,
        parallel: bool,
    ) -> Vec<(TextRange, String)> {
        let body = self.body;
        let checked = crate::lower::prange::prange_body(body, uses, s, var);
        if !checked.errors.is_empty() || !parallel {
            return checked.errors;
        }
        for (name, op) in &checked.reductions {
            let Some((id, _)) = body.locals.iter().find(|(_, l)| l.name.as_ref() == name.as_str()) else { continue };
            let Some(st) = self.states.get(id) else { continue };
            let dtype = match (st.ty, &st.arr, &st.elems) {
                (Some(scalar), _, _) => Some(scalar.dtype),
                (None, Some(_), _) | (None, _, Some(_)) => None,
                // A local without a type: its bindings' errors are
                // reported, not this one.
                (None, None, None) => continue,
            };
            if let Some(message) = crate::lower::prange::reduction_error(name, *op, dtype) {
                return vec![(body.expr_ranges[iter], message)];
            }
        }
        Vec::new()
    }

    /// `prange(...)` (`postc.prange`, `numba.prange` or imported), with
    /// or without keywords.
    pub(super) fn is_prange_call(&self, e: ExprId) -> bool {
        let Expr::Call { func, .. } = &self.body.exprs[e] else { return false };
        self.names_range(*func) && !matches!(&self.body.exprs[*func], Expr::Name(Name::Free(_)))
    }

    /// `range(...)`, the builtin, with or without keywords.
    fn is_builtin_range_call(&self, e: ExprId) -> bool {
        let Expr::Call { func, .. } = &self.body.exprs[e] else { return false };
        matches!(&self.body.exprs[*func], Expr::Name(Name::Free(n)) if &**n == "range")
    }

    /// Why the `for` loop binding `target` over `iter` is refused, and
    /// where, as the lowering takes the loop (a tuple, an array,
    /// `enumerate`/`zip`, `np.ndindex`, a range): a target that is not
    /// one name over a range, not as many names as each step gives, not
    /// names; an iterable that is `None` or none of these (a number, the
    /// name of a CPython module or of what it imports), an array of
    /// no axes or whose axes are not known, `enumerate` and `zip` given
    /// keywords or a count of arguments they do not take, a `range` among
    /// `zip`'s arguments whose arguments are refused, a shape of
    /// `np.ndindex` not of integers. A value it does not type leaves the
    /// loop to the lowering.
    pub(super) fn for_error(&self, target: ExprId, iter: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        let iter_at = body.expr_ranges[iter];
        let target_at = body.expr_ranges[target];
        let ty = self.ty(iter);
        match &body.exprs[iter] {
            // A CPython module's name, or a name imported from one, has
            // no value in compiled code to run over.
            Expr::Name(Name::Global(n)) => {
                if let Some(g @ (Global::Boundary { .. } | Global::BoundaryModule(_))) = self.env.globals.get(&**n) {
                    return Some((iter_at, name_error(n, Some(g))?));
                }
            }
            Expr::None => return Some((iter_at, crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER.into())),
            Expr::Subscript { .. } if matches!(ty, Some(Ty::Tuple(_))) => return self.tuple_loop_error(target, iter),
            Expr::Call { func, args, keywords } => match &body.exprs[*func] {
                Expr::Name(Name::Free(f)) if matches!(&**f, "enumerate" | "zip") => {
                    return self.steps_error(target, iter, &**f == "enumerate", args, keywords);
                }
                _ if self.is_ndindex_call(iter) => return self.ndindex_error(target, args),
                _ => {}
            },
            _ => {}
        }
        if self.iterates_an_array(iter, ty.as_ref()) {
            if let Some(message) = step_count_error(1, self.target_names(target)) {
                return Some((target_at, message));
            }
            return match ty {
                Some(Ty::Arr(a)) if a.ndim().is_some_and(|n| n >= 1) => None,
                _ => Some((iter_at, FOR_AXES_UNKNOWN.into())),
            };
        }
        let tuple_expr = match &body.exprs[iter] {
            Expr::List(_) | Expr::Tuple(_) => true,
            Expr::Name(_) => matches!(ty, Some(Ty::Tuple(_))),
            Expr::Attribute { attr, .. } => &**attr == "shape",
            _ => false,
        };
        if tuple_expr {
            return self.tuple_loop_error(target, iter);
        }
        let over_range =
            self.held_range(iter).is_some() || self.is_builtin_range_call(iter) || self.is_prange_call(iter);
        match &body.exprs[target] {
            Expr::Name(_) if over_range => None,
            _ if over_range => Some((target_at, FOR_RANGE_BINDS_ONE.into())),
            // A number, or an array the lowering does not step over.
            _ => ty.map(|_| (iter_at, FOR_ITERABLE.into())),
        }
    }

    /// Whether the lowering steps over the elements of `iter` (of type
    /// `ty`) as an array (its `iterates_arrays`): an array local, a view
    /// (`a.T`, `a[i]`, `a[1:]`), or an array of axes a call or an
    /// operator makes.
    fn iterates_an_array(&self, iter: ExprId, ty: Option<&Ty>) -> bool {
        let body = self.body;
        let Some(Ty::Arr(a)) = ty else { return false };
        match &body.exprs[iter] {
            Expr::Name(Name::Local(_)) => true,
            Expr::Attribute { attr, .. } => &**attr == "T",
            Expr::Subscript { base, index } => {
                let ndim = match self.ty(*base) {
                    Some(Ty::Arr(b)) if matches!(body.exprs[*base], Expr::Name(_)) => b.ndim(),
                    _ => None,
                };
                crate::lower::slicing::makes_view(body, *index, ndim)
            }
            Expr::Call { .. } | Expr::BinOp { .. } | Expr::UnaryOp { .. } => a.ndim().is_some_and(|n| n >= 1),
            _ => false,
        }
    }

    /// How many names a loop's target unpacks (`None`: not a tuple).
    fn target_names(&self, target: ExprId) -> Option<usize> {
        match &self.body.exprs[target] {
            Expr::Tuple(names) => Some(names.len()),
            _ => None,
        }
    }

    /// Why `for ... in enumerate(...)` or `zip(...)` is refused (see
    /// [`Solver::for_error`]).
    fn steps_error(
        &self,
        target: ExprId,
        iter: ExprId,
        counted: bool,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let iter_at = body.expr_ranges[iter];
        if let Some(k) = keywords.first() {
            return Some((k.range, FOR_KEYWORD.into()));
        }
        if counted && args.len() != 1 {
            return Some((iter_at, ENUMERATE_ARITY.into()));
        }
        if args.is_empty() {
            return Some((iter_at, ZIP_ARITY.into()));
        }
        let want = args.len() + usize::from(counted);
        if let Some(message) = step_count_error(want, self.target_names(target)) {
            return Some((body.expr_ranges[target], message));
        }
        let names: &[ExprId] = match &body.exprs[target] {
            Expr::Tuple(names) => names,
            _ => std::slice::from_ref(&target),
        };
        if let Some(t) = names.iter().find(|t| !matches!(body.exprs[**t], Expr::Name(_))) {
            return Some((body.expr_ranges[*t], FOR_BINDS_NAMES.into()));
        }
        for a in args {
            if self.is_builtin_range_call(*a) {
                match self.range_error(*a) {
                    Some(error) => return Some(error),
                    None => continue,
                }
            }
            let at = body.expr_ranges[*a];
            match self.ty(*a)? {
                Ty::Arr(t) if t.ndim().is_some_and(|n| n >= 1) => {}
                Ty::Arr(_) => return Some((at, FOR_AXES_UNKNOWN.into())),
                _ => return Some((at, FOR_ITERABLE.into())),
            }
        }
        None
    }

    /// Why `for ... in np.ndindex(args)` is refused (the lowering's
    /// `for_over_ndindex`): a shape not of integers, a target that is
    /// not a name or as many names as the shape has extents, a tuple
    /// among those names.
    fn ndindex_error(&self, target: ExprId, args: &[ExprId]) -> Option<(TextRange, String)> {
        let body = self.body;
        let int = |t: &Ty| t.scalar().is_some_and(|s| matches!(kind(s.dtype), Kind::Int | Kind::Bool));
        let extents: Vec<(Ty, TextRange)> = match args {
            [one] => match self.ty(*one)? {
                Ty::Tuple(elems) => elems.into_iter().map(|t| (t, body.expr_ranges[*one])).collect(),
                t => vec![(t, body.expr_ranges[*one])],
            },
            many => {
                let tys: Option<Vec<Ty>> = many.iter().map(|a| self.ty(*a)).collect();
                tys?.into_iter().zip(many.iter().map(|a| body.expr_ranges[*a])).collect()
            }
        };
        if let Some((_, at)) = extents.iter().find(|(t, _)| !int(t)) {
            return Some((*at, NDINDEX_SHAPE.into()));
        }
        match &body.exprs[target] {
            Expr::Name(_) => None,
            // Each name is bound as by an assignment, which unpacks no
            // tuple.
            Expr::Tuple(names) if names.len() == extents.len() => names
                .iter()
                .find(|n| matches!(body.exprs[**n], Expr::Tuple(_) | Expr::List(_)))
                .map(|n| (body.expr_ranges[*n], TUPLE_UNPACKING.into())),
            _ => Some((body.expr_ranges[target], ndindex_target_error(extents.len()))),
        }
    }

    /// Why `return v` of a tuple (of type `elems`) in a function whose
    /// result is annotated (`td`; `None`: `-> None`) is refused, and
    /// where (the lowering's `return_tuple_values`): an empty tuple or a
    /// tuple of tuples held, a tuple or a list held (they need the result
    /// unannotated), a result that is not a tuple, a count of elements
    /// that differs, an element whose type is not the result's (a number
    /// that does not widen, an array of another dtype or number of axes).
    pub(super) fn tuple_return_error(
        &self,
        v: ExprId,
        elems: &[Ty],
        td: Option<&TypeData>,
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let name = &self.env.decl.name;
        let v_at = body.expr_ranges[v];
        // Each element's expression in a display, else the whole value.
        let parts: Vec<Option<ExprId>> = match &body.exprs[v] {
            Expr::Tuple(es) if es.len() == elems.len() => es.iter().copied().map(Some).collect(),
            _ => vec![None; elems.len()],
        };
        let at_of = |part: Option<ExprId>| part.map_or(v_at, |e| body.expr_ranges[e]);
        let is_list = |part: Option<ExprId>| {
            part.is_some_and(|e| matches!(body.exprs[e], Expr::Name(Name::Local(id)) if self.states[id].list.is_some()))
        };
        for (t, part) in elems.iter().zip(&parts) {
            if let Ty::Tuple(inner) = t {
                if inner.is_empty() || inner.iter().any(|x| matches!(x, Ty::Tuple(_))) {
                    return Some((at_of(*part), NESTED_TUPLE_RESULT.into()));
                }
            }
        }
        if elems.iter().any(|t| matches!(t, Ty::Tuple(_))) {
            return Some((v_at, tuple_in_annotated_result(name)));
        }
        if parts.iter().any(|p| is_list(*p)) {
            return Some((v_at, list_in_annotated_result(name)));
        }
        let Some(td) = td else { return Some((v_at, tuple_for_nothing(name))) };
        if !td.is_tuple() {
            return Some((v_at, tuple_for_non_tuple(name, td)));
        }
        if td.elements.len() != elems.len() {
            return Some((v_at, tuple_count_error(name, elems.len(), td.elements.len())));
        }
        for (k, ((t, want), part)) in elems.iter().zip(&td.elements).zip(&parts).enumerate() {
            let fits = match t {
                Ty::Arr(a) => want.is_array && a.dtype == want.dtype && a.ndim() == want.ndim(),
                t => !want.is_array && t.scalar().is_some_and(|s| widens_to(s, want.dtype)),
            };
            if !fits {
                return Some((at_of(*part), tuple_element_error(name, k, want)));
            }
        }
        None
    }

    /// Why `return value` of a tuple is refused in a function whose result
    /// is annotated (`-> None` included; not `T | None`), and where (see
    /// [`Solver::tuple_return_error`]), and of any other value in one
    /// annotated `-> None`. A value without a type (a call that returns
    /// nothing) is not refused here.
    pub(super) fn tuple_return(&self, value: Option<ExprId>) -> Option<(TextRange, String)> {
        let decl = self.env.decl;
        let v = value?;
        if decl.ret_maybe_none || decl.ret_poisoned {
            return None;
        }
        let td = match decl.ret {
            Some(t) => Some(self.env.types.get(t)),
            None if decl.ret_unannotated => return None,
            None => None,
        };
        match self.ty(v)? {
            Ty::Tuple(elems) => self.tuple_return_error(v, &elems, td),
            _ if td.is_none() => Some((self.body.expr_ranges[v], value_for_nothing(&decl.name))),
            _ => None,
        }
    }
}

impl Solver<'_> {
    /// Refuses the `prange` loop `s` for the errors [`prange_checks`]
    /// found in it, every one reported.
    pub(super) fn prange_loop_errors(&self, s: StmtId) {
        let Some(errors) = self.prange.loops.get(s) else { return };
        for (k, (at, message)) in errors.iter().enumerate() {
            if k == 0 {
                self.refuse_statement(s, *at, message.clone());
            } else {
                self.report(*at, message.clone());
            }
        }
    }

    /// Why the `for` loop binding `target` over the tuple (or list
    /// display) `iter` is refused, and where (the lowering's
    /// `for_over_tuple`): a target that is not a name or names, a value
    /// that is not a tuple, elements that do not unpack into the names,
    /// numbers of different kinds bound to one name, values of different
    /// kinds (a number, a tuple, an array) bound to one name.
    fn tuple_loop_error(&self, target: ExprId, iter: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        let iter_at = body.expr_ranges[iter];
        let names = match &body.exprs[target] {
            Expr::Name(_) => None,
            Expr::Tuple(names) if names.iter().all(|n| matches!(body.exprs[*n], Expr::Name(_))) => Some(names.len()),
            _ => return Some((body.expr_ranges[target], TUPLE_LOOP_TARGET.into())),
        };
        let list = matches!(body.exprs[iter], Expr::List(_));
        let elems: Vec<Ty> = match &body.exprs[iter] {
            Expr::List(elements) => elements.iter().map(|e| self.ty(*e)).collect::<Option<_>>()?,
            _ => match self.ty(iter)? {
                Ty::Tuple(elems) => elems,
                other => return Some((iter_at, tuple_loop_not_tuple(describe_ty(Some(&other))))),
            },
        };
        if let Some(n) = names {
            let unpacks = |e: &Ty| matches!(e, Ty::Tuple(parts) if parts.len() == n);
            if let Some(other) = elems.iter().find(|e| !unpacks(e)) {
                let what = match other {
                    Ty::Tuple(parts) => format!("a tuple of {}", parts.len()),
                    other => describe_ty(Some(other)).to_owned(),
                };
                return Some((iter_at, tuple_loop_unpack_error(n, &what)));
            }
        }
        for part in 0..names.unwrap_or(1) {
            let element = |e: &Ty| match (names, e) {
                (Some(_), Ty::Tuple(p)) => p[part].scalar(),
                _ => e.scalar(),
            };
            let mut kinds = elems.iter().filter_map(element).map(|s| (kind(s.dtype).max(Kind::Int), s.dtype));
            if let Some((first, d)) = kinds.next() {
                if let Some((_, other)) = kinds.find(|(k, _)| *k != first) {
                    return Some((iter_at, tuple_loop_kinds_error(list, d, other)));
                }
            }
        }
        match super::expressions::tuple_loop_elements_error(list, names, &elems) {
            Some(message) => Some((iter_at, message)),
            None => self.tuple_loop_arrays_error(target, names, &elems),
        }
    }

    /// The name of `target` (or one of its `names`) that the elements
    /// `elems` of a tuple bind to arrays of one dtype and number of axes
    /// but of two types (layouts, extents known or not), as the lowering's
    /// `assign` of each in turn refuses them: a local holds one type of
    /// array.
    fn tuple_loop_arrays_error(
        &self,
        target: ExprId,
        names: Option<usize>,
        elems: &[Ty],
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let targets = match &body.exprs[target] {
            Expr::Tuple(ts) => &ts[..],
            _ => std::slice::from_ref(&target),
        };
        for (part, &t) in targets.iter().enumerate() {
            let array = |e: &Ty| match (names, e) {
                (Some(_), Ty::Tuple(p)) => match p.get(part) {
                    Some(Ty::Arr(a)) => Some(a.clone()),
                    _ => None,
                },
                (None, Ty::Arr(a)) => Some(a.clone()),
                _ => None,
            };
            let mut arrays = elems.iter().filter_map(array);
            let (Some(first), Expr::Name(n)) = (arrays.next(), &body.exprs[t]) else { continue };
            if arrays.any(|a| a != first) {
                let shown = crate::lower::tuples::shown_local(body.name_text(n));
                return Some((body.expr_ranges[t], super::assignments::different_types_error(&shown)));
            }
        }
        None
    }
}
