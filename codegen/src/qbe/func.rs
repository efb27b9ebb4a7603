//! One IR function as one QBE function: every IR value a temporary
//! `%vN` (a `let` local is a temporary assigned again; QBE builds the SSA
//! form), complex and text values the address of their slot, allocated in
//! the start block; every IR block a label `@bN` in reverse postorder.

use super::{class, Sig, Target, Translation, STR_TYPE};
use postc_ir::body::{InstData, Literal};
use postc_ir::builtins::Builtin;
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{BlockId, DType, Field, FuncId, Function, Module, ModuleId, Opcode, ValueId};
use std::fmt::Write as _;

type R<T> = Result<T, Box<Diagnostic>>;

/// The class of the temporary a call with ABI return type `t` defines.
pub(crate) fn ret_class(t: &str) -> &str {
    match t {
        "sb" | "ub" | "sh" | "uh" => "w",
        t => t,
    }
}

fn part(d: DType) -> DType {
    d.complex_part().unwrap_or(d)
}

/// Whether values of `d` live in a stack slot (the value is its address).
fn in_memory(d: DType) -> bool {
    d.is_complex() || d.is_text()
}

/// The load of a scalar element of dtype `d` (not complex or text): the
/// class of its value and the instruction (Bool and Float16 as their
/// bytes, Bool made 0/1 by the reader).
pub(super) fn load_op(d: DType) -> (char, &'static str) {
    match d {
        DType::Bool | DType::UInt8 => ('w', "loadub"),
        DType::Int8 => ('w', "loadsb"),
        DType::Int16 => ('w', "loadsh"),
        DType::UInt16 | DType::Float16 => ('w', "loaduh"),
        DType::Int32 | DType::UInt32 => ('w', "loadw"),
        DType::Float32 => ('s', "loads"),
        DType::Float64 => ('d', "loadd"),
        _ => ('l', "loadl"),
    }
}

/// The store of a scalar element of dtype `d` (not complex or text).
pub(super) fn store_op(d: DType) -> &'static str {
    match d {
        DType::Bool | DType::UInt8 | DType::Int8 => "storeb",
        DType::Int16 | DType::UInt16 | DType::Float16 => "storeh",
        DType::Int32 | DType::UInt32 => "storew",
        DType::Float32 => "stores",
        DType::Float64 => "stored",
        _ => "storel",
    }
}

fn slot_size(d: DType) -> u32 {
    if d.is_text() {
        16
    } else {
        d.size_bytes()
    }
}

/// The extension that keeps a `w` value of `d` in its width, if any.
pub(crate) fn narrow_op(d: DType) -> Option<&'static str> {
    match d {
        DType::Int8 => Some("extsb"),
        DType::UInt8 => Some("extub"),
        DType::Int16 => Some("extsh"),
        DType::UInt16 => Some("extuh"),
        _ => None,
    }
}

/// A float literal of a class (`s` or `d`) holding `x` exactly.
pub(crate) fn float_const(c: char, x: f64) -> Option<String> {
    if !x.is_finite() {
        return None;
    }
    Some(format!("{c}_{x:e}"))
}

struct FnQ<'t, 'p> {
    t: &'t mut Translation<'p>,
    mid: ModuleId,
    m: &'p Module,
    f: &'p Function,
    sig: Sig,
    start: String,
    out: String,
    tmp: u32,
    mark: Option<String>,
    func_loc: Option<Pos>,
    /// Array parameters whose element base is `%baseN`.
    bases: std::collections::HashSet<ValueId>,
    /// The stack slots a call of a function with a tuple result had each
    /// element written to, by call.
    tuple_slots: std::collections::HashMap<ValueId, Vec<String>>,
}

/// Translates function `fid` of module `mid`.
pub(crate) fn translate(t: &mut Translation<'_>, mid: ModuleId, fid: FuncId) -> R<String> {
    let program = t.program;
    let m = &program.modules[mid];
    let f = &m.functions[fid];
    let sig = t.sigs[&(mid, fid)].clone();
    let mut fq = FnQ {
        t,
        mid,
        m,
        f,
        sig,
        start: String::new(),
        out: String::new(),
        tmp: 0,
        mark: None,
        func_loc: f.loc.map(|l| Pos::from_loc(&m.files, l)),
        bases: Default::default(),
        tuple_slots: Default::default(),
    };
    fq.run()
}

impl<'t, 'p> FnQ<'t, 'p> {
    fn err<T>(&self, v: Option<ValueId>, msg: String) -> R<T> {
        let pos = v.and_then(|v| self.f.body.loc(v)).map(|l| Pos::from_loc(&self.m.files, l)).or(self.func_loc.clone());
        Err(Box::new(Diagnostic::error(format!("in function `{}`: {msg}", self.f.name), pos)))
    }

    fn unsupported<T>(&self, v: ValueId, what: String) -> R<T> {
        self.err(Some(v), format!("{what} is not supported by the qbe backend (the LLVM backend compiles it)"))
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

    /// The class of a value's temporary.
    fn vcls(&self, v: ValueId) -> char {
        if self.is_array(v) {
            'l'
        } else {
            class(self.dt(v))
        }
    }

    fn val(&self, v: ValueId) -> String {
        format!("%v{}", v.as_u32())
    }

    fn line(&mut self, s: impl AsRef<str>) {
        self.out.push_str("  ");
        self.out.push_str(s.as_ref());
        self.out.push('\n');
    }

    fn label(&mut self, l: &str) {
        let _ = writeln!(self.out, "@{l}");
    }

    fn fresh(&mut self) -> u32 {
        self.tmp += 1;
        self.tmp
    }

    /// A new temporary `%tN` of class `c` defined as `rhs`.
    fn def(&mut self, c: char, rhs: impl AsRef<str>) -> String {
        let n = format!("%t{}", self.fresh());
        let l = format!("{n} ={c} {}", rhs.as_ref());
        self.line(l);
        n
    }

    /// A new temporary holding the address of a `:postc_str` result.
    fn def_text(&mut self, rhs: String) -> String {
        let n = format!("%t{}", self.fresh());
        let l = format!("{n} ={STR_TYPE} {rhs}");
        self.line(l);
        n
    }

    /// A stack slot of `size` bytes in the start block.
    fn slot(&mut self, size: u32) -> String {
        let n = format!("%m{}", self.fresh());
        let _ = writeln!(self.start, "  {n} =l alloc8 {}", size.max(8));
        n
    }

    fn loc_text(&self, v: ValueId) -> Option<String> {
        crate::abi::loc_text(self.m, self.f, v)
    }

    /// `cond ? a : b` of class `c`, as branches.
    fn select(&mut self, c: char, cond: &str, a: &str, b: &str) -> String {
        let n = self.fresh();
        let r = format!("%t{n}");
        self.line(format!("jnz {cond}, @st{n}, @sf{n}"));
        self.label(&format!("st{n}"));
        self.line(format!("{r} ={c} copy {a}"));
        self.line(format!("jmp @sj{n}"));
        self.label(&format!("sf{n}"));
        self.line(format!("{r} ={c} copy {b}"));
        self.label(&format!("sj{n}"));
        r
    }

    /// Re-narrows a `w` result to the width of `d`.
    fn narrow(&mut self, d: DType, x: String) -> String {
        match narrow_op(d) {
            Some(op) => self.def('w', format!("{op} {x}")),
            None => x,
        }
    }

    fn copy_mem(&mut self, to: &str, from: &str, size: u32) {
        self.line(format!("blit {from}, {to}, {size}"));
    }

    fn run(&mut self) -> R<String> {
        let body = &self.f.body;
        if body.blocks.is_empty() {
            return self.err(None, "function has no body".into());
        }
        // Slots of the complex and text values.
        for v in body.tags.ids() {
            if body.ty(v).is_some() && !self.is_array(v) && in_memory(self.dt(v)) {
                let n = self.val(v);
                let _ = writeln!(self.start, "  {n} =l alloc8 16");
            }
        }
        // Parameters.
        let params: Vec<ValueId> = body.all_params().collect();
        let mut pdecl = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let ty = self.sig.params[i].clone();
            let d = self.dt(*p);
            let pn = format!("%p{i}");
            pdecl.push(format!("{ty} {pn}"));
            let vn = self.val(*p);
            if self.is_array(*p) {
                let _ = writeln!(self.start, "  {vn} =l copy {pn}");
            } else if in_memory(d) {
                let _ = writeln!(self.start, "  blit {pn}, {vn}, {}", slot_size(d));
            } else if d == DType::Float16 {
                let _ = writeln!(self.start, "  %h{i} =w cast {pn}\n  {vn} =w and %h{i}, 65535");
            } else {
                let _ = writeln!(self.start, "  {vn} ={} copy {pn}", class(d));
            }
        }
        if self.sig.complex_out.is_some() {
            pdecl.push(format!("l %p{}", params.len()));
        }
        pdecl.extend((0..self.sig.tuple_out.len()).map(|k| format!("l %p{}", params.len() + k)));
        // The element base (`data + byte_offset`) of an array parameter that
        // is never assigned, computed once: QBE does not hoist the loads.
        let assigned: std::collections::HashSet<ValueId> = body
            .tags
            .ids()
            .filter_map(|v| match body.inst(v) {
                InstData::Set { target, .. } => Some(target),
                _ => None,
            })
            .collect();
        for p in &params {
            if self.is_array(*p) && !assigned.contains(p) {
                let (vn, n) = (self.val(*p), p.as_u32());
                let _ = writeln!(
                    self.start,
                    "  %data{n} =l loadl {vn}\n  %bo{n}p =l add {vn}, {}\n  %bo{n} =l loadl %bo{n}p\n  %base{n} =l add %data{n}, %bo{n}",
                    crate::abi::dltensor::BYTE_OFFSET
                );
                self.bases.insert(*p);
            }
        }
        let has_alloc = body.tags.iter().any(|o| crate::abi::allocates_in_arena(*o));
        let calls_array_fn = body.tags.ids().any(|v| {
            matches!(body.inst(v), InstData::Call { callee, .. } if Builtin::from_name(callee).is_none())
                && self.is_array(v)
                && body.ty(v).is_some()
        });
        // Arrays in a tuple: those returned are exported, those a call
        // returned are adopted, both against the mark.
        let tuple_arrays = body.tags.ids().any(|v| {
            matches!(body.opcode(v), Opcode::Call | Opcode::Tuple)
                && self.tyd(v).is_some_and(|t| t.elements.iter().any(|e| e.is_array))
        });
        if has_alloc || calls_array_fn || self.sig.array_ret || tuple_arrays {
            let _ = writeln!(self.start, "  %mark =l call $postc_rt_arena_mark()");
            self.mark = Some("%mark".into());
        }
        let order: Vec<BlockId> = postc_ir::cfg::Cfg::compute(body).rpo().collect();
        // With debug information: the function's file and line (its `def`,
        // else its first located instruction), and the line of each
        // instruction in that file (QBE names one file per function).
        let at = self.f.loc.or_else(|| body.tags.ids().find_map(|v| body.loc(v)));
        let debug = if self.t.debug { at } else { None };
        for &b in &order {
            let _ = writeln!(self.out, "@b{}", b.as_u32());
            let mut last = None;
            for v in body.blocks[b].insts() {
                if let Some(file) = debug.map(|d| d.file) {
                    let l = body.loc(v).filter(|l| l.file == file).or(last).or(debug);
                    if let Some(l) =
                        l.filter(|l| last.map(|x: postc_ir::SrcLoc| (x.line, x.col)) != Some((l.line, l.col)))
                    {
                        self.line(format!("dbgloc {}, {}", l.line, l.col));
                        last = Some(l);
                    }
                }
                self.inst(v)?;
            }
        }
        let mut text = String::new();
        if let Some(d) = debug {
            let _ = writeln!(text, "dbgfile {}", super::quote(self.m.files.path(d.file).as_bytes()));
            self.start.insert_str(0, &format!("  dbgloc {}, {}\n", d.line, d.col));
        }
        let kind = if self.f.is_ufunc() { "ufunc" } else { "func" };
        let _ = writeln!(text, "# {kind} {}", self.f.name.replace('\n', " "));
        let export = if self.sig.exported { "export " } else { "" };
        let ret = self.sig.ret.clone().map(|r| format!("{r} ")).unwrap_or_default();
        let _ = writeln!(text, "{export}function {ret}${}({}) {{", self.sig.name, pdecl.join(", "));
        text.push_str("@start\n");
        text.push_str(&self.start);
        text.push_str("  jmp @b0\n");
        text.push_str(&self.out);
        text.push_str("}\n\n");
        Ok(text)
    }

    /// Loads part `i` (0 real, 1 imaginary) of the complex at `p`.
    fn cpart(&mut self, d: DType, p: &str, i: u32) -> String {
        let pd = part(d);
        let (c, load) = if pd == DType::Float32 { ('s', "loads") } else { ('d', "loadd") };
        if i == 0 {
            self.def(c, format!("{load} {p}"))
        } else {
            let a = self.def('l', format!("add {p}, {}", pd.size_bytes()));
            self.def(c, format!("{load} {a}"))
        }
    }

    fn store_cpart(&mut self, d: DType, p: &str, i: u32, x: &str) {
        let pd = part(d);
        let st = if pd == DType::Float32 { "stores" } else { "stored" };
        if i == 0 {
            self.line(format!("{st} {x}, {p}"));
        } else {
            let a = self.def('l', format!("add {p}, {}", pd.size_bytes()));
            self.line(format!("{st} {x}, {a}"));
        }
    }

    fn f16_to_s(&mut self, x: &str) -> String {
        let a = self.def('s', format!("cast {x}"));
        self.def('s', format!("call $__extendhfsf2(s {a})"))
    }

    fn s_to_f16(&mut self, x: &str, from: char) -> String {
        let f = if from == 's' { "__truncsfhf2" } else { "__truncdfhf2" };
        let r = self.def('s', format!("call ${f}({from} {x})"));
        let b = self.def('w', format!("cast {r}"));
        self.def('w', format!("and {b}, 65535"))
    }

    /// A float literal of class `c`.
    fn fconst(&mut self, c: char, x: f64) -> String {
        match float_const(c, x) {
            Some(s) => s,
            None => {
                if c == 's' {
                    let b = self.def('w', format!("copy {}", (x as f32).to_bits() as i32));
                    self.def('s', format!("cast {b}"))
                } else {
                    let b = self.def('l', format!("copy {}", x.to_bits() as i64));
                    self.def('d', format!("cast {b}"))
                }
            }
        }
    }

    /// Converts scalar `x` of dtype `from` into dtype `to` (neither complex
    /// nor text: casts of those are `legalize`'s).
    fn convert(&mut self, x: &str, from: DType, to: DType) -> String {
        if from == to {
            return x.to_owned();
        }
        // Float16 goes through Float32.
        if from == DType::Float16 {
            let s = self.f16_to_s(x);
            return self.convert(&s, DType::Float32, to);
        }
        if to == DType::Float16 {
            return match from {
                DType::Float32 => self.s_to_f16(x, 's'),
                DType::Float64 => self.s_to_f16(x, 'd'),
                _ => {
                    let d = self.convert(x, from, DType::Float64);
                    self.s_to_f16(&d, 'd')
                }
            };
        }
        if to == DType::Bool {
            let c = class(from);
            if from.is_float() {
                let z = self.fconst(c, 0.0);
                return self.def('w', format!("cne{c} {x}, {z}"));
            }
            return self.def('w', format!("cne{c} {x}, 0"));
        }
        let from_int = from.is_int() || from == DType::Bool;
        if to.is_int() {
            if from_int {
                let (fc, tc) = (class(from), class(to));
                if tc == 'l' {
                    return if fc == 'l' {
                        x.to_owned()
                    } else if from.is_signed_int() {
                        self.def('l', format!("extsw {x}"))
                    } else {
                        self.def('l', format!("extuw {x}"))
                    };
                }
                let w = if fc == 'l' { self.def('w', format!("copy {x}")) } else { x.to_owned() };
                return self.narrow(to, w);
            }
            // A float converts only where it truncates into range:
            // `legalize` wrote the saturation out.
            let fc = class(from);
            return match (to.is_signed_int(), class(to)) {
                (true, 'w') => self.def('w', format!("{fc}tosi {x}")),
                (false, 'w') => {
                    let wide = self.def('l', format!("{fc}tosi {x}"));
                    self.def('w', format!("copy {wide}"))
                }
                (true, _) => self.def('l', format!("{fc}tosi {x}")),
                (false, _) => self.def('l', format!("{fc}toui {x}")),
            };
        }
        // To Float32 or Float64.
        let tc = class(to);
        if from_int {
            let op = match (class(from), from.is_signed_int()) {
                ('w', true) => "swtof",
                ('w', false) => "uwtof",
                (_, true) => "sltof",
                _ => "ultof",
            };
            return self.def(tc, format!("{op} {x}"));
        }
        if to == DType::Float64 {
            self.def('d', format!("exts {x}"))
        } else {
            self.def('s', format!("truncd {x}"))
        }
    }

    fn inst(&mut self, v: ValueId) -> R<()> {
        let body = &self.f.body;
        match body.inst(v) {
            InstData::Param { .. } => {}
            InstData::Const(lit) => {
                let d = self.dt(v);
                let n = self.val(v);
                match lit {
                    Literal::Bool(b) => self.line(format!("{n} =w copy {}", u8::from(b))),
                    Literal::Int(i) => {
                        let bits = d.bits();
                        let w = if bits >= 128 { i } else { (i << (128 - bits)) >> (128 - bits) };
                        // Unsigned values of 8 to 32 bits are kept zero-extended.
                        let w = if d.is_unsigned_int() && bits < 64 { w & ((1i128 << bits) - 1) } else { w };
                        self.line(format!("{n} ={} copy {}", class(d), w as i64));
                    }
                    Literal::Float(bits) => {
                        if d == DType::Float16 {
                            self.line(format!("{n} =w copy {}", bits & 0xffff));
                        } else {
                            let x = postc_ir::body::float_bits_to_f64(d, bits);
                            let c = self.fconst(class(d), x);
                            self.line(format!("{n} ={} copy {c}", class(d)));
                        }
                    }
                    Literal::Complex(re, im) => {
                        let p = part(d);
                        let (r, i) =
                            (postc_ir::body::float_bits_to_f64(p, re), postc_ir::body::float_bits_to_f64(p, im));
                        let (r, i) = (self.fconst(class(p), r), self.fconst(class(p), i));
                        self.store_cpart(d, &n, 0, &r);
                        self.store_cpart(d, &n, 1, &i);
                    }
                    Literal::Str(s) => self.text_const(&n, s.as_bytes()),
                    Literal::Bytes(b) => self.text_const(&n, b),
                }
            }
            InstData::Binary { op, left, right } => self.binary(v, op, left, right)?,
            InstData::Unary { op, operand } => self.unary(v, op, operand)?,
            InstData::Cast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                let x = self.val(operand);
                let n = self.val(v);
                if in_memory(to) || in_memory(from) {
                    return self.err(Some(v), crate::backend::written_out(&format!("cast from {from} to {to}")));
                }
                let r = self.convert(&x, from, to);
                self.line(format!("{n} ={} copy {r}", class(to)));
            }
            InstData::Bitcast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                let (x, n) = (self.val(operand), self.val(v));
                // A Float16 is its bits in a `w` already; QBE's `cast`
                // moves the others' between an integer and a float class.
                let how = if from == DType::Float16 || to == DType::Float16 { "copy" } else { "cast" };
                self.line(format!("{n} ={} {how} {x}", class(to)));
            }
            InstData::Load { array, offset } => {
                let addr = self.elem_addr(array, offset);
                self.load_at(v, &addr);
            }
            InstData::Store { array, offset, value } => {
                let addr = self.elem_addr(array, offset);
                self.store_at(value, &addr);
            }
            InstData::Dim { array, axis } => {
                let a = self.val(array);
                let sp = self.def('l', format!("add {a}, {}", crate::abi::dltensor::SHAPE));
                let shape = self.def('l', format!("loadl {sp}"));
                let e = self.def('l', format!("add {shape}, {}", 8 * axis as u64));
                let n = self.val(v);
                self.line(format!("{n} =l loadl {e}"));
            }
            InstData::Stride { array, axis } => {
                let d = self.dt(array);
                let a = self.val(array);
                let n = self.val(v);
                match self.tyd(array).and_then(|t| t.ndim()) {
                    Some(ndim) if (axis as usize) < ndim => {
                        let b = self.inline_stride(&a, axis as usize, ndim, d.size_bytes());
                        self.line(format!("{n} =l copy {b}"));
                    }
                    _ => {
                        let size = if d.is_text() { 16 } else { d.size_bytes() };
                        self.line(format!("{n} =l call $postc_rt_stride(l {a}, l {axis}, l {size})"));
                    }
                }
            }
            InstData::Call { callee, args } => {
                let args: Vec<ValueId> = args.iter().collect();
                self.call(v, callee, args)?;
            }
            InstData::Let { value } => self.assign(v, value),
            InstData::Set { target, value } => self.assign(target, value),
            InstData::Select { cond, if_true, if_false } => {
                let (c, a, b) = (self.val(cond), self.val(if_true), self.val(if_false));
                let n = self.val(v);
                let k = self.fresh();
                self.line(format!("jnz {c}, @st{k}, @sf{k}"));
                self.label(&format!("st{k}"));
                self.assign_raw(v, &a);
                self.line(format!("jmp @sj{k}"));
                self.label(&format!("sf{k}"));
                self.assign_raw(v, &b);
                self.label(&format!("sj{k}"));
                let _ = n;
            }
            InstData::Alloc { dims } => {
                let d = self.dt(v);
                if d.is_text() {
                    return self.err(Some(v), format!("cannot allocate an array of {d}"));
                }
                let (code, bits) = crate::abi::dlpack_dtype(d);
                // A negative extent is guarded by `insert-checks`.
                let lens: Vec<String> = dims.iter().map(|length| self.val(length)).collect();
                let n = self.val(v);
                if let [len] = &lens[..] {
                    self.line(format!(
                        "{n} =l call $postc_rt_alloc_array(l {len}, w {code}, w {bits}, l {})",
                        d.size_bytes()
                    ));
                } else {
                    // The extents go to the runtime through a stack slot.
                    let buf = self.slot(8 * lens.len() as u32);
                    for (k, len) in lens.iter().enumerate() {
                        let at = self.def('l', format!("add {buf}, {}", 8 * k));
                        self.line(format!("storel {len}, {at}"));
                    }
                    self.line(format!(
                        "{n} =l call $postc_rt_alloc_nd(l {}, l {buf}, w {code}, w {bits}, l {})",
                        lens.len(),
                        d.size_bytes()
                    ));
                }
            }
            InstData::View { base, offset, extents, strides } => {
                // The extents, then the strides, go to the runtime through
                // a stack slot (checked before, by `insert-checks`).
                let items: Vec<String> = extents.iter().chain(strides.iter()).map(|x| self.val(x)).collect();
                let rank = extents.len();
                let buf = self.slot(8 * items.len().max(1) as u32);
                for (k, x) in items.iter().enumerate() {
                    let at = self.def('l', format!("add {buf}, {}", 8 * k));
                    self.line(format!("storel {x}, {at}"));
                }
                let strides_at = self.def('l', format!("add {buf}, {}", 8 * rank));
                let (b, off, n) = (self.val(base), self.val(offset), self.val(v));
                self.line(format!(
                    "{n} =l call $postc_rt_view(l {b}, l {off}, l {rank}, l {buf}, l {strides_at}, l {})",
                    self.dt(v).size_bytes()
                ));
            }
            InstData::GetField { aggregate, field } => {
                let d = self.dt(aggregate);
                let x = self.val(aggregate);
                let n = self.val(v);
                match field {
                    Field::Len if d == DType::Str => {
                        return self.err(Some(v), crate::backend::written_out("getfield len on Str"))
                    }
                    Field::Len | Field::NBytes => {
                        let a = self.def('l', format!("add {x}, 8"));
                        self.line(format!("{n} =l loadl {a}"));
                    }
                    Field::Real | Field::Imag => {
                        let r = self.cpart(d, &x, if field == Field::Real { 0 } else { 1 });
                        self.line(format!("{n} ={} copy {r}", class(part(d))));
                    }
                }
            }
            InstData::SetField { aggregate, field, value } => {
                let d = self.dt(aggregate);
                let (z, x) = (self.val(aggregate), self.val(value));
                self.store_cpart(d, &z, if field == Field::Real { 0 } else { 1 }, &x);
            }
            InstData::IndexLoad { .. } | InstData::IndexStore { .. } => {
                return self.err(
                    Some(v),
                    "`index.load`/`index.store` reached code generation (the `stride-lower` pass must run first)"
                        .into(),
                );
            }
            InstData::Return { value: Some(x) } if !self.sig.tuple_out.is_empty() => self.ret_tuple(v, x)?,
            InstData::Return { value } => self.ret(value),
            InstData::Br { target } => self.line(format!("jmp @b{}", target.as_u32())),
            InstData::CondBr { cond, if_true, if_false, .. } => {
                let c = self.val(cond);
                self.line(format!("jnz {c}, @b{}, @b{}", if_true.as_u32(), if_false.as_u32()));
            }
            // `insert-checks` put a panic call before every `unreachable`
            // that a run can reach.
            InstData::Unreachable => self.line("hlt"),
            InstData::Malformed => return self.err(Some(v), "malformed instruction".into()),
            // A `tuple` is its operands, read by the `return` (see
            // `ret_tuple`); a call's tuple is in one stack slot per element.
            InstData::Tuple { .. } => {}
            InstData::Extract { tuple, index } => self.extract(v, tuple, index)?,
            // Addresses are `l` values like the Int64 they are in the IR;
            // pointers and `intptr_t` are 8 bytes on every QBE target.
            InstData::RawRead { op: Opcode::RawField, base, index } => {
                let field = postc_ir::dtype::dltensor_offset(index, 8).unwrap_or(0);
                let (base, n) = (self.val(base), self.val(v));
                self.line(format!("{n} =l add {base}, {field}"));
            }
            InstData::RawRead { op: Opcode::RawSlot, base, index } => {
                let (base, n) = (self.val(base), self.val(v));
                self.line(format!("{n} =l add {base}, {}", 8 * index as u64));
            }
            InstData::RawRead { base, index, .. } => {
                let base = self.val(base);
                let at = self.def('l', format!("add {base}, {}", 8 * index as u64));
                let n = self.val(v);
                self.line(format!("{n} =l loadl {at}"));
            }
            InstData::RawOffset { address, bytes } => {
                let (a, b, n) = (self.val(address), self.val(bytes), self.val(v));
                self.line(format!("{n} =l add {a}, {b}"));
            }
            InstData::RawLoad { address } if self.f.body.opcode(v) == Opcode::RawIsNull => {
                let (a, n) = (self.val(address), self.val(v));
                self.line(format!("{n} =w ceql {a}, 0"));
            }
            InstData::RawLoad { address } => {
                let addr = self.val(address);
                self.load_at(v, &addr);
            }
            InstData::RawStore { address, value } if self.f.body.opcode(v) != Opcode::RawStore => {
                let (a, x) = (self.val(address), self.val(value));
                self.line(format!("storel {x}, {a}"));
            }
            InstData::RawStore { address, value } => {
                let addr = self.val(address);
                self.store_at(value, &addr);
            }
            // The header and its shape and strides are stack slots of the
            // function whose constant fields the start block writes: each
            // time, only the data, extents and strides (no arena block per
            // index, and few stores in a loop).
            InstData::RawView { address, offset, extents, strides } => {
                let d = self.dt(v);
                let (code, bits) = crate::abi::dlpack_dtype(d);
                let n = extents.len();
                let header = self.slot(48);
                let dims = self.slot(16 * n as u32);
                // DLTensor: data, device {type, id}, ndim, dtype {code,
                // bits, lanes}, shape, strides, byte_offset (zero: slots
                // are not, so every field is written).
                let fixed = [
                    ("storew", "1".to_owned(), 8),
                    ("storew", "0".to_owned(), 12),
                    ("storew", n.to_string(), 16),
                    ("storeb", code.to_string(), 20),
                    ("storeb", bits.to_string(), 21),
                    ("storeh", "1".to_owned(), 22),
                    ("storel", dims.clone(), 24),
                    ("storel", format!("%t{}", self.fresh()), 32),
                    ("storel", "0".to_owned(), 40),
                ];
                let strides_at = &fixed[7].1;
                let _ = writeln!(self.start, "  {strides_at} =l add {dims}, {}", 8 * n);
                for (store, x, off) in &fixed {
                    let at = format!("%t{}", self.fresh());
                    let _ = writeln!(self.start, "  {at} =l add {header}, {off}\n  {store} {x}, {at}");
                }
                for (k, x) in extents.iter().enumerate() {
                    let (x, at) = (self.val(x), self.def('l', format!("add {dims}, {}", 8 * k)));
                    self.line(format!("storel {x}, {at}"));
                }
                // Element strides: exact quotients by a power of two.
                let shift = d.size_bytes().trailing_zeros();
                for (k, x) in strides.iter().enumerate() {
                    let x = self.val(x);
                    let elems = self.def('l', format!("sar {x}, {shift}"));
                    let at = self.def('l', format!("add {dims}, {}", 8 * (n + k)));
                    self.line(format!("storel {elems}, {at}"));
                }
                let (address, offset) = (self.val(address), self.val(offset));
                let data = self.def('l', format!("add {address}, {offset}"));
                self.line(format!("storel {data}, {header}"));
                let n = self.val(v);
                self.line(format!("{n} =l copy {header}"));
            }
            InstData::RawData { array } => {
                let a = self.val(array);
                let bo_at = self.def('l', format!("add {a}, 40"));
                let data = self.def('l', format!("loadl {a}"));
                let bo = self.def('l', format!("loadl {bo_at}"));
                let n = self.val(v);
                self.line(format!("{n} =l add {data}, {bo}"));
            }
            InstData::TextByte { text, index } => {
                // A Str or Bytes is the address of its `{ptr, len}` pair.
                let (x, i) = (self.val(text), self.val(index));
                let p = self.def('l', format!("loadl {x}"));
                let at = self.def('l', format!("add {p}, {i}"));
                let (n, load) = (self.val(v), if self.dt(v) == DType::UInt64 { "=l loadl" } else { "=w loadub" });
                self.line(format!("{n} {load} {at}"));
            }
        }
        Ok(())
    }

    fn text_const(&mut self, n: &str, bytes: &[u8]) {
        let s = self.t.string(bytes);
        self.line(format!("storel {s}, {n}"));
        let a = self.def('l', format!("add {n}, 8"));
        self.line(format!("storel {}, {a}", bytes.len()));
    }

    /// `target = value` (a `let` or a `set`).
    fn assign(&mut self, target: ValueId, value: ValueId) {
        let x = self.val(value);
        self.assign_raw(target, &x);
    }

    fn assign_raw(&mut self, target: ValueId, x: &str) {
        let n = self.val(target);
        let d = self.dt(target);
        if !self.is_array(target) && in_memory(d) {
            self.copy_mem(&n, x, slot_size(d));
        } else {
            let c = self.vcls(target);
            self.line(format!("{n} ={c} copy {x}"));
        }
    }

    /// `v` = the element of its dtype at `addr`.
    fn load_at(&mut self, v: ValueId, addr: &str) {
        let d = self.dt(v);
        let n = self.val(v);
        if in_memory(d) {
            self.copy_mem(&n, addr, slot_size(d));
            return;
        }
        let (c, op) = load_op(d);
        if d == DType::Bool {
            let b = self.def('w', format!("{op} {addr}"));
            self.line(format!("{n} =w cnew {b}, 0"));
        } else {
            self.line(format!("{n} ={c} {op} {addr}"));
        }
    }

    /// Stores `value` as an element of its dtype at `addr`.
    fn store_at(&mut self, value: ValueId, addr: &str) {
        let d = self.dt(value);
        let x = self.val(value);
        if in_memory(d) {
            self.copy_mem(addr, &x, slot_size(d));
        } else {
            self.line(format!("{} {x}, {addr}", store_op(d)));
        }
    }

    /// The address of the element at the byte offset `offset` of `array`.
    fn elem_addr(&mut self, array: ValueId, offset: ValueId) -> String {
        let a = self.val(array);
        let off = self.val(offset);
        if self.bases.contains(&array) {
            return self.def('l', format!("add %base{}, {off}", array.as_u32()));
        }
        let data = self.def('l', format!("loadl {a}"));
        let bop = self.def('l', format!("add {a}, {}", crate::abi::dltensor::BYTE_OFFSET));
        let bo = self.def('l', format!("loadl {bop}"));
        let base = self.def('l', format!("add {data}, {bo}"));
        self.def('l', format!("add {base}, {off}"))
    }

    /// The byte stride of `axis`: `strides[axis] * size`, or for a compact
    /// tensor (`strides == NULL`) the product of the later extents times
    /// `size` (the rank is trusted, docs/abi.md).
    fn inline_stride(&mut self, a: &str, axis: usize, ndim: usize, size: u32) -> String {
        let sp = self.def('l', format!("add {a}, {}", crate::abi::dltensor::STRIDES));
        let strides = self.def('l', format!("loadl {sp}"));
        let n = self.fresh();
        let r = format!("%t{n}");
        self.line(format!("jnz {strides}, @given{n}, @compact{n}"));
        self.label(&format!("given{n}"));
        let e = self.def('l', format!("add {strides}, {}", 8 * axis));
        let g = self.def('l', format!("loadl {e}"));
        self.line(format!("{r} =l mul {g}, {size}"));
        self.line(format!("jmp @join{n}"));
        self.label(&format!("compact{n}"));
        let mut c = size.to_string();
        if axis + 1 < ndim {
            let shp = self.def('l', format!("add {a}, {}", crate::abi::dltensor::SHAPE));
            let shape = self.def('l', format!("loadl {shp}"));
            for k in axis + 1..ndim {
                let e = self.def('l', format!("add {shape}, {}", 8 * k));
                let d = self.def('l', format!("loadl {e}"));
                c = self.def('l', format!("mul {c}, {d}"));
            }
        }
        self.line(format!("{r} =l copy {c}"));
        self.label(&format!("join{n}"));
        r
    }

    fn release(&mut self) {
        if let Some(m) = self.mark.clone() {
            self.line(format!("call $postc_rt_arena_release(l {m})"));
        }
    }

    /// `v` = element `index` of the tuple a call wrote to its slots (or
    /// of a `tuple`).
    fn extract(&mut self, v: ValueId, tuple: ValueId, index: u32) -> R<()> {
        let n = self.val(v);
        let d = self.dt(v);
        if let InstData::Tuple { elements } = self.f.body.inst(tuple) {
            let Some(e) = elements.get(index as usize) else {
                return self.err(Some(v), "`extract` out of range".into());
            };
            let x = self.val(e);
            if !self.is_array(v) && in_memory(d) {
                self.copy_mem(&n, &x, slot_size(d));
            } else {
                let c = if self.is_array(v) { 'l' } else { class(d) };
                self.line(format!("{n} ={c} copy {x}"));
            }
            return Ok(());
        }
        let Some(at) = self.tuple_slots.get(&tuple).and_then(|s| s.get(index as usize)).cloned() else {
            return self.err(Some(v), "`extract` of a tuple no call wrote".into());
        };
        if self.is_array(v) {
            self.line(format!("{n} =l loadl {at}"));
        } else if in_memory(d) {
            self.copy_mem(&n, &at, slot_size(d));
        } else {
            let (c, op) = load_op(d);
            self.line(format!("{n} ={c} {op} {at}"));
        }
        Ok(())
    }

    /// Returns the `tuple` `x`: each element through its out-pointer, the
    /// last parameters (docs/abi.md §2), the arrays exported together.
    fn ret_tuple(&mut self, v: ValueId, x: ValueId) -> R<()> {
        let InstData::Tuple { elements } = self.f.body.inst(x) else {
            return self.unsupported(v, "returning the tuple a call returned".to_owned());
        };
        let elements: Vec<ValueId> = elements.iter().collect();
        let first_out = self.sig.params.len() - elements.len();
        let outs = self.sig.tuple_out.clone();
        let mut arrays = Vec::new();
        for (k, (&e, &(d, is_array))) in elements.iter().zip(&outs).enumerate() {
            let (out, val) = (format!("%p{}", first_out + k), self.val(e));
            if is_array {
                arrays.push((out, val));
            } else if in_memory(d) {
                self.copy_mem(&out, &val, slot_size(d));
            } else {
                self.line(format!("{} {val}, {out}", store_op(d)));
            }
        }
        if arrays.is_empty() {
            self.release();
        } else {
            let buf = self.slot(8 * arrays.len() as u32);
            let mut places = Vec::new();
            for (i, (_, val)) in arrays.iter().enumerate() {
                let at = self.def('l', format!("add {buf}, {}", 8 * i));
                self.line(format!("storel {val}, {at}"));
                places.push(at);
            }
            let mark = self.mark.clone().unwrap_or_else(|| "0".into());
            self.line(format!("call $postc_rt_arena_export_tuple(l {mark}, l {}, l {buf})", arrays.len()));
            for ((out, _), at) in arrays.iter().zip(places) {
                let m = self.def('l', format!("loadl {at}"));
                self.line(format!("storel {m}, {out}"));
            }
        }
        self.line("ret");
        Ok(())
    }

    fn ret(&mut self, value: Option<ValueId>) {
        match value {
            Some(x) if self.sig.complex_out.is_some() => {
                let d = self.dt(x);
                let a = self.val(x);
                let out = format!("%p{}", self.sig.params.len() - 1);
                self.copy_mem(&out, &a, slot_size(d));
                self.release();
                self.line("ret");
            }
            Some(x) if self.sig.array_ret => {
                let a = self.val(x);
                let mark = self.mark.clone().unwrap_or_else(|| "0".into());
                let r = self.def('l', format!("call $postc_rt_arena_export(l {mark}, l {a})"));
                self.line(format!("ret {r}"));
            }
            Some(x) if self.sig.ret.is_some() => {
                let d = self.dt(x);
                let a = self.val(x);
                let r = if d == DType::Float16 { self.def('s', format!("cast {a}")) } else { a };
                self.release();
                self.line(format!("ret {r}"));
            }
            _ => {
                self.release();
                self.line("ret");
            }
        }
    }

    fn binary(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        let od = self.dt(l);
        let (a, b) = (self.val(l), self.val(r));
        let n = self.val(v);
        if od.is_text() {
            let s = STR_TYPE;
            match op {
                Opcode::Add => {
                    let p = self.def_text(format!("call $postc_rt_str_concat({s} {a}, {s} {b})"));
                    self.copy_mem(&n, &p, 16);
                }
                _ if op.is_compare() => {
                    return self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())))
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
            return Ok(());
        }
        if od.is_int() || od == DType::Bool {
            let c = class(od);
            let signed = od.is_signed_int();
            let bits = if od == DType::Bool { 1 } else { od.bits() };
            let cmp = |p: &str| format!("c{p}{c} {a}, {b}");
            let r = match op {
                Opcode::Add | Opcode::Sub | Opcode::Mul => {
                    let ins = match op {
                        Opcode::Add => "add",
                        Opcode::Sub => "sub",
                        _ => "mul",
                    };
                    let x = self.def(c, format!("{ins} {a}, {b}"));
                    self.narrow(od, x)
                }
                // `legalize` wrote integer `//`, `%` and `**` out in these
                // (on values extended to the class); the divisor is never
                // zero nor -1 with a minimal dividend.
                Opcode::Quot | Opcode::Rem => {
                    let ins = match (op, signed) {
                        (Opcode::Quot, true) => "div",
                        (Opcode::Quot, false) => "udiv",
                        (_, true) => "rem",
                        (_, false) => "urem",
                    };
                    let x = self.def(c, format!("{ins} {a}, {b}"));
                    self.narrow(od, x)
                }
                Opcode::Eq => self.def('w', cmp("eq")),
                Opcode::Ne => self.def('w', cmp("ne")),
                Opcode::Lt => self.def('w', cmp(if signed { "slt" } else { "ult" })),
                Opcode::Le => self.def('w', cmp(if signed { "sle" } else { "ule" })),
                Opcode::Gt => self.def('w', cmp(if signed { "sgt" } else { "ugt" })),
                Opcode::Ge => self.def('w', cmp(if signed { "sge" } else { "uge" })),
                Opcode::And | Opcode::BAnd => self.def(c, format!("and {a}, {b}")),
                Opcode::Or | Opcode::BOr => self.def(c, format!("or {a}, {b}")),
                Opcode::BXor => self.def(c, format!("xor {a}, {b}")),
                Opcode::Shl | Opcode::Shr => {
                    // A count of the width or more (or negative) never
                    // reaches the shift: 0, or the sign fill for `shr`.
                    let big = self.def('w', format!("cuge{c} {b}, {bits}"));
                    let arith = op == Opcode::Shr && signed;
                    let safe = if arith { (bits - 1).to_string() } else { "0".into() };
                    let cnt = self.select(c, &big, &safe, &b);
                    let ins = match (op, arith) {
                        (Opcode::Shl, _) => "shl",
                        (_, true) => "sar",
                        _ => "shr",
                    };
                    let s = self.def(c, format!("{ins} {a}, {cnt}"));
                    let s = if arith { s } else { self.select(c, &big, "0", &s) };
                    self.narrow(od, s)
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            };
            self.line(format!("{n} ={} copy {r}", self.vcls(v)));
            return Ok(());
        }
        if od == DType::Float16 {
            return self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())));
        }
        if od.is_float() {
            let (x, y, c) = (a, b, class(od));
            let r = match op {
                Opcode::Add | Opcode::Sub | Opcode::Mul | Opcode::Div => {
                    let ins = match op {
                        Opcode::Add => "add",
                        Opcode::Sub => "sub",
                        Opcode::Mul => "mul",
                        _ => "div",
                    };
                    self.def(c, format!("{ins} {x}, {y}"))
                }
                // `fdiv` and `mod` are calls of `legalize`'s functions by
                // now, and a Float32 power a Float64 one.
                Opcode::Pow if od == DType::Float64 => {
                    self.t.libc_call("pow");
                    self.def('d', format!("call $pow(d {x}, d {y})"))
                }
                Opcode::Eq => self.def('w', format!("ceq{c} {x}, {y}")),
                Opcode::Ne => self.def('w', format!("cne{c} {x}, {y}")),
                Opcode::Lt => self.def('w', format!("clt{c} {x}, {y}")),
                Opcode::Le => self.def('w', format!("cle{c} {x}, {y}")),
                Opcode::Gt => self.def('w', format!("cgt{c} {x}, {y}")),
                Opcode::Ge => self.def('w', format!("cge{c} {x}, {y}")),
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            };
            self.line(format!("{n} ={} copy {r}", self.vcls(v)));
            return Ok(());
        }
        // Complex arithmetic and comparisons are `legalize`'s by now.
        self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())))
    }

    fn unary(&mut self, v: ValueId, op: Opcode, x: ValueId) -> R<()> {
        let d = self.dt(x);
        let a = self.val(x);
        let n = self.val(v);
        let c = class(d);
        let r = match op {
            Opcode::Not => self.def('w', format!("xor {a}, 1")),
            Opcode::Inv if d == DType::Bool => self.def('w', format!("xor {a}, 1")),
            Opcode::Inv => {
                let r = self.def(c, format!("xor {a}, -1"));
                self.narrow(d, r)
            }
            Opcode::Neg if d.is_int() => {
                let r = self.def(c, format!("sub 0, {a}"));
                self.narrow(d, r)
            }
            // A Float16's sign bit (in a `w`).
            Opcode::Neg if d == DType::Float16 => self.def('w', format!("xor {a}, 32768")),
            Opcode::Neg if d.is_float() => self.def(c, format!("neg {a}")),
            Opcode::Abs if d.is_signed_int() => {
                let neg = self.def('w', format!("cslt{c} {a}, 0"));
                let m = self.def(c, format!("sub 0, {a}"));
                let m = self.narrow(d, m);
                self.select(c, &neg, &m, &a)
            }
            Opcode::Abs if d.is_int() => a,
            Opcode::Abs if d == DType::Float16 => self.def('w', format!("and {a}, 32767")),
            Opcode::Abs if d == DType::Float32 => {
                let b = self.def('w', format!("cast {a}"));
                let m = self.def('w', format!("and {b}, 2147483647"));
                self.def('s', format!("cast {m}"))
            }
            Opcode::Abs if d == DType::Float64 => {
                let b = self.def('l', format!("cast {a}"));
                let m = self.def('l', format!("and {b}, 9223372036854775807"));
                self.def('d', format!("cast {m}"))
            }
            _ if d.is_complex() => {
                return self.err(Some(v), crate::backend::written_out(&format!("{} on {d}", op.mnemonic())))
            }
            _ => return self.err(Some(v), format!("`{}` on {d}", op.mnemonic())),
        };
        self.line(format!("{n} ={} copy {r}", self.vcls(v)));
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
        let n = self.val(v);
        match target {
            Target::Builtin(Builtin::Panic) => self.panic_call(v, &args),
            Target::Builtin(Builtin::Overflows(op)) => self.err(Some(v), crate::backend::written_out(op.name())),
            Target::Builtin(Builtin::ParallelFor) => self.parallel_for(v, &args),
            Target::Builtin(Builtin::Print) => {
                // The runtime's entry of each argument's dtype, then the
                // one that writes the line; a Str is its two words.
                for &a in &args {
                    let d = self.dt(a);
                    let entry = crate::abi::print_entry(d);
                    let x = self.val(a);
                    let call = match d {
                        DType::Str => {
                            let ptr = self.def('l', format!("loadl {x}"));
                            let at = self.def('l', format!("add {x}, 8"));
                            let len = self.def('l', format!("loadl {at}"));
                            format!("call ${entry}(l {ptr}, l {len})")
                        }
                        DType::Bool => format!("call ${entry}(w {x})"),
                        DType::Float64 => format!("call ${entry}(d {x})"),
                        DType::Float32 => format!("call ${entry}(s {x})"),
                        _ => format!("call ${entry}(l {x})"),
                    };
                    self.line(call);
                }
                self.line(format!("call ${}()", crate::abi::PRINT_END));
                Ok(())
            }
            Target::Builtin(Builtin::Depth) => {
                let at = self.depth_addr();
                self.line(format!("{n} =l loadl {at}"));
                Ok(())
            }
            Target::Builtin(Builtin::SetDepth) => {
                let (at, d) = (self.depth_addr(), self.val(args[0]));
                self.line(format!("storel {d}, {at}"));
                Ok(())
            }
            Target::Builtin(Builtin::ParallelStopped) => {
                // The running loop's lowest panicked chunk: its address taken
                // once in the start block, then a load on the back edge (QBE
                // keeps every load where it is written).
                if !self.start.contains("%stopword =l") {
                    let _ = writeln!(self.start, "  %stopword =l call ${}()", crate::abi::PARALLEL_STOP_WORD);
                }
                let chunk = self.val(args[0]);
                let failed = self.def('l', "loadl %stopword");
                self.line(format!("{n} =w csgtl {chunk}, {failed}"));
                Ok(())
            }
            // `outline-parallel` deletes every marker; one left does nothing.
            Target::Builtin(Builtin::Prange) => Ok(()),
            Target::Builtin(b) => {
                self.unsupported(v, format!("`{}`, which runs only in `kernel` functions,", b.name()))
            }
            Target::Intrinsic(sym) => self.intrinsic_call(v, sym, &args),
            Target::Func(mid, fid) => {
                let Some(sig) = self.t.sigs.get(&(mid, fid)).cloned() else {
                    return self.unsupported(v, format!("a call to `{callee}` (a `gpu` or `kernel` function)"));
                };
                let mut parts = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let x = self.val(*a);
                    let ty = &sig.params[i];
                    let x = if self.dt(*a) == DType::Float16 && !self.is_array(*a) {
                        self.def('s', format!("cast {x}"))
                    } else {
                        x
                    };
                    parts.push(format!("{ty} {x}"));
                }
                let has_result = self.f.body.ty(v).is_some();
                if sig.complex_out.is_some() {
                    let out = if has_result { n.clone() } else { self.slot(16) };
                    parts.push(format!("l {out}"));
                }
                let slots: Vec<String> = sig.tuple_out.iter().map(|_| self.slot(16)).collect();
                parts.extend(slots.iter().map(|s| format!("l {s}")));
                let call = format!("call ${}({})", sig.name, parts.join(", "));
                match &sig.ret {
                    None => self.line(call),
                    Some(rt) if rt == STR_TYPE => {
                        let p = self.def_text(call);
                        if has_result {
                            self.copy_mem(&n, &p, 16);
                        }
                    }
                    Some(rt) => {
                        let c = ret_class(rt);
                        let d = if has_result { self.dt(v) } else { DType::Int64 };
                        if has_result && d == DType::Float16 && !sig.array_ret {
                            let r = self.def('s', call);
                            let b = self.def('w', format!("cast {r}"));
                            self.line(format!("{n} =w and {b}, 65535"));
                        } else if has_result {
                            self.line(format!("{n} ={c} {call}"));
                        } else {
                            let r = self.def(c.chars().next().unwrap_or('l'), call);
                            if sig.array_ret {
                                self.line(format!("call $postc_rt_arena_adopt(l {r})"));
                            }
                        }
                        if sig.array_ret && has_result {
                            self.line(format!("call $postc_rt_arena_adopt(l {n})"));
                        }
                    }
                }
                for (slot, _) in slots.iter().zip(&sig.tuple_out).filter(|(_, (_, is_array))| *is_array) {
                    let m = self.def('l', format!("loadl {slot}"));
                    self.line(format!("call $postc_rt_arena_adopt(l {m})"));
                }
                if !slots.is_empty() {
                    self.tuple_slots.insert(v, slots);
                }
                Ok(())
            }
        }
    }

    /// `postc.parallel_for`: the arguments after the range go into a stack
    /// slot of 8 bytes each (a complex or text value as the address of its
    /// slot, which the chunk function copies on entry), and a trampoline
    /// `$CHUNK_tramp(l env, l chunk, l lo, l hi)`, one per chunk function,
    /// loads them and calls the chunk function; `postc_rt_parallel_for`
    /// (the runtime's pool) calls the trampoline per chunk and returns the
    /// chunk count.
    fn parallel_for(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let fid = crate::calls::parallel_chunk(self.m, self.f, args).or_else(|msg| self.err(Some(v), msg))?;
        let name = &self.m.functions[fid].name;
        let captures = &args[4..];
        let sig = match self.t.sigs.get(&(self.mid, fid)) {
            Some(sig) if sig.params.len() == captures.len() + 3 => sig.clone(),
            _ => {
                return self
                    .err(Some(v), format!("`postc.parallel_for`: `{name}` does not take {} captures", captures.len()))
            }
        };
        // Each capture's class in the slot, and whether it is a Float16's
        // bits (passed as `s`).
        let fields: Vec<(char, bool)> =
            captures.iter().map(|&a| (self.vcls(a), !self.is_array(a) && self.dt(a) == DType::Float16)).collect();
        let env = self.slot(8 * captures.len() as u32);
        for (i, &a) in captures.iter().enumerate() {
            let at = self.def('l', format!("add {env}, {}", 8 * i));
            let x = self.val(a);
            self.line(format!("store{} {x}, {at}", fields[i].0));
        }
        let tramp = format!("{}_tramp", sig.name);
        let tramp = self.t.helper(&tramp, || {
            let mut text = format!("function ${tramp}(l %env, l %chunk, l %lo, l %hi) {{\n@start\n");
            let mut call = vec!["l %chunk".to_owned(), "l %lo".to_owned(), "l %hi".to_owned()];
            for (i, (c, half)) in fields.iter().enumerate() {
                let _ = writeln!(text, "  %at{i} =l add %env, {}\n  %a{i} ={c} load{c} %at{i}", 8 * i);
                let arg = if *half {
                    let _ = writeln!(text, "  %h{i} =s cast %a{i}");
                    format!("%h{i}")
                } else {
                    format!("%a{i}")
                };
                call.push(format!("{} {arg}", sig.params[i + 3]));
            }
            let _ = write!(text, "  call ${}({})\n  ret\n}}\n\n", sig.name, call.join(", "));
            text
        });
        let (start, stop, step) = (self.val(args[1]), self.val(args[2]), self.val(args[3]));
        let n = self.val(v);
        self.line(format!(
            "{n} =l call ${}(l {tramp}, l {env}, l {start}, l {stop}, l {step})",
            crate::abi::PARALLEL_FOR
        ));
        Ok(())
    }

    /// The address of the thread's call depth, taken once in the start block.
    fn depth_addr(&mut self) -> String {
        if !self.start.contains("%depth =l") {
            let _ = writeln!(self.start, "  %depth =l call ${}()", crate::abi::DEPTH_ADDR);
        }
        "%depth".to_owned()
    }

    fn intrinsic_call(&mut self, v: ValueId, sym: &str, args: &[ValueId]) -> R<()> {
        let rd = self.f.body.ty(v).map(|t| self.m.types.dtype(t));
        let n = self.val(v);
        let Some((base, f32_symbol)) = crate::calls::intrinsic_base(sym) else {
            // An external symbol: the arguments as they are.
            let mut parts = Vec::new();
            for a in args {
                let d = self.dt(*a);
                let ty = if self.is_array(*a) { "l".to_owned() } else { super::abi_type(d).to_owned() };
                let x = self.val(*a);
                let x = if d == DType::Float16 && !self.is_array(*a) { self.def('s', format!("cast {x}")) } else { x };
                parts.push(format!("{ty} {x}"));
            }
            let valid = sym.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
                && sym.bytes().next().is_some_and(|c| !c.is_ascii_digit());
            if !valid {
                return self.err(Some(v), format!("`import intrinsic` of `{sym}`: not a symbol QBE can name"));
            }
            let call = format!("call ${sym}({})", parts.join(", "));
            match rd {
                Some(d) if in_memory(d) || self.is_array(v) => {
                    return self.unsupported(v, format!("an external function `{sym}` returning {d}"))
                }
                Some(DType::Float16) => {
                    let r = self.def('s', call);
                    let b = self.def('w', format!("cast {r}"));
                    self.line(format!("{n} =w and {b}, 65535"));
                }
                Some(d) => {
                    let c = class(d);
                    let r = self.def(c, call);
                    let r = self.narrow(d, r);
                    self.line(format!("{n} ={c} copy {r}"));
                }
                None => self.line(call),
            }
            return Ok(());
        };
        let all_f32 = args.iter().all(|a| self.dt(*a) == DType::Float32) && rd == Some(DType::Float32);
        let w = if all_f32 || f32_symbol { DType::Float32 } else { DType::Float64 };
        let wc = class(w);
        let name = if w == DType::Float32 { format!("{base}f") } else { base.to_owned() };
        let mut xs = Vec::new();
        for a in args {
            let d = self.dt(*a);
            let x = self.val(*a);
            let y = self.convert(&x, d, w);
            xs.push(format!("{wc} {y}"));
        }
        self.t.libc_call(&name);
        let r = self.def(wc, format!("call ${name}({})", xs.join(", ")));
        if let Some(rd) = rd {
            let r = self.convert(&r, w, rd);
            self.line(format!("{n} ={} copy {r}", class(rd)));
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
        let mut rest = Vec::new();
        for a in args.iter().skip(1) {
            let d = self.dt(*a);
            let x = self.val(*a);
            rest.push(self.convert(&x, d, DType::Int64));
        }
        match lit {
            Some(s) => {
                let fmt = crate::abi::panic_format(s, rest.len(), self.loc_text(v).as_deref());
                let g = self.t.string(fmt.as_bytes());
                let mut call = format!("call $postc_rt_panic(l {g}, ...");
                for a in &rest {
                    let _ = write!(call, ", l {a}");
                }
                call.push(')');
                self.line(call);
            }
            None => {
                // A message known at run time: printed as it is.
                let fmt = crate::abi::runtime_panic_format(rest.len(), self.loc_text(v).as_deref());
                let g = self.t.string(fmt.as_bytes());
                let (p, len) = match msg {
                    Some(m) => {
                        let s = self.val(m);
                        let p = self.def('l', format!("loadl {s}"));
                        let la = self.def('l', format!("add {s}, 8"));
                        (p, self.def('w', format!("loadl {la}")))
                    }
                    None => ("0".to_owned(), "0".to_owned()),
                };
                let mut call = format!("call $postc_rt_panic(l {g}, ..., w {len}, l {p}");
                for a in &rest {
                    let _ = write!(call, ", l {a}");
                }
                call.push(')');
                self.line(call);
            }
        }
        Ok(())
    }
}
