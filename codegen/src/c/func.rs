//! One IR function as one C function: every value a local of its C type
//! declared (zero-initialised) at the top, every block a label, every
//! instruction a statement.

use super::helpers::{self as h, cty, short, wrap_ty};
use super::{ident, CSig, Target, Translation};
use crate::calls::is_panic_thunk;
use postc_ir::body::{InstData, Literal};
use postc_ir::builtins::{Builtin, OvfOp};
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{BlockId, DType, EntityId, Field, FuncAttrs, FuncId, Function, Module, ModuleId, Opcode, Trap, ValueId};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;

type R<T> = Result<T, Box<Diagnostic>>;

/// Whether a function never returns (`noreturn`, or a compiler-made panic
/// path, without a `return`).
pub(crate) fn never_returns(f: &Function) -> bool {
    (f.attrs.contains(FuncAttrs::NORETURN) || is_panic_thunk(f)) && !f.body.tags.iter().any(|o| *o == Opcode::Return)
}

/// A C string literal of `bytes`: octal escapes (never extended by the
/// next character), `?` escaped against trigraphs.
pub(crate) fn c_string(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 2);
    s.push('"');
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'?' => s.push_str("\\?"),
            b' '..=b'~' => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}

/// A C constant expression of a double, exactly (hexadecimal).
pub(crate) fn f64_text(x: f64) -> String {
    if x.is_nan() || x.is_infinite() {
        return format!("postc_f64_bits(0x{:016x}u)", x.to_bits());
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 != 0 { "-" } else { "" };
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let man = bits & 0xf_ffff_ffff_ffff;
    if exp == 0 && man == 0 {
        return format!("{sign}0.0");
    }
    let (lead, e) = if exp == 0 { (0, -1022) } else { (1, exp - 1023) };
    format!("{sign}0x{lead}.{man:013x}p{e:+}")
}

fn f32_text(x: f32) -> String {
    if x.is_nan() || x.is_infinite() {
        return format!("postc_f32_bits(0x{:08x}u)", x.to_bits());
    }
    let t = f64_text(x as f64);
    format!("{t}f")
}

/// A literal of a float dtype's bits, as a C expression of its type.
fn float_lit(d: DType, bits: u64) -> String {
    match d {
        DType::Float16 => format!("POSTC_F16_BITS(0x{:04x}u)", bits as u16),
        DType::Float32 | DType::Complex64 => f32_text(f32::from_bits(bits as u32)),
        _ => f64_text(f64::from_bits(bits)),
    }
}

/// An integer literal of a dtype.
fn int_lit(d: DType, i: i128) -> String {
    match d {
        DType::Bool => (i != 0).to_string(),
        DType::Int64 if i == i64::MIN as i128 => "INT64_MIN".into(),
        DType::Int64 => format!("INT64_C({i})"),
        DType::UInt64 => format!("UINT64_C({i})"),
        DType::UInt32 => format!("{i}u"),
        DType::Int32 if i == i32::MIN as i128 => "INT32_MIN".into(),
        DType::Int32 => format!("{i}"),
        _ => format!("({}){i}", cty(d)),
    }
}

fn part(d: DType) -> DType {
    d.complex_part().unwrap_or(d)
}

/// The statements of one function.
struct FnC<'t, 'p> {
    t: &'t mut Translation<'p>,
    mid: ModuleId,
    m: &'p Module,
    f: &'p Function,
    sig: CSig,
    used: BTreeSet<u32>,
    /// Values assigned after their definition (`let` locals, parameters
    /// that `set` assigns).
    vars: HashSet<ValueId>,
    /// Array values whose element base (`a_NAME`) is kept in a local.
    bases: HashSet<ValueId>,
    decls: Vec<String>,
    out: String,
    tmp: u32,
    mark: bool,
    /// The file and line the next physical line of `out` has for the C
    /// compiler (after a `#line`).
    line_at: Option<(String, u32)>,
    /// The file and line of the last located statement.
    last_loc: Option<(String, u32)>,
    /// The file and line of the function: its `def`, else its first
    /// located instruction.
    func_line: Option<(String, u32)>,
    func_loc: Option<Pos>,
}

/// Translates function `fid` of module `mid`.
pub(crate) fn translate(t: &mut Translation<'_>, mid: ModuleId, fid: FuncId) -> R<String> {
    let program = t.program;
    let m = &program.modules[mid];
    let f = &m.functions[fid];
    let sig = t.sigs[&(mid, fid)].clone();
    let mut fc = FnC {
        t,
        mid,
        m,
        f,
        sig,
        used: live_values(f),
        vars: HashSet::new(),
        bases: HashSet::new(),
        decls: Vec::new(),
        out: String::new(),
        tmp: 0,
        mark: false,
        line_at: None,
        last_loc: None,
        func_line: f
            .loc
            .or_else(|| f.body.tags.ids().find_map(|v| f.body.loc(v)))
            .map(|l| (m.files.path(l.file).to_owned(), l.line)),
        func_loc: f.loc.map(|l| Pos::from_loc(&m.files, l)),
    };
    fc.run()
}

impl<'t, 'p> FnC<'t, 'p> {
    fn err<T>(&self, v: Option<ValueId>, msg: String) -> R<T> {
        let pos = v.and_then(|v| self.f.body.loc(v)).map(|l| Pos::from_loc(&self.m.files, l)).or(self.func_loc.clone());
        Err(Box::new(Diagnostic::error(format!("in function `{}`: {msg}", self.f.name), pos)))
    }

    fn tyd(&self, v: ValueId) -> Option<&'p postc_ir::TypeData> {
        self.f.body.ty(v).map(|t| self.m.types.get(t))
    }

    fn dt(&self, v: ValueId) -> DType {
        self.tyd(v).map(|t| t.dtype).unwrap_or(DType::Int64)
    }

    fn is_array(&self, v: ValueId) -> bool {
        self.tyd(v).is_some_and(|t| t.is_array)
    }

    fn vty(&self, v: ValueId) -> &'static str {
        if self.f.attrs.contains(FuncAttrs::COMPILER_MADE) && self.f.body.opcode(v).makes_address() {
            return "char *";
        }
        self.tyd(v).map(super::value_cty).unwrap_or("int64_t")
    }

    /// `v` = the array element of its dtype at the `char *` `at` (Bool is a
    /// byte), when `v` is read.
    fn load_at(&mut self, v: ValueId, at: &str) {
        if !self.used.contains(&v.as_u32()) {
            return;
        }
        let n = self.name(v);
        let s = if self.dt(v) == DType::Bool {
            format!("{n} = *(const unsigned char *)({at}) != 0;")
        } else {
            format!("memcpy(&{n}, {at}, sizeof {n});")
        };
        self.stmt(Some(v), s);
    }

    /// The store `v` of `value` as an array element of its dtype at the
    /// `char *` `at`.
    fn store_at(&mut self, v: ValueId, value: ValueId, at: &str) {
        let x = self.name(value);
        let s = if self.dt(value) == DType::Bool {
            format!("*(unsigned char *)({at}) = (unsigned char){x};")
        } else {
            format!("memcpy({at}, &{x}, sizeof {x});")
        };
        self.stmt(Some(v), s);
    }

    /// The C name of a value.
    fn name(&self, v: ValueId) -> String {
        match self.f.body.name(v) {
            Some(n) if !n.is_empty() => format!("v_{}", ident(n)),
            _ => format!("v{}", v.as_u32()),
        }
    }

    /// The element base of an array value: its local, or read from the
    /// tensor (for an array that is assigned).
    fn base(&self, v: ValueId) -> String {
        if self.bases.contains(&v) {
            format!("a_{}", &self.name(v)[2..])
        } else {
            format!("postc_base({})", self.name(v))
        }
    }

    fn temp(&mut self, ty: &str) -> String {
        self.tmp += 1;
        let n = format!("t{}", self.tmp);
        self.decls.push(format!("{};", super::decl(ty, &format!("{n} = {}", zero(ty)))));
        n
    }

    /// Writes a statement, after a `#line` when it is located elsewhere
    /// than the compiler would count. A statement without a location (one
    /// the passes inserted) is on the line of the statement before it, or
    /// the function's; every line of a statement written on several is on
    /// its line (so that debug information maps no code to the lines
    /// after it).
    fn stmt(&mut self, v: Option<ValueId>, s: impl AsRef<str>) {
        let located = v.and_then(|v| self.f.body.loc(v)).map(|l| (self.m.files.path(l.file).to_owned(), l.line));
        if located.is_some() {
            self.last_loc = located;
        }
        let here = self.last_loc.clone().or_else(|| self.func_line.clone());
        for (k, text) in s.as_ref().split('\n').enumerate() {
            if let Some(h) = &here {
                if self.line_at.as_ref() != Some(h) {
                    let _ = writeln!(self.out, "#line {} {}", h.1, c_string(h.0.as_bytes()));
                }
                self.line_at = Some(h.clone());
            }
            if k == 0 {
                self.out.push_str("  ");
            }
            self.out.push_str(text);
            self.out.push('\n');
            if let Some((_, n)) = &mut self.line_at {
                *n += 1;
            }
        }
    }

    fn raw_line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
        if let Some((_, n)) = &mut self.line_at {
            *n += 1;
        }
    }

    /// `NAME = rhs;` when the value is read, else nothing (or the bare
    /// expression, for what has effects).
    fn def(&mut self, v: ValueId, rhs: impl AsRef<str>) {
        if self.used.contains(&v.as_u32()) {
            let s = format!("{} = {};", self.name(v), rhs.as_ref());
            self.stmt(Some(v), s);
            if self.bases.contains(&v) {
                let b = format!("{} = postc_base({});", self.base(v), self.name(v));
                self.stmt(Some(v), b);
            }
        }
    }

    fn loc_text(&self, v: ValueId) -> Option<String> {
        crate::abi::loc_text(self.m, self.f, v)
    }

    /// `postc_rt_panic("panic: MSG at LOC", args...)` for a message known
    /// when compiling (`{}` are the arguments, `long long` each).
    fn panic_text(&self, v: ValueId, msg: &str, args: &[String]) -> String {
        let fmt = crate::abi::panic_format(msg, args.len(), self.loc_text(v).as_deref());
        let mut call = format!("postc_rt_panic({}", c_string(fmt.as_bytes()));
        for a in args {
            let _ = write!(call, ", (long long){a}");
        }
        call.push_str(");");
        call
    }

    fn run(&mut self) -> R<String> {
        let body = &self.f.body;
        if body.blocks.is_empty() {
            return self.err(None, "function has no body".into());
        }
        for v in body.tags.ids() {
            match body.inst(v) {
                InstData::Let { .. } => {
                    self.vars.insert(v);
                }
                InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } => {
                    self.vars.insert(target);
                }
                _ => {}
            }
        }
        let calls_array_fn = body.tags.ids().any(|v| {
            matches!(body.inst(v), InstData::Call { callee, .. } if Builtin::from_name(callee).is_none())
                && self.is_array(v)
        });
        let has_alloc = body.tags.iter().any(|o| crate::abi::allocates_in_arena(*o));
        // Arrays in a tuple: those returned are exported, those a call
        // returned are adopted, both against the mark.
        let tuple_arrays = body.tags.ids().any(|v| {
            matches!(body.opcode(v), Opcode::Call | Opcode::Tuple)
                && self.tyd(v).is_some_and(|t| t.elements.iter().any(|e| e.is_array))
        });
        self.mark = has_alloc || calls_array_fn || self.sig.array_ret || tuple_arrays;
        // Parameters.
        let params: Vec<ValueId> = body.all_params().collect();
        let mut pnames = Vec::new();
        let mut entry = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let n = self.name(*p);
            let d = self.dt(*p);
            if !self.is_array(*p) && d.is_complex() {
                let pn = format!("p{}", &n[1..]);
                if self.used.contains(&p.as_u32()) {
                    entry.push(format!("{n} = *{pn};"));
                    self.decls.push(format!("{} {n} = {};", cty(d), zero(cty(d))));
                } else {
                    entry.push(format!("(void){pn};"));
                }
                pnames.push(pn);
            } else {
                if !self.used.contains(&p.as_u32()) {
                    entry.push(format!("(void){n};"));
                }
                pnames.push(n);
            }
            let _ = i;
        }
        if let Some(d) = self.sig.complex_out {
            let _ = d;
            pnames.push("ret".to_owned());
        }
        pnames.extend((0..self.sig.tuple_out.len()).map(|k| format!("ret{k}")));
        // Array values that are never reassigned keep their element base
        // in a local: stores through `memcpy` could otherwise alias the
        // tensor header, and the compiler would reload it after each.
        let accessed: HashSet<ValueId> = body
            .tags
            .ids()
            .filter_map(|v| match body.inst(v) {
                InstData::Load { array, .. } if self.used.contains(&v.as_u32()) => Some(array),
                InstData::Store { array, .. } => Some(array),
                _ => None,
            })
            .collect();
        for v in body.tags.ids() {
            if self.is_array(v) && self.used.contains(&v.as_u32()) && !self.vars.contains(&v) && body.ty(v).is_some() {
                let defines = matches!(
                    body.inst(v),
                    InstData::Param { .. }
                        | InstData::Call { .. }
                        | InstData::Alloc { .. }
                        | InstData::View { .. }
                        | InstData::RawView { .. }
                );
                if defines && accessed.contains(&v) {
                    self.bases.insert(v);
                }
            }
        }
        // Declarations of every value read, and of `let` locals.
        for v in body.tags.ids() {
            let Some(_) = body.ty(v) else { continue };
            if matches!(body.inst(v), InstData::Param { .. }) {
                if self.bases.contains(&v) {
                    let b = self.base(v);
                    self.decls.push(format!("char *{b} = postc_base({});", self.name(v)));
                }
                continue;
            }
            // A tuple has no local of its own: its elements are the
            // `tuple`'s operands or the locals a call wrote.
            if !self.used.contains(&v.as_u32()) || self.tyd(v).is_some_and(|t| t.is_tuple()) {
                continue;
            }
            let ty = self.vty(v);
            let n = self.name(v);
            self.decls.push(format!("{};", super::decl(ty, &format!("{n} = {}", zero(ty)))));
            if self.bases.contains(&v) {
                let b = self.base(v);
                self.decls.push(format!("char *{b} = 0;"));
            }
        }
        // Blocks in reverse postorder; labels only where a jump goes.
        let order: Vec<BlockId> = postc_ir::cfg::Cfg::compute(body).rpo().collect();
        let mut targeted: HashSet<BlockId> = HashSet::new();
        for &b in &order {
            targeted.extend(body.successors(b));
        }
        let entry_block = BlockId::from_u32(0);
        if self.mark {
            self.decls.push("void *postc_mark = postc_rt_arena_mark();".into());
        }
        for s in entry {
            self.stmt(None, s);
        }
        for (k, &b) in order.iter().enumerate() {
            if targeted.contains(&b) || (k > 0 && b != entry_block) {
                let l = format!("{}:;", self.label(b));
                self.raw_line(&l);
            }
            for v in body.blocks[b].insts() {
                self.inst(v)?;
            }
        }
        // Assemble: the header, the declarations, the statements.
        let mut text = String::new();
        let sig = self.sig.clone();
        let doc = match &self.f.doc {
            Some(d) => format!(" {}", d.replace("*/", "* /")),
            None => String::new(),
        };
        let _ = writeln!(text, "\n/* {} {}{doc} */", if self.f.is_ufunc() { "ufunc" } else { "func" }, self.f.name);
        let line = self.func_line.as_ref().map(|(file, line)| format!("#line {line} {}\n", c_string(file.as_bytes())));
        if let Some(l) = &line {
            text.push_str(l);
        }
        let mut attrs = String::new();
        if !sig.exported {
            attrs.push_str("POSTC_PRIVATE ");
            if self.f.attrs.contains(FuncAttrs::INLINE) {
                attrs.push_str("inline ");
            }
        }
        if is_panic_thunk(self.f) || self.f.attrs.contains(FuncAttrs::COLD) {
            attrs.push_str("POSTC_COLD ");
        }
        if never_returns(self.f) {
            attrs.push_str("_Noreturn ");
        }
        if crate::compiled_unoptimised(self.f) {
            attrs.push_str("POSTC_UNOPTIMISED ");
        } else if postc_passes::legalize::is_float_library_function(&self.f.name) {
            attrs.push_str("POSTC_EXACT ");
        }
        let _ = writeln!(text, "{attrs}{} {{", sig.prototype(Some(&pnames)));
        // The declarations are on the line of the `def`, one physical line,
        // so that none takes a line of the body.
        if !self.decls.is_empty() {
            if let Some(l) = &line {
                text.push_str(l);
            }
            let _ = writeln!(text, "  {}", self.decls.join(" "));
        }
        text.push_str(&self.out);
        text.push_str("}\n");
        Ok(text)
    }

    fn label(&self, b: BlockId) -> String {
        format!("L_{}", ident(self.f.body.label(b)))
    }

    /// A C expression converting `x` of dtype `from` to dtype `to`
    /// (docs/ir-text.md, Semantics), neither complex: casts from and to
    /// complex dtypes are `legalize`'s.
    fn convert(&mut self, x: &str, from: DType, to: DType) -> String {
        if from == to {
            return x.to_owned();
        }
        let x = if from == DType::Float16 { format!("POSTC_F16_TO_F({x})") } else { x.to_owned() };
        let from = if from == DType::Float16 { DType::Float32 } else { from };
        if from == to {
            return x;
        }
        if to == DType::Bool {
            return format!("({x} != 0)");
        }
        if to.is_int() {
            // A float converts only in range: `legalize` wrote the
            // saturation out.
            return format!("({})({x})", cty(to));
        }
        // To a float.
        match to {
            DType::Float16 => format!("POSTC_F16_FROM_D((double)({x}))"),
            _ => format!("({})({x})", cty(to)),
        }
    }

    fn inst(&mut self, v: ValueId) -> R<()> {
        let body = &self.f.body;
        match body.inst(v) {
            InstData::Param { .. } => {}
            InstData::Const(lit) => {
                let d = self.dt(v);
                let text = match lit {
                    Literal::Bool(b) => u8::from(b).to_string(),
                    Literal::Int(i) => int_lit(d, i),
                    Literal::Float(bits) => float_lit(d, bits),
                    Literal::Complex(re, im) => {
                        let p = part(d);
                        format!("postc_{}({}, {})", short(d), float_lit(p, re), float_lit(p, im))
                    }
                    Literal::Str(s) => format!("postc_text({}, {})", c_string(s.as_bytes()), s.len()),
                    Literal::Bytes(b) => format!("postc_text({}, {})", c_string(b), b.len()),
                };
                if matches!(lit, Literal::Str(_) | Literal::Bytes(_)) {
                    self.t.helpers.entry("postc_text".into()).or_insert_with(|| TEXT_HELPER.into());
                }
                self.def(v, text);
            }
            InstData::Binary { op, left, right } => self.binary(v, op, left, right)?,
            InstData::Unary { op, operand } => self.unary(v, op, operand)?,
            InstData::Cast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                if from.is_complex() || to.is_complex() {
                    return self.err(Some(v), crate::backend::written_out(&format!("cast from {from} to {to}")));
                }
                let x = self.name(operand);
                let e = self.convert(&x, from, to);
                self.def(v, e);
            }
            InstData::Bitcast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                let helper = self.t.helper(h::bitcast(from, to));
                let e = format!("{helper}({})", self.name(operand));
                self.def(v, e);
            }
            InstData::Load { array, offset } => {
                let at = format!("{} + {}", self.base(array), self.name(offset));
                self.load_at(v, &at);
            }
            InstData::Store { array, offset, value } => {
                let at = format!("{} + {}", self.base(array), self.name(offset));
                self.store_at(v, value, &at);
            }
            InstData::Dim { array, axis } => {
                let e = format!("{}->shape[{axis}]", self.name(array));
                self.def(v, e);
            }
            InstData::Stride { array, axis } => {
                let d = self.dt(array);
                let a = self.name(array);
                let ndim = match self.tyd(array).and_then(|t| t.ndim()) {
                    Some(n) => n.to_string(),
                    None => format!("{a}->ndim"),
                };
                self.def(v, format!("postc_stride({a}, {axis}, {ndim}, {})", d.size_bytes()));
            }
            InstData::Call { callee, args } => {
                let args: Vec<ValueId> = args.iter().collect();
                self.call(v, callee, args)?;
            }
            InstData::Let { value } | InstData::Set { value, .. } => {
                let target = match body.inst(v) {
                    InstData::Set { target, .. } => target,
                    _ => v,
                };
                if self.used.contains(&target.as_u32()) {
                    let s = format!("{} = {};", self.name(target), self.name(value));
                    self.stmt(Some(v), s);
                }
            }
            InstData::Select { cond, if_true, if_false } => {
                let e = format!("{} ? {} : {}", self.name(cond), self.name(if_true), self.name(if_false));
                self.def(v, e);
            }
            InstData::Alloc { dims } => {
                let d = self.dt(v);
                if d.is_text() {
                    return self.err(Some(v), format!("cannot allocate an array of {d}"));
                }
                let (code, bits) = crate::abi::dlpack_dtype(d);
                // A negative extent is guarded by `insert-checks`.
                let ns: Vec<String> = dims.iter().map(|x| self.name(x)).collect();
                let e = if let [n] = &ns[..] {
                    format!("postc_alloc({n}, {code}, {bits}, {})", d.size_bytes())
                } else {
                    format!(
                        "postc_alloc_nd({}, (const int64_t[]){{{}}}, {code}, {bits}, {})",
                        ns.len(),
                        ns.join(", "),
                        d.size_bytes()
                    )
                };
                if self.used.contains(&v.as_u32()) {
                    self.def(v, e);
                } else {
                    self.stmt(Some(v), format!("(void){e};"));
                }
            }
            InstData::View { base, offset, extents, strides } => {
                // The extents and strides go to the runtime as arrays (a
                // 0-d view's hold one unread 0: C has no empty array).
                let list = |xs: postc_ir::ValueList<'_>| {
                    let names: Vec<String> = xs.iter().map(|x| self.name(x)).collect();
                    if names.is_empty() {
                        "0".to_owned()
                    } else {
                        names.join(", ")
                    }
                };
                let e = format!(
                    "postc_view({}, {}, {}, (const int64_t[]){{{}}}, (const int64_t[]){{{}}}, {})",
                    self.name(base),
                    self.name(offset),
                    extents.len(),
                    list(extents),
                    list(strides),
                    self.dt(v).size_bytes()
                );
                if self.used.contains(&v.as_u32()) {
                    self.def(v, e);
                } else {
                    self.stmt(Some(v), format!("(void){e};"));
                }
            }
            InstData::GetField { aggregate, field } => {
                let d = self.dt(aggregate);
                let x = self.name(aggregate);
                let e = match field {
                    Field::Len if d == DType::Str => {
                        return self.err(Some(v), crate::backend::written_out("getfield len on Str"))
                    }
                    Field::Len | Field::NBytes => format!("{x}.len"),
                    Field::Real => format!("postc_re_{}({x})", short(d)),
                    Field::Imag => format!("postc_im_{}({x})", short(d)),
                };
                self.def(v, e);
            }
            InstData::SetField { aggregate, field, value } if self.used.contains(&aggregate.as_u32()) => {
                let d = self.dt(aggregate);
                let (z, x) = (self.name(aggregate), self.name(value));
                let s = short(d);
                let e = match field {
                    Field::Real => format!("{z} = postc_{s}({x}, postc_im_{s}({z}));"),
                    _ => format!("{z} = postc_{s}(postc_re_{s}({z}), {x});"),
                };
                self.stmt(Some(v), e);
            }
            InstData::SetField { .. } => {}
            InstData::IndexLoad { .. } | InstData::IndexStore { .. } => {
                return self.err(
                    Some(v),
                    "`index.load`/`index.store` reached code generation (the `stride-lower` pass must run first)"
                        .into(),
                );
            }
            InstData::Return { value } => self.ret(v, value),
            InstData::Br { target } => {
                let l = self.label(target);
                self.stmt(Some(v), format!("goto {l};"));
            }
            InstData::CondBr { cond, if_true, if_false, weights } => {
                let c = self.name(cond);
                let c = match weights {
                    Some((t, f)) if t >= f.saturating_mul(16) => format!("POSTC_LIKELY({c})"),
                    Some((t, f)) if f >= t.saturating_mul(16) => format!("POSTC_UNLIKELY({c})"),
                    _ => c,
                };
                let (a, b) = (self.label(if_true), self.label(if_false));
                self.stmt(Some(v), format!("if ({c}) goto {a}; else goto {b};"));
            }
            // `insert-checks` put a panic call before every `unreachable`
            // that a run can reach.
            InstData::Unreachable => self.stmt(Some(v), "__builtin_unreachable();"),
            InstData::Malformed => return self.err(Some(v), "malformed instruction".into()),
            // A tuple is its elements: a `tuple`'s operands, the locals a
            // call wrote (see `tuple_element`).
            InstData::Tuple { .. } => {}
            InstData::Extract { tuple, index } => {
                let x = self.tuple_element(tuple, index);
                self.def(v, x);
            }
            // Addresses are `char *` values (see `vty`; the parameters are
            // NumPy's, see `signature`).
            InstData::RawRead { op, base, index } => {
                let (n, b) = (self.name(v), self.name(base));
                let field = postc_ir::dtype::DLTENSOR_FIELDS.get(index as usize).unwrap_or(&"data");
                let s = if op == Opcode::RawField {
                    format!("{n} = (char *)&((DLTensor *)({b}))->{field};")
                } else if op == Opcode::RawSlot {
                    format!("{n} = (char *)&((char **)({b}))[{index}];")
                } else if op == Opcode::RawPtr {
                    format!("{n} = ((char *const *)({b}))[{index}];")
                } else {
                    format!("{n} = (int64_t)((const intptr_t *)({b}))[{index}];")
                };
                self.stmt(Some(v), s);
            }
            InstData::RawOffset { address, bytes } => {
                let (n, a, b) = (self.name(v), self.name(address), self.name(bytes));
                self.stmt(Some(v), format!("{n} = (char *)({a}) + {b};"));
            }
            InstData::RawLoad { address } if self.f.body.opcode(v) == Opcode::RawIsNull => {
                let (n, a) = (self.name(v), self.name(address));
                self.stmt(Some(v), format!("{n} = ({a}) == NULL;"));
            }
            InstData::RawLoad { address } => {
                let at = format!("(char *)({})", self.name(address));
                self.load_at(v, &at);
            }
            InstData::RawStore { address, value } if self.f.body.opcode(v) != Opcode::RawStore => {
                let (a, x) = (self.name(address), self.name(value));
                let ty = if self.f.body.opcode(v) == Opcode::RawSetPtr { "char *" } else { "intptr_t" };
                self.stmt(Some(v), format!("*({ty} *)({a}) = ({ty})({x});"));
            }
            InstData::RawStore { address, value } => {
                let at = format!("(char *)({})", self.name(address));
                self.store_at(v, value, &at);
            }
            // The header and its shape and strides are locals of the
            // function, their constant fields initialised once: each time,
            // only the data, extents and strides (no arena block per
            // index, and few stores in a loop).
            InstData::RawView { address, offset, extents, strides } => {
                let d = self.dt(v);
                let (code, bits) = crate::abi::dlpack_dtype(d);
                let n = extents.len();
                let h = format!("h{}", v.as_u32());
                self.decls.push(format!(
                    "int64_t {h}_dims[{}]; DLTensor {h} = {{0, {{kDLCPU, 0}}, {n}, {{{code}, {bits}, 1}}, {h}_dims, {h}_dims + {n}, 0}};",
                    (2 * n).max(1)
                ));
                let mut s = String::new();
                for (k, x) in extents.iter().enumerate() {
                    let _ = write!(s, "{h}_dims[{k}] = {}; ", self.name(x));
                }
                for (k, x) in strides.iter().enumerate() {
                    let _ = write!(s, "{h}_dims[{}] = {} / {}; ", n + k, self.name(x), d.size_bytes());
                }
                let _ = write!(s, "{h}.data = (char *)({}) + {};", self.name(address), self.name(offset));
                self.stmt(Some(v), s);
                self.def(v, format!("&{h}"));
            }
            InstData::RawData { array } => {
                let e = format!("postc_base({})", self.name(array));
                self.def(v, e);
            }
            InstData::TextByte { text, index } => {
                // A byte, or eight (a UInt64, little-endian as the target).
                let at = format!("{}.ptr + {}", self.name(text), self.name(index));
                self.load_at(v, &at);
            }
        }
        Ok(())
    }

    /// Element `k` of the tuple `t`: the `tuple`'s operand, or the local
    /// the call wrote it to.
    fn tuple_element(&self, t: ValueId, k: u32) -> String {
        match self.f.body.inst(t) {
            InstData::Tuple { elements } => elements.get(k as usize).map_or_else(String::new, |e| self.name(e)),
            // A returned array's `DLManagedTensor` starts with its `DLTensor`.
            _ if self.tyd(t).is_some_and(|ty| ty.elements.get(k as usize).is_some_and(|e| e.is_array)) => {
                format!("(DLTensor *){}_e{k}", self.name(t))
            }
            _ => format!("{}_e{k}", self.name(t)),
        }
    }

    /// Returns the tuple `x`: each element through its out-pointer, the
    /// arrays exported together (docs/abi.md §2).
    fn ret_tuple(&mut self, v: ValueId, x: ValueId, release: &str) {
        let outs = self.sig.tuple_out.clone();
        let arrays: Vec<usize> = (0..outs.len()).filter(|&k| outs[k] == "DLManagedTensor *").collect();
        let mut s = String::new();
        for k in (0..outs.len()).filter(|k| !arrays.contains(k)) {
            s.push_str(&format!("*ret{k} = {}; ", self.tuple_element(x, k as u32)));
        }
        if arrays.is_empty() {
            s.push_str(release);
        } else {
            let list: Vec<String> = arrays.iter().map(|&k| self.tuple_element(x, k as u32)).collect();
            s.push_str(&format!(
                "{{ void *postc_tuple[{}] = {{{}}}; postc_rt_arena_export_tuple(postc_mark, {}, postc_tuple); ",
                arrays.len(),
                list.join(", "),
                arrays.len()
            ));
            for (i, k) in arrays.iter().enumerate() {
                s.push_str(&format!("*ret{k} = (DLManagedTensor *)postc_tuple[{i}]; "));
            }
            s.push_str("} ");
        }
        s.push_str("return;");
        self.stmt(Some(v), s);
    }

    fn ret(&mut self, v: ValueId, value: Option<ValueId>) {
        let release = self.mark.then_some("postc_rt_arena_release(postc_mark); ");
        let release = release.unwrap_or("");
        match value {
            Some(x) if !self.sig.tuple_out.is_empty() => self.ret_tuple(v, x, release),
            Some(x) if self.sig.complex_out.is_some() => {
                let s = format!("*ret = {}; {release}return;", self.name(x));
                self.stmt(Some(v), s);
            }
            Some(x) if self.sig.array_ret => {
                let s = format!("return (DLManagedTensor *)postc_rt_arena_export(postc_mark, {});", self.name(x));
                self.stmt(Some(v), s);
            }
            Some(x) if self.sig.ret != "void" => {
                let s = format!("{release}return {};", self.name(x));
                self.stmt(Some(v), s);
            }
            _ => self.stmt(Some(v), format!("{release}return;")),
        }
    }

    fn binary(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        let od = self.dt(l);
        let (a, b) = (self.name(l), self.name(r));
        let t = cty(od);
        let e: String = if od.is_text() {
            match op {
                Opcode::Add => format!("postc_concat({a}, {b})"),
                _ if op.is_compare() => {
                    return self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())))
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else if od == DType::Bool {
            match op {
                Opcode::And | Opcode::BAnd => format!("{a} & {b}"),
                Opcode::Or | Opcode::BOr => format!("{a} | {b}"),
                Opcode::BXor | Opcode::Ne => format!("{a} != {b}"),
                Opcode::Eq => format!("{a} == {b}"),
                Opcode::Lt => format!("{a} < {b}"),
                Opcode::Le => format!("{a} <= {b}"),
                Opcode::Gt => format!("{a} > {b}"),
                Opcode::Ge => format!("{a} >= {b}"),
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else if od.is_int() {
            let w = wrap_ty(od);
            let bits = od.bits();
            match op {
                Opcode::Add => format!("({t})(({w}){a} + ({w}){b})"),
                Opcode::Sub => format!("({t})(({w}){a} - ({w}){b})"),
                Opcode::Mul => format!("({t})(({w}){a} * ({w}){b})"),
                // `legalize` wrote integer `//`, `%` and `**` out in these;
                // the divisor is never zero nor -1 with a minimal dividend.
                Opcode::Quot => format!("({t})({a} / {b})"),
                Opcode::Rem => format!("({t})({a} % {b})"),
                Opcode::Eq => format!("{a} == {b}"),
                Opcode::Ne => format!("{a} != {b}"),
                Opcode::Lt => format!("{a} < {b}"),
                Opcode::Le => format!("{a} <= {b}"),
                Opcode::Gt => format!("{a} > {b}"),
                Opcode::Ge => format!("{a} >= {b}"),
                Opcode::BAnd => format!("({t})({a} & {b})"),
                Opcode::BOr => format!("({t})({a} | {b})"),
                Opcode::BXor => format!("({t})({a} ^ {b})"),
                // A count of the width or more (or negative) never reaches
                // the shift: 0, or the sign fill for a signed `>>`.
                Opcode::Shl => {
                    let u = h::unsigned_of(od);
                    format!("({u}){b} >= {bits} ? 0 : ({t})(({w}){a} << {b})")
                }
                Opcode::Shr if od.is_signed_int() => {
                    let u = h::unsigned_of(od);
                    format!("({t})({a} >> (({u}){b} >= {bits} ? {} : {b}))", bits - 1)
                }
                Opcode::Shr => format!("{b} >= {bits} ? 0 : ({t})({a} >> {b})"),
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else if od.is_float() {
            // Float16 in `float`, rounded once in the same expression
            // (gcc makes that a native half instruction where there is one).
            let half = od == DType::Float16;
            let (x, y) = if half {
                (format!("POSTC_F16_TO_F({a})"), format!("POSTC_F16_TO_F({b})"))
            } else {
                (a.clone(), b.clone())
            };
            let arith = |sym: &str| {
                if half {
                    format!("POSTC_F16_FROM_F({x} {sym} {y})")
                } else {
                    format!("{x} {sym} {y}")
                }
            };
            match op {
                Opcode::Add => arith("+"),
                Opcode::Sub => arith("-"),
                Opcode::Mul => arith("*"),
                Opcode::Div => arith("/"),
                // `fdiv` and `mod` are calls of `legalize`'s functions by
                // now, and a Float32 power a Float64 one.
                Opcode::Pow if od == DType::Float64 => {
                    self.t.libm.insert("pow".into(), 2);
                    format!("pow({x}, {y})")
                }
                Opcode::Eq => format!("{x} == {y}"),
                Opcode::Ne => format!("{x} != {y}"),
                Opcode::Lt => format!("{x} < {y}"),
                Opcode::Le => format!("{x} <= {y}"),
                Opcode::Gt => format!("{x} > {y}"),
                Opcode::Ge => format!("{x} >= {y}"),
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
        } else if op == Opcode::Mul {
            // The product, the one complex operation C is given
            // (`Features::complex_products`): in a helper, for exactness.
            let s = short(od);
            let args = format!("postc_re_{s}({a}), postc_im_{s}({a}), postc_re_{s}({b}), postc_im_{s}({b})");
            let name = self.t.helper(h::Helper { name: "postc_cmul".into(), text: CMUL.into(), libm: &[] });
            format!("({t})({name}({args}))")
        } else {
            return self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())));
        };
        self.def(v, e);
        Ok(())
    }

    fn unary(&mut self, v: ValueId, op: Opcode, x: ValueId) -> R<()> {
        let d = self.dt(x);
        let t = cty(d);
        let a = self.name(x);
        let e = match op {
            Opcode::Not => format!("!{a}"),
            Opcode::Inv if d == DType::Bool => format!("!{a}"),
            Opcode::Inv => format!("({t})~{a}"),
            Opcode::Neg if d.is_int() => format!("({t})(0u - ({}){a})", wrap_ty(d)),
            // The sign bit (`float` arithmetic where there is `_Float16`).
            Opcode::Neg if d == DType::Float16 => format!("POSTC_F16_NEG({a})"),
            Opcode::Neg if d.is_float() => format!("-{a}"),
            Opcode::Abs if d.is_signed_int() => format!("{a} < 0 ? ({t})(0u - ({}){a}) : {a}", wrap_ty(d)),
            Opcode::Abs if d.is_int() => a,
            Opcode::Abs if d == DType::Float16 => {
                self.t.libm.insert("fabsf".into(), 1);
                format!("POSTC_F16_ABS({a})")
            }
            Opcode::Abs if d == DType::Float32 => {
                self.t.libm.insert("fabsf".into(), 1);
                format!("fabsf({a})")
            }
            Opcode::Abs if d == DType::Float64 => {
                self.t.libm.insert("fabs".into(), 1);
                format!("fabs({a})")
            }
            _ if d.is_complex() => {
                return self.err(Some(v), crate::backend::written_out(&format!("{} on {d}", op.mnemonic())))
            }
            _ => return self.err(Some(v), format!("`{}` on {d}", op.mnemonic())),
        };
        self.def(v, e);
        Ok(())
    }

    fn call(&mut self, v: ValueId, callee: &'p str, args: Vec<ValueId>) -> R<()> {
        let Some(target) = self.t.resolve(self.mid, callee) else {
            if let Some(imp) = self.m.boundary_imports.get(callee) {
                return self.err(
                    Some(v),
                    format!(
                        "call to `{callee}`, a boundary import of `{}.{}`, cannot be compiled (boundary functions run in Python)",
                        imp.module_name, imp.source_name
                    ),
                );
            }
            return self.err(Some(v), format!("call to unknown function `{callee}`"));
        };
        match target {
            Target::Builtin(Builtin::Panic) => self.panic_call(v, &args),
            Target::Builtin(Builtin::Overflows(op)) => {
                let d = self.dt(args[0]);
                let a = self.name(args[0]);
                let e = match op {
                    OvfOp::Add | OvfOp::Sub | OvfOp::Mul => {
                        let n = match op {
                            OvfOp::Add => "add",
                            OvfOp::Sub => "sub",
                            _ => "mul",
                        };
                        let name = format!("postc_ovf_{n}_{}", short(d));
                        let t = cty(d);
                        let text = format!(
                            "POSTC_HELPER _Bool {name}({t} a, {t} b) {{\n  {t} r;\n  return __builtin_{n}_overflow(a, b, &r);\n}}\n"
                        );
                        let name = self.t.helper(h::Helper { name, text, libm: &[] });
                        format!("{name}({a}, {})", self.name(args[1]))
                    }
                    OvfOp::Neg if d.is_signed_int() => format!("{a} == {}", h::int_min(d)),
                    OvfOp::Neg => format!("{a} != 0"),
                    OvfOp::Abs if d.is_signed_int() => format!("{a} == {}", h::int_min(d)),
                    OvfOp::Abs => "0".to_owned(),
                    OvfOp::Pow => return self.err(Some(v), crate::backend::written_out(OvfOp::Pow.name())),
                };
                self.def(v, e);
                Ok(())
            }
            Target::Builtin(Builtin::ParallelFor) => self.parallel_for(v, &args),
            Target::Builtin(Builtin::Print) => {
                // The runtime's entry of each argument's dtype, then the
                // one that writes the line.
                let mut text = String::new();
                for &a in &args {
                    let d = self.dt(a);
                    let entry = crate::abi::print_entry(d);
                    let x = self.name(a);
                    let (params, call) = match d {
                        DType::Str => {
                            ("const char *ptr, int64_t len".to_owned(), format!("{entry}({x}.ptr, {x}.len);"))
                        }
                        DType::Bool => ("int32_t x".to_owned(), format!("{entry}((int32_t){x});")),
                        _ => (format!("{} x", cty(d)), format!("{entry}({x});")),
                    };
                    self.t.helper(h::Helper {
                        name: entry.to_owned(),
                        text: format!("void {entry}({params});\n"),
                        libm: &[],
                    });
                    text.push_str(&call);
                    text.push(' ');
                }
                let end = crate::abi::PRINT_END;
                self.t.helper(h::Helper { name: end.to_owned(), text: format!("void {end}(void);\n"), libm: &[] });
                let _ = write!(text, "{end}();");
                self.stmt(Some(v), text);
                Ok(())
            }
            // The runtime's thread-local count (`postc_runtime.h`).
            Target::Builtin(Builtin::Depth) => {
                self.def(v, "postc_rt_depth");
                Ok(())
            }
            Target::Builtin(Builtin::SetDepth) => {
                let d = self.name(args[0]);
                self.stmt(Some(v), format!("postc_rt_depth = {d};"));
                Ok(())
            }
            Target::Builtin(Builtin::ParallelStopped) => {
                // The running loop's lowest panicked chunk: its address taken
                // once, at the function's start, then a relaxed load on the
                // back edge.
                let word = crate::abi::PARALLEL_STOP_WORD;
                self.t.helper(h::Helper {
                    name: word.to_owned(),
                    text: format!("const int64_t *{word}(void);\n"),
                    libm: &[],
                });
                let decl = format!("const int64_t *postc_stop_word = {word}();");
                if !self.decls.contains(&decl) {
                    self.decls.push(decl);
                }
                let chunk = self.name(args[0]);
                self.def(v, format!("{chunk} > __atomic_load_n(postc_stop_word, __ATOMIC_RELAXED)"));
                Ok(())
            }
            Target::Builtin(b) => self.err(
                Some(v),
                format!("`{}` runs only in `kernel` functions, which the C backend cannot compile", b.name()),
            ),
            Target::Intrinsic(sym) => self.intrinsic_call(v, sym, &args),
            Target::Func(mid, fid) => {
                let sig = self.t.sigs.get(&(mid, fid)).cloned();
                let Some(sig) = sig else {
                    return self.err(Some(v), format!("call to `{callee}`, a function the C backend cannot compile"));
                };
                let callee_f = &self.t.program.modules[mid].functions[fid];
                let mut parts = Vec::new();
                let addresses = callee_f.attrs.contains(FuncAttrs::COMPILER_MADE);
                for (i, a) in args.iter().enumerate() {
                    let n = self.name(*a);
                    if addresses {
                        // An address, as the parameter's pointer type.
                        parts.push(format!("({})({n})", sig.params[i]));
                    } else if sig.params[i].starts_with("const ") {
                        parts.push(format!("&{n}"));
                    } else {
                        parts.push(n);
                    }
                }
                let has_result = self.f.body.ty(v).is_some() && self.used.contains(&v.as_u32());
                // A tuple's elements come back in one local each.
                let element_locals: Vec<(String, bool)> = (0..sig.tuple_out.len())
                    .map(|k| {
                        let (l, ty) = (format!("{}_e{k}", self.name(v)), &sig.tuple_out[k]);
                        self.decls.push(format!("{};", super::decl(ty, &format!("{l} = {}", zero(ty)))));
                        parts.push(format!("&{l}"));
                        (l, ty == "DLManagedTensor *")
                    })
                    .collect();
                if let Some(d) = sig.complex_out {
                    if has_result {
                        parts.push(format!("&{}", self.name(v)));
                    } else {
                        let t = self.temp(cty(d));
                        parts.push(format!("&{t}"));
                    }
                }
                let call = format!("{}({})", sig.name, parts.join(", "));
                if sig.complex_out.is_some() || sig.ret == "void" || !has_result {
                    let s = if sig.array_ret { format!("(void)postc_adopt({call});") } else { format!("{call};") };
                    self.stmt(Some(v), s);
                } else if sig.array_ret {
                    self.def(v, format!("postc_adopt({call})"));
                } else {
                    self.def(v, call);
                }
                for (l, _) in element_locals.iter().filter(|(_, array)| *array) {
                    self.stmt(Some(v), format!("(void)postc_adopt({l});"));
                }
                Ok(())
            }
        }
    }

    /// `postc.parallel_for`: the arguments after the range go into a
    /// struct on the stack, and a trampoline `void(void *env, int64_t
    /// chunk, int64_t lo, int64_t hi)`, one per chunk function, calls the
    /// chunk function with them; `postc_rt_parallel_for` (the runtime's
    /// pool) calls the trampoline per chunk and returns the chunk count.
    fn parallel_for(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let fid = crate::calls::parallel_chunk(self.m, self.f, args).or_else(|msg| self.err(Some(v), msg))?;
        let name = &self.m.functions[fid].name;
        let Some(sig) = self.t.sigs.get(&(self.mid, fid)).cloned() else {
            return self.err(Some(v), format!("`postc.parallel_for`: the chunk function `{name}` has no C signature"));
        };
        // The chunk function takes (chunk, lo, hi) and then the captures; a
        // complex capture is passed by pointer, so the struct holds the value.
        let captures = &args[4..];
        let fields: Vec<(String, bool)> = sig.params[3..]
            .iter()
            .map(|t| match t.strip_prefix("const ").and_then(|t| t.strip_suffix(" *")) {
                Some(value) => (value.to_owned(), true),
                None => (t.clone(), false),
            })
            .collect();
        if fields.len() != captures.len() {
            return self.err(Some(v), format!("`postc.parallel_for`: `{name}` takes {} captures", fields.len()));
        }
        let env = format!("{}_env", sig.name);
        let tramp = format!("{}_tramp", sig.name);
        let mut text = format!("struct {env} {{\n");
        for (i, (t, _)) in fields.iter().enumerate() {
            let _ = writeln!(text, "  {};", super::decl(t, &format!("a{i}")));
        }
        if fields.is_empty() {
            text.push_str("  char unused;\n");
        }
        let passed: Vec<String> = fields
            .iter()
            .enumerate()
            .map(|(i, (_, by_pointer))| if *by_pointer { format!("&e->a{i}") } else { format!("e->a{i}") })
            .collect();
        let mut call_args = vec!["chunk".to_owned(), "lo".to_owned(), "hi".to_owned()];
        call_args.extend(passed);
        let _ = write!(
            text,
            "}};\nPOSTC_PRIVATE {};\n\
             int64_t postc_rt_parallel_for(void (*)(void *, int64_t, int64_t, int64_t), void *, int64_t, int64_t, int64_t);\n\
             static void {tramp}(void *env, int64_t chunk, int64_t lo, int64_t hi) {{\n  \
             struct {env} *e = (struct {env} *)env;\n  (void)e;\n  {}({});\n}}\n",
            sig.prototype(None),
            sig.name,
            call_args.join(", ")
        );
        self.t.helper(h::Helper { name: tramp.clone(), text, libm: &[] });
        let values: Vec<String> = captures.iter().map(|a| self.name(*a)).collect();
        let init = if values.is_empty() { "0".to_owned() } else { values.join(", ") };
        // Declared with the function's other temporaries (no initializer:
        // a struct has no scalar zero), filled where the loop starts.
        self.tmp += 1;
        let envv = format!("t{}", self.tmp);
        self.decls.push(format!("struct {env} {envv};"));
        self.stmt(Some(v), format!("{envv} = (struct {env}){{{init}}};"));
        // The name's constant is read here, not passed.
        let fn_name = self.name(args[0]);
        self.stmt(Some(v), format!("(void){fn_name};"));
        let (start, stop, step) = (self.name(args[1]), self.name(args[2]), self.name(args[3]));
        let call = format!("postc_rt_parallel_for({tramp}, &{envv}, {start}, {stop}, {step})");
        if self.f.body.ty(v).is_some() && self.used.contains(&v.as_u32()) {
            self.def(v, call);
        } else {
            self.stmt(Some(v), format!("(void){call};"));
        }
        Ok(())
    }

    fn intrinsic_call(&mut self, v: ValueId, sym: &str, args: &[ValueId]) -> R<()> {
        let rd = self.f.body.ty(v).map(|t| self.m.types.dtype(t));
        let Some((base, f32_symbol)) = crate::calls::intrinsic_base(sym) else {
            // An external symbol: the arguments as they are.
            let mut tys = Vec::new();
            let mut parts = Vec::new();
            for a in args {
                tys.push(self.vty(*a).to_owned());
                parts.push(self.name(*a));
            }
            let rt = self.f.body.ty(v).map(|t| super::value_cty(self.m.types.get(t))).unwrap_or("void");
            if !valid_c_ident(sym) {
                return self.err(Some(v), format!("`import intrinsic` of `{sym}`: not a C identifier"));
            }
            let ps = if tys.is_empty() { "void".to_owned() } else { tys.join(", ") };
            let proto = format!("{rt} {sym}({ps});");
            if let Some(prev) = self.t.externs.get(sym) {
                if *prev != proto {
                    return self.err(
                        Some(v),
                        format!("`{sym}` is imported with two different signatures (`{prev}` and `{proto}`)"),
                    );
                }
            }
            self.t.externs.insert(sym.to_owned(), proto);
            let call = format!("{sym}({})", parts.join(", "));
            if rd.is_some() && self.used.contains(&v.as_u32()) {
                self.def(v, call);
            } else {
                self.stmt(Some(v), format!("{call};"));
            }
            return Ok(());
        };
        let all_f32 = args.iter().all(|a| self.dt(*a) == DType::Float32) && rd == Some(DType::Float32);
        let w = if all_f32 || f32_symbol { DType::Float32 } else { DType::Float64 };
        let name = if w == DType::Float32 { format!("{base}f") } else { base.to_owned() };
        self.t.libm.insert(name.clone(), args.len());
        let mut xs = Vec::new();
        for a in args {
            let d = self.dt(*a);
            let n = self.name(*a);
            xs.push(self.convert(&n, d, w));
        }
        let call = format!("{name}({})", xs.join(", "));
        match rd {
            Some(rd) if self.used.contains(&v.as_u32()) => {
                let e = self.convert(&call, w, rd);
                self.def(v, e);
            }
            _ => self.stmt(Some(v), format!("(void){call};")),
        }
        Ok(())
    }

    fn panic_call(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let body = &self.f.body;
        let msg = args.first().copied();
        let lit = msg.and_then(|m| match body.inst(m) {
            InstData::Const(Literal::Str(s)) => Some(s),
            _ => None,
        });
        let rest: Vec<String> = args.iter().skip(1).map(|a| self.name(*a)).collect();
        let s = match lit {
            Some(s) => self.panic_text(v, s, &rest),
            None => {
                // A message known at run time: printed as it is.
                let fmt = crate::abi::runtime_panic_format(rest.len(), self.loc_text(v).as_deref());
                self.t.helpers.entry("postc_text".into()).or_insert_with(|| TEXT_HELPER.into());
                let m = msg.map(|m| self.name(m)).unwrap_or_else(|| "postc_text(\"\", 0)".into());
                let mut call = format!("postc_rt_panic({}, (int){m}.len, {m}.ptr", c_string(fmt.as_bytes()));
                for a in &rest {
                    let _ = write!(call, ", (long long){a}");
                }
                call.push_str(");");
                call
            }
        };
        self.stmt(Some(v), s);
        Ok(())
    }
}

/// The values a translation must compute: those that what has an effect
/// or may trap whatever its types (the opcode table's columns: a store, a
/// call, a jump, a return, an allocation) reads, directly or through
/// others, in the reachable blocks; a `let` local is computed when read,
/// and then so are its assignments. A load is the exception: the checks
/// before it are their own instructions, and one whose element nothing
/// reads is not written (`load_at`), so neither is its offset.
fn live_values(f: &Function) -> BTreeSet<u32> {
    let body = &f.body;
    let mut reach = vec![false; body.tags.len()];
    let mut assigns: HashMap<ValueId, Vec<ValueId>> = HashMap::new();
    let mut roots = Vec::new();
    for b in postc_ir::cfg::Cfg::compute(body).rpo() {
        for v in body.blocks[b].insts() {
            reach[v.index()] = true;
            match body.inst(v) {
                InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } => {
                    assigns.entry(target).or_default().push(v)
                }
                InstData::Load { .. } => {}
                _ if body.tags[v].has_side_effects() || body.tags[v].trap() == Trap::Always => roots.push(v),
                _ => {}
            }
        }
    }
    let mut live = BTreeSet::new();
    let mut work: Vec<ValueId> = Vec::new();
    // The operands an instruction reads (an assignment's target is not read).
    let reads = |v: ValueId, out: &mut Vec<ValueId>| match body.inst(v) {
        InstData::Set { value, .. } => out.push(value),
        // A literal message is written into the panic's format.
        InstData::Call { callee: postc_ir::builtins::PANIC, args } => {
            for (i, a) in args.iter().enumerate() {
                let literal = i == 0 && matches!(body.inst(a), InstData::Const(Literal::Str(_)));
                if !literal {
                    out.push(a);
                }
            }
        }
        InstData::SetField { aggregate, value, .. } => {
            out.push(value);
            out.push(aggregate);
        }
        _ => body.for_each_operand(v, |o| out.push(o)),
    };
    for r in roots {
        reads(r, &mut work);
    }
    while let Some(x) = work.pop() {
        if !live.insert(x.as_u32()) {
            continue;
        }
        if x.index() < reach.len() && reach[x.index()] {
            reads(x, &mut work);
        }
        if let Some(sets) = assigns.get(&x) {
            for s in sets {
                reads(*s, &mut work);
            }
        }
    }
    live
}

fn valid_c_ident(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// The zero of a C type, for declarations.
fn zero(ty: &str) -> &'static str {
    if ty == "postc_str" {
        "{0, 0}"
    } else {
        "0"
    }
}

const TEXT_HELPER: &str =
    "POSTC_HELPER postc_str postc_text(const char *ptr, int64_t len) {\n  postc_str s;\n  s.ptr = ptr;\n  s.len = len;\n  return s;\n}\n";

/// Complex products in double, rounded once, as the interpreter does.
/// GCC's vectoriser turns the product into fused multiply-adds whatever
/// `-ffp-contract` says: not here (and written once in IR, a call of it
/// took 1.6x the time, docs/backends.md).
const CMUL: &str =
    "POSTC_EXACT POSTC_HELPER double _Complex postc_cmul(double ar, double ai, double br, double bi) {\n  \
                    return postc_c128(ar * br - ai * bi, ar * bi + ai * br);\n}\n";
