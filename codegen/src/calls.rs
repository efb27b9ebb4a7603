//! What every backend knows of a program's calls, decided once: name
//! lookups over the program and where a call goes ([`Index`], [`resolve`],
//! from `postc_ir::calls`, which also decides which functions count the
//! call depth), the functions a codegen unit needs ([`reachable`]), which
//! libm functions an intrinsic import may name ([`intrinsic_base`]), and
//! which are the compiler's panic paths ([`is_panic_thunk`]).

use postc_ir::body::InstData;
use postc_ir::builtins::Builtin;
pub use postc_ir::calls::{is_panic_thunk, resolve, Index, Target};
use postc_ir::{FuncId, Function, ModuleId, Program};
use std::collections::HashSet;

/// The POST functions that `f` (of module `mid`) refers to: those it
/// calls, and the chunk functions its `postc.parallel_for` calls name. A
/// malformed `postc.parallel_for` refers to nothing here; building the
/// call reports it.
pub fn referenced<'p>(
    program: &'p Program,
    index: &Index<'p>,
    mid: ModuleId,
    f: &'p Function,
) -> Vec<(ModuleId, FuncId)> {
    let mut out = Vec::new();
    for v in f.body.tags.ids() {
        let InstData::Call { callee, args } = f.body.inst(v) else { continue };
        match resolve(program, index, mid, callee) {
            Some(Target::Func(cm, cf)) => out.push((cm, cf)),
            Some(Target::Builtin(Builtin::ParallelFor)) => {
                let args: Vec<_> = args.iter().collect();
                if args.is_empty() {
                    continue;
                }
                if let Ok(chunk) = parallel_chunk(&program.modules[mid], f, &args) {
                    out.push((mid, chunk));
                }
            }
            _ => {}
        }
    }
    out
}

/// `roots` and every function they refer to ([`referenced`]), directly or
/// through others: what a codegen unit that defines `roots` must also
/// define (or see, to inline it).
pub fn reachable<'p>(
    program: &'p Program,
    index: &Index<'p>,
    roots: impl IntoIterator<Item = (ModuleId, FuncId)>,
) -> HashSet<(ModuleId, FuncId)> {
    let mut seen: HashSet<(ModuleId, FuncId)> = HashSet::new();
    let mut work: Vec<(ModuleId, FuncId)> = roots.into_iter().filter(|r| seen.insert(*r)).collect();
    while let Some((mid, fid)) = work.pop() {
        for r in referenced(program, index, mid, &program.modules[mid].functions[fid]) {
            if seen.insert(r) {
                work.push(r);
            }
        }
    }
    seen
}

/// The math functions an intrinsic import may name (as the interpreter
/// knows them), without the `f` suffix.
const MATH: &[&str] = &[
    "sqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "fabs",
    "floor",
    "ceil",
    "trunc",
    "round",
    "rint",
    "nearbyint",
    "cbrt",
    "erf",
    "erfc",
    "lgamma",
    "tgamma",
    "atan2",
    "pow",
    "fmod",
    "hypot",
    "copysign",
    "fmin",
    "fmax",
    "fdim",
    "fma",
];

/// The base name of a math symbol and whether it named the `float` variant.
pub fn intrinsic_base(sym: &str) -> Option<(&str, bool)> {
    if MATH.contains(&sym) {
        return Some((sym, false));
    }
    let b = sym.strip_suffix('f')?;
    MATH.contains(&b).then_some((b, true))
}

/// The chunk function that a `postc.parallel_for` call of `f` names (its
/// first argument, a constant `Str`), or the message of a malformed call.
pub fn parallel_chunk(m: &postc_ir::Module, f: &Function, args: &[postc_ir::ValueId]) -> Result<FuncId, String> {
    let InstData::Const(postc_ir::body::Literal::Str(name)) = f.body.inst(args[0]) else {
        return Err("`postc.parallel_for` needs a constant chunk function name".into());
    };
    m.get_function(name).ok_or_else(|| format!("`postc.parallel_for`: no chunk function `{name}`"))
}
