//! Small arithmetic helpers, one per operation and type, built into the
//! module that calls them: the overflow test of an integer power (the
//! power itself, and integer floor division and modulo, are instructions
//! by then: `legalize`), Python's float `//` and `%`, CPython's complex
//! division and power, the length of a Str. Each is `linkonce_odr hidden`,
//! made only when used; the optimiser inlines them.

use crate::llvm::emit::unit::{add_flags, Types, Unit};
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::Linkage;
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, FloatValue, FunctionValue, IntValue, StructValue};
use inkwell::{FloatPredicate, GlobalVisibility, IntPredicate};

/// A helper function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// The length of a Str in code points.
    StrLen,
    /// Whether an integer power overflows.
    IntPowOverflows { bits: u32, signed: bool },
    /// Python's float `divmod` on doubles.
    FloatDivMod,
    /// CPython's complex division on doubles.
    ComplexDiv,
    /// CPython's complex power on doubles.
    ComplexPow,
}

type R<T> = Result<T, BuilderError>;

impl Helper {
    /// The helper's symbol.
    pub fn name(&self) -> String {
        let su = |signed: bool| if signed { "s" } else { "u" };
        match *self {
            Helper::StrLen => "postc.str.len".into(),
            Helper::IntPowOverflows { bits, signed } => format!("postc.ovf.{}pow.i{bits}", su(signed)),
            Helper::FloatDivMod => "postc.fdivmod.f64".into(),
            Helper::ComplexDiv => "postc.cdiv.f64".into(),
            Helper::ComplexPow => "postc.cpow.f64".into(),
        }
    }

    /// Builds the helper into the unit's module under `name`.
    pub(crate) fn build<'c>(self, u: &mut Unit<'c, '_>, name: &str) -> R<FunctionValue<'c>> {
        let t = u.t;
        let f64t: BasicMetadataTypeEnum = t.f64.into();
        let ty = match self {
            Helper::IntPowOverflows { bits, .. } => {
                let it = t.int_bits(bits);
                t.i1.fn_type(&[it.into(), it.into()], false)
            }
            Helper::StrLen => t.i64.fn_type(&[t.text.into()], false),
            Helper::FloatDivMod => t.c128.fn_type(&[f64t, f64t], false),
            Helper::ComplexDiv | Helper::ComplexPow => t.c128.fn_type(&[f64t, f64t, f64t, f64t], false),
        };
        let f = u.module.add_function(name, ty, Some(Linkage::LinkOnceODR));
        f.as_global_value().set_visibility(GlobalVisibility::Hidden);
        add_flags(&t, f, &["nounwind"]);
        if self == Helper::StrLen {
            f.add_attribute(inkwell::attributes::AttributeLoc::Function, read_only(&t));
        }
        let h = Fb { t, f, b: t.cx.create_builder() };
        match self {
            Helper::StrLen => h.str_len()?,
            Helper::IntPowOverflows { bits, signed } => h.int_pow_overflows(u, bits, signed)?,
            Helper::FloatDivMod => h.float_divmod(u)?,
            Helper::ComplexDiv => h.complex_div(u)?,
            Helper::ComplexPow => {
                let cdiv = u.helper(Helper::ComplexDiv)?;
                h.complex_pow(u, cdiv)?
            }
        }
        Ok(f)
    }
}

/// `memory(read)`: LLVM 22's encoding of memory effects, two bits per
/// location (argument, inaccessible, errno, other, two target locations),
/// `01` reading.
pub(crate) fn read_only<'c>(t: &Types<'c>) -> inkwell::attributes::Attribute {
    const READ_EVERYWHERE: u64 = 0b01_01_01_01_01_01;
    let kind = inkwell::attributes::Attribute::get_named_enum_kind_id("memory");
    t.cx.create_enum_attribute(kind, READ_EVERYWHERE)
}

/// Building one helper function.
struct Fb<'c> {
    t: Types<'c>,
    f: FunctionValue<'c>,
    b: Builder<'c>,
}

impl<'c> Fb<'c> {
    fn block(&self) -> BasicBlock<'c> {
        self.t.cx.append_basic_block(self.f, "")
    }

    /// Starts the next block.
    fn at(&self, bb: BasicBlock<'c>) {
        self.b.position_at_end(bb);
    }

    fn int_param(&self, i: u32) -> IntValue<'c> {
        self.f.get_nth_param(i).map(|p| p.into_int_value()).unwrap_or_else(|| self.t.i64.get_poison())
    }

    fn float_param(&self, i: u32) -> FloatValue<'c> {
        self.f.get_nth_param(i).map(|p| p.into_float_value()).unwrap_or_else(|| self.t.f64.get_poison())
    }

    fn f64c(&self, x: f64) -> FloatValue<'c> {
        self.t.f64.const_float(x)
    }

    fn icmp(&self, p: IntPredicate, a: IntValue<'c>, b: IntValue<'c>) -> R<IntValue<'c>> {
        self.b.build_int_compare(p, a, b, "")
    }

    fn fcmp(&self, p: FloatPredicate, a: FloatValue<'c>, b: FloatValue<'c>) -> R<IntValue<'c>> {
        self.b.build_float_compare(p, a, b, "")
    }

    fn select_int(&self, c: IntValue<'c>, a: IntValue<'c>, b: IntValue<'c>) -> R<IntValue<'c>> {
        Ok(self.b.build_select(c, a, b, "")?.into_int_value())
    }

    fn select_float(&self, c: IntValue<'c>, a: FloatValue<'c>, b: FloatValue<'c>) -> R<FloatValue<'c>> {
        Ok(self.b.build_select(c, a, b, "")?.into_float_value())
    }

    /// `{ re, im }` of two doubles.
    fn pair(&self, re: FloatValue<'c>, im: FloatValue<'c>) -> R<StructValue<'c>> {
        let a = self.b.build_insert_value(self.t.c128.get_undef(), re, 0, "")?;
        Ok(self.b.build_insert_value(a, im, 1, "")?.into_struct_value())
    }

    fn ret(&self, v: impl BasicValue<'c>) -> R<()> {
        self.b.build_return(Some(&v))?;
        Ok(())
    }

    /// Calls a function of doubles.
    fn call_f64(&self, f: FunctionValue<'c>, args: &[FloatValue<'c>]) -> R<FloatValue<'c>> {
        let args: Vec<_> = args.iter().map(|a| (*a).into()).collect();
        let r = self.b.build_call(f, &args, "")?;
        Ok(r.try_as_basic_value().basic().map(|v| v.into_float_value()).unwrap_or_else(|| self.t.f64.get_poison()))
    }

    /// The bytes of a Str that do not continue a UTF-8 sequence.
    fn str_len(&self) -> R<()> {
        let t = &self.t;
        let s = self.f.get_nth_param(0).map(|p| p.into_struct_value()).unwrap_or_else(|| t.text.get_poison());
        let entry = self.block();
        let (lp, body, exit) = (self.block(), self.block(), self.block());
        self.at(entry);
        let p = self.b.build_extract_value(s, 0, "")?.into_pointer_value();
        let n = self.b.build_extract_value(s, 1, "")?.into_int_value();
        self.b.build_unconditional_branch(lp)?;
        self.at(lp);
        let i = self.b.build_phi(t.i64, "")?;
        let c = self.b.build_phi(t.i64, "")?;
        let (iv, cv) = (i.as_basic_value().into_int_value(), c.as_basic_value().into_int_value());
        let more = self.icmp(IntPredicate::ULT, iv, n)?;
        self.b.build_conditional_branch(more, body, exit)?;
        self.at(body);
        // SAFETY: `i < n`, within the Str's bytes.
        let a = unsafe { self.b.build_in_bounds_gep(t.i8, p, &[iv], "")? };
        let byte = self.b.build_load(t.i8, a, "")?.into_int_value();
        let top = self.b.build_and(byte, t.i8.const_int(0xc0, false), "")?;
        let cont = self.icmp(IntPredicate::EQ, top, t.i8.const_int(0x80, false))?;
        let one = self.select_int(cont, t.i64.const_zero(), t.i64.const_int(1, false))?;
        let c2 = self.b.build_int_add(cv, one, "")?;
        let i2 = self.b.build_int_add(iv, t.i64.const_int(1, false), "")?;
        self.b.build_unconditional_branch(lp)?;
        let zero = t.i64.const_zero();
        i.add_incoming(&[(&zero, entry), (&i2, body)]);
        c.add_incoming(&[(&zero, entry), (&c2, body)]);
        self.at(exit);
        self.ret(cv)
    }

    /// Whether `base ** exp` overflows (the multiplications of
    /// [`Fb::int_pow`] that the result uses, each checked; the base is
    /// squared only while bits remain, as the interpreter does).
    fn int_pow_overflows(&self, u: &Unit<'c, '_>, bits: u32, signed: bool) -> R<()> {
        let it = self.t.int_bits(bits);
        let pair = self.t.cx.struct_type(&[it.into(), self.t.i1.into()], false);
        let s = if signed { "s" } else { "u" };
        let mulo =
            u.declare(&format!("llvm.{s}mul.with.overflow.i{bits}"), pair.fn_type(&[it.into(), it.into()], false), &[]);
        let mul = |x: IntValue<'c>, y: IntValue<'c>| -> R<StructValue<'c>> {
            let c = self.b.build_call(mulo, &[x.into(), y.into()], "")?;
            Ok(c.try_as_basic_value().basic().map(|v| v.into_struct_value()).unwrap_or_else(|| pair.get_poison()))
        };
        let (base, exp) = (self.int_param(0), self.int_param(1));
        let entry = self.block();
        let (lp, body, step, sqr, sq, over, fine) =
            (self.block(), self.block(), self.block(), self.block(), self.block(), self.block(), self.block());
        self.at(entry);
        self.b.build_unconditional_branch(lp)?;
        self.at(lp);
        let (r, bp, e) = (self.b.build_phi(it, "")?, self.b.build_phi(it, "")?, self.b.build_phi(it, "")?);
        let (rv, bv, ev) = (
            r.as_basic_value().into_int_value(),
            bp.as_basic_value().into_int_value(),
            e.as_basic_value().into_int_value(),
        );
        let stop = if signed { IntPredicate::SLE } else { IntPredicate::EQ };
        let done = self.icmp(stop, ev, it.const_zero())?;
        self.b.build_conditional_branch(done, fine, body)?;
        self.at(body);
        let bit = self.b.build_and(ev, it.const_int(1, false), "")?;
        let odd = self.icmp(IntPredicate::NE, bit, it.const_zero())?;
        let rm = mul(rv, bv)?;
        let rmv = self.b.build_extract_value(rm, 0, "")?.into_int_value();
        let ro = self.b.build_extract_value(rm, 1, "")?.into_int_value();
        let rbad = self.b.build_and(odd, ro, "")?;
        self.b.build_conditional_branch(rbad, over, step)?;
        self.at(step);
        let r2 = self.select_int(odd, rmv, rv)?;
        let e2 = self.b.build_right_shift(ev, it.const_int(1, false), false, "")?;
        let more = self.icmp(IntPredicate::NE, e2, it.const_zero())?;
        self.b.build_conditional_branch(more, sqr, fine)?;
        self.at(sqr);
        let bm = mul(bv, bv)?;
        let bo = self.b.build_extract_value(bm, 1, "")?.into_int_value();
        self.b.build_conditional_branch(bo, over, sq)?;
        self.at(sq);
        let b2 = self.b.build_extract_value(bm, 0, "")?.into_int_value();
        self.b.build_unconditional_branch(lp)?;
        r.add_incoming(&[(&it.const_int(1, false), entry), (&r2, sq)]);
        bp.add_incoming(&[(&base, entry), (&b2, sq)]);
        e.add_incoming(&[(&exp, entry), (&e2, sq)]);
        self.at(over);
        self.ret(self.t.i1.const_int(1, false))?;
        self.at(fine);
        self.ret(self.t.i1.const_zero())
    }

    /// Python's float `divmod` (`interp::ops::float_divmod`): returns
    /// `{ floordiv, mod }`; a zero divisor gives `x / 0.0` and NaN.
    fn float_divmod(&self, u: &Unit<'c, '_>) -> R<()> {
        let copysign = u.float_fn("llvm.copysign.f64", self.t.f64, 2, &[]);
        let floor = u.float_fn("llvm.floor.f64", self.t.f64, 1, &[]);
        let (x, y) = (self.float_param(0), self.float_param(1));
        let entry = self.block();
        let (byzero, go) = (self.block(), self.block());
        self.at(entry);
        let yz = self.fcmp(FloatPredicate::OEQ, y, self.f64c(0.0))?;
        self.b.build_conditional_branch(yz, byzero, go)?;
        self.at(byzero);
        let q0 = self.b.build_float_div(x, y, "")?;
        let nan = self.t.f64.const_float(f64::from_bits(0x7FF8_0000_0000_0000));
        self.ret(self.pair(q0, nan)?)?;
        self.at(go);
        let b = &self.b;
        let m = b.build_float_rem(x, y, "")?;
        let xm = b.build_float_sub(x, m, "")?;
        let div = b.build_float_div(xm, y, "")?;
        let mnz = self.fcmp(FloatPredicate::UNE, m, self.f64c(0.0))?;
        let yneg = self.fcmp(FloatPredicate::OLT, y, self.f64c(0.0))?;
        let mneg = self.fcmp(FloatPredicate::OLT, m, self.f64c(0.0))?;
        let diff = b.build_xor(yneg, mneg, "")?;
        let fix = b.build_and(mnz, diff, "")?;
        let mfix = b.build_float_add(m, y, "")?;
        let dfix = b.build_float_sub(div, self.f64c(1.0), "")?;
        let zm = self.call_f64(copysign, &[self.f64c(0.0), y])?;
        let m1 = self.select_float(fix, mfix, m)?;
        let md = self.select_float(mnz, m1, zm)?;
        let div1 = self.select_float(fix, dfix, div)?;
        let dnz = self.fcmp(FloatPredicate::UNE, div1, self.f64c(0.0))?;
        let fd = self.call_f64(floor, &[div1])?;
        let frac = b.build_float_sub(div1, fd, "")?;
        let up = self.fcmp(FloatPredicate::OGT, frac, self.f64c(0.5))?;
        let fd1 = b.build_float_add(fd, self.f64c(1.0), "")?;
        let fdr = self.select_float(up, fd1, fd)?;
        let xy = b.build_float_div(x, y, "")?;
        let zq = self.call_f64(copysign, &[self.f64c(0.0), xy])?;
        let q = self.select_float(dnz, fdr, zq)?;
        self.ret(self.pair(q, md)?)
    }

    /// CPython's `_Py_c_quot` on doubles (a zero divisor gives inf/nan).
    fn complex_div(&self, u: &Unit<'c, '_>) -> R<()> {
        let fabs = u.float_fn("llvm.fabs.f64", self.t.f64, 1, &[]);
        let (ar, ai, br, bi) = (self.float_param(0), self.float_param(1), self.float_param(2), self.float_param(3));
        let entry = self.block();
        let (real, zero, rbig, notreal, ibig, nan, out) =
            (self.block(), self.block(), self.block(), self.block(), self.block(), self.block(), self.block());
        let b = &self.b;
        self.at(entry);
        let abr = self.call_f64(fabs, &[br])?;
        let abi = self.call_f64(fabs, &[bi])?;
        let ge = self.fcmp(FloatPredicate::OGE, abr, abi)?;
        b.build_conditional_branch(ge, real, notreal)?;
        self.at(real);
        let brz = self.fcmp(FloatPredicate::OEQ, abr, self.f64c(0.0))?;
        b.build_conditional_branch(brz, zero, rbig)?;
        self.at(zero);
        let zr = b.build_float_div(ar, abr, "")?;
        let zi = b.build_float_div(ai, abr, "")?;
        b.build_unconditional_branch(out)?;
        self.at(rbig);
        let ratio = b.build_float_div(bi, br, "")?;
        let t1 = b.build_float_mul(bi, ratio, "")?;
        let den = b.build_float_add(br, t1, "")?;
        let t2 = b.build_float_mul(ai, ratio, "")?;
        let n1 = b.build_float_add(ar, t2, "")?;
        let t3 = b.build_float_mul(ar, ratio, "")?;
        let n2 = b.build_float_sub(ai, t3, "")?;
        let rr = b.build_float_div(n1, den, "")?;
        let ri = b.build_float_div(n2, den, "")?;
        b.build_unconditional_branch(out)?;
        self.at(notreal);
        let ge2 = self.fcmp(FloatPredicate::OGE, abi, abr)?;
        b.build_conditional_branch(ge2, ibig, nan)?;
        self.at(ibig);
        let ratio2 = b.build_float_div(br, bi, "")?;
        let u1 = b.build_float_mul(br, ratio2, "")?;
        let den2 = b.build_float_add(u1, bi, "")?;
        let u2 = b.build_float_mul(ar, ratio2, "")?;
        let m1 = b.build_float_add(u2, ai, "")?;
        let u3 = b.build_float_mul(ai, ratio2, "")?;
        let m2 = b.build_float_sub(u3, ar, "")?;
        let ir = b.build_float_div(m1, den2, "")?;
        let ii = b.build_float_div(m2, den2, "")?;
        b.build_unconditional_branch(out)?;
        self.at(nan);
        b.build_unconditional_branch(out)?;
        self.at(out);
        let qnan = self.t.f64.const_float(f64::from_bits(0x7FF8_0000_0000_0000));
        let re = b.build_phi(self.t.f64, "")?;
        re.add_incoming(&[(&zr, zero), (&rr, rbig), (&ir, ibig), (&qnan, nan)]);
        let im = b.build_phi(self.t.f64, "")?;
        im.add_incoming(&[(&zi, zero), (&ri, rbig), (&ii, ibig), (&qnan, nan)]);
        let (re, im) = (re.as_basic_value().into_float_value(), im.as_basic_value().into_float_value());
        self.ret(self.pair(re, im)?)
    }

    /// `(ar + ai i) * (br + bi i)`.
    fn cmul(
        &self,
        ar: FloatValue<'c>,
        ai: FloatValue<'c>,
        br: FloatValue<'c>,
        bi: FloatValue<'c>,
    ) -> R<(FloatValue<'c>, FloatValue<'c>)> {
        let b = &self.b;
        let a = b.build_float_mul(ar, br, "")?;
        let bb = b.build_float_mul(ai, bi, "")?;
        let r = b.build_float_sub(a, bb, "")?;
        let c = b.build_float_mul(ar, bi, "")?;
        let d = b.build_float_mul(ai, br, "")?;
        let i = b.build_float_add(c, d, "")?;
        Ok((r, i))
    }

    /// CPython's complex power (`c_pow`, `c_powi` for integral exponents up
    /// to 100), as `interp::ops::c_pow`. The caller checks the zero-base
    /// panic.
    fn complex_pow(&self, u: &Unit<'c, '_>, cdiv: FunctionValue<'c>) -> R<()> {
        let f64t = self.t.f64;
        let intr = |name: &str, n: usize| u.float_fn(name, f64t, n, &[]);
        let (floor, fabs, pow, exp, log, cos, sin) = (
            intr("llvm.floor.f64", 1),
            intr("llvm.fabs.f64", 1),
            intr("llvm.pow.f64", 2),
            intr("llvm.exp.f64", 1),
            intr("llvm.log.f64", 1),
            intr("llvm.cos.f64", 1),
            intr("llvm.sin.f64", 1),
        );
        let hypot = u.float_fn("hypot", f64t, 2, &["nounwind"]);
        let atan2 = u.float_fn("atan2", f64t, 2, &["nounwind"]);
        let (ar, ai, br, bi) = (self.float_param(0), self.float_param(1), self.float_param(2), self.float_param(3));
        let entry = self.block();
        let (one, t1, zero, t2, powi, ploop, pbody, pstep, pdone, pos, inv, general, cplx, fin) = (
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
            self.block(),
        );
        let b = &self.b;
        let i64t = self.t.i64;
        self.at(entry);
        let bre0 = self.fcmp(FloatPredicate::OEQ, br, self.f64c(0.0))?;
        let bim0 = self.fcmp(FloatPredicate::OEQ, bi, self.f64c(0.0))?;
        let b0 = b.build_and(bre0, bim0, "")?;
        b.build_conditional_branch(b0, one, t1)?;
        self.at(one);
        self.ret(self.t.c128.const_named_struct(&[self.f64c(1.0).into(), self.f64c(0.0).into()]))?;
        self.at(t1);
        let are0 = self.fcmp(FloatPredicate::OEQ, ar, self.f64c(0.0))?;
        let aim0 = self.fcmp(FloatPredicate::OEQ, ai, self.f64c(0.0))?;
        let a0 = b.build_and(are0, aim0, "")?;
        b.build_conditional_branch(a0, zero, t2)?;
        self.at(zero);
        self.ret(self.t.c128.const_zero())?;
        self.at(t2);
        let fl = self.call_f64(floor, &[br])?;
        let integral = self.fcmp(FloatPredicate::OEQ, br, fl)?;
        let abr = self.call_f64(fabs, &[br])?;
        let small = self.fcmp(FloatPredicate::OLE, abr, self.f64c(100.0))?;
        let c1 = b.build_and(bim0, integral, "")?;
        let c2 = b.build_and(c1, small, "")?;
        b.build_conditional_branch(c2, powi, general)?;
        self.at(powi);
        let n = b.build_float_to_signed_int(br, i64t, "")?;
        let nneg = self.icmp(IntPredicate::SLT, n, i64t.const_zero())?;
        let nabs0 = b.build_int_neg(n, "")?;
        let nabs = self.select_int(nneg, nabs0, n)?;
        b.build_unconditional_branch(ploop)?;
        self.at(ploop);
        let phis = [b.build_phi(f64t, "")?, b.build_phi(f64t, "")?, b.build_phi(f64t, "")?, b.build_phi(f64t, "")?];
        let mask = b.build_phi(i64t, "")?;
        let [rr, ri, pr, pi] = phis.map(|p| p.as_basic_value().into_float_value());
        let maskv = mask.as_basic_value().into_int_value();
        let mpos = self.icmp(IntPredicate::NE, maskv, i64t.const_zero())?;
        let mle = self.icmp(IntPredicate::UGE, nabs, maskv)?;
        let go = b.build_and(mpos, mle, "")?;
        b.build_conditional_branch(go, pbody, pdone)?;
        self.at(pbody);
        let bit = b.build_and(nabs, maskv, "")?;
        let set = self.icmp(IntPredicate::NE, bit, i64t.const_zero())?;
        let (mr, mi) = self.cmul(rr, ri, pr, pi)?;
        let rr2 = self.select_float(set, mr, rr)?;
        let ri2 = self.select_float(set, mi, ri)?;
        let mask2 = b.build_left_shift(maskv, i64t.const_int(1, false), "")?;
        b.build_unconditional_branch(pstep)?;
        self.at(pstep);
        let (sqr, sqi) = self.cmul(pr, pi, pr, pi)?;
        b.build_unconditional_branch(ploop)?;
        let incoming: [(BasicValueEnum<'c>, BasicValueEnum<'c>); 4] = [
            (self.f64c(1.0).into(), rr2.into()),
            (self.f64c(0.0).into(), ri2.into()),
            (ar.into(), sqr.into()),
            (ai.into(), sqi.into()),
        ];
        for (p, (first, next)) in phis.iter().zip(incoming) {
            p.add_incoming(&[(&first, powi), (&next, pstep)]);
        }
        mask.add_incoming(&[(&i64t.const_int(1, false), powi), (&mask2, pstep)]);
        self.at(pdone);
        b.build_conditional_branch(nneg, inv, pos)?;
        self.at(pos);
        self.ret(self.pair(rr, ri)?)?;
        self.at(inv);
        let args = [self.f64c(1.0).into(), self.f64c(0.0).into(), rr.into(), ri.into()];
        let q = b.build_call(cdiv, &args, "")?;
        match q.try_as_basic_value().basic() {
            Some(q) => self.ret(q)?,
            None => self.ret(self.t.c128.get_poison())?,
        }
        self.at(general);
        let vabs = self.call_f64(hypot, &[ar, ai])?;
        let len0 = self.call_f64(pow, &[vabs, br])?;
        let at = self.call_f64(atan2, &[ai, ar])?;
        let ph0 = b.build_float_mul(at, br, "")?;
        b.build_conditional_branch(bim0, fin, cplx)?;
        self.at(cplx);
        let atb = b.build_float_mul(at, bi, "")?;
        let e = self.call_f64(exp, &[atb])?;
        let len1 = b.build_float_div(len0, e, "")?;
        let lg = self.call_f64(log, &[vabs])?;
        let bl = b.build_float_mul(bi, lg, "")?;
        let ph1 = b.build_float_add(ph0, bl, "")?;
        b.build_unconditional_branch(fin)?;
        self.at(fin);
        let len = b.build_phi(f64t, "")?;
        len.add_incoming(&[(&len0, general), (&len1, cplx)]);
        let ph = b.build_phi(f64t, "")?;
        ph.add_incoming(&[(&ph0, general), (&ph1, cplx)]);
        let (len, ph) = (len.as_basic_value().into_float_value(), ph.as_basic_value().into_float_value());
        let c = self.call_f64(cos, &[ph])?;
        let s = self.call_f64(sin, &[ph])?;
        let gr = b.build_float_mul(len, c, "")?;
        let gi = b.build_float_mul(len, s, "")?;
        self.ret(self.pair(gr, gi)?)
    }
}
