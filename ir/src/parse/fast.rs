//! The fast path of instruction lines: a line in the printer's canonical
//! spacing with scalar types and no annotations is read in one pass over
//! its bytes; anything else (and every error) goes to the general path.

use super::*;

/// The mnemonics' [`pack16`] keys in a collision-free table: the
/// multiplier and, by slot, the opcode number + 1 (0: none).
pub(super) struct OpTable {
    mul: u64,
    slots: [u8; 1024],
    keys: Vec<u128>,
}

pub(super) fn op_slot(key: u128, mul: u64) -> usize {
    (((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(mul) >> 54) as usize
}

pub(super) fn op_table() -> &'static OpTable {
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
pub(super) fn opcode_of_key(key: u128) -> Option<Opcode> {
    let t = op_table();
    let i = t.slots[op_slot(key, t.mul)].checked_sub(1)?;
    if *t.keys.get(i as usize)? == key {
        Opcode::from_u8(i)
    } else {
        None
    }
}

/// The cursor of [`Parser::fast_line`]: exact tokens only.
pub(super) struct Fast<'a> {
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

impl<'a> Parser<'a> {
    /// The fast path of an instruction line in the printer's canonical
    /// spacing, with scalar types and no annotations, comments or trailing
    /// spaces: it has exactly the effects [`Parser::instruction`] has on
    /// such a line. Anything else (and every error) returns false having
    /// changed nothing, for the general path to read the line.
    pub(super) fn fast_line(&mut self, b: &mut FunctionBuilder, line: &'a str, start: usize) -> bool {
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

    pub(super) fn fast_line_inner(&mut self, b: &mut FunctionBuilder, line: &'a str, start: usize) -> bool {
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
            Format::Alloc | Format::View | Format::RawView => return false,
            Format::Unary => {
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
    pub(super) fn fast_call(
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
    pub(super) fn fast_index(
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
    pub(super) fn fast_operand(&mut self, f: &mut Fast<'a>, slot: Slot) -> Option<u32> {
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
    pub(super) fn fast_label(&mut self, f: &mut Fast<'a>, slot: Slot) -> Option<u32> {
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
