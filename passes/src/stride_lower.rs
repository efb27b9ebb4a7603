//! `stride-lower`: logical `index.load` / `index.store` become byte-offset
//! `load` / `store` (the seed: "backends never need to know an element's
//! size"). Strides that the layout and a static shape fix become constants;
//! the others are read once per array and axis — in the entry block for a
//! parameter, right after the definition for any other array — except for
//! an array that `set` reassigns, whose strides are read at each access.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::{NameGen, Rewriter};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{InstData, Literal, ValueId};
use postc_ir::{EntityId, Function, Layout, Opcode, Shape, TypeData, TypeId};
use std::collections::HashMap;

pub struct StrideLower;

pub static INFO: PassInfo = PassInfo {
    name: "stride-lower",
    description: "lower logical index.load/index.store to stride-scaled byte offsets",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::CFG,
};

/// The byte stride of `axis` when the type alone fixes it: explicit
/// `Strides`, or C / Fortran order with a static shape. With a dynamic
/// dimension anywhere the array may be any view (the interpreter and the
/// ABI take the caller's strides), so no stride is assumed.
pub fn static_stride(t: &TypeData, axis: usize) -> Option<i64> {
    let elem = t.dtype.size_bytes() as i64;
    let dims = match &t.shape {
        Shape::Dims(d) => d,
        Shape::Any => return None,
    };
    if axis >= dims.len() {
        return None;
    }
    if !matches!(t.layout, Layout::Strides(_)) && dims.iter().any(Option::is_none) {
        return None;
    }
    match &t.layout {
        Layout::Strides(s) => s.get(axis).copied(),
        Layout::COrder => dims[axis + 1..].iter().try_fold(elem, |acc, d| acc.checked_mul(i64::try_from((*d)?).ok()?)),
        Layout::FOrder => dims[..axis].iter().try_fold(elem, |acc, d| acc.checked_mul(i64::try_from((*d)?).ok()?)),
    }
}

impl FunctionPass for StrideLower {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, _: &mut Analyses) -> bool {
        let body = &func.body;
        // Which (array, axis) pairs need a stride, and where arrays are defined.
        let mut needed: Vec<(ValueId, u32)> = Vec::new();
        for v in body.tags.ids() {
            if let InstData::IndexLoad { array, indices } | InstData::IndexStore { array, indices, .. } = body.inst(v) {
                for axis in 0..indices.len() as u32 {
                    if !needed.contains(&(array, axis)) {
                        needed.push((array, axis));
                    }
                }
            }
        }
        if needed.is_empty() {
            return false;
        }
        // Arrays that `set` reassigns (a `let` local or a parameter) may be
        // another view by the time of an access: their dynamic strides are
        // read at each access instead of once.
        let reassigned: Vec<ValueId> = body
            .tags
            .ids()
            .filter_map(|v| match body.inst(v) {
                InstData::Set { target, .. } => Some(target),
                _ => None,
            })
            .collect();
        let mut names = NameGen::new(body);
        let old = std::mem::take(&mut func.body);
        let mut rw = Rewriter::new(&old);
        let nparams = old.num_params + old.num_core;
        let mut strides: HashMap<(ValueId, u32), ValueId> = HashMap::new();
        let emit_strides_of = |rw: &mut Rewriter<'_>,
                               names: &mut NameGen,
                               strides: &mut HashMap<_, _>,
                               arr: ValueId| {
            let Some(t) = old.types[arr].and_then(|t| cx.types.try_get(t)) else { return };
            for &(a, axis) in needed.iter().filter(|(a, _)| *a == arr) {
                let fixed = static_stride(t, axis as usize);
                if fixed.is_none() && reassigned.contains(&a) {
                    continue;
                }
                let base = format!("{}.s{axis}", old.name_or_empty(a));
                let name = names.fresh(&base);
                let v = match fixed {
                    Some(s) => rw.emit_const(TypeId::INT64, Literal::Int(s as i128), &name, None),
                    None => rw.emit(Opcode::Stride, Some(TypeId::INT64), [a.as_u32(), axis], &[], Some(&name), None),
                };
                strides.insert((a, axis), v);
            }
        };
        for b in old.blocks.ids() {
            rw.begin_old_block(b);
            if b.index() == 0 {
                for p in 0..nparams {
                    emit_strides_of(&mut rw, &mut names, &mut strides, ValueId::from_u32(p));
                }
            }
            for v in old.blocks[b].insts() {
                match old.inst(v) {
                    InstData::IndexLoad { array, indices } => {
                        let off = offset(&mut rw, &mut names, &old, &strides, array, indices.iter(), v);
                        let ty = old.types[v];
                        let name = old.name(v).map(str::to_owned);
                        let nv =
                            rw.emit(Opcode::Load, ty, [array.as_u32(), off.as_u32()], &[], name.as_deref(), old.loc(v));
                        rw.drop_inst(v);
                        rw.replace_uses(v, nv);
                    }
                    InstData::IndexStore { array, indices, value } => {
                        let off = offset(&mut rw, &mut names, &old, &strides, array, indices.iter(), v);
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
                        rw.copy(v);
                        if v.as_u32() >= nparams && old.types[v].is_some_and(|t| cx.types.is_array(t)) {
                            emit_strides_of(&mut rw, &mut names, &mut strides, v);
                        }
                    }
                }
            }
        }
        func.body = rw.finish();
        true
    }
}

/// Emits `Σ index_k × stride_k` (indices widened to Int64) and returns it.
fn offset(
    rw: &mut Rewriter<'_>,
    names: &mut NameGen,
    old: &postc_ir::Body,
    strides: &HashMap<(ValueId, u32), ValueId>,
    array: ValueId,
    indices: impl Iterator<Item = ValueId>,
    at: ValueId,
) -> ValueId {
    let loc = old.loc(at);
    let base = match old.name(at) {
        Some(n) => format!("{n}.off"),
        None => format!("{}.off", old.name_or_empty(array)),
    };
    let mut acc: Option<ValueId> = None;
    for (axis, idx) in indices.enumerate() {
        let idx = match old.types[idx] {
            Some(t) if t == TypeId::INT64 => idx,
            _ => {
                let n = names.fresh(&format!("{base}.i{axis}"));
                rw.emit(Opcode::Cast, Some(TypeId::INT64), [idx.as_u32(), 0], &[], Some(&n), loc)
            }
        };
        let stride = match strides.get(&(array, axis as u32)) {
            Some(&s) => s,
            None => {
                let n = names.fresh(&format!("{}.s{axis}", old.name_or_empty(array)));
                rw.emit(Opcode::Stride, Some(TypeId::INT64), [array.as_u32(), axis as u32], &[], Some(&n), loc)
            }
        };
        let n = names.fresh(&base);
        let term = rw.emit(Opcode::Mul, Some(TypeId::INT64), [idx.as_u32(), stride.as_u32()], &[], Some(&n), loc);
        acc = Some(match acc {
            None => term,
            Some(prev) => {
                let n = names.fresh(&base);
                rw.emit(Opcode::Add, Some(TypeId::INT64), [prev.as_u32(), term.as_u32()], &[], Some(&n), loc)
            }
        });
    }
    match acc {
        Some(a) => a,
        None => {
            let n = names.fresh(&base);
            rw.emit_const(TypeId::INT64, Literal::Int(0), &n, loc)
        }
    }
}
