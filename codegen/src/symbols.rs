//! The symbols of a prepared program, decided once for every backend
//! ([`SymbolPlan`]): which functions are exported and under which symbol,
//! how each private function is named, the aliases, the exported ufuncs'
//! entry points, and the diagnostics for what cannot be a symbol: an
//! exported name defined by two modules, an alias of no function or
//! defined twice, a name the backend cannot export, a device function a
//! host-only backend cannot compile.
//!
//! A backend describes only what is its own ([`Conventions`]): how it
//! spells a private function's symbol, which exported names it cannot
//! take, which device functions it compiles. It then builds its signatures
//! from the plan.

use crate::calls::Index;
use crate::ufunc_plan;
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{FuncAttrs, FuncId, Function, Module, ModuleId, Program};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// The backends that compile `gpu` and `kernel` functions, as the messages
/// of those that cannot name them.
pub const GPU_BACKENDS: &str = "the LLVM backend (`--backend llvm`, NVPTX or AMDGPU)";

/// Which device functions a backend compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceFunctions {
    /// Every one (the LLVM backend).
    Compiled,
    /// `gpu(fallback)` functions as their host body; other `gpu` functions
    /// and `kernel` functions are refused. `refusal` says, after "which",
    /// that the backend does not take them.
    FallbackHostBody { refusal: &'static str },
    /// Every `gpu` function as its host body; `kernel` functions are
    /// refused (`refusal` as above).
    GpuHostBody { refusal: &'static str },
}

/// What a backend decides for itself about symbols.
#[derive(Clone, Copy, Debug)]
pub struct Conventions {
    /// The symbol of the private function `function` of module `module`.
    pub private_symbol: fn(module: &str, function: &str) -> String,
    /// The diagnostic's text when the backend cannot export `name`.
    pub cannot_export: fn(name: &str) -> Option<String>,
    pub device: DeviceFunctions,
}

/// A function's symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// Exported, or private to the compiled code.
    pub exported: bool,
}

/// An exported symbol: a function under its own name, or an alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    pub symbol: String,
    /// The function it names (an alias's target).
    pub function: (ModuleId, FuncId),
    /// Where the function or the alias is declared.
    pub at: Option<Pos>,
    pub alias: bool,
}

/// The symbols of a program for one backend.
#[derive(Clone, Debug, Default)]
pub struct SymbolPlan {
    /// The symbol of every function the backend compiles.
    symbols: HashMap<(ModuleId, FuncId), Symbol>,
    /// The exported symbols in declaration order: per module, its
    /// functions, then its aliases.
    pub exported: Vec<Export>,
    exported_names: HashSet<String>,
    /// Everything that cannot be a symbol, in declaration order; the
    /// backend must not emit code when there is any.
    pub diags: Vec<Diagnostic>,
}

/// Why exported name `name` cannot be exported, if it cannot: a name of
/// the symbols that names starting with `_` get (see
/// [`crate::abi::export_symbol`]), or one the backend refuses. A name
/// starting with `_` is exported under a symbol of postc's making, which
/// every backend takes.
fn export_refusal(name: &str, conventions: &Conventions) -> Option<String> {
    if name.starts_with(crate::abi::EXPORT_PREFIX) {
        return Some(format!(
            "`{name}` cannot be exported: names starting `{}` are the symbols of exported names that start with `_`",
            crate::abi::EXPORT_PREFIX
        ));
    }
    if name.starts_with('_') {
        return None;
    }
    (conventions.cannot_export)(name)
}

impl SymbolPlan {
    /// Decides the symbols of `program` (prepared, so verified) under a
    /// backend's `conventions`.
    pub fn new(program: &Program, index: &Index<'_>, conventions: &Conventions) -> SymbolPlan {
        let mut plan = SymbolPlan::default();
        // Symbol → the module that defines it.
        let mut taken: HashMap<String, &str> = HashMap::new();
        for (mid, m) in program.modules.iter_enumerated() {
            for (fid, f) in m.functions.iter_enumerated() {
                let at = f.loc.map(|l| Pos::from_loc(&m.files, l));
                if let Some(message) = refusal(f, conventions.device) {
                    plan.diags.push(Diagnostic::error(message, at));
                    continue;
                }
                if let Some(symbol) = ufunc_loop_symbol(m, mid, f, index) {
                    // Its ufunc's `NAME_loop` or `NAME_dl`; a clash with another export
                    // is the ufunc's diagnostic (see [`SymbolPlan::ufuncs`]).
                    plan.symbols.insert((mid, fid), Symbol { name: symbol, exported: true });
                    continue;
                }
                let exported = !f.name.starts_with(postc_ir::builtins::PREFIX) && index.is_exported(mid, &f.name);
                let name = if exported {
                    crate::abi::export_symbol(&f.name).into_owned()
                } else {
                    (conventions.private_symbol)(&m.name, &f.name)
                };
                if exported {
                    if let Some(message) = export_refusal(&f.name, conventions) {
                        plan.diags.push(Diagnostic::error(message, at.clone()));
                    }
                }
                // Private symbols take part too: two functions under one
                // symbol would not link, whatever their linkage.
                if let Some(prev) = taken.insert(name.clone(), &m.name) {
                    plan.diags.push(Diagnostic::error(
                        format!("symbol `{name}` is exported by both module `{prev}` and module `{}`", m.name),
                        at.clone(),
                    ));
                }
                if exported {
                    plan.export(Export { symbol: name.clone(), function: (mid, fid), at, alias: false });
                }
                plan.symbols.insert((mid, fid), Symbol { name, exported });
            }
            for (alias, target) in &m.function_aliases {
                let at = m.decl_locs.aliases.get(alias).map(|l| Pos::from_loc(&m.files, *l));
                let Some(fid) = index.function(mid, target) else {
                    plan.diags.push(Diagnostic::error(format!("alias `{alias}` names no function `{target}`"), at));
                    continue;
                };
                if !index.is_exported(mid, alias) && m.export_all.is_some() {
                    continue;
                }
                if let Some(message) = export_refusal(alias, conventions) {
                    plan.diags.push(Diagnostic::error(message, at.clone()));
                }
                let symbol = crate::abi::export_symbol(alias).into_owned();
                if taken.insert(symbol.clone(), &m.name).is_some() {
                    plan.diags.push(Diagnostic::error(format!("alias symbol `{symbol}` is defined twice"), at));
                    continue;
                }
                plan.export(Export { symbol, function: (mid, fid), at, alias: true });
            }
        }
        plan
    }

    /// [`SymbolPlan::new`], its diagnostics an error.
    pub fn checked(
        program: &Program,
        index: &Index<'_>,
        conventions: &Conventions,
    ) -> Result<SymbolPlan, Vec<Diagnostic>> {
        let plan = SymbolPlan::new(program, index, conventions);
        if plan.diags.is_empty() {
            Ok(plan)
        } else {
            Err(plan.diags)
        }
    }

    /// The functions with a symbol, the backend's to define, in the
    /// program's order.
    pub fn defined<'p>(&'p self, program: &'p Program) -> impl Iterator<Item = (ModuleId, FuncId)> + 'p {
        program.modules.iter_enumerated().flat_map(move |(mid, m)| {
            m.functions.ids().map(move |fid| (mid, fid)).filter(|k| self.symbols.contains_key(k))
        })
    }

    fn export(&mut self, e: Export) {
        self.exported_names.insert(e.symbol.clone());
        self.exported.push(e);
    }

    /// The symbol of a function, or `None` for one the backend refused.
    pub fn symbol(&self, mid: ModuleId, fid: FuncId) -> Option<&Symbol> {
        self.symbols.get(&(mid, fid))
    }

    /// The signature of every function with a symbol, as `signature`
    /// makes it from the function and its symbol.
    pub fn signatures<S>(
        &self,
        program: &Program,
        mut signature: impl FnMut(&Module, &Function, &Symbol) -> S,
    ) -> HashMap<(ModuleId, FuncId), S> {
        let mut out = HashMap::with_capacity(self.symbols.len());
        for (mid, m) in program.modules.iter_enumerated() {
            for (fid, f) in m.functions.iter_enumerated() {
                if let Some(s) = self.symbol(mid, fid) {
                    out.insert((mid, fid), signature(m, f, s));
                }
            }
        }
        out
    }

    /// Whether `name` is an exported symbol (a function's or an alias's).
    pub fn is_exported(&self, name: &str) -> bool {
        self.exported_names.contains(name)
    }

    /// The aliases, in declaration order.
    pub fn aliases(&self) -> impl Iterator<Item = &Export> {
        self.exported.iter().filter(|e| e.alias)
    }

    /// The exported functions under their own names, in declaration order.
    pub fn exported_functions(&self) -> impl Iterator<Item = &Export> {
        self.exported.iter().filter(|e| !e.alias)
    }

    /// The entry points of every exported ufunc, in declaration order: its
    /// plan, with the body's symbol. A ufunc the plan cannot take, or whose
    /// `NAME_loop` or `NAME_dl` is the name of another export, is a
    /// diagnostic.
    #[allow(clippy::type_complexity)]
    pub fn ufuncs(&self, program: &Program) -> Result<Vec<((ModuleId, FuncId), ufunc_plan::Plan)>, Vec<Diagnostic>> {
        let mut out = Vec::new();
        let mut diags = Vec::new();
        for e in self.exported_functions() {
            let (mid, fid) = e.function;
            let m = &program.modules[mid];
            let f = &m.functions[fid];
            if !f.is_ufunc() {
                continue;
            }
            match ufunc_plan::Plan::new(m, f) {
                Ok(mut plan) => {
                    plan.symbol = e.symbol.clone();
                    for entry in [crate::abi::loop_symbol(&plan.symbol), crate::abi::dl_symbol(&plan.symbol)] {
                        if self.is_exported(&entry) {
                            diags.push(Diagnostic::error(
                                format!(
                                    "ufunc `{}`: its entry point `{entry}` has the name of another exported function",
                                    f.name
                                ),
                                e.at.clone(),
                            ));
                        }
                    }
                    out.push(((mid, fid), plan));
                }
                Err(message) => diags.push(Diagnostic::error(message, e.at.clone())),
            }
        }
        if diags.is_empty() {
            Ok(out)
        } else {
            Err(diags)
        }
    }
}

/// The symbol of `f` when it is an entry point that `ufunc-entry` or
/// `ufunc-dl` wrote for an exported ufunc of its module: that ufunc's
/// `NAME_loop` or `NAME_dl`.
fn ufunc_loop_symbol(m: &Module, mid: ModuleId, f: &Function, index: &Index<'_>) -> Option<String> {
    if !f.attrs.contains(FuncAttrs::COMPILER_MADE) {
        return None;
    }
    let (ufunc, symbol): (&str, fn(&str) -> String) = match f.name.strip_prefix(postc_passes::ufunc_entry::LOOP_PREFIX)
    {
        Some(ufunc) => (ufunc, crate::abi::loop_symbol),
        None => (f.name.strip_prefix(postc_passes::ufunc_dl::DL_PREFIX)?, crate::abi::dl_symbol),
    };
    let body = &m.functions[index.function(mid, ufunc)?];
    (body.is_ufunc() && index.is_exported(mid, ufunc)).then(|| symbol(&crate::abi::export_symbol(ufunc)))
}

/// Why a backend that compiles `device` functions as described refuses
/// `f`, if it does.
fn refusal(f: &Function, device: DeviceFunctions) -> Option<String> {
    let kernel = f.attrs.contains(FuncAttrs::KERNEL);
    let (refusal, host_body) = match device {
        DeviceFunctions::Compiled => return None,
        DeviceFunctions::FallbackHostBody { refusal } => {
            if !f.attrs.is_device() || f.attrs.contains(FuncAttrs::GPU_FALLBACK) {
                return None;
            }
            (refusal, "`gpu(fallback)`")
        }
        DeviceFunctions::GpuHostBody { refusal } => {
            if !kernel {
                return None;
            }
            (refusal, "`gpu`")
        }
    };
    let what = if kernel { "a `kernel` function" } else { "a `gpu` function" };
    Some(format!(
        "`{}` is {what}, which {refusal} (it compiles host code, and {host_body} functions as their host body): \
         use {GPU_BACKENDS}",
        f.name
    ))
}

/// An injective spelling of an IR name as a C identifier part: letters and
/// digits stay, `_` is `__`, `.` is `_d`, `$` is `_s`, anything else `_xHH`
/// (so a private symbol `PREFIX_<module>_P<function>` names one function).
pub fn c_ident(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => out.push(b as char),
            b'_' => out.push_str("__"),
            b'.' => out.push_str("_d"),
            b'$' => out.push_str("_s"),
            _ => {
                let _ = write!(out, "_x{b:02x}");
            }
        }
    }
    out
}

/// The private symbol of the backends whose symbols are LLVM's or
/// WebAssembly's names, which may hold a `.`: `module.function`.
pub fn dotted_private_symbol(module: &str, function: &str) -> String {
    format!("{module}.{function}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(sources: &[&str]) -> Program {
        let mut p = Program::default();
        for (i, src) in sources.iter().enumerate() {
            let m = postc_ir::parse::parse_str(&format!("m{i}.pir"), src).expect("the test module parses");
            p.modules.push(m);
        }
        p.link_dependencies();
        p
    }

    fn plan_for(p: &Program, conventions: &Conventions) -> SymbolPlan {
        SymbolPlan::new(p, &Index::new(p), conventions)
    }

    fn messages(plan: &SymbolPlan) -> Vec<String> {
        plan.diags.iter().map(ToString::to_string).collect()
    }

    fn never(_: &str) -> Option<String> {
        None
    }

    fn c_private(module: &str, function: &str) -> String {
        format!("postc_{}_P{}", c_ident(module), c_ident(function))
    }

    const DOTTED: Conventions =
        Conventions { private_symbol: dotted_private_symbol, cannot_export: never, device: DeviceFunctions::Compiled };

    /// A function of four lines, `attrs` after its parameters.
    fn func(name: &str, attrs: &str) -> String {
        format!("func {name}(%x: Float64){attrs} {{\nentry:\n  return\n}}\n")
    }

    #[test]
    fn exported_and_private_symbols_in_declaration_order() {
        let src = format!("module lib\nexport f, g\n{}{}{}", func("f", ""), func("h_1", ""), func("g", ""));
        let p = program(&[&src]);
        let plan = plan_for(&p, &DOTTED);
        assert!(plan.diags.is_empty(), "{:?}", messages(&plan));
        let m = ModuleId::from_u32(0);
        let sym = |i| plan.symbol(m, FuncId::from_u32(i)).cloned().unwrap();
        assert_eq!(sym(0), Symbol { name: "f".into(), exported: true });
        assert_eq!(sym(1), Symbol { name: "lib.h_1".into(), exported: false });
        assert_eq!(sym(2), Symbol { name: "g".into(), exported: true });
        let exported: Vec<&str> = plan.exported.iter().map(|e| e.symbol.as_str()).collect();
        assert_eq!(exported, ["f", "g"]);
        assert!(plan.is_exported("g") && !plan.is_exported("lib.h_1") && !plan.is_exported("h_1"));
        let sigs = plan.signatures(&p, |_, f, s| format!("{} as {}", f.name, s.name));
        assert_eq!(sigs.len(), 3);
        assert_eq!(sigs[&(m, FuncId::from_u32(1))], "h_1 as lib.h_1");
    }

    #[test]
    fn private_symbols_are_spelled_by_the_backend() {
        let src = format!("module my_lib\nexport f\n{}{}", func("f", ""), func("h_1", ""));
        let p = program(&[&src]);
        let c = plan_for(&p, &Conventions { private_symbol: c_private, ..DOTTED });
        let private = c.symbol(ModuleId::from_u32(0), FuncId::from_u32(1)).unwrap();
        assert_eq!(private.name, "postc_my__lib_Ph__1");
        assert!(!private.exported);
        let dotted = plan_for(&p, &DOTTED);
        assert_eq!(dotted.symbol(ModuleId::from_u32(0), FuncId::from_u32(1)).unwrap().name, "my_lib.h_1");
    }

    #[test]
    fn c_ident_is_one_to_one_on_the_private_spelling() {
        // Without `_` doubled these two would share a symbol.
        assert_ne!(c_private("a", "b_Pc"), c_private("a_Pb", "c"));
        assert_eq!(c_ident("x$y-z"), "x_sy_x2dz");
    }

    #[test]
    fn an_exported_name_of_two_modules_is_located_at_the_second() {
        let a = format!("module a\n{}", func("f", ""));
        let b = format!("module b\n\n{}", func("f", ""));
        let p = program(&[&a, &b]);
        let plan = plan_for(&p, &DOTTED);
        assert_eq!(messages(&plan), ["m1.pir:3:1: error: symbol `f` is exported by both module `a` and module `b`"]);
    }

    #[test]
    fn aliases_name_their_target_and_are_exported_after_the_functions() {
        let src = format!("module lib\nalias l2 = f\nexport f, l2\n{}", func("f", ""));
        let p = program(&[&src]);
        let plan = plan_for(&p, &DOTTED);
        assert!(plan.diags.is_empty(), "{:?}", messages(&plan));
        let aliases: Vec<&Export> = plan.aliases().collect();
        assert_eq!(aliases.len(), 1);
        assert_eq!(aliases[0].symbol, "l2");
        assert_eq!(aliases[0].function, (ModuleId::from_u32(0), FuncId::from_u32(0)));
        assert_eq!(aliases[0].at.as_ref().map(ToString::to_string).as_deref(), Some("m0.pir:2:7"));
        assert!(plan.is_exported("l2"));
        assert_eq!(plan.exported_functions().map(|e| e.symbol.as_str()).collect::<Vec<_>>(), ["f"]);
    }

    #[test]
    fn an_alias_left_out_of_the_exports_is_no_symbol() {
        let src = format!("module lib\nalias l2 = f\nexport f\n{}", func("f", ""));
        let p = program(&[&src]);
        let plan = plan_for(&p, &DOTTED);
        assert!(plan.diags.is_empty() && plan.aliases().next().is_none() && !plan.is_exported("l2"));
    }

    #[test]
    fn an_alias_of_no_function_and_an_alias_defined_twice_are_located() {
        let mut p =
            program(&[&format!("module a\nalias g = f\n{}", func("f", "")), &format!("module b\n{}", func("g", ""))]);
        p.modules[ModuleId::from_u32(0)].function_aliases.insert("nothing".into(), "absent".into());
        let plan = plan_for(&p, &DOTTED);
        // Module `a` comes first: its alias `g` takes the name that module
        // `b`'s function then collides with.
        assert_eq!(
            messages(&plan),
            [
                "error: alias `nothing` names no function `absent`",
                "m1.pir:2:1: error: symbol `g` is exported by both module `a` and module `b`"
            ]
        );
        let twice =
            program(&[&format!("module a\n{}", func("g", "")), &format!("module b\nalias g = f\n{}", func("f", ""))]);
        let plan = plan_for(&twice, &DOTTED);
        assert_eq!(messages(&plan), ["m1.pir:2:7: error: alias symbol `g` is defined twice"]);
        assert!(plan.aliases().next().is_none());
    }

    #[test]
    fn names_the_backend_cannot_export_are_refused_with_its_reason() {
        fn no_main(name: &str) -> Option<String> {
            (name == "main" || name == "entry").then(|| format!("`{name}` cannot be exported here"))
        }
        let src = format!("module lib\nalias entry = main\n{}{}", func("main", ""), func("ok", ""));
        let p = program(&[&src]);
        let plan = plan_for(&p, &Conventions { cannot_export: no_main, ..DOTTED });
        assert_eq!(
            messages(&plan),
            ["m0.pir:3:1: error: `main` cannot be exported here", "m0.pir:2:7: error: `entry` cannot be exported here"]
        );
        // A private function's symbol is the backend's own: never refused.
        let src = format!("module lib\nexport ok\n{}{}", func("main", ""), func("ok", ""));
        let p = program(&[&src]);
        assert!(plan_for(&p, &Conventions { cannot_export: no_main, ..DOTTED }).diags.is_empty());
    }

    #[test]
    fn host_only_backends_refuse_device_functions_as_they_say() {
        let src = format!(
            "module dev\n{}{}{}{}",
            func("k", " kernel"),
            func("g", " gpu"),
            func("fb", " gpu(fallback)"),
            func("host", "")
        );
        let p = program(&[&src]);
        let all = plan_for(&p, &DOTTED);
        assert!(all.diags.is_empty(), "{:?}", messages(&all));
        assert_eq!(all.exported.len(), 4);

        let fallback = plan_for(
            &p,
            &Conventions {
                device: DeviceFunctions::FallbackHostBody { refusal: "the X backend cannot compile" },
                ..DOTTED
            },
        );
        assert_eq!(
            messages(&fallback),
            [
                "m0.pir:2:1: error: `k` is a `kernel` function, which the X backend cannot compile (it compiles host \
                 code, and `gpu(fallback)` functions as their host body): use the LLVM backend (`--backend llvm`, \
                 NVPTX or AMDGPU)",
                "m0.pir:6:1: error: `g` is a `gpu` function, which the X backend cannot compile (it compiles host \
                 code, and `gpu(fallback)` functions as their host body): use the LLVM backend (`--backend llvm`, \
                 NVPTX or AMDGPU)",
            ]
        );
        let m = ModuleId::from_u32(0);
        assert!(fallback.symbol(m, FuncId::from_u32(0)).is_none() && fallback.symbol(m, FuncId::from_u32(1)).is_none());
        assert_eq!(fallback.exported_functions().map(|e| e.symbol.as_str()).collect::<Vec<_>>(), ["fb", "host"]);

        let gpu = plan_for(
            &p,
            &Conventions {
                device: DeviceFunctions::GpuHostBody { refusal: "is not supported by the Y backend" },
                ..DOTTED
            },
        );
        assert_eq!(
            messages(&gpu),
            ["m0.pir:2:1: error: `k` is a `kernel` function, which is not supported by the Y backend (it compiles \
              host code, and `gpu` functions as their host body): use the LLVM backend (`--backend llvm`, NVPTX or \
              AMDGPU)"]
        );
        assert_eq!(gpu.exported_functions().map(|e| e.symbol.as_str()).collect::<Vec<_>>(), ["g", "fb", "host"]);
    }

    #[test]
    fn ufunc_entry_points_may_not_take_an_exported_name() {
        let ufunc =
            "ufunc sq(%x: Float64) -> Float64 \"()->()\" {\nentry:\n  %r: Float64 = mul %x, %x\n  return %r\n}\n";
        let clash = format!("module u\n{ufunc}{}", func("sq_loop", ""));
        let p = program(&[&clash]);
        let plan = plan_for(&p, &DOTTED);
        assert!(plan.diags.is_empty(), "{:?}", messages(&plan));
        let err = plan.ufuncs(&p).unwrap_err();
        let text: Vec<String> = err.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            ["m0.pir:2:1: error: ufunc `sq`: its entry point `sq_loop` has the name of another exported function"]
        );
        let fine = program(&[&format!("module u\nexport sq\n{ufunc}{}", func("sq_loop", ""))]);
        let plan = plan_for(&fine, &DOTTED);
        let ufuncs = plan.ufuncs(&fine).unwrap();
        assert_eq!(ufuncs.len(), 1);
        assert_eq!(ufuncs[0].0, (ModuleId::from_u32(0), FuncId::from_u32(0)));
        assert_eq!(ufuncs[0].1.symbol, "sq");
    }
}
