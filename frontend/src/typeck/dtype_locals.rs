//! The locals bound to a NumPy dtype (`T = np.int32`, `T = type(x)` of a
//! scalar parameter), refused as the lowering's `bind_dtype` refuses
//! them: a local dtype is fixed when the function is compiled, so a
//! binding of another dtype than the one before it is an error.

use super::*;
use crate::lower::arrays::{numpy_dtype, removed_dtype_error};

/// `local` bound to `d` where the binding before gave it `before`.
pub(crate) fn two_dtypes_error(local: &str, before: DType, d: DType) -> String {
    format!(
        "`{local}` is bound to two dtypes ({} and {}): a local dtype is fixed when the function is compiled",
        before.name(),
        d.name()
    )
}

impl Solver<'_> {
    /// `T = <dtype>` (the statement `s`) of a local given no type by any
    /// binding: refused when its dtype is not the one the binding before
    /// it (in the order the sweep and the lowering walk the statements)
    /// gave. A dtype alias NumPy 2 removed (`np.float_`) binds nothing:
    /// it is refused for itself.
    pub(super) fn check_dtype_binding(&self, s: StmtId) {
        let body = self.body;
        let Stmt::Assign { targets, value } = &body.stmts[s] else { return };
        let [target] = targets[..] else { return };
        let Some(id) = self.local_of(target) else { return };
        let st = &self.states[id];
        if body.locals[id].kind == LocalKind::Param || st.ty.is_some() || st.arr.is_some() || st.elems.is_some() {
            return;
        }
        let d = match parameter_type(body, self.env.decl, self.env.types, *value) {
            Some(d) => d,
            None => match self.numpy_attr(*value) {
                Some(name) if removed_dtype_error(name).is_none() => match numpy_dtype(name) {
                    Some(d) => d,
                    None => return,
                },
                _ => return,
            },
        };
        let before = match self.reports.borrow_mut().as_mut() {
            Some(reports) => reports.dtypes.insert(id, d),
            None => return,
        };
        if let Some(before) = before.filter(|before| *before != d) {
            self.refuse_statement(s, body.expr_ranges[target], two_dtypes_error(&body.locals[id].name, before, d));
        }
    }
}
