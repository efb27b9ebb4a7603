//! Resolving callees: functions, aliases and imports of the program.

use super::*;

// ---------------------------------------------------------------------------
// Callee resolution.

/// What a call's callee name resolves to.
#[derive(Clone, Copy)]
pub(super) enum Callee<'p> {
    /// A function of this module or, through a post import, of another.
    Func(&'p Module, FuncId),
    Intrinsic,
    Boundary(&'p ImportedName),
    /// A post import, checked only when the whole program is at hand.
    Post,
    /// A name whose declaration is itself in error (reported there).
    Broken,
}

/// Name lookups over the modules of a program, built once.
pub struct ProgramIndex<'p> {
    pub(super) program: &'p Program,
    pub(super) modules: FxMap<&'p str, ModuleId>,
    pub(super) functions: Vec<FxMap<&'p str, FuncId>>,
}

impl<'p> ProgramIndex<'p> {
    pub fn new(program: &'p Program) -> ProgramIndex<'p> {
        let modules = program.modules.iter_enumerated().map(|(id, m)| (m.name.as_str(), id)).collect();
        let functions = program.modules.iter().map(function_map).collect();
        ProgramIndex { program, modules, functions }
    }
}

pub(super) fn function_map(m: &Module) -> FxMap<&str, FuncId> {
    let mut map = FxMap::default();
    for (id, f) in m.functions.iter_enumerated() {
        map.entry(f.name.as_str()).or_insert(id);
    }
    map
}

/// How deep alias and import chains are followed before calling it a cycle.
pub(super) const MAX_CHAIN: u32 = 16;

pub(super) enum Resolved<'p> {
    Callee(Callee<'p>),
    /// The name is not declared.
    Unknown,
    /// Following aliases and imports does not terminate.
    Cycle,
    /// A post import whose module or name is missing.
    BadImport,
}

pub(super) fn resolve<'p>(
    m: &'p Module,
    funcs: &FxMap<&'p str, FuncId>,
    name: &str,
    prog: Option<&ProgramIndex<'p>>,
    depth: u32,
) -> Resolved<'p> {
    if depth > MAX_CHAIN {
        return Resolved::Cycle;
    }
    if let Some(&id) = funcs.get(name) {
        return Resolved::Callee(Callee::Func(m, id));
    }
    if let Some(target) = m.function_aliases.get(name) {
        return resolve(m, funcs, target, prog, depth + 1);
    }
    if m.intrinsic_imports.contains_key(name) {
        return Resolved::Callee(Callee::Intrinsic);
    }
    if let Some(imp) = m.boundary_imports.get(name) {
        return Resolved::Callee(Callee::Boundary(imp));
    }
    if let Some(imp) = m.post_imports.get(name) {
        let Some(prog) = prog else { return Resolved::Callee(Callee::Post) };
        let Some(&dep) = prog.modules.get(imp.module_name.as_str()) else { return Resolved::BadImport };
        let dm = &prog.program.modules[dep];
        let dfuncs = &prog.functions[dep.index()];
        if !dfuncs.contains_key(imp.source_name.as_str()) && !dm.function_aliases.contains_key(&imp.source_name) {
            return Resolved::BadImport;
        }
        return match resolve(dm, dfuncs, &imp.source_name, Some(prog), depth + 1) {
            Resolved::Callee(c) => Resolved::Callee(c),
            Resolved::Cycle => Resolved::Cycle,
            // Reported against the dependency's alias.
            Resolved::Unknown | Resolved::BadImport => Resolved::Callee(Callee::Broken),
        };
    }
    Resolved::Unknown
}
