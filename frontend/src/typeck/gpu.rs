//! What GPU code cannot do whatever its types, refused by the typecheck
//! once a statement is typed: a whole-array expression (`x * 2.0`,
//! `-x`, `x > 0.0`, `np.sqrt(x)`, `np.where(c, x, 0.0)` of arrays), which
//! would create an array, refused whole (not its parts); and a
//! module-level array, which the function would have to make, refused
//! at its first read. The NumPy functions that create arrays, products
//! and `print` are refused where their calls are typed.

use super::*;

/// A whole-array expression in GPU code.
pub(crate) const WHOLE_ARRAY_IN_GPU: &str =
    "this whole-array expression creates an array, which GPU code cannot: write the loop";

/// A read of the module-level array `name` in GPU code.
pub(crate) fn module_array_in_gpu_error(name: &str) -> String {
    format!("`{name}` is a module-level array, which GPU code cannot make: pass it in as a parameter")
}

impl Solver<'_> {
    /// In GPU code, refuses the outermost whole-array expressions of the
    /// statement `s` and the first read of each module-level array.
    pub(super) fn check_gpu_code(&self, s: StmtId) {
        if !self.env.decl.attrs.is_device() {
            return;
        }
        let body = self.body;
        let mut pending = parts_of(&body.stmts[s]).0;
        let mut children = Vec::new();
        while let Some(e) = pending.pop() {
            if let Expr::Name(Name::Local(id)) = body.exprs[e] {
                if body.locals[id].kind == LocalKind::Constant && self.first_read(id) == Some(e) {
                    self.refuse_here(e, module_array_in_gpu_error(&body.locals[id].name));
                }
                continue;
            }
            if matches!(self.ty(e), Some(Ty::Arr(_))) && self.whole_array_node(e) {
                self.refuse_here(e, WHOLE_ARRAY_IN_GPU);
                continue;
            }
            body.push_children(e, &mut children);
            pending.append(&mut children);
        }
    }

    /// The read of the local `id` first in the source.
    fn first_read(&self, id: LocalId) -> Option<ExprId> {
        let body = self.body;
        (body.exprs.iter())
            .filter(|(_, e)| matches!(e, Expr::Name(Name::Local(l)) if *l == id))
            .min_by_key(|(e, _)| body.expr_ranges[*e].start())
            .map(|(e, _)| e)
    }

    /// Whether `e` is an operation the lowering applies to each element of
    /// an array operand (as its whole-array expressions take them): an
    /// arithmetic operator but `@`, a unary one but `not`, one comparison
    /// but `is`, a NumPy ufunc or `np.where`/`np.clip` called without
    /// keywords or `*`, a complex array's `conj()`.
    fn whole_array_node(&self, e: ExprId) -> bool {
        let body = self.body;
        match &body.exprs[e] {
            Expr::BinOp { op, .. } => *op != ast::Operator::MatMult,
            Expr::UnaryOp { op, .. } => *op != ast::UnaryOp::Not,
            Expr::Compare { ops, .. } => matches!(ops[..], [op] if !matches!(op, ast::CmpOp::Is | ast::CmpOp::IsNot)),
            Expr::Call { func, args, keywords } if keywords.is_empty() => {
                if args.iter().any(|a| matches!(body.exprs[*a], Expr::Starred(_))) {
                    return false;
                }
                if let (Expr::Attribute { base, attr }, []) = (&body.exprs[*func], &args[..]) {
                    let complex = matches!(self.ty(*base), Some(Ty::Arr(t)) if t.dtype.is_complex());
                    if matches!(&**attr, "conj" | "conjugate") && complex && self.numpy_attr(*func).is_none() {
                        return true;
                    }
                }
                self.numpy_attr(*func)
                    .is_some_and(|f| matches!(f, "where" | "clip") || crate::lower::numpy::numpy_func(f).is_some())
            }
            _ => false,
        }
    }
}
