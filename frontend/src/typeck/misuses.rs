//! The typecheck's refusals of values written where the lowering takes
//! another kind of thing, each with the lowering's message:
//!
//! - a dtype argument (`np.zeros(n, dtype=d)`, `a.astype(d)`,
//!   `np.iinfo(d)`) that no dtype can be: a number, a tuple, a call,
//!   `None` or any other expression that is not a name, an attribute or a
//!   string, and a local holding a value (a number, an array, a tuple)
//!   and never bound to a dtype;
//! - `a.shape[k]` given as an argument of a call (`range(a.shape[k])`),
//!   which the lowering reads as any other: an axis that is not a
//!   constant, or one out of range, as where it is read elsewhere (found
//!   by `element`, through `Solver::read_as_argument`);
//! - a unary operator on a whole array whose elements it refuses
//!   (`~a` of floats: its message for numbers of their type), which the
//!   lowering's scalar rules meet as arithmetic on a whole array;
//! - a comparison of whole arrays whose elements it refuses (`a < 1j`:
//!   no order of complex numbers, no common dtype), which the lowering's
//!   scalar rules meet as a comparison of what is not a number;
//! - a NumPy ufunc of an array it does not apply element by element (a
//!   tuple among its arguments, elements it refuses), which the
//!   lowering's `numpy_call` meets as a ufunc of scalars given an array;
//! - a string appended to a list local of no dtype (or an element of its
//!   display): the lowering makes no buffer for it and leaves it unbound,
//!   so that its reads find it unassigned;
//! - a number (a scalar local, an array's element) updated in place by
//!   an array (`s += a`), which the lowering's `binop` refuses;
//! - the `range(...)` a local holds (`r = range(0, 2.5)`, either arm of
//!   `range(n) if c else range(m)`) whose arguments the lowering's
//!   `range_bounds` refuses, as those of a `range` a loop runs over;
//! - `np.x` read as a value that is no NumPy constant or dtype;
//! - a tuple indexed with slices or `...` among several indices
//!   (`t[:, 0]`, `t[::-1, ::2]`) or with `...` alone, whose index the
//!   lowering reads as a tuple display of those constructs.

use super::*;
use crate::lower::arrays::unknown_dtype_error;
use crate::lower::expr::{whole_array_arithmetic_error, WHOLE_ARRAY_ARITHMETIC};

impl Solver<'_> {
    /// Why the lowering's `dtype_arg` certainly refuses `d` for its form:
    /// it reads a dtype only from a name, an attribute or a string, from a
    /// local only where it is bound to a dtype (a local typed as a value
    /// never is), and `x.dtype` only of an array local or parameter.
    pub(super) fn dtype_form_error(&self, d: ExprId) -> Option<(TextRange, String)> {
        let body = self.body;
        let shown = match &body.exprs[d] {
            Expr::Name(Name::Local(id)) => {
                if self.states[*id].dtype.is_some() || self.ty(d).is_none() {
                    return None;
                }
                body.dotted(d)?
            }
            // `x.dtype` is read of an array local or parameter only (`2.5.dtype`,
            // `(a + 1).dtype` name none), where its base has a type.
            Expr::Attribute { base, attr } if &**attr == "dtype" => {
                let of_local = matches!(body.exprs[*base], Expr::Name(Name::Local(_)));
                return match self.ty(*base)? {
                    Ty::Arr(_) if of_local => None,
                    _ => Some((body.expr_ranges[d], crate::lower::arrays::DTYPE_OF_NO_ARRAY_LOCAL.to_owned())),
                };
            }
            // Refused constructs and integers too large have their errors.
            Expr::Name(_)
            | Expr::Attribute { .. }
            | Expr::Literal(Lit::Str(_))
            | Expr::Refused { .. }
            | Expr::IntTooLarge => return None,
            _ => body.construct_name(d).to_owned(),
        };
        Some((body.expr_ranges[d], unknown_dtype_error(&shown)))
    }

    /// Refuses the statement `s` binding a local that holds a `range`
    /// (`r = range(...)`) to a `range` whose arguments the lowering
    /// refuses (see [`Solver::range_error`]), at the first of them.
    pub(super) fn check_held_ranges(&self, s: StmtId) {
        let body = self.body;
        let Stmt::Assign { targets, value } = &body.stmts[s] else { return };
        let [target] = targets[..] else { return };
        let Expr::Name(Name::Local(id)) = body.exprs[target] else { return };
        if !self.holds_range(id) {
            return;
        }
        let Some(calls) = range_value(body, *value) else { return };
        if let Some((at, message)) = calls.iter().find_map(|&call| self.range_error(call)) {
            self.refuse_statement(s, at, message);
        }
    }

    /// Refuses each slice and `...` of `index`, the index of a tuple read:
    /// several indices (`t[:, 0]`) or `...` alone, which the lowering
    /// reads as values, each refused as a construct (a slice alone is the
    /// tuple's slice). Whether any was.
    pub(super) fn refuse_tuple_index_slices(&self, index: ExprId) -> bool {
        let body = self.body;
        let refused = |e: &ExprId| matches!(body.exprs[*e], Expr::Slice { .. } | Expr::Ellipsis);
        let parts: Vec<ExprId> = match &body.exprs[index] {
            Expr::Tuple(elts) => elts.iter().copied().filter(refused).collect(),
            Expr::Ellipsis => vec![index],
            _ => return false,
        };
        for &p in &parts {
            self.refuse_here(p, refused_construct_error(body.construct_name(p)));
        }
        !parts.is_empty()
    }

    /// Refuses `e`, the comparison `l op r` (`tys`) of an array whose
    /// elements it refuses (`a < 1j`), with its message for numbers of the
    /// elements' types. `None` always: the expression has no type.
    pub(super) fn refuse_compared_elements(&self, e: ExprId, op: ast::CmpOp, tys: &[Ty]) -> Option<Ty> {
        let [l, r] = tys else { return None };
        let (el, er) = (array_element(l)?, array_element(r)?);
        let message = scalar_comparison_error(op, &el, &er)?;
        self.refuse_here(e, whole_array_arithmetic_error(&message))
    }

    /// Refuses `e`, the call of the NumPy ufunc `numpy.name` (`op`) of
    /// the arguments `args` (of the types `tys`, an array among them) that
    /// is not a whole-array expression: a tuple among the arguments (said
    /// of the tuple), or an array given to the ufunc of scalars (the
    /// lowering's message). `np.round` has its own checks. `None` always.
    pub(super) fn refuse_unfused_ufunc(
        &self,
        e: ExprId,
        args: &[ExprId],
        op: NpOp,
        name: &str,
        tys: &[Ty],
    ) -> Option<Ty> {
        if op == NpOp::Around {
            return None;
        }
        let (site, message) = match tys.iter().position(|t| matches!(t, Ty::Tuple(_))) {
            Some(i) => (CallSite::Arg(i), format!("`numpy.{name}` takes numbers, not a tuple")),
            None => {
                let refs: Vec<Option<&Ty>> = tys.iter().map(Some).collect();
                numpy_error(op, name, args.len(), &refs)?
            }
        };
        self.refuse_call(e, args, site, message)
    }

    /// Refuses the first string among `elts`, the elements of the display
    /// bound to a list local of no dtype (see [`list_of_text_error`]).
    pub(super) fn refuse_text_list_element(&self, elts: &[ExprId]) {
        for &x in elts {
            if let Some(message) = self.ty(x).and_then(|t| list_of_text_error(&t)) {
                self.refuse_here(x, message);
                return;
            }
        }
    }

    /// Refuses `e`, the unary operator `op` on the array `v` whose
    /// elements it refuses (`~a` of floats, `+a` of bools), with the
    /// operator's message for a number of the elements' type. `None`
    /// always: the expression has no type.
    pub(super) fn refuse_unary_elements(&self, e: ExprId, op: ast::UnaryOp, v: &Ty) -> Option<Ty> {
        if !matches!(v, Ty::Arr(_)) {
            return None;
        }
        let element = array_element(v)?;
        let message = unary_error(op, &element)?;
        self.refuse_here(e, whole_array_arithmetic_error(&message))
    }
}

/// The element of `t` as an operator takes it: a number of an array of
/// numbers of a known number of axes, or the number `t` is.
fn array_element(t: &Ty) -> Option<Ty> {
    match t {
        Ty::Arr(a) if a.ndim().is_some() && !a.dtype.is_text() => {
            Some(Ty::Num { s: Scalar::strong(a.dtype), nonneg: false })
        }
        Ty::Num { .. } | Ty::Lit { .. } => Some(t.clone()),
        _ => None,
    }
}

/// Why a number (a local holding one, an array's element) cannot be
/// updated in place by `value` (of the type `value`): an array, which the
/// lowering's `binop` of the number and the array refuses.
pub(super) fn number_updated_by_array_error(value: &Ty) -> Option<&'static str> {
    matches!(value, Ty::Arr(_)).then_some(WHOLE_ARRAY_ARITHMETIC)
}

/// Why `t` cannot be an element of a list local of no dtype: a string
/// (a list of numbers only is compiled).
pub(super) fn list_of_text_error(t: &Ty) -> Option<String> {
    t.scalar().is_some_and(|s| s.dtype.is_text()).then(|| crate::lower::lists::LIST_HOLDS_NUMBERS.to_owned())
}

impl Solver<'_> {
    /// Refuses `np.x` read as a value (not called, not a dtype or an
    /// argument, not the base of another attribute) that is no NumPy
    /// constant or dtype (`np.loreturn - 2`, `return np.arctan2`), which
    /// the lowering meets as NumPy itself read. `Some` where refused.
    pub(super) fn unknown_numpy_member_read(&self, e: ExprId, base: ExprId, attr: &str) -> Option<Option<Ty>> {
        let body = self.body;
        let Expr::Name(Name::Global(m)) = &body.exprs[base] else { return None };
        if !matches!(self.env.globals.get(&**m), Some(Global::BoundaryModule(m)) if m == "numpy") {
            return None;
        }
        // A constant or a dtype is read as a value (`dtype = np.int_`); a
        // function only called (`np.arctan2` alone is no value either).
        let known = crate::lower::numpy::numpy_constant(attr).is_some()
            || crate::lower::arrays::numpy_dtype(attr).is_some()
            || crate::lower::arrays::removed_numpy_dtype(attr).is_some()
            || attr == "newaxis";
        if known || self.not_values.get(e).is_some() {
            return None;
        }
        if body.exprs.values().any(|x| matches!(x, Expr::Attribute { base: b, .. } if *b == e)) {
            return None;
        }
        let dotted = body.dotted(e)?;
        Some(self.refuse_here(e, crate::lower::expr::not_a_value_error(&dotted)))
    }
}
