//! `cold-outline`: every panic path moves out of line. A block that ends in
//! `call postc.panic(%msg, args...)` and `unreachable` calls instead a
//! module-private `cold noinline noreturn` function `postc.cold.panic.N`
//! that makes the same call at the same location. Functions are shared by
//! every path with the same rendered message and location; runtime parts
//! of the message (an index, a size, a message not known at compile time)
//! travel as parameters. The branch into a panic path is weighted 2000:1.

use crate::analysis::AnalysisSet;
use crate::insert_checks::GUARD_WEIGHTS;
use crate::scratch::{Scratch, Workers};
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::body::{InstData, Literal, ValueId};
use postc_ir::builtins::PANIC;
use postc_ir::diag::Diagnostic;
use postc_ir::{BlockId, EntityId, FuncAttrs, FunctionBuilder, Module, Opcode, SrcLoc, TypeId};
use rayon::prelude::*;
use smallvec::SmallVec;
use std::collections::HashMap;

pub struct ColdOutline;

pub static INFO: PassInfo = PassInfo {
    name: "cold-outline",
    description: "move panic paths into shared module-private cold noinline noreturn functions",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

/// The prefix of outlined panic functions.
pub const THUNK_PREFIX: &str = "postc.cold.panic.";

/// What makes two panic paths the same: the message (or `None` when it is
/// only known at run time), the location and the number of arguments.
/// Borrowed from the bodies and the file table, which stay unchanged while
/// thunks are chosen; the hash is computed with the key, on the worker
/// that found the site.
#[derive(Clone, Copy)]
struct KeyRef<'a> {
    message: Option<&'a str>,
    loc: Option<(&'a str, u32, u32)>,
    nargs: usize,
    hash: u64,
}

impl<'a> KeyRef<'a> {
    fn new(message: Option<&'a str>, loc: Option<(&'a str, u32, u32)>, nargs: usize) -> KeyRef<'a> {
        // FNV-1a over the parts: a hash that depends on the key alone.
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        };
        match message {
            Some(m) => {
                eat(&[1]);
                eat(m.as_bytes());
            }
            None => eat(&[0]),
        }
        if let Some((p, l, c)) = loc {
            eat(p.as_bytes());
            eat(&l.to_le_bytes());
            eat(&c.to_le_bytes());
        }
        eat(&(nargs as u64).to_le_bytes());
        KeyRef { message, loc, nargs, hash: h }
    }

    fn matches(&self, k: &KeyRef<'_>) -> bool {
        self.hash == k.hash && self.message == k.message && self.loc == k.loc && self.nargs == k.nargs
    }
}

/// The thunks of the module, found by key.
#[derive(Default)]
struct Thunks<'a> {
    names: Vec<String>,
    keys: Vec<KeyRef<'a>>,
    by_hash: HashMap<u64, Vec<u32>>,
}

impl<'a> Thunks<'a> {
    fn find(&self, k: &KeyRef<'_>) -> Option<u32> {
        let c = self.by_hash.get(&k.hash)?;
        c.iter().copied().find(|&i| k.matches(&self.keys[i as usize]))
    }
    fn insert(&mut self, k: KeyRef<'a>, name: String) -> u32 {
        let i = self.names.len() as u32;
        self.by_hash.entry(k.hash).or_default().push(i);
        self.keys.push(k);
        self.names.push(name);
        i
    }
}

/// The key of a panic site of `body`.
fn site_key<'a>(body: &'a postc_ir::Body, files: &'a postc_ir::FileTable, site: &Site) -> KeyRef<'a> {
    let loc = body.loc(site.call).map(|l| (files.path(l.file), l.line, l.col));
    KeyRef::new(site.message(body), loc, site.args.len())
}

/// A thunk to make: its name, what it panics with and where.
struct ThunkSpec<'a> {
    name: String,
    message: Option<&'a str>,
    arg_types: SmallVec<[TypeId; 4]>,
    loc: Option<SrcLoc>,
}

impl ModulePass for ColdOutline {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    /// Finding the panic paths and their keys, making the thunks and
    /// rewriting the paths run in parallel; only numbering the thunks, in
    /// function order, is serial, so the result does not depend on the
    /// thread count.
    fn run(&self, m: &mut Module, options: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        self.run_on_workers(m, options, &Workers::for_current_pool())
    }

    fn run_on_workers(&self, m: &mut Module, _: &PassOptions, workers: &Workers) -> Result<bool, Vec<Diagnostic>> {
        let (sites, chosen, names, new_funcs) = {
            let Module { functions, files, .. } = &*m;
            let key = |body, site: &Site| site_key(body, files, site);
            // Thunks already present (from an earlier run) are reused, never
            // outlined again: their keys come from the panic call they make.
            let mut thunks = Thunks::default();
            for f in functions.iter().filter(|f| f.name.starts_with(THUNK_PREFIX)) {
                if let Some(site) = panic_sites(&f.body).into_iter().next() {
                    let k = key(&f.body, &site);
                    // As a map insert: a later thunk with the same key wins.
                    match thunks.find(&k) {
                        Some(i) => thunks.names[i as usize] = f.name.clone(),
                        None => {
                            thunks.insert(k, f.name.clone());
                        }
                    }
                }
            }
            let mut next = functions.iter().filter(|f| f.name.starts_with(THUNK_PREFIX)).count();
            let found: Vec<(Vec<Site>, Vec<KeyRef<'_>>)> = functions
                .raw()
                .par_iter()
                .map(|f| {
                    if f.name.starts_with(THUNK_PREFIX) {
                        return (Vec::new(), Vec::new());
                    }
                    let sites = panic_sites(&f.body);
                    let keys = sites.iter().map(|s| key(&f.body, s)).collect();
                    (sites, keys)
                })
                .collect();
            // The thunk of every site, numbered in function then site order.
            let mut specs = Vec::new();
            let mut chosen: Vec<Vec<u32>> = Vec::with_capacity(found.len());
            for (f, (fsites, fkeys)) in functions.raw().iter().zip(&found) {
                let body = &f.body;
                let mut c = Vec::with_capacity(fsites.len());
                for (site, k) in fsites.iter().zip(fkeys) {
                    let t = match thunks.find(k) {
                        Some(t) => t,
                        None => {
                            let name = format!("{THUNK_PREFIX}{next}");
                            next += 1;
                            specs.push(ThunkSpec {
                                name: name.clone(),
                                message: k.message,
                                arg_types: site.args.iter().map(|a| body.types[*a].unwrap_or(TypeId::INT64)).collect(),
                                loc: body.loc(site.call),
                            });
                            thunks.insert(*k, name)
                        }
                    };
                    c.push(t);
                }
                chosen.push(c);
            }
            let new_funcs: Vec<postc_ir::Function> =
                specs.par_iter().map(|s| make_thunk(&s.name, s.message, &s.arg_types, s.loc)).collect();
            let sites: Vec<Vec<Site>> = found.into_iter().map(|(s, _)| s).collect();
            (sites, chosen, thunks.names, new_funcs)
        };
        let changed = sites.iter().any(|s| !s.is_empty());
        let names = &names;
        m.functions.raw_mut().par_iter_mut().zip(&sites).zip(&chosen).for_each(|((f, fsites), c)| {
            if !fsites.is_empty() {
                workers.with(|scratch| {
                    scratch.reset();
                    redirect(f, fsites, c, names, scratch);
                });
            }
        });
        for f in new_funcs {
            m.add_function(f);
        }
        Ok(changed)
    }
}

struct Site {
    block: BlockId,
    call: ValueId,
    /// The message constant, or `None` when the message is computed at run
    /// time.
    message: Option<ValueId>,
    /// Arguments of the thunk: the runtime message first if any, then the
    /// message arguments.
    args: SmallVec<[ValueId; 4]>,
}

impl Site {
    fn message<'b>(&self, body: &'b postc_ir::Body) -> Option<&'b str> {
        match body.inst(self.message?) {
            InstData::Const(Literal::Str(s)) => Some(s),
            _ => None,
        }
    }
}

fn panic_sites(body: &postc_ir::Body) -> Vec<Site> {
    let mut out = Vec::new();
    let tags = body.tags.raw();
    for (bi, d) in body.blocks.raw().iter().enumerate() {
        if d.len() < 2 || tags.get(d.end as usize - 1) != Some(&Opcode::Unreachable) {
            continue;
        }
        let call = ValueId::from_u32(d.end - 2);
        if tags.get(call.index()) != Some(&Opcode::Call) {
            continue;
        }
        let InstData::Call { callee, args } = body.inst(call) else { continue };
        if callee != PANIC || args.is_empty() {
            continue;
        }
        let msg = args.get(0).unwrap_or(call);
        let message = matches!(body.inst(msg), InstData::Const(Literal::Str(_))).then_some(msg);
        let skip = usize::from(message.is_some());
        out.push(Site { block: BlockId::new(bi), call, message, args: args.iter().skip(skip).collect() });
    }
    out
}

fn make_thunk(name: &str, message: Option<&str>, arg_types: &[TypeId], loc: Option<SrcLoc>) -> postc_ir::Function {
    let mut b = FunctionBuilder::new(name);
    b.set_attrs(FuncAttrs::COLD | FuncAttrs::NOINLINE | FuncAttrs::NORETURN);
    let params: Vec<ValueId> = arg_types.iter().enumerate().map(|(i, t)| b.param(&format!("a{i}"), *t)).collect();
    let entry = b.create_block("entry");
    b.switch_to(entry);
    b.set_loc(crate::rewrite::explicit(loc));
    let mut call_args = Vec::with_capacity(params.len() + 1);
    // Without a message known at compile time, the first argument is it.
    if let Some(text) = message {
        call_args.push(b.const_(TypeId::STR, Literal::Str(text), "msg"));
    }
    call_args.extend(params.iter().copied());
    b.call(PANIC, &call_args, None, "");
    b.unreachable();
    b.finish()
}

/// Replaces the panic call of every site by a call of its thunk, weights
/// the branches into the panic blocks, and drops the message constants
/// that only the panic calls read.
fn redirect(f: &mut postc_ir::Function, sites: &[Site], thunk: &[u32], names: &[String], scratch: &Scratch) {
    let body = &mut f.body;
    for (site, &t) in sites.iter().zip(thunk) {
        // The call keeps its slot: rewrite its callee and argument list in place.
        let callee = body.strings.push(names.get(t as usize).map_or("", String::as_str));
        let at = body.extra.len() as u32;
        body.extra.push(site.args.len() as u32);
        body.extra.extend(site.args.iter().map(|a| a.as_u32()));
        body.ops[site.call] = [callee.as_u32(), at];
    }
    // Weight every conditional branch into a panic block toward the other
    // edge, unless that edge panics too (neither is then the likely one).
    let mut panics = vec![false; body.blocks.len()];
    for s in sites {
        panics[s.block.index()] = true;
    }
    let is_panic = |b: u32| panics.get(b as usize).copied().unwrap_or(false);
    let (wt, wf) = GUARD_WEIGHTS;
    for d in body.blocks.raw() {
        let t = d.end.wrapping_sub(1) as usize;
        if d.end <= d.start || body.tags.raw().get(t) != Some(&Opcode::CondBr) {
            continue;
        }
        let e = body.ops.raw()[t][1] as usize;
        let Some(w) = body.extra.get_mut(e..e.saturating_add(4)) else { continue };
        if w[2] != 0 || w[3] != 0 {
            continue;
        }
        let (if_true, if_false) = (w[0], w[1]);
        if is_panic(if_false) && !is_panic(if_true) {
            w[2..4].copy_from_slice(&[wt, wf]);
        } else if is_panic(if_true) && !is_panic(if_false) {
            w[2..4].copy_from_slice(&[wf, wt]);
        }
    }
    drop_dead_messages(f, sites, scratch);
}

/// Drops the message constants that only the redirected panic calls read.
fn drop_dead_messages(func: &mut postc_ir::Function, sites: &[Site], scratch: &Scratch) {
    let uses = crate::analysis::UseCounts::compute_in(&func.body, scratch);
    let mut dead = scratch.filled(func.body.num_insts(), false);
    let mut any = false;
    for c in sites.iter().filter_map(|s| s.message) {
        if uses.get(c.index()) == Some(&0) {
            dead[c.index()] = true;
            any = true;
        }
    }
    if any {
        crate::dce::remove(func, &dead, scratch);
    }
}
