//! The `.pir` printer: the canonical text form of a module.
//!
//! Output is written straight into one `String`; type spellings are
//! rendered once per module. Floats print so they re-read bit-exactly.

use crate::body::{Body, InstData, Literal, ValueId};
use crate::dtype::DType;
use crate::entity::EntityId;
use crate::loc::FileTable;
use crate::module::{FuncId, Function, Module};
use crate::types::{TypeId, TypeTable};

/// Prints a whole module.
pub fn print_module(m: &Module) -> String {
    let mut p = Printer::new(m);
    p.out.reserve(m.num_insts() * 32 + 256);
    p.header();
    for f in m.functions.iter() {
        p.out.push('\n');
        p.function(f);
    }
    p.out
}

/// Prints one function of a module.
pub fn print_function(m: &Module, f: FuncId) -> String {
    print_function_with(&m.types, &m.files, &m.functions[f])
}

/// Prints a function given its module's type and file tables (a pass
/// manager holds these while the module's functions are borrowed apart).
pub fn print_function_with(types: &TypeTable, files: &FileTable, f: &Function) -> String {
    let mut p = Printer { m: None, types, files, out: String::new(), type_names: type_names(types) };
    p.function(f);
    p.out
}

fn type_names(types: &TypeTable) -> Vec<String> {
    types.iter().map(|(_, t)| t.to_string()).collect()
}

struct Printer<'m> {
    m: Option<&'m Module>,
    types: &'m TypeTable,
    files: &'m FileTable,
    out: String,
    type_names: Vec<String>,
}

impl<'m> Printer<'m> {
    fn new(m: &'m Module) -> Printer<'m> {
        Printer { m: Some(m), types: &m.types, files: &m.files, out: String::new(), type_names: type_names(&m.types) }
    }

    fn ty(&mut self, t: TypeId) {
        match self.type_names.get(t.index()) {
            Some(s) => self.out.push_str(s),
            None => self.out.push_str("<bad type>"),
        }
    }

    fn header(&mut self) {
        let Some(m) = self.m else { return };
        self.out.push_str("module ");
        self.out.push_str(&m.name);
        self.out.push('\n');
        for imp in m.post_imports.values() {
            self.import_line("post", imp);
        }
        for (local, sym) in &m.intrinsic_imports {
            self.out.push_str("import intrinsic ");
            self.out.push_str(local);
            self.out.push_str(" = ");
            self.out.push_str(sym);
            self.out.push('\n');
        }
        for imp in m.boundary_imports.values() {
            self.import_line("boundary", imp);
        }
        for dep in &m.dependencies {
            if !m.post_imports.values().any(|i| &i.module_name == dep) {
                self.out.push_str("depends ");
                self.out.push_str(dep);
                self.out.push('\n');
            }
        }
        for (name, c) in &m.constants {
            self.out.push_str("const ");
            self.out.push_str(name);
            self.out.push_str(": ");
            self.ty(c.ty);
            self.out.push_str(" = ");
            let dtype = self.types.try_get(c.ty).map_or(DType::Int64, |t| t.dtype);
            literal(&mut self.out, dtype, c.value.as_literal());
            self.out.push('\n');
        }
        for (alias, target) in &m.function_aliases {
            self.out.push_str("alias ");
            self.out.push_str(alias);
            self.out.push_str(" = ");
            self.out.push_str(target);
            self.out.push('\n');
        }
        if let Some(all) = &m.export_all {
            self.out.push_str("export");
            for (i, n) in all.iter().enumerate() {
                self.out.push_str(if i == 0 { " " } else { ", " });
                self.out.push_str(n);
            }
            self.out.push('\n');
        }
    }

    fn import_line(&mut self, kind: &str, imp: &crate::module::ImportedName) {
        self.out.push_str("import ");
        self.out.push_str(kind);
        self.out.push(' ');
        self.out.push_str(&imp.module_name);
        self.out.push_str(": ");
        self.out.push_str(&imp.source_name);
        if imp.local_name != imp.source_name {
            self.out.push_str(" as ");
            self.out.push_str(&imp.local_name);
        }
        self.out.push('\n');
    }

    fn value(&mut self, b: &Body, v: ValueId) {
        self.out.push('%');
        match b.names.get(v).copied().flatten() {
            Some(n) => self.out.push_str(b.strings.get(n)),
            None => self.out.push_str("<invalid>"),
        }
    }

    fn params(&mut self, b: &Body, vs: impl Iterator<Item = ValueId>) {
        for (i, v) in vs.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(b, v);
            self.out.push_str(": ");
            match b.types[v] {
                Some(t) => self.ty(t),
                None => self.out.push_str("<no type>"),
            }
        }
    }

    fn label(&mut self, b: &Body, blk: crate::BlockId) {
        match b.blocks.get(blk) {
            Some(d) => self.out.push_str(b.strings.get(d.label)),
            None => self.out.push_str("<invalid block>"),
        }
    }

    fn function(&mut self, f: &Function) {
        let b = &f.body;
        self.out.push_str(if f.is_ufunc() { "ufunc " } else { "func " });
        self.out.push_str(&f.name);
        self.out.push('(');
        self.params(b, b.params());
        self.out.push(')');
        if let Some(t) = f.ret {
            self.out.push_str(" -> ");
            self.ty(t);
        }
        if let Some(sig) = &f.ufunc_sig {
            self.out.push_str(" \"");
            self.out.push_str(&sig.to_string());
            self.out.push('"');
            if b.num_core > 0 {
                self.out.push_str(" core(");
                self.params(b, b.core_dim_params());
                self.out.push(')');
            }
        }
        if !f.attrs.is_empty() {
            self.out.push(' ');
            self.out.push_str(&f.attrs.to_string());
        }
        self.out.push_str(" {\n");
        if let Some(doc) = &f.doc {
            self.out.push_str("  doc ");
            string_literal(&mut self.out, doc);
            self.out.push('\n');
        }
        for (blk, data) in b.blocks.iter_enumerated() {
            self.label(b, blk);
            self.out.push_str(":\n");
            for v in data.insts() {
                if v.index() >= b.num_insts() {
                    break;
                }
                self.out.push_str("  ");
                self.inst(b, v);
                self.out.push('\n');
            }
        }
        self.out.push_str("}\n");
    }

    fn inst(&mut self, b: &Body, v: ValueId) {
        let data = b.inst(v);
        let has_result = !matches!(data, InstData::Let { .. }) && b.types[v].is_some();
        if has_result {
            self.value(b, v);
            self.out.push_str(": ");
            if let Some(t) = b.types[v] {
                self.ty(t);
            }
            self.out.push_str(" = ");
        }
        let op = b.tags[v];
        match data {
            InstData::Param { .. } => self.out.push_str("param"),
            InstData::Const(lit) => {
                self.out.push_str("const ");
                let dtype = b.types[v].and_then(|t| DType::from_index(t.as_u32())).unwrap_or(DType::Int64);
                literal(&mut self.out, dtype, lit);
            }
            InstData::Binary { left, right, .. } | InstData::Load { array: left, offset: right } => {
                self.out.push_str(op.mnemonic());
                self.out.push(' ');
                self.value(b, left);
                self.out.push_str(", ");
                self.value(b, right);
            }
            InstData::Unary { operand, .. } | InstData::Cast { operand } | InstData::Alloc { length: operand } => {
                self.out.push_str(op.mnemonic());
                self.out.push(' ');
                self.value(b, operand);
            }
            InstData::Store { array, offset, value } => {
                self.out.push_str("store ");
                self.value(b, array);
                self.out.push_str(", ");
                self.value(b, offset);
                self.out.push_str(", ");
                self.value(b, value);
            }
            InstData::Dim { array, axis } | InstData::Stride { array, axis } => {
                self.out.push_str(op.mnemonic());
                self.out.push(' ');
                self.value(b, array);
                self.out.push_str(", ");
                self.out.push_str(itoa::Buffer::new().format(axis));
            }
            InstData::Call { callee, args } => {
                self.out.push_str("call ");
                self.out.push_str(callee);
                self.out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.value(b, a);
                }
                self.out.push(')');
            }
            InstData::Let { value } => {
                self.out.push_str("let ");
                self.value(b, v);
                self.out.push_str(": ");
                if let Some(t) = b.types[v] {
                    self.ty(t);
                }
                self.out.push_str(" = ");
                self.value(b, value);
            }
            InstData::Set { target, value } => {
                self.out.push_str("set ");
                self.value(b, target);
                self.out.push_str(" = ");
                self.value(b, value);
            }
            InstData::Select { cond, if_true, if_false } => {
                self.out.push_str("select ");
                self.value(b, cond);
                self.out.push_str(", ");
                self.value(b, if_true);
                self.out.push_str(", ");
                self.value(b, if_false);
            }
            InstData::GetField { aggregate, field } => {
                self.out.push_str("getfield ");
                self.value(b, aggregate);
                self.out.push_str(", ");
                self.out.push_str(field.name());
            }
            InstData::SetField { aggregate, field, value } => {
                self.out.push_str("setfield ");
                self.value(b, aggregate);
                self.out.push_str(", ");
                self.out.push_str(field.name());
                self.out.push_str(", ");
                self.value(b, value);
            }
            InstData::IndexLoad { array, indices } | InstData::IndexStore { array, indices, .. } => {
                self.out.push_str(op.mnemonic());
                self.out.push(' ');
                self.value(b, array);
                self.out.push('[');
                for (i, x) in indices.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.value(b, x);
                }
                self.out.push(']');
                if let InstData::IndexStore { value, .. } = data {
                    self.out.push_str(", ");
                    self.value(b, value);
                }
            }
            InstData::Return { value } => {
                self.out.push_str("return");
                if let Some(x) = value {
                    self.out.push(' ');
                    self.value(b, x);
                }
            }
            InstData::Br { target } => {
                self.out.push_str("br ");
                self.label(b, target);
            }
            InstData::CondBr { cond, if_true, if_false, weights } => {
                self.out.push_str("condbr ");
                self.value(b, cond);
                self.out.push_str(", ");
                self.label(b, if_true);
                self.out.push_str(", ");
                self.label(b, if_false);
                if let Some((t, f)) = weights {
                    self.out.push_str(" !weights ");
                    self.out.push_str(itoa::Buffer::new().format(t));
                    self.out.push(':');
                    self.out.push_str(itoa::Buffer::new().format(f));
                }
            }
            InstData::Unreachable => self.out.push_str("unreachable"),
            InstData::Malformed => self.out.push_str("<malformed>"),
        }
        if let Some(l) = b.loc(v).filter(|l| !l.implicit) {
            self.out.push_str(" !loc ");
            string_literal(&mut self.out, self.files.path(l.file));
            self.out.push(':');
            self.out.push_str(itoa::Buffer::new().format(l.line));
            self.out.push(':');
            self.out.push_str(itoa::Buffer::new().format(l.col));
        }
    }
}

/// The canonical quiet NaN of each float width; others print their bits.
fn canonical_nan(dtype: DType) -> u64 {
    match dtype {
        DType::Float16 => 0x7e00,
        DType::Float32 | DType::Complex64 => 0x7fc0_0000,
        _ => 0x7ff8_0000_0000_0000,
    }
}

/// Appends a float of `dtype`'s width given by its bits, so that parsing
/// it back (f64 → rounded to the width; Float32 parsed directly) gives the
/// same bits.
pub fn float_literal(out: &mut String, dtype: DType, bits: u64) {
    let x = crate::body::float_bits_to_f64(dtype, bits);
    if x.is_nan() {
        if bits == canonical_nan(dtype) {
            out.push_str("nan");
        } else {
            out.push_str("nan:0x");
            out.push_str(&format!("{bits:x}"));
        }
        return;
    }
    if x.is_infinite() {
        out.push_str(if x < 0.0 { "-inf" } else { "inf" });
        return;
    }
    match dtype {
        DType::Float32 | DType::Complex64 => out.push_str(&format!("{:?}", f32::from_bits(bits as u32))),
        DType::Float16 => {
            // The shortest decimal that reads back to the same half.
            for p in 0..8 {
                let s = format!("{x:.p$e}");
                if let Ok(y) = s.parse::<f64>() {
                    if crate::body::f16_from_f64(y).to_bits() as u64 == bits {
                        out.push_str(&format!("{y:?}"));
                        return;
                    }
                }
            }
            out.push_str(&format!("{x:?}"));
        }
        _ => out.push_str(&format!("{x:?}")),
    }
}

/// Appends a literal of a `dtype` constant.
pub fn literal(out: &mut String, dtype: DType, lit: Literal<'_>) {
    match lit {
        Literal::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Literal::Int(i) => out.push_str(itoa::Buffer::new().format(i)),
        Literal::Float(bits) => float_literal(out, dtype, bits),
        Literal::Complex(re, im) => {
            let part = dtype.complex_part().unwrap_or(DType::Float64);
            let sign_bit = if part == DType::Float32 { 1u64 << 31 } else { 1u64 << 63 };
            let im_nan = crate::body::float_bits_to_f64(part, im).is_nan();
            out.push('(');
            float_literal(out, part, re);
            if im & sign_bit != 0 && !im_nan {
                out.push('-');
                float_literal(out, part, im & !sign_bit);
            } else {
                out.push('+');
                float_literal(out, part, im);
            }
            out.push_str("j)");
        }
        Literal::Str(s) => string_literal(out, s),
        Literal::Bytes(b) => {
            out.push_str("b\"");
            for &c in b {
                escape_byte(out, c);
            }
            out.push('"');
        }
    }
}

fn escape_byte(out: &mut String, c: u8) {
    match c {
        b'\\' => out.push_str("\\\\"),
        b'"' => out.push_str("\\\""),
        b'\n' => out.push_str("\\n"),
        b'\t' => out.push_str("\\t"),
        b'\r' => out.push_str("\\r"),
        0 => out.push_str("\\0"),
        0x20..=0x7e => out.push(c as char),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\x");
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        }
    }
}

/// Appends a quoted, escaped string literal.
pub fn string_literal(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        if ch.is_ascii() {
            escape_byte(out, ch as u8);
        } else if ch.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", ch as u32));
        } else {
            out.push(ch);
        }
    }
    out.push('"');
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
