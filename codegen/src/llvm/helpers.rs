//! The helper built into the module that calls it: the length of a Str,
//! which reads the Str's bytes, as no POST instruction can (every other
//! routine of Python's meaning is written out by `legalize` before the
//! backend sees the program). It is `linkonce_odr hidden`, made only when
//! used; the optimiser inlines it.

use crate::llvm::emit::unit::{add_flags, Types, Unit};
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::module::Linkage;
use inkwell::values::{BasicValue, FunctionValue, IntValue};
use inkwell::{GlobalVisibility, IntPredicate};

/// A helper function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// The length of a Str in code points.
    StrLen,
}

type R<T> = Result<T, BuilderError>;

impl Helper {
    /// The helper's symbol.
    pub fn name(&self) -> String {
        match *self {
            Helper::StrLen => "postc.str.len".into(),
        }
    }

    /// Builds the helper into the unit's module under `name`.
    pub(crate) fn build<'c>(self, u: &mut Unit<'c, '_>, name: &str) -> R<FunctionValue<'c>> {
        let t = u.t;
        let ty = match self {
            Helper::StrLen => t.i64.fn_type(&[t.text.into()], false),
        };
        let f = u.module.add_function(name, ty, Some(Linkage::LinkOnceODR));
        f.as_global_value().set_visibility(GlobalVisibility::Hidden);
        add_flags(&t, f, &["nounwind"]);
        f.add_attribute(inkwell::attributes::AttributeLoc::Function, read_only(&t));
        let h = Fb { t, f, b: t.cx.create_builder() };
        match self {
            Helper::StrLen => h.str_len()?,
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

    fn icmp(&self, p: IntPredicate, a: IntValue<'c>, b: IntValue<'c>) -> R<IntValue<'c>> {
        self.b.build_int_compare(p, a, b, "")
    }

    fn select_int(&self, c: IntValue<'c>, a: IntValue<'c>, b: IntValue<'c>) -> R<IntValue<'c>> {
        Ok(self.b.build_select(c, a, b, "")?.into_int_value())
    }

    fn ret(&self, v: impl BasicValue<'c>) -> R<()> {
        self.b.build_return(Some(&v))?;
        Ok(())
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
}
