//! `legalize`: writes out, in primitive instructions every backend lowers
//! one way, the integer operations whose Python meaning would otherwise be
//! written in each backend: the last pass before code generation, so the
//! backends (LLVM, C, QBE, wasm) get the same instructions and the meaning
//! lives here alone.
//!
//! - Integer `fdiv` and `mod` (floor division and modulo) become the
//!   truncating `quot` and `rem` and the floor adjustment (a nonzero
//!   remainder whose sign differs from the divisor's moves the quotient
//!   down by one and the remainder up by the divisor), in selects. A
//!   divisor of -1 gives the wrapped negation and 0 (`MIN // -1` wraps, at
//!   every level); a zero divisor, which only a program compiled without
//!   division checks reaches, gives 0. So `quot` and `rem` never see a zero
//!   divisor or `MIN / -1`, which are undefined in every target. With a
//!   constant divisor other than 0 and -1 none of that is written, and an
//!   unsigned division or modulo is its truncating one.
//! - Integer `pow` becomes a loop of squarings: `r = 1; while e > 0: if e &
//!   1: r *= b; e >>= 1; if e: b *= b` on locals, the multiplications
//!   wrapping. A negative exponent (only without division checks) gives 1,
//!   an unsigned one is never negative.
//!
//! Nothing written here overflows where the original instruction does not,
//! so the reference interpreter, which at -O0 panics on any overflowing
//! `add sub mul`, gives the legalized function the original's meaning.
//!
//! It does not touch floats or complex numbers, whose `//`, `%` and `**`
//! the backends still lower, nor the checks: `insert-checks` has already
//! guarded the zero divisor, the negative exponent and (at -O0) the
//! overflow of a power (`postc.ovf.pow`), with the original instruction's
//! location; the instructions written here carry that location too.

use crate::analysis::{Analyses, AnalysisSet};
use crate::manager::FuncCx;
use crate::rewrite::{NameGen, Rewriter};
use crate::{FunctionPass, PassInfo, Scope};
use postc_ir::body::{Body, InstData, Literal, ValueId};
use postc_ir::{DType, Function, Opcode, SrcLoc, TypeId};

pub struct Legalize;

pub static INFO: PassInfo = PassInfo {
    name: "legalize",
    description: "write integer floor division, modulo and power out in primitives every backend lowers alike",
    scope: Scope::Function,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NAMES,
};

/// Whether instruction `v` of `body` is rewritten, and its integer dtype.
fn legalized(body: &Body, cx: &FuncCx<'_>, v: ValueId) -> Option<DType> {
    if !matches!(body.tags[v], Opcode::FDiv | Opcode::Mod | Opcode::Pow) {
        return None;
    }
    let d = body.types.get(v).copied().flatten().map(|t| cx.types.dtype(t))?;
    d.is_int().then_some(d)
}

impl FunctionPass for Legalize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, cx: &FuncCx<'_>, func: &mut Function, analyses: &mut Analyses) -> bool {
        let old = std::mem::take(&mut func.body);
        if !old.tags.ids().any(|v| legalized(&old, cx, v).is_some()) {
            func.body = old;
            return false;
        }
        let names = NameGen::starting_at(analyses.name_start(&old));
        let labels = names.same_start();
        let mut w = Writer { rw: Rewriter::new(&old, cx.scratch), names, labels };
        for b in old.blocks.ids() {
            w.rw.begin_old_block(b);
            let d = old.blocks[b];
            let mut run_start = d.start;
            for i in d.start..d.end {
                let v = ValueId::from_u32(i);
                let Some(dtype) = legalized(&old, cx, v) else { continue };
                w.rw.copy_range(ValueId::from_u32(run_start), v);
                run_start = i + 1;
                let InstData::Binary { op, left, right } = old.inst(v) else { unreachable!("a binary opcode") };
                let loc = old.loc(v);
                let result = match op {
                    Opcode::Pow => w.power(v, dtype, left, right, loc),
                    _ => w.floor(&old, v, op == Opcode::FDiv, dtype, left, right, loc),
                };
                w.rw.drop_inst(v);
                w.rw.replace_uses(v, result);
            }
            w.rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
        }
        func.body = w.rw.finish();
        analyses.set_name_start(Some(w.names.peek().max(w.labels.peek())));
        cx.scratch.recycle(old);
        true
    }
}

struct Writer<'a> {
    rw: Rewriter<'a>,
    names: NameGen,
    labels: NameGen,
}

impl Writer<'_> {
    fn value(
        &mut self,
        op: Opcode,
        ty: TypeId,
        ops: [u32; 2],
        extra: &[u32],
        base: &str,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let n = self.rw.fresh_name(&mut self.names, &[base.as_bytes()]);
        self.rw.emit_with_name(op, Some(ty), ops, extra, Some(n), loc)
    }

    fn binary(&mut self, op: Opcode, ty: TypeId, a: ValueId, b: ValueId, base: &str, loc: Option<SrcLoc>) -> ValueId {
        self.value(op, ty, [a.as_u32(), b.as_u32()], &[], base, loc)
    }

    fn select(&mut self, ty: TypeId, c: ValueId, t: ValueId, f: ValueId, base: &str, loc: Option<SrcLoc>) -> ValueId {
        self.value(Opcode::Select, ty, [c.as_u32(), 0], &[t.as_u32(), f.as_u32()], base, loc)
    }

    fn int(&mut self, ty: TypeId, x: i128, base: &str) -> ValueId {
        let n = self.rw.fresh_name(&mut self.names, &[base.as_bytes()]);
        self.rw.emit_const_with_name(ty, Literal::Int(x), Some(n), None)
    }

    /// An instruction under the name of `v`, which it replaces.
    fn named_as(
        &mut self,
        v: ValueId,
        op: Opcode,
        ty: TypeId,
        ops: [u32; 2],
        extra: &[u32],
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let n = self.rw.copy_name(v);
        self.rw.emit_with_name(op, Some(ty), ops, extra, n, loc)
    }

    /// `left // right` or `left % right` on integers of dtype `d`.
    fn floor(
        &mut self,
        old: &Body,
        v: ValueId,
        div: bool,
        d: DType,
        left: ValueId,
        right: ValueId,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let ty = TypeId::scalar(d);
        let bool_ty = TypeId::BOOL;
        let truncating = if div { Opcode::Quot } else { Opcode::Rem };
        let divisor = match old.inst(right) {
            InstData::Const(Literal::Int(c)) => Some(c),
            _ => None,
        };
        if !d.is_signed_int() {
            // Floor is truncation; only a zero divisor needs care.
            if divisor.is_some_and(|c| c != 0) {
                return self.named_as(v, truncating, ty, [left.as_u32(), right.as_u32()], &[], loc);
            }
            let zero = self.int(ty, 0, "zero");
            let one = self.int(ty, 1, "one");
            let is_zero = self.binary(Opcode::Eq, bool_ty, right, zero, "by.zero", loc);
            let safe = self.select(ty, is_zero, one, right, "divisor", loc);
            let q = self.binary(truncating, ty, left, safe, if div { "quot" } else { "rem" }, loc);
            return self.named_as(v, Opcode::Select, ty, [is_zero.as_u32(), 0], &[zero.as_u32(), q.as_u32()], loc);
        }
        let zero = self.int(ty, 0, "zero");
        let special = divisor.is_none_or(|c| c == 0 || c == -1);
        // The divisor `quot` and `rem` see: never 0 nor -1.
        let one = self.int(ty, 1, "one");
        let (safe, by_zero, either) = if special {
            let minus_one = self.int(ty, -1, "minus.one");
            let by_zero = self.binary(Opcode::Eq, bool_ty, right, zero, "by.zero", loc);
            let by_minus_one = self.binary(Opcode::Eq, bool_ty, right, minus_one, "by.minus.one", loc);
            let either = self.binary(Opcode::Or, bool_ty, by_zero, by_minus_one, "special", loc);
            (self.select(ty, either, one, right, "divisor", loc), Some(by_zero), Some(either))
        } else {
            (right, None, None)
        };
        let r = self.binary(Opcode::Rem, ty, left, safe, "rem", loc);
        // A nonzero remainder of the other sign than the divisor: floor
        // rounds down where truncation rounded up.
        let nonzero = self.binary(Opcode::Ne, bool_ty, r, zero, "rem.nonzero", loc);
        let signs = self.binary(Opcode::BXor, ty, r, safe, "signs", loc);
        let differ = self.binary(Opcode::Lt, bool_ty, signs, zero, "signs.differ", loc);
        let adjust = self.binary(Opcode::And, bool_ty, nonzero, differ, "adjust", loc);
        // Neither arm overflows, so an interpreter run that checks overflow
        // (the -O0 semantics) sees none: `q - 1` only where the truncated
        // quotient was rounded up (never the minimum), `r + b` only where
        // the signs differ.
        let (floored_op, floored_ops) = if div {
            let q = self.binary(Opcode::Quot, ty, left, safe, "quot", loc);
            let down = self.value(Opcode::Cast, ty, [adjust.as_u32(), 0], &[], "down", loc);
            (Opcode::Sub, [q.as_u32(), down.as_u32()])
        } else {
            let up = self.select(ty, adjust, safe, zero, "up", loc);
            (Opcode::Add, [r.as_u32(), up.as_u32()])
        };
        let (Some(by_zero), Some(either)) = (by_zero, either) else {
            // A constant divisor other than 0 and -1: the floor is the result.
            return self.named_as(v, floored_op, ty, floored_ops, &[], loc);
        };
        let floored = self.value(floored_op, ty, floored_ops, &[], "floor", loc);
        // By -1: the wrapped negation (the minimum stays itself, negating
        // nothing that overflows), or 0; by 0: 0.
        let special_result = if div {
            let min = self.int(ty, -(1i128 << (d.bits() - 1)), "min");
            let is_min = self.binary(Opcode::Eq, bool_ty, left, min, "is.min", loc);
            let plain = self.select(ty, is_min, zero, left, "plain", loc);
            let negated = self.binary(Opcode::Sub, ty, zero, plain, "negated", loc);
            let wrapped = self.select(ty, is_min, left, negated, "wrapped", loc);
            self.select(ty, by_zero, zero, wrapped, "special.result", loc)
        } else {
            zero
        };
        let ops = [either.as_u32(), 0];
        self.named_as(v, Opcode::Select, ty, ops, &[special_result.as_u32(), floored.as_u32()], loc)
    }

    /// `base ** exp` on integers of dtype `d`, as a loop; the result is a
    /// local read after it.
    fn power(&mut self, v: ValueId, d: DType, base: ValueId, exp: ValueId, loc: Option<SrcLoc>) -> ValueId {
        let ty = TypeId::scalar(d);
        let bool_ty = TypeId::BOOL;
        let one = self.int(ty, 1, "one");
        let zero = self.int(ty, 0, "zero");
        let result = self.named_as(v, Opcode::Let, ty, [one.as_u32(), 0], &[], loc);
        let b = self.value(Opcode::Let, ty, [base.as_u32(), 0], &[], "pow.base", loc);
        let e = self.value(Opcode::Let, ty, [exp.as_u32(), 0], &[], "pow.exp", loc);
        let (head, body, exit) = (self.rw.new_block(), self.rw.new_block(), self.rw.new_block());
        self.rw.emit(Opcode::Br, None, [head.as_u32(), 0], &[], None, loc);
        let label = self.rw.fresh_name(&mut self.labels, &[b"pow.head"]);
        self.rw.begin_block_named(head, label);
        let stop = if d.is_signed_int() { Opcode::Le } else { Opcode::Eq };
        let done = self.binary(stop, bool_ty, e, zero, "pow.done", loc);
        self.rw.emit(Opcode::CondBr, None, [done.as_u32(), 0], &[exit.as_u32(), body.as_u32(), 0, 0], None, loc);
        let label = self.rw.fresh_name(&mut self.labels, &[b"pow.body"]);
        self.rw.begin_block_named(body, label);
        // A product the result does not use is a product by 1, and the base
        // is squared only while bits remain, so no multiplication overflows
        // unless the power does (which at -O0 `postc.ovf.pow` has checked).
        let bit = self.binary(Opcode::BAnd, ty, e, one, "pow.bit", loc);
        let odd = self.binary(Opcode::Ne, bool_ty, bit, zero, "pow.odd", loc);
        let factor = self.select(ty, odd, b, one, "pow.factor", loc);
        let times = self.binary(Opcode::Mul, ty, result, factor, "pow.times", loc);
        self.rw.emit(Opcode::Set, None, [result.as_u32(), times.as_u32()], &[], None, loc);
        let halved = self.binary(Opcode::Shr, ty, e, one, "pow.halved", loc);
        self.rw.emit(Opcode::Set, None, [e.as_u32(), halved.as_u32()], &[], None, loc);
        let more = self.binary(Opcode::Ne, bool_ty, halved, zero, "pow.more", loc);
        let square_by = self.select(ty, more, b, one, "pow.square.by", loc);
        let squared = self.binary(Opcode::Mul, ty, b, square_by, "pow.squared", loc);
        self.rw.emit(Opcode::Set, None, [b.as_u32(), squared.as_u32()], &[], None, loc);
        self.rw.emit(Opcode::Br, None, [head.as_u32(), 0], &[], None, loc);
        let label = self.rw.fresh_name(&mut self.labels, &[b"pow.done"]);
        self.rw.begin_block_named(exit, label);
        result
    }
}
