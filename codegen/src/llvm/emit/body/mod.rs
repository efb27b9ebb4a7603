//! Builds the LLVM body of one function from its IR tables.

mod arith;

use super::unit::{add_flags, Unit};
use super::{is_panic_thunk, part, resolve, FnSig, Target};
use crate::llvm::debug::{DebugInfo, Described, FnDebug};
use crate::llvm::runtime;
use crate::llvm::Lowered;
use inkwell::attributes::AttributeLoc;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::{Builder, BuilderError};
use inkwell::types::{BasicMetadataTypeEnum, BasicTypeEnum};
use inkwell::values::{
    AsValueRef, BasicMetadataValueEnum, BasicValue, BasicValueEnum, CallSiteValue, FloatValue, FunctionValue,
    InstructionValue, IntValue, PointerValue, StructValue,
};
use inkwell::IntPredicate;
use postc_ir::body::{InstData, Literal};
use postc_ir::builtins::{Builtin, OvfOp};
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{BlockId, DType, Field, FuncAttrs, FuncId, Function, Module, ModuleId, Opcode, ValueId};
use std::collections::{HashMap, HashSet};

/// Why building a body stopped: a located diagnostic, or a builder
/// mistake (an internal error).
enum Fail {
    Diag(Box<Diagnostic>),
    Llvm(String),
}

impl From<BuilderError> for Fail {
    fn from(e: BuilderError) -> Fail {
        Fail::Llvm(e.to_string())
    }
}

type R<T> = Result<T, Fail>;

/// Builds the body of function `id` into `func` (declared with its
/// signature).
pub(super) fn build<'c>(
    unit: &mut Unit<'c, '_>,
    low: &Lowered<'_>,
    functions: &HashMap<(ModuleId, FuncId), FunctionValue<'c>>,
    id: (ModuleId, FuncId),
    func: FunctionValue<'c>,
) -> Result<(), Box<Diagnostic>> {
    let (mid, fid) = id;
    let m = &low.program.modules[mid];
    let f = &m.functions[fid];
    let b = unit.t.cx.create_builder();
    let func_loc = f.loc.map(|l| Pos::from_loc(&m.files, l));
    let dbg = unit.debug.as_mut().map(|d| d.function(mid, m, f, &low.sigs[&id], func));
    let runtime_unroll_off = unit.module.get_triple().as_str().to_bytes().starts_with(b"x86_64");
    let mut fe = FnEmit {
        u: unit,
        low,
        functions,
        b,
        mid,
        m,
        f,
        sig: &low.sigs[&id],
        func,
        entry: None,
        last_temp: None,
        slots: HashMap::new(),
        mark: None,
        blocks: HashMap::new(),
        vals: HashMap::new(),
        tuple_parts: HashMap::new(),
        elem: HashMap::new(),
        frame_views: Vec::new(),
        strides_not_unit: strides_not_unit(&f.body),
        checked_rests: checked_rests(&f.body),
        latches: latches(&f.body),
        runtime_unroll_off,
        func_loc: func_loc.clone(),
        dbg,
    };
    fe.frame_views = fe.frame_views();
    let r = fe.run();
    if let (Some(d), Some(fd)) = (&fe.u.debug, &fe.dbg) {
        d.end_function(fd);
    }
    match r {
        Ok(()) => Ok(()),
        Err(Fail::Diag(d)) => Err(d),
        Err(Fail::Llvm(e)) => Err(Box::new(Diagnostic::error(
            format!("internal code generation error: building the LLVM function of `{}`: {e}", f.name),
            func_loc,
        ))),
    }
}

/// The blocks entered by the false edge of a test that strides are their
/// element sizes (`and`s of `eq (stride a, k), SIZE`): what
/// `stride-version` guards its copy of a loop with, the unit-stride copy on
/// the true edge and the loop over any strides on the false one. LLVM's
/// vectoriser versions a loop over run-time strides on their being one
/// element; on the false edge of such a test that version can never run
/// (the unit-stride copy runs instead), so the loop is marked not to be
/// vectorised or unrolled, which saves its vector versions' compile time
/// and changes no code that runs.
fn strides_not_unit(body: &postc_ir::body::Body) -> HashSet<BlockId> {
    fn stride_is_size(body: &postc_ir::body::Body, v: ValueId) -> bool {
        match body.inst(v) {
            InstData::Binary { op: Opcode::And, left, right } => {
                stride_is_size(body, left) && stride_is_size(body, right)
            }
            InstData::Binary { op: Opcode::Eq, left, right } => {
                let stride = |x: ValueId| matches!(body.inst(x), InstData::Stride { .. });
                let constant = |x: ValueId| matches!(body.inst(x), InstData::Const(Literal::Int(_)));
                (stride(left) && constant(right)) || (constant(left) && stride(right))
            }
            _ => false,
        }
    }
    body.tags
        .ids()
        .filter_map(|v| match body.inst(v) {
            InstData::CondBr { cond, if_false, .. } if stride_is_size(body, cond) => Some(if_false),
            _ => None,
        })
        .collect()
}

/// The `br`s that close a loop (those to a block that dominates theirs),
/// each with whether its loop carries nothing from one iteration to the
/// next but one local, its counter (it `set`s no other).
///
/// Such a loop is marked to stay scalar when it is one that a copy made
/// cold ([`strides_not_unit`], [`checked_rests`]), and otherwise, when it
/// carries only its counter, for an x86-64 target not to be unrolled at
/// run time. For an x86-64 CPU whose scheduling model has a loop buffer
/// (the host's here, not the baseline x86-64 that clang compiles for by
/// default) LLVM unrolls a loop of unknown trip count with a remainder
/// loop. A loop that carries only its counter is one the vectoriser takes
/// (an elementwise loop), and what was unrolled was its scalar remainder:
/// about a fifth of the code generator's time on postc's elementwise and
/// 2-D kernels, for no speed (docs/performance.md). A loop that carries a
/// sum or a chain is left to LLVM: unrolling is what an in-order float sum
/// such as `dot` runs fastest with. Unrolling by a known trip count and the
/// vectoriser's interleaving are not affected.
fn latches(body: &postc_ir::body::Body) -> HashMap<ValueId, bool> {
    let cfg = postc_ir::cfg::Cfg::compute(body);
    let dom = postc_ir::cfg::DomTree::compute(&cfg);
    body.blocks
        .ids()
        .filter_map(|latch| {
            let br = body.terminator(latch)?;
            let InstData::Br { target: header } = body.inst(br) else { return None };
            if !dom.is_reachable(latch) || !dom.dominates(header, latch) {
                return None;
            }
            // The loop's blocks: those that reach the latch without passing
            // through the header.
            let mut in_loop = HashSet::from([header, latch]);
            let mut work = vec![latch];
            while let Some(b) = work.pop() {
                if b != header {
                    work.extend(cfg.preds(b).filter(|p| in_loop.insert(*p)));
                }
            }
            let mut carried = HashSet::new();
            for b in &in_loop {
                let d = body.blocks[*b];
                for v in (d.start..d.end).map(ValueId::from_u32) {
                    if let InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } = body.inst(v) {
                        carried.insert(target);
                    }
                }
            }
            Some((br, carried.len() <= 1))
        })
        .collect()
}

/// The headers of the loops that `irce` leaves checked behind its main
/// loop: a header that tests a counter (`lt %i, %n` first) and is entered
/// both by the exit of another loop header testing the same counter (the
/// main loop, or `stride-version`'s copies of it, running while every
/// dropped check passes) and by the false edge of the guard that decides
/// whether the main loop runs at all. The checked loop takes over only
/// where a check is about to fail (or a check of a loop-invariant index
/// already has), so it runs at most until its panic in code that does not
/// panic otherwise; LLVM vectorised and unrolled it all the same, behind
/// run-time checks of its own, which cost more compile time than any other
/// loop of a checked kernel. It is marked not to be vectorised or
/// unrolled. Two loops written one after the other over the same counter
/// are not taken for such a pair: the second's header is entered only by
/// the first's exit, never by a guard's false edge.
fn checked_rests(body: &postc_ir::body::Body) -> HashSet<BlockId> {
    let counter_test = |b: BlockId| {
        let d = body.blocks[b];
        if d.end <= d.start {
            return None;
        }
        match body.inst(ValueId::from_u32(d.start)) {
            InstData::Binary { op: Opcode::Lt, left, .. } => Some(left),
            _ => None,
        }
    };
    // Every block entered by a conditional branch's false edge, with the
    // blocks that branch to it so.
    let mut false_edges: HashMap<BlockId, Vec<BlockId>> = HashMap::new();
    for b in body.blocks.ids() {
        if let Some(InstData::CondBr { if_false, .. }) = body.terminator(b).map(|t| body.inst(t)) {
            false_edges.entry(if_false).or_default().push(b);
        }
    }
    false_edges
        .into_iter()
        .filter(|(header, from)| {
            let Some(counter) = counter_test(*header) else { return false };
            let from_loop = |p: &BlockId| counter_test(*p) == Some(counter);
            let others = || from.iter().filter(|p| *p != header);
            others().any(from_loop) && others().any(|p| !from_loop(p))
        })
        .map(|(header, _)| header)
        .collect()
}

/// Lowers one function.
struct FnEmit<'a, 'c, 'm, 'p> {
    u: &'a mut Unit<'c, 'm>,
    low: &'a Lowered<'p>,
    functions: &'a HashMap<(ModuleId, FuncId), FunctionValue<'c>>,
    b: Builder<'c>,
    mid: ModuleId,
    m: &'p Module,
    f: &'p Function,
    sig: &'a FnSig,
    func: FunctionValue<'c>,
    /// The entry block, which holds the `alloca`s.
    entry: Option<BasicBlock<'c>>,
    /// The last call temporary's `alloca` (the next goes after it).
    last_temp: Option<InstructionValue<'c>>,
    /// `let` locals and assigned parameters: value → alloca.
    slots: HashMap<ValueId, PointerValue<'c>>,
    /// The arena mark taken on entry.
    mark: Option<PointerValue<'c>>,
    blocks: HashMap<BlockId, BasicBlock<'c>>,
    /// The LLVM value of each defined value.
    vals: HashMap<ValueId, BasicValueEnum<'c>>,
    /// The elements of each tuple: a `tuple`'s operands, a call's results.
    tuple_parts: HashMap<ValueId, Vec<BasicValueEnum<'c>>>,
    /// Byte offsets that are multiples of an element size, as element
    /// indices: value → (element size, index). Strides from `stride` and
    /// the products and sums of `stride-lower` built on them, so that
    /// element addresses are `getelementptr <elem>` with an element index
    /// (what LLVM's loop-access analysis versions on a unit stride).
    elem: HashMap<ValueId, (u32, IntValue<'c>)>,
    /// The `view`s built in the frame rather than the arena, by
    /// instruction (see [`postc_ir::view::local_views`]).
    frame_views: Vec<bool>,
    /// Loop headers entered only where some array's stride is known not to
    /// be its element size (see [`strides_not_unit`]).
    strides_not_unit: HashSet<BlockId>,
    /// Loop headers of the checked loops `irce` leaves behind its main
    /// loops (see [`checked_rests`]).
    checked_rests: HashSet<BlockId>,
    /// The `br`s that close a loop, with whether the loop carries only its
    /// counter (see [`latches`]).
    latches: HashMap<ValueId, bool>,
    /// Whether loops are marked not to be unrolled at run time: for an
    /// x86-64 target (see [`latches`]); the device code of gpu functions,
    /// and other targets, keep LLVM's choice.
    runtime_unroll_off: bool,
    func_loc: Option<Pos>,
    /// The function's debug information (`-g`).
    dbg: Option<FnDebug<'c>>,
}

fn llvm<T>(what: &str) -> R<T> {
    Err(Fail::Llvm(what.to_owned()))
}

fn int(x: BasicValueEnum<'_>) -> R<IntValue<'_>> {
    match x {
        BasicValueEnum::IntValue(i) => Ok(i),
        _ => llvm("an integer operand of another type"),
    }
}

fn float(x: BasicValueEnum<'_>) -> R<FloatValue<'_>> {
    match x {
        BasicValueEnum::FloatValue(v) => Ok(v),
        _ => llvm("a float operand of another type"),
    }
}

fn aggregate(x: BasicValueEnum<'_>) -> R<StructValue<'_>> {
    match x {
        BasicValueEnum::StructValue(v) => Ok(v),
        _ => llvm("an aggregate operand of another type"),
    }
}

fn pointer(x: BasicValueEnum<'_>) -> R<PointerValue<'_>> {
    match x {
        BasicValueEnum::PointerValue(v) => Ok(v),
        _ => llvm("a pointer operand of another type"),
    }
}

fn result(call: CallSiteValue<'_>) -> R<BasicValueEnum<'_>> {
    match call.try_as_basic_value().basic() {
        Some(v) => Ok(v),
        None => llvm("a call without a result"),
    }
}

fn float_suffix(d: DType) -> &'static str {
    match d {
        DType::Float16 => "f16",
        DType::Float32 => "f32",
        _ => "f64",
    }
}

/// `name` for the float type `t`: `f16`, `f32`, `f64`.
fn float_suffix_of(t: &inkwell::types::FloatType<'_>, cx: &inkwell::context::Context) -> &'static str {
    if *t == cx.f16_type() {
        "f16"
    } else if *t == cx.f32_type() {
        "f32"
    } else {
        "f64"
    }
}

impl<'a, 'c, 'm, 'p> FnEmit<'a, 'c, 'm, 'p> {
    fn err<T>(&self, v: Option<ValueId>, msg: String) -> R<T> {
        let pos = v.and_then(|v| self.f.body.loc(v)).map(|l| Pos::from_loc(&self.m.files, l)).or(self.func_loc.clone());
        Err(Fail::Diag(Box::new(Diagnostic::error(format!("in function `{}`: {msg}", self.f.name), pos))))
    }

    fn tyd(&self, v: ValueId) -> Option<&'p postc_ir::TypeData> {
        self.f.body.ty(v).map(|t| self.m.types.get(t))
    }

    fn dt(&self, v: ValueId) -> DType {
        self.tyd(v).map(|t| t.dtype).unwrap_or(DType::Int64)
    }

    fn is_array(&self, v: ValueId) -> bool {
        self.tyd(v).is_some_and(|t| t.is_array)
    }

    /// The LLVM type of a value: a pointer for an array.
    fn vty(&self, v: ValueId) -> BasicTypeEnum<'c> {
        if self.is_array(v) {
            self.u.t.ptr.into()
        } else {
            self.u.t.scalar(self.dt(v))
        }
    }

    fn i64c(&self, x: u64) -> IntValue<'c> {
        self.u.t.i64.const_int(x, false)
    }

    /// The value of `v` (loads a local's current value).
    fn val(&mut self, v: ValueId) -> R<BasicValueEnum<'c>> {
        if let Some(slot) = self.slots.get(&v).copied() {
            return Ok(self.b.build_load(self.vty(v), slot, "")?);
        }
        Ok(match self.vals.get(&v) {
            Some(x) => *x,
            None => poison(self.vty(v)),
        })
    }

    fn ival(&mut self, v: ValueId) -> R<IntValue<'c>> {
        int(self.val(v)?)
    }

    /// With `-g`, the builder's location becomes that of instruction `v`
    /// (`None`: the start of a block, see [`crate::llvm::debug`]).
    fn locate(&mut self, v: Option<ValueId>) {
        if let (Some(d), Some(fd)) = (&mut self.u.debug, &mut self.dbg) {
            match v {
                Some(v) => {
                    let l = d.location(fd, self.m, self.f.body.loc(v));
                    self.b.set_current_debug_location(l);
                }
                None => {
                    d.block_start(fd);
                    let l = d.location(fd, self.m, None);
                    self.b.set_current_debug_location(l);
                }
            }
        }
    }

    /// With `-g`, describes parameter `p` (number `arg`, from 1) or local
    /// `p`: in its stack slot (`slot`), else, at -O0, in a new one that
    /// takes the parameter's value on entry, else as the parameter's value.
    fn declare(&mut self, p: ValueId, arg: Option<u32>, slot: Option<PointerValue<'c>>) -> R<()> {
        let (Some(entry), Some(fd)) = (self.entry, &self.dbg) else { return Ok(()) };
        let at = match slot {
            Some(s) => Described::Slot(s),
            None => {
                let x = self.vals.get(&p).copied().unwrap_or_else(|| poison(self.vty(p)));
                if self.u.debug.as_ref().is_some_and(|d| d.optimized()) {
                    Described::Value(x)
                } else {
                    let s = self.b.build_alloca(x.get_type(), "")?;
                    self.b.build_store(s, x)?;
                    Described::Slot(s)
                }
            }
        };
        if let Some(d) = &mut self.u.debug {
            d.describe(fd, self.m, self.f, p, arg, at, entry);
        }
        Ok(())
    }

    fn loc_text(&self, v: ValueId) -> Option<String> {
        crate::abi::loc_text(self.m, self.f, v)
    }

    /// A block placed after the current one.
    fn block_here(&self, name: &str) -> BasicBlock<'c> {
        match self.b.get_insert_block() {
            Some(cur) => self.u.t.cx.insert_basic_block_after(cur, name),
            None => self.u.t.cx.append_basic_block(self.func, name),
        }
    }

    /// A call temporary of dtype `d`.
    fn temp(&mut self, d: DType) -> R<PointerValue<'c>> {
        self.entry_alloca(self.u.t.scalar(d))
    }

    /// An entry-block temporary of `n` Int64s (the extents of an `alloc`).
    fn temp_i64s(&mut self, n: u32) -> R<PointerValue<'c>> {
        self.entry_alloca(self.u.t.i64.array_type(n).into())
    }

    /// An `alloca` of `ty` in the entry block, after the temporaries made
    /// so far (one in a loop would take more stack at each iteration).
    fn entry_alloca(&mut self, ty: inkwell::types::BasicTypeEnum<'c>) -> R<PointerValue<'c>> {
        let Some(entry) = self.entry else { return llvm("a temporary before the entry block") };
        let at = match self.last_temp {
            Some(t) => t.get_next_instruction(),
            None => entry.get_first_instruction(),
        };
        let tb = self.u.t.cx.create_builder();
        match at {
            Some(i) => tb.position_before(&i),
            None => tb.position_at_end(entry),
        }
        let p = tb.build_alloca(ty, "")?;
        self.last_temp = p.as_instruction_value();
        Ok(p)
    }

    fn run(&mut self) -> R<()> {
        let body = &self.f.body;
        let sig = self.sig;
        if body.blocks.is_empty() {
            return self.err(None, "function has no body".into());
        }
        // Variables: `let` results and `set`/`setfield` targets.
        let mut vars: Vec<ValueId> = Vec::new();
        let mut seen = HashSet::new();
        for v in body.tags.ids() {
            let var = match body.inst(v) {
                InstData::Let { .. } => v,
                InstData::Set { target, .. } | InstData::SetField { aggregate: target, .. } => target,
                _ => continue,
            };
            if seen.insert(var) {
                vars.push(var)
            }
        }
        // A view built in the frame (`frame_views`) takes nothing from the
        // arena: a function whose views all are needs no mark for them.
        let has_alloc = body.tags.ids().any(|v| {
            let op = body.tags[v];
            let in_frame = matches!(op, Opcode::View | Opcode::ViewInBounds) && self.frame_views[v.as_u32() as usize];
            crate::abi::allocates_in_arena(op) && !in_frame
        });
        let calls_array_fn = body.tags.ids().any(|v| {
            matches!(body.inst(v), InstData::Call { callee, .. } if Builtin::from_name(callee).is_none())
                && self.is_array(v)
                && body.ty(v).is_some()
        });
        // Block-shared arrays (`postc.gpu.shared` calls) and barriers.
        let mut shared = Vec::new();
        let mut barrier = false;
        for v in body.tags.ids() {
            if let InstData::Call { callee, .. } = body.inst(v) {
                match Builtin::from_name(callee) {
                    Some(Builtin::Shared) => shared.push(v),
                    Some(Builtin::SyncThreads) => barrier = true,
                    _ => {}
                }
            }
        }
        // Arrays in a tuple: those returned are exported, those a call
        // returned are adopted, both against the mark.
        let tuple_arrays = body.tags.ids().any(|v| {
            matches!(body.opcode(v), Opcode::Call | Opcode::Tuple)
                && self.tyd(v).is_some_and(|t| t.elements.iter().any(|e| e.is_array))
        });
        let needs_mark = has_alloc || calls_array_fn || sig.array_ret || tuple_arrays;
        self.attributes(barrier);
        let entry = self.u.t.cx.append_basic_block(self.func, "alloca");
        self.entry = Some(entry);
        self.b.position_at_end(entry);
        // Parameters.
        let params: Vec<ValueId> = body.all_params().collect();
        for (i, p) in params.iter().enumerate() {
            let Some(x) = self.func.get_nth_param(i as u32) else { return llvm("a parameter the signature lacks") };
            let d = self.dt(*p);
            if !self.is_array(*p) && d.is_complex() {
                let x = self.b.build_load(self.u.t.scalar(d), pointer(x)?, "")?;
                self.vals.insert(*p, x);
            } else {
                self.vals.insert(*p, x);
            }
        }
        for v in &vars {
            let slot = self.b.build_alloca(self.vty(*v), "")?;
            self.slots.insert(*v, slot);
        }
        for p in &params {
            if let Some(slot) = self.slots.get(p).copied() {
                let x = self.vals[p];
                self.b.build_store(slot, x)?;
            }
        }
        if self.dbg.is_some() {
            for (i, p) in params.iter().enumerate() {
                self.declare(*p, Some(i as u32 + 1), self.slots.get(p).copied())?;
            }
            for v in &vars {
                if !params.contains(v) && DebugInfo::is_described_local(self.f, *v) {
                    self.declare(*v, None, self.slots.get(v).copied())?;
                }
            }
        }
        // The slots and the parameters' stores are the prologue: without a
        // location, so that a debugger stops after them (LLVM marks the end
        // of the prologue at the first located instruction).
        self.locate(None);
        for v in shared {
            self.shared_header(v)?;
        }
        if needs_mark {
            let f = self.u.runtime(runtime::ARENA_MARK);
            self.mark = Some(pointer(result(self.b.build_call(f, &[], "mark")?)?)?);
        }
        // Blocks in reverse postorder, so definitions come before uses.
        let order: Vec<BlockId> = postc_ir::cfg::Cfg::compute(body).rpo().collect();
        for &b in &order {
            let bb = self.u.t.cx.append_basic_block(self.func, "");
            self.blocks.insert(b, bb);
        }
        let reach: HashSet<BlockId> = order.iter().copied().collect();
        let unreachable: Vec<BlockId> = body.blocks.ids().filter(|b| !reach.contains(b)).collect();
        for &b in &unreachable {
            let bb = self.u.t.cx.append_basic_block(self.func, "");
            self.blocks.insert(b, bb);
        }
        self.b.build_unconditional_branch(self.blocks[&BlockId::from_u32(0)])?;
        for &b in &order {
            self.b.position_at_end(self.blocks[&b]);
            self.locate(None);
            for v in body.blocks[b].insts() {
                self.locate(Some(v));
                self.inst(v)?;
            }
        }
        for b in unreachable {
            self.b.position_at_end(self.blocks[&b]);
            self.locate(None);
            self.b.build_unreachable()?;
        }
        Ok(())
    }

    /// The function attributes.
    fn attributes(&self, barrier: bool) {
        let mut attrs = vec!["nounwind"];
        let fa = self.f.attrs;
        let is_thunk = is_panic_thunk(self.f);
        if fa.contains(FuncAttrs::COLD) || is_thunk {
            attrs.push("cold");
        }
        if is_thunk {
            // A thunk only calls the panic handler with constants: LLVM's
            // optimiser has nothing to do in it, and passing it by costs
            // much of a module's compile time when every check has one
            // (optnone rules out minsize).
            attrs.push("optnone");
        }
        if fa.contains(FuncAttrs::INLINE) {
            attrs.push("inlinehint");
        }
        if fa.contains(FuncAttrs::NOINLINE) || is_thunk {
            attrs.push("noinline");
        }
        if barrier {
            // A barrier's calls must not become control dependent on more
            // values (GPU threads that take different paths would wait for
            // each other forever).
            attrs.push("convergent");
        }
        let returns = self.f.body.tags.iter().any(|o| *o == Opcode::Return);
        if (fa.contains(FuncAttrs::NORETURN) || is_thunk) && !returns {
            attrs.push("noreturn");
        }
        if crate::compiled_unoptimised(self.f) {
            // LLVM compiles it as at -O0 (postc's own passes have run, or
            // `ufunc-dl` wrote it lowered).
            attrs.extend(["optnone", "noinline"]);
        }
        add_flags(&self.u.t, self.func, &attrs);
    }

    /// Branches to `fail` when `bad` holds (rarely: weights 1 to 2000);
    /// returns the builder positioned at the start of `fail`, and the block
    /// the code continues in.
    fn branch_unlikely(&mut self, bad: IntValue<'c>) -> R<BasicBlock<'c>> {
        let fail = self.block_here("");
        let ok = self.u.t.cx.insert_basic_block_after(fail, "");
        let br = self.b.build_conditional_branch(bad, fail, ok)?;
        self.u.set_weights(br, (1, 2000));
        self.b.position_at_end(fail);
        Ok(ok)
    }

    /// Branches to a panic with the bounds message of `axis` (the index and
    /// the extent as its arguments) when `bad` holds.
    fn guard_bounds(
        &mut self,
        v: ValueId,
        bad: IntValue<'c>,
        axis: usize,
        idx: IntValue<'c>,
        n: IntValue<'c>,
    ) -> R<()> {
        let loc = self.loc_text(v);
        let fmt = super::panic_format(&postc_passes::insert_checks::bounds_message(axis), 2, loc.as_deref());
        let g = self.u.cstring(fmt.as_bytes());
        let ok = self.branch_unlikely(bad)?;
        self.u.build_panic(&self.b, g, &[idx.into(), n.into()])?;
        self.b.build_unreachable()?;
        self.b.position_at_end(ok);
        Ok(())
    }

    /// `base + off` bytes.
    fn byte_gep(&self, base: PointerValue<'c>, off: IntValue<'c>) -> R<PointerValue<'c>> {
        // SAFETY: a getelementptr without `inbounds` is defined for any
        // offset; only dereferencing the result needs it in bounds.
        Ok(unsafe { self.b.build_gep(self.u.t.i8, base, &[off], "")? })
    }

    /// The address of element `i` of an array of `ty`.
    fn elem_gep(&self, ty: BasicTypeEnum<'c>, base: PointerValue<'c>, i: IntValue<'c>) -> R<PointerValue<'c>> {
        // SAFETY: as for `byte_gep`.
        Ok(unsafe { self.b.build_gep(ty, base, &[i], "")? })
    }

    /// Loads a field of a `DLTensor` header (tagged as header memory).
    fn header_load(&mut self, ty: BasicTypeEnum<'c>, at: PointerValue<'c>) -> R<BasicValueEnum<'c>> {
        let x = self.b.build_load(ty, at, "")?;
        if let Some(i) = x.as_instruction_value() {
            self.u.tag_header(i);
        }
        Ok(x)
    }

    /// The `DLTensor` field at byte offset `off` of `arr`.
    fn header_field(&mut self, arr: PointerValue<'c>, off: u64, ty: BasicTypeEnum<'c>) -> R<BasicValueEnum<'c>> {
        let at = if off == 0 { arr } else { self.byte_gep(arr, self.i64c(off))? };
        self.header_load(ty, at)
    }

    /// `shape[axis]` (or `strides[axis]`) through the loaded array pointer.
    fn header_elem(&mut self, array: PointerValue<'c>, axis: u64) -> R<IntValue<'c>> {
        let at = self.elem_gep(self.u.t.i64.into(), array, self.i64c(axis))?;
        int(self.header_load(self.u.t.i64.into(), at)?)
    }

    /// The address of the element at byte offset `off` (the value `off_v`)
    /// of an array of `d`.
    /// What LLVM may do with the loop that the `br` `v` to `target` closes,
    /// in a compiler-made function (laid out as `ufunc-entry` lays it out:
    /// the loop's blocks run from `target` to the `br`); `None` when the
    /// `br` closes no loop. A loop whose addresses advance by steps known
    /// only at run time stays scalar: LLVM would vectorise it with gathers,
    /// or on a stride of one byte, which never ran faster and took most of
    /// a ufunc's compile time. One whose steps are constant is vectorised
    /// without interleaving vector iterations.
    fn inner_loop_hint(&self, v: ValueId, target: BlockId) -> Option<crate::llvm::ufunc::LoopHint> {
        let body = &self.f.body;
        let here = body.block_of(v)?;
        if target > here {
            return None;
        }
        let start = body.blocks[target].start;
        let end = body.blocks[here].end;
        let at_run_time = (start..end).map(ValueId::from_u32).any(|x| match body.inst(x) {
            InstData::RawOffset { bytes, .. } => match body.inst(bytes) {
                InstData::Binary { op: Opcode::Mul, left, right } => {
                    ![left, right].iter().any(|&o| matches!(body.inst(o), InstData::Const(_)))
                }
                _ => true,
            },
            _ => false,
        });
        Some(if at_run_time { crate::llvm::ufunc::LoopHint::Scalar } else { crate::llvm::ufunc::LoopHint::Vector })
    }

    /// `v` = the array element of its dtype at `addr` (Bool is a byte).
    fn load_at(&mut self, v: ValueId, addr: PointerValue<'c>) -> R<()> {
        let d = self.dt(v);
        let x = self.b.build_load(self.u.t.mem(d), addr, "")?;
        let i = x.as_instruction_value().ok_or(Fail::Llvm("a load that is not an instruction".into()))?;
        i.set_alignment(1).map_err(|e| Fail::Llvm(e.to_string()))?;
        self.u.tag_data(i);
        let x = if d == DType::Bool {
            self.b.build_int_compare(IntPredicate::NE, int(x)?, self.u.t.i8.const_zero(), "")?.into()
        } else {
            x
        };
        self.vals.insert(v, x);
        Ok(())
    }

    /// Stores `value` as an array element of its dtype at `addr`.
    fn store_at(&mut self, value: ValueId, addr: PointerValue<'c>) -> R<()> {
        let d = self.dt(value);
        let x = self.val(value)?;
        let x = if d == DType::Bool { self.b.build_int_z_extend(int(x)?, self.u.t.i8, "")?.into() } else { x };
        let s = self.b.build_store(addr, x)?;
        s.set_alignment(1).map_err(|e| Fail::Llvm(e.to_string()))?;
        self.u.tag_data(s);
        Ok(())
    }

    fn data_addr(&mut self, arr: PointerValue<'c>, off: IntValue<'c>, off_v: ValueId, d: DType) -> R<PointerValue<'c>> {
        let ptr = self.u.t.ptr.into();
        let data = pointer(self.header_field(arr, runtime::dltensor::DATA, ptr)?)?;
        let bo = int(self.header_field(arr, runtime::dltensor::BYTE_OFFSET, self.u.t.i64.into())?)?;
        let a1 = self.byte_gep(data, bo)?;
        match self.elem.get(&off_v) {
            Some(&(size, idx)) if size == d.size_bytes() && !self.slots.contains_key(&off_v) => {
                self.elem_gep(self.u.t.mem(d), a1, idx)
            }
            _ => self.byte_gep(a1, off),
        }
    }

    /// Records the element-index form of an integer `mul`, `add` or `sub`
    /// whose operands have one (see `FnEmit::elem`): `x * stride`,
    /// `a + b`, `a - b`, with constants that are multiples of the size.
    fn elem_form(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        // (An operand that is a variable is read here, never re-read later:
        // its value may change between here and a use.)
        if self.dt(v) != DType::Int64 {
            return Ok(());
        }
        let konst = |me: &Self, x: ValueId| -> Option<i64> {
            match me.f.body.inst(x) {
                InstData::Const(Literal::Int(i)) => i64::try_from(i).ok(),
                _ => None,
            }
        };
        let form = |me: &Self, x: ValueId, size: u32| -> Option<IntValue<'c>> {
            if let Some((s, t)) = me.elem.get(&x) {
                return (*s == size && !me.slots.contains_key(&x)).then_some(*t);
            }
            let c = konst(me, x)?;
            (c % size as i64 == 0).then(|| me.u.t.i64.const_int((c / size as i64) as u64, true))
        };
        let r_form = match op {
            Opcode::Mul => {
                // One side is a stride (or a multiple of one); the other is
                // any value, loaded here if it is a variable.
                let (s, other) = match (self.elem.get(&l), self.elem.get(&r)) {
                    (Some(_), _) if !self.slots.contains_key(&l) => (l, r),
                    (_, Some(_)) if !self.slots.contains_key(&r) => (r, l),
                    _ => return Ok(()),
                };
                let (size, t) = self.elem[&s];
                let x = self.ival(other)?;
                Some((size, self.b.build_int_mul(x, t, "")?))
            }
            Opcode::Add | Opcode::Sub => {
                let size = match (self.elem.get(&l), self.elem.get(&r)) {
                    (Some((s, _)), _) | (None, Some((s, _))) => *s,
                    _ => return Ok(()),
                };
                match (form(self, l, size), form(self, r, size)) {
                    (Some(a), Some(b)) => {
                        let x = if op == Opcode::Add {
                            self.b.build_int_add(a, b, "")?
                        } else {
                            self.b.build_int_sub(a, b, "")?
                        };
                        Some((size, x))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(f) = r_form {
            self.elem.insert(v, f);
        }
        Ok(())
    }

    /// The byte stride of `axis` of an array of rank `ndim` and element
    /// size `size`: `strides[axis] * size`, or for a compact tensor
    /// (`strides == NULL`) the product of the later extents times `size`
    /// (the rank is trusted, docs/abi.md §3). With the rank unknown
    /// (`AnyShape`), only the compact case asks the runtime. Either way the
    /// byte stride is the element stride times the size, in the open, so
    /// that LLVM can version a loop on a unit element stride and vectorise
    /// it.
    /// Returns (element stride, byte stride).
    fn inline_stride(
        &mut self,
        arr: PointerValue<'c>,
        axis: usize,
        ndim: Option<usize>,
        size: u32,
    ) -> R<(IntValue<'c>, IntValue<'c>)> {
        let ptr = self.u.t.ptr.into();
        let strides = pointer(self.header_field(arr, runtime::dltensor::STRIDES, ptr)?)?;
        let nul = self.b.build_is_null(strides, "")?;
        let given = self.block_here("");
        let compact = self.u.t.cx.insert_basic_block_after(given, "");
        let join = self.u.t.cx.insert_basic_block_after(compact, "");
        self.b.build_conditional_branch(nul, compact, given)?;
        self.b.position_at_end(given);
        let g = self.header_elem(strides, axis as u64)?;
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(compact);
        let mut c = self.i64c(1);
        match ndim {
            Some(ndim) if axis + 1 < ndim => {
                let shape = pointer(self.header_field(arr, runtime::dltensor::SHAPE, ptr)?)?;
                for k in axis + 1..ndim {
                    let d = self.header_elem(shape, k as u64)?;
                    c = if k == axis + 1 { d } else { self.b.build_int_mul(c, d, "")? };
                }
            }
            Some(_) => {}
            None => {
                let f = self.u.runtime(runtime::STRIDE);
                let args = [arr.into(), self.i64c(axis as u64).into(), self.i64c(1).into()];
                c = self.call_fn(f, &args)?.into_int_value();
            }
        }
        // The block the compact count ends in (a call may not split it,
        // but the phi names the block that branches to the join).
        let compact_end = self.b.get_insert_block().unwrap_or(compact);
        self.b.build_unconditional_branch(join)?;
        self.b.position_at_end(join);
        let phi = self.b.build_phi(self.u.t.i64, "")?;
        phi.add_incoming(&[(&g, given), (&c, compact_end)]);
        let se = phi.as_basic_value().into_int_value();
        let sb = self.b.build_int_mul(se, self.i64c(size as u64), "")?;
        Ok((se, sb))
    }

    /// The `DLTensor` of the block-shared array that the `postc.gpu.shared`
    /// call `v` names, built in the entry block: its data is what
    /// `postc.gpu.shared.SYMBOL.N()` returns (defined per target by the GPU
    /// code generation), its shape and strides constants of its type.
    fn shared_header(&mut self, v: ValueId) -> R<()> {
        let t = match self.tyd(v) {
            Some(t) => t,
            None => return self.err(Some(v), "`postc.gpu.shared` without a result type".into()),
        };
        let dims: Vec<i64> = match &t.shape {
            postc_ir::Shape::Dims(d) if d.iter().all(Option::is_some) => {
                d.iter().map(|n| n.unwrap_or(0) as i64).collect()
            }
            _ => return self.err(Some(v), format!("`postc.gpu.shared` needs a static shape, got {t}")),
        };
        if t.dtype.is_text() {
            return self.err(Some(v), format!("`postc.gpu.shared` cannot make an array of {}", t.dtype));
        }
        let (code, bits) = crate::abi::dlpack_dtype(t.dtype);
        let nd = dims.len();
        let mut strides = vec![1i64; nd];
        if t.layout == postc_ir::Layout::FOrder {
            for a in 1..nd {
                strides[a] = strides[a - 1] * dims[a - 1];
            }
        } else {
            for a in (0..nd.saturating_sub(1)).rev() {
                strides[a] = strides[a + 1] * dims[a + 1];
            }
        }
        let shape_g = self.u.const_i64s(&dims);
        let strides_g = self.u.const_i64s(&strides);
        let getter = crate::llvm::gpu::shared_symbol(&self.sig.symbol, v);
        let getter = self.u.declare(&getter, self.u.t.ptr.fn_type(&[], false), &[]);
        let ty = crate::llvm::ufunc::dltensor_type(self.u.t.cx);
        let h = self.b.build_alloca(ty, "")?;
        if let Some(i) = h.as_instruction_value() {
            i.set_alignment(8).map_err(|e| Fail::Llvm(e.to_string()))?;
        }
        let data = result(self.b.build_call(getter, &[], "")?)?;
        self.fill_header(h, data, nd, (code, bits), shape_g, strides_g)?;
        self.vals.insert(v, h.into());
        Ok(())
    }

    /// Writes the `DLTensor` at `h`: a host array of `nd` axes and the
    /// DLPack type `code`/`bits` at `data`, its shape and element strides
    /// the `nd` Int64s at `shape` and `strides`.
    fn fill_header(
        &mut self,
        h: PointerValue<'c>,
        data: BasicValueEnum<'c>,
        nd: usize,
        (code, bits): (u8, u8),
        shape: PointerValue<'c>,
        strides: PointerValue<'c>,
    ) -> R<()> {
        let t = self.u.t;
        let device = t.cx.const_struct(&[t.i32.const_int(1, false).into(), t.i32.const_zero().into()], false);
        let dtype = t.cx.const_struct(
            &[
                t.i8.const_int(code as u64, false).into(),
                t.i8.const_int(bits as u64, false).into(),
                t.i16.const_int(1, false).into(),
            ],
            false,
        );
        let fields: [(u64, BasicValueEnum<'c>); 7] = [
            (runtime::dltensor::DATA, data),
            (runtime::dltensor::DEVICE, device.into()),
            (runtime::dltensor::NDIM, t.i32.const_int(nd as u64, false).into()),
            (runtime::dltensor::DTYPE, dtype.into()),
            (runtime::dltensor::SHAPE, shape.into()),
            (runtime::dltensor::STRIDES, strides.into()),
            (runtime::dltensor::BYTE_OFFSET, t.i64.const_zero().into()),
        ];
        for (off, val) in fields {
            let at = self.byte_gep(h, self.i64c(off))?;
            self.b.build_store(at, val)?;
        }
        Ok(())
    }

    /// `postc.gpu.atomic_add(%a, %i..., %x)`: each index checked against
    /// its extent, then one `atomicrmw` on the element.
    fn atomic_add(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let (Some(&a), Some(&x)) = (args.first(), args.last()) else {
            return self.err(Some(v), "`postc.gpu.atomic_add` without its operands".into());
        };
        let d = self.dt(a);
        let nd = args.len().saturating_sub(2);
        if self.tyd(a).and_then(|t| t.ndim()) != Some(nd) || !postc_ir::builtins::atomic_dtype(d) {
            return self.err(Some(v), "`postc.gpu.atomic_add` with operands of the wrong types".into());
        }
        let arr = pointer(self.val(a)?)?;
        let ptr = self.u.t.ptr.into();
        let mut off = self.i64c(0);
        if nd > 0 {
            let shape = pointer(self.header_field(arr, runtime::dltensor::SHAPE, ptr)?)?;
            for (axis, &i) in args[1..args.len() - 1].iter().enumerate() {
                let id = self.dt(i);
                let iv = self.val(i)?;
                let i64v = int(self.convert(iv, id, DType::Int64)?)?;
                let n = self.header_elem(shape, axis as u64)?;
                let bad = self.b.build_int_compare(IntPredicate::UGE, i64v, n, "")?;
                self.guard_bounds(v, bad, axis, i64v, n)?;
                let (_, sb) = self.inline_stride(arr, axis, Some(nd), d.size_bytes())?;
                let term = self.b.build_int_mul(i64v, sb, "")?;
                off = self.b.build_int_add(off, term, "")?;
            }
        }
        let data = pointer(self.header_field(arr, runtime::dltensor::DATA, ptr)?)?;
        let bo = int(self.header_field(arr, runtime::dltensor::BYTE_OFFSET, self.u.t.i64.into())?)?;
        let base = self.byte_gep(data, bo)?;
        let addr = self.byte_gep(base, off)?;
        let xv = self.val(x)?;
        let old = self.atomicrmw_add(addr, xv, d)?;
        self.vals.insert(v, old);
        Ok(())
    }

    /// `atomicrmw add` (or `fadd`) `monotonic`, aligned to the element.
    fn atomicrmw_add(&mut self, addr: PointerValue<'c>, x: BasicValueEnum<'c>, d: DType) -> R<BasicValueEnum<'c>> {
        use inkwell::llvm_sys::core::{LLVMBuildAtomicRMW, LLVMSetAlignment};
        use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMAtomicRMWBinOp};
        let op = if d.is_float() {
            LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd
        } else {
            LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd
        };
        // SAFETY: the builder is positioned in a block of this function,
        // the pointer and the value are of its context, and the result is
        // an instruction of the value's type.
        unsafe {
            let r = LLVMBuildAtomicRMW(
                self.b.as_mut_ptr(),
                op,
                addr.as_value_ref(),
                x.as_value_ref(),
                LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
                0,
            );
            if r.is_null() {
                return llvm("atomicrmw");
            }
            LLVMSetAlignment(r, d.size_bytes());
            Ok(BasicValueEnum::new(r))
        }
    }

    /// Which views [`FnEmit::frame_view`] builds: those that never outlive
    /// the call, outside GPU code (whose views stay refused, see
    /// `crate::llvm::gpu`). A call of a GPU kernel may keep its arguments.
    fn frame_views(&self) -> Vec<bool> {
        let gpu = |a: FuncAttrs| a.contains(FuncAttrs::GPU) || a.contains(FuncAttrs::KERNEL);
        if gpu(self.f.attrs) {
            return vec![false; self.f.body.num_insts()];
        }
        postc_ir::view::local_views(&self.f.body, &self.m.types, |callee| match self.resolve(callee) {
            Some(Target::Func(mid, fid)) => gpu(self.low.program.modules[mid].functions[fid].attrs),
            Some(Target::Builtin(_) | Target::Intrinsic(_)) => false,
            None => true,
        })
    }

    /// A view that never outlives the call (see [`FnEmit::frame_views`]):
    /// its `DLTensor`, shape and strides in `alloca`s of the entry block,
    /// filled in where the view is made, as `postc_rt_view` fills in its
    /// arena header — no runtime call, and once LLVM inlines the callees
    /// it is passed to, nothing left in memory.
    fn frame_view(
        &mut self,
        v: ValueId,
        base: ValueId,
        offset: ValueId,
        extents: postc_ir::ValueList<'_>,
        strides: postc_ir::ValueList<'_>,
    ) -> R<()> {
        use runtime::dltensor as dl;
        let t = self.u.t;
        let n = extents.len() as u32;
        let size = self.i64c(self.dt(v).size_bytes() as u64);
        let tensor = self.temp_i64s((dl::SIZE / 8) as u32)?;
        let shape = self.temp_i64s(n.max(1))?;
        let elem_strides = self.temp_i64s(n.max(1))?;
        let arr = pointer(self.val(base)?)?;
        let off = self.ival(offset)?;
        // data = base's data + its byte offset + the view's offset.
        let data = pointer(self.header_field(arr, dl::DATA, t.ptr.into())?)?;
        let bo = int(self.header_field(arr, dl::BYTE_OFFSET, t.i64.into())?)?;
        let origin = self.byte_gep(data, bo)?;
        let origin = self.byte_gep(origin, off)?;
        // The device and the dtype are the base's.
        let device = self.header_field(arr, dl::DEVICE, t.i64.into())?;
        let dtype = self.header_field(arr, dl::DTYPE, t.i32.into())?;
        let fields: [(u64, BasicValueEnum<'c>); 7] = [
            (dl::DATA, origin.into()),
            (dl::DEVICE, device),
            (dl::NDIM, t.i32.const_int(n as u64, false).into()),
            (dl::DTYPE, dtype),
            (dl::SHAPE, shape.into()),
            (dl::STRIDES, elem_strides.into()),
            (dl::BYTE_OFFSET, self.i64c(0).into()),
        ];
        for (at, x) in fields {
            let p = if at == 0 { tensor } else { self.byte_gep(tensor, self.i64c(at))? };
            self.header_store(p, x)?;
        }
        for (k, (e, s)) in extents.iter().zip(strides.iter()).enumerate() {
            let (e, s) = (self.ival(e)?, self.ival(s)?);
            // DLPack's strides count elements (`insert-checks` made the
            // byte strides multiples of the size).
            let s = self.b.build_int_signed_div(s, size, "")?;
            for (array, x) in [(shape, e), (elem_strides, s)] {
                let p = self.elem_gep(t.i64.into(), array, self.i64c(k as u64))?;
                self.header_store(p, x.into())?;
            }
        }
        self.vals.insert(v, tensor.into());
        Ok(())
    }

    /// Stores `x` into a `DLTensor` header field (or its shape or strides),
    /// tagged as [`FnEmit::header_load`]'s loads are.
    fn header_store(&mut self, at: PointerValue<'c>, x: BasicValueEnum<'c>) -> R<()> {
        let s = self.b.build_store(at, x)?;
        self.u.tag_header(s);
        Ok(())
    }

    fn resolve(&self, callee: &'p str) -> Option<Target<'p>> {
        resolve(self.low.program, &self.low.index, self.mid, callee)
    }

    fn call(&mut self, v: ValueId, callee: &'p str, args: Vec<ValueId>) -> R<()> {
        let Some(target) = self.resolve(callee) else {
            if let Some(imp) = self.m.boundary_imports.get(callee) {
                return self.err(
                    Some(v),
                    format!(
                        "call to `{callee}`, a boundary import of `{}.{}`, cannot be compiled (boundary functions run in Python)",
                        imp.module_name, imp.source_name
                    ),
                );
            }
            return self.err(Some(v), format!("call to unknown function `{callee}`"));
        };
        match target {
            Target::Builtin(Builtin::Panic) => self.panic_call(v, &args),
            Target::Builtin(Builtin::Print) => self.print_call(&args),
            Target::Builtin(Builtin::Gpu(reg, axis)) => {
                // Defined per target: special registers on a device, the
                // emulated launch's coordinates on the host (see `gpu`).
                let name = postc_ir::builtins::gpu_builtin_name(reg, axis);
                let f = self.u.declare(&name, self.u.t.i64.fn_type(&[], false), &[]);
                let r = self.call_fn(f, &[])?;
                self.vals.insert(v, r);
                Ok(())
            }
            // Named by its call site: its header was built in the entry block.
            Target::Builtin(Builtin::Shared) => Ok(()),
            Target::Builtin(Builtin::SyncThreads) => {
                let name = postc_ir::builtins::SYNC_THREADS;
                let f = self.u.declare(name, self.u.t.cx.void_type().fn_type(&[], false), &["convergent", "nounwind"]);
                let c = self.b.build_call(f, &[], "")?;
                c.add_attribute(AttributeLoc::Function, self.u.t.flag("convergent"));
                Ok(())
            }
            Target::Builtin(Builtin::AtomicAdd) => self.atomic_add(v, &args),
            Target::Builtin(Builtin::Overflows(op)) => self.overflows(v, op, &args),
            // `outline-parallel` deletes every marker; one left does nothing.
            Target::Builtin(Builtin::Prange) => Ok(()),
            Target::Builtin(Builtin::ParallelFor) => self.parallel_for(v, &args),
            Target::Builtin(Builtin::ParallelStopped) => self.parallel_stopped(v, args[0]),
            Target::Builtin(Builtin::Depth) => {
                let d = self.b.build_load(self.u.t.i64, self.u.depth(), "depth")?;
                self.vals.insert(v, d);
                Ok(())
            }
            Target::Builtin(Builtin::SetDepth) => {
                let d = self.val(args[0])?;
                self.b.build_store(self.u.depth(), d)?;
                Ok(())
            }
            Target::Intrinsic(sym) => self.intrinsic_call(v, sym, &args),
            Target::Func(mid, fid) => self.func_call(v, mid, fid, &args),
        }
    }

    /// `postc.overflows.OP(a[, b])`: whether the operation wraps.
    fn overflows(&mut self, v: ValueId, op: OvfOp, args: &[ValueId]) -> R<()> {
        let d = self.dt(args[0]);
        let t = self.u.t.int(d);
        let s = if d.is_signed_int() { "s" } else { "u" };
        let a = self.ival(args[0])?;
        let with_overflow = |me: &mut Self, n: &str, x: IntValue<'c>, y: IntValue<'c>| -> R<BasicValueEnum<'c>> {
            let name = format!("llvm.{s}{n}.with.overflow.i{}", d.bits());
            let pair = me.u.t.cx.struct_type(&[t.into(), me.u.t.i1.into()], false);
            let f = me.u.declare(&name, pair.fn_type(&[t.into(), t.into()], false), &[]);
            let p = aggregate(me.call_fn(f, &[x.into(), y.into()])?)?;
            Ok(me.b.build_extract_value(p, 1, "")?)
        };
        let r: BasicValueEnum<'c> = match op {
            OvfOp::Add | OvfOp::Sub | OvfOp::Mul => {
                let b = self.ival(args[1])?;
                let n = match op {
                    OvfOp::Add => "add",
                    OvfOp::Sub => "sub",
                    _ => "mul",
                };
                with_overflow(self, n, a, b)?
            }
            OvfOp::Neg if d.is_signed_int() => {
                let name = format!("llvm.ssub.with.overflow.i{}", d.bits());
                let pair = self.u.t.cx.struct_type(&[t.into(), self.u.t.i1.into()], false);
                let f = self.u.declare(&name, pair.fn_type(&[t.into(), t.into()], false), &[]);
                let p = aggregate(self.call_fn(f, &[t.const_zero().into(), a.into()])?)?;
                self.b.build_extract_value(p, 1, "")?
            }
            OvfOp::Neg => self.b.build_int_compare(IntPredicate::NE, a, t.const_zero(), "")?.into(),
            OvfOp::Abs if d.is_signed_int() => {
                let min = t.const_int(1u64 << (d.bits() - 1), false);
                self.b.build_int_compare(IntPredicate::EQ, a, min, "")?.into()
            }
            OvfOp::Abs => self.u.t.i1.const_zero().into(),
            OvfOp::Pow => return self.err(Some(v), crate::backend::written_out(OvfOp::Pow.name())),
        };
        self.vals.insert(v, r);
        Ok(())
    }

    /// `postc.parallel_stopped(%chunk)`: `%chunk` above the running loop's
    /// lowest panicked chunk, read (`monotonic`) from the word whose address
    /// the runtime gives once, in the entry block: a load and a compare on
    /// the back edge.
    fn parallel_stopped(&mut self, v: ValueId, chunk: ValueId) -> R<()> {
        let Some(entry) = self.entry else { return llvm("a parallel loop before the entry block") };
        let t = &self.u.t;
        let f = self.u.declare(crate::abi::PARALLEL_STOP_WORD, t.ptr.fn_type(&[], false), &["nounwind"]);
        f.as_global_value().set_visibility(inkwell::GlobalVisibility::Hidden);
        let tb = t.cx.create_builder();
        match entry.get_first_instruction() {
            Some(i) => tb.position_before(&i),
            None => tb.position_at_end(entry),
        }
        let word = tb.build_call(f, &[], "stop.word")?.try_as_basic_value().basic();
        let Some(word) = word else { return llvm("postc_rt_parallel_stop_word returns a pointer") };
        let failed = self.b.build_load(t.i64, word.into_pointer_value(), "failed")?;
        let Some(load) = failed.as_instruction_value() else { return llvm("a load") };
        if load.set_atomic_ordering(inkwell::AtomicOrdering::Monotonic).is_err() || load.set_alignment(8).is_err() {
            return llvm("an atomic load of the stop word");
        }
        let c = self.val(chunk)?.into_int_value();
        let stopped = self.b.build_int_compare(inkwell::IntPredicate::SGT, c, failed.into_int_value(), "")?;
        self.vals.insert(v, stopped.into());
        Ok(())
    }

    /// `postc.parallel_for`: the arguments after the range go into a
    /// struct on the stack, and a trampoline `void(ptr env, i64 chunk, i64
    /// lo, i64 hi)`, one per chunk function, calls the chunk function with
    /// them; `postc_rt_parallel_for` calls the trampoline per chunk.
    fn parallel_for(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let fid = crate::calls::parallel_chunk(self.m, self.f, args).or_else(|msg| self.err(Some(v), msg))?;
        let name = &self.m.functions[fid].name;
        let callee = self.functions[&(self.mid, fid)];
        let callee_f = &self.m.functions[fid];
        let sig = &self.low.sigs[&(self.mid, fid)];
        let mut vals: Vec<BasicValueEnum<'c>> = Vec::new();
        for a in &args[4..] {
            vals.push(self.val(*a)?);
        }
        let t = &self.u.t;
        let tys: Vec<BasicTypeEnum<'c>> = vals.iter().map(|x| x.get_type()).collect();
        let st = t.cx.struct_type(&tys, false);
        let Some(entry) = self.entry else { return llvm("a parallel loop before the entry block") };
        let tb = t.cx.create_builder();
        match entry.get_first_instruction() {
            Some(i) => tb.position_before(&i),
            None => tb.position_at_end(entry),
        }
        let env = tb.build_alloca(st, "prange.env")?;
        for (i, x) in vals.iter().enumerate() {
            let at = self.b.build_struct_gep(st, env, i as u32, "")?;
            self.b.build_store(at, *x)?;
        }
        let tname = format!("{name}.trampoline");
        let tramp = match self.u.module.get_function(&tname) {
            Some(f) => f,
            None => {
                let (ptr, i64) = (t.ptr, t.i64);
                let fty = t.cx.void_type().fn_type(&[ptr.into(), i64.into(), i64.into(), i64.into()], false);
                let f = self.u.module.add_function(&tname, fty, Some(inkwell::module::Linkage::Internal));
                let bb = t.cx.append_basic_block(f, "entry");
                let fb = t.cx.create_builder();
                fb.position_at_end(bb);
                let e = f.get_nth_param(0).expect("env").into_pointer_value();
                let mut parts: Vec<BasicMetadataValueEnum<'c>> = Vec::new();
                for k in 1..4 {
                    parts.push(f.get_nth_param(k).expect("chunk bounds").into());
                }
                for (i, ty) in tys.iter().enumerate() {
                    let at = fb.build_struct_gep(st, e, i as u32, "")?;
                    let p_is_complex = callee_f
                        .body
                        .all_params()
                        .nth(i + 3)
                        .and_then(|p| callee_f.body.ty(p))
                        .map(|ty| self.m.types.get(ty))
                        .is_some_and(|ty| !ty.is_array && ty.dtype.is_complex());
                    if p_is_complex {
                        parts.push(at.into());
                    } else {
                        parts.push(fb.build_load(*ty, at, "")?.into());
                    }
                }
                let call = fb.build_call(callee, &parts, "")?;
                for (i, a) in sig.param_attrs.iter().enumerate() {
                    for attr in t.param_attrs(*a) {
                        call.add_attribute(AttributeLoc::Param(i as u32), attr);
                    }
                }
                fb.build_return(None)?;
                f
            }
        };
        let t = &self.u.t;
        let fty = t.i64.fn_type(&[t.ptr.into(), t.ptr.into(), t.i64.into(), t.i64.into(), t.i64.into()], false);
        let rt = self.u.declare(crate::abi::PARALLEL_FOR, fty, &[]);
        rt.as_global_value().set_visibility(inkwell::GlobalVisibility::Hidden);
        let mut cargs: Vec<BasicMetadataValueEnum<'c>> =
            vec![tramp.as_global_value().as_pointer_value().into(), env.into()];
        for a in &args[1..4] {
            cargs.push(self.val(*a)?.into());
        }
        let r = self.b.build_call(rt, &cargs, "")?;
        if let Some(r) = r.try_as_basic_value().basic() {
            self.vals.insert(v, r);
        }
        Ok(())
    }

    fn func_call(&mut self, v: ValueId, mid: ModuleId, fid: FuncId, args: &[ValueId]) -> R<()> {
        let has_result = self.f.body.ty(v).is_some();
        let low = self.low;
        let sig = &low.sigs[&(mid, fid)];
        let callee_f = &low.program.modules[mid].functions[fid];
        let cm = &low.program.modules[mid];
        let callee = self.functions[&(mid, fid)];
        let mut parts: Vec<BasicMetadataValueEnum<'c>> = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let pv = callee_f.body.all_params().nth(i);
            let p_is_complex = pv
                .and_then(|p| callee_f.body.ty(p))
                .map(|t| cm.types.get(t))
                .is_some_and(|t| !t.is_array && t.dtype.is_complex());
            let x = self.val(*a)?;
            let x = if p_is_complex {
                let tmp = self.temp(self.dt(*a))?;
                self.b.build_store(tmp, x)?;
                tmp.into()
            } else {
                x
            };
            parts.push(x.into());
        }
        let out = if sig.complex_out {
            let d = callee_f.return_dtype(&cm.types).unwrap_or(DType::Complex128);
            let tmp = self.temp(d)?;
            parts.push(tmp.into());
            Some((tmp, d))
        } else {
            None
        };
        // A tuple's elements come back through one temporary each.
        let tuple_elements = callee_f.ret.map(|t| cm.types.get(t).elements.as_slice()).unwrap_or(&[]);
        let mut tuple_out = Vec::with_capacity(tuple_elements.len());
        for e in tuple_elements {
            let ty = if e.is_array { self.u.t.ptr.into() } else { self.u.t.scalar(e.dtype) };
            let tmp = self.entry_alloca(ty)?;
            parts.push(tmp.into());
            tuple_out.push((tmp, ty, e.is_array));
        }
        let call = self.b.build_call(callee, &parts, "")?;
        for (i, a) in sig.param_attrs.iter().enumerate() {
            for attr in self.u.t.param_attrs(*a) {
                call.add_attribute(AttributeLoc::Param(i as u32), attr);
            }
        }
        for attr in self.u.t.param_attrs(sig.ret_attr) {
            call.add_attribute(AttributeLoc::Return, attr);
        }
        if !tuple_out.is_empty() {
            let mut elements = Vec::with_capacity(tuple_out.len());
            for (tmp, ty, is_array) in tuple_out {
                let x = self.b.build_load(ty, tmp, "")?;
                if is_array {
                    let adopt = self.u.runtime(runtime::ARENA_ADOPT);
                    self.b.build_call(adopt, &[x.into()], "")?;
                }
                elements.push(x);
            }
            self.tuple_parts.insert(v, elements);
        } else if let Some((tmp, d)) = out {
            if has_result {
                let r = self.b.build_load(self.u.t.scalar(d), tmp, "")?;
                self.vals.insert(v, r);
            }
        } else if let Some(r) = call.try_as_basic_value().basic() {
            if has_result {
                self.vals.insert(v, r);
            }
            if sig.array_ret {
                let adopt = self.u.runtime(runtime::ARENA_ADOPT);
                self.b.build_call(adopt, &[r.into()], "")?;
            }
        }
        Ok(())
    }

    fn intrinsic_call(&mut self, v: ValueId, sym: &str, args: &[ValueId]) -> R<()> {
        const LLVM1: &[&str] =
            &["sqrt", "sin", "cos", "exp", "exp2", "log", "log2", "log10", "fabs", "floor", "ceil", "trunc", "round"];
        const LLVM2: &[&str] = &["pow", "copysign"];
        let rd = self.f.body.ty(v).map(|t| self.m.types.dtype(t));
        let Some((base, f32_symbol)) = crate::calls::intrinsic_base(sym) else {
            // An external symbol (e.g. from --link-ir): arguments as they are.
            let mut xs: Vec<BasicMetadataValueEnum> = Vec::new();
            let mut tys: Vec<BasicMetadataTypeEnum> = Vec::new();
            for a in args {
                tys.push(self.vty(*a).into());
                xs.push(self.val(*a)?.into());
            }
            let ty = self.u.t.function(rd.map(|d| self.u.t.scalar(d)), &tys);
            let f = self.u.declare(sym, ty, &[]);
            let call = self.b.build_call(f, &xs, "")?;
            if let (Some(_), Some(r)) = (rd, call.try_as_basic_value().basic()) {
                self.vals.insert(v, r);
            }
            return Ok(());
        };
        let all_f32 = args.iter().all(|a| self.dt(*a) == DType::Float32) && rd == Some(DType::Float32);
        let w = if all_f32 || f32_symbol { DType::Float32 } else { DType::Float64 };
        let mut xs = Vec::new();
        for a in args {
            let d = self.dt(*a);
            let x = self.val(*a)?;
            xs.push(self.convert(x, d, w)?);
        }
        if let ("fmod", [x, y]) = (base, xs.as_slice()) {
            // `frem` is C's `fmod` to LLVM, which knows it has no effect
            // (no `errno`): `legalize`'s floor division and modulo of the
            // same operands share one.
            let r = self.b.build_float_rem(float(*x)?, float(*y)?, "")?;
            if let Some(rd) = rd {
                let r = self.convert(r.into(), w, rd)?;
                self.vals.insert(v, r);
            }
            return Ok(());
        }
        let name = if LLVM1.contains(&base) || LLVM2.contains(&base) || base == "fma" {
            format!("llvm.{base}.{}", float_suffix(w))
        } else if w == DType::Float32 {
            format!("{base}f")
        } else {
            base.to_owned()
        };
        let flags: &[&str] = if name.starts_with("llvm.") { &[] } else { &["nounwind"] };
        let f = self.u.float_fn(&name, self.u.t.float(w), xs.len(), flags);
        let r = self.call_fn(f, &xs)?;
        if let Some(rd) = rd {
            let r = self.convert(r, w, rd)?;
            self.vals.insert(v, r);
        }
        Ok(())
    }

    /// `postc.print(...)`: the runtime's entry of each argument's dtype,
    /// then the one that writes the line.
    fn print_call(&mut self, args: &[ValueId]) -> R<()> {
        for &a in args {
            let d = self.dt(a);
            let x = self.val(a)?;
            let vals: Vec<BasicMetadataValueEnum> = match d {
                DType::Str => {
                    let s = x.into_struct_value();
                    let p = self.b.build_extract_value(s, 0, "text")?;
                    let n = self.b.build_extract_value(s, 1, "len")?;
                    vec![p.into(), n.into()]
                }
                DType::Bool => {
                    vec![self.b.build_int_z_extend(x.into_int_value(), self.u.t.i32, "truth")?.into()]
                }
                _ => vec![x.into()],
            };
            self.b.build_call(self.u.runtime(crate::abi::print_entry(d)), &vals, "")?;
        }
        self.b.build_call(self.u.runtime(runtime::PRINT_END), &[], "")?;
        Ok(())
    }

    fn panic_call(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let body = &self.f.body;
        let loc = self.loc_text(v);
        let msg = args.first().copied();
        let lit = msg.and_then(|m| match body.inst(m) {
            InstData::Const(Literal::Str(s)) if !self.slots.contains_key(&m) => Some(s),
            _ => None,
        });
        let mut parts: Vec<BasicMetadataValueEnum<'c>> = Vec::new();
        let fmt = match lit {
            Some(s) => {
                let fmt = super::panic_format(s, args.len().saturating_sub(1), loc.as_deref());
                self.u.cstring(fmt.as_bytes())
            }
            None => {
                // A message known at run time: printed as it is.
                let fmt = crate::abi::runtime_panic_format(args.len().saturating_sub(1), loc.as_deref());
                let g = self.u.cstring(fmt.as_bytes());
                let s = match msg {
                    Some(m) => aggregate(self.val(m)?)?,
                    None => self.u.t.text.const_zero(),
                };
                let p = self.b.build_extract_value(s, 0, "")?;
                let n = int(self.b.build_extract_value(s, 1, "")?)?;
                let n32 = self.b.build_int_truncate(n, self.u.t.i32, "")?;
                parts.push(n32.into());
                parts.push(p.into());
                g
            }
        };
        for a in args.iter().skip(1) {
            parts.push(self.val(*a)?.into());
        }
        self.u.build_panic(&self.b, fmt, &parts)?;
        Ok(())
    }

    fn ret_value(&mut self, value: Option<ValueId>) -> R<()> {
        let sig = self.sig;
        match value {
            Some(x) if sig.tuple_out > 0 => self.ret_tuple(x)?,
            Some(x) if sig.complex_out => {
                let a = self.val(x)?;
                let Some(outp) = self.func.get_last_param() else { return llvm("no result pointer") };
                self.b.build_store(pointer(outp)?, a)?;
                self.release()?;
                self.b.build_return(None)?;
            }
            Some(x) if sig.array_ret => {
                let a = self.val(x)?;
                let mark = self.mark.unwrap_or_else(|| self.u.t.ptr.const_null());
                let export = self.u.runtime(runtime::ARENA_EXPORT);
                let r = self.call_fn(export, &[mark.into(), a])?;
                self.b.build_return(Some(&r))?;
            }
            Some(x) if sig.ret != super::AbiType::Void => {
                let a = self.val(x)?;
                self.release()?;
                self.b.build_return(Some(&a))?;
            }
            _ => {
                self.release()?;
                self.b.build_return(None)?;
            }
        }
        Ok(())
    }

    /// Returns the tuple `x`: each element through its out-pointer, the
    /// last parameters (docs/abi.md §2), its arrays exported together.
    fn ret_tuple(&mut self, x: ValueId) -> R<()> {
        let Some(parts) = self.tuple_parts.get(&x).cloned() else {
            return llvm("`return` of a tuple without elements");
        };
        let Some(ret) = self.f.ret.map(|t| self.m.types.get(t)) else { return llvm("a tuple result without a type") };
        let first_out = self.func.count_params() as usize - self.sig.tuple_out;
        let out = |fe: &Self, k: usize| -> R<PointerValue<'c>> {
            match fe.func.get_nth_param((first_out + k) as u32) {
                Some(p) => pointer(p),
                None => llvm("no result pointer"),
            }
        };
        let arrays: Vec<usize> = (0..parts.len()).filter(|&k| ret.elements[k].is_array).collect();
        for (k, part) in parts.iter().enumerate() {
            if !ret.elements[k].is_array {
                let p = out(self, k)?;
                self.b.build_store(p, *part)?;
            }
        }
        if arrays.is_empty() {
            self.release()?;
        } else {
            let ptr = self.u.t.ptr;
            let buf = self.entry_alloca(ptr.array_type(arrays.len() as u32).into())?;
            let slot = |fe: &Self, i: usize| -> R<PointerValue<'c>> {
                let i64 = fe.u.t.i64;
                // SAFETY: `i` is below the array's length.
                Ok(unsafe { fe.b.build_in_bounds_gep(ptr, buf, &[i64.const_int(i as u64, false)], "")? })
            };
            for (i, &k) in arrays.iter().enumerate() {
                let s = slot(self, i)?;
                self.b.build_store(s, parts[k])?;
            }
            let mark = self.mark.unwrap_or_else(|| ptr.const_null());
            let export = self.u.runtime(runtime::ARENA_EXPORT_TUPLE);
            let n = self.i64c(arrays.len() as u64);
            self.b.build_call(export, &[mark.into(), n.into(), buf.into()], "")?;
            for (i, &k) in arrays.iter().enumerate() {
                let s = slot(self, i)?;
                let managed = self.b.build_load(ptr, s, "")?;
                let p = out(self, k)?;
                self.b.build_store(p, managed)?;
            }
        }
        self.b.build_return(None)?;
        Ok(())
    }

    fn release(&mut self) -> R<()> {
        if let Some(m) = self.mark {
            let f = self.u.runtime(runtime::ARENA_RELEASE);
            self.b.build_call(f, &[m.into()], "")?;
        }
        Ok(())
    }

    /// A constant of dtype `d` (`None` when the literal is of another kind).
    fn constant(&mut self, d: DType, lit: &Literal) -> Option<BasicValueEnum<'c>> {
        let t = self.u.t;
        Some(match (lit, t.scalar(d)) {
            (Literal::Bool(b), _) => t.i1.const_int(*b as u64, false).into(),
            // The bit pattern of the width (`const_int` truncates).
            (Literal::Int(i), BasicTypeEnum::IntType(ty)) => ty.const_int(*i as i64 as u64, false).into(),
            (Literal::Float(bits), BasicTypeEnum::FloatType(_)) => float_const(&t, d, *bits).into(),
            (Literal::Complex(re, im), BasicTypeEnum::StructType(ty)) if d.is_complex() => {
                let p = part(d);
                ty.const_named_struct(&[float_const(&t, p, *re).into(), float_const(&t, p, *im).into()]).into()
            }
            (Literal::Str(s), _) => self.text_const(s.as_bytes()),
            (Literal::Bytes(b), _) => self.text_const(b),
            _ => return None,
        })
    }

    /// A Str or Bytes constant: `{ ptr, i64 }` over a private copy.
    fn text_const(&mut self, bytes: &[u8]) -> BasicValueEnum<'c> {
        let g = self.u.cstring(bytes);
        let n = self.i64c(bytes.len() as u64);
        self.u.t.text.const_named_struct(&[g.into(), n.into()]).into()
    }

    fn inst(&mut self, v: ValueId) -> R<()> {
        let body = &self.f.body;
        let inst = body.inst(v);
        match inst {
            InstData::Param { .. } => {}
            InstData::Const(lit) => {
                let d = self.dt(v);
                let x = match self.constant(d, &lit) {
                    Some(x) => x,
                    None => return self.err(Some(v), format!("a constant that is not of its type {d}")),
                };
                self.vals.insert(v, x);
            }
            InstData::Binary { op, left, right } => {
                self.binary(v, op, left, right)?;
                if matches!(op, Opcode::Mul | Opcode::Add | Opcode::Sub) {
                    self.elem_form(v, op, left, right)?;
                }
            }
            InstData::Unary { op, operand } => self.unary(v, op, operand)?,
            InstData::Cast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                let x = self.val(operand)?;
                let r = self.convert(x, from, to)?;
                self.vals.insert(v, r);
            }
            InstData::Bitcast { operand } => {
                let to = self.dt(v);
                let ty: BasicTypeEnum<'c> =
                    if to.is_float() { self.u.t.float(to).into() } else { self.u.t.int(to).into() };
                let x = self.val(operand)?;
                let r = self.b.build_bit_cast(x, ty, "")?;
                self.vals.insert(v, r);
            }
            InstData::Load { array, offset } => {
                let d = self.dt(v);
                let arr = pointer(self.val(array)?)?;
                let off = self.ival(offset)?;
                let addr = self.data_addr(arr, off, offset, d)?;
                self.load_at(v, addr)?;
            }
            InstData::Store { array, offset, value } => {
                let d = self.dt(value);
                let arr = pointer(self.val(array)?)?;
                let off = self.ival(offset)?;
                let addr = self.data_addr(arr, off, offset, d)?;
                self.store_at(value, addr)?;
            }
            InstData::Dim { array, axis } => {
                let arr = pointer(self.val(array)?)?;
                let shape = pointer(self.header_field(arr, runtime::dltensor::SHAPE, self.u.t.ptr.into())?)?;
                let n = self.header_elem(shape, axis as u64)?;
                self.vals.insert(v, n.into());
            }
            InstData::Stride { array, axis } => {
                let d = self.dt(array);
                let arr = pointer(self.val(array)?)?;
                let ndim = self.tyd(array).and_then(|t| t.ndim());
                if ndim.is_some_and(|n| axis as usize >= n) {
                    return self
                        .err(Some(v), format!("`stride` of axis {axis} of an array of rank {}", ndim.unwrap_or(0)));
                }
                let (se, sb) = self.inline_stride(arr, axis as usize, ndim, d.size_bytes())?;
                self.vals.insert(v, sb.into());
                self.elem.insert(v, (d.size_bytes(), se));
            }
            InstData::Call { callee, args } => {
                let args: Vec<ValueId> = args.iter().collect();
                self.call(v, callee, args)?;
            }
            InstData::Let { value } | InstData::Set { value, .. } => {
                let target = match inst {
                    InstData::Set { target, .. } => target,
                    _ => v,
                };
                let x = self.val(value)?;
                let slot = self.slots[&target];
                self.b.build_store(slot, x)?;
            }
            InstData::Select { cond, if_true, if_false } => {
                let c = self.ival(cond)?;
                let a = self.val(if_true)?;
                let b = self.val(if_false)?;
                let r = self.b.build_select(c, a, b, "")?;
                self.vals.insert(v, r);
            }
            InstData::Alloc { dims } => {
                let d = self.dt(v);
                if d.is_text() {
                    return self.err(Some(v), format!("cannot allocate an array of {d}"));
                }
                let (code, bits) = crate::abi::dlpack_dtype(d);
                // A negative extent is guarded by `insert-checks`.
                let mut ns = Vec::with_capacity(dims.len());
                for length in dims.iter() {
                    ns.push(self.ival(length)?);
                }
                let t = self.u.t;
                let (code, bits, size) = (
                    t.i8.const_int(code as u64, false).into(),
                    t.i8.const_int(bits as u64, false).into(),
                    self.i64c(d.size_bytes() as u64).into(),
                );
                // `alloc.empty`'s elements are written before they are read:
                // the runtime leaves them as they are.
                let empty = self.f.body.tags[v] == postc_ir::Opcode::AllocEmpty;
                let r = if let [n] = ns[..] {
                    let f = self.u.runtime(if empty { runtime::ALLOC_ARRAY_EMPTY } else { runtime::ALLOC_ARRAY });
                    self.call_fn(f, &[n.into(), code, bits, size])?
                } else {
                    // The extents go to the runtime through a stack buffer.
                    let buf = self.temp_i64s(ns.len() as u32)?;
                    for (k, n) in ns.iter().enumerate() {
                        // SAFETY: `k` is within the buffer of `ns.len()` Int64s.
                        let at = unsafe { self.b.build_in_bounds_gep(t.i64, buf, &[self.i64c(k as u64)], "")? };
                        self.b.build_store(at, *n)?;
                    }
                    let f = self.u.runtime(if empty { runtime::ALLOC_ND_EMPTY } else { runtime::ALLOC_ND });
                    self.call_fn(f, &[self.i64c(ns.len() as u64).into(), buf.into(), code, bits, size])?
                };
                self.vals.insert(v, r);
            }
            InstData::View { base, offset, extents, strides } if self.frame_views[v.as_u32() as usize] => {
                self.frame_view(v, base, offset, extents, strides)?;
            }
            InstData::View { base, offset, extents, strides } => {
                let d = self.dt(v);
                let arr = self.val(base)?;
                let off = self.ival(offset)?;
                // The extents, then the strides, go to the runtime through
                // a stack buffer (checked before, by `insert-checks`).
                let n = extents.len();
                let t = self.u.t;
                let buf = self.temp_i64s((2 * n).max(1) as u32)?;
                for (k, x) in extents.iter().chain(strides.iter()).enumerate() {
                    let x = self.ival(x)?;
                    // SAFETY: `k` is within the buffer of `2 * n` Int64s.
                    let at = unsafe { self.b.build_in_bounds_gep(t.i64, buf, &[self.i64c(k as u64)], "")? };
                    self.b.build_store(at, x)?;
                }
                // SAFETY: `n` is within the buffer (which holds at least one Int64).
                let strides_at = unsafe { self.b.build_in_bounds_gep(t.i64, buf, &[self.i64c(n as u64)], "")? };
                let f = self.u.runtime(runtime::VIEW);
                let args = [
                    arr,
                    off.into(),
                    self.i64c(n as u64).into(),
                    buf.into(),
                    strides_at.into(),
                    self.i64c(d.size_bytes() as u64).into(),
                ];
                let r = self.call_fn(f, &args)?;
                self.vals.insert(v, r);
            }
            InstData::GetField { aggregate: agg, field: field @ (Field::Len | Field::NBytes) } => {
                if field == Field::Len && self.dt(agg) == DType::Str {
                    return self.err(Some(v), crate::backend::written_out("getfield len on Str"));
                }
                // The byte count, the text's second member.
                let x = aggregate(self.val(agg)?)?;
                let r = self.b.build_extract_value(x, 1, "")?;
                self.vals.insert(v, r);
            }
            InstData::GetField { aggregate: agg, field } => {
                let x = aggregate(self.val(agg)?)?;
                let r = self.b.build_extract_value(x, field as u32, "")?;
                self.vals.insert(v, r);
            }
            InstData::SetField { aggregate: agg, field, value } => {
                let d = self.dt(agg);
                let slot = self.slots[&agg];
                let cur = aggregate(self.b.build_load(self.u.t.scalar(d), slot, "")?)?;
                let x = self.val(value)?;
                let n = self.b.build_insert_value(cur, x, field as u32, "")?;
                self.b.build_store(slot, n.as_basic_value_enum())?;
            }
            InstData::IndexLoad { .. } | InstData::IndexStore { .. } => {
                return self.err(
                    Some(v),
                    "`index.load`/`index.store` reached code generation (the `stride-lower` pass must run first)"
                        .into(),
                );
            }
            InstData::Return { value } => self.ret_value(value)?,
            InstData::Br { target } => {
                let br = self.b.build_unconditional_branch(self.blocks[&target])?;
                let hint = if self.f.attrs.contains(postc_ir::FuncAttrs::COMPILER_MADE) {
                    self.inner_loop_hint(v, target)
                } else if !self.latches.contains_key(&v) {
                    None
                } else if self.strides_not_unit.contains(&target) || self.checked_rests.contains(&target) {
                    Some(crate::llvm::ufunc::LoopHint::Scalar)
                } else if self.runtime_unroll_off && self.latches[&v] {
                    Some(crate::llvm::ufunc::LoopHint::NoRuntimeUnroll)
                } else {
                    None
                };
                if let Some(hint) = hint {
                    crate::llvm::ufunc::mark_loop(self.u.t.cx, br, hint);
                }
            }
            InstData::CondBr { cond, if_true, if_false, weights } => {
                let c = self.ival(cond)?;
                let br = self.b.build_conditional_branch(c, self.blocks[&if_true], self.blocks[&if_false])?;
                if let Some(w) = weights {
                    self.u.set_weights(br, w);
                }
            }
            // `insert-checks` put a panic call before every `unreachable`
            // that a run can reach.
            InstData::Unreachable => {
                self.b.build_unreachable()?;
            }
            InstData::Malformed => return self.err(Some(v), "malformed instruction".into()),
            InstData::Tuple { elements } => {
                let parts = elements.iter().map(|e| self.val(e)).collect::<R<Vec<_>>>()?;
                self.tuple_parts.insert(v, parts);
            }
            InstData::Extract { tuple, index } => {
                let Some(x) = self.tuple_parts.get(&tuple).and_then(|p| p.get(index as usize)) else {
                    return llvm("`extract` of a tuple without elements");
                };
                self.vals.insert(v, *x);
            }
            // Addresses are LLVM pointers (a compiler-made function's
            // parameters are, see `signature`), so offsets stay GEPs that
            // LLVM's loop analyses see through.
            InstData::RawRead { op: Opcode::RawField, base, index } => {
                let Some(offset) = postc_ir::dtype::dltensor_offset(index, 8) else {
                    return llvm("`raw.field` of no DLTensor field");
                };
                let base = pointer(self.val(base)?)?;
                let at = self.byte_gep(base, self.i64c(offset))?;
                self.vals.insert(v, at.into());
            }
            InstData::RawRead { op: Opcode::RawSlot, base, index } => {
                let base = pointer(self.val(base)?)?;
                let at = self.elem_gep(self.u.t.ptr.into(), base, self.i64c(index as u64))?;
                self.vals.insert(v, at.into());
            }
            InstData::RawRead { op, base, index } => {
                let ty: BasicTypeEnum = if op == Opcode::RawPtr { self.u.t.ptr.into() } else { self.u.t.i64.into() };
                let base = pointer(self.val(base)?)?;
                let at = self.elem_gep(ty, base, self.u.t.i64.const_int(index as u64, false))?;
                let x = self.b.build_load(ty, at, "")?;
                self.vals.insert(v, x);
            }
            InstData::RawOffset { address, bytes } => {
                let (address, bytes) = (pointer(self.val(address)?)?, self.ival(bytes)?);
                let at = self.byte_gep(address, bytes)?;
                self.vals.insert(v, at.into());
            }
            InstData::RawLoad { address } if self.f.body.opcode(v) == Opcode::RawIsNull => {
                let address = pointer(self.val(address)?)?;
                let null = self.b.build_is_null(address, "")?;
                self.vals.insert(v, null.into());
            }
            InstData::RawLoad { address } => {
                let at = pointer(self.val(address)?)?;
                self.load_at(v, at)?;
            }
            // A word or a pointer: 64 bits on every host LLVM targets.
            InstData::RawStore { address, value } if self.f.body.opcode(v) != Opcode::RawStore => {
                let at = pointer(self.val(address)?)?;
                let x = self.val(value)?;
                self.b.build_store(at, x)?;
            }
            InstData::RawStore { address, value } => {
                let at = pointer(self.val(address)?)?;
                self.store_at(value, at)?;
            }
            // The header, its shape and its strides are in the frame, made
            // once and rewritten each time (no arena block per index).
            InstData::RawView { address, offset, extents, strides } => {
                let d = self.dt(v);
                let n = extents.len();
                let header = self.entry_alloca(crate::llvm::ufunc::dltensor_type(self.u.t.cx).into())?;
                let buf = self.temp_i64s((2 * n).max(1) as u32)?;
                let size = self.i64c(d.size_bytes() as u64);
                for (k, x) in extents.iter().enumerate() {
                    let x = self.ival(x)?;
                    // SAFETY: `k` is within the buffer of `2 * n` Int64s.
                    let at = unsafe { self.b.build_in_bounds_gep(self.u.t.i64, buf, &[self.i64c(k as u64)], "")? };
                    self.b.build_store(at, x)?;
                }
                for (k, x) in strides.iter().enumerate() {
                    let x = self.ival(x)?;
                    let x = self.b.build_int_signed_div(x, size, "")?;
                    // SAFETY: `n + k` is within the buffer of `2 * n` Int64s.
                    let at =
                        unsafe { self.b.build_in_bounds_gep(self.u.t.i64, buf, &[self.i64c((n + k) as u64)], "")? };
                    self.b.build_store(at, x)?;
                }
                // SAFETY: `n` is within the buffer (which holds at least one Int64).
                let strides_at = unsafe { self.b.build_in_bounds_gep(self.u.t.i64, buf, &[self.i64c(n as u64)], "")? };
                let (address, offset) = (pointer(self.val(address)?)?, self.ival(offset)?);
                let data = self.byte_gep(address, offset)?;
                self.fill_header(header, data.into(), n, crate::abi::dlpack_dtype(d), buf, strides_at)?;
                self.vals.insert(v, header.into());
            }
            InstData::RawData { array } => {
                let arr = pointer(self.val(array)?)?;
                let data = pointer(self.header_field(arr, runtime::dltensor::DATA, self.u.t.ptr.into())?)?;
                let bo = int(self.header_field(arr, runtime::dltensor::BYTE_OFFSET, self.u.t.i64.into())?)?;
                let at = self.byte_gep(data, bo)?;
                self.vals.insert(v, at.into());
            }
            InstData::TextByte { text, index } => {
                let x = aggregate(self.val(text)?)?;
                let p = pointer(self.b.build_extract_value(x, 0, "")?)?;
                let i = int(self.val(index)?)?;
                let i8 = self.u.t.i8;
                // SAFETY: the index is within the text's bytes (the
                // instruction's contract, kept by `legalize`'s loop).
                let at = unsafe { self.b.build_in_bounds_gep(i8, p, &[i], "")? };
                let ty = self.u.t.int(self.dt(v));
                let r = self.b.build_load(ty, at, "")?;
                if let Some(load) = r.as_instruction_value() {
                    let _ = load.set_alignment(1);
                }
                self.vals.insert(v, r);
            }
        }
        Ok(())
    }
}

/// `poison` of a type.
fn poison(ty: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    match ty {
        BasicTypeEnum::IntType(t) => t.get_poison().into(),
        BasicTypeEnum::FloatType(t) => t.get_poison().into(),
        BasicTypeEnum::PointerType(t) => t.get_poison().into(),
        BasicTypeEnum::StructType(t) => t.get_poison().into(),
        BasicTypeEnum::ArrayType(t) => t.get_poison().into(),
        BasicTypeEnum::VectorType(t) => t.get_poison().into(),
        BasicTypeEnum::ScalableVectorType(t) => t.get_poison().into(),
    }
}

/// A float constant of a float dtype from its bits (a Float32 NaN keeps
/// its payload: it is widened by bits, not by a conversion that would
/// quiet it).
fn float_const<'c>(t: &super::unit::Types<'c>, d: DType, bits: u64) -> FloatValue<'c> {
    let x = match d {
        DType::Float16 => half::f16::from_bits(bits as u16).to_f64(),
        DType::Float32 | DType::Complex64 => {
            let f = f32::from_bits(bits as u32);
            if f.is_nan() {
                let b = bits as u32;
                f64::from_bits(((b as u64 >> 31) << 63) | (0x7ffu64 << 52) | (((b & 0x7f_ffff) as u64) << 29))
            } else {
                f as f64
            }
        }
        _ => f64::from_bits(bits),
    };
    t.float(d).const_float(x)
}
