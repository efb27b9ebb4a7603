//! `const-fold`: evaluates instructions whose operands are constants, with
//! the reference interpreter's semantics (docs/ir-text.md, Semantics: Python floor division,
//! wrapping, saturating casts), so folding and running never disagree. An
//! operation that would panic is left in place: a panic is never folded
//! away. An integer division or modulo by a constant zero, or a negative
//! constant shift count or exponent, always panics: its block then ends in
//! `unreachable`, since nothing after it runs. Also folds `dim`/`stride`
//! fixed by a static type and `postc.ovf.*` checks of constants. Results that depend on a libm (`pow` on floats,
//! complex division, magnitude, intrinsic calls) are not folded.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::scratch::ScratchVec;
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{Body, InstData, ValueId};
use postc_ir::builtins::Builtin;
use postc_ir::interp::fold::{
    binary_scalar, cast_scalar, fold_binary, fold_bitcast, fold_cast, fold_overflow, fold_unary, literal_value,
    unary_scalar, value_literal, Fast, Scalar,
};
use postc_ir::interp::Value;
use postc_ir::opcode::Format;
use postc_ir::{DType, EntityId, Function, Opcode, Shape, Trap, TypeId};

pub struct ConstFold;

pub static INFO: PassInfo = PassInfo {
    name: "const-fold",
    description: "evaluate instructions on constants with the interpreter's semantics; never folds a panic away",
    scope: Scope::Function,
    // A graph only when operands come after their readers in the layout
    // (see [`evaluate`]).
    needs: AnalysisSet::NONE,
    // Folding renames nothing and drops no name (an unnamed result is
    // named `c`). A block cut short by a certain panic drops the graph
    // itself.
    keeps: AnalysisSet::CFG.union(AnalysisSet::NAMES),
};

impl FunctionPass for ConstFold {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        fold(cx, func, analyses, false)
    }
}

/// Folds `func` as [`ConstFold`] does. With `reachable_only`, only the
/// blocks that the entry reaches once branches on constants are taken are
/// evaluated: the others keep their instructions unfolded, so this is for a
/// caller that drops every block that is unreachable after the branches
/// are folded (see [`crate::cleanup`]). Returns whether anything changed.
pub(crate) fn fold(cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses, reachable_only: bool) -> bool {
    let scratch = cx.scratch;
    let n = func.body.num_insts();
    let (mut known, mut fast, mut slow) = (scratch.vec_with_capacity(n), scratch.vec(), scratch.vec());
    let (mut folded, mut panics) = (scratch.vec(), scratch.vec());
    let (visited, stack, args) = (&mut scratch.vec(), &mut scratch.vec(), &mut scratch.vec());
    let first = (func.body.num_params + func.body.num_core).min(n as u32);
    let mut st = State {
        known: &mut known,
        fast: &mut fast,
        slow: &mut slow,
        folded: &mut folded,
        panics: &mut panics,
        at: 0,
        first,
        walk: false,
        forward: false,
    };
    let mut any = false;
    if reachable_only {
        st.walk = true;
        any = evaluate(cx, &func.body, Order::Walk { visited, stack }, &mut st, args);
        st.walk = false;
    }
    if !reachable_only || st.forward {
        // Every block, in layout order.
        st.reset();
        any = evaluate(cx, &func.body, Order::Layout, &mut st, args);
    }
    if st.forward {
        // An operand defined further down: again in reverse
        // post-order, where every definition comes first.
        st.reset();
        let cfg = analyses.cfg(&func.body);
        any = evaluate(cx, &func.body, Order::Rpo(cfg.rpo_raw()), &mut st, args);
    }
    if any {
        write_back(&mut func.body, &mut st);
    }
    if !st.panics.is_empty() && end_in_unreachable(&mut func.body, st.panics) {
        analyses.invalidate_cfg();
        any = true;
    }
    any
}

/// Whether a binary instruction of result type `rd` always panics with the
/// right operand `y` (as the interpreter does): an integer division or
/// modulo by zero, a negative shift count or integer exponent.
fn always_panics(op: Opcode, rd: Option<DType>, y: Option<Scalar>) -> bool {
    let (Some(rd), Some(Scalar::Int(d, y))) = (rd, y) else { return false };
    if d != rd || !rd.is_int() {
        return false;
    }
    match op {
        Opcode::FDiv | Opcode::Mod | Opcode::Quot | Opcode::Rem => y == 0,
        Opcode::Shl | Opcode::Shr | Opcode::Pow => y < 0,
        _ => false,
    }
}

/// Makes each block of `blocks` (which hold an instruction that always
/// panics) end in `unreachable`: what follows that instruction never runs,
/// and the blocks the old terminator led to lose an edge. Returns whether
/// any block changed.
fn end_in_unreachable(body: &mut Body, blocks: &mut ScratchVec<'_, u32>) -> bool {
    blocks.sort_unstable();
    blocks.dedup();
    let mut changed = false;
    for &b in blocks.iter() {
        let Some(&d) = body.blocks.raw().get(b as usize) else { continue };
        if d.end <= d.start || d.end as usize > body.num_insts() {
            continue;
        }
        let t = ValueId::from_u32(d.end - 1);
        if body.tags[t] == Opcode::Unreachable {
            continue;
        }
        body.tags[t] = Opcode::Unreachable;
        body.types[t] = None;
        body.ops[t] = [0, 0];
        body.names[t] = None;
        changed = true;
    }
    changed
}

/// The order in which [`evaluate`] visits blocks.
enum Order<'a, 's> {
    /// Every block, in layout order.
    Layout,
    /// The reachable blocks, in reverse post-order.
    Rpo(&'a [u32]),
    /// The blocks the entry reaches when a branch on a known condition
    /// goes only the way it will go, depth first: a block comes after
    /// every block on the path that led to it, so after its dominators.
    Walk { visited: &'a mut ScratchVec<'s, bool>, stack: &'a mut ScratchVec<'s, u32> },
}

/// `known[v]`: not evaluated yet, a constant whose literal has no value,
/// the index of `v`'s value among the scalars, or (with [`SLOW`] set) among
/// the interpreter values.
const UNKNOWN: u32 = u32::MAX;
const NO_LITERAL: u32 = u32::MAX - 1;
/// An instruction that was evaluated and has no known value.
const NOT_CONST: u32 = u32::MAX - 2;
const SLOW: u32 = 1 << 31;
/// What the name of every `postc.ovf.*` built-in starts with.
const OVF_PREFIX: &[u8] = b"postc.ovf.";

/// The evaluation's tables, in the worker's scratch memory (`'s`).
struct State<'b, 's> {
    known: &'b mut ScratchVec<'s, u32>,
    /// Bool, integer and float values, folded from the payloads directly.
    fast: &'b mut ScratchVec<'s, Scalar>,
    /// Complex, Str and Bytes values, through the interpreter.
    slow: &'b mut ScratchVec<'s, Value>,
    /// The instructions that got a value.
    folded: &'b mut ScratchVec<'s, u32>,
    /// The blocks with an instruction that always panics.
    panics: &'b mut ScratchVec<'s, u32>,
    /// The instruction being evaluated.
    at: u32,
    /// The first instruction after the parameters (and core values).
    first: u32,
    /// Whether blocks are visited by [`Order::Walk`].
    walk: bool,
    /// Whether an instruction read an operand that was not evaluated yet.
    forward: bool,
}

/// A known value: a scalar, or an interpreter value.
#[derive(Clone, Copy)]
enum Known<'v> {
    Fast(Scalar),
    Slow(&'v Value),
}

impl Known<'_> {
    fn value(self) -> Value {
        match self {
            Known::Fast(s) => s.to_value(),
            Known::Slow(v) => v.clone(),
        }
    }
}

impl State<'_, '_> {
    fn reset(&mut self) {
        self.known.clear();
        self.fast.clear();
        self.slow.clear();
        self.folded.clear();
        self.panics.clear();
        self.forward = false;
    }

    /// Where the value of `x` is, if known; a constant's is computed when
    /// an instruction first reads it.
    #[inline]
    fn index(&mut self, body: &Body, x: u32) -> Option<u32> {
        let k = *self.known.get(x as usize)?;
        let k = if k == UNKNOWN { self.literal(body, x)? } else { k };
        (k < NOT_CONST).then_some(k)
    }

    #[inline]
    fn fast_at(&self, k: u32) -> Option<Scalar> {
        if k & SLOW != 0 {
            return None;
        }
        self.fast.get(k as usize).copied()
    }

    fn at(&self, k: u32) -> Option<Known<'_>> {
        if k & SLOW != 0 {
            self.slow.get((k & !SLOW) as usize).map(Known::Slow)
        } else {
            self.fast.get(k as usize).copied().map(Known::Fast)
        }
    }

    fn value_at(&self, k: u32) -> Option<Value> {
        self.at(k).map(Known::value)
    }

    #[cold]
    fn literal_slow(&mut self, body: &Body, x: u32) -> u32 {
        let v = ValueId::from_u32(x);
        let val = match (body.inst(v), body.types[v].and_then(|t| DType::from_index(t.as_u32()))) {
            (InstData::Const(lit), Some(d)) => literal_value(d, lit),
            _ => None,
        };
        match val {
            Some(val) => self.push_value(val),
            None => NO_LITERAL,
        }
    }

    fn literal(&mut self, body: &Body, x: u32) -> Option<u32> {
        if body.tags.raw()[x as usize] != Opcode::Const {
            // Not evaluated yet: defined further down the layout, or (on a
            // walk, where every evaluated instruction is marked) in a block
            // not visited yet.
            self.forward |= if self.walk { x >= self.first } else { x > self.at };
            return None;
        }
        let v = ValueId::from_u32(x);
        let k = match body.types[v].and_then(|t| DType::from_index(t.as_u32())) {
            Some(d) => match Scalar::from_payload(d, body.ops[v]) {
                Some(s) => self.push_fast(s),
                None => self.literal_slow(body, x),
            },
            None => NO_LITERAL,
        };
        self.known[x as usize] = k;
        Some(k)
    }

    fn push_fast(&mut self, s: Scalar) -> u32 {
        self.fast.push(s);
        (self.fast.len() - 1) as u32
    }

    fn push_value(&mut self, v: Value) -> u32 {
        match Scalar::from_value(&v) {
            Some(s) => self.push_fast(s),
            None => {
                self.slow.push(v);
                (self.slow.len() - 1) as u32 | SLOW
            }
        }
    }
}

/// Evaluates every instruction it can, block by block in `order`; returns
/// whether any instruction other than a constant got a value. In layout
/// order no graph is needed, and it is as good as reverse post-order when
/// every operand is defined above its readers (`st.forward` says it was
/// not).
fn evaluate(
    cx: &FuncCx<'_>,
    body: &Body,
    order: Order<'_, '_>,
    st: &mut State<'_, '_>,
    args: &mut ScratchVec<'_, Value>,
) -> bool {
    let n = body.num_insts();
    st.known.resize(n, UNKNOWN);
    let nblocks = body.blocks.len();
    let mut any = false;
    match order {
        Order::Layout => {
            for b in 0..nblocks {
                any |= evaluate_block(cx, body, b, st, args);
            }
        }
        Order::Rpo(order) => {
            for &b in order {
                any |= evaluate_block(cx, body, b as usize, st, args);
            }
        }
        Order::Walk { visited, stack } => {
            visited.clear();
            visited.resize(nblocks, false);
            stack.clear();
            if nblocks > 0 {
                visited[0] = true;
                stack.push(0);
            }
            while let Some(b) = stack.pop() {
                any |= evaluate_block(cx, body, b as usize, st, args);
                let d = body.blocks.raw()[b as usize];
                if d.end <= d.start || d.end as usize > n || st.panics.last() == Some(&b) {
                    continue;
                }
                let t = d.end as usize - 1;
                let [a, at] = body.ops.raw()[t];
                let mut push = |x: u32| {
                    if let Some(v) = visited.get_mut(x as usize) {
                        if !*v {
                            *v = true;
                            stack.push(x);
                        }
                    }
                };
                match body.tags.raw()[t] {
                    Opcode::Br => push(a),
                    Opcode::CondBr => {
                        let Some(&[if_true, if_false]) = body.extra.get(at as usize..at as usize + 2) else { continue };
                        // Only a Bool constant decides a branch (as
                        // `simplify-cfg` reads it).
                        let cond = ValueId::from_u32(a);
                        let known = match body.types.get(cond).copied().flatten() {
                            Some(TypeId::BOOL) => st.index(body, a).and_then(|k| st.fast_at(k)),
                            _ => None,
                        };
                        match known {
                            Some(Scalar::Bool(c)) => push(if c { if_true } else { if_false }),
                            _ => {
                                push(if_false);
                                push(if_true);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    any
}

/// Evaluates the instructions of block `b`; returns whether any other than
/// a constant got a value.
fn evaluate_block(
    cx: &FuncCx<'_>,
    body: &Body,
    bi: usize,
    st: &mut State<'_, '_>,
    args: &mut ScratchVec<'_, Value>,
) -> bool {
    let n = body.num_insts();
    let (tags, ops) = (body.tags.raw(), body.ops.raw());
    let checks = cx.options.overflow_checks;
    // A scalar type's id is its dtype's index (see `TypeId::scalar`).
    let dtype = |v: usize| {
        let t = body.types.raw()[v]?;
        DType::from_index(t.as_u32()).or_else(|| cx.types.try_get(t).map(|t| t.dtype))
    };
    let mut any = false;
    let Some(&d) = body.blocks.raw().get(bi) else { return false };
    for i in d.start as usize..(d.end as usize).min(n) {
        st.at = i as u32;
        // A constant is decoded when first read.
        if tags[i] != Opcode::Const {
            st.known[i] = NOT_CONST;
        }
        let [a, b] = ops[i];
        let op = tags[i];
        let result: Option<Value> = match op.format() {
            Format::Binary => {
                let y = st.index(body, b);
                if matches!(op.trap(), Trap::IntResult | Trap::IntOrComplexResult)
                    && always_panics(op, dtype(i), y.and_then(|k| st.fast_at(k)))
                {
                    // Nothing after it in the block runs.
                    st.panics.push(bi as u32);
                    break;
                }
                let Some(y) = y else { continue };
                let Some(x) = st.index(body, a) else { continue };
                let Some(rd) = dtype(i) else { continue };
                if libm_dependent(op, rd) {
                    continue;
                }
                if let (Some(x), Some(y)) = (st.fast_at(x), st.fast_at(y)) {
                    if let Fast::Done(r) = binary_scalar(op, rd, x, y, checks) {
                        any |= record(st, i, r, rd);
                        continue;
                    }
                }
                let (Some(x), Some(y)) = (st.value_at(x), st.value_at(y)) else { continue };
                fold_binary(op, rd, &x, &y, checks)
            }
            Format::Unary => {
                let Some(x) = st.index(body, a) else { continue };
                let Some(rd) = dtype(i) else { continue };
                if op == Opcode::Bitcast {
                    let Some(x) = st.value_at(x) else { continue };
                    any |= record_value(st, i, fold_bitcast(rd, &x), rd);
                    continue;
                }
                if let Some(s) = st.fast_at(x) {
                    let r = match op {
                        Opcode::Cast => match cast_scalar(rd, s) {
                            Fast::Done(r) => r,
                            Fast::Slow => {
                                let r = fold_cast(rd, &s.to_value());
                                any |= record_value(st, i, r, rd);
                                continue;
                            }
                        },
                        _ => unary_scalar(op, s, checks),
                    };
                    any |= record(st, i, r, rd);
                    continue;
                }
                let Some(x) = st.value_at(x) else { continue };
                match op {
                    Opcode::Cast => fold_cast(rd, &x),
                    Opcode::Abs if x.dtype().is_complex() => None,
                    _ => fold_unary(op, rd, &x, checks),
                }
            }
            Format::Select => {
                let (Some(&t), Some(&f)) = (body.extra.get(b as usize), body.extra.get(b as usize + 1)) else {
                    continue;
                };
                let c = match st.index(body, a).and_then(|k| st.fast_at(k)) {
                    Some(Scalar::Bool(c)) => c,
                    _ => continue,
                };
                let Some(rd) = dtype(i) else { continue };
                let Some(k) = st.index(body, if c { t } else { f }) else { continue };
                if let Some(s) = st.fast_at(k) {
                    any |= record(st, i, Some(s), rd);
                    continue;
                }
                st.value_at(k)
            }
            Format::Axis => {
                let Some(rd) = dtype(i) else { continue };
                let t = body.types.raw().get(a as usize).copied().flatten().and_then(|t| cx.types.try_get(t));
                let r = match (op, t) {
                    (Opcode::Dim, Some(t)) => match &t.shape {
                        Shape::Dims(d) => {
                            d.get(b as usize).copied().flatten().map(|x| Scalar::Int(DType::Int64, x as i64 as i128))
                        }
                        _ => None,
                    },
                    (Opcode::Stride, Some(t)) => {
                        t.static_stride(b as usize).map(|x| Scalar::Int(DType::Int64, x as i128))
                    }
                    _ => None,
                };
                any |= record(st, i, r, rd);
                continue;
            }
            Format::Call => {
                // Only the overflow built-ins fold: look at the callee's name first.
                if !body.strings.get_bytes(postc_ir::NameId::from_u32(a)).starts_with(OVF_PREFIX) {
                    continue;
                }
                let InstData::Call { callee, args: list } = body.inst(ValueId::new(i)) else { continue };
                let Some(Builtin::Overflows(ovf)) = Builtin::from_name(callee) else { continue };
                args.clear();
                for x in list.iter() {
                    match st.index(body, x.as_u32()).and_then(|k| st.value_at(k)) {
                        Some(v) => args.push(v),
                        None => break,
                    }
                }
                if args.len() != list.len() {
                    continue;
                }
                fold_overflow(ovf, args)
            }
            _ => continue,
        };
        let Some(rd) = dtype(i) else { continue };
        any |= record_value(st, i, result, rd);
    }
    any
}

/// Records the value of instruction `i` if it is a scalar of `rd`.
#[inline]
fn record(st: &mut State<'_, '_>, i: usize, r: Option<Scalar>, rd: DType) -> bool {
    match r {
        Some(r) if r.dtype() == rd => {
            st.known[i] = st.push_fast(r);
            st.folded.push(i as u32);
            true
        }
        _ => false,
    }
}

/// Records the value of instruction `i` if it is a non-array value of `rd`.
fn record_value(st: &mut State<'_, '_>, i: usize, r: Option<Value>, rd: DType) -> bool {
    match r {
        Some(r) if !r.is_array() && r.dtype() == rd => {
            st.known[i] = st.push_value(r);
            st.folded.push(i as u32);
            true
        }
        _ => false,
    }
}

/// Turns every folded instruction into a constant where it stands: it
/// keeps its id, name and type, so no use needs rewriting and nothing
/// moves. Its location becomes explicit, as for any synthesized
/// instruction (see [`crate::rewrite::Rewriter::emit`]).
fn write_back(body: &mut Body, st: &mut State<'_, '_>) {
    // In layout order, as a rebuild would meet them.
    st.folded.sort_unstable();
    for &i in st.folded.iter() {
        let i = i as usize;
        let k = st.known[i];
        if k >= NO_LITERAL || body.tags.raw()[i] == Opcode::Const {
            continue;
        }
        let v = ValueId::new(i);
        let Some(ty) = body.types[v] else { continue };
        let lit = if k & SLOW != 0 {
            match st.slow.get((k & !SLOW) as usize).and_then(value_literal) {
                Some(l) => l,
                None => continue,
            }
        } else {
            match st.fast.get(k as usize) {
                Some(s) => s.literal().to_owned(),
                None => continue,
            }
        };
        let dt = DType::from_index(ty.as_u32()).unwrap_or(DType::Int64);
        let payload = body.encode_literal(dt, lit.as_literal());
        body.tags[v] = Opcode::Const;
        body.ops[v] = payload;
        if body.names[v].is_none() {
            body.names[v] = Some(body.strings.push("c"));
        }
        let loc = crate::rewrite::explicit(body.loc(v));
        body.set_loc(v, loc);
    }
}

/// Whether the folded result would depend on the host's libm rather than
/// on exactly specified arithmetic.
fn libm_dependent(op: Opcode, rd: DType) -> bool {
    match op {
        Opcode::Pow => !rd.is_int(),
        Opcode::Div => rd.is_complex(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use postc_ir::builtins::OvfOp;

    #[test]
    fn every_overflow_builtin_has_the_prefix() {
        for op in OvfOp::ALL {
            assert!(op.name().as_bytes().starts_with(OVF_PREFIX), "{}", op.name());
        }
    }
}
