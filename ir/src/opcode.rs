//! The opcode table. Every opcode is declared once, here: its mnemonic in
//! the text format, its operand format (which says how the two `u32` payload
//! slots and the `extra` pool are used), and a doc line. The printer, parser
//! and verifier are all driven from this table.

/// How an instruction uses its payload `[a, b]` and the function's `extra`
/// pool. "value" slots hold a [`crate::ValueId`], "block" slots a
/// [`crate::BlockId`], "name" slots a [`crate::NameId`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// `a` = position among the parameters, `b` = 0 for a parameter, 1 for a
    /// ufunc core-dimension parameter. Never inside a block.
    Param,
    /// The literal, by the result dtype: integers `a` = low and `b` = high
    /// 32 bits of the 64-bit two's-complement pattern; Bool `a` = 0/1;
    /// Float16/Float32 `a` = the bits; Float64 `a`/`b` = low/high bits;
    /// Complex `a` = extra index of [re, im] (two words each for Complex128,
    /// one each for Complex64); Str/Bytes `a` = offset, `b` = length in the
    /// function's byte pool.
    Const,
    /// `a` = left value, `b` = right value.
    Binary,
    /// `a` = operand value.
    Unary,
    /// `a` = array value, `b` = byte-offset value.
    Load,
    /// `a` = array value, `b` = extra index of [byte-offset value, stored value].
    Store,
    /// `a` = array value, `b` = the axis (immediate).
    Axis,
    /// `a` = callee name, `b` = extra index of [argc, arg values...].
    Call,
    /// `a` = initial value; the result is a mutable local.
    Let,
    /// `a` = target (a `let` result or a parameter), `b` = new value.
    Set,
    /// `a` = condition value, `b` = extra index of [if-true value, if-false value].
    Select,
    /// `b` = extra index of [n, extent values...]: one extent per axis.
    Alloc,
    /// `a` = aggregate value, `b` = field (immediate, see [`crate::Field`]).
    GetField,
    /// `a` = target aggregate (a `let` result or a parameter), `b` = extra
    /// index of [field, value].
    SetField,
    /// `a` = array value, `b` = extra index of [n, index values...].
    IndexLoad,
    /// `a` = array value, `b` = extra index of [n, index values..., stored value].
    IndexStore,
    /// `a` = returned value or `u32::MAX` for a void return.
    Return,
    /// `a` = target block.
    Br,
    /// `a` = condition value, `b` = extra index of [true block, false block,
    /// true weight, false weight] (weights 0/0: none given).
    CondBr,
    /// No payload.
    Unreachable,
}

/// What a payload slot holds. Every sweep over operands (visiting,
/// rewriting, checking, copying an instruction's `extra` run) reads the
/// payload through [`Format::layout`] rather than a hand-written match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Slot {
    /// Nothing.
    Unused,
    /// A [`crate::ValueId`].
    Value,
    /// A [`crate::ValueId`], or `u32::MAX` for none (a void return).
    OptValue,
    /// A [`crate::BlockId`].
    Block,
    /// A [`crate::NameId`] of the function's string pool (a callee).
    Name,
    /// An immediate number (a position, an axis, a field).
    Imm,
    /// Literal bits by the result dtype, with an `extra` or byte-pool run
    /// for complex and text constants (see [`Format::Const`]).
    Literal,
    /// The index in `extra` where the format's [`PayloadLayout::extra`]
    /// items start.
    Extra,
}

/// An item of an instruction's run in the `extra` pool.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Item {
    Value,
    Block,
    Imm,
    /// A count `n`, then `n` value ids.
    Values,
}

/// How a format lays out its payload `[a, b]` and its `extra` run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PayloadLayout {
    pub a: Slot,
    pub b: Slot,
    /// The items at `extra[b..]` when `b` is [`Slot::Extra`], in textual
    /// order.
    pub extra: &'static [Item],
}

impl Format {
    /// The payload layout: the one description of where each format keeps
    /// its operands.
    pub const fn layout(self) -> PayloadLayout {
        use Item as I;
        use Slot as S;
        let (a, b, extra): (Slot, Slot, &'static [Item]) = match self {
            Format::Param => (S::Imm, S::Imm, &[]),
            Format::Const => (S::Literal, S::Literal, &[]),
            Format::Binary | Format::Load | Format::Set => (S::Value, S::Value, &[]),
            Format::Unary | Format::Let => (S::Value, S::Unused, &[]),
            Format::Alloc => (S::Unused, S::Extra, &[I::Values]),
            Format::Axis | Format::GetField => (S::Value, S::Imm, &[]),
            Format::Store | Format::Select => (S::Value, S::Extra, &[I::Value, I::Value]),
            Format::SetField => (S::Value, S::Extra, &[I::Imm, I::Value]),
            Format::Call => (S::Name, S::Extra, &[I::Values]),
            Format::IndexLoad => (S::Value, S::Extra, &[I::Values]),
            Format::IndexStore => (S::Value, S::Extra, &[I::Values, I::Value]),
            Format::Return => (S::OptValue, S::Unused, &[]),
            Format::Br => (S::Block, S::Unused, &[]),
            Format::CondBr => (S::Value, S::Extra, &[I::Block, I::Block, I::Imm, I::Imm]),
            Format::Unreachable => (S::Unused, S::Unused, &[]),
        };
        PayloadLayout { a, b, extra }
    }

    /// Whether instructions of this format end a block.
    pub fn is_terminator(self) -> bool {
        matches!(self, Format::Return | Format::Br | Format::CondBr | Format::Unreachable)
    }
    /// Whether an instruction of this format may define a result (`Call`:
    /// only when it has a result type).
    pub fn has_result(self) -> bool {
        !matches!(
            self,
            Format::Store
                | Format::Set
                | Format::SetField
                | Format::IndexStore
                | Format::Return
                | Format::Br
                | Format::CondBr
                | Format::Unreachable
        )
    }
}

macro_rules! opcodes {
    ($( #[doc = $doc:literal] $variant:ident = $mnemonic:literal, $format:ident; )*) => {
        /// An instruction's tag: one byte.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode {
            $( #[doc = $doc] $variant, )*
        }

        impl Opcode {
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant,)*];

            /// The mnemonic in the text format.
            pub const fn mnemonic(self) -> &'static str {
                match self { $(Opcode::$variant => $mnemonic,)* }
            }
            /// How the payload is used.
            pub const fn format(self) -> Format {
                match self { $(Opcode::$variant => Format::$format,)* }
            }
            /// One line saying what the instruction does.
            pub const fn doc(self) -> &'static str {
                match self { $(Opcode::$variant => $doc.trim_ascii(),)* }
            }
        }
    };
}

opcodes! {
    /// A function parameter or ufunc core-dimension size.
    Param = "param", Param;
    /// `result = literal`.
    Const = "const", Const;
    /// `result = left + right`; Str/Bytes concatenate.
    Add = "add", Binary;
    /// `result = left - right`.
    Sub = "sub", Binary;
    /// `result = left * right`.
    Mul = "mul", Binary;
    /// `result = left / right`, true division into a float or complex result.
    Div = "div", Binary;
    /// `result = left // right`, floor division (toward negative infinity).
    FDiv = "fdiv", Binary;
    /// `result = left % right`, the remainder takes the divisor's sign.
    Mod = "mod", Binary;
    /// `result = left ** right`.
    Pow = "pow", Binary;
    /// `result = left == right`.
    Eq = "eq", Binary;
    /// `result = left != right`.
    Ne = "ne", Binary;
    /// `result = left < right`.
    Lt = "lt", Binary;
    /// `result = left <= right`.
    Le = "le", Binary;
    /// `result = left > right`.
    Gt = "gt", Binary;
    /// `result = left >= right`.
    Ge = "ge", Binary;
    /// `result = left and right`, on Bool.
    And = "and", Binary;
    /// `result = left or right`, on Bool.
    Or = "or", Binary;
    /// `result = left & right`, on integers.
    BAnd = "band", Binary;
    /// `result = left | right`, on integers.
    BOr = "bor", Binary;
    /// `result = left ^ right`, on integers.
    BXor = "bxor", Binary;
    /// `result = left << right`, on integers; a negative count is an error.
    Shl = "shl", Binary;
    /// `result = left >> right`, arithmetic for signed integers.
    Shr = "shr", Binary;
    /// `result = -operand`.
    Neg = "neg", Unary;
    /// `result = not operand`, on Bool.
    Not = "not", Unary;
    /// `result = abs(operand)`; complex gives the magnitude.
    Abs = "abs", Unary;
    /// `result = ~operand`, on integers.
    Inv = "inv", Unary;
    /// `result = array[offset]`, the offset in bytes from the view origin.
    Load = "load", Load;
    /// `array[offset] = value`, the offset in bytes from the view origin.
    Store = "store", Store;
    /// `result = array.shape[axis]`.
    Dim = "dim", Axis;
    /// `result = array.strides[axis]`, in bytes.
    Stride = "stride", Axis;
    /// `result = func(args...)`; no result for a void call.
    Call = "call", Call;
    /// `result = (result dtype) operand`.
    Cast = "cast", Unary;
    /// Declares the mutable local `result` and assigns it.
    Let = "let", Let;
    /// Assigns a mutable local declared by `let`, or a parameter.
    Set = "set", Set;
    /// `result = cond ? if_true : if_false`.
    Select = "select", Select;
    /// `result = alloc(result dtype, extents...)`: a zeroed C-order array from the per-call arena.
    Alloc = "alloc", Alloc;
    /// `result = aggregate.field` (`real` / `imag` of a complex value).
    GetField = "getfield", GetField;
    /// `aggregate.field = value`, in place.
    SetField = "setfield", SetField;
    /// `result = array[i, j, ...]`, one element index per axis.
    IndexLoad = "index.load", IndexLoad;
    /// `array[i, j, ...] = value`, one element index per axis.
    IndexStore = "index.store", IndexStore;
    /// Returns from the function, with a value or without.
    Return = "return", Return;
    /// Jumps to a block.
    Br = "br", Br;
    /// Jumps to one of two blocks on a Bool condition.
    CondBr = "condbr", CondBr;
    /// Never reached (after a call that never returns).
    Unreachable = "unreachable", Unreachable;
}

/// Each opcode's payload layout, by opcode number: one load on the hot
/// operand walks.
static LAYOUTS: [PayloadLayout; Opcode::ALL.len()] = {
    let empty = PayloadLayout { a: Slot::Unused, b: Slot::Unused, extra: &[] };
    let mut t = [empty; Opcode::ALL.len()];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        t[i] = Opcode::ALL[i].format().layout();
        i += 1;
    }
    t
};

impl Opcode {
    /// The payload layout of this opcode's format.
    #[inline]
    pub fn layout(self) -> &'static PayloadLayout {
        &LAYOUTS[self as usize]
    }

    pub fn from_mnemonic(s: &str) -> Option<Opcode> {
        Opcode::ALL.iter().copied().find(|o| o.mnemonic() == s)
    }
    pub fn from_u8(b: u8) -> Option<Opcode> {
        Opcode::ALL.get(b as usize).copied()
    }
    pub fn is_terminator(self) -> bool {
        self.format().is_terminator()
    }
    /// The `BinOp` this opcode is, if any.
    pub fn bin_op(self) -> Option<BinOp> {
        BinOp::ALL.iter().copied().find(|b| b.opcode() == self)
    }
    /// The `UnaryOp` this opcode is, if any.
    pub fn unary_op(self) -> Option<UnaryOp> {
        UnaryOp::ALL.iter().copied().find(|u| u.opcode() == self)
    }
    pub fn is_compare(self) -> bool {
        matches!(self, Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge)
    }
    pub fn is_bitwise(self) -> bool {
        matches!(self, Opcode::BAnd | Opcode::BOr | Opcode::BXor | Opcode::Shl | Opcode::Shr | Opcode::Inv)
    }
}

/// A binary operator of POST Python: value = the source-level spelling.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FDiv,
    Mod,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    BAnd,
    BOr,
    BXor,
    Shl,
    Shr,
}

impl BinOp {
    pub const ALL: [BinOp; 20] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::FDiv,
        BinOp::Mod,
        BinOp::Pow,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::And,
        BinOp::Or,
        BinOp::BAnd,
        BinOp::BOr,
        BinOp::BXor,
        BinOp::Shl,
        BinOp::Shr,
    ];

    /// The Python spelling (`BinOp.value`).
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::BAnd => "&",
            BinOp::BOr => "|",
            BinOp::BXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }

    pub fn opcode(self) -> Opcode {
        match self {
            BinOp::Add => Opcode::Add,
            BinOp::Sub => Opcode::Sub,
            BinOp::Mul => Opcode::Mul,
            BinOp::Div => Opcode::Div,
            BinOp::FDiv => Opcode::FDiv,
            BinOp::Mod => Opcode::Mod,
            BinOp::Pow => Opcode::Pow,
            BinOp::Eq => Opcode::Eq,
            BinOp::Ne => Opcode::Ne,
            BinOp::Lt => Opcode::Lt,
            BinOp::Le => Opcode::Le,
            BinOp::Gt => Opcode::Gt,
            BinOp::Ge => Opcode::Ge,
            BinOp::And => Opcode::And,
            BinOp::Or => Opcode::Or,
            BinOp::BAnd => Opcode::BAnd,
            BinOp::BOr => Opcode::BOr,
            BinOp::BXor => Opcode::BXor,
            BinOp::Shl => Opcode::Shl,
            BinOp::Shr => Opcode::Shr,
        }
    }

    pub fn from_symbol(s: &str) -> Option<BinOp> {
        BinOp::ALL.iter().copied().find(|b| b.symbol() == s)
    }
}

/// A unary operator of POST Python: value = the source-level spelling.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum UnaryOp {
    Neg,
    Not,
    Abs,
    Inv,
}

impl UnaryOp {
    pub const ALL: [UnaryOp; 4] = [UnaryOp::Neg, UnaryOp::Not, UnaryOp::Abs, UnaryOp::Inv];

    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "not",
            UnaryOp::Abs => "abs",
            UnaryOp::Inv => "~",
        }
    }

    pub fn opcode(self) -> Opcode {
        match self {
            UnaryOp::Neg => Opcode::Neg,
            UnaryOp::Not => Opcode::Not,
            UnaryOp::Abs => Opcode::Abs,
            UnaryOp::Inv => Opcode::Inv,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for (i, op) in Opcode::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i);
            assert_eq!(Opcode::from_u8(i as u8), Some(*op));
            assert_eq!(Opcode::from_mnemonic(op.mnemonic()), Some(*op));
            assert!(!op.doc().is_empty());
        }
        assert_eq!(std::mem::size_of::<Opcode>(), 1);
    }

    #[test]
    fn seed_operators_map_to_opcodes() {
        for b in BinOp::ALL {
            assert_eq!(b.opcode().bin_op(), Some(b));
            assert_eq!(b.opcode().format(), Format::Binary);
            assert_eq!(BinOp::from_symbol(b.symbol()), Some(b));
        }
        for u in UnaryOp::ALL {
            assert_eq!(u.opcode().unary_op(), Some(u));
        }
        assert_eq!(Opcode::Cast.unary_op(), None);
    }
}
