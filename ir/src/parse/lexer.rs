//! The byte-level cursor over one line of `.pir` text, and the scanners for
//! tokens, types and literals. Nothing here allocates per token: names and
//! numbers are borrowed slices of the line, string literals are decoded
//! into a buffer the caller reuses.

use crate::dtype::DType;
use crate::types::{Layout, Shape, TypeData, TypeId, TypeTable};
use smallvec::SmallVec;

/// A parse error on the current line: message, byte offset and length of
/// the offending token.
#[derive(Debug)]
pub(crate) struct PErr {
    pub msg: String,
    pub off: usize,
    pub len: usize,
}

pub(crate) type R<T> = Result<T, PErr>;

pub(crate) fn perr(msg: impl Into<String>, off: usize, len: usize) -> PErr {
    PErr { msg: msg.into(), off, len }
}

/// Longest token text quoted in a message.
const SHOW_MAX: usize = 40;

/// Quotes a token for a message, shortened when it is long.
pub(crate) fn show(s: &str) -> String {
    if s.len() <= SHOW_MAX {
        return format!("`{s}`");
    }
    let mut end = SHOW_MAX;
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("`{}...`", s.get(..end).unwrap_or(""))
}

const C_START: u8 = 1;
const C_IDENT: u8 = 2;
const C_VALUE: u8 = 4;
const C_ALNUM: u8 = 8;

/// Character classes of every byte, one table lookup per byte.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let alnum = b.is_ascii_alphanumeric();
        let mut k = 0;
        if b.is_ascii_alphabetic() || b == b'_' {
            k |= C_START;
        }
        if alnum || b == b'_' || b == b'.' {
            k |= C_IDENT | C_VALUE;
        }
        if b == b'$' {
            k |= C_IDENT | C_VALUE;
        }
        if alnum {
            k |= C_ALNUM;
        }
        t[c] = k;
        c += 1;
    }
    t
};

#[inline]
pub(crate) fn is_ident_start(c: u8) -> bool {
    CLASS[c as usize] & C_START != 0
}

#[inline]
pub(crate) fn is_ident_char(c: u8) -> bool {
    CLASS[c as usize] & C_IDENT != 0
}

#[inline]
pub(crate) fn is_value_char(c: u8) -> bool {
    CLASS[c as usize] & C_VALUE != 0
}

#[inline]
pub(crate) fn is_alnum(c: u8) -> bool {
    CLASS[c as usize] & C_ALNUM != 0
}

/// Characters that end a "word" quoted in messages.
#[inline]
fn ends_word(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b',' | b';' | b'(' | b')' | b'[' | b']' | b'{' | b'}')
}

/// Up to 16 bytes packed into a `u128` (little-endian, zero-padded): a
/// short word compared in one instruction. `None` for longer words.
#[inline]
pub(crate) fn pack16(b: &[u8]) -> Option<u128> {
    if b.len() > 16 {
        return None;
    }
    let mut w = 0u128;
    for (i, &c) in b.iter().enumerate() {
        w |= (c as u128) << (8 * i);
    }
    Some(w)
}

/// `pack16(&s[a..a + n])`, in one load when `s` has 16 bytes from `a`.
#[inline]
pub(crate) fn pack_in(s: &[u8], a: usize, n: usize) -> Option<u128> {
    if n > 16 {
        return None;
    }
    match s.get(a..a.wrapping_add(16)).and_then(|w| <[u8; 16]>::try_from(w).ok()) {
        Some(w) => {
            let mask = if n == 16 { !0u128 } else { (1u128 << (8 * n)) - 1 };
            Some(u128::from_le_bytes(w) & mask)
        }
        None => pack16(s.get(a..a.checked_add(n)?)?),
    }
}

/// The dtype of a word packed by [`pack16`].
#[inline]
pub(crate) fn dtype_from_key(key: u128) -> Option<DType> {
    let i = DTYPE_SLOTS[dtype_slot(key)].checked_sub(1)? as usize;
    if DTYPE_KEYS[i] == key {
        DType::from_index(i as u32)
    } else {
        None
    }
}

const fn pack_const(b: &[u8]) -> u128 {
    let mut w = 0u128;
    let mut i = 0;
    while i < b.len() {
        w |= (b[i] as u128) << (8 * i);
        i += 1;
    }
    w
}

/// The dtype names by dtype index (checked against [`DType::name`] in the tests).
const DTYPE_NAMES: [&[u8]; 16] = [
    b"Bool",
    b"Int8",
    b"Int16",
    b"Int32",
    b"Int64",
    b"UInt8",
    b"UInt16",
    b"UInt32",
    b"UInt64",
    b"Float16",
    b"Float32",
    b"Float64",
    b"Complex64",
    b"Complex128",
    b"Str",
    b"Bytes",
];

const DTYPE_KEYS: [u128; 16] = {
    let mut keys = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        keys[i] = pack_const(DTYPE_NAMES[i]);
        i += 1;
    }
    keys
};

/// Multiplier that sends the first eight bytes of every dtype name to a
/// distinct slot of [`DTYPE_SLOTS`] (checked in the tests).
const DTYPE_MUL: u64 = 0xbb96_8a43_7d5c_8dfd;

#[inline]
const fn dtype_slot(key: u128) -> usize {
    ((key as u64).wrapping_mul(DTYPE_MUL) >> 59) as usize
}

/// Dtype index + 1 by slot (0: no dtype).
const DTYPE_SLOTS: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 16 {
        t[dtype_slot(DTYPE_KEYS[i])] = i as u8 + 1;
        i += 1;
    }
    t
};

pub(crate) fn dtype_from_bytes(b: &[u8]) -> Option<DType> {
    let key = pack16(b)?;
    let i = DTYPE_SLOTS[dtype_slot(key)].checked_sub(1)? as usize;
    if DTYPE_KEYS[i] == key {
        DType::from_index(i as u32)
    } else {
        None
    }
}

/// Bits of a float dtype's width: (sign bit, exponent mask, mantissa mask,
/// canonical quiet NaN, +inf).
fn float_layout(d: DType) -> (u64, u64, u64, u64, u64) {
    match d {
        DType::Float16 => (1 << 15, 0x7c00, 0x03ff, 0x7e00, 0x7c00),
        DType::Float32 => (1 << 31, 0x7f80_0000, 0x007f_ffff, 0x7fc0_0000, 0x7f80_0000),
        _ => (1 << 63, 0x7ff0_0000_0000_0000, 0x000f_ffff_ffff_ffff, 0x7ff8_0000_0000_0000, 0x7ff0_0000_0000_0000),
    }
}

pub(crate) fn sign_bit(d: DType) -> u64 {
    float_layout(d).0
}

/// A cursor over one line (without its newline).
pub(crate) struct Cur<'a> {
    pub s: &'a str,
    pub b: &'a [u8],
    pub i: usize,
}

impl<'a> Cur<'a> {
    pub fn new(s: &'a str) -> Cur<'a> {
        Cur { s, b: s.as_bytes(), i: 0 }
    }

    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    pub fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    #[inline]
    pub fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    /// At the end of the line or at a comment (after `skip_ws`).
    #[inline]
    pub fn at_end(&self) -> bool {
        matches!(self.peek(), None | Some(b';'))
    }

    #[inline]
    pub fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    #[inline]
    pub fn eat_str(&mut self, s: &[u8]) -> bool {
        if self.b.get(self.i..self.i + s.len()) == Some(s) {
            self.i += s.len();
            true
        } else {
            false
        }
    }

    /// The text between two offsets (empty if they are not on char boundaries).
    #[inline]
    pub fn slice(&self, a: usize, b: usize) -> &'a str {
        self.s.get(a..b).unwrap_or("")
    }

    fn word_end(&self, from: usize) -> usize {
        let mut j = from;
        while j < self.b.len() && !ends_word(self.b[j]) {
            j += 1;
        }
        if j == from && j < self.b.len() {
            // A lone delimiter is its own word; keep whole characters.
            j += 1;
            while j < self.b.len() && !self.s.is_char_boundary(j) {
                j += 1;
            }
        }
        j
    }

    /// The word at `from`, quoted, or "end of line".
    pub fn found_at(&self, from: usize) -> String {
        if matches!(self.b.get(from), None | Some(b';')) {
            return "end of line".to_owned();
        }
        show(self.slice(from, self.word_end(from)))
    }

    /// An "expected ..., found ..." error at the cursor (after spaces).
    pub fn expected(&mut self, what: &str) -> PErr {
        self.skip_ws();
        let at = self.i;
        let len = if self.at_end() { 1 } else { self.word_end(at) - at };
        perr(format!("expected {what}, found {}", self.found_at(at)), at, len)
    }

    /// Skips spaces and eats `c`, or fails with "expected `c`".
    pub fn expect(&mut self, c: u8) -> R<()> {
        self.skip_ws();
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{}`", c as char)))
        }
    }

    /// Skips spaces and requires the end of the line (or a comment).
    pub fn expect_end(&mut self) -> R<()> {
        self.skip_ws();
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected("end of line"))
        }
    }

    /// An identifier at the cursor (no space skipping): a letter or `_`,
    /// then letters, digits, `_` and `.`.
    pub fn ident(&mut self) -> Option<&'a str> {
        let start = self.i;
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        let mut j = start + 1;
        while j < self.b.len() && is_ident_char(self.b[j]) {
            j += 1;
        }
        self.i = j;
        Some(self.slice(start, j))
    }

    /// Skips spaces and reads an identifier, with its offset.
    pub fn expect_ident(&mut self, what: &str) -> R<(&'a str, usize)> {
        self.skip_ws();
        let at = self.i;
        match self.ident() {
            Some(s) => Ok((s, at)),
            None => Err(self.expected(what)),
        }
    }

    /// Skips spaces and reads a dotted module name (`a.b.c`).
    pub fn module_name(&mut self) -> R<(&'a str, usize)> {
        let (name, at) = self.expect_ident("a module name")?;
        if name.split('.').any(|seg| !seg.as_bytes().first().is_some_and(|&c| is_ident_start(c))) {
            return Err(perr(format!("malformed module name {}", show(name)), at, name.len()));
        }
        Ok((name, at))
    }

    /// Skips spaces and reads `%name`; returns the name without `%` and the
    /// offset of the `%`.
    pub fn value_name(&mut self) -> R<(&'a str, usize)> {
        self.skip_ws();
        let at = self.i;
        if self.peek() != Some(b'%') {
            return Err(self.expected("a value name (`%name`)"));
        }
        let start = at + 1;
        let mut j = start;
        while j < self.b.len() && is_value_char(self.b[j]) {
            j += 1;
        }
        self.i = j;
        if self.i == start {
            self.i = at;
            return Err(self.expected("a value name (`%name`)"));
        }
        Ok((self.slice(start, self.i), at))
    }

    /// Skips spaces and reads an unsigned decimal integer no larger than `max`.
    pub fn unsigned(&mut self, max: u64, what: &str) -> R<u64> {
        self.skip_ws();
        let at = self.i;
        let mut v: u64 = 0;
        let mut over = false;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            match v.checked_mul(10).and_then(|x| x.checked_add((c - b'0') as u64)) {
                Some(x) => v = x,
                None => over = true,
            }
            self.i += 1;
        }
        if self.i == at {
            return Err(self.expected(what));
        }
        if self.peek().is_some_and(is_ident_char) {
            let end = self.word_end(at);
            return Err(perr(format!("expected {what}, found {}", show(self.slice(at, end))), at, end - at));
        }
        if over || v > max {
            return Err(perr(format!("{} is too large for {what}", show(self.slice(at, self.i))), at, self.i - at));
        }
        Ok(v)
    }

    /// A signed decimal integer (for strides).
    fn signed_i64(&mut self, what: &str) -> R<i64> {
        let at = self.i;
        let neg = self.eat(b'-');
        let v = self.unsigned(1 << 63, what).map_err(|mut e| {
            if e.off > at {
                e.off = at;
                e.len += 1;
            }
            e
        })?;
        if neg {
            Ok((v as i64).wrapping_neg())
        } else if v == 1 << 63 {
            Err(perr(format!("{} is too large for {what}", show(self.slice(at, self.i))), at, self.i - at))
        } else {
            Ok(v as i64)
        }
    }

    /// Skips spaces and reads a type:
    /// `['&'] DTYPE ['[]' ['Shape[' dims ']'] ['FOrder' | 'Strides[' ints ']']]`,
    /// or a tuple of such types that are not outputs: `'(' type (', ' type)* ')'`.
    pub fn ty(&mut self, types: &mut TypeTable) -> R<TypeId> {
        self.skip_ws();
        if self.peek() == Some(b'(') {
            return self.tuple_ty(types);
        }
        self.element_ty(types)
    }

    /// A tuple type, at its `(`; each element a scalar or array type.
    fn tuple_ty(&mut self, types: &mut TypeTable) -> R<TypeId> {
        self.eat(b'(');
        let mut elements = Vec::new();
        loop {
            self.skip_ws();
            let at = self.i;
            let id = self.element_ty(types)?;
            let t = types.get(id);
            if t.is_output {
                return Err(perr("a tuple element cannot be an output (`&`)", at, self.i - at));
            }
            elements.push(t.clone());
            self.skip_ws();
            if self.eat(b')') {
                break;
            }
            if !self.eat(b',') {
                return Err(self.expected("`,` or `)` in a tuple type"));
            }
        }
        Ok(types.intern(TypeData::tuple(elements)))
    }

    /// A scalar or array type (no tuple).
    fn element_ty(&mut self, types: &mut TypeTable) -> R<TypeId> {
        self.skip_ws();
        let start = self.i;
        let out = self.eat(b'&');
        let ds = self.i;
        while self.i < self.b.len() && is_alnum(self.b[self.i]) {
            self.i += 1;
        }
        if self.i == ds {
            self.i = start;
            return Err(self.expected("a type"));
        }
        let Some(dtype) = dtype_from_bytes(&self.b[ds..self.i]) else {
            let end = self.word_end(ds);
            let name = self.slice(ds, end);
            return Err(perr(format!("unknown dtype {}", show(name)), ds, end - ds));
        };
        if !self.eat_str(b"[]") {
            return Ok(if out { types.intern(TypeData::scalar(dtype).output()) } else { TypeId::scalar(dtype) });
        }
        let mut shape = Shape::Any;
        if self.eat_str(b"Shape[") {
            let mut dims: SmallVec<[Option<u64>; 4]> = SmallVec::new();
            self.skip_ws();
            if !self.eat(b']') {
                loop {
                    self.skip_ws();
                    if self.eat(b'?') {
                        dims.push(None);
                    } else {
                        dims.push(Some(self.unsigned(u64::MAX, "a dimension (an integer or `?`)")?));
                    }
                    self.skip_ws();
                    if self.eat(b']') {
                        break;
                    }
                    if !self.eat(b',') {
                        return Err(self.expected("`,` or `]` in a shape"));
                    }
                }
            }
            shape = Shape::Dims(dims);
        }
        let mut layout = Layout::COrder;
        if self.eat_str(b"FOrder") {
            layout = Layout::FOrder;
        } else if self.eat_str(b"Strides[") {
            let mut strides: SmallVec<[i64; 4]> = SmallVec::new();
            self.skip_ws();
            if !self.eat(b']') {
                loop {
                    self.skip_ws();
                    strides.push(self.signed_i64("a stride in bytes")?);
                    self.skip_ws();
                    if self.eat(b']') {
                        break;
                    }
                    if !self.eat(b',') {
                        return Err(self.expected("`,` or `]` in strides"));
                    }
                }
            }
            layout = Layout::Strides(strides);
        }
        let mut t = TypeData::array(dtype, shape, layout);
        t.is_output = out;
        Ok(types.intern(t))
    }

    /// After a numeric literal: the next character must not continue it.
    fn end_of_number(&self, at: usize, what: &str) -> R<()> {
        if self.peek().is_some_and(|c| is_ident_char(c) || c == b':') {
            let end = self.word_end(at);
            return Err(perr(format!("malformed {what} {}", show(self.slice(at, end))), at, end - at));
        }
        Ok(())
    }

    /// An integer literal for an integer dtype, checked to fit it.
    pub fn int_literal(&mut self, dtype: DType) -> R<i128> {
        self.skip_ws();
        let at = self.i;
        let neg = self.eat(b'-');
        let ds = self.i;
        let mut v: i128 = 0;
        let mut over = false;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            if !over {
                match v.checked_mul(10).and_then(|x| x.checked_add((c - b'0') as i128)) {
                    Some(x) => v = x,
                    None => over = true,
                }
            }
            self.i += 1;
        }
        if self.i == ds || matches!(self.peek(), Some(b'.' | b'e' | b'E')) {
            self.i = at;
            return Err(self.expected(&format!("an integer literal for {dtype}")));
        }
        self.end_of_number(at, "integer literal")?;
        let text = self.slice(at, self.i);
        let v = if neg { -v } else { v };
        let fits = !over && dtype.int_range().is_some_and(|(lo, hi)| lo <= v && v <= hi);
        if !fits {
            let shown = if text.len() > SHOW_MAX { show(text) } else { text.to_owned() };
            return Err(perr(format!("integer literal {shown} does not fit {dtype}"), at, self.i - at));
        }
        Ok(v)
    }

    /// A real float literal of a float dtype's width, as its bits: decimal,
    /// `inf`, `-inf`, `nan`, `nan:0x...`. The caller checks what follows.
    pub fn real(&mut self, fd: DType) -> R<u64> {
        let (sign, exp, mant, qnan, inf) = float_layout(fd);
        let at = self.i;
        let neg = self.eat(b'-');
        let s = if neg { sign } else { 0 };
        if self.eat_str(b"inf") {
            return Ok(inf | s);
        }
        if self.eat_str(b"nan") {
            if !self.eat(b':') {
                return Ok(qnan | s);
            }
            if !self.eat_str(b"0x") {
                return Err(self.expected("`0x` and the NaN's bits after `nan:`"));
            }
            let hs = self.i;
            let mut v: u64 = 0;
            let mut over = false;
            while let Some(c) = self.peek().filter(u8::is_ascii_hexdigit) {
                let d = (c as char).to_digit(16).unwrap_or(0) as u64;
                if v >> 60 != 0 {
                    over = true;
                }
                v = (v << 4) | d;
                self.i += 1;
            }
            if self.i == hs {
                return Err(self.expected("hexadecimal digits"));
            }
            let text = self.slice(at, self.i);
            let width_ok = fd.bits() == 64 || v >> fd.bits() == 0;
            if over || !width_ok || v & exp != exp || v & mant == 0 {
                return Err(perr(format!("{} is not a {fd} NaN bit pattern", show(text)), at, self.i - at));
            }
            if neg {
                return Err(perr("a NaN bit pattern carries its own sign; drop the `-`", at, 1));
            }
            return Ok(v);
        }
        let ds = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i == ds {
            self.i = at;
            return Err(self.expected(&format!("a float literal for {fd}")));
        }
        if self.eat(b'.') {
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            let es = self.i;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
            if self.i == es {
                let end = self.word_end(at);
                return Err(perr(format!("malformed float literal {}", show(self.slice(at, end))), at, end - at));
            }
        }
        let text = self.slice(at, self.i);
        let malformed = || perr(format!("malformed float literal {}", show(text)), at, text.len());
        let bits = match fd {
            DType::Float32 => text.parse::<f32>().map_err(|_| malformed())?.to_bits() as u64,
            DType::Float16 => crate::body::f16_from_f64(text.parse::<f64>().map_err(|_| malformed())?).to_bits() as u64,
            _ => text.parse::<f64>().map_err(|_| malformed())?.to_bits(),
        };
        if bits & !sign == inf {
            let shown = if text.len() > SHOW_MAX { show(text) } else { text.to_owned() };
            return Err(perr(format!("float literal {shown} does not fit {fd}"), at, text.len()));
        }
        Ok(bits)
    }

    /// A float literal for a float dtype.
    pub fn float_literal(&mut self, fd: DType) -> R<u64> {
        self.skip_ws();
        let at = self.i;
        let bits = self.real(fd)?;
        self.end_of_number(at, "float literal")?;
        Ok(bits)
    }

    /// A complex literal: `(re+imj)`, `(re-imj)`, `imj`, or a real number.
    pub fn complex_literal(&mut self, dtype: DType) -> R<(u64, u64)> {
        let fd = dtype.complex_part().unwrap_or(DType::Float64);
        self.skip_ws();
        let at = self.i;
        if self.eat(b'(') {
            let re = self.real(fd)?;
            let neg = if self.eat(b'+') {
                false
            } else if self.eat(b'-') {
                true
            } else {
                return Err(self.expected("`+` or `-` before the imaginary part"));
            };
            if self.peek() == Some(b'-') || self.peek() == Some(b'+') {
                return Err(self.expected("the imaginary part"));
            }
            let mut im = self.real(fd)?;
            if neg {
                im ^= sign_bit(fd);
            }
            if !self.eat(b'j') {
                return Err(self.expected("`j` after the imaginary part"));
            }
            if !self.eat(b')') {
                return Err(self.expected("`)` closing the complex literal"));
            }
            self.end_of_number(at, "complex literal")?;
            return Ok((re, im));
        }
        let x = self.real(fd)?;
        let pair = if self.eat(b'j') { (0, x) } else { (x, 0) };
        self.end_of_number(at, "complex literal")?;
        Ok(pair)
    }

    /// A string (`bytes` false) or bytes literal body starting at its `"`,
    /// decoded into `buf`.
    pub fn string(&mut self, buf: &mut Vec<u8>, bytes: bool) -> R<()> {
        let open = self.i;
        if !self.eat(b'"') {
            return Err(self.expected(if bytes { "a bytes literal" } else { "a string literal" }));
        }
        buf.clear();
        loop {
            let rest = &self.b[self.i..];
            let Some(k) = rest.iter().position(|&x| x == b'"' || x == b'\\') else {
                return Err(perr("unterminated string literal", open, 1));
            };
            buf.extend_from_slice(&rest[..k]);
            self.i += k;
            if self.eat(b'"') {
                return Ok(());
            }
            let esc = self.i;
            self.i += 1;
            let Some(c) = self.peek() else {
                return Err(perr("unterminated string literal", open, 1));
            };
            self.i += 1;
            match c {
                b'\\' => buf.push(b'\\'),
                b'"' => buf.push(b'"'),
                b'n' => buf.push(b'\n'),
                b't' => buf.push(b'\t'),
                b'r' => buf.push(b'\r'),
                b'0' => buf.push(0),
                b'x' => {
                    let hex = |c: Option<u8>| c.and_then(|c| (c as char).to_digit(16));
                    let (Some(h), Some(l)) = (hex(self.peek()), hex(self.peek_at(1))) else {
                        return Err(perr("expected two hexadecimal digits after `\\x`", esc, 2));
                    };
                    self.i += 2;
                    let v = (h * 16 + l) as u8;
                    if !bytes && v > 0x7f {
                        return Err(perr(
                            format!("`\\x{:02x}` is above `\\x7f` in a string literal; write `\\u{{{:x}}}`", v, v),
                            esc,
                            4,
                        ));
                    }
                    buf.push(v);
                }
                b'u' if !bytes => {
                    if !self.eat(b'{') {
                        return Err(perr("expected `{` after `\\u`", esc, 2));
                    }
                    let hs = self.i;
                    let mut v: u32 = 0;
                    while let Some(d) = self.peek().and_then(|c| (c as char).to_digit(16)) {
                        if self.i - hs >= 6 {
                            break;
                        }
                        v = v * 16 + d;
                        self.i += 1;
                    }
                    let ok = self.i > hs && self.eat(b'}');
                    let len = self.i - esc;
                    match char::from_u32(v).filter(|_| ok) {
                        Some(ch) => {
                            let mut tmp = [0u8; 4];
                            buf.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
                        }
                        None => {
                            let end = self.word_end(esc).max(esc + len).min(self.b.len());
                            let text = self.slice(esc, end);
                            return Err(perr(format!("invalid unicode escape {}", show(text)), esc, len.max(2)));
                        }
                    }
                }
                b'u' => return Err(perr("`\\u{...}` escapes are not allowed in a bytes literal", esc, 2)),
                _ => {
                    let ch = self.s.get(esc + 1..).and_then(|s| s.chars().next()).unwrap_or('?');
                    self.i = esc + 1 + ch.len_utf8();
                    return Err(perr(format!("unknown escape `\\{ch}`"), esc, 1 + ch.len_utf8()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtype_names_match_the_dtype_table() {
        for d in DType::ALL {
            assert_eq!(DTYPE_NAMES[d as usize], d.name().as_bytes());
            assert_eq!(dtype_from_bytes(d.name().as_bytes()), Some(d));
        }
        let mut slots: Vec<usize> = DTYPE_KEYS.iter().map(|&k| dtype_slot(k)).collect();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), 16, "dtype slots collide");
        assert_eq!(dtype_from_bytes(b"Int"), None);
        assert_eq!(dtype_from_bytes(b"Complex128Complex128"), None);
    }

    #[test]
    fn pack_in_matches_pack16() {
        let s = b"Float64 = add %x, %y and some more text";
        for a in 0..s.len() {
            for n in 0..=17 {
                let want = s.get(a..a + n).and_then(pack16);
                assert_eq!(pack_in(s, a, n), want, "{a} {n}");
            }
        }
    }

    #[test]
    fn idents_and_values() {
        let mut c = Cur::new("  index.load %a.b$1, rest");
        c.skip_ws();
        assert_eq!(c.ident(), Some("index.load"));
        assert_eq!(c.value_name().unwrap(), ("a.b$1", 13));
        assert!(c.expect(b',').is_ok());
        assert_eq!(c.expect_ident("x").unwrap(), ("rest", 21));
        assert!(c.expect_end().is_ok());
    }

    #[test]
    fn types() {
        let mut t = TypeTable::new();
        for s in ["Int64", "&Float64[]Shape[3, 3]", "Int32[]Shape[?, 4]FOrder", "UInt8[]Strides[24, -8]", "Bool[]"] {
            let mut c = Cur::new(s);
            let id = c.ty(&mut t).unwrap();
            assert_eq!(t.get(id).to_string(), s);
            assert_eq!(c.i, s.len());
        }
        let e = Cur::new("Float128").ty(&mut t).unwrap_err();
        assert_eq!(e.msg, "unknown dtype `Float128`");
    }

    #[test]
    fn floats() {
        let f = |s: &str, d: DType| Cur::new(s).float_literal(d);
        assert_eq!(f("0.1", DType::Float32).unwrap(), 0.1f32.to_bits() as u64);
        assert_eq!(f("-2.5e-300", DType::Float64).unwrap(), (-2.5e-300f64).to_bits());
        assert_eq!(f("-inf", DType::Float16).unwrap(), 0xfc00);
        assert_eq!(f("nan:0x7fa00001", DType::Float32).unwrap(), 0x7fa0_0001);
        assert_eq!(f("1e40", DType::Float32).unwrap_err().msg, "float literal 1e40 does not fit Float32");
        assert_eq!(
            f("nan:0x7f800000", DType::Float32).unwrap_err().msg,
            "`nan:0x7f800000` is not a Float32 NaN bit pattern"
        );
        assert_eq!(f("1.5x", DType::Float64).unwrap_err().msg, "malformed float literal `1.5x`");
        assert_eq!(f("1e", DType::Float64).unwrap_err().msg, "malformed float literal `1e`");
    }

    #[test]
    fn strings() {
        let mut buf = Vec::new();
        Cur::new(r#""h\u{e9}\x41\0\"""#).string(&mut buf, false).unwrap();
        assert_eq!(buf, "hé\x41\0\"".as_bytes());
        Cur::new(r#""\xff""#).string(&mut buf, true).unwrap();
        assert_eq!(buf, [0xff]);
        assert!(Cur::new(r#""\xff""#).string(&mut buf, false).is_err());
        assert_eq!(Cur::new(r#""\q""#).string(&mut buf, false).unwrap_err().msg, "unknown escape `\\q`");
        assert_eq!(Cur::new(r#""abc"#).string(&mut buf, false).unwrap_err().msg, "unterminated string literal");
        assert!(Cur::new(r#""\u{d800}""#).string(&mut buf, false).is_err());
        assert!(Cur::new(r#""\u{110000}""#).string(&mut buf, false).is_err());
    }
}
