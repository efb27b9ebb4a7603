//! Module-level lines: `module`, imports, constants, aliases, exports.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn module_line(&mut self, c: &mut Cur<'a>, start: usize) -> R<()> {
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

    pub(super) fn directive(&mut self, kw: &str, c: &mut Cur<'a>) -> R<()> {
        match kw {
            "import" => self.import(c),
            "doc" => {
                c.skip_ws();
                let at = c.i;
                if c.peek() != Some(b'"') {
                    return Err(c.expected("a string literal after `doc`"));
                }
                c.string(&mut self.buf, false)?;
                c.expect_end()?;
                if self.m.doc.is_some() {
                    return Err(perr("duplicate module `doc` line", at, 1));
                }
                self.m.doc = Some(String::from_utf8_lossy(&self.buf).into_owned());
                Ok(())
            }
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

    pub(super) fn import(&mut self, c: &mut Cur<'a>) -> R<()> {
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

    pub(super) fn check_new_import(&self, local: &str, at: usize) -> R<()> {
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
    pub(super) fn scalar_dtype(&self, c: &Cur<'a>, ty: TypeId, at: usize) -> R<DType> {
        let t = self.m.types.get(ty);
        if t.is_array || t.is_output {
            return Err(perr(format!("`const` needs a scalar type, not `{t}`"), at, c.i - at));
        }
        Ok(t.dtype)
    }

    /// A literal of `dtype` (strings and bytes are decoded into `buf`).
    pub(super) fn literal(&mut self, c: &mut Cur<'a>, dtype: DType) -> R<PendingConst> {
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
}
