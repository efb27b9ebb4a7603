//! Expressions: names, literals, arithmetic with NEP 50 promotion,
//! comparisons, conditionals, attributes and indexing.

use super::*;

/// Arithmetic of whole arrays whose elements the operator refuses.
/// A comparison of what is not a number (an array, or a tuple beside
/// one, inside tuples compared or searched with `in`).
pub(crate) const ONLY_SCALARS_COMPARED: &str = "only scalars can be compared";

/// A constant `lit` that `dtype` cannot hold, where it is converted to
/// one (an operand, an argument, an element stored).
pub(crate) fn constant_conversion_error(lit: &Lit, dtype: DType) -> String {
    match lit {
        Lit::Int(i) => format!("{i} is out of range for {}", dtype.name()),
        _ => format!("this constant cannot be converted to {}", dtype.name()),
    }
}

/// A string converted to a number, or a number to a string.
pub(crate) fn text_conversion_error(from: DType, to: DType) -> String {
    format!("{} cannot be converted to {}", from.name(), to.name())
}

/// A member of a namespace (`math.sin`, `postc.prange`) read as a value
/// rather than called.
pub(crate) fn not_a_value_error(dotted: &str) -> String {
    format!("`{dotted}` is not a value")
}

/// `thread_idx.w` of a GPU register `reg` (`thread_idx`, `block_idx`,
/// `block_dim`) and an axis it does not have.
pub(crate) fn gpu_axes_error(reg: &str) -> String {
    format!("`{reg}` has the axes `x`, `y` and `z`")
}

/// A GPU register `reg` read outside a `@kernel` function.
pub(crate) fn gpu_register_outside_kernel_error(reg: &str) -> String {
    format!("`{reg}` is read in `@kernel` functions only")
}

/// `-t`, `+t` or `~t` of a tuple.
pub(crate) fn unary_of_tuple_error(op: ast::UnaryOp) -> String {
    let sym = match op {
        ast::UnaryOp::UAdd => "+",
        ast::UnaryOp::USub => "-",
        ast::UnaryOp::Invert => "~",
        ast::UnaryOp::Not => "not",
    };
    format!("unary `{sym}` is not defined on a tuple")
}

pub(crate) const WHOLE_ARRAY_ARITHMETIC: &str = "arithmetic on whole arrays is not supported: loop over the elements";

/// Arithmetic of whole arrays whose elements the operator refuses with
/// `message` (as it refuses numbers of their types).
pub(crate) fn whole_array_arithmetic_error(message: &str) -> String {
    format!("{message} (the elements of this whole-array expression)")
}

impl<'a, 'c> FnLower<'a, 'c> {
    pub(super) fn expr(&mut self, e: hir::ExprId) -> Val {
        // Deeply nested expressions (a sum of 100,000 terms) recurse deeply.
        deep(|| self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: hir::ExprId) -> Val {
        // Only this expression may be `None`, not its parts.
        let accept_none = std::mem::take(&mut self.accept_none);
        let condition = std::mem::take(&mut self.condition);
        let v = match self.hir.exprs[e] {
            hir::Expr::If { test, body, orelse } if accept_none => {
                self.ternary_maybe_none(&IfExpr { at: self.range(e), test, body, orelse })
            }
            hir::Expr::BoolOp { .. } if condition => self.bool_op(e, true),
            _ => self.expr_value(e),
        };
        if !accept_none && matches!(v, Val::None | Val::Maybe { .. }) {
            return self.none_where_number_needed(e, &v);
        }
        v
    }

    fn expr_value(&mut self, e: hir::ExprId) -> Val {
        let hir = self.hir;
        if self.cx.untyped_sink.is_some()
            && self.expr_types.get(e).is_none()
            && !matches!(hir.exprs[e], hir::Expr::None)
        {
            self.lowered_untyped.push(e);
        }
        if let Some(v) = self.element_of.get(&e) {
            return v.clone();
        }
        if let Some(v) = self.elementwise(e) {
            return v;
        }
        let at = self.range(e);
        match &hir.exprs[e] {
            hir::Expr::Literal(lit) => {
                let d = lit.default_dtype();
                let weak = !d.is_text();
                Val::Lit { lit: lit.clone(), s: Scalar { dtype: d, weak } }
            }
            hir::Expr::IntTooLarge => self.unrefused(&at),
            hir::Expr::Name(n) => {
                let name = self.name_text(n);
                if self.absent_reads.get(e).is_some()
                    && (!self.is_maybe_none_local(name) || self.present.contains(name))
                {
                    // The typecheck reports a read it finds may be `None`
                    // (`typeck::presence`): one known present here is a
                    // bug of ours.
                    let msg =
                        format!("internal error: the typecheck finds `{name}` may be `None` here, known not to be");
                    self.diags.push(self.cx.src.error(&at, msg));
                }
                self.check_bound(e, name, at);
                self.name(name, at)
            }
            hir::Expr::BinOp { op: ast::Operator::MatMult, .. } => self.matmul(e),
            &hir::Expr::BinOp { op, lhs, rhs } => {
                let l = self.expr(lhs);
                let r = self.expr(rhs);
                self.at(&at);
                self.binop(op, l, r, at)
            }
            &hir::Expr::UnaryOp { op, operand } => self.unary(e, op, operand),
            hir::Expr::BoolOp { .. } => self.bool_op(e, false),
            hir::Expr::Compare { .. } => self.compare(e),
            &hir::Expr::If { test, body, orelse } => self.ternary(&IfExpr { at, test, body, orelse }),
            hir::Expr::Call { .. } => self.call(&self.call_of(e)),
            hir::Expr::Attribute { base, attr } => self.attribute(e, *base, attr),
            hir::Expr::Subscript { .. } => self.subscript(e),
            hir::Expr::Tuple(elements) => self.tuple_display(elements),
            // An error where a number is needed (`expr_inner`).
            hir::Expr::None => Val::None,
            // Refused by the typecheck (a list comprehension assigned to a
            // name is a list local: see `hir`'s `BodyBuilder::comprehension`).
            hir::Expr::Refused { .. } => self.unrefused(&at),
            _ => self.err(&at, typeck::refused_construct_error(hir.construct_name(e))),
        }
    }

    /// The value of the name `name`, read at `at`.
    pub(super) fn name(&mut self, name: &str, at: TextRange) -> Val {
        if self.is_maybe_none_local(name) && !self.present.contains(name) {
            return self.read_maybe_none_local(name, at);
        }
        if self.locals.contains_key(name) {
            return self.read_local(name, at);
        }
        self.global_value(name, at)
    }

    /// The value of the local `name` (an element of a tuple local too),
    /// read at `n`.
    pub(super) fn read_local(&mut self, name: &str, n: TextRange) -> Val {
        let info = &self.locals[name];
        if info.poisoned {
            return Val::Err;
        }
        if self.range_locals.contains_key(name) {
            return self.err(&n, range_local::range_read_error(name));
        }
        let Some(ty) = info.ty.clone() else {
            // With errors reported, an untyped local is their echo (as it
            // is of a binding the types did not hold), as it is of a
            // parameter whose annotation was refused.
            if !self.diags.is_empty() || !self.untyped.is_empty() || !self.decl.poisoned.is_empty() {
                return Val::Err;
            }
            return self.err(&n, typeck::unassigned::unassigned_error(&tuples::shown_local(name)));
        };
        let nonneg = info.nonneg && !info.param;
        let slot = self.slots.get(name).copied();
        match (ty, slot) {
            (LocalTy::Tuple(len), _) => self.read_tuple_local(name, len, n),
            (_, None) if self.refused_bindings.contains(name) => Val::Err,
            (_, None) => self.err(&n, format!("`{}` is used before it is bound", tuples::shown_local(name))),
            (LocalTy::Scalar(s), Some(v)) => Val::Num { v, s, nonneg },
            (LocalTy::Array(t), Some(v)) => Val::Arr { v, ty: t },
        }
    }

    /// The value of the module-level name `name`.
    fn global_value(&mut self, name: &str, n: TextRange) -> Val {
        match self.cx.globals.get(name) {
            Some(Global::Const { lit, scalar }) => Val::Lit { lit: lit.clone(), s: *scalar },
            Some(Global::Boundary { module, name: source })
                if module == "numpy" && numpy_constant(source).is_some() =>
            {
                let x = numpy_constant(source).expect("a constant");
                Val::Lit { lit: Lit::Float(x), s: Scalar::weak(DType::Float64) }
            }
            Some(Global::Boundary { module, name: source })
                if module == "math" && MATH_CONSTANTS.iter().any(|(c, _)| c == source) =>
            {
                let (_, x) = MATH_CONSTANTS.iter().find(|(c, _)| c == source).expect("a constant");
                Val::Lit { lit: Lit::Float(*x), s: Scalar::weak(DType::Float64) }
            }
            // Refused by the typecheck where the name is read as a value.
            global => {
                let message = typeck::name_error(name, global).unwrap_or_default();
                self.err(&n, message)
            }
        }
    }

    /// Converts a value to an IR value of `dtype`.
    pub(super) fn materialize(&mut self, v: &Val, dtype: DType, at: &impl Ranged) -> Option<ValueId> {
        match v {
            Val::Err | Val::None | Val::Maybe { .. } => None,
            Val::Void => {
                self.err(at, "this call returns nothing");
                None
            }
            Val::Arr { .. } => {
                self.err(at, format!("an array is used where a {} is expected", dtype.name()));
                None
            }
            Val::Tuple(_) => {
                self.err(at, format!("a tuple is used where a {} is expected", dtype.name()));
                None
            }
            Val::Lit { lit, .. } => match lit.convert(dtype) {
                Some(c) => {
                    let n = self.fresh("c");
                    let ty = TypeId::scalar(dtype);
                    self.at(at);
                    Some(self.b.const_(ty, c.as_literal(), &n))
                }
                None => {
                    self.err(at, constant_conversion_error(lit, dtype));
                    None
                }
            },
            Val::Num { v, s, .. } => {
                if s.dtype == dtype {
                    return Some(*v);
                }
                if s.dtype.is_text() || dtype.is_text() {
                    self.err(at, text_conversion_error(s.dtype, dtype));
                    return None;
                }
                let n = self.fresh("cast");
                let ty = TypeId::scalar(dtype);
                Some(self.b.cast(ty, *v, &n))
            }
        }
    }

    pub(super) fn result(&mut self, op: Opcode, dtype: DType, l: ValueId, r: ValueId) -> ValueId {
        let n = self.fresh(op.mnemonic());
        let ty = TypeId::scalar(dtype);
        self.b.binary(op, ty, l, r, &n)
    }

    /// Where CPython and NumPy disagree on an operation, the operands'
    /// kind decides (the IR's own meaning is Python's for integers and
    /// IEEE 754's for floats); returns the right operand to use.
    ///
    /// - A shift of NumPy integers (a strong result) by a negative count is
    ///   NumPy's: the count is taken as unsigned, so it shifts everything
    ///   out (`0`, or `-1` for a negative value shifted right). The count
    ///   becomes the dtype's width, which the IR defines that way; Python
    ///   ints (a weak result) keep the IR's `negative shift count` panic
    ///   (CPython's ValueError).
    /// - A division, floor division or modulo of Python numbers (a weak
    ///   result) by zero, and Python's `0.0 ** negative`, raise CPython's
    ///   ZeroDivisionError with CPython's message; NumPy floats keep IEEE
    ///   754's inf or nan (NumPy's warning is not raised). Integer `//`
    ///   and `%` panic in the IR itself, whatever the kind.
    #[allow(clippy::too_many_arguments)]
    fn operand_kind_semantics(
        &mut self,
        op: Opcode,
        r: &Val,
        result: Scalar,
        input: DType,
        operand: DType,
        a: ValueId,
        b: ValueId,
        at: &TextRange,
    ) -> ValueId {
        let ty = TypeId::scalar(operand);
        match op {
            Opcode::Shl | Opcode::Shr if !result.weak && operand.is_signed_int() && !r.nonneg() => {
                let zero = self.zero(operand);
                let negative = self.named(Opcode::Lt, TypeId::BOOL, b, zero, "count.neg");
                let n = self.fresh("width");
                let width = self.b.int(ty, operand.bits() as i128, &n);
                let n = self.fresh("count");
                self.b.select(ty, negative, width, b, &n)
            }
            Opcode::Div | Opcode::FDiv | Opcode::Mod if result.weak && !is_nonzero_literal(r) => {
                // `/` of ints converts them to floats first, yet CPython's
                // message is the integer one.
                let float = kind(input) == Kind::Float;
                let msg = match (op, kind(input)) {
                    (_, Kind::Complex) => "complex division by zero",
                    (Opcode::Div, _) if float => "float division by zero",
                    (Opcode::Div, _) => "division by zero",
                    (Opcode::FDiv, _) if float => "float floor division by zero",
                    (Opcode::Mod, _) if float => "float modulo",
                    // Integer `//` and `%`: the IR's own check.
                    _ => return b,
                };
                let zero = self.zero(operand);
                let ok = self.named(Opcode::Ne, TypeId::BOOL, b, zero, "nonzero");
                self.panic_unless(ok, msg, at);
                b
            }
            Opcode::Pow if result.weak && operand.is_float() => {
                let zero = self.zero(operand);
                let base_zero = self.named(Opcode::Eq, TypeId::BOOL, a, zero, "base.zero");
                let exp_neg = self.named(Opcode::Lt, TypeId::BOOL, b, zero, "exp.neg");
                let bad = self.named(Opcode::And, TypeId::BOOL, base_zero, exp_neg, "zero.pow");
                let n = self.fresh("pow.ok");
                let ok = self.b.unary(Opcode::Not, TypeId::BOOL, bad, &n);
                self.panic_unless(ok, "0.0 cannot be raised to a negative power", at);
                b
            }
            _ => b,
        }
    }

    /// A binary instruction named after `name`.
    fn named(&mut self, op: Opcode, ty: TypeId, l: ValueId, r: ValueId, name: &str) -> ValueId {
        let n = self.fresh(name);
        self.b.binary(op, ty, l, r, &n)
    }

    pub(super) fn binop(&mut self, op: ast::Operator, l: Val, r: Val, at: TextRange) -> Val {
        let (Some(lo), Some(ro)) = (l.operand(), r.operand()) else {
            if matches!(l, Val::Err) || matches!(r, Val::Err) {
                return Val::Err;
            }
            if matches!(l, Val::Arr { .. }) || matches!(r, Val::Arr { .. }) {
                return self.err(&at, WHOLE_ARRAY_ARITHMETIC);
            }
            if matches!(l, Val::Tuple(_)) || matches!(r, Val::Tuple(_)) {
                return self.tuple_arith(op, l, r, at);
            }
            return self.err(&at, "this operand has no value");
        };
        let Arith { opcode, operand: operand_dtype, result, nonneg, promoted } = match arith(op, &lo, &ro) {
            Ok(a) => a,
            Err(msg) => return self.err(&at, msg),
        };
        self.python_int_must_fit(&l, operand_dtype, &at);
        self.python_int_must_fit(&r, operand_dtype, &at);
        let (Some(a), Some(b)) = (self.materialize(&l, operand_dtype, &at), self.materialize(&r, operand_dtype, &at))
        else {
            return Val::Err;
        };
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, &at)));
        let b = self.operand_kind_semantics(opcode, &r, result, promoted, operand_dtype, a, b, &at);
        let v = self.result(opcode, result.dtype, a, b);
        Val::Num { v, s: result, nonneg }
    }

    /// A Python int (a weak value, held in Int64) that meets a NumPy
    /// integer of another dtype in arithmetic takes that dtype only if it
    /// fits; NumPy raises OverflowError ("Python integer 3000000000 out of
    /// bounds for int32") rather than wrap it, and so does compiled code,
    /// without the value in the message. Literals are checked when they
    /// are converted, at compile time.
    fn python_int_must_fit(&mut self, v: &Val, dtype: DType, at: &TextRange) {
        let Val::Num { v: x, s, .. } = v else { return };
        if !s.weak || !s.dtype.is_int() || !dtype.is_int() || dtype == s.dtype {
            return;
        }
        let Some((lo, hi)) = dtype.int_range() else { return };
        let (Some(lo64), hi64) = (i64::try_from(lo).ok(), i64::try_from(hi).ok()) else { return };
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, at)));
        let mut ok: Option<ValueId> = None;
        if !v.nonneg() {
            let n = self.fresh("lo");
            let bound = self.b.int(TypeId::INT64, lo64 as i128, &n);
            ok = Some(self.named(Opcode::Ge, TypeId::BOOL, *x, bound, "fits.lo"));
        }
        if let Some(hi64) = hi64 {
            let n = self.fresh("hi");
            let bound = self.b.int(TypeId::INT64, hi64 as i128, &n);
            let below = self.named(Opcode::Le, TypeId::BOOL, *x, bound, "fits.hi");
            ok = Some(match ok {
                Some(above) => self.named(Opcode::And, TypeId::BOOL, above, below, "fits"),
                None => below,
            });
        }
        if let Some(ok) = ok {
            let msg = format!("OverflowError: Python integer out of bounds for {}", dtype.name().to_lowercase());
            self.panic_unless(ok, &msg, at);
        }
    }

    pub(super) fn unary(&mut self, e: hir::ExprId, op: ast::UnaryOp, operand: hir::ExprId) -> Val {
        let at = self.range(e);
        // `not x` reads only the truth of `x`, which may be `None`.
        let v = if op == ast::UnaryOp::Not { self.condition_value(operand) } else { self.expr(operand) };
        // Literals fold (`-1` stays a literal, so `a[-1]` needs no wrap).
        if let Val::Lit { lit, s } = &v {
            let folded = match (op, lit) {
                (ast::UnaryOp::USub, Lit::Int(i)) => Some(Lit::Int(-i)),
                (ast::UnaryOp::USub, Lit::Float(x)) => Some(Lit::Float(-x)),
                (ast::UnaryOp::USub, Lit::Complex(a, b)) => Some(Lit::Complex(-a, -b)),
                (ast::UnaryOp::UAdd, Lit::Int(_) | Lit::Float(_) | Lit::Complex(..)) => Some(lit.clone()),
                (ast::UnaryOp::Not, Lit::Bool(b)) => Some(Lit::Bool(!b)),
                _ => None,
            };
            if let Some(lit) = folded {
                return Val::Lit { lit, s: *s };
            }
        }
        if matches!(v, Val::None | Val::Maybe { .. }) {
            return self.not(v, self.range(operand));
        }
        let Some(mut s) = v.scalar() else {
            if matches!(v, Val::Err) {
                return Val::Err;
            }
            if matches!(v, Val::Arr { .. }) {
                return self.err(&at, WHOLE_ARRAY_ARITHMETIC);
            }
            if matches!(v, Val::Tuple(_)) {
                return self.err(&at, unary_of_tuple_error(op));
            }
            return self.err(&at, "this operand has no scalar value");
        };
        // Refused by the typecheck where it types the operand.
        if let Some(message) = v.ty().and_then(|t| typeck::unary_error(op, &t)) {
            return self.err(&at, message);
        }
        self.at(&at);
        // `-` and `~` of a Python bool are Python ints.
        let mut v = v;
        if s.dtype == DType::Bool && s.weak && matches!(op, ast::UnaryOp::USub | ast::UnaryOp::Invert) {
            let Some(x) = self.materialize(&v, DType::Int64, &at) else { return Val::Err };
            s = Scalar::weak(DType::Int64);
            v = Val::Num { v: x, s, nonneg: true };
        }
        match op {
            ast::UnaryOp::UAdd => v,
            ast::UnaryOp::USub => {
                let Some(x) = self.materialize(&v, s.dtype, &at) else { return Val::Err };
                let n = self.fresh("neg");
                let ty = TypeId::scalar(s.dtype);
                Val::Num { v: self.b.unary(Opcode::Neg, ty, x, &n), s, nonneg: false }
            }
            ast::UnaryOp::Not => self.not(v, self.range(operand)),
            ast::UnaryOp::Invert => {
                let Some(x) = self.materialize(&v, s.dtype, &at) else { return Val::Err };
                let n = self.fresh("inv");
                match kind(s.dtype) {
                    Kind::Bool => Val::Num { v: self.b.unary(Opcode::Not, TypeId::BOOL, x, &n), s, nonneg: true },
                    Kind::Int => {
                        let ty = TypeId::scalar(s.dtype);
                        Val::Num { v: self.b.unary(Opcode::Inv, ty, x, &n), s, nonneg: false }
                    }
                    // Refused above.
                    _ => Val::Err,
                }
            }
        }
    }

    /// `not v`, `v` the operand at `operand`.
    fn not(&mut self, v: Val, operand: TextRange) -> Val {
        let Some(c) = self.truth(v, operand) else { return Val::Err };
        let n = self.fresh("not");
        Val::Num { v: self.b.unary(Opcode::Not, TypeId::BOOL, c, &n), s: Scalar::strong(DType::Bool), nonneg: true }
    }

    /// Joins branches that each assign a hidden local, read at `join`.
    /// `condition`: only its truth is read, so every operand is taken by
    /// its truth (`if flag and x > 0` of an Int64 `flag`, as CPython reads
    /// it) and may be `None` (`None and y` is falsy as `False and y` is).
    /// Elsewhere the value is the result, so operands are Bools, and only
    /// an operand of `or` before the last may be `None`: it is taken only
    /// when true, so the result is never that `None`.
    pub(super) fn bool_op(&mut self, e: hir::ExprId, condition: bool) -> Val {
        let hir::Expr::BoolOp { op, values } = &self.hir.exprs[e] else { unreachable!("`and` or `or`") };
        let is_and = matches!(op, ast::BoolOp::And);
        let word = if is_and { "and" } else { "or" };
        let last = values.len() - 1;
        let operand = |this: &mut Self, k: usize| {
            if condition || (!is_and && k < last) {
                this.condition_value(values[k])
            } else {
                this.expr(values[k])
            }
        };
        let as_bool = |this: &mut Self, v: Val, at: TextRange| match condition {
            true => this.truth(v, at),
            false => this.bool_operand(v, at, word),
        };
        let first = operand(self, 0);
        let Some(x) = as_bool(self, first, self.range(values[0])) else { return Val::Err };
        self.at(&self.range(e));
        let rn = self.fresh(word);
        let res = self.b.let_(TypeId::BOOL, x, &rn);
        let join = self.block(&format!("{word}.end"));
        // Each operand runs where those before it were true (`and`) or
        // false (`or`), and knows what they tell of values that may be
        // `None` (`x is not None and x > 0`).
        let known_before = self.present.clone();
        for (k, &value) in values[1..].iter().enumerate() {
            let facts = self.facts(values[k]);
            self.present.extend(if is_and { facts.when_true } else { facts.when_false });
            let next = self.block(word);
            if is_and {
                self.b.condbr(res, next, join, None);
            } else {
                self.b.condbr(res, join, next, None);
            }
            self.enter(next);
            let v = operand(self, k + 1);
            let Some(y) = as_bool(self, v, self.range(value)) else {
                self.present = known_before;
                self.br(join);
                self.enter(join);
                return Val::Err;
            };
            self.b.set(res, y);
        }
        self.present = known_before;
        self.br(join);
        self.enter(join);
        Val::Num { v: res, s: Scalar::strong(DType::Bool), nonneg: true }
    }

    pub(super) fn bool_operand(&mut self, v: Val, e: TextRange, word: &str) -> Option<ValueId> {
        // An operand that may be `None` (where `bool_op` takes one): its
        // truth, of a Bool as any other operand.
        match v {
            Val::None => return self.truth(v, e),
            Val::Maybe { ref value, .. } if value.scalar().is_some_and(|s| s.dtype == DType::Bool) => {
                return self.truth(v, e)
            }
            Val::Maybe { value, .. } => return self.bool_operand(*value, e, word),
            _ => {}
        }
        // Refused by the typecheck where it types the operand.
        if matches!(v, Val::Err) {
            return None;
        }
        match typeck::bool_operand_error(word, v.scalar()) {
            None => self.materialize(&v, DType::Bool, &e),
            Some(message) => {
                self.err(&e, message);
                None
            }
        }
    }

    pub(super) fn compare_pair(&mut self, op: ast::CmpOp, l: &Val, r: &Val, at: TextRange) -> Option<ValueId> {
        use ast::CmpOp as C;
        let opcode = match op {
            C::Eq => Opcode::Eq,
            C::NotEq => Opcode::Ne,
            C::Lt => Opcode::Lt,
            C::LtE => Opcode::Le,
            C::Gt => Opcode::Gt,
            C::GtE => Opcode::Ge,
            C::Is | C::IsNot => {
                self.err(&at, "`is` is not supported: compare values with `==`");
                return None;
            }
            C::In | C::NotIn => {
                self.err(&at, "`in` is not supported");
                return None;
            }
        };
        let (Some(ls), Some(rs)) = (l.scalar(), r.scalar()) else {
            if !matches!(l, Val::Err) && !matches!(r, Val::Err) {
                self.err(&at, ONLY_SCALARS_COMPARED);
            }
            return None;
        };
        let scalar = |s: Scalar| typeck::Ty::Num { s, nonneg: false };
        if let Some(message) = typeck::scalar_comparison_error(op, &scalar(ls), &scalar(rs)) {
            // Refused by the typecheck where it types both operands, and
            // here for the elements of tuples.
            self.err(&at, message);
            return None;
        }
        let mut p = promote(ls, rs)?;
        // A Python integer outside the other operand's integer dtype is
        // compared by value, as NumPy does (arithmetic would refuse it).
        let out_of_range = |v: &Val| match v {
            Val::Lit { lit: Lit::Int(i), .. } => p.dtype.int_range().is_some_and(|(lo, hi)| *i < lo || *i > hi),
            _ => false,
        };
        if p.dtype.is_int() && (out_of_range(l) || out_of_range(r)) {
            if p.dtype != DType::UInt64 {
                p = Scalar::strong(DType::Int64);
            } else {
                // An unsigned 64-bit value against a negative literal: the
                // literal is the smaller whatever the value.
                let truth = truth_when_smaller(opcode, matches!(l, Val::Lit { .. }));
                let n = self.fresh("cmp");
                return Some(self.b.const_(TypeId::BOOL, Literal::Bool(truth), &n));
            }
        }
        // So is a Python integer held at run time: in Int64, which holds
        // both (against UInt64, a negative one is the smaller).
        let python_int = |v: &Val| matches!(v, Val::Num { s, .. } if s.weak && s.dtype.is_int());
        if p.dtype.is_int() && !p.weak && p.dtype != DType::Int64 && (python_int(l) || python_int(r)) {
            if p.dtype != DType::UInt64 {
                p = Scalar::strong(DType::Int64);
            } else {
                return self.compare_with_unsigned_64(opcode, l, r, at);
            }
        }
        let a = self.materialize(l, p.dtype, &at)?;
        let b = self.materialize(r, p.dtype, &at)?;
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, &at)));
        Some(self.result(opcode, DType::Bool, a, b))
    }

    /// A UInt64 compared with a Python int held at run time: a negative
    /// one is the smaller whatever the UInt64, any other is compared as
    /// UInt64.
    fn compare_with_unsigned_64(&mut self, opcode: Opcode, l: &Val, r: &Val, at: TextRange) -> Option<ValueId> {
        let python_left = matches!(l, Val::Num { s, .. } if s.weak);
        let (py, _) = if python_left { (l, r) } else { (r, l) };
        let Val::Num { v: py_v, .. } = py else { return None };
        let py_v = *py_v;
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, &at)));
        let a = self.materialize(l, DType::UInt64, &at)?;
        let b = self.materialize(r, DType::UInt64, &at)?;
        let by_value = self.result(opcode, DType::Bool, a, b);
        if py.nonneg() {
            return Some(by_value);
        }
        let zero = self.zero(DType::Int64);
        let negative = self.named(Opcode::Lt, TypeId::BOOL, py_v, zero, "neg");
        let truth = truth_when_smaller(opcode, python_left);
        let n = self.fresh("cmp");
        let fixed = self.b.const_(TypeId::BOOL, Literal::Bool(truth), &n);
        let n = self.fresh("cmp");
        Some(self.b.select(TypeId::BOOL, negative, fixed, by_value, &n))
    }

    pub(super) fn compare(&mut self, e: hir::ExprId) -> Val {
        let hir = self.hir;
        let hir::Expr::Compare { ops, operands } = &hir.exprs[e] else { unreachable!("a comparison") };
        let c = &CompareExpr { at: self.range(e), ops, operands };
        let is_none = |e: hir::ExprId| matches!(hir.exprs[e], hir::Expr::None);
        for (i, op) in ops.iter().enumerate() {
            let tests_none = is_none(operands[i]) || is_none(operands[i + 1]);
            match op {
                // `x == None`: the same test as `x is None`, CPython's
                // numbers never being equal to `None`. The typecheck
                // refuses `is` and `== None` in a chain, and `in` there.
                ast::CmpOp::Is | ast::CmpOp::IsNot | ast::CmpOp::Eq | ast::CmpOp::NotEq
                    if tests_none && ops.len() == 1 =>
                {
                    return self.is_none_test(c)
                }
                ast::CmpOp::Is | ast::CmpOp::IsNot => return self.unrefused(&c.at),
                ast::CmpOp::In | ast::CmpOp::NotIn
                    if ops.len() > 1 || matches!(hir.exprs[operands[i + 1]], hir::Expr::Call { .. }) =>
                {
                    return self.unrefused(&c.at)
                }
                ast::CmpOp::Eq | ast::CmpOp::NotEq if tests_none => return self.unrefused(&c.at),
                _ => {}
            }
        }
        if let [ast::CmpOp::Eq | ast::CmpOp::NotEq] = ops[..] {
            if operands.iter().any(|&e| self.may_be_none_here(e)) {
                return self.equality_maybe_none(c);
            }
        }
        let mut lhs = self.expr(operands[0]);
        if ops.len() == 1 {
            let r = self.expr(operands[1]);
            let membership = matches!(ops[0], ast::CmpOp::In | ast::CmpOp::NotIn);
            if membership || matches!(lhs, Val::Tuple(_)) || matches!(r, Val::Tuple(_)) {
                return self.tuple_compare(ops[0], &lhs, &r, c);
            }
            // Comparing Python scalars gives a Python bool.
            let weak = lhs.scalar().is_some_and(|s| s.weak) && r.scalar().is_some_and(|s| s.weak);
            return match self.compare_pair(ops[0], &lhs, &r, c.at) {
                Some(v) => Val::Num { v, s: Scalar { dtype: DType::Bool, weak }, nonneg: true },
                None => Val::Err,
            };
        }
        // `a < b < c`: `b` once, and `c` only when `a < b`.
        let join = self.block("cmp.end");
        let mut res = None;
        for (i, (op, &comp)) in ops.iter().zip(&operands[1..]).enumerate() {
            let r = self.expr(comp);
            let Some(v) = self.compare_values(*op, &lhs, &r, c.at) else {
                self.br(join);
                self.enter(join);
                return Val::Err;
            };
            let res_v = match res {
                None => {
                    let n = self.fresh("cmp");
                    let l = self.b.let_(TypeId::BOOL, v, &n);
                    res = Some(l);
                    l
                }
                Some(l) => {
                    self.b.set(l, v);
                    l
                }
            };
            if i + 1 < ops.len() {
                let next = self.block("cmp");
                self.b.condbr(res_v, next, join, None);
                self.enter(next);
            }
            lhs = r;
        }
        self.br(join);
        self.enter(join);
        Val::Num { v: res.expect("a comparison"), s: Scalar::strong(DType::Bool), nonneg: true }
    }

    pub(super) fn ternary(&mut self, i: &IfExpr) -> Val {
        let facts = self.facts(i.test);
        let Some(c) = self.cond(i.test) else { return Val::Err };
        let known_before = self.present.clone();
        let v = self.ternary_arms(i, c, facts);
        self.present = known_before;
        v
    }

    /// The arms of `i` lowered by `arm`, each in a block of its own that
    /// knows what its side of the test tells of values that may be `None`
    /// (`known`: when true, when false). Nothing branches to them yet: the
    /// caller does, from `pre`, once it knows the arms' common type.
    pub(super) fn arms_in_blocks(
        &mut self,
        i: &IfExpr,
        (known_true, known_false): (HashSet<String>, HashSet<String>),
        arm: fn(&mut Self, hir::ExprId) -> Val,
    ) -> Option<Arms> {
        let pre = self.b.current_block()?;
        let then_b = self.block("ifx.then");
        let else_b = self.block("ifx.else");
        let join = self.block("ifx.end");
        self.enter(then_b);
        self.present = known_true;
        let t = arm(self, i.body);
        let then_end = self.b.current_block();
        self.enter(else_b);
        self.present = known_false;
        let f = arm(self, i.orelse);
        let else_end = self.b.current_block();
        Some(Arms { pre, then_b, else_b, join, t, then_end, f, else_end })
    }

    /// Why the arms `t` and `f` of a conditional expression have no
    /// common type (`typeck::arms_error`); an arm with no type (an error,
    /// `None`) has its own error or none.
    fn arms_error(&self, t: &Val, f: &Val, pure: bool) -> Option<String> {
        if matches!(t, Val::Err) || matches!(f, Val::Err) {
            return None;
        }
        typeck::arms_error(t.ty().as_ref(), f.ty().as_ref(), pure)
    }

    /// The arms of `i`, whose condition is `c`, each knowing what `facts`
    /// tells of values that may be `None` where it runs.
    fn ternary_arms(&mut self, i: &IfExpr, c: ValueId, facts: maybe_none::Facts) -> Val {
        let known_before = self.present.clone();
        let known_true: HashSet<String> = known_before.iter().cloned().chain(facts.when_true).collect();
        let known_false: HashSet<String> = known_before.iter().cloned().chain(facts.when_false).collect();
        let tuple_arm = self.is_tuple_expr(i.body) || self.is_tuple_expr(i.orelse);
        if is_pure(self.hir, i.body) && is_pure(self.hir, i.orelse) && !tuple_arm {
            self.present = known_true;
            let t = self.expr(i.body);
            self.present = known_false;
            let f = self.expr(i.orelse);
            // Refused by the typecheck where it types both arms.
            if let Some(message) = self.arms_error(&t, &f, true) {
                return self.err(&i.at, message);
            }
            let (Some(ts), Some(fs)) = (t.scalar(), f.scalar()) else { return Val::Err };
            let Some(p) = promote(ts, fs) else { return Val::Err };
            let (Some(a), Some(b)) = (
                self.materialize(&t, p.dtype, &self.range(i.body)),
                self.materialize(&f, p.dtype, &self.range(i.orelse)),
            ) else {
                return Val::Err;
            };
            self.at(&i.at);
            let n = self.fresh("sel");
            let ty = TypeId::scalar(p.dtype);
            let nonneg = t.nonneg() && f.nonneg();
            return Val::Num { v: self.b.select(ty, c, a, b, &n), s: p, nonneg };
        }
        // Arms with effects (calls, indexing that may panic) run only when
        // taken. Their common type is known once both are lowered, so the
        // branch and the result's `let` go into the block before them last
        // (the builder appends to any block).
        let Some(Arms { pre, then_b, else_b, join, t, then_end, f, else_end }) =
            self.arms_in_blocks(i, (known_true, known_false), Self::expr)
        else {
            return Val::Err;
        };
        // The arms' common type, element by element when they are tuples
        // (refused by the typecheck where it types both arms).
        let common: Option<Vec<Scalar>> = if let Some(message) = self.arms_error(&t, &f, false) {
            self.err(&i.at, message);
            None
        } else {
            match (Self::arm_elements(&t), Self::arm_elements(&f)) {
                (Some(ts), Some(fs)) => ts.iter().zip(&fs).map(|(&(_, ts), &(_, fs))| promote(ts, fs)).collect(),
                _ => None,
            }
        };
        self.b.switch_to(pre);
        self.at(&i.at);
        let res: Option<Vec<ValueId>> = common.as_ref().map(|joined| {
            joined
                .iter()
                .map(|p| {
                    let z = self.zero(p.dtype);
                    let n = self.fresh("ifx");
                    let ty = TypeId::scalar(p.dtype);
                    self.b.let_(ty, z, &n)
                })
                .collect()
        });
        self.b.condbr(c, then_b, else_b, None);
        for (end, v, e) in [(then_end, &t, self.range(i.body)), (else_end, &f, self.range(i.orelse))] {
            let Some(end) = end else { continue };
            self.b.switch_to(end);
            self.open = true;
            if let (Some(joined), Some(res), Some(parts)) = (&common, &res, Self::arm_elements(v)) {
                for ((p, r), (part, _)) in joined.iter().zip(res).zip(parts) {
                    if let Some(x) = self.materialize(part, p.dtype, &e) {
                        self.b.set(*r, x);
                    }
                }
            }
            self.br(join);
        }
        self.enter(join);
        let (Some(joined), Some(res)) = (common, res) else { return Val::Err };
        let (ts, fs) = (Self::arm_elements(&t).unwrap_or_default(), Self::arm_elements(&f).unwrap_or_default());
        let mut parts: Vec<Val> = Vec::with_capacity(res.len());
        for (k, (p, r)) in joined.into_iter().zip(res).enumerate() {
            let nonneg = ts.get(k).is_some_and(|(v, _)| v.nonneg()) && fs.get(k).is_some_and(|(v, _)| v.nonneg());
            parts.push(Val::Num { v: r, s: p, nonneg });
        }
        match t {
            Val::Tuple(_) => Val::Tuple(parts),
            _ => parts.pop().unwrap_or(Val::Err),
        }
    }

    pub(super) fn attribute(&mut self, e: hir::ExprId, base: hir::ExprId, attr: &str) -> Val {
        let hir = self.hir;
        let (at, attr_at) = (self.range(e), hir.attr_ranges[e]);
        if let Some(reg) = self.gpu_register(base) {
            let Some(axis) = postc_ir::builtins::Axis::ALL.iter().find(|x| x.name() == attr) else {
                return self.err(&attr_at, gpu_axes_error(reg.name()));
            };
            if !self.decl.attrs.contains(postc_ir::FuncAttrs::KERNEL) {
                return self.err(&at, gpu_register_outside_kernel_error(reg.name()));
            }
            self.at(&at);
            let n = self.fresh(reg.name());
            let callee = postc_ir::builtins::gpu_builtin_name(reg, *axis);
            let v = self.b.call(&callee, &[], Some(TypeId::INT64), &n);
            return Val::Num { v, s: Scalar::weak(DType::Int64), nonneg: true };
        }
        // `postc.math.pi` and friends.
        if let Some(ns) = self.namespace_of(base) {
            if matches!(ns, Namespace::PostcMath | Namespace::Math) {
                if let Some((_, v)) = MATH_CONSTANTS.iter().find(|(n, _)| *n == attr) {
                    return Val::Lit { lit: Lit::Float(*v), s: Scalar::weak(DType::Float64) };
                }
            }
            return self.err(&at, not_a_value_error(&self.hir.dotted(e).unwrap_or_default()));
        }
        // `np.iinfo(np.int32).max`, `np.finfo(np.float32).eps`: constants.
        if let hir::Expr::Call { func, .. } = hir.exprs[base] {
            if let Some(which) = self.numpy_attr(func).filter(|f| f == "iinfo" || f == "finfo") {
                return self.type_info(&which, &self.call_of(base), attr, attr_at);
            }
        }
        // `np.pi` and friends: Python floats.
        if self.boundary_module(base) == Some("numpy") {
            if let Some(x) = numpy_constant(attr) {
                return Val::Lit { lit: Lit::Float(x), s: Scalar::weak(DType::Float64) };
            }
        }
        if let Some(m) = self.post_module_of(base) {
            return self.err(&attr_at, format!("module `{m}` has no `{attr}`"));
        }
        let v = self.expr(base);
        match (&v, attr) {
            (Val::Err, _) => Val::Err,
            (Val::Arr { ty, .. }, "ndim") => match ty.ndim() {
                Some(n) => Val::Lit { lit: Lit::Int(n as i128), s: Scalar::weak(DType::Int64) },
                None => self.err(&at, "the number of axes of this array is not known"),
            },
            (Val::Arr { v: av, ty }, "size") => {
                let Some(n) = ty.ndim() else { return self.err(&at, "the number of axes of this array is not known") };
                self.at(&at);
                let mut acc: Option<ValueId> = None;
                for axis in 0..n {
                    let nm = self.fresh("dim");
                    let d = self.b.dim(*av, axis as u32, &nm);
                    acc = Some(match acc {
                        None => d,
                        Some(p) => self.result(Opcode::Mul, DType::Int64, p, d),
                    });
                }
                match acc {
                    Some(v) => Val::Num { v, s: Scalar::weak(DType::Int64), nonneg: true },
                    None => Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) },
                }
            }
            (Val::Arr { v: av, ty }, "T") => self.transposed(*av, &ty.clone(), &at),
            (Val::Arr { v: av, ty }, "shape") => self.shape_tuple(*av, &ty.clone(), &at),
            _ => {
                // Refused by the typecheck where it types the base; what
                // is left is `real` or `imag` of a number.
                if let Some((whole, message)) = typeck::attribute_error(v.ty().as_ref(), attr) {
                    return self.err(if whole { &at } else { &attr_at }, message);
                }
                let Some(s) = v.scalar() else { return Val::Err };
                match s.dtype.complex_part() {
                    Some(part) => {
                        let Some(x) = self.materialize(&v, s.dtype, &at) else { return Val::Err };
                        self.at(&at);
                        let n = self.fresh(attr);
                        let field = if attr == "real" { Field::Real } else { Field::Imag };
                        let ty = TypeId::scalar(part);
                        Val::Num {
                            v: self.b.getfield(ty, x, field, &n),
                            s: Scalar { dtype: part, weak: s.weak },
                            nonneg: false,
                        }
                    }
                    None if attr == "real" => v,
                    None => Val::Lit { lit: Lit::Int(0), s: Scalar { dtype: s.dtype, weak: true } },
                }
            }
        }
    }

    pub(super) fn gpu_register(&self, e: hir::ExprId) -> Option<postc_ir::builtins::GpuReg> {
        match &self.hir.exprs[e] {
            &hir::Expr::Attribute { base, ref attr } if self.namespace_of(base) == Some(Namespace::Postc) => {
                postc_ir::builtins::GpuReg::ALL.iter().copied().find(|r| r.name() == &**attr)
            }
            _ => match self.global_of(e) {
                Some(Global::GpuRegister(r)) => Some(*r),
                _ => None,
            },
        }
    }

    /// The namespace a name or `postc.math` attribute names.
    pub(super) fn namespace_of(&self, e: hir::ExprId) -> Option<Namespace> {
        let of_name = |e| match self.global_of(e) {
            Some(Global::Namespace(ns)) => Some(*ns),
            _ => None,
        };
        match &self.hir.exprs[e] {
            &hir::Expr::Attribute { base, ref attr } if &**attr == "math" => {
                (of_name(base) == Some(Namespace::Postc)).then_some(Namespace::PostcMath)
            }
            _ => of_name(e),
        }
    }

    /// The POST module imported whole that `e` names: `st` of `import m
    /// as st`, `a.b` of `import a.b`.
    pub(super) fn post_module_of(&self, e: hir::ExprId) -> Option<&'c str> {
        let mut root = e;
        while let hir::Expr::Attribute { base, .. } = self.hir.exprs[root] {
            root = base;
        }
        let Some(Global::PostModule(m)) = self.global_of(root) else { return None };
        let text = self.hir.dotted(e)?;
        let aliased = root == e && !m.starts_with(&format!("{text}."));
        (text == *m || aliased).then_some(m.as_str())
    }

    /// What the module-level name `e` is bound to, when `e` is a name no
    /// local shadows.
    pub(super) fn global_of(&self, e: hir::ExprId) -> Option<&'c Global> {
        match &self.hir.exprs[e] {
            hir::Expr::Name(n) => {
                let name = self.name_text(n);
                if self.locals.contains_key(name) {
                    return None;
                }
                self.cx.globals.get(name)
            }
            _ => None,
        }
    }

    /// The subscript `s`: `a.shape[k]`, an element or a view of an array,
    /// an element or a slice of a tuple.
    pub(super) fn subscript(&mut self, s: hir::ExprId) -> Val {
        let hir = self.hir;
        let hir::Expr::Subscript { base, index } = hir.exprs[s] else { unreachable!("a subscript") };
        // `a.shape[k]`.
        if let hir::Expr::Attribute { base: of, attr } = &hir.exprs[base] {
            if &**attr == "shape" {
                let arr = self.expr(*of);
                let Val::Arr { v, ty } = arr else {
                    if matches!(arr, Val::Err) {
                        return Val::Err;
                    }
                    return self.err(&self.range(*of), typeck::SHAPE_OF_NOT_AN_ARRAY);
                };
                let axis = match hir.exprs[index] {
                    hir::Expr::Literal(Lit::Int(k)) => Some(k),
                    hir::Expr::UnaryOp { op: ast::UnaryOp::USub, operand } => match hir.exprs[operand] {
                        hir::Expr::Literal(Lit::Int(k)) => Some(-k),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(k) = axis else {
                    if let hir::Expr::Slice { .. } = hir.exprs[index] {
                        // `a.shape[:-1]`: a slice of the tuple of extents.
                        return match self.shape_tuple(v, &ty, &self.range(base)) {
                            Val::Tuple(extents) => self.tuple_subscript(extents, s),
                            other => other,
                        };
                    }
                    return self.err(&self.range(index), typeck::SHAPE_AXIS_NOT_CONSTANT);
                };
                let nd = ty.ndim().unwrap_or(usize::MAX) as i128;
                let axis = if k < 0 { k + nd } else { k };
                if axis < 0 || axis >= nd {
                    return self.err(&self.range(index), typeck::axis_out_of_range(k, nd));
                }
                self.at(&self.range(s));
                let n = self.fresh("dim");
                return Val::Num { v: self.b.dim(v, axis as u32, &n), s: Scalar::weak(DType::Int64), nonneg: true };
            }
        }
        let base = self.expr(base);
        if let Val::Tuple(elts) = base {
            return self.tuple_subscript(elts, s);
        }
        if let Val::Arr { v, ty } = &base {
            if let Some(p) = self.mixed_array_index(index, ty.ndim()) {
                let Some((view, idx)) = self.mixed_view(&(*v, ty.clone()), index, p, self.range(s)) else {
                    return Val::Err;
                };
                return self.gather(&view, &idx, p, self.range(s));
            }
            if self.is_array_index(index) {
                let Some(idx) = self.index_array(index) else { return Val::Err };
                return self.gather(&(*v, ty.clone()), &idx, 0, self.range(s));
            }
            if slicing::makes_view(hir, index, ty.ndim()) && !self.is_index_tuple(index) {
                return self.view_subscript(*v, ty, s);
            }
        }
        let Some((arr, idx)) = self.element_of(base, s, false) else { return Val::Err };
        self.load(&arr, &idx, self.range(s))
    }

    /// The array and element indices of the subscript `s` (`a[i, j]`),
    /// each index wrapped when it may be negative.
    pub(super) fn element(&mut self, s: hir::ExprId, store: bool) -> Option<((ValueId, TypeData), Vec<ValueId>)> {
        let hir::Expr::Subscript { base, .. } = self.hir.exprs[s] else { unreachable!("a subscript") };
        let arr = self.expr(base);
        self.element_of(arr, s, store)
    }

    /// The array of indices or the mask `index` (one that
    /// [`Self::is_array_index`] found), lowered; `None` after an error.
    pub(super) fn index_array(&mut self, index: hir::ExprId) -> Option<(ValueId, TypeData)> {
        let at = self.range(index);
        match self.expr(index) {
            Val::Arr { ty, .. } if typeck::array_index_error(ty.dtype).is_some() => {
                self.err(&at, typeck::array_index_error(ty.dtype).unwrap_or_default());
                None
            }
            Val::Arr { v, ty } => Some((v, ty)),
            Val::Err => None,
            _ => {
                self.err(&at, "an index is an integer or an array of them");
                None
            }
        }
    }

    /// Whether `index` is a name holding a tuple (of one integer per
    /// axis: `a[idx]` of `for idx in np.ndindex(a.shape)`), as the
    /// typecheck types it.
    pub(super) fn is_index_tuple(&self, index: hir::ExprId) -> bool {
        matches!(self.hir.exprs[index], hir::Expr::Name(_))
            && matches!(self.expr_types.get(index), Some(typeck::Ty::Tuple(_)))
    }

    /// `element` of the array `arr` that the base of `s` has been lowered
    /// to.
    fn element_of(&mut self, arr: Val, s: hir::ExprId, store: bool) -> Option<((ValueId, TypeData), Vec<ValueId>)> {
        let hir = self.hir;
        let hir::Expr::Subscript { base, index } = hir.exprs[s] else { unreachable!("a subscript") };
        let base_at = self.range(base);
        let (av, ty) = match arr {
            Val::Arr { v, ty } => (v, ty),
            Val::Err | Val::None | Val::Maybe { .. } => return None,
            Val::Lit { s: sc, .. } | Val::Num { s: sc, .. } => {
                self.err(&base_at, typeck::scalar_indexed(sc.dtype));
                return None;
            }
            Val::Void => {
                self.err(&base_at, "this call returns nothing");
                return None;
            }
            Val::Tuple(_) => {
                let msg = if store {
                    typeck::assignments::TUPLE_ELEMENTS_ASSIGNED
                } else {
                    "a tuple is indexed with one integer"
                };
                self.err(&base_at, msg);
                return None;
            }
        };
        if store && !ty.is_output && self.is_param_array(base) {
            self.read_only_write(base, true);
            return None;
        }
        let index_exprs = slicing::written_entries(hir, index);
        // A tuple local gives one value per axis; each written entry one.
        let entries: Vec<(Option<hir::ExprId>, TextRange, Option<Val>)> = if self.is_index_tuple(index) {
            let at = self.range(index);
            match self.expr(index) {
                Val::Tuple(elts) => elts.into_iter().map(|v| (None, at, Some(v))).collect(),
                _ => return None,
            }
        } else {
            index_exprs.iter().map(|&e| (Some(e), self.range(e), None)).collect()
        };
        if let Some(nd) = ty.ndim() {
            if let Some(message) = typeck::index_count_error(nd, entries.len()) {
                self.err(&self.range(index), message);
                return None;
            }
        }
        let mut idx = Vec::new();
        for (axis, (entry, at, given)) in entries.into_iter().enumerate() {
            let v = match (entry, given) {
                (Some(ie), _) => {
                    if let hir::Expr::Slice { .. } | hir::Expr::None | hir::Expr::Ellipsis = hir.exprs[ie] {
                        self.err(&at, "only `a[...] = value` assigns to a slice: augmented and tuple assignments take one element at a time");
                        return None;
                    }
                    self.expr(ie)
                }
                (None, given) => given.expect("a value of the tuple"),
            };
            if matches!(v, Val::Err) {
                return None;
            }
            if let Some(message) = typeck::element_index_error(v.ty().as_ref()) {
                self.err(&at, message);
                return None;
            }
            let nonneg = v.nonneg();
            let x = self.materialize(&v, DType::Int64, &at)?;
            if nonneg {
                idx.push(x);
                continue;
            }
            // A negative index counts from the end, as in NumPy.
            self.at(&at);
            let dn = self.fresh("dim");
            let d = self.b.dim(av, axis as u32, &dn);
            if let Val::Lit { lit: Lit::Int(_), .. } = v {
                idx.push(self.result(Opcode::Add, DType::Int64, x, d));
                continue;
            }
            let z = self.zero(DType::Int64);
            let neg = self.result(Opcode::Lt, DType::Bool, x, z);
            let wrapped = self.result(Opcode::Add, DType::Int64, x, d);
            let n = self.fresh("idx");
            idx.push(self.b.select(TypeId::INT64, neg, wrapped, x, &n));
        }
        if let (hir::Expr::Name(n), [i]) = (&hir.exprs[base], &idx[..]) {
            if self.lists.contains_key(self.name_text(n)) {
                // A list's own IndexError, as CPython raises it.
                let at = self.range(s);
                self.at(&at);
                let nm = self.fresh("len");
                let len = self.b.dim(av, 0, &nm);
                let z = self.zero(DType::Int64);
                let ge = self.result(Opcode::Ge, DType::Bool, *i, z);
                let lt = self.result(Opcode::Lt, DType::Bool, *i, len);
                let ok = self.result(Opcode::And, DType::Bool, ge, lt);
                self.panic_unless(ok, "IndexError: list index out of range", &at);
            }
        }
        Some(((av, ty), idx))
    }

    pub(super) fn is_param_array(&self, e: hir::ExprId) -> bool {
        self.reads_input_memory(e)
    }

    pub(super) fn load(&mut self, arr: &(ValueId, TypeData), idx: &[ValueId], at: TextRange) -> Val {
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, &at)));
        let n = self.fresh("el");
        let ty = TypeId::scalar(arr.1.dtype);
        let v = self.b.index_load(ty, arr.0, idx, &n);
        Val::Num { v, s: Scalar::strong(arr.1.dtype), nonneg: false }
    }

    /// Stores `v` in the element `idx` of `arr`, written at `at`.
    pub(super) fn store(&mut self, arr: &(ValueId, TypeData), idx: &[ValueId], v: Val, at: TextRange) {
        let at = &at;
        let d = arr.1.dtype;
        match v.scalar() {
            Some(s) => {
                let number = typeck::Ty::Num { s, nonneg: false };
                if let Some(message) = typeck::assignments::store_error(&number, d) {
                    self.err(at, message);
                    return;
                }
            }
            None => {
                if !matches!(v, Val::Err) {
                    self.err(at, typeck::assignments::NOT_A_SCALAR_STORED);
                }
                return;
            }
        }
        // Storing converts as NumPy's item assignment does.
        let Some(x) = self.materialize(&v, d, at) else { return };
        self.at(at);
        self.b.index_store(arr.0, idx, x);
    }

    // ---- calls ------------------------------------------------------------
}

/// Whether an array of type `arg` may be passed for a parameter of type
/// `param`: the same dtype and number of axes, every static extent of the
/// parameter matched, and the same layout (a callee may rely on both).
/// The truth of a comparison whose one operand is known to be the smaller
/// (`left_smaller`: the left one), whatever the values.
fn truth_when_smaller(opcode: Opcode, left_smaller: bool) -> bool {
    match opcode {
        Opcode::Eq => false,
        Opcode::Ne => true,
        Opcode::Lt | Opcode::Le => left_smaller,
        _ => !left_smaller,
    }
}

pub(crate) fn array_fits(arg: &TypeData, param: &TypeData) -> bool {
    use postc_ir::Shape;
    if arg.dtype != param.dtype {
        return false;
    }
    let shape_ok = match (&arg.shape, &param.shape) {
        (_, Shape::Any) => true,
        (Shape::Any, Shape::Dims(p)) => p.iter().all(Option::is_none),
        (Shape::Dims(a), Shape::Dims(p)) => {
            a.len() == p.len() && a.iter().zip(p.iter()).all(|(x, y)| y.is_none() || x == y)
        }
    };
    shape_ok && arg.layout == param.layout
}

/// Whether evaluating an expression can have no effect and cannot panic,
/// so that a conditional expression may evaluate both arms.
pub(crate) fn is_pure(body: &hir::Body, e: hir::ExprId) -> bool {
    deep(|| match &body.exprs[e] {
        hir::Expr::Name(_) | hir::Expr::Literal(_) | hir::Expr::IntTooLarge => true,
        &hir::Expr::Attribute { base, ref attr } => matches!(&**attr, "real" | "imag" | "ndim") && is_pure(body, base),
        &hir::Expr::UnaryOp { op, operand } => {
            matches!(op, ast::UnaryOp::Not | ast::UnaryOp::UAdd) && is_pure(body, operand)
        }
        hir::Expr::Compare { ops, operands } => ops.len() == 1 && operands.iter().all(|&o| is_pure(body, o)),
        _ => false,
    })
}

/// Whether `v` is a literal other than zero (a division by it needs no check).
fn is_nonzero_literal(v: &Val) -> bool {
    match v {
        Val::Lit { lit: Lit::Int(i), .. } => *i != 0,
        Val::Lit { lit: Lit::Float(x), .. } => *x != 0.0,
        Val::Lit { lit: Lit::Complex(re, im), .. } => *re != 0.0 || *im != 0.0,
        Val::Lit { lit: Lit::Bool(b), .. } => *b,
        _ => false,
    }
}

/// The arms of a conditional expression as [`FnLower::arms_in_blocks`]
/// leaves them: the block before them, each arm's block, the join, and
/// each arm's value with the block it ends in (`None` after an exit).
pub(super) struct Arms {
    pub pre: BlockId,
    pub then_b: BlockId,
    pub else_b: BlockId,
    pub join: BlockId,
    pub t: Val,
    pub then_end: Option<BlockId>,
    pub f: Val,
    pub else_end: Option<BlockId>,
}
