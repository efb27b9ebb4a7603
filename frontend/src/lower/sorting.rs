//! Sorting and searching 1-D arrays in NumPy's order: `np.sort(a)` (a new
//! sorted array), `a.sort()` (in place), `np.argsort(a)` and
//! `a.argsort()` (the Int64 indices that sort `a`) and
//! `np.searchsorted(a, v, side=)`. NumPy's order is `<` with NaN after every number (so NaNs
//! sort last and `searchsorted` finds them there) and False before True;
//! [`FnLower::sorts_before`] is that order, written once for both.
//!
//! The sort is a bottom-up merge sort, emitted as IR at the call: the
//! elements are copied into a compact array, its runs of 16 are sorted by
//! insertion, then runs of width 16, 32, 64, ... are merged back and
//! forth between it and a scratch array of the same length, an even
//! number of passes, so that the result is the compact array (`a.sort()`
//! copies it back into `a`, which may be any view). It is O(n log n) in
//! every case and stable (NumPy's default quicksort is not, which no
//! number can tell apart except -0.0 from 0.0 and NaNs of other
//! payloads). `argsort` sorts the indices `0..n` by the same merge sort,
//! comparing the elements they index: equal elements keep the order of
//! their indices, which is NumPy's `kind='stable'` for every `kind=`
//! (its default quicksort may order equal elements otherwise, as Numba's
//! does; distinct elements have one order). Every backend compiles the
//! same IR. Not here: arrays of two axes or more, `axis=`, `order=`,
//! complex numbers and text.
//!
//! `np.partition(a, kth)` of a 1-D `a` is its sorted copy: every element
//! at a `kth` index is the one a sort puts there, those before it no
//! larger and those after no smaller, which is all NumPy promises (its
//! introselect leaves the others in an order of its own). `kth` is an
//! integer or a 1-D array of them, each checked as NumPy checks it
//! (`ValueError: kth(=5) out of bounds (3)`, a negative one counted from
//! the end; none for an empty `a`).
//!
//! `searchsorted` is a binary search on `a`, assumed sorted as NumPy
//! assumes it, in the dtype NumPy compares in (the promotion of `a`'s and
//! `v`'s, a Python number weak); `v` is a scalar (the result an Int64) or
//! an array (an Int64 array of its shape). `side` is the string constant
//! `'left'` or `'right'`.

use super::npfuncs::NpFn;
use super::*;
use crate::typeck::Ty;

/// The array a sort or argsort (shown as `shown`) of `args` takes: the
/// receiver `method_base` of a method (`a.sort()`, which takes no
/// arguments), else the one argument; or why compiled code refuses the
/// call whatever its values.
pub(crate) fn sorted_array_form(
    method_base: Option<hir::ExprId>,
    args: &[hir::ExprId],
    shown: &str,
    call_at: TextRange,
) -> Result<hir::ExprId, (TextRange, String)> {
    match (method_base, args) {
        (Some(base), []) => Ok(base),
        (Some(_), _) => Err((call_at, format!("{shown} takes no arguments here"))),
        (None, &[array]) => Ok(array),
        (None, _) => Err((call_at, format!("{shown} takes one array here, not {} arguments", args.len()))),
    }
}

/// An array of other than one axis given to `shown`.
pub(crate) fn one_axis_error(shown: &str) -> String {
    format!("{shown} takes an array of one axis here")
}

/// `np.partition` (shown as `shown`) of other than an array and `kth`.
pub(crate) fn partition_count_error(shown: &str) -> String {
    format!("{shown} takes an array and `kth` here")
}

/// Why the `kth` of `np.partition` (shown as `shown`), of type `kth`, is
/// refused: neither an integer nor a 1-D array of them.
pub(crate) fn kth_error(shown: &str, kth: Option<&Ty>) -> Option<String> {
    let int = |d: DType| kind(d) == Kind::Int;
    match kth {
        Some(Ty::Arr(k)) if k.ndim() == Some(1) && int(k.dtype) => None,
        Some(t) if t.scalar().is_some_and(|s| int(s.dtype)) => None,
        _ => Some(format!("the `kth` of {shown} is an integer or a 1-D array of them")),
    }
}

/// Why the `kind=` of an argsort (shown as `shown`) is refused: not a
/// kind NumPy names (each gives the stable order here).
pub(crate) fn sort_kind_error(hir: &hir::Body, keywords: &[hir::Keyword], shown: &str) -> Option<(TextRange, String)> {
    let k = keywords.iter().find(|k| k.name.as_deref() == Some("kind"))?;
    match &hir.exprs[k.value] {
        hir::Expr::None => None,
        hir::Expr::Literal(Lit::Str(kind)) if ["quicksort", "mergesort", "heapsort", "stable"].contains(&&**kind) => {
            None
        }
        _ => Some((
            hir.expr_ranges[k.value],
            format!(
                "the `kind` of {shown} is `'quicksort'`, `'mergesort'`, `'heapsort'` or `'stable'` (each gives the \
                 stable order here)"
            ),
        )),
    }
}

/// The array, the value and whether the side is `'right'` of
/// `np.searchsorted` (shown as `shown`) called with `args` and `keywords`
/// (`v=`, `side=` and `sorter=` at most, each once), or why compiled code
/// refuses them whatever their values: a sorter, a count of arguments,
/// one given twice, no value, a side that is not `'left'` or `'right'`.
pub(crate) fn searchsorted_form(
    hir: &hir::Body,
    args: &[hir::ExprId],
    keywords: &[hir::Keyword],
    shown: &str,
    call_at: TextRange,
) -> Result<(hir::ExprId, hir::ExprId, bool), (TextRange, String)> {
    let keyword = |name: &str| keywords.iter().find(|k| k.name.as_deref() == Some(name)).map(|k| k.value);
    if let Some(e) = keyword("sorter") {
        return Err((hir.expr_ranges[e], format!("{shown} takes no `sorter=` in compiled code: sort the array first")));
    }
    if args.is_empty() || args.len() > 3 {
        let message = format!("{shown} takes an array, a value and a side here, not {} arguments", args.len());
        return Err((call_at, message));
    }
    let v = match (keyword("v"), args.get(1)) {
        (Some(_), Some(&p)) => return Err((hir.expr_ranges[p], "the value `v` is given twice".into())),
        (k, p) => k.or(p.copied()).ok_or_else(|| (call_at, format!("{shown} takes the value to search for")))?,
    };
    let side = match (keyword("side"), args.get(2)) {
        (Some(_), Some(&p)) => return Err((hir.expr_ranges[p], "the side is given twice".into())),
        (k, p) => k.or(p.copied()),
    };
    let right = match side.map(|e| (e, &hir.exprs[e])) {
        None => false,
        Some((_, hir::Expr::Literal(Lit::Str(s)))) if s == "left" => false,
        Some((_, hir::Expr::Literal(Lit::Str(s)))) if s == "right" => true,
        Some((e, _)) => {
            return Err((hir.expr_ranges[e], format!("the side of {shown} is the string `'left'` or `'right'`")));
        }
    };
    Ok((args[0], v, right))
}

/// An array searched by `shown` that is not of one axis.
pub(crate) fn searched_axes_error(shown: &str) -> String {
    format!("{shown} searches an array of one axis")
}

/// Why `shown` refuses to search an array of `a` for the value `v`: a
/// tuple, text or complex numbers, a dtype of no common one with `a`'s.
pub(crate) fn searched_value_error(shown: &str, a: DType, v: &Ty) -> Option<String> {
    let s = match v {
        Ty::Arr(ty) => Scalar::strong(ty.dtype),
        Ty::Tuple(_) => return Some(format!("{shown} searches for a number here, not a tuple")),
        Ty::Num { s, .. } | Ty::Lit { s, .. } => *s,
    };
    if s.dtype.is_text() || s.dtype.is_complex() {
        return Some(format!("{shown} searches for real numbers here, not {}", s.dtype.name()));
    }
    promote(Scalar::strong(a), s).is_none().then(|| format!("{shown} of {} and {}", a.name(), s.dtype.name()))
}

/// The length of the runs sorted by insertion before the merge passes.
const INSERTION_RUN: i128 = 16;

/// What a merge sort orders: elements of `d`, or (with `keys`) Int64
/// indices by the elements of `d` of `keys` they index.
#[derive(Clone, Copy)]
struct Order {
    d: DType,
    keys: Option<ValueId>,
}

impl Order {
    /// The type of the elements moved.
    fn element(self) -> TypeId {
        match self.keys {
            None => TypeId::scalar(self.d),
            Some(_) => TypeId::INT64,
        }
    }
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// Whether `x` sorts before `y` (both of `d`) in NumPy's order.
    pub(super) fn sorts_before(&mut self, d: DType, x: ValueId, y: ValueId) -> ValueId {
        match kind(d) {
            // False < True: `!x and y`.
            Kind::Bool => {
                let nm = self.fresh("not");
                let not_x = self.b.unary(Opcode::Not, TypeId::BOOL, x, &nm);
                self.result(Opcode::And, DType::Bool, not_x, y)
            }
            Kind::Float => {
                // `x < y`, or `y` is NaN and `x` is not.
                let lt = self.result(Opcode::Lt, DType::Bool, x, y);
                let y_nan = self.result(Opcode::Ne, DType::Bool, y, y);
                let x_num = self.result(Opcode::Eq, DType::Bool, x, x);
                let nan_after = self.result(Opcode::And, DType::Bool, y_nan, x_num);
                self.result(Opcode::Or, DType::Bool, lt, nan_after)
            }
            _ => self.result(Opcode::Lt, DType::Bool, x, y),
        }
    }

    /// Opens a loop that runs while `cond` (built in its head) holds; the
    /// body goes into the current block, [`Self::while_close`] ends it.
    fn while_open(&mut self, cond: impl FnOnce(&mut Self) -> ValueId) -> (BlockId, BlockId) {
        let head = self.block("while");
        let body = self.block("while.body");
        let exit = self.block("while.end");
        self.br(head);
        self.enter(head);
        let more = cond(self);
        self.b.condbr(more, body, exit, None);
        self.enter(body);
        (head, exit)
    }

    fn while_close(&mut self, (head, exit): (BlockId, BlockId)) {
        self.br(head);
        self.enter(exit);
    }

    /// A mutable Int64 starting at `v`.
    fn counter(&mut self, v: ValueId, what: &str) -> ValueId {
        let nm = self.fresh(what);
        self.b.let_(TypeId::INT64, v, &nm)
    }

    fn index_const(&mut self, i: i128) -> ValueId {
        let nm = self.fresh("c");
        self.b.int(TypeId::INT64, i, &nm)
    }

    /// `x + 1` in Int64.
    pub(super) fn plus_one(&mut self, x: ValueId) -> ValueId {
        let one = self.index_const(1);
        self.result(Opcode::Add, DType::Int64, x, one)
    }

    /// The smaller of two Int64 values.
    fn min_int(&mut self, x: ValueId, y: ValueId) -> ValueId {
        let lt = self.result(Opcode::Lt, DType::Bool, x, y);
        let nm = self.fresh("min");
        self.b.select(TypeId::INT64, lt, x, y, &nm)
    }

    /// `np.sort(a)` or `a.sort()`.
    pub(super) fn sort_call(&mut self, f: NpFn, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &[], shown).is_none() {
            return Val::Err;
        }
        let Some((target, v, ty)) = self.sorted_array(f == NpFn::SortInPlace, shown, c) else { return Val::Err };
        if f == NpFn::SortInPlace && !ty.is_output && self.reads_input_memory(target) {
            // The typecheck checks the calls of NumPy's functions outside
            // GPU code only.
            return self.read_only_write(target, !self.decl.attrs.is_device());
        }
        self.at(&c.at);
        let (sorted, sorted_ty) = self.sorted_copy(v, ty.dtype, c);
        if f == NpFn::Sort {
            return Val::Arr { v: sorted, ty: sorted_ty };
        }
        let n = self.dims_of(v, &ty);
        let open = self.loops_open(&n, c);
        let nm = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(ty.dtype), sorted, &[open[0].i], &nm);
        self.b.index_store(v, &[open[0].i], x);
        self.loops_close(open, c);
        Val::Void
    }

    /// `np.partition(a, kth)`.
    pub(super) fn partition_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &[], shown).is_none() {
            return Val::Err;
        }
        let &[array, kth_e] = c.args else {
            return self.err(&c.at, partition_count_error(shown));
        };
        let Some((v, ty)) = self.numeric_array_arg(array, shown, false) else { return Val::Err };
        if ty.ndim() != Some(1) {
            return self.err(&self.range(array), one_axis_error(shown));
        }
        let kth_at = self.range(kth_e);
        let kth = self.expr(kth_e);
        self.at(&c.at);
        let nm = self.fresh("len");
        let n = self.b.dim(v, 0, &nm);
        match kth {
            Val::Arr { v: ks, ty: kty } if kty.ndim() == Some(1) && kind(kty.dtype) == Kind::Int => {
                let nm = self.fresh("count");
                let count = self.b.dim(ks, 0, &nm);
                let open = self.loops_open(&[count], c);
                let k = self.int64_element(&(ks, kty), &[open[0].i]);
                self.kth_in_bounds(k, n, &c.at);
                self.loops_close(open, c);
            }
            Val::Err => return Val::Err,
            k if k.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int) => {
                let Some(k) = self.materialize(&k, DType::Int64, &kth_at) else { return Val::Err };
                self.kth_in_bounds(k, n, &c.at);
            }
            k => {
                let message = kth_error(shown, k.ty().as_ref()).unwrap_or_default();
                return self.err(&kth_at, message);
            }
        }
        self.at(&c.at);
        let (sorted, sorted_ty) = self.sorted_copy(v, ty.dtype, c);
        Val::Arr { v: sorted, ty: sorted_ty }
    }

    /// Panics with NumPy's ValueError unless `k` (counted from the end
    /// when negative) indexes an array of `n` elements, or `n` is 0.
    fn kth_in_bounds(&mut self, k: ValueId, n: ValueId, at: &TextRange) {
        let (k, inside) = self.wrapped_index(k, n, at);
        let zero = self.int_const(0, at);
        let empty = self.result(Opcode::Eq, DType::Bool, n, zero);
        let ok = self.result(Opcode::Or, DType::Bool, inside, empty);
        self.panic_unless_with(ok, "ValueError: kth(={}) out of bounds ({})", &[k, n], at);
    }

    /// `np.argsort(a, kind=...)` or `a.argsort(kind=...)`: every `kind`
    /// NumPy names gives the stable order.
    pub(super) fn argsort_call(&mut self, f: NpFn, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &["kind"], shown).is_none() {
            return Val::Err;
        }
        if let Some((at, message)) = sort_kind_error(self.hir, c.keywords, shown) {
            return self.err(&at, message);
        }
        let method = f == NpFn::ArgSortMethod;
        let Some((_, v, ty)) = self.sorted_array(method, shown, c) else { return Val::Err };
        self.at(&c.at);
        let (indices, ty) = self.argsorted(v, ty.dtype, c);
        Val::Arr { v: indices, ty }
    }

    /// The 1-D array of numbers a sort or argsort of `c` takes: the
    /// receiver of a `method` (`a.sort()`, which takes no arguments), else
    /// the one argument; its expression and its lowered value. `None`
    /// after an error, reported.
    fn sorted_array(&mut self, method: bool, shown: &str, c: &CallExpr) -> Option<(hir::ExprId, ValueId, TypeData)> {
        let method_base = match self.hir.exprs[c.func] {
            hir::Expr::Attribute { base, .. } if method => Some(base),
            _ => None,
        };
        let target = match sorted_array_form(method_base, c.args, shown, c.at) {
            Ok(target) => target,
            Err((at, message)) => {
                self.err(&at, message);
                return None;
            }
        };
        let (v, ty) = self.numeric_array_arg(target, shown, false)?;
        if ty.ndim() != Some(1) {
            self.err(&self.range(target), one_axis_error(shown));
            return None;
        }
        Some((target, v, ty))
    }

    /// A new compact 1-D array of `src`'s elements (of `d`) in NumPy's
    /// order, by a bottom-up merge sort.
    pub(super) fn sorted_copy(&mut self, src: ValueId, d: DType, at: &CallExpr) -> (ValueId, TypeData) {
        let el = TypeId::scalar(d);
        let nm = self.fresh("len");
        let n = self.b.dim(src, 0, &nm);
        let (first, ty) = self.new_empty_array(d, &[(n, true)], at);
        let (scratch, _) = self.new_empty_array(d, &[(n, true)], at);
        let open = self.loops_open(&[n], at);
        let nm = self.fresh("el");
        let x = self.b.index_load(el, src, &[open[0].i], &nm);
        self.b.index_store(first, &[open[0].i], x);
        self.loops_close(open, at);
        self.merge_sort(first, scratch, n, Order { d, keys: None });
        (first, ty)
    }

    /// A new compact Int64 array of the indices that sort `src` (of `d`)
    /// in NumPy's order, equal elements in the order of their indices.
    fn argsorted(&mut self, src: ValueId, d: DType, at: &CallExpr) -> (ValueId, TypeData) {
        let nm = self.fresh("len");
        let n = self.b.dim(src, 0, &nm);
        let (first, ty) = self.new_empty_array(DType::Int64, &[(n, true)], at);
        let (scratch, _) = self.new_empty_array(DType::Int64, &[(n, true)], at);
        let open = self.loops_open(&[n], at);
        self.b.index_store(first, &[open[0].i], open[0].i);
        self.loops_close(open, at);
        self.merge_sort(first, scratch, n, Order { d, keys: Some(src) });
        (first, ty)
    }

    /// Sorts the compact `first` (`n` elements) by `order`, with `scratch`
    /// (as long) to merge into: runs sorted by insertion, then merged.
    fn merge_sort(&mut self, first: ValueId, scratch: ValueId, n: ValueId, order: Order) {
        let run = self.index_const(INSERTION_RUN);
        self.insertion_sort_runs(first, order, n, run);
        // Each pass merges pairs of sorted runs of `width` into runs of
        // twice that, from one array into the other; passes go in pairs,
        // so that the result is back in `first` (the second of a pair may
        // only copy, when one run already spans the array). Both arrays
        // stay values, not variables, so their extents and strides are
        // loop-invariant.
        let width = self.counter(run, "width");
        let passes = self.while_open(|s| s.result(Opcode::Lt, DType::Bool, width, n));
        for (from, to) in [(first, scratch), (scratch, first)] {
            self.merge_pass(from, to, order, n, width);
            let doubled = self.result(Opcode::Add, DType::Int64, width, width);
            self.b.set(width, doubled);
        }
        self.while_close(passes);
    }

    /// What `order` compares of the element `x` being sorted: `x` itself,
    /// or the key it indexes.
    fn key_of(&mut self, order: Order, x: ValueId) -> ValueId {
        match order.keys {
            None => x,
            Some(keys) => {
                let nm = self.fresh("key");
                self.b.index_load(TypeId::scalar(order.d), keys, &[x], &nm)
            }
        }
    }

    /// Merges each pair of neighbouring sorted runs of `width` elements of
    /// `from` (of `d`, `n` elements) into `to`. While both runs have
    /// elements, each step stores the one that goes first without a
    /// branch (a sort's comparisons are unpredictable): the right run's
    /// element only when it sorts strictly before the left one's, which
    /// keeps equal elements in order; the rest of either run is then
    /// copied.
    fn merge_pass(&mut self, from: ValueId, to: ValueId, order: Order, n: ValueId, width: ValueId) {
        let el = order.element();
        let zero = self.zero(DType::Int64);
        let lo = self.counter(zero, "lo");
        let runs = self.while_open(|s| s.result(Opcode::Lt, DType::Bool, lo, n));
        let lo_w = self.result(Opcode::Add, DType::Int64, lo, width);
        let mid = self.min_int(lo_w, n);
        let mid_w = self.result(Opcode::Add, DType::Int64, mid, width);
        let hi = self.min_int(mid_w, n);
        let i = self.counter(lo, "i");
        let j = self.counter(mid, "j");
        let k = self.counter(lo, "k");
        let both = self.while_open(|s| {
            let left = s.result(Opcode::Lt, DType::Bool, i, mid);
            let right = s.result(Opcode::Lt, DType::Bool, j, hi);
            s.result(Opcode::And, DType::Bool, left, right)
        });
        let nm = self.fresh("l");
        let l = self.b.index_load(el, from, &[i], &nm);
        let nm = self.fresh("r");
        let r = self.b.index_load(el, from, &[j], &nm);
        let (l_key, r_key) = (self.key_of(order, l), self.key_of(order, r));
        let right_first = self.sorts_before(order.d, r_key, l_key);
        let nm = self.fresh("next");
        let x = self.b.select(el, right_first, r, l, &nm);
        self.b.index_store(to, &[k], x);
        let i_next = self.plus_one(i);
        let j_next = self.plus_one(j);
        let nm = self.fresh("i");
        let i_step = self.b.select(TypeId::INT64, right_first, i, i_next, &nm);
        let nm = self.fresh("j");
        let j_step = self.b.select(TypeId::INT64, right_first, j_next, j, &nm);
        self.b.set(i, i_step);
        self.b.set(j, j_step);
        let k_next = self.plus_one(k);
        self.b.set(k, k_next);
        self.while_close(both);
        for (run, end) in [(i, mid), (j, hi)] {
            let rest = self.while_open(|s| s.result(Opcode::Lt, DType::Bool, run, end));
            let nm = self.fresh("el");
            let x = self.b.index_load(el, from, &[run], &nm);
            self.b.index_store(to, &[k], x);
            let run_next = self.plus_one(run);
            self.b.set(run, run_next);
            let k_next = self.plus_one(k);
            self.b.set(k, k_next);
            self.while_close(rest);
        }
        self.b.set(lo, hi);
        self.while_close(runs);
    }

    /// Sorts each run of `run` elements of the compact `arr` (of `d`, `n`
    /// elements; the last run may be shorter) in place by insertion, which
    /// on so few elements is cheaper than the merge passes it replaces.
    fn insertion_sort_runs(&mut self, arr: ValueId, order: Order, n: ValueId, run: ValueId) {
        let el = order.element();
        let zero = self.zero(DType::Int64);
        let start = self.counter(zero, "run");
        let runs = self.while_open(|s| s.result(Opcode::Lt, DType::Bool, start, n));
        let start_run = self.result(Opcode::Add, DType::Int64, start, run);
        let end = self.min_int(start_run, n);
        let second = self.plus_one(start);
        let i = self.counter(second, "i");
        let inserting = self.while_open(|s| s.result(Opcode::Lt, DType::Bool, i, end));
        let nm = self.fresh("x");
        let x = self.b.index_load(el, arr, &[i], &nm);
        let x_key = self.key_of(order, x);
        let j = self.counter(i, "j");
        // Shift the elements that `x` sorts strictly before one place up
        // (equal ones stay before it: the sort is stable).
        let head = self.block("shift");
        let compare = self.block("shift.compare");
        let shift = self.block("shift.body");
        let done = self.block("shift.end");
        self.br(head);
        self.enter(head);
        let more = self.result(Opcode::Gt, DType::Bool, j, start);
        self.b.condbr(more, compare, done, None);
        self.enter(compare);
        let minus_one = self.index_const(-1);
        let below = self.result(Opcode::Add, DType::Int64, j, minus_one);
        let nm = self.fresh("prev");
        let prev = self.b.index_load(el, arr, &[below], &nm);
        let prev_key = self.key_of(order, prev);
        let x_first = self.sorts_before(order.d, x_key, prev_key);
        self.b.condbr(x_first, shift, done, None);
        self.enter(shift);
        self.b.index_store(arr, &[j], prev);
        self.b.set(j, below);
        self.br(head);
        self.enter(done);
        self.b.index_store(arr, &[j], x);
        let next = self.plus_one(i);
        self.b.set(i, next);
        self.while_close(inserting);
        self.b.set(start, end);
        self.while_close(runs);
    }

    /// `np.searchsorted(a, v, side)`.
    pub(super) fn searchsorted_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &["v", "side", "sorter"], shown).is_none() {
            return Val::Err;
        }
        let (array, v_expr, right) = match searchsorted_form(self.hir, c.args, c.keywords, shown, c.at) {
            Ok(form) => form,
            Err((at, message)) => return self.err(&at, message),
        };
        let Some((a, a_ty)) = self.numeric_array_arg(array, shown, false) else { return Val::Err };
        if a_ty.ndim() != Some(1) {
            return self.err(&self.range(array), searched_axes_error(shown));
        }
        let value = self.expr(v_expr);
        let v_expr = &self.range(v_expr);
        let v_ty = match &value {
            Val::Err | Val::None | Val::Maybe { .. } => return Val::Err,
            Val::Void => return self.err(v_expr, "this call returns nothing"),
            // A tuple is refused whatever its elements.
            v => v.ty().unwrap_or(Ty::Tuple(Vec::new())),
        };
        if let Some(message) = searched_value_error(shown, a_ty.dtype, &v_ty) {
            return self.err(v_expr, message);
        }
        let Some(v_s) = (match &v_ty {
            Ty::Arr(ty) => Some(Scalar::strong(ty.dtype)),
            t => t.scalar(),
        }) else {
            return Val::Err;
        };
        let Some(common) = promote(Scalar::strong(a_ty.dtype), v_s) else { return Val::Err };
        let d = common.dtype;
        self.at(&c.at);
        let nm = self.fresh("len");
        let n = self.b.dim(a, 0, &nm);
        match value {
            Val::Arr { v, ty } => {
                let dims = self.dims_of(v, &ty);
                let kept: Vec<(ValueId, bool)> = dims.iter().map(|&x| (x, true)).collect();
                let (out, out_ty) = self.new_empty_array(DType::Int64, &kept, c);
                let open = self.loops_open(&dims, c);
                let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
                let x = self.load(&(v, ty.clone()), &idx, c.at);
                let Some(x) = self.materialize(&x, d, c) else { return Val::Err };
                let at = self.search(a, a_ty.dtype, n, x, d, right);
                self.b.index_store(out, &idx, at);
                self.loops_close(open, c);
                Val::Arr { v: out, ty: out_ty }
            }
            scalar => {
                let Some(x) = self.materialize(&scalar, d, v_expr) else { return Val::Err };
                self.at(&c.at);
                let v = self.search(a, a_ty.dtype, n, x, d, right);
                Val::Num { v, s: Scalar::strong(DType::Int64), nonneg: true }
            }
        }
    }

    /// The index at which `x` (of `d`) would go into the sorted `a` (of
    /// `a_d`, `n` elements): before the first element not before it
    /// (`left`) or after the last one not after it (`right`).
    pub(super) fn search(&mut self, a: ValueId, a_d: DType, n: ValueId, x: ValueId, d: DType, right: bool) -> ValueId {
        let zero = self.zero(DType::Int64);
        let lo = self.counter(zero, "lo");
        let hi = self.counter(n, "hi");
        let halving = self.while_open(|s| s.result(Opcode::Lt, DType::Bool, lo, hi));
        let sum = self.result(Opcode::Add, DType::Int64, lo, hi);
        let one = self.index_const(1);
        let mid = self.result(Opcode::Shr, DType::Int64, sum, one);
        let nm = self.fresh("el");
        let el = self.b.index_load(TypeId::scalar(a_d), a, &[mid], &nm);
        let el = if a_d == d {
            el
        } else {
            let nm = self.fresh("el");
            self.b.cast(TypeId::scalar(d), el, &nm)
        };
        // Go right of `mid` when its element belongs before `x`.
        let go_right = if right {
            let after = self.sorts_before(d, x, el);
            let nm = self.fresh("not");
            self.b.unary(Opcode::Not, TypeId::BOOL, after, &nm)
        } else {
            self.sorts_before(d, el, x)
        };
        let past_mid = self.plus_one(mid);
        let nm = self.fresh("lo");
        let new_lo = self.b.select(TypeId::INT64, go_right, past_mid, lo, &nm);
        let nm = self.fresh("hi");
        let new_hi = self.b.select(TypeId::INT64, go_right, hi, mid, &nm);
        self.b.set(lo, new_lo);
        self.b.set(hi, new_hi);
        self.while_close(halving);
        let nm = self.fresh("found");
        self.b.let_(TypeId::INT64, lo, &nm)
    }
}
