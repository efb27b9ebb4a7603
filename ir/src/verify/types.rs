//! The type checks of the full path, with their messages, and calls.

use super::*;

impl<'p> Verifier<'p> {
    /// The operands of a `view` or `raw.view` `v`: its byte offset, then one
    /// extent and one byte stride per axis, each an Int64.
    fn check_view_operands(
        &mut self,
        x: Fx<'p>,
        v: ValueId,
        offset: ValueId,
        extents: crate::ValueList<'p>,
        strides: crate::ValueList<'p>,
    ) {
        let d = Self::desc(x, v);
        for (what, value) in std::iter::once(("byte offset", offset))
            .chain(extents.iter().map(|e| ("extent", e)))
            .chain(strides.iter().map(|s| ("byte stride", s)))
        {
            let Some(t) = self.vty(x, value) else { continue };
            if t.is_array || t.dtype != DType::Int64 {
                self.inst_err(x, v, format!("{d}: {what} {} must be Int64, got {t}", Self::vname(x, value)));
            }
        }
        if extents.len() != strides.len() {
            let (e, s) = (plural(extents.len(), "extent", "extents"), plural(strides.len(), "stride", "strides"));
            self.inst_err(x, v, format!("{d}: {e} but {s}: one of each per axis"));
        }
    }

    pub(super) fn check_types(&mut self, x: Fx<'p>, v: ValueId, inst: InstData<'p>, rt: Option<&'p TypeData>) {
        let d = Self::desc(x, v);
        macro_rules! err {
            ($($arg:tt)*) => { self.inst_err(x, v, format!($($arg)*)) };
        }
        macro_rules! ty {
            ($v:expr) => {
                match self.vty(x, $v) {
                    Some(t) => t,
                    None => return,
                }
            };
        }
        macro_rules! scalar {
            ($v:expr) => {{
                let t = ty!($v);
                if t.is_array {
                    err!("{d}: operand {} must be a scalar, got {t}", Self::vname(x, $v));
                    return;
                }
                t.dtype
            }};
        }
        macro_rules! result {
            () => {
                match rt {
                    Some(t) => t,
                    None => return,
                }
            };
        }
        macro_rules! scalar_result {
            () => {{
                let r = result!();
                if r.is_array {
                    err!("{d}: result must be a scalar, got {r}");
                    return;
                }
                r.dtype
            }};
        }
        macro_rules! expect_result {
            ($r:expr, $want:expr) => {
                if $r != $want {
                    err!("{d}: result type is {}, expected {}", $r, $want);
                }
            };
        }
        let array = |s: &mut Self, a: ValueId, what: &str| -> Option<&'p TypeData> {
            let t = s.vty(x, a)?;
            if !t.is_array {
                s.inst_err(x, v, format!("{d}: {what} {} must be an array, got {t}", Self::vname(x, a)));
                return None;
            }
            Some(t)
        };
        let let_or_param = |s: &mut Self, target: ValueId| {
            let op = x.body.tags[target];
            if op != Opcode::Let && op != Opcode::Param {
                s.inst_err(x, v, format!("{d}: target {} is not a `let` local or a parameter", Self::vname(x, target)));
            }
        };

        // Tuples travel from `tuple` to `return`, and from a call to
        // `extract`, and nowhere else.
        let makes_tuple = matches!(inst, InstData::Tuple { .. } | InstData::Call { .. });
        if let Some(r) = rt.filter(|r| r.is_tuple() && !makes_tuple) {
            err!("{d}: result type {r} is a tuple: only `tuple` and `call` make one");
            return;
        }
        if !matches!(inst, InstData::Extract { .. } | InstData::Return { .. }) {
            for a in x.body.operands(v) {
                if let Some(t) = self.vty(x, a).filter(|t| t.is_tuple()) {
                    err!("{d}: operand {} is a tuple ({t}): only `extract` and `return` take one", Self::vname(x, a));
                    return;
                }
            }
        }

        match inst {
            InstData::Param { .. } => {}
            InstData::Tuple { elements } => {
                let r = result!();
                if !r.is_tuple() {
                    err!("{d}: result type {r} must be a tuple");
                    return;
                }
                if elements.len() != r.elements.len() {
                    err!("{d}: {} for {r}", plural(elements.len(), "element", "elements"));
                    return;
                }
                for (k, (e, want)) in elements.iter().zip(&r.elements).enumerate() {
                    let t = ty!(e);
                    if !same_type(t, want) {
                        err!("{d}: element {k} ({}) has type {t}, expected {want}", Self::vname(x, e));
                    }
                }
            }
            InstData::Extract { tuple, index } => {
                let t = ty!(tuple);
                if !t.is_tuple() {
                    err!("{d}: operand {} must be a tuple, got {t}", Self::vname(x, tuple));
                    return;
                }
                let Some(want) = t.elements.get(index as usize) else {
                    err!("{d}: element {index} is out of range for {t}");
                    return;
                };
                let r = result!();
                if !same_type(r, want) {
                    err!("{d}: result type is {r}, expected {want}");
                }
            }
            InstData::RawRead { op, index, .. } => {
                let r = scalar_result!();
                expect_result!(r, DType::Int64);
                if op == Opcode::RawField && crate::dtype::dltensor_offset(index, 8).is_none() {
                    err!("{d}: a DLTensor has no field {index} (0 to 8)");
                }
            }
            InstData::RawOffset { bytes, .. } => {
                if scalar!(bytes) != DType::Int64 {
                    err!("{d}: byte count {} must be Int64", Self::vname(x, bytes));
                }
                let r = scalar_result!();
                expect_result!(r, DType::Int64);
            }
            InstData::RawLoad { .. } => {
                let r = scalar_result!();
                if x.body.tags[v] == Opcode::RawIsNull {
                    expect_result!(r, DType::Bool);
                }
            }
            InstData::RawStore { value, .. } => {
                let t = scalar!(value);
                if x.body.tags[v] != Opcode::RawStore && t != DType::Int64 {
                    err!("{d}: stored value {} must be Int64, got {t}", Self::vname(x, value));
                }
            }
            InstData::RawView { offset, extents, strides, .. } => {
                self.check_view_operands(x, v, offset, extents, strides);
                // Unlike `view`'s, the result type may fix extents and
                // strides: the compiler that writes the view vouches for them.
                let r = result!();
                if !r.is_array || r.dtype.is_text() {
                    err!("{d}: result type {r} must be an array of numbers or Bool");
                } else if r.ndim() != Some(extents.len()) {
                    err!("{d}: result type {r} must have {}", plural(extents.len(), "axis", "axes"));
                }
            }
            InstData::RawData { array: a } => {
                if let Some(t) = array(self, a, "operand") {
                    if t.dtype.is_text() {
                        err!("{d}: an array of {} has no element address", t.dtype);
                    }
                }
                let r = scalar_result!();
                expect_result!(r, DType::Int64);
            }
            InstData::Malformed => err!("malformed {d} instruction"),
            InstData::Const(lit) => {
                let r = scalar_result!();
                if !lit.fits(r) {
                    err!("{d}: literal does not fit {r}");
                }
            }
            InstData::Binary { op, left, right } => {
                let l = scalar!(left);
                let r2 = scalar!(right);
                let r = scalar_result!();
                if l != r2 {
                    err!("{d}: operand types {l} and {r2} differ");
                    return;
                }
                match binary_rule(op, l) {
                    BinRule::IntDiv => {
                        if !r.is_float() {
                            err!("{d}: integer operands need a float result, got {r}");
                        }
                    }
                    BinRule::NotDefined => err!("{d}: not defined on {l}"),
                    BinRule::Ok(want) => expect_result!(r, want),
                }
            }
            InstData::Unary { op, operand } => {
                let a = scalar!(operand);
                let r = scalar_result!();
                match unary_rule(op, a) {
                    None => err!("{d}: not defined on {a}"),
                    Some(want) => expect_result!(r, want),
                }
            }
            InstData::Cast { operand } => {
                let a = ty!(operand);
                let r = result!();
                if a.is_array || r.is_array || !a.dtype.is_numeric() || !r.dtype.is_numeric() {
                    err!("{d}: cannot cast {a} to {r}");
                }
            }
            InstData::Bitcast { operand } => {
                let a = ty!(operand);
                let r = result!();
                if a.is_array || r.is_array || a.dtype.bits_partner() != Some(r.dtype) {
                    err!("{d}: cannot reinterpret {a} as {r}: a bitcast joins a float and the unsigned integer of its width");
                }
            }
            InstData::Load { array: a, offset } => {
                let Some(at) = array(self, a, "array") else { return };
                let o = ty!(offset);
                if o.is_array || o.dtype != DType::Int64 {
                    err!("{d}: byte offset {} must be Int64, got {o}", Self::vname(x, offset));
                }
                let r = result!();
                if r.is_array || r.dtype != at.dtype {
                    err!("{d}: result type is {r}, expected {}", at.dtype);
                }
            }
            InstData::Store { array: a, offset, value } => {
                let Some(at) = array(self, a, "array") else { return };
                let o = ty!(offset);
                if o.is_array || o.dtype != DType::Int64 {
                    err!("{d}: byte offset {} must be Int64, got {o}", Self::vname(x, offset));
                }
                let t = ty!(value);
                if t.is_array || t.dtype != at.dtype {
                    err!("{d}: stored value type is {t}, expected {}", at.dtype);
                }
            }
            InstData::Dim { array: a, axis } | InstData::Stride { array: a, axis } => {
                let Some(at) = array(self, a, "array") else { return };
                if let Some(nd) = at.ndim() {
                    if axis as usize >= nd {
                        err!("{d}: axis {axis} is out of range for {at}");
                    }
                }
                let r = result!();
                if r.is_array || r.dtype != DType::Int64 {
                    err!("{d}: result type is {r}, expected Int64");
                }
            }
            InstData::IndexLoad { array: a, indices } | InstData::IndexStore { array: a, indices, .. } => {
                let Some(at) = array(self, a, "array") else { return };
                if let Some(nd) = at.ndim() {
                    if indices.len() != nd {
                        err!("{d}: {} for {at}, expected {nd}", plural(indices.len(), "index", "indices"));
                    }
                }
                for i in indices.iter() {
                    let t = ty!(i);
                    if !int_scalar(t) {
                        err!("{d}: index {} must be an integer scalar, got {t}", Self::vname(x, i));
                    }
                }
                if let InstData::IndexStore { value, .. } = inst {
                    let t = ty!(value);
                    if t.is_array || t.dtype != at.dtype {
                        err!("{d}: stored value type is {t}, expected {}", at.dtype);
                    }
                } else {
                    let r = result!();
                    if r.is_array || r.dtype != at.dtype {
                        err!("{d}: result type is {r}, expected {}", at.dtype);
                    }
                }
            }
            InstData::Call { callee, args } => self.check_call(x, v, callee, args, rt),
            InstData::Let { value } => {
                let t = ty!(value);
                let r = result!();
                if !same_type(t, r) {
                    err!("{d}: value type is {t}, expected {r}");
                }
            }
            InstData::Set { target, value } => {
                let_or_param(self, target);
                let tt = ty!(target);
                let t = ty!(value);
                if !same_type(t, tt) {
                    err!("{d}: value type is {t}, expected {tt}");
                }
            }
            InstData::Select { cond, if_true, if_false } => {
                let c = ty!(cond);
                if c.is_array || c.dtype != DType::Bool {
                    err!("{d}: condition {} must be Bool, got {c}", Self::vname(x, cond));
                }
                let a = ty!(if_true);
                let b = ty!(if_false);
                if !same_type(a, b) {
                    err!("{d}: arms have different types {a} and {b}");
                    return;
                }
                let r = result!();
                if !same_type(r, a) {
                    err!("{d}: result type is {r}, expected {a}");
                }
            }
            InstData::Alloc { dims } => {
                for length in dims.iter() {
                    let t = ty!(length);
                    if !int_scalar(t) {
                        err!("{d}: extent {} must be an integer scalar, got {t}", Self::vname(x, length));
                    }
                }
                let r = result!();
                if dims.is_empty() {
                    err!("{d}: an allocation takes at least one extent");
                } else if r.is_array && r.ndim().is_some_and(|n| n != dims.len()) {
                    err!("{d}: {} extents given for a result of {} axes", dims.len(), r.ndim().unwrap_or(0));
                } else if r.is_array && r.ndim().is_none() && dims.len() > 1 {
                    err!("{d}: result type {r} must give its number of axes");
                } else if r.is_array && dims.len() > 1 && r.layout != crate::Layout::COrder {
                    err!("{d}: result type {r} is not in C order: an allocation is compact in C order");
                }
                if !r.is_array {
                    err!("{d}: result type {r} is not an array");
                } else if r.dtype.is_text() {
                    // No backend has a layout for an allocated array of
                    // text; the interpreter would run what no compile can.
                    err!("{d}: cannot allocate an array of {}: arrays hold numbers and Bool", r.dtype);
                }
            }
            InstData::View { base, offset, extents, strides } => {
                let Some(bt) = array(self, base, "base") else { return };
                if bt.ndim().is_none() {
                    err!("{d}: base {} must give its number of axes, got {bt}", Self::vname(x, base));
                }
                if bt.dtype.is_text() {
                    err!("{d}: cannot view an array of {}: views hold numbers and Bool", bt.dtype);
                }
                self.check_view_operands(x, v, offset, extents, strides);
                let r = result!();
                let dynamic = match &r.shape {
                    crate::Shape::Dims(dims) => dims.len() == extents.len() && dims.iter().all(Option::is_none),
                    crate::Shape::Any => false,
                };
                if !r.is_array || r.dtype != bt.dtype {
                    err!("{d}: result type is {r}, expected an array of {}", bt.dtype);
                } else if !dynamic || r.layout != crate::Layout::COrder {
                    // A static extent or stride would be trusted by later
                    // passes (bounds checks skipped, strides assumed) and
                    // is not what the operands give at run time.
                    let axes = vec!["?"; extents.len()].join(", ");
                    err!("{d}: result type {r} must be {}{}[]Shape[{axes}]: a view's extents and strides are its operands'", if r.is_output { "&" } else { "" }, r.dtype);
                }
            }
            InstData::GetField { aggregate, field: field @ (Field::Len | Field::NBytes) } => {
                let t = ty!(aggregate);
                if t.is_array || !t.dtype.is_text() {
                    err!("{d}: `{}` is a field of Str and Bytes, not {t}", field.name());
                    return;
                }
                let r = result!();
                if r.is_array || r.dtype != DType::Int64 {
                    err!("{d}: result type is {r}, expected Int64");
                }
            }
            InstData::GetField { aggregate, .. } => {
                let t = ty!(aggregate);
                let Some(part) = t.dtype.complex_part().filter(|_| !t.is_array) else {
                    err!("{d}: {} must be a complex scalar, got {t}", Self::vname(x, aggregate));
                    return;
                };
                let r = result!();
                if r.is_array || r.dtype != part {
                    err!("{d}: result type is {r}, expected {part}");
                }
            }
            InstData::SetField { field: field @ (Field::Len | Field::NBytes), .. } => {
                err!("{d}: `{}` is read-only", field.name())
            }
            InstData::TextByte { text, index } => {
                let t = ty!(text);
                if t.is_array || !t.dtype.is_text() {
                    err!("{d}: {} must be a Str or Bytes, got {t}", Self::vname(x, text));
                    return;
                }
                let it = ty!(index);
                if it.is_array || it.dtype != DType::Int64 {
                    err!("{d}: index {} must be an Int64, got {it}", Self::vname(x, index));
                }
                let r = result!();
                if r.is_array || !matches!(r.dtype, DType::UInt8 | DType::UInt64) {
                    err!("{d}: result type is {r}, expected UInt8 (a byte) or UInt64 (eight)");
                }
            }
            InstData::SetField { aggregate, value, .. } => {
                let_or_param(self, aggregate);
                let t = ty!(aggregate);
                let Some(part) = t.dtype.complex_part().filter(|_| !t.is_array) else {
                    err!("{d}: {} must be a complex scalar, got {t}", Self::vname(x, aggregate));
                    return;
                };
                let vt = ty!(value);
                if vt.is_array || vt.dtype != part {
                    err!("{d}: value type is {vt}, expected {part}");
                }
            }
            InstData::Return { value } => {
                let name = &x.f.name;
                match (value, self.tdata(x.f.ret)) {
                    (Some(_), None) if x.f.ret.is_none() => err!("`return` with a value in void function `{name}`"),
                    (None, Some(r)) => err!("bare `return` in function `{name}` returning {r}"),
                    (Some(val), Some(r)) => {
                        let t = ty!(val);
                        if !same_type(t, r) {
                            err!("{d}: value type is {t}, expected {r}");
                        }
                    }
                    _ => {}
                }
            }
            InstData::CondBr { cond, .. } => {
                let c = ty!(cond);
                if c.is_array || c.dtype != DType::Bool {
                    err!("{d}: condition {} must be Bool, got {c}", Self::vname(x, cond));
                }
            }
            InstData::Br { .. } | InstData::Unreachable => {}
        }
    }

    pub(super) fn check_call(
        &mut self,
        x: Fx<'p>,
        v: ValueId,
        callee: &'p str,
        args: crate::ValueList<'p>,
        rt: Option<&'p TypeData>,
    ) {
        if let Some(b) = crate::builtins::Builtin::from_name(callee) {
            if b.kernel_only() && !x.f.attrs.contains(FuncAttrs::KERNEL) {
                let hint = if matches!(b, crate::builtins::Builtin::Gpu(..)) {
                    " (pass the index as a parameter)"
                } else {
                    ""
                };
                let msg =
                    format!("`{callee}` is only available in `kernel` functions; `{}` is not one{hint}", x.f.name);
                self.inst_err(x, v, msg);
                return;
            }
            if b.takes_arrays() {
                let mut types = Vec::with_capacity(args.len());
                for a in args.iter() {
                    match self.vty(x, a) {
                        Some(t) => types.push(t),
                        None => return,
                    }
                }
                if let Err(msg) = b.check_typed(&types, rt) {
                    self.inst_err(x, v, msg);
                } else if b == crate::builtins::Builtin::Shared {
                    let bytes = rt.and_then(|t| crate::builtins::shared_bytes(t).ok()).unwrap_or(0);
                    let before = self.shared_bytes;
                    self.shared_bytes = before.saturating_add(bytes);
                    let limit = crate::builtins::MAX_SHARED_BYTES;
                    if before <= limit && self.shared_bytes > limit {
                        let msg = format!(
                            "`kernel` function `{}` shares {} bytes among a block's threads, more than {limit}",
                            x.f.name, self.shared_bytes
                        );
                        self.inst_err(x, v, msg);
                    }
                }
                return;
            }
            let mut dtypes = Vec::with_capacity(args.len());
            for a in args.iter() {
                match self.vty(x, a) {
                    Some(t) if !t.is_array => dtypes.push(t.dtype),
                    Some(t) => {
                        let msg = format!(
                            "call to built-in `{callee}`: argument {} must be a scalar, got {t}",
                            Self::vname(x, a)
                        );
                        self.inst_err(x, v, msg);
                        return;
                    }
                    None => return,
                }
            }
            if rt.is_some_and(|r| r.is_array) {
                self.inst_err(x, v, format!("call to built-in `{callee}` cannot have an array result"));
            } else if let Err(msg) = b.check(&dtypes, rt.map(|r| r.dtype)) {
                self.inst_err(x, v, msg);
            }
            return;
        }
        if self.m.is_none() {
            return;
        }
        let Some(&c) = self.callees.get(callee.as_bytes()) else {
            self.inst_err(x, v, format!("call to unknown function `{callee}`"));
            return;
        };
        match c {
            Callee::Post | Callee::Broken => {}
            Callee::Boundary(imp) => {
                let msg =
                    format!("call to boundary import `{}.{}` cannot be compiled", imp.module_name, imp.source_name);
                self.inst_err(x, v, msg);
            }
            Callee::Intrinsic => {
                for (i, a) in args.iter().enumerate() {
                    let Some(t) = self.vty(x, a) else { continue };
                    if t.is_array || !t.dtype.is_numeric() {
                        let msg = format!(
                            "call to intrinsic `{callee}`: argument {} ({}) must be a numeric scalar, got {t}",
                            i + 1,
                            Self::vname(x, a)
                        );
                        self.inst_err(x, v, msg);
                    }
                }
                if let Some(r) = rt {
                    if r.is_array || !r.dtype.is_float() {
                        self.inst_err(
                            x,
                            v,
                            format!("call to intrinsic `{callee}`: result type is {r}, expected a float"),
                        );
                    }
                }
            }
            Callee::Func(cm, cf) => {
                let g = &cm.functions[cf];
                if g.attrs.contains(FuncAttrs::KERNEL) {
                    let msg = format!(
                        "`{callee}` is a `kernel` function: it is launched from the host through its entry point, \
                         not called"
                    );
                    self.inst_err(x, v, msg);
                    return;
                }
                let gb = &g.body;
                let ctype = |t: Option<TypeId>| t.filter(|t| t.index() < cm.types.len()).map(|t| cm.types.get(t));
                let np = (gb.num_params as usize + gb.num_core as usize).min(gb.types.len());
                if args.len() != np {
                    let msg = format!(
                        "call to `{callee}` has {}, expected {np}",
                        plural(args.len(), "argument", "arguments")
                    );
                    self.inst_err(x, v, msg);
                } else {
                    for (i, a) in args.iter().enumerate() {
                        let (Some(at), Some(pt)) = (self.vty(x, a), ctype(gb.types[ValueId::new(i)])) else {
                            continue;
                        };
                        if !arg_fits(at, pt) {
                            let msg = format!(
                                "call to `{callee}`: argument {} ({}) has type {at}, expected {pt}",
                                i + 1,
                                Self::vname(x, a)
                            );
                            self.inst_err(x, v, msg);
                        }
                    }
                }
                match (x.body.types[v], g.ret) {
                    (Some(_), None) => {
                        self.inst_err(x, v, format!("call to void function `{callee}` cannot have a result"));
                    }
                    (None, Some(_)) => {
                        if let Some(gt) = ctype(g.ret) {
                            self.inst_err(
                                x,
                                v,
                                format!("call to `{callee}` has no result, but `{callee}` returns {gt}"),
                            );
                        }
                    }
                    (Some(_), Some(_)) => {
                        if let (Some(r), Some(gt)) = (rt, ctype(g.ret)) {
                            if !same_type(r, gt) {
                                self.inst_err(x, v, format!("call to `{callee}`: result type is {r}, expected {gt}"));
                            }
                        }
                    }
                    (None, None) => {}
                }
            }
        }
    }
}
