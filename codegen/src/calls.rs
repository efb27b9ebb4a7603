//! What every backend knows of a program's calls, decided once: name
//! lookups over the program ([`Index`]), where a call goes ([`resolve`]),
//! which libm functions an intrinsic import may name ([`intrinsic_base`]),
//! which functions count the depth of calls ([`depth_counted`]), and which
//! are the compiler's panic paths ([`is_panic_thunk`]).

use postc_ir::body::InstData;
use postc_ir::builtins::Builtin;
use postc_ir::{EntityId, FuncAttrs, FuncId, Function, ModuleId, Program};
use std::collections::{HashMap, HashSet};

/// Where a call goes.
pub enum Target<'p> {
    Func(ModuleId, FuncId),
    Builtin(Builtin),
    Intrinsic(&'p str),
}

/// Name lookups over a program, each a hash lookup (a module's own lookups
/// walk its functions or export list).
pub struct Index<'p> {
    /// Per module: function name → function.
    funcs: Vec<HashMap<&'p str, FuncId>>,
    /// Per module: the exported names, or `None` when every function is.
    exports: Vec<Option<HashSet<&'p str>>>,
    /// Module name → module.
    modules: HashMap<&'p str, ModuleId>,
}

impl<'p> Index<'p> {
    pub fn new(program: &'p Program) -> Index<'p> {
        let funcs = program
            .modules
            .iter()
            .map(|m| m.functions.iter_enumerated().map(|(id, f)| (f.name.as_str(), id)).rev().collect())
            .collect();
        let exports = program
            .modules
            .iter()
            .map(|m| m.export_all.as_ref().map(|all| all.iter().map(String::as_str).collect()))
            .collect();
        let modules = program.modules.iter_enumerated().map(|(id, m)| (m.name.as_str(), id)).rev().collect();
        Index { funcs, exports, modules }
    }

    /// The function `name` of module `mid` (the first of that name).
    pub fn function(&self, mid: ModuleId, name: &str) -> Option<FuncId> {
        self.funcs[mid.index()].get(name).copied()
    }

    /// Whether module `mid` exports `name` (as `Module::is_exported`).
    pub fn is_exported(&self, mid: ModuleId, name: &str) -> bool {
        self.exports[mid.index()].as_ref().is_none_or(|e| e.contains(name))
    }

    /// The module `name` (the first of that name).
    pub fn module(&self, name: &str) -> Option<ModuleId> {
        self.modules.get(name).copied()
    }
}

/// What a call to `callee` in module `mid` calls.
pub fn resolve<'p>(program: &'p Program, index: &Index<'p>, mid: ModuleId, callee: &'p str) -> Option<Target<'p>> {
    if let Some(b) = Builtin::from_name(callee) {
        return Some(Target::Builtin(b));
    }
    let m = &program.modules[mid];
    if let Some(fid) = index.function(mid, callee) {
        return Some(Target::Func(mid, fid));
    }
    if let Some(target) = m.function_aliases.get(callee) {
        if let Some(fid) = index.function(mid, target) {
            return Some(Target::Func(mid, fid));
        }
    }
    if let Some(sym) = m.intrinsic_imports.get(callee) {
        return Some(Target::Intrinsic(sym.as_str()));
    }
    if let Some(imp) = m.post_imports.get(callee) {
        let other = index.module(&imp.module_name)?;
        let om = &program.modules[other];
        let name = om.function_aliases.get(&imp.source_name).unwrap_or(&imp.source_name);
        return index.function(other, name).map(|fid| Target::Func(other, fid));
    }
    None
}

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

/// The functions whose calls of POST functions count the depth (the
/// runtime's [`crate::abi::DEPTH`]) and panic
/// `recursion limit exceeded` when a call would make more than
/// [`postc_ir::interp::MAX_FRAMES`] frames, as the reference interpreter
/// does: those on a cycle of the call graph, those a cycle calls
/// (transitively) and those that call one (transitively). While a cycle's
/// frame is on the stack every frame is one of those, so the count is the
/// interpreter's; without one the depth is bounded by the longest chain of
/// calls. Functions that run on the GPU, and what they call, count nothing.
pub fn depth_counted<'p>(program: &'p Program, index: &Index<'p>) -> HashSet<(ModuleId, FuncId)> {
    let mut ids: Vec<(ModuleId, FuncId)> = Vec::new();
    let mut slot: HashMap<(ModuleId, FuncId), usize> = HashMap::new();
    for (mid, m) in program.modules.iter_enumerated() {
        for (fid, _) in m.functions.iter_enumerated() {
            slot.insert((mid, fid), ids.len());
            ids.push((mid, fid));
        }
    }
    let n = ids.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, &(mid, fid)) in ids.iter().enumerate() {
        let f = &program.modules[mid].functions[fid];
        // A compiler-made function (a ufunc's inner loop) is no frame of
        // the program: the body it calls is the first, as when NumPy calls
        // the loop the backends wrote.
        if f.attrs.contains(postc_ir::FuncAttrs::COMPILER_MADE) {
            continue;
        }
        let body = &f.body;
        for v in body.tags.ids() {
            if let InstData::Call { callee, .. } = body.inst(v) {
                if let Some(Target::Func(cm, cf)) = resolve(program, index, mid, callee) {
                    succ[i].push(slot[&(cm, cf)]);
                }
            }
        }
        succ[i].sort_unstable();
        succ[i].dedup();
    }
    let on_cycle = cyclic(&succ);
    if !on_cycle.iter().any(|&c| c) {
        return HashSet::new();
    }
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, ss) in succ.iter().enumerate() {
        for &j in ss {
            pred[j].push(i);
        }
    }
    let reach = |edges: &[Vec<usize>], from: &[bool]| -> Vec<bool> {
        let mut seen = from.to_vec();
        let mut work: Vec<usize> = (0..n).filter(|&i| from[i]).collect();
        while let Some(i) = work.pop() {
            for &j in &edges[i] {
                if !seen[j] {
                    seen[j] = true;
                    work.push(j);
                }
            }
        }
        seen
    };
    let below = reach(&succ, &on_cycle);
    let above = reach(&pred, &on_cycle);
    let gpu: Vec<bool> = ids.iter().map(|&(m, f)| program.modules[m].functions[f].attrs.is_gpu()).collect();
    let device = reach(&succ, &gpu);
    (0..n).filter(|&i| (below[i] || above[i]) && !device[i]).map(|i| ids[i]).collect()
}

/// Which nodes of a graph lie on a cycle (Tarjan's strongly connected
/// components, without recursion).
fn cyclic(succ: &[Vec<usize>]) -> Vec<bool> {
    let n = succ.len();
    const NONE: usize = usize::MAX;
    let (mut num, mut low) = (vec![NONE; n], vec![0usize; n]);
    let mut on_stack = vec![false; n];
    let (mut stack, mut out) = (Vec::new(), vec![false; n]);
    let mut next = 0usize;
    for root in 0..n {
        if num[root] != NONE {
            continue;
        }
        // (node, next successor to visit)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        num[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if num[w] == NONE {
                    num[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(num[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == num[v] {
                let mut members = Vec::new();
                loop {
                    let w = stack.pop().expect("the component's nodes are on the stack");
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cycle = members.len() > 1 || succ[v].contains(&v);
                for w in members {
                    out[w] = cycle;
                }
            }
        }
    }
    out
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

/// Whether `f` is a panic path that the compiler made (what `cold-outline`
/// makes: a module-private `cold noinline noreturn` function), known by
/// its attributes and reserved name.
pub fn is_panic_thunk(f: &Function) -> bool {
    f.name.starts_with(postc_ir::builtins::PREFIX)
        && f.attrs.contains(FuncAttrs::COLD | FuncAttrs::NOINLINE | FuncAttrs::NORETURN)
}

/// The chunk function that a `postc.parallel_for` call of `f` names (its
/// first argument, a constant `Str`), or the message of a malformed call.
pub fn parallel_chunk(m: &postc_ir::Module, f: &Function, args: &[postc_ir::ValueId]) -> Result<FuncId, String> {
    let InstData::Const(postc_ir::body::Literal::Str(name)) = f.body.inst(args[0]) else {
        return Err("`postc.parallel_for` needs a constant chunk function name".into());
    };
    m.get_function(name).ok_or_else(|| format!("`postc.parallel_for`: no chunk function `{name}`"))
}
