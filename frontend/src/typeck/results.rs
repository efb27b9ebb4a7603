//! The tuple result of a function whose result has no annotation, found
//! from the `return`s (the lowering's `return_tuple_values` flattens each
//! returned tuple the same way): the first `return` of a tuple gives the
//! result's type, and the errors of every other `return` that does not
//! give the same, of a tuple of tuples held, and of a tuple or a list
//! beside elements that may be `None` (sktime's `return None,
//! np.zeros(0)` beside `return unique, counts`, see the lowering's
//! `optional_result_elements`). The rounds that find the module's
//! results read it ([`LocalTypes::tuple_result`]) rather than lowering
//! the body. The messages are written here once: the lowering reports the
//! same ones for the values the typecheck does not type.

use super::*;

/// The tuple result an unannotated function's `return`s give, as the IR's
/// flat result holds it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TupleResult {
    /// Each element's type: a number its dtype, an array C order with its
    /// extents unknown (as `T[:, ...]` declares it).
    pub elements: Vec<TypeData>,
    /// The tuples inside the result (see `FuncDecl::result_groups`).
    pub groups: Vec<(usize, usize)>,
    /// The presence flags of the elements that may be `None` (see
    /// `FuncDecl::result_optional`).
    pub optional: Vec<usize>,
    /// The elements that are lists (see `FuncDecl::result_lists`).
    pub lists: Vec<usize>,
}

/// The errors of a returned tuple display holding an element that may be
/// `None` (see [`Solver::optional_elements`]) beside a tuple or a list.
pub(crate) const TUPLE_BESIDE_OPTIONAL: &str =
    "a tuple inside a result whose other elements may be `None` is not supported: return its elements one by one";
pub(crate) const LIST_BESIDE_OPTIONAL: &str =
    "a list in a tuple result whose other elements may be `None` is not supported: return `np.array(...)` of it";

pub(crate) fn tuples_inside_differ(name: &str) -> String {
    format!(
        "the tuples inside this result are not where the first `return` of function `{name}` has them: every \
         `return` gives the same types"
    )
}
pub(crate) fn lists_inside_differ(name: &str) -> String {
    format!(
        "the lists in this result are not where the first `return` of function `{name}` has them: every `return` \
         gives the same types"
    )
}
pub(crate) fn always_none_element(name: &str, k: usize) -> String {
    format!(
        "element {k} of the tuple function `{name}` returns is `None` wherever it is given: compiled code has no type \
         for it (return a number or an array there on some path, or leave the element out)"
    )
}
pub(crate) fn not_a_tuple_returned(name: &str) -> String {
    format!("function `{name}` returns a tuple: every `return` gives one")
}
pub(crate) fn inferred_element_error(name: &str, k: usize, first: &TypeData) -> String {
    format!(
        "element {k} of the tuple the first `return` of function `{name}` gives is {}: every `return` gives the \
         same types (or annotate `-> tuple[...]`)",
        annotation_text(first)
    )
}

/// The type a returned element of type `t` (not a tuple: a result holds
/// its elements) gives the result where the first `return` decides it
/// (see [`TupleResult::elements`]).
fn element_type(t: &Ty) -> Option<TypeData> {
    match t {
        Ty::Arr(a) => {
            let dims = vec![None; a.ndim().unwrap_or(0)];
            Some(TypeData::array(a.dtype, Shape::dims(&dims), Layout::COrder))
        }
        t => t.scalar().map(|s| TypeData::scalar(s.dtype)),
    }
}

/// Whether a returned element of type `t` is one of type `want` the
/// first `return` gave (a number that widens to it, an array of its dtype
/// and number of axes).
fn element_fits(t: &Ty, want: &TypeData) -> bool {
    match t {
        Ty::Arr(a) => want.is_array && a.dtype == want.dtype && a.ndim() == want.ndim(),
        t => !want.is_array && t.scalar().is_some_and(|s| widens_to(s, want.dtype)),
    }
}

/// A returned tuple flattened: each element with where it is, the groups
/// and the lists in it, the flags of the elements that may be `None`.
struct Flat {
    elements: Vec<(Ty, TextRange)>,
    groups: Vec<(usize, usize)>,
    optional: Vec<usize>,
    lists: Vec<usize>,
}

/// What one `return` gives of a tuple result (see
/// [`Solver::returned_tuple`]).
enum Returned {
    Tuple(Flat),
    /// Not a tuple: a number, an array, `None`, nothing.
    NotTuple,
    /// Refused where it is, or not typed: the lowering reports it.
    Unknown,
}

impl Solver<'_> {
    /// The `return` statements of the body, in the order the sweep and the
    /// lowering take them.
    fn returns_in_order(&self) -> Vec<StmtId> {
        let body = self.body;
        let mut out = Vec::new();
        let mut pending: Vec<StmtId> = body.top.iter().rev().copied().collect();
        while let Some(s) = pending.pop() {
            if matches!(body.stmts[s], Stmt::Return(_)) {
                out.push(s);
            }
            let (_, blocks) = parts_of(&body.stmts[s]);
            for b in blocks.iter().rev() {
                pending.extend(b.iter().rev());
            }
        }
        out
    }

    /// What `return value` gives, flattened as the lowering flattens it: a
    /// tuple inside the result is its elements and a group; a display
    /// with elements that may be `None` (`optional`) gives a presence
    /// flag before each of those. An error in the tuple (a tuple of
    /// tuples held) is reported, and the `return` refused.
    fn returned_tuple(
        &self,
        s: StmtId,
        value: Option<ExprId>,
        exprs: &ArenaMap<ExprId, Ty>,
        optional: &HashMap<usize, TypeData>,
    ) -> Returned {
        let body = self.body;
        let Some(v) = value else { return Returned::NotTuple };
        let v_at = body.expr_ranges[v];
        let is_list =
            |e: ExprId| matches!(body.exprs[e], Expr::Name(Name::Local(id)) if self.states[id].list.is_some());
        // `None` where no `return` gives the element a type: nothing to
        // hold it in.
        if let Expr::Tuple(elts) = &body.exprs[v] {
            let untyped = elts
                .iter()
                .enumerate()
                .find(|(k, e)| matches!(body.exprs[**e], Expr::None) && !optional.contains_key(k));
            if let Some((k, &e)) = untyped {
                self.refuse_statement(s, body.expr_ranges[e], always_none_element(&self.env.decl.name, k));
                return Returned::Unknown;
            }
        }
        let mut flags = Vec::new();
        // Each element with where it is and whether it is a list.
        let parts: Vec<(Ty, TextRange, bool)> = match &body.exprs[v] {
            Expr::Tuple(elts) if !optional.is_empty() => {
                let mut parts = Vec::with_capacity(elts.len() + optional.len());
                // The tuples held where no element may be `None`, every
                // one refused; an element not typed.
                let (mut held, mut unknown) = (Vec::new(), false);
                for (k, &e) in elts.iter().enumerate() {
                    let at = body.expr_ranges[e];
                    let value = match (optional.get(&k), &body.exprs[e], exprs.get(e)) {
                        (Some(t), Expr::None, _) => match t.is_array {
                            true => Ty::Arr(t.clone()),
                            false => Ty::Num { s: Scalar::strong(t.dtype), nonneg: true },
                        },
                        (None, _, Some(Ty::Tuple(_))) => {
                            held.push(at);
                            continue;
                        }
                        // A tuple where an element may be `None` is the
                        // lowering's to refuse.
                        (_, _, None) | (Some(_), _, Some(Ty::Tuple(_))) => {
                            unknown = true;
                            continue;
                        }
                        (_, _, Some(t)) => t.clone(),
                    };
                    if optional.contains_key(&k) {
                        flags.push(parts.len());
                        parts.push((Ty::Num { s: Scalar::strong(DType::Bool), nonneg: true }, at, false));
                    }
                    parts.push((value, at, is_list(e)));
                }
                if let Some((first, others)) = held.split_first() {
                    self.refuse_statement(s, *first, TUPLE_BESIDE_OPTIONAL);
                    others.iter().for_each(|at| self.report(*at, TUPLE_BESIDE_OPTIONAL));
                    return Returned::Unknown;
                }
                if unknown {
                    return Returned::Unknown;
                }
                if parts.len() != elts.len() {
                    // The flags are in the flat result, beside a list's
                    // elements.
                    if elts.iter().any(|&e| is_list(e)) {
                        self.refuse_statement(s, v_at, LIST_BESIDE_OPTIONAL);
                        return Returned::Unknown;
                    }
                    // Each element is located at the whole value.
                    parts.iter_mut().for_each(|p| p.1 = v_at);
                }
                parts
            }
            _ => match exprs.get(v) {
                Some(Ty::Tuple(elems)) => match &body.exprs[v] {
                    Expr::Tuple(elts) if elts.len() == elems.len() => {
                        (elems.iter().cloned()).zip(elts).map(|(t, &e)| (t, body.expr_ranges[e], is_list(e))).collect()
                    }
                    _ => elems.iter().map(|t| (t.clone(), v_at, false)).collect(),
                },
                Some(_) => return Returned::NotTuple,
                None if matches!(body.exprs[v], Expr::None) => return Returned::NotTuple,
                None => return Returned::Unknown,
            },
        };
        let mut flat =
            Flat { elements: Vec::with_capacity(parts.len()), groups: Vec::new(), optional: flags, lists: Vec::new() };
        for (t, at, list) in parts {
            if list {
                flat.lists.push(flat.elements.len());
            }
            match t {
                Ty::Tuple(inner) if !inner.is_empty() && !inner.iter().any(|x| matches!(x, Ty::Tuple(_))) => {
                    flat.groups.push((flat.elements.len(), inner.len()));
                    flat.elements.extend(inner.into_iter().map(|x| (x, at)));
                }
                Ty::Tuple(_) => {
                    self.refuse_statement(s, at, loops::NESTED_TUPLE_RESULT);
                    return Returned::Unknown;
                }
                t => flat.elements.push((t, at)),
            }
        }
        Returned::Tuple(flat)
    }

    /// Why the tuple `got` returned is refused where the first `return`
    /// of a tuple gave `first`, and where (`v_at`: the returned value):
    /// tuples or lists inside it elsewhere, another count of elements, an
    /// element of another type.
    fn returned_tuple_error(&self, got: &Flat, first: &TupleResult, v_at: TextRange) -> Option<(TextRange, String)> {
        let name = &self.env.decl.name;
        if got.groups != first.groups {
            return Some((v_at, tuples_inside_differ(name)));
        }
        if got.lists != first.lists {
            return Some((v_at, lists_inside_differ(name)));
        }
        if got.elements.len() != first.elements.len() {
            return Some((v_at, loops::tuple_count_error(name, got.elements.len(), first.elements.len())));
        }
        for (k, ((t, at), want)) in got.elements.iter().zip(&first.elements).enumerate() {
            if !element_fits(t, want) {
                return Some((*at, inferred_element_error(name, k, want)));
            }
        }
        None
    }

    /// The tuple result of a function whose result has no annotation:
    /// the first `return` of a tuple (one the sweep did not refuse, whose
    /// elements are numbers and arrays) gives its type. Refuses every
    /// other `return` that does not give the same (see
    /// [`Solver::returned_tuple_error`]), a `return` of what is not a
    /// tuple and one without a value after it, and a tuple of tuples held
    /// anywhere. `None` when no `return` gives a tuple, or when one holds
    /// what is not typed (a recursive call's result is not known; or the
    /// sweep or the lowering reports it). The result of the first stands
    /// for the function's callers whatever the others give: their errors
    /// are the function's, not its callers'.
    pub(super) fn tuple_result(&self, exprs: &ArenaMap<ExprId, Ty>) -> Option<TupleResult> {
        let decl = self.env.decl;
        if decl.ret.is_some() || !decl.ret_unannotated || decl.ret_maybe_none || decl.ret_poisoned {
            return None;
        }
        let body = self.body;
        let refused = |s: StmtId| self.reports.borrow().as_ref().is_some_and(|r| r.refused_stmts.get(s).is_some());
        let returns = self.returns_in_order();
        let optional = optional_elements(self.body, exprs, &self.absent_reads, returns.iter().copied());
        let mut first: Option<TupleResult> = None;
        let mut complete = true;
        for s in returns {
            let Stmt::Return(value) = &body.stmts[s] else { continue };
            if refused(s) {
                continue;
            }
            let returned = self.returned_tuple(s, *value, exprs, &optional);
            let Some(want) = &first else {
                let flat = match returned {
                    Returned::Tuple(flat) => flat,
                    Returned::NotTuple => continue,
                    Returned::Unknown => {
                        complete = false;
                        continue;
                    }
                };
                let elements: Option<Vec<TypeData>> = flat.elements.iter().map(|(t, _)| element_type(t)).collect();
                let elements = elements?;
                first = Some(TupleResult { elements, groups: flat.groups, optional: flat.optional, lists: flat.lists });
                continue;
            };
            let error = match returned {
                Returned::Tuple(got) => {
                    let v_at = value.map_or(body.stmt_ranges[s], |v| body.expr_ranges[v]);
                    self.returned_tuple_error(&got, want, v_at)
                }
                Returned::NotTuple => Some((body.stmt_ranges[s], not_a_tuple_returned(&decl.name))),
                Returned::Unknown => {
                    complete = false;
                    None
                }
            };
            if let Some((at, message)) = error {
                self.refuse_statement(s, at, message);
            }
        }
        first.filter(|_| complete)
    }
}

/// The elements of the tuple displays that the `returns` of `body` give
/// and that some of them gives as `None` (sktime's `return None,
/// np.zeros(0)` beside `return unique, counts`) or as a local that may be
/// `None` there (`absent_reads`: `hi = None`, bound to a number on some
/// path, then `return lo, hi`), by place, each with the type the first
/// display that `exprs` types gives it there: an array (C order, its
/// extents unknown) or a number (a Python number's default dtype). An
/// element no `return` types is left out, and its `None` is the error it
/// always was.
pub(crate) fn optional_elements(
    body: &Body,
    exprs: &ArenaMap<ExprId, Ty>,
    absent_reads: &ArenaMap<ExprId, ()>,
    returns: impl IntoIterator<Item = StmtId>,
) -> HashMap<usize, TypeData> {
    let displays: Vec<&[ExprId]> = (returns.into_iter())
        .filter_map(|s| match &body.stmts[s] {
            Stmt::Return(Some(v)) => match &body.exprs[*v] {
                Expr::Tuple(elements) => Some(&elements[..]),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let mut out = HashMap::new();
    for d in &displays {
        for (k, &e) in d.iter().enumerate() {
            let maybe_none = match body.exprs[e] {
                Expr::None => true,
                Expr::Name(Name::Local(_)) => absent_reads.get(e).is_some(),
                _ => false,
            };
            if !maybe_none || out.contains_key(&k) {
                continue;
            }
            let typed = displays.iter().filter_map(|other| other.get(k)).find_map(|&x| match exprs.get(x)? {
                Ty::Arr(t) => Some(TypeData::array(t.dtype, Shape::dims(&vec![None; t.ndim()?]), Layout::COrder)),
                Ty::Num { s, .. } | Ty::Lit { s, .. } if !s.dtype.is_text() => {
                    Some(TypeData::scalar(if s.weak { default_of(kind(s.dtype)) } else { s.dtype }))
                }
                _ => None,
            });
            if let Some(t) = typed {
                out.insert(k, t);
            }
        }
    }
    out
}
