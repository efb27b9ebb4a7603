//! The opcode table. Every opcode is declared once, here: its mnemonic in
//! the text format, its operand format (which says how the two `u32` payload
//! slots and the `extra` pool are used), its effects (when it may trap,
//! whether it has other side effects, whether `insert-checks` guards it) and
//! a doc line. The printer, parser, verifier, the passes and the backends
//! read these columns; no other list of opcode properties exists. Properties
//! that depend on an instruction's operands or types (an integer result, a
//! constant divisor) are refined by the reader from these columns.

use crate::DType;

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
    /// `a` = base array value, `b` = extra index of [byte-offset value, n,
    /// extent values..., n, byte-stride values...]: one extent and one
    /// stride per axis of the result.
    View,
    /// `a` = returned value or `u32::MAX` for a void return.
    Return,
    /// `a` = target block.
    Br,
    /// `a` = condition value, `b` = extra index of [true block, false block,
    /// true weight, false weight] (weights 0/0: none given).
    CondBr,
    /// No payload.
    Unreachable,
    /// `a` = address value, `b` = index (immediate): the `b`-th
    /// pointer-sized word of the array at that address.
    RawRead,
    /// `a` = address value, `b` = byte-count value.
    RawOffset,
    /// `a` = address value.
    RawLoad,
    /// `a` = address value, `b` = stored value.
    RawStore,
    /// `a` = address value, `b` = extra index of [byte-offset value, n,
    /// extent values..., n, byte-stride values...], as [`Format::View`].
    RawView,
    /// `a` = array value.
    RawData,
    /// `a` = Str or Bytes value, `b` = byte-index value.
    TextByte,
    /// `b` = extra index of [n, element values...].
    Tuple,
    /// `a` = tuple value, `b` = the element's position (immediate).
    Extract,
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
            Format::View | Format::RawView => (S::Value, S::Extra, &[I::Value, I::Values, I::Values]),
            Format::Return => (S::OptValue, S::Unused, &[]),
            Format::Br => (S::Block, S::Unused, &[]),
            Format::CondBr => (S::Value, S::Extra, &[I::Block, I::Block, I::Imm, I::Imm]),
            Format::Unreachable => (S::Unused, S::Unused, &[]),
            Format::RawRead => (S::Value, S::Imm, &[]),
            Format::RawOffset | Format::RawStore => (S::Value, S::Value, &[]),
            Format::RawLoad | Format::RawData => (S::Value, S::Unused, &[]),
            Format::TextByte => (S::Value, S::Value, &[]),
            Format::Tuple => (S::Unused, S::Extra, &[I::Values]),
            Format::Extract => (S::Value, S::Imm, &[]),
        };
        PayloadLayout { a, b, extra }
    }

    /// Whether instructions of this format end a block.
    pub const fn is_terminator(self) -> bool {
        matches!(self, Format::Return | Format::Br | Format::CondBr | Format::Unreachable)
    }
    /// Whether an instruction of this format may define a result (`Call`:
    /// only when it has a result type).
    pub const fn has_result(self) -> bool {
        !matches!(
            self,
            Format::Store
                | Format::Set
                | Format::SetField
                | Format::IndexStore
                | Format::RawStore
                | Format::Return
                | Format::Br
                | Format::CondBr
                | Format::Unreachable
        )
    }

    /// Where the value operands of this format sit (see [`ValueSlots`]).
    pub const fn value_slots(self) -> ValueSlots {
        let l = self.layout();
        match (l.a, l.b) {
            (Slot::Value, Slot::Value) => ValueSlots::AB,
            (Slot::Value, Slot::Unused | Slot::Imm) => ValueSlots::A,
            (Slot::Unused | Slot::Imm | Slot::Literal, Slot::Unused | Slot::Imm | Slot::Literal) => ValueSlots::None,
            _ => ValueSlots::Other,
        }
    }
}

/// How an opcode's payload slots hold values, for sweeps that only read or
/// rewrite operands (use counts, renumbering): neither slot, the first, or
/// both are value ids; anything else (`extra` items, blocks, void returns)
/// is [`ValueSlots::Other`] and goes through [`Format::layout`]. One load
/// instead of a `match` per instruction keeps those sweeps free of
/// hard-to-predict branches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum ValueSlots {
    None,
    A,
    AB,
    Other,
}

/// When an instruction may stop the program with a runtime error (a panic
/// of the reference interpreter; a guarded panic in compiled code once
/// `insert-checks` has run). Readers refine the column with the result
/// type and the options (see [`Opcode::may_trap_with`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trap {
    /// Never.
    Never,
    /// With an integer result, when overflow checks are on (`add sub mul
    /// neg abs`).
    IntOverflow,
    /// With an integer result (`fdiv mod shl shr`: a zero divisor, a
    /// negative count).
    IntResult,
    /// With an integer result (a negative exponent, overflow) or a complex
    /// one (zero to a negative or complex power): `pow`.
    IntOrComplexResult,
    /// Whatever the types: memory accesses, calls, allocations, and
    /// `unreachable`.
    Always,
}

impl Trap {
    /// Whether an instruction of this kind with result dtype `result` (none
    /// when unknown or void) may trap; `overflow_checks` as the pass option.
    pub fn with(self, result: Option<DType>, overflow_checks: bool) -> bool {
        let (int, complex) = match result {
            Some(d) => (d.is_int(), d.is_complex()),
            None => (false, false),
        };
        match self {
            Trap::Never => false,
            Trap::IntOverflow => overflow_checks && int,
            Trap::IntResult => int,
            Trap::IntOrComplexResult => int || complex,
            Trap::Always => true,
        }
    }
}

/// The flags a row of the opcode table may carry after its trap column.
const FLAGS: [&str; 3] = ["effects", "checked", "raw"];

/// Whether `flags` holds `flag` (string equality, in a `const` context).
const fn has_flag(flags: &[&str], flag: &str) -> bool {
    let mut i = 0;
    while i < flags.len() {
        if flags[i].len() == flag.len() {
            let (a, b) = (flags[i].as_bytes(), flag.as_bytes());
            let mut k = 0;
            while k < a.len() && a[k] == b[k] {
                k += 1;
            }
            if k == a.len() {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Whether every flag of `flags` is one of [`FLAGS`]: a misspelt flag
/// fails the build instead of reading as absent.
const fn known_flags(flags: &[&str]) -> bool {
    let mut i = 0;
    while i < flags.len() {
        if !has_flag(&FLAGS, flags[i]) {
            return false;
        }
        i += 1;
    }
    true
}

macro_rules! opcodes {
    ($( #[doc = $doc:literal] $variant:ident = $mnemonic:literal, $format:ident, $trap:ident $(, $flag:ident)*; )*) => {
        /// An instruction's tag: one byte.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode {
            $( #[doc = $doc] $variant, )*
        }

        $( const _: () = assert!(known_flags(&[$(stringify!($flag)),*]), "an unknown flag in the opcode table"); )*

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
            /// When the instruction may trap (see [`Trap`]).
            pub const fn trap(self) -> Trap {
                match self { $(Opcode::$variant => Trap::$trap,)* }
            }
            /// Whether the instruction has an effect besides its result and
            /// a trap: it writes memory or a local, calls, transfers
            /// control, or (a parameter) is part of the signature.
            pub const fn has_side_effects(self) -> bool {
                match self { $(Opcode::$variant => has_flag(&[$(stringify!($flag)),*], "effects"),)* }
            }
            /// Whether `insert-checks` may guard the instruction with an
            /// explicit check that panics (see `passes/src/insert_checks.rs`).
            pub const fn is_checked(self) -> bool {
                match self { $(Opcode::$variant => has_flag(&[$(stringify!($flag)),*], "checked"),)* }
            }
            /// Whether the instruction works on raw addresses, which only
            /// compiler-made functions may do (see
            /// [`crate::FuncAttrs::COMPILER_MADE`]).
            pub const fn is_raw(self) -> bool {
                match self { $(Opcode::$variant => has_flag(&[$(stringify!($flag)),*], "raw"),)* }
            }
        }
    };
}

impl Opcode {
    /// Whether the result is an address in a compiler-made function: a
    /// parameter, or a `raw.ptr`, `raw.offset`, `raw.data`, `raw.field` or
    /// `raw.slot`.
    pub const fn makes_address(self) -> bool {
        matches!(
            self,
            Opcode::Param | Opcode::RawPtr | Opcode::RawOffset | Opcode::RawData | Opcode::RawField | Opcode::RawSlot
        )
    }

    /// Whether the operand in payload slot `b` is an address too (the
    /// stored value of `raw.setptr`); slot `a` of every `raw` opcode but
    /// `raw.data` is one.
    pub const fn stores_address(self) -> bool {
        matches!(self, Opcode::RawSetPtr)
    }
}

// The columns: the variant, its mnemonic, its format, when it may trap
// (a [`Trap`]), then its flags: `effects` (an effect besides its result and
// a trap, so it is never removed), `checked` (`insert-checks` may guard
// it) and `raw` (it reads, offsets or writes raw addresses: the entry
// points the compiler writes around a body, never a user's function).
//
// An address is an `Int64` in the tables and a pointer in the compiled
// code: a parameter of a compiler-made function, or the result of
// `raw.ptr`, `raw.offset` or `raw.data`, used only where an address is
// expected (the verifier checks both ways): the first operand of every raw
// opcode but `raw.data`, which takes an array. Reads through addresses trap
// `Always`, so no pass speculates or removes one whose address a branch
// guards. A `raw.view` is an array like any other once made: the body of a
// generalized ufunc receives its operands' core blocks as such views.
opcodes! {
    /// A function parameter or ufunc core-dimension size.
    Param = "param", Param, Never, effects;
    /// `result = literal`.
    Const = "const", Const, Never;
    /// `result = left + right`; Str/Bytes concatenate.
    Add = "add", Binary, IntOverflow, checked;
    /// `result = left - right`.
    Sub = "sub", Binary, IntOverflow, checked;
    /// `result = left * right`.
    Mul = "mul", Binary, IntOverflow, checked;
    /// `result = left / right`, true division into a float or complex result.
    Div = "div", Binary, Never;
    /// `result = left // right`, floor division (toward negative infinity).
    FDiv = "fdiv", Binary, IntResult, checked;
    /// `result = left % right`, the remainder takes the divisor's sign.
    Mod = "mod", Binary, IntResult, checked;
    /// `result = left ** right`.
    Pow = "pow", Binary, IntOrComplexResult, checked;
    /// `result = left / right` on integers, rounded toward zero; `right` is never zero nor, when `left` is the dtype's minimum, -1 (what `legalize` makes of `fdiv`).
    Quot = "quot", Binary, IntResult;
    /// `result = left % right` on integers, taking `left`'s sign; `right` as for `quot`.
    Rem = "rem", Binary, IntResult;
    /// `result = left == right`.
    Eq = "eq", Binary, Never;
    /// `result = left != right`.
    Ne = "ne", Binary, Never;
    /// `result = left < right`.
    Lt = "lt", Binary, Never;
    /// `result = left <= right`.
    Le = "le", Binary, Never;
    /// `result = left > right`.
    Gt = "gt", Binary, Never;
    /// `result = left >= right`.
    Ge = "ge", Binary, Never;
    /// `result = left and right`, on Bool.
    And = "and", Binary, Never;
    /// `result = left or right`, on Bool.
    Or = "or", Binary, Never;
    /// `result = left & right`, on integers.
    BAnd = "band", Binary, Never;
    /// `result = left | right`, on integers.
    BOr = "bor", Binary, Never;
    /// `result = left ^ right`, on integers.
    BXor = "bxor", Binary, Never;
    /// `result = left << right`, on integers; a negative count is an error.
    Shl = "shl", Binary, IntResult, checked;
    /// `result = left >> right`, arithmetic for signed integers.
    Shr = "shr", Binary, IntResult, checked;
    /// `result = -operand`.
    Neg = "neg", Unary, IntOverflow, checked;
    /// `result = not operand`, on Bool.
    Not = "not", Unary, Never;
    /// `result = abs(operand)`; complex gives the magnitude.
    Abs = "abs", Unary, IntOverflow, checked;
    /// `result = ~operand`, on integers.
    Inv = "inv", Unary, Never;
    /// `result = array[offset]`, the offset in bytes from the view origin.
    Load = "load", Load, Always;
    /// `array[offset] = value`, the offset in bytes from the view origin.
    Store = "store", Store, Always, effects;
    /// `result = array.shape[axis]`.
    Dim = "dim", Axis, Never;
    /// `result = array.strides[axis]`, in bytes.
    Stride = "stride", Axis, Never;
    /// `result = func(args...)`; no result for a void call.
    Call = "call", Call, Always, effects;
    /// `result = (result dtype) operand`.
    Cast = "cast", Unary, Never;
    /// `result = the operand's bits read as the result dtype`: a float and the unsigned integer of its width (Float16 and UInt16, Float32 and UInt32, Float64 and UInt64), either way; how `legalize` reaches a float's sign, exponent and significand.
    Bitcast = "bitcast", Unary, Never;
    /// Declares the mutable local `result` and assigns it.
    Let = "let", Let, Never;
    /// Assigns a mutable local declared by `let`, or a parameter.
    Set = "set", Set, Never, effects;
    /// `result = cond ? if_true : if_false`.
    Select = "select", Select, Never;
    /// `result = alloc(result dtype, extents...)`: a zeroed C-order array from the per-call arena.
    Alloc = "alloc", Alloc, Always, checked;
    /// `result = alloc.empty(result dtype, extents...)`: as `alloc`, but the elements' values are unspecified until written (NumPy's `np.empty`), so that a backend may skip zeroing them.
    AllocEmpty = "alloc.empty", Alloc, Always, checked;
    /// `result = aggregate.field` (`real` / `imag` of a complex value; `len` and `nbytes` of a Str or Bytes).
    GetField = "getfield", GetField, Never;
    /// `aggregate.field = value`, in place.
    SetField = "setfield", SetField, Never, effects;
    /// `result = array[i, j, ...]`, one element index per axis.
    IndexLoad = "index.load", IndexLoad, Always, checked;
    /// `array[i, j, ...] = value`, one element index per axis.
    IndexStore = "index.store", IndexStore, Always, effects, checked;
    /// `result = view(base, offset, [extents...], [strides...])`: an array sharing `base`'s memory, element `[i, j, ...]` at `offset + i*stride0 + j*stride1 + ...` bytes from `base`'s element 0.
    View = "view", View, Always, checked;
    /// `result = view.inbounds(base, offset, [extents...], [strides...])`: a `view` that is valid by construction (the frontend's views: an index checked first, slice bounds clamped, `a.T` or a reshape spanning exactly its base), so `insert-checks` does not check it again.
    ViewInBounds = "view.inbounds", View, Always;
    /// Returns from the function, with a value or without.
    Return = "return", Return, Never, effects;
    /// Jumps to a block.
    Br = "br", Br, Never, effects;
    /// Jumps to one of two blocks on a Bool condition.
    CondBr = "condbr", CondBr, Never, effects;
    /// Never reached: follows a call that never returns, or panics.
    Unreachable = "unreachable", Unreachable, Always, effects, checked;
    /// `result = ((void **)address)[index]`: an address read from an array of pointers.
    RawPtr = "raw.ptr", RawRead, Always, raw;
    /// `result = ((intptr_t *)address)[index]`: a pointer-sized integer, sign-extended to Int64.
    RawWord = "raw.word", RawRead, Always, raw;
    /// `result = address + bytes`: an address that many bytes on (an Int64 count).
    RawOffset = "raw.offset", RawOffset, Never, raw;
    /// `result = *address`: one element of the result dtype, as laid out in a NumPy array.
    RawLoad = "raw.load", RawLoad, Always, raw;
    /// `*address = value`: one element of the value's dtype, as laid out in a NumPy array.
    RawStore = "raw.store", RawStore, Always, effects, raw;
    /// `result = address == NULL`: whether an address is the null pointer (a Bool), as a device loop's scratch buffer is when the launch needs none.
    RawIsNull = "raw.isnull", RawLoad, Never, raw;
    /// `result = raw.view(address, offset, [extents...], [strides...])`: the array of the result type whose element `[i, j, ...]` is at `address + offset + i*stride0 + j*stride1 + ...` bytes, strides multiples of the element size; its header lives in the function's frame and is rewritten each time the instruction runs.
    RawView = "raw.view", RawView, Never, raw;
    /// `result = &array[0, 0, ...]`: the address of an array's first element.
    RawData = "raw.data", RawData, Never, raw;
    /// `result = &((DLTensor *)address)->FIELD`: the address of a DLTensor's field, numbered as [`crate::dtype::DLTENSOR_FIELDS`] (0 `data`, 1 `device_type`, 2 `ndim`, 3 dtype `code`, 4 `bits`, 5 `lanes`, 6 `shape`, 7 `strides`, 8 `byte_offset`), its offset the target's.
    RawField = "raw.field", RawRead, Never, raw;
    /// `result = &((void **)address)[index]`: the address of a pointer-sized word of an array.
    RawSlot = "raw.slot", RawRead, Never, raw;
    /// `*(intptr_t *)address = value`: an `Int64` stored as a pointer-sized integer (truncated where pointers are narrower).
    RawSetWord = "raw.setword", RawStore, Always, effects, raw;
    /// `*(void **)address = value`: an address stored as a pointer.
    RawSetPtr = "raw.setptr", RawStore, Always, effects, raw;
    /// `result = text[index]`: byte `index` (an Int64, `0 <= index < nbytes`, which `legalize`'s loop keeps) of a Str's UTF-8 bytes or of a Bytes, as a UInt8; with a UInt64 result, the eight bytes from `index` (`index + 8 <= nbytes`) as a little-endian word; it traps `Always` so that no pass moves it above the test that keeps the index in range.
    TextByte = "text.byte", TextByte, Always;
    /// `result = (elements...)`: the tuple a function with a tuple result returns.
    Tuple = "tuple", Tuple, Never;
    /// `result = tuple[index]`: one element of the tuple a call returned.
    Extract = "extract", Extract, Never;
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

/// Each opcode's [`ValueSlots`], by opcode number, for the same reason.
static VALUE_SLOTS: [ValueSlots; Opcode::ALL.len()] = {
    let mut t = [ValueSlots::Other; Opcode::ALL.len()];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        t[i] = Opcode::ALL[i].format().value_slots();
        i += 1;
    }
    t
};

/// Whether each opcode may be removable, by opcode number: dce asks per
/// instruction.
static MAY_BE_REMOVABLE: [bool; Opcode::ALL.len()] = {
    let mut t = [false; Opcode::ALL.len()];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        let op = Opcode::ALL[i];
        t[i] = op.has_result() && !op.has_side_effects() && !matches!(op.trap(), Trap::Always);
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
    /// Where the value operands sit in the payload slots.
    #[inline]
    pub fn value_slots(self) -> ValueSlots {
        VALUE_SLOTS[self as usize]
    }
    /// Whether an instruction of this opcode may define a result (`call`:
    /// only when it has a result type).
    pub const fn has_result(self) -> bool {
        self.format().has_result()
    }
    /// Whether the instruction may trap with some result type or options.
    pub const fn may_trap(self) -> bool {
        !matches!(self.trap(), Trap::Never)
    }
    /// Whether an instruction of this opcode with result dtype `result` may
    /// trap; `overflow_checks` as the pass option.
    #[inline]
    pub fn may_trap_with(self, result: Option<DType>, overflow_checks: bool) -> bool {
        self.trap().with(result, overflow_checks)
    }
    /// Whether an instruction of this opcode whose result is unused may be
    /// removed: it has a result and no side effect, and traps at most with
    /// some result types (which [`Opcode::may_trap_with`] then rules out).
    #[inline]
    pub fn may_be_removable(self) -> bool {
        MAY_BE_REMOVABLE[self as usize]
    }

    pub fn from_mnemonic(s: &str) -> Option<Opcode> {
        Opcode::ALL.iter().copied().find(|o| o.mnemonic() == s)
    }
    pub fn from_u8(b: u8) -> Option<Opcode> {
        Opcode::ALL.get(b as usize).copied()
    }
    pub const fn is_terminator(self) -> bool {
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

    #[test]
    fn checked_opcodes_may_trap() {
        // A guard exists to turn a trap into a located panic: an opcode that
        // never traps has nothing to guard.
        for op in Opcode::ALL {
            if op.is_checked() {
                assert!(op.may_trap(), "{op:?} is checked but never traps");
            }
        }
    }

    #[test]
    fn opcodes_without_a_result_have_effects() {
        // An instruction with neither a result nor an effect would do
        // nothing; terminators transfer control.
        for op in Opcode::ALL {
            if !op.has_result() || op.is_terminator() {
                assert!(op.has_side_effects(), "{op:?} has no result and no effect");
            }
        }
    }

    #[test]
    fn removable_is_result_without_effects_or_certain_trap() {
        for op in Opcode::ALL {
            let want = op.has_result() && !op.has_side_effects() && op.trap() != Trap::Always;
            assert_eq!(op.may_be_removable(), want, "{op:?}");
            // A removable opcode that never traps is removable whatever
            // its types and options.
            if op.may_be_removable() && !op.may_trap() {
                for d in DType::ALL {
                    assert!(!op.may_trap_with(Some(d), true), "{op:?} on {d}");
                }
            }
        }
    }

    #[test]
    fn trap_refinement_follows_the_column() {
        for op in Opcode::ALL {
            let any = DType::ALL.iter().any(|&d| op.may_trap_with(Some(d), true));
            assert_eq!(any, op.may_trap(), "{op:?}");
            // Without overflow checks only overflow-trapping opcodes change.
            let ovf_only =
                DType::ALL.iter().any(|&d| op.may_trap_with(Some(d), true) != op.may_trap_with(Some(d), false));
            assert_eq!(ovf_only, op.trap() == Trap::IntOverflow, "{op:?}");
        }
        assert!(Opcode::FDiv.may_trap_with(Some(DType::Int32), false));
        assert!(!Opcode::FDiv.may_trap_with(Some(DType::Float64), false));
        assert!(Opcode::Pow.may_trap_with(Some(DType::Complex64), false));
        assert!(!Opcode::Pow.may_trap_with(Some(DType::Float32), true));
        assert!(!Opcode::Add.may_trap_with(Some(DType::Int64), false));
        assert!(Opcode::Add.may_trap_with(Some(DType::Int64), true));
        assert!(Opcode::Call.may_trap_with(None, false));
    }

    #[test]
    fn effects_of_writes_calls_and_control() {
        for op in Opcode::ALL {
            let writes = matches!(
                op.format(),
                Format::Store | Format::Set | Format::SetField | Format::IndexStore | Format::RawStore
            );
            let control = op.is_terminator() || op.format() == Format::Call;
            if writes || control {
                assert!(op.has_side_effects(), "{op:?}");
            }
        }
    }

    #[test]
    fn value_slots_agree_with_the_layout() {
        for op in Opcode::ALL {
            let l = op.layout();
            let value = |s: Slot| s == Slot::Value;
            let plain = |s: Slot| matches!(s, Slot::Unused | Slot::Imm | Slot::Literal);
            let want = if value(l.a) && value(l.b) {
                ValueSlots::AB
            } else if value(l.a) && plain(l.b) {
                ValueSlots::A
            } else if plain(l.a) && plain(l.b) {
                ValueSlots::None
            } else {
                ValueSlots::Other
            };
            assert_eq!(op.value_slots(), want, "{op:?}");
            // Only `Other` may keep operands in `extra` or block slots.
            if op.value_slots() != ValueSlots::Other {
                assert!(l.extra.is_empty() && l.b != Slot::Extra, "{op:?}");
            }
        }
    }

    #[test]
    fn raw_opcodes_are_exactly_those_of_the_raw_formats() {
        // Only the raw opcodes take addresses, so the verifier's rule that
        // addresses go only into their first slot covers every raw format
        // (`raw.data` makes an address of the array there).
        for op in Opcode::ALL {
            let raw_format = matches!(
                op.format(),
                Format::RawRead
                    | Format::RawOffset
                    | Format::RawLoad
                    | Format::RawStore
                    | Format::RawView
                    | Format::RawData
            );
            assert_eq!(op.is_raw(), raw_format, "{op:?}");
            if op.is_raw() {
                assert_eq!(op.layout().a, Slot::Value, "{op:?} takes its address first");
            }
        }
    }

    #[test]
    fn flags_are_recognised() {
        assert!(known_flags(&["effects", "checked", "raw"]));
        assert!(!known_flags(&["effect"]));
        assert!(has_flag(&["checked"], "checked"));
        assert!(!has_flag(&["checked"], "effects"));
    }
}
