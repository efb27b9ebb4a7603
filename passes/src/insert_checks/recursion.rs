//! The recursion limit, written out: around every call of a POST function
//! made by a function that counts the depth of calls
//! (`postc_ir::calls::depth_counted`: the functions on a cycle of the call
//! graph, those a cycle calls and those that call one; none that runs on
//! the GPU), it writes
//!
//! ```text
//!   %depth$N: Int64 = call postc.depth()
//!   %limit$N: Int64 = const MAX_FRAMES - 1
//!   %room$N: Bool = lt %depth$N, %limit$N
//!   condbr %room$N, ok$N, panic$N, 2000, 1
//! panic$N:                       ; "recursion limit exceeded" at the call
//!   ...
//! ok$N:
//!   %next$N: Int64 = add %depth$N, 1
//!   call postc.set_depth(%next$N)
//!   (the call)
//!   call postc.set_depth(%depth$N)
//! ```
//!
//! so a call that would make more than the reference interpreter's
//! `MAX_FRAMES` frames panics where the interpreter does, with its message
//! and the call's location. While a cycle's frame is on the stack every
//! frame is a counted one, so the count is the interpreter's. A call of
//! the compiler's panic paths (`cold-outline`'s) is not counted: it never
//! returns. Calls of built-ins and intrinsic imports are not counted, nor
//! is anything in a function that counts nothing, so code without
//! recursion carries no guard.
//!
//! Which functions count depends on the whole program's call graph, so
//! codegen runs [`guard_program`] once on the prepared program, after the
//! `-O` pipeline (whose passes add functions and calls: chunk functions,
//! helpers, panic paths). The pass `insert-recursion-checks` does the same
//! for one module alone, its imports' functions unknown (calls of them
//! count nothing), for `postc-driver opt` and the filetests. Each backend
//! lowers only the two built-ins, where its target keeps thread-local
//! state (docs/backends.md); a panic leaves the count where it was, and
//! the runtime resets it.

use super::Check;
use crate::analysis::AnalysisSet;
use crate::rewrite::{NameGen, Rewriter};
use crate::scratch::Scratch;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::body::{InstData, Literal};
use postc_ir::builtins::{DEPTH, SET_DEPTH};
use postc_ir::calls::{depth_counted, is_panic_thunk, resolve, Index, Target};
use postc_ir::diag::Diagnostic;
use postc_ir::interp::{MAX_FRAMES, RECURSION_MESSAGE};
use postc_ir::{Function, Module, ModuleId, Opcode, Program, TypeId, ValueId};

pub struct InsertRecursionChecks;

pub static INFO: PassInfo = PassInfo {
    name: "insert-recursion-checks",
    description: "count the depth around calls of recursive functions and panic past the interpreter's frame limit",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

impl ModulePass for InsertRecursionChecks {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, m: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        let mut p = Program::from_module(m.clone());
        let changed = !guard_program(&mut p).is_empty();
        if changed {
            *m = p.modules.into_raw().pop().expect("the program holds the module");
        }
        Ok(changed)
    }
}

/// Writes the guard around every counted call of `program` (see the
/// module's header); returns the modules it changed, whose new panic paths
/// codegen then outlines (`cold-outline`) as the pipeline's. Running it
/// twice guards twice: codegen runs it once, on the prepared program.
pub fn guard_program(program: &mut Program) -> Vec<ModuleId> {
    let plan: Vec<_> = {
        let index = Index::new(program);
        let mut counted: Vec<_> = depth_counted(program, &index).into_iter().collect();
        counted.sort_unstable();
        counted
            .into_iter()
            .filter_map(|(mid, fid)| {
                let f = &program.modules[mid].functions[fid];
                let calls: Vec<ValueId> = f
                    .body
                    .tags
                    .ids()
                    .filter(|&v| {
                        let InstData::Call { callee, .. } = f.body.inst(v) else { return false };
                        matches!(resolve(program, &index, mid, callee),
                            Some(Target::Func(cm, cf)) if !is_panic_thunk(&program.modules[cm].functions[cf]))
                    })
                    .collect();
                (!calls.is_empty()).then_some((mid, fid, calls))
            })
            .collect()
    };
    let mut scratch = Scratch::new();
    for (mid, fid, calls) in &plan {
        guard_calls(&mut program.modules[*mid].functions[*fid], calls, &scratch);
        scratch.reset();
    }
    let mut changed: Vec<ModuleId> = plan.iter().map(|(mid, _, _)| *mid).collect();
    changed.dedup();
    changed
}

/// Rebuilds `f` with the guard around each of `calls` (in id order).
fn guard_calls(f: &mut Function, calls: &[ValueId], scratch: &Scratch) {
    let old = std::mem::take(&mut f.body);
    let mut c = Check::new(Rewriter::new(&old, scratch), NameGen::new(&old));
    let (depth, set_depth) = (c.rw.intern(DEPTH), c.rw.intern(SET_DEPTH));
    for b in old.blocks.ids() {
        c.rw.begin_old_block(b);
        let d = old.blocks[b];
        let mut run_start = d.start;
        let first = calls.partition_point(|v| v.as_u32() < d.start);
        for &v in calls[first..].iter().take_while(|v| v.as_u32() < d.end) {
            c.rw.copy_range(ValueId::from_u32(run_start), v);
            run_start = v.as_u32() + 1;
            let loc = old.loc(v);
            let name = c.rw.fresh_name(&mut c.names, &[b"depth"]);
            let now = c.rw.emit_with_name(Opcode::Call, Some(TypeId::INT64), [depth, 0], &[0], Some(name), loc);
            let name = c.rw.fresh_name(&mut c.names, &[b"limit"]);
            let limit =
                c.rw.emit_const_with_name(TypeId::INT64, Literal::Int(MAX_FRAMES as i128 - 1), Some(name), None);
            let room = c.value(Opcode::Lt, TypeId::BOOL, [now.as_u32(), limit.as_u32()], "room", loc);
            c.guard(room, RECURSION_MESSAGE, &[], loc);
            let name = c.rw.fresh_name(&mut c.names, &[b"one"]);
            let one = c.rw.emit_const_with_name(TypeId::INT64, Literal::Int(1), Some(name), None);
            let next = c.value(Opcode::Add, TypeId::INT64, [now.as_u32(), one.as_u32()], "next", loc);
            c.rw.emit_with_name(Opcode::Call, None, [set_depth, 0], &[1, next.as_u32()], None, loc);
            c.rw.copy(v);
            c.rw.emit_with_name(Opcode::Call, None, [set_depth, 0], &[1, now.as_u32()], None, loc);
        }
        c.rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
    }
    f.body = c.rw.finish();
    scratch.recycle(old);
}
