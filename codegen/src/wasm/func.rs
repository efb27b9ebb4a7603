//! One IR function as one WebAssembly function: every IR value a local (a
//! `let` local is the same local assigned again), the blocks in the
//! structured order `structure::plan` gives (or, for an irreducible graph,
//! arms of a dispatch loop in reverse postorder), helpers made once per
//! module.

use super::structure::{self, Step};
use super::{val_type, val_types, Target, Translation, ARENA_TOP, DEFINED};
use postc_ir::body::{InstData, Literal};
use postc_ir::builtins::Builtin;
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{BlockId, DType, FuncId, Function, Module, ModuleId, Opcode, ValueId};
use std::borrow::Cow;
use std::collections::HashMap;
use wasm_encoder::{BlockType, Instruction as I, MemArg, ValType};

pub(super) type R<T> = Result<T, Box<Diagnostic>>;

/// `DLTensor` field offsets with 32-bit pointers (docs/abi.md §14).
pub(super) mod dl {
    pub const DATA: u64 = 0;
    pub const DEVICE_TYPE: u64 = 4;
    pub const NDIM: u64 = 12;
    pub const CODE: u64 = 16;
    pub const BITS: u64 = 17;
    pub const LANES: u64 = 18;
    pub const SHAPE: u64 = 20;
    pub const STRIDES: u64 = 24;
    pub const BYTE_OFFSET: u64 = 32;
    pub const SIZE: i32 = 40;
}

/// The panic import's index (imported first).
pub(super) const PANIC: u32 = 0;

pub(super) fn mem(offset: u64) -> MemArg {
    MemArg { offset, align: 0, target: wasm_encoder::MemArgTarget::Memory(0), ordering: None }
}

/// The instructions that re-narrow an `i32` to the width of `d`.
pub(super) fn narrow(d: DType) -> Vec<I<'static>> {
    match d {
        DType::Int8 => vec![I::I32Extend8S],
        DType::Int16 => vec![I::I32Extend16S],
        DType::UInt8 => vec![I::I32Const(0xff), I::I32And],
        DType::UInt16 => vec![I::I32Const(0xffff), I::I32And],
        DType::Bool => vec![I::I32Const(1), I::I32And],
        _ => vec![],
    }
}

fn is64(d: DType) -> bool {
    matches!(d, DType::Int64 | DType::UInt64)
}

/// The arena's exported entry points: `postc_arena_mark() -> i32`,
/// `postc_arena_alloc(bytes) -> i32` (zeroed, 16-byte aligned, growing the
/// memory when needed; traps when it cannot) and `postc_arena_release(mark)`.
pub(crate) fn arena_helpers(t: &mut Translation<'_>) {
    t.helper("postc_arena_mark", |_| (vec![], vec![ValType::I32], vec![], vec![I::GlobalGet(ARENA_TOP)]));
    alloc_helper(t);
    t.helper("postc_arena_release", |_| {
        (vec![ValType::I32], vec![], vec![], vec![I::LocalGet(0), I::GlobalSet(ARENA_TOP)])
    });
}

pub(super) fn alloc_helper(t: &mut Translation<'_>) -> u32 {
    t.helper("postc_arena_alloc", |_| {
        // Locals: 0 bytes, 1 start (i32), 2 end (i64).
        let body = vec![
            I::GlobalGet(ARENA_TOP),
            I::I32Const(15),
            I::I32Add,
            I::I32Const(-16),
            I::I32And,
            I::LocalSet(1),
            I::LocalGet(1),
            I::I64ExtendI32U,
            I::LocalGet(0),
            I::I64ExtendI32U,
            I::I64Add,
            I::LocalTee(2),
            I::I64Const(1 << 32),
            I::I64GeU,
            I::If(BlockType::Empty),
            I::Unreachable,
            I::End,
            I::LocalGet(2),
            I::MemorySize(0),
            I::I64ExtendI32U,
            I::I64Const(16),
            I::I64Shl,
            I::I64GtU,
            I::If(BlockType::Empty),
            I::LocalGet(2),
            I::I64Const(65535),
            I::I64Add,
            I::I64Const(16),
            I::I64ShrU,
            I::I32WrapI64,
            I::MemorySize(0),
            I::I32Sub,
            I::MemoryGrow(0),
            I::I32Const(-1),
            I::I32Eq,
            I::If(BlockType::Empty),
            I::Unreachable,
            I::End,
            I::End,
            I::LocalGet(1),
            I::I32Const(0),
            I::LocalGet(0),
            I::MemoryFill(0),
            I::LocalGet(2),
            I::I32WrapI64,
            I::GlobalSet(ARENA_TOP),
            I::LocalGet(1),
        ];
        (vec![ValType::I32], vec![ValType::I32], vec![ValType::I32, ValType::I64], body)
    })
}

/// `stride(tensor, axis, size) -> i64`: the byte stride of an axis, the
/// product of the later extents times `size` when `strides` is null.
pub(super) fn stride_helper(t: &mut Translation<'_>) -> u32 {
    t.helper("postc.stride", |_| {
        // Locals: 0 tensor, 1 axis, 2 size, 3 strides (i32), 4 result, 5 k.
        let body = vec![
            I::LocalGet(0),
            I::I32Load(mem(dl::STRIDES)),
            I::LocalTee(3),
            I::If(BlockType::Empty),
            I::LocalGet(3),
            I::LocalGet(1),
            I::I32WrapI64,
            I::I32Const(8),
            I::I32Mul,
            I::I32Add,
            I::I64Load(mem(0)),
            I::LocalGet(2),
            I::I64Mul,
            I::Return,
            I::End,
            I::LocalGet(2),
            I::LocalSet(4),
            I::LocalGet(1),
            I::I64Const(1),
            I::I64Add,
            I::LocalSet(5),
            I::Block(BlockType::Empty),
            I::Loop(BlockType::Empty),
            I::LocalGet(5),
            I::LocalGet(0),
            I::I32Load(mem(dl::NDIM)),
            I::I64ExtendI32S,
            I::I64GeS,
            I::BrIf(1),
            I::LocalGet(4),
            I::LocalGet(0),
            I::I32Load(mem(dl::SHAPE)),
            I::LocalGet(5),
            I::I32WrapI64,
            I::I32Const(8),
            I::I32Mul,
            I::I32Add,
            I::I64Load(mem(0)),
            I::I64Mul,
            I::LocalSet(4),
            I::LocalGet(5),
            I::I64Const(1),
            I::I64Add,
            I::LocalSet(5),
            I::Br(0),
            I::End,
            I::End,
            I::LocalGet(4),
        ];
        (
            vec![ValType::I32, ValType::I64, ValType::I64],
            vec![ValType::I64],
            vec![ValType::I32, ValType::I64, ValType::I64],
            body,
        )
    })
}

/// Integer ops of one width: (i32 or i64).
struct Ops {
    wide: bool,
}

impl Ops {
    fn konst(&self, x: i64) -> I<'static> {
        if self.wide {
            I::I64Const(x)
        } else {
            I::I32Const(x as i32)
        }
    }
    fn pick(&self, a: I<'static>, b: I<'static>) -> I<'static> {
        if self.wide {
            b
        } else {
            a
        }
    }
}

pub(super) struct FnW<'t, 'p> {
    pub(super) t: &'t mut Translation<'p>,
    pub(super) mid: ModuleId,
    pub(super) m: &'p Module,
    pub(super) f: &'p Function,
    pub(super) nparams: u32,
    pub(super) locals: Vec<ValType>,
    pub(super) value_local: HashMap<ValueId, u32>,
    pub(super) code: Vec<I<'static>>,
    pub(super) func_loc: Option<Pos>,
    /// Blocks by their position in the dispatch loop.
    pub(super) position: HashMap<BlockId, u32>,
    pub(super) nblocks: u32,
    /// The position of the block being written.
    pub(super) current: u32,
    /// Structured instructions open inside the current block.
    pub(super) open: u32,
    pub(super) pc: u32,
    pub(super) mark: Option<u32>,
    /// A value used without a local (a text constant), if any.
    pub(super) missing: Option<ValueId>,
    /// Array parameters' element bases (`data + byte_offset`), in locals.
    pub(super) bases: HashMap<ValueId, u32>,
    /// The header of each `raw.view`, allocated once per call, in locals.
    pub(super) raw_headers: HashMap<ValueId, u32>,
    /// For each call of a function with a tuple result, the local holding
    /// the address of the slots it writes the elements to (one of
    /// [`TUPLE_SLOT`] bytes each), allocated once per call of this function.
    pub(super) tuple_slots: HashMap<ValueId, u32>,
}

/// The bytes of each element's slot when a call's tuple result is written
/// to memory: room for the widest scalar, a Complex128.
pub(super) const TUPLE_SLOT: i32 = 16;

/// The most locals (parameters included) a function may have: V8 and the
/// validator refuse more.
pub(crate) const MAX_LOCALS: u32 = 50_000;

/// Translates function `fid` of module `mid`: its extra locals and code.
pub(crate) fn translate(t: &mut Translation<'_>, mid: ModuleId, fid: FuncId) -> R<(Vec<ValType>, Vec<I<'static>>)> {
    let program = t.program;
    let m = &program.modules[mid];
    let f = &m.functions[fid];
    let nparams = t.sigs[&(mid, fid)].params.len() as u32;
    let mut w = FnW {
        t,
        mid,
        m,
        f,
        nparams,
        locals: Vec::new(),
        value_local: HashMap::new(),
        code: Vec::new(),
        func_loc: f.loc.map(|l| Pos::from_loc(&m.files, l)),
        position: HashMap::new(),
        nblocks: 0,
        current: 0,
        open: 0,
        pc: 0,
        mark: None,
        missing: None,
        bases: HashMap::new(),
        raw_headers: HashMap::new(),
        tuple_slots: HashMap::new(),
    };
    w.run()?;
    let nlocals = w.nparams + w.locals.len() as u32;
    if nlocals > MAX_LOCALS {
        return w.err(
            None,
            format!(
                "the function needs {nlocals} WebAssembly locals (one per IR value and per temporary), more than \
                 the {MAX_LOCALS} that engines accept: split it into smaller functions"
            ),
        );
    }
    super::peephole::fold_local_pairs(&mut w.code, w.nparams, nlocals);
    Ok((w.locals, w.code))
}

impl<'t, 'p> FnW<'t, 'p> {
    pub(super) fn err<T>(&self, v: Option<ValueId>, msg: String) -> R<T> {
        let pos = v.and_then(|v| self.f.body.loc(v)).map(|l| Pos::from_loc(&self.m.files, l)).or(self.func_loc.clone());
        Err(Box::new(Diagnostic::error(format!("in function `{}`: {msg}", self.f.name), pos)))
    }

    pub(super) fn unsupported<T>(&self, v: ValueId, what: String) -> R<T> {
        self.err(Some(v), format!("{what} is not supported by the wasm backend (the LLVM backend compiles it)"))
    }

    pub(super) fn tyd(&self, v: ValueId) -> Option<&'p postc_ir::TypeData> {
        self.f.body.ty(v).map(|t| self.m.types.get(t))
    }

    pub(super) fn dt(&self, v: ValueId) -> DType {
        self.tyd(v).map(|t| t.dtype).unwrap_or(DType::Int64)
    }

    pub(super) fn is_array(&self, v: ValueId) -> bool {
        self.tyd(v).is_some_and(|t| t.is_array)
    }

    /// Fills the header at local `p` of the view `v` (all but its data,
    /// and the fields that stay zero): its type ([`FnW::header_type`]),
    /// then its extents and its strides in elements after it; `v` is then
    /// `p`.
    fn view_header(&mut self, v: ValueId, p: u32, extents: &[ValueId], strides: &[ValueId]) {
        self.header_type(v, p, extents.len() as i32);
        self.header_dims(v, p, extents, strides);
    }

    /// The fields of the header at local `p` that the type of the view `v`
    /// of `nd` axes fixes: device, rank, dtype, and where its shape and
    /// strides are (after the header).
    fn header_type(&mut self, v: ValueId, p: u32, nd: i32) {
        let (code, bits) = crate::abi::dlpack_dtype(self.dt(v));
        self.extend([I::LocalGet(p), I::I32Const(1), I::I32Store(mem(dl::DEVICE_TYPE))]);
        self.extend([I::LocalGet(p), I::I32Const(nd), I::I32Store(mem(dl::NDIM))]);
        self.extend([I::LocalGet(p), I::I32Const(code as i32), I::I32Store8(mem(dl::CODE))]);
        self.extend([I::LocalGet(p), I::I32Const(bits as i32), I::I32Store8(mem(dl::BITS))]);
        self.extend([I::LocalGet(p), I::I32Const(1), I::I32Store16(mem(dl::LANES))]);
        for (field, at) in [(dl::SHAPE, dl::SIZE), (dl::STRIDES, dl::SIZE + 8 * nd)] {
            self.extend([I::LocalGet(p), I::LocalGet(p), I::I32Const(at), I::I32Add, I::I32Store(mem(field))]);
        }
    }

    /// The extents and strides (in elements) of the view `v` after its
    /// header at local `p`; `v` is then `p`.
    fn header_dims(&mut self, v: ValueId, p: u32, extents: &[ValueId], strides: &[ValueId]) {
        let size = self.dt(v).size_bytes() as i64;
        for (k, &length) in extents.iter().enumerate() {
            self.push(I::LocalGet(p));
            self.get(length);
            self.push(I::I64Store(mem(dl::SIZE as u64 + 8 * k as u64)));
        }
        for (k, &stride) in strides.iter().enumerate() {
            self.push(I::LocalGet(p));
            self.get(stride);
            self.extend([I::I64Const(size), I::I64DivS]);
            self.push(I::I64Store(mem(dl::SIZE as u64 + 8 * (extents.len() + k) as u64)));
        }
        self.push(I::LocalGet(p));
        self.set(v);
    }

    /// Whether `v` is a 32-bit address: an array (a `DLTensor *`), or an
    /// address of a compiler-made function (an `Int64` in the IR).
    fn is_pointer(&self, v: ValueId) -> bool {
        self.is_array(v)
            || (self.f.attrs.contains(postc_ir::FuncAttrs::COMPILER_MADE) && self.f.body.opcode(v).makes_address())
    }

    pub(super) fn local(&mut self, vt: ValType) -> u32 {
        self.locals.push(vt);
        self.nparams + self.locals.len() as u32 - 1
    }

    pub(super) fn push(&mut self, i: I<'static>) {
        match i {
            I::Block(_) | I::Loop(_) | I::If(_) => self.open += 1,
            I::End => self.open -= 1,
            _ => {}
        }
        self.code.push(i);
    }

    pub(super) fn extend(&mut self, is: impl IntoIterator<Item = I<'static>>) {
        for i in is {
            self.push(i);
        }
    }

    /// The number of locals value `v` occupies.
    pub(super) fn width(&self, v: ValueId) -> u32 {
        if self.is_pointer(v) {
            1
        } else {
            val_types(self.dt(v)).len() as u32
        }
    }

    /// Pushes value `v`: each of its locals, the first first.
    pub(super) fn get(&mut self, v: ValueId) {
        match self.value_local.get(&v) {
            Some(&l) => {
                for k in 0..self.width(v) {
                    self.push(I::LocalGet(l + k));
                }
            }
            None => self.missing = self.missing.or(Some(v)),
        }
    }

    /// Pops value `v` into its locals.
    pub(super) fn set(&mut self, v: ValueId) {
        let l = self.value_local[&v];
        for k in (0..self.width(v)).rev() {
            self.push(I::LocalSet(l + k));
        }
    }

    pub(super) fn loc_text(&self, v: ValueId) -> Option<String> {
        crate::abi::loc_text(self.m, self.f, v)
    }

    /// Panics with message `msg`, its `{}` replaced by the `i64` values of
    /// the `args` locals (the native backends' format, `abi::panic_format`).
    pub(super) fn panic_with(&mut self, v: ValueId, msg: &str, args: &[u32]) {
        let fmt = crate::abi::panic_format(msg, args.len(), self.loc_text(v).as_deref());
        self.call_panic(&fmt, args);
    }

    /// Calls `env.postc_panic(fmt, fmt_len, args, nargs)` and traps: `fmt`
    /// is a printf format in the data section, which the host formats (so
    /// the module carries no number formatting), and its arguments are the
    /// `i64` values of the `args` locals, stored side by side in the arena.
    pub(super) fn call_panic(&mut self, fmt: &str, args: &[u32]) {
        let at = self.t.string(fmt.as_bytes());
        self.extend([I::I32Const(at as i32), I::I32Const(fmt.len() as i32)]);
        if args.is_empty() {
            self.extend([I::I32Const(0), I::I32Const(0)]);
        } else {
            let alloc = alloc_helper(self.t);
            let slots = self.local(ValType::I32);
            self.extend([I::I32Const(8 * args.len() as i32), I::Call(alloc), I::LocalSet(slots)]);
            for (k, &a) in args.iter().enumerate() {
                self.extend([I::LocalGet(slots), I::LocalGet(a), I::I64Store(mem(8 * k as u64))]);
            }
            self.extend([I::LocalGet(slots), I::I32Const(args.len() as i32)]);
        }
        self.extend([I::Call(PANIC), I::Unreachable]);
    }

    /// Panics with `msg` when the `i32` on the stack is not zero.
    pub(super) fn guard(&mut self, v: ValueId, msg: &str) {
        self.push(I::If(BlockType::Empty));
        self.panic_with(v, msg, &[]);
        self.push(I::End);
    }

    fn run(&mut self) -> R<()> {
        let body = &self.f.body;
        if body.blocks.is_empty() {
            return self.err(None, "function has no body".into());
        }
        let params: Vec<ValueId> = body.all_params().collect();
        let mut param_local = Vec::new();
        let mut next = 0;
        for p in &params {
            self.value_local.insert(*p, next);
            param_local.push(next);
            next += self.width(*p);
        }
        for v in body.tags.ids() {
            if self.value_local.contains_key(&v) || body.ty(v).is_none() {
                continue;
            }
            // A tuple has no locals: a `tuple` is its operands, a call's
            // tuple its slots in memory.
            if matches!(body.inst(v), InstData::Set { .. }) || self.tyd(v).is_some_and(|t| t.is_tuple()) {
                continue;
            }
            let vts = if self.is_pointer(v) { vec![ValType::I32] } else { val_types(self.dt(v)) };
            let l = self.nparams + self.locals.len() as u32;
            self.locals.extend(vts);
            self.value_local.insert(v, l);
        }
        // Arguments from outside are re-narrowed to their width.
        for (p, &i) in params.iter().zip(&param_local) {
            if self.is_pointer(*p) {
                continue;
            }
            let d = self.dt(*p);
            let n = match d {
                DType::Bool => vec![I::I32Const(0), I::I32Ne],
                DType::Float16 => vec![I::I32Const(0xffff), I::I32And],
                _ => narrow(d),
            };
            if !n.is_empty() {
                self.push(I::LocalGet(i));
                self.extend(n);
                self.push(I::LocalSet(i));
            }
        }
        // The element base of each array parameter that is loaded from or
        // stored to, read once: no instruction writes a parameter's header,
        // and in a loop the reads would stay (a store may alias memory).
        for v in body.tags.ids() {
            let array = match body.inst(v) {
                InstData::Load { array, .. } | InstData::Store { array, .. } => array,
                _ => continue,
            };
            if array.as_u32() < params.len() as u32 && !self.bases.contains_key(&array) {
                let base = self.local(ValType::I32);
                let p = self.value_local[&array];
                self.extend([
                    I::LocalGet(p),
                    I::I32Load(mem(dl::DATA)),
                    I::LocalGet(p),
                    I::I64Load(mem(dl::BYTE_OFFSET)),
                    I::I32WrapI64,
                    I::I32Add,
                    I::LocalSet(base),
                ]);
                self.bases.insert(array, base);
            }
        }
        // An array or text a function returns (alone or in a tuple) may be
        // in the arena: it is left there for the caller.
        let in_memory = |t: &postc_ir::TypeData| t.is_array || t.dtype.is_text();
        let returns_memory =
            self.f.ret.map(|t| self.m.types.get(t)).is_some_and(|t| in_memory(t) || t.elements.iter().any(in_memory));
        let headers = body.tags.iter().any(|&o| o == Opcode::RawView);
        let tuple_calls: Vec<ValueId> = body
            .tags
            .ids()
            .filter(|&v| body.opcode(v) == Opcode::Call && self.tyd(v).is_some_and(|t| t.is_tuple()))
            .collect();
        let allocates = body.tags.iter().any(|o| crate::abi::allocates_in_arena(*o) || headers);
        if (allocates || !tuple_calls.is_empty()) && !returns_memory {
            let mark = self.local(ValType::I32);
            self.extend([I::GlobalGet(ARENA_TOP), I::LocalSet(mark)]);
            self.mark = Some(mark);
        }
        // One header per `raw.view`, for the whole call, its type's fields
        // written here: a loop that makes a view per index takes no memory
        // per index, and writes only the data, extents and strides.
        for v in body.tags.ids().filter(|&v| body.opcode(v) == Opcode::RawView) {
            let InstData::RawView { extents, .. } = body.inst(v) else { continue };
            let nd = extents.len() as i32;
            let alloc = alloc_helper(self.t);
            let p = self.local(ValType::I32);
            self.extend([I::I32Const(dl::SIZE + 16 * nd), I::Call(alloc), I::LocalSet(p)]);
            self.header_type(v, p, nd);
            self.raw_headers.insert(v, p);
        }
        // The slots of each call with a tuple result, for the whole call
        // of this function: a loop around the call takes no memory per
        // iteration.
        for v in tuple_calls {
            let n = self.tyd(v).map_or(0, |t| t.elements.len()) as i32;
            let alloc = alloc_helper(self.t);
            let p = self.local(ValType::I32);
            self.extend([I::I32Const(TUPLE_SLOT * n), I::Call(alloc), I::LocalSet(p)]);
            self.tuple_slots.insert(v, p);
        }
        match structure::plan(body) {
            Some(steps) => self.structured(&steps),
            None => self.dispatch(),
        }
    }

    /// Writes the function as the structured `steps`.
    fn structured(&mut self, steps: &[Step]) -> R<()> {
        let body = &self.f.body;
        for step in steps {
            match *step {
                Step::Loop => self.push(I::Loop(BlockType::Empty)),
                Step::Block => self.push(I::Block(BlockType::Empty)),
                Step::End => self.push(I::End),
                Step::Br(depth) => self.push(I::Br(depth)),
                Step::Unreachable => self.push(I::Unreachable),
                Step::If { block, when } => {
                    self.condition(block, when);
                    self.push(I::If(BlockType::Empty));
                }
                Step::BrIf { block, when, depth } => {
                    self.condition(block, when);
                    self.push(I::BrIf(depth));
                }
                Step::Insts(b) => {
                    // The closing `br` or `condbr` is the plan's.
                    let branches = body
                        .terminator(b)
                        .is_some_and(|t| matches!(body.inst(t), InstData::Br { .. } | InstData::CondBr { .. }));
                    let insts = body.blocks[b].insts();
                    let n = insts.len() - usize::from(branches);
                    for v in insts.take(n) {
                        self.inst(v)?;
                        if let Some(x) = self.missing {
                            return self.unsupported(v, format!("a use of a value of {}", self.dt(x)));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Pushes the condition of block `b`'s `condbr`, negated when `when`
    /// is false.
    fn condition(&mut self, b: BlockId, when: bool) {
        let body = &self.f.body;
        if let Some(InstData::CondBr { cond, .. }) = body.terminator(b).map(|t| body.inst(t)) {
            self.get(cond);
            if !when {
                self.push(I::I32Eqz);
            }
        }
    }

    /// Writes an irreducible function as one dispatch loop: each block an
    /// arm (a `block` ended before its code), entered by a `br_table` on
    /// the `pc` local; a branch to the next arm falls through.
    fn dispatch(&mut self) -> R<()> {
        let body = &self.f.body;
        let order = structure::rpo(&postc_ir::cfg::Cfg::compute(body));
        self.nblocks = order.len() as u32;
        for (k, b) in order.iter().enumerate() {
            self.position.insert(*b, k as u32);
        }
        self.pc = self.local(ValType::I32);
        let n = self.nblocks;
        self.push(I::Loop(BlockType::Empty));
        for _ in 0..n {
            self.push(I::Block(BlockType::Empty));
        }
        self.push(I::LocalGet(self.pc));
        self.push(I::BrTable(Cow::Owned((0..n).collect()), 0));
        for (k, &b) in order.iter().enumerate() {
            self.push(I::End);
            self.current = k as u32;
            let base = self.open;
            for v in body.blocks[b].insts() {
                self.inst(v)?;
                if let Some(x) = self.missing {
                    return self.unsupported(v, format!("a use of a value of {}", self.dt(x)));
                }
            }
            debug_assert_eq!(self.open, base);
        }
        self.push(I::End);
        self.push(I::Unreachable);
        Ok(())
    }

    /// Goes to block `b`: falls through to the next arm, else through the
    /// dispatch loop.
    fn jump(&mut self, b: BlockId) {
        let k = self.position[&b];
        if k == self.current + 1 {
            return;
        }
        // The dispatch loop is the outermost open construct.
        let to_loop = self.open - 1;
        self.extend([I::I32Const(k as i32), I::LocalSet(self.pc), I::Br(to_loop)]);
    }

    fn fconst(&mut self, d: DType, x: f64) {
        if d == DType::Float32 {
            self.push(I::F32Const((x as f32).into()));
        } else {
            self.push(I::F64Const(x.into()));
        }
    }

    /// Converts the scalar of dtype `from` on the stack into dtype `to`.
    pub(super) fn convert(&mut self, v: ValueId, from: DType, to: DType) -> R<()> {
        if from == to {
            return Ok(());
        }
        if from == DType::Float16 || to == DType::Float16 || from.is_complex() || to.is_complex() {
            return self.err(Some(v), crate::backend::written_out(&format!("a cast from {from} to {to}")));
        }
        for d in [from, to] {
            if val_type(d).is_none() {
                return self.unsupported(v, format!("a cast from {from} to {to}"));
            }
        }
        if to == DType::Bool {
            match val_type(from) {
                Some(ValType::I32) => self.extend([I::I32Const(0), I::I32Ne]),
                Some(ValType::I64) => self.extend([I::I64Const(0), I::I64Ne]),
                Some(ValType::F32) => self.extend([I::F32Const(0.0f32.into()), I::F32Ne]),
                _ => self.extend([I::F64Const(0.0f64.into()), I::F64Ne]),
            }
            return Ok(());
        }
        let from_int = from.is_int() || from == DType::Bool;
        let unsigned_src = !from.is_signed_int();
        if to.is_int() {
            if from_int {
                match (is64(from), is64(to)) {
                    (true, true) => {}
                    (false, true) => self.push(if unsigned_src { I::I64ExtendI32U } else { I::I64ExtendI32S }),
                    (true, false) => {
                        self.push(I::I32WrapI64);
                        self.extend(narrow(to));
                    }
                    (false, false) => self.extend(narrow(to)),
                }
                return Ok(());
            }
            let f32 = from == DType::Float32;
            match to {
                DType::Int64 => self.push(if f32 { I::I64TruncSatF32S } else { I::I64TruncSatF64S }),
                DType::UInt64 => self.push(if f32 { I::I64TruncSatF32U } else { I::I64TruncSatF64U }),
                DType::Int32 => self.push(if f32 { I::I32TruncSatF32S } else { I::I32TruncSatF64S }),
                DType::UInt32 => self.push(if f32 { I::I32TruncSatF32U } else { I::I32TruncSatF64U }),
                _ => {
                    self.push(if f32 { I::I32TruncSatF32S } else { I::I32TruncSatF64S });
                    let bits = to.bits();
                    let (lo, hi) = if to.is_signed_int() {
                        (-(1i32 << (bits - 1)), (1i32 << (bits - 1)) - 1)
                    } else {
                        (0, (1i32 << bits) - 1)
                    };
                    let t = self.local(ValType::I32);
                    self.extend([
                        I::LocalTee(t),
                        I::I32Const(hi),
                        I::LocalGet(t),
                        I::I32Const(hi),
                        I::I32LtS,
                        I::Select,
                        I::LocalTee(t),
                        I::I32Const(lo),
                        I::LocalGet(t),
                        I::I32Const(lo),
                        I::I32GtS,
                        I::Select,
                    ]);
                }
            }
            return Ok(());
        }
        // To Float32 or Float64.
        let to32 = to == DType::Float32;
        if from_int {
            let i = match (is64(from), unsigned_src, to32) {
                (false, false, true) => I::F32ConvertI32S,
                (false, true, true) => I::F32ConvertI32U,
                (true, false, true) => I::F32ConvertI64S,
                (true, true, true) => I::F32ConvertI64U,
                (false, false, false) => I::F64ConvertI32S,
                (false, true, false) => I::F64ConvertI32U,
                (true, false, false) => I::F64ConvertI64S,
                (true, true, false) => I::F64ConvertI64U,
            };
            self.push(i);
            return Ok(());
        }
        self.push(if to32 { I::F32DemoteF64 } else { I::F64PromoteF32 });
        Ok(())
    }

    fn inst(&mut self, v: ValueId) -> R<()> {
        let body = &self.f.body;
        match body.inst(v) {
            InstData::Param { .. } => {}
            InstData::Const(lit) => {
                let d = self.dt(v);
                match lit {
                    Literal::Bool(b) => self.push(I::I32Const(i32::from(b))),
                    Literal::Int(i) => {
                        let bits = d.bits();
                        let w = if bits >= 128 { i } else { (i << (128 - bits)) >> (128 - bits) };
                        let w = if d.is_unsigned_int() && bits < 64 { w & ((1i128 << bits) - 1) } else { w };
                        if is64(d) {
                            self.push(I::I64Const(w as i64));
                        } else {
                            self.push(I::I32Const(w as i64 as i32));
                        }
                    }
                    Literal::Str(s) => self.text_const(s.as_bytes()),
                    Literal::Bytes(b) => self.text_const(b),
                    Literal::Float(bits) if d == DType::Float16 => self.push(I::I32Const(bits as i32 & 0xffff)),
                    Literal::Float(bits) if d == DType::Float32 || d == DType::Float64 => {
                        let x = postc_ir::body::float_bits_to_f64(d, bits);
                        self.fconst(d, x);
                    }
                    Literal::Complex(re, im) if d.is_complex() => self.complex_const(d, re, im),
                    _ => return self.unsupported(v, format!("a constant of {d}")),
                }
                self.set(v);
            }
            InstData::Binary { op, left, right } => self.binary(v, op, left, right)?,
            InstData::Unary { op, operand } => self.unary(v, op, operand)?,
            InstData::Cast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                self.get(operand);
                self.convert(v, from, to)?;
                self.set(v);
            }
            InstData::Bitcast { operand } => {
                let (from, to) = (self.dt(operand), self.dt(v));
                self.get(operand);
                // A Float16 is its bits in an `i32` already.
                match (from, to) {
                    (DType::Float32, _) => self.push(I::I32ReinterpretF32),
                    (DType::Float64, _) => self.push(I::I64ReinterpretF64),
                    (_, DType::Float32) => self.push(I::F32ReinterpretI32),
                    (_, DType::Float64) => self.push(I::F64ReinterpretI64),
                    _ => {}
                }
                self.set(v);
            }
            InstData::Load { array, offset } => {
                self.elem_addr(array, offset);
                self.load_at(v)?;
            }
            InstData::Store { array, offset, value } => {
                self.elem_addr(array, offset);
                self.store_at(v, value)?;
            }
            InstData::Dim { array, axis } => {
                self.get(array);
                self.extend([I::I32Load(mem(dl::SHAPE)), I::I64Load(mem(8 * axis as u64))]);
                self.set(v);
            }
            InstData::Stride { array, axis } => {
                let d = self.dt(array);
                let size = d.size_bytes() as i64;
                let ndim = self.tyd(array).and_then(|t| t.ndim());
                let Some(ndim) = ndim.filter(|n| (axis as usize) < *n) else {
                    // The rank is read from the tensor.
                    let h = stride_helper(self.t);
                    self.get(array);
                    self.extend([I::I64Const(axis as i64), I::I64Const(size), I::Call(h)]);
                    self.set(v);
                    return Ok(());
                };
                let s = self.local(ValType::I32);
                self.get(array);
                self.extend([I::I32Load(mem(dl::STRIDES)), I::LocalTee(s), I::If(BlockType::Result(ValType::I64))]);
                self.extend([I::LocalGet(s), I::I64Load(mem(8 * axis as u64)), I::I64Const(size), I::I64Mul, I::Else]);
                self.push(I::I64Const(size));
                for k in axis as usize + 1..ndim {
                    self.get(array);
                    self.extend([I::I32Load(mem(dl::SHAPE)), I::I64Load(mem(8 * k as u64)), I::I64Mul]);
                }
                self.push(I::End);
                self.set(v);
            }
            InstData::Call { callee, args } => {
                let args: Vec<ValueId> = args.iter().collect();
                self.call(v, callee, args)?;
            }
            InstData::Let { value } => {
                self.get(value);
                self.set(v);
            }
            InstData::Set { target, value } => {
                self.get(value);
                self.set(target);
            }
            InstData::Select { cond, if_true, if_false } => {
                // Part by part for a value of two locals.
                let (l, t, f) = (self.value_local[&v], self.value_local[&if_true], self.value_local[&if_false]);
                let c = self.value_local[&cond];
                for k in 0..self.width(v) {
                    self.extend([
                        I::LocalGet(t + k),
                        I::LocalGet(f + k),
                        I::LocalGet(c),
                        I::Select,
                        I::LocalSet(l + k),
                    ]);
                }
            }
            InstData::Alloc { dims } => {
                let d = self.dt(v);
                if d.is_text() {
                    return self.err(Some(v), format!("cannot allocate an array of {d}"));
                }
                let (code, bits) = crate::abi::dlpack_dtype(d);
                // A negative extent is guarded by `insert-checks`.
                let dims: Vec<ValueId> = dims.iter().collect();
                let nd = dims.len() as i32;
                let alloc = alloc_helper(self.t);
                let p = self.local(ValType::I32);
                let size = self.local(ValType::I64);
                // The tensor, its extents, then the elements (16-byte
                // aligned); the size must fit the 32-bit memory. Each
                // extent and each partial product stays below 2**32, so
                // no product overflows.
                let data_off = (dl::SIZE + 8 * nd + 15) & !15;
                self.extend([I::I64Const(d.size_bytes() as i64), I::LocalSet(size)]);
                for &length in &dims {
                    self.get(length);
                    self.extend([I::I64Const(1 << 32), I::I64GeU]);
                    self.guard(v, "allocation too large for the wasm memory");
                    self.get(length);
                    self.extend([I::LocalGet(size), I::I64Mul, I::LocalTee(size), I::I64Const(1 << 32), I::I64GeU]);
                    self.guard(v, "allocation too large for the wasm memory");
                }
                self.extend([
                    I::LocalGet(size),
                    I::I64Const(data_off as i64),
                    I::I64Add,
                    I::LocalTee(size),
                    I::I64Const(1 << 32),
                    I::I64GeU,
                ]);
                self.guard(v, "allocation too large for the wasm memory");
                self.extend([I::LocalGet(size), I::I32WrapI64, I::Call(alloc), I::LocalSet(p)]);
                self.extend([
                    I::LocalGet(p),
                    I::LocalGet(p),
                    I::I32Const(data_off),
                    I::I32Add,
                    I::I32Store(mem(dl::DATA)),
                ]);
                self.extend([I::LocalGet(p), I::I32Const(1), I::I32Store(mem(dl::DEVICE_TYPE))]);
                self.extend([I::LocalGet(p), I::I32Const(nd), I::I32Store(mem(dl::NDIM))]);
                self.extend([I::LocalGet(p), I::I32Const(code as i32), I::I32Store8(mem(dl::CODE))]);
                self.extend([I::LocalGet(p), I::I32Const(bits as i32), I::I32Store8(mem(dl::BITS))]);
                self.extend([I::LocalGet(p), I::I32Const(1), I::I32Store16(mem(dl::LANES))]);
                self.extend([
                    I::LocalGet(p),
                    I::LocalGet(p),
                    I::I32Const(dl::SIZE),
                    I::I32Add,
                    I::I32Store(mem(dl::SHAPE)),
                ]);
                for (k, &length) in dims.iter().enumerate() {
                    self.extend([I::LocalGet(p)]);
                    self.get(length);
                    self.push(I::I64Store(mem(dl::SIZE as u64 + 8 * k as u64)));
                }
                self.push(I::LocalGet(p));
                self.set(v);
            }
            InstData::View { base, offset, extents, strides } => {
                // A tensor in the arena, its extents, then its strides in
                // elements; element 0 is its `data` (`insert-checks`
                // checked the view, so the strides divide exactly).
                let extents: Vec<ValueId> = extents.iter().collect();
                let strides: Vec<ValueId> = strides.iter().collect();
                let nd = extents.len() as i32;
                let alloc = alloc_helper(self.t);
                let p = self.local(ValType::I32);
                self.extend([I::I32Const(dl::SIZE + 16 * nd), I::Call(alloc), I::LocalSet(p)]);
                self.push(I::LocalGet(p));
                self.get(base);
                self.push(I::I32Load(mem(dl::DATA)));
                self.get(base);
                self.extend([I::I64Load(mem(dl::BYTE_OFFSET)), I::I32WrapI64, I::I32Add]);
                self.get(offset);
                self.extend([I::I32WrapI64, I::I32Add, I::I32Store(mem(dl::DATA))]);
                self.view_header(v, p, &extents, &strides);
            }
            InstData::RawView { address, offset, extents, strides } => {
                // The header the prologue allocated, rewritten each time.
                let p = self.raw_headers[&v];
                let extents: Vec<ValueId> = extents.iter().collect();
                let strides: Vec<ValueId> = strides.iter().collect();
                self.push(I::LocalGet(p));
                self.get(address);
                self.get(offset);
                self.extend([I::I32WrapI64, I::I32Add, I::I32Store(mem(dl::DATA))]);
                self.header_dims(v, p, &extents, &strides);
            }
            InstData::RawData { array } => {
                self.get(array);
                self.push(I::I32Load(mem(dl::DATA)));
                self.get(array);
                self.extend([I::I64Load(mem(dl::BYTE_OFFSET)), I::I32WrapI64, I::I32Add]);
                self.set(v);
            }
            InstData::TextByte { text, index } => {
                // The text's address local plus the index, an Int64 below
                // its 32-bit length.
                self.push(I::LocalGet(self.value_local[&text]));
                self.get(index);
                let load = if self.dt(v) == DType::UInt64 { I::I64Load(mem(0)) } else { I::I32Load8U(mem(0)) };
                self.extend([I::I32WrapI64, I::I32Add, load]);
                self.set(v);
            }
            InstData::GetField { aggregate, field } => self.get_field(v, aggregate, field)?,
            InstData::SetField { aggregate, field, value } => self.set_field(v, aggregate, field, value)?,
            InstData::IndexLoad { .. } | InstData::IndexStore { .. } => {
                return self.err(
                    Some(v),
                    "`index.load`/`index.store` reached code generation (the `stride-lower` pass must run first)"
                        .into(),
                );
            }
            InstData::Return { value: Some(x) } if self.tyd(x).is_some_and(|t| t.is_tuple()) => self.ret_tuple(v, x)?,
            InstData::Return { value } => {
                if let Some(x) = value {
                    if self.f.ret.is_some() {
                        self.get(x);
                    }
                }
                if let Some(m) = self.mark {
                    self.extend([I::LocalGet(m), I::GlobalSet(ARENA_TOP)]);
                }
                self.push(I::Return);
            }
            InstData::Br { target } => self.jump(target),
            InstData::CondBr { cond, if_true, if_false, .. } => {
                self.get(cond);
                self.push(I::If(BlockType::Empty));
                self.jump(if_true);
                self.push(I::Else);
                self.jump(if_false);
                self.push(I::End);
            }
            // `insert-checks` put a panic call before every `unreachable`
            // that a run can reach.
            InstData::Unreachable => self.push(I::Unreachable),
            InstData::Malformed => return self.err(Some(v), "malformed instruction".into()),
            // A `tuple` is its operands, read by the `return` (see
            // `ret_tuple`) or an `extract`.
            InstData::Tuple { .. } => {}
            InstData::Extract { tuple, index } => self.extract(v, tuple, index)?,
            // Addresses are `i32` locals (see `is_pointer`); pointers and
            // `intptr_t` are 4 bytes.
            InstData::RawRead { op: op @ (Opcode::RawField | Opcode::RawSlot), base, index } => {
                let offset = match postc_ir::dtype::dltensor_offset(index, 4) {
                    Some(field) if op == Opcode::RawField => field,
                    _ => 4 * index as u64,
                };
                self.get(base);
                self.extend([I::I32Const(offset as i32), I::I32Add]);
                self.set(v);
            }
            InstData::RawRead { op, base, index } => {
                self.get(base);
                self.push(I::I32Load(mem(4 * index as u64)));
                if op == Opcode::RawWord {
                    self.push(I::I64ExtendI32S);
                }
                self.set(v);
            }
            InstData::RawOffset { address, bytes } => {
                self.get(address);
                self.get(bytes);
                self.extend([I::I32WrapI64, I::I32Add]);
                self.set(v);
            }
            InstData::RawLoad { address } if self.f.body.opcode(v) == Opcode::RawIsNull => {
                self.get(address);
                self.push(I::I32Eqz);
                self.set(v);
            }
            InstData::RawLoad { address } => {
                self.get(address);
                self.load_at(v)?;
            }
            InstData::RawStore { address, value } if self.f.body.opcode(v) != Opcode::RawStore => {
                self.get(address);
                self.get(value);
                if self.f.body.opcode(v) == Opcode::RawSetWord {
                    self.push(I::I32WrapI64);
                }
                self.push(I::I32Store(mem(0)));
            }
            InstData::RawStore { address, value } => {
                self.get(address);
                self.store_at(v, value)?;
            }
        }
        Ok(())
    }

    /// `v` = element `index` of a `tuple`, or of the tuple a call wrote to
    /// its slots.
    fn extract(&mut self, v: ValueId, tuple: ValueId, index: u32) -> R<()> {
        if let InstData::Tuple { elements } = self.f.body.inst(tuple) {
            let Some(e) = elements.get(index as usize) else {
                return self.err(Some(v), "`extract` out of range".into());
            };
            self.get(e);
            self.set(v);
            return Ok(());
        }
        let Some(&slots) = self.tuple_slots.get(&tuple) else {
            return self.err(Some(v), "`extract` of a tuple no call wrote".into());
        };
        self.extend([I::LocalGet(slots), I::I32Const(TUPLE_SLOT * index as i32), I::I32Add]);
        if self.is_array(v) {
            self.push(I::I32Load(mem(0)));
            self.set(v);
            Ok(())
        } else {
            self.load_at(v)
        }
    }

    /// Returns the `tuple` `x`: each element written through its
    /// out-pointer, the last parameters (docs/abi.md §14), an array as its
    /// `DLTensor`'s address, a scalar as an array element of its dtype.
    fn ret_tuple(&mut self, v: ValueId, x: ValueId) -> R<()> {
        let InstData::Tuple { elements } = self.f.body.inst(x) else {
            return self.unsupported(v, "returning the tuple a call returned".to_owned());
        };
        let elements: Vec<ValueId> = elements.iter().collect();
        let first_out = self.nparams - elements.len() as u32;
        for (k, &e) in elements.iter().enumerate() {
            self.push(I::LocalGet(first_out + k as u32));
            if self.is_array(e) {
                self.get(e);
                self.push(I::I32Store(mem(0)));
            } else {
                self.store_at(v, e)?;
            }
        }
        if let Some(m) = self.mark {
            self.extend([I::LocalGet(m), I::GlobalSet(ARENA_TOP)]);
        }
        self.push(I::Return);
        Ok(())
    }

    /// `v` = the array element of its dtype at the address on the stack
    /// (Bool is a byte).
    fn load_at(&mut self, v: ValueId) -> R<()> {
        let d = self.dt(v);
        let i = match d {
            DType::Bool | DType::UInt8 => I::I32Load8U(mem(0)),
            DType::Int8 => I::I32Load8S(mem(0)),
            DType::Int16 => I::I32Load16S(mem(0)),
            DType::UInt16 | DType::Float16 => I::I32Load16U(mem(0)),
            DType::Int32 | DType::UInt32 => I::I32Load(mem(0)),
            DType::Int64 | DType::UInt64 => I::I64Load(mem(0)),
            DType::Float32 => I::F32Load(mem(0)),
            DType::Float64 => I::F64Load(mem(0)),
            DType::Complex64 | DType::Complex128 => return self.complex_load(v, d),
            DType::Str | DType::Bytes => return self.text_at(v, false),
        };
        self.push(i);
        if d == DType::Bool {
            self.extend([I::I32Const(0), I::I32Ne]);
        }
        self.set(v);
        Ok(())
    }

    /// The store `v` of `value` as an array element of its dtype at the
    /// address on the stack.
    fn store_at(&mut self, v: ValueId, value: ValueId) -> R<()> {
        let d = self.dt(value);
        if d.is_complex() {
            return self.complex_store(value, d);
        }
        if d.is_text() {
            return self.text_at(value, true);
        }
        self.get(value);
        let i = match d {
            DType::Bool | DType::UInt8 | DType::Int8 => I::I32Store8(mem(0)),
            DType::Int16 | DType::UInt16 | DType::Float16 => I::I32Store16(mem(0)),
            DType::Int32 | DType::UInt32 => I::I32Store(mem(0)),
            DType::Int64 | DType::UInt64 => I::I64Store(mem(0)),
            DType::Float32 => I::F32Store(mem(0)),
            DType::Float64 => I::F64Store(mem(0)),
            _ => return self.unsupported(v, format!("an array of {d}")),
        };
        self.push(i);
        Ok(())
    }

    /// Loads (or with `store`, stores) the text value `v` at the address on
    /// the stack: a `postc_str` of two `i32`s, the bytes' address and their
    /// length (only a ufunc's operands are laid out so).
    fn text_at(&mut self, v: ValueId, store: bool) -> R<()> {
        let at = self.local(ValType::I32);
        let l = self.value_local[&v];
        self.push(I::LocalSet(at));
        for (k, off) in [(0, 0), (1, 4)] {
            if store {
                self.extend([I::LocalGet(at), I::LocalGet(l + k), I::I32Store(mem(off))]);
            } else {
                self.extend([I::LocalGet(at), I::I32Load(mem(off)), I::LocalSet(l + k)]);
            }
        }
        Ok(())
    }

    /// Pushes the address of the element at byte offset `offset` of `array`.
    pub(super) fn elem_addr(&mut self, array: ValueId, offset: ValueId) {
        if let Some(&base) = self.bases.get(&array) {
            self.push(I::LocalGet(base));
        } else {
            self.get(array);
            self.push(I::I32Load(mem(dl::DATA)));
            self.get(array);
            self.extend([I::I64Load(mem(dl::BYTE_OFFSET)), I::I32WrapI64, I::I32Add]);
        }
        self.get(offset);
        self.extend([I::I32WrapI64, I::I32Add]);
    }

    fn binary(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        let od = self.dt(l);
        let rd = self.dt(v);
        if od == DType::Float16 || od.is_complex() {
            return self.err(Some(v), crate::backend::written_out(&format!("{} on {od}", op.mnemonic())));
        }
        if od.is_text() {
            return self.binary_text(v, op, l, r);
        }
        if val_type(od).is_none() || val_type(rd).is_none() {
            return self.unsupported(v, format!("`{}` on {od}", op.mnemonic()));
        }
        if od.is_int() || od == DType::Bool {
            let wide = is64(od);
            let o = Ops { wide };
            let signed = od.is_signed_int();
            let bits = if od == DType::Bool { 1 } else { od.bits() } as i64;
            let cmp = |s: I<'static>, u: I<'static>, s64: I<'static>, u64: I<'static>| match (wide, signed) {
                (false, true) => s,
                (false, false) => u,
                (true, true) => s64,
                (true, false) => u64,
            };
            match op {
                Opcode::Add | Opcode::Sub | Opcode::Mul => {
                    self.get(l);
                    self.get(r);
                    self.push(match op {
                        Opcode::Add => o.pick(I::I32Add, I::I64Add),
                        Opcode::Sub => o.pick(I::I32Sub, I::I64Sub),
                        _ => o.pick(I::I32Mul, I::I64Mul),
                    });
                    self.extend(narrow(od));
                }
                // `legalize` wrote integer `//`, `%` and `**` out in these;
                // the divisor is never zero nor -1 with a minimal dividend.
                Opcode::Quot | Opcode::Rem => {
                    self.get(l);
                    self.get(r);
                    self.push(match (op, signed) {
                        (Opcode::Quot, true) => o.pick(I::I32DivS, I::I64DivS),
                        (Opcode::Quot, false) => o.pick(I::I32DivU, I::I64DivU),
                        (_, true) => o.pick(I::I32RemS, I::I64RemS),
                        (_, false) => o.pick(I::I32RemU, I::I64RemU),
                    });
                    self.extend(narrow(od));
                }
                Opcode::Eq => {
                    self.get(l);
                    self.get(r);
                    self.push(o.pick(I::I32Eq, I::I64Eq));
                }
                Opcode::Ne => {
                    self.get(l);
                    self.get(r);
                    self.push(o.pick(I::I32Ne, I::I64Ne));
                }
                Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                    self.get(l);
                    self.get(r);
                    self.push(match op {
                        Opcode::Lt => cmp(I::I32LtS, I::I32LtU, I::I64LtS, I::I64LtU),
                        Opcode::Le => cmp(I::I32LeS, I::I32LeU, I::I64LeS, I::I64LeU),
                        Opcode::Gt => cmp(I::I32GtS, I::I32GtU, I::I64GtS, I::I64GtU),
                        _ => cmp(I::I32GeS, I::I32GeU, I::I64GeS, I::I64GeU),
                    });
                }
                Opcode::And | Opcode::BAnd | Opcode::Or | Opcode::BOr | Opcode::BXor => {
                    self.get(l);
                    self.get(r);
                    self.push(match op {
                        Opcode::And | Opcode::BAnd => o.pick(I::I32And, I::I64And),
                        Opcode::Or | Opcode::BOr => o.pick(I::I32Or, I::I64Or),
                        _ => o.pick(I::I32Xor, I::I64Xor),
                    });
                }
                Opcode::Shl | Opcode::Shr => {
                    // A count of the width or more (or negative) gives 0, or
                    // the sign fill for an arithmetic `shr`.
                    let arith = op == Opcode::Shr && signed;
                    let big = self.local(ValType::I32);
                    self.get(r);
                    self.extend([o.konst(bits), o.pick(I::I32GeU, I::I64GeU), I::LocalSet(big)]);
                    self.get(l);
                    if arith {
                        self.extend([o.konst(bits - 1)]);
                        self.get(r);
                        self.extend([I::LocalGet(big), I::Select, o.pick(I::I32ShrS, I::I64ShrS)]);
                    } else {
                        self.get(r);
                        self.push(if op == Opcode::Shl {
                            o.pick(I::I32Shl, I::I64Shl)
                        } else {
                            o.pick(I::I32ShrU, I::I64ShrU)
                        });
                        self.extend([o.konst(0), I::LocalGet(big), I::I32Eqz, I::Select]);
                        // select(shifted, 0, !big)
                    }
                    self.extend(narrow(od));
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
            self.set(v);
            return Ok(());
        }
        if od.is_float() {
            let f32 = od == DType::Float32;
            match op {
                Opcode::Add | Opcode::Sub | Opcode::Mul | Opcode::Div => {
                    self.get(l);
                    self.get(r);
                    self.push(match (op, f32) {
                        (Opcode::Add, true) => I::F32Add,
                        (Opcode::Sub, true) => I::F32Sub,
                        (Opcode::Mul, true) => I::F32Mul,
                        (_, true) => I::F32Div,
                        (Opcode::Add, false) => I::F64Add,
                        (Opcode::Sub, false) => I::F64Sub,
                        (Opcode::Mul, false) => I::F64Mul,
                        _ => I::F64Div,
                    });
                }
                // `fdiv` and `mod` are calls of `legalize`'s functions by now.
                // A Float32 power is a Float64 one by now.
                Opcode::Pow if !f32 => {
                    let pow = self.t.import("pow", &[ValType::F64, ValType::F64], &[ValType::F64]);
                    self.get(l);
                    self.get(r);
                    self.push(I::Call(pow));
                }
                Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                    self.get(l);
                    self.get(r);
                    self.push(match (op, f32) {
                        (Opcode::Eq, true) => I::F32Eq,
                        (Opcode::Ne, true) => I::F32Ne,
                        (Opcode::Lt, true) => I::F32Lt,
                        (Opcode::Le, true) => I::F32Le,
                        (Opcode::Gt, true) => I::F32Gt,
                        (_, true) => I::F32Ge,
                        (Opcode::Eq, false) => I::F64Eq,
                        (Opcode::Ne, false) => I::F64Ne,
                        (Opcode::Lt, false) => I::F64Lt,
                        (Opcode::Le, false) => I::F64Le,
                        (Opcode::Gt, false) => I::F64Gt,
                        _ => I::F64Ge,
                    });
                }
                _ => return self.err(Some(v), format!("`{}` on {od}", op.mnemonic())),
            }
            self.set(v);
            return Ok(());
        }
        self.unsupported(v, format!("`{}` on {od}", op.mnemonic()))
    }

    fn unary(&mut self, v: ValueId, op: Opcode, x: ValueId) -> R<()> {
        let d = self.dt(x);
        if d == DType::Float16 {
            return self.unary_f16(v, op, x);
        }
        if d.is_complex() {
            return self.err(Some(v), crate::backend::written_out(&format!("{} on {d}", op.mnemonic())));
        }
        if val_type(d).is_none() || val_type(self.dt(v)).is_none() {
            return self.unsupported(v, format!("`{}` on {d}", op.mnemonic()));
        }
        let o = Ops { wide: is64(d) };
        match op {
            Opcode::Not => {
                self.get(x);
                self.extend([I::I32Const(1), I::I32Xor]);
            }
            Opcode::Inv if d == DType::Bool => {
                self.get(x);
                self.extend([I::I32Const(1), I::I32Xor]);
            }
            Opcode::Inv if d.is_int() => {
                self.get(x);
                self.extend([o.konst(-1), o.pick(I::I32Xor, I::I64Xor)]);
                self.extend(narrow(d));
            }
            Opcode::Neg if d.is_int() => {
                self.push(o.konst(0));
                self.get(x);
                self.push(o.pick(I::I32Sub, I::I64Sub));
                self.extend(narrow(d));
            }
            Opcode::Neg if d == DType::Float32 => {
                self.get(x);
                self.push(I::F32Neg);
            }
            Opcode::Neg if d == DType::Float64 => {
                self.get(x);
                self.push(I::F64Neg);
            }
            Opcode::Abs if d.is_signed_int() => {
                self.push(o.konst(0));
                self.get(x);
                self.push(o.pick(I::I32Sub, I::I64Sub));
                self.extend(narrow(d));
                self.get(x);
                self.get(x);
                self.extend([o.konst(0), o.pick(I::I32LtS, I::I64LtS), I::Select]);
            }
            Opcode::Abs if d.is_int() => self.get(x),
            Opcode::Abs if d == DType::Float32 => {
                self.get(x);
                self.push(I::F32Abs);
            }
            Opcode::Abs if d == DType::Float64 => {
                self.get(x);
                self.push(I::F64Abs);
            }
            _ => return self.err(Some(v), format!("`{}` on {d}", op.mnemonic())),
        }
        self.set(v);
        Ok(())
    }

    fn call(&mut self, v: ValueId, callee: &'p str, args: Vec<ValueId>) -> R<()> {
        let Some(target) = self.t.resolve(self.mid, callee) else {
            return self.err(Some(v), format!("call to unknown function `{callee}`"));
        };
        let has_result = self.f.body.ty(v).is_some();
        match target {
            Target::Builtin(Builtin::Panic) => self.panic_call(v, &args),
            Target::Builtin(Builtin::Overflows(op)) => self.err(Some(v), crate::backend::written_out(op.name())),
            // The loader's entry of each argument's dtype (a Str is its
            // address and length), then the one that writes the line.
            Target::Builtin(Builtin::Print) => {
                for &a in &args {
                    let d = self.dt(a);
                    let params = match d {
                        DType::Str => vec![ValType::I32; 2],
                        DType::Bool => vec![ValType::I32],
                        DType::Float64 => vec![ValType::F64],
                        DType::Float32 => vec![ValType::F32],
                        _ => vec![ValType::I64],
                    };
                    let f = self.t.import(crate::abi::print_entry(d), &params, &[]);
                    self.get(a);
                    self.push(I::Call(f));
                }
                let end = self.t.import(crate::abi::PRINT_END, &[], &[]);
                self.push(I::Call(end));
                Ok(())
            }
            // The count is the mutable global `postc_depth`, an i32.
            Target::Builtin(Builtin::Depth) => {
                self.extend([I::GlobalGet(super::DEPTH), I::I64ExtendI32S]);
                self.set(v);
                Ok(())
            }
            Target::Builtin(Builtin::SetDepth) => {
                self.get(args[0]);
                self.extend([I::I32WrapI64, I::GlobalSet(super::DEPTH)]);
                Ok(())
            }
            Target::Builtin(b) => {
                self.unsupported(v, format!("`{}`, which runs only in `kernel` functions,", b.name()))
            }
            Target::Intrinsic(sym) => self.intrinsic_call(v, sym, &args),
            Target::Func(mid, fid) => {
                let Some(sig) = self.t.sigs.get(&(mid, fid)).cloned() else {
                    return self.unsupported(v, format!("a call to `{callee}`"));
                };
                for a in &args {
                    self.get(*a);
                }
                if let Some(&slots) = self.tuple_slots.get(&v) {
                    let n = self.tyd(v).map_or(0, |t| t.elements.len()) as i32;
                    for k in 0..n {
                        self.extend([I::LocalGet(slots), I::I32Const(TUPLE_SLOT * k), I::I32Add]);
                    }
                }
                self.push(I::Call(DEFINED + sig.index));
                if !sig.results.is_empty() {
                    if has_result {
                        self.set(v);
                    } else {
                        self.extend(sig.results.iter().map(|_| I::Drop));
                    }
                }
                Ok(())
            }
        }
    }

    fn intrinsic_call(&mut self, v: ValueId, sym: &str, args: &[ValueId]) -> R<()> {
        let rd = self.f.body.ty(v).map(|t| self.m.types.dtype(t));
        let Some((base, _)) = crate::calls::intrinsic_base(sym) else {
            // An external function: imported from `env` under its name.
            let mut params = Vec::new();
            for a in args {
                let vt = if self.is_array(*a) { Some(ValType::I32) } else { val_type(self.dt(*a)) };
                match vt {
                    Some(vt) if self.dt(*a) != DType::Float16 || self.is_array(*a) => params.push(vt),
                    _ => return self.unsupported(v, format!("an argument of {} to `{sym}`", self.dt(*a))),
                }
            }
            let results = match rd {
                Some(d) if self.is_array(v) || val_type(d).is_none() || d == DType::Float16 => {
                    return self.unsupported(v, format!("an external function `{sym}` returning {d}"))
                }
                Some(d) => vec![val_type(d).expect("checked")],
                None => vec![],
            };
            let f = self.t.import(sym, &params, &results);
            for a in args {
                self.get(*a);
            }
            self.push(I::Call(f));
            if let Some(d) = rd {
                self.extend(narrow(d));
                self.set(v);
            }
            return Ok(());
        };
        // In Float64, as JavaScript's `Math` computes, rounded once to the result.
        if args.iter().any(|a| self.dt(*a) == DType::Float16) || rd == Some(DType::Float16) {
            return self.err(Some(v), crate::backend::written_out(&format!("a Float16 operand of `{base}`")));
        }
        for a in args {
            self.get(*a);
            self.convert(v, self.dt(*a), DType::Float64)?;
        }
        match (base, args.len()) {
            ("sqrt", 1) => self.push(I::F64Sqrt),
            ("fabs", 1) => self.push(I::F64Abs),
            ("floor", 1) => self.push(I::F64Floor),
            ("ceil", 1) => self.push(I::F64Ceil),
            ("trunc", 1) => self.push(I::F64Trunc),
            ("copysign", 2) => self.push(I::F64Copysign),
            _ => {
                let params = vec![ValType::F64; args.len()];
                let f = self.t.import(base, &params, &[ValType::F64]);
                self.push(I::Call(f));
            }
        }
        match rd {
            Some(rd) => {
                self.convert(v, DType::Float64, rd)?;
                self.set(v);
            }
            None => self.push(I::Drop),
        }
        Ok(())
    }

    fn panic_call(&mut self, v: ValueId, args: &[ValueId]) -> R<()> {
        let body = &self.f.body;
        let lit = args.first().and_then(|m| match body.inst(*m) {
            InstData::Const(Literal::Str(s)) => Some(s),
            _ => None,
        });
        let mut rest = Vec::new();
        for a in args.iter().skip(1) {
            let d = self.dt(*a);
            let l = self.local(ValType::I64);
            self.get(*a);
            self.convert(v, d, DType::Int64)?;
            self.push(I::LocalSet(l));
            rest.push(l);
        }
        match lit {
            Some(msg) => self.panic_with(v, msg, &rest),
            None => self.panic_with_text(v, args[0], &rest),
        }
        Ok(())
    }
}
