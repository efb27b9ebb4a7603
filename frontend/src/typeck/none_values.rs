//! `None` read where the lowering needs a value, found from where it is
//! written: indexed (`None[i]`), an attribute's base (`None.real`), an
//! element of a tuple display read as a value or of a list display, the value of an
//! unpacking (`a, b = None`), an argument of a builtin (`len`, `abs`,
//! `range`, ...), `math` or NumPy function of numbers, an operand of
//! `and` (the last of `or`) whose value is read. The lowering reads
//! each as a number or an array and refuses it
//! ([`crate::lower::maybe_none::NONE_IS_NOT_A_NUMBER`]).

use super::*;

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

/// The NumPy functions whose first positional arguments are values (not
/// a dtype or `np.eye`'s `M`, which may be `None`), as the lowering
/// lowers them: the function and how many.
const VALUE_NUMPY_FUNCTIONS: &[(&str, usize)] =
    &[("array", 1), ("asarray", 1), ("linspace", 3), ("identity", 1), ("eye", 1), ("roll", 2)];

/// The keywords of NumPy functions that take a value, never `None`, as
/// the lowering lowers them: the function and the keyword.
const VALUE_NUMPY_KEYWORDS: &[(&str, &str)] =
    &[("histogram", "bins"), ("roll", "shift"), ("roll", "axis"), ("trace", "offset")];

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
        // The tuples `return` gives: where the result is not annotated,
        // an element of one may be `None` (the result's elements then may
        // be, see `typeck::results`).
        let optional = self.env.decl.ret.is_none();
        let returned: Vec<ExprId> = body
            .stmts
            .iter()
            .filter_map(|(_, s)| match s {
                Stmt::Return(Some(v)) => Some(*v),
                _ => None,
            })
            .collect();
        let mut out = Vec::new();
        for (id, e) in body.exprs.iter() {
            let values: Vec<ExprId> = match e {
                Expr::Subscript { base, .. } | Expr::Attribute { base, .. } => vec![*base],
                Expr::Tuple(es) if self.displays.get(id).is_some() && !(optional && returned.contains(&id)) => {
                    es.to_vec()
                }
                // A list display's elements are numbers or rows wherever
                // it is lowered.
                Expr::List(es) => es.to_vec(),
                Expr::Call { func, args, .. } if self.takes_values(*func) => args.to_vec(),
                // The first arguments and the keywords of NumPy functions
                // that take values there.
                Expr::Call { func, args, keywords } if self.numpy_attr(*func).is_some() => {
                    let f = self.numpy_attr(*func).unwrap_or_default();
                    let count = self.numpy_value_count(*func).unwrap_or(0);
                    let named =
                        |k: &&Keyword| k.name.as_deref().is_some_and(|n| VALUE_NUMPY_KEYWORDS.contains(&(f, n)));
                    args.iter().copied().take(count).chain(keywords.iter().filter(named).map(|k| k.value)).collect()
                }
                // Where its value is read (not only its truth), `and`
                // reads each operand as a Bool and `or` its last one, as
                // the lowering's `bool_op` (the others are conditions).
                Expr::BoolOp { op, values } if self.conditions.get(id).is_none() => match op {
                    ast::BoolOp::And => values.to_vec(),
                    ast::BoolOp::Or => values.last().copied().into_iter().collect(),
                },
                _ => continue,
            };
            out.extend(values.into_iter().filter(is_none));
        }
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

    /// How many of the first positional arguments of a call of `func`, a
    /// function of [`VALUE_NUMPY_FUNCTIONS`], are values.
    fn numpy_value_count(&self, func: ExprId) -> Option<usize> {
        let name = self.numpy_attr(func)?;
        VALUE_NUMPY_FUNCTIONS.iter().find(|(f, _)| *f == name).map(|(_, n)| *n)
    }
}
