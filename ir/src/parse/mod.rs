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

mod decls;
mod fast;
mod inst;
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
                Some(kw @ ("import" | "depends" | "const" | "alias" | "export" | "doc")) => {
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
}
