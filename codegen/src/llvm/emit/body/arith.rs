//! Arithmetic and conversions of scalar values (docs/ir-text.md,
//! Semantics), and the calls of runtime and math functions they use.

use super::{float, float_suffix, float_suffix_of, int, llvm, result, FnEmit, R};
use crate::llvm::runtime;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FloatValue, FunctionValue};
use inkwell::{FloatPredicate, IntPredicate};
use postc_ir::{DType, Opcode, ValueId};

impl<'c> FnEmit<'_, 'c, '_, '_> {
    /// Converts a scalar `x` of dtype `from` to dtype `to` (docs/ir-text.md, Semantics).
    pub(super) fn convert(&mut self, x: BasicValueEnum<'c>, from: DType, to: DType) -> R<BasicValueEnum<'c>> {
        if from == to {
            return Ok(x);
        }
        if from.is_complex() || to.is_complex() {
            return llvm(&crate::backend::written_out(&format!("cast from {from} to {to}")));
        }
        let b = &self.b;
        if to == DType::Bool {
            return Ok(if from.is_float() {
                let x = float(x)?;
                b.build_float_compare(FloatPredicate::UNE, x, x.get_type().const_zero(), "")?.into()
            } else {
                let x = int(x)?;
                b.build_int_compare(IntPredicate::NE, x, x.get_type().const_zero(), "")?.into()
            });
        }
        let from_int = from.is_int() || from == DType::Bool;
        let from_signed = from.is_signed_int();
        if to.is_int() {
            let tt = self.u.t.int(to);
            if from_int {
                let x = int(x)?;
                let (fb, tb) = (if from == DType::Bool { 1 } else { from.bits() }, to.bits());
                return Ok(if fb == tb {
                    x.into()
                } else if fb > tb {
                    b.build_int_truncate(x, tt, "")?.into()
                } else if from_signed {
                    b.build_int_s_extend(x, tt, "")?.into()
                } else {
                    b.build_int_z_extend(x, tt, "")?.into()
                });
            }
            // Saturating, as the interpreter converts.
            let s = if to.is_signed_int() { "fptosi" } else { "fptoui" };
            let name = format!("llvm.{s}.sat.i{}.{}", to.bits(), float_suffix(from));
            let tf = self.u.t.float(from);
            let f = self.u.declare(&name, tt.fn_type(&[tf.into()], false), &[]);
            return result(self.b.build_call(f, &[x.into()], "")?);
        }
        // to float
        let tt = self.u.t.float(to);
        if from_int {
            let x = int(x)?;
            return Ok(if from_signed {
                b.build_signed_int_to_float(x, tt, "")?.into()
            } else {
                b.build_unsigned_int_to_float(x, tt, "")?.into()
            });
        }
        let x = float(x)?;
        Ok(if from.bits() < to.bits() {
            b.build_float_ext(x, tt, "")?.into()
        } else {
            b.build_float_trunc(x, tt, "")?.into()
        })
    }

    /// Calls `f` with `args`; its result.
    pub(super) fn call_fn(&mut self, f: FunctionValue<'c>, args: &[BasicValueEnum<'c>]) -> R<BasicValueEnum<'c>> {
        let args: Vec<BasicMetadataValueEnum> = args.iter().map(|a| (*a).into()).collect();
        result(self.b.build_call(f, &args, "")?)
    }

    /// `llvm.NAME.fN(x)` of a float value.
    pub(super) fn intrinsic1(&mut self, name: &str, x: FloatValue<'c>) -> R<BasicValueEnum<'c>> {
        let ty = x.get_type();
        let full = format!("llvm.{name}.{}", float_suffix_of(&ty, self.u.t.cx));
        let f = self.u.float_fn(&full, ty, 1, &[]);
        self.call_fn(f, &[x.into()])
    }

    pub(super) fn binary(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        let od = self.dt(l);
        let (a, b) = (self.val(l)?, self.val(r)?);
        let res: BasicValueEnum<'c> = if od.is_text() {
            match op {
                Opcode::Add => {
                    let f = self.u.runtime(runtime::STR_CONCAT);
                    self.call_fn(f, &[a, b])?
                }
                _ if op.is_compare() => {
                    return self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())))
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else if od.is_int() || od == DType::Bool {
            self.int_binary(v, op, od, a, b)?
        } else if od.is_float() {
            self.float_binary(v, op, od, a, b)?
        } else {
            return self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())));
        };
        self.vals.insert(v, res);
        Ok(())
    }

    pub(super) fn int_binary(
        &mut self,
        v: ValueId,
        op: Opcode,
        od: DType,
        a: BasicValueEnum<'c>,
        b: BasicValueEnum<'c>,
    ) -> R<BasicValueEnum<'c>> {
        let signed = od.is_signed_int();
        let bits = if od == DType::Bool { 1 } else { od.bits() };
        let (x, y) = (int(a)?, int(b)?);
        let bl = &self.b;
        Ok(match op {
            Opcode::Add => bl.build_int_add(x, y, "")?.into(),
            Opcode::Sub => bl.build_int_sub(x, y, "")?.into(),
            Opcode::Mul => bl.build_int_mul(x, y, "")?.into(),
            // `legalize` wrote integer `//`, `%` and `**` out in these; the
            // divisor is never zero nor -1 with a minimal dividend.
            Opcode::Quot if signed => bl.build_int_signed_div(x, y, "")?.into(),
            Opcode::Quot => bl.build_int_unsigned_div(x, y, "")?.into(),
            Opcode::Rem if signed => bl.build_int_signed_rem(x, y, "")?.into(),
            Opcode::Rem => bl.build_int_unsigned_rem(x, y, "")?.into(),
            Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                let p = match (op, signed) {
                    (Opcode::Eq, _) => IntPredicate::EQ,
                    (Opcode::Ne, _) => IntPredicate::NE,
                    (Opcode::Lt, true) => IntPredicate::SLT,
                    (Opcode::Lt, false) => IntPredicate::ULT,
                    (Opcode::Le, true) => IntPredicate::SLE,
                    (Opcode::Le, false) => IntPredicate::ULE,
                    (Opcode::Gt, true) => IntPredicate::SGT,
                    (Opcode::Gt, false) => IntPredicate::UGT,
                    (_, true) => IntPredicate::SGE,
                    (_, false) => IntPredicate::UGE,
                };
                bl.build_int_compare(p, x, y, "")?.into()
            }
            Opcode::And | Opcode::BAnd => bl.build_and(x, y, "")?.into(),
            Opcode::Or | Opcode::BOr => bl.build_or(x, y, "")?.into(),
            Opcode::BXor => bl.build_xor(x, y, "")?.into(),
            Opcode::Shl | Opcode::Shr => {
                // A count of the width or more (or negative) never
                // reaches the shift: 0, or the sign fill for `shr`.
                let ty = x.get_type();
                let big = bl.build_int_compare(IntPredicate::UGE, y, ty.const_int(bits as u64, false), "")?;
                let arith = op == Opcode::Shr && signed;
                let safe_count = if arith { ty.const_int(bits as u64 - 1, false) } else { ty.const_zero() };
                let c = bl.build_select(big, safe_count, y, "")?.into_int_value();
                let s = if op == Opcode::Shl {
                    bl.build_left_shift(x, c, "")?
                } else {
                    bl.build_right_shift(x, c, arith, "")?
                };
                if arith {
                    s.into()
                } else {
                    bl.build_select(big, ty.const_zero(), s, "")?
                }
            }
            _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
        })
    }

    pub(super) fn float_binary(
        &mut self,
        v: ValueId,
        op: Opcode,
        od: DType,
        a: BasicValueEnum<'c>,
        b: BasicValueEnum<'c>,
    ) -> R<BasicValueEnum<'c>> {
        let (x, y) = (float(a)?, float(b)?);
        let bl = &self.b;
        Ok(match op {
            Opcode::Add => bl.build_float_add(x, y, "")?.into(),
            Opcode::Sub => bl.build_float_sub(x, y, "")?.into(),
            Opcode::Mul => bl.build_float_mul(x, y, "")?.into(),
            Opcode::Div => bl.build_float_div(x, y, "")?.into(),
            // `fdiv` and `mod` are calls of `legalize`'s functions by now,
            // and a narrower power a Float64 one.
            Opcode::Pow if od == DType::Float64 => {
                let f = self.u.float_fn("llvm.pow.f64", self.u.t.f64, 2, &[]);
                self.call_fn(f, &[a, b])?
            }
            Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                let p = match op {
                    Opcode::Eq => FloatPredicate::OEQ,
                    Opcode::Ne => FloatPredicate::UNE,
                    Opcode::Lt => FloatPredicate::OLT,
                    Opcode::Le => FloatPredicate::OLE,
                    Opcode::Gt => FloatPredicate::OGT,
                    _ => FloatPredicate::OGE,
                };
                bl.build_float_compare(p, x, y, "")?.into()
            }
            _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
        })
    }

    pub(super) fn unary(&mut self, v: ValueId, op: Opcode, x: ValueId) -> R<()> {
        let d = self.dt(x);
        let a = self.val(x)?;
        let bl = &self.b;
        let res: BasicValueEnum<'c> = match op {
            Opcode::Not => bl.build_not(int(a)?, "")?.into(),
            Opcode::Inv => bl.build_not(int(a)?, "")?.into(),
            Opcode::Neg if d.is_int() => bl.build_int_neg(int(a)?, "")?.into(),
            Opcode::Neg if d.is_float() => bl.build_float_neg(float(a)?, "")?.into(),
            Opcode::Abs if d.is_signed_int() => {
                let a = int(a)?;
                let n = bl.build_int_compare(IntPredicate::SLT, a, a.get_type().const_zero(), "")?;
                let m = bl.build_int_neg(a, "")?;
                bl.build_select(n, m, a, "")?
            }
            Opcode::Abs if d.is_int() => a,
            Opcode::Abs if d.is_float() => self.intrinsic1("fabs", float(a)?)?,
            _ if d.is_complex() => {
                return self.err(Some(v), crate::backend::written_out(&format!("{} on {d}", op.mnemonic())))
            }
            _ => return self.err(Some(v), format!("`{}` on {d}", op.mnemonic())),
        };
        self.vals.insert(v, res);
        Ok(())
    }
}
