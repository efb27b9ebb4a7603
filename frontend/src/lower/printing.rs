//! `print(...)`: one call of the IR's `postc.print`, which writes the text
//! of its arguments as one write to standard output (through the `postc`
//! package, to `sys.stdout`).
//!
//! The arguments become what CPython writes for them: `sep` (a space by
//! default) between them and `end` (a newline) after them, as Str
//! constants; `None` as the text `None`; a Bool, an integer and a float as
//! the IR's print writes them (`True`, decimal, Python's `repr` of a float
//! or NumPy's `str` of a `float32`). Integers narrower than 64 bits are
//! widened first, so the runtimes know two integer dtypes only. A value
//! that may be `None` (`x: Float64 | None`) branches on whether it is: each
//! way is one whole call, `None` written as text on one, the value on the
//! other (at most [`MAYBE_NONE_ARGUMENTS`] such arguments in one `print`).
//!
//! Refused with a located error, as nothing in compiled code can write them
//! as CPython does: arrays, tuples, complex numbers, `float16`, bytes,
//! `sep`/`end` that are not string literals (or `None`), `file=`, and
//! `print` in GPU code. `flush=` is accepted and has no effect: each call
//! is written at once. The messages are written once here
//! ([`print_keyword_error`], [`printed_error`]); the typecheck reports them
//! where every argument has a type, this file where one has none.

use postc_ir::{DType, FuncAttrs, Literal, TypeId, ValueId};
use ruff_text_size::TextRange;

use super::{CallExpr, FnLower, Val};
use crate::hir;
use crate::syntax::Lit;
use crate::typeck::Ty;

/// The most arguments that may be `None` in one `print`: each doubles the
/// calls it becomes.
pub(crate) const MAYBE_NONE_ARGUMENTS: usize = 4;

/// `print` of more than [`MAYBE_NONE_ARGUMENTS`] values that may be
/// `None`.
pub(crate) fn print_maybe_none_count_error() -> String {
    format!("`print` of more than {MAYBE_NONE_ARGUMENTS} values that may be `None` at once is not supported")
}

/// `print` in GPU code.
pub(crate) const PRINT_IN_GPU: &str = "`print` is not supported in GPU code";

/// Why `print` refuses the keyword argument `k`: `sep` or `end` that is
/// not a string literal or `None`, `file`, any but those and `flush`.
pub(crate) fn print_keyword_error(hir: &hir::Body, k: &hir::Keyword) -> Option<(TextRange, String)> {
    match k.name.as_deref() {
        Some(name @ ("sep" | "end")) => match &hir.exprs[k.value] {
            hir::Expr::Literal(Lit::Str(_)) | hir::Expr::None => None,
            _ => Some((hir.expr_ranges[k.value], format!("`{name}` of `print` must be a string literal"))),
        },
        Some("flush") => None,
        Some("file") => {
            Some((k.range, "`print(file=...)` is not supported in compiled code: it prints to standard output".into()))
        }
        _ => Some((k.range, "`print` takes the keyword arguments `sep`, `end` and `flush`".into())),
    }
}

/// Why `print` refuses a value of type `t`: what compiled code cannot
/// write as CPython does (an array, a tuple, a complex number, a float16,
/// bytes).
pub(crate) fn printed_error(t: &Ty) -> Option<String> {
    let refused = |what: &str, hint: &str| Some(format!("`print` of {what} is not supported in compiled code{hint}"));
    let d = match t {
        Ty::Arr(_) => return refused("an array", ": print its elements"),
        Ty::Tuple(_) => return refused("a tuple", ": print its elements"),
        Ty::Num { s, .. } | Ty::Lit { s, .. } => s.dtype,
    };
    match d {
        d if postc_ir::builtins::printable(d) || d.is_int() => None,
        DType::Float16 => refused("a float16", ""),
        d if d.is_complex() => refused("a complex number", ""),
        d => refused(&format!("a {} value", d.name()), ""),
    }
}

/// One argument of `postc.print` as lowered.
#[derive(Clone, Copy)]
enum Printed {
    /// The value written.
    Value(ValueId),
    /// A value that may be `None`: whether it is given (Bool), and it.
    MaybeNone { present: ValueId, value: ValueId },
}

impl<'a, 'c> FnLower<'a, 'c> {
    pub(super) fn print_call(&mut self, c: &CallExpr) -> Val {
        let hir = self.hir;
        if self.decl.attrs.contains(FuncAttrs::GPU) || self.decl.attrs.contains(FuncAttrs::KERNEL) {
            return self.err(&c.at, PRINT_IN_GPU);
        }
        if let Some(&s) = c.args.iter().find(|&&a| matches!(hir.exprs[a], hir::Expr::Starred(_))) {
            return self.err(&self.range(s), "`*` arguments are not supported");
        }
        let mut sep = " ".to_owned();
        let mut end = "\n".to_owned();
        for k in c.keywords {
            if let Some((at, message)) = print_keyword_error(hir, k) {
                self.err(&at, message);
                continue;
            }
            match (k.name.as_deref(), &hir.exprs[k.value]) {
                (Some("sep"), hir::Expr::Literal(Lit::Str(s))) => sep = s.to_string(),
                (Some("end"), hir::Expr::Literal(Lit::Str(s))) => end = s.to_string(),
                (Some("flush"), _) => {
                    self.expr(k.value);
                }
                _ => {}
            }
        }
        let mut parts: Vec<Printed> = Vec::with_capacity(2 * c.args.len() + 1);
        let mut failed = false;
        for (i, &a) in c.args.iter().enumerate() {
            if i > 0 && !sep.is_empty() {
                parts.push(Printed::Value(self.text(&sep)));
            }
            match self.printed(a) {
                Some(v) => parts.push(v),
                None => failed = true,
            }
        }
        if !end.is_empty() {
            parts.push(Printed::Value(self.text(&end)));
        }
        if failed {
            return Val::Err;
        }
        if parts.iter().filter(|p| matches!(p, Printed::MaybeNone { .. })).count() > MAYBE_NONE_ARGUMENTS {
            return self.err(&c.at, print_maybe_none_count_error());
        }
        self.at(&c.at);
        self.print_parts(&mut parts);
        Val::Void
    }

    /// One `postc.print` of `parts`, or, where one may be `None`, a branch
    /// on it with one call each way.
    fn print_parts(&mut self, parts: &mut [Printed]) {
        let Some(i) = parts.iter().position(|p| matches!(p, Printed::MaybeNone { .. })) else {
            let values: Vec<ValueId> = parts
                .iter()
                .map(|p| match p {
                    Printed::Value(v) => *v,
                    Printed::MaybeNone { .. } => unreachable!("branched on above"),
                })
                .collect();
            self.b.call(postc_ir::builtins::PRINT, &values, None, "");
            return;
        };
        let Printed::MaybeNone { present, value } = parts[i] else { unreachable!("found above") };
        let (given, none, join) = (self.block("print_given"), self.block("print_none"), self.block("printed"));
        self.b.condbr(present, given, none, None);
        self.enter(given);
        parts[i] = Printed::Value(value);
        self.print_parts(parts);
        self.br(join);
        self.enter(none);
        parts[i] = Printed::Value(self.text("None"));
        self.print_parts(parts);
        self.br(join);
        self.enter(join);
        parts[i] = Printed::MaybeNone { present, value };
    }

    /// A Str constant.
    fn text(&mut self, s: &str) -> ValueId {
        let n = self.fresh("text");
        self.b.const_(TypeId::STR, Literal::Str(s), &n)
    }

    /// The value `postc.print` writes for the argument `e`, or `None` (an
    /// error reported) when compiled code cannot write it as CPython does.
    fn printed(&mut self, e: hir::ExprId) -> Option<Printed> {
        let at = self.range(e);
        if let hir::Expr::None = self.hir.exprs[e] {
            return Some(Printed::Value(self.text("None")));
        }
        match self.expr_maybe_none(e) {
            Val::Maybe { present, value } => {
                let value = self.printed_value(*value, at)?;
                Some(Printed::MaybeNone { present, value })
            }
            v => self.printed_value(v, at).map(Printed::Value),
        }
    }

    /// The value `postc.print` writes for `v`, the value of the argument at
    /// `at`; `None` (an error reported) as for [`FnLower::printed`].
    fn printed_value(&mut self, v: Val, at: TextRange) -> Option<ValueId> {
        let s = match &v {
            Val::Err => return None,
            Val::None => return Some(self.text("None")),
            Val::Lit { lit: Lit::Str(s), .. } => {
                let s = s.to_string();
                return Some(self.text(&s));
            }
            Val::Maybe { .. } => {
                self.err(&at, "`print` of a value that may be `None` inside one is not supported in compiled code");
                return None;
            }
            Val::Void => {
                self.err(&at, "this call returns nothing");
                return None;
            }
            v => {
                // A tuple is refused whatever its elements.
                let t = v.ty().unwrap_or(Ty::Tuple(Vec::new()));
                if let Some(message) = printed_error(&t) {
                    self.err(&at, message);
                    return None;
                }
                t.scalar()?
            }
        };
        let to = if postc_ir::builtins::printable(s.dtype) { s.dtype } else { DType::Int64 };
        self.materialize(&v, to, &at)
    }
}
