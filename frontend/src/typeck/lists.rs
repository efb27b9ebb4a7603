//! The typecheck's checks of the displays bound to names (`xs = [...]`),
//! as the lowering's `bind_list` and `expr` would refuse them: a list
//! local never given a number (its elements have no type), a display
//! bound to a name that is not a list local (a list literal as a value),
//! a list local read as a value ([`Solver::list_misreads`]); and the
//! message of a list local returned under an annotated result
//! (`Solver::return_error` refuses it).

use super::*;

/// The list local `name`, never given a number by a display or an
/// `append`.
pub(crate) fn unknown_list_error(name: &str) -> String {
    format!(
        "the list `{name}` is never given a number, so the type of its elements is unknown: start it with one \
         (`{name} = [x]`) or append one"
    )
}

/// `return xs` of a list local in the function `name`, whose result is
/// annotated `td` (a list comes back only as an unannotated result).
pub(crate) fn list_returned_error(name: &str, td: &TypeData) -> String {
    format!(
        "this returns a list, but function `{name}` returns {}: return `np.array(...)` of it, or leave the result \
         unannotated",
        annotation_text(td)
    )
}

/// A list display bound to the local `name`, which is bound to what is not
/// one elsewhere.
fn list_bound_elsewhere_error(name: &str) -> String {
    format!(
        "`{name}` is bound to a list display here and to another value elsewhere: a list local is bound only to \
         list displays (and grows by `append`)"
    )
}

impl Solver<'_> {
    /// `xs = [...]` (the statement `s`): refuses the statement binding an
    /// empty display to a list local that nothing gives a number (no
    /// display of it has a typed element and nothing is appended to it;
    /// an untyped element or appended value is refused for itself), and
    /// the display bound to anything but one list local (a list literal
    /// used as a value), whose elements are still typed.
    pub(super) fn check_list_display(&self, s: StmtId) {
        let body = self.body;
        let Stmt::Assign { targets, value } = &body.stmts[s] else { return };
        let Expr::List(elts) = &body.exprs[*value] else { return };
        if targets.iter().any(|t| matches!(body.exprs[*t], Expr::Tuple(_) | Expr::List(_))) {
            return;
        }
        let list = match targets[..] {
            [t] => self.local_of(t).filter(|id| self.states[*id].list.is_some()),
            _ => None,
        };
        let Some(id) = list else {
            let message = match targets[..] {
                [t] => match self.local_of(t) {
                    Some(id) => list_bound_elsewhere_error(&body.locals[id].name),
                    None => super::none_values::LIST_READ_AS_VALUE.to_owned(),
                },
                _ => super::none_values::LIST_READ_AS_VALUE.to_owned(),
            };
            self.refuse_here(*value, message);
            return;
        };
        if !elts.is_empty() || self.states[id].list != Some(None) {
            return;
        }
        let appended = (body.exprs.iter()).any(|(e, _)| list_append(body, e).is_some_and(|(l, _)| l == id));
        if !appended {
            let at = body.expr_ranges[targets[0]];
            self.refuse_statement(s, at, unknown_list_error(&body.locals[id].name));
        }
    }

    /// The reads of list locals that are not by index, `len`, a `for`
    /// loop, `np.array`/`np.asarray`, a method call or a `return` (of the
    /// list, or of a tuple display holding it): a list is no value
    /// compiled code holds. Found once before the sweep, which refuses
    /// each ([`crate::lower::lists::list_read_error`]).
    pub(super) fn list_misreads(&self) -> ArenaMap<ExprId, ()> {
        let body = self.body;
        let mut misread = ArenaMap::default();
        if self.states.values().all(|st| st.list.is_none()) {
            return misread;
        }
        let mut allowed: ArenaMap<ExprId, ()> = ArenaMap::default();
        for (_, e) in body.exprs.iter() {
            match e {
                Expr::Subscript { base, .. } | Expr::Attribute { base, .. } => {
                    allowed.insert(*base, ());
                }
                Expr::Call { func, args, .. } if !args.is_empty() => {
                    let reads = matches!(&body.exprs[*func], Expr::Name(Name::Free(f)) if &**f == "len")
                        || matches!(self.numpy_attr(*func), Some("array" | "asarray"));
                    if reads {
                        allowed.insert(args[0], ());
                    }
                }
                _ => {}
            }
        }
        for (_, s) in body.stmts.iter() {
            match s {
                Stmt::For { iter, .. } => {
                    allowed.insert(*iter, ());
                }
                Stmt::Assign { targets, .. } => targets.iter().for_each(|t| {
                    allowed.insert(*t, ());
                }),
                Stmt::Return(Some(v)) => {
                    allowed.insert(*v, ());
                    if let Expr::Tuple(elements) = &body.exprs[*v] {
                        elements.iter().for_each(|e| {
                            allowed.insert(*e, ());
                        });
                    }
                }
                _ => {}
            }
        }
        for (id, e) in body.exprs.iter() {
            if let Expr::Name(Name::Local(l)) = e {
                if self.states[*l].list.is_some() && allowed.get(id).is_none() {
                    misread.insert(id, ());
                }
            }
        }
        misread
    }
}
