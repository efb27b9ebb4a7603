//! `ufunc-dl`: a ufunc's DLPack entry point, written as IR. For every
//! exported ufunc that has its inner loop `postc.loop.NAME` (`ufunc-entry`),
//! the module gains a compiler-made function `postc.dl.NAME(op0, ..., opN)`
//! (docs/abi.md, "UFuncs"), which every backend compiles under the symbol
//! `NAME_dl`: its parameters are `DLTensor *`, inputs then outputs.
//!
//! It checks each operand in turn (its device, its dtype's code, bits and
//! lanes, that its rank covers its core signature and leaves at most
//! [`MAX_LOOP_DIMS`] loop axes, that no extent is negative, that a
//! row-major operand's element count and every stride in bytes fit 64
//! bits), broadcasts the loop axes NumPy-style (right-aligned, an axis of
//! size 1 or a missing one stretches), requires the outputs' loop shape to
//! be the broadcast one, checks the core sizes (a numeric name fixes one,
//! a repeated name must agree), and then calls `postc.loop.NAME` once per
//! index of every loop axis but the innermost, which the loop runs itself:
//! an odometer over the outer axes, each operand's offset moved by its
//! loop strides (0 along a stretched axis). Nothing runs when an extent of
//! the loop shape is 0. Each failure is a panic `ufunc NAME: ...` located
//! at the ufunc; the texts are docs/abi.md's table.
//!
//! What the checks read is in the operands' `DLTensor`s (`raw.field`), and
//! what the loop reads is written to arrays of pointer-sized words
//! (`raw.slot`, `raw.setword`, `raw.setptr`), so the function is the same
//! on 64-bit hosts and on wasm32. Its scratch arrays are pieces of one
//! uninitialised allocation from the arena, released when it returns
//! (ten zeroed ones cost six times the rest of a call); what is read of
//! them is written first. Backends compile it unoptimised
//! (`postc_codegen::compiled_unoptimised`): it runs once per call.
//! `ufunc-gpu-dl` writes the entry point of a `gpu` ufunc in a build with
//! device code, which accepts tensors in GPU memory as well. Like `ufunc-entry`, these passes run after the
//! pipeline (`postc_codegen::prepare_with_ufunc_loops`), so what they
//! write is already lowered.

use crate::analysis::AnalysisSet;
use crate::ufunc_entry::LOOP_PREFIX;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::builtins::PANIC;
use postc_ir::diag::Diagnostic;
use postc_ir::dtype::dlpack_dtype;
use postc_ir::{
    BlockId, DType, FuncAttrs, Function, FunctionBuilder, Layout, Literal, Module, Opcode, Shape, TypeData, TypeId,
    ValueId,
};
use std::collections::HashSet;

/// `ufunc-dl`; with `gpu`, `ufunc-gpu-dl`.
pub struct UFuncDl {
    pub gpu: bool,
}

pub static INFO: PassInfo = PassInfo {
    name: "ufunc-dl",
    description: "write the DLPack entry point of each exported ufunc as a compiler-made function",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

pub static GPU_INFO: PassInfo = PassInfo {
    name: "ufunc-gpu-dl",
    description: "write the DLPack entry point of each exported gpu ufunc, accepting GPU memory as well",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

/// The prefix of the entry points these passes write: `postc.dl.NAME`.
pub const DL_PREFIX: &str = "postc.dl.";

/// The most loop dimensions an entry point accepts (NumPy's `NPY_MAXDIMS`).
pub const MAX_LOOP_DIMS: i64 = 64;

/// The helper that writes an `Int64` in decimal, for the messages that
/// quote an extent or a stride.
const DECIMAL: &str = "postc.dl.decimal";

impl ModulePass for UFuncDl {
    fn info(&self) -> &'static PassInfo {
        if self.gpu {
            &GPU_INFO
        } else {
            &INFO
        }
    }

    fn run(&self, module: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        Ok(write_entry_points(module, self.gpu))
    }
}

/// The fields of a `DLTensor` the checks read, numbered as `raw.field`
/// takes them.
#[derive(Clone, Copy)]
enum DlField {
    Data = 0,
    DeviceType = 1,
    Ndim = 2,
    Code = 3,
    Bits = 4,
    Lanes = 5,
    Shape = 6,
    Strides = 7,
    ByteOffset = 8,
}

/// Device types of memory the host reads: CPU, CUDA host, ROCm host.
const HOST_MEMORY: [i128; 3] = [1, 3, 11];
/// Device types of GPU memory: CUDA, ROCm, CUDA managed.
const GPU_MEMORY: [i128; 3] = [2, 10, 13];

/// Writes `postc.dl.NAME` for every exported ufunc with an inner loop: where
/// the module has none yet; with `gpu`, that of every gpu ufunc, in place
/// of any.
fn write_entry_points(module: &mut Module, gpu: bool) -> bool {
    let names: HashSet<&str> = module.functions.iter().map(|f| f.name.as_str()).collect();
    let listed: Option<HashSet<&str>> = module.export_all.as_ref().map(|all| all.iter().map(String::as_str).collect());
    let mut wanted = Vec::new();
    for (fid, f) in module.functions.iter_enumerated() {
        let exported = listed.as_ref().is_none_or(|l| l.contains(f.name.as_str()));
        let has_loop = names.contains(format!("{LOOP_PREFIX}{}", f.name).as_str());
        let missing = !names.contains(format!("{DL_PREFIX}{}", f.name).as_str());
        if f.ufunc_sig.is_some() && exported && has_loop && (if gpu { f.attrs.is_device() } else { missing }) {
            wanted.push(fid);
        }
    }
    if wanted.is_empty() {
        return false;
    }
    let words = module.types.intern(TypeData::array(DType::Int64, Shape::dims(&[None]), Layout::COrder));
    let mut made = Vec::new();
    for fid in wanted {
        if let Some(ops) = operands(module, &module.functions[fid]) {
            made.push(entry_point(&module.functions[fid], &ops, words, gpu));
        }
    }
    if !module.functions.iter().any(|f| f.name == DECIMAL) {
        made.push(decimal());
    }
    for f in made {
        match module.functions.iter().position(|g| g.name == f.name) {
            Some(at) => module.functions.raw_mut()[at] = f,
            None => {
                module.add_function(f);
            }
        }
    }
    true
}

/// One operand of a ufunc (inputs, then outputs), as its tensor must be.
struct Operand {
    dtype: DType,
    /// Its core axes, as indexes into the distinct core dimensions.
    core: Vec<usize>,
    /// Their names, as the signature writes them: `m,k`.
    signature: String,
}

/// A ufunc's distinct core dimensions: each name with the size a
/// numeric name fixes.
type CoreDims = Vec<(String, Option<i64>)>;

/// The operands of ufunc `f` and its distinct core dimensions (each with
/// the size a numeric name fixes), when its parameters and result match
/// its signature.
fn operands(m: &Module, f: &Function) -> Option<(Vec<Operand>, CoreDims)> {
    let sig = f.ufunc_sig.as_ref()?;
    let (names, axes) = sig.distinct_dims();
    let mut dtypes: Vec<DType> = f.params().map(|p| f.body.ty(p).map(|t| m.types.dtype(t))).collect::<Option<_>>()?;
    if dtypes.len() + 1 == sig.num_operands() {
        dtypes.push(m.types.dtype(f.ret?));
    }
    if dtypes.len() != sig.num_operands() {
        return None;
    }
    let ops = dtypes
        .into_iter()
        .zip(axes)
        .map(|(dtype, core)| {
            let signature = core.iter().map(|&d| names[d].to_string()).collect::<Vec<_>>().join(",");
            Operand { dtype, core, signature }
        })
        .collect();
    Some((ops, names.iter().map(|n| (n.to_string(), n.parse().ok())).collect()))
}

/// A function being written, with the constants and helpers every part of
/// the entry point uses.
struct Writer<'a> {
    b: FunctionBuilder,
    ufunc: &'a str,
    zero: ValueId,
    one: ValueId,
    /// The bytes of an `Int64`, by which an index into a scratch array is
    /// multiplied.
    eight: ValueId,
    /// Blocks made so far, which number the next one's label.
    blocks: usize,
    /// The address of the one scratch allocation, which [`Writer::scratch`]
    /// hands out in pieces, and the words handed out so far.
    pool: ValueId,
    pooled: usize,
}

const INT: TypeId = TypeId::INT64;
const BOOL: TypeId = TypeId::BOOL;

impl Writer<'_> {
    fn block(&mut self, label: &str) -> BlockId {
        self.blocks += 1;
        self.b.create_block(&format!("{label}{}", self.blocks))
    }

    fn int(&mut self, x: i128) -> ValueId {
        self.b.int(INT, x, "")
    }

    fn op(&mut self, op: Opcode, ty: TypeId, l: ValueId, r: ValueId) -> ValueId {
        self.b.binary(op, ty, l, r, "")
    }

    fn all(&mut self, op: Opcode, xs: &[ValueId]) -> ValueId {
        xs[1..].iter().fold(xs[0], |acc, &x| self.op(op, BOOL, acc, x))
    }

    /// `Int64` element `i` of the array at address `at`.
    fn word(&mut self, at: ValueId, i: ValueId) -> ValueId {
        let bytes = self.op(Opcode::Mul, INT, i, self.eight);
        let p = self.b.raw_offset(at, bytes, "");
        self.b.raw_load(INT, p, "")
    }

    fn put(&mut self, at: ValueId, i: ValueId, x: ValueId) {
        let bytes = self.op(Opcode::Mul, INT, i, self.eight);
        let p = self.b.raw_offset(at, bytes, "");
        self.b.raw_store(p, x);
    }

    /// Pointer-sized word `i` of the array at `at` set to `x` (an `Int64`,
    /// or an address with `raw.setptr`).
    fn set_word(&mut self, op: Opcode, at: ValueId, i: usize, x: ValueId) {
        let slot = self.b.raw_read(Opcode::RawSlot, at, i as u32, "");
        self.b.raw_put(op, slot, x);
    }

    /// Field `field` of the tensor at `t`, of dtype `d`, as an `Int64`.
    fn field(&mut self, t: ValueId, field: DlField, d: DType) -> ValueId {
        let at = self.b.raw_read(Opcode::RawField, t, field as u32, "");
        let x = self.b.raw_load(TypeId::scalar(d), at, "");
        if d == DType::Int64 {
            x
        } else {
            self.b.cast(INT, x, "")
        }
    }

    /// The address that field `field` of the tensor at `t` holds.
    fn pointer(&mut self, t: ValueId, field: DlField) -> ValueId {
        let at = self.b.raw_read(Opcode::RawField, t, field as u32, "");
        self.b.raw_read(Opcode::RawPtr, at, 0, "")
    }

    /// The address of the next `n` words of the scratch pool, whose
    /// values are unspecified until written.
    fn scratch(&mut self, n: usize, name: &str) -> ValueId {
        let bytes = self.int(8 * self.pooled as i128);
        self.pooled += n;
        self.b.raw_offset(self.pool, bytes, name)
    }

    /// Words `0..n` of the array at `at` set to zero.
    fn clear(&mut self, at: ValueId, n: ValueId) {
        self.range(self.zero, n, |w, k| w.put(at, k, w.zero));
    }

    /// `for k in from..to { body(k) }`.
    fn range(&mut self, from: ValueId, to: ValueId, body: impl FnOnce(&mut Self, ValueId)) {
        let (test, step, done) = (self.block("test"), self.block("body"), self.block("done"));
        let k = self.b.let_(INT, from, "");
        self.b.br(test);
        self.b.switch_to(test);
        let more = self.op(Opcode::Lt, BOOL, k, to);
        self.b.condbr(more, step, done, None);
        self.b.switch_to(step);
        body(self, k);
        let next = self.op(Opcode::Add, INT, k, self.one);
        self.b.set(k, next);
        self.b.br(test);
        self.b.switch_to(done);
    }

    /// A panic `ufunc NAME: T0 N0 T1 ... Tk` when `bad` holds: the texts
    /// `texts` with the numbers `numbers` between them, written in decimal
    /// when it runs.
    fn panic_if(&mut self, bad: ValueId, texts: &[&str], numbers: &[ValueId]) {
        let (fail, ok) = (self.block("fail"), self.block("ok"));
        self.b.condbr(bad, fail, ok, Some((1, 2000)));
        self.b.switch_to(fail);
        let first = format!("ufunc {}: {}", self.ufunc, texts[0]);
        let mut msg = self.b.const_(TypeId::STR, Literal::Str(&first), "");
        for (&x, text) in numbers.iter().zip(&texts[1..]) {
            let n = self.b.call(DECIMAL, &[x], Some(TypeId::STR), "");
            let t = self.b.const_(TypeId::STR, Literal::Str(text), "");
            let with_n = self.op(Opcode::Add, TypeId::STR, msg, n);
            msg = self.op(Opcode::Add, TypeId::STR, with_n, t);
        }
        self.b.call(PANIC, &[msg], None, "");
        self.b.unreachable();
        self.b.switch_to(ok);
    }
}

/// What the checks leave of one operand for the broadcasting and the loop.
struct Checked {
    /// Its loop rank (its rank less its core rank).
    lnd: ValueId,
    shape: ValueId,
    /// Its element strides, one per axis (the tensor's, or row-major ones).
    strides: ValueId,
    base: ValueId,
}

/// `postc.dl.NAME(op0, ..., opN)` for ufunc `f`.
fn entry_point(f: &Function, (ops, dims): &(Vec<Operand>, CoreDims), words: TypeId, gpu: bool) -> Function {
    let mut b = FunctionBuilder::new(format!("{DL_PREFIX}{}", f.name));
    b.set_attrs(FuncAttrs::COMPILER_MADE);
    b.set_func_loc(f.loc);
    b.set_loc(f.loc);
    let tensors: Vec<ValueId> = (0..ops.len()).map(|i| b.param(&format!("op{i}"), INT)).collect();
    let entry = b.create_block("entry");
    b.switch_to(entry);
    let zero = b.int(INT, 0, "zero");
    let one = b.int(INT, 1, "one");
    let eight = b.int(INT, 8, "eight");
    // One allocation for every scratch array, sized for the most axes
    // any operand may have; only what is read is written.
    let axes = MAX_LOOP_DIMS as usize;
    let core: usize = ops.iter().map(|op| op.core.len()).sum();
    let num_steps = ops.len() + core;
    let words_needed = ops.len() * axes + core // each operand's strides
        + axes // the loop shape
        + ops.len() * axes // each operand's loop strides
        + dims.len() + 1 // the loop's `dimensions`
        + num_steps // its `steps`
        + axes // the odometer's index
        + ops.len() // the loop's `args`
        + 1; // a null word
    let n_words = b.int(INT, words_needed as i128, "words");
    let pool = b.alloc_empty(words, &[n_words], "scratch");
    let pool = b.raw_data(pool, "scratch.at");
    let mut w = Writer { b, ufunc: &f.name, zero, one, eight, blocks: 0, pool, pooled: 0 };
    let nin = f.ufunc_sig.as_ref().map_or(0, |s| s.inputs.len());
    let l = w.b.let_(INT, zero, "l");
    let checked: Vec<Checked> =
        (0..ops.len()).map(|i| check_operand(&mut w, &ops[i], i, i < nin, tensors[i], gpu)).collect();
    for c in &checked {
        let more = w.op(Opcode::Gt, BOOL, c.lnd, l);
        let wider = w.b.select(INT, more, c.lnd, l, "");
        w.b.set(l, wider);
    }
    let lshape = w.scratch(axes, "lshape");
    let any = w.op(Opcode::Gt, BOOL, l, zero);
    let used = w.b.select(INT, any, l, one, "used");
    w.range(zero, used, |w, a| w.put(lshape, a, w.one));
    // Broadcast the loop axes, right-aligned.
    for c in &checked {
        let lead = w.op(Opcode::Sub, INT, l, c.lnd);
        w.range(zero, c.lnd, |w, j| {
            let n = w.word(c.shape, j);
            let at = w.op(Opcode::Add, INT, lead, j);
            let cur = w.word(lshape, at);
            let conflicts = [(cur, w.one), (n, w.one), (n, cur)].map(|(x, y)| w.op(Opcode::Ne, BOOL, x, y));
            let bad = w.all(Opcode::And, &conflicts);
            w.panic_if(bad, &["operands could not be broadcast together"], &[]);
            let stretched = w.op(Opcode::Eq, BOOL, cur, w.one);
            let wide = w.b.select(INT, stretched, n, cur, "");
            w.put(lshape, at, wide);
        });
    }
    // Outputs have the broadcast loop shape exactly.
    for (i, c) in checked.iter().enumerate().skip(nin) {
        let text = format!("output operand {i} does not have the broadcast loop shape");
        let bad = w.op(Opcode::Ne, BOOL, c.lnd, l);
        w.panic_if(bad, &[&text], &[]);
        w.range(zero, l, |w, j| {
            let (n, want) = (w.word(c.shape, j), w.word(lshape, j));
            let bad = w.op(Opcode::Ne, BOOL, n, want);
            w.panic_if(bad, &[&text], &[]);
        });
    }
    // Loop byte strides (0 along a stretched axis), core sizes and steps.
    let dimensions = w.scratch(dims.len() + 1, "dimensions");
    let steps = w.scratch(num_steps, "steps");
    let mut sizes: Vec<Option<ValueId>> = vec![None; dims.len()];
    let mut core_step = ops.len();
    let mut lstr = Vec::with_capacity(ops.len());
    for (i, (op, c)) in ops.iter().zip(&checked).enumerate() {
        let size = w.int(op.dtype.size_bytes() as i128);
        // 0 along the leading axes the operand lacks (stretched).
        let row = w.scratch(axes, &format!("lstr{i}"));
        w.clear(row, l);
        lstr.push(row);
        let lead = w.op(Opcode::Sub, INT, l, c.lnd);
        w.range(zero, c.lnd, |w, j| {
            let n = w.word(c.shape, j);
            let e = w.word(c.strides, j);
            let bytes = w.op(Opcode::Mul, INT, e, size);
            let stretched = w.op(Opcode::Eq, BOOL, n, w.one);
            let stride = w.b.select(INT, stretched, w.zero, bytes, "");
            let at = w.op(Opcode::Add, INT, lead, j);
            w.put(row, at, stride);
        });
        for (k, &dim) in op.core.iter().enumerate() {
            let k_v = w.int(k as i128);
            let axis = w.op(Opcode::Add, INT, c.lnd, k_v);
            let n = w.word(c.shape, axis);
            let (name, fixed) = &dims[dim];
            if let Some(fixed) = fixed {
                let want = w.int(*fixed as i128);
                let bad = w.op(Opcode::Ne, BOOL, n, want);
                w.panic_if(bad, &[&format!("operand {i} has a size other than {fixed} for core dimension {k}")], &[]);
            } else if let Some(seen) = sizes[dim] {
                let bad = w.op(Opcode::Ne, BOOL, n, seen);
                let what =
                    format!("core dimension `{name}` of operand {i} does not match its size in an earlier operand");
                w.panic_if(bad, &[&what], &[]);
            }
            if sizes[dim].is_none() {
                sizes[dim] = Some(n);
                w.set_word(Opcode::RawSetWord, dimensions, 1 + dim, n);
            }
            let e = w.word(c.strides, axis);
            let bytes = w.op(Opcode::Mul, INT, e, size);
            w.set_word(Opcode::RawSetWord, steps, core_step, bytes);
            core_step += 1;
        }
    }
    // The innermost loop axis goes to the loop; an empty loop shape is one
    // iteration, and an empty loop axis none.
    let done = w.block("done");
    let last = w.op(Opcode::Sub, INT, l, one);
    let inner = w.b.select(INT, any, last, zero, "inner");
    let n = w.word(lshape, inner);
    w.set_word(Opcode::RawSetWord, dimensions, 0, n);
    w.range(zero, l, |w, a| {
        let n = w.word(lshape, a);
        let empty = w.op(Opcode::Eq, BOOL, n, w.zero);
        let next = w.block("nonempty");
        w.b.condbr(empty, done, next, None);
        w.b.switch_to(next);
    });
    let total = w.b.let_(INT, one, "total");
    let max = w.int(i64::MAX as i128);
    w.range(zero, l, |w, a| {
        let n = w.word(lshape, a);
        let room = w.op(Opcode::Quot, INT, max, n);
        let bad = w.op(Opcode::Gt, BOOL, total, room);
        w.panic_if(bad, &["the broadcast loop shape has more elements than 64 bits count"], &[]);
        let more = w.op(Opcode::Mul, INT, total, n);
        w.b.set(total, more);
    });
    let mut offsets = Vec::with_capacity(ops.len());
    for (i, &row) in lstr.iter().enumerate() {
        let step = w.word(row, inner);
        w.set_word(Opcode::RawSetWord, steps, i, step);
        offsets.push(w.b.let_(INT, zero, &format!("off{i}")));
    }
    let idx = w.scratch(axes, "idx");
    w.clear(idx, l);
    let args = w.scratch(ops.len(), "args");
    // `data` is NULL: read from a zeroed word, the IR having no address
    // constants.
    let nothing = w.scratch(1, "nothing");
    w.put(nothing, zero, zero);
    let null = w.b.raw_read(Opcode::RawPtr, nothing, 0, "null");
    // One call of the loop per outer index, then the odometer.
    let call = w.block("call");
    w.b.br(call);
    w.b.switch_to(call);
    for (i, &off) in offsets.iter().enumerate() {
        let at = w.b.raw_offset(checked[i].base, off, "");
        w.set_word(Opcode::RawSetPtr, args, i, at);
    }
    w.b.call(&format!("{LOOP_PREFIX}{}", f.name), &[args, dimensions, steps, null], None, "");
    let outer = w.op(Opcode::Sub, INT, inner, one);
    let ax = w.b.let_(INT, outer, "ax");
    let (test, body, carry) = (w.block("axis"), w.block("advance"), w.block("carry"));
    let step = w.block("step");
    w.b.br(test);
    w.b.switch_to(test);
    let finished = w.op(Opcode::Lt, BOOL, ax, zero);
    w.b.condbr(finished, done, body, None);
    w.b.switch_to(body);
    let next = w.word(idx, ax);
    let next = w.op(Opcode::Add, INT, next, one);
    let extent = w.word(lshape, ax);
    let within = w.op(Opcode::Lt, BOOL, next, extent);
    w.b.condbr(within, step, carry, None);
    w.b.switch_to(step);
    w.put(idx, ax, next);
    for (&off, &row) in offsets.iter().zip(&lstr) {
        let s = w.word(row, ax);
        let moved = w.op(Opcode::Add, INT, off, s);
        w.b.set(off, moved);
    }
    w.b.br(call);
    w.b.switch_to(carry);
    let at = w.word(idx, ax);
    for (&off, &row) in offsets.iter().zip(&lstr) {
        let s = w.word(row, ax);
        let back = w.op(Opcode::Mul, INT, s, at);
        let moved = w.op(Opcode::Sub, INT, off, back);
        w.b.set(off, moved);
    }
    w.put(idx, ax, zero);
    let outer = w.op(Opcode::Sub, INT, ax, one);
    w.b.set(ax, outer);
    w.b.br(test);
    w.b.switch_to(done);
    w.b.ret(None);
    let mut f = w.b.finish();
    name_temporaries(&mut f);
    f
}

/// Names each result written without one `%tN`, `N` its value number:
/// every result has a name of its own.
fn name_temporaries(f: &mut Function) {
    let body = &mut f.body;
    for v in body.tags.ids() {
        if body.name(v) == Some("") {
            body.names[v] = Some(body.strings.push(&format!("t{}", v.as_u32())));
        }
    }
}

/// The checks of operand `i` (the tensor at `t`) on its own, in the order
/// of docs/abi.md's table.
fn check_operand(w: &mut Writer<'_>, op: &Operand, i: usize, input: bool, t: ValueId, gpu: bool) -> Checked {
    let role = if input { "input" } else { "output" };
    let device = w.field(t, DlField::DeviceType, DType::Int32);
    let kinds: Vec<i128> = HOST_MEMORY.iter().chain(if gpu { &GPU_MEMORY[..] } else { &[] }).copied().collect();
    let elsewhere: Vec<ValueId> = kinds
        .iter()
        .map(|&k| {
            let k = w.int(k);
            w.op(Opcode::Ne, BOOL, device, k)
        })
        .collect();
    let bad = w.all(Opcode::And, &elsewhere);
    let memory = if gpu { "host or GPU memory" } else { "host memory" };
    w.panic_if(bad, &[&format!("{role} operand {i} is not in {memory}")], &[]);
    let (code, bits) = dlpack_dtype(op.dtype);
    let mismatch: Vec<ValueId> = [
        (DlField::Code, DType::UInt8, code as i128),
        (DlField::Bits, DType::UInt8, bits as i128),
        (DlField::Lanes, DType::UInt16, 1),
    ]
    .into_iter()
    .map(|(field, d, want)| {
        let x = w.field(t, field, d);
        let want = w.int(want);
        w.op(Opcode::Ne, BOOL, x, want)
    })
    .collect();
    let bad = w.all(Opcode::Or, &mismatch);
    w.panic_if(bad, &[&format!("{role} operand {i} is not a {} tensor", op.dtype)], &[]);
    let nd = w.field(t, DlField::Ndim, DType::Int32);
    let ncore = w.int(op.core.len() as i128);
    let lnd = w.op(Opcode::Sub, INT, nd, ncore);
    let few = w.op(Opcode::Lt, BOOL, lnd, w.zero);
    let what = format!("{role} operand {i} has fewer dimensions than its core signature ({})", op.signature);
    w.panic_if(few, &[&what], &[]);
    let maxd = w.int(MAX_LOOP_DIMS as i128);
    let many = w.op(Opcode::Gt, BOOL, lnd, maxd);
    w.panic_if(many, &[&format!("{role} operand {i} has more than {MAX_LOOP_DIMS} loop dimensions")], &[]);
    let shape = w.pointer(t, DlField::Shape);
    let given = w.pointer(t, DlField::Strides);
    // No extent is negative; an operand with a zero one has no elements,
    // and then nothing overflows.
    let no = w.b.const_(BOOL, Literal::Bool(false), "");
    let empty = w.b.let_(BOOL, no, &format!("empty{i}"));
    w.range(w.zero, nd, |w, a| {
        let n = w.word(shape, a);
        let negative = w.op(Opcode::Lt, BOOL, n, w.zero);
        let what = format!("{role} operand {i} has size ");
        w.panic_if(negative, &[&what, " on axis ", ", which is negative"], &[n, a]);
        let zero = w.op(Opcode::Eq, BOOL, n, w.zero);
        let any = w.op(Opcode::Or, BOOL, empty, zero);
        w.b.set(empty, any);
    });
    let data = w.pointer(t, DlField::Data);
    let byte_offset = w.field(t, DlField::ByteOffset, DType::Int64);
    let base = w.b.raw_offset(data, byte_offset, &format!("base{i}"));
    let strides = w.scratch(MAX_LOOP_DIMS as usize + op.core.len(), &format!("strides{i}"));
    let max = w.int(i64::MAX as i128);
    let (compact, copied, joined) = (w.block("compact"), w.block("strided"), w.block("strides"));
    let null = w.b.raw_is_null(given, "");
    w.b.condbr(null, compact, copied, None);
    w.b.switch_to(compact);
    // Row-major: the product of the later extents, counted backwards.
    let count = w.b.let_(INT, w.one, "");
    w.range(w.zero, nd, |w, k| {
        let last = w.op(Opcode::Sub, INT, nd, w.one);
        let a = w.op(Opcode::Sub, INT, last, k);
        w.put(strides, a, count);
        let n = w.word(shape, a);
        let nonzero = w.op(Opcode::Ne, BOOL, n, w.zero);
        let divisor = w.b.select(INT, nonzero, n, w.one, "");
        let room = w.op(Opcode::Quot, INT, max, divisor);
        let over = w.op(Opcode::Gt, BOOL, count, room);
        let full = w.b.unary(Opcode::Not, BOOL, empty, "");
        let bad = w.all(Opcode::And, &[nonzero, over, full]);
        w.panic_if(bad, &[&format!("{role} operand {i} has more elements than 64 bits count")], &[]);
        let more = w.op(Opcode::Mul, INT, count, n);
        w.b.set(count, more);
    });
    w.b.br(joined);
    w.b.switch_to(copied);
    w.range(w.zero, nd, |w, a| {
        let s = w.word(given, a);
        w.put(strides, a, s);
    });
    w.b.br(joined);
    w.b.switch_to(joined);
    // Every stride in bytes fits 64 bits.
    let size = op.dtype.size_bytes() as i128;
    let (hi, lo) = (w.int(i64::MAX as i128 / size), w.int(i64::MIN as i128 / size));
    w.range(w.zero, nd, |w, a| {
        let e = w.word(strides, a);
        let above = w.op(Opcode::Gt, BOOL, e, hi);
        let below = w.op(Opcode::Lt, BOOL, e, lo);
        let over = w.op(Opcode::Or, BOOL, above, below);
        let full = w.b.unary(Opcode::Not, BOOL, empty, "");
        let bad = w.op(Opcode::And, BOOL, over, full);
        let what = format!("{role} operand {i} has a stride of ");
        let tail = ", which overflows 64 bits in bytes";
        w.panic_if(bad, &[&what, " elements on axis ", tail], &[e, a]);
    });
    Checked { lnd, shape, strides, base }
}

/// `postc.dl.decimal(x: Int64) -> Str`: `x` in decimal, as `%lld` writes
/// it. Digits are taken from the remainders of a non-positive copy, which
/// the minimum of `Int64` has.
fn decimal() -> Function {
    let mut b = FunctionBuilder::new(DECIMAL);
    b.set_return(Some(TypeId::STR));
    let x = b.param("x", INT);
    let entry = b.create_block("entry");
    let (digit, done) = (b.create_block("digit"), b.create_block("done"));
    b.switch_to(entry);
    let zero = b.int(INT, 0, "zero");
    let ten = b.int(INT, 10, "ten");
    let empty = b.const_(TypeId::STR, Literal::Str(""), "empty");
    let text = b.let_(TypeId::STR, empty, "text");
    let negative = b.binary(Opcode::Lt, BOOL, x, zero, "negative");
    let minus = b.unary(Opcode::Neg, INT, x, "minus");
    let start = b.select(INT, negative, x, minus, "start");
    let rest = b.let_(INT, start, "rest");
    b.br(digit);
    b.switch_to(digit);
    let r = b.binary(Opcode::Rem, INT, rest, ten, "r");
    let d = b.unary(Opcode::Neg, INT, r, "d");
    for k in 0..10u8 {
        let (is, next) = (b.create_block(&format!("is{k}")), b.create_block(&format!("not{k}")));
        let kv = b.int(INT, k as i128, &format!("k{k}"));
        let eq = b.binary(Opcode::Eq, BOOL, d, kv, &format!("eq{k}"));
        b.condbr(eq, is, next, None);
        b.switch_to(is);
        let c = b.const_(TypeId::STR, Literal::Str(&char::from(b'0' + k).to_string()), &format!("c{k}"));
        let longer = b.binary(Opcode::Add, TypeId::STR, c, text, &format!("with{k}"));
        b.set(text, longer);
        b.br(next);
        b.switch_to(next);
    }
    let q = b.binary(Opcode::Quot, INT, rest, ten, "q");
    b.set(rest, q);
    let more = b.binary(Opcode::Ne, BOOL, q, zero, "more");
    let sign = b.create_block("sign");
    b.condbr(more, digit, sign, None);
    b.switch_to(sign);
    let (neg, pos) = (b.create_block("neg"), done);
    b.condbr(negative, neg, pos, None);
    b.switch_to(neg);
    let dash = b.const_(TypeId::STR, Literal::Str("-"), "dash");
    let signed = b.binary(Opcode::Add, TypeId::STR, dash, text, "signed");
    b.set(text, signed);
    b.br(done);
    b.switch_to(done);
    b.ret(Some(text));
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ufunc-gpu-dl` rewrites the entry point of a gpu ufunc alone, which
    /// then accepts GPU memory; the module keeps one `postc.dl.decimal`.
    #[test]
    fn gpu_entry_points_accept_gpu_memory_and_host_ones_do_not() {
        let text = "module t\n\
                    ufunc host(%a: Float64) -> Float64 \"()->()\" {\nentry:\n  return %a\n}\n\
                    ufunc dev(%a: Float64) -> Float64 \"()->()\" gpu {\nentry:\n  return %a\n}\n";
        let mut m = postc_ir::parse::parse_str("t.pir", text).expect("parses");
        let opts = PassOptions::for_level(2);
        crate::ufunc_entry::UFuncEntry.run(&mut m, &opts).expect("loops");
        UFuncDl { gpu: false }.run(&mut m, &opts).expect("entry points");
        UFuncDl { gpu: true }.run(&mut m, &opts).expect("gpu entry points");
        let printed = postc_ir::print::print_module(&m);
        let function = |name: &str| {
            let at = printed.find(&format!("func {DL_PREFIX}{name}(")).expect("an entry point");
            printed[at..at + printed[at..].find("\n}\n").expect("its end")].to_owned()
        };
        let (host, dev) = (function("host"), function("dev"));
        assert!(host.contains("\"ufunc host: input operand 0 is not in host memory\""), "{host}");
        assert!(dev.contains("\"ufunc dev: input operand 0 is not in host or GPU memory\""), "{dev}");
        assert_eq!(printed.matches(&format!("func {DECIMAL}(")).count(), 1);
        assert!(postc_ir::verify::verify_module(&m).is_empty());
    }
}
