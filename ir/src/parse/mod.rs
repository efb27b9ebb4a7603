//! The `.pir` parser: text → [`Module`].
//!
//! The format is line-oriented (see `docs/ir-text.md`), so the parser reads
//! one line at a time with a byte-level cursor ([`lexer`]), and recovers
//! from an error by skipping to the next line (or, when a function header
//! is broken, to the end of that function). Names and numbers are borrowed
//! slices of the input; instructions go straight into the function's
//! columns through the [`FunctionBuilder`].
//!
//! Value names and labels resolve once the whole function is read, so a use
//! may textually precede its definition (dominance is the verifier's
//! business). A use that is not yet defined leaves a placeholder and a
//! fix-up that is patched, or reported, at the closing `}`.
//!
//! The parser never recurses, never panics on any input, and runs in time
//! linear in its input. Input that is not UTF-8 is rejected with one
//! diagnostic at the first invalid byte.

mod lexer;

use crate::body::{Field, Literal, NO_VALUE};
use crate::builder::FunctionBuilder;
use crate::diag::{Diagnostic, Pos, MAX_ERRORS};
use crate::dtype::{DType, DTypeKind};
use crate::loc::{FileId, SrcLoc};
use crate::module::{Constant, FuncAttrs, ImportedName, Module};
use crate::opcode::{Format, Opcode};
use crate::types::TypeId;
use crate::ufunc::UFuncSignature;
use crate::ValueId;
use lexer::{
    dtype_from_key, is_alnum, is_ident_char, is_ident_start, is_value_char, pack16, pack_in, perr, show, Cur, PErr, R,
};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

/// Parses a module from `.pir` text. `path` names the text in diagnostics
/// and in the implicit locations of its instructions.
pub fn parse_module(path: &str, src: &[u8]) -> Result<Module, Vec<Diagnostic>> {
    match std::str::from_utf8(src) {
        Ok(text) => parse_str(path, text),
        Err(e) => {
            let bad = e.valid_up_to();
            let before = src.get(..bad).unwrap_or(&[]);
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let byte = src.get(bad).copied().unwrap_or(0);
            let pos = Pos::new(path, clamp_u32(line), clamp_u32(bad - line_start + 1), 1);
            Err(vec![Diagnostic::error(format!("invalid UTF-8 (byte 0x{byte:02x})"), Some(pos))])
        }
    }
}

/// Parses a module from `.pir` text already known to be UTF-8.
pub fn parse_str(path: &str, src: &str) -> Result<Module, Vec<Diagnostic>> {
    Parser::new(path, src).run()
}

/// The offset of the first `\n` at or after `from`, or the length: eight
/// bytes at a time.
fn find_newline(b: &[u8], from: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = LO * b'\n' as u64;
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let x = u64::from_le_bytes(w) ^ NL;
        let found = x.wrapping_sub(LO) & !x & HI;
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

fn clamp_u32(x: usize) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// A fast multiplicative hasher (FxHash's mixing step) with a per-parser
/// random seed, so that crafted names cannot degrade the tables.
#[derive(Clone, Copy)]
struct NameHasher(u64);

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl NameHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(K).rotate_left(26);
    }
}

impl Hasher for NameHasher {
    /// Whole words, then the last (possibly overlapping) word or the tail
    /// read in at most two loads, and the length: no copies.
    #[inline]
    fn write(&mut self, b: &[u8]) {
        #[inline(always)]
        fn word(b: &[u8], at: usize) -> u64 {
            u64::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7]])
        }
        let n = b.len();
        let tail = if n >= 8 {
            let mut at = 0;
            while at + 8 < n {
                self.add(word(b, at));
                at += 8;
            }
            word(b, n - 8)
        } else if n >= 4 {
            let w = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as u64;
            w(0) | (w(n - 4) << 32)
        } else if n > 0 {
            (b[0] as u64) | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16
        } else {
            0
        };
        self.add(tail ^ ((n as u64) << 56));
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0;
        (h ^ (h >> 29)).wrapping_mul(K)
    }
}

#[derive(Clone, Copy)]
struct NameHash(u64);

impl BuildHasher for NameHash {
    type Hasher = NameHasher;
    #[inline]
    fn build_hasher(&self) -> NameHasher {
        NameHasher(self.0)
    }
}

impl NameHash {
    fn random() -> NameHash {
        let s = std::collections::hash_map::RandomState::new();
        NameHash(s.hash_one(0x5eed_u64) | 1)
    }
}

type NameMap<'a, V> = HashMap<&'a str, V, NameHash>;

/// A value name defined on a line that had an error: uses of it are not
/// reported again.
const POISON: u32 = u32::MAX;

/// Where a forward reference's placeholder lies.
#[derive(Clone, Copy)]
enum Slot {
    /// Payload slot `k` of instruction `inst`.
    Op { inst: u32, k: u8 },
    /// An index of the `extra` pool.
    Extra(u32),
}

/// A use of a value or label not defined when it was read.
struct Fixup<'a> {
    slot: Slot,
    name: &'a str,
    label: bool,
    line: u32,
    off: usize,
}

/// A `const` literal read but not yet stored (strings live in `buf`).
enum PendingConst {
    Bool(bool),
    Int(i128),
    Float(u64),
    Complex(u64, u64),
    Str,
    Bytes,
}

/// The mnemonics' [`pack16`] keys in a collision-free table: the
/// multiplier and, by slot, the opcode number + 1 (0: none).
struct OpTable {
    mul: u64,
    slots: [u8; 1024],
    keys: Vec<u128>,
}

fn op_slot(key: u128, mul: u64) -> usize {
    (((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(mul) >> 54) as usize
}

fn op_table() -> &'static OpTable {
    static T: std::sync::OnceLock<OpTable> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let keys: Vec<u128> = Opcode::ALL.iter().filter_map(|op| pack16(op.mnemonic().as_bytes())).collect();
        let mut mul = 0x9e37_79b9_7f4a_7c15u64;
        loop {
            let mut slots = [0u8; 1024];
            let mut ok = keys.len() == Opcode::ALL.len();
            for (i, &k) in keys.iter().enumerate() {
                let s = &mut slots[op_slot(k, mul)];
                if *s != 0 {
                    ok = false;
                    break;
                }
                *s = i as u8 + 1;
            }
            if ok {
                return OpTable { mul, slots, keys };
            }
            mul ^= mul << 13;
            mul ^= mul >> 7;
            mul ^= mul << 17;
            mul |= 1;
        }
    })
}

/// The opcode whose mnemonic packs to `key`.
#[inline]
fn opcode_of_key(key: u128) -> Option<Opcode> {
    let t = op_table();
    let i = t.slots[op_slot(key, t.mul)].checked_sub(1)?;
    if *t.keys.get(i as usize)? == key {
        Opcode::from_u8(i)
    } else {
        None
    }
}

/// The cursor of [`Parser::fast_line`]: exact tokens only.
struct Fast<'a> {
    s: &'a [u8],
    line: &'a str,
    i: usize,
}

impl<'a> Fast<'a> {
    #[inline]
    fn lit(&mut self, t: &[u8]) -> bool {
        if self.s.get(self.i..self.i + t.len()) == Some(t) {
            self.i += t.len();
            true
        } else {
            false
        }
    }
    #[inline]
    fn sp(&mut self) -> bool {
        self.lit(b" ")
    }
    #[inline]
    fn end(&self) -> bool {
        self.i == self.s.len()
    }
    /// An identifier, as [`Cur::ident`] reads it.
    #[inline]
    fn ident(&mut self) -> Option<&'a str> {
        let start = self.i;
        if !is_ident_start(*self.s.get(start)?) {
            return None;
        }
        let mut j = start + 1;
        while j < self.s.len() && is_ident_char(self.s[j]) {
            j += 1;
        }
        self.i = j;
        self.line.get(start..j)
    }
    /// An identifier and its [`pack16`] key (`None` past 16 bytes).
    #[inline]
    fn ident_key(&mut self) -> Option<(&'a str, Option<u128>)> {
        let start = self.i;
        let w = self.ident()?;
        Some((w, pack_in(self.s, start, w.len())))
    }

    /// `%name`: the name and the offset of the `%`.
    #[inline]
    fn value(&mut self) -> Option<(&'a str, usize)> {
        let at = self.i;
        if self.s.get(at) != Some(&b'%') {
            return None;
        }
        let mut j = at + 1;
        while j < self.s.len() && is_value_char(self.s[j]) {
            j += 1;
        }
        if j == at + 1 {
            return None;
        }
        self.i = j;
        Some((self.line.get(at + 1..j)?, at))
    }
    /// `: DTYPE = ` with a scalar dtype.
    #[inline]
    fn scalar_type_eq(&mut self) -> Option<TypeId> {
        if !self.lit(b": ") {
            return None;
        }
        let ds = self.i;
        let mut j = ds;
        while j < self.s.len() && is_alnum(self.s[j]) {
            j += 1;
        }
        let d = dtype_from_key(pack_in(self.s, ds, j - ds)?)?;
        self.i = j;
        if !self.lit(b" = ") {
            return None;
        }
        Some(TypeId::scalar(d))
    }
}

/// Annotations at the end of an instruction.
#[derive(Default)]
struct Notes {
    weights: Option<(u32, u32)>,
    loc: Option<SrcLoc>,
}

struct Parser<'a> {
    src: &'a str,
    path: &'a str,
    /// Byte offset of the next line.
    next: usize,
    /// Offset of the current line.
    line_start: usize,
    /// Number of the current line (1-based; 0 before the first).
    line: u32,
    diags: Vec<Diagnostic>,
    m: Module,
    file: FileId,
    seen_module: bool,
    reported_no_module: bool,
    func_names: HashSet<&'a str, NameHash>,
    values: NameMap<'a, u32>,
    labels: NameMap<'a, u32>,
    fixups: Vec<Fixup<'a>>,
    scratch: Vec<u32>,
    buf: Vec<u8>,
    loc_buf: Vec<u8>,
    loc_file: Option<(Vec<u8>, FileId)>,
    /// Mnemonics packed by [`pack16`], sorted, for binary search.
    opcodes: Vec<(u128, Opcode)>,
    /// Where the last scan of [`Parser::estimate_insts`] found a `}` line.
    body_end: usize,
    /// Whether [`Parser::fast_line`] is tried (the tests compare both ways).
    fast: bool,
}

impl<'a> Parser<'a> {
    fn new(path: &'a str, src: &'a str) -> Parser<'a> {
        let hash = NameHash::random();
        let mut m = Module::new("");
        let file = m.files.intern(path);
        let mut opcodes: Vec<(u128, Opcode)> =
            Opcode::ALL.iter().filter_map(|&op| Some((pack16(op.mnemonic().as_bytes())?, op))).collect();
        opcodes.sort_unstable_by_key(|e| e.0);
        Parser {
            src,
            path,
            next: 0,
            line_start: 0,
            line: 0,
            diags: Vec::new(),
            m,
            file,
            seen_module: false,
            reported_no_module: false,
            func_names: HashSet::with_hasher(hash),
            values: HashMap::with_hasher(hash),
            labels: HashMap::with_hasher(hash),
            fixups: Vec::new(),
            scratch: Vec::new(),
            buf: Vec::new(),
            loc_buf: Vec::new(),
            loc_file: None,
            opcodes,
            body_end: 0,
            fast: true,
        }
    }

    // ----- lines and diagnostics -----

    /// The next line, without its newline (and a trailing `\r`).
    fn next_line(&mut self) -> Option<&'a str> {
        let bytes = self.src.as_bytes();
        if self.next >= bytes.len() {
            return None;
        }
        let start = self.next;
        let end = find_newline(bytes, start);
        self.next = end + 1;
        self.line_start = start;
        self.line = self.line.saturating_add(1);
        let mut line = self.src.get(start..end).unwrap_or("");
        if let Some(l) = line.strip_suffix('\r') {
            line = l;
        }
        Some(line)
    }

    /// Puts the current line back, to be read again.
    fn unread_line(&mut self) {
        self.next = self.line_start;
        self.line = self.line.saturating_sub(1);
    }

    fn stop(&self) -> bool {
        self.diags.len() >= MAX_ERRORS
    }

    fn error_at(&mut self, line: u32, off: usize, len: usize, msg: String) {
        let pos = Pos::new(self.path, line, clamp_u32(off + 1), clamp_u32(len));
        self.diags.push(Diagnostic::error(msg, Some(pos)));
    }

    fn report(&mut self, e: PErr) {
        self.error_at(self.line, e.off, e.len, e.msg);
    }

    /// The position just past the end of the input.
    fn eof_pos(&self) -> (u32, usize) {
        let src = self.src;
        if src.is_empty() {
            (1, 0)
        } else if src.ends_with('\n') {
            (self.line.saturating_add(1), 0)
        } else {
            let last = src.rfind('\n').map_or(0, |p| p + 1);
            (self.line.max(1), src.len() - last)
        }
    }

    /// A location at byte `off` of the current line, in the `.pir` file.
    fn here(&self, off: usize) -> SrcLoc {
        SrcLoc { file: self.file, line: self.line, col: clamp_u32(off + 1), implicit: true }
    }

    // ----- the module -----

    fn run(mut self) -> Result<Module, Vec<Diagnostic>> {
        while !self.stop() {
            let Some(line) = self.next_line() else { break };
            let mut c = Cur::new(line);
            c.skip_ws();
            if c.at_end() {
                continue;
            }
            let start = c.i;
            let word = c.ident();
            let r = match word {
                Some("module") => self.module_line(&mut c, start),
                Some(kw @ ("func" | "ufunc")) => {
                    self.require_module(start, kw.len());
                    self.function(c, start, kw == "ufunc");
                    Ok(())
                }
                Some(kw @ ("import" | "depends" | "const" | "alias" | "export")) => {
                    self.require_module(start, kw.len());
                    self.directive(kw, &mut c)
                }
                _ => {
                    c.i = start;
                    Err(c.expected("a module directive or a function"))
                }
            };
            if let Err(e) = r {
                self.report(e);
            }
        }
        if !self.seen_module && !self.reported_no_module {
            self.error_at(1, 0, 1, "missing `module` line".to_owned());
        }
        if self.diags.is_empty() {
            return Ok(self.m);
        }
        let mut diags = self.diags;
        diags.sort_by_key(|d| d.pos.as_ref().map(|p| (p.line, p.col)));
        diags.truncate(MAX_ERRORS);
        Err(diags)
    }

    fn require_module(&mut self, off: usize, len: usize) {
        if !self.seen_module && !self.reported_no_module {
            self.reported_no_module = true;
            self.error_at(self.line, off, len, "missing `module` line".to_owned());
        }
    }

    fn module_line(&mut self, c: &mut Cur<'a>, start: usize) -> R<()> {
        if self.seen_module {
            return Err(perr("duplicate `module` line", start, "module".len()));
        }
        if self.reported_no_module {
            return Err(perr("the `module` line must come first", start, "module".len()));
        }
        let (name, _) = c.module_name()?;
        c.expect_end()?;
        self.seen_module = true;
        self.m.name = name.to_owned();
        self.m.decl_locs.module = Some(self.here(start));
        Ok(())
    }

    fn directive(&mut self, kw: &str, c: &mut Cur<'a>) -> R<()> {
        match kw {
            "import" => self.import(c),
            "depends" => {
                let (name, at) = c.module_name()?;
                c.expect_end()?;
                self.m.dependencies.insert(name.to_owned());
                let loc = self.here(at);
                self.m.decl_locs.dependencies.entry(name.to_owned()).or_insert(loc);
                Ok(())
            }
            "const" => {
                let (name, at) = c.expect_ident("a constant name")?;
                c.expect(b':')?;
                c.skip_ws();
                let ty_at = c.i;
                let ty = c.ty(&mut self.m.types)?;
                let dtype = self.scalar_dtype(c, ty, ty_at)?;
                c.expect(b'=')?;
                let value = match self.literal(c, dtype)? {
                    PendingConst::Bool(b) => Literal::Bool(b),
                    PendingConst::Int(i) => Literal::Int(i),
                    PendingConst::Float(f) => Literal::Float(f),
                    PendingConst::Complex(r, i) => Literal::Complex(r, i),
                    PendingConst::Str => Literal::Str(std::str::from_utf8(&self.buf).unwrap_or("")),
                    PendingConst::Bytes => Literal::Bytes(&self.buf),
                }
                .to_owned();
                c.expect_end()?;
                if self.m.constants.contains_key(name) {
                    return Err(perr(format!("duplicate constant {}", show(name)), at, name.len()));
                }
                self.m.constants.insert(name.to_owned(), Constant { ty, value });
                let loc = self.here(at);
                self.m.decl_locs.constants.insert(name.to_owned(), loc);
                Ok(())
            }
            "alias" => {
                let (name, at) = c.expect_ident("an alias name")?;
                c.expect(b'=')?;
                let (target, _) = c.expect_ident("the aliased name")?;
                c.expect_end()?;
                if self.m.function_aliases.contains_key(name) {
                    return Err(perr(format!("duplicate alias {}", show(name)), at, name.len()));
                }
                self.m.function_aliases.insert(name.to_owned(), target.to_owned());
                let loc = self.here(at);
                self.m.decl_locs.aliases.insert(name.to_owned(), loc);
                Ok(())
            }
            _ => {
                // export: a possibly empty list of names; several lines add up.
                let all = self.m.export_all.get_or_insert_with(Vec::new);
                c.skip_ws();
                if c.at_end() {
                    return Ok(());
                }
                let mut names = Vec::new();
                loop {
                    let (name, at) = c.expect_ident("an exported name")?;
                    names.push((name, at));
                    c.skip_ws();
                    if !c.eat(b',') {
                        break;
                    }
                }
                c.expect_end()?;
                all.extend(names.iter().map(|(n, _)| (*n).to_owned()));
                for (_, at) in names {
                    let loc = self.here(at);
                    self.m.decl_locs.exports.push(loc);
                }
                Ok(())
            }
        }
    }

    fn import(&mut self, c: &mut Cur<'a>) -> R<()> {
        let (kind, kind_at) = c.expect_ident("`post`, `intrinsic` or `boundary`")?;
        if kind == "intrinsic" {
            let (local, at) = c.expect_ident("the imported name")?;
            c.expect(b'=')?;
            let (symbol, _) = c.expect_ident("the libm symbol")?;
            c.expect_end()?;
            self.check_new_import(local, at)?;
            self.m.intrinsic_imports.insert(local.to_owned(), symbol.to_owned());
            let loc = self.here(at);
            self.m.decl_locs.imports.insert(local.to_owned(), loc);
            return Ok(());
        }
        if kind != "post" && kind != "boundary" {
            return Err(perr(
                format!("expected `post`, `intrinsic` or `boundary`, found {}", show(kind)),
                kind_at,
                kind.len(),
            ));
        }
        let (module, mod_at) = c.module_name()?;
        c.expect(b':')?;
        let mut names: Vec<(&'a str, &'a str, usize)> = Vec::new();
        loop {
            let (source, mut at) = c.expect_ident("an imported name")?;
            let mut local = source;
            c.skip_ws();
            let save = c.i;
            if c.ident() == Some("as") {
                (local, at) = c.expect_ident("the local name after `as`")?;
            } else {
                c.i = save;
            }
            names.push((source, local, at));
            c.skip_ws();
            if !c.eat(b',') {
                break;
            }
        }
        c.expect_end()?;
        for (source, local, at) in names {
            self.check_new_import(local, at)?;
            let imp = ImportedName {
                local_name: local.to_owned(),
                module_name: module.to_owned(),
                source_name: source.to_owned(),
            };
            if kind == "post" {
                self.m.add_post_import(imp);
            } else {
                self.m.boundary_imports.insert(local.to_owned(), imp);
            }
            let loc = self.here(at);
            self.m.decl_locs.imports.insert(local.to_owned(), loc);
        }
        if kind == "post" {
            let loc = self.here(mod_at);
            self.m.decl_locs.dependencies.entry(module.to_owned()).or_insert(loc);
        }
        Ok(())
    }

    fn check_new_import(&self, local: &str, at: usize) -> R<()> {
        let m = &self.m;
        if m.post_imports.contains_key(local)
            || m.intrinsic_imports.contains_key(local)
            || m.boundary_imports.contains_key(local)
        {
            return Err(perr(format!("duplicate import {}", show(local)), at, local.len()));
        }
        Ok(())
    }

    /// The dtype of a type that must be a scalar (constants).
    fn scalar_dtype(&self, c: &Cur<'a>, ty: TypeId, at: usize) -> R<DType> {
        let t = self.m.types.get(ty);
        if t.is_array || t.is_output {
            return Err(perr(format!("`const` needs a scalar type, not `{t}`"), at, c.i - at));
        }
        Ok(t.dtype)
    }

    /// A literal of `dtype` (strings and bytes are decoded into `buf`).
    fn literal(&mut self, c: &mut Cur<'a>, dtype: DType) -> R<PendingConst> {
        c.skip_ws();
        Ok(match dtype.kind() {
            DTypeKind::Bool => {
                let save = c.i;
                match c.ident() {
                    Some("true") => PendingConst::Bool(true),
                    Some("false") => PendingConst::Bool(false),
                    _ => {
                        c.i = save;
                        return Err(c.expected("`true` or `false` for Bool"));
                    }
                }
            }
            DTypeKind::SignedInt | DTypeKind::UnsignedInt => PendingConst::Int(c.int_literal(dtype)?),
            DTypeKind::Float => PendingConst::Float(c.float_literal(dtype)?),
            DTypeKind::Complex => {
                let (re, im) = c.complex_literal(dtype)?;
                PendingConst::Complex(re, im)
            }
            DTypeKind::Str => {
                if c.peek() != Some(b'"') {
                    return Err(c.expected("a string literal for Str"));
                }
                c.string(&mut self.buf, false)?;
                PendingConst::Str
            }
            DTypeKind::Bytes => {
                if !(c.peek() == Some(b'b') && c.peek_at(1) == Some(b'"')) {
                    return Err(c.expected("a bytes literal (`b\"...\"`) for Bytes"));
                }
                c.i += 1;
                c.string(&mut self.buf, true)?;
                PendingConst::Bytes
            }
        })
    }

    // ----- functions -----

    fn function(&mut self, mut c: Cur<'a>, kw_at: usize, is_ufunc: bool) {
        self.values.clear();
        self.labels.clear();
        self.fixups.clear();
        match self.header(&mut c, kw_at, is_ufunc) {
            Ok((mut b, name)) => {
                b.reserve(self.estimate_insts());
                self.body(b, name)
            }
            Err(e) => {
                self.report(e);
                self.skip_function();
            }
        }
    }

    /// About how many instructions the function starting at the next line
    /// holds: its text up to the first line that starts with `}` (after
    /// spaces), at some 24 bytes an instruction. Only a capacity hint.
    fn estimate_insts(&mut self) -> usize {
        let b = self.src.as_bytes();
        // The end found for an earlier function still holds while the
        // next line lies before it: every byte is scanned once in all.
        if self.next > self.body_end {
            let mut i = self.next;
            self.body_end = loop {
                let Some(k) = b.get(i..).and_then(|r| r.iter().position(|&x| x == b'}')) else { break b.len() };
                let at = i + k;
                let mut j = at;
                while j > 0 && matches!(b[j - 1], b' ' | b'\t') {
                    j -= 1;
                }
                if j == 0 || b[j - 1] == b'\n' {
                    break at;
                }
                i = at + 1;
            };
        }
        (self.body_end.saturating_sub(self.next) / 24).min(1 << 22)
    }

    /// After a broken header: skips to the function's closing `}` (or to
    /// the next function header, which is read again).
    fn skip_function(&mut self) {
        while let Some(line) = self.next_line() {
            let t = line.trim_start();
            if t.starts_with('}') {
                return;
            }
            let mut c = Cur::new(t);
            if matches!(c.ident(), Some("func" | "ufunc")) && c.peek() != Some(b':') {
                self.unread_line();
                return;
            }
        }
    }

    fn header(&mut self, c: &mut Cur<'a>, kw_at: usize, is_ufunc: bool) -> R<(FunctionBuilder, &'a str)> {
        let (name, name_at) = c.expect_ident("a function name")?;
        if !self.func_names.insert(name) {
            self.error_at(self.line, name_at, name.len(), format!("duplicate function {}", show(name)));
        }
        let mut b = FunctionBuilder::new(name);
        b.set_func_loc(Some(self.here(kw_at)));
        c.expect(b'(')?;
        self.params(c, &mut b, false)?;
        c.skip_ws();
        if c.eat_str(b"->") {
            let t = c.ty(&mut self.m.types)?;
            b.set_return(Some(t));
        }
        c.skip_ws();
        if c.peek() == Some(b'"') {
            let at = c.i;
            if !is_ufunc {
                return Err(perr("only a `ufunc` has a signature string", at, 1));
            }
            c.string(&mut self.buf, false)?;
            let text = std::str::from_utf8(&self.buf).unwrap_or("");
            match UFuncSignature::parse(text) {
                Ok(sig) => b.set_ufunc_sig(Some(sig)),
                Err(e) => {
                    let off = (at + 1 + e.offset).min(c.i.saturating_sub(1));
                    return Err(perr(format!("invalid ufunc signature: {}", e.message), off, 1));
                }
            }
            c.skip_ws();
            if c.eat_str(b"core(") {
                self.params(c, &mut b, true)?;
            }
        } else if is_ufunc {
            return Err(c.expected("the ufunc's signature string (`\"(n),(n)->()\"`)"));
        }
        let mut attrs = FuncAttrs::empty();
        loop {
            c.skip_ws();
            if c.peek() == Some(b'{') {
                break;
            }
            let at = c.i;
            let Some(word) = c.ident() else {
                return Err(c.expected("`{`"));
            };
            let attr = if word == "gpu" && c.eat_str(b"(fallback)") { "gpu(fallback)" } else { word };
            match FuncAttrs::from_name(attr) {
                Some(a) => attrs.insert(a),
                None => return Err(perr(format!("unknown attribute {}", show(attr)), at, c.i - at)),
            }
        }
        b.set_attrs(attrs);
        c.expect(b'{')?;
        c.expect_end()?;
        Ok((b, name))
    }

    /// A parameter list after its `(`, through the `)`.
    fn params(&mut self, c: &mut Cur<'a>, b: &mut FunctionBuilder, core: bool) -> R<()> {
        c.skip_ws();
        if c.eat(b')') {
            return Ok(());
        }
        loop {
            let (name, at) = c.value_name()?;
            c.expect(b':')?;
            let ty = c.ty(&mut self.m.types)?;
            b.set_loc(Some(self.here(at)));
            let v = if core { b.core_param(name, ty) } else { b.param(name, ty) };
            self.define(name, at, v.as_u32());
            c.skip_ws();
            if c.eat(b')') {
                return Ok(());
            }
            if !c.eat(b',') {
                return Err(c.expected("`,` or `)`"));
            }
        }
    }

    /// Defines a value name; reports a duplicate.
    fn define(&mut self, name: &'a str, at: usize, v: u32) {
        match self.values.entry(name) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(v);
            }
            std::collections::hash_map::Entry::Occupied(mut e) => {
                if *e.get() == POISON {
                    e.insert(v);
                } else {
                    let msg = format!("duplicate value name {}", show(&format!("%{name}")));
                    self.error_at(self.line, at, name.len() + 1, msg);
                }
            }
        }
    }

    fn body(&mut self, mut b: FunctionBuilder, fname: &'a str) {
        loop {
            if self.stop() {
                break;
            }
            let Some(line) = self.next_line() else {
                let (line, off) = self.eof_pos();
                self.error_at(line, off, 1, format!("missing `}}` at the end of function {}", show(fname)));
                break;
            };
            let mut c = Cur::new(line);
            c.skip_ws();
            if c.at_end() {
                continue;
            }
            let start = c.i;
            if c.eat(b'}') {
                if let Err(e) = c.expect_end() {
                    self.report(e);
                }
                break;
            }
            if self.fast_line(&mut b, line, start) {
                continue;
            }
            if c.peek() == Some(b'%') {
                self.instruction(&mut b, &mut c, start, None);
                continue;
            }
            let Some(word) = c.ident() else {
                let e = c.expected("an instruction, a block label or `}`");
                self.report(e);
                continue;
            };
            if c.eat(b':') {
                if let Err(e) = c.expect_end() {
                    self.report(e);
                }
                let blk = b.create_block(word);
                if self.labels.insert(word, blk.as_u32()).is_some() {
                    self.error_at(self.line, start, word.len(), format!("duplicate label {}", show(word)));
                }
                b.switch_to(blk);
                continue;
            }
            match word {
                "func" | "ufunc" => {
                    let msg = format!("missing `}}` at the end of function {}", show(fname));
                    self.error_at(self.line, start, word.len(), msg);
                    self.unread_line();
                    break;
                }
                "doc" if b.function().body.blocks.is_empty() => {
                    if let Err(e) = self.doc(&mut b, &mut c, start) {
                        self.report(e);
                    }
                }
                _ => self.instruction(&mut b, &mut c, start, Some(word)),
            }
        }
        self.finish_function(b);
    }

    fn doc(&mut self, b: &mut FunctionBuilder, c: &mut Cur<'a>, start: usize) -> R<()> {
        c.skip_ws();
        if c.peek() != Some(b'"') {
            return Err(c.expected("a string literal after `doc`"));
        }
        c.string(&mut self.buf, false)?;
        c.expect_end()?;
        if b.function().doc.is_some() {
            return Err(perr("duplicate `doc` line", start, 3));
        }
        b.set_doc(Some(String::from_utf8_lossy(&self.buf).into_owned()));
        Ok(())
    }

    /// Resolves the function's forward references and adds it to the module.
    fn finish_function(&mut self, b: FunctionBuilder) {
        let mut f = b.finish();
        let mut fixups = std::mem::take(&mut self.fixups);
        for fx in fixups.drain(..) {
            let map = if fx.label { &self.labels } else { &self.values };
            match map.get(fx.name).copied() {
                Some(POISON) => {}
                Some(id) => {
                    let body = &mut f.body;
                    let slot = match fx.slot {
                        Slot::Op { inst, k } => {
                            body.ops.get_mut(ValueId::from_u32(inst)).and_then(|o| o.get_mut(k as usize))
                        }
                        Slot::Extra(i) => body.extra.get_mut(i as usize),
                    };
                    if let Some(s) = slot {
                        *s = id;
                    }
                }
                None if self.diags.len() >= MAX_ERRORS => {}
                None if fx.label => {
                    let msg = format!("branch to undefined label {}", show(fx.name));
                    self.error_at(fx.line, fx.off, fx.name.len(), msg);
                }
                None => {
                    let msg = format!("use of undefined value {}", show(&format!("%{}", fx.name)));
                    self.error_at(fx.line, fx.off, fx.name.len() + 1, msg);
                }
            }
        }
        self.fixups = fixups;
        self.m.functions.push(f);
    }

    // ----- instructions -----

    /// The opcode of a mnemonic.
    #[inline]
    fn opcode(&self, w: &str) -> Option<Opcode> {
        pack16(w.as_bytes())
            .and_then(|k| self.opcodes.binary_search_by_key(&k, |e| e.0).ok())
            .and_then(|i| self.opcodes.get(i))
            .map(|e| e.1)
            .filter(|op| op.mnemonic() == w)
    }

    /// The fast path of an instruction line in the printer's canonical
    /// spacing, with scalar types and no annotations, comments or trailing
    /// spaces: it has exactly the effects [`Parser::instruction`] has on
    /// such a line. Anything else (and every error) returns false having
    /// changed nothing, for the general path to read the line.
    fn fast_line(&mut self, b: &mut FunctionBuilder, line: &'a str, start: usize) -> bool {
        if !self.fast || b.current_block().is_none() {
            return false;
        }
        let mark = self.fixups.len();
        let ok = self.fast_line_inner(b, line, start);
        if !ok {
            self.fixups.truncate(mark);
        }
        ok
    }

    fn fast_line_inner(&mut self, b: &mut FunctionBuilder, line: &'a str, start: usize) -> bool {
        let s = line.as_bytes();
        let next = clamp_u32(b.function().body.num_insts());
        let xb = clamp_u32(b.function().body.extra.len());
        let op0 = Slot::Op { inst: next, k: 0 };
        let op1 = Slot::Op { inst: next, k: 1 };
        let mut f = Fast { s, line, i: start };
        let Some(&first) = s.get(start) else { return false };
        if first != b'%' {
            // `let`, `set` and the instructions without a result.
            let Some((word, key)) = f.ident_key() else { return false };
            let Some(op) = key.and_then(opcode_of_key) else { return false };
            if word == "let" {
                if !f.sp() {
                    return false;
                }
                let Some((name, at)) = f.value() else { return false };
                let Some(ty) = f.scalar_type_eq() else { return false };
                let Some(v) = self.fast_operand(&mut f, op0) else { return false };
                if !f.end() {
                    return false;
                }
                b.set_loc(Some(self.here(start)));
                let id = b.push(Opcode::Let, Some(ty), [v, 0], Some(name));
                self.define(name, at, id.as_u32());
                return true;
            }
            if word == "set" {
                if !f.sp() {
                    return false;
                }
                let Some(t) = self.fast_operand(&mut f, op0) else { return false };
                if !f.lit(b" = ") {
                    return false;
                }
                let Some(v) = self.fast_operand(&mut f, op1) else { return false };
                if !f.end() {
                    return false;
                }
                b.set_loc(Some(self.here(start)));
                b.push(Opcode::Set, None, [t, v], None);
                return true;
            }
            let ops = match op.format() {
                Format::Br => {
                    if !f.sp() {
                        return false;
                    }
                    let Some(t) = self.fast_label(&mut f, op0) else { return false };
                    [t, 0]
                }
                Format::CondBr => {
                    if !f.sp() {
                        return false;
                    }
                    let Some(c) = self.fast_operand(&mut f, op0) else { return false };
                    if !f.lit(b", ") {
                        return false;
                    }
                    let Some(t) = self.fast_label(&mut f, Slot::Extra(xb)) else { return false };
                    if !f.lit(b", ") {
                        return false;
                    }
                    let Some(e) = self.fast_label(&mut f, Slot::Extra(xb.saturating_add(1))) else { return false };
                    if !f.end() {
                        return false;
                    }
                    b.extra(&[t, e, 0, 0]);
                    [c, xb]
                }
                Format::Return if f.end() => [NO_VALUE, 0],
                Format::Return => {
                    if !f.sp() {
                        return false;
                    }
                    let Some(x) = self.fast_operand(&mut f, op0) else { return false };
                    [x, 0]
                }
                Format::Call => return self.fast_call(b, &mut f, start, None),
                Format::IndexStore => return self.fast_index(b, &mut f, start, op, None),
                Format::Store => {
                    if !f.sp() {
                        return false;
                    }
                    let Some(a) = self.fast_operand(&mut f, op0) else { return false };
                    if !f.lit(b", ") {
                        return false;
                    }
                    let Some(x) = self.fast_operand(&mut f, Slot::Extra(xb)) else { return false };
                    if !f.lit(b", ") {
                        return false;
                    }
                    let Some(y) = self.fast_operand(&mut f, Slot::Extra(xb.saturating_add(1))) else { return false };
                    if !f.end() {
                        return false;
                    }
                    b.extra(&[x, y]);
                    [a, xb]
                }
                _ => return false,
            };
            if !f.end() {
                return false;
            }
            b.set_loc(Some(self.here(start)));
            b.push(op, None, ops, None);
            return true;
        }
        // `%name: TYPE = op ...`
        let Some((name, at)) = f.value() else { return false };
        let Some(ty) = f.scalar_type_eq() else { return false };
        let Some(op) = f.ident_key().and_then(|(_, k)| k).and_then(opcode_of_key) else { return false };
        let fmt = op.format();
        if fmt == Format::Call {
            return self.fast_call(b, &mut f, start, Some((name, at, ty)));
        }
        if fmt == Format::IndexLoad {
            return self.fast_index(b, &mut f, start, op, Some((name, at, ty)));
        }
        if !f.sp() {
            return false;
        }
        let mut ops = [0u32; 2];
        match fmt {
            Format::Axis => {
                let Some(x) = self.fast_operand(&mut f, op0) else { return false };
                if !f.lit(b", ") {
                    return false;
                }
                let mut c = Cur::new(line);
                c.i = f.i;
                let Ok(axis) = c.unsigned(u32::MAX as u64, "an axis") else { return false };
                f.i = c.i;
                ops = [x, axis as u32];
            }
            Format::Const => {
                let Some(dtype) = DType::from_index(ty.as_u32()) else { return false };
                let mut c = Cur::new(line);
                c.i = f.i;
                let Ok(p) = self.literal(&mut c, dtype) else { return false };
                if c.i != s.len() {
                    return false;
                }
                let lit = match p {
                    PendingConst::Bool(x) => Literal::Bool(x),
                    PendingConst::Int(i) => Literal::Int(i),
                    PendingConst::Float(f) => Literal::Float(f),
                    PendingConst::Complex(r, i) => Literal::Complex(r, i),
                    PendingConst::Str => Literal::Str(std::str::from_utf8(&self.buf).unwrap_or("")),
                    PendingConst::Bytes => Literal::Bytes(&self.buf),
                };
                b.set_loc(Some(self.here(start)));
                let id = b.const_(ty, lit, name);
                self.define(name, at, id.as_u32());
                return true;
            }
            Format::Binary | Format::Load => {
                let Some(x) = self.fast_operand(&mut f, op0) else { return false };
                if !f.lit(b", ") {
                    return false;
                }
                let Some(y) = self.fast_operand(&mut f, op1) else { return false };
                ops = [x, y];
            }
            Format::Unary | Format::Alloc => {
                let Some(x) = self.fast_operand(&mut f, op0) else { return false };
                ops[0] = x;
            }
            Format::Select => {
                let Some(c) = self.fast_operand(&mut f, op0) else { return false };
                if !f.lit(b", ") {
                    return false;
                }
                let Some(x) = self.fast_operand(&mut f, Slot::Extra(xb)) else { return false };
                if !f.lit(b", ") {
                    return false;
                }
                let Some(y) = self.fast_operand(&mut f, Slot::Extra(xb.saturating_add(1))) else { return false };
                if !f.end() {
                    return false;
                }
                b.extra(&[x, y]);
                ops = [c, xb];
            }
            _ => return false,
        }
        if !f.end() {
            return false;
        }
        b.set_loc(Some(self.here(start)));
        let id = b.push(op, Some(ty), ops, Some(name));
        self.define(name, at, id.as_u32());
        true
    }

    /// ` CALLEE(%a, ...)` to the end of the line, for a call with the
    /// given result or none.
    fn fast_call(
        &mut self,
        b: &mut FunctionBuilder,
        f: &mut Fast<'a>,
        start: usize,
        res: Option<(&'a str, usize, TypeId)>,
    ) -> bool {
        let xb = clamp_u32(b.function().body.extra.len());
        if !f.sp() {
            return false;
        }
        let Some(callee) = f.ident() else { return false };
        if !f.lit(b"(") {
            return false;
        }
        self.scratch.clear();
        self.scratch.push(0);
        if !f.lit(b")") {
            loop {
                let k = clamp_u32(self.scratch.len());
                let Some(a) = self.fast_operand(f, Slot::Extra(xb.saturating_add(k))) else { return false };
                self.scratch.push(a);
                if f.lit(b")") {
                    break;
                }
                if !f.lit(b", ") {
                    return false;
                }
            }
        }
        if !f.end() {
            return false;
        }
        self.scratch[0] = clamp_u32(self.scratch.len() - 1);
        b.set_loc(Some(self.here(start)));
        b.extra(&self.scratch);
        let callee = b.intern(callee).as_u32();
        let id = b.push(Opcode::Call, res.map(|r| r.2), [callee, xb], res.map(|r| r.0));
        if let Some((name, at, _)) = res {
            self.define(name, at, id.as_u32());
        }
        true
    }

    /// ` %array[%i, ...]` (and `, %value` for `index.store`) to the end of
    /// the line.
    fn fast_index(
        &mut self,
        b: &mut FunctionBuilder,
        f: &mut Fast<'a>,
        start: usize,
        op: Opcode,
        res: Option<(&'a str, usize, TypeId)>,
    ) -> bool {
        let next = clamp_u32(b.function().body.num_insts());
        let xb = clamp_u32(b.function().body.extra.len());
        if !f.sp() {
            return false;
        }
        let Some(a) = self.fast_operand(f, Slot::Op { inst: next, k: 0 }) else { return false };
        if !f.lit(b"[") {
            return false;
        }
        self.scratch.clear();
        self.scratch.resize(1, 0);
        if !f.lit(b"]") {
            loop {
                let k = clamp_u32(self.scratch.len());
                let Some(x) = self.fast_operand(f, Slot::Extra(xb.saturating_add(k))) else { return false };
                self.scratch.push(x);
                if f.lit(b"]") {
                    break;
                }
                if !f.lit(b", ") {
                    return false;
                }
            }
        }
        self.scratch[0] = clamp_u32(self.scratch.len() - 1);
        if op == Opcode::IndexStore {
            if !f.lit(b", ") {
                return false;
            }
            let k = clamp_u32(self.scratch.len());
            let Some(x) = self.fast_operand(f, Slot::Extra(xb.saturating_add(k))) else { return false };
            self.scratch.push(x);
        }
        if !f.end() {
            return false;
        }
        b.set_loc(Some(self.here(start)));
        b.extra(&self.scratch);
        let id = b.push(op, res.map(|r| r.2), [a, xb], res.map(|r| r.0));
        if let Some((name, at, _)) = res {
            self.define(name, at, id.as_u32());
        }
        true
    }

    /// `%name` at the cursor, resolved as [`Parser::operand`] does.
    #[inline]
    fn fast_operand(&mut self, f: &mut Fast<'a>, slot: Slot) -> Option<u32> {
        let (name, at) = f.value()?;
        Some(match self.values.get(name) {
            Some(&v) => {
                if v == POISON {
                    0
                } else {
                    v
                }
            }
            None => {
                self.fixups.push(Fixup { slot, name, label: false, line: self.line, off: at });
                0
            }
        })
    }

    /// A label at the cursor, resolved as [`Parser::label_ref`] does.
    #[inline]
    fn fast_label(&mut self, f: &mut Fast<'a>, slot: Slot) -> Option<u32> {
        let at = f.i;
        let name = f.ident()?;
        Some(match self.labels.get(name) {
            Some(&blk) => blk,
            None => {
                self.fixups.push(Fixup { slot, name, label: true, line: self.line, off: at });
                0
            }
        })
    }

    /// Parses one instruction line; on error reports it and drops the line.
    fn instruction(&mut self, b: &mut FunctionBuilder, c: &mut Cur<'a>, start: usize, word: Option<&'a str>) {
        let mark = self.fixups.len();
        let mut result = None;
        if let Err(e) = self.instruction_inner(b, c, start, word, &mut result) {
            self.fixups.truncate(mark);
            if let Some(name) = result {
                self.values.entry(name).or_insert(POISON);
            }
            self.report(e);
        }
    }

    fn operand(&mut self, c: &mut Cur<'a>, slot: Slot) -> R<u32> {
        let (name, at) = c.value_name()?;
        match self.values.get(name) {
            Some(&v) => Ok(if v == POISON { 0 } else { v }),
            None => {
                self.fixups.push(Fixup { slot, name, label: false, line: self.line, off: at });
                Ok(0)
            }
        }
    }

    fn label_ref(&mut self, c: &mut Cur<'a>, slot: Slot) -> R<u32> {
        let (name, at) = c.expect_ident("a block label")?;
        match self.labels.get(name) {
            Some(&blk) => Ok(blk),
            None => {
                self.fixups.push(Fixup { slot, name, label: true, line: self.line, off: at });
                Ok(0)
            }
        }
    }

    fn comma(c: &mut Cur<'a>) -> R<()> {
        c.expect(b',')
    }

    /// `!weights T:F` and `!loc "FILE":LINE:COL`, then the end of the line.
    fn notes(&mut self, c: &mut Cur<'a>, op: Opcode) -> R<Notes> {
        let mut n = Notes::default();
        loop {
            c.skip_ws();
            let at = c.i;
            if !c.eat(b'!') {
                break;
            }
            match c.ident() {
                Some("weights") if n.loc.is_none() && n.weights.is_none() => {
                    if op != Opcode::CondBr {
                        return Err(perr("`!weights` is only allowed on `condbr`", at, c.i - at));
                    }
                    let t = c.unsigned(u32::MAX as u64, "a branch weight")? as u32;
                    if !c.eat(b':') {
                        return Err(c.expected("`:` between the branch weights"));
                    }
                    let f = c.unsigned(u32::MAX as u64, "a branch weight")? as u32;
                    n.weights = Some((t, f));
                }
                Some("loc") if n.loc.is_none() => {
                    c.skip_ws();
                    if c.peek() != Some(b'"') {
                        return Err(c.expected("a file name string after `!loc`"));
                    }
                    c.string(&mut self.loc_buf, false)?;
                    if !c.eat(b':') {
                        return Err(c.expected("`:` and a line number"));
                    }
                    let line = c.unsigned(u32::MAX as u64, "a line number")? as u32;
                    if !c.eat(b':') {
                        return Err(c.expected("`:` and a column number"));
                    }
                    let col = c.unsigned(u32::MAX as u64, "a column number")? as u32;
                    let file = match &self.loc_file {
                        Some((name, id)) if *name == self.loc_buf => *id,
                        _ => {
                            let id = self.m.files.intern(std::str::from_utf8(&self.loc_buf).unwrap_or(""));
                            self.loc_file = Some((self.loc_buf.clone(), id));
                            id
                        }
                    };
                    n.loc = Some(SrcLoc { file, line, col, implicit: false });
                }
                Some(w @ ("weights" | "loc")) => {
                    let msg = if w == "weights" && n.loc.is_some() {
                        "`!weights` must come before `!loc`".to_owned()
                    } else {
                        format!("duplicate `!{w}`")
                    };
                    return Err(perr(msg, at, c.i - at));
                }
                other => {
                    let w = other.unwrap_or("");
                    return Err(perr(format!("unknown annotation {}", show(&format!("!{w}"))), at, c.i - at));
                }
            }
        }
        c.expect_end()?;
        Ok(n)
    }

    fn instruction_inner(
        &mut self,
        b: &mut FunctionBuilder,
        c: &mut Cur<'a>,
        start: usize,
        word: Option<&'a str>,
        result: &mut Option<&'a str>,
    ) -> R<()> {
        if b.current_block().is_none() {
            let len = c.s.len().saturating_sub(start).clamp(1, 40);
            return Err(perr("instruction before the first block label", start, len));
        }
        let next = clamp_u32(b.function().body.num_insts());
        let xb = clamp_u32(b.function().body.extra.len());
        // The result part, `%name: TYPE =`, or the opcode word.
        let (res, op_word, op_at) = match word {
            Some(w) => (None, w, start),
            None => {
                let (name, at) = c.value_name()?;
                *result = Some(name);
                c.expect(b':')?;
                let ty = c.ty(&mut self.m.types)?;
                c.expect(b'=')?;
                let (w, w_at) = c.expect_ident("an opcode")?;
                (Some((name, at, ty)), w, w_at)
            }
        };
        if res.is_none() && op_word == "let" {
            let (name, at) = c.value_name()?;
            *result = Some(name);
            c.expect(b':')?;
            let ty = c.ty(&mut self.m.types)?;
            c.expect(b'=')?;
            let v = self.operand(c, Slot::Op { inst: next, k: 0 })?;
            let notes = self.notes(c, Opcode::Let)?;
            b.set_loc(Some(notes.loc.unwrap_or(self.here(start))));
            let id = b.push(Opcode::Let, Some(ty), [v, 0], Some(name));
            self.define(name, at, id.as_u32());
            return Ok(());
        }
        if res.is_none() && op_word == "set" {
            let t = self.operand(c, Slot::Op { inst: next, k: 0 })?;
            c.expect(b'=')?;
            let v = self.operand(c, Slot::Op { inst: next, k: 1 })?;
            let notes = self.notes(c, Opcode::Set)?;
            b.set_loc(Some(notes.loc.unwrap_or(self.here(start))));
            b.push(Opcode::Set, None, [t, v], None);
            return Ok(());
        }
        let Some(op) = self.opcode(op_word) else {
            return Err(perr(format!("unknown opcode {}", show(op_word)), op_at, op_word.len()));
        };
        let fmt = op.format();
        let shown = || show(op_word);
        match fmt {
            Format::Param => {
                return Err(perr(
                    "`param` is not an instruction; parameters are declared in the function header",
                    op_at,
                    op_word.len(),
                ))
            }
            Format::Let | Format::Set if res.is_some() => {
                let msg = if fmt == Format::Let { "write `let %x: T = %v`" } else { "write `set %x = %v`" };
                return Err(perr(format!("{} has no result; {msg}", shown()), op_at, op_word.len()));
            }
            _ if res.is_some() && !fmt.has_result() => {
                return Err(perr(format!("{} has no result", shown()), op_at, op_word.len()));
            }
            _ if res.is_none() && fmt.has_result() && fmt != Format::Call => {
                return Err(perr(
                    format!("{} needs a result: `%name: TYPE = {op_word} ...`", shown()),
                    op_at,
                    op_word.len(),
                ));
            }
            _ => {}
        }
        let op0 = Slot::Op { inst: next, k: 0 };
        let op1 = Slot::Op { inst: next, k: 1 };
        self.scratch.clear();
        let mut pending = None;
        let mut callee = "";
        let mut ops = [0u32, 0u32];
        match fmt {
            Format::Param | Format::Let | Format::Set => {}
            Format::Const => {
                let (_, _, ty) = res.unwrap_or(("", 0, TypeId::INT64));
                c.skip_ws();
                let dtype = self.scalar_dtype_of_result(ty, start, c)?;
                pending = Some(self.literal(c, dtype)?);
            }
            Format::Binary | Format::Load => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                ops[1] = self.operand(c, op1)?;
            }
            Format::Unary | Format::Alloc => ops[0] = self.operand(c, op0)?,
            Format::Store | Format::Select => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                let x = self.operand(c, Slot::Extra(xb))?;
                Self::comma(c)?;
                let y = self.operand(c, Slot::Extra(xb.saturating_add(1)))?;
                self.scratch.extend_from_slice(&[x, y]);
                ops[1] = xb;
            }
            Format::Axis => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                ops[1] = c.unsigned(u32::MAX as u64, "an axis")? as u32;
            }
            Format::Call => {
                let (name, _) = c.expect_ident("the called function's name")?;
                callee = name;
                if !c.eat(b'(') {
                    return Err(c.expected("`(` after the called function's name"));
                }
                self.scratch.push(0);
                c.skip_ws();
                if !c.eat(b')') {
                    loop {
                        let k = clamp_u32(self.scratch.len());
                        let a = self.operand(c, Slot::Extra(xb.saturating_add(k)))?;
                        self.scratch.push(a);
                        c.skip_ws();
                        if c.eat(b')') {
                            break;
                        }
                        if !c.eat(b',') {
                            return Err(c.expected("`,` or `)`"));
                        }
                    }
                }
                self.scratch[0] = clamp_u32(self.scratch.len() - 1);
                ops[1] = xb;
            }
            Format::GetField | Format::SetField => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                let (f, at) = c.expect_ident("a field name (`real` or `imag`)")?;
                let Some(field) = Field::from_name(f) else {
                    return Err(perr(format!("unknown field {} (expected `real` or `imag`)", show(f)), at, f.len()));
                };
                if fmt == Format::GetField {
                    ops[1] = field as u32;
                } else {
                    Self::comma(c)?;
                    let v = self.operand(c, Slot::Extra(xb.saturating_add(1)))?;
                    self.scratch.extend_from_slice(&[field as u32, v]);
                    ops[1] = xb;
                }
            }
            Format::IndexLoad | Format::IndexStore => {
                ops[0] = self.operand(c, op0)?;
                c.skip_ws();
                if !c.eat(b'[') {
                    return Err(c.expected("`[` and the indices"));
                }
                self.scratch.resize(1, 0);
                c.skip_ws();
                if !c.eat(b']') {
                    loop {
                        let k = clamp_u32(self.scratch.len());
                        let a = self.operand(c, Slot::Extra(xb.saturating_add(k)))?;
                        self.scratch.push(a);
                        c.skip_ws();
                        if c.eat(b']') {
                            break;
                        }
                        if !c.eat(b',') {
                            return Err(c.expected("`,` or `]`"));
                        }
                    }
                }
                self.scratch[0] = clamp_u32(self.scratch.len() - 1);
                if fmt == Format::IndexStore {
                    Self::comma(c)?;
                    let k = clamp_u32(self.scratch.len());
                    let x = self.operand(c, Slot::Extra(xb.saturating_add(k)))?;
                    self.scratch.push(x);
                }
                ops[1] = xb;
            }
            Format::Return => {
                c.skip_ws();
                ops[0] = if c.peek() == Some(b'%') { self.operand(c, op0)? } else { NO_VALUE };
            }
            Format::Br => ops[0] = self.label_ref(c, op0)?,
            Format::CondBr => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                let t = self.label_ref(c, Slot::Extra(xb))?;
                Self::comma(c)?;
                let f = self.label_ref(c, Slot::Extra(xb.saturating_add(1)))?;
                self.scratch.extend_from_slice(&[t, f, 0, 0]);
                ops[1] = xb;
            }
            Format::Unreachable => {}
        }
        let notes = self.notes(c, op)?;
        if let Some((t, f)) = notes.weights {
            self.scratch[2] = t;
            self.scratch[3] = f;
        }
        b.set_loc(Some(notes.loc.unwrap_or(self.here(start))));
        let ty = res.map(|(_, _, t)| t);
        let name = res.map(|(n, _, _)| n);
        let id = match pending {
            Some(p) => {
                let lit = match p {
                    PendingConst::Bool(x) => Literal::Bool(x),
                    PendingConst::Int(i) => Literal::Int(i),
                    PendingConst::Float(f) => Literal::Float(f),
                    PendingConst::Complex(r, i) => Literal::Complex(r, i),
                    PendingConst::Str => Literal::Str(std::str::from_utf8(&self.buf).unwrap_or("")),
                    PendingConst::Bytes => Literal::Bytes(&self.buf),
                };
                b.const_(ty.unwrap_or(TypeId::INT64), lit, name.unwrap_or(""))
            }
            None => {
                if !self.scratch.is_empty() {
                    b.extra(&self.scratch);
                }
                if fmt == Format::Call {
                    ops[0] = b.intern(callee).as_u32();
                }
                b.push(op, ty, ops, name)
            }
        };
        if let Some((name, at, _)) = res {
            self.define(name, at, id.as_u32());
        }
        Ok(())
    }

    /// The dtype of a `const` result, which must be a scalar type.
    fn scalar_dtype_of_result(&self, ty: TypeId, start: usize, c: &Cur<'a>) -> R<DType> {
        let t = self.m.types.get(ty);
        if t.is_array || t.is_output {
            // Point at the type after the result name.
            let colon = c.s.get(start..).and_then(|s| s.find(':')).map_or(start, |k| start + k + 1);
            let tstart = colon + c.s.get(colon..).map_or(0, |s| s.len() - s.trim_start().len());
            let len = t.to_string().len();
            return Err(perr(format!("`const` needs a scalar type, not `{t}`"), tstart, len));
        }
        Ok(t.dtype)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_both(text: &str) -> (String, String) {
        let run = |fast: bool| {
            let mut p = Parser::new("t.pir", text);
            p.fast = fast;
            match p.run() {
                Ok(m) => format!("{:?}", m.functions),
                Err(d) => format!("{d:?}"),
            }
        };
        (run(true), run(false))
    }

    fn texts() -> Vec<String> {
        let mut out: Vec<String> =
            (0..8).map(|s| crate::print::print_module(&crate::gen::large_module(3, 120, s))).collect();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut stack = vec![root.join("tests"), root.join("examples")];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "pir") {
                    if let Ok(t) = std::fs::read_to_string(&p) {
                        out.push(t);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn opcode_keys_resolve() {
        for &op in Opcode::ALL {
            assert_eq!(opcode_of_key(pack16(op.mnemonic().as_bytes()).unwrap()), Some(op));
        }
        assert_eq!(opcode_of_key(pack16(b"ad").unwrap()), None);
        assert_eq!(opcode_of_key(pack16(b"index.loadx").unwrap()), None);
    }

    /// The fast line path changes nothing: the same functions (columns,
    /// pools, locations) and the same diagnostics, on valid text and on
    /// text with damaged lines.
    #[test]
    fn fast_and_general_paths_agree() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n.max(1) as u64) as usize
        };
        const BITS: &[&str] = &[
            " ",
            "",
            "%",
            ",",
            ", ",
            ":",
            " = ",
            "[",
            "]",
            "(",
            ")",
            "\"",
            ";",
            "!",
            "x",
            "1",
            "-",
            "Int64",
            "&Int64",
            "Float32[]",
            "add",
            "call",
            "br",
            "let",
            "set",
            "return",
            "index.load",
            "\t",
            "é",
        ];
        let mut n = 0;
        for t in texts() {
            let (a, b) = parse_both(&t);
            assert_eq!(a, b);
            let lines: Vec<&str> = t.lines().collect();
            if lines.is_empty() {
                continue;
            }
            for _ in 0..30 {
                let mut ls: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
                for _ in 0..1 + rnd(4) {
                    let k = rnd(ls.len());
                    let l = &mut ls[k];
                    let mut at = rnd(l.len() + 1);
                    while !l.is_char_boundary(at) {
                        at -= 1;
                    }
                    let mut end = (at + rnd(4)).min(l.len());
                    while !l.is_char_boundary(end) {
                        end -= 1;
                    }
                    l.replace_range(at..end.max(at), BITS[rnd(BITS.len())]);
                }
                let (a, b) = parse_both(&ls.join("\n"));
                assert_eq!(a, b);
                n += 1;
            }
        }
        assert!(n > 100);
    }
}
