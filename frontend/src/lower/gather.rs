//! Indexing with arrays, NumPy's advanced indexing by one index: an
//! integer array `idx` (`a[idx]`, a gather) or a Bool array `mask`
//! (`a[mask]`, the elements where it is true), read into a new C-order
//! array, and the assignments `a[idx] = v` and `a[mask] = v`.
//!
//! - `a[idx]`: the result has `idx`'s shape followed by `a`'s axes after
//!   the first; element `p` of `idx`, wrapped when negative, picks row
//!   `idx[p]` of `a`. An index outside the first axis panics with the
//!   bounds message of `a[i]`.
//! - `a[mask]`: `mask`'s shape must be the first `mask.ndim` extents of
//!   `a` (NumPy's IndexError otherwise); the result is one axis of as
//!   many elements as `mask` has true ones, in C order, followed by `a`'s
//!   remaining axes.
//! - `a[idx] = v` writes the rows in the order of `idx` (a repeated index
//!   keeps the last value written, as NumPy's does in practice);
//!   `a[mask] = v` writes where `mask` is true, in C order. `v` is a
//!   number, or an array broadcast to the shape `a[idx]` or `a[mask]`
//!   would have, its axes aligned on the right (NumPy's broadcasting of an
//!   assigned value); a value array that does not broadcast panics with
//!   NumPy's ValueError. A value array is copied before any element is
//!   written, so `a[idx] = a[::-1]` reads the old `a`, as NumPy does.
//!
//! - `a[i, idx]`, `a[mask, j]`: one array entry and an integer for every
//!   other axis (each wrapped and checked as `a[i]` is) index the 1-D view
//!   of `a` along the array's axis, as NumPy's result is: `a[i][idx]`,
//!   `a[:, j][mask]`; assignments likewise.
//!
//! Not here: several array indices (`a[i_arr, j_arr]`), an array index
//! mixed with slices (`a[:, idx]`), lists as indices, and an augmented
//! assignment through an array index.

use super::*;

/// A value of dtype `s` stored through an array index into an array of
/// `d`, as `store` converts an element: text into numbers or into
/// another text type, a number into text, a complex number into reals.
pub(crate) fn stored_dtype_error(s: DType, d: DType) -> Option<String> {
    let refused = s.is_text() != d.is_text() || (d.is_text() && s != d) || (s.is_complex() && !d.is_complex());
    refused.then(|| format!("cannot store {} in an array of {}", s.name(), d.name()))
}

/// An array of `vd` axes stored through an array index whose result has
/// `n` axes (`whole_mask`: a mask over every axis, which NumPy takes a
/// value of one axis at most for).
pub(crate) fn scattered_axes_error(vd: usize, n: usize, whole_mask: bool) -> Option<String> {
    if whole_mask && vd > 1 {
        return Some(format!(
            "TypeError: NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has {vd} \
             dimensions"
        ));
    }
    (vd > n).then(|| {
        format!("ValueError: shape mismatch: value array of {vd} axes could not be broadcast to indexing result of {n} axes")
    })
}

/// What is neither a number nor an array stored through an array index.
pub(crate) const SCATTERED_NOT_A_NUMBER: &str = "only a number or an array can be assigned here";

/// The extents `v` is broadcast over, and where each of its own axes
/// takes its index from: `None` for a number.
struct Broadcast {
    value: (ValueId, TypeData),
    /// One per axis of `value`: 1 when the axis moves with the target's,
    /// 0 when its extent is 1 and stays at index 0.
    steps: Vec<ValueId>,
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// The place of the one array among the entries of `index` when every
    /// other entry is an integer and there is one entry per axis of an
    /// array of `nd` axes (`a[i, idx]`, `a[mask, j]`), as the typecheck
    /// typed them.
    pub(super) fn mixed_array_index(&self, index: hir::ExprId, nd: Option<usize>) -> Option<usize> {
        let hir::Expr::Tuple(entries) = &self.hir.exprs[index] else { return None };
        if Some(entries.len()) != nd {
            return None;
        }
        let mut array_at = None;
        for (k, &e) in entries.iter().enumerate() {
            match self.expr_types.get(e)? {
                typeck::Ty::Arr(t) if kind(t.dtype) == Kind::Int || t.dtype == DType::Bool && t.ndim() == Some(1) => {
                    if array_at.replace(k).is_some() {
                        return None;
                    }
                }
                t if t.scalar().is_some_and(|s| kind(s.dtype) == Kind::Int) => {}
                _ => return None,
            }
        }
        array_at
    }

    /// Of `a[i, idx]` (the entries of `index`, the array at `p`): the 1-D
    /// view of `a` along axis `p` where the other axes take the integers,
    /// and the array index, lowered left to right.
    pub(super) fn mixed_view(
        &mut self,
        a: &(ValueId, TypeData),
        index: hir::ExprId,
        p: usize,
        at: TextRange,
    ) -> Option<((ValueId, TypeData), (ValueId, TypeData))> {
        let hir::Expr::Tuple(entries) = &self.hir.exprs[index] else { unreachable!("a tuple index") };
        let mut idx = None;
        let mut offset = self.int_const(0, &at);
        for (axis, &e) in entries.iter().enumerate() {
            if axis == p {
                idx = Some(self.index_array(e)?);
                continue;
            }
            let i = self.int_operand(e, "an index")?;
            let i = self.checked_index(a.0, axis as u32, i, at);
            let stride = self.named_axis_value(a.0, axis as u32, true, &at);
            let step = self.result(Opcode::Mul, DType::Int64, i, stride);
            offset = self.result(Opcode::Add, DType::Int64, offset, step);
        }
        let extent = self.named_axis_value(a.0, p as u32, false, &at);
        let stride = self.named_axis_value(a.0, p as u32, true, &at);
        let Val::Arr { v, ty } = self.make_view(a.0, &a.1, offset, &[extent], &[stride], &at) else { return None };
        Some(((v, ty), idx?))
    }

    /// `a[idx]` of the integer array `idx`, or of the Bool array `idx` as
    /// a mask; `idx`'s first axis indexes axis `first_axis` of the array
    /// the program indexes (of which `a` may be a view), as messages say.
    pub(super) fn gather(
        &mut self,
        a: &(ValueId, TypeData),
        idx: &(ValueId, TypeData),
        first_axis: usize,
        at: TextRange,
    ) -> Val {
        let (Some(nd), Some(ind)) = (a.1.ndim(), idx.1.ndim()) else {
            return self.err(&at, "the number of axes of this array is not known");
        };
        if nd == 0 {
            return self.err(&at, typeck::NO_AXES_INDEXED_BY_ARRAY);
        }
        let d = a.1.dtype;
        if idx.1.dtype == DType::Bool {
            return self.masked(a, idx, (nd, ind), first_axis, at);
        }
        self.at(&at);
        let a_dims = self.dims_of(a.0, &a.1);
        let i_dims = self.dims_of(idx.0, &idx.1);
        let out_dims: Vec<ValueId> = i_dims.iter().chain(&a_dims[1..]).copied().collect();
        let extents: Vec<(ValueId, bool)> = out_dims.iter().map(|&x| (x, true)).collect();
        let out = self.new_empty_array(d, &extents, &at);
        let open = self.loops_open(&out_dims, &at);
        let pos: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let row = self.row_index(idx, &pos[..ind], a_dims[0], first_axis, at);
        let src: Vec<ValueId> = std::iter::once(row).chain(pos[ind..].iter().copied()).collect();
        let n = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(d), a.0, &src, &n);
        self.b.index_store(out.0, &pos, x);
        self.loops_close(open, &at);
        Val::Arr { v: out.0, ty: out.1 }
    }

    /// `a[mask]`: the elements (rows) of `a` where `mask` is true.
    fn masked(
        &mut self,
        a: &(ValueId, TypeData),
        mask: &(ValueId, TypeData),
        (nd, md): (usize, usize),
        first_axis: usize,
        at: TextRange,
    ) -> Val {
        if let Some(message) = typeck::mask_axes_error(nd, md) {
            return self.err(&at, message);
        }
        self.at(&at);
        let a_dims = self.dims_of(a.0, &a.1);
        let m_dims = self.mask_dims(a_dims.as_slice(), mask, first_axis, at);
        let count = self.mask_count(mask, &m_dims, at);
        let out_dims: Vec<ValueId> = std::iter::once(count).chain(a_dims[md..].iter().copied()).collect();
        let extents: Vec<(ValueId, bool)> = out_dims.iter().map(|&x| (x, true)).collect();
        let out = self.new_empty_array(a.1.dtype, &extents, &at);
        self.for_each_selected(mask, &m_dims, &a_dims[md..], at, |s, src, dst| {
            let n = s.fresh("el");
            let x = s.b.index_load(TypeId::scalar(a.1.dtype), a.0, src, &n);
            s.b.index_store(out.0, dst, x);
        });
        Val::Arr { v: out.0, ty: out.1 }
    }

    /// `a[idx] = v` of the integer or Bool array `idx`.
    pub(super) fn scatter(
        &mut self,
        a: &(ValueId, TypeData),
        idx: &(ValueId, TypeData),
        v: Val,
        first_axis: usize,
        at: TextRange,
    ) {
        let (Some(nd), Some(ind)) = (a.1.ndim(), idx.1.ndim()) else {
            self.err(&at, "the number of axes of this array is not known");
            return;
        };
        if nd == 0 {
            self.err(&at, typeck::NO_AXES_INDEXED_BY_ARRAY);
            return;
        }
        let mask = idx.1.dtype == DType::Bool;
        if mask && ind > nd {
            self.err(
                &at,
                format!("IndexError: too many indices for array: array is {nd}-dimensional, but {ind} were indexed"),
            );
            return;
        }
        self.at(&at);
        let a_dims = self.dims_of(a.0, &a.1);
        // The shape `a[idx]` has, which a value array is broadcast to (a
        // mask's count only then: a number needs none).
        let value_array = matches!(v, Val::Arr { .. });
        let (target, m_dims): (Vec<ValueId>, Vec<ValueId>) = if mask {
            let m_dims = self.mask_dims(&a_dims, idx, first_axis, at);
            let count = if value_array { self.mask_count(idx, &m_dims, at) } else { self.zero(DType::Int64) };
            (std::iter::once(count).chain(a_dims[ind..].iter().copied()).collect(), m_dims)
        } else {
            let i_dims = self.dims_of(idx.0, &idx.1);
            (i_dims.iter().chain(&a_dims[1..]).copied().collect(), Vec::new())
        };
        // A mask over every axis takes NumPy's own path: a value of one
        // axis at most, of one element or one per true element.
        let whole_mask = mask && ind == nd;
        let Some(value) = self.assigned_value(v, &target, a.1.dtype, whole_mask, at) else { return };
        if mask {
            self.for_each_selected(idx, &m_dims, &a_dims[ind..], at, |s, dst, at_value| {
                if let Some(x) = s.value_element(&value, at_value, a.1.dtype, at) {
                    s.b.index_store(a.0, dst, x);
                }
            });
        } else {
            let open = self.loops_open(&target, &at);
            let pos: Vec<ValueId> = open.iter().map(|l| l.i).collect();
            let row = self.row_index(idx, &pos[..ind], a_dims[0], first_axis, at);
            let dst: Vec<ValueId> = std::iter::once(row).chain(pos[ind..].iter().copied()).collect();
            if let Some(x) = self.value_element(&value, &pos, a.1.dtype, at) {
                self.b.index_store(a.0, &dst, x);
            }
            self.loops_close(open, &at);
        }
    }

    /// Element `pos` of the integer array `idx`, as an Int64 row of an
    /// axis of `n`, wrapped when negative and checked.
    fn row_index(
        &mut self,
        idx: &(ValueId, TypeData),
        pos: &[ValueId],
        n: ValueId,
        first_axis: usize,
        at: TextRange,
    ) -> ValueId {
        let i = self.int64_element(idx, pos);
        let (i, ok) = self.wrapped_index(i, n, &at);
        let msg = format!("index out of bounds: index {{}} is out of range for axis {first_axis} with size {{}}");
        self.panic_unless_with(ok, &msg, &[i, n], &at);
        i
    }

    /// Element `pos` of the integer array `idx`, as Int64.
    pub(super) fn int64_element(&mut self, idx: &(ValueId, TypeData), pos: &[ValueId]) -> ValueId {
        let nm = self.fresh("i");
        let i = self.b.index_load(TypeId::scalar(idx.1.dtype), idx.0, pos, &nm);
        if idx.1.dtype == DType::Int64 {
            return i;
        }
        let nm = self.fresh("i");
        self.b.cast(TypeId::INT64, i, &nm)
    }

    /// The extents of `mask`, each checked to be the extent of `a` on the
    /// same axis (NumPy's IndexError).
    fn mask_dims(
        &mut self,
        a_dims: &[ValueId],
        mask: &(ValueId, TypeData),
        first_axis: usize,
        at: TextRange,
    ) -> Vec<ValueId> {
        let m_dims = self.dims_of(mask.0, &mask.1);
        for (k, (&m, &n)) in m_dims.iter().zip(a_dims).enumerate() {
            let same = self.result(Opcode::Eq, DType::Bool, m, n);
            let axis = first_axis + k;
            let msg = format!(
                "IndexError: boolean index did not match indexed array along axis {axis}; size of axis is {{}} \
                 but size of corresponding boolean axis is {{}}"
            );
            self.panic_unless_with(same, &msg, &[n, m], &at);
        }
        m_dims
    }

    /// How many elements of `mask` are true.
    fn mask_count(&mut self, mask: &(ValueId, TypeData), m_dims: &[ValueId], at: TextRange) -> ValueId {
        let zero = self.zero(DType::Int64);
        let nm = self.fresh("count");
        let count = self.b.let_(TypeId::INT64, zero, &nm);
        let open = self.loops_open(m_dims, &at);
        let pos: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let nm = self.fresh("m");
        let m = self.b.index_load(TypeId::BOOL, mask.0, &pos, &nm);
        let nm = self.fresh("m");
        let m = self.b.cast(TypeId::INT64, m, &nm);
        let more = self.result(Opcode::Add, DType::Int64, count, m);
        self.b.set(count, more);
        self.loops_close(open, &at);
        let nm = self.fresh("count");
        self.b.let_(TypeId::INT64, count, &nm)
    }

    /// Runs `body` for each element of `a[mask]` in C order: a true
    /// element of `mask` (of extents `m_dims`) followed by each position
    /// along `a`'s remaining axes (`rest_dims`), with its index in `a` and
    /// its index in `a[mask]` (the count of true elements before it, then
    /// the same remaining indices).
    fn for_each_selected(
        &mut self,
        mask: &(ValueId, TypeData),
        m_dims: &[ValueId],
        rest_dims: &[ValueId],
        at: TextRange,
        body: impl FnOnce(&mut Self, &[ValueId], &[ValueId]),
    ) {
        let zero = self.zero(DType::Int64);
        let nm = self.fresh("taken");
        let taken = self.b.let_(TypeId::INT64, zero, &nm);
        let open = self.loops_open(m_dims, &at);
        let pos: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let nm = self.fresh("m");
        let m = self.b.index_load(TypeId::BOOL, mask.0, &pos, &nm);
        let then = self.block("mask.true");
        let join = self.block("mask.next");
        self.b.condbr(m, then, join, None);
        self.enter(then);
        let rest_open = self.loops_open(rest_dims, &at);
        let rest: Vec<ValueId> = rest_open.iter().map(|l| l.i).collect();
        let in_a: Vec<ValueId> = pos.iter().chain(&rest).copied().collect();
        let selected: Vec<ValueId> = std::iter::once(taken).chain(rest.iter().copied()).collect();
        body(self, &in_a, &selected);
        self.loops_close(rest_open, &at);
        let next = self.plus_one(taken);
        self.b.set(taken, next);
        self.br(join);
        self.enter(join);
        self.loops_close(open, &at);
    }

    /// The value of `a[...] = v` for a target of extents `target` and
    /// dtype `d`: a number converted once, or an array checked to
    /// broadcast to `target` and copied unless it is fresh (it may be a
    /// view of the array written).
    fn assigned_value(
        &mut self,
        v: Val,
        target: &[ValueId],
        d: DType,
        whole_mask: bool,
        at: TextRange,
    ) -> Option<Result<ValueId, Broadcast>> {
        match v {
            Val::Arr { v, ty } => {
                let Some(vd) = ty.ndim() else {
                    self.err(&at, "the number of axes of this array is not known");
                    return None;
                };
                if let Some(message) = stored_dtype_error(ty.dtype, d) {
                    self.err(&at, message);
                    return None;
                }
                if let Some(message) = scattered_axes_error(vd, target.len(), whole_mask) {
                    self.err(&at, message);
                    return None;
                }
                let value = self.copy_of(v, &ty, &at);
                let v_dims = self.dims_of(value.0, &value.1);
                let one = self.int_const(1, &at);
                let mut steps = Vec::new();
                let mut ok: Option<ValueId> = None;
                for (k, &x) in v_dims.iter().enumerate() {
                    let t = target[target.len() - vd + k];
                    let same = self.result(Opcode::Eq, DType::Bool, x, t);
                    let is_one = self.result(Opcode::Eq, DType::Bool, x, one);
                    let fits = self.result(Opcode::Or, DType::Bool, same, is_one);
                    ok = Some(match ok {
                        None => fits,
                        Some(o) => self.result(Opcode::And, DType::Bool, o, fits),
                    });
                    let moves = self.result(Opcode::Ne, DType::Bool, x, one);
                    let nm = self.fresh("step");
                    steps.push(self.b.cast(TypeId::INT64, moves, &nm));
                }
                if let (Some(ok), true) = (ok, whole_mask) {
                    let msg = "ValueError: NumPy boolean array indexing assignment cannot assign {} input values to \
                               the {} output values where the mask is true";
                    self.panic_unless_with(ok, msg, &[v_dims[0], target[0]], &at);
                } else if let Some(ok) = ok {
                    let msg = format!(
                        "ValueError: shape mismatch: value array of shape {} could not be broadcast to indexing \
                         result of shape {}",
                        elementwise::shape_pattern(vd),
                        elementwise::shape_pattern(target.len())
                    );
                    let args: Vec<ValueId> = v_dims.iter().chain(target).copied().collect();
                    self.panic_unless_with(ok, &msg, &args, &at);
                }
                Some(Err(Broadcast { value, steps }))
            }
            other => {
                // As `store` converts an element.
                match other.scalar() {
                    Some(s) => {
                        if let Some(message) = stored_dtype_error(s.dtype, d) {
                            self.err(&at, message);
                            return None;
                        }
                    }
                    None => {
                        if !matches!(other, Val::Err) {
                            self.err(&at, SCATTERED_NOT_A_NUMBER);
                        }
                        return None;
                    }
                }
                self.materialize(&other, d, &at).map(Ok)
            }
        }
    }

    /// The element of an assigned value at the target position `pos`,
    /// converted to `d`.
    fn value_element(
        &mut self,
        value: &Result<ValueId, Broadcast>,
        pos: &[ValueId],
        d: DType,
        at: TextRange,
    ) -> Option<ValueId> {
        match value {
            Ok(x) => Some(*x),
            Err(Broadcast { value, steps }) => {
                let skip = pos.len() - steps.len();
                let idx: Vec<ValueId> = (steps.iter().enumerate())
                    .map(|(k, &step)| self.result(Opcode::Mul, DType::Int64, pos[skip + k], step))
                    .collect();
                let x = self.load(value, &idx, at);
                self.materialize(&x, d, &at)
            }
        }
    }
}
