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
//!   where `%a` has a static rank and `AXIS` is its last;
//! - it is not what a guard falls back to or what another loop over the
//!   same counter continues in (an earlier `stride-version` or `irce`
//!   left it behind), so that the pass is idempotent;
//! - the cost model of [`crate::loop_copy`] finds the copy worth it: the
//!   loop is not known to run fewer than 16 iterations, and has at most 64
//!   instructions (exits included) per multiply by one of those strides.

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
    // The multiplies by those strides: what the copy makes constant.
    let mut strided = 0usize;
    for &b in &lp.blocks {
        for v in body.blocks[b].insts() {
            let InstData::Binary { op: Opcode::Mul, left, right } = body.inst(v) else { continue };
            for s in [left, right] {
                let InstData::Stride { array, axis } = body.inst(s) else { continue };
                if !outside(s) {
                    continue;
                }
                if strides.iter().any(|&(t, _)| t == s) {
                    strided += 1;
                    continue;
                }
                let Some(ty) = body.types[array].and_then(|t| cx.types.try_get(t)) else { continue };
                let Shape::Dims(dims) = &ty.shape else { continue };
                if axis as usize + 1 == dims.len() {
                    strides.push((s, i64::from(ty.dtype.size_bytes())));
                    strided += 1;
                }
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
    Some(Version { header, copied, in_loop, strides })
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
    let copy_head = map.block(ver.header).as_u32();
    bd.rw.emit(Opcode::CondBr, None, [unit.as_u32(), 0], &[copy_head, ver.header.as_u32(), 0, 0], None, None);
    copy_blocks(bd, labels, &ver.copied, &mut map, b".unit", |_, _, _| false);
}
