//! Where calls go, decided once for every stage that needs the call graph
//! of a whole program: name lookups over the program ([`Index`]), what a
//! call names ([`resolve`]), which functions count the depth of calls
//! ([`depth_counted`]: the recursion limit that `insert-checks` writes
//! out) and which are the compiler's panic paths ([`is_panic_thunk`]). It
//! does not lower anything; the backends' own questions about calls
//! (codegen's `calls.rs`) build on it.

use crate::body::InstData;
use crate::builtins::Builtin;
use crate::{EntityId, FuncAttrs, FuncId, Function, ModuleId, Program};
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

/// The functions whose calls of POST functions count the depth (the
/// `postc.depth` built-ins) and panic
/// `recursion limit exceeded` when a call would make more than
/// [`crate::interp::MAX_FRAMES`] frames, as the reference interpreter
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
        if f.attrs.contains(FuncAttrs::COMPILER_MADE) {
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

/// Whether `f` is a panic path that the compiler made (what `cold-outline`
/// makes: a module-private `cold noinline noreturn` function), known by
/// its attributes and reserved name.
pub fn is_panic_thunk(f: &Function) -> bool {
    f.name.starts_with(crate::builtins::PREFIX)
        && f.attrs.contains(FuncAttrs::COLD | FuncAttrs::NOINLINE | FuncAttrs::NORETURN)
}
