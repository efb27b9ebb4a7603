//! `insert-checks`: makes every runtime error explicit. Before each checked
//! instruction it computes whether the operation is valid and branches
//! (weighted 2000:1) to a block that calls `postc.panic` with the message
//! and the instruction's location, then `unreachable`:
//!
//! - bounds of `index.load` / `index.store` (option `bounds_checks`);
//! - integer `fdiv` / `mod` by zero, negative `pow` exponents and negative
//!   shift counts (option `div_checks`);
//! - overflow of integer `add sub mul neg abs pow` (option
//!   `overflow_checks`, on at -O0), through the `postc.ovf.*` built-ins;
//! - complex `pow` of zero to a negative or complex power, and a negative
//!   `alloc` length (always: they are errors of the language, not options);
//! - what makes a `view` valid (option `bounds_checks`, as the view is the
//!   bounds check of the accesses through it; `postc_ir::view` says what
//!   and with which messages): no negative extent; a byte offset and strides
//!   that are multiples of the element size, unless the operands show it
//!   (constants, `stride`s, and their sums, differences and products); and,
//!   for a non-empty view, a non-empty base whose span holds the view's
//!   span, computed with `postc.ovf.*` so that a span that does not fit an
//!   `Int64` fails. A `view.inbounds` is not checked: its maker (the
//!   frontend) guarantees all of this by construction.
//!
//! Every `unreachable` that does not already follow a panic call (the
//! pass's own, or one of `postc.panic`'s) gets a call of `postc.panic`
//! with "entered unreachable code" and its location before it. Afterwards
//! an `unreachable` that a run can reach always follows a call that never
//! returns, so a backend lowers it to a bare trap.
//!
//! A check that the operands' constants settle is not emitted: a constant
//! index within a static extent, a nonzero constant divisor, a
//! non-negative constant count, exponent or length, a nonzero constant
//! complex base or a constant complex exponent with a non-negative real
//! part and no imaginary part.
//!
//! The recursion limit is not checked by this function pass: which calls
//! count the depth depends on the whole program's call graph, so its
//! guard is the program step [`recursion::guard_program`] (and, on one
//! module alone, the pass `insert-recursion-checks`), which codegen runs
//! once the pipeline is done.
//!
//! With bounds checks, an array parameter whose extents the checks read
//! (see [`hoisted_extents`]) is also checked once on entry: no extent is
//! negative and its byte size (the product of the extents and the element
//! size) fits in an `Int64`. A caller's `DLTensor` can claim anything, and
//! an extent that is negative as an `Int64` would pass every unsigned
//! bounds compare.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::{NameGen, Rewriter};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{InstData, Literal, ValueId};
use postc_ir::builtins::{OvfOp, PANIC};
use postc_ir::{view, DType, EntityId, Field, Function, Opcode, SrcLoc, TypeId};
use smallvec::SmallVec;

pub mod recursion;

pub struct InsertChecks;

pub static INFO: PassInfo = PassInfo {
    name: "insert-checks",
    description:
        "insert bounds, division, power, allocation and (at -O0) overflow checks that panic with their location",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NAMES,
};

/// The weights of a guard: the valid edge is 2000 times likelier.
pub const GUARD_WEIGHTS: (u32, u32) = (2000, 1);

/// The message of a failed bounds check; `{}` are the index and the size.
pub fn bounds_message(axis: usize) -> String {
    format!("index out of bounds: index {{}} is out of range for axis {axis} with size {{}}")
}

/// The message of complex zero raised to a negative or complex power.
pub const ZERO_POWER_MESSAGE: &str = "zero to a negative or complex power";

/// The message of an `alloc` with a negative length.
pub const NEGATIVE_ALLOC_MESSAGE: &str = "negative allocation length";

/// The message of an `unreachable` that a run reached.
pub const UNREACHABLE_MESSAGE: &str = "entered unreachable code";

/// The message of a negative extent of the array parameter `name`; `{}`
/// is the extent.
pub fn negative_extent_message(name: &str, axis: usize) -> String {
    format!("invalid array %{name}: size {{}} of axis {axis} is negative")
}

/// The message of an array parameter `name` whose byte size overflows an
/// `Int64` at `axis`; `{}` is the axis's extent.
pub fn oversized_message(name: &str, axis: usize) -> String {
    format!("invalid array %{name}: with size {{}} of axis {axis} its byte size overflows Int64")
}

struct Check<'a> {
    rw: Rewriter<'a>,
    names: NameGen,
    labels: NameGen,
    /// `postc.panic` in the new body's pool, once interned.
    panic: Option<u32>,
    /// The bounds messages of the axes so far.
    bounds: Vec<String>,
    /// The extents read once in the entry block: (array, axis) → value.
    extents: Vec<((ValueId, u32), ValueId)>,
    /// The messages emitted so far and their bytes in the new body.
    messages: Vec<(String, [u32; 2])>,
}

impl<'a> Check<'a> {
    /// The checks written through `rw`, new values and labels named from
    /// `names` on.
    fn new(rw: Rewriter<'a>, names: NameGen) -> Self {
        let labels = names.same_start();
        Check { rw, names, labels, panic: None, bounds: Vec::new(), extents: Vec::new(), messages: Vec::new() }
    }

    fn value(&mut self, op: Opcode, ty: TypeId, ops: [u32; 2], base: &str, loc: Option<SrcLoc>) -> ValueId {
        let n = self.rw.fresh_name(&mut self.names, &[base.as_bytes()]);
        self.rw.emit_with_name(op, Some(ty), ops, &[], Some(n), loc)
    }

    fn int_const(&mut self, ty: TypeId, x: i128, base: &str) -> ValueId {
        let n = self.rw.fresh_name(&mut self.names, &[base.as_bytes()]);
        self.rw.emit_const_with_name(ty, Literal::Int(x), Some(n), None)
    }

    /// The bounds message of `axis`.
    fn bounds_message(&mut self, axis: usize) -> String {
        while self.bounds.len() <= axis {
            let a = self.bounds.len();
            self.bounds.push(bounds_message(a));
        }
        std::mem::take(&mut self.bounds[axis])
    }

    /// Branches on `ok`; the failing side panics with `msg` and `args`.
    fn guard(&mut self, ok: ValueId, msg: &str, args: &[ValueId], loc: Option<SrcLoc>) {
        let (pass, fail) = (self.rw.new_block(), self.rw.new_block());
        let (wt, wf) = GUARD_WEIGHTS;
        self.rw.emit(Opcode::CondBr, None, [ok.as_u32(), 0], &[pass.as_u32(), fail.as_u32(), wt, wf], None, loc);
        let fail_label = self.rw.fresh_name(&mut self.labels, &[b"panic"]);
        self.rw.begin_block_named(fail, fail_label);
        self.panic(msg, args, loc);
        self.rw.emit_with_name(Opcode::Unreachable, None, [0, 0], &[], None, loc);
        let cont = self.rw.fresh_name(&mut self.labels, &[b"ok"]);
        self.rw.begin_block_named(pass, cont);
    }

    /// Calls `postc.panic` with `msg` and `args`.
    fn panic(&mut self, msg: &str, args: &[ValueId], loc: Option<SrcLoc>) {
        let mname = self.rw.fresh_name(&mut self.names, &[b"msg"]);
        // The function's checks with one message share its bytes.
        let payload = match self.messages.iter().find(|(m, _)| m == msg) {
            Some(&(_, p)) => p,
            None => {
                let p = self.rw.push_literal_bytes(msg.as_bytes());
                self.messages.push((msg.to_owned(), p));
                p
            }
        };
        let m = self.rw.emit_with_name(Opcode::Const, Some(TypeId::STR), payload, &[], Some(mname), loc);
        let mut items: SmallVec<[u32; 8]> = SmallVec::new();
        items.extend([1 + args.len() as u32, m.as_u32()]);
        items.extend(args.iter().map(|a| a.as_u32()));
        // One copy of the callee's name serves every call.
        let callee = match self.panic {
            Some(c) => c,
            None => *self.panic.insert(self.rw.intern(PANIC)),
        };
        self.rw.emit_with_name(Opcode::Call, None, [callee, 0], &items, None, loc);
    }

    fn widen(&mut self, v: ValueId, from: Option<TypeId>, base: &str, loc: Option<SrcLoc>) -> ValueId {
        if from == Some(TypeId::INT64) {
            v
        } else {
            self.value(Opcode::Cast, TypeId::INT64, [v.as_u32(), 0], base, loc)
        }
    }
}

impl FunctionPass for InsertChecks {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let opts = cx.options;
        let old = std::mem::take(&mut func.body);
        let body = &old;
        let dtype_of = |v: ValueId| body.types.get(v).copied().flatten().map(|t| cx.types.dtype(t));
        // Which instructions start a block, computed at the first
        // `unreachable` that follows a panic call.
        let starts = std::cell::OnceCell::new();
        let block_start = |v: ValueId| {
            let starts = starts.get_or_init(|| {
                let mut s = vec![false; body.num_insts()];
                for d in body.blocks.iter() {
                    if let Some(x) = s.get_mut(d.start as usize) {
                        *x = true;
                    }
                }
                s
            });
            starts.get(v.index()).copied().unwrap_or(false)
        };
        let needs = |v: ValueId| -> bool {
            // The opcode alone rules out most instructions without decoding them.
            if !body.tags[v].is_checked() {
                return false;
            }
            match body.inst(v) {
                InstData::IndexLoad { array, indices } | InstData::IndexStore { array, indices, .. } => {
                    opts.bounds_checks
                        && indices.iter().enumerate().any(|(axis, i)| !within_static_extent(body, cx, array, axis, i))
                }
                InstData::Binary { op: Opcode::FDiv | Opcode::Mod, right, .. } => {
                    opts.div_checks
                        && dtype_of(v).is_some_and(DType::is_int)
                        && const_int(body, right).is_none_or(|x| x == 0)
                }
                InstData::Binary { op: Opcode::Shl | Opcode::Shr, right, .. } => {
                    opts.div_checks
                        && dtype_of(v).is_some_and(DType::is_signed_int)
                        && const_int(body, right).is_none_or(|x| x < 0)
                }
                InstData::Binary { op: Opcode::Pow, left, right } => dtype_of(v).is_some_and(|d| {
                    (d.is_int()
                        && (opts.overflow_checks
                            || (opts.div_checks && d.is_signed_int() && const_int(body, right).is_none_or(|x| x < 0))))
                        || (d.is_complex() && !zero_power_settled(body, d, left, right))
                }),
                InstData::View { .. } => opts.bounds_checks,
                InstData::Alloc { dims } => dims.iter().any(|length| {
                    dtype_of(length).is_some_and(DType::is_signed_int) && const_int(body, length).is_none_or(|x| x < 0)
                }),
                // The call must be in the same block: a block's last
                // instruction is its terminator, so only a block that starts
                // at `v` has a call of another block (or of none) before it.
                InstData::Unreachable => !after_panic_call(body, v) || block_start(v),
                InstData::Binary { op: Opcode::Add | Opcode::Sub | Opcode::Mul, .. }
                | InstData::Unary { op: Opcode::Neg | Opcode::Abs, .. } => {
                    opts.overflow_checks && dtype_of(v).is_some_and(DType::is_int)
                }
                _ => false,
            }
        };
        if !body.tags.ids().any(needs) {
            func.body = old;
            return false;
        }
        // Nothing is dropped, and every new name is `BASE$N` with a plain
        // base: the first free number afterwards is the larger of the two
        // counters'.
        let names = NameGen::starting_at(analyses.name_start(&old));
        let hoisted = if opts.bounds_checks { hoisted_extents(&old, cx) } else { Vec::new() };
        let mut c = Check::new(Rewriter::new(&old, cx.scratch), names);
        for b in old.blocks.ids() {
            c.rw.begin_old_block(b);
            if b.index() == 0 {
                for &(array, axis) in &hoisted {
                    let mut digits = itoa::Buffer::new();
                    let base: [&[u8]; 3] =
                        [old.name_bytes(array).unwrap_or(b""), b".n", digits.format(axis).as_bytes()];
                    let name = c.rw.fresh_name(&mut c.names, &base);
                    let ops = [array.as_u32(), axis];
                    let n = c.rw.emit_with_name(Opcode::Dim, Some(TypeId::INT64), ops, &[], Some(name), None);
                    c.extents.push(((array, axis), n));
                }
                validate_arguments(&mut c, &old, cx, &hoisted);
            }
            let d = old.blocks[b];
            let mut run_start = d.start;
            for i in d.start..d.end {
                let v = ValueId::from_u32(i);
                if needs(v) {
                    c.rw.copy_range(ValueId::from_u32(run_start), v);
                    run_start = i;
                    insert(&mut c, &old, cx, v);
                }
            }
            c.rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
        }
        func.body = c.rw.finish();
        analyses.set_name_start(Some(c.names.peek().max(c.labels.peek())));
        cx.scratch.recycle(old);
        true
    }
}

/// The extents that bounds checks read from parameters: read once, at the
/// top of the entry block, rather than before every access (as stride-lower
/// reads strides), so that every check of an axis compares against one
/// value and the extents of a loop's arrays are visibly loop-invariant. Only
/// parameters of a known rank that no `set` reassigns qualify: their shape
/// cannot change during the call, and reading an extent cannot fail.
fn hoisted_extents(body: &postc_ir::Body, cx: &FuncCx<'_>) -> Vec<(ValueId, u32)> {
    let nparams = body.num_params + body.num_core;
    let tags = body.tags.raw();
    let mut out: Vec<(ValueId, u32)> = Vec::new();
    for (i, tag) in tags.iter().enumerate() {
        if !matches!(tag, Opcode::IndexLoad | Opcode::IndexStore) {
            continue;
        }
        let (InstData::IndexLoad { array, indices } | InstData::IndexStore { array, indices, .. }) =
            body.inst(ValueId::new(i))
        else {
            continue;
        };
        if array.as_u32() >= nparams {
            continue;
        }
        let rank = match body.types[array].and_then(|t| cx.types.try_get(t)).map(|t| &t.shape) {
            Some(postc_ir::Shape::Dims(d)) => d.len(),
            _ => continue,
        };
        for (axis, i) in indices.iter().enumerate().take(rank) {
            let key = (array, axis as u32);
            if !out.contains(&key) && !within_static_extent(body, cx, array, axis, i) {
                out.push(key);
            }
        }
    }
    if !out.is_empty() {
        let reassigned = crate::stride_lower::reassigned(body);
        out.retain(|(a, _)| !reassigned.contains(a));
    }
    out
}

/// Checks, on entry, every array parameter that has hoisted extents: each
/// extent is non-negative and the byte size fits in an `Int64`.
fn validate_arguments(c: &mut Check<'_>, old: &postc_ir::Body, cx: &FuncCx<'_>, hoisted: &[(ValueId, u32)]) {
    let mut arrays: Vec<ValueId> = hoisted.iter().map(|(a, _)| *a).collect();
    arrays.sort_unstable();
    arrays.dedup();
    for array in arrays {
        let Some(t) = old.types[array].and_then(|t| cx.types.try_get(t)) else { continue };
        let postc_ir::Shape::Dims(dims) = &t.shape else { continue };
        let (rank, elsize) = (dims.len(), t.dtype.size_bytes());
        let loc = old.loc(array);
        let pname = String::from_utf8_lossy(old.name_bytes(array).unwrap_or(b"")).into_owned();
        let mut size = c.int_const(TypeId::INT64, elsize as i128, "bytes");
        let zero = c.int_const(TypeId::INT64, 0, "zero");
        let mul = c.rw.intern(OvfOp::Mul.name());
        for axis in 0..rank {
            let n = match c.extents.iter().find(|(k, _)| *k == (array, axis as u32)) {
                Some(&(_, n)) => n,
                None => {
                    let mut digits = itoa::Buffer::new();
                    let base: [&[u8]; 3] =
                        [old.name_bytes(array).unwrap_or(b""), b".n", digits.format(axis).as_bytes()];
                    let name = c.rw.fresh_name(&mut c.names, &base);
                    let ops = [array.as_u32(), axis as u32];
                    c.rw.emit_with_name(Opcode::Dim, Some(TypeId::INT64), ops, &[], Some(name), None)
                }
            };
            let ok = c.value(Opcode::Ge, TypeId::BOOL, [n.as_u32(), zero.as_u32()], "size.ok", loc);
            c.guard(ok, &negative_extent_message(&pname, axis), &[n], loc);
            let name = c.rw.fresh_name(&mut c.names, &[b"ovf"]);
            let ovf = c.rw.emit_with_name(
                Opcode::Call,
                Some(TypeId::BOOL),
                [mul, 0],
                &[2, size.as_u32(), n.as_u32()],
                Some(name),
                loc,
            );
            let ok = c.value(Opcode::Not, TypeId::BOOL, [ovf.as_u32(), 0], "fits", loc);
            c.guard(ok, &oversized_message(&pname, axis), &[n], loc);
            if axis + 1 < rank {
                size = c.value(Opcode::Mul, TypeId::INT64, [size.as_u32(), n.as_u32()], "bytes", loc);
            }
        }
    }
}

fn insert(c: &mut Check<'_>, old: &postc_ir::Body, cx: &FuncCx<'_>, v: ValueId) {
    let loc = old.loc(v);
    let ty = old.types[v];
    let opts = cx.options;
    match old.inst(v) {
        InstData::IndexLoad { array, indices } | InstData::IndexStore { array, indices, .. } => {
            for (axis, idx) in indices.iter().enumerate() {
                if within_static_extent(old, cx, array, axis, idx) {
                    continue;
                }
                let n = match c.extents.iter().find(|(k, _)| *k == (array, axis as u32)) {
                    Some(&(_, n)) => n,
                    None => c.value(Opcode::Dim, TypeId::INT64, [array.as_u32(), axis as u32], "n", loc),
                };
                let i = c.widen(idx, old.types[idx], "i", loc);
                // One unsigned compare covers both `i < 0` and `i >= n`.
                let u64t = TypeId::scalar(DType::UInt64);
                let iu = c.value(Opcode::Cast, u64t, [i.as_u32(), 0], "iu", loc);
                let nu = c.value(Opcode::Cast, u64t, [n.as_u32(), 0], "nu", loc);
                let ok = c.value(Opcode::Lt, TypeId::BOOL, [iu.as_u32(), nu.as_u32()], "inbounds", loc);
                let msg = c.bounds_message(axis);
                c.guard(ok, &msg, &[i, n], loc);
                c.bounds[axis] = msg;
            }
        }
        InstData::Binary { op, left, right } => {
            let t = ty.unwrap_or(TypeId::INT64);
            let signed = cx.types.dtype(t).is_signed_int();
            let zero = |c: &mut Check<'_>| c.int_const(t, 0, "zero");
            match op {
                Opcode::FDiv | Opcode::Mod => {
                    let z = zero(c);
                    let ok = c.value(Opcode::Ne, TypeId::BOOL, [right.as_u32(), z.as_u32()], "nonzero", loc);
                    let msg = if op == Opcode::FDiv { "division by zero" } else { "modulo by zero" };
                    c.guard(ok, msg, &[], loc);
                }
                Opcode::Shl | Opcode::Shr if signed && opts.div_checks => {
                    let z = zero(c);
                    let ok = c.value(Opcode::Ge, TypeId::BOOL, [right.as_u32(), z.as_u32()], "count.ok", loc);
                    c.guard(ok, "negative shift count", &[], loc);
                }
                Opcode::Pow if cx.types.dtype(t).is_complex() => zero_power(c, cx, t, left, right, loc),
                Opcode::Pow => {
                    if signed && opts.div_checks && const_int(old, right).is_none_or(|x| x < 0) {
                        let z = zero(c);
                        let ok = c.value(Opcode::Ge, TypeId::BOOL, [right.as_u32(), z.as_u32()], "exp.ok", loc);
                        c.guard(ok, "negative exponent", &[], loc);
                    }
                    if opts.overflow_checks {
                        overflow(c, OvfOp::Pow, &[left, right], loc);
                    }
                }
                Opcode::Add => overflow(c, OvfOp::Add, &[left, right], loc),
                Opcode::Sub => overflow(c, OvfOp::Sub, &[left, right], loc),
                Opcode::Mul => overflow(c, OvfOp::Mul, &[left, right], loc),
                _ => {}
            }
        }
        InstData::Unary { op, operand } => {
            let o = if op == Opcode::Neg { OvfOp::Neg } else { OvfOp::Abs };
            overflow(c, o, &[operand], loc);
        }
        InstData::Alloc { dims } => {
            // Every extent that may be negative.
            for length in dims.iter() {
                let signed =
                    old.types[length].and_then(|t| DType::from_index(t.as_u32())).is_some_and(DType::is_signed_int);
                if !signed || const_int(old, length).is_some_and(|x| x >= 0) {
                    continue;
                }
                let t = old.types[length].unwrap_or(TypeId::INT64);
                let z = c.int_const(t, 0, "zero");
                let ok = c.value(Opcode::Ge, TypeId::BOOL, [length.as_u32(), z.as_u32()], "len.ok", loc);
                c.guard(ok, NEGATIVE_ALLOC_MESSAGE, &[], loc);
            }
        }
        InstData::Unreachable => c.panic(UNREACHABLE_MESSAGE, &[], loc),
        InstData::View { base, offset, extents, strides } => {
            let extents: SmallVec<[ValueId; 4]> = extents.iter().collect();
            let strides: SmallVec<[ValueId; 4]> = strides.iter().collect();
            view_checks(c, old, cx, base, offset, &extents, &strides, loc);
        }
        _ => {}
    }
}

/// The checks of `view %base, %offset, [extents], [strides]` (see
/// `postc_ir::view`).
#[allow(clippy::too_many_arguments)]
fn view_checks(
    c: &mut Check<'_>,
    old: &postc_ir::Body,
    cx: &FuncCx<'_>,
    base: ValueId,
    offset: ValueId,
    extents: &[ValueId],
    strides: &[ValueId],
    loc: Option<SrcLoc>,
) {
    let (int, bool_) = (TypeId::INT64, TypeId::BOOL);
    let Some(base_type) = old.types[base].and_then(|t| cx.types.try_get(t)) else { return };
    let zero = c.int_const(int, 0, "zero");
    let one = c.int_const(int, 1, "one");
    for (axis, &e) in extents.iter().enumerate() {
        if const_int(old, e).is_none_or(|x| x < 0) {
            let ok = c.value(Opcode::Ge, bool_, [e.as_u32(), zero.as_u32()], "size.ok", loc);
            c.guard(ok, &view::negative_extent_message(axis), &[e], loc);
        }
    }
    let elsize = base_type.dtype.size_bytes() as i128;
    let unaligned: SmallVec<[ValueId; 4]> = std::iter::once(offset)
        .chain(strides.iter().copied())
        .filter(|&x| !known_multiple(old, cx, x, elsize, MULTIPLE_DEPTH))
        .collect();
    if let Some((&first, rest)) = unaligned.split_first() {
        let bits =
            rest.iter().fold(first, |acc, &x| c.value(Opcode::BOr, int, [acc.as_u32(), x.as_u32()], "view.bits", loc));
        let mask = c.int_const(int, elsize - 1, "align.mask");
        let low = c.value(Opcode::BAnd, int, [bits.as_u32(), mask.as_u32()], "view.misalign", loc);
        let ok = c.value(Opcode::Eq, bool_, [low.as_u32(), zero.as_u32()], "aligned", loc);
        c.guard(ok, &view::misaligned_message(elsize as u32), &[], loc);
    }
    // Whether the view is empty: then it addresses nothing.
    let any = |c: &mut Check<'_>, acc: Option<ValueId>, x: ValueId, base: &str| match acc {
        None => Some(x),
        Some(p) => Some(c.value(Opcode::Or, bool_, [p.as_u32(), x.as_u32()], base, loc)),
    };
    let mut empty = None;
    for &e in extents {
        let z = c.value(Opcode::Eq, bool_, [e.as_u32(), zero.as_u32()], "view.empty", loc);
        empty = any(c, empty, z, "view.empty");
    }
    // The base's span, and whether it is empty. Its memory exists, so the
    // arithmetic cannot overflow.
    let rank = base_type.ndim().unwrap_or(0);
    let (mut base_lo, mut base_hi, mut base_empty) = (zero, zero, None);
    for axis in 0..rank {
        let n = base_extent(c, old, base, axis, loc);
        let s = match (old.inst(base), base_type.static_stride(axis)) {
            (InstData::View { strides, .. }, _) if strides.get(axis).is_some() => strides.get(axis).unwrap_or(zero),
            (_, Some(fixed)) => c.int_const(int, fixed as i128, "base.s"),
            _ => c.value(Opcode::Stride, int, [base.as_u32(), axis as u32], "base.s", loc),
        };
        let z = c.value(Opcode::Eq, bool_, [n.as_u32(), zero.as_u32()], "base.empty", loc);
        base_empty = any(c, base_empty, z, "base.empty");
        let last = c.value(Opcode::Sub, int, [n.as_u32(), one.as_u32()], "base.last", loc);
        let reach = c.value(Opcode::Mul, int, [last.as_u32(), s.as_u32()], "base.reach", loc);
        let (down, up) = split_reach(c, reach, zero, loc);
        base_lo = c.value(Opcode::Add, int, [base_lo.as_u32(), down.as_u32()], "base.lo", loc);
        base_hi = c.value(Opcode::Add, int, [base_hi.as_u32(), up.as_u32()], "base.hi", loc);
    }
    if let Some(base_empty) = base_empty {
        let filled = c.value(Opcode::Not, bool_, [base_empty.as_u32(), 0], "base.filled", loc);
        let ok = match empty {
            Some(e) => c.value(Opcode::Or, bool_, [e.as_u32(), filled.as_u32()], "view.ok", loc),
            None => filled,
        };
        c.guard(ok, view::EMPTY_BASE_MESSAGE, &[], loc);
    }
    // The view's span, shifted by the offset, with every step's overflow.
    // A step that overflows is left out (its operand replaced by 0), so
    // that the check's own arithmetic never overflows: the failure is
    // `overflow`'s.
    let (mut lo, mut hi, mut overflow) = (offset, offset, None);
    for (&e, &s) in extents.iter().zip(strides) {
        let last = c.value(Opcode::Sub, int, [e.as_u32(), one.as_u32()], "view.last", loc);
        let o = ovf_of(c, OvfOp::Mul, last, s, loc);
        overflow = any(c, overflow, o, "view.ovf");
        let last = select(c, o, zero, last, "view.last", loc);
        let reach = c.value(Opcode::Mul, int, [last.as_u32(), s.as_u32()], "view.reach", loc);
        let (down, up) = split_reach(c, reach, zero, loc);
        let o = ovf_of(c, OvfOp::Add, lo, down, loc);
        overflow = any(c, overflow, o, "view.ovf");
        let down = select(c, o, zero, down, "reach.down", loc);
        lo = c.value(Opcode::Add, int, [lo.as_u32(), down.as_u32()], "view.lo", loc);
        let o = ovf_of(c, OvfOp::Add, hi, up, loc);
        overflow = any(c, overflow, o, "view.ovf");
        let up = select(c, o, zero, up, "reach.up", loc);
        hi = c.value(Opcode::Add, int, [hi.as_u32(), up.as_u32()], "view.hi", loc);
    }
    let from = c.value(Opcode::Ge, bool_, [lo.as_u32(), base_lo.as_u32()], "view.from", loc);
    let to = c.value(Opcode::Le, bool_, [hi.as_u32(), base_hi.as_u32()], "view.to", loc);
    let mut inside = c.value(Opcode::And, bool_, [from.as_u32(), to.as_u32()], "view.inside", loc);
    if let Some(o) = overflow {
        let fits = c.value(Opcode::Not, bool_, [o.as_u32(), 0], "view.fits", loc);
        inside = c.value(Opcode::And, bool_, [inside.as_u32(), fits.as_u32()], "view.inside", loc);
    }
    let ok = match empty {
        Some(e) => c.value(Opcode::Or, bool_, [e.as_u32(), inside.as_u32()], "view.ok", loc),
        None => inside,
    };
    c.guard(ok, view::OUT_OF_BOUNDS_MESSAGE, &[], loc);
}

/// The extent of `axis` of `array`: read once on entry, the operand of the
/// `view` that made it, or read here.
fn base_extent(c: &mut Check<'_>, old: &postc_ir::Body, array: ValueId, axis: usize, loc: Option<SrcLoc>) -> ValueId {
    if let Some(&(_, n)) = c.extents.iter().find(|(k, _)| *k == (array, axis as u32)) {
        return n;
    }
    if let InstData::View { extents, .. } = old.inst(array) {
        if let Some(n) = extents.get(axis) {
            return n;
        }
    }
    c.value(Opcode::Dim, TypeId::INT64, [array.as_u32(), axis as u32], "base.n", loc)
}

/// `(min(reach, 0), max(reach, 0))`: how far an axis reaches below and
/// above element 0.
fn split_reach(c: &mut Check<'_>, reach: ValueId, zero: ValueId, loc: Option<SrcLoc>) -> (ValueId, ValueId) {
    let neg = c.value(Opcode::Lt, TypeId::BOOL, [reach.as_u32(), zero.as_u32()], "reach.neg", loc);
    (select(c, neg, reach, zero, "reach.down", loc), select(c, neg, zero, reach, "reach.up", loc))
}

/// The Int64 `cond ? if_true : if_false`.
fn select(
    c: &mut Check<'_>,
    cond: ValueId,
    if_true: ValueId,
    if_false: ValueId,
    base: &str,
    loc: Option<SrcLoc>,
) -> ValueId {
    let n = c.rw.fresh_name(&mut c.names, &[base.as_bytes()]);
    let arms = [if_true.as_u32(), if_false.as_u32()];
    c.rw.emit_with_name(Opcode::Select, Some(TypeId::INT64), [cond.as_u32(), 0], &arms, Some(n), loc)
}

/// Whether `op` of `a` and `b` overflows: a `postc.ovf.*` call.
fn ovf_of(c: &mut Check<'_>, op: OvfOp, a: ValueId, b: ValueId, loc: Option<SrcLoc>) -> ValueId {
    let callee = c.rw.intern(op.name());
    let n = c.rw.fresh_name(&mut c.names, &[b"ovf"]);
    c.rw.emit_with_name(Opcode::Call, Some(TypeId::BOOL), [callee, 0], &[2, a.as_u32(), b.as_u32()], Some(n), loc)
}

/// How deep [`known_multiple`] looks through operands.
const MULTIPLE_DEPTH: u32 = 4;

/// Whether the operands show that the Int64 `v` is a multiple of `m`: a
/// constant multiple, the `stride` of an array whose element size is a
/// multiple of `m` (a stride counts whole elements; a view's is checked to),
/// or a sum, difference, negation or product of such values (wrapping
/// keeps them multiples: `m` divides 2^64).
fn known_multiple(body: &postc_ir::Body, cx: &FuncCx<'_>, v: ValueId, m: i128, depth: u32) -> bool {
    if m <= 1 {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let known = |x: ValueId| known_multiple(body, cx, x, m, depth - 1);
    match body.inst(v) {
        InstData::Const(Literal::Int(x)) => x % m == 0,
        InstData::Stride { array, .. } => {
            body.types[array].is_some_and(|t| cx.types.dtype(t).size_bytes() as i128 % m == 0)
        }
        InstData::Binary { op: Opcode::Mul, left, right } => known(left) || known(right),
        InstData::Binary { op: Opcode::Add | Opcode::Sub, left, right } => known(left) && known(right),
        InstData::Unary { op: Opcode::Neg, operand } => known(operand),
        _ => false,
    }
}

/// Panics when the complex `left ** right` (of type `t`) raises zero to a
/// negative or complex power: `left == 0` and `right.imag != 0 or
/// right.real < 0` (a NaN imaginary part counts as nonzero, as in the
/// interpreter). The parts compare in the parts' own float type: zero and
/// the signs are the same in every width.
fn zero_power(c: &mut Check<'_>, cx: &FuncCx<'_>, t: TypeId, left: ValueId, right: ValueId, loc: Option<SrcLoc>) {
    let part = TypeId::scalar(part_dtype(cx.types.dtype(t)));
    let field = |c: &mut Check<'_>, x: ValueId, f: Field, base: &str| {
        c.value(Opcode::GetField, part, [x.as_u32(), f as u32], base, loc)
    };
    let n = c.rw.fresh_name(&mut c.names, &[b"fzero"]);
    let zero = c.rw.emit_const_with_name(part, Literal::Float(0), Some(n), None);
    let (ar, ai) = (field(c, left, Field::Real, "base.re"), field(c, left, Field::Imag, "base.im"));
    let (br, bi) = (field(c, right, Field::Real, "exp.re"), field(c, right, Field::Imag, "exp.im"));
    let cmp = |c: &mut Check<'_>, op: Opcode, x: ValueId, base: &str| {
        c.value(op, TypeId::BOOL, [x.as_u32(), zero.as_u32()], base, loc)
    };
    let (zr, zi) = (cmp(c, Opcode::Eq, ar, "base.re.zero"), cmp(c, Opcode::Eq, ai, "base.im.zero"));
    let base_zero = c.value(Opcode::And, TypeId::BOOL, [zr.as_u32(), zi.as_u32()], "base.zero", loc);
    let (ci, cr) = (cmp(c, Opcode::Ne, bi, "exp.complex"), cmp(c, Opcode::Lt, br, "exp.neg"));
    let bad_exp = c.value(Opcode::Or, TypeId::BOOL, [ci.as_u32(), cr.as_u32()], "exp.bad", loc);
    let bad = c.value(Opcode::And, TypeId::BOOL, [base_zero.as_u32(), bad_exp.as_u32()], "zero.pow", loc);
    let ok = c.value(Opcode::Not, TypeId::BOOL, [bad.as_u32(), 0], "pow.ok", loc);
    c.guard(ok, ZERO_POWER_MESSAGE, &[], loc);
}

/// The float type of a complex dtype's parts.
fn part_dtype(d: DType) -> DType {
    if d == DType::Complex64 {
        DType::Float32
    } else {
        DType::Float64
    }
}

/// Whether the constants among the operands of the complex `left ** right`
/// (of dtype `d`) rule out zero to a negative or complex power: a nonzero
/// base, or an exponent with no imaginary part and a real part that is not
/// negative.
fn zero_power_settled(body: &postc_ir::Body, d: DType, left: ValueId, right: ValueId) -> bool {
    let parts = |v: ValueId| match body.inst(v) {
        InstData::Const(Literal::Complex(re, im)) if d == DType::Complex64 => {
            Some((f32::from_bits(re as u32) as f64, f32::from_bits(im as u32) as f64))
        }
        InstData::Const(Literal::Complex(re, im)) => Some((f64::from_bits(re), f64::from_bits(im))),
        _ => None,
    };
    parts(left).is_some_and(|(re, im)| re != 0.0 || im != 0.0)
        || parts(right).is_some_and(|(re, im)| im == 0.0 && (re >= 0.0 || re.is_nan()))
}

/// Whether the instruction before `v` calls a function that panics: of
/// `postc.panic`, or of a panic path that `cold-outline` moved out of line.
fn after_panic_call(body: &postc_ir::Body, v: ValueId) -> bool {
    let Some(prev) = v.as_u32().checked_sub(1).map(ValueId::from_u32) else { return false };
    body.tags[prev] == Opcode::Call
        && matches!(body.inst(prev), InstData::Call { callee, .. }
            if callee == PANIC || callee.starts_with(crate::cold_outline::THUNK_PREFIX))
}

/// The value of an integer constant.
fn const_int(body: &postc_ir::Body, v: ValueId) -> Option<i128> {
    match body.inst(v) {
        InstData::Const(Literal::Int(x)) => Some(x),
        _ => None,
    }
}

/// Whether index `i` of `array` on `axis` is a constant within the axis's
/// static extent, or within the constant extent a `view` gives that axis
/// (the view's own checks hold it within its base), so that its bounds
/// check could never fail.
fn within_static_extent(body: &postc_ir::Body, cx: &FuncCx<'_>, array: ValueId, axis: usize, i: ValueId) -> bool {
    let Some(x) = const_int(body, i) else { return false };
    let extent = match body.types[array].and_then(|t| cx.types.try_get(t)).map(|t| &t.shape) {
        Some(postc_ir::Shape::Dims(d)) => d.get(axis).copied().flatten().map(i128::from),
        _ => None,
    };
    let extent = extent.or_else(|| match body.inst(array) {
        InstData::View { extents, .. } => extents.get(axis).and_then(|e| const_int(body, e)),
        _ => None,
    });
    extent.is_some_and(|n| 0 <= x && x < n)
}

fn overflow(c: &mut Check<'_>, op: OvfOp, args: &[ValueId], loc: Option<SrcLoc>) {
    let callee = c.rw.intern(op.name());
    let mut items: SmallVec<[u32; 8]> = SmallVec::new();
    items.push(args.len() as u32);
    items.extend(args.iter().map(|a| a.as_u32()));
    let n = c.rw.fresh_name(&mut c.names, &[b"ovf"]);
    let ovf = c.rw.emit_with_name(Opcode::Call, Some(TypeId::BOOL), [callee, 0], &items, Some(n), loc);
    let ok = c.value(Opcode::Not, TypeId::BOOL, [ovf.as_u32(), 0], "no.ovf", loc);
    c.guard(ok, "integer overflow", &[], loc);
}
