//! Calls refused as the lowering's `calls.rs` refuses them: `range` and
//! `prange` called where no `for` loop runs over them (nor a local
//! holding a `range` is bound to them); keywords and `*` arguments of
//! what takes none (NumPy's functions of numbers, the casts to a dtype,
//! `postc.empty`, `conjugate`, the GPU built-ins); the CPython functions
//! the lowering meets as calls (Numba's, those of NumPy's modules, NumPy's
//! `iinfo`, `finfo` and `ndindex` where it does not read them); calls of
//! what holds no function; and the GPU built-ins `shared`, `sync_threads`
//! and `atomic_add` of the wrong forms or outside a `@kernel`.

use super::*;
use crate::lower::calls::{
    atomic_count_error, atomic_dtype_error, atomic_value_error, kernel_only_error, shared_error, ATOMIC_ADD_ARRAY,
    ATOMIC_ADD_FORM, ATOMIC_ADD_NUMBER, CONJUGATE_FORM, INDEX_INTEGER, PRANGE_ONLY_ITERATED, RANGE_ONLY_ITERATED,
    SHARED_EXTENT, SHARED_FORM, SYNC_THREADS_FORM,
};

impl Solver<'_> {
    /// Why the lowering refuses the call `e` of `func`, and where (each
    /// as the lowering's `call_inner` finds it, after what
    /// [`Solver::target_error`] refuses): a `range` or `prange` it does not
    /// run a loop over (nor binds to a local holding a `range`); keywords
    /// and `*` arguments of NumPy's functions of numbers, of the casts to a
    /// dtype and of `postc.empty`; the CPython functions of
    /// [`Solver::cpython_function`]; a global that holds no function; the
    /// GPU built-ins ([`Solver::gpu_builtin_error`]); `conjugate` given
    /// arguments; a function of NumPy's modules that compiled code does not
    /// know, a method of a name that holds no value; a value called. Not of
    /// a call it does not lower as one.
    pub(super) fn call_error(
        &self,
        e: ExprId,
        func: ExprId,
        args: &[ExprId],
        keywords: &[Keyword],
    ) -> Option<(TextRange, String)> {
        // What a loop steps through is not called (but a `range` or
        // `prange` the lowering does not step through is).
        if self.unlowered.get(e).is_some() || (self.uncalled.get(e).is_some() && !self.names_range(func)) {
            return None;
        }
        let body = self.body;
        // The lowering's `call` refuses keywords and `*` arguments given to
        // a built-in before anything else.
        let arguments = || {
            if let Some(k) = keywords.first() {
                return Some((k.range, KEYWORD_ARGUMENTS.to_owned()));
            }
            let starred = args.iter().find(|a| matches!(body.exprs[**a], Expr::Starred(_)))?;
            Some((body.expr_ranges[*starred], STARRED_ARGUMENT.to_owned()))
        };
        if self.names_range(func) {
            if self.iterated_range(e) || self.range_of_refused_call(e) {
                return None;
            }
            let prange = !matches!(&body.exprs[func], Expr::Name(Name::Free(_)));
            let message = if prange { PRANGE_ONLY_ITERATED } else { RANGE_ONLY_ITERATED };
            return arguments().or_else(|| Some((body.expr_ranges[e], message.to_owned())));
        }
        // NumPy's functions of scalars and its dtypes' casts, and
        // `postc.empty`, take no keywords either (NumPy's functions of
        // arrays and those creating arrays are typed with theirs).
        let numpy_scalar = self.numpy_attr(func).is_some_and(|name| {
            (numpy_func(name).is_some() || numpy_dtype(name).is_some())
                && array_func(name).is_none()
                && numpy_function(name).is_none()
        });
        // Nor do the casts to a dtype (`postyp.Float64(x)`, `type(z)(x)`
        // of a scalar parameter, `T(x)` of a local bound to a dtype).
        let cast = self.cast_dtype(func).is_some()
            || self.dtype_local(func).is_some()
            || parameter_type(body, self.env.decl, self.env.types, func).is_some();
        if numpy_scalar || cast || self.names_postc_empty(func) {
            return arguments();
        }
        if let Some(shown) = self.cpython_function(e, func) {
            return arguments().or_else(|| Some((body.expr_ranges[func], TargetError::CPython(&shown).message())));
        }
        match &body.exprs[func] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(self.unaliased(n)?)? {
                Global::GpuBuiltin(g) => arguments().or_else(|| self.gpu_builtin_error(e, func, *g, args)),
                // A module, a namespace, a decorator, `Out`, a launch
                // coordinate: no function.
                Global::BoundaryModule(_)
                | Global::PostModule(_)
                | Global::Namespace(_)
                | Global::Out
                | Global::Decorator(_)
                | Global::GpuRegister(_) => Some((body.expr_ranges[func], TargetError::NotCallable(n).message())),
                _ => None,
            },
            // The method of numbers (NumPy's `np.conj` is a ufunc).
            Expr::Attribute { base, attr } if matches!(&**attr, "conjugate" | "conj") => {
                if self.names_module(*base, "numpy") {
                    return None;
                }
                arguments().or_else(|| (!args.is_empty()).then(|| (body.expr_ranges[e], CONJUGATE_FORM.to_owned())))
            }
            Expr::Attribute { base, attr } => {
                // A function of a NumPy module that compiled code does not
                // know (`np.random.rand`); NumPy's own are typed where
                // their calls are.
                let mut root = *base;
                while let Expr::Attribute { base, .. } = body.exprs[root] {
                    root = base;
                }
                // `random.rand(3)` of `from numpy import random`: no module;
                // `g.foo(x)` of a function, a dtype or another name that
                // holds no value and is no module.
                let imported = matches!(&body.exprs[*base], Expr::Name(Name::Global(n))
                    if matches!(self.env.globals.get(&**n), Some(Global::Boundary { .. } | Global::Func(_)
                        | Global::Generic(_) | Global::Type(_) | Global::PostImport { .. } | Global::Intrinsic { .. }
                        | Global::GpuBuiltin(_) | Global::Empty | Global::Prange | Global::Out
                        | Global::Decorator(_))));
                let numpy_module = (root != *base && self.names_module(root, "numpy")) || imported;
                (numpy_module && array_method(attr).is_none() && !self.receiver_of_refused_call(e)).then(|| {
                    let shown = body.dotted(func).unwrap_or_else(|| format!(".{attr}"));
                    (body.expr_ranges[func], TargetError::NotCallable(&shown).message())
                })
            }
            // `(x + 1)(2)`: a value, no function (of no type, its own
            // error is reported, or it is the lowering's).
            Expr::Name(_) => None,
            // `g(x)(1)`; not `type(z)(x)`, a cast.
            Expr::Call { .. } => {
                if parameter_type(body, self.env.decl, self.env.types, func).is_some() {
                    return None;
                }
                self.ty(func)?;
                Some((body.expr_ranges[func], TargetError::NotCallable(body.construct_name(func)).message()))
            }
            _ => {
                self.ty(func)?;
                let shown = body.construct_name(func);
                Some((body.expr_ranges[func], TargetError::NotCallable(shown).message()))
            }
        }
    }

    /// The CPython function (as `module.name`) that the call `e` of `func`
    /// calls where the lowering meets it as a call: Numba's functions but
    /// `prange`; those of NumPy's modules (`numpy.random.rand`); NumPy's
    /// `iinfo` and `finfo` but
    /// where an attribute is read of them, `ndindex` but where a loop runs
    /// over it.
    fn cpython_function(&self, e: ExprId, func: ExprId) -> Option<String> {
        let body = self.body;
        let (module, name) = match &body.exprs[func] {
            Expr::Name(Name::Global(n)) => match self.env.globals.get(&**n)? {
                Global::Boundary { module, name } => (module.as_str(), &**name),
                _ => return None,
            },
            Expr::Attribute { base, attr } => match &body.exprs[*base] {
                Expr::Name(Name::Global(m)) => match self.env.globals.get(&**m)? {
                    Global::BoundaryModule(m) => (m.as_str(), &**attr),
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        let refused = match (module, name) {
            ("numba", name) => name != "prange",
            // A function of a NumPy module (`numpy.random.rand`) that is
            // not NumPy's function of arrays (typed where it is called).
            (module, _) if module.starts_with("numpy.") => true,
            ("numpy", "iinfo" | "finfo") => {
                !body.exprs.iter().any(|(_, x)| matches!(x, Expr::Attribute { base, .. } if *base == e))
            }
            ("numpy", "ndindex") => true,
            _ => false,
        };
        refused.then(|| format!("{module}.{name}"))
    }

    /// Whether `e` is the receiver of a method call refused whatever it is
    /// (`np.random.default_rng(1).random(n)`): the lowering reports that
    /// call, and lowers no receiver.
    fn receiver_of_refused_call(&self, e: ExprId) -> bool {
        let body = self.body;
        body.exprs.iter().any(|(call, x)| {
            let Expr::Call { func, args, keywords } = x else { return false };
            matches!(body.exprs[*func], Expr::Attribute { base, .. } if base == e)
                && self.target_error(call, *func, args, keywords).is_some()
        })
    }

    /// Whether more of the arguments `args` of a `print` than it prints at
    /// once are certainly values that may be `None`: calls of functions
    /// whose result may be, and reads of locals where they may be (those
    /// [`Solver::absent_reads`] finds; a test may narrow others).
    pub(super) fn prints_too_many_maybe_none(&self, args: &[ExprId]) -> bool {
        let body = self.body;
        let maybe = |a: &&ExprId| match &body.exprs[**a] {
            Expr::Name(Name::Local(_)) => self.absent_reads.get(**a).is_some(),
            Expr::Call { func, .. } => match &body.exprs[*func] {
                Expr::Name(Name::Global(n)) => {
                    matches!(self.env.globals.get(&**n), Some(Global::Func(_)))
                        && self.callee(n).is_some_and(|c| c.ret_maybe_none)
                }
                _ => false,
            },
            _ => false,
        };
        args.iter().filter(maybe).count() > crate::lower::printing::MAYBE_NONE_ARGUMENTS
    }

    /// Whether the lowering takes the `range` or `prange` call `e` for what
    /// a loop runs over: the iterable of a `for` loop, a `range` among the
    /// arguments of the `enumerate` or `zip` one runs over, or (an arm of)
    /// the value bound to a local holding a `range`.
    fn iterated_range(&self, e: ExprId) -> bool {
        // What a loop runs over, found at once (the loops are many).
        if self.range_iterables.get(e).is_some() {
            return true;
        }
        let body = self.body;
        let is_range = matches!(&body.exprs[e], Expr::Call { func, .. }
            if matches!(&body.exprs[*func], Expr::Name(Name::Free(n)) if &**n == "range"));
        body.stmts.iter().any(|(_, stmt)| match stmt {
            Stmt::For { iter, .. } if *iter == e => true,
            Stmt::For { iter, .. } => {
                is_range
                    && matches!(&body.exprs[*iter], Expr::Call { func, args, .. }
                        if args.contains(&e)
                            && matches!(&body.exprs[*func], Expr::Name(Name::Free(n)) if matches!(&**n, "enumerate" | "zip")))
            }
            Stmt::Assign { targets, value } => match targets[..] {
                [t] => {
                    matches!(body.exprs[t], Expr::Name(Name::Local(id)) if self.holds_range(id))
                        && range_value(body, *value).is_some_and(|arms| arms.contains(&e))
                }
                _ => false,
            },
            _ => false,
        })
    }

    /// Whether the `range` or `prange` call `e` is where the lowering
    /// refuses what holds it instead: what an undefined function is called
    /// with (`list(range(n))`, `zip` where no loop runs over it), an
    /// operand of a comparison refused whatever its operands
    /// (`n in range(10)`), the value of a local annotated `range`.
    fn range_of_refused_call(&self, e: ExprId) -> bool {
        let body = self.body;
        let free = |x: ExprId, f: &dyn Fn(&str) -> bool| matches!(&body.exprs[x], Expr::Name(Name::Free(n)) if f(n));
        let undefined =
            |n: &str| !is_builtin(n) && python_scalar(n).is_none() && !matches!(n, "type" | "range" | "print");
        // `enumerate` and `zip` are defined as what a loop runs over.
        let iterated = |x: ExprId| body.stmts.iter().any(|(_, s)| matches!(s, Stmt::For { iter, .. } if *iter == x));
        let called = body.exprs.iter().any(|(x, call)| {
            matches!(call, Expr::Call { func, args, .. } if args.contains(&e) && free(*func, &undefined)
                && !(iterated(x) && free(*func, &|n| matches!(n, "enumerate" | "zip"))))
        });
        // `n in range(10)`: the comparison is refused whatever its operands.
        let compared = body.exprs.iter().any(|(_, x)| {
            matches!(x, Expr::Compare { ops, operands } if operands.contains(&e) && refused_comparison(body, ops, operands).is_some())
        });
        called
            || compared
            || body.stmts.iter().any(|(_, s)| {
                matches!(s, Stmt::AnnAssign { annotation, value: Some(v), .. } if *v == e && free(*annotation, &|n| n == "range"))
            })
    }

    /// Why the lowering's `gpu_builtin` refuses the call `e` of the GPU
    /// built-in `g` (named by `func`), and where: a call outside a
    /// `@kernel`; `sync_threads` given arguments; `shared` given other
    /// than one array type of a dtype and positive integer literals, or of
    /// one a block cannot share; `atomic_add` without arguments, of what is
    /// no array or an array of a dtype not added atomically, with other
    /// than one index per axis and a value, an index that is no integer, a
    /// value that is no number or does not widen to the array's dtype.
    fn gpu_builtin_error(
        &self,
        e: ExprId,
        func: ExprId,
        g: GpuBuiltin,
        args: &[ExprId],
    ) -> Option<(TextRange, String)> {
        let body = self.body;
        let at = |x: ExprId| body.expr_ranges[x];
        if !self.env.decl.attrs.contains(FuncAttrs::KERNEL) {
            return Some((at(func), kernel_only_error(g.python_name())));
        }
        match g {
            GpuBuiltin::SyncThreads => (!args.is_empty()).then(|| (at(e), SYNC_THREADS_FORM.to_owned())),
            GpuBuiltin::Shared => {
                let &[ann] = args else { return Some((at(e), SHARED_FORM.to_owned())) };
                let Expr::Subscript { base, index } = &body.exprs[ann] else {
                    return Some((at(ann), SHARED_FORM.to_owned()));
                };
                let d = match self.cast_dtype(*base).or_else(|| self.dtype_local(*base)) {
                    Some(d) => d,
                    // A local holding a value names no dtype; one of no
                    // type, or an alias, may (the lowering's to say).
                    None => match &body.exprs[*base] {
                        Expr::Name(Name::Local(_)) if self.ty(*base).is_none() => return None,
                        Expr::Name(Name::Global(n)) if matches!(self.env.globals.get(&**n), Some(Global::Alias(_))) => {
                            return None
                        }
                        _ => return Some((at(*base), SHARED_FORM.to_owned())),
                    },
                };
                let items: &[ExprId] = match &body.exprs[*index] {
                    Expr::Tuple(es) => es,
                    _ => std::slice::from_ref(index),
                };
                let mut dims = Vec::with_capacity(items.len());
                for it in items {
                    match &body.exprs[*it] {
                        Expr::Literal(Lit::Int(n)) if *n > 0 => dims.push(Some(*n as u64)),
                        _ => return Some((at(*it), SHARED_EXTENT.to_owned())),
                    }
                }
                let ty = TypeData::array(d, Shape::dims(&dims), Layout::COrder);
                shared_error(&ty).map(|message| (at(ann), message))
            }
            GpuBuiltin::AtomicAdd => {
                let Some((&first, rest)) = args.split_first() else {
                    return Some((at(e), ATOMIC_ADD_FORM.to_owned()));
                };
                let ty = match self.ty(first)? {
                    Ty::Arr(ty) => ty,
                    _ => return Some((at(first), ATOMIC_ADD_ARRAY.to_owned())),
                };
                if !postc_ir::builtins::atomic_dtype(ty.dtype) {
                    return Some((at(first), atomic_dtype_error(ty.dtype)));
                }
                let nd = ty.ndim().unwrap_or(0);
                if rest.len() != nd + 1 {
                    return Some((at(e), atomic_count_error(nd)));
                }
                for &i in &rest[..nd] {
                    match self.ty(i)?.scalar() {
                        Some(s) if kind(s.dtype) == Kind::Int => {}
                        _ => return Some((at(i), INDEX_INTEGER.to_owned())),
                    }
                }
                let value = rest[nd];
                match self.ty(value)?.scalar() {
                    Some(s) if widens_to(s, ty.dtype) => None,
                    Some(s) => Some((at(value), atomic_value_error(s.dtype, ty.dtype))),
                    None => Some((at(value), ATOMIC_ADD_NUMBER.to_owned())),
                }
            }
        }
    }
}
