//! `stride-version`: versions innermost counted loops on unit strides.
//! `stride-lower` reads the byte stride of an array axis whose layout is
//! not known statically once, before the loop, and every access in the
//! loop scales its index by it; a C compiler then cannot vectorise the
//! loop, since the addresses it reads need not be consecutive. A loop
//! whose accesses scale by such strides of their arrays' last axes gets a
//! guard in front of it:
//!
//! - when every one of those strides equals its array's element size (the
//!   arrays are contiguous along the axis), a copy of the loop runs, in
//!   which the strides are those constants;
//! - otherwise the original loop runs, as it was.
//!
//! The copy computes exactly what the original would with the strides it
//! was given, so every iteration runs in the same order with the same
//! effects whichever loop runs.
//!
//! A loop qualifies when:
//!
//! - it is innermost, with one latch, and its header holds only
//!   `%c = lt %i, %n` and `condbr %c, BODY, EXIT`, where `%c` is used
//!   nowhere else, and every edge leaving the loop other than the header's
//!   goes to a block that ends the function, which the copy gets a copy of;
//! - a `mul` in it reads a `stride %a, AXIS` computed outside the loop,
//!   where `%a` has a static rank and `AXIS` is its last, or a view made
//!   in it takes such a stride, or `C * stride` for a constant `C`
//!   computed outside the loop (the frontend's row view `a[i]`, a step
//!   slice `a[i, ::2]`), as a stride of its own: in the copy the view's
//!   stride is the element size (times `C`, computed in the guard), so a
//!   backend that inlines the function the view is passed to knows how far
//!   apart the view's elements are;
//! - it is not what a guard falls back to or what another loop over the
//!   same counter continues in (an earlier `stride-version` or `irce`
//!   left it behind), so that the pass is idempotent;
//! - the cost model of [`crate::loop_copy`] finds the copy worth it: the
//!   loop is not known to run fewer than 16 iterations, and has at most 64
//!   instructions (exits included) per multiply by one of those strides
//!   or view taking one.

use crate::analysis::{Analyses, AnalysisSet};
use crate::loop_copy::{
    copy_blocks, counted_loop, follows_copy, known_trip_count, label, pays, rebuild, Build, CopyMap, MAX_LOOP_INSTS,
    MIN_TRIP_COUNT,
};
use crate::manager::FuncCx;
use crate::rewrite::{for_each_operand_fast, NameGen};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{BlockId, Body, InstData, ValueId};
use postc_ir::cfg::{Cfg, DomTree};
use postc_ir::{EntityId, Function, Opcode, Shape, TypeId};

pub struct StrideVersion;

pub static INFO: PassInfo = PassInfo {
    name: "stride-version",
    description: "version innermost counted loops on unit strides of the arrays they access",
    scope: Scope::Function,
    needs: AnalysisSet::DOMINATORS,
    keeps: AnalysisSet::NAMES,
};

/// Loops that scale by more strides than this are left alone.
const MAX_STRIDES: usize = 8;

/// A loop to version.
struct Version {
    header: BlockId,
    /// The header, the loop's other blocks in reverse post-order, then the
    /// blocks ending the function that it exits to.
    copied: Vec<BlockId>,
    in_loop: Vec<bool>,
    /// Each run-time stride and the element size that makes it unit.
    strides: Vec<(ValueId, i64)>,
    /// Each view stride `mul C, STRIDE` computed before the loop, with `C`
    /// and `STRIDE`: the guard computes `C` times the element size for the
    /// copy.
    scaled: Vec<(ValueId, ValueId, ValueId)>,
}

impl FunctionPass for StrideVersion {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let body = &func.body;
        let tags = body.tags.raw();
        if !tags.contains(&Opcode::Stride) || !tags.contains(&Opcode::CondBr) || body.blocks.len() < 3 {
            return false;
        }
        let cfg = analyses.cfg(body).clone();
        let dom = analyses.dom(body);
        let versions: Vec<Version> =
            (1..body.blocks.len()).map(BlockId::new).filter_map(|h| find_version(cx, body, &cfg, dom, h)).collect();
        if versions.is_empty() {
            return false;
        }
        let names = NameGen::starting_at(analyses.name_start(body));
        let loops: Vec<(BlockId, &[bool])> = versions.iter().map(|v| (v.header, &v.in_loop[..])).collect();
        let next = rebuild(func, &loops, &cfg, names, cx.scratch, |bd, labels, k, guard| {
            emit_version(bd, labels, &versions[k], guard)
        });
        analyses.invalidate_except(AnalysisSet::NONE);
        analyses.set_name_start(Some(next));
        true
    }
}

/// The versioning of the loop headed by `header`, if it qualifies.
fn find_version(cx: &FuncCx<'_>, body: &Body, cfg: &Cfg, dom: &DomTree, header: BlockId) -> Option<Version> {
    let lp = counted_loop(body, cfg, dom, header)?;
    if follows_copy(body, cfg, dom, header, lp.counter, &lp.in_loop)
        || known_trip_count(body, &lp).is_some_and(|n| n < MIN_TRIP_COUNT)
    {
        return None;
    }
    let in_loop = lp.in_loop;
    let outside = |v: ValueId| body.block_of(v).is_some_and(|b| !in_loop[b.index()]);
    let mut strides: Vec<(ValueId, i64)> = Vec::new();
    // The multiplies by those strides and the views that take them: what
    // the copy makes constant.
    let mut strided = 0usize;
    let mut scaled: Vec<(ValueId, ValueId, ValueId)> = Vec::new();
    for &b in &lp.blocks {
        for v in body.blocks[b].insts() {
            match body.inst(v) {
                InstData::Binary { op: Opcode::Mul, left, right } => {
                    for s in [left, right] {
                        if last_axis_stride(cx, body, s, &outside, &mut strides) {
                            strided += 1;
                        }
                    }
                }
                InstData::View { strides: view_strides, .. } => {
                    for s in view_strides.iter() {
                        if last_axis_stride(cx, body, s, &outside, &mut strides) {
                            strided += 1;
                        } else if let Some((c, t)) = scaled_stride(cx, body, s, &outside, &mut strides) {
                            if !scaled.iter().any(|&(m, _, _)| m == s) {
                                scaled.push((s, c, t));
                            }
                            strided += 1;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if strides.is_empty() || strides.len() > MAX_STRIDES {
        return None;
    }
    // The header's compare must not be read after the loop, where the
    // copy's header does not define it.
    let mut more_used_outside = false;
    for b in body.blocks.ids().filter(|b| *b != header) {
        for v in body.blocks[b].insts() {
            for_each_operand_fast(body, v, |x| more_used_outside |= x == lp.more);
        }
    }
    if more_used_outside {
        return None;
    }
    let mut copied = vec![header];
    copied.extend_from_slice(&lp.blocks);
    let mut size = lp.size;
    for &b in &lp.blocks {
        for s in cfg.succs(b) {
            if !in_loop[s.index()] && !copied.contains(&s) {
                size += body.blocks[s].len();
                copied.push(s);
            }
        }
    }
    if size > MAX_LOOP_INSTS || !pays(size, strided) {
        return None;
    }
    Some(Version { header, copied, in_loop, strides, scaled })
}

/// Whether `s` is a `stride %a, AXIS` computed outside the loop, `AXIS`
/// the last of `%a`'s static rank; it is added to `strides` with the
/// element size that makes it unit.
fn last_axis_stride(
    cx: &FuncCx<'_>,
    body: &Body,
    s: ValueId,
    outside: &impl Fn(ValueId) -> bool,
    strides: &mut Vec<(ValueId, i64)>,
) -> bool {
    let InstData::Stride { array, axis } = body.inst(s) else { return false };
    if !outside(s) {
        return false;
    }
    if strides.iter().any(|&(t, _)| t == s) {
        return true;
    }
    let Some(ty) = body.types[array].and_then(|t| cx.types.try_get(t)) else { return false };
    let Shape::Dims(dims) = &ty.shape else { return false };
    if axis as usize + 1 != dims.len() {
        return false;
    }
    strides.push((s, i64::from(ty.dtype.size_bytes())));
    true
}

/// A view's stride computed outside the loop as `mul C, STRIDE` (or
/// `mul STRIDE, C`), `C` a constant and `STRIDE` one of
/// [`last_axis_stride`]'s: what the frontend writes for a slice's step
/// along the last axis (`a[i]`, `a[i, ::2]`). Returns `C` and `STRIDE`.
fn scaled_stride(
    cx: &FuncCx<'_>,
    body: &Body,
    s: ValueId,
    outside: &impl Fn(ValueId) -> bool,
    strides: &mut Vec<(ValueId, i64)>,
) -> Option<(ValueId, ValueId)> {
    let InstData::Binary { op: Opcode::Mul, left, right } = body.inst(s) else { return None };
    if !outside(s) || body.types[s] != Some(TypeId::INT64) {
        return None;
    }
    let is_const = |v: ValueId| matches!(body.inst(v), InstData::Const(_));
    let (c, t) = match (is_const(left), is_const(right)) {
        (true, false) => (left, right),
        (false, true) => (right, left),
        _ => return None,
    };
    last_axis_stride(cx, body, t, outside, strides).then_some((c, t))
}

/// The guard and the unit-stride copy of one loop.
fn emit_version(bd: &mut Build<'_, '_>, labels: &mut NameGen, ver: &Version, guard: BlockId) {
    let old = bd.old;
    let hlabel = old.label(ver.header).as_bytes();
    let mut map = CopyMap::new();
    for &b in &ver.copied {
        let n = bd.rw.new_block();
        map.blocks.insert(b, n);
    }
    let l = label(&mut bd.rw, labels, hlabel, b".unit.guard");
    bd.rw.begin_block_named(guard, l);
    let mut unit: Option<ValueId> = None;
    for &(stride, size) in &ver.strides {
        let elsize = bd.int(size, "elsize");
        let eq = bd.value(Opcode::Eq, TypeId::BOOL, [stride.as_u32(), elsize.as_u32()], &[], "unit");
        unit = Some(match unit {
            Some(u) => bd.value(Opcode::And, TypeId::BOOL, [u.as_u32(), eq.as_u32()], &[], "unit"),
            None => eq,
        });
        map.values.insert(stride, elsize);
    }
    let unit = unit.expect("a version has a stride");
    for &(s, c, stride) in &ver.scaled {
        let elsize = map.value(stride);
        let scaled = bd.value(Opcode::Mul, TypeId::INT64, [c.as_u32(), elsize.as_u32()], &[], "elsize");
        map.values.insert(s, scaled);
    }
    let copy_head = map.block(ver.header).as_u32();
    bd.rw.emit(Opcode::CondBr, None, [unit.as_u32(), 0], &[copy_head, ver.header.as_u32(), 0, 0], None, None);
    copy_blocks(bd, labels, &ver.copied, &mut map, b".unit", |_, _, _| false);
}
