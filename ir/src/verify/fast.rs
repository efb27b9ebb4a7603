//! The fast path of the instruction checks: flat tables, no decoding, no
//! allocation; it passes the common valid instructions and leaves the rest
//! (and every error) to the full checks.

use super::*;

// ---------------------------------------------------------------------------
// Raw payload slots.

/// Visits the value slots (`val`) and block slots (`block`) of an
/// instruction's payload without decoding it; returns false when the
/// `extra` pool does not hold the payload.
#[inline]
pub(super) fn raw_slots(body: &Body, v: ValueId, mut val: impl FnMut(u32), mut block: impl FnMut(u32)) -> bool {
    let (tag, ops) = (body.tags[v], body.ops[v]);
    if tag.format().layout().a == crate::opcode::Slot::Name && ops[0] == u32::MAX {
        return false;
    }
    let (extra_range, _) = crate::body::payload_ranges_in(tag, body.types[v], ops, &body.extra);
    if extra_range.end > body.extra.len() || extra_range.start > extra_range.end {
        return false;
    }
    let extra = &body.extra;
    crate::body::operand_places(tag, ops, extra, |p| val(p.read(ops, extra)), |p| block(p.read(ops, extra)));
    true
}

pub(super) const NONE: u32 = u32::MAX;

/// Each opcode's format and flags, by opcode number: one load instead of
/// a branch per question on the hot paths.
#[derive(Clone, Copy)]
pub(super) struct OpInfo {
    pub(super) format: Format,
    pub(super) has_result: bool,
    pub(super) terminator: bool,
}

pub(super) const OP_INFO: [OpInfo; Opcode::ALL.len()] = {
    let mut t = [OpInfo { format: Format::Param, has_result: false, terminator: false }; Opcode::ALL.len()];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        let op = Opcode::ALL[i];
        let (f, has_result, terminator) = (op.format(), op.has_result(), op.is_terminator());
        t[i] = OpInfo { format: f, has_result, terminator };
        i += 1;
    }
    t
};

#[inline(always)]
pub(super) fn op_info(op: Opcode) -> OpInfo {
    OP_INFO[op as usize]
}

/// A type as the fast path of the checks sees it.
#[derive(Clone, Copy)]
pub(super) struct TInfo {
    pub(super) dtype: DType,
    pub(super) array: bool,
    /// Number of axes; `NONE` when the shape does not fix it.
    pub(super) ndim: u32,
    /// The id of the same type without the output flag, when interned,
    /// else its own: two types are [`same_type`] iff these agree.
    pub(super) canon: u32,
    /// A tuple type: its other fields say nothing, so every instruction
    /// that makes or reads one is left to the full checks.
    pub(super) tuple: bool,
}

pub(super) fn type_infos(types: &TypeTable) -> Vec<TInfo> {
    types
        .iter()
        .map(|(id, t)| TInfo {
            dtype: t.dtype,
            array: t.is_array,
            ndim: t.ndim().map_or(NONE, |n| u32::try_from(n).unwrap_or(NONE)),
            canon: if t.is_output { types.lookup(&t.without_output()).unwrap_or(id) } else { id }.as_u32(),
            tuple: t.is_tuple(),
        })
        .collect()
}

impl<'p> Verifier<'p> {
    /// Every check of [`Verifier::check_inst`] on the common instructions
    /// of a structured body, on flat tables: true only when the instruction
    /// passes them all (false may also mean "not handled here"; the full
    /// checks then run and report).
    #[inline(always)]
    pub(super) fn fast_inst(&self, x: Fx<'p>, v: ValueId, blk: u32, reachable: bool) -> bool {
        let upre = self.dom.preorder_range(BlockId::from_u32(blk))[0];
        let body = x.body;
        let i = v.as_u32();
        let op = body.tags[v];
        let info = op_info(op);
        let fmt = info.format;
        let [p, q] = body.ops[v];
        let ti = &self.tinfo[..];
        let defs = &self.defs[..];
        let np = x.np as u32;
        // The result: a known type and a name exactly when the format has one.
        let rt = match body.types[v] {
            Some(t) => {
                let t = t.as_u32();
                if !info.has_result || t as usize >= ti.len() || body.names[v].is_none() || ti[t as usize].tuple {
                    return false;
                }
                t
            }
            None if info.has_result && op != Opcode::Call => return false,
            None => NONE,
        };
        // An operand: in range, with a result, dominated by its definition.
        macro_rules! o {
            ($raw:expr) => {{
                let raw: u32 = $raw;
                let Some(&Def { ty: t, lo, hi, .. }) = defs.get(raw as usize) else { return false };
                if t == NONE {
                    return false;
                }
                if reachable && raw >= np {
                    // Pre-order numbers of reachable blocks are distinct, so
                    // equal numbers mean the same block. Evaluated without
                    // branches: same-block and cross-block uses interleave
                    // unpredictably.
                    let same = (lo == upre) & (raw < i);
                    let below = (lo < upre) & (upre <= hi);
                    if !(same | below) {
                        return false;
                    }
                }
                let info = ti[t as usize];
                if info.tuple {
                    return false;
                }
                info
            }};
        }
        let ex = &body.extra[..];
        let nb = body.blocks.len() as u32;
        let target_ok = |t: u32| t < nb && t != 0;
        let scalar = |t: TInfo, d: DType| !t.array && t.dtype == d;
        match fmt {
            Format::Const => {
                let r = ti[rt as usize];
                if r.array || rt as usize >= DType::ALL.len() {
                    return false;
                }
                // The payload as `Body::inst` decodes it, for the dtypes
                // whose literal lives in the two slots.
                let wide = (p as u64) | ((q as u64) << 32);
                match r.dtype {
                    DType::Bool | DType::Int64 | DType::UInt64 | DType::Float64 => true,
                    DType::Int8 | DType::Int16 | DType::Int32 => Literal::Int(wide as i64 as i128).fits(r.dtype),
                    DType::UInt8 | DType::UInt16 | DType::UInt32 => Literal::Int(wide as i128).fits(r.dtype),
                    DType::Float16 | DType::Float32 => Literal::Float(p as u64).fits(r.dtype),
                    _ => matches!(body.inst(v), InstData::Const(lit) if lit.fits(r.dtype)),
                }
            }
            Format::Binary => {
                let (l, r2, r) = (o!(p), o!(q), ti[rt as usize]);
                if l.array || r2.array || r.array || l.dtype != r2.dtype {
                    return false;
                }
                match binary_rule(op, l.dtype) {
                    BinRule::Ok(want) => r.dtype == want,
                    BinRule::IntDiv => r.dtype.is_float(),
                    BinRule::NotDefined => false,
                }
            }
            Format::Unary => {
                let (a, r) = (o!(p), ti[rt as usize]);
                if a.array || r.array {
                    return false;
                }
                if op == Opcode::Cast {
                    a.dtype.is_numeric() && r.dtype.is_numeric()
                } else if op == Opcode::Bitcast {
                    a.dtype.bits_partner() == Some(r.dtype)
                } else {
                    unary_rule(op, a.dtype) == Some(r.dtype)
                }
            }
            Format::Let => o!(p).canon == ti[rt as usize].canon,
            Format::Set => {
                let (tt, t) = (o!(p), o!(q));
                matches!(body.tags[ValueId::from_u32(p)], Opcode::Let | Opcode::Param) && t.canon == tt.canon
            }
            Format::Select => {
                let Some(e) = ex.get(q as usize..(q as usize).saturating_add(2)) else { return false };
                let (c, a, b) = (o!(p), o!(e[0]), o!(e[1]));
                scalar(c, DType::Bool) && a.canon == b.canon && ti[rt as usize].canon == a.canon
            }
            Format::Axis => {
                let (at, r) = (o!(p), ti[rt as usize]);
                at.array && (at.ndim == NONE || q < at.ndim) && scalar(r, DType::Int64)
            }
            Format::IndexLoad | Format::IndexStore => {
                let q = q as usize;
                let Some(&n) = ex.get(q) else { return false };
                let Some(idx) = ex.get(q + 1..(q + 1).saturating_add(n as usize)) else { return false };
                let at = o!(p);
                if !at.array || (at.ndim != NONE && n != at.ndim) {
                    return false;
                }
                for &k in idx {
                    let t = o!(k);
                    if t.array || !t.dtype.is_int() {
                        return false;
                    }
                }
                let val = if fmt == Format::IndexLoad {
                    ti[rt as usize]
                } else {
                    let Some(&x) = ex.get(q + 1 + n as usize) else { return false };
                    o!(x)
                };
                scalar(val, at.dtype)
            }
            Format::Call => {
                let q = q as usize;
                let Some(&n) = ex.get(q) else { return false };
                let Some(args) = ex.get(q + 1..(q + 1).saturating_add(n as usize)) else { return false };
                if p == u32::MAX {
                    return false;
                }
                for &a in args {
                    o!(a);
                }
                let Some(m) = self.m else { return true };
                let name = body.strings.get_bytes(crate::NameId::from_u32(p));
                match self.callees.get(name) {
                    Some(Callee::Post | Callee::Broken) => true,
                    Some(Callee::Intrinsic) => {
                        let numeric = |&a: &u32| {
                            let t = ti[defs[a as usize].ty as usize];
                            !t.array && t.dtype.is_numeric()
                        };
                        args.iter().all(numeric)
                            && (rt == NONE || {
                                let r = ti[rt as usize];
                                !r.array && r.dtype.is_float()
                            })
                    }
                    Some(Callee::Func(cm, cf)) if std::ptr::eq(*cm, m) => {
                        let g = &cm.functions[*cf];
                        if g.attrs.contains(FuncAttrs::KERNEL) {
                            return false;
                        }
                        let gb = &g.body;
                        let gnp = (gb.num_params as usize + gb.num_core as usize).min(gb.types.len());
                        if args.len() != gnp {
                            return false;
                        }
                        let canon = |t: Option<TypeId>| t.and_then(|t| ti.get(t.index())).map(|t| t.canon);
                        for (k, &a) in args.iter().enumerate() {
                            let at = ti[defs[a as usize].ty as usize].canon;
                            if canon(gb.types[ValueId::new(k)]) != Some(at) {
                                return false;
                            }
                        }
                        match (rt, g.ret) {
                            (NONE, None) => true,
                            (NONE, Some(_)) => false,
                            (r, gr) => gr.is_some() && canon(gr) == Some(ti[r as usize].canon),
                        }
                    }
                    _ => false,
                }
            }
            Format::Return => {
                if p == NO_VALUE {
                    x.f.ret.is_none()
                } else {
                    let t = o!(p);
                    x.f.ret.and_then(|r| ti.get(r.index())).is_some_and(|r| r.canon == t.canon)
                }
            }
            Format::Br => target_ok(p),
            Format::CondBr => {
                let Some(e) = ex.get(q as usize..(q as usize).saturating_add(4)) else { return false };
                scalar(o!(p), DType::Bool) && target_ok(e[0]) && target_ok(e[1])
            }
            Format::Unreachable => true,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_info_matches_the_opcode_table() {
        for &op in Opcode::ALL {
            let i = op_info(op);
            assert_eq!(i.format, op.format());
            assert_eq!(i.has_result, op.format().has_result());
            assert_eq!(i.terminator, op.is_terminator());
        }
    }

    /// Differential test of the fast path: on every program and invalid
    /// input in the tree, on generated modules and on those modules with
    /// payloads, types and tags scrambled, verifying with the fast path and
    /// with the full checks alone gives exactly the same diagnostics.
    #[test]
    fn fast_path_and_full_checks_agree() {
        use crate::gen::{arbitrary_module, seeded_bytes, GenConfig};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut modules = Vec::new();
        for dir in ["tests/programs", "tests/invalid", "tests/gpu", "examples", "passes/tests/filetests"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "pir") {
                    let bytes = std::fs::read(&p).unwrap();
                    if let Ok(m) = crate::parse::parse_module(&p.display().to_string(), &bytes) {
                        modules.push(m);
                    }
                }
            }
        }
        assert!(modules.len() > 40, "only {} modules read", modules.len());
        for seed in 0..60u64 {
            let bytes = seeded_bytes(seed, 4096);
            let mut u = arbitrary::Unstructured::new(&bytes);
            if let Ok(m) = arbitrary_module(&mut u, &GenConfig::default()) {
                modules.push(m);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n.max(1) as u64) as usize
        };
        let mut compared = 0;
        let mut with_errors = 0;
        for m in &modules {
            let mut variants = vec![m.clone()];
            for _ in 0..6 {
                let mut x = m.clone();
                for f in x.functions.iter_mut() {
                    let n = f.body.num_insts();
                    if n == 0 {
                        continue;
                    }
                    let v = ValueId::from_u32(rnd(n) as u32);
                    match rnd(4) {
                        0 => f.body.types[v] = Some(TypeId::from_u32(rnd(x.types.len() + 2) as u32)),
                        1 => f.body.ops[v][rnd(2)] = rnd(n + 3) as u32,
                        2 => f.body.tags[v] = Opcode::ALL[rnd(Opcode::ALL.len())],
                        _ => {
                            let w = ValueId::from_u32(rnd(n) as u32);
                            f.body.types.raw_mut().swap(v.index(), w.index());
                        }
                    }
                }
                variants.push(x);
            }
            for x in &variants {
                let fast = Verifier::new(x).verify_module();
                let full = Verifier::new(x).without_fast_path().verify_module();
                assert_eq!(fast, full, "module {}", x.name);
                compared += 1;
                with_errors += !fast.is_empty() as usize;
            }
        }
        assert!(compared > 300 && with_errors > 100, "{compared} compared, {with_errors} with errors");
    }
}
