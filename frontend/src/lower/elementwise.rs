//! Whole-array expressions: `2.0 * x + y`, `-a`, `a < b`, `np.sqrt(a)`,
//! `np.minimum(a, b)`, `np.where(c, a, b)`, `np.clip(a, lo, hi)` and the
//! in-place `a += b` (`-=`, `*=`, `/=`), with NumPy's broadcasting.
//!
//! An expression tree is lowered as one loop nest that writes a fresh
//! C-order array (an `alloc` in the call's arena): no array per operator.
//! Under `np.sum` (or `.sum()`, without `axis=`) the loop adds its
//! elements up instead, and no array is made.
//! The tree's *nodes* are the operators with an array below them; its
//! *leaves* are everything else (arrays, and scalar subexpressions such as
//! `x / y` of two numbers, which keep CPython's evaluation and errors).
//! Leaves are evaluated once, in source order, before the loop; inside it
//! each array leaf stands for its element (a strong NumPy scalar) and each
//! scalar leaf for its value, and the whole tree is lowered again by the
//! scalar rules of `expr.rs` and `numpy.rs`, so an element's dtype and
//! value are exactly those of NEP 50 on scalars.
//!
//! The loop nest is emitted twice: a copy that indexes every array operand
//! by the loop's own indices, taken when no operand is stretched at run
//! time (bounds-check elimination and the vectoriser see through it), and
//! one that indexes through each axis's broadcast step. One of them runs.
//!
//! Broadcasting is checked per operator, before the loop, with NumPy's
//! message (`operands could not be broadcast together with shapes (3,)
//! (4,) `), extents formatted at run time through `postc.panic`'s
//! arguments.
//!
//! Whether a tree holds an array is the typecheck's answer, read before
//! the tree is lowered ([`FnLower::is_array_expr`]): its type is an array
//! when one of its leaves is (an array local, a view, a call that creates
//! an array or of a function that returns one, a product, ...). A view is
//! read in place, through its strides: no copy.
//!
//! In place, `a op= value` and `a[view index] op= value` write the
//! target's elements. An array leaf that may share memory with the
//! target at other elements (`a[1:] += a[:-1]`: a view of the same
//! array, or a local, which may be a view of anything) is copied first,
//! so the result is NumPy's, which copies such operands too; the target
//! itself written again (`a += a`) and distinct parameters (which never
//! overlap, docs/abi.md) are read in place.
//!
//! Not here: `out=`, `where=` and other ufunc keywords, in-place
//! operators other than `+= -= *= /=`, and operands whose number of axes
//! is not known.

use super::*;
use postc_ir::{Layout, Shape};

/// NumPy's functions that take arrays here beyond the scalar ufuncs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Select {
    /// `np.where(cond, a, b)`.
    Where,
    /// `np.clip(a, lo, hi)`: `minimum(maximum(a, lo), hi)`.
    Clip,
}

impl Select {
    /// The NumPy function's name.
    fn name(self) -> &'static str {
        match self {
            Select::Where => "where",
            Select::Clip => "clip",
        }
    }
}

/// `np.where` or `np.clip` shown, of the NumPy function's name.
fn select_shown(name: &str) -> &'static str {
    if name == "where" {
        "`np.where`"
    } else {
        "`np.clip`"
    }
}

/// The error of `np.where` (other than of one argument) or `np.clip`
/// (`name`) of `n` positional arguments, not 3.
pub(crate) fn select_count_error(name: &str, n: usize) -> String {
    match name {
        "where" => format!("`np.where` takes 1 or 3 arguments, not {n}"),
        _ => format!("`np.clip` takes 3 arguments here, not {n}"),
    }
}

/// The error of an operand of `np.where` or `np.clip` (`name`) that is
/// not a number nor an array of numbers (a string, a tuple, `None`; of
/// `np.clip` a complex number too, which NumPy orders by neither part).
pub(crate) fn select_operand_error(name: &str) -> &'static str {
    match name {
        "where" => "`np.where` takes numbers and arrays of numbers",
        _ => "`np.clip` takes integers, floats or Bool here",
    }
}

/// The error of `np.where` or `np.clip` (`name`) whose operands have no
/// common dtype.
pub(crate) fn select_dtypes_error(name: &str, dtypes: &[DType]) -> String {
    let shown: Vec<&str> = dtypes.iter().map(|d| d.name()).collect();
    format!("{} of {}: they have no common dtype", select_shown(name), shown.join(" and "))
}

/// The error of `np.where` or `np.clip` (`name`) of numbers only: here
/// they take an array, and Python's own forms do it for numbers.
pub(crate) fn select_of_scalars_error(name: &str) -> &'static str {
    match name {
        "where" => "`np.where` takes an array here: of numbers, write `a if c else b`",
        _ => "`np.clip` takes an array here: of numbers, write `min(max(x, lo), hi)`",
    }
}

/// The shape of a tree node before the loop: one extent per axis (none
/// for a scalar).
type Extents = Vec<ValueId>;

/// Where the fused loop puts each element.
enum Sink {
    /// Into an array: the fresh result or the in-place target.
    Array(ValueId, TypeData),
    /// Added to `acc` (of `acc_d`), an element being of dtype `d`; the sum
    /// is of `res_d` (NumPy's `np.sum` of an array of `d`).
    Sum { acc: ValueId, d: DType, acc_d: DType, res_d: DType },
}

/// `target op= value` of an augmented assignment at `at`.
pub(super) struct InPlace {
    pub at: TextRange,
    pub op: ast::Operator,
    pub target: hir::ExprId,
    pub value: hir::ExprId,
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// The lowering of `e` as a whole-array expression, when it is an
    /// operator with an array below it; `None` leaves `e` to the scalar
    /// rules. Inside a fused loop, `np.where` and `np.clip` of elements.
    pub(super) fn elementwise(&mut self, e: hir::ExprId) -> Option<Val> {
        if self.fusing {
            return match self.hir.exprs[e] {
                hir::Expr::Call { .. } => {
                    let c = self.call_of(e);
                    self.select_of(c.func).map(|s| self.element_select(s, &c))
                }
                _ => None,
            };
        }
        if let hir::Expr::Call { func, args, keywords } = &self.hir.exprs[e] {
            // Refused by the typecheck (`typeck::statements`) where it
            // types the operands: `np.where` and `np.clip` of numbers only.
            let scalar = |&a: &hir::ExprId| matches!(self.expr_types.get(a), Some(t) if t.scalar().is_some());
            if let Some(s) = self.select_of(*func).filter(|_| keywords.is_empty() && args.len() == 3) {
                if args.iter().all(scalar) {
                    return Some(self.err(&self.range(e), select_of_scalars_error(s.name())));
                }
            }
        }
        if self.node_operands(e).is_none() || !self.is_array_expr(e) {
            return None;
        }
        if self.decl.attrs.is_device() {
            return Some(self.err(&self.range(e), typeck::gpu::WHOLE_ARRAY_IN_GPU));
        }
        Some(self.fuse(e, None, false))
    }

    /// `a op= value` on a whole array `a`: NumPy's in-place ufunc, which
    /// writes into `a` the result cast with the `same_kind` rule.
    pub(super) fn elementwise_in_place(&mut self, a: &InPlace, target: Val) {
        let Val::Arr { v, ty } = target else { return };
        if let Some(message) = typeck::assignments::whole_array_update_error(a.op) {
            self.err(&a.at, message);
            self.expr(a.value);
            return;
        }
        let written = match self.hir.exprs[a.target] {
            hir::Expr::Subscript { base, .. } => base,
            _ => a.target,
        };
        if !ty.is_output && self.is_param_array(written) {
            self.read_only_write(written, true);
            return;
        }
        self.fuse(a.value, Some((a, v, ty)), false);
    }

    /// `a[view index] op= value` (`a[1:] += 1`, `a[:, j] *= 2.0`): the
    /// in-place operator on the view, which writes `a`; of one element
    /// when `...` stands for no axis.
    pub(super) fn view_in_place(&mut self, a: &InPlace) {
        let Some((av, ty)) = self.sliced_array(a.target) else { return };
        match self.view_or_element(av, &ty, a.target) {
            slicing::Viewed::View(target @ Val::Arr { .. }) => self.elementwise_in_place(a, target),
            // `r[..., 0] += x` of a 1-D `r`: the one element.
            slicing::Viewed::Element(idx) => self.update_element(&(av, ty), &idx, a),
            slicing::Viewed::View(_) => {}
        }
    }

    /// `a[i, j] op= value` of the element `idx` of `arr`: read, the
    /// operator, written back.
    pub(super) fn update_element(&mut self, arr: &(ValueId, TypeData), idx: &[ValueId], a: &InPlace) {
        let at = self.range(a.target);
        let cur = self.load(arr, idx, at);
        let rhs = self.expr(a.value);
        self.at(&a.at);
        let r = self.binop(a.op, cur, rhs, a.at);
        self.store(arr, idx, r, at);
    }

    /// The operands of `e` when it is a tree node: an arithmetic or
    /// comparison operator, a NumPy ufunc or `np.where`/`np.clip` call.
    fn node_operands(&self, e: hir::ExprId) -> Option<smallvec::SmallVec<[hir::ExprId; 3]>> {
        let hir = self.hir;
        match &hir.exprs[e] {
            &hir::Expr::BinOp { op, lhs, rhs } if op != ast::Operator::MatMult => {
                Some([lhs, rhs].into_iter().collect())
            }
            &hir::Expr::UnaryOp { op, operand } if op != ast::UnaryOp::Not => Some([operand].into_iter().collect()),
            // `a is None` tests the array, not its elements.
            hir::Expr::Compare { ops, operands } if matches!(ops[..], [op] if !is_identity(op)) => {
                Some(operands.iter().copied().collect())
            }
            hir::Expr::Call { func, args, keywords } if keywords.is_empty() => {
                if args.iter().any(|&a| matches!(hir.exprs[a], hir::Expr::Starred(_))) {
                    return None;
                }
                // `z.conj()` of a complex array: the conjugates, as
                // `np.conj(z)` (of a real array the method is the array).
                if let (hir::Expr::Attribute { base, attr }, []) = (&hir.exprs[*func], &args[..]) {
                    let complex = |t: &typeck::Ty| matches!(t, typeck::Ty::Arr(t) if t.dtype.is_complex());
                    if matches!(&**attr, "conj" | "conjugate") && self.expr_types.get(*base).is_some_and(complex) {
                        return Some([*base].into_iter().collect());
                    }
                }
                let known = matches!(self.target_of(*func), Some(Target::Numpy(..))) || self.select_of(*func).is_some();
                known.then(|| args.iter().copied().collect())
            }
            _ => None,
        }
    }

    /// Whether `e` is an array, as the typecheck types it: a tree node
    /// with an array among its operands, an array local, a view, a call
    /// that makes an array or of a function that returns one, a product.
    /// (An expression it leaves untyped, an error of its own, is not.)
    pub(super) fn is_array_expr(&self, e: hir::ExprId) -> bool {
        matches!(self.expr_types.get(e), Some(typeck::Ty::Arr(_)))
    }

    /// Whether the index of a subscript is one array (`a[idx]`,
    /// `a[a > 0.0]`, `a[np.argsort(a)]`), as far as the types known
    /// before lowering tell: indexing with it gathers (`gather.rs`).
    pub(super) fn is_array_index(&self, index: hir::ExprId) -> bool {
        let single = !matches!(
            self.hir.exprs[index],
            hir::Expr::Tuple(_) | hir::Expr::Slice { .. } | hir::Expr::None | hir::Expr::Ellipsis
        );
        single && self.is_array_expr(index)
    }

    /// Whether the array leaf `leaf` of `target op= ...` may share memory
    /// with the target at other elements than the one being written, so
    /// that it must be read from a copy for NumPy's result (NumPy copies
    /// overlapping operands of a ufunc too): it is not a fresh array nor
    /// the target itself written again, and it is a view of the target's
    /// array, or either is a local (which may be a view of anything).
    /// Distinct parameters never overlap (docs/abi.md).
    fn may_overlap(&self, leaf: hir::ExprId, target: hir::ExprId) -> bool {
        if self.hir.same_expr(leaf, target) || self.is_fresh_array(leaf) {
            return false;
        }
        let (leaf_roots, target_roots) = (self.array_roots(leaf), self.array_roots(target));
        if leaf_roots.is_empty() || target_roots.is_empty() {
            return true;
        }
        let param = |n: &str| self.locals.get(n).is_some_and(|l| l.param);
        leaf_roots.iter().any(|l| target_roots.iter().any(|t| l == t || !param(l) || !param(t)))
    }

    /// The array locals whose memory `e` reads when it is one written by
    /// name or a view of them (`a`, `a[1:]`, `a.T`, `a.reshape(n)`).
    fn array_roots(&self, e: hir::ExprId) -> Vec<&'a str> {
        match &self.hir.exprs[e] {
            hir::Expr::Name(n) if self.locals.contains_key(self.name_text(n)) => vec![self.name_text(n)],
            _ => slicing::view_bases(self.hir, e).into_iter().flat_map(|b| self.array_roots(b)).collect(),
        }
    }

    /// Whether `e` makes a new array: a NumPy call that creates one (not a
    /// view such as `transpose`, `ravel` or `reshape`) or a product.
    fn is_fresh_array(&self, e: hir::ExprId) -> bool {
        match &self.hir.exprs[e] {
            hir::Expr::BinOp { op, .. } => *op == ast::Operator::MatMult,
            hir::Expr::Call { func, .. } => {
                self.dot_operands(&self.call_of(e)).is_some()
                    || self.array_target(*func).is_some_and(|(f, ..)| {
                        !matches!(f, arrays::ArrFn::Transpose | arrays::ArrFn::Ravel | arrays::ArrFn::Reshape)
                    })
            }
            _ => false,
        }
    }

    /// `np.where` or `np.clip`, when `func` names one of them.
    fn select_of(&self, func: hir::ExprId) -> Option<Select> {
        let name = match &self.hir.exprs[func] {
            hir::Expr::Attribute { base, attr } if self.boundary_module(*base) == Some("numpy") => &**attr,
            hir::Expr::Name(_) => match self.global_of(func) {
                Some(Global::Boundary { module, name }) if module == "numpy" => name.as_str(),
                _ => return None,
            },
            _ => return None,
        };
        match name {
            "where" => Some(Select::Where),
            "clip" => Some(Select::Clip),
            _ => None,
        }
    }

    /// Lowers the tree `root` as one loop nest: into a fresh array, or for
    /// `in_place`, into its target with its operator applied.
    fn fuse(&mut self, root: hir::ExprId, in_place: Option<(&InPlace, ValueId, TypeData)>, sum: bool) -> Val {
        let at: TextRange = match &in_place {
            Some((a, ..)) => a.at,
            None => self.range(root),
        };
        // The leaves, evaluated once in source order.
        let mut leaves: Vec<(hir::ExprId, Val)> = Vec::new();
        let mut failed = false;
        self.eval_leaves(root, &mut leaves, &mut failed);
        if failed {
            return Val::Err;
        }
        if let Some((a, ..)) = &in_place {
            for (leaf, v) in &mut leaves {
                if let Val::Arr { v: arr, ty } = &*v {
                    if !ty.dtype.is_text() && self.may_overlap(*leaf, a.target) {
                        let (arr, ty) = self.copy_of(*arr, ty, &self.range(*leaf));
                        *v = Val::Arr { v: arr, ty };
                    }
                }
            }
        }
        // The shape of every node, checked operator by operator.
        let Some(mut shape) = self.broadcast_node(root, &leaves) else { return Val::Err };
        self.at(&at);
        if let Some((a, target, tty)) = &in_place {
            let Some(nd) = tty.ndim() else {
                return self.err(&self.range(a.target), "the number of axes of this array is not known");
            };
            if shape.len() > nd {
                return self.err(&a.at, in_place_rank_error(shape.len(), nd));
            }
            let tdims: Extents = (0..nd as u32).map(|k| self.dim(*target, k)).collect();
            shape = self.in_place_shape(&tdims, &shape, a);
        }
        // How the index of each axis of each array leaf moves with the
        // loop's (not at all where its extent is 1), known before the loop.
        let mut stretched: Vec<Vec<Option<ValueId>>> = Vec::new();
        for (_, v) in &leaves {
            stretched.push(match v {
                Val::Arr { v: arr, ty } => self.stretched_axes(*arr, ty),
                _ => Vec::new(),
            });
        }
        // The allocation's block comes before the loop, but the element
        // dtype is known only once the body is lowered: it is filled last.
        let alloc_block = self.block("fused.alloc");
        self.br(alloc_block);
        let general = self.block("fused");
        self.enter(general);
        let errors_before = self.diags.len();
        let (value, open, idx) = self.fused_body(root, &leaves, Some(&stretched), &shape, &in_place, at);
        let Some(s) = value.scalar() else {
            if !matches!(value, Val::Err) {
                self.err(&self.range(root), "this operand has no value");
            }
            return Val::Err;
        };
        let body_end = self.b.current_block();
        let sink = match &in_place {
            Some((a, target, tty)) => {
                if let Some(message) = in_place_cast_error(a.op, s.dtype, tty.dtype) {
                    return self.err(&a.at, message);
                }
                self.enter(alloc_block);
                Sink::Array(*target, tty.clone())
            }
            None if sum => {
                // NumPy's sum of the array the tree would make, added up in
                // C order as `np.sum` of it is.
                let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
                if d.is_text() {
                    return self.err(&self.range(root), "`np.sum` takes an array of numbers");
                }
                let (acc_d, res_d) = arrays::sum_dtypes(d);
                self.enter(alloc_block);
                self.at(&at);
                let zero = self.zero(acc_d);
                let n = self.fresh("acc");
                Sink::Sum { acc: self.b.let_(TypeId::scalar(acc_d), zero, &n), d, acc_d, res_d }
            }
            None => {
                // A Python scalar's kind meeting nothing strong (`np.where(c,
                // 1, 2)`) takes its default dtype, as NumPy's result does.
                let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
                if d.is_text() {
                    return self.err(&self.range(root), "arrays of Str or Bytes cannot be made in compiled code");
                }
                self.enter(alloc_block);
                self.at(&at);
                let ty = TypeData::array(d, Shape::dims(&vec![None; shape.len()]), Layout::COrder);
                let tid = self.types.intern(ty.clone());
                let n = self.fresh("arr");
                Sink::Array(self.b.alloc_empty(tid, &shape, &n), ty)
            }
        };
        // When no operand is stretched at run time (the common case), a
        // second copy of the loop indexes every operand by the loop's own
        // indices, which bounds-check elimination and the vectoriser see
        // through. It is lowered only when the first copy was error-free,
        // so that no diagnostic is reported twice.
        let steps: Vec<ValueId> = stretched.iter().flatten().flatten().copied().collect();
        let plain = if steps.is_empty() || self.diags.len() != errors_before {
            self.br(general);
            None
        } else {
            let one = self.int64(1);
            let mut all = None;
            for st in steps {
                let unit = self.result(Opcode::Eq, DType::Bool, st, one);
                all = Some(match all {
                    None => unit,
                    Some(a) => self.result(Opcode::And, DType::Bool, a, unit),
                });
            }
            let fast = self.block("fused.plain");
            self.b.condbr(all.expect("a step"), fast, general, None);
            self.open = false;
            Some(fast)
        };
        if let Some(b) = body_end {
            self.enter(b);
        }
        if !self.store_element(&value, &sink, &idx, at) {
            return Val::Err;
        }
        self.loops_close(open, &at);
        if let Some(fast) = plain {
            let join = self.block("fused.end");
            self.br(join);
            self.enter(fast);
            let (value, open, idx) = self.fused_body(root, &leaves, None, &shape, &in_place, at);
            if !self.store_element(&value, &sink, &idx, at) {
                return Val::Err;
            }
            self.loops_close(open, &at);
            self.br(join);
            self.enter(join);
        }
        match (in_place, sink) {
            (Some(_), _) => Val::Void,
            (None, Sink::Array(v, ty)) => Val::Arr { v, ty },
            (None, Sink::Sum { acc, acc_d, res_d, .. }) => {
                let v = if acc_d == res_d {
                    acc
                } else {
                    let n = self.fresh("sum");
                    self.b.cast(TypeId::scalar(res_d), acc, &n)
                };
                Val::Num { v, s: Scalar::strong(res_d), nonneg: false }
            }
        }
    }

    /// `np.sum(tree)` or `(tree).sum()` of a whole-array expression: the
    /// tree's elements added up in the loop that computes them, without
    /// the array (a sliding window `np.sum(t[i:i + m] * t[i:i + m])`
    /// allocates nothing per step). `None` when `e` is not such a tree.
    pub(super) fn fused_sum(&mut self, e: hir::ExprId) -> Option<Val> {
        if self.fusing || self.decl.attrs.is_device() || self.node_operands(e).is_none() || !self.is_array_expr(e) {
            return None;
        }
        Some(self.fuse(e, None, true))
    }

    /// Opens the loop nest over `shape` and lowers the tree's element in
    /// it: each array leaf indexed through its `steps` (broadcast), or by
    /// the loop's own indices when `None`.
    fn fused_body(
        &mut self,
        root: hir::ExprId,
        leaves: &[(hir::ExprId, Val)],
        steps: Option<&[Vec<Option<ValueId>>]>,
        shape: &Extents,
        in_place: &Option<(&InPlace, ValueId, TypeData)>,
        at: TextRange,
    ) -> (Val, Vec<arrays::Counted>, Vec<ValueId>) {
        let open = self.loops_open(shape, &at);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let mut subst = HashMap::new();
        for (n, (p, v)) in leaves.iter().enumerate() {
            let el = match v {
                Val::Arr { v: arr, ty } => {
                    let i = match steps {
                        Some(steps) => self.broadcast_index(&steps[n], &idx),
                        None => idx[idx.len() - ty.ndim().unwrap_or(0)..].to_vec(),
                    };
                    self.at(&at);
                    self.load(&(*arr, ty.clone()), &i, at)
                }
                other => other.clone(),
            };
            subst.insert(*p, el);
        }
        let saved = std::mem::replace(&mut self.element_of, subst);
        self.fusing = true;
        let value = self.expr(root);
        let value = match in_place {
            Some((a, target, tty)) => {
                let cur = self.load(&(*target, tty.clone()), &idx, a.at);
                self.binop(a.op, cur, value, a.at)
            }
            None => value,
        };
        self.fusing = false;
        self.element_of = saved;
        (value, open, idx)
    }

    /// Stores an element of the result, converted to its dtype, or adds
    /// it to the sum.
    fn store_element(&mut self, value: &Val, sink: &Sink, idx: &[ValueId], at: TextRange) -> bool {
        match sink {
            Sink::Array(arr, ty) => {
                let Some(x) = self.materialize(value, ty.dtype, &at) else { return false };
                self.at(&at);
                self.b.index_store(*arr, idx, x);
            }
            Sink::Sum { acc, d, acc_d, .. } => {
                let Some(x) = self.materialize(value, *d, &at) else { return false };
                self.at(&at);
                let x = if d == acc_d {
                    x
                } else {
                    let n = self.fresh("x");
                    self.b.cast(TypeId::scalar(*acc_d), x, &n)
                };
                let total = self.result(Opcode::Add, *acc_d, *acc, x);
                self.b.set(*acc, total);
            }
        }
        true
    }

    /// Evaluates the leaves of the tree `e` in source order into `out`.
    fn eval_leaves(&mut self, e: hir::ExprId, out: &mut Vec<(hir::ExprId, Val)>, failed: &mut bool) {
        let node = self.node_operands(e).filter(|_| self.is_array_expr(e));
        match node {
            Some(ops) => {
                for o in ops {
                    self.eval_leaves(o, out, failed);
                }
            }
            None => {
                let v = self.expr(e);
                match &v {
                    Val::Err => *failed = true,
                    Val::Void => {
                        self.err(&self.range(e), "this call returns nothing");
                        *failed = true;
                    }
                    Val::Arr { ty, .. } if ty.ndim().is_none() => {
                        self.err(&self.range(e), "the number of axes of this array is not known");
                        *failed = true;
                    }
                    _ => {}
                }
                out.push((e, v));
            }
        }
    }

    /// The extents of `e`'s result, each operator's operands checked to
    /// broadcast together (NumPy's rules: axes aligned on the right, equal
    /// extents or 1).
    fn broadcast_node(&mut self, e: hir::ExprId, leaves: &[(hir::ExprId, Val)]) -> Option<Extents> {
        let node = self.node_operands(e).filter(|_| self.is_array_expr(e));
        let Some(ops) = node else {
            let (_, v) = leaves.iter().find(|(leaf, _)| *leaf == e)?;
            return Some(match v.clone() {
                Val::Arr { v, ty } => (0..ty.ndim()? as u32).map(|k| self.dim(v, k)).collect(),
                _ => Vec::new(),
            });
        };
        let mut shapes = Vec::new();
        for o in ops.iter().copied() {
            shapes.push(self.broadcast_node(o, leaves)?);
        }
        let at = self.range(e);
        if let hir::Expr::Call { func, .. } = self.hir.exprs[e] {
            if let Some(s) = self.select_of(func) {
                if shapes.len() != 3 {
                    self.err(&at, select_count_error(s.name(), shapes.len()));
                    return None;
                }
            }
        }
        self.at(&at);
        Some(self.broadcast(&shapes, None, &at))
    }

    /// The broadcast of `shapes`, panicking with NumPy's message when they
    /// do not broadcast (which lists an in-place operator's `output` after
    /// its inputs).
    fn broadcast(&mut self, shapes: &[Extents], output: Option<&Extents>, at: &impl Ranged) -> Extents {
        let rank = shapes.iter().map(Vec::len).max().unwrap_or(0);
        if shapes.iter().filter(|s| !s.is_empty()).count() < 2 {
            return shapes.iter().find(|s| s.len() == rank).cloned().unwrap_or_default();
        }
        let one = self.int64(1);
        let mut ok: Option<ValueId> = None;
        let mut out = Vec::new();
        for axis in 0..rank {
            let mut ext: Option<ValueId> = None;
            for s in shapes {
                let Some(k) = (axis + s.len()).checked_sub(rank) else { continue };
                let x = s[k];
                ext = Some(match ext {
                    None => x,
                    Some(prev) => {
                        // Compatible when equal or either is 1; the result
                        // is the one that is not 1.
                        let eq = self.result(Opcode::Eq, DType::Bool, prev, x);
                        let prev_one = self.result(Opcode::Eq, DType::Bool, prev, one);
                        let x_one = self.result(Opcode::Eq, DType::Bool, x, one);
                        let either = self.result(Opcode::Or, DType::Bool, prev_one, x_one);
                        let fits = self.result(Opcode::Or, DType::Bool, eq, either);
                        ok = Some(match ok {
                            None => fits,
                            Some(o) => self.result(Opcode::And, DType::Bool, o, fits),
                        });
                        let n = self.fresh("ext");
                        self.b.select(TypeId::INT64, prev_one, x, prev, &n)
                    }
                });
            }
            out.push(ext.expect("an operand has this axis"));
        }
        if let Some(ok) = ok {
            let listed: Vec<&Extents> = shapes.iter().chain(output).collect();
            let shown: Vec<String> = listed.iter().map(|s| shape_pattern(s.len())).collect();
            let msg = format!("ValueError: operands could not be broadcast together with shapes {} ", shown.join(" "));
            let args: Vec<ValueId> = listed.into_iter().flatten().copied().collect();
            self.panic_unless_with(ok, &msg, &args, at);
        }
        out
    }

    /// The loop's extents for `target op= value`: the value's shape must
    /// broadcast with the target's and give the target's shape.
    fn in_place_shape(&mut self, target: &Extents, value: &Extents, a: &InPlace) -> Extents {
        // NumPy lists the inputs and then the output.
        let inputs = [target.clone(), value.clone()];
        let both = self.broadcast(&inputs, Some(target), &a.at);
        let mut ok: Option<ValueId> = None;
        for (&t, &b) in target.iter().zip(&both).filter(|(t, b)| t != b) {
            let same = self.result(Opcode::Eq, DType::Bool, t, b);
            ok = Some(match ok {
                None => same,
                Some(o) => self.result(Opcode::And, DType::Bool, o, same),
            });
        }
        if let Some(ok) = ok {
            let msg = format!(
                "ValueError: non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
                shape_pattern(target.len()),
                shape_pattern(both.len())
            );
            let args: Vec<ValueId> = target.iter().chain(&both).copied().collect();
            self.panic_unless_with(ok, &msg, &args, &a.at);
        }
        target.clone()
    }

    /// For each axis of an array leaf, the step of its index per step of
    /// the loop's: 0 where its extent is 1 (broadcast), else 1; `None`
    /// where its type says the extent is not 1. A product with the loop
    /// index, not a choice of it, keeps the index affine, which LLVM's
    /// vectoriser handles by checking the step once.
    fn stretched_axes(&mut self, arr: ValueId, ty: &TypeData) -> Vec<Option<ValueId>> {
        let one = self.int64(1);
        (0..ty.ndim().unwrap_or(0))
            .map(|k| {
                if let Shape::Dims(d) = &ty.shape {
                    if d[k].is_some_and(|x| x != 1) {
                        return None;
                    }
                }
                let ext = self.dim(arr, k as u32);
                let moves = self.result(Opcode::Ne, DType::Bool, ext, one);
                let n = self.fresh("step");
                Some(self.b.cast(TypeId::INT64, moves, &n))
            })
            .collect()
    }

    /// The index of a leaf's element at the loop indices `idx`: its axes
    /// align on the right, and a stretched axis stays at index 0.
    fn broadcast_index(&mut self, steps: &[Option<ValueId>], idx: &[ValueId]) -> Vec<ValueId> {
        let skip = idx.len() - steps.len();
        steps
            .iter()
            .enumerate()
            .map(|(k, step)| match step {
                None => idx[skip + k],
                Some(step) => self.result(Opcode::Mul, DType::Int64, idx[skip + k], *step),
            })
            .collect()
    }

    /// `np.where(c, a, b)` or `np.clip(a, lo, hi)` of elements.
    fn element_select(&mut self, s: Select, c: &CallExpr) -> Val {
        let args = c.args;
        let vals: Vec<Val> = args.iter().map(|&a| self.expr(a)).collect();
        if vals.iter().any(|v| matches!(v, Val::Err)) {
            return Val::Err;
        }
        self.at(&c.at);
        match s {
            Select::Where => {
                let Some(cond) = self.truth(vals[0].clone(), self.range(args[0])) else { return Val::Err };
                let (Some(a), Some(b)) = (vals[1].scalar(), vals[2].scalar()) else {
                    return self.err(&c.at, select_operand_error("where"));
                };
                if a.dtype.is_text() || b.dtype.is_text() {
                    return self.err(&c.at, select_operand_error("where"));
                }
                let Some(p) = promote(a, b) else {
                    return self.err(&c.at, select_dtypes_error("where", &[a.dtype, b.dtype]));
                };
                let d = if p.weak { default_of(kind(p.dtype)) } else { p.dtype };
                let (Some(x), Some(y)) = (
                    self.materialize(&vals[1], d, &self.range(args[1])),
                    self.materialize(&vals[2], d, &self.range(args[2])),
                ) else {
                    return Val::Err;
                };
                let n = self.fresh("where");
                let v = self.b.select(TypeId::scalar(d), cond, x, y, &n);
                Val::Num { v, s: Scalar::strong(d), nonneg: false }
            }
            Select::Clip => {
                // NumPy's `clip` is `minimum(maximum(a, lo), hi)` in the
                // dtype the three meet in.
                let mut common: Option<Scalar> = None;
                for v in &vals {
                    let Some(s) = v.scalar().filter(|s| kind(s.dtype) <= Kind::Float) else {
                        return self.err(&c.at, select_operand_error("clip"));
                    };
                    common = match common {
                        None => Some(s),
                        Some(p) => promote(p, s),
                    };
                }
                let Some(p) = common else {
                    let dtypes: Vec<DType> = vals.iter().filter_map(|v| v.scalar()).map(|s| s.dtype).collect();
                    return self.err(&c.at, select_dtypes_error("clip", &dtypes));
                };
                let d = if p.weak { default_of(kind(p.dtype)) } else { p.dtype };
                let first = self.range(args[0]);
                let pair = |a: Val, b: &Val| [(a, first), (b.clone(), first)];
                let up = self.min_max(NpOp::Maximum, &pair(vals[0].clone(), &vals[1]), d, c.at);
                if matches!(up, Val::Err) {
                    return Val::Err;
                }
                self.min_max(NpOp::Minimum, &pair(up, &vals[2]), d, c.at)
            }
        }
    }

    fn dim(&mut self, arr: ValueId, axis: u32) -> ValueId {
        let n = self.fresh("dim");
        self.b.dim(arr, axis, &n)
    }

    fn int64(&mut self, x: i128) -> ValueId {
        let n = self.fresh("c");
        self.b.int(TypeId::INT64, x, &n)
    }
}

/// A shape of `rank` axes as NumPy prints it, each extent a `{}` of
/// `postc.panic`: `()`, `({},)`, `({},{})`.
pub(super) fn shape_pattern(rank: usize) -> String {
    match rank {
        0 => "()".to_owned(),
        1 => "({},)".to_owned(),
        n => format!("({})", vec!["{}"; n].join(",")),
    }
}

/// NumPy's `same_kind` casting: the kinds ordered Bool, unsigned, signed
/// integers, floats, complex; a cast within a kind or to a later one is
/// allowed (`uint64` into `int8` too), to an earlier one refused.
/// A whole-array update in place whose result has `result` axes, more
/// than the `nd` of the array written.
pub(crate) fn in_place_rank_error(result: usize, nd: usize) -> String {
    format!(
        "a {result}-D result cannot be written into a {nd}-D array in place (NumPy raises \"non-broadcastable output \
         operand\")"
    )
}

/// Why `a op= value` in place refuses a result of `from` written into an
/// array of `to`: NumPy's `same_kind` casting rule.
pub(crate) fn in_place_cast_error(op: ast::Operator, from: DType, to: DType) -> Option<String> {
    (!same_kind(from, to)).then(|| {
        format!(
            "UFuncTypeError: Cannot cast ufunc '{}' output from dtype('{}') to dtype('{}') with casting rule \
             'same_kind'",
            ufunc_name(op),
            numpy_dtype_name(from),
            numpy_dtype_name(to)
        )
    })
}

fn same_kind(from: DType, to: DType) -> bool {
    let rank = |d: DType| match kind(d) {
        Kind::Bool => 0,
        Kind::Int if d.is_unsigned_int() => 1,
        Kind::Int => 2,
        Kind::Float => 3,
        Kind::Complex => 4,
        Kind::Text => 5,
    };
    rank(from) <= rank(to) && (rank(from) == 5) == (rank(to) == 5)
}

/// Whether `op` is `is` or `is not`, which compare objects, not elements.
pub(super) fn is_identity(op: ast::CmpOp) -> bool {
    matches!(op, ast::CmpOp::Is | ast::CmpOp::IsNot)
}

/// The NumPy ufunc of an in-place operator, as its messages name it.
fn ufunc_name(op: ast::Operator) -> &'static str {
    match op {
        ast::Operator::Add => "add",
        ast::Operator::Sub => "subtract",
        ast::Operator::Mult => "multiply",
        _ => "divide",
    }
}

/// NumPy's name of a dtype (`float64`, `int8`, `bool`).
fn numpy_dtype_name(d: DType) -> String {
    if d == DType::Bool {
        "bool".to_owned()
    } else {
        d.name().to_ascii_lowercase()
    }
}
