//! `None` read where the lowering needs a value, found from where it is
//! written: indexed (`None[i]`), an attribute's base (`None.real`), an
//! element of a tuple display read as a value or of a list display, the value of an
//! unpacking (`a, b = None`), an argument of a builtin (`len`, `abs`,
//! `range`, ...), `math` or NumPy function of numbers, an operand of
//! `and` (the last of `or`) whose value is read. The lowering reads
//! each as a number or an array and refuses it
//! ([`crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER`]). A list display
//! in the same places (but the one argument of `min`, `max` and `sum`, the
//! first of `np.array` and `np.asarray`, and a list display's own
//! elements, which are rows), and in more where `None` may stand (an
//! index, an axis, an argument of a POST function or `print`, a
//! comparison, a value returned or tested: [`Solver::values_read`],
//! [`Solver::list_values`]), is read as a value the lowering does not
//! hold ([`LIST_READ_AS_VALUE`]). One table of those places serves both.

use super::*;
use smallvec::smallvec;

/// The builtins whose every positional argument is a value, as the
/// lowering lowers them (`round(x, None)` included: the lowering takes
/// an integer constant of digits).
const VALUE_BUILTINS: &[&str] = &[
    "len",
    "abs",
    "min",
    "max",
    "round",
    "int",
    "float",
    "bool",
    "complex",
    "sum",
    "divmod",
    "range",
    "enumerate",
    "zip",
];

/// The NumPy functions whose positional arguments are values in places
/// (not a dtype or `np.eye`'s `M`, which may be `None`), as the lowering
/// lowers them: the function and the places.
const VALUE_NUMPY_FUNCTIONS: &[(&str, &[usize])] = &[
    ("array", &[0]),
    ("asarray", &[0]),
    ("linspace", &[0, 1, 2]),
    ("identity", &[0]),
    ("eye", &[0, 2]),
    ("roll", &[0, 1]),
    ("trace", &[1]),
];

/// The keywords of NumPy functions that take a value, never `None`, as
/// the lowering lowers them: the function and the keyword.
const VALUE_NUMPY_KEYWORDS: &[(&str, &str)] = &[
    ("histogram", "bins"),
    ("roll", "shift"),
    ("roll", "axis"),
    ("trace", "offset"),
    ("eye", "k"),
    ("linspace", "start"),
    ("linspace", "stop"),
    ("linspace", "num"),
];

/// NumPy's functions (and an array's methods) whose axis may be given by
/// position.
const AXIS_FUNCTIONS: &[&str] = &[
    "sum",
    "prod",
    "mean",
    "max",
    "min",
    "amax",
    "amin",
    "argmax",
    "argmin",
    "cumsum",
    "cumprod",
    "std",
    "var",
    "any",
    "all",
    "nansum",
    "nanprod",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanstd",
    "nanvar",
    "nanargmax",
    "nanargmin",
    "median",
    "nanmedian",
    "ptp",
    "sort",
    "argsort",
    "diff",
    "flip",
];

/// The parts of an expression read as values ([`Solver::values_read`]):
/// a few, for every expression of a body.
type Values = smallvec::SmallVec<[ExprId; 4]>;

/// A list display read where compiled code needs a number or an array.
pub(crate) const LIST_READ_AS_VALUE: &str = "a list display is not a value compiled code holds here: make it an array \
     (`np.array([...])`) or pass its elements";

impl Solver<'_> {
    /// The `None`s of the body that the lowering reads as values where it
    /// needs a number or an array (see the module's doc), each refused
    /// with [`crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER`] where it is
    /// typed. `None` where it may be (assigned to a name, returned, passed
    /// to a parameter that may be `None`, tested, printed, an arm of a
    /// conditional expression, an index, an axis, a dtype, a keyword's
    /// value) is not one.
    pub(super) fn none_values(&self) -> Vec<ExprId> {
        let body = self.body;
        let is_none = |e: &ExprId| matches!(body.exprs[*e], Expr::None);
        let returned = self.returned_values();
        let mut out: Vec<ExprId> =
            body.exprs.iter().flat_map(|(id, _)| self.values_read(id, false, &returned)).filter(is_none).collect();
        // `a, b = None`: the value of an unpacking is unpacked, and each
        // element of `a, b = x, None` is bound as a number.
        for (_, s) in body.stmts.iter() {
            if let Stmt::Assign { targets, value } = s {
                let unpacks = targets.iter().any(|t| matches!(body.exprs[*t], Expr::Tuple(_) | Expr::List(_)));
                if !unpacks {
                    continue;
                }
                match &body.exprs[*value] {
                    Expr::None => out.push(*value),
                    Expr::Tuple(es) => out.extend(es.iter().copied().filter(is_none)),
                    _ => {}
                }
            }
        }
        out
    }

    /// The list displays of the body the lowering reads as values where it
    /// needs a number or an array (see the module's doc), each refused
    /// with [`LIST_READ_AS_VALUE`] where it is typed.
    pub(super) fn list_values(&self) -> Vec<ExprId> {
        let body = self.body;
        // Most bodies hold no list display: nothing to find.
        if !body.exprs.values().any(|e| matches!(e, Expr::List(_))) {
            return Vec::new();
        }
        let returned = self.returned_values();
        let exprs = body.exprs.iter().flat_map(|(id, _)| self.values_read(id, true, &returned));
        // What a statement reads as a value: the value returned, tested,
        // evaluated on its own or added in place.
        let stmts = body.stmts.iter().flat_map(|(_, s)| match s {
            Stmt::Return(Some(v)) | Stmt::Expr(v) | Stmt::While { test: v, .. } | Stmt::Assert { test: v, .. } => {
                vec![*v]
            }
            Stmt::AugAssign { value, .. } | Stmt::AnnAssign { value: Some(value), .. } => vec![*value],
            // `xs = [[1.0], 2.0]`: a list local's elements are numbers.
            Stmt::Assign { targets, value }
                if targets.len() == 1 && matches!(body.exprs[targets[0]], Expr::Name(_)) =>
            {
                match &body.exprs[*value] {
                    Expr::List(es) => es.to_vec(),
                    _ => Vec::new(),
                }
            }
            // `y, z = ([1.0], y)`: each element bound as a number.
            Stmt::Assign { targets, value }
                if targets.iter().any(|t| matches!(body.exprs[*t], Expr::Tuple(_) | Expr::List(_))) =>
            {
                match &body.exprs[*value] {
                    Expr::Tuple(es) | Expr::List(es) => es.to_vec(),
                    _ => Vec::new(),
                }
            }
            Stmt::If { arms } => arms.iter().filter_map(|arm| arm.test).collect(),
            _ => Vec::new(),
        });
        exprs.chain(stmts).filter(|e| matches!(body.exprs[*e], Expr::List(_))).collect()
    }

    /// The values the `return`s of the body give.
    fn returned_values(&self) -> Vec<ExprId> {
        (self.body.stmts.iter())
            .filter_map(|(_, s)| match s {
                Stmt::Return(Some(v)) => Some(*v),
                _ => None,
            })
            .collect()
    }

    /// The parts of the expression `id` the lowering reads as values
    /// where it needs a number or an array, where `None` (`lists` false)
    /// or a list display (`lists` true) may stand: a base indexed or an
    /// attribute's; the elements of a tuple display read as a value but
    /// one returned where the result is not annotated (whose elements may
    /// be `None`, see `typeck::results`); a list display's elements (for
    /// `None`: those of a list display are rows); the arguments of the
    /// functions of numbers, of the first arguments and the keywords of
    /// NumPy functions that take values there (for lists: not the one
    /// argument of `min`, `max` and `sum`, nor the first of `np.array` and
    /// `np.asarray`, whose elements are read; and every `axis=`, every
    /// argument of `np.where` and `np.clip`); each
    /// operand of `and` and the last of `or` whose value is read (as the
    /// lowering's `bool_op`: the others are conditions); for lists, an
    /// index and the entries of one, every argument of a POST function and
    /// `print` ([`Solver::takes_anything`]), `ord=` and `np.linalg.norm`'s
    /// order, the operands of comparisons and of `and`/`or`, the parts of
    /// a conditional expression and a slice's bounds.
    fn values_read(&self, id: ExprId, lists: bool, returned: &[ExprId]) -> Values {
        let body = self.body;
        match &body.exprs[id] {
            Expr::Subscript { base, index } => {
                let mut values: Values = smallvec![*base];
                if lists {
                    match &body.exprs[*index] {
                        Expr::Tuple(entries) => values.extend(entries.iter().copied()),
                        _ => values.push(*index),
                    }
                }
                values
            }
            Expr::Attribute { base, .. } => smallvec![*base],
            Expr::Tuple(es) if self.displays.get(id).is_some() => {
                // A list display is no element of a result either.
                let optional = !lists && self.env.decl.ret.is_none() && returned.contains(&id);
                if optional {
                    Values::new()
                } else {
                    es.iter().copied().collect()
                }
            }
            Expr::List(es) if !lists => es.iter().copied().collect(),
            Expr::Call { func, args, keywords } => {
                let mut values = Values::new();
                if lists {
                    let order = |k: &&Keyword| matches!(k.name.as_deref(), Some("axis" | "ord"));
                    values.extend(keywords.iter().filter(order).map(|k| k.value));
                    if self.numpy_array_function(*func) == Some(NpFn::Norm) {
                        values.extend(args.iter().skip(1).copied());
                    }
                    // An axis by position: `np.sum(a, [0])`, `a.sum([0])`.
                    values.extend(self.axis_argument(*func, args));
                }
                if lists && self.takes_anything(*func) {
                    values.extend(args.iter().copied().chain(keywords.iter().map(|k| k.value)));
                } else if self.takes_values(*func) {
                    let of_elements = lists
                        && args.len() == 1
                        && matches!(&body.exprs[*func], Expr::Name(Name::Free(n)) if matches!(&**n, "min" | "max" | "sum"));
                    if !of_elements {
                        values.extend(args.iter().copied());
                    }
                } else if let Some(f) = self.numpy_attr(*func) {
                    let made = lists && matches!(f, "array" | "asarray");
                    // `None` there is `select_operand_error`'s.
                    let selects = lists && matches!(f, "where" | "clip");
                    let places = VALUE_NUMPY_FUNCTIONS.iter().find(|(g, _)| *g == f).map_or(&[][..], |(_, p)| p);
                    // `np.eye`'s `M` may be `None`, not a list.
                    let extents = lists && f == "eye";
                    let value = |k: &usize| match () {
                        _ if made => false,
                        _ if selects => true,
                        _ if extents => *k < 3,
                        _ => places.contains(k),
                    };
                    let named = |k: &&Keyword| {
                        k.name.as_deref().is_some_and(|n| VALUE_NUMPY_KEYWORDS.contains(&(f, n)) || extents && n == "M")
                    };
                    let positional = args.iter().enumerate().filter(|(k, _)| value(k)).map(|(_, a)| *a);
                    values.extend(positional.chain(keywords.iter().filter(named).map(|k| k.value)));
                }
                values
            }
            // For lists: what `==`, `is` and `in` compare, a conditional
            // expression's parts, a slice's bounds.
            Expr::Compare { operands, .. } if lists => operands.iter().copied().collect(),
            &Expr::If { test, body, orelse } if lists => smallvec![test, body, orelse],
            &Expr::Slice { lower, upper, step } if lists => [lower, upper, step].into_iter().flatten().collect(),
            // A list display is no condition either.
            Expr::BoolOp { values, .. } if lists => values.iter().copied().collect(),
            Expr::BoolOp { op, values } if self.conditions.get(id).is_none() => match op {
                ast::BoolOp::And => values.iter().copied().collect(),
                ast::BoolOp::Or => values.last().copied().into_iter().collect(),
            },
            _ => Values::new(),
        }
    }

    /// The positional argument of a call of `func` that is an axis: the
    /// second of NumPy's reductions and of the functions along an axis
    /// (`np.sum(a, 0)`), the first of the same methods (`a.sum(0)`; of
    /// what is not an array, the method's own error).
    fn axis_argument(&self, func: ExprId, args: &[ExprId]) -> Option<ExprId> {
        let body = self.body;
        let Expr::Attribute { attr, .. } = &body.exprs[func] else { return None };
        if !AXIS_FUNCTIONS.contains(&&**attr) {
            return None;
        }
        match self.numpy_attr(func) {
            Some(_) => args.get(1).copied(),
            None => args.first().copied(),
        }
    }

    /// Whether a call of `func` reads every argument as what it is, a
    /// number, an array or a tuple (never a list display): a function of
    /// the module or of another POST module, `print`.
    fn takes_anything(&self, func: ExprId) -> bool {
        match &self.body.exprs[func] {
            Expr::Name(Name::Free(n)) => &**n == "print",
            // Not a generic function, whose instance's check says which
            // argument is a list (`generic_argument_error`).
            Expr::Name(Name::Global(n)) => self
                .unaliased(n)
                .is_some_and(|n| matches!(self.env.globals.get(n), Some(Global::Func(_) | Global::PostImport { .. }))),
            _ => self.post_module_of(func).is_some(),
        }
    }

    /// Whether every positional argument of a call of `func` is read as a
    /// value: a builtin of [`VALUE_BUILTINS`], a function of the `math`
    /// module or a NumPy function of numbers, an intrinsic of
    /// `postc.math`, a list local's `append`, or a cast to a dtype (`np.float64(x)`,
    /// `Int64(x)`).
    fn takes_values(&self, func: ExprId) -> bool {
        match &self.body.exprs[func] {
            Expr::Name(Name::Free(n)) => VALUE_BUILTINS.contains(&&**n),
            // `Int64(x)`: a cast of a number.
            Expr::Name(Name::Global(n)) if matches!(self.env.globals.get(&**n), Some(Global::Type(_))) => true,
            // `type(z)(x)`, and `T(x)` of `T = type(z)`: the cast to a
            // parameter's type.
            Expr::Call { .. } => parameter_type(self.body, self.env.decl, self.env.types, func).is_some(),
            Expr::Name(Name::Local(id)) => self.states[*id].dtype.is_some(),
            // `postc.math.sqrt(x)`; `xs.append(x)` of a list local.
            Expr::Attribute { base, attr }
                if (self.names_postc_math(*base) && postc_ir::interp::is_known_intrinsic(attr))
                    || (&**attr == "append" && self.list_local_method(func).is_some()) =>
            {
                true
            }
            _ => {
                self.scalar_library_function(func).is_some()
                    || self.numpy_attr(func).is_some_and(|n| numpy_dtype(n).is_some())
            }
        }
    }

    /// Whether `e`, read where the lowering needs a number (an argument
    /// for a parameter of a function of the module that cannot be `None`,
    /// the index of a tuple), is `None`: refused as the lowering refuses
    /// it (a parameter's own message is for values that may be `None`,
    /// [`Solver::none_binding_error`]).
    pub(super) fn none_value(&self, e: ExprId) -> bool {
        if !matches!(self.body.exprs[e], Expr::None) || self.was_refused(e) {
            return false;
        }
        self.refuse_here(e, crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER);
        true
    }
}
