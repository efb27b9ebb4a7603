//! Helpers over the Python syntax tree: what to call a construct in a
//! diagnostic, dotted names, and Python literals with the constant folding
//! of module constants.

use crate::pytypes::{default_of, kind, promote, Kind, Scalar};
use postc_ir::{ConstValue, DType};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

/// Stack left before a deeply recursive step grows the stack, and by how much.
const STACK_RED_ZONE: usize = 128 * 1024;
const STACK_GROWTH: usize = 4 * 1024 * 1024;

/// Runs one level of a walk that recurses as deep as the syntax tree (a
/// sum of 100,000 terms is 100,000 levels; an `elif` chain is flat in the
/// tree). When less than [`STACK_RED_ZONE`] is left, the rest of the walk
/// runs on a new segment allocated on the heap, so that how deep a walk goes
/// is bounded by memory, never by the stack of the thread that called the
/// compiler (the Python package calls it on the caller's thread, whatever
/// its stack).
pub(crate) fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, f)
}

/// A binding that [`for_each_binding`] finds.
pub(crate) enum Binding<'b> {
    /// An assignment, `for` or `with ... as` target.
    Target(&'b Expr),
    /// A name an `except ... as` clause or a `match` pattern binds.
    Name(&'b str),
}

/// Calls `f` with every binding in `body`, nested blocks included (those of
/// `with`, `try` and `match` too, which are refused later but bind names).
pub(crate) fn for_each_binding<'b>(body: &'b [Stmt], f: &mut dyn FnMut(Binding<'b>)) {
    struct PatternNames<'f, 'b>(&'f mut dyn FnMut(Binding<'b>));
    impl<'b> ruff_python_ast::visitor::Visitor<'b> for PatternNames<'_, 'b> {
        fn visit_pattern(&mut self, p: &'b ast::Pattern) {
            let bound = match p {
                ast::Pattern::MatchAs(m) => m.name.as_ref(),
                ast::Pattern::MatchStar(m) => m.name.as_ref(),
                ast::Pattern::MatchMapping(m) => m.rest.as_ref(),
                _ => None,
            };
            if let Some(n) = bound {
                (self.0)(Binding::Name(n.id.as_str()));
            }
            deep(|| ruff_python_ast::visitor::walk_pattern(self, p));
        }
        // Values in patterns bind nothing.
        fn visit_expr(&mut self, _: &'b Expr) {}
    }
    deep(|| {
        for s in body {
            match s {
                Stmt::Assign(a) => a.targets.iter().for_each(|t| f(Binding::Target(t))),
                Stmt::AnnAssign(a) => f(Binding::Target(&a.target)),
                Stmt::AugAssign(a) => f(Binding::Target(&a.target)),
                Stmt::For(l) => {
                    f(Binding::Target(&l.target));
                    for_each_binding(&l.body, f);
                    for_each_binding(&l.orelse, f);
                }
                Stmt::While(w) => {
                    for_each_binding(&w.body, f);
                    for_each_binding(&w.orelse, f);
                }
                Stmt::If(i) => {
                    for_each_binding(&i.body, f);
                    i.elif_else_clauses.iter().for_each(|c| for_each_binding(&c.body, f));
                }
                Stmt::With(w) => {
                    for t in w.items.iter().filter_map(|i| i.optional_vars.as_deref()) {
                        f(Binding::Target(t));
                    }
                    for_each_binding(&w.body, f);
                }
                Stmt::Try(t) => {
                    for_each_binding(&t.body, f);
                    for ast::ExceptHandler::ExceptHandler(h) in &t.handlers {
                        if let Some(n) = &h.name {
                            f(Binding::Name(n.id.as_str()));
                        }
                        for_each_binding(&h.body, f);
                    }
                    for_each_binding(&t.orelse, f);
                    for_each_binding(&t.finalbody, f);
                }
                Stmt::Match(m) => {
                    for case in &m.cases {
                        use ruff_python_ast::visitor::Visitor;
                        PatternNames(f).visit_pattern(&case.pattern);
                        for_each_binding(&case.body, f);
                    }
                }
                _ => {}
            }
        }
    })
}

/// A Python literal (or folded constant) not yet given a dtype.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lit {
    Bool(bool),
    Int(i128),
    Float(f64),
    Complex(f64, f64),
    Str(String),
    Bytes(Vec<u8>),
}

impl Lit {
    /// The dtype CPython's value of this literal has.
    pub fn default_dtype(&self) -> DType {
        match self {
            Lit::Bool(_) => DType::Bool,
            Lit::Int(_) => DType::Int64,
            Lit::Float(_) => DType::Float64,
            Lit::Complex(..) => DType::Complex128,
            Lit::Str(_) => DType::Str,
            Lit::Bytes(_) => DType::Bytes,
        }
    }

    /// The kind of CPython's value of this literal.
    pub fn kind(&self) -> Kind {
        kind(self.default_dtype())
    }

    /// The literal as a constant of `dtype`, when it converts: an integer
    /// must fit, a float goes to a float or complex dtype (rounded once),
    /// text only to its own dtype.
    pub fn convert(&self, dtype: DType) -> Option<ConstValue> {
        let k = kind(dtype);
        let float_bits = |x: f64| -> u64 {
            match dtype {
                DType::Float16 => half::f16::from_f64(x).to_bits() as u64,
                DType::Float32 => (x as f32).to_bits() as u64,
                _ => x.to_bits(),
            }
        };
        let part = |x: f64| -> u64 {
            if dtype == DType::Complex64 {
                (x as f32).to_bits() as u64
            } else {
                x.to_bits()
            }
        };
        Some(match (self, k) {
            (Lit::Bool(b), Kind::Bool) => ConstValue::Bool(*b),
            (Lit::Bool(b), Kind::Int) => ConstValue::Int(*b as i128),
            (Lit::Bool(b), Kind::Float) => ConstValue::Float(float_bits(*b as u8 as f64)),
            (Lit::Bool(b), Kind::Complex) => ConstValue::Complex(part(*b as u8 as f64), part(0.0)),
            (Lit::Int(i), Kind::Bool) => ConstValue::Bool(*i != 0),
            (Lit::Int(i), Kind::Int) => {
                let (lo, hi) = dtype.int_range()?;
                if *i < lo || *i > hi {
                    return None;
                }
                ConstValue::Int(*i)
            }
            (Lit::Int(i), Kind::Float) => ConstValue::Float(float_bits(*i as f64)),
            (Lit::Int(i), Kind::Complex) => ConstValue::Complex(part(*i as f64), part(0.0)),
            (Lit::Float(x), Kind::Float) => ConstValue::Float(float_bits(*x)),
            (Lit::Float(x), Kind::Complex) => ConstValue::Complex(part(*x), part(0.0)),
            (Lit::Float(x), Kind::Bool) => ConstValue::Bool(*x != 0.0),
            (Lit::Complex(r, i), Kind::Complex) => ConstValue::Complex(part(*r), part(*i)),
            (Lit::Str(s), Kind::Text) if dtype == DType::Str => ConstValue::Str(s.clone()),
            (Lit::Bytes(b), Kind::Text) if dtype == DType::Bytes => ConstValue::Bytes(b.clone()),
            _ => return None,
        })
    }
}

/// Why a literal does not convert to a dtype by a cast (`Int32(2.5)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum LitCast {
    /// An infinite or NaN float to an integer.
    NotFinite(f64),
    /// A complex number to a real dtype.
    ComplexToReal,
    /// Text from or to a number.
    Text,
    /// An integer that the dtype does not hold.
    OutOfRange,
}

impl Lit {
    /// The literal cast to `dtype` at compile time, as NumPy's scalar
    /// constructors convert: a float truncates to an integer, any number
    /// to Bool is its truth.
    pub fn cast(&self, dtype: DType) -> Result<Lit, LitCast> {
        let lit = match (self, kind(dtype)) {
            (Lit::Float(x), Kind::Int) if !x.is_finite() => return Err(LitCast::NotFinite(*x)),
            (Lit::Float(x), Kind::Int) => Lit::Int(x.trunc() as i128),
            (Lit::Complex(..), k) if k < Kind::Complex => return Err(LitCast::ComplexToReal),
            (Lit::Str(_) | Lit::Bytes(_), _) | (_, Kind::Text) => return Err(LitCast::Text),
            (l, Kind::Bool) => Lit::Bool(match l {
                Lit::Bool(b) => *b,
                Lit::Int(i) => *i != 0,
                Lit::Float(x) => *x != 0.0,
                Lit::Complex(a, b) => *a != 0.0 || *b != 0.0,
                _ => false,
            }),
            (l, _) => l.clone(),
        };
        match lit.convert(dtype) {
            Some(_) => Ok(lit),
            None => Err(LitCast::OutOfRange),
        }
    }
}

/// What a diagnostic calls an expression.
pub(crate) fn construct_name(e: &Expr) -> &'static str {
    match e {
        Expr::BoolOp(_) => "a boolean operation",
        Expr::Named(_) => "an assignment expression (`:=`)",
        Expr::BinOp(_) => "an arithmetic expression",
        Expr::UnaryOp(_) => "a unary operation",
        Expr::Lambda(_) => "a lambda",
        Expr::If(_) => "a conditional expression",
        Expr::Dict(_) => "a dict literal",
        Expr::Set(_) => "a set literal",
        Expr::ListComp(_) => "a list comprehension",
        Expr::SetComp(_) => "a set comprehension",
        Expr::DictComp(_) => "a dict comprehension",
        Expr::Generator(_) => "a generator expression",
        Expr::Await(_) => "`await`",
        Expr::Yield(_) => "`yield`",
        Expr::YieldFrom(_) => "`yield from`",
        Expr::Compare(_) => "a comparison",
        Expr::Call(_) => "a call",
        Expr::FString(_) => "an f-string",
        Expr::TString(_) => "a t-string",
        Expr::StringLiteral(_) => "a string literal",
        Expr::BytesLiteral(_) => "a bytes literal",
        Expr::NumberLiteral(_) => "a number",
        Expr::BooleanLiteral(_) => "a boolean literal",
        Expr::NoneLiteral(_) => "`None`",
        Expr::EllipsisLiteral(_) => "`...`",
        Expr::Attribute(_) => "an attribute",
        Expr::Subscript(_) => "a subscript",
        Expr::Starred(_) => "a starred expression",
        Expr::Name(_) => "a name",
        Expr::List(_) => "a list literal",
        Expr::Tuple(_) => "a tuple",
        Expr::Slice(_) => "a slice",
        Expr::IpyEscapeCommand(_) => "an IPython escape command",
    }
}

/// What a diagnostic calls a statement.
pub(crate) fn stmt_name(s: &Stmt) -> &'static str {
    match s {
        Stmt::FunctionDef(_) => "a nested function",
        Stmt::ClassDef(_) => "a class",
        Stmt::Return(_) => "`return`",
        Stmt::Delete(_) => "`del`",
        Stmt::TypeAlias(_) => "a `type` alias",
        Stmt::Assign(_) => "an assignment",
        Stmt::AugAssign(_) => "an augmented assignment",
        Stmt::AnnAssign(_) => "an annotated assignment",
        Stmt::For(_) => "a `for` loop",
        Stmt::While(_) => "a `while` loop",
        Stmt::If(_) => "an `if` statement",
        Stmt::With(_) => "`with`",
        Stmt::Match(_) => "`match`",
        Stmt::Raise(_) => "`raise`",
        Stmt::Try(_) => "`try`",
        Stmt::Assert(_) => "`assert`",
        Stmt::Import(_) => "`import`",
        Stmt::ImportFrom(_) => "`from ... import`",
        Stmt::Global(_) => "`global`",
        Stmt::Nonlocal(_) => "`nonlocal`",
        Stmt::Expr(_) => "an expression statement",
        Stmt::Pass(_) => "`pass`",
        Stmt::Break(_) => "`break`",
        Stmt::Continue(_) => "`continue`",
        Stmt::IpyEscapeCommand(_) => "an IPython escape command",
    }
}

/// `a.b.c` of a name or attribute chain (walked in a loop: a chain may be
/// as long as the line).
pub(crate) fn dotted(e: &Expr) -> Option<String> {
    let mut parts = Vec::new();
    let mut e = e;
    loop {
        match e {
            Expr::Name(n) => {
                parts.push(n.id.as_str());
                break;
            }
            Expr::Attribute(a) => {
                parts.push(a.attr.id.as_str());
                e = &a.value;
            }
            _ => return None,
        }
    }
    parts.reverse();
    Some(parts.join("."))
}

/// A literal expression (a number, string, bytes or boolean).
pub(crate) fn literal(e: &Expr) -> Option<Result<Lit, (TextRange, String)>> {
    Some(Ok(match e {
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => match i.as_i64().map(i128::from).or_else(|| i.as_u64().map(i128::from)) {
                Some(v) => Lit::Int(v),
                None => return Some(Err((n.range, "integer literal is too large for 64 bits".into()))),
            },
            ast::Number::Float(f) => Lit::Float(*f),
            ast::Number::Complex { real, imag } => Lit::Complex(*real, *imag),
        },
        Expr::BooleanLiteral(b) => Lit::Bool(b.value),
        Expr::StringLiteral(s) => Lit::Str(s.value.to_str().to_owned()),
        Expr::BytesLiteral(b) => Lit::Bytes(b.value.bytes().collect()),
        _ => return None,
    }))
}

type FoldResult = Result<(Lit, Scalar), (TextRange, String)>;

/// Folds a module constant's value: literals, earlier constants, unary
/// `-`/`+`/`not`, arithmetic, and calls of a dtype (`Float32(0.5)`, a
/// strong constant). `constant` looks up earlier constants and the
/// constants of libraries by dotted name (`np.pi`), `dtype` type names.
pub(crate) fn fold_const(
    e: &Expr,
    constant: &dyn Fn(&str) -> Option<(Lit, Scalar)>,
    dtype: &dyn Fn(&str) -> Option<DType>,
) -> FoldResult {
    deep(|| fold_const_inner(e, constant, dtype))
}

fn fold_const_inner(
    e: &Expr,
    constant: &dyn Fn(&str) -> Option<(Lit, Scalar)>,
    dtype: &dyn Fn(&str) -> Option<DType>,
) -> FoldResult {
    if let Some(l) = literal(e) {
        let l = l?;
        let d = l.default_dtype();
        return Ok((l, Scalar::weak(d)));
    }
    let not_const = |e: &Expr| {
        Err((
            e.range(),
            format!(
                "{} is not a constant: a module constant is built from literals and other constants",
                construct_name(e)
            ),
        ))
    };
    match e {
        Expr::Name(n) => constant(n.id.as_str())
            .ok_or_else(|| (n.range, format!("`{}` is not a function, import or constant defined above", n.id))),
        // A library's constant (`np.pi`, `math.inf`), looked up by its
        // dotted name.
        Expr::Attribute(_) => match dotted(e).and_then(|d| constant(&d)) {
            Some(v) => Ok(v),
            None => not_const(e),
        },
        Expr::UnaryOp(u) => {
            let (l, s) = fold_const(&u.operand, constant, dtype)?;
            let r = match (u.op, &l) {
                (ast::UnaryOp::USub, Lit::Int(i)) => Lit::Int(-i),
                (ast::UnaryOp::USub, Lit::Float(x)) => Lit::Float(-x),
                (ast::UnaryOp::USub, Lit::Complex(a, b)) => Lit::Complex(-a, -b),
                (ast::UnaryOp::UAdd, Lit::Int(_) | Lit::Float(_) | Lit::Complex(..)) => l.clone(),
                (ast::UnaryOp::Not, Lit::Bool(b)) => Lit::Bool(!b),
                (ast::UnaryOp::Invert, Lit::Int(i)) => Lit::Int(!i),
                _ => return not_const(e),
            };
            check_fits(e.range(), r, s)
        }
        Expr::BinOp(b) => {
            let (l, ls) = fold_const(&b.left, constant, dtype)?;
            let (r, rs) = fold_const(&b.right, constant, dtype)?;
            let Some(s) = promote(ls, rs) else { return not_const(e) };
            let v = fold_binop(b.op, &l, &r)
                .ok_or_else(|| (e.range(), "this constant expression cannot be folded".to_string()))?;
            let s = if matches!(v, Lit::Float(_)) && kind(s.dtype) < Kind::Float {
                Scalar { dtype: DType::Float64, weak: s.weak }
            } else {
                s
            };
            check_fits(e.range(), v, s)
        }
        Expr::Call(c) if c.arguments.keywords.is_empty() && c.arguments.args.len() == 1 => {
            let Some(name) = dotted(&c.func) else { return not_const(e) };
            let last = name.rsplit('.').next().unwrap_or(&name);
            let Some(t) = dtype(&name).or_else(|| dtype(last)) else { return not_const(e) };
            let (l, _) = fold_const(&c.arguments.args[0], constant, dtype)?;
            let conv = l.convert(t).filter(|_| kind(t) >= l.kind());
            match conv {
                Some(_) => {
                    let weak = matches!(name.as_str(), "int" | "float" | "complex" | "bool");
                    Ok((l, Scalar { dtype: if weak { default_of(kind(t)) } else { t }, weak }))
                }
                None => Err((e.range(), format!("the constant does not fit {}", t.name()))),
            }
        }
        _ => not_const(e),
    }
}

fn check_fits(at: TextRange, l: Lit, s: Scalar) -> FoldResult {
    if let Lit::Int(i) = l {
        if i < i64::MIN as i128 || i > u64::MAX as i128 {
            return Err((at, "integer constant is too large for 64 bits".into()));
        }
    }
    Ok((l, s))
}

fn as_f64(l: &Lit) -> Option<f64> {
    Some(match l {
        Lit::Bool(b) => *b as u8 as f64,
        Lit::Int(i) => *i as f64,
        Lit::Float(x) => *x,
        _ => return None,
    })
}

fn as_complex(l: &Lit) -> Option<(f64, f64)> {
    match l {
        Lit::Complex(a, b) => Some((*a, *b)),
        other => as_f64(other).map(|x| (x, 0.0)),
    }
}

/// Python's arithmetic on two literals.
fn fold_binop(op: ast::Operator, l: &Lit, r: &Lit) -> Option<Lit> {
    use ast::Operator as O;
    match (l, r) {
        (Lit::Str(a), Lit::Str(b)) if op == O::Add => return Some(Lit::Str(format!("{a}{b}"))),
        (Lit::Bytes(a), Lit::Bytes(b)) if op == O::Add => return Some(Lit::Bytes([a.as_slice(), b].concat())),
        _ => {}
    }
    let int = |l: &Lit| match l {
        Lit::Int(i) => Some(*i),
        Lit::Bool(b) => Some(*b as i128),
        _ => None,
    };
    if let (Some(a), Some(b)) = (int(l), int(r)) {
        return Some(match op {
            O::Add => Lit::Int(a.checked_add(b)?),
            O::Sub => Lit::Int(a.checked_sub(b)?),
            O::Mult => Lit::Int(a.checked_mul(b)?),
            O::Div if b != 0 => Lit::Float(a as f64 / b as f64),
            O::FloorDiv if b != 0 => Lit::Int(a.div_euclid(b) - if b < 0 && a.rem_euclid(b) != 0 { 1 } else { 0 }),
            O::Mod if b != 0 => Lit::Int(a - b * (a.div_euclid(b) - if b < 0 && a.rem_euclid(b) != 0 { 1 } else { 0 })),
            O::Pow if b >= 0 => Lit::Int(a.checked_pow(u32::try_from(b).ok()?)?),
            O::BitAnd => Lit::Int(a & b),
            O::BitOr => Lit::Int(a | b),
            O::BitXor => Lit::Int(a ^ b),
            O::LShift if (0..64).contains(&b) => Lit::Int(a.checked_mul(1i128 << b)?),
            O::RShift if b >= 0 => Lit::Int(a >> b.min(127)),
            _ => return None,
        });
    }
    if matches!(l, Lit::Complex(..)) || matches!(r, Lit::Complex(..)) {
        let (a, b) = as_complex(l)?;
        let (c, d) = as_complex(r)?;
        return Some(match op {
            O::Add => Lit::Complex(a + c, b + d),
            O::Sub => Lit::Complex(a - c, b - d),
            O::Mult => Lit::Complex(a * c - b * d, a * d + b * c),
            _ => return None,
        });
    }
    let (a, b) = (as_f64(l)?, as_f64(r)?);
    Some(Lit::Float(match op {
        O::Add => a + b,
        O::Sub => a - b,
        O::Mult => a * b,
        O::Div if b != 0.0 => a / b,
        O::Pow => a.powf(b),
        O::FloorDiv if b != 0.0 => (a / b).floor(),
        O::Mod if b != 0.0 => {
            let m = a % b;
            if m != 0.0 && (m < 0.0) != (b < 0.0) {
                m + b
            } else {
                m
            }
        }
        _ => return None,
    }))
}
