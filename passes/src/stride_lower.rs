//! `stride-lower`: logical `index.load` / `index.store` become byte-offset
//! `load` / `store`, so that no backend needs to know an element's size.
//! Strides that the layout and a static shape fix become constants;
//! the others are read once per array and axis — in the entry block for a
//! parameter, right after the definition for any other array — except for
//! an array that `set` reassigns, whose strides are read at each access.
//! A `view`'s strides are its stride operands, used as they are: a view
//! is never assumed contiguous.
//!
//! An access through a view made in the function becomes an access of the
//! view's base at the view's offset plus the access's (through a chain of
//! views, of the first base), and `dim`/`stride` of such a view become its
//! extent and stride operands — unless `set` reassigns the base, which may
//! then be another array by the time of the access. A view that nothing
//! reads any longer is left for `dce`, which removes it once
//! `insert-checks` has guarded it.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::{NameGen, Rewriter};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{InstData, Literal, ValueId};
use postc_ir::{EntityId, Function, Opcode, TypeId};

pub struct StrideLower;

pub static INFO: PassInfo = PassInfo {
    name: "stride-lower",
    description: "lower logical index.load/index.store to stride-scaled byte offsets",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::CFG.union(AnalysisSet::NAMES),
};

/// The values that a `set` reassigns (`let` locals and parameters): an
/// array among them may be another view by the time of an access.
pub(crate) fn reassigned(body: &postc_ir::Body) -> Vec<ValueId> {
    let tags = body.tags.raw();
    tags.iter()
        .zip(body.ops.raw())
        .filter(|(t, _)| **t == Opcode::Set)
        .map(|(_, ops)| ValueId::from_u32(ops[0]))
        .collect()
}

impl FunctionPass for StrideLower {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        let tags = body.tags.raw();
        // Which (array, axis) pairs need a stride, and where arrays are defined.
        let mut needed: Vec<(ValueId, u32)> = Vec::new();
        let mut any = false;
        for (i, tag) in tags.iter().enumerate() {
            if !matches!(tag, Opcode::IndexLoad | Opcode::IndexStore) {
                continue;
            }
            any = true;
            if let InstData::IndexLoad { array, indices } | InstData::IndexStore { array, indices, .. } =
                body.inst(ValueId::new(i))
            {
                for axis in 0..indices.len() as u32 {
                    if !needed.contains(&(array, axis)) {
                        needed.push((array, axis));
                    }
                }
            }
        }
        // (An access to a 0-d array has no index, hence no stride: its
        // offset is 0.)
        if !any {
            return false;
        }
        // Arrays that `set` reassigns (a `let` local or a parameter) may be
        // another view by the time of an access: their dynamic strides are
        // read at each access instead of once.
        let reassigned = reassigned(body);
        // Every new name is `BASE$N` where BASE is an old name or plain text
        // followed by `.`-led suffixes, and only nameless or renamed
        // instructions are dropped: the first free number afterwards is the
        // counter's.
        let mut names = NameGen::starting_at(analyses.name_start(body));
        let old = std::mem::take(&mut func.body);
        let mut rw = Rewriter::new(&old, cx.scratch);
        let nparams = old.num_params + old.num_core;
        // Arrays defined in the body whose strides are read, in id order.
        let mut defined: Vec<u32> = needed.iter().map(|(a, _)| a.as_u32()).filter(|&a| a >= nparams).collect();
        defined.sort_unstable();
        defined.dedup();
        let mut next_def = 0usize;
        let mut strides: Vec<((ValueId, u32), ValueId)> = Vec::new();
        let emit_strides_of =
            |rw: &mut Rewriter<'_>, names: &mut NameGen, strides: &mut Vec<((ValueId, u32), ValueId)>, arr: ValueId| {
                let Some(t) = old.types[arr].and_then(|t| cx.types.try_get(t)) else { return };
                for &(a, axis) in needed.iter().filter(|(a, _)| *a == arr) {
                    let fixed = t.static_stride(axis as usize);
                    if fixed.is_none() && reassigned.contains(&a) {
                        continue;
                    }
                    // A view's strides are its operands: nothing to read.
                    if let InstData::View { strides: view_strides, .. } = old.inst(a) {
                        if let Some(s) = view_strides.get(axis as usize) {
                            strides.push(((a, axis), s));
                            continue;
                        }
                    }
                    let mut digits = itoa::Buffer::new();
                    let base: [&[u8]; 3] = [old.name_bytes(a).unwrap_or(b""), b".s", digits.format(axis).as_bytes()];
                    let name = rw.fresh_name(names, &base);
                    let v = match fixed {
                        Some(s) => rw.emit_const_with_name(TypeId::INT64, Literal::Int(s as i128), Some(name), None),
                        None => rw.emit_with_name(
                            Opcode::Stride,
                            Some(TypeId::INT64),
                            [a.as_u32(), axis],
                            &[],
                            Some(name),
                            None,
                        ),
                    };
                    match strides.iter_mut().find(|(k, _)| *k == (a, axis)) {
                        Some(slot) => slot.1 = v,
                        None => strides.push(((a, axis), v)),
                    }
                }
            };
        for b in old.blocks.ids() {
            rw.begin_old_block(b);
            if b.index() == 0 {
                for p in 0..nparams {
                    emit_strides_of(&mut rw, &mut names, &mut strides, ValueId::from_u32(p));
                }
            }
            let d = old.blocks[b];
            let mut run_start = d.start;
            for i in d.start..d.end {
                let v = ValueId::from_u32(i);
                match old.tags[v] {
                    Opcode::IndexLoad | Opcode::IndexStore => {}
                    Opcode::Dim | Opcode::Stride => {
                        if let Some(operand) = view_operand(&old, v, &reassigned) {
                            rw.copy_range(ValueId::from_u32(run_start), v);
                            run_start = i + 1;
                            rw.drop_inst(v);
                            rw.replace_uses(v, operand);
                        }
                        continue;
                    }
                    _ => {
                        while next_def < defined.len() && defined[next_def] < i {
                            next_def += 1;
                        }
                        if defined.get(next_def) == Some(&i) && old.types[v].is_some_and(|t| cx.types.is_array(t)) {
                            rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(i + 1));
                            run_start = i + 1;
                            emit_strides_of(&mut rw, &mut names, &mut strides, v);
                        }
                        continue;
                    }
                }
                match old.inst(v) {
                    InstData::IndexLoad { array, indices } => {
                        rw.copy_range(ValueId::from_u32(run_start), v);
                        run_start = i + 1;
                        let off = offset(&mut rw, &mut names, &old, &strides, array, indices.iter(), v);
                        let (array, off) = through_views(&mut rw, &mut names, &old, &reassigned, array, off, v);
                        let ty = old.types[v];
                        let name = rw.copy_name(v);
                        let nv =
                            rw.emit_with_name(Opcode::Load, ty, [array.as_u32(), off.as_u32()], &[], name, old.loc(v));
                        rw.drop_inst(v);
                        rw.replace_uses(v, nv);
                    }
                    InstData::IndexStore { array, indices, value } => {
                        rw.copy_range(ValueId::from_u32(run_start), v);
                        run_start = i + 1;
                        let off = offset(&mut rw, &mut names, &old, &strides, array, indices.iter(), v);
                        let (array, off) = through_views(&mut rw, &mut names, &old, &reassigned, array, off, v);
                        rw.emit(
                            Opcode::Store,
                            None,
                            [array.as_u32(), 0],
                            &[off.as_u32(), value.as_u32()],
                            None,
                            old.loc(v),
                        );
                        rw.drop_inst(v);
                    }
                    _ => {
                        // A malformed index instruction is copied as it is.
                        rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(i + 1));
                        run_start = i + 1;
                    }
                }
            }
            rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
        }
        func.body = rw.finish();
        analyses.set_name_start(Some(names.peek()));
        cx.scratch.recycle(old);
        true
    }
}

/// The view of the function that `array` is, unless `set` reassigns its
/// base: then the base may be another array by the time `array` is used.
fn own_view<'b>(old: &'b postc_ir::Body, reassigned: &[ValueId], array: ValueId) -> Option<InstData<'b>> {
    match old.inst(array) {
        view @ InstData::View { base, .. } if !reassigned.contains(&base) => Some(view),
        _ => None,
    }
}

/// What the `dim` or `stride` `v` of a view of the function reads: the
/// view's extent or stride operand of that axis.
fn view_operand(old: &postc_ir::Body, v: ValueId, reassigned: &[ValueId]) -> Option<ValueId> {
    let (array, axis, is_dim) = match old.inst(v) {
        InstData::Dim { array, axis } => (array, axis, true),
        InstData::Stride { array, axis } => (array, axis, false),
        _ => return None,
    };
    match own_view(old, reassigned, array)? {
        InstData::View { extents, .. } if is_dim => extents.get(axis as usize),
        InstData::View { strides, .. } => strides.get(axis as usize),
        _ => None,
    }
}

/// The access at byte offset `off` of `array` as an access of the array
/// that `array`'s chain of views of the function starts from: that array
/// and the offset with each view's added (emitted, for the access `at`).
fn through_views(
    rw: &mut Rewriter<'_>,
    names: &mut NameGen,
    old: &postc_ir::Body,
    reassigned: &[ValueId],
    mut array: ValueId,
    mut off: ValueId,
    at: ValueId,
) -> (ValueId, ValueId) {
    while let Some(InstData::View { base, offset, .. }) = own_view(old, reassigned, array) {
        let named = old.name_bytes(at).or_else(|| old.name_bytes(array)).unwrap_or(b"");
        let name = rw.fresh_name(names, &[named, b".off"]);
        off = rw.emit_with_name(
            Opcode::Add,
            Some(TypeId::INT64),
            [offset.as_u32(), off.as_u32()],
            &[],
            Some(name),
            old.loc(at),
        );
        array = base;
    }
    (array, off)
}

/// Emits `Σ index_k × stride_k` (indices widened to Int64) and returns it.
fn offset(
    rw: &mut Rewriter<'_>,
    names: &mut NameGen,
    old: &postc_ir::Body,
    strides: &[((ValueId, u32), ValueId)],
    array: ValueId,
    indices: impl Iterator<Item = ValueId>,
    at: ValueId,
) -> ValueId {
    let loc = old.loc(at);
    let base: &[u8] = match old.name_bytes(at) {
        Some(n) => n,
        None => old.name_bytes(array).unwrap_or(b""),
    };
    let mut acc: Option<ValueId> = None;
    for (axis, idx) in indices.enumerate() {
        let mut digits = itoa::Buffer::new();
        let axis_digits = digits.format(axis).as_bytes();
        let idx = match old.types[idx] {
            Some(t) if t == TypeId::INT64 => idx,
            _ => {
                let n = rw.fresh_name(names, &[base, b".off.i", axis_digits]);
                rw.emit_with_name(Opcode::Cast, Some(TypeId::INT64), [idx.as_u32(), 0], &[], Some(n), loc)
            }
        };
        let stride = match strides.iter().find(|(k, _)| *k == (array, axis as u32)) {
            Some(&(_, s)) => s,
            None => {
                let n = rw.fresh_name(names, &[old.name_bytes(array).unwrap_or(b""), b".s", axis_digits]);
                rw.emit_with_name(Opcode::Stride, Some(TypeId::INT64), [array.as_u32(), axis as u32], &[], Some(n), loc)
            }
        };
        let n = rw.fresh_name(names, &[base, b".off"]);
        let term =
            rw.emit_with_name(Opcode::Mul, Some(TypeId::INT64), [idx.as_u32(), stride.as_u32()], &[], Some(n), loc);
        acc = Some(match acc {
            None => term,
            Some(prev) => {
                let n = rw.fresh_name(names, &[base, b".off"]);
                rw.emit_with_name(Opcode::Add, Some(TypeId::INT64), [prev.as_u32(), term.as_u32()], &[], Some(n), loc)
            }
        });
    }
    match acc {
        Some(a) => a,
        None => {
            let n = rw.fresh_name(names, &[base, b".off"]);
            rw.emit_const_with_name(TypeId::INT64, Literal::Int(0), Some(n), loc)
        }
    }
}
