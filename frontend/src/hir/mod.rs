//! The high-level IR of a function body: its statements, expressions and
//! locals in arenas, each node with its source range, every name resolved.
//!
//! What building a [`Body`] does (`build.rs`), once per function:
//!
//! - decides which names are the function's locals, by Python's rule (a
//!   name bound anywhere in the body is local to all of it, parameters
//!   included), and gives each a [`LocalId`];
//! - resolves every name read or written to that local, to a module-level
//!   name (a constant, function, import, alias, type, namespace, as
//!   `declare.rs` collected them) or to a free name (a builtin such as
//!   `range`, an exception, or a name that is not defined);
//! - keeps the constructs POST Python refuses as nodes ([`Expr::Refused`],
//!   [`Stmt::Refused`]) that carry their children, so that what they hold
//!   is still there to check;
//! - flattens an `if`/`elif`/`else` chain into one node with its arms;
//! - reads a list display that `min`, `max` or `sum` only iterates
//!   (`max([a, b])`) as the tuple display it equals there;
//! - gives a parameter assigned at the top level (`p = value`) a new
//!   local from that statement on, `p$1` (see `BodyBuilder::top_level`),
//!   so that it may take another type, as in Numba.
//!
//! What it does not do: it reports nothing and decides no types: a
//! refused construct, an undefined name, a too-large literal are recorded
//! as they are, for the checks that come after. Nothing in a [`Body`]
//! points back into ruff's syntax tree; the ranges locate nodes in the
//! source text.
//!
//! Building recurses as deep as the syntax tree through
//! [`crate::syntax::deep`] (a sum of 100,000 terms is 100,000 levels);
//! walking a built body need not recurse at all: children are ids into the
//! arenas, and an arena is dropped without recursion.

mod build;

use crate::syntax::{deep, Lit};
use la_arena::{Arena, ArenaMap, Idx};
use ruff_python_ast as ast;
use ruff_text_size::TextRange;

pub(crate) use build::{local_names, BodyBuilder};

pub(crate) type ExprId = Idx<Expr>;
pub(crate) type StmtId = Idx<Stmt>;
pub(crate) type LocalId = Idx<Local>;

/// One function's body.
#[derive(Debug, Default)]
pub(crate) struct Body {
    pub exprs: Arena<Expr>,
    pub stmts: Arena<Stmt>,
    pub locals: Arena<Local>,
    /// Where each expression and statement is in the source.
    pub expr_ranges: ArenaMap<ExprId, TextRange>,
    pub stmt_ranges: ArenaMap<StmtId, TextRange>,
    /// Where the name of each [`Expr::Attribute`] is (`b` of `a.b`).
    pub attr_ranges: ArenaMap<ExprId, TextRange>,
    /// The statements of the function's top level, in order.
    pub top: Box<[StmtId]>,
}

/// A local variable of a function.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Local {
    pub name: Box<str>,
    pub kind: LocalKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LocalKind {
    /// A parameter with a valid annotation: its type is the annotation.
    Param,
    /// A parameter whose annotation has errors (already reported), or the
    /// name of a function defined inside the body (refused): uses of it
    /// are not errors of their own.
    Poisoned,
    /// Bound by an assignment, a `for` target, or a refused construct
    /// that binds (`with ... as`, `except ... as`, a `match` pattern).
    Assigned,
    /// A module-level array (`TABLE = np.array([...])`) the body reads:
    /// an array made at the function's entry, read-only, as an input
    /// array parameter is.
    Constant,
}

/// What a name in the body refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    Local(LocalId),
    /// A name the module level binds (`declare.rs`'s globals).
    Global(Box<str>),
    /// Neither: a builtin (`range`, `len`, `ValueError`, ...) or undefined.
    Free(Box<str>),
}

#[derive(Debug, PartialEq)]
pub(crate) enum Expr {
    Name(Name),
    Literal(Lit),
    /// An integer literal that does not fit in 64 bits.
    IntTooLarge,
    None,
    Ellipsis,
    BinOp {
        op: ast::Operator,
        lhs: ExprId,
        rhs: ExprId,
    },
    UnaryOp {
        op: ast::UnaryOp,
        operand: ExprId,
    },
    BoolOp {
        op: ast::BoolOp,
        values: Box<[ExprId]>,
    },
    /// `a < b <= c`: `ops[i]` compares `operands[i]` and `operands[i + 1]`.
    Compare {
        ops: Box<[ast::CmpOp]>,
        operands: Box<[ExprId]>,
    },
    /// `body if test else orelse`.
    If {
        test: ExprId,
        body: ExprId,
        orelse: ExprId,
    },
    Call {
        func: ExprId,
        args: Box<[ExprId]>,
        keywords: Box<[Keyword]>,
    },
    Attribute {
        base: ExprId,
        attr: Box<str>,
    },
    Subscript {
        base: ExprId,
        index: ExprId,
    },
    Slice {
        lower: Option<ExprId>,
        upper: Option<ExprId>,
        step: Option<ExprId>,
    },
    Tuple(Box<[ExprId]>),
    List(Box<[ExprId]>),
    Starred(ExprId),
    /// A construct POST Python does not compile (a lambda, a dict, an
    /// f-string, `:=`, `yield`, ...), named for diagnostics as
    /// [`crate::syntax::construct_name`] names it, with the parts of it
    /// that are checked on their own: a container's elements, `:=`'s
    /// value; none for a lambda or a comprehension, whose parts see names
    /// of their own.
    Refused {
        construct: &'static str,
        parts: Box<[ExprId]>,
    },
}

impl Body {
    /// The expressions `e` holds, pushed onto `out`.
    pub fn push_children(&self, e: ExprId, out: &mut Vec<ExprId>) {
        match &self.exprs[e] {
            Expr::BinOp { lhs, rhs, .. } => out.extend([*lhs, *rhs]),
            Expr::UnaryOp { operand, .. } | Expr::Starred(operand) | Expr::Attribute { base: operand, .. } => {
                out.push(*operand)
            }
            Expr::If { test, body, orelse } => out.extend([*test, *body, *orelse]),
            Expr::Subscript { base, index } => out.extend([*base, *index]),
            Expr::Slice { lower, upper, step } => out.extend([*lower, *upper, *step].into_iter().flatten()),
            Expr::Call { func, args, keywords } => {
                out.push(*func);
                out.extend(args.iter().copied());
                out.extend(keywords.iter().map(|k| k.value));
            }
            Expr::BoolOp { values: es, .. }
            | Expr::Compare { operands: es, .. }
            | Expr::Tuple(es)
            | Expr::List(es)
            | Expr::Refused { parts: es, .. } => out.extend(es.iter().copied()),
            Expr::Name(_) | Expr::Literal(_) | Expr::IntTooLarge | Expr::None | Expr::Ellipsis => {}
        }
    }

    /// What a diagnostic calls the expression `e`, as
    /// [`crate::syntax::construct_name`] calls its syntax.
    pub fn construct_name(&self, e: ExprId) -> &'static str {
        match &self.exprs[e] {
            Expr::Name(_) => "a name",
            Expr::Literal(Lit::Str(_)) => "a string literal",
            Expr::Literal(Lit::Bytes(_)) => "a bytes literal",
            Expr::Literal(Lit::Bool(_)) => "a boolean literal",
            Expr::Literal(_) | Expr::IntTooLarge => "a number",
            Expr::None => "`None`",
            Expr::Ellipsis => "`...`",
            Expr::BinOp { .. } => "an arithmetic expression",
            Expr::UnaryOp { .. } => "a unary operation",
            Expr::BoolOp { .. } => "a boolean operation",
            Expr::Compare { .. } => "a comparison",
            Expr::If { .. } => "a conditional expression",
            Expr::Call { .. } => "a call",
            Expr::Attribute { .. } => "an attribute",
            Expr::Subscript { .. } => "a subscript",
            Expr::Slice { .. } => "a slice",
            Expr::Tuple(_) => "a tuple",
            Expr::List(_) => "a list literal",
            Expr::Starred(_) => "a starred expression",
            Expr::Refused { construct, .. } => construct,
        }
    }

    /// `T` of the annotation `T | None`, `None | T` or `Optional[T]`
    /// (`typing.Optional[T]`), as `declare::maybe_none_inner` reads it.
    pub fn maybe_none_inner(&self, e: ExprId) -> Option<ExprId> {
        match &self.exprs[e] {
            Expr::BinOp { op: ast::Operator::BitOr, lhs, rhs } => match (&self.exprs[*lhs], &self.exprs[*rhs]) {
                (Expr::None, _) => Some(*rhs),
                (_, Expr::None) => Some(*lhs),
                _ => None,
            },
            Expr::Subscript { base, index } => {
                matches!(self.dotted(*base).as_deref(), Some("Optional" | "typing.Optional")).then_some(*index)
            }
            _ => None,
        }
    }

    /// The expressions `e` is made of, in the order Python evaluates
    /// them (a call's positional arguments before its keywords, a
    /// conditional expression's test first).
    pub fn children(&self, e: ExprId) -> smallvec::SmallVec<[ExprId; 4]> {
        use smallvec::smallvec;
        match &self.exprs[e] {
            Expr::Name(_) | Expr::Literal(_) | Expr::IntTooLarge | Expr::None | Expr::Ellipsis => smallvec![],
            &Expr::BinOp { lhs, rhs, .. } => smallvec![lhs, rhs],
            &Expr::UnaryOp { operand, .. } => smallvec![operand],
            &Expr::If { test, body, orelse } => smallvec![test, body, orelse],
            Expr::Call { func, args, keywords } => {
                std::iter::once(*func).chain(args.iter().copied()).chain(keywords.iter().map(|k| k.value)).collect()
            }
            &Expr::Attribute { base, .. } => smallvec![base],
            &Expr::Subscript { base, index } => smallvec![base, index],
            &Expr::Slice { lower, upper, step } => [lower, upper, step].into_iter().flatten().collect(),
            &Expr::Starred(inner) => smallvec![inner],
            Expr::BoolOp { values: parts, .. }
            | Expr::Compare { operands: parts, .. }
            | Expr::Tuple(parts)
            | Expr::List(parts)
            | Expr::Refused { parts, .. } => parts.iter().copied().collect(),
        }
    }

    /// Whether `a` and `b` are the same expression written twice: the
    /// same operators, names and literals in the same places, wherever
    /// they are in the source.
    pub fn same_expr(&self, a: ExprId, b: ExprId) -> bool {
        use std::mem::discriminant;
        let (x, y) = (&self.exprs[a], &self.exprs[b]);
        let same_node = discriminant(x) == discriminant(y)
            && match (x, y) {
                (Expr::Name(m), Expr::Name(n)) => self.name_text(m) == self.name_text(n),
                (Expr::Literal(l), Expr::Literal(m)) => l == m,
                (Expr::BinOp { op, .. }, Expr::BinOp { op: p, .. }) => op == p,
                (Expr::UnaryOp { op, .. }, Expr::UnaryOp { op: p, .. }) => op == p,
                (Expr::BoolOp { op, values }, Expr::BoolOp { op: p, values: v }) => op == p && values.len() == v.len(),
                (Expr::Compare { ops, .. }, Expr::Compare { ops: p, .. }) => ops == p,
                (Expr::Call { args, keywords, .. }, Expr::Call { args: a, keywords: k, .. }) => {
                    args.len() == a.len()
                        && keywords.len() == k.len()
                        && keywords.iter().zip(k.iter()).all(|(x, y)| x.name == y.name)
                }
                (Expr::Attribute { attr, .. }, Expr::Attribute { attr: a, .. }) => attr == a,
                (Expr::Slice { lower, upper, step }, Expr::Slice { lower: l, upper: u, step: s }) => {
                    lower.is_some() == l.is_some() && upper.is_some() == u.is_some() && step.is_some() == s.is_some()
                }
                (Expr::Tuple(p) | Expr::List(p), Expr::Tuple(q) | Expr::List(q)) => p.len() == q.len(),
                // What a refused construct holds besides its parts is not
                // kept: none is known to be the same as another.
                (Expr::Refused { .. }, _) => false,
                _ => true,
            };
        same_node && deep(|| self.children(a).into_iter().zip(self.children(b)).all(|(p, q)| self.same_expr(p, q)))
    }

    /// The names a target binds (`x`, each name of `a, (b, *c)`), each a
    /// `Name` expression; subscripts and attributes are stores, not
    /// bindings.
    pub fn names_bound(&self, target: ExprId) -> smallvec::SmallVec<[ExprId; 4]> {
        let mut out = smallvec::SmallVec::new();
        let mut pending = vec![target];
        while let Some(t) = pending.pop() {
            match &self.exprs[t] {
                Expr::Name(_) => out.push(t),
                Expr::Tuple(ts) | Expr::List(ts) => pending.extend(ts.iter().rev().copied()),
                Expr::Starred(inner) => pending.push(*inner),
                _ => {}
            }
        }
        out
    }

    /// Whether the test `e` is a true constant (`while True:`, `while 1:`):
    /// a loop on it ends only by a `break`.
    pub fn always_true(&self, e: ExprId) -> bool {
        match self.exprs[e] {
            Expr::Literal(Lit::Bool(b)) => b,
            Expr::Literal(Lit::Int(i)) => i != 0,
            Expr::Literal(Lit::Float(f)) => f != 0.0,
            _ => false,
        }
    }

    /// The text of a name: its local's name, or the name it was written as.
    pub fn name_text<'b>(&'b self, n: &'b Name) -> &'b str {
        match n {
            Name::Local(id) => &self.locals[*id].name,
            Name::Global(name) | Name::Free(name) => name,
        }
    }

    /// `a.b.c` of a name or attribute chain (walked in a loop: a chain may
    /// be as long as the line).
    pub fn dotted(&self, mut e: ExprId) -> Option<String> {
        let mut parts = Vec::new();
        loop {
            match &self.exprs[e] {
                Expr::Name(n) => {
                    parts.push(self.name_text(n));
                    break;
                }
                Expr::Attribute { base, attr } => {
                    parts.push(attr);
                    e = *base;
                }
                _ => return None,
            }
        }
        parts.reverse();
        Some(parts.join("."))
    }
}

/// `name=value` in a call; `**value` has no name.
#[derive(Debug, PartialEq)]
pub(crate) struct Keyword {
    pub name: Option<Box<str>>,
    pub value: ExprId,
    pub range: TextRange,
}

#[derive(Debug, PartialEq)]
pub(crate) enum Stmt {
    Expr(ExprId),
    /// `a = b = value`: the targets, then the value.
    Assign {
        targets: Box<[ExprId]>,
        value: ExprId,
    },
    AnnAssign {
        target: ExprId,
        annotation: ExprId,
        value: Option<ExprId>,
    },
    AugAssign {
        target: ExprId,
        op: ast::Operator,
        value: ExprId,
    },
    /// An `if` with its `elif`s and `else`, in order: each arm's test
    /// (none for the `else`) and its statements.
    If {
        arms: Box<[IfArm]>,
    },
    While {
        test: ExprId,
        body: Box<[StmtId]>,
        orelse: Box<[StmtId]>,
    },
    For {
        is_async: bool,
        target: ExprId,
        iter: ExprId,
        body: Box<[StmtId]>,
        orelse: Box<[StmtId]>,
    },
    Break,
    Continue,
    Pass,
    Return(Option<ExprId>),
    Assert {
        test: ExprId,
        msg: Option<ExprId>,
    },
    Raise {
        exc: Option<ExprId>,
        cause: Option<ExprId>,
    },
    /// `def` inside the body (refused); at the body's top level its name
    /// is a [`LocalKind::Poisoned`] local.
    NestedFunction {
        name_range: TextRange,
    },
    Global,
    Import,
    /// Another construct POST Python does not compile (`with`, `try`,
    /// `match`, `del`, a class, ...), named as [`crate::syntax::stmt_name`]
    /// names it, with its expressions and the blocks it holds.
    Refused {
        construct: &'static str,
        exprs: Box<[ExprId]>,
        blocks: Box<[Box<[StmtId]>]>,
    },
}

#[derive(Debug, PartialEq)]
pub(crate) struct IfArm {
    pub test: Option<ExprId>,
    pub body: Box<[StmtId]>,
}

#[cfg(test)]
mod tests;
