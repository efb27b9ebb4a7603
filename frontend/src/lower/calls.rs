//! Calls: functions of the program, intrinsics, built-ins, casts and
//! the GPU built-ins.

use super::*;

/// `range(...)` where it is not what a `for` loop runs over (or a local
/// holding a `range` is bound to).
pub(crate) const RANGE_ONLY_ITERATED: &str = "`range` is only used as the iterable of a `for` loop";

/// `prange(...)` where it is not what a `for` loop runs over.
pub(crate) const PRANGE_ONLY_ITERATED: &str = "`prange` is only used as the iterable of a `for` loop";

/// `x.conjugate(...)` given arguments.
pub(crate) const CONJUGATE_FORM: &str = "`conjugate` takes no arguments";

/// `shared`, `sync_threads` or `atomic_add` (`name`) called outside a
/// `@kernel` function.
pub(crate) fn kernel_only_error(name: &str) -> String {
    format!("`{name}` is available in `@kernel` functions only")
}

/// `sync_threads` given arguments.
pub(crate) const SYNC_THREADS_FORM: &str = "`sync_threads` takes no arguments";

/// `shared` given other than one array type of a dtype and extents.
pub(crate) const SHARED_FORM: &str = "`shared` takes the array's type with static extents: `shared(Float32[16, 16])`";

/// An extent of `shared`'s array type that is no positive integer literal.
pub(crate) const SHARED_EXTENT: &str = "an extent of a shared array is a positive integer literal";

/// Why a block cannot share the array of type `ty` (an array of static
/// extents) that `shared` is given: of a dtype it makes no arrays of, or
/// of more bytes than a block shares.
pub(crate) fn shared_error(ty: &TypeData) -> Option<String> {
    let message = postc_ir::builtins::shared_bytes(ty).err()?;
    let postc_ir::Shape::Dims(dims) = &ty.shape else { return Some(message) };
    let dims: Vec<u64> = dims.iter().map(|d| d.unwrap_or(0)).collect();
    let bytes = dims.iter().fold(ty.dtype.size_bytes() as u64, |b, &n| b.saturating_mul(n));
    let max = postc_ir::builtins::MAX_SHARED_BYTES;
    if bytes <= max {
        return Some(message);
    }
    // The IR's message shows the IR's type; the annotation is the user's.
    let extents: Vec<String> = dims.iter().map(u64::to_string).collect();
    let shown = format!("{}[{}]", ty.dtype.name(), extents.join(", "));
    Some(format!("`shared({shown})` takes {bytes} bytes, more than the {max} a block may share"))
}

/// `atomic_add()` without arguments.
pub(crate) const ATOMIC_ADD_FORM: &str = "`atomic_add` takes an array, one index per axis and a value";

/// `atomic_add` whose first argument is no array.
pub(crate) const ATOMIC_ADD_ARRAY: &str = "the first argument of `atomic_add` is an array";

/// `atomic_add` on an array of `d`, which the GPU adds to atomically not.
pub(crate) fn atomic_dtype_error(d: DType) -> String {
    format!("`atomic_add` takes arrays of Int32, UInt32, Int64, UInt64, Float32 or Float64, not {}", d.name())
}

/// `atomic_add` on an `nd`-D array given other than `nd` indices and a
/// value.
pub(crate) fn atomic_count_error(nd: usize) -> String {
    format!("`atomic_add` on a {nd}-D array takes {nd} {} and a value", if nd == 1 { "index" } else { "indices" })
}

/// An index of `atomic_add` that is no integer.
pub(crate) const INDEX_INTEGER: &str = "an index is an integer";

/// `atomic_add` adding a `value` an array of `d` does not hold without a
/// cast.
pub(crate) fn atomic_value_error(value: DType, d: DType) -> String {
    format!("`atomic_add` adds {} to an array of {} (cast explicitly)", value.name(), d.name())
}

/// `atomic_add` adding what is no number.
pub(crate) const ATOMIC_ADD_NUMBER: &str = "`atomic_add` adds a number";

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Builtin {
    Len,
    Abs,
    Min,
    Max,
    Sum,
    Divmod,
    /// `round(x)`: a Python int, halves to even.
    Round,
    Range,
    /// `prange`, imported from `postc` or `numba`.
    Prange,
    Print,
}

pub(super) fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "len" => Builtin::Len,
        "abs" => Builtin::Abs,
        "min" => Builtin::Min,
        "max" => Builtin::Max,
        "sum" => Builtin::Sum,
        "divmod" => Builtin::Divmod,
        "round" => Builtin::Round,
        "range" => Builtin::Range,
        "print" => Builtin::Print,
        _ => return None,
    })
}

/// What a callee expression names.
pub(super) enum Target {
    Gpu(GpuBuiltin),
    Func(Callee),
    /// A generic function of the module, by its index (see `generics`).
    Generic(usize),
    Intrinsic(String),
    Cast {
        dtype: DType,
        weak: bool,
    },
    Builtin(Builtin),
    Empty,
    Conjugate(hir::ExprId),
    /// A NumPy ufunc on scalars, by the name it was called by.
    Numpy(NpOp, String),
    /// A function of Python's `math`, by its name there.
    Math(MathFn, String),
    Boundary(String),
}

/// `np.float64(x)`, `np.int32(x)`, ...: a NumPy scalar type called on a
/// number is the dtype's cast (a literal out of its range is an error,
/// as NumPy raises OverflowError).
pub(super) fn numpy_scalar_type(module: &str, name: &str) -> Option<Target> {
    let dtype = (module == "numpy").then(|| arrays::numpy_dtype(name)).flatten()?;
    Some(Target::Cast { dtype, weak: false })
}

/// Whether compiled code calls NumPy's function `name` (`np.name(...)`,
/// or `name` imported from NumPy): its ufuncs, its array functions, its
/// functions of arrays, its dtypes (as casts) and the few read where they
/// are written (`np.where`, `np.clip`, `np.dot`, `np.ndindex`, `np.iinfo`,
/// `np.finfo`). Any other is a CPython function.
pub(crate) fn numpy_compiles(name: &str) -> bool {
    numpy_func(name).is_some()
        || npfuncs::numpy_function(name).is_some()
        || arrays::array_func(name).is_some()
        || arrays::numpy_dtype(name).is_some()
        || matches!(name, "where" | "clip" | "dot" | "ndindex" | "iinfo" | "finfo")
}

/// `type(x)` where compiled code does not take it.
pub(crate) const TYPE_OF_NO_PARAMETER: &str =
    "`type(x)` is compiled only of a scalar parameter, and only called to cast (`T = type(x)`, `T(0.5)`)";
/// `postc.empty` of other than a length and a dtype.
pub(crate) const EMPTY_FORM: &str = "`empty` takes a length and a dtype: `empty(n, Float64)`";
/// `postc.empty` of what is not a numeric dtype.
pub(crate) const EMPTY_DTYPE: &str = "`empty` takes a numeric dtype such as `Float64`";
/// `postc.empty` of a length that is not an integer.
pub(crate) const EMPTY_LENGTH: &str = "the length of `empty` is an integer";

impl<'a, 'c> FnLower<'a, 'c> {
    pub(super) fn target_of(&self, f: hir::ExprId) -> Option<Target> {
        match &self.hir.exprs[f] {
            hir::Expr::Name(n) => {
                let name = self.name_text(n);
                if self.locals.contains_key(name) {
                    // `T(0.5)` of `T = type(z)`: the dtype's cast.
                    return self.dtype_locals.get(name).map(|&dtype| Target::Cast { dtype, weak: false });
                }
                match self.cx.globals.get(name) {
                    Some(g) => self.global_target(name, g),
                    None => python_scalar(name)
                        .map(|dtype| Target::Cast { dtype, weak: true })
                        .or_else(|| builtin(name).map(Target::Builtin)),
                }
            }
            &hir::Expr::Attribute { base, ref attr } => {
                let attr = &**attr;
                // The method; `np.conj(x)` is NumPy's ufunc.
                if (attr == "conjugate" || attr == "conj") && self.boundary_module(base) != Some("numpy") {
                    return Some(Target::Conjugate(base));
                }
                match self.namespace_of(base) {
                    Some(Namespace::PostcMath) => {
                        if postc_ir::interp::is_known_intrinsic(attr) {
                            Some(Target::Intrinsic(attr.to_owned()))
                        } else {
                            None
                        }
                    }
                    Some(Namespace::Math) => math_func(attr).map(|f| Target::Math(f, attr.to_owned())),
                    Some(Namespace::Postyp) => DType::from_name(attr).map(|dtype| Target::Cast { dtype, weak: false }),
                    Some(Namespace::Postc) if attr == "prange" => Some(Target::Builtin(Builtin::Prange)),
                    Some(Namespace::Postc) => (attr == "empty").then_some(Target::Empty),
                    None => match &self.hir.exprs[base] {
                        hir::Expr::Name(n) => match self.cx.globals.get(self.name_text(n)) {
                            Some(Global::BoundaryModule(m)) if m == "numba" && attr == "prange" => {
                                Some(Target::Builtin(Builtin::Prange))
                            }
                            Some(Global::BoundaryModule(m)) => match numpy_func(attr) {
                                Some(op) if m == "numpy" => Some(Target::Numpy(op, attr.to_owned())),
                                _ => {
                                    Some(numpy_scalar_type(m, attr).unwrap_or(Target::Boundary(format!("{m}.{attr}"))))
                                }
                            },
                            _ => None,
                        },
                        _ => None,
                    },
                }
            }
            // `type(z)(1)`: the cast to a scalar parameter's dtype.
            hir::Expr::Call { .. } => crate::typeck::parameter_type(self.hir, self.decl, self.types, f)
                .map(|dtype| Target::Cast { dtype, weak: false }),
            _ => None,
        }
    }

    pub(super) fn global_target(&self, name: &str, g: &Global) -> Option<Target> {
        match g {
            // The types live in this module's table.
            Global::Func(i) => Some(Target::Func(Callee::of_decl(&self.cx.funcs[*i], self.types))),
            Global::Generic(g) => Some(Target::Generic(*g)),
            Global::Intrinsic { local } => {
                Some(Target::Intrinsic(self.cx.intrinsics.get(local).cloned().unwrap_or_else(|| local.clone())))
            }
            Global::PostImport { local } => imported_callee(self.cx, local).map(Target::Func),
            Global::Type(t) => Some(Target::Cast { dtype: *t, weak: false }),
            Global::Empty => Some(Target::Empty),
            Global::Prange => Some(Target::Builtin(Builtin::Prange)),
            Global::GpuBuiltin(g) => Some(Target::Gpu(*g)),
            Global::Alias(t) => {
                // Follow the chain of aliases (`g = f`, `h = g`) to what it
                // names; one that comes back to a name seen names nothing.
                let mut seen = HashSet::from([name]);
                let mut t = t.as_str();
                loop {
                    let g = self.cx.globals.get(t)?;
                    match g {
                        Global::Alias(next) => {
                            if !seen.insert(t) {
                                return None;
                            }
                            t = next;
                        }
                        _ => return self.global_target(t, g),
                    }
                }
            }
            Global::Boundary { module, name } => match numpy_func(name) {
                Some(op) if module == "numpy" => Some(Target::Numpy(op, name.clone())),
                _ => match math_func(name) {
                    Some(f) if module == "math" => Some(Target::Math(f, name.clone())),
                    _ => Some(numpy_scalar_type(module, name).unwrap_or(Target::Boundary(format!("{module}.{name}")))),
                },
            },
            _ => None,
        }
    }

    /// Whether `func` is `m.sub.f` of a CPython module `m` other than
    /// NumPy (`import scipy` then `scipy.stats.mean(x)`): a function, not
    /// the method of an array that `.mean` would otherwise be read as.
    fn module_method_of(&self, func: hir::ExprId) -> bool {
        let hir::Expr::Attribute { base, .. } = self.hir.exprs[func] else { return false };
        let hir::Expr::Attribute { .. } = self.hir.exprs[base] else { return false };
        let mut root = base;
        while let hir::Expr::Attribute { base, .. } = self.hir.exprs[root] {
            root = base;
        }
        matches!(self.global_of(root), Some(Global::BoundaryModule(m)) if m != "numpy")
    }

    /// A call.
    pub(super) fn call(&mut self, c: &CallExpr) -> Val {
        if let Some(v) = self.list_method(c) {
            return v;
        }
        if let Some(v) = self.where_indices(c) {
            return v;
        }
        let hir = self.hir;
        let func = &hir.exprs[c.func];
        if let hir::Expr::Name(n) = func {
            let name = self.name_text(n);
            let quiet = match self.locals.get(name) {
                Some(l) => l.poisoned,
                None => match self.cx.globals.get(name) {
                    Some(Global::Broken) => true,
                    // A missing name of a POST module is reported once, at the import.
                    Some(Global::PostImport { .. }) => self.target_of(c.func).is_none(),
                    _ => false,
                },
            };
            if quiet {
                for &a in c.args {
                    self.expr(a);
                }
                return Val::Err;
            }
        }
        if let Some(operands) = self.dot_operands(c) {
            return self.dot_call(&operands, c);
        }
        if let Some((f, shown)) = self.np_function_target(c.func) {
            return self.np_function_call(f, shown, c);
        }
        let func_at = self.range(c.func);
        // `scipy.stats.mean(x)` is no array's method.
        if self.module_method_of(c.func) {
            for &a in c.args {
                self.expr(a);
            }
            let shown = hir.dotted(c.func).unwrap_or_default();
            return self.err(&func_at, TargetError::CPython(&shown).message());
        }
        if let Some((f, what, recv)) = self.array_target(c.func) {
            return self.array_call(f, &what, recv, c);
        }
        let Some(target) = self.target_of(c.func) else {
            // The arguments may hold errors of their own.
            for &a in c.args {
                self.expr(a);
            }
            // A method of a value that is not a name (`f(x).m()`) is shown as
            // `.m`.
            let shown = hir.dotted(c.func).unwrap_or_else(|| match func {
                hir::Expr::Attribute { attr, .. } => format!(".{attr}"),
                _ => hir.construct_name(c.func).to_owned(),
            });
            if let hir::Expr::Name(n) = func {
                let name = self.name_text(n);
                if self.locals.contains_key(name)
                    && !self.slots.contains_key(name)
                    && self.refused_bindings.contains(name)
                {
                    // Its binding was refused, and reported.
                    return Val::Err;
                }
                if self.locals.contains_key(name) {
                    return self.err(&func_at, TargetError::Variable(&shown).message());
                }
                if self.cx.globals.get(self.name_text(n)).is_none() {
                    if shown == "type" {
                        return self.err(&func_at, TYPE_OF_NO_PARAMETER);
                    }
                    return self.err(&func_at, TargetError::Undefined(&shown).message());
                }
            }
            if let &hir::Expr::Attribute { base, ref attr } = func {
                let attr_at = hir.attr_ranges[c.func];
                if self.namespace_of(base) == Some(Namespace::PostcMath) {
                    return self.err(&attr_at, TargetError::NoIntrinsic(attr).message());
                }
                if self.namespace_of(base) == Some(Namespace::Math) {
                    return self.err(&attr_at, TargetError::UnsupportedMath(attr).message());
                }
                if let Some(m) = self.post_module_of(base) {
                    return self.err(&attr_at, TargetError::NoModuleFunction(m, attr).message());
                }
                // `np.zeros(...)` without `import numpy as np`: the name is
                // what is missing, as CPython's NameError says.
                let mut root = base;
                while let hir::Expr::Attribute { base, .. } = hir.exprs[root] {
                    root = base;
                }
                if let hir::Expr::Name(n) = &hir.exprs[root] {
                    let name = self.name_text(n);
                    if !self.locals.contains_key(name) && self.cx.globals.get(name).is_none() {
                        return self.err(&self.range(root), format!("undefined name `{name}`"));
                    }
                }
            }
            return self.err(&func_at, TargetError::NotCallable(&shown).message());
        };
        if let Target::Builtin(Builtin::Print) = target {
            return self.print_call(c);
        }
        if let (Some(k), false) = (c.keywords.first(), matches!(target, Target::Func(_) | Target::Generic(_))) {
            return self.err(&k.range, KEYWORD_ARGUMENTS);
        }
        if let Some(&s) = c.args.iter().find(|&&a| matches!(hir.exprs[a], hir::Expr::Starred(_))) {
            return self.err(&self.range(s), STARRED_ARGUMENT);
        }
        let args = c.args;
        match target {
            Target::Boundary(what) => self.err(&func_at, TargetError::CPython(&what).message()),
            Target::Numpy(op, name) => self.numpy_call(op, &name, c),
            Target::Math(f, name) => self.math_call(f, &name, c),
            Target::Builtin(Builtin::Range) => self.err(&c.at, RANGE_ONLY_ITERATED),
            Target::Builtin(Builtin::Prange) => self.err(&c.at, PRANGE_ONLY_ITERATED),
            Target::Builtin(b) => self.call_builtin(b, c),
            Target::Gpu(g) => self.gpu_builtin(g, c),
            Target::Cast { dtype, weak } => self.cast_call(dtype, weak, c),
            Target::Empty => {
                if args.len() != 2 {
                    return self.err(&c.at, EMPTY_FORM);
                }
                let n = self.expr(args[0]);
                let Some(dt) = (match self.target_of(args[1]) {
                    Some(Target::Cast { dtype, .. }) if !dtype.is_text() => Some(dtype),
                    _ => None,
                }) else {
                    return self.err(&self.range(args[1]), EMPTY_DTYPE);
                };
                match n.scalar() {
                    Some(s) if kind(s.dtype) == Kind::Int => {}
                    _ => {
                        if !matches!(n, Val::Err) {
                            self.err(&self.range(args[0]), EMPTY_LENGTH);
                        }
                        return Val::Err;
                    }
                }
                let Some(len) = self.materialize(&n, DType::Int64, &self.range(args[0])) else { return Val::Err };
                // A constant length is a static extent (the array can be
                // passed where `Float64[3]` is expected).
                let extent = match &n {
                    Val::Lit { lit: Lit::Int(i), .. } if *i >= 0 => Some(*i as u64),
                    _ => None,
                };
                let ty = TypeData::array(dt, postc_ir::Shape::dims(&[extent]), postc_ir::Layout::COrder);
                let tid = self.types.intern(ty.clone());
                self.at(&c.at);
                let nm = self.fresh("buf");
                Val::Arr { v: self.b.alloc(tid, &[len], &nm), ty }
            }
            Target::Conjugate(base) => {
                // Refused by the typecheck where it types the receiver and
                // the arguments (and the receiver's errors below).
                if !args.is_empty() {
                    return self.err(&c.at, CONJUGATE_FORM);
                }
                // NumPy's method returns a real array itself (its values are
                // their own conjugates), not a copy; of a complex array the
                // call is a node of a whole-array expression, lowered here
                // element by element.
                if let (Some(typeck::Ty::Arr(t)), false) = (self.expr_types.get(base), self.fusing) {
                    if !t.dtype.is_complex() {
                        return self.expr(base);
                    }
                }
                let v = self.expr(base);
                if matches!(v, Val::Err) {
                    return Val::Err;
                }
                if let Some(message) = typeck::conjugate_error(v.ty().as_ref()) {
                    return self.err(&self.range(base), message);
                }
                let Some(s) = v.scalar() else { return Val::Err };
                if s.dtype.complex_part().is_none() {
                    return v;
                }
                let Some(x) = self.materialize(&v, s.dtype, &self.range(base)) else { return Val::Err };
                self.at(&c.at);
                Val::Num { v: self.complex_conjugate(x, s.dtype), s, nonneg: false }
            }
            Target::Intrinsic(symbol) => {
                let local = self.intrinsic_local(&symbol, c.func);
                let mut vals = Vec::new();
                for &a in args {
                    vals.push((self.expr(a), self.range(a)));
                }
                // Refused by the typecheck where it types the arguments.
                let (tys, reached) = types_before_error(vals.iter().map(|(v, _)| v));
                let tys: Vec<_> = tys.iter().map(Option::as_ref).collect();
                if let Some((site, message)) = typeck::intrinsic_error(&symbol, args.len(), &tys) {
                    let at = site.at(c.at, |i| vals[i].1);
                    return self.err(&at, message);
                }
                if !reached {
                    return Val::Err;
                }
                let mut common: Option<Scalar> = None;
                for s in vals.iter().filter_map(|(v, _)| v.scalar()) {
                    common = Some(match common {
                        None => s,
                        Some(c) => promote(c, s).unwrap_or(s),
                    })
                }
                let Some(common) = common else { return Val::Err };
                let d = if kind(common.dtype) == Kind::Float { common.dtype } else { DType::Float64 };
                let mut ids = Vec::new();
                for (v, a) in &vals {
                    let Some(x) = self.materialize(v, d, a) else { return Val::Err };
                    ids.push(x);
                }
                self.at(&c.at);
                let n = self.fresh(&symbol);
                let ty = TypeId::scalar(d);
                let v = self.b.call(&local, &ids, Some(ty), &n);
                // A NumPy scalar, whatever the arguments: the stand-in
                // returns `np.float64(...)` even of Python numbers, so
                // `x32 * sqrt(3.0)` is Float64.
                Val::Num { v, s: Scalar::strong(d), nonneg: false }
            }
            Target::Func(callee) => self.post_call(&callee, c),
            Target::Generic(g) => match self.instance_of(g, c) {
                Some(callee) => self.post_call(&callee, c),
                None => Val::Err,
            },
        }
    }

    /// The local name an intrinsic is called by: its import, or for
    /// `postc.math.f(...)` an import this call adds.
    pub(super) fn intrinsic_local(&mut self, symbol: &str, func: hir::ExprId) -> String {
        if let hir::Expr::Name(n) = &self.hir.exprs[func] {
            // `gammaln = lgamma` at the top level is a function of Float64
            // for Python callers; compiled code calls the import itself,
            // of whatever float type.
            let mut name = self.name_text(n);
            let mut seen = HashSet::from([name]);
            while let Some(Global::Alias(next)) = self.cx.globals.get(name) {
                if !seen.insert(next) {
                    break;
                }
                name = next;
            }
            return name.to_owned();
        }
        self.math_imports.insert(symbol.to_owned());
        format!("math.{symbol}")
    }

    pub(super) fn call_builtin(&mut self, b: Builtin, c: &CallExpr) -> Val {
        let args = c.args;
        match b {
            Builtin::Len => {
                // Refused by the typecheck where it types the arguments.
                if let Some(message) = typeck::builtin_arity_error("len", args.len()) {
                    return self.err(&c.at, message);
                }
                let v = self.expr(args[0]);
                if !matches!(v, Val::Err | Val::Tuple(_)) {
                    if let Some(message) = typeck::len_error(v.ty().as_ref()) {
                        return self.err(&self.range(args[0]), message);
                    }
                }
                match v {
                    Val::Arr { v: av, .. } => {
                        self.at(&c.at);
                        let n = self.fresh("len");
                        Val::Num { v: self.b.dim(av, 0, &n), s: Scalar::weak(DType::Int64), nonneg: true }
                    }
                    Val::Lit { lit: Lit::Str(s), .. } => {
                        Val::Lit { lit: Lit::Int(s.chars().count() as i128), s: Scalar::weak(DType::Int64) }
                    }
                    Val::Lit { lit: Lit::Bytes(b), .. } => {
                        Val::Lit { lit: Lit::Int(b.len() as i128), s: Scalar::weak(DType::Int64) }
                    }
                    Val::Tuple(elts) => Val::Lit { lit: Lit::Int(elts.len() as i128), s: Scalar::weak(DType::Int64) },
                    Val::Num { v: x, s, .. } if s.dtype.is_text() => {
                        self.at(&c.at);
                        let n = self.fresh("len");
                        Val::Num {
                            v: self.b.getfield(TypeId::INT64, x, Field::Len, &n),
                            s: Scalar::weak(DType::Int64),
                            nonneg: true,
                        }
                    }
                    // Refused above.
                    _ => Val::Err,
                }
            }
            Builtin::Abs => {
                // Refused by the typecheck where it types the arguments.
                if let Some(message) = typeck::builtin_arity_error("abs", args.len()) {
                    return self.err(&c.at, message);
                }
                let v = self.expr(args[0]);
                if matches!(v, Val::Err) {
                    return Val::Err;
                }
                if let Some(message) = typeck::abs_error(v.ty().as_ref()) {
                    return self.err(&self.range(args[0]), message);
                }
                match (&v, v.scalar()) {
                    (Val::Lit { lit: Lit::Int(i), s }, _) => Val::Lit { lit: Lit::Int(i.abs()), s: *s },
                    // NumPy's absolute value of a Bool is itself.
                    (_, Some(s)) if s.dtype == DType::Bool => v,
                    (Val::Lit { lit: Lit::Float(x), s }, _) => Val::Lit { lit: Lit::Float(x.abs()), s: *s },
                    (_, Some(s)) if matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) => {
                        let Some(x) = self.materialize(&v, s.dtype, &self.range(args[0])) else { return Val::Err };
                        let rd = s.dtype.complex_part().unwrap_or(s.dtype);
                        self.at(&c.at);
                        let n = self.fresh("abs");
                        let ty = TypeId::scalar(rd);
                        Val::Num {
                            v: self.b.unary(Opcode::Abs, ty, x, &n),
                            s: Scalar { dtype: rd, weak: s.weak },
                            nonneg: kind(rd) == Kind::Float,
                        }
                    }
                    // Refused above.
                    _ => Val::Err,
                }
            }
            Builtin::Min | Builtin::Max => {
                let word = if b == Builtin::Min { "min" } else { "max" };
                // Refused by the typecheck where it types the arguments.
                if let Some(message) = typeck::builtin_arity_error(word, args.len()) {
                    return self.err(&c.at, message);
                }
                let vals: Vec<(Val, TextRange)> = match args {
                    // `min(t)`: the least of a tuple's elements.
                    &[one] => match self.expr(one) {
                        Val::Err => return Val::Err,
                        Val::Tuple(elts) if !elts.is_empty() => {
                            elts.into_iter().map(|v| (v, self.range(one))).collect()
                        }
                        v => {
                            let Some((site, message)) = typeck::min_max_of_one_error(word, v.ty().as_ref()) else {
                                return Val::Err;
                            };
                            let at = if site == typeck::CallSite::Call { c.at } else { self.range(one) };
                            return self.err(&at, message);
                        }
                    },
                    _ => args.iter().map(|&a| (self.expr(a), self.range(a))).collect(),
                };
                if vals.iter().any(|(v, _)| matches!(v, Val::Tuple(_))) {
                    return self.min_max_of_tuples(b == Builtin::Min, vals, c);
                }
                let (tys, reached) = types_before_error(vals.iter().map(|(v, _)| v));
                let tys: Vec<_> = tys.iter().map(Option::as_ref).collect();
                if let Some((i, message)) = typeck::min_max_error(word, &tys) {
                    return self.err(&vals[i].1, message);
                }
                let p = vals.iter().filter_map(|(v, _)| v.scalar()).try_fold(None, |p: Option<Scalar>, s| match p {
                    None => Some(Some(s)),
                    Some(q) => promote(q, s).map(Some),
                });
                let (true, Some(Some(p))) = (reached, p) else { return Val::Err };
                // Python keeps the first of equal values: `b < a` replaces.
                let mut acc = match self.materialize(&vals[0].0, p.dtype, &vals[0].1) {
                    Some(x) => x,
                    None => return Val::Err,
                };
                let mut nonneg = vals[0].0.nonneg();
                for (v, a) in &vals[1..] {
                    let Some(x) = self.materialize(v, p.dtype, a) else { return Val::Err };
                    self.at(&c.at);
                    let op = if b == Builtin::Min { Opcode::Lt } else { Opcode::Gt };
                    let better = self.result(op, DType::Bool, x, acc);
                    let n = self.fresh(word);
                    let ty = TypeId::scalar(p.dtype);
                    acc = self.b.select(ty, better, x, acc, &n);
                    nonneg = if b == Builtin::Min { nonneg && v.nonneg() } else { nonneg || v.nonneg() };
                }
                Val::Num { v: acc, s: p, nonneg }
            }
            Builtin::Sum => self.sum(c),
            Builtin::Divmod => self.divmod(c),
            Builtin::Round => self.round(c),
            Builtin::Range | Builtin::Prange | Builtin::Print => unreachable!("handled by the caller"),
        }
    }

    /// `shared(Float32[16, 16])`, `sync_threads()`, `atomic_add(a, i, ..., v)`.
    pub(super) fn gpu_builtin(&mut self, g: GpuBuiltin, c: &CallExpr) -> Val {
        let args = c.args;
        let name = g.python_name();
        if !self.decl.attrs.contains(postc_ir::FuncAttrs::KERNEL) {
            return self.err(&self.range(c.func), kernel_only_error(name));
        }
        match g {
            GpuBuiltin::SyncThreads => {
                if !args.is_empty() {
                    return self.err(&c.at, SYNC_THREADS_FORM);
                }
                self.at(&c.at);
                self.b.call(g.ir_name(), &[], None, "");
                Val::Void
            }
            GpuBuiltin::Shared => {
                let &[ann] = args else {
                    return self.err(&c.at, SHARED_FORM);
                };
                let Some(ty) = self.static_array_type(ann) else { return Val::Err };
                if let Some(message) = shared_error(&ty) {
                    return self.err(&self.range(ann), message);
                }
                let tid = self.types.intern(ty.clone());
                self.at(&c.at);
                let n = self.fresh("shared");
                Val::Arr { v: self.b.call(g.ir_name(), &[], Some(tid), &n), ty }
            }
            GpuBuiltin::AtomicAdd => {
                let Some((&first, rest)) = args.split_first() else {
                    return self.err(&c.at, ATOMIC_ADD_FORM);
                };
                let arr = self.expr(first);
                let first_at = self.range(first);
                let (av, ty) = match arr {
                    Val::Arr { v, ty } => (v, ty),
                    Val::Err => return Val::Err,
                    _ => return self.err(&first_at, ATOMIC_ADD_ARRAY),
                };
                if !postc_ir::builtins::atomic_dtype(ty.dtype) {
                    return self.err(&first_at, atomic_dtype_error(ty.dtype));
                }
                let nd = ty.ndim().unwrap_or(0);
                if rest.len() != nd + 1 {
                    return self.err(&c.at, atomic_count_error(nd));
                }
                let mut ids = vec![av];
                for &ie in &rest[..nd] {
                    let v = self.expr(ie);
                    let ie = self.range(ie);
                    match v.scalar() {
                        Some(s) if kind(s.dtype) == Kind::Int => {}
                        _ => {
                            if !matches!(v, Val::Err) {
                                self.err(&ie, INDEX_INTEGER);
                            }
                            return Val::Err;
                        }
                    }
                    let Some(x) = self.materialize(&v, DType::Int64, &ie) else { return Val::Err };
                    ids.push(x);
                }
                let v = self.expr(rest[nd]);
                let value_at = &self.range(rest[nd]);
                match v.scalar() {
                    Some(s) if widens_to(s, ty.dtype) => {}
                    Some(s) => return self.err(value_at, atomic_value_error(s.dtype, ty.dtype)),
                    None => {
                        return if matches!(v, Val::Err) { Val::Err } else { self.err(value_at, ATOMIC_ADD_NUMBER) }
                    }
                }
                let Some(x) = self.materialize(&v, ty.dtype, value_at) else { return Val::Err };
                ids.push(x);
                self.at(&c.at);
                let n = self.fresh("old");
                let rt = TypeId::scalar(ty.dtype);
                Val::Num { v: self.b.call(g.ir_name(), &ids, Some(rt), &n), s: Scalar::strong(ty.dtype), nonneg: false }
            }
        }
    }

    /// `Float32[16, 16]`: an array type with static extents, C order.
    pub(super) fn static_array_type(&mut self, e: hir::ExprId) -> Option<TypeData> {
        let bad = SHARED_FORM;
        let hir::Expr::Subscript { base, index } = self.hir.exprs[e] else {
            self.err(&self.range(e), bad);
            return None;
        };
        let dtype = match self.target_of(base) {
            Some(Target::Cast { dtype, .. }) => dtype,
            _ => {
                self.err(&self.range(base), bad);
                return None;
            }
        };
        let items: &[hir::ExprId] = match &self.hir.exprs[index] {
            hir::Expr::Tuple(t) => t,
            _ => std::slice::from_ref(&index),
        };
        let mut dims = Vec::new();
        for &it in items {
            match self.hir.exprs[it] {
                hir::Expr::Literal(Lit::Int(n)) if n > 0 => dims.push(Some(n as u64)),
                _ => {
                    self.err(&self.range(it), SHARED_EXTENT);
                    return None;
                }
            }
        }
        Some(TypeData::array(dtype, postc_ir::Shape::dims(&dims), postc_ir::Layout::COrder))
    }

    pub(super) fn cast_call(&mut self, dtype: DType, weak: bool, c: &CallExpr) -> Val {
        let args = c.args;
        let name = self.hir.dotted(c.func).unwrap_or_default();
        // Refused by the typecheck where it types the arguments.
        let refused = |vals: &[&Val]| {
            let (tys, reached) = types_before_error(vals.iter().copied());
            let tys: Vec<_> = tys.iter().map(Option::as_ref).collect();
            let site = typeck::cast_error(&name, dtype, weak, args.len(), &tys);
            (site, reached)
        };
        if dtype == DType::Complex128 && weak && args.len() == 2 {
            // complex(re, im)
            let re = self.expr(args[0]);
            let im = self.expr(args[1]);
            let (re_at, im_at) = (self.range(args[0]), self.range(args[1]));
            match refused(&[&re, &im]) {
                (Some((typeck::CallSite::Arg(i), message)), _) => return self.err(&self.range(args[i]), message),
                (Some((typeck::CallSite::Call, message)), _) => return self.err(&c.at, message),
                (None, false) => return Val::Err,
                (None, true) => {}
            }
            let (Some(r), Some(i)) =
                (self.materialize(&re, DType::Float64, &re_at), self.materialize(&im, DType::Float64, &im_at))
            else {
                return Val::Err;
            };
            self.at(&c.at);
            let n = self.fresh("cplx");
            let rc = self.b.cast(TypeId::scalar(DType::Complex128), r, &n);
            let n = self.fresh("cplx");
            let t = self.b.let_(TypeId::scalar(DType::Complex128), rc, &n);
            self.b.setfield(t, Field::Imag, i);
            let n = self.fresh("cplx");
            let out = self.b.let_(TypeId::scalar(DType::Complex128), t, &n);
            return Val::Num { v: out, s: Scalar::weak(DType::Complex128), nonneg: false };
        }
        if args.len() != 1 {
            let (Some((_, message)), _) = refused(&[]) else { return Val::Err };
            return self.err(&c.at, message);
        }
        let v = self.expr(args[0]);
        let arg_at = self.range(args[0]);
        let result = Scalar { dtype, weak };
        match refused(&[&v]) {
            (Some((typeck::CallSite::Arg(_), message)), _) => return self.err(&arg_at, message),
            (Some((typeck::CallSite::Call, message)), _) => return self.err(&c.at, message),
            (None, false) => return Val::Err,
            (None, true) => {}
        }
        match (&v, v.scalar()) {
            // A literal converts at compile time; CPython would raise for a
            // value out of range (refused above).
            (Val::Lit { lit, .. }, _) => match lit.cast(dtype) {
                Ok(lit) => Val::Lit { lit, s: result },
                Err(_) => Val::Err,
            },
            (_, Some(s)) if s.dtype.is_text() || dtype.is_text() => v,
            (_, Some(s)) => {
                // NumPy drops the imaginary part of a complex number;
                // Python's int()/float() refuse it (above).
                if weak && dtype == DType::Int64 && kind(s.dtype) == Kind::Float {
                    // `int(x)` of a float is CPython's Python int: NaN, the
                    // infinities and values beyond Int64 raise, where a
                    // dtype's cast (`Int64(x)`) saturates.
                    let Some(x) = self.materialize(&v, DType::Float64, &arg_at) else { return Val::Err };
                    let v = self.python_int_of_float(x, &c.at);
                    return Val::Num { v, s: result, nonneg: false };
                }
                let Some(x) = self.materialize(&v, s.dtype, &arg_at) else { return Val::Err };
                if s.dtype == dtype {
                    return Val::Num { v: x, s: result, nonneg: v.nonneg() };
                }
                self.at(&c.at);
                let n = self.fresh("cast");
                let ty = TypeId::scalar(dtype);
                let nonneg = v.nonneg()
                    && kind(dtype) == Kind::Int
                    && dtype.bits() >= s.dtype.bits()
                    && kind(s.dtype) == Kind::Int;
                Val::Num { v: self.b.cast(ty, x, &n), s: result, nonneg }
            }
            // Refused above.
            _ => Val::Err,
        }
    }

    /// `round(x)`: CPython's Python int, the nearest to `x` with halves
    /// rounded to even (`round(2.5)` is 2), of a Python or NumPy float,
    /// int or a Python bool; a float's NaN, infinities and values beyond
    /// Int64 panic as `int(x)` does. `round(x, n)`: see
    /// [`FnLower::round_digits`].
    fn round(&mut self, c: &CallExpr) -> Val {
        let args = c.args;
        if args.len() == 2 {
            return self.round_digits(c);
        }
        // Refused by the typecheck where it types the arguments.
        let &[arg] = args else {
            for &a in args {
                self.expr(a);
            }
            let message = typeck::builtin_arity_error("round", args.len()).unwrap_or_default();
            return self.err(&c.at, message);
        };
        let v = self.expr(arg);
        let arg = &self.range(arg);
        if matches!(v, Val::Err) {
            return Val::Err;
        }
        // A NumPy bool has no `__round__` (CPython's TypeError); a Python
        // bool is an int.
        if let Some(message) = typeck::round_error(v.ty().as_ref()) {
            return self.err(arg, message);
        }
        let Some(s) = v.scalar() else { return Val::Err };
        match kind(s.dtype) {
            Kind::Bool | Kind::Int if s.dtype != DType::UInt64 => {
                let Some(x) = self.materialize(&v, DType::Int64, arg) else { return Val::Err };
                Val::Num { v: x, s: Scalar::weak(DType::Int64), nonneg: v.nonneg() }
            }
            Kind::Int => {
                // A UInt64 from 2**63 up would be a Python int beyond Int64.
                let Some(x) = self.materialize(&v, DType::UInt64, arg) else { return Val::Err };
                self.at(&c.at);
                let n = self.fresh("c");
                let limit = self.b.const_(TypeId::scalar(DType::UInt64), Literal::Int(1i128 << 63), &n);
                let fits = self.result(Opcode::Lt, DType::Bool, x, limit);
                self.panic_unless(fits, BEYOND_INT64, &c.at);
                let n = self.fresh("int");
                Val::Num { v: self.b.cast(TypeId::INT64, x, &n), s: Scalar::weak(DType::Int64), nonneg: true }
            }
            Kind::Float => {
                let Some(x) = self.materialize(&v, DType::Float64, arg) else { return Val::Err };
                self.at(&c.at);
                // `rint` rounds halves to even, as CPython's `round`.
                self.math_imports.insert("rint".to_owned());
                let n = self.fresh("rint");
                let r = self.b.call("math.rint", &[x], Some(TypeId::scalar(DType::Float64)), &n);
                let v = self.python_int_of_float(r, &c.at);
                Val::Num { v, s: Scalar::weak(DType::Int64), nonneg: false }
            }
            // Refused above.
            _ => Val::Err,
        }
    }
}

impl FnLower<'_, '_> {
    /// `round(x, n)`, `n` an integer constant, as CPython's `__round__` of
    /// `x`'s type gives it: of a Python float, the float of `n` decimal
    /// places nearest to `x` (`pymath.rs`); of a Python int or bool, the
    /// int itself for `n >= 0`; of a NumPy number, NumPy's `round` (its
    /// scalar `__round__`: the same dtype, scaled, `rint`, scaled back).
    fn round_digits(&mut self, c: &CallExpr) -> Val {
        let (arg, digits) = (c.args[0], c.args[1]);
        let v = self.expr(arg);
        let at = self.range(arg);
        let nd = self.expr(digits);
        // Refused by the typecheck where it types both arguments.
        if matches!(nd, Val::Err) || matches!((&v, &nd), (Val::Err, Val::Lit { lit: Lit::Int(_), .. })) {
            return Val::Err;
        }
        if let Some((i, message)) = typeck::round_digits_error(v.ty().as_ref(), nd.ty().as_ref()) {
            return self.err(&self.range(c.args[i]), message);
        }
        let (Some(s), Val::Lit { lit: Lit::Int(n), .. }) = (v.scalar(), nd) else { return Val::Err };
        if !s.weak {
            return match kind(s.dtype) {
                Kind::Int | Kind::Float => self.numpy_round_value(v, &at, n, "round", c),
                // Refused above.
                _ => Val::Err,
            };
        }
        match kind(s.dtype) {
            Kind::Bool | Kind::Int if n >= 0 => {
                let Some(x) = self.materialize(&v, DType::Int64, &at) else { return Val::Err };
                Val::Num { v: x, s: Scalar::weak(DType::Int64), nonneg: v.nonneg() }
            }
            Kind::Float if n.unsigned_abs() <= pymath::ROUND_DIGITS_MAX as u128 => {
                let Some(x) = self.materialize(&v, DType::Float64, &at) else { return Val::Err };
                self.at(&c.at);
                let r = self.python_round_digits(x, n as i32);
                Val::Num { v: r, s: Scalar::weak(DType::Float64), nonneg: false }
            }
            // Refused above.
            _ => Val::Err,
        }
    }
}

/// Where the value of one parameter of a POST call comes from.
enum Bound {
    /// The argument written at this index of the call: positional
    /// arguments, then keyword values.
    Given(usize),
    Default(Lit, Scalar),
    /// A default of `None`.
    DefaultNone,
    /// The default of an array parameter: a new array made at the call.
    DefaultArray(postc_ir::ArrayDefault),
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// A call of a POST function: arguments matched to parameters as
    /// CPython matches them (by position, then by keyword, then the
    /// defaults), evaluated left to right as written, each converted to its
    /// parameter's type.
    fn post_call(&mut self, callee: &Callee, c: &CallExpr) -> Val {
        // Refused by the typecheck where it binds the call.
        if let Some(message) = callee_error(callee) {
            return self.err(&c.at, message);
        }
        let Some(bound) = self.bind_arguments(callee, c) else { return Val::Err };
        let written: Vec<hir::ExprId> = c.args.iter().copied().chain(c.keywords.iter().map(|k| k.value)).collect();
        // The arguments of parameters that may be `None` may be `None`.
        let mut takes_none = vec![false; written.len()];
        for (b, m) in bound.iter().zip(&callee.maybe_none) {
            if let (Bound::Given(w), true) = (b, m) {
                takes_none[*w] = true;
            }
        }
        let mut values: Vec<Option<Val>> = (written.iter().zip(&takes_none))
            .map(|(&a, none)| Some(if *none { self.expr_maybe_none(a) } else { self.expr(a) }))
            .collect();
        let mut ids = Vec::new();
        let mut bad = false;
        for (i, (b, p)) in bound.into_iter().zip(&callee.params).enumerate() {
            let (v, given, at) = match b {
                Bound::Given(w) => (values[w].take().unwrap_or(Val::Err), Some(written[w]), self.range(written[w])),
                Bound::Default(lit, s) => (Val::Lit { lit, s }, None, c.at),
                Bound::DefaultNone => (Val::None, None, c.at),
                Bound::DefaultArray(array) => (self.default_array(&array, c.at), None, c.at),
            };
            if callee.maybe_none.get(i).copied().unwrap_or(false) && (p.is_array || p.is_tuple()) {
                match self.optional_argument(callee, i, p, v, given, at) {
                    Some(xs) => ids.extend(xs),
                    None => bad = true,
                }
                continue;
            }
            if callee.maybe_none.get(i).copied().unwrap_or(false) {
                let what = nth_argument(&callee.name, i);
                match self.flag_and_value(v, p.dtype, &at, &what) {
                    Some(pair) => ids.extend(pair),
                    None => bad = true,
                }
                continue;
            }
            if p.is_tuple() {
                match self.tuple_argument(callee, i, p, v, at) {
                    Some(xs) => ids.extend(xs),
                    None => bad = true,
                }
                continue;
            }
            match self.post_argument(callee, i, p, v, given, at) {
                Some(x) => ids.push(x),
                None => bad = true,
            }
        }
        if bad {
            return Val::Err;
        }
        self.at(&c.at);
        let ret_ty = match &callee.ret {
            Some(t) if callee.ret_maybe_none => {
                Some(self.types.intern(TypeData::tuple(vec![TypeData::scalar(DType::Bool), t.clone()])))
            }
            t => t.as_ref().map(|t| self.types.intern(t.clone())),
        };
        let n = self.fresh("r");
        let v = self.b.call(&callee.name, &ids, ret_ty, &n);
        match &callee.ret {
            None => Val::Void,
            Some(t) if callee.ret_maybe_none => self.call_maybe_none(v, t),
            Some(t) if t.is_tuple() => self.call_tuple_elements(v, t, &callee.result_groups),
            Some(t) if t.is_array => Val::Arr { v, ty: t.clone() },
            Some(t) => Val::Num { v, s: Scalar { dtype: t.dtype, weak: callee.ret_weak }, nonneg: false },
        }
    }

    /// The instance of the generic function `g` that the call `c` names
    /// (see `generics`): its callee once an earlier round made it; else
    /// `None`, after asking for it, which lowers the call to nothing until
    /// the next round (or after reporting why the arguments name none).
    fn instance_of(&mut self, g: usize, c: &CallExpr) -> Option<Callee> {
        self.cx.generics.instances.borrow_mut().called(g);
        let generic = &self.cx.generics.decls[g];
        let bound = self.bind_arguments(&Callee::of_decl(generic, self.types), c)?;
        let written: Vec<hir::ExprId> = c.args.iter().copied().chain(c.keywords.iter().map(|k| k.value)).collect();
        let given: Vec<Option<Option<typeck::Ty>>> = (bound.iter())
            .map(|b| match b {
                Bound::Given(w) => Some(self.expr_types.get(written[*w]).cloned()),
                _ => None,
            })
            .collect();
        // An array the caller may write is a writable parameter.
        let writable: Vec<bool> = (bound.iter())
            .map(|b| match b {
                Bound::Given(w) => !self.is_param_array(written[*w]) && !self.reads_constant(written[*w]),
                _ => false,
            })
            .collect();
        let shown = &generic.name;
        let argument_at = |i: usize| match bound[i] {
            Bound::Given(w) => self.range(written[w]),
            _ => c.at,
        };
        let sig = match crate::generics::instance_params(generic, &given, &writable, self.types) {
            Ok(sig) => sig,
            Err(crate::generics::ParamError::Unknown(i) | crate::generics::ParamError::Unsupported(i)) => {
                let (nth, at) = (i + 1, argument_at(i));
                let arg = match bound[i] {
                    Bound::Given(w) => Some(written[w]),
                    _ => None,
                };
                let ty = given[i].as_ref().and_then(Option::as_ref);
                // Refused by the typecheck where it binds the call.
                let message = generic_argument_error(generic, i, arg.map(|a| &self.hir.exprs[a]), ty)
                    .unwrap_or_else(|| format!("the type of argument {nth} of `{shown}` is not known here"));
                self.err(&at, message);
                return None;
            }
        };
        let instances = &self.cx.generics.instances;
        let found = instances.borrow().find(g, &sig, true);
        if let Some(i) = found {
            let callee = Callee::of_decl(&self.cx.funcs[i], self.types);
            // An instance whose `return`s are not typed has errors of its
            // own, reported in its body: the call is quiet.
            if callee.ret.is_none() && self.cx.generics.returns_value[g] {
                return None;
            }
            return Some(callee);
        }
        if instances.borrow().count(g) >= crate::generics::MAX_INSTANCES {
            let n = crate::generics::MAX_INSTANCES;
            self.err(
                &c.at,
                format!(
                    "`{shown}` is compiled for more than {n} lists of argument types here: annotate its parameters"
                ),
            );
            return None;
        }
        instances.borrow_mut().request(g, sig);
        None
    }

    /// Each parameter's argument, or `None` after reporting, in CPython's
    /// words, an argument too many, unknown, given twice or missing.
    fn bind_arguments(&mut self, callee: &Callee, c: &CallExpr) -> Option<Vec<Bound>> {
        let names: Vec<Option<&str>> = c.keywords.iter().map(|k| k.name.as_deref()).collect();
        let given = match bind(callee, c.args.len(), &names) {
            Ok(given) => given,
            Err(e) => {
                let at = match e.keyword() {
                    Some(k) => c.keywords[k].range,
                    None => c.at,
                };
                self.err(&at, e.message(callee));
                return None;
            }
        };
        let first_default = callee.params.len() - callee.defaults.len();
        let defaults = (0..first_default).map(|_| None).chain(callee.defaults.iter().enumerate().map(Some));
        let bound = given.into_iter().zip(defaults).map(|(given, default)| match (given, default) {
            (Some(w), _) => Some(Bound::Given(w)),
            (None, Some((_, Some((lit, s))))) => Some(Bound::Default(lit.clone(), *s)),
            (None, Some((at, None))) => Some(match callee.array_defaults.iter().find(|(a, _)| *a == at) {
                Some((_, array)) => Bound::DefaultArray(array.clone()),
                None => Bound::DefaultNone,
            }),
            (None, None) => None,
        });
        bound.collect()
    }

    /// The conjugate of the complex `x` of `d`: its imaginary part negated.
    pub(super) fn complex_conjugate(&mut self, x: ValueId, d: DType) -> ValueId {
        let part = d.complex_part().expect("a complex dtype");
        let ty = TypeId::scalar(d);
        let pty = TypeId::scalar(part);
        let n = self.fresh("conj");
        let t = self.b.let_(ty, x, &n);
        let n = self.fresh("im");
        let im = self.b.getfield(pty, x, Field::Imag, &n);
        let n = self.fresh("neg");
        let nim = self.b.unary(Opcode::Neg, pty, im, &n);
        self.b.setfield(t, Field::Imag, nim);
        let n = self.fresh("conj");
        self.b.let_(ty, t, &n)
    }

    /// A new array of an array parameter's default, for a call that
    /// leaves the parameter out: its shape, every element its fill value.
    /// A new empty array of `t`'s dtype and rank (every extent 0): what
    /// stands for an array that is `None` beside a false presence flag.
    pub(super) fn empty_array_of(&mut self, t: &TypeData, at: TextRange) -> Val {
        let rank = t.shape.ndim().unwrap_or(1);
        let empty = postc_ir::ArrayDefault { dtype: t.dtype, shape: vec![0; rank], fill: postc_ir::ConstValue::Int(0) };
        self.default_array(&empty, at)
    }

    pub(super) fn default_array(&mut self, array: &postc_ir::ArrayDefault, at: TextRange) -> Val {
        self.at(&at);
        let dims: Vec<(ValueId, bool)> = array.shape.iter().map(|&n| (self.int_const(n as i64, &at), true)).collect();
        let arr = self.new_array(array.dtype, &dims, &at);
        let fill = match &array.fill {
            postc_ir::ConstValue::Bool(b) => Some(Lit::Bool(*b)),
            postc_ir::ConstValue::Int(0) => None,
            postc_ir::ConstValue::Int(i) => Some(Lit::Int(*i)),
            postc_ir::ConstValue::Float(bits) => Some(Lit::Float(f64::from_bits(*bits))),
            _ => None,
        };
        if let Some(lit) = fill {
            let s = Scalar::weak(crate::pytypes::default_of(kind(array.dtype)));
            self.fill(&arr, Val::Lit { lit, s }, &at);
        }
        Val::Arr { v: arr.0, ty: arr.1 }
    }

    /// Argument `i` of a POST call to `p`, an array or tuple parameter that
    /// may be `None`: its flag, then its value's IR arguments, an empty
    /// array of its dtype and rank or zeros for `None` (what a Python
    /// caller's `None` passes too). `None` after reporting why it does not
    /// fit.
    fn optional_argument(
        &mut self,
        callee: &Callee,
        i: usize,
        p: &TypeData,
        v: Val,
        given: Option<hir::ExprId>,
        at: TextRange,
    ) -> Option<Vec<ValueId>> {
        let (present, value) = match v {
            Val::Maybe { present, value } => (present, *value),
            Val::Err => return None,
            Val::None => {
                let mut ids = vec![self.bool_const(false, &at)];
                if p.is_array {
                    let arr = self.empty_array_of(p, at);
                    ids.push(self.post_argument(callee, i, p, arr, None, at)?);
                } else {
                    ids.extend(p.elements.iter().map(|e| self.zero(e.dtype)));
                }
                return Some(ids);
            }
            value => (self.bool_const(true, &at), value),
        };
        let mut ids = vec![present];
        if p.is_array {
            ids.push(self.post_argument(callee, i, p, value, given, at)?);
        } else {
            ids.extend(self.tuple_argument(callee, i, p, value, at)?);
        }
        Some(ids)
    }

    /// Argument `i` of a POST call to the tuple parameter `p`: a tuple of
    /// as many numbers, each converted to its element; `None` after
    /// reporting why it does not fit.
    fn tuple_argument(
        &mut self,
        callee: &Callee,
        i: usize,
        p: &TypeData,
        v: Val,
        at: TextRange,
    ) -> Option<Vec<ValueId>> {
        let Val::Tuple(elts) = self.fitting_argument(callee, i, p, v, at)? else { return None };
        let mut ids = Vec::with_capacity(elts.len());
        for (e, t) in elts.into_iter().zip(&p.elements) {
            ids.push(self.post_argument(callee, i, &TypeData::scalar(t.dtype), e, None, at)?);
        }
        Some(ids)
    }

    /// Argument `i` of a POST call converted to its parameter `p`, or
    /// `None` after reporting why it does not fit. `given` is the
    /// argument's expression, absent for a default.
    fn post_argument(
        &mut self,
        callee: &Callee,
        i: usize,
        p: &TypeData,
        v: Val,
        given: Option<hir::ExprId>,
        at: TextRange,
    ) -> Option<ValueId> {
        let name = &callee.name;
        let v = self.fitting_argument(callee, i, p, v, at)?;
        if let Val::Arr { v: av, ty } = &v {
            let written = given.filter(|_| p.is_output && !ty.is_output).and_then(|a| {
                let message = self.read_only.written_argument_error(self.hir, name, i, a)?;
                Some((a, message))
            });
            if let Some((a, message)) = written {
                // Reported by the typecheck where it types the argument
                // (see `typeck::read_only`).
                if self.expr_types.contains_idx(a) {
                    self.unrefused(&at);
                    return None;
                }
                self.err(&at, message);
                return None;
            }
            return Some(*av);
        }
        self.materialize(&v, p.dtype, &at)
    }

    /// The value `v` of argument `i` of a POST call, if it fits its
    /// parameter `p` ([`argument_error`]); `None` after reporting why not
    /// (refused by the typecheck where it types the argument).
    fn fitting_argument(&mut self, callee: &Callee, i: usize, p: &TypeData, v: Val, at: TextRange) -> Option<Val> {
        if matches!(v, Val::Err) {
            return None;
        }
        // A number that may be `None` is read as its number.
        let ty = v.ty().or_else(|| v.scalar().map(|s| typeck::Ty::Num { s, nonneg: false }));
        if let Some(message) = argument_error(&callee.name, i, p, ty.as_ref()) {
            self.err(&at, message);
            return None;
        }
        Some(v)
    }
}

/// The callee a name imported from another POST module names (`from
/// m import f`): the function's signature as that module declares it
/// (a parameter that may be `None` is one parameter here, as in the
/// source).
pub(crate) fn imported_callee(cx: &ModuleCx<'_>, local: &str) -> Option<Callee> {
    let imp = cx.post_imports.get(local)?;
    let (module, source) = (&imp.module_name, &imp.source_name);
    let m = cx.program.modules.iter().find(|m| &m.name == module)?;
    let mut fname = source.clone();
    for _ in 0..8 {
        match m.function_aliases.get(&fname) {
            Some(t) => fname = t.clone(),
            None => break,
        }
    }
    let f = m.functions.iter().find(|f| f.name == fname)?;
    // A parameter that may be `None` is its flag and its value
    // in the IR, and one parameter here.
    let ir_params: Vec<_> = f.params().collect();
    let (mut params, mut param_names, mut maybe_none) = (Vec::new(), Vec::new(), Vec::new());
    let mut k = 0;
    while k < ir_params.len() {
        // A tuple: its elements, named `p.0`, `p.1`, ...
        if let Some(len) = f.tuple_param_at(k, ir_params.len()) {
            let elements =
                ir_params[k..k + len].iter().map(|&p| m.types.get(f.body.ty(p).expect("typed param")).clone());
            params.push(TypeData::tuple(elements.collect()));
            let name = f.body.name_or_empty(ir_params[k]);
            param_names.push(name.rsplit_once('.').map_or(name, |(n, _)| n).to_owned());
            maybe_none.push(false);
            k += len;
            continue;
        }
        let flag = f.maybe_none.params.contains(&k) && k + 1 < ir_params.len();
        let p = ir_params[k + usize::from(flag)];
        params.push(m.types.get(f.body.ty(p).expect("typed param")).clone());
        param_names.push(f.body.name_or_empty(p).to_owned());
        maybe_none.push(flag);
        k += 1 + usize::from(flag);
    }
    // Defaults are known of POST Python modules, not of `.pir` ones.
    let defaults = cx.imported_defaults.get(module).and_then(|fs| fs.get(&fname)).cloned().unwrap_or_default();
    let ret_type = f.ret.map(|t| m.types.get(t).clone());
    let ret_maybe_none = f.maybe_none.result && ret_type.as_ref().is_some_and(|t| t.elements.len() == 2);
    let ret = match ret_type {
        Some(t) if ret_maybe_none => Some(t.elements[1].clone()),
        t => t,
    };
    let keyword_only = f.keyword_only;
    Some(Callee {
        name: local.to_owned(),
        params,
        param_names,
        maybe_none,
        defaults,
        array_defaults: f.array_defaults.clone(),
        keyword_only,
        positional_only: f.positional_only,
        ret,
        ret_maybe_none,
        ret_weak: false,
        result_groups: f.result_groups.clone(),
        result_optional: f.maybe_none.result_elements.clone(),
        dtype_params: f.dtype_params.iter().map(|p| p.name.clone()).collect(),
        result_lists: f.list_results.clone(),
        // A compiled module's function without a result returns nothing.
        no_result: f.ret.is_none().then_some(crate::declare::NoResult::Nothing),
    })
}

/// Why the arguments of a call do not bind to a POST function's
/// parameters.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BindError {
    /// More positional arguments than the parameters before a `*`.
    TooMany {
        given: usize,
    },
    /// A `**` argument (the keyword at this index).
    Unpacked(usize),
    Unexpected(usize, String),
    PositionalOnly(usize, String),
    Twice(usize, String),
    /// Parameters without a default left out: the positional ones first,
    /// as CPython names them, else the keyword-only ones.
    Missing {
        keyword_only: bool,
        names: Vec<String>,
    },
}

impl BindError {
    /// The keyword argument the error is at, if one is.
    pub(crate) fn keyword(&self) -> Option<usize> {
        match self {
            BindError::Unpacked(k)
            | BindError::Unexpected(k, _)
            | BindError::PositionalOnly(k, _)
            | BindError::Twice(k, _) => Some(*k),
            BindError::TooMany { .. } | BindError::Missing { .. } => None,
        }
    }

    /// The message, in CPython's words where CPython has them.
    pub(crate) fn message(&self, callee: &Callee) -> String {
        let name = &callee.name;
        match self {
            BindError::TooMany { given } => {
                let by_position = callee.params.len() - callee.keyword_only;
                let s = if by_position == 1 { "" } else { "s" };
                let were = if *given == 1 { "was" } else { "were" };
                let what = if callee.keyword_only > 0 { " positional" } else { "" };
                format!("`{name}` takes {by_position}{what} argument{s}, but {given} {were} given")
            }
            BindError::Unpacked(_) => "`**` arguments are not supported".to_owned(),
            BindError::Unexpected(_, key) => format!("{name}() got an unexpected keyword argument '{key}'"),
            BindError::PositionalOnly(_, key) => {
                format!("{name}() got some positional-only arguments passed as keyword arguments: '{key}'")
            }
            BindError::Twice(_, key) => format!("{name}() got multiple values for argument '{key}'"),
            BindError::Missing { keyword_only, names } => {
                let what = if *keyword_only { "keyword-only" } else { "positional" };
                let s = if names.len() == 1 { "" } else { "s" };
                let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
                format!(
                    "{name}() missing {} required {what} argument{s}: {}",
                    names.len(),
                    postc_ir::diag::english_list(&quoted)
                )
            }
        }
    }
}

/// The arguments of a call of `callee` with `positional` positional
/// arguments and keywords named `keywords` (`None` for `**`) bound to its
/// parameters as CPython binds them: for each parameter, the index of its
/// argument among the positional ones then the keywords' values, or `None`
/// for one left out that has a default. The typecheck and the lowering
/// both bind through it.
pub(crate) fn bind(
    callee: &Callee,
    positional: usize,
    keywords: &[Option<&str>],
) -> Result<Vec<Option<usize>>, BindError> {
    let count = callee.params.len();
    let by_position = count.saturating_sub(callee.keyword_only);
    if positional > by_position {
        return Err(BindError::TooMany { given: positional });
    }
    let mut given: Vec<Option<usize>> = (0..count).map(|i| (i < positional).then_some(i)).collect();
    for (k, key) in keywords.iter().enumerate() {
        let Some(key) = key else { return Err(BindError::Unpacked(k)) };
        let Some(i) = callee.param_names.iter().position(|p| p == key) else {
            return Err(BindError::Unexpected(k, key.to_string()));
        };
        if i < callee.positional_only {
            return Err(BindError::PositionalOnly(k, key.to_string()));
        }
        if given[i].is_some() {
            return Err(BindError::Twice(k, key.to_string()));
        }
        given[i] = Some(positional + k);
    }
    let first_default = count.saturating_sub(callee.defaults.len());
    for (range, keyword_only) in [(0..by_position, false), (by_position..count, true)] {
        let names: Vec<String> = (range.start..range.end.min(first_default))
            .filter(|i| given[*i].is_none())
            .map(|i| callee.param_names[i].clone())
            .collect();
        if !names.is_empty() {
            return Err(BindError::Missing { keyword_only, names });
        }
    }
    Ok(given)
}

/// The message of a `*` argument (`f(*xs)`), which no call takes.
pub(crate) const STARRED_ARGUMENT: &str = "`*` arguments are not supported";

/// Why `callee` cannot be called from compiled code whatever its
/// arguments: a dtype parameter, a tuple result with an element that may
/// be `None`, a list result.
pub(crate) fn callee_error(callee: &Callee) -> Option<String> {
    let name = &callee.name;
    if let Some(dtype) = callee.dtype_params.first() {
        return Some(format!(
            "`{name}` has a dtype parameter (`{dtype}`), which compiled callers do not pass: call it from \
             Python, or give it a parameter that is not a dtype"
        ));
    }
    if !callee.result_optional.is_empty() {
        // A tuple value holds no element that may be `None`.
        return Some(format!(
            "`{name}` returns a tuple with an element that may be `None`, which compiled callers do not take: \
             call it from Python, or return an empty array (or a number) for none"
        ));
    }
    if !callee.result_lists.is_empty() {
        // A list is a local's, never a value a call gives.
        return Some(format!(
            "`{name}` returns a list, which compiled callers do not take yet: call it from Python, or return \
             `np.array(xs)` for an array"
        ));
    }
    None
}

/// Why a value of type `v` (`None`: no value, such as `None` or a call
/// that returns nothing) does not fit parameter `i`, `p`, of the POST
/// function `name`: an array of another dtype, rank or layout, a scalar
/// or a tuple for an array, a tuple of another length or no tuple for a
/// tuple (each element a number widening to its own), an array or a tuple
/// for a number, or a number that does not widen to it.
pub(crate) fn argument_error(name: &str, i: usize, p: &TypeData, v: Option<&typeck::Ty>) -> Option<String> {
    use typeck::Ty;
    let nth = i + 1;
    // What the argument is, as its annotation would be written.
    let what = match v {
        Some(Ty::Arr(t)) => crate::pytypes::annotation_text(t),
        Some(Ty::Tuple(elts)) => format!("a tuple of {}", elts.len()),
        Some(number) => number.scalar().map_or("no value", |s| s.dtype.name()).to_owned(),
        None => "no value".to_owned(),
    };
    if p.is_tuple() {
        let n = p.elements.len();
        return match v {
            Some(Ty::Tuple(elts)) if elts.len() == n => (elts.iter().zip(&p.elements))
                .find_map(|(e, t)| argument_error(name, i, &TypeData::scalar(t.dtype), Some(e))),
            _ => Some(format!("argument {nth} of `{name}` is {what}, expected a tuple of {n} numbers")),
        };
    }
    let expected = crate::pytypes::annotation_text(p);
    if p.is_array {
        return match v {
            Some(Ty::Arr(ty)) => {
                (!array_fits(ty, p)).then(|| format!("argument {nth} of `{name}` is {what}, expected {expected}"))
            }
            _ => Some(format!("argument {nth} of `{name}` is {what}, expected an array ({expected})")),
        };
    }
    match v.and_then(Ty::scalar) {
        Some(s) if widens_to(s, p.dtype) => None,
        Some(_) => Some(format!("argument {nth} of `{name}` is {what}, expected {expected} (cast explicitly)")),
        None => Some(format!("argument {nth} of `{name}` is {what}, expected {expected}")),
    }
}

/// The message of keyword arguments given to what takes none: every
/// callee but a POST function (and `print`).
pub(crate) const KEYWORD_ARGUMENTS: &str =
    "keyword arguments are not supported in compiled code: pass arguments by position";

/// Why a call's callee is nothing compiled code calls, by what it names
/// (as shown in the source).
pub(crate) enum TargetError<'a> {
    /// A name bound nowhere.
    Undefined(&'a str),
    /// A local.
    Variable(&'a str),
    /// A function of a CPython module (`scipy.special.gamma`).
    CPython(&'a str),
    /// `postc.math.f` of no intrinsic `f`.
    NoIntrinsic(&'a str),
    /// `math.f` of a function of `math` not compiled.
    UnsupportedMath(&'a str),
    /// `m.f` of a POST module `m` without `f`.
    NoModuleFunction(&'a str, &'a str),
    /// Anything else.
    NotCallable(&'a str),
}

impl TargetError<'_> {
    pub(crate) fn message(&self) -> String {
        match self {
            TargetError::Undefined(f) => format!("undefined function `{f}`"),
            TargetError::Variable(x) => format!("`{x}` is a variable, not a function"),
            TargetError::CPython(f) => format!("`{f}` is a CPython function and cannot be called from compiled code"),
            TargetError::NoIntrinsic(f) => format!("`postc.math` has no function `{f}`"),
            TargetError::UnsupportedMath(f) => format!("`math.{f}` is not supported in compiled code"),
            TargetError::NoModuleFunction(m, f) => format!("module `{m}` has no function `{f}`"),
            TargetError::NotCallable(f) => format!("`{f}` cannot be called from compiled code"),
        }
    }
}

/// Whether `name`, bound nowhere in the module, is a builtin the
/// lowering calls (`len`, `range`, `print`, ...).
pub(crate) fn is_builtin(name: &str) -> bool {
    builtin(name).is_some()
}

/// Argument `i` of the function `name`, in a diagnostic.
pub(crate) fn nth_argument(name: &str, i: usize) -> String {
    format!("argument {} of `{name}`", i + 1)
}

/// Why parameter `i` of the generic function `generic`, which has no
/// annotation, takes no type from its argument `arg` (`None`: left to its
/// default) of type `ty` if known (see `generics::instance_params`): a
/// default of `None`, `None`, a list, or (of a known type) text or a
/// tuple holding what is no number. `None` for an argument of no known
/// type, which has an error of its own.
pub(crate) fn generic_argument_error(
    generic: &FuncDecl,
    i: usize,
    arg: Option<&hir::Expr>,
    ty: Option<&typeck::Ty>,
) -> Option<String> {
    use typeck::Ty;
    let (nth, shown, p) = (i + 1, &generic.name, &generic.params[i].0);
    // What no parameter type is made of: text, or a tuple holding what is
    // not a number.
    let held = |t: &Ty| match t {
        Ty::Arr(_) => Some("an array".to_owned()),
        Ty::Tuple(_) => Some("a tuple".to_owned()),
        t => {
            t.scalar().filter(|s| !(s.dtype.is_numeric() || s.dtype == DType::Bool)).map(|s| s.dtype.name().to_owned())
        }
    };
    let what = match (arg, ty) {
        (None, _) => format!("the default of `{p}` of `{shown}` is `None`"),
        (Some(hir::Expr::None), _) => format!("argument {nth} of `{shown}` is `None`"),
        (Some(hir::Expr::List(_)), _) => format!("argument {nth} of `{shown}` is a list"),
        (Some(_), Some(Ty::Tuple(elems))) => {
            let held = elems.iter().find_map(held).unwrap_or_else(|| "what is no number".to_owned());
            format!("argument {nth} of `{shown}` is a tuple holding {held}")
        }
        (Some(_), Some(t)) => {
            format!("argument {nth} of `{shown}` is {}", held(t).unwrap_or_else(|| "no number".to_owned()))
        }
        (Some(_), None) => return None,
    };
    Some(format!(
        "{what}: a parameter without annotation (`{p}`) takes a number, an array or a tuple of numbers; annotate \
         it for anything else"
    ))
}
