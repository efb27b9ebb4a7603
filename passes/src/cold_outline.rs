//! `cold-outline`: every panic path moves out of line. A block that ends in
//! `call postc.panic(%msg, args...)` and `unreachable` calls instead a
//! module-private `cold noinline noreturn` function `postc.cold.panic.N`
//! that makes the same call at the same location. Functions are shared by
//! every path with the same rendered message and location; runtime parts
//! of the message (an index, a size, a message not known at compile time)
//! travel as parameters. The branch into a panic path is weighted 2000:1.

use crate::analysis::AnalysisSet;
use crate::insert_checks::GUARD_WEIGHTS;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::body::{InstData, Literal, ValueId};
use postc_ir::builtins::PANIC;
use postc_ir::diag::Diagnostic;
use postc_ir::{BlockId, EntityId, FuncAttrs, FunctionBuilder, Module, SrcLoc, TypeId};
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
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    message: Option<String>,
    loc: Option<(String, u32, u32)>,
    nargs: usize,
}

impl ModulePass for ColdOutline {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, m: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        // Thunks already present (from an earlier run) are reused, never
        // outlined again: their keys come from the panic call they make.
        let mut thunks: HashMap<Key, String> = HashMap::new();
        for f in m.functions.iter().filter(|f| f.name.starts_with(THUNK_PREFIX)) {
            if let Some(site) = panic_sites(&f.body).into_iter().next() {
                let loc = f.body.loc(site.call).map(|l| (m.files.path(l.file).to_owned(), l.line, l.col));
                thunks.insert(Key { message: site.message, loc, nargs: site.args.len() }, f.name.clone());
            }
        }
        let mut next = m.functions.iter().filter(|f| f.name.starts_with(THUNK_PREFIX)).count();
        let mut new_funcs = Vec::new();
        let mut changed = false;
        let nfuncs = m.functions.len();
        for fi in 0..nfuncs {
            let fid = postc_ir::FuncId::new(fi);
            if m.functions[fid].name.starts_with(THUNK_PREFIX) {
                continue;
            }
            let sites = panic_sites(&m.functions[fid].body);
            if sites.is_empty() {
                continue;
            }
            let mut consts = Vec::new();
            let panic_blocks: Vec<BlockId> = sites.iter().map(|s| s.block).collect();
            for site in sites {
                if site.message.is_some() {
                    if let InstData::Call { args, .. } = m.functions[fid].body.inst(site.call) {
                        consts.extend(args.get(0));
                    }
                }
                let body = &m.functions[fid].body;
                let loc = body.loc(site.call).map(|l| (m.files.path(l.file).to_owned(), l.line, l.col));
                let key = Key { message: site.message.clone(), loc, nargs: site.args.len() };
                let name = match thunks.get(&key) {
                    Some(n) => n.clone(),
                    None => {
                        let name = format!("{THUNK_PREFIX}{next}");
                        next += 1;
                        let arg_types: Vec<TypeId> =
                            site.args.iter().map(|a| body.types[*a].unwrap_or(TypeId::INT64)).collect();
                        new_funcs.push(make_thunk(
                            &name,
                            &key,
                            &arg_types,
                            site.message.is_none(),
                            body.loc(site.call),
                        ));
                        thunks.insert(key, name.clone());
                        name
                    }
                };
                redirect(m, fid, &site, &name, &panic_blocks);
                changed = true;
            }
            drop_dead_messages(&mut m.functions[fid], &consts);
        }
        for f in new_funcs {
            m.add_function(f);
        }
        Ok(changed)
    }
}

struct Site {
    block: BlockId,
    call: ValueId,
    /// The constant message, or `None` when it is computed at run time.
    message: Option<String>,
    /// Arguments of the thunk: the runtime message first if any, then the
    /// message arguments.
    args: Vec<ValueId>,
}

fn panic_sites(body: &postc_ir::Body) -> Vec<Site> {
    let mut out = Vec::new();
    for b in body.blocks.ids() {
        let d = body.blocks[b];
        if d.len() < 2 {
            continue;
        }
        let (call, term) = (ValueId::from_u32(d.end - 2), ValueId::from_u32(d.end - 1));
        if !matches!(body.inst(term), InstData::Unreachable) {
            continue;
        }
        let InstData::Call { callee, args } = body.inst(call) else { continue };
        if callee != PANIC || args.is_empty() {
            continue;
        }
        let msg = args.get(0).unwrap_or(call);
        let message = match body.inst(msg) {
            InstData::Const(Literal::Str(s)) => Some(s.to_owned()),
            _ => None,
        };
        let skip = usize::from(message.is_some());
        out.push(Site { block: b, call, message, args: args.iter().skip(skip).collect() });
    }
    out
}

fn make_thunk(
    name: &str,
    key: &Key,
    arg_types: &[TypeId],
    runtime_message: bool,
    loc: Option<SrcLoc>,
) -> postc_ir::Function {
    let mut b = FunctionBuilder::new(name);
    b.set_attrs(FuncAttrs::COLD | FuncAttrs::NOINLINE | FuncAttrs::NORETURN);
    let params: Vec<ValueId> = arg_types.iter().enumerate().map(|(i, t)| b.param(&format!("a{i}"), *t)).collect();
    let entry = b.create_block("entry");
    b.switch_to(entry);
    b.set_loc(crate::rewrite::explicit(loc));
    let mut call_args = Vec::with_capacity(params.len() + 1);
    if !runtime_message {
        let text = key.message.as_deref().unwrap_or("");
        call_args.push(b.const_(TypeId::STR, Literal::Str(text), "msg"));
    }
    call_args.extend(params.iter().copied());
    b.call(PANIC, &call_args, None, "");
    b.unreachable();
    b.finish()
}

/// Replaces the panic call of a site by a call of the thunk, drops the
/// message constant when nothing else reads it, and weights the branch.
fn redirect(m: &mut Module, fid: postc_ir::FuncId, site: &Site, thunk: &str, panic_blocks: &[BlockId]) {
    let body = &mut m.functions[fid].body;
    // The call keeps its slot: rewrite its callee and argument list in place.
    let callee = body.strings.push(thunk);
    let at = body.extra.len() as u32;
    body.extra.push(site.args.len() as u32);
    body.extra.extend(site.args.iter().map(|a| a.as_u32()));
    body.ops[site.call] = [callee.as_u32(), at];
    // Weight every conditional branch into the panic block toward the other
    // edge, unless that edge panics too (neither is then the likely one).
    let (wt, wf) = GUARD_WEIGHTS;
    for b in body.blocks.ids() {
        let Some(t) = body.terminator(b) else { continue };
        if let InstData::CondBr { if_true, if_false, weights: None, .. } = body.inst(t) {
            let e = body.ops[t][1] as usize;
            if let Some(w) = body.extra.get_mut(e + 2..e + 4) {
                if if_false == site.block && !panic_blocks.contains(&if_true) {
                    w.copy_from_slice(&[wt, wf]);
                } else if if_true == site.block && !panic_blocks.contains(&if_false) {
                    w.copy_from_slice(&[wf, wt]);
                }
            }
        }
    }
}

/// Drops the message constants that only the redirected panic calls read.
fn drop_dead_messages(func: &mut postc_ir::Function, consts: &[ValueId]) {
    let uses = crate::analysis::UseCounts::compute(&func.body);
    let dead: Vec<ValueId> = consts.iter().copied().filter(|c| uses.get(*c) == 0).collect();
    if dead.is_empty() {
        return;
    }
    let old = std::mem::take(&mut func.body);
    let mut rw = crate::rewrite::Rewriter::new(&old);
    for b in old.blocks.ids() {
        rw.begin_old_block(b);
        for v in old.blocks[b].insts() {
            if dead.contains(&v) {
                rw.drop_inst(v);
            } else {
                rw.copy(v);
            }
        }
    }
    func.body = rw.finish();
    crate::rewrite::recycle(old);
}
