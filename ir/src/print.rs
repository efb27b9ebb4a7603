//! The `.pir` printer: the canonical text form of a module.
//!
//! Output is written straight into one byte buffer (every piece is UTF-8,
//! names are copied as the pool holds them, without re-validation) and
//! checked once at the end; type spellings are rendered once per module.
//! Floats print so they re-read bit-exactly.

use crate::body::{Body, InstData, Literal, ValueId};
use crate::dtype::DType;
use crate::entity::EntityId;
use crate::loc::{FileTable, Unpacked};
use crate::module::{FuncId, Function, Module};
use crate::opcode::{Format, Opcode};
use crate::types::{TypeId, TypeTable};
use std::io::Write;

/// Prints a whole module.
pub fn print_module(m: &Module) -> String {
    let mut p = Printer::new(m);
    p.out.reserve(m.num_insts() * 40 + 256);
    p.header();
    for f in m.functions.iter() {
        p.out.push(b'\n');
        p.function(f);
    }
    into_string(p.out)
}

/// Prints one function of a module.
pub fn print_function(m: &Module, f: FuncId) -> String {
    print_function_with(&m.types, &m.files, &m.functions[f])
}

/// Prints a function given its module's type and file tables (a pass
/// manager holds these while the module's functions are borrowed apart).
pub fn print_function_with(types: &TypeTable, files: &FileTable, f: &Function) -> String {
    let mut p = Printer::with_tables(None, types, files);
    p.function(f);
    into_string(p.out)
}

/// Every piece written is UTF-8, so this never loses anything.
fn into_string(out: Vec<u8>) -> String {
    match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

fn type_names(types: &TypeTable) -> Vec<String> {
    types.iter().map(|(_, t)| t.to_string()).collect()
}

struct Printer<'m> {
    m: Option<&'m Module>,
    types: &'m TypeTable,
    files: &'m FileTable,
    out: Vec<u8>,
    type_names: Vec<String>,
    /// The type spellings of at most 16 bytes, zero-padded, with their
    /// lengths (0: use `type_names`).
    short_types: Vec<([u8; 16], u8)>,
}

impl<'m> Printer<'m> {
    fn new(m: &'m Module) -> Printer<'m> {
        Printer::with_tables(Some(m), &m.types, &m.files)
    }

    fn with_tables(m: Option<&'m Module>, types: &'m TypeTable, files: &'m FileTable) -> Printer<'m> {
        let type_names = type_names(types);
        let short_types = type_names.iter().map(|s| pad16(s.as_bytes())).collect();
        Printer { m, types, files, out: Vec::new(), type_names, short_types }
    }

    #[inline]
    fn s(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    #[inline]
    fn c(&mut self, c: u8) {
        self.out.push(c);
    }

    #[inline]
    fn ty(&mut self, t: TypeId) {
        if let Some(&(w, n)) = self.short_types.get(t.index()) {
            if n != 0 {
                put16(&mut self.out, &w, n as usize);
                return;
            }
        }
        match self.type_names.get(t.index()) {
            Some(s) => self.out.extend_from_slice(s.as_bytes()),
            None => self.out.extend_from_slice(b"<bad type>"),
        }
    }

    fn header(&mut self) {
        let Some(m) = self.m else { return };
        self.s("module ");
        self.s(&m.name);
        self.c(b'\n');
        if let Some(doc) = &m.doc {
            self.s("doc ");
            string_literal_bytes(&mut self.out, doc);
            self.c(b'\n');
        }
        for imp in m.post_imports.values() {
            self.import_line("post", imp);
        }
        for (local, sym) in &m.intrinsic_imports {
            self.s("import intrinsic ");
            self.s(local);
            self.s(" = ");
            self.s(sym);
            self.c(b'\n');
        }
        for imp in m.boundary_imports.values() {
            self.import_line("boundary", imp);
        }
        for dep in &m.dependencies {
            if !m.post_imports.values().any(|i| &i.module_name == dep) {
                self.s("depends ");
                self.s(dep);
                self.c(b'\n');
            }
        }
        for (name, c) in &m.constants {
            self.s("const ");
            self.s(name);
            self.s(": ");
            self.ty(c.ty);
            self.s(" = ");
            let dtype = self.types.try_get(c.ty).map_or(DType::Int64, |t| t.dtype);
            literal_bytes(&mut self.out, dtype, c.value.as_literal());
            self.c(b'\n');
        }
        for (alias, target) in &m.function_aliases {
            self.s("alias ");
            self.s(alias);
            self.s(" = ");
            self.s(target);
            self.c(b'\n');
        }
        if let Some(all) = &m.export_all {
            self.s("export");
            for (i, n) in all.iter().enumerate() {
                self.s(if i == 0 { " " } else { ", " });
                self.s(n);
            }
            self.c(b'\n');
        }
    }

    fn import_line(&mut self, kind: &str, imp: &crate::module::ImportedName) {
        self.s("import ");
        self.s(kind);
        self.c(b' ');
        self.s(&imp.module_name);
        self.s(": ");
        self.s(&imp.source_name);
        if imp.local_name != imp.source_name {
            self.s(" as ");
            self.s(&imp.local_name);
        }
        self.c(b'\n');
    }

    #[inline]
    fn value(&mut self, b: &Body, v: ValueId) {
        self.out.push(b'%');
        match b.names.get(v).copied().flatten() {
            Some(n) => b.strings.append_to(n, &mut self.out),
            None => self.out.extend_from_slice(b"<invalid>"),
        }
    }

    fn params(&mut self, b: &Body, vs: impl Iterator<Item = ValueId>) {
        for (i, v) in vs.enumerate() {
            if i > 0 {
                self.s(", ");
            }
            self.value(b, v);
            self.s(": ");
            match b.types[v] {
                Some(t) => self.ty(t),
                None => self.s("<no type>"),
            }
        }
    }

    #[inline]
    fn label(&mut self, b: &Body, blk: crate::BlockId) {
        match b.blocks.get(blk) {
            Some(d) => b.strings.append_to(d.label, &mut self.out),
            None => self.out.extend_from_slice(b"<invalid block>"),
        }
    }

    fn function(&mut self, f: &Function) {
        let b = &f.body;
        self.out.reserve(b.num_insts() * 40 + 64);
        self.s(if f.is_ufunc() { "ufunc " } else { "func " });
        self.s(&f.name);
        self.c(b'(');
        self.params(b, b.params());
        self.c(b')');
        if let Some(t) = f.ret {
            self.s(" -> ");
            self.ty(t);
        }
        if let Some(sig) = &f.ufunc_sig {
            self.s(" \"");
            self.s(&sig.to_string());
            self.c(b'"');
            if b.num_core > 0 {
                self.s(" core(");
                self.params(b, b.core_dim_params());
                self.c(b')');
            }
        }
        if !f.attrs.is_empty() {
            self.c(b' ');
            self.s(&f.attrs.to_string());
        }
        self.s(" {\n");
        if let Some(doc) = &f.doc {
            self.s("  doc ");
            string_literal_bytes(&mut self.out, doc);
            self.c(b'\n');
        }
        for (blk, data) in b.blocks.iter_enumerated() {
            self.label(b, blk);
            self.s(":\n");
            for v in data.insts() {
                if v.index() >= b.num_insts() {
                    break;
                }
                self.s("  ");
                self.inst(b, v);
                self.c(b'\n');
            }
        }
        self.s("}\n");
    }

    fn itoa(&mut self, x: u32) {
        self.out.extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
    }

    /// One instruction: straight from its format and raw payload; any
    /// payload the fast path does not handle is printed by
    /// [`Printer::inst_decoded`] instead (the same text).
    #[inline]
    fn inst(&mut self, b: &Body, v: ValueId) {
        let mark = self.out.len();
        if !self.inst_raw(b, v) {
            self.out.truncate(mark);
            self.inst_decoded(b, v);
        }
    }

    /// `%name` of a raw value slot (`<invalid>` out of range or unnamed).
    #[inline]
    fn raw_value(&mut self, b: &Body, x: u32) {
        self.out.push(b'%');
        match b.names.raw().get(x as usize).copied().flatten() {
            Some(n) => b.strings.append_to(n, &mut self.out),
            None => self.out.extend_from_slice(b"<invalid>"),
        }
    }

    #[inline]
    fn raw_label(&mut self, b: &Body, x: u32) {
        match b.blocks.raw().get(x as usize) {
            Some(d) => b.strings.append_to(d.label, &mut self.out),
            None => self.out.extend_from_slice(b"<invalid block>"),
        }
    }

    /// A comma-separated list of raw value slots.
    #[inline]
    fn raw_values(&mut self, b: &Body, xs: &[u32]) {
        for (i, &x) in xs.iter().enumerate() {
            if i > 0 {
                self.out.extend_from_slice(b", ");
            }
            self.raw_value(b, x);
        }
    }

    /// The fast path of [`Printer::inst`]; false (with anything written
    /// left for the caller to cut) when the payload needs the decoded path.
    #[inline]
    fn inst_raw(&mut self, b: &Body, v: ValueId) -> bool {
        let i = v.index();
        let (Some(&op), Some(&ty), Some(&[p, q])) = (b.tags.raw().get(i), b.types.raw().get(i), b.ops.raw().get(i))
        else {
            return false;
        };
        let fmt = op.format();
        let ex = &b.extra[..];
        let exs = |at: u32, n: usize| ex.get(at as usize..(at as usize).checked_add(n)?);
        if let (Some(t), false) = (ty, fmt == Format::Let) {
            self.value(b, v);
            self.out.extend_from_slice(b": ");
            self.ty(t);
            self.out.extend_from_slice(b" = ");
        }
        let (mw, mn) = MNEMONICS[op as usize];
        match fmt {
            Format::Param => return false,
            Format::Const => {
                let Some(dtype) = ty.and_then(|t| DType::from_index(t.as_u32())) else { return false };
                self.out.extend_from_slice(b"const ");
                let wide = (p as u64) | ((q as u64) << 32);
                match dtype {
                    DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
                        self.out.extend_from_slice(itoa::Buffer::new().format(wide as i64).as_bytes())
                    }
                    DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
                        self.out.extend_from_slice(itoa::Buffer::new().format(wide).as_bytes())
                    }
                    DType::Bool => self.out.extend_from_slice(if p != 0 { b"true" } else { b"false" }),
                    DType::Float16 | DType::Float32 => float_literal_bytes(&mut self.out, dtype, p as u64),
                    DType::Float64 => float_literal_bytes(&mut self.out, dtype, wide),
                    _ => return false,
                }
            }
            Format::Binary | Format::Load | Format::RawOffset | Format::RawStore | Format::TextByte => {
                put16(&mut self.out, &mw, mn);
                self.raw_value(b, p);
                self.out.extend_from_slice(b", ");
                self.raw_value(b, q);
            }
            Format::Alloc | Format::View | Format::RawView | Format::Tuple => return false,
            Format::Unary | Format::RawLoad | Format::RawData => {
                put16(&mut self.out, &mw, mn);
                self.raw_value(b, p);
            }
            Format::Store | Format::Select => {
                let Some(&[x, y]) = exs(q, 2) else { return false };
                put16(&mut self.out, &mw, mn);
                self.raw_value(b, p);
                self.out.extend_from_slice(b", ");
                self.raw_value(b, x);
                self.out.extend_from_slice(b", ");
                self.raw_value(b, y);
            }
            Format::Axis | Format::RawRead | Format::Extract => {
                put16(&mut self.out, &mw, mn);
                self.raw_value(b, p);
                self.out.extend_from_slice(b", ");
                self.itoa(q);
            }
            Format::Call => {
                let Some(&[n]) = exs(q, 1) else { return false };
                let Some(args) = exs(q.wrapping_add(1), n as usize) else { return false };
                if p == u32::MAX {
                    return false;
                }
                self.out.extend_from_slice(b"call ");
                self.s(b.strings.get(crate::NameId::from_u32(p)));
                self.c(b'(');
                self.raw_values(b, args);
                self.c(b')');
            }
            Format::Let => {
                self.out.extend_from_slice(b"let ");
                self.value(b, v);
                self.out.extend_from_slice(b": ");
                if let Some(t) = ty {
                    self.ty(t);
                }
                self.out.extend_from_slice(b" = ");
                self.raw_value(b, p);
            }
            Format::Set => {
                self.out.extend_from_slice(b"set ");
                self.raw_value(b, p);
                self.out.extend_from_slice(b" = ");
                self.raw_value(b, q);
            }
            Format::GetField => {
                let Some(field) = crate::body::Field::from_u32(q) else { return false };
                self.out.extend_from_slice(b"getfield ");
                self.raw_value(b, p);
                self.out.extend_from_slice(b", ");
                self.s(field.name());
            }
            Format::SetField => {
                let Some(&[f, x]) = exs(q, 2) else { return false };
                let Some(field) = crate::body::Field::from_u32(f) else { return false };
                self.out.extend_from_slice(b"setfield ");
                self.raw_value(b, p);
                self.out.extend_from_slice(b", ");
                self.s(field.name());
                self.out.extend_from_slice(b", ");
                self.raw_value(b, x);
            }
            Format::IndexLoad | Format::IndexStore => {
                let Some(&[n]) = exs(q, 1) else { return false };
                let Some(idx) = exs(q.wrapping_add(1), n as usize) else { return false };
                put16(&mut self.out, &mw, mn);
                self.raw_value(b, p);
                self.c(b'[');
                self.raw_values(b, idx);
                self.c(b']');
                if fmt == Format::IndexStore {
                    let Some(&[x]) = exs(q.wrapping_add(1).wrapping_add(n), 1) else { return false };
                    self.out.extend_from_slice(b", ");
                    self.raw_value(b, x);
                }
            }
            Format::Return => {
                self.out.extend_from_slice(b"return");
                if p != crate::body::NO_VALUE {
                    self.c(b' ');
                    self.raw_value(b, p);
                }
            }
            Format::Br => {
                self.out.extend_from_slice(b"br ");
                self.raw_label(b, p);
            }
            Format::CondBr => {
                let Some(&[t, f, wt, wf]) = exs(q, 4) else { return false };
                self.out.extend_from_slice(b"condbr ");
                self.raw_value(b, p);
                self.out.extend_from_slice(b", ");
                self.raw_label(b, t);
                self.out.extend_from_slice(b", ");
                self.raw_label(b, f);
                if wt != 0 || wf != 0 {
                    self.out.extend_from_slice(b" !weights ");
                    self.itoa(wt);
                    self.c(b':');
                    self.itoa(wf);
                }
            }
            Format::Unreachable => self.out.extend_from_slice(b"unreachable"),
        }
        self.loc_note(b, v);
        true
    }

    /// ` !loc "FILE":LINE:COL` for an explicit location.
    #[inline]
    fn loc_note(&mut self, b: &Body, v: ValueId) {
        // Most locations are none or implicit: nothing to print.
        if !matches!(b.locs[v].unpack(), None | Some(Unpacked::Inline { implicit: true, .. })) {
            if let Some(l) = b.loc(v).filter(|l| !l.implicit) {
                self.s(" !loc ");
                string_literal_bytes(&mut self.out, self.files.path(l.file));
                self.c(b':');
                self.itoa(l.line);
                self.c(b':');
                self.itoa(l.col);
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn inst_decoded(&mut self, b: &Body, v: ValueId) {
        let data = b.inst(v);
        let ty = b.types[v];
        let op = b.tags[v];
        if let (Some(t), false) = (ty, matches!(data, InstData::Let { .. })) {
            self.value(b, v);
            self.s(": ");
            self.ty(t);
            self.s(" = ");
        }
        match data {
            InstData::Param { .. } => self.s("param"),
            InstData::Const(lit) => {
                self.s("const ");
                let dtype = ty.and_then(|t| DType::from_index(t.as_u32())).unwrap_or(DType::Int64);
                match lit {
                    Literal::Int(i) => self.out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes()),
                    _ => literal_bytes(&mut self.out, dtype, lit),
                }
            }
            InstData::Binary { left, right, .. }
            | InstData::Load { array: left, offset: right }
            | InstData::RawOffset { address: left, bytes: right }
            | InstData::RawStore { address: left, value: right }
            | InstData::TextByte { text: left, index: right } => {
                self.s(op.mnemonic());
                self.c(b' ');
                self.value(b, left);
                self.s(", ");
                self.value(b, right);
            }
            InstData::Alloc { dims } => {
                self.s(op.mnemonic());
                self.c(b' ');
                for (k, d) in dims.iter().enumerate() {
                    if k > 0 {
                        self.s(", ");
                    }
                    self.value(b, d);
                }
            }
            InstData::View { base, offset, extents, strides }
            | InstData::RawView { address: base, offset, extents, strides } => {
                self.s(op.mnemonic());
                self.c(b' ');
                self.value(b, base);
                self.s(", ");
                self.value(b, offset);
                for list in [extents, strides] {
                    self.s(", [");
                    for (k, x) in list.iter().enumerate() {
                        if k > 0 {
                            self.s(", ");
                        }
                        self.value(b, x);
                    }
                    self.c(b']');
                }
            }
            InstData::Unary { operand, .. }
            | InstData::Cast { operand }
            | InstData::Bitcast { operand }
            | InstData::RawLoad { address: operand }
            | InstData::RawData { array: operand } => {
                self.s(op.mnemonic());
                self.c(b' ');
                self.value(b, operand);
            }
            InstData::Store { array, offset, value } => {
                self.s("store ");
                self.value(b, array);
                self.s(", ");
                self.value(b, offset);
                self.s(", ");
                self.value(b, value);
            }
            InstData::Dim { array, axis }
            | InstData::Stride { array, axis }
            | InstData::RawRead { base: array, index: axis, .. }
            | InstData::Extract { tuple: array, index: axis } => {
                self.s(op.mnemonic());
                self.c(b' ');
                self.value(b, array);
                self.s(", ");
                self.itoa(axis);
            }
            InstData::Call { callee, args } => {
                self.s("call ");
                self.s(callee);
                self.c(b'(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.value(b, a);
                }
                self.c(b')');
            }
            InstData::Let { value } => {
                self.s("let ");
                self.value(b, v);
                self.s(": ");
                if let Some(t) = ty {
                    self.ty(t);
                }
                self.s(" = ");
                self.value(b, value);
            }
            InstData::Set { target, value } => {
                self.s("set ");
                self.value(b, target);
                self.s(" = ");
                self.value(b, value);
            }
            InstData::Select { cond, if_true, if_false } => {
                self.s("select ");
                self.value(b, cond);
                self.s(", ");
                self.value(b, if_true);
                self.s(", ");
                self.value(b, if_false);
            }
            InstData::GetField { aggregate, field } => {
                self.s("getfield ");
                self.value(b, aggregate);
                self.s(", ");
                self.s(field.name());
            }
            InstData::SetField { aggregate, field, value } => {
                self.s("setfield ");
                self.value(b, aggregate);
                self.s(", ");
                self.s(field.name());
                self.s(", ");
                self.value(b, value);
            }
            InstData::IndexLoad { array, indices } | InstData::IndexStore { array, indices, .. } => {
                self.s(op.mnemonic());
                self.c(b' ');
                self.value(b, array);
                self.c(b'[');
                for (i, x) in indices.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.value(b, x);
                }
                self.c(b']');
                if let InstData::IndexStore { value, .. } = data {
                    self.s(", ");
                    self.value(b, value);
                }
            }
            InstData::Return { value } => {
                self.s("return");
                if let Some(x) = value {
                    self.c(b' ');
                    self.value(b, x);
                }
            }
            InstData::Br { target } => {
                self.s("br ");
                self.label(b, target);
            }
            InstData::CondBr { cond, if_true, if_false, weights } => {
                self.s("condbr ");
                self.value(b, cond);
                self.s(", ");
                self.label(b, if_true);
                self.s(", ");
                self.label(b, if_false);
                if let Some((t, f)) = weights {
                    self.s(" !weights ");
                    self.itoa(t);
                    self.c(b':');
                    self.itoa(f);
                }
            }
            InstData::Unreachable => self.s("unreachable"),
            InstData::Tuple { elements } => {
                self.s("tuple ");
                for (i, x) in elements.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.value(b, x);
                }
            }
            InstData::Malformed => self.s("<malformed>"),
        }
        self.loc_note(b, v);
    }
}

/// Up to 16 bytes, zero-padded, and their length (0 for longer or empty).
const fn pad16(b: &[u8]) -> ([u8; 16], u8) {
    let mut w = [0u8; 16];
    if b.len() > 16 {
        return (w, 0);
    }
    let mut i = 0;
    while i < b.len() {
        w[i] = b[i];
        i += 1;
    }
    (w, b.len() as u8)
}

/// Appends the first `n` bytes of `w` (one fixed-size copy, then a cut).
#[inline(always)]
fn put16(out: &mut Vec<u8>, w: &[u8; 16], n: usize) {
    out.extend_from_slice(w);
    out.truncate(out.len() - 16 + n.min(16));
}

/// Each opcode's mnemonic and a space, padded (by opcode number).
const MNEMONICS: [([u8; 16], usize); Opcode::ALL.len()] = {
    let mut t = [([0u8; 16], 0usize); Opcode::ALL.len()];
    let mut i = 0;
    while i < Opcode::ALL.len() {
        let m = Opcode::ALL[i].mnemonic().as_bytes();
        let mut w = [0u8; 16];
        let mut k = 0;
        while k < m.len() && k < 15 {
            w[k] = m[k];
            k += 1;
        }
        w[k] = b' ';
        t[i] = (w, k + 1);
        i += 1;
    }
    t
};

/// The canonical quiet NaN of each float width; others print their bits.
fn canonical_nan(dtype: DType) -> u64 {
    match dtype {
        DType::Float16 => 0x7e00,
        DType::Float32 | DType::Complex64 => 0x7fc0_0000,
        _ => 0x7ff8_0000_0000_0000,
    }
}

/// Runs a byte-buffer writer on a `String`.
fn into_str(out: &mut String, f: impl FnOnce(&mut Vec<u8>)) {
    let mut buf = Vec::new();
    f(&mut buf);
    out.push_str(&String::from_utf8_lossy(&buf));
}

/// Appends a float of `dtype`'s width given by its bits, so that parsing
/// it back (f64 → rounded to the width; Float32 parsed directly) gives the
/// same bits.
pub fn float_literal(out: &mut String, dtype: DType, bits: u64) {
    into_str(out, |b| float_literal_bytes(b, dtype, bits))
}

fn float_literal_bytes(out: &mut Vec<u8>, dtype: DType, bits: u64) {
    let x = crate::body::float_bits_to_f64(dtype, bits);
    if x.is_nan() {
        if bits == canonical_nan(dtype) {
            out.extend_from_slice(b"nan");
        } else {
            let _ = write!(out, "nan:0x{bits:x}");
        }
        return;
    }
    if x.is_infinite() {
        out.extend_from_slice(if x < 0.0 { b"-inf" } else { b"inf" });
        return;
    }
    let _ = match dtype {
        DType::Float32 | DType::Complex64 => write!(out, "{:?}", f32::from_bits(bits as u32)),
        DType::Float16 => {
            // The shortest decimal that reads back to the same half.
            for p in 0..8 {
                let s = format!("{x:.p$e}");
                if let Ok(y) = s.parse::<f64>() {
                    if crate::body::f16_from_f64(y).to_bits() as u64 == bits {
                        let _ = write!(out, "{y:?}");
                        return;
                    }
                }
            }
            write!(out, "{x:?}")
        }
        _ => write!(out, "{x:?}"),
    };
}

/// Appends a literal of a `dtype` constant.
pub fn literal(out: &mut String, dtype: DType, lit: Literal<'_>) {
    into_str(out, |b| literal_bytes(b, dtype, lit))
}

fn literal_bytes(out: &mut Vec<u8>, dtype: DType, lit: Literal<'_>) {
    match lit {
        Literal::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
        Literal::Int(i) => out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes()),
        Literal::Float(bits) => float_literal_bytes(out, dtype, bits),
        Literal::Complex(re, im) => {
            let part = dtype.complex_part().unwrap_or(DType::Float64);
            let sign_bit = if part == DType::Float32 { 1u64 << 31 } else { 1u64 << 63 };
            let im_nan = crate::body::float_bits_to_f64(part, im).is_nan();
            out.push(b'(');
            float_literal_bytes(out, part, re);
            if im & sign_bit != 0 && !im_nan {
                out.push(b'-');
                float_literal_bytes(out, part, im & !sign_bit);
            } else {
                out.push(b'+');
                float_literal_bytes(out, part, im);
            }
            out.extend_from_slice(b"j)");
        }
        Literal::Str(s) => string_literal_bytes(out, s),
        Literal::Bytes(b) => {
            out.extend_from_slice(b"b\"");
            for &c in b {
                escape_byte(out, c);
            }
            out.push(b'"');
        }
    }
}

fn escape_byte(out: &mut Vec<u8>, c: u8) {
    match c {
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'"' => out.extend_from_slice(b"\\\""),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\t' => out.extend_from_slice(b"\\t"),
        b'\r' => out.extend_from_slice(b"\\r"),
        0 => out.extend_from_slice(b"\\0"),
        0x20..=0x7e => out.push(c),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\x");
            out.push(HEX[(c >> 4) as usize]);
            out.push(HEX[(c & 15) as usize]);
        }
    }
}

/// Appends a quoted, escaped string literal.
pub fn string_literal(out: &mut String, s: &str) {
    into_str(out, |b| string_literal_bytes(b, s))
}

fn string_literal_bytes(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    for ch in s.chars() {
        if ch.is_ascii() {
            escape_byte(out, ch as u8);
        } else if ch.is_control() {
            let _ = write!(out, "\\u{{{:x}}}", ch as u32);
        } else {
            let mut tmp = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::FunctionBuilder;
    use crate::opcode::Opcode;
    use crate::types::{Layout, Shape, TypeData};

    fn lit(dtype: DType, l: Literal<'_>) -> String {
        let mut s = String::new();
        literal(&mut s, dtype, l);
        s
    }

    #[test]
    fn floats_print_shortest_and_exact() {
        assert_eq!(lit(DType::Float64, Literal::Float(1.5f64.to_bits())), "1.5");
        assert_eq!(lit(DType::Float64, Literal::Float((-0.0f64).to_bits())), "-0.0");
        assert_eq!(lit(DType::Float32, Literal::Float(0.1f32.to_bits() as u64)), "0.1");
        assert_eq!(lit(DType::Float16, Literal::Float(crate::body::f16_from_f64(0.1).to_bits() as u64)), "0.1");
        assert_eq!(lit(DType::Float64, Literal::Float(f64::NAN.to_bits())), "nan");
        assert_eq!(lit(DType::Float32, Literal::Float(0x7fa0_0001)), "nan:0x7fa00001");
        assert_eq!(lit(DType::Float64, Literal::Float(f64::NEG_INFINITY.to_bits())), "-inf");
        let c = Literal::Complex(1.5f64.to_bits(), (-2.0f64).to_bits());
        assert_eq!(lit(DType::Complex128, c), "(1.5-2.0j)");
        let c = Literal::Complex(f64::NAN.to_bits(), f64::INFINITY.to_bits());
        assert_eq!(lit(DType::Complex128, c), "(nan+infj)");
    }

    #[test]
    fn every_f16_prints_to_itself() {
        for bits in 0..=u16::MAX {
            let h = half::f16::from_bits(bits);
            if h.is_nan() {
                continue;
            }
            let mut s = String::new();
            float_literal(&mut s, DType::Float16, bits as u64);
            let back = match s.as_str() {
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                _ => s.parse::<f64>().unwrap(),
            };
            assert_eq!(crate::body::f16_from_f64(back).to_bits(), bits, "{s}");
        }
    }

    #[test]
    fn strings_and_bytes_escape() {
        assert_eq!(lit(DType::Str, Literal::Str("a\"b\\\n\té")), "\"a\\\"b\\\\\\n\\té\"");
        assert_eq!(lit(DType::Bytes, Literal::Bytes(&[0, 255, b'a'])), "b\"\\0\\xffa\"");
    }

    /// Every `.pir` file of the repository that parses.
    fn repo_modules() -> Vec<Module> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut stack = vec![root.join("tests"), root.join("examples")];
        let mut out = Vec::new();
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "pir") {
                    if let Ok(m) = crate::parse::parse_module("t.pir", &std::fs::read(&p).unwrap()) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// The raw-payload path prints exactly what the decoded path prints,
    /// on sound bodies and on bodies with scrambled payloads.
    #[test]
    fn raw_and_decoded_paths_agree() {
        let mut mods: Vec<Module> = (0..12).map(|s| crate::gen::large_module(4, 150, s)).collect();
        mods.extend(repo_modules());
        assert!(mods.len() > 12);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
        for round in 0..2 {
            for m in &mods {
                let mut m = m.clone();
                if round == 1 {
                    for f in m.functions.iter_mut() {
                        let b = &mut f.body;
                        let n = b.num_insts() as u64;
                        for o in b.ops.iter_mut() {
                            // Stay below u32::MAX: the decoded view panics on it.
                            if rnd() % 4 == 0 {
                                o[(rnd() % 2) as usize] = (rnd() % (n + 8)) as u32;
                            }
                        }
                        for x in b.extra.iter_mut() {
                            if rnd() % 4 == 0 {
                                *x = (rnd() % (n + 8)) as u32;
                            }
                        }
                    }
                }
                let mut p = Printer::new(&m);
                for f in m.functions.iter() {
                    for v in f.body.tags.ids() {
                        p.out.clear();
                        if !p.inst_raw(&f.body, v) {
                            continue;
                        }
                        let fast = std::mem::take(&mut p.out);
                        p.inst_decoded(&f.body, v);
                        assert_eq!(String::from_utf8_lossy(&fast), String::from_utf8_lossy(&p.out));
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn prints_a_function() {
        let mut m = Module::new("demo");
        let arr = m.types.intern(TypeData::array(DType::Float64, Shape::dims(&[None]), Layout::COrder).output());
        let mut b = FunctionBuilder::new("f");
        let x = b.param("x", TypeId::INT64);
        let out = b.param("out", arr);
        b.set_return(Some(TypeId::INT64));
        let e = b.create_block("entry");
        b.switch_to(e);
        let one = b.int(TypeId::INT64, 1, "one");
        let s = b.binary(Opcode::Add, TypeId::INT64, x, one, "s");
        let z = b.const_(TypeId::FLOAT64, Literal::Float(0f64.to_bits()), "z");
        b.index_store(out, &[x], z);
        b.ret(Some(s));
        m.add_function(b.finish());
        let text = print_module(&m);
        assert_eq!(
            text,
            "module demo\n\nfunc f(%x: Int64, %out: &Float64[]Shape[?]) -> Int64 {\nentry:\n  %one: Int64 = const 1\n  \
             %s: Int64 = add %x, %one\n  %z: Float64 = const 0.0\n  index.store %out[%x], %z\n  return %s\n}\n"
        );
    }
}
