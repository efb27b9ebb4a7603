//! Tuples as values inside a function body.
//!
//! What it does: a tuple is a fixed number of values, each lowered on its
//! own (`Val::Tuple`); no tuple reaches the IR as one value. A tuple
//! local is a group of locals, one per element ([`element_local`]), each
//! typed, declared and assigned as any other local: a tuple bound again
//! keeps its length, and its elements' types join as scalars' do. Tuples
//! come from displays (`(x, y)`), `a.shape` and `divmod(a, b)`, and are
//! joined by `t + u` and repeated by `t * k` (a literal `k`), and
//! read by `t[k]` (a constant index, negative from the end, whatever the
//! elements' types; any other integer index when the elements share one
//! dtype, checked against the length at run time as CPython does), `len`,
//! `min`, `max`, `sum`, `==` and `!=`, `in` and `not in`, unpacking
//! (`x, y = t`, and `a, b = arr` of a 1-D array, whose length is checked
//! at run time with CPython's messages), ordering comparisons (`<`, `<=`,
//! `>`, `>=`: lexicographic, as CPython orders tuples), slices with
//! constant bounds (`t[1:]`, `t[::-1]`: a tuple of the elements picked),
//! conditional expressions choosing between tuples of scalars, and `for`
//! loops over a tuple, unrolled. A parameter that is a tuple of numbers
//! is a tuple local whose elements are the IR's parameters (named by
//! [`element_local`]; `FuncDecl::declare_ir_params`). The typecheck
//! (`crate::typeck`) types tuples of scalars by the same rules.
//!
//! What it does not: tuple results (`mod.rs`'s), tuples of arrays or of
//! tuples as parameters, slices with bounds known only at run time (the length of
//! the result would be), tuples of tuples or of arrays in conditional
//! expressions, and CPython's identity shortcut in comparisons (a NaN
//! element is never equal to itself here, where CPython finds the very
//! same float object equal to itself).

use super::*;

/// The longest tuple `t * k` makes: a tuple is as many values in the IR,
/// and a repetition larger than this is a mistake, not a shape.
pub(crate) const TUPLE_REPEAT_MAX: usize = 1 << 12;

/// How many times `t * k` repeats a tuple of `len` elements (none for
/// `k <= 0`, as CPython's); `None` past [`TUPLE_REPEAT_MAX`] elements.
pub(crate) fn repeat_times(k: i128, len: usize) -> Option<usize> {
    let times = k.clamp(0, TUPLE_REPEAT_MAX as i128) as usize;
    (len * times <= TUPLE_REPEAT_MAX).then_some(times)
}

/// The local holding element `i` of the tuple local `name`: a name no
/// Python identifier can take. This is the one place that lays a tuple
/// local out.
pub(crate) fn element_local(name: &str, i: usize) -> String {
    format!("{name}.{i}")
}

/// A local's name as diagnostics show it: an element of a tuple local as
/// the subscript that reads it (`t[0]`).
pub(crate) fn shown_local(name: &str) -> String {
    let mut parts = name.split('.');
    // A version of a parameter (`n$1`, see `hir`) is shown as its name.
    let first = parts.next().unwrap_or_default();
    let mut shown = first.split('$').next().unwrap_or_default().to_owned();
    for i in parts {
        shown.push('[');
        shown.push_str(i);
        shown.push(']');
    }
    shown
}

/// The panic of an index out of a tuple's range, as CPython raises it.
const TUPLE_INDEX_PANIC: &str = "IndexError: tuple index out of range";

/// What a value is, in a diagnostic.
pub(super) fn describe(v: &Val) -> &'static str {
    match v {
        Val::Num { s, .. } | Val::Lit { s, .. } => s.dtype.name(),
        Val::Arr { .. } => "an array",
        Val::Tuple(_) => "a tuple",
        Val::Void | Val::Err | Val::None | Val::Maybe { .. } => "no value",
    }
}

/// `min` or `max` (`word`) of tuples and what is not one (`other`, with
/// its article).
pub(crate) fn tuples_compared_error(word: &str, other: &str) -> String {
    format!("`{word}` compares tuples with tuples, not with {other}")
}

/// `min` or `max` (`word`) of tuples of different lengths.
pub(crate) fn tuple_lengths_error(word: &str) -> String {
    format!("`{word}` of tuples of different lengths: the length of its result would be known only at run time")
}

/// `x in y` of a `y` that is not a tuple.
pub(crate) const MEMBERSHIP_IN_TUPLE: &str = "`in` tests membership in a tuple, such as `x in (1, 2, 3)`";

/// `divmod` of other than two arguments.
pub(crate) const DIVMOD_FORM: &str = "`divmod` takes two numbers";

/// `min` or `max` (`word`) of tuples with an element that is no real
/// number or string (a complex number, an array, a tuple).
pub(crate) fn tuple_elements_kind_error(word: &str) -> String {
    format!("`{word}` of tuples takes tuples of real numbers or strings")
}

/// `min` or `max` (`word`) of tuples whose elements at index `k` have no
/// common type (`a` and `b`).
pub(crate) fn tuple_elements_join_error(word: &str, a: DType, b: DType, k: usize) -> String {
    format!("`{word}` of tuples with {} and {} at index {k}", a.name(), b.name())
}

/// `sum` of other than a tuple and a start value.
pub(crate) const SUM_FORM: &str = "`sum` takes a tuple and an optional start value";

/// Why `sum` refuses to add up a value of type `items` (`None`: no
/// value): not a tuple.
pub(crate) fn summed_error(items: Option<&typeck::Ty>) -> Option<String> {
    match items {
        Some(typeck::Ty::Tuple(_)) => None,
        Some(typeck::Ty::Arr(_)) => Some("`sum` takes a tuple here; an array's sum is `np.sum(a)`".into()),
        other => Some(format!("`sum` takes a tuple, not {}", typeck::describe_ty(other))),
    }
}

/// What a value is, with its article, in a diagnostic.
fn describe_a(v: &Val) -> String {
    match v {
        Val::Tuple(_) => "a tuple".to_owned(),
        Val::Arr { .. } => "an array".to_owned(),
        other => match describe(other) {
            "no value" => "no value".to_owned(),
            dtype if dtype.starts_with(['A', 'E', 'I', 'O', 'U']) => format!("an {dtype}"),
            dtype => format!("a {dtype}"),
        },
    }
}

/// The indices of a tuple of `len` elements that `t[start:stop:step]`
/// picks, in order: CPython's `slice(start, stop, step).indices(len)`
/// walked. `step` is not zero.
pub(crate) fn slice_indices(len: usize, start: Option<i128>, stop: Option<i128>, step: i128) -> Vec<usize> {
    let len = len as i128;
    // A bound past an end stops at it: the first index or one before it
    // going backwards, the length or the last index going forwards.
    let clamp = |b: i128| {
        let b = if b < 0 { b + len } else { b };
        if step < 0 {
            b.clamp(-1, len - 1)
        } else {
            b.clamp(0, len)
        }
    };
    let (first, end) = if step > 0 {
        (start.map_or(0, clamp), stop.map_or(len, clamp))
    } else {
        (start.map_or(len - 1, clamp), stop.map_or(-1, clamp))
    };
    let mut picked = Vec::new();
    let mut i = first;
    while (step > 0 && i < end) || (step < 0 && i > end) {
        picked.push(i as usize);
        i += step;
    }
    picked
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// `(x, y)`: the elements, evaluated left to right, each taken as it
    /// is now.
    pub(super) fn tuple_display(&mut self, elements: &[crate::hir::ExprId]) -> Val {
        let hir = self.hir;
        let mut elts = Vec::with_capacity(elements.len());
        let mut failed = false;
        for &e in elements {
            if let crate::hir::Expr::Starred(inner) = hir.exprs[e] {
                self.err(&self.range(e), crate::typeck::STARRED_IN_TUPLE);
                self.expr(inner);
                failed = true;
                continue;
            }
            let v = self.expr(e);
            failed |= matches!(v, Val::Err);
            elts.push(self.snapshot(v, &self.range(e)));
        }
        if failed {
            Val::Err
        } else {
            Val::Tuple(elts)
        }
    }

    /// A value as it is now. A scalar local is read where its value is
    /// used, so a scalar is copied into a `let` of its own: assigning the
    /// local later (`a, b = b, a`, `t = (t[1], t[0])`) must not change it.
    pub(super) fn snapshot(&mut self, v: Val, at: &impl Ranged) -> Val {
        match v {
            Val::Num { v, s, nonneg } => {
                self.at(at);
                let n = self.fresh("tmp");
                Val::Num { v: self.b.let_(TypeId::scalar(s.dtype), v, &n), s, nonneg }
            }
            // An array local bound more than once is a variable: what it
            // holds now, not what a later assignment gives it.
            Val::Arr { v, ty } if self.is_array_variable(v) => {
                self.at(at);
                let n = self.fresh("tmp");
                let tid = self.types.intern(ty.clone());
                Val::Arr { v: self.b.let_(tid, v, &n), ty }
            }
            Val::Tuple(elts) => Val::Tuple(elts.into_iter().map(|e| self.snapshot(e, at)).collect()),
            other => other,
        }
    }

    /// `a.shape`: the array's extents, read now.
    pub(super) fn shape_tuple(&mut self, av: ValueId, ty: &TypeData, at: &impl Ranged) -> Val {
        let Some(nd) = ty.ndim() else { return self.err(at, "the number of axes of this array is not known") };
        self.at(at);
        let mut extents = Vec::with_capacity(nd);
        for axis in 0..nd {
            let n = self.fresh("dim");
            let d = self.b.dim(av, axis as u32, &n);
            extents.push(Val::Num { v: d, s: Scalar::weak(DType::Int64), nonneg: true });
        }
        Val::Tuple(extents)
    }

    /// `t + u`, a tuple of the elements of both, and `t * k` or `k * t`
    /// of a literal `k`, the elements `k` times over (none for `k <= 0`),
    /// as CPython's; other arithmetic on a tuple is refused.
    pub(super) fn tuple_arith(&mut self, op: ast::Operator, l: Val, r: Val, at: TextRange) -> Val {
        match (op, l, r) {
            (ast::Operator::Add, Val::Tuple(mut l), Val::Tuple(r)) => {
                l.extend(r);
                Val::Tuple(l)
            }
            (ast::Operator::Mult, Val::Tuple(t), Val::Lit { lit: Lit::Int(k), .. })
            | (ast::Operator::Mult, Val::Lit { lit: Lit::Int(k), .. }, Val::Tuple(t)) => {
                let Some(times) = repeat_times(k, t.len()) else {
                    return self.err(&at, typeck::tuple_too_long());
                };
                Val::Tuple((0..times).flat_map(|_| t.iter().cloned()).collect())
            }
            (op, l, r) => {
                let message = typeck::tuple_arith_error(op, l.ty().as_ref(), r.ty().as_ref());
                self.err(&at, message.unwrap_or_default())
            }
        }
    }

    /// Reads the tuple local `name` of `len` elements.
    pub(super) fn read_tuple_local(&mut self, name: &str, len: usize, at: TextRange) -> Val {
        let mut elts = Vec::with_capacity(len);
        for i in 0..len {
            match self.read_local(&element_local(name, i), at) {
                Val::Err => return Val::Err,
                v => elts.push(v),
            }
        }
        Val::Tuple(elts)
    }

    /// Binds the tuple local `name` to `elts`, element by element.
    pub(super) fn assign_tuple_local(&mut self, name: &str, elts: Vec<Val>, at: TextRange, value_at: TextRange) {
        let info = &self.locals[name];
        let shown = shown_local(name);
        match info.ty {
            None => {
                self.untyped_binding(name, &at);
                return;
            }
            Some(LocalTy::Tuple(n)) if n == elts.len() => {}
            Some(LocalTy::Tuple(n)) => {
                self.err(&value_at, typeck::assignments::tuple_length_error(&shown, n, elts.len()));
                return;
            }
            Some(LocalTy::Scalar(_) | LocalTy::Array(_)) => {
                self.err(&at, typeck::assignments::not_a_tuple_local_error(info.param, &shown));
                return;
            }
        }
        // Each element is a local of its own, typed with the tuple local.
        for (i, v) in elts.into_iter().enumerate() {
            let element = element_local(name, i);
            if !self.locals.contains_key(&element) {
                self.untyped_binding(&element, &at);
                continue;
            }
            self.assign_local(&element, v, at, value_at);
        }
    }

    /// `t[k]` (the subscript `s`) of the tuple `elts`: a constant index
    /// (negative from the end) picks its element, whatever the elements'
    /// types; another integer index picks among elements of one dtype,
    /// checked against the length at run time.
    pub(super) fn tuple_subscript(&mut self, elts: Vec<Val>, s: hir::ExprId) -> Val {
        let len = elts.len();
        let hir::Expr::Subscript { index: slice, .. } = self.hir.exprs[s] else { unreachable!("a subscript") };
        if let hir::Expr::Slice { .. } = self.hir.exprs[slice] {
            return self.tuple_slice(elts, slice);
        }
        let index = self.expr(slice);
        let (s_at, index_at) = (&self.range(s), &self.range(slice));
        if matches!(index, Val::Err) {
            return Val::Err;
        }
        if let Some(message) = typeck::tuple_index_error(len, index.ty().as_ref()) {
            return self.err(index_at, message);
        }
        if let Val::Lit { lit: Lit::Int(k), .. } = index {
            let at = if k < 0 { k + len as i128 } else { k };
            return elts.into_iter().nth(at as usize).expect("an index in range");
        }
        // One dtype for every element: the index chooses among values, not types.
        let tys: Vec<Option<typeck::Ty>> = elts.iter().map(Val::ty).collect();
        if let Some((whole, message)) = typeck::tuple_pick_error(&tys) {
            return self.err(if whole { s_at } else { index_at }, message);
        }
        let Some(common) = elts.first().and_then(Val::scalar).map(|s| s.dtype) else { return Val::Err };
        let weak = elts.iter().all(|e| e.scalar().is_some_and(|s| s.weak));
        let nonneg = elts.iter().all(Val::nonneg);
        let Some(i) = self.materialize(&index, DType::Int64, index_at) else { return Val::Err };
        let mut values = Vec::with_capacity(len);
        for e in &elts {
            let Some(x) = self.materialize(e, common, s_at) else { return Val::Err };
            values.push(x);
        }
        // A negative index counts from the end; what is still outside
        // `0..len` panics.
        let n = self.int_const(len as i64, s_at);
        let (i, in_range) = self.wrapped_index(i, n, s_at);
        self.panic_unless(in_range, TUPLE_INDEX_PANIC, s_at);
        self.at(s_at);
        let mut picked = values[len - 1];
        for (k, &x) in values.iter().enumerate().rev().skip(1) {
            let kv = self.int_const(k as i64, s_at);
            let is_k = self.result(Opcode::Eq, DType::Bool, i, kv);
            let pn = self.fresh("el");
            picked = self.b.select(TypeId::scalar(common), is_k, x, picked, &pn);
        }
        Val::Num { v: picked, s: Scalar { dtype: common, weak }, nonneg }
    }

    /// `t[a:b:c]` of the tuple `elts`: the tuple of the elements the slice
    /// picks, as CPython picks them (`slice.indices`: a negative bound
    /// counts from the end, a bound past either end stops there, a
    /// negative step walks backwards). The bounds are integer constants or
    /// left out (or `None`): the result's length must be known when
    /// compiled.
    fn tuple_slice(&mut self, elts: Vec<Val>, slice: hir::ExprId) -> Val {
        let hir = self.hir;
        let hir::Expr::Slice { lower, upper, step } = hir.exprs[slice] else { unreachable!("a slice") };
        let mut bounds = [None; 3];
        let parts = [lower, upper, step];
        let mut failed = false;
        for (bound, part) in bounds.iter_mut().zip(parts) {
            let Some(e) = part else { continue };
            if matches!(hir.exprs[e], hir::Expr::None) {
                continue;
            }
            match self.expr(e) {
                Val::Lit { lit: Lit::Int(k), .. } => *bound = Some(k),
                Val::Err => failed = true,
                _ => {
                    self.err(&self.range(e), typeck::TUPLE_SLICE_BOUND);
                    failed = true;
                }
            }
        }
        if failed {
            return Val::Err;
        }
        let [start, stop, step] = bounds;
        if step == Some(0) {
            return self.err(&self.range(slice), typeck::TUPLE_SLICE_STEP_ZERO);
        }
        let picked = slice_indices(elts.len(), start, stop, step.unwrap_or(1));
        Val::Tuple(picked.into_iter().map(|i| elts[i].clone()).collect())
    }

    /// The `count` values that unpacking `v` gives its targets: a tuple's
    /// elements, or a 1-D array's, whose length is checked first with
    /// CPython's messages. Every value is read before any target is
    /// assigned.
    pub(super) fn unpacked(&mut self, v: Val, count: usize, stmt: TextRange, value: TextRange) -> Option<Vec<Val>> {
        let (stmt, value) = (&stmt, &value);
        match v {
            Val::Err => None,
            Val::Tuple(elts) if elts.len() == count => {
                Some(elts.into_iter().map(|e| self.snapshot(e, value)).collect())
            }
            Val::Tuple(elts) => {
                self.err(stmt, typeck::assignments::count_error(count, elts.len()));
                None
            }
            Val::Arr { v: av, ty } if ty.ndim() == Some(1) => {
                self.at(stmt);
                let ln = self.fresh("len");
                let len = self.b.dim(av, 0, &ln);
                let want = self.int_const(count as i64, stmt);
                let not_more = self.result(Opcode::Le, DType::Bool, len, want);
                let msg = format!("ValueError: too many values to unpack (expected {count})");
                self.panic_unless(not_more, &msg, stmt);
                let not_fewer = self.result(Opcode::Ge, DType::Bool, len, want);
                let msg = format!("ValueError: not enough values to unpack (expected {count}, got {{}})");
                self.panic_unless_with(not_fewer, &msg, &[len], stmt);
                let arr = (av, ty);
                let mut elts = Vec::with_capacity(count);
                for i in 0..count {
                    let at = self.int_const(i as i64, stmt);
                    let x = self.load(&arr, &[at], value.range());
                    elts.push(self.snapshot(x, value));
                }
                Some(elts)
            }
            Val::Arr { .. } => {
                self.err(value, typeck::assignments::UNPACKED_ARRAY);
                None
            }
            other => {
                self.err(value, typeck::assignments::not_unpackable_error(describe(&other)));
                None
            }
        }
    }

    /// A comparison when either side is a tuple: `t == u` and `t != u`
    /// (equal when they have one length and equal elements, as CPython
    /// compares them), `t < u`, `<=`, `>`, `>=` (lexicographic, see
    /// [`FnLower::tuple_order`]), and `x in t`, `x not in t`: whether some
    /// element equals `x`. A Python bool either way.
    pub(super) fn tuple_compare(&mut self, op: ast::CmpOp, l: &Val, r: &Val, c: &CompareExpr) -> Val {
        use ast::CmpOp as C;
        let found = match op {
            C::In | C::NotIn => {
                let Val::Tuple(elts) = r else {
                    if matches!(r, Val::Err) {
                        return Val::Err;
                    }
                    return self.err(&self.range(c.operands[1]), MEMBERSHIP_IN_TUPLE);
                };
                let mut any = None;
                for e in elts {
                    let Some(eq) = self.values_equal(l, e, c.at) else { return Val::Err };
                    any = Some(match any {
                        None => eq,
                        Some(acc) => self.result(Opcode::Or, DType::Bool, acc, eq),
                    });
                }
                let found = any.unwrap_or_else(|| self.bool_const(false, &c.at));
                if op == C::NotIn {
                    Some(self.negate_bool(found, &c.at))
                } else {
                    Some(found)
                }
            }
            _ => self.compare_values(op, l, r, c.at),
        };
        match found {
            Some(v) => Val::Num { v, s: Scalar { dtype: DType::Bool, weak: true }, nonneg: true },
            None => Val::Err,
        }
    }

    /// `l op r` for any comparison but `in` and `is`: of tuples as CPython
    /// compares them, of scalars as [`FnLower::compare_pair`] does.
    pub(super) fn compare_values(&mut self, op: ast::CmpOp, l: &Val, r: &Val, at: TextRange) -> Option<ValueId> {
        use ast::CmpOp as C;
        let tuples = matches!(l, Val::Tuple(_)) || matches!(r, Val::Tuple(_));
        match op {
            C::Eq | C::NotEq if tuples => {
                let equal = self.values_equal(l, r, at)?;
                Some(if op == C::NotEq { self.negate_bool(equal, &at) } else { equal })
            }
            C::Lt | C::LtE | C::Gt | C::GtE if tuples => match (l, r) {
                (Val::Tuple(ls), Val::Tuple(rs)) => self.tuple_order(op, ls, rs, at),
                (Val::Err, _) | (_, Val::Err) => None,
                _ => {
                    // CPython's TypeError, raised here when compiled.
                    let msg = typeck::orders_two_tuples(op, &describe_a(l), &describe_a(r));
                    self.err(&at, msg);
                    None
                }
            },
            _ => {
                self.at(&at);
                self.compare_pair(op, l, r, at)
            }
        }
    }

    /// `l op r` of two tuples for an ordering `op`, as CPython orders
    /// them: the first position where the elements differ decides, by
    /// comparing those two elements with `op`; when every element of the
    /// shorter tuple equals the longer one's (or both are empty), the
    /// lengths decide. Each position's equality and order are computed and
    /// chosen by `select`s from the last position back, so the result is
    /// one value with no branch (comparisons have no effects).
    fn tuple_order(&mut self, op: ast::CmpOp, l: &[Val], r: &[Val], at: TextRange) -> Option<ValueId> {
        use ast::CmpOp as C;
        let by_length = match op {
            C::Lt => l.len() < r.len(),
            C::LtE => l.len() <= r.len(),
            C::Gt => l.len() > r.len(),
            _ => l.len() >= r.len(),
        };
        let mut decided = self.bool_const(by_length, &at);
        for (a, b) in l.iter().zip(r).rev() {
            let equal = self.values_equal(a, b, at)?;
            let ordered = self.compare_values(op, a, b, at)?;
            self.at(&at);
            let n = self.fresh("lex");
            decided = self.b.select(TypeId::BOOL, equal, decided, ordered, &n);
        }
        Some(decided)
    }

    fn negate_bool(&mut self, v: ValueId, at: &impl Ranged) -> ValueId {
        self.at(at);
        let n = self.fresh("not");
        self.b.unary(Opcode::Not, TypeId::BOOL, v, &n)
    }

    /// Whether `l == r`, tuples compared element by element; a tuple is
    /// never equal to a scalar, nor to a tuple of another length.
    fn values_equal(&mut self, l: &Val, r: &Val, at: TextRange) -> Option<ValueId> {
        match (l, r) {
            (Val::Tuple(ls), Val::Tuple(rs)) if ls.len() == rs.len() => {
                let mut all = None;
                for (a, b) in ls.iter().zip(rs) {
                    let eq = self.values_equal(a, b, at)?;
                    all = Some(match all {
                        None => eq,
                        Some(acc) => self.result(Opcode::And, DType::Bool, acc, eq),
                    });
                }
                Some(all.unwrap_or_else(|| self.bool_const(true, &at)))
            }
            (Val::Err, _) | (_, Val::Err) => None,
            (Val::Tuple(_), Val::Num { .. } | Val::Lit { .. } | Val::Tuple(_))
            | (Val::Num { .. } | Val::Lit { .. }, Val::Tuple(_)) => Some(self.bool_const(false, &at)),
            _ => {
                self.at(&at);
                self.compare_pair(ast::CmpOp::Eq, l, r, at)
            }
        }
    }

    /// `min(t, u, ...)`, `max(...)` of tuples of numbers, or of one tuple
    /// of such tuples: the least (greatest) by the order of `<`, the first
    /// of equal ones, as CPython picks it. The tuples are of one length
    /// (the result's length must be known when compiled); each element of
    /// the result has the type its position's elements join to, as `min`
    /// of numbers does.
    pub(super) fn min_max_of_tuples(&mut self, is_min: bool, vals: Vec<(Val, TextRange)>, c: &CallExpr) -> Val {
        let word = if is_min { "min" } else { "max" };
        let mut tuples = Vec::with_capacity(vals.len());
        for (v, a) in vals {
            match v {
                Val::Tuple(elts) => tuples.push(elts),
                Val::Err => return Val::Err,
                other => return self.err(&a, tuples_compared_error(word, &describe_a(&other))),
            }
        }
        let len = tuples[0].len();
        if tuples.iter().any(|t| t.len() != len) {
            return self.err(&c.at, tuple_lengths_error(word));
        }
        let mut types: Vec<Scalar> = Vec::with_capacity(len);
        for k in 0..len {
            let mut joined: Option<Scalar> = None;
            for t in &tuples {
                let Some(s) = t[k].scalar().filter(|s| kind(s.dtype) <= Kind::Float || s.dtype.is_text()) else {
                    return self.err(&c.at, tuple_elements_kind_error(word));
                };
                joined = match joined {
                    None => Some(s),
                    Some(q) => match promote(q, s) {
                        Some(r) => Some(r),
                        None => return self.err(&c.at, tuple_elements_join_error(word, q.dtype, s.dtype, k)),
                    },
                };
            }
            types.extend(joined);
        }
        let mut tuples = tuples.into_iter();
        let first = tuples.next().expect("one tuple at least");
        let mut nonneg: Vec<bool> = first.iter().map(Val::nonneg).collect();
        let mut best = Vec::with_capacity(len);
        for (e, s) in first.iter().zip(&types) {
            let Some(x) = self.materialize(e, s.dtype, &c.at) else { return Val::Err };
            best.push(x);
        }
        let op = if is_min { ast::CmpOp::Lt } else { ast::CmpOp::Gt };
        for t in tuples {
            let current: Vec<Val> = best.iter().zip(&types).map(|(&v, &s)| Val::Num { v, s, nonneg: false }).collect();
            // Python keeps the first of equal tuples: only a strictly
            // better one replaces it.
            let Some(better) = self.tuple_order(op, &t, &current, c.at) else { return Val::Err };
            for (k, e) in t.iter().enumerate() {
                let Some(x) = self.materialize(e, types[k].dtype, &c.at) else { return Val::Err };
                self.at(&c.at);
                let n = self.fresh(word);
                best[k] = self.b.select(TypeId::scalar(types[k].dtype), better, x, best[k], &n);
                nonneg[k] = if is_min { nonneg[k] && e.nonneg() } else { nonneg[k] || e.nonneg() };
            }
        }
        let parts = best.into_iter().zip(types).zip(nonneg).map(|((v, s), nonneg)| Val::Num { v, s, nonneg });
        Val::Tuple(parts.collect())
    }

    /// `divmod(a, b)`: the tuple `(a // b, a % b)`.
    pub(super) fn divmod(&mut self, c: &CallExpr) -> Val {
        let &[a, b] = c.args else { return self.err(&c.at, DIVMOD_FORM) };
        let a = self.expr(a);
        let b = self.expr(b);
        self.at(&c.at);
        let q = self.binop(ast::Operator::FloorDiv, a.clone(), b.clone(), c.at);
        let r = self.binop(ast::Operator::Mod, a, b, c.at);
        if matches!(q, Val::Err) || matches!(r, Val::Err) {
            return Val::Err;
        }
        Val::Tuple(vec![q, r])
    }

    /// `sum(t)` and `sum(t, start)` of a tuple of numbers: `start` (0
    /// unless given) plus each element in turn, as CPython adds them.
    pub(super) fn sum(&mut self, c: &CallExpr) -> Val {
        let (items, start) = match *c.args {
            [items] => (items, Val::Lit { lit: Lit::Int(0), s: Scalar::weak(DType::Int64) }),
            [items, start] => {
                let t = self.expr(items);
                let s = self.expr(start);
                return self.sum_of(t, s, self.range(items), c);
            }
            _ => return self.err(&c.at, SUM_FORM),
        };
        let t = self.expr(items);
        self.sum_of(t, start, self.range(items), c)
    }

    fn sum_of(&mut self, items: Val, start: Val, at: TextRange, c: &CallExpr) -> Val {
        let elts = match items {
            Val::Tuple(elts) => elts,
            Val::Err => return Val::Err,
            other => return self.err(&at, summed_error(other.ty().as_ref()).unwrap_or_default()),
        };
        let mut acc = start;
        for e in elts {
            self.at(&c.at);
            acc = self.binop(ast::Operator::Add, acc, e, c.at);
            if matches!(acc, Val::Err) {
                return Val::Err;
            }
        }
        acc
    }

    /// Whether an expression is a tuple by its form: a display, a tuple
    /// local or an array's `shape` (what a `for` loop runs over as a
    /// tuple).
    pub(super) fn is_tuple_expr(&self, iter: hir::ExprId) -> bool {
        match &self.hir.exprs[iter] {
            hir::Expr::Tuple(_) => true,
            hir::Expr::Name(n) => {
                matches!(self.locals.get(self.name_text(n)).and_then(|l| l.ty.clone()), Some(LocalTy::Tuple(_)))
            }
            hir::Expr::Attribute { attr, .. } => &**attr == "shape",
            &hir::Expr::Subscript { base, index } => {
                matches!(self.hir.exprs[index], hir::Expr::Slice { .. }) && self.is_tuple_expr(base)
            }
            _ => false,
        }
    }

    /// `for x in (1, 2, 3)`, `for x in t`: the body once for each element,
    /// in order, unrolled (the elements may differ in type: `x` takes
    /// their join, as a local assigned each of them would); `for a, b in
    /// ((1, 2), (3, 4))` unpacks each element. `continue` goes on to the
    /// next element, `break` past the `else` clause.
    pub(super) fn for_over_tuple(&mut self, f: &ForLoop) -> bool {
        let hir = self.hir;
        let iter_at = self.range(f.iter);
        // `for x in t`, or `for a, b in ((1, 2), (3, 4))` unpacking each.
        let names: Option<&[crate::hir::ExprId]> = match &hir.exprs[f.target] {
            crate::hir::Expr::Name(_) => None,
            crate::hir::Expr::Tuple(elts)
                if elts.iter().all(|&e| matches!(hir.exprs[e], crate::hir::Expr::Name(_))) =>
            {
                Some(elts)
            }
            _ => {
                self.err(&self.range(f.target), typeck::loops::TUPLE_LOOP_TARGET);
                return false;
            }
        };
        // `for x in [1, -1]`: a list display's values, as a tuple's.
        let values = match &hir.exprs[f.iter] {
            crate::hir::Expr::List(elements) => self.tuple_display(elements),
            _ => self.expr(f.iter),
        };
        let elts = match values {
            Val::Tuple(elts) => elts,
            Val::Err => return false,
            other => {
                let what = describe(&other);
                self.err(&iter_at, typeck::loops::tuple_loop_not_tuple(what));
                return false;
            }
        };
        // The tuple is the one read now, whatever the body assigns.
        let elts: Vec<Val> = elts.into_iter().map(|e| self.snapshot(e, &iter_at)).collect();
        if let Some(names) = names {
            let unpackable = |e: &Val| matches!(e, Val::Tuple(parts) if parts.len() == names.len());
            if let Some(other) = elts.iter().find(|e| !unpackable(e)) {
                let what = match other {
                    Val::Tuple(parts) => format!("a tuple of {}", parts.len()),
                    other => describe(other).to_owned(),
                };
                self.err(&iter_at, typeck::loops::tuple_loop_unpack_error(names.len(), &what));
                return false;
            }
        }
        // The name has one type for every iteration: an integer element
        // computed as a float would give `-0.0` for CPython's `0`, so
        // numbers of different kinds are refused, as Numba refuses them.
        let parts = names.map_or(1, <[_]>::len);
        for part in 0..parts {
            let element = |e: &Val| match (names, e) {
                (Some(_), Val::Tuple(p)) => p[part].scalar(),
                _ => e.scalar(),
            };
            let mut kinds = elts.iter().filter_map(element).map(|s| (kind(s.dtype).max(Kind::Int), s.dtype));
            if let Some((first, d)) = kinds.next() {
                if let Some((_, other)) = kinds.find(|(k, _)| *k != first) {
                    let list = matches!(hir.exprs[f.iter], crate::hir::Expr::List(_));
                    self.err(&iter_at, typeck::loops::tuple_loop_kinds_error(list, d, other));
                    return false;
                }
            }
        }
        if elts.is_empty() {
            // Never run, still checked.
            self.rejected_block(f.body);
        }
        let exit = self.block("endfor");
        for e in elts {
            let next = self.block("next");
            self.loops.push(Loop { next, exit, broken: false, parallel: false });
            self.at(&self.range(f.target));
            match (names, e) {
                (Some(names), Val::Tuple(parts)) => {
                    for (&name, part) in names.iter().zip(parts) {
                        self.assign(name, part, f.iter);
                    }
                }
                (_, e) => self.assign(f.target, e, f.iter),
            }
            self.mark_bound(f.target);
            self.nested(f.body);
            self.br(next);
            self.loops.pop();
            self.enter(next);
        }
        self.loop_else_starts();
        self.nested(f.orelse);
        self.loop_else_ends(self.open);
        self.br(exit);
        self.enter(exit);
        true
    }

    /// The elements of a conditional expression's arm, each with its
    /// scalar type: a scalar is one, a tuple of scalars each of its
    /// elements; `None` for anything else.
    pub(super) fn arm_elements(v: &Val) -> Option<Vec<(&Val, Scalar)>> {
        match v {
            Val::Tuple(elts) => elts.iter().map(|e| Some((e, e.scalar()?))).collect(),
            _ => Some(vec![(v, v.scalar()?)]),
        }
    }
}
