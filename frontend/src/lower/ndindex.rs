//! `for idx in np.ndindex(shape)`: every index of an array of extents
//! `shape` in C order (the last axis fastest), each a tuple of Python ints
//! bound to the target (a name, which `a[idx]` then indexes with, or names
//! unpacking it: `for i, j in np.ndindex(m, n)`). `shape` is a tuple of
//! integers (`a.shape`, a tuple local or display) or the integers
//! themselves; a negative extent panics with NumPy's ValueError.
//!
//! One counter runs over the product of the extents, and the indices are
//! its C-order digits, so that `break` and `continue` leave and skip as
//! in any one loop, and an empty extent runs the body never.
//!
//! Not here: `prange` over it (it is serial), and shapes of arrays whose
//! number of axes is not known.

use super::*;

impl FnLower<'_, '_> {
    /// Whether `iter` is `np.ndindex(...)` (the typecheck's `is_ndindex_call`).
    pub(super) fn iterates_ndindex(&self, iter: hir::ExprId) -> bool {
        match &self.hir.exprs[iter] {
            hir::Expr::Call { func, keywords, .. } => {
                keywords.is_empty() && self.numpy_attr(*func).as_deref() == Some("ndindex")
            }
            _ => false,
        }
    }

    pub(super) fn for_over_ndindex(&mut self, f: &ForLoop) -> bool {
        let hir = self.hir;
        let hir::Expr::Call { args, .. } = &hir.exprs[f.iter] else { unreachable!("an `np.ndindex` call") };
        let iter_at = self.range(f.iter);
        let given: Vec<(Val, TextRange)> = args.iter().map(|&a| (self.expr(a), self.range(a))).collect();
        let extents_given: Vec<(Val, TextRange)> = match &given[..] {
            [(Val::Tuple(elts), at)] => elts.iter().map(|v| (v.clone(), *at)).collect(),
            _ => given,
        };
        let mut extents = Vec::new();
        for (v, at) in extents_given {
            match v.scalar() {
                Some(s) if matches!(kind(s.dtype), Kind::Int | Kind::Bool) => {}
                _ => {
                    if !matches!(v, Val::Err) {
                        self.err(&at, typeck::loops::NDINDEX_SHAPE);
                    }
                    return false;
                }
            }
            let Some(x) = self.materialize(&v, DType::Int64, &at) else { return false };
            extents.push(x);
        }
        let names: Option<&[hir::ExprId]> = match &hir.exprs[f.target] {
            hir::Expr::Name(_) => None,
            hir::Expr::Tuple(names) if names.len() == extents.len() => Some(names),
            _ => {
                self.err(&self.range(f.target), typeck::loops::ndindex_target_error(extents.len()));
                return false;
            }
        };
        // NumPy refuses a negative extent; the product of the others is
        // the number of steps.
        self.at(&iter_at);
        let zero = self.zero(DType::Int64);
        let mut total = self.int_const(1, &iter_at);
        for &n in &extents {
            let ok = self.result(Opcode::Ge, DType::Bool, n, zero);
            self.panic_unless(ok, "ValueError: negative dimensions are not allowed", &iter_at);
            total = self.result(Opcode::Mul, DType::Int64, total, n);
        }
        let kname = self.fresh("ndindex");
        let k = self.b.let_(TypeId::INT64, zero, &kname);
        let ForBlocks { head, body, latch, exit, done } = self.for_blocks(f.orelse);
        self.at(&iter_at);
        let one = self.int_const(1, &iter_at);
        let bounds = RangeBounds { start: zero, stop: total, step: one, step_const: Some(1), nonneg: true };
        let more = self.range_continues(k, &bounds);
        self.b.condbr(more, body, done, None);
        self.open = false;
        self.enter(body);
        // The counter's C-order digits, the last axis fastest.
        self.at(&iter_at);
        let indices = self.c_order_digits(k, &extents);
        let counter = |v: ValueId| Val::Num { v, s: Scalar::weak(DType::Int64), nonneg: true };
        self.at(&self.range(f.target));
        match names {
            Some(names) => {
                for (&name, &i) in names.iter().zip(&indices) {
                    self.assign(name, counter(i), f.iter);
                }
            }
            None => self.assign(f.target, Val::Tuple(indices.iter().map(|&i| counter(i)).collect()), f.iter),
        }
        self.loops.push(Loop { next: latch, exit, broken: false, parallel: false });
        self.mark_bound(f.target);
        self.nested(f.body);
        self.loops.pop();
        self.br(latch);
        self.at(&iter_at);
        self.for_latch(latch, head, k, Some(one), &[]);
        self.loop_else(f.orelse, done, exit);
        true
    }
}
