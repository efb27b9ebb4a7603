//! NumPy's basic slicing, lowered onto the IR's `view` (docs/python.md,
//! "Slicing"): index expressions of integers, slices, `None` and `...`
//! (`a[i]` of a 2-D array, `a[:, j]`, `a[lo:hi:st]`), and `a.T` /
//! `a.transpose()` / `np.transpose(a)`. A view shares its base's memory;
//! a view of an input array is read-only, as the input is (see
//! `read_only.rs`).
//!
//! Assigning to a view (`a[:, j] = 0.0`, `a[1:] = a[:-1]`) stores a
//! number in every element, or copies an array broadcast to its shape.
//!
//! `a.ravel()` is a view of a C-contiguous array and a copy of any other;
//! `a.reshape(shape)` is a view of that, with the new extents and C-order
//! strides, so it copies exactly when NumPy's would have to (`a` not
//! C-contiguous at run time). `a.flatten()` always copies.
//!
//! Augmented assignment to a slice (`a[1:] += b`) is the in-place
//! operator of `elementwise.rs` on the view.
//!
//! Not here (a located error names each): `reshape` with `order=`,
//! `transpose` with axes, and advanced indexing (arrays or lists as
//! indices).

use super::*;
use postc_ir::{Layout, Shape};

/// A tuple of numbers of no common dtype assigned to a slice.
pub(crate) const TUPLE_OF_NO_DTYPE: &str = "the numbers of this tuple have no common dtype";

/// What is not a number, an array or a tuple of numbers assigned to a
/// slice.
pub(crate) const NOT_ASSIGNED_TO_A_SLICE: &str =
    "only a number, an array or a tuple of numbers can be assigned to a slice";

/// An array (or a tuple, made one) assigned to a slice in GPU code.
pub(crate) const SLICE_COPY_IN_GPU: &str =
    "assigning an array to a slice copies it, which GPU code cannot: assign the elements";

/// One entry of an index expression, after `...` is expanded, with its
/// operands lowered (CPython evaluates the whole index before NumPy
/// checks any of it).
#[derive(Clone, Copy)]
enum Entry {
    /// An integer: takes one element along its axis and drops the axis.
    Int(ValueId),
    /// `lo:hi:st` (each part `None` when omitted; all of them for a `:`
    /// that `...` or a missing trailing entry stands for).
    Slice(SliceParts),
    /// `None`: a new axis of extent 1.
    NewAxis,
}

/// The lowered bounds and step of a slice; the step with its value when
/// written as a literal.
#[derive(Clone, Copy, Default)]
struct SliceParts {
    lo: Option<ValueId>,
    hi: Option<ValueId>,
    step: Option<(ValueId, Option<i128>)>,
}

/// The entries `a[...]` is indexed with (the index `index` of `hir`), as
/// written.
pub(super) fn written_entries(hir: &hir::Body, index: hir::ExprId) -> Vec<hir::ExprId> {
    match &hir.exprs[index] {
        hir::Expr::Tuple(elts) => elts.to_vec(),
        _ => vec![index],
    }
}

/// Whether an index expression of an array of `ndim` axes makes a view
/// (a slice, `None`, `...`, or fewer entries than axes) rather than naming
/// one element.
pub(crate) fn makes_view(hir: &hir::Body, index: hir::ExprId, ndim: Option<usize>) -> bool {
    let entries = written_entries(hir, index);
    let special = (entries.iter())
        .any(|&e| matches!(hir.exprs[e], hir::Expr::Slice { .. } | hir::Expr::None | hir::Expr::Ellipsis));
    special || ndim.is_some_and(|n| entries.len() < n)
}

/// A subscript that [`makes_view`] holds for: a view, or (every entry an
/// integer once `...` is expanded) one element.
pub(super) enum Viewed {
    View(Val),
    Element(Vec<ValueId>),
}

/// The extents `a.reshape(...)`, `np.reshape(a, shape)` (shown as
/// `shown`, `method` for the first; `args` starts with `a`) writes, or
/// why compiled code refuses the call whatever their values: no shape,
/// the shape `()`.
pub(crate) fn reshape_extents(
    hir: &hir::Body,
    method: bool,
    args: &[hir::ExprId],
    shown: &str,
    call_at: TextRange,
) -> Result<Vec<hir::ExprId>, (TextRange, String)> {
    let written: Vec<hir::ExprId> = match args {
        &[_, shape] if matches!(hir.exprs[shape], hir::Expr::Tuple(_) | hir::Expr::List(_)) => {
            let (hir::Expr::Tuple(elts) | hir::Expr::List(elts)) = &hir.exprs[shape] else { return Ok(Vec::new()) };
            elts.to_vec()
        }
        [_, rest @ ..] if !rest.is_empty() && (method || rest.len() == 1) => rest.to_vec(),
        _ => {
            let wanted = if method { "a shape" } else { "an array and a shape" };
            return Err((call_at, format!("{shown} takes {wanted}")));
        }
    };
    if written.is_empty() {
        return Err((
            call_at,
            format!("{shown} makes arrays of one axis or more here: the shape `()` is not supported"),
        ));
    }
    Ok(written)
}

/// An extent given to a reshape, as messages name it.
pub(crate) const RESHAPED_EXTENT: &str = "an extent of a shape";

/// A reshape of an array of the text dtype `d`.
pub(crate) fn text_reshaped_error(d: DType) -> String {
    format!("an array of {} cannot be reshaped in compiled code", d.name())
}

impl FnLower<'_, '_> {
    /// `a[e_0, ..., e_m]` (the subscript `s`) of the array `(av, ty)` where
    /// `makes_view` holds: a view, or the element itself when every entry
    /// after expanding `...` is an integer.
    pub(super) fn view_subscript(&mut self, av: ValueId, ty: &TypeData, s: hir::ExprId) -> Val {
        match self.view_or_element(av, ty, s) {
            Viewed::Element(idx) => self.load(&(av, ty.clone()), &idx, self.range(s)),
            Viewed::View(v) => v,
        }
    }

    /// What [`FnLower::view_subscript`] reads: the view, or the indices of
    /// the element (checked) when every entry is an integer.
    pub(super) fn view_or_element(&mut self, av: ValueId, ty: &TypeData, s: hir::ExprId) -> Viewed {
        let hir = self.hir;
        let hir::Expr::Subscript { base, index } = hir.exprs[s] else { unreachable!("a subscript") };
        let Some(nd) = ty.ndim() else {
            return Viewed::View(self.err(&self.range(base), "the number of axes of this array is not known"));
        };
        let written = written_entries(hir, index);
        let ellipses = written.iter().filter(|&&e| matches!(hir.exprs[e], hir::Expr::Ellipsis)).count();
        if ellipses > 1 {
            return Viewed::View(self.err(&self.range(index), typeck::ONE_ELLIPSIS));
        }
        let axes_named =
            written.iter().filter(|&&e| !matches!(hir.exprs[e], hir::Expr::None | hir::Expr::Ellipsis)).count();
        if axes_named > nd {
            return Viewed::View(self.err(&self.range(index), typeck::too_many_indices(nd, axes_named)));
        }
        let mut entries: Vec<Entry> = Vec::new();
        let mut failed = false;
        for &e in &written {
            match hir.exprs[e] {
                hir::Expr::Slice { .. } => match self.slice_parts(e) {
                    Some(parts) => entries.push(Entry::Slice(parts)),
                    None => failed = true,
                },
                hir::Expr::None => entries.push(Entry::NewAxis),
                hir::Expr::Ellipsis => {
                    entries.extend((0..nd - axes_named).map(|_| Entry::Slice(SliceParts::default())))
                }
                _ => match self.int_operand(e, "an index") {
                    Some(i) => entries.push(Entry::Int(i)),
                    None => failed = true,
                },
            }
        }
        if failed {
            return Viewed::View(Val::Err);
        }
        if ellipses == 0 {
            entries.extend((0..nd - axes_named).map(|_| Entry::Slice(SliceParts::default())));
        }

        let every_int = entries.iter().all(|e| matches!(e, Entry::Int(_)));
        let at = self.range(s);
        let mut idx = Vec::new();
        let zero = self.int_const(0, &at);
        let mut offset = zero;
        let (mut extents, mut strides) = (Vec::new(), Vec::new());
        let mut axis = 0u32;
        for entry in entries {
            match entry {
                Entry::Int(i) => {
                    let i = self.checked_index(av, axis, i, at);
                    if every_int {
                        idx.push(i);
                    } else {
                        let st = self.named_axis_value(av, axis, true, &at);
                        let step = self.result(Opcode::Mul, DType::Int64, i, st);
                        offset = self.result(Opcode::Add, DType::Int64, offset, step);
                    }
                    axis += 1;
                }
                Entry::Slice(parts) => {
                    let (start, len, step) = self.normalised_slice(av, axis, parts, at);
                    let st = self.named_axis_value(av, axis, true, &at);
                    let skip = self.result(Opcode::Mul, DType::Int64, start, st);
                    offset = self.result(Opcode::Add, DType::Int64, offset, skip);
                    extents.push(len);
                    strides.push(self.result(Opcode::Mul, DType::Int64, step, st));
                    axis += 1;
                }
                Entry::NewAxis => {
                    extents.push(self.int_const(1, &at));
                    strides.push(zero);
                }
            }
        }
        if every_int {
            return Viewed::Element(idx);
        }
        Viewed::View(self.make_view(av, ty, offset, &extents, &strides, &at))
    }

    /// Step `k` of `for x in a`: the element `a[k]` of a 1-D array, the
    /// view `a[k]` (a row, without a bounds check: `k` counts below the
    /// extent) of a 2-D or higher one.
    pub(super) fn iteration_value(&mut self, a: &(ValueId, TypeData), k: ValueId, at: TextRange) -> Val {
        let (av, ty) = a;
        let nd = ty.ndim().unwrap_or(1);
        if nd == 1 {
            return self.load(a, &[k], at);
        }
        let at = &at;
        let s0 = self.named_axis_value(*av, 0, true, at);
        let offset = self.result(Opcode::Mul, DType::Int64, k, s0);
        let (mut extents, mut strides) = (Vec::new(), Vec::new());
        for axis in 1..nd as u32 {
            extents.push(self.named_axis_value(*av, axis, false, at));
            strides.push(self.named_axis_value(*av, axis, true, at));
        }
        self.make_view(*av, ty, offset, &extents, &strides, at)
    }

    /// `a.ravel()`: the elements in C order, 1-D. A view of `a` when `a`
    /// is C-contiguous (every axis of two elements or more has the stride
    /// of the axes after it, or `a` is empty), else a copy, as NumPy
    /// makes. Both arms are computed without branching on `a`'s layout
    /// but for the final choice: the copy's loops run zero times, and the
    /// arm not taken is an empty view, which is always valid.
    pub(super) fn raveled(&mut self, av: ValueId, ty: &TypeData, at: &impl Ranged) -> Val {
        let Some(nd) = ty.ndim() else {
            return self.err(at, "the number of axes of this array is not known");
        };
        if ty.dtype.is_text() {
            return self.err(at, format!("an array of {} cannot be raveled in compiled code", ty.dtype.name()));
        }
        let dims = self.dims_of(av, ty);
        let zero = self.int_const(0, at);
        let one = self.int_const(1, at);
        let elsize = self.int_const(i64::from(ty.dtype.size_bytes()), at);
        let (mut size, mut block) = (one, elsize);
        let mut contiguous = self.bool_const(true, at);
        for axis in (0..nd).rev() {
            let n = dims[axis];
            let st = self.named_axis_value(av, axis as u32, true, at);
            let single = self.result(Opcode::Le, DType::Bool, n, one);
            let packed = self.result(Opcode::Eq, DType::Bool, st, block);
            let fits = self.result(Opcode::Or, DType::Bool, single, packed);
            contiguous = self.result(Opcode::And, DType::Bool, contiguous, fits);
            block = self.result(Opcode::Mul, DType::Int64, block, n);
            size = self.result(Opcode::Mul, DType::Int64, size, n);
        }
        let empty = self.result(Opcode::Eq, DType::Bool, size, zero);
        let contiguous = self.result(Opcode::Or, DType::Bool, contiguous, empty);
        // The copy: as long as `a` when it is needed, else empty.
        let copy_len = self.select_int(contiguous, zero, size);
        let copy = self.new_array(ty.dtype, &[(copy_len, true)], at);
        let mut loop_dims = dims.clone();
        loop_dims[0] = self.select_int(contiguous, zero, dims[0]);
        self.copy_in_c_order(av, ty, &loop_dims, copy.0, at);
        // Each arm a view; the one not taken is empty.
        let view_len = self.select_int(contiguous, size, zero);
        let Val::Arr { v: of_a, ty: vty } = self.make_view(av, ty, zero, &[view_len], &[elsize], at) else {
            return Val::Err;
        };
        let mut copy_ty = copy.1.clone();
        copy_ty.is_output = ty.is_output;
        let Val::Arr { v: of_copy, .. } = self.make_view(copy.0, &copy_ty, zero, &[copy_len], &[elsize], at) else {
            return Val::Err;
        };
        let tid = self.types.intern(vty.clone());
        let name = self.fresh("raveled");
        let r = self.b.let_(tid, of_copy, &name);
        let take_view = self.block("ravel.view");
        let join = self.block("ravel.done");
        self.b.condbr(contiguous, take_view, join, None);
        self.enter(take_view);
        self.b.set(r, of_a);
        self.br(join);
        self.enter(join);
        Val::Arr { v: r, ty: vty }
    }

    /// Stores the elements of `av` over the extents `dims` (its own, or
    /// none) one after another, in C order, into the 1-D array `dst`.
    fn copy_in_c_order(&mut self, av: ValueId, ty: &TypeData, dims: &[ValueId], dst: ValueId, at: &impl Ranged) {
        let zero = self.int_const(0, at);
        let one = self.int_const(1, at);
        let name = self.fresh("flat");
        let flat = self.b.let_(TypeId::INT64, zero, &name);
        let open = self.loops_open(dims, at);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let name = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(ty.dtype), av, &idx, &name);
        self.b.index_store(dst, &[flat], x);
        let next = self.result(Opcode::Add, DType::Int64, flat, one);
        self.b.set(flat, next);
        self.loops_close(open, at);
    }

    /// `a.flatten()`: a new 1-D array of `a`'s elements in C order.
    pub(super) fn flattened(&mut self, av: ValueId, ty: &TypeData, at: &impl Ranged) -> Val {
        if ty.ndim().is_none() {
            return self.err(at, "the number of axes of this array is not known");
        }
        if ty.dtype.is_text() {
            return self.err(at, format!("an array of {} cannot be flattened in compiled code", ty.dtype.name()));
        }
        let dims = self.dims_of(av, ty);
        let mut size = self.int_const(1, at);
        for &n in &dims {
            size = self.result(Opcode::Mul, DType::Int64, size, n);
        }
        let copy = self.new_array(ty.dtype, &[(size, true)], at);
        self.copy_in_c_order(av, ty, &dims, copy.0, at);
        Val::Arr { v: copy.0, ty: copy.1 }
    }

    /// `a.reshape(d0, d1, ...)`, `a.reshape((d0, d1, ...))`,
    /// `np.reshape(a, shape)` (the call at `c`); `args` starts with `a`.
    pub(super) fn reshape_call(&mut self, shown: &str, method: bool, args: &[hir::ExprId], c: TextRange) -> Val {
        let hir = self.hir;
        let c = &c;
        let written = match reshape_extents(hir, method, args, shown, *c) {
            Ok(written) => written,
            Err((at, message)) => return self.err(&at, message),
        };
        let (av, ty) = match self.expr(args[0]) {
            Val::Arr { v, ty } => (v, ty),
            Val::Err => return Val::Err,
            _ => return self.err(&self.range(args[0]), format!("{shown} takes an array")),
        };
        let mut entries = Vec::new();
        for &e in &written {
            let v = self.int_operand(e, RESHAPED_EXTENT);
            entries.push(v.map(|v| (v, literal_int(hir, e))));
        }
        let Some(entries) = entries.into_iter().collect::<Option<Vec<_>>>() else { return Val::Err };
        if ty.ndim().is_none() {
            return self.err(&self.range(args[0]), "the number of axes of this array is not known");
        }
        if ty.dtype.is_text() {
            return self.err(c, text_reshaped_error(ty.dtype));
        }
        self.reshaped(av, &ty, &entries, c)
    }

    /// `a` reshaped to `entries` (each extent with its literal value when
    /// written as one). As NumPy: a negative extent is the one unknown,
    /// `size / (product of the others)`; more than one, or a product that
    /// does not give `a`'s size, panics with NumPy's ValueError. The
    /// result is a view of `a.ravel()` with C-order strides.
    fn reshaped(&mut self, av: ValueId, ty: &TypeData, entries: &[(ValueId, Option<i128>)], at: &impl Ranged) -> Val {
        let zero = self.int_const(0, at);
        let one = self.int_const(1, at);
        let mut size = one;
        for n in self.dims_of(av, ty) {
            size = self.result(Opcode::Mul, DType::Int64, size, n);
        }
        // The unknowns counted, and the product of the known extents, with
        // whether it overflowed (then no unknown extent can make it fit).
        let mut unknowns = zero;
        let mut known = one;
        let mut overflow = self.bool_const(false, at);
        let max = self.int_const(i64::MAX, at);
        let mut negative = Vec::new();
        for &(e, _) in entries {
            let neg = self.result(Opcode::Lt, DType::Bool, e, zero);
            let counted = self.select_int(neg, one, zero);
            unknowns = self.result(Opcode::Add, DType::Int64, unknowns, counted);
            let factor = self.select_int(neg, one, e);
            let positive = self.result(Opcode::Gt, DType::Bool, factor, zero);
            let divisor = self.select_int(positive, factor, one);
            let room = self.result(Opcode::FDiv, DType::Int64, max, divisor);
            let too_big = self.result(Opcode::Gt, DType::Bool, known, room);
            overflow = self.result(Opcode::Or, DType::Bool, overflow, too_big);
            // Not multiplied once it would overflow (the -O0 overflow check
            // would panic first, with the wrong message).
            let factor = self.select_int(too_big, one, factor);
            known = self.result(Opcode::Mul, DType::Int64, known, factor);
            negative.push(neg);
        }
        let single = self.result(Opcode::Le, DType::Bool, unknowns, one);
        self.panic_unless(single, "ValueError: can only specify one unknown dimension", at);
        let has_unknown = self.result(Opcode::Eq, DType::Bool, unknowns, one);
        let known_nonzero = self.result(Opcode::Ne, DType::Bool, known, zero);
        let divisor = self.select_int(known_nonzero, known, one);
        let unknown = self.result(Opcode::FDiv, DType::Int64, size, divisor);
        let whole = self.result(Opcode::Mul, DType::Int64, unknown, known);
        let divides = self.result(Opcode::Eq, DType::Bool, whole, size);
        let divides = self.result(Opcode::And, DType::Bool, divides, known_nonzero);
        let equal = self.result(Opcode::Eq, DType::Bool, known, size);
        let name = self.fresh("fits");
        let fits = self.b.select(TypeId::BOOL, has_unknown, divides, equal, &name);
        let never = self.bool_const(false, at);
        let name = self.fresh("reshape.ok");
        let ok = self.b.select(TypeId::BOOL, overflow, never, fits, &name);
        // NumPy writes the unknown extent as `newaxis`: a literal one in
        // the message itself, one known only at run time by a message per
        // entry that could be it (at most one is, else the panic above).
        let fail = self.block("reshape.fail");
        let cont = self.block("reshape.ok");
        self.b.condbr(ok, cont, fail, None);
        self.enter(fail);
        let is_unknown = |k: usize, unknown: Option<usize>| unknown == Some(k) || entries[k].1.is_some_and(|x| x < 0);
        let message = |unknown: Option<usize>| {
            let shown: Vec<&str> =
                (0..entries.len()).map(|k| if is_unknown(k, unknown) { "newaxis" } else { "{}" }).collect();
            // NumPy leaves out an unknown first extent, and the comma of a
            // shape of one axis after it: `(-1, 5)` shows as `(5)`.
            let shape = match shown.split_first() {
                Some((&"newaxis", rest)) => format!("({})", rest.join(",")),
                _ if shown.len() == 1 => format!("({},)", shown[0]),
                _ => format!("({})", shown.join(",")),
            };
            format!("ValueError: cannot reshape array of size {{}} into shape {shape}")
        };
        let values = |unknown: Option<usize>| {
            let known = (0..entries.len()).filter(|&k| !is_unknown(k, unknown)).map(|k| entries[k].0);
            std::iter::once(size).chain(known).collect::<Vec<_>>()
        };
        for (k, &(e, lit)) in entries.iter().enumerate() {
            if lit.is_none() {
                let known_here = self.result(Opcode::Ge, DType::Bool, e, zero);
                self.panic_unless_with(known_here, &message(Some(k)), &values(Some(k)), at);
            }
        }
        self.panic_unless_with(never, &message(None), &values(None), at);
        self.br(cont);
        self.enter(cont);
        let elsize = self.int_const(i64::from(ty.dtype.size_bytes()), at);
        let extents: Vec<ValueId> =
            entries.iter().zip(&negative).map(|(&(e, _), &neg)| self.select_int(neg, unknown, e)).collect();
        let mut strides = vec![elsize; extents.len()];
        let mut block = elsize;
        for k in (0..extents.len()).rev() {
            strides[k] = block;
            block = self.result(Opcode::Mul, DType::Int64, block, extents[k]);
        }
        let Val::Arr { v: flat, ty: flat_ty } = self.raveled(av, ty, at) else { return Val::Err };
        self.make_view(flat, &flat_ty, zero, &extents, &strides, at)
    }

    /// `a.T`, `a.transpose()`: the axes reversed.
    pub(super) fn transposed(&mut self, av: ValueId, ty: &TypeData, at: &impl Ranged) -> Val {
        let Some(nd) = ty.ndim() else {
            return self.err(at, "the number of axes of this array is not known");
        };
        let zero = self.int_const(0, at);
        let (mut extents, mut strides) = (Vec::new(), Vec::new());
        for axis in (0..nd as u32).rev() {
            extents.push(self.named_axis_value(av, axis, false, at));
            strides.push(self.named_axis_value(av, axis, true, at));
        }
        self.make_view(av, ty, zero, &extents, &strides, at)
    }

    /// `a[view index] = v`: a scalar is stored in every element of the
    /// view; an array is broadcast to the view's shape (NumPy's rules: the
    /// trailing axes line up, an extent 1 repeats) and copied through a
    /// temporary, so that overlapping operands (`a[1:] = a[:-1]`) give
    /// NumPy's result, which copies them too. An index of integers and
    /// `...` standing for no axis (`r[..., 0, 0]` of a 2-D `r`) stores the
    /// one element.
    pub(super) fn assign_to_view(&mut self, s: hir::ExprId, v: Val) {
        let hir::Expr::Subscript { base, .. } = self.hir.exprs[s] else { unreachable!("a subscript") };
        let Some((av, ty)) = self.sliced_array(s) else { return };
        if !ty.is_output && self.reads_input_memory(base) {
            self.read_only_write(base, true);
            return;
        }
        let target = self.range(s);
        let dst = match self.view_or_element(av, &ty, s) {
            Viewed::View(Val::Arr { v, ty }) => (v, ty),
            // `r[..., 0, 0] = x` of a 2-D `r`: `...` stands for no axis.
            Viewed::Element(idx) => return self.store(&(av, ty), &idx, v, target),
            Viewed::View(_) => return,
        };
        match v {
            Val::Arr { v, ty } => self.copy_broadcast(&dst, (v, ty), target),
            Val::Err => {}
            v if v.scalar().is_some_and(|sc| sc.dtype.is_text()) => {
                self.err(&target, typeck::assignments::TEXT_IN_A_VIEW);
            }
            v if v.scalar().is_some() => self.fill(&dst, v, &target),
            // `a[i, 0:2] = f(x)` of a tuple of numbers: the 1-D array
            // NumPy makes of it, broadcast as any array is.
            Val::Tuple(elts) if !elts.is_empty() && elts.iter().all(|e| e.scalar().is_some()) => {
                let scalars = elts.iter().filter_map(Val::scalar);
                let Some(d) = npfuncs::array_of_dtype(None, scalars) else {
                    self.err(&target, TUPLE_OF_NO_DTYPE);
                    return;
                };
                let n = elts.len();
                let vals = elts.into_iter().map(|e| (e, target)).collect();
                if let Some(src) = self.array_of_elements(d, &[n], vals, &target) {
                    self.copy_broadcast(&dst, src, target);
                }
            }
            _ => {
                self.err(&target, NOT_ASSIGNED_TO_A_SLICE);
            }
        }
    }

    /// The array the subscript `s` slices, `None` when it is not one
    /// (reported).
    pub(super) fn sliced_array(&mut self, s: hir::ExprId) -> Option<(ValueId, TypeData)> {
        let hir::Expr::Subscript { base, .. } = self.hir.exprs[s] else { unreachable!("a subscript") };
        match self.expr(base) {
            Val::Arr { v, ty } => Some((v, ty)),
            Val::Err => None,
            _ => {
                self.err(&self.range(base), typeck::assignments::ONLY_ARRAYS_SLICED);
                None
            }
        }
    }

    /// Copies `src` into `dst` with NumPy's broadcasting (see
    /// `assign_to_view`), panicking with NumPy's ValueError when the shapes
    /// do not broadcast.
    fn copy_broadcast(&mut self, dst: &(ValueId, TypeData), src: (ValueId, TypeData), at: TextRange) {
        let at = &at;
        let (Some(dr), Some(sr)) = (dst.1.ndim(), src.1.ndim()) else {
            self.err(at, "the number of axes of this array is not known");
            return;
        };
        if sr > dr {
            self.err(at, typeck::assignments::view_rank_error(sr, dr));
            return;
        }
        if let Some(message) = typeck::assignments::copy_dtype_error(src.1.dtype, dst.1.dtype) {
            self.err(at, message);
            return;
        }
        if self.decl.attrs.is_device() {
            self.err(at, SLICE_COPY_IN_GPU);
            return;
        }
        let dst_dims = self.dims_of(dst.0, &dst.1);
        let src_dims = self.dims_of(src.0, &src.1);
        // Each source extent equals the one it lines up with, or is 1.
        let one = self.int_const(1, at);
        let mut ok = self.bool_const(true, at);
        for (k, &n) in src_dims.iter().enumerate() {
            let same = self.result(Opcode::Eq, DType::Bool, n, dst_dims[dr - sr + k]);
            let single = self.result(Opcode::Eq, DType::Bool, n, one);
            let fits = self.result(Opcode::Or, DType::Bool, same, single);
            ok = self.result(Opcode::And, DType::Bool, ok, fits);
        }
        let shape = |r: usize| match r {
            1 => "({},)".to_owned(),
            r => format!("({})", vec!["{}"; r].join(",")),
        };
        let msg =
            format!("ValueError: could not broadcast input array from shape {} into shape {}", shape(sr), shape(dr));
        let args: Vec<ValueId> = src_dims.iter().chain(&dst_dims).copied().collect();
        self.panic_unless_with(ok, &msg, &args, at);
        // The source, copied first: it may share memory with `dst`.
        let temp = self.copy_of(src.0, &src.1, at);
        let open = self.loops_open(&dst_dims, at);
        let zero = self.int_const(0, at);
        let mut from = Vec::new();
        for (k, &n) in src_dims.iter().enumerate() {
            let single = self.result(Opcode::Eq, DType::Bool, n, one);
            from.push(self.select_int(single, zero, open[dr - sr + k].i));
        }
        let x = self.load(&temp, &from, *at);
        let to: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        self.store(dst, &to, x, *at);
        self.loops_close(open, at);
    }

    /// The view of `av` with `offset`, `extents` and `strides` (bytes),
    /// writable exactly when `av` is. Every caller makes a view that lies
    /// within `av` by construction (an integer index is checked with
    /// IndexError first, slice bounds are clamped as Python clamps them, a
    /// row of `for x in a` counts below the extent, and `a.T`, `ravel` and
    /// `reshape` span exactly their base; `keepdims` views of a reduction's
    /// result add only axes of extent 1), so it is a `view.inbounds`,
    /// which `insert-checks` does not check again.
    pub(super) fn make_view(
        &mut self,
        av: ValueId,
        ty: &TypeData,
        offset: ValueId,
        extents: &[ValueId],
        strides: &[ValueId],
        at: &impl Ranged,
    ) -> Val {
        if ty.dtype.is_text() {
            return self.err(at, format!("an array of {} cannot be sliced in compiled code", ty.dtype.name()));
        }
        let mut vty = TypeData::array(ty.dtype, Shape::dims(&vec![None; extents.len()]), Layout::COrder);
        vty.is_output = ty.is_output;
        let tid = self.types.intern(vty.clone());
        self.at(at);
        let n = self.fresh("view");
        let v = self.b.view_of(Opcode::ViewInBounds, tid, av, offset, extents, strides, &n);
        Val::Arr { v, ty: vty }
    }

    pub(super) fn int_const(&mut self, x: i64, at: &impl Ranged) -> ValueId {
        self.at(at);
        let n = self.fresh("c");
        self.b.const_(TypeId::INT64, Literal::Int(x as i128), &n)
    }

    /// The extent (or, with `stride`, the byte stride) of `av` along `axis`.
    pub(super) fn named_axis_value(&mut self, av: ValueId, axis: u32, stride: bool, at: &impl Ranged) -> ValueId {
        self.at(at);
        if stride {
            let n = self.fresh("stride");
            self.b.stride(av, axis, &n)
        } else {
            let n = self.fresh("dim");
            self.b.dim(av, axis, &n)
        }
    }

    /// An index `i` into `n` elements, wrapped when negative (counting from
    /// the end, as Python does), and whether it then lies in `0..n`.
    pub(super) fn wrapped_index(&mut self, i: ValueId, n: ValueId, at: &impl Ranged) -> (ValueId, ValueId) {
        let zero = self.int_const(0, at);
        let neg = self.result(Opcode::Lt, DType::Bool, i, zero);
        let wrapped = self.result(Opcode::Add, DType::Int64, i, n);
        let name = self.fresh("idx");
        let i = self.b.select(TypeId::INT64, neg, wrapped, i, &name);
        let ge = self.result(Opcode::Ge, DType::Bool, i, zero);
        let lt = self.result(Opcode::Lt, DType::Bool, i, n);
        let ok = self.result(Opcode::And, DType::Bool, ge, lt);
        (i, ok)
    }

    /// An integer index `i` of `av` along `axis`, wrapped when negative and
    /// checked against the extent with `index.load`'s message (NumPy's
    /// IndexError), located at the subscript `at`.
    pub(super) fn checked_index(&mut self, av: ValueId, axis: u32, i: ValueId, at: TextRange) -> ValueId {
        let at = &at;
        let n = self.named_axis_value(av, axis, false, at);
        let (i, ok) = self.wrapped_index(i, n, at);
        let msg = format!("index out of bounds: index {{}} is out of range for axis {axis} with size {{}}");
        self.panic_unless_with(ok, &msg, &[i, n], at);
        i
    }

    /// The bounds and step of the slice `sl` (`lo:hi:st`), lowered left to
    /// right (`None` after an error); a literal step of 0 is refused here.
    fn slice_parts(&mut self, sl: hir::ExprId) -> Option<SliceParts> {
        let hir = self.hir;
        let hir::Expr::Slice { lower, upper, step } = hir.exprs[sl] else { unreachable!("a slice") };
        let written = |b: Option<hir::ExprId>| b.filter(|&e| !matches!(hir.exprs[e], hir::Expr::None));
        let mut ok = true;
        let mut part = |this: &mut Self, e: Option<hir::ExprId>, what: &str| {
            let v = e.map(|e| this.int_operand(e, what));
            ok &= !matches!(v, Some(None));
            v.flatten()
        };
        let lo = part(self, written(lower), "a slice bound");
        let hi = part(self, written(upper), "a slice bound");
        let step_expr = written(step);
        let step = part(self, step_expr, "a slice step");
        let literal_step = step_expr.and_then(|e| literal_int(hir, e));
        if let (Some(e), Some(0)) = (step_expr, literal_step) {
            self.err(&self.range(e), typeck::SLICE_STEP_ZERO);
            return None;
        }
        ok.then_some(SliceParts { lo, hi, step: step.map(|v| (v, literal_step)) })
    }

    /// An integer operand (an index, a slice bound or step) as Int64.
    pub(super) fn int_operand(&mut self, id: hir::ExprId, what: &str) -> Option<ValueId> {
        let v = self.expr(id);
        let e = &self.range(id);
        if matches!(v, Val::Err) {
            return None;
        }
        if let Some(message) = typeck::int_operand_error(what, v.ty().as_ref()) {
            self.err(e, message);
            return None;
        }
        self.materialize(&v, DType::Int64, e)
    }

    /// The slice `lo:hi:st` along `axis` of `av`, normalised as CPython's
    /// `PySlice_AdjustIndices` does: `(start, length, step)`. Every bound
    /// ends within `[-1, n]`, so no arithmetic here overflows.
    fn normalised_slice(
        &mut self,
        av: ValueId,
        axis: u32,
        parts: SliceParts,
        at: TextRange,
    ) -> (ValueId, ValueId, ValueId) {
        let at = &at;
        let n = self.named_axis_value(av, axis, false, at);
        let one = self.int_const(1, at);
        let zero = self.int_const(0, at);
        let minus_one = self.int_const(-1, at);
        // The step, and whether it is positive (a constant when written
        // as a literal, so that the selects below fold).
        let (step, pos) = match parts.step {
            None => (one, self.bool_const(true, at)),
            Some((step, Some(k))) => (step, self.bool_const(k > 0, at)),
            Some((step, None)) => {
                let nonzero = self.result(Opcode::Ne, DType::Bool, step, zero);
                self.panic_unless_with(nonzero, "ValueError: slice step cannot be zero", &[], at);
                (step, self.result(Opcode::Gt, DType::Bool, step, zero))
            }
        };
        let last = self.result(Opcode::Sub, DType::Int64, n, one);
        let lowest = self.select_int(pos, zero, minus_one);
        let highest = self.select_int(pos, n, last);
        let adjusted = |this: &mut Self, x: Option<ValueId>, default: ValueId| -> ValueId {
            let Some(x) = x else { return default };
            let neg = this.result(Opcode::Lt, DType::Bool, x, zero);
            let wrapped = this.result(Opcode::Add, DType::Int64, x, n);
            let x = this.select_int(neg, wrapped, x);
            let below = this.result(Opcode::Lt, DType::Bool, x, lowest);
            let x = this.select_int(below, lowest, x);
            let above = this.result(Opcode::Gt, DType::Bool, x, highest);
            this.select_int(above, highest, x)
        };
        let lo_default = self.select_int(pos, zero, last);
        let hi_default = self.select_int(pos, n, minus_one);
        let start = adjusted(self, parts.lo, lo_default);
        let stop = adjusted(self, parts.hi, hi_default);
        // len = (stop - start - 1) // st + 1 for st > 0, (stop - start + 1)
        // // st + 1 for st < 0 (Python's floor division of a non-positive
        // by a negative number), when the slice is not empty.
        let toward = self.select_int(pos, one, minus_one);
        let span = self.result(Opcode::Sub, DType::Int64, stop, start);
        let span = self.result(Opcode::Sub, DType::Int64, span, toward);
        let q = self.result(Opcode::FDiv, DType::Int64, span, step);
        let len = self.result(Opcode::Add, DType::Int64, q, one);
        let forward = self.result(Opcode::Gt, DType::Bool, stop, start);
        let backward = self.result(Opcode::Gt, DType::Bool, start, stop);
        let name = self.fresh("nonempty");
        let nonempty = self.b.select(TypeId::BOOL, pos, forward, backward, &name);
        let len = self.select_int(nonempty, len, zero);
        // A step is only used when the slice has two elements or more,
        // where |st| < n and st * stride cannot overflow; otherwise 1.
        let several = self.result(Opcode::Gt, DType::Bool, len, one);
        let step = self.select_int(several, step, one);
        (start, len, step)
    }

    pub(super) fn select_int(&mut self, c: ValueId, t: ValueId, f: ValueId) -> ValueId {
        let n = self.fresh("sel");
        self.b.select(TypeId::INT64, c, t, f, &n)
    }

    pub(super) fn bool_const(&mut self, b: bool, at: &impl Ranged) -> ValueId {
        self.at(at);
        let n = self.fresh("c");
        self.b.const_(TypeId::BOOL, Literal::Bool(b), &n)
    }

    /// Why a write to `e`, which `reads_input_memory`, is refused.
    pub(super) fn read_only_message(&self, e: hir::ExprId) -> String {
        self.read_only.message(self.hir, self.decl.is_instance(), e)
    }

    /// Whether `e` is a module-level array, a view of one, or a local
    /// bound to such a view.
    pub(super) fn reads_constant(&self, e: hir::ExprId) -> bool {
        self.read_only.reads_constant(self.hir, e)
    }

    /// Whether `e` is a view written as one: `a.T`, or a subscript that
    /// `makes_view` (of a local whose number of axes is known, for `a[i]`).
    pub(super) fn is_view_expr(&self, e: hir::ExprId) -> bool {
        let hir = self.hir;
        match &hir.exprs[e] {
            hir::Expr::Attribute { attr, .. } => &**attr == "T",
            &hir::Expr::Subscript { base, index } => {
                let ndim = match &hir.exprs[base] {
                    hir::Expr::Name(n) => match self.locals.get(self.name_text(n)).and_then(|l| l.ty.as_ref()) {
                        Some(LocalTy::Array(t)) => t.ndim(),
                        _ => None,
                    },
                    _ => None,
                };
                makes_view(hir, index, ndim)
            }
            _ => false,
        }
    }

    /// Whether `e` reads the memory of an input (not `Out`) array
    /// parameter, so that writes through it are refused: the parameter
    /// itself, a view of it (`a[i]`, `a[:, j]`, `a.T`), or a local bound
    /// to such a view.
    pub(super) fn reads_input_memory(&self, e: hir::ExprId) -> bool {
        self.read_only.reads_input_memory(self.hir, e)
    }

    /// A write to `written`, which `reads_input_memory`: the typecheck
    /// reports it where it types the array written (`caught`: where it
    /// checks this write); else it is reported here.
    pub(super) fn read_only_write(&mut self, written: hir::ExprId, caught: bool) -> Val {
        let at = self.range(written);
        if caught && self.expr_types.contains_idx(written) {
            return self.unrefused(&at);
        }
        let message = self.read_only_message(written);
        self.err(&at, message)
    }
}

/// The arrays whose memory a view written as `e` shares: the base of a
/// subscript or of `.T`, and the array of `transpose`, `ravel` or
/// `reshape` (the receiver of the method and the first argument of
/// NumPy's function, both, as the written form alone does not tell a
/// module from an array). Empty for anything else.
pub(super) fn view_bases(hir: &hir::Body, e: hir::ExprId) -> Vec<hir::ExprId> {
    match &hir.exprs[e] {
        &hir::Expr::Subscript { base, .. } => vec![base],
        hir::Expr::Attribute { base, attr } if &**attr == "T" => vec![*base],
        hir::Expr::Call { func, args, .. } => {
            let (name, receiver) = match &hir.exprs[*func] {
                hir::Expr::Attribute { base, attr } => (&**attr, Some(*base)),
                hir::Expr::Name(n) => (hir.name_text(n), None),
                _ => return Vec::new(),
            };
            if !matches!(name, "transpose" | "ravel" | "reshape") {
                return Vec::new();
            }
            receiver.into_iter().chain(args.first().copied()).collect()
        }
        _ => Vec::new(),
    }
}

/// The value of an integer literal, `-` one included.
pub(crate) fn literal_int(hir: &hir::Body, e: hir::ExprId) -> Option<i128> {
    match hir.exprs[e] {
        hir::Expr::UnaryOp { op: ast::UnaryOp::USub, operand } => literal_int(hir, operand).map(|i| -i),
        hir::Expr::Literal(Lit::Int(i)) => Some(i),
        _ => None,
    }
}
