//! Function bodies: type inference of locals and lowering to the IR
//! builder.
//!
//! A body is lowered more than once. The first rounds infer: every
//! assignment joins its value's type into the local's (along the numeric
//! tower, NEP 50 for weak values) and whether the local stays
//! non-negative, until nothing changes; their output is thrown away. The
//! last round knows every local's type, declares the locals in the entry
//! block and reports diagnostics.

use crate::declare::{python_scalar, Deco, FuncDecl, Global, GpuBuiltin, Namespace, MATH_CONSTANTS};
use crate::pytypes::{default_of, kind, promote, widens_to, Kind, Scalar};
use crate::source::SourceFile;
use crate::syntax::{construct_name, dotted, literal, stmt_name, Lit};
use postc_ir::{
    BlockId, DType, Diagnostic, Field, FileId, Function, FunctionBuilder, Literal, Opcode, Program, TypeData, TypeId,
    TypeTable, ValueId,
};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use std::collections::{HashMap, HashSet};

/// Stack left before a deeply recursive step grows the stack, and by how much.
pub(crate) const STACK_RED_ZONE: usize = 128 * 1024;
pub(crate) const STACK_GROWTH: usize = 4 * 1024 * 1024;

/// The signature of a callable function, wherever it is defined.
pub(crate) struct Callee {
    /// The name the IR call uses.
    pub name: String,
    pub params: Vec<TypeData>,
    pub ret: Option<TypeData>,
}

/// What a body is lowered against.
pub(crate) struct ModuleCx<'a> {
    pub src: &'a SourceFile,
    pub file: FileId,
    pub globals: &'a HashMap<String, Global>,
    pub funcs: &'a [FuncDecl],
    /// The other modules of the program, for post imports.
    pub program: &'a Program,
    /// Local name → (module, source name) of every post import.
    pub post_imports: &'a HashMap<String, (String, String)>,
    pub intrinsics: &'a HashMap<String, String>,
}

/// A local's type as inferred so far.
#[derive(Clone, Debug, PartialEq)]
enum LocalTy {
    Scalar(Scalar),
    Array(TypeData),
}

#[derive(Clone, Debug)]
struct LocalInfo {
    ty: Option<LocalTy>,
    /// Fixed by an annotation or as a parameter: assignments must not narrow.
    fixed: bool,
    nonneg: bool,
    param: bool,
    /// A parameter whose annotation has errors, or a nested function's
    /// name: its uses stay quiet.
    poisoned: bool,
}

/// A lowered expression.
#[derive(Clone, Debug)]
enum Val {
    /// A scalar in the IR.
    Num {
        v: ValueId,
        s: Scalar,
        nonneg: bool,
    },
    /// An array in the IR.
    Arr {
        v: ValueId,
        ty: TypeData,
    },
    /// A literal or constant not yet given a value.
    Lit {
        lit: Lit,
        s: Scalar,
    },
    Void,
    /// An error was reported (or, while inferring, a type is not known yet).
    Err,
}

impl Val {
    fn scalar(&self) -> Option<Scalar> {
        match self {
            Val::Num { s, .. } | Val::Lit { s, .. } => Some(*s),
            _ => None,
        }
    }
    fn nonneg(&self) -> bool {
        match self {
            Val::Num { nonneg, s, .. } => *nonneg || s.dtype.is_unsigned_int(),
            Val::Lit { lit: Lit::Int(i), .. } => *i >= 0,
            Val::Lit { lit: Lit::Bool(_), .. } => true,
            _ => false,
        }
    }
}

struct Loop {
    /// Where `continue` goes.
    next: BlockId,
    exit: BlockId,
    broken: bool,
}

pub(crate) struct FnLower<'a, 'c> {
    cx: &'a ModuleCx<'c>,
    types: &'a mut TypeTable,
    decl: &'a FuncDecl,
    b: FunctionBuilder,
    locals: HashMap<String, LocalInfo>,
    /// The IR value of each local: its `let`, parameter or bound array.
    slots: HashMap<String, ValueId>,
    inferring: bool,
    changed: bool,
    diags: Vec<Diagnostic>,
    loops: Vec<Loop>,
    /// Whether the current block can still take instructions.
    open: bool,
    /// Depth of nested control flow (0: the function's top level).
    depth: u32,
    counter: u32,
}

/// Lowers one function's body. Returns the function or the diagnostics.
pub(crate) fn lower_function(
    cx: &ModuleCx<'_>,
    types: &mut TypeTable,
    decl: &FuncDecl,
    def: &ast::StmtFunctionDef,
) -> Result<Function, Vec<Diagnostic>> {
    let assigned = assigned_names(&def.body);
    let mut locals: HashMap<String, LocalInfo> = HashMap::new();
    for (name, t) in &decl.params {
        let td = types.get(*t).clone();
        let ty = if td.is_array { LocalTy::Array(td) } else { LocalTy::Scalar(Scalar::strong(td.dtype)) };
        locals
            .insert(name.clone(), LocalInfo { ty: Some(ty), fixed: true, nonneg: false, param: true, poisoned: false });
    }
    for name in decl.poisoned.iter().chain(&nested_defs(&def.body)) {
        locals.insert(name.clone(), LocalInfo { ty: None, fixed: true, nonneg: false, param: true, poisoned: true });
    }
    for name in assigned {
        locals.entry(name).or_insert(LocalInfo { ty: None, fixed: false, nonneg: true, param: false, poisoned: false });
    }
    // Inference rounds: the lattice is finite and joins only go up.
    for _ in 0..16 {
        let mut fl = FnLower::new(cx, types, decl, locals.clone(), true);
        fl.body(def);
        if !fl.changed {
            break;
        }
        locals = fl.locals;
    }
    let mut fl = FnLower::new(cx, types, decl, locals, false);
    fl.body(def);
    if fl.diags.is_empty() {
        Ok(fl.b.finish())
    } else {
        Err(fl.diags)
    }
}

/// The names of functions defined inside a body (reported as unsupported).
fn nested_defs(body: &[Stmt]) -> Vec<String> {
    body.iter()
        .filter_map(|s| match s {
            Stmt::FunctionDef(f) => Some(f.name.id.to_string()),
            _ => None,
        })
        .collect()
}

/// Every name a body assigns (Python's rule for what is local).
pub(crate) fn assigned_names(body: &[Stmt]) -> Vec<String> {
    fn target(e: &Expr, out: &mut Vec<String>) {
        if let Expr::Name(n) = e {
            out.push(n.id.to_string());
        }
    }
    fn walk(body: &[Stmt], out: &mut Vec<String>) {
        for s in body {
            match s {
                Stmt::Assign(a) => a.targets.iter().for_each(|t| target(t, out)),
                Stmt::AnnAssign(a) => target(&a.target, out),
                Stmt::AugAssign(a) => target(&a.target, out),
                Stmt::For(f) => {
                    target(&f.target, out);
                    walk(&f.body, out);
                    walk(&f.orelse, out);
                }
                Stmt::While(w) => {
                    walk(&w.body, out);
                    walk(&w.orelse, out);
                }
                Stmt::If(i) => {
                    walk(&i.body, out);
                    for c in &i.elif_else_clauses {
                        walk(&c.body, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(body, &mut out);
    let mut seen = HashSet::new();
    out.retain(|n| seen.insert(n.clone()));
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Builtin {
    Len,
    Abs,
    Min,
    Max,
    Range,
    Print,
}

fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "len" => Builtin::Len,
        "abs" => Builtin::Abs,
        "min" => Builtin::Min,
        "max" => Builtin::Max,
        "range" => Builtin::Range,
        "print" => Builtin::Print,
        _ => return None,
    })
}

/// What a callee expression names.
enum Target {
    Gpu(GpuBuiltin),
    Func(Callee),
    Intrinsic(String),
    Cast { dtype: DType, weak: bool },
    Builtin(Builtin),
    Empty,
    Conjugate(Box<Expr>),
    Boundary(String),
}

impl<'a, 'c> FnLower<'a, 'c> {
    fn new(
        cx: &'a ModuleCx<'c>,
        types: &'a mut TypeTable,
        decl: &'a FuncDecl,
        locals: HashMap<String, LocalInfo>,
        inferring: bool,
    ) -> Self {
        FnLower {
            cx,
            types,
            decl,
            b: FunctionBuilder::new(&decl.name),
            locals,
            slots: HashMap::new(),
            inferring,
            changed: false,
            diags: Vec::new(),
            loops: Vec::new(),
            open: true,
            depth: 0,
            counter: 0,
        }
    }

    // ---- diagnostics, names, locations ---------------------------------

    fn err(&mut self, at: &impl Ranged, msg: impl Into<String>) -> Val {
        if !self.inferring {
            self.diags.push(self.cx.src.error(at, msg));
        }
        Val::Err
    }

    fn at(&mut self, node: &impl Ranged) {
        let loc = self.cx.src.loc(self.cx.file, node);
        self.b.set_loc(Some(loc));
    }

    fn fresh(&mut self, what: &str) -> String {
        self.counter += 1;
        format!("{what}.{}", self.counter)
    }

    fn block(&mut self, what: &str) -> BlockId {
        let l = self.fresh(what);
        self.b.create_block(&l)
    }

    fn scalar_ty(&mut self, d: DType) -> TypeId {
        TypeId::scalar(d)
    }

    /// Starts emitting into `b`.
    fn enter(&mut self, b: BlockId) {
        self.b.switch_to(b);
        self.open = true;
    }

    /// Continues after a terminator: what follows is unreachable code,
    /// lowered into a block of its own so that it is still checked.
    fn ensure_open(&mut self) {
        if !self.open {
            let dead = self.block("dead");
            self.enter(dead);
        }
    }

    fn br(&mut self, to: BlockId) {
        if self.open {
            self.b.br(to);
            self.open = false;
        }
    }

    // ---- the body ---------------------------------------------------------

    fn body(&mut self, def: &ast::StmtFunctionDef) {
        let decl = self.decl;
        for (name, t) in &decl.params {
            let v = self.b.param(name, *t);
            self.slots.insert(name.clone(), v);
        }
        for c in &decl.core_dims {
            self.b.core_param(c, TypeId::INT64);
        }
        self.b.set_return(decl.ret);
        self.b.set_attrs(decl.attrs);
        self.b.set_ufunc_sig(decl.ufunc_sig.clone());
        self.b.set_doc(decl.doc.clone());
        self.b.set_func_loc(Some(self.cx.src.loc(self.cx.file, &def.name)));
        let entry = self.b.create_block("entry");
        self.enter(entry);
        self.at(&def.name);
        if !self.inferring {
            // Scalar locals live in `let`s declared up front, so that every
            // use is dominated whatever path assigns them.
            let mut names: Vec<(String, Scalar)> = self
                .locals
                .iter()
                .filter(|(_, l)| !l.param)
                .filter_map(|(n, l)| match &l.ty {
                    Some(LocalTy::Scalar(s)) => Some((n.clone(), *s)),
                    _ => None,
                })
                .collect();
            names.sort_by(|a, b| a.0.cmp(&b.0));
            for (n, s) in names {
                let zero = self.zero(s.dtype);
                let ty = self.scalar_ty(s.dtype);
                let v = self.b.let_(ty, zero, &n);
                self.slots.insert(n, v);
            }
        }
        let stmts: &[Stmt] = &def.body;
        let skip_doc = matches!(stmts.first(), Some(Stmt::Expr(e)) if matches!(*e.value, Expr::StringLiteral(_)));
        self.stmts(&stmts[skip_doc as usize..]);
        if self.open && !self.diags.is_empty() {
            // Errors above may have cut control flow short.
            self.b.unreachable();
            self.open = false;
        }
        if self.open {
            match decl.ret {
                None => {
                    self.b.ret(None);
                }
                Some(t) => {
                    let shown = self.types.get(t).to_string();
                    self.err(
                        &def.name,
                        format!(
                            "function `{}` can reach its end without returning a value (it returns {shown})",
                            decl.name
                        ),
                    );
                    self.b.unreachable();
                }
            }
            self.open = false;
        }
    }

    fn zero(&mut self, d: DType) -> ValueId {
        let n = self.fresh("zero");
        let lit = match kind(d) {
            Kind::Bool => Literal::Bool(false),
            Kind::Int => Literal::Int(0),
            Kind::Float => Literal::Float(0),
            Kind::Complex => Literal::Complex(0, 0),
            Kind::Text if d == DType::Str => Literal::Str(""),
            Kind::Text => Literal::Bytes(&[]),
        };
        let ty = self.scalar_ty(d);
        self.b.const_(ty, lit, &n)
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.ensure_open();
            self.stmt(s);
        }
    }

    fn nested(&mut self, stmts: &[Stmt]) {
        self.depth += 1;
        self.stmts(stmts);
        self.depth -= 1;
    }

    fn stmt(&mut self, s: &Stmt) {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || self.stmt_inner(s))
    }

    fn stmt_inner(&mut self, s: &Stmt) {
        self.at(s);
        match s {
            Stmt::Expr(e) => match &*e.value {
                Expr::Call(c) => {
                    self.call(c, true);
                }
                Expr::StringLiteral(_) => {}
                other @ (Expr::Yield(_) | Expr::YieldFrom(_) | Expr::Await(_)) => {
                    self.err(
                        other,
                        format!(
                            "{} is not supported: POST functions are not generators or coroutines",
                            construct_name(other)
                        ),
                    );
                }
                other => {
                    self.err(
                        other,
                        format!("{} has no effect as a statement; only calls stand alone", construct_name(other)),
                    );
                }
            },
            Stmt::Assign(a) => {
                let v = self.expr(&a.value);
                for t in &a.targets {
                    self.assign(t, v.clone(), &a.value);
                }
            }
            Stmt::AnnAssign(a) => self.ann_assign(a),
            Stmt::AugAssign(a) => self.aug_assign(a),
            Stmt::If(i) => self.if_(&i.test, &i.body, &i.elif_else_clauses),
            Stmt::While(w) => self.while_(w),
            Stmt::For(f) => self.for_(f),
            Stmt::Break(b) => match self.loops.last_mut() {
                Some(l) => {
                    l.broken = true;
                    let exit = l.exit;
                    self.br(exit);
                }
                None => {
                    self.err(b, "`break` outside a loop");
                }
            },
            Stmt::Continue(c) => match self.loops.last() {
                Some(l) => {
                    let next = l.next;
                    self.br(next);
                }
                None => {
                    self.err(c, "`continue` outside a loop");
                }
            },
            Stmt::Pass(_) => {}
            Stmt::Return(r) => self.return_(r),
            Stmt::Assert(a) => self.assert_(a),
            Stmt::FunctionDef(f) => {
                self.err(&f.name, "nested functions are not supported: define the function at module level");
            }
            Stmt::Global(g) => {
                self.err(g, "`global` is not supported: module constants are read-only in compiled code");
            }
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                self.err(s, "imports inside a function are not supported: import at module level");
            }
            other => {
                self.err(other, format!("{} is not supported in POST Python", stmt_name(other)));
            }
        }
    }

    // ---- assignment ---------------------------------------------------------

    fn ann_assign(&mut self, a: &ast::StmtAnnAssign) {
        let Expr::Name(n) = &*a.target else {
            self.err(&*a.target, "only a local variable can be annotated");
            return;
        };
        let name = n.id.to_string();
        let ty = match self.local_annotation(&a.annotation) {
            Some(t) => t,
            None => return,
        };
        if let Some(info) = self.locals.get_mut(&name) {
            if info.param {
                self.err(&*a.target, format!("`{name}` is a parameter; its type is its annotation"));
                return;
            }
            let want = LocalTy::Scalar(Scalar::strong(ty));
            if info.ty.as_ref().is_some_and(|t| *t != want) && info.fixed {
                self.err(&*a.annotation, format!("`{name}` is annotated twice with different types"));
                return;
            }
            if !info.fixed || info.ty.is_none() {
                info.ty = Some(want);
                info.fixed = true;
                self.changed = true;
            }
        }
        if let Some(v) = &a.value {
            let val = self.expr(v);
            self.assign(&a.target, val, v);
        }
    }

    fn local_annotation(&mut self, e: &Expr) -> Option<DType> {
        let name = dotted(e)?;
        let last = name.rsplit('.').next().unwrap_or(&name);
        let t = match self.cx.globals.get(&name) {
            Some(Global::Type(t)) => Some(*t),
            Some(_) => None,
            None if name.starts_with("postyp.") => DType::from_name(last),
            None => python_scalar(&name),
        };
        if t.is_none() {
            self.err(e, format!("a local is annotated with a scalar type such as `Float64`, not `{name}`"));
        }
        t
    }

    fn assign(&mut self, target: &Expr, v: Val, value_at: &Expr) {
        match target {
            Expr::Name(n) => self.assign_local(n.id.as_str(), v, target, value_at),
            Expr::Subscript(s) => {
                let Some((arr, idx)) = self.element(s, true) else { return };
                self.store(&arr, &idx, v, target);
            }
            Expr::Tuple(_) | Expr::List(_) => {
                self.err(target, "tuple unpacking is not supported: assign each variable on its own line");
            }
            Expr::Starred(_) => {
                self.err(target, "starred assignment is not supported");
            }
            other => {
                self.err(other, format!("cannot assign to {}", construct_name(other)));
            }
        }
    }

    fn assign_local(&mut self, name: &str, v: Val, at: &Expr, value_at: &Expr) {
        let Some(info) = self.locals.get(name).cloned() else {
            self.err(at, format!("cannot assign to `{name}`"));
            return;
        };
        if info.poisoned {
            return;
        }
        if matches!(v, Val::Err) {
            return;
        }
        match (&v, &info.ty) {
            (Val::Void, _) => {
                self.err(value_at, "this call returns nothing");
            }
            (Val::Arr { v: av, ty }, cur) => {
                if info.param {
                    self.err(at, format!("cannot rebind the array parameter `{name}`"));
                    return;
                }
                if self.depth > 0 {
                    self.err(
                        at,
                        format!(
                            "array local `{name}` must be bound at the top level of the function, not inside a block"
                        ),
                    );
                    return;
                }
                match cur {
                    None => {
                        self.locals.get_mut(name).unwrap().ty = Some(LocalTy::Array(ty.clone()));
                        self.changed = true;
                    }
                    Some(LocalTy::Array(t)) if t == ty => {}
                    Some(_) => {
                        self.err(at, format!("`{name}` is bound to values of different types"));
                        return;
                    }
                }
                if self.slots.contains_key(name) {
                    self.err(at, format!("array local `{name}` is bound twice; bind each array once"));
                    return;
                }
                self.slots.insert(name.to_owned(), *av);
            }
            (_, cur) => {
                let s = v.scalar().expect("a scalar value");
                let nonneg = v.nonneg();
                match cur {
                    Some(LocalTy::Array(_)) => {
                        self.err(at, format!("`{name}` holds an array and cannot be assigned a scalar"));
                        return;
                    }
                    Some(LocalTy::Scalar(t)) if info.fixed => {
                        if !widens_to(s, t.dtype) {
                            let what = if info.param { "parameter" } else { "local" };
                            self.err(
                                value_at,
                                format!(
                                    "cannot assign {} to {what} `{name}` of type {}: it would narrow the value (cast explicitly)",
                                    s.dtype.name(),
                                    t.dtype.name()
                                ),
                            );
                            return;
                        }
                    }
                    Some(LocalTy::Scalar(t)) => {
                        let joined = join(*t, s);
                        match joined {
                            Some(j) if j != *t => {
                                self.locals.get_mut(name).unwrap().ty = Some(LocalTy::Scalar(j));
                                self.changed = true;
                            }
                            Some(_) => {}
                            None => {
                                self.err(
                                    value_at,
                                    format!(
                                        "`{name}` is assigned {} here but {} elsewhere",
                                        s.dtype.name(),
                                        t.dtype.name()
                                    ),
                                );
                                return;
                            }
                        }
                    }
                    None => {
                        self.locals.get_mut(name).unwrap().ty = Some(LocalTy::Scalar(s));
                        self.changed = true;
                    }
                }
                if !nonneg && self.locals[name].nonneg {
                    self.locals.get_mut(name).unwrap().nonneg = false;
                    self.changed = true;
                }
                if !self.inferring {
                    let Some(LocalTy::Scalar(t)) = self.locals[name].ty else { return };
                    let Some(x) = self.materialize(&v, t.dtype, value_at) else { return };
                    let Some(&slot) = self.slots.get(name) else {
                        self.err(at, format!("internal error: the type of `{name}` was not inferred"));
                        return;
                    };
                    self.at(at);
                    self.b.set(slot, x);
                }
            }
        }
    }

    fn aug_assign(&mut self, a: &ast::StmtAugAssign) {
        match &*a.target {
            Expr::Name(n) => {
                let cur = self.name(n);
                let rhs = self.expr(&a.value);
                self.at(a);
                let r = self.binop(a.op, cur, rhs, a.range);
                self.assign_local(n.id.as_str(), r, &a.target, &a.value);
            }
            Expr::Subscript(s) => {
                let Some((arr, idx)) = self.element(s, true) else { return };
                let cur = self.load(&arr, &idx, s.range);
                let rhs = self.expr(&a.value);
                self.at(a);
                let r = self.binop(a.op, cur, rhs, a.range);
                self.store(&arr, &idx, r, &a.target);
            }
            other => {
                self.err(other, format!("cannot assign to {}", construct_name(other)));
            }
        }
    }

    // ---- control flow -----------------------------------------------------

    fn if_(&mut self, test: &Expr, body: &[Stmt], clauses: &[ast::ElifElseClause]) {
        let c = self.cond(test);
        let then_b = self.block("then");
        let else_b = self.block(if clauses.is_empty() { "endif" } else { "else" });
        if let Some(c) = c {
            self.b.condbr(c, then_b, else_b, None);
        } else {
            self.b.br(then_b);
        }
        self.open = false;
        self.enter(then_b);
        self.nested(body);
        if clauses.is_empty() {
            self.br(else_b);
            self.enter(else_b);
            return;
        }
        let then_open = self.open;
        let join = self.block("endif");
        self.br(join);
        self.enter(else_b);
        let (first, rest) = clauses.split_first().expect("clauses");
        match &first.test {
            Some(t) => {
                self.at(t);
                self.depth += 1;
                self.if_(t, &first.body, rest);
                self.depth -= 1;
            }
            None => self.nested(&first.body),
        }
        let else_open = self.open;
        self.br(join);
        self.enter(join);
        if !then_open && !else_open {
            // Both arms left: nothing reaches the join.
            self.b.unreachable();
            self.open = false;
        }
    }

    fn while_(&mut self, w: &ast::StmtWhile) {
        if !w.orelse.is_empty() {
            self.err(&w.orelse[0], "`while ... else` is not supported");
        }
        let head = self.block("while");
        let body = self.block("do");
        let exit = self.block("endwhile");
        self.br(head);
        self.enter(head);
        self.at(&*w.test);
        let forever = matches!(&*w.test, Expr::BooleanLiteral(b) if b.value);
        if forever {
            self.b.br(body);
        } else {
            match self.cond(&w.test) {
                Some(c) => self.b.condbr(c, body, exit, None),
                None => self.b.br(exit),
            };
        }
        self.open = false;
        self.loops.push(Loop { next: head, exit, broken: false });
        self.enter(body);
        self.nested(&w.body);
        self.br(head);
        let l = self.loops.pop().expect("loop");
        self.enter(exit);
        if forever && !l.broken {
            self.b.unreachable();
            self.open = false;
        }
    }

    fn for_(&mut self, f: &ast::StmtFor) {
        if f.is_async {
            self.err(f, "`async for` is not supported");
            return;
        }
        if !f.orelse.is_empty() {
            self.err(&f.orelse[0], "`for ... else` is not supported");
        }
        let Expr::Name(var) = &*f.target else {
            self.err(&*f.target, "a `for` loop binds one variable");
            return;
        };
        let Expr::Call(call) = &*f.iter else {
            self.err(&*f.iter, "a `for` loop runs over `range(...)`");
            return;
        };
        if !matches!(self.target_of(&call.func), Some(Target::Builtin(Builtin::Range))) {
            self.err(&*f.iter, "a `for` loop runs over `range(...)`");
            return;
        }
        if !call.arguments.keywords.is_empty() {
            self.err(&call.arguments.keywords[0], "`range` takes no keyword arguments");
            return;
        }
        let args = &call.arguments.args;
        if args.is_empty() || args.len() > 3 {
            self.err(call, format!("`range` takes 1 to 3 arguments, not {}", args.len()));
            return;
        }
        let mut vals = Vec::new();
        for a in args.iter() {
            let v = self.expr(a);
            match v.scalar() {
                Some(s) if matches!(kind(s.dtype), Kind::Int | Kind::Bool) => vals.push((v, a)),
                Some(s) => {
                    self.err(a, format!("`range` takes integers, not {}", s.dtype.name()));
                    return;
                }
                None => {
                    if !matches!(v, Val::Err) {
                        self.err(a, "`range` takes integers");
                    }
                    return;
                }
            }
        }
        let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
        let zero = Val::Lit { lit: Lit::Int(0), s: Scalar::weak(DType::Int64) };
        let (start, stop, step) = match vals.len() {
            1 => ((zero, &args[0]), vals.pop().unwrap(), (one, &args[0])),
            2 => {
                let stop = vals.pop().unwrap();
                (vals.pop().unwrap(), stop, (one, &args[0]))
            }
            _ => {
                let step = vals.pop().unwrap();
                let stop = vals.pop().unwrap();
                (vals.pop().unwrap(), stop, step)
            }
        };
        let step_const = match &step.0 {
            Val::Lit { lit: Lit::Int(i), .. } => Some(*i),
            _ => None,
        };
        if step_const == Some(0) {
            self.err(step.1, "`range` step must not be zero");
            return;
        }
        // The loop variable: a Python int, non-negative when the range says so.
        let var_nonneg = match step_const {
            Some(s) if s > 0 => start.0.nonneg(),
            Some(_) => matches!(&stop.0, Val::Lit { lit: Lit::Int(i), .. } if *i >= -1) || stop.0.nonneg(),
            None => start.0.nonneg() && stop.0.nonneg(),
        };
        let range_val_ty = Scalar::weak(DType::Int64);
        self.at(call);
        let (Some(s0), Some(s1), Some(s2)) = (
            self.materialize(&start.0, DType::Int64, start.1),
            self.materialize(&stop.0, DType::Int64, stop.1),
            self.materialize(&step.0, DType::Int64, step.1),
        ) else {
            return;
        };
        if step_const.is_none() {
            self.at(call);
            let z = self.zero(DType::Int64);
            let n = self.fresh("step.ok");
            let ok = self.b.binary(Opcode::Ne, TypeId::BOOL, s2, z, &n);
            self.panic_unless(ok, "range() arg 3 must not be zero", call);
        }
        self.at(call);
        let kname = self.fresh(&format!("{}.next", var.id));
        let k = self.b.let_(TypeId::INT64, s0, &kname);
        let head = self.block("for");
        let body = self.block("body");
        let latch = self.block("next");
        let exit = self.block("endfor");
        self.br(head);
        self.enter(head);
        self.at(call);
        let cname = self.fresh("more");
        let more = match step_const {
            Some(s) if s > 0 => self.b.binary(Opcode::Lt, TypeId::BOOL, k, s1, &cname),
            Some(_) => self.b.binary(Opcode::Gt, TypeId::BOOL, k, s1, &cname),
            None => {
                let z = self.zero(DType::Int64);
                let up = self.fresh("up");
                let up = self.b.binary(Opcode::Gt, TypeId::BOOL, s2, z, &up);
                let lt = self.fresh("lt");
                let lt = self.b.binary(Opcode::Lt, TypeId::BOOL, k, s1, &lt);
                let gt = self.fresh("gt");
                let gt = self.b.binary(Opcode::Gt, TypeId::BOOL, k, s1, &gt);
                self.b.select(TypeId::BOOL, up, lt, gt, &cname)
            }
        };
        self.b.condbr(more, body, exit, None);
        self.open = false;
        self.enter(body);
        let kv = Val::Num { v: k, s: range_val_ty, nonneg: var_nonneg };
        self.at(&*f.target);
        self.assign_local(var.id.as_str(), kv, &f.target, &f.iter);
        self.loops.push(Loop { next: latch, exit, broken: false });
        self.nested(&f.body);
        self.loops.pop();
        self.br(latch);
        self.enter(latch);
        self.at(call);
        let nn = self.fresh("k");
        let k2 = self.b.binary(Opcode::Add, TypeId::INT64, k, s2, &nn);
        self.b.set(k, k2);
        self.b.br(head);
        self.open = false;
        self.enter(exit);
    }

    fn return_(&mut self, r: &ast::StmtReturn) {
        if self.decl.ret_poisoned {
            if let Some(v) = &r.value {
                self.expr(v);
            }
            self.b.unreachable();
            self.open = false;
            return;
        }
        let ret = self.decl.ret;
        match (&r.value, ret) {
            (None, None) => {
                self.b.ret(None);
            }
            (Some(v), None) => {
                let val = self.expr(v);
                if !matches!(val, Val::Void | Val::Err) {
                    self.err(
                        &**v,
                        format!("function `{}` returns nothing (`-> None`), but this returns a value", self.decl.name),
                    );
                }
                self.b.ret(None);
            }
            (None, Some(t)) => {
                let shown = self.types.get(t).to_string();
                self.err(r, format!("`return` without a value in function `{}` returning {shown}", self.decl.name));
                self.b.unreachable();
            }
            (Some(v), Some(t)) => {
                let val = self.expr(v);
                let td = self.types.get(t).clone();
                let x = if td.is_array {
                    match val {
                        Val::Arr { v: av, ty } if ty.dtype == td.dtype && ty.ndim() == td.ndim() => Some(av),
                        Val::Err => None,
                        _ => {
                            self.err(&**v, format!("function `{}` returns {td}", self.decl.name));
                            None
                        }
                    }
                } else {
                    match val.scalar() {
                        Some(s) if widens_to(s, td.dtype) || kind(s.dtype) == kind(td.dtype) => {
                            self.materialize(&val, td.dtype, &**v)
                        }
                        Some(s) => {
                            self.err(
                                &**v,
                                format!(
                                    "this returns {}, but function `{}` returns {} (cast explicitly)",
                                    s.dtype.name(),
                                    self.decl.name,
                                    td.dtype.name()
                                ),
                            );
                            None
                        }
                        None => {
                            if !matches!(val, Val::Err) {
                                self.err(&**v, format!("function `{}` returns {td}", self.decl.name));
                            }
                            None
                        }
                    }
                };
                self.at(r);
                match x {
                    Some(x) => self.b.ret(Some(x)),
                    None => self.b.unreachable(),
                };
            }
        }
        self.open = false;
    }

    fn assert_(&mut self, a: &ast::StmtAssert) {
        let msg = match &a.msg {
            None => "assertion failed".to_owned(),
            Some(m) => match &**m {
                Expr::StringLiteral(s) => format!("assertion failed: {}", s.value.to_str()),
                other => {
                    self.err(other, "an assert message must be a string literal");
                    return;
                }
            },
        };
        if let Some(c) = self.cond(&a.test) {
            self.panic_unless(c, &msg, a);
        }
    }

    /// Branches to a panic with `msg`, located at `at`, unless `ok` holds.
    fn panic_unless(&mut self, ok: ValueId, msg: &str, at: &impl Ranged) {
        let fail = self.block("fail");
        let cont = self.block("ok");
        self.b.condbr(ok, cont, fail, None);
        self.enter(fail);
        self.at(at);
        let n = self.fresh("msg");
        let m = self.b.const_(TypeId::STR, Literal::Str(msg), &n);
        self.b.call(postc_ir::builtins::PANIC, &[m], None, "");
        self.b.unreachable();
        self.enter(cont);
    }

    /// A condition: Bool as it is, a number compared with zero.
    fn cond(&mut self, e: &Expr) -> Option<ValueId> {
        let v = self.expr(e);
        self.truth(v, e)
    }

    fn truth(&mut self, v: Val, e: &Expr) -> Option<ValueId> {
        match v.scalar() {
            Some(s) if kind(s.dtype) <= Kind::Complex => {
                if s.dtype == DType::Bool {
                    return self.materialize(&v, DType::Bool, e);
                }
                let x = self.materialize(&v, s.dtype, e)?;
                let z = self.zero(s.dtype);
                let n = self.fresh("nz");
                self.at(e);
                Some(self.b.binary(Opcode::Ne, TypeId::BOOL, x, z, &n))
            }
            Some(s) => {
                self.err(e, format!("{} is not a condition: compare it explicitly", s.dtype.name()));
                None
            }
            None => {
                match v {
                    Val::Err => {}
                    Val::Arr { .. } => {
                        self.err(e, "an array is not a condition");
                    }
                    _ => {
                        self.err(e, "this is not a condition");
                    }
                }
                None
            }
        }
    }

    // ---- expressions ------------------------------------------------------

    fn expr(&mut self, e: &Expr) -> Val {
        // Deeply nested expressions (a sum of 100,000 terms) recurse deeply.
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &Expr) -> Val {
        if let Some(l) = literal(e) {
            return match l {
                Ok(lit) => {
                    let d = lit.default_dtype();
                    let weak = !d.is_text();
                    Val::Lit { lit, s: Scalar { dtype: d, weak } }
                }
                Err((at, msg)) => self.err(&at, msg),
            };
        }
        match e {
            Expr::Name(n) => self.name(n),
            Expr::BinOp(b) if b.op == ast::Operator::MatMult => {
                self.err(e, "the `@` operator is not supported: write the loops")
            }
            Expr::BinOp(b) => {
                let l = self.expr(&b.left);
                let r = self.expr(&b.right);
                self.at(e);
                self.binop(b.op, l, r, b.range)
            }
            Expr::UnaryOp(u) => self.unary(u),
            Expr::BoolOp(b) => self.bool_op(b),
            Expr::Compare(c) => self.compare(c),
            Expr::If(i) => self.ternary(i),
            Expr::Call(c) => self.call(c, false),
            Expr::Attribute(a) => self.attribute(a),
            Expr::Subscript(s) => self.subscript(s),
            Expr::NoneLiteral(_) => self.err(e, "`None` is not a value in compiled code"),
            other => self.err(other, format!("{} is not supported in POST Python", construct_name(other))),
        }
    }

    fn name(&mut self, n: &ast::ExprName) -> Val {
        let name = n.id.as_str();
        if let Some(info) = self.locals.get(name) {
            if info.poisoned {
                return Val::Err;
            }
            let Some(ty) = info.ty.clone() else {
                // With errors reported, an untyped local is their echo.
                if self.inferring || !self.diags.is_empty() {
                    return Val::Err;
                }
                return self.err(n, format!("`{name}` is used before it is assigned"));
            };
            let nonneg = info.nonneg && !info.param;
            if self.inferring && !info.param {
                // Only types matter while inferring; a placeholder value.
                return match ty {
                    LocalTy::Scalar(s) => {
                        let z = self.zero(s.dtype);
                        Val::Num { v: z, s, nonneg }
                    }
                    LocalTy::Array(t) => match self.slots.get(name) {
                        Some(v) => Val::Arr { v: *v, ty: t },
                        None => Val::Err,
                    },
                };
            }
            let Some(&v) = self.slots.get(name) else {
                return self.err(n, format!("`{name}` is used before it is bound"));
            };
            return match ty {
                LocalTy::Scalar(s) => Val::Num { v, s, nonneg },
                LocalTy::Array(t) => Val::Arr { v, ty: t },
            };
        }
        match self.cx.globals.get(name) {
            Some(Global::Const { lit, scalar }) => Val::Lit { lit: lit.clone(), s: *scalar },
            Some(Global::Func(_) | Global::Intrinsic { .. } | Global::PostImport { .. } | Global::Alias(_)) => {
                self.err(n, format!("function `{name}` is not a value: call it"))
            }
            Some(Global::Boundary { module, .. } | Global::BoundaryModule(module)) => {
                let m = module.clone();
                self.err(n, format!("`{name}` comes from the CPython module `{m}` and cannot be used in compiled code"))
            }
            Some(_) => self.err(n, format!("`{name}` is not a value")),
            None => self.err(n, format!("undefined name `{name}`")),
        }
    }

    /// Converts a value to an IR value of `dtype`.
    fn materialize(&mut self, v: &Val, dtype: DType, at: &impl Ranged) -> Option<ValueId> {
        match v {
            Val::Err => None,
            Val::Void => {
                self.err(at, "this call returns nothing");
                None
            }
            Val::Arr { .. } => {
                self.err(at, format!("an array is used where a {} is expected", dtype.name()));
                None
            }
            Val::Lit { lit, .. } => match lit.convert(dtype) {
                Some(c) => {
                    let n = self.fresh("c");
                    let ty = self.scalar_ty(dtype);
                    self.at(at);
                    Some(self.b.const_(ty, c.as_literal(), &n))
                }
                None => {
                    let shown = match lit {
                        Lit::Int(i) => format!("{i} is out of range for {}", dtype.name()),
                        _ => format!("this constant cannot be converted to {}", dtype.name()),
                    };
                    self.err(at, shown);
                    None
                }
            },
            Val::Num { v, s, .. } => {
                if s.dtype == dtype {
                    return Some(*v);
                }
                if s.dtype.is_text() || dtype.is_text() {
                    self.err(at, format!("{} cannot be converted to {}", s.dtype.name(), dtype.name()));
                    return None;
                }
                let n = self.fresh("cast");
                let ty = self.scalar_ty(dtype);
                Some(self.b.cast(ty, *v, &n))
            }
        }
    }

    fn result(&mut self, op: Opcode, dtype: DType, l: ValueId, r: ValueId) -> ValueId {
        let n = self.fresh(op.mnemonic());
        let ty = self.scalar_ty(dtype);
        self.b.binary(op, ty, l, r, &n)
    }

    fn binop(&mut self, op: ast::Operator, l: Val, r: Val, at: TextRange) -> Val {
        use ast::Operator as O;
        let (Some(ls), Some(rs)) = (l.scalar(), r.scalar()) else {
            if matches!(l, Val::Err) || matches!(r, Val::Err) {
                return Val::Err;
            }
            if matches!(l, Val::Arr { .. }) || matches!(r, Val::Arr { .. }) {
                return self.err(&at, "arithmetic on whole arrays is not supported: loop over the elements");
            }
            return self.err(&at, "this operand has no value");
        };
        let sym = op.as_str();
        if op == O::MatMult {
            return self.err(&at, "the `@` operator is not supported: write the loops");
        }
        let Some(p) = promote(ls, rs) else {
            return self.err(
                &at,
                format!("unsupported operand types for `{sym}`: {} and {}", ls.dtype.name(), rs.dtype.name()),
            );
        };
        let k = kind(p.dtype);
        let both_bool = ls.dtype == DType::Bool && rs.dtype == DType::Bool;
        let nonneg = l.nonneg() && r.nonneg();
        let (opcode, operand_dtype, result, nonneg) = match op {
            O::Add if k == Kind::Text => (Opcode::Add, p.dtype, p, false),
            _ if k == Kind::Text => {
                return self.err(&at, format!("`{sym}` is not defined on {}", p.dtype.name()));
            }
            // NumPy's Bool arithmetic is logical (`+` is or, `*` is and, `-`
            // is refused); Python's bools add as integers.
            O::Add | O::Sub | O::Mult if both_bool && p.weak => {
                let d = DType::Int64;
                let op = match op {
                    O::Add => Opcode::Add,
                    O::Sub => Opcode::Sub,
                    _ => Opcode::Mul,
                };
                (op, d, Scalar::weak(d), false)
            }
            O::Add if both_bool => (Opcode::Or, DType::Bool, Scalar::strong(DType::Bool), true),
            O::Mult if both_bool => (Opcode::And, DType::Bool, Scalar::strong(DType::Bool), true),
            O::Sub if both_bool => {
                return self.err(
                    &at,
                    "`-` on two Bool values is not defined (as in NumPy): use `^` or convert with `int(...)`",
                );
            }
            O::Add => (Opcode::Add, p.dtype, p, nonneg),
            O::Mult => (Opcode::Mul, p.dtype, p, nonneg),
            O::Sub => (Opcode::Sub, p.dtype, p, false),
            O::Div => {
                let d = if k <= Kind::Int { DType::Float64 } else { p.dtype };
                (Opcode::Div, d, Scalar { dtype: d, weak: p.weak }, false)
            }
            O::FloorDiv | O::Mod => {
                if k == Kind::Complex {
                    return self.err(&at, format!("`{sym}` is not defined on {}", p.dtype.name()));
                }
                let op = if op == O::FloorDiv { Opcode::FDiv } else { Opcode::Mod };
                let nn = if op == Opcode::Mod { r.nonneg() } else { nonneg };
                let d = if k == Kind::Bool { DType::Int8 } else { p.dtype };
                (op, d, Scalar { dtype: d, weak: p.weak }, nn)
            }
            O::Pow => {
                if both_bool {
                    return self.err(&at, "`**` on two Bool values: convert them with `int(...)` first");
                }
                if k <= Kind::Int {
                    if let Val::Lit { lit: Lit::Int(i), .. } = &r {
                        if *i < 0 {
                            return self.err(
                                &at,
                                "an integer raised to a negative power: write a float base such as `2.0 ** -1`",
                            );
                        }
                    }
                }
                (Opcode::Pow, p.dtype, p, nonneg)
            }
            O::BitAnd | O::BitOr | O::BitXor => {
                if k > Kind::Int {
                    return self.err(&at, format!("`{sym}` is defined on integers and Bool, not {}", p.dtype.name()));
                }
                let op = match op {
                    O::BitAnd => Opcode::BAnd,
                    O::BitOr => Opcode::BOr,
                    _ => Opcode::BXor,
                };
                (op, p.dtype, p, nonneg)
            }
            O::LShift | O::RShift => {
                if k != Kind::Int {
                    return self.err(&at, format!("`{sym}` is defined on integers, not {}", p.dtype.name()));
                }
                let op = if op == O::LShift { Opcode::Shl } else { Opcode::Shr };
                (op, p.dtype, p, op == Opcode::Shr && l.nonneg())
            }
            O::MatMult => unreachable!(),
        };
        let (Some(a), Some(b)) = (self.materialize(&l, operand_dtype, &at), self.materialize(&r, operand_dtype, &at))
        else {
            return Val::Err;
        };
        let _ = operand_dtype;
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, &at)));
        let v = self.result(opcode, result.dtype, a, b);
        Val::Num { v, s: result, nonneg }
    }

    fn unary(&mut self, u: &ast::ExprUnaryOp) -> Val {
        let v = self.expr(&u.operand);
        // Literals fold (`-1` stays a literal, so `a[-1]` needs no wrap).
        if let Val::Lit { lit, s } = &v {
            let folded = match (u.op, lit) {
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
        let Some(mut s) = v.scalar() else {
            if matches!(v, Val::Err) {
                return Val::Err;
            }
            return self.err(u, "this operand has no scalar value");
        };
        self.at(u);
        // `-` and `~` of a Python bool are Python ints.
        let mut v = v;
        if s.dtype == DType::Bool && s.weak && matches!(u.op, ast::UnaryOp::USub | ast::UnaryOp::Invert) {
            let Some(x) = self.materialize(&v, DType::Int64, u) else { return Val::Err };
            s = Scalar::weak(DType::Int64);
            v = Val::Num { v: x, s, nonneg: true };
        }
        match u.op {
            ast::UnaryOp::UAdd => {
                if kind(s.dtype) > Kind::Complex || s.dtype == DType::Bool {
                    return self.err(u, format!("unary `+` is not defined on {}", s.dtype.name()));
                }
                v
            }
            ast::UnaryOp::USub => {
                if !matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) {
                    return self.err(u, format!("unary `-` is not defined on {}", s.dtype.name()));
                }
                let Some(x) = self.materialize(&v, s.dtype, u) else { return Val::Err };
                let n = self.fresh("neg");
                let ty = self.scalar_ty(s.dtype);
                Val::Num { v: self.b.unary(Opcode::Neg, ty, x, &n), s, nonneg: false }
            }
            ast::UnaryOp::Not => {
                let Some(c) = self.truth(v, &u.operand) else { return Val::Err };
                let n = self.fresh("not");
                Val::Num {
                    v: self.b.unary(Opcode::Not, TypeId::BOOL, c, &n),
                    s: Scalar::strong(DType::Bool),
                    nonneg: true,
                }
            }
            ast::UnaryOp::Invert => {
                let Some(x) = self.materialize(&v, s.dtype, u) else { return Val::Err };
                let n = self.fresh("inv");
                match kind(s.dtype) {
                    Kind::Bool => Val::Num { v: self.b.unary(Opcode::Not, TypeId::BOOL, x, &n), s, nonneg: true },
                    Kind::Int => {
                        let ty = self.scalar_ty(s.dtype);
                        Val::Num { v: self.b.unary(Opcode::Inv, ty, x, &n), s, nonneg: false }
                    }
                    _ => self.err(u, format!("`~` is defined on integers, not {}", s.dtype.name())),
                }
            }
        }
    }

    /// Joins branches that each assign a hidden local, read at `join`.
    fn bool_op(&mut self, b: &ast::ExprBoolOp) -> Val {
        let is_and = matches!(b.op, ast::BoolOp::And);
        let word = if is_and { "and" } else { "or" };
        let first = self.expr(&b.values[0]);
        let Some(x) = self.bool_operand(first, &b.values[0], word) else { return Val::Err };
        self.at(b);
        let rn = self.fresh(word);
        let res = self.b.let_(TypeId::BOOL, x, &rn);
        let join = self.block(&format!("{word}.end"));
        for operand in &b.values[1..] {
            let next = self.block(word);
            if is_and {
                self.b.condbr(res, next, join, None);
            } else {
                self.b.condbr(res, join, next, None);
            }
            self.enter(next);
            let v = self.expr(operand);
            let Some(y) = self.bool_operand(v, operand, word) else {
                self.br(join);
                self.enter(join);
                return Val::Err;
            };
            self.b.set(res, y);
        }
        self.br(join);
        self.enter(join);
        Val::Num { v: res, s: Scalar::strong(DType::Bool), nonneg: true }
    }

    fn bool_operand(&mut self, v: Val, e: &Expr, word: &str) -> Option<ValueId> {
        match v.scalar() {
            Some(s) if s.dtype == DType::Bool => self.materialize(&v, DType::Bool, e),
            Some(s) => {
                self.err(
                    e,
                    format!("`{word}` takes Bool operands, not {}: compare explicitly (`x != 0`)", s.dtype.name()),
                );
                None
            }
            None => {
                if !matches!(v, Val::Err) {
                    self.err(e, format!("`{word}` takes Bool operands"));
                }
                None
            }
        }
    }

    fn compare_pair(&mut self, op: ast::CmpOp, l: &Val, r: &Val, at: TextRange) -> Option<ValueId> {
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
                self.err(&at, "only scalars can be compared");
            }
            return None;
        };
        let Some(mut p) = promote(ls, rs) else {
            self.err(&at, format!("cannot compare {} with {}", ls.dtype.name(), rs.dtype.name()));
            return None;
        };
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
                let lit_left = matches!(l, Val::Lit { .. });
                let left_smaller = lit_left;
                let truth = match opcode {
                    Opcode::Eq => false,
                    Opcode::Ne => true,
                    Opcode::Lt | Opcode::Le => left_smaller,
                    _ => !left_smaller,
                };
                let n = self.fresh("cmp");
                return Some(self.b.const_(TypeId::BOOL, Literal::Bool(truth), &n));
            }
        }
        if p.dtype.is_complex() && !matches!(opcode, Opcode::Eq | Opcode::Ne) {
            self.err(
                &at,
                format!("complex numbers are not ordered: `{}` is not defined on {}", op.as_str(), p.dtype.name()),
            );
            return None;
        }
        let a = self.materialize(l, p.dtype, &at)?;
        let b = self.materialize(r, p.dtype, &at)?;
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, &at)));
        Some(self.result(opcode, DType::Bool, a, b))
    }

    fn compare(&mut self, c: &ast::ExprCompare) -> Val {
        for op in c.ops.iter() {
            match op {
                ast::CmpOp::Is | ast::CmpOp::IsNot => {
                    return self.err(c, "`is` is not supported: compare values with `==`")
                }
                ast::CmpOp::In | ast::CmpOp::NotIn => return self.err(c, "`in` is not supported"),
                _ => {}
            }
        }
        let mut lhs = self.expr(&c.left);
        if c.ops.len() == 1 {
            let r = self.expr(&c.comparators[0]);
            // Comparing Python scalars gives a Python bool.
            let weak = lhs.scalar().is_some_and(|s| s.weak) && r.scalar().is_some_and(|s| s.weak);
            return match self.compare_pair(c.ops[0], &lhs, &r, c.range) {
                Some(v) => Val::Num { v, s: Scalar { dtype: DType::Bool, weak }, nonneg: true },
                None => Val::Err,
            };
        }
        // `a < b < c`: `b` once, and `c` only when `a < b`.
        let join = self.block("cmp.end");
        let mut res = None;
        for (i, (op, comp)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
            let r = self.expr(comp);
            let Some(v) = self.compare_pair(*op, &lhs, &r, c.range) else {
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
            if i + 1 < c.ops.len() {
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

    fn ternary(&mut self, i: &ast::ExprIf) -> Val {
        let Some(c) = self.cond(&i.test) else { return Val::Err };
        if is_pure(&i.body) && is_pure(&i.orelse) {
            let t = self.expr(&i.body);
            let f = self.expr(&i.orelse);
            let (Some(ts), Some(fs)) = (t.scalar(), f.scalar()) else {
                if !matches!(t, Val::Err) && !matches!(f, Val::Err) {
                    self.err(i, "both arms of a conditional expression must be scalars");
                }
                return Val::Err;
            };
            let Some(p) = promote(ts, fs) else {
                return self
                    .err(i, format!("the arms have incompatible types {} and {}", ts.dtype.name(), fs.dtype.name()));
            };
            let (Some(a), Some(b)) =
                (self.materialize(&t, p.dtype, &*i.body), self.materialize(&f, p.dtype, &*i.orelse))
            else {
                return Val::Err;
            };
            self.at(i);
            let n = self.fresh("sel");
            let ty = self.scalar_ty(p.dtype);
            let nonneg = t.nonneg() && f.nonneg();
            return Val::Num { v: self.b.select(ty, c, a, b, &n), s: p, nonneg };
        }
        // Arms with effects (calls, indexing that may panic) run only when
        // taken. Their common type is known once both are lowered, so the
        // branch and the result's `let` go into the block before them last
        // (the builder appends to any block).
        let Some(pre) = self.b.current_block() else { return Val::Err };
        let then_b = self.block("ifx.then");
        let else_b = self.block("ifx.else");
        let join = self.block("ifx.end");
        self.enter(then_b);
        let t = self.expr(&i.body);
        let then_end = self.b.current_block();
        self.enter(else_b);
        let f = self.expr(&i.orelse);
        let else_end = self.b.current_block();
        let common = match (t.scalar(), f.scalar()) {
            (Some(ts), Some(fs)) => match promote(ts, fs) {
                Some(p) => Some(p),
                None => {
                    self.err(
                        i,
                        format!("the arms have incompatible types {} and {}", ts.dtype.name(), fs.dtype.name()),
                    );
                    None
                }
            },
            _ => {
                if !matches!(t, Val::Err) && !matches!(f, Val::Err) {
                    self.err(i, "both arms of a conditional expression must be scalars");
                }
                None
            }
        };
        self.b.switch_to(pre);
        self.at(i);
        let res = common.map(|p| {
            let z = self.zero(p.dtype);
            let n = self.fresh("ifx");
            let ty = self.scalar_ty(p.dtype);
            self.b.let_(ty, z, &n)
        });
        self.b.condbr(c, then_b, else_b, None);
        for (end, v, e) in [(then_end, &t, &*i.body), (else_end, &f, &*i.orelse)] {
            let Some(end) = end else { continue };
            self.b.switch_to(end);
            self.open = true;
            if let (Some(p), Some(res)) = (common, res) {
                if let Some(x) = self.materialize(v, p.dtype, e) {
                    self.b.set(res, x);
                }
            }
            self.br(join);
        }
        self.enter(join);
        match (common, res) {
            (Some(p), Some(res)) => Val::Num { v: res, s: p, nonneg: t.nonneg() && f.nonneg() },
            _ => Val::Err,
        }
    }

    fn attribute(&mut self, a: &ast::ExprAttribute) -> Val {
        let attr = a.attr.id.as_str();
        if let Some(reg) = self.gpu_register(&a.value) {
            let Some(axis) = postc_ir::builtins::Axis::ALL.iter().find(|x| x.name() == attr) else {
                return self.err(&a.attr, format!("`{}` has the axes `x`, `y` and `z`", reg.name()));
            };
            if !self.decl.attrs.contains(postc_ir::FuncAttrs::KERNEL) {
                return self.err(a, format!("`{}` is read in `@kernel` functions only", reg.name()));
            }
            self.at(a);
            let n = self.fresh(reg.name());
            let callee = postc_ir::builtins::gpu_builtin_name(reg, *axis);
            let v = self.b.call(&callee, &[], Some(TypeId::INT64), &n);
            return Val::Num { v, s: Scalar::weak(DType::Int64), nonneg: true };
        }
        // `postc.math.pi` and friends.
        if let Some(ns) = self.namespace_of(&a.value) {
            if ns == Namespace::PostcMath {
                if let Some((_, v)) = MATH_CONSTANTS.iter().find(|(n, _)| *n == attr) {
                    return Val::Lit { lit: Lit::Float(*v), s: Scalar::weak(DType::Float64) };
                }
            }
            return self
                .err(a, format!("`{}` is not a value", dotted(&Expr::Attribute(a.clone())).unwrap_or_default()));
        }
        let v = self.expr(&a.value);
        match (&v, attr) {
            (Val::Err, _) => Val::Err,
            (Val::Arr { ty, .. }, "ndim") => match ty.ndim() {
                Some(n) => Val::Lit { lit: Lit::Int(n as i128), s: Scalar::weak(DType::Int64) },
                None => self.err(a, "the number of axes of this array is not known"),
            },
            (Val::Arr { v: av, ty }, "size") => {
                let Some(n) = ty.ndim() else { return self.err(a, "the number of axes of this array is not known") };
                self.at(a);
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
            (Val::Arr { .. }, "shape") => self.err(a, "`shape` is read one axis at a time: `a.shape[k]`"),
            (Val::Arr { .. }, other) => {
                self.err(&a.attr, format!("arrays have no attribute `{other}` in compiled code"))
            }
            (_, "real" | "imag") => {
                let Some(s) = v.scalar() else { return self.err(a, "`real` and `imag` are read from numbers") };
                if s.dtype.is_text() {
                    return self.err(&a.attr, format!("{} has no attribute `{attr}`", s.dtype.name()));
                }
                match s.dtype.complex_part() {
                    Some(part) => {
                        let Some(x) = self.materialize(&v, s.dtype, a) else { return Val::Err };
                        self.at(a);
                        let n = self.fresh(attr);
                        let field = if attr == "real" { Field::Real } else { Field::Imag };
                        let ty = self.scalar_ty(part);
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
            (_, other) => self.err(&a.attr, format!("no attribute `{other}` on this value in compiled code")),
        }
    }

    fn gpu_register(&self, e: &Expr) -> Option<postc_ir::builtins::GpuReg> {
        match e {
            Expr::Name(n) if !self.locals.contains_key(n.id.as_str()) => match self.cx.globals.get(n.id.as_str()) {
                Some(Global::GpuRegister(r)) => Some(*r),
                _ => None,
            },
            Expr::Attribute(a) if self.namespace_of(&a.value) == Some(Namespace::Postc) => {
                postc_ir::builtins::GpuReg::ALL.iter().copied().find(|r| r.name() == a.attr.id.as_str())
            }
            _ => None,
        }
    }

    fn namespace_of(&self, e: &Expr) -> Option<Namespace> {
        match e {
            Expr::Name(n) if !self.locals.contains_key(n.id.as_str()) => match self.cx.globals.get(n.id.as_str()) {
                Some(Global::Namespace(ns)) => Some(*ns),
                _ => None,
            },
            Expr::Attribute(a) if a.attr.id.as_str() == "math" => {
                (self.namespace_of(&a.value) == Some(Namespace::Postc)).then_some(Namespace::PostcMath)
            }
            _ => None,
        }
    }

    fn subscript(&mut self, s: &ast::ExprSubscript) -> Val {
        // `a.shape[k]`.
        if let Expr::Attribute(attr) = &*s.value {
            if attr.attr.id.as_str() == "shape" {
                let arr = self.expr(&attr.value);
                let Val::Arr { v, ty } = arr else {
                    if matches!(arr, Val::Err) {
                        return Val::Err;
                    }
                    return self.err(&*attr.value, "`shape` is an attribute of arrays");
                };
                let Some(Ok(Lit::Int(k))) = literal(&s.slice).or_else(|| match &*s.slice {
                    Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub) => {
                        literal(&u.operand).map(|r| r.map(|l| if let Lit::Int(i) = l { Lit::Int(-i) } else { l }))
                    }
                    _ => None,
                }) else {
                    return self.err(&*s.slice, "`shape` takes a constant axis such as `a.shape[0]`");
                };
                let nd = ty.ndim().unwrap_or(usize::MAX) as i128;
                let axis = if k < 0 { k + nd } else { k };
                if axis < 0 || axis >= nd {
                    return self.err(&*s.slice, format!("axis {k} is out of range for a {nd}-D array"));
                }
                self.at(s);
                let n = self.fresh("dim");
                return Val::Num { v: self.b.dim(v, axis as u32, &n), s: Scalar::weak(DType::Int64), nonneg: true };
            }
        }
        let Some((arr, idx)) = self.element(s, false) else { return Val::Err };
        self.load(&arr, &idx, s.range)
    }

    /// The array and element indices of `a[i, j]`, each index wrapped when it
    /// may be negative.
    fn element(&mut self, s: &ast::ExprSubscript, store: bool) -> Option<((ValueId, TypeData), Vec<ValueId>)> {
        let arr = self.expr(&s.value);
        let (av, ty) = match arr {
            Val::Arr { v, ty } => (v, ty),
            Val::Err => return None,
            Val::Lit { s: sc, .. } | Val::Num { s: sc, .. } => {
                self.err(&*s.value, format!("{} is a scalar and cannot be indexed", sc.dtype.name()));
                return None;
            }
            Val::Void => {
                self.err(&*s.value, "this call returns nothing");
                return None;
            }
        };
        if store && !ty.is_output && self.is_param_array(&s.value) {
            let name = dotted(&s.value).unwrap_or_default();
            self.err(
                &*s.value,
                format!("`{name}` is an input array and cannot be written: mark the parameter `Out[...]`"),
            );
            return None;
        }
        let index_exprs: Vec<&Expr> = match &*s.slice {
            Expr::Tuple(t) => t.elts.iter().collect(),
            e => vec![e],
        };
        if let Some(nd) = ty.ndim() {
            if index_exprs.len() != nd {
                let n = index_exprs.len();
                self.err(
                    &*s.slice,
                    format!("{nd}-D array indexed with {n} {}", if n == 1 { "index" } else { "indices" }),
                );
                return None;
            }
        }
        let mut idx = Vec::new();
        for (axis, ie) in index_exprs.iter().enumerate() {
            if let Expr::Slice(_) = ie {
                self.err(*ie, "slicing is not supported: index one element per axis");
                return None;
            }
            let v = self.expr(ie);
            let sc = match v.scalar() {
                Some(sc) if kind(sc.dtype) == Kind::Int => sc,
                Some(sc) => {
                    self.err(*ie, format!("an index is an integer, not {}", sc.dtype.name()));
                    return None;
                }
                None => {
                    if !matches!(v, Val::Err) {
                        self.err(*ie, "an index is an integer");
                    }
                    return None;
                }
            };
            let _ = sc;
            let nonneg = v.nonneg();
            let x = self.materialize(&v, DType::Int64, *ie)?;
            if nonneg {
                idx.push(x);
                continue;
            }
            // A negative index counts from the end, as in NumPy.
            self.at(*ie);
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
        Some(((av, ty), idx))
    }

    fn is_param_array(&self, e: &Expr) -> bool {
        matches!(e, Expr::Name(n) if self.locals.get(n.id.as_str()).is_some_and(|l| l.param))
    }

    fn load(&mut self, arr: &(ValueId, TypeData), idx: &[ValueId], at: TextRange) -> Val {
        self.b.set_loc(Some(self.cx.src.loc(self.cx.file, &at)));
        let n = self.fresh("el");
        let ty = self.scalar_ty(arr.1.dtype);
        let v = self.b.index_load(ty, arr.0, idx, &n);
        Val::Num { v, s: Scalar::strong(arr.1.dtype), nonneg: false }
    }

    fn store(&mut self, arr: &(ValueId, TypeData), idx: &[ValueId], v: Val, at: &Expr) {
        let d = arr.1.dtype;
        match v.scalar() {
            Some(s)
                if s.dtype.is_text() != d.is_text()
                    || (d.is_text() && s.dtype != d)
                    || (s.dtype.is_complex() && !d.is_complex()) =>
            {
                self.err(at, format!("cannot store {} in an array of {}", s.dtype.name(), d.name()));
                return;
            }
            Some(_) => {}
            None => {
                if !matches!(v, Val::Err) {
                    self.err(at, "only a scalar can be stored in an array element");
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

    fn target_of(&self, f: &Expr) -> Option<Target> {
        match f {
            Expr::Name(n) => {
                let name = n.id.as_str();
                if self.locals.contains_key(name) {
                    return None;
                }
                match self.cx.globals.get(name) {
                    Some(g) => self.global_target(name, g),
                    None => python_scalar(name)
                        .map(|dtype| Target::Cast { dtype, weak: true })
                        .or_else(|| builtin(name).map(Target::Builtin)),
                }
            }
            Expr::Attribute(a) => {
                let attr = a.attr.id.as_str();
                if attr == "conjugate" {
                    return Some(Target::Conjugate(a.value.clone()));
                }
                match self.namespace_of(&a.value) {
                    Some(Namespace::PostcMath) => {
                        if postc_ir::interp::is_known_intrinsic(attr) {
                            Some(Target::Intrinsic(attr.to_owned()))
                        } else {
                            None
                        }
                    }
                    Some(Namespace::Postyp) => DType::from_name(attr).map(|dtype| Target::Cast { dtype, weak: false }),
                    Some(Namespace::Postc) => (attr == "empty").then_some(Target::Empty),
                    None => match &*a.value {
                        Expr::Name(n) => match self.cx.globals.get(n.id.as_str()) {
                            Some(Global::BoundaryModule(m)) => Some(Target::Boundary(format!("{m}.{attr}"))),
                            _ => None,
                        },
                        _ => None,
                    },
                }
            }
            _ => None,
        }
    }

    fn global_target(&self, name: &str, g: &Global) -> Option<Target> {
        match g {
            Global::Func(i) => {
                let d = &self.cx.funcs[*i];
                // The types live in this module's table.
                Some(Target::Func(Callee {
                    name: d.name.clone(),
                    params: d.params.iter().map(|(_, t)| self.types.get(*t).clone()).collect(),
                    ret: d.ret.map(|t| self.types.get(t).clone()),
                }))
            }
            Global::Intrinsic { local } => {
                Some(Target::Intrinsic(self.cx.intrinsics.get(local).cloned().unwrap_or_else(|| local.clone())))
            }
            Global::PostImport { local } => {
                let (module, source) = self.cx.post_imports.get(local)?;
                let m = self.cx.program.modules.iter().find(|m| &m.name == module)?;
                let mut fname = source.clone();
                for _ in 0..8 {
                    match m.function_aliases.get(&fname) {
                        Some(t) => fname = t.clone(),
                        None => break,
                    }
                }
                let f = m.functions.iter().find(|f| f.name == fname)?;
                let params = f.params().map(|p| m.types.get(f.body.ty(p).expect("typed param")).clone()).collect();
                let ret = f.ret.map(|t| m.types.get(t).clone());
                Some(Target::Func(Callee { name: local.clone(), params, ret }))
            }
            Global::Type(t) => Some(Target::Cast { dtype: *t, weak: false }),
            Global::Empty => Some(Target::Empty),
            Global::GpuBuiltin(g) => Some(Target::Gpu(*g)),
            Global::Alias(t) => {
                let g = self.cx.globals.get(t)?;
                if matches!(g, Global::Alias(_)) && t == name {
                    return None;
                }
                self.global_target(t, g)
            }
            Global::Boundary { module, name } => Some(Target::Boundary(format!("{module}.{name}"))),
            _ => None,
        }
    }

    fn call(&mut self, c: &ast::ExprCall, statement: bool) -> Val {
        let _ = statement;
        if let Expr::Name(n) = &*c.func {
            let quiet = match self.locals.get(n.id.as_str()) {
                Some(l) => l.poisoned,
                None => match self.cx.globals.get(n.id.as_str()) {
                    Some(Global::Broken) => true,
                    // A missing name of a POST module is reported once, at the import.
                    Some(Global::PostImport { .. }) => self.target_of(&c.func).is_none(),
                    _ => false,
                },
            };
            if quiet {
                for a in c.arguments.args.iter() {
                    self.expr(a);
                }
                return Val::Err;
            }
        }
        let Some(target) = self.target_of(&c.func) else {
            // The arguments may hold errors of their own.
            for a in c.arguments.args.iter() {
                self.expr(a);
            }
            let shown = dotted(&c.func).unwrap_or_else(|| construct_name(&c.func).to_owned());
            if let Expr::Name(n) = &*c.func {
                if self.locals.contains_key(n.id.as_str()) {
                    return self.err(&*c.func, format!("`{shown}` is a variable, not a function"));
                }
                if self.cx.globals.get(n.id.as_str()).is_none() {
                    return self.err(&*c.func, format!("undefined function `{shown}`"));
                }
            }
            if let Expr::Attribute(a) = &*c.func {
                if self.namespace_of(&a.value) == Some(Namespace::PostcMath) {
                    return self.err(&a.attr, format!("`postc.math` has no function `{}`", a.attr.id));
                }
            }
            return self.err(&*c.func, format!("`{shown}` cannot be called from compiled code"));
        };
        if let Some(k) = c.arguments.keywords.first() {
            return self.err(k, "keyword arguments are not supported in compiled code: pass arguments by position");
        }
        if let Some(s) = c.arguments.args.iter().find(|a| matches!(a, Expr::Starred(_))) {
            return self.err(s, "`*` arguments are not supported");
        }
        let args = &c.arguments.args;
        match target {
            Target::Boundary(what) => {
                self.err(&*c.func, format!("`{what}` is a CPython function and cannot be called from compiled code"))
            }
            Target::Builtin(Builtin::Range) => self.err(c, "`range` is only used as the iterable of a `for` loop"),
            Target::Builtin(Builtin::Print) => self.err(c, "`print` is not supported in compiled code"),
            Target::Builtin(b) => self.call_builtin(b, c),
            Target::Gpu(g) => self.gpu_builtin(g, c),
            Target::Cast { dtype, weak } => self.cast_call(dtype, weak, c),
            Target::Empty => {
                if args.len() != 2 {
                    return self.err(c, "`empty` takes a length and a dtype: `empty(n, Float64)`");
                }
                let n = self.expr(&args[0]);
                let Some(dt) = (match self.target_of(&args[1]) {
                    Some(Target::Cast { dtype, .. }) if !dtype.is_text() => Some(dtype),
                    _ => None,
                }) else {
                    return self.err(&args[1], "`empty` takes a numeric dtype such as `Float64`");
                };
                match n.scalar() {
                    Some(s) if kind(s.dtype) == Kind::Int => {}
                    _ => {
                        if !matches!(n, Val::Err) {
                            self.err(&args[0], "the length of `empty` is an integer");
                        }
                        return Val::Err;
                    }
                }
                let Some(len) = self.materialize(&n, DType::Int64, &args[0]) else { return Val::Err };
                // A constant length is a static extent (the array can be
                // passed where `Float64[3]` is expected).
                let extent = match &n {
                    Val::Lit { lit: Lit::Int(i), .. } if *i >= 0 => Some(*i as u64),
                    _ => None,
                };
                let ty = TypeData::array(dt, postc_ir::Shape::dims(&[extent]), postc_ir::Layout::COrder);
                let tid = self.types.intern(ty.clone());
                self.at(c);
                let nm = self.fresh("buf");
                Val::Arr { v: self.b.alloc(tid, len, &nm), ty }
            }
            Target::Conjugate(base) => {
                if !args.is_empty() {
                    return self.err(c, "`conjugate` takes no arguments");
                }
                let v = self.expr(&base);
                let Some(s) = v.scalar() else {
                    return if matches!(v, Val::Err) {
                        Val::Err
                    } else {
                        self.err(&*base, "`conjugate` is a method of numbers")
                    };
                };
                let Some(part) = s.dtype.complex_part() else {
                    if kind(s.dtype) <= Kind::Float {
                        return v;
                    }
                    return self.err(&*base, format!("{} has no `conjugate`", s.dtype.name()));
                };
                let Some(x) = self.materialize(&v, s.dtype, &*base) else { return Val::Err };
                self.at(c);
                let ty = self.scalar_ty(s.dtype);
                let pty = self.scalar_ty(part);
                let n = self.fresh("conj");
                let t = self.b.let_(ty, x, &n);
                let n = self.fresh("im");
                let im = self.b.getfield(pty, x, Field::Imag, &n);
                let n = self.fresh("neg");
                let nim = self.b.unary(Opcode::Neg, pty, im, &n);
                self.b.setfield(t, Field::Imag, nim);
                let n = self.fresh("conj");
                let out = self.b.let_(ty, t, &n);
                Val::Num { v: out, s, nonneg: false }
            }
            Target::Intrinsic(symbol) => {
                let local = self.intrinsic_local(&symbol, &c.func);
                let mut vals = Vec::new();
                for a in args.iter() {
                    vals.push((self.expr(a), a));
                }
                let mut common: Option<Scalar> = None;
                for (v, a) in &vals {
                    match v.scalar() {
                        Some(s) if kind(s.dtype) <= Kind::Float => {
                            common = Some(match common {
                                None => s,
                                Some(c) => promote(c, s).unwrap_or(s),
                            })
                        }
                        Some(s) => {
                            return self.err(*a, format!("`{symbol}` takes real numbers, not {}", s.dtype.name()))
                        }
                        None => {
                            return if matches!(v, Val::Err) {
                                Val::Err
                            } else {
                                self.err(*a, format!("`{symbol}` takes real numbers"))
                            }
                        }
                    }
                }
                let Some(common) = common else { return self.err(c, format!("`{symbol}` takes arguments")) };
                let d = if kind(common.dtype) == Kind::Float { common.dtype } else { DType::Float64 };
                let mut ids = Vec::new();
                for (v, a) in &vals {
                    let Some(x) = self.materialize(v, d, *a) else { return Val::Err };
                    ids.push(x);
                }
                self.at(c);
                let n = self.fresh(&symbol);
                let ty = self.scalar_ty(d);
                let v = self.b.call(&local, &ids, Some(ty), &n);
                Val::Num { v, s: Scalar { dtype: d, weak: common.weak }, nonneg: false }
            }
            Target::Func(callee) => {
                if args.len() != callee.params.len() {
                    return self.err(
                        c,
                        format!(
                            "`{}` takes {} argument{}, but {} {} given",
                            callee.name,
                            callee.params.len(),
                            if callee.params.len() == 1 { "" } else { "s" },
                            args.len(),
                            if args.len() == 1 { "was" } else { "were" }
                        ),
                    );
                }
                let mut ids = Vec::new();
                let mut bad = false;
                for (i, (a, p)) in args.iter().zip(&callee.params).enumerate() {
                    let v = self.expr(a);
                    if p.is_array {
                        match &v {
                            Val::Arr { v: av, ty } => {
                                if !array_fits(ty, p) {
                                    self.err(
                                        a,
                                        format!("argument {} of `{}` is {ty}, expected {p}", i + 1, callee.name),
                                    );
                                    bad = true;
                                } else if p.is_output && !ty.is_output && self.is_param_array(a) {
                                    self.err(
                                        a,
                                        format!(
                                            "argument {} of `{}` is written by it, but this array is an input",
                                            i + 1,
                                            callee.name
                                        ),
                                    );
                                    bad = true;
                                } else {
                                    ids.push(*av);
                                }
                            }
                            Val::Err => bad = true,
                            _ => {
                                self.err(a, format!("argument {} of `{}` is an array ({p})", i + 1, callee.name));
                                bad = true;
                            }
                        }
                        continue;
                    }
                    match v.scalar() {
                        Some(s) if widens_to(s, p.dtype) => match self.materialize(&v, p.dtype, a) {
                            Some(x) => ids.push(x),
                            None => bad = true,
                        },
                        Some(s) => {
                            self.err(
                                a,
                                format!(
                                    "argument {} of `{}` is {}, expected {} (cast explicitly)",
                                    i + 1,
                                    callee.name,
                                    s.dtype.name(),
                                    p.dtype.name()
                                ),
                            );
                            bad = true;
                        }
                        None => {
                            if !matches!(v, Val::Err) {
                                self.err(a, format!("argument {} of `{}` is a {}", i + 1, callee.name, p.dtype.name()));
                            }
                            bad = true;
                        }
                    }
                }
                if bad {
                    return Val::Err;
                }
                self.at(c);
                let ret_ty = callee.ret.as_ref().map(|t| self.types.intern(t.clone()));
                let n = self.fresh("r");
                let v = self.b.call(&callee.name, &ids, ret_ty, &n);
                match callee.ret {
                    None => Val::Void,
                    Some(t) if t.is_array => Val::Arr { v, ty: t },
                    Some(t) => Val::Num { v, s: Scalar::strong(t.dtype), nonneg: false },
                }
            }
        }
    }

    /// The local name an intrinsic is called by: its import, or for
    /// `postc.math.f(...)` an import this call adds.
    fn intrinsic_local(&mut self, symbol: &str, func: &Expr) -> String {
        if let Expr::Name(n) = func {
            return n.id.to_string();
        }
        let _ = symbol;
        format!("math.{symbol}")
    }

    fn call_builtin(&mut self, b: Builtin, c: &ast::ExprCall) -> Val {
        let args = &c.arguments.args;
        match b {
            Builtin::Len => {
                if args.len() != 1 {
                    return self.err(c, "`len` takes one argument");
                }
                let v = self.expr(&args[0]);
                match v {
                    Val::Arr { v: av, ty } => {
                        if ty.ndim() == Some(0) {
                            return self.err(&args[0], "`len` of a 0-D array");
                        }
                        self.at(c);
                        let n = self.fresh("len");
                        Val::Num { v: self.b.dim(av, 0, &n), s: Scalar::weak(DType::Int64), nonneg: true }
                    }
                    Val::Lit { lit: Lit::Str(s), .. } => {
                        Val::Lit { lit: Lit::Int(s.chars().count() as i128), s: Scalar::weak(DType::Int64) }
                    }
                    Val::Lit { lit: Lit::Bytes(b), .. } => {
                        Val::Lit { lit: Lit::Int(b.len() as i128), s: Scalar::weak(DType::Int64) }
                    }
                    Val::Num { v: x, s, .. } if s.dtype.is_text() => {
                        self.at(c);
                        let n = self.fresh("len");
                        Val::Num {
                            v: self.b.getfield(TypeId::INT64, x, Field::Len, &n),
                            s: Scalar::weak(DType::Int64),
                            nonneg: true,
                        }
                    }
                    Val::Err => Val::Err,
                    other => {
                        let what = other.scalar().map_or("this value", |s| s.dtype.name());
                        self.err(&args[0], format!("`len` takes an array, not {what}"))
                    }
                }
            }
            Builtin::Abs => {
                if args.len() != 1 {
                    return self.err(c, "`abs` takes one argument");
                }
                let v = self.expr(&args[0]);
                match (&v, v.scalar()) {
                    (Val::Lit { lit: Lit::Int(i), s }, _) => Val::Lit { lit: Lit::Int(i.abs()), s: *s },
                    // NumPy's absolute value of a Bool is itself.
                    (_, Some(s)) if s.dtype == DType::Bool => v,
                    (Val::Lit { lit: Lit::Float(x), s }, _) => Val::Lit { lit: Lit::Float(x.abs()), s: *s },
                    (_, Some(s)) if matches!(kind(s.dtype), Kind::Int | Kind::Float | Kind::Complex) => {
                        let Some(x) = self.materialize(&v, s.dtype, &args[0]) else { return Val::Err };
                        let rd = s.dtype.complex_part().unwrap_or(s.dtype);
                        self.at(c);
                        let n = self.fresh("abs");
                        let ty = self.scalar_ty(rd);
                        Val::Num {
                            v: self.b.unary(Opcode::Abs, ty, x, &n),
                            s: Scalar { dtype: rd, weak: s.weak },
                            nonneg: kind(rd) == Kind::Float,
                        }
                    }
                    (_, Some(s)) => self.err(&args[0], format!("`abs` is not defined on {}", s.dtype.name())),
                    _ => {
                        if matches!(v, Val::Err) {
                            Val::Err
                        } else {
                            self.err(&args[0], "`abs` takes a number")
                        }
                    }
                }
            }
            Builtin::Min | Builtin::Max => {
                let word = if b == Builtin::Min { "min" } else { "max" };
                if args.len() < 2 {
                    return self.err(c, format!("`{word}` takes two or more numbers (iterables are not supported)"));
                }
                let vals: Vec<(Val, &Expr)> = args.iter().map(|a| (self.expr(a), a)).collect();
                let mut p: Option<Scalar> = None;
                for (v, a) in &vals {
                    match v.scalar() {
                        Some(s) if kind(s.dtype) <= Kind::Float || s.dtype.is_text() => {
                            p = match p {
                                None => Some(s),
                                Some(q) => match promote(q, s) {
                                    Some(r) => Some(r),
                                    None => {
                                        return self
                                            .err(*a, format!("`{word}` of {} and {}", q.dtype.name(), s.dtype.name()))
                                    }
                                },
                            }
                        }
                        Some(s) => return self.err(*a, format!("`{word}` is not defined on {}", s.dtype.name())),
                        None => {
                            return if matches!(v, Val::Err) {
                                Val::Err
                            } else {
                                self.err(*a, format!("`{word}` takes numbers"))
                            };
                        }
                    }
                }
                let p = p.expect("two arguments");
                // Python keeps the first of equal values: `b < a` replaces.
                let mut acc = match self.materialize(&vals[0].0, p.dtype, vals[0].1) {
                    Some(x) => x,
                    None => return Val::Err,
                };
                let mut nonneg = vals[0].0.nonneg();
                for (v, a) in &vals[1..] {
                    let Some(x) = self.materialize(v, p.dtype, *a) else { return Val::Err };
                    self.at(c);
                    let op = if b == Builtin::Min { Opcode::Lt } else { Opcode::Gt };
                    let better = self.result(op, DType::Bool, x, acc);
                    let n = self.fresh(word);
                    let ty = self.scalar_ty(p.dtype);
                    acc = self.b.select(ty, better, x, acc, &n);
                    nonneg = if b == Builtin::Min { nonneg && v.nonneg() } else { nonneg || v.nonneg() };
                }
                Val::Num { v: acc, s: p, nonneg }
            }
            Builtin::Range | Builtin::Print => unreachable!("handled by the caller"),
        }
    }

    /// `shared(Float32[16, 16])`, `sync_threads()`, `atomic_add(a, i, ..., v)`.
    fn gpu_builtin(&mut self, g: GpuBuiltin, c: &ast::ExprCall) -> Val {
        let args = &c.arguments.args;
        let name = g.python_name();
        if !self.decl.attrs.contains(postc_ir::FuncAttrs::KERNEL) {
            return self.err(&*c.func, format!("`{name}` is available in `@kernel` functions only"));
        }
        match g {
            GpuBuiltin::SyncThreads => {
                if !args.is_empty() {
                    return self.err(c, "`sync_threads` takes no arguments");
                }
                self.at(c);
                self.b.call(g.ir_name(), &[], None, "");
                Val::Void
            }
            GpuBuiltin::Shared => {
                let [ann] = &args[..] else {
                    return self
                        .err(c, "`shared` takes the array's type with static extents: `shared(Float32[16, 16])`");
                };
                let Some(ty) = self.static_array_type(ann) else { return Val::Err };
                if let Err(e) = postc_ir::builtins::shared_bytes(&ty) {
                    return self.err(ann, e);
                }
                let tid = self.types.intern(ty.clone());
                self.at(c);
                let n = self.fresh("shared");
                Val::Arr { v: self.b.call(g.ir_name(), &[], Some(tid), &n), ty }
            }
            GpuBuiltin::AtomicAdd => {
                let Some((first, rest)) = args.split_first() else {
                    return self.err(c, "`atomic_add` takes an array, one index per axis and a value");
                };
                let arr = self.expr(first);
                let (av, ty) = match arr {
                    Val::Arr { v, ty } => (v, ty),
                    Val::Err => return Val::Err,
                    _ => return self.err(first, "the first argument of `atomic_add` is an array"),
                };
                if !postc_ir::builtins::atomic_dtype(ty.dtype) {
                    return self.err(
                        first,
                        format!(
                            "`atomic_add` takes arrays of Int32, UInt32, Int64, UInt64, Float32 or Float64, not {}",
                            ty.dtype.name()
                        ),
                    );
                }
                let nd = ty.ndim().unwrap_or(0);
                if rest.len() != nd + 1 {
                    return self.err(
                        c,
                        format!(
                            "`atomic_add` on a {nd}-D array takes {nd} {} and a value",
                            if nd == 1 { "index" } else { "indices" }
                        ),
                    );
                }
                let mut ids = vec![av];
                for ie in &rest[..nd] {
                    let v = self.expr(ie);
                    match v.scalar() {
                        Some(s) if kind(s.dtype) == Kind::Int => {}
                        _ => {
                            if !matches!(v, Val::Err) {
                                self.err(ie, "an index is an integer");
                            }
                            return Val::Err;
                        }
                    }
                    let Some(x) = self.materialize(&v, DType::Int64, ie) else { return Val::Err };
                    ids.push(x);
                }
                let value_at = &rest[nd];
                let v = self.expr(value_at);
                match v.scalar() {
                    Some(s) if widens_to(s, ty.dtype) => {}
                    Some(s) => {
                        return self.err(
                            value_at,
                            format!(
                                "`atomic_add` adds {} to an array of {} (cast explicitly)",
                                s.dtype.name(),
                                ty.dtype.name()
                            ),
                        )
                    }
                    None => {
                        return if matches!(v, Val::Err) {
                            Val::Err
                        } else {
                            self.err(value_at, "`atomic_add` adds a number")
                        }
                    }
                }
                let Some(x) = self.materialize(&v, ty.dtype, value_at) else { return Val::Err };
                ids.push(x);
                self.at(c);
                let n = self.fresh("old");
                let rt = self.scalar_ty(ty.dtype);
                Val::Num { v: self.b.call(g.ir_name(), &ids, Some(rt), &n), s: Scalar::strong(ty.dtype), nonneg: false }
            }
        }
    }

    /// `Float32[16, 16]`: an array type with static extents, C order.
    fn static_array_type(&mut self, e: &Expr) -> Option<TypeData> {
        let bad = "`shared` takes the array's type with static extents: `shared(Float32[16, 16])`";
        let Expr::Subscript(s) = e else {
            self.err(e, bad);
            return None;
        };
        let dtype = match self.target_of(&s.value) {
            Some(Target::Cast { dtype, .. }) => dtype,
            _ => {
                self.err(&*s.value, bad);
                return None;
            }
        };
        let items: Vec<&Expr> = match &*s.slice {
            Expr::Tuple(t) => t.elts.iter().collect(),
            x => vec![x],
        };
        let mut dims = Vec::new();
        for it in items {
            match literal(it) {
                Some(Ok(Lit::Int(n))) if n > 0 => dims.push(Some(n as u64)),
                _ => {
                    self.err(it, "an extent of a shared array is a positive integer literal");
                    return None;
                }
            }
        }
        Some(TypeData::array(dtype, postc_ir::Shape::dims(&dims), postc_ir::Layout::COrder))
    }

    fn cast_call(&mut self, dtype: DType, weak: bool, c: &ast::ExprCall) -> Val {
        let args = &c.arguments.args;
        let name = dotted(&c.func).unwrap_or_default();
        if dtype == DType::Complex128 && weak && args.len() == 2 {
            // complex(re, im)
            let re = self.expr(&args[0]);
            let im = self.expr(&args[1]);
            for (v, a) in [(&re, &args[0]), (&im, &args[1])] {
                match v.scalar() {
                    Some(s) if kind(s.dtype) <= Kind::Float => {}
                    Some(s) => return self.err(a, format!("`complex` takes real parts, not {}", s.dtype.name())),
                    None => {
                        return if matches!(v, Val::Err) { Val::Err } else { self.err(a, "`complex` takes numbers") }
                    }
                }
            }
            let (Some(r), Some(i)) =
                (self.materialize(&re, DType::Float64, &args[0]), self.materialize(&im, DType::Float64, &args[1]))
            else {
                return Val::Err;
            };
            self.at(c);
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
            return self.err(c, format!("`{name}` takes one argument"));
        }
        let v = self.expr(&args[0]);
        let result = Scalar { dtype, weak };
        match (&v, v.scalar()) {
            (Val::Err, _) => Val::Err,
            (Val::Lit { lit, .. }, _) => {
                // A literal converts at compile time; CPython would raise
                // for a value out of range.
                let lit = match (lit, kind(dtype)) {
                    (Lit::Float(x), Kind::Int) => {
                        if !x.is_finite() {
                            return self.err(&args[0], format!("{x} cannot be converted to {}", dtype.name()));
                        }
                        Lit::Int(x.trunc() as i128)
                    }
                    (Lit::Complex(..), k) if k < Kind::Complex => {
                        return self.err(&args[0], format!("a complex number cannot be converted to {}", dtype.name()));
                    }
                    (Lit::Str(_) | Lit::Bytes(_), _) | (_, Kind::Text) => {
                        return self.err(c, format!("`{name}` of {} is not supported", lit.default_dtype().name()));
                    }
                    (l, Kind::Bool) => Lit::Bool(match l {
                        Lit::Bool(b) => *b,
                        Lit::Int(i) => *i != 0,
                        Lit::Float(x) => *x != 0.0,
                        Lit::Complex(a, b) => *a != 0.0 || *b != 0.0,
                        _ => false,
                    }),
                    (l, _) => l.clone(),
                };
                if lit.convert(dtype).is_none() {
                    return self.err(&args[0], format!("the value is out of range for {}", dtype.name()));
                }
                Val::Lit { lit, s: result }
            }
            (_, Some(s)) if s.dtype.is_text() || dtype.is_text() => {
                if s.dtype == dtype {
                    return v;
                }
                self.err(c, format!("`{name}` of {} is not supported", s.dtype.name()))
            }
            (_, Some(s)) => {
                if s.dtype.is_complex() && !dtype.is_complex() && dtype != DType::Bool {
                    // NumPy drops the imaginary part; Python's int()/float() refuse.
                    if weak {
                        return self.err(c, format!("`{name}` of a complex number: take `.real` first"));
                    }
                }
                let Some(x) = self.materialize(&v, s.dtype, &args[0]) else { return Val::Err };
                if s.dtype == dtype {
                    return Val::Num { v: x, s: result, nonneg: v.nonneg() };
                }
                self.at(c);
                let n = self.fresh("cast");
                let ty = self.scalar_ty(dtype);
                let nonneg = v.nonneg()
                    && kind(dtype) == Kind::Int
                    && dtype.bits() >= s.dtype.bits()
                    && kind(s.dtype) == Kind::Int;
                Val::Num { v: self.b.cast(ty, x, &n), s: result, nonneg }
            }
            (Val::Arr { .. }, _) => self.err(&args[0], format!("`{name}` converts scalars, not arrays")),
            _ => self.err(&args[0], format!("`{name}` takes a number")),
        }
    }
}

/// Whether an array of type `arg` may be passed for a parameter of type
/// `param`: the same dtype and number of axes, every static extent of the
/// parameter matched, and the same layout (a callee may rely on both).
fn array_fits(arg: &TypeData, param: &TypeData) -> bool {
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

/// The type a local has when assigned both `a` and `b`.
fn join(a: Scalar, b: Scalar) -> Option<Scalar> {
    if a.dtype.is_text() || b.dtype.is_text() {
        return (a.dtype == b.dtype).then_some(Scalar { dtype: a.dtype, weak: a.weak && b.weak });
    }
    promote(a, b).map(|p| Scalar { dtype: if p.weak { default_of(kind(p.dtype)) } else { p.dtype }, ..p })
}

/// Whether evaluating an expression can have no effect and cannot panic,
/// so that a conditional expression may evaluate both arms.
fn is_pure(e: &Expr) -> bool {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || is_pure_inner(e))
}

fn is_pure_inner(e: &Expr) -> bool {
    match e {
        Expr::Name(_)
        | Expr::NumberLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_) => true,
        Expr::Attribute(a) => matches!(a.attr.id.as_str(), "real" | "imag" | "ndim") && is_pure(&a.value),
        Expr::UnaryOp(u) => matches!(u.op, ast::UnaryOp::Not | ast::UnaryOp::UAdd) && is_pure(&u.operand),
        Expr::Compare(c) => c.ops.len() == 1 && is_pure(&c.left) && c.comparators.iter().all(is_pure),
        _ => false,
    }
}

#[allow(dead_code)]
fn unused(_: Deco) {}
