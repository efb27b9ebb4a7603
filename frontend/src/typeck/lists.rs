//! The typecheck's checks of the displays bound to names (`xs = [...]`),
//! as the lowering's `bind_list` and `expr` would refuse them: a list
//! local never given a number (its elements have no type), and a display
//! bound to a name that is not a list local (a list literal as a value);
//! and the message of a list local returned under an annotated result
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
            self.refuse_here(*value, refused_construct_error(body.construct_name(*value)));
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
}
