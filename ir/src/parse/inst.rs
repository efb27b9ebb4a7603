//! The general path of instruction lines, with every diagnostic.

use super::*;

impl<'a> Parser<'a> {
    /// Parses one instruction line; on error reports it and drops the line.
    pub(super) fn instruction(
        &mut self,
        b: &mut FunctionBuilder,
        c: &mut Cur<'a>,
        start: usize,
        word: Option<&'a str>,
    ) {
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

    pub(super) fn operand(&mut self, c: &mut Cur<'a>, slot: Slot) -> R<u32> {
        let (name, at) = c.value_name()?;
        match self.values.get(name) {
            Some(&v) => Ok(if v == POISON { 0 } else { v }),
            None => {
                self.fixups.push(Fixup { slot, name, label: false, line: self.line, off: at });
                Ok(0)
            }
        }
    }

    /// `[%a, %b, ...]` after `what` (`"the indices"`): the count, then the
    /// values, appended to `scratch`, whose items start at `extra[xb]`.
    fn bracketed_values(&mut self, c: &mut Cur<'a>, xb: u32, what: &str) -> R<()> {
        c.skip_ws();
        if !c.eat(b'[') {
            return Err(c.expected(&format!("`[` and {what}")));
        }
        let count_at = self.scratch.len();
        self.scratch.push(0);
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
        self.scratch[count_at] = clamp_u32(self.scratch.len() - count_at - 1);
        Ok(())
    }

    pub(super) fn label_ref(&mut self, c: &mut Cur<'a>, slot: Slot) -> R<u32> {
        let (name, at) = c.expect_ident("a block label")?;
        match self.labels.get(name) {
            Some(&blk) => Ok(blk),
            None => {
                self.fixups.push(Fixup { slot, name, label: true, line: self.line, off: at });
                Ok(0)
            }
        }
    }

    pub(super) fn comma(c: &mut Cur<'a>) -> R<()> {
        c.expect(b',')
    }

    /// `!weights T:F` and `!loc "FILE":LINE:COL`, then the end of the line.
    pub(super) fn notes(&mut self, c: &mut Cur<'a>, op: Opcode) -> R<Notes> {
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

    pub(super) fn instruction_inner(
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
            Format::Binary | Format::Load | Format::RawOffset | Format::RawStore | Format::TextByte => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                ops[1] = self.operand(c, op1)?;
            }
            Format::Unary | Format::RawLoad | Format::RawData => ops[0] = self.operand(c, op0)?,
            Format::Alloc | Format::Tuple => {
                // `alloc %n` or `alloc %n, %m, ...`: one extent per axis;
                // `tuple %a, %b, ...`: one value per element.
                self.scratch.resize(1, 0);
                loop {
                    let k = clamp_u32(self.scratch.len());
                    let a = self.operand(c, Slot::Extra(xb.saturating_add(k)))?;
                    self.scratch.push(a);
                    c.skip_ws();
                    if c.peek() != Some(b',') {
                        break;
                    }
                    Self::comma(c)?;
                }
                self.scratch[0] = clamp_u32(self.scratch.len() - 1);
                ops[1] = xb;
            }
            Format::View | Format::RawView => {
                // `view %base, %offset, [%extent, ...], [%stride, ...]`
                // (`raw.view` with an address for the base).
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                let offset = self.operand(c, Slot::Extra(xb))?;
                self.scratch.push(offset);
                for what in ["the extents", "the strides"] {
                    Self::comma(c)?;
                    self.bracketed_values(c, xb, what)?;
                }
                ops[1] = xb;
            }
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
            Format::RawRead => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                ops[1] = c.unsigned(u32::MAX as u64, "an index")? as u32;
            }
            Format::Extract => {
                ops[0] = self.operand(c, op0)?;
                Self::comma(c)?;
                ops[1] = c.unsigned(u32::MAX as u64, "an element's position")? as u32;
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
                self.bracketed_values(c, xb, "the indices")?;
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
    pub(super) fn scalar_dtype_of_result(&self, ty: TypeId, start: usize, c: &Cur<'a>) -> R<DType> {
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
