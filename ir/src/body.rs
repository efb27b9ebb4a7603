//! A function body: struct-of-arrays tables indexed by typed ids.
//!
//! An instruction's id *is* its result value (as in Zig's AIR). Parameters
//! are `param` instructions at the front, outside any block. Every block owns
//! a contiguous range of instructions, in block order, whose last one is its
//! terminator. Per instruction the columns hold a one-byte opcode, the result
//! type, a two-slot `u32` payload (see [`Format`]), the result name and a
//! packed location: 4 + 1 + 8 bytes of instruction columns, plus 8 for name
//! and location. Operands that do not fit in two slots live in `extra`.

use crate::dtype::DType;
use crate::entity::{EntityId, IndexVec};
use crate::entity_id;
use crate::loc::{FileId, Loc, SrcLoc, Unpacked};
use crate::opcode::{Format, Item, Opcode, Slot};
use crate::types::TypeId;
use smallvec::SmallVec;

entity_id! {
    /// An instruction, and the value it defines.
    pub struct ValueId, "v";
}
entity_id! {
    /// A basic block of one function.
    pub struct BlockId, "block";
}
entity_id! {
    /// A string of a function's name pool (value names, labels, callees).
    pub struct NameId, "name";
}

/// The payload slot value meaning "no value" (a void return).
pub const NO_VALUE: u32 = u32::MAX;

/// A basic block: its label and its instruction range `[start, end)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BlockData {
    pub label: NameId,
    pub start: u32,
    pub end: u32,
}

impl BlockData {
    pub fn insts(&self) -> impl DoubleEndedIterator<Item = ValueId> + ExactSizeIterator {
        (self.start..self.end).map(ValueId::from_u32)
    }
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// The field `getfield`/`setfield` name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Field {
    Real = 0,
    Imag = 1,
    /// The length of a Str (in code points, as Python's `len`) or Bytes
    /// (in bytes); read-only.
    Len = 2,
    /// The length of a Str (its UTF-8 bytes) or Bytes in bytes; read-only.
    /// What `legalize` counts a Str's code points up to.
    NBytes = 3,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::Real => "real",
            Field::Imag => "imag",
            Field::Len => "len",
            Field::NBytes => "nbytes",
        }
    }
    pub fn from_name(s: &str) -> Option<Field> {
        match s {
            "real" => Some(Field::Real),
            "imag" => Some(Field::Imag),
            "len" => Some(Field::Len),
            "nbytes" => Some(Field::NBytes),
            _ => None,
        }
    }
    pub fn from_u32(x: u32) -> Option<Field> {
        match x {
            0 => Some(Field::Real),
            1 => Some(Field::Imag),
            2 => Some(Field::Len),
            3 => Some(Field::NBytes),
            _ => None,
        }
    }
}

/// Length-prefixed UTF-8 strings in one byte buffer; a [`NameId`] is the
/// offset of the length prefix.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct NamePool {
    bytes: Vec<u8>,
}

impl NamePool {
    pub fn push(&mut self, s: &str) -> NameId {
        self.push_bytes(s.as_bytes())
    }

    pub fn get(&self, id: NameId) -> &str {
        std::str::from_utf8(self.get_bytes(id)).unwrap_or("")
    }

    /// The bytes of a string, without checking that they are UTF-8 (every
    /// string pushed is); empty for an id this pool never gave out.
    #[inline]
    pub fn get_bytes(&self, id: NameId) -> &[u8] {
        let i = id.index();
        // One-byte length prefix: names shorter than 128 bytes.
        if let Some(&n) = self.bytes.get(i) {
            if n < 0x80 {
                return self.bytes.get(i + 1..i + 1 + n as usize).unwrap_or(&[]);
            }
        }
        self.get_bytes_long(i)
    }

    #[cold]
    fn get_bytes_long(&self, mut i: usize) -> &[u8] {
        let mut n = 0usize;
        let mut shift = 0;
        while let Some(&byte) = self.bytes.get(i) {
            n |= ((byte & 0x7f) as usize) << shift;
            i += 1;
            shift += 7;
            if byte & 0x80 == 0 || shift > 28 {
                break;
            }
        }
        self.bytes.get(i..i + n).unwrap_or(&[])
    }

    /// Appends the bytes of a string to `out`, exactly as
    /// [`NamePool::get_bytes`] gives them: a short string is copied as one
    /// fixed 16-byte block, then the buffer is cut back to its length.
    #[inline]
    pub fn append_to(&self, id: NameId, out: &mut Vec<u8>) {
        let i = id.index();
        if let Some(w) = self.bytes.get(i..i.wrapping_add(17)) {
            let n = w[0] as usize;
            if n <= 16 {
                let mut chunk = [0u8; 16];
                chunk.copy_from_slice(&w[1..17]);
                out.extend_from_slice(&chunk);
                out.truncate(out.len() - 16 + n);
                return;
            }
        }
        out.extend_from_slice(self.get_bytes(id));
    }

    /// Copies a string of another pool (already valid UTF-8) into this one.
    #[inline]
    pub fn push_from(&mut self, other: &NamePool, id: NameId) -> NameId {
        let i = id.index();
        // A short string is its one-byte prefix and its bytes: copy both at
        // once, as a fixed sixteen bytes cut back to size where the source
        // has them (a fixed-size copy is a couple of moves, not a call).
        if let Some(&n) = other.bytes.get(i) {
            if n < 16 {
                if let Some(chunk) = other.bytes.get(i..i + 16) {
                    let at = self.bytes.len();
                    let chunk: &[u8; 16] = chunk.try_into().unwrap_or(&[0; 16]);
                    self.bytes.extend_from_slice(chunk);
                    self.bytes.truncate(at + 1 + n as usize);
                    return NameId::new(at);
                }
            }
            if n < 0x80 {
                if let Some(s) = other.bytes.get(i..i + 1 + n as usize) {
                    let at = NameId::new(self.bytes.len());
                    self.bytes.extend_from_slice(s);
                    return at;
                }
            }
        }
        self.push_bytes(other.get_bytes(id))
    }

    /// Appends the concatenation of `parts` (each valid UTF-8) as one string.
    pub fn push_concat(&mut self, parts: &[&[u8]]) -> NameId {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        if len >= 0x80 {
            let joined: Vec<u8> = parts.concat();
            return self.push_bytes(&joined);
        }
        let id = NameId::new(self.bytes.len());
        self.bytes.reserve(len + 1);
        self.bytes.push(len as u8);
        for p in parts {
            self.bytes.extend_from_slice(p);
        }
        id
    }

    /// Appends a string given as bytes the caller knows to be UTF-8.
    pub(crate) fn push_bytes(&mut self, s: &[u8]) -> NameId {
        let id = NameId::new(self.bytes.len());
        let mut n = s.len() as u32;
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.bytes.push(byte);
                break;
            }
            self.bytes.push(byte | 0x80);
        }
        self.bytes.extend_from_slice(s);
        id
    }

    /// The pool's raw bytes (length prefixes and strings).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn byte_len(&self) -> usize {
        self.bytes.len()
    }

    pub fn clear(&mut self) {
        self.bytes.clear()
    }

    /// Reserves room for `additional` more bytes (an empty pool short of
    /// room takes a fresh buffer instead of growing, with nothing to copy).
    pub fn reserve(&mut self, additional: usize) {
        if self.bytes.is_empty() && self.bytes.capacity() < additional {
            self.bytes = Vec::with_capacity(additional);
        } else {
            self.bytes.reserve(additional)
        }
    }

    /// Appends bytes copied from another pool: whole strings, length
    /// prefixes included, so ids into them shift by a constant.
    pub fn extend_raw(&mut self, strings: &[u8]) {
        self.bytes.extend_from_slice(strings)
    }

    /// Overwrites every `$` of a string with `_`: for a string that nothing
    /// reads any more, so that it no longer looks like a numbered name
    /// `BASE$N` to a scan of the pool.
    pub fn blank_dollars(&mut self, id: NameId) {
        let i = id.index();
        let (n, at) = match self.bytes.get(i) {
            Some(&n) if n < 0x80 => (n as usize, i + 1),
            _ => {
                let len = self.get_bytes(id).len();
                let mut at = i;
                while self.bytes.get(at).is_some_and(|&b| b & 0x80 != 0) {
                    at += 1;
                }
                (len, at + 1)
            }
        };
        if let Some(s) = self.bytes.get_mut(at..at.saturating_add(n)) {
            for b in s {
                if *b == b'$' {
                    *b = b'_';
                }
            }
        }
    }
}

/// A list of values stored in `extra`.
#[derive(Clone, Copy)]
pub struct ValueList<'a>(pub &'a [u32]);

impl<'a> ValueList<'a> {
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<ValueId> {
        self.0.get(i).map(|&x| ValueId::from_u32(x))
    }
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ValueId> + 'a {
        self.0.iter().map(|&x| ValueId::from_u32(x))
    }
}

impl std::fmt::Debug for ValueList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A literal as a `const` instruction holds it. Float bits are those of the
/// result dtype's width (Float16 in the low 16 bits, Float32 in the low 32),
/// so every literal, NaN payloads included, re-reads bit-exactly.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Literal<'a> {
    Bool(bool),
    /// Any integer dtype; the value, not the bit pattern.
    Int(i128),
    Float(u64),
    Complex(u64, u64),
    Str(&'a str),
    Bytes(&'a [u8]),
}

/// An owned literal (module constants, interpreter results).
#[derive(Clone, PartialEq, Debug)]
pub enum ConstValue {
    Bool(bool),
    Int(i128),
    Float(u64),
    Complex(u64, u64),
    Str(String),
    Bytes(Vec<u8>),
}

impl ConstValue {
    pub fn as_literal(&self) -> Literal<'_> {
        match self {
            ConstValue::Bool(b) => Literal::Bool(*b),
            ConstValue::Int(i) => Literal::Int(*i),
            ConstValue::Float(f) => Literal::Float(*f),
            ConstValue::Complex(r, i) => Literal::Complex(*r, *i),
            ConstValue::Str(s) => Literal::Str(s),
            ConstValue::Bytes(b) => Literal::Bytes(b),
        }
    }
}

impl Literal<'_> {
    pub fn to_owned(&self) -> ConstValue {
        match *self {
            Literal::Bool(b) => ConstValue::Bool(b),
            Literal::Int(i) => ConstValue::Int(i),
            Literal::Float(f) => ConstValue::Float(f),
            Literal::Complex(r, i) => ConstValue::Complex(r, i),
            Literal::Str(s) => ConstValue::Str(s.to_owned()),
            Literal::Bytes(b) => ConstValue::Bytes(b.to_vec()),
        }
    }

    /// Whether this literal can be the value of a `dtype` constant.
    pub fn fits(&self, dtype: DType) -> bool {
        match *self {
            Literal::Bool(_) => dtype == DType::Bool,
            Literal::Int(i) => dtype.int_range().is_some_and(|(lo, hi)| lo <= i && i <= hi),
            Literal::Float(bits) => dtype.is_float() && (bits >> (dtype.bits() - 1) >> 1) == 0,
            Literal::Complex(r, i) => {
                let w = match dtype {
                    DType::Complex64 => 32,
                    DType::Complex128 => 64,
                    _ => return false,
                };
                w == 64 || (r >> w == 0 && i >> w == 0)
            }
            Literal::Str(_) => dtype == DType::Str,
            Literal::Bytes(_) => dtype == DType::Bytes,
        }
    }
}

/// Converts float bits of a dtype's width to an `f64` (exact for every
/// value; NaN payloads as the hardware widens them).
pub fn float_bits_to_f64(dtype: DType, bits: u64) -> f64 {
    match dtype {
        DType::Float16 => half::f16::from_bits(bits as u16).to_f64(),
        DType::Float32 | DType::Complex64 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// Rounds an `f64` to the nearest Float16 (ties to even), in one rounding
/// step: going through `f32` first can round twice and be off by one ulp.
pub fn f16_from_f64(x: f64) -> half::f16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let man = bits & 0x000f_ffff_ffff_ffff;
    if exp == 0x7ff {
        // Infinity, or NaN keeping its top payload bits, made quiet.
        let nan = if man == 0 { 0 } else { 0x0200 | (man >> 42) as u16 };
        return half::f16::from_bits(sign | 0x7c00 | nan);
    }
    if exp == 0 {
        return half::f16::from_bits(sign); // f64 subnormals are far below f16's range
    }
    let e = exp - 1023;
    if e >= 16 {
        return half::f16::from_bits(sign | 0x7c00);
    }
    let m = (1u64 << 52) | man;
    let shift = if e >= -14 { 42 } else { (28 - e) as u32 };
    if shift >= 64 {
        return half::f16::from_bits(sign);
    }
    let mut r = m >> shift;
    let rem = m & ((1u64 << shift) - 1);
    let halfway = 1u64 << (shift - 1);
    if rem > halfway || (rem == halfway && r & 1 == 1) {
        r += 1;
    }
    // A carry out of the mantissa moves into the exponent by itself.
    let mag = if e >= -14 { (((e + 15) as u64) << 10) + (r - 1024) } else { r };
    half::f16::from_bits(sign | mag as u16)
}

/// Rounds an `f64` to a float dtype's width and returns its bits.
pub fn f64_to_float_bits(dtype: DType, x: f64) -> u64 {
    match dtype {
        DType::Float16 => f16_from_f64(x).to_bits() as u64,
        DType::Float32 | DType::Complex64 => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}

/// The decoded view of one instruction: one variant per node type.
#[derive(Clone, Copy, Debug)]
pub enum InstData<'a> {
    Param {
        index: u32,
        core: bool,
    },
    Const(Literal<'a>),
    /// `BinOpInstr` (and the bitwise extensions).
    Binary {
        op: Opcode,
        left: ValueId,
        right: ValueId,
    },
    /// `UnaryOpInstr` (and `inv`).
    Unary {
        op: Opcode,
        operand: ValueId,
    },
    Cast {
        operand: ValueId,
    },
    Bitcast {
        operand: ValueId,
    },
    Load {
        array: ValueId,
        offset: ValueId,
    },
    Store {
        array: ValueId,
        offset: ValueId,
        value: ValueId,
    },
    Dim {
        array: ValueId,
        axis: u32,
    },
    Stride {
        array: ValueId,
        axis: u32,
    },
    Call {
        callee: &'a str,
        args: ValueList<'a>,
    },
    /// `AssignValue` with `declare=True`: the result is the target.
    Let {
        value: ValueId,
    },
    /// `AssignValue` with `declare=False`.
    Set {
        target: ValueId,
        value: ValueId,
    },
    Select {
        cond: ValueId,
        if_true: ValueId,
        if_false: ValueId,
    },
    /// One extent per axis of the result.
    Alloc {
        dims: ValueList<'a>,
    },
    GetField {
        aggregate: ValueId,
        field: Field,
    },
    SetField {
        aggregate: ValueId,
        field: Field,
        value: ValueId,
    },
    IndexLoad {
        array: ValueId,
        indices: ValueList<'a>,
    },
    IndexStore {
        array: ValueId,
        indices: ValueList<'a>,
        value: ValueId,
    },
    /// An array sharing `base`'s memory: one extent and one byte stride
    /// per axis of the result, element 0 at `offset` bytes from `base`'s.
    View {
        base: ValueId,
        offset: ValueId,
        extents: ValueList<'a>,
        strides: ValueList<'a>,
    },
    Return {
        value: Option<ValueId>,
    },
    Br {
        target: BlockId,
    },
    CondBr {
        cond: ValueId,
        if_true: BlockId,
        if_false: BlockId,
        weights: Option<(u32, u32)>,
    },
    Unreachable,
    /// `raw.ptr` / `raw.word`: word `index` of the array at `base`.
    RawRead {
        op: Opcode,
        base: ValueId,
        index: u32,
    },
    /// `raw.offset`: `address + bytes`.
    RawOffset {
        address: ValueId,
        bytes: ValueId,
    },
    /// `raw.load`: the element at `address`.
    RawLoad {
        address: ValueId,
    },
    /// `raw.store`: `value` to `address`.
    RawStore {
        address: ValueId,
        value: ValueId,
    },
    /// `raw.view`: the array whose element 0 is `offset` bytes from
    /// `address`, one extent and one byte stride per axis.
    RawView {
        address: ValueId,
        offset: ValueId,
        extents: ValueList<'a>,
        strides: ValueList<'a>,
    },
    /// `raw.data`: the address of `array`'s first element.
    RawData {
        array: ValueId,
    },
    /// `text.byte`: byte `index` of a Str's UTF-8 bytes or of a Bytes.
    TextByte {
        text: ValueId,
        index: ValueId,
    },
    /// `tuple`: the tuple of `elements`, in order.
    Tuple {
        elements: ValueList<'a>,
    },
    /// `extract`: element `index` of a tuple.
    Extract {
        tuple: ValueId,
        index: u32,
    },
    /// A payload that does not decode (only reachable through direct
    /// column edits); the verifier reports it.
    Malformed,
}

/// A function body's tables.
#[derive(Clone, Debug, Default)]
pub struct Body {
    /// Opcode of each instruction.
    pub tags: IndexVec<ValueId, Opcode>,
    /// Result type of each instruction; `None` for no result.
    pub types: IndexVec<ValueId, Option<TypeId>>,
    /// The two payload slots, used as the opcode's [`Format`] says.
    pub ops: IndexVec<ValueId, [u32; 2]>,
    /// Result name of each instruction (`None` for no result).
    pub names: IndexVec<ValueId, Option<NameId>>,
    /// Packed source location of each instruction.
    pub locs: IndexVec<ValueId, Loc>,
    pub blocks: IndexVec<BlockId, BlockData>,
    /// Variable-length payloads: a header followed by trailing items.
    pub extra: Vec<u32>,
    /// String and bytes literal data.
    pub bytes: Vec<u8>,
    /// Value names, block labels and callee names.
    pub strings: NamePool,
    /// Locations that do not fit the packed form.
    pub far_locs: Vec<SrcLoc>,
    /// Parameters, then core-dimension parameters, are the first
    /// `num_params + num_core` instructions.
    pub num_params: u32,
    pub num_core: u32,
    /// The file of packed explicit locations.
    pub src_file: Option<FileId>,
    /// The `.pir` file of packed implicit locations.
    pub pir_file: Option<FileId>,
    /// Bytes of `strings`, `extra` and `bytes` that no instruction or block
    /// uses any more (a pass that removes instructions may leave their
    /// payloads behind, and compact the pools once these are many).
    pub dead_pool_bytes: usize,
}

// The hot records stay small: a one-byte tag, a four-byte type, an
// eight-byte payload, a four-byte name and a four-byte location.
const _: () = assert!(std::mem::size_of::<Opcode>() == 1);
const _: () = assert!(std::mem::size_of::<Option<TypeId>>() == 4);
const _: () = assert!(std::mem::size_of::<[u32; 2]>() == 8);
const _: () = assert!(std::mem::size_of::<Option<NameId>>() == 4);
const _: () = assert!(std::mem::size_of::<Loc>() == 4);
const _: () = assert!(std::mem::size_of::<BlockData>() == 12);

impl Body {
    pub fn new() -> Body {
        Body::default()
    }

    /// Empties every table, keeping the allocations for reuse.
    pub fn clear(&mut self) {
        self.tags.clear();
        self.types.clear();
        self.ops.clear();
        self.names.clear();
        self.locs.clear();
        self.blocks.clear();
        self.extra.clear();
        self.bytes.clear();
        self.strings.clear();
        self.far_locs.clear();
        self.num_params = 0;
        self.num_core = 0;
        self.src_file = None;
        self.pir_file = None;
        self.dead_pool_bytes = 0;
    }

    pub fn num_insts(&self) -> usize {
        self.tags.len()
    }

    /// All parameters (regular then core-dimension) in order.
    pub fn all_params(&self) -> impl ExactSizeIterator<Item = ValueId> {
        (0..self.num_params + self.num_core).map(ValueId::from_u32)
    }
    pub fn params(&self) -> impl ExactSizeIterator<Item = ValueId> {
        (0..self.num_params).map(ValueId::from_u32)
    }
    pub fn core_dim_params(&self) -> impl ExactSizeIterator<Item = ValueId> {
        (self.num_params..self.num_params + self.num_core).map(ValueId::from_u32)
    }

    pub fn entry(&self) -> Option<BlockId> {
        (!self.blocks.is_empty()).then(|| BlockId::from_u32(0))
    }

    #[inline]
    pub fn opcode(&self, v: ValueId) -> Opcode {
        self.tags[v]
    }
    #[inline]
    pub fn ty(&self, v: ValueId) -> Option<TypeId> {
        self.types[v]
    }
    pub fn name(&self, v: ValueId) -> Option<&str> {
        self.names[v].map(|n| self.strings.get(n))
    }
    /// The bytes of the value's name (UTF-8, not re-validated).
    #[inline]
    pub fn name_bytes(&self, v: ValueId) -> Option<&[u8]> {
        self.names[v].map(|n| self.strings.get_bytes(n))
    }
    /// The value's name, or `""` when it has none.
    pub fn name_or_empty(&self, v: ValueId) -> &str {
        self.name(v).unwrap_or("")
    }
    pub fn label(&self, b: BlockId) -> &str {
        self.strings.get(self.blocks[b].label)
    }

    /// The terminator of a block, if its last instruction is one.
    pub fn terminator(&self, b: BlockId) -> Option<ValueId> {
        let bd = self.blocks[b];
        (bd.end > bd.start).then(|| ValueId::from_u32(bd.end - 1)).filter(|v| self.tags[*v].is_terminator())
    }

    /// The block holding an instruction (binary search over block ranges).
    pub fn block_of(&self, v: ValueId) -> Option<BlockId> {
        let i = v.as_u32();
        let raw = self.blocks.raw();
        let pos = raw.partition_point(|b| b.end <= i);
        raw.get(pos).filter(|b| b.start <= i && i < b.end).map(|_| BlockId::new(pos))
    }

    fn extra_slice(&self, start: u32, len: usize) -> Option<&[u32]> {
        let s = start as usize;
        self.extra.get(s..s.checked_add(len)?)
    }

    fn value_at(&self, start: u32, len: usize) -> Option<ValueList<'_>> {
        self.extra_slice(start, len).map(ValueList)
    }

    /// Decodes an instruction into its typed view.
    pub fn inst(&self, v: ValueId) -> InstData<'_> {
        self.decode(v).unwrap_or(InstData::Malformed)
    }

    fn decode(&self, v: ValueId) -> Option<InstData<'_>> {
        let op = self.tags[v];
        let [a, b] = self.ops[v];
        let val = ValueId::from_u32;
        let ex = |i: u32| self.extra.get(i as usize).copied();
        Some(match op.format() {
            Format::Param => InstData::Param { index: a, core: b == 1 },
            Format::Const => {
                let dtype = self.types[v].and_then(|t| DType::from_index(t.as_u32()));
                InstData::Const(self.decode_literal(dtype?, a, b)?)
            }
            Format::Binary => InstData::Binary { op, left: val(a), right: val(b) },
            Format::Unary if op == Opcode::Cast => InstData::Cast { operand: val(a) },
            Format::Unary if op == Opcode::Bitcast => InstData::Bitcast { operand: val(a) },
            Format::Unary => InstData::Unary { op, operand: val(a) },
            Format::Load => InstData::Load { array: val(a), offset: val(b) },
            Format::Store => InstData::Store { array: val(a), offset: val(ex(b)?), value: val(ex(b + 1)?) },
            Format::Axis if op == Opcode::Dim => InstData::Dim { array: val(a), axis: b },
            Format::Axis => InstData::Stride { array: val(a), axis: b },
            Format::Call => {
                let n = ex(b)?;
                InstData::Call {
                    callee: self.strings.get(NameId::from_u32(a)),
                    args: self.value_at(b + 1, n as usize)?,
                }
            }
            Format::Let => InstData::Let { value: val(a) },
            Format::Set => InstData::Set { target: val(a), value: val(b) },
            Format::Select => InstData::Select { cond: val(a), if_true: val(ex(b)?), if_false: val(ex(b + 1)?) },
            Format::Alloc => {
                let n = ex(b)?;
                InstData::Alloc { dims: self.value_at(b + 1, n as usize)? }
            }
            Format::GetField => InstData::GetField { aggregate: val(a), field: Field::from_u32(b)? },
            Format::SetField => {
                InstData::SetField { aggregate: val(a), field: Field::from_u32(ex(b)?)?, value: val(ex(b + 1)?) }
            }
            Format::IndexLoad => {
                let n = ex(b)?;
                InstData::IndexLoad { array: val(a), indices: self.value_at(b + 1, n as usize)? }
            }
            Format::IndexStore => {
                let n = ex(b)?;
                let value = val(ex(b.checked_add(1)?.checked_add(n)?)?);
                InstData::IndexStore { array: val(a), indices: self.value_at(b + 1, n as usize)?, value }
            }
            Format::View | Format::RawView => {
                let offset = val(ex(b)?);
                let n = ex(b.checked_add(1)?)?;
                let extents = self.value_at(b + 2, n as usize)?;
                let at = b.checked_add(2)?.checked_add(n)?;
                let m = ex(at)?;
                let strides = self.value_at(at + 1, m as usize)?;
                if op != Opcode::RawView {
                    InstData::View { base: val(a), offset, extents, strides }
                } else {
                    InstData::RawView { address: val(a), offset, extents, strides }
                }
            }
            Format::Return => InstData::Return { value: (a != NO_VALUE).then(|| val(a)) },
            Format::Br => InstData::Br { target: BlockId::from_u32(a) },
            Format::CondBr => {
                let e = self.extra_slice(b, 4)?;
                InstData::CondBr {
                    cond: val(a),
                    if_true: BlockId::from_u32(e[0]),
                    if_false: BlockId::from_u32(e[1]),
                    weights: (e[2] != 0 || e[3] != 0).then_some((e[2], e[3])),
                }
            }
            Format::Unreachable => InstData::Unreachable,
            Format::RawRead => InstData::RawRead { op, base: val(a), index: b },
            Format::RawOffset => InstData::RawOffset { address: val(a), bytes: val(b) },
            Format::RawLoad => InstData::RawLoad { address: val(a) },
            Format::RawStore => InstData::RawStore { address: val(a), value: val(b) },
            Format::RawData => InstData::RawData { array: val(a) },
            Format::TextByte => InstData::TextByte { text: val(a), index: val(b) },
            Format::Tuple => {
                let n = ex(b)?;
                InstData::Tuple { elements: self.value_at(b + 1, n as usize)? }
            }
            Format::Extract => InstData::Extract { tuple: val(a), index: b },
        })
    }

    fn decode_literal(&self, dtype: DType, a: u32, b: u32) -> Option<Literal<'_>> {
        let wide = (a as u64) | ((b as u64) << 32);
        Some(match dtype {
            DType::Bool => Literal::Bool(a != 0),
            DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => Literal::Int(wide as i64 as i128),
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => Literal::Int(wide as i128),
            DType::Float16 | DType::Float32 => Literal::Float(a as u64),
            DType::Float64 => Literal::Float(wide),
            DType::Complex64 => {
                let e = self.extra_slice(a, 2)?;
                Literal::Complex(e[0] as u64, e[1] as u64)
            }
            DType::Complex128 => {
                let e = self.extra_slice(a, 4)?;
                Literal::Complex(e[0] as u64 | (e[1] as u64) << 32, e[2] as u64 | (e[3] as u64) << 32)
            }
            DType::Str => Literal::Str(
                self.bytes
                    .get(a as usize..(a as usize).checked_add(b as usize)?)
                    .and_then(|s| std::str::from_utf8(s).ok())?,
            ),
            DType::Bytes => Literal::Bytes(self.bytes.get(a as usize..(a as usize).checked_add(b as usize)?)?),
        })
    }

    /// Encodes a literal's payload for a `dtype` result, appending to
    /// `extra`/`bytes` as needed.
    pub fn encode_literal(&mut self, dtype: DType, lit: Literal<'_>) -> [u32; 2] {
        match lit {
            Literal::Bool(x) => [x as u32, 0],
            Literal::Int(i) => {
                let w = i as u64;
                [w as u32, (w >> 32) as u32]
            }
            Literal::Float(bits) => [bits as u32, (bits >> 32) as u32],
            Literal::Complex(re, im) => {
                let at = self.extra.len() as u32;
                if dtype == DType::Complex64 {
                    self.extra.extend_from_slice(&[re as u32, im as u32]);
                } else {
                    self.extra.extend_from_slice(&[re as u32, (re >> 32) as u32, im as u32, (im >> 32) as u32]);
                }
                [at, 0]
            }
            Literal::Str(s) => self.push_bytes(s.as_bytes()),
            Literal::Bytes(b) => self.push_bytes(b),
        }
    }

    fn push_bytes(&mut self, b: &[u8]) -> [u32; 2] {
        let at = self.bytes.len() as u32;
        self.bytes.extend_from_slice(b);
        [at, b.len() as u32]
    }

    /// Decodes a location.
    pub fn loc(&self, v: ValueId) -> Option<SrcLoc> {
        self.decode_loc(self.locs[v])
    }

    pub fn decode_loc(&self, l: Loc) -> Option<SrcLoc> {
        match l.unpack()? {
            Unpacked::Inline { line, col, implicit } => {
                let file = if implicit { self.pir_file } else { self.src_file }?;
                Some(SrcLoc { file, line, col, implicit })
            }
            Unpacked::Far(i) => self.far_locs.get(i).copied(),
        }
    }

    /// Packs a location for this body.
    pub fn encode_loc(&mut self, l: SrcLoc) -> Loc {
        let slot = if l.implicit { &mut self.pir_file } else { &mut self.src_file };
        let file = *slot.get_or_insert(l.file);
        if file == l.file {
            if let Some(p) = Loc::inline(l.line, l.col, l.implicit) {
                return p;
            }
        }
        match Loc::far(self.far_locs.len()) {
            Some(p) => {
                self.far_locs.push(l);
                p
            }
            None => Loc::NONE,
        }
    }

    pub fn set_loc(&mut self, v: ValueId, l: Option<SrcLoc>) {
        self.locs[v] = match l {
            Some(l) => self.encode_loc(l),
            None => Loc::NONE,
        };
    }

    /// Calls `f` on every value `v` reads: its operands, except that a
    /// `set` reads only the value it assigns (its target is written).
    pub fn for_each_read(&self, v: ValueId, mut f: impl FnMut(ValueId)) {
        match self.inst(v) {
            InstData::Set { value, .. } => f(value),
            _ => self.for_each_operand(v, f),
        }
    }

    /// Calls `f` on every value operand of `v`, in textual order. The
    /// target of `set`/`setfield` counts as an operand.
    #[inline]
    pub fn for_each_operand(&self, v: ValueId, mut f: impl FnMut(ValueId)) {
        let ops = self.ops[v];
        let extra = &self.extra;
        operand_places(self.tags[v], ops, extra, |p| f(ValueId::from_u32(p.read(ops, extra))), |_| {});
    }

    /// The value operands of `v`.
    pub fn operands(&self, v: ValueId) -> SmallVec<[ValueId; 4]> {
        let mut out = SmallVec::new();
        self.for_each_operand(v, |x| out.push(x));
        out
    }

    /// Rewrites every value operand of `v` through `f`, in place.
    #[inline]
    pub fn map_operands(&mut self, v: ValueId, mut f: impl FnMut(ValueId) -> ValueId) {
        let tag = self.tags[v];
        let ops = &mut self.ops[v];
        map_operand_slots(tag, ops, &mut self.extra, |x| *x = f(ValueId::from_u32(*x)).as_u32(), |_| {});
    }

    /// The successor blocks of a terminator instruction.
    pub fn successors_of_inst(&self, v: ValueId) -> SmallVec<[BlockId; 2]> {
        match self.inst(v) {
            InstData::Br { target } => smallvec::smallvec![target],
            InstData::CondBr { if_true, if_false, .. } => smallvec::smallvec![if_true, if_false],
            _ => SmallVec::new(),
        }
    }

    /// The successors of a block (none when it lacks a terminator).
    pub fn successors(&self, b: BlockId) -> SmallVec<[BlockId; 2]> {
        self.terminator(b).map(|t| self.successors_of_inst(t)).unwrap_or_default()
    }

    /// Rewrites the block operands of a terminator through `f`.
    pub fn map_block_operands(&mut self, v: ValueId, mut f: impl FnMut(BlockId) -> BlockId) {
        let tag = self.tags[v];
        let ops = &mut self.ops[v];
        map_operand_slots(tag, ops, &mut self.extra, |_| {}, |x| *x = f(BlockId::from_u32(*x)).as_u32());
    }

    /// Where the payload of `v` keeps items in `extra` and data in `bytes`
    /// (empty ranges for none; not checked against the pools' lengths).
    pub fn payload_ranges(&self, v: ValueId) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        payload_ranges_in(self.tags[v], self.types[v], self.ops[v], &self.extra)
    }

    /// Bytes held by the instruction columns alone, and by the whole body
    /// (names, locations, pools, blocks), counting used lengths.
    pub fn memory_bytes(&self) -> (usize, usize) {
        let n = self.tags.len();
        let columns = n * (1 + 4 + 8);
        let all = columns
            + n * (4 + 4)
            + self.blocks.len() * std::mem::size_of::<BlockData>()
            + self.extra.len() * 4
            + self.bytes.len()
            + self.strings.byte_len()
            + self.far_locs.len() * std::mem::size_of::<SrcLoc>();
        (columns, all)
    }
}

/// [`Body::payload_ranges`] of an instruction with this tag, type and
/// payload, its counts read from `extra`.
pub fn payload_ranges_in(
    tag: Opcode,
    ty: Option<TypeId>,
    [a, b]: [u32; 2],
    extra: &[u32],
) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let (a, b) = (a as usize, b as usize);
    let none = 0..0;
    let layout = tag.layout();
    if layout.a == Slot::Literal {
        return match ty.and_then(|t| DType::from_index(t.as_u32())) {
            Some(DType::Complex64) => (a..a + 2, none),
            Some(DType::Complex128) => (a..a + 4, none),
            Some(DType::Str | DType::Bytes) => (none.clone(), a..a.saturating_add(b)),
            _ => (none.clone(), none),
        };
    }
    if layout.b != Slot::Extra {
        return (none.clone(), none);
    }
    let mut end = b;
    for item in layout.extra {
        end = end.saturating_add(match item {
            Item::Values => 1 + extra.get(end).copied().unwrap_or(0) as usize,
            _ => 1,
        });
    }
    (b..end, none)
}

/// A place in an instruction's payload that holds an operand: a slot of
/// `[a, b]` or a position in `extra`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OperandAt {
    A,
    B,
    Extra(usize),
}

impl OperandAt {
    /// The id at this place (`u32::MAX` past the end of `extra`).
    pub fn read(self, ops: [u32; 2], extra: &[u32]) -> u32 {
        match self {
            OperandAt::A => ops[0],
            OperandAt::B => ops[1],
            OperandAt::Extra(k) => extra.get(k).copied().unwrap_or(u32::MAX),
        }
    }

    pub fn write(self, ops: &mut [u32; 2], extra: &mut [u32], x: u32) {
        match self {
            OperandAt::A => ops[0] = x,
            OperandAt::B => ops[1] = x,
            OperandAt::Extra(k) => {
                if let Some(slot) = extra.get_mut(k) {
                    *slot = x;
                }
            }
        }
    }
}

/// Calls `value` on the place of every value operand of an instruction, in
/// textual order, and `block` on the place of every block operand, reading
/// the payload through its format's [`crate::PayloadLayout`]. Places past
/// the end of `extra` (a malformed payload) are skipped.
#[inline]
pub fn operand_places(
    tag: Opcode,
    [a, b]: [u32; 2],
    extra: &[u32],
    mut value: impl FnMut(OperandAt),
    mut block: impl FnMut(OperandAt),
) {
    let layout = tag.layout();
    match layout.a {
        Slot::Value => value(OperandAt::A),
        Slot::OptValue if a != NO_VALUE => value(OperandAt::A),
        Slot::Block => block(OperandAt::A),
        _ => {}
    }
    match layout.b {
        Slot::Value => value(OperandAt::B),
        Slot::OptValue if b != NO_VALUE => value(OperandAt::B),
        Slot::Block => block(OperandAt::B),
        Slot::Extra => {
            let mut k = b as usize;
            for item in layout.extra {
                match item {
                    Item::Value if k < extra.len() => value(OperandAt::Extra(k)),
                    Item::Block if k < extra.len() => block(OperandAt::Extra(k)),
                    Item::Values => {
                        let n = extra.get(k).copied().unwrap_or(0) as usize;
                        let end = (k + 1).saturating_add(n).min(extra.len());
                        for j in k + 1..end.max(k + 1) {
                            value(OperandAt::Extra(j));
                        }
                        k = k.saturating_add(n);
                    }
                    _ => {}
                }
                k = k.saturating_add(1);
            }
        }
        _ => {}
    }
}

/// Calls `value` on every value operand slot of an instruction (in textual
/// order) and `block` on every block operand slot, for rewriting in place:
/// the walk of [`operand_places`] without collecting the places.
#[inline]
pub fn map_operand_slots(
    tag: Opcode,
    ops: &mut [u32; 2],
    extra: &mut [u32],
    mut value: impl FnMut(&mut u32),
    mut block: impl FnMut(&mut u32),
) {
    let layout = tag.layout();
    match layout.a {
        Slot::Value => value(&mut ops[0]),
        Slot::OptValue if ops[0] != NO_VALUE => value(&mut ops[0]),
        Slot::Block => block(&mut ops[0]),
        _ => {}
    }
    match layout.b {
        Slot::Value => value(&mut ops[1]),
        Slot::OptValue if ops[1] != NO_VALUE => value(&mut ops[1]),
        Slot::Block => block(&mut ops[1]),
        Slot::Extra => {
            let mut k = ops[1] as usize;
            for item in layout.extra {
                match item {
                    Item::Value => {
                        if let Some(x) = extra.get_mut(k) {
                            value(x);
                        }
                    }
                    Item::Block => {
                        if let Some(x) = extra.get_mut(k) {
                            block(x);
                        }
                    }
                    Item::Values => {
                        let n = extra.get(k).copied().unwrap_or(0) as usize;
                        let end = (k + 1).saturating_add(n).min(extra.len());
                        if let Some(xs) = extra.get_mut(k + 1..end.max(k + 1)) {
                            xs.iter_mut().for_each(&mut value);
                        }
                        k = k.saturating_add(n);
                    }
                    Item::Imm => {}
                }
                k = k.saturating_add(1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_pool_round_trips() {
        let mut p = NamePool::default();
        let long = "x".repeat(300);
        let a = p.push("i");
        let b = p.push(&long);
        let c = p.push("");
        assert_eq!(p.get(a), "i");
        assert_eq!(p.get(b), long);
        assert_eq!(p.get(c), "");
    }

    #[test]
    fn literal_fits() {
        assert!(Literal::Int(255).fits(DType::UInt8));
        assert!(!Literal::Int(256).fits(DType::UInt8));
        assert!(!Literal::Int(-1).fits(DType::UInt64));
        assert!(Literal::Int(u64::MAX as i128).fits(DType::UInt64));
        assert!(Literal::Float(0xffff).fits(DType::Float16));
        assert!(!Literal::Float(0x1_0000).fits(DType::Float16));
        assert!(Literal::Float(u64::MAX).fits(DType::Float64));
    }

    #[test]
    fn f16_rounding_is_single_step() {
        // 1 + 2^-11 + 2^-40: just above the halfway point between 1 and its
        // successor; rounding through f32 first lands on the tie and goes to 1.
        let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(f16_from_f64(x).to_bits(), 0x3c01);
        assert_eq!(f16_from_f64(1.0 + 2f64.powi(-11)).to_bits(), 0x3c00);
        assert_eq!(f16_from_f64(65520.0).to_bits(), 0x7c00);
        assert_eq!(f16_from_f64(65519.99).to_bits(), 0x7bff);
        assert_eq!(f16_from_f64(2f64.powi(-25)).to_bits(), 0);
        assert_eq!(f16_from_f64(2f64.powi(-25) * 1.5).to_bits(), 1);
        assert_eq!(f16_from_f64(-0.0).to_bits(), 0x8000);
        assert!(f16_from_f64(f64::NAN).is_nan());
        // Every f32 converts exactly as the hardware's single rounding from f32.
        let mut x: u32 = 1;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let f = f32::from_bits(x);
            if !f.is_nan() {
                assert_eq!(f16_from_f64(f as f64), half::f16::from_f32(f), "{f:e}");
            }
        }
        for bits in 0..=u16::MAX {
            let h = half::f16::from_bits(bits);
            if !h.is_nan() {
                assert_eq!(f16_from_f64(h.to_f64()).to_bits(), bits);
            }
        }
    }

    #[test]
    fn float_bits_convert() {
        assert_eq!(float_bits_to_f64(DType::Float16, f64_to_float_bits(DType::Float16, 1.5)), 1.5);
        assert_eq!(float_bits_to_f64(DType::Float32, f64_to_float_bits(DType::Float32, 0.1)), 0.1f32 as f64);
    }
}
