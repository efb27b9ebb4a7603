//! `ufunc-entry`: NumPy's inner loop of a ufunc, written as IR. For every
//! exported ufunc, the module gains a compiler-made function
//! `postc.loop.NAME(args, dimensions, steps, data)` (docs/abi.md, "UFuncs"):
//! it reads the outer length `dimensions[0]`, the core sizes after it, each
//! operand's base pointer `args[i]` and byte step `steps[i]`, and calls the
//! body once per index: a scalar operand is loaded from its element (a
//! returned one stored there), an operand with core dimensions is passed as
//! a `raw.view` of its core block with the core steps of `steps[nops..]`.
//! (A Str or Bytes element is a `postc_str`, docs/abi.md: a scalar only.)
//!
//! An elementwise ufunc (every operand of core shape `()`) gets two loops:
//! when every step is the element's size (NumPy's usual, contiguous call)
//! one that offsets by constant sizes, which an optimiser vectorises;
//! otherwise one that offsets by the steps. A generalized ufunc gets one
//! loop, and before it the checks of its core steps, each a panic located
//! at the ufunc: a step of a parameter declared with `Strides` must be the
//! declared one, and every core step a multiple of the element size unless
//! the operand is copied. An operand whose parameter type fixes its core
//! strides (a static shape in C or Fortran order) and whose steps differ is
//! copied, per index, to a compact scratch array in the type's order before
//! the call, and an output copied back after it; the scratch is allocated
//! once per call of the loop (an `alloc`, so the arena frees it on return;
//! a ufunc returning text cannot have such an operand, since the arena
//! would free the text as well: a located error).
//!
//! A `gpu` ufunc's loop is its host code's (the fallback the LLVM backend
//! dispatches to, and what the other backends compile). The loop a device
//! runs is `ufunc-device-entry`'s: the same loop, but a device has no
//! arena (nor `malloc`), so the scratch copies come from the buffer the
//! launch passes as `data`, each view operand `i` (copied or not) taking
//! its core block's bytes rounded up to [`SCRATCH_ALIGN`], one after
//! another; a copy with `data` null is a panic. It replaces the host's
//! loop in the module the device code is built from. `NAME_dl` is not
//! written here. Codegen runs these passes after the pipeline
//! (`postc_codegen::prepare_with_ufunc_loops`), so what they write is
//! already lowered (byte offsets, no `index.load`, its own checks), and
//! every backend compiles `postc.loop.NAME` under the symbol `NAME_loop`.

use crate::analysis::AnalysisSet;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::builtins::PANIC;
use postc_ir::diag::{Diagnostic, Pos};
use postc_ir::{
    DType, FuncAttrs, FuncId, Function, FunctionBuilder, Layout, Literal, Module, Opcode, Shape, TypeData, TypeId,
    ValueId,
};
use std::collections::{HashMap, HashSet};

pub struct UFuncEntry;

pub static INFO: PassInfo = PassInfo {
    name: "ufunc-entry",
    description: "write the NumPy inner loop of each exported ufunc as a compiler-made function",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

pub struct UFuncDeviceEntry;

pub static DEVICE_INFO: PassInfo = PassInfo {
    name: "ufunc-device-entry",
    description: "write the inner loop of each exported ufunc as a device runs it, scratch copies from `data`",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

/// The prefix of the inner loops these passes write: `postc.loop.NAME`.
pub const LOOP_PREFIX: &str = "postc.loop.";

/// The alignment of each view operand's part of a device loop's scratch
/// buffer (the host sizes the buffer with the same rounding).
pub const SCRATCH_ALIGN: i64 = 16;

/// Where an inner loop's scratch copies live.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ScratchFrom {
    /// Allocated per call of the loop, freed with its arena on return.
    Arena,
    /// Parts of the buffer the loop's `data` parameter points to.
    Data,
}

impl ModulePass for UFuncEntry {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, module: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        write_loops(module, ScratchFrom::Arena)
    }
}

impl ModulePass for UFuncDeviceEntry {
    fn info(&self) -> &'static PassInfo {
        &DEVICE_INFO
    }

    fn run(&self, module: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        write_loops(module, ScratchFrom::Data)
    }
}

/// Writes `postc.loop.NAME` for every exported ufunc: with scratch from the
/// arena, where the module has none yet; from `data`, in place of any.
fn write_loops(module: &mut Module, from: ScratchFrom) -> Result<bool, Vec<Diagnostic>> {
    let names: HashMap<&str, FuncId> =
        module.functions.iter_enumerated().map(|(id, f)| (f.name.as_str(), id)).collect();
    let listed: Option<HashSet<&str>> = module.export_all.as_ref().map(|all| all.iter().map(String::as_str).collect());
    let mut wanted = Vec::new();
    for (fid, f) in module.functions.iter_enumerated() {
        let name = format!("{LOOP_PREFIX}{}", f.name);
        let exported = listed.as_ref().is_none_or(|l| l.contains(f.name.as_str()));
        let existing = names.get(name.as_str()).copied();
        if exported && (from == ScratchFrom::Data || existing.is_none()) {
            wanted.push((fid, name, existing));
        }
    }
    let mut made = Vec::new();
    let mut errors = Vec::new();
    for (fid, name, existing) in wanted {
        let f = &module.functions[fid];
        let Some(operands) = operands(module, f) else { continue };
        let copies = operands.iter().any(|op| matches!(&op.pass, Pass::View(v) if v.copyable()));
        let text = matches!(f.ret.map(|t| module.types.dtype(t)), Some(d) if d.is_text());
        if copies && text && from == ScratchFrom::Arena {
            // The scratch copies are in the loop's arena, released when
            // it returns; so would the text the body returns be.
            let at = f.loc.map(|l| Pos::from_loc(&module.files, l));
            let what = "a ufunc returning Str or Bytes cannot take a core operand of static shape";
            errors.push(Diagnostic::error(format!("ufunc `{}`: {what}", f.name), at));
            continue;
        }
        let scratch_types = scratch_types(module, &operands);
        made.push((inner_loop(name, &module.functions[fid], &operands, &scratch_types, from), existing));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let changed = !made.is_empty();
    for (f, existing) in made {
        match existing {
            Some(fid) => module.functions[fid] = f,
            None => {
                module.add_function(f);
            }
        }
    }
    Ok(changed)
}

/// How the body receives one operand.
enum Pass {
    /// A scalar parameter: the element loaded.
    Scalar,
    /// The body's result, stored to the element.
    Returned,
    /// A view of the operand's core block, its type `T` (the parameter's).
    View(View),
}

/// An operand the body takes as an array.
struct View {
    /// Its core axes, as indexes into NumPy's distinct core dimensions.
    axes: Vec<usize>,
    /// The byte stride of each core axis that the type fixes: a step other
    /// than it makes the loop copy the operand, or, for a type declaring
    /// `Strides`, panic.
    fixed: Vec<Option<i64>>,
    declared: bool,
    /// The static extents, when the type fixes them all.
    extents: Vec<i64>,
    output: bool,
}

impl View {
    /// Whether a step other than a fixed stride means a scratch copy (and
    /// not an error).
    fn copyable(&self) -> bool {
        !self.declared && self.fixed.iter().any(Option::is_some)
    }
}

/// One operand of a ufunc (inputs, then outputs).
struct Operand {
    ty: TypeId,
    dtype: DType,
    pass: Pass,
}

/// The operands of `f`, when it is a ufunc whose body takes each operand of
/// core shape `()` as a scalar, each other as an array.
fn operands(m: &Module, f: &Function) -> Option<Vec<Operand>> {
    let sig = f.ufunc_sig.as_ref()?;
    let returns = sig.outputs.len() == 1 && sig.outputs[0].is_empty() && f.ret.is_some();
    let nops = sig.num_operands();
    if f.body.num_params as usize != if returns { nops - 1 } else { nops } {
        return None;
    }
    let (_, axes) = sig.distinct_dims();
    let mut operands = Vec::with_capacity(nops);
    for (p, axes) in f.params().zip(axes.iter()) {
        let ty = f.body.ty(p)?;
        let t = m.types.get(ty);
        if t.is_array == axes.is_empty() {
            return None;
        }
        let pass = if t.is_array {
            let fixed: Vec<Option<i64>> = (0..axes.len()).map(|a| t.static_stride(a)).collect();
            let extents: Vec<i64> = match &t.shape {
                Shape::Dims(d) => d.iter().map_while(|e| e.and_then(|e| i64::try_from(e).ok())).collect(),
                Shape::Any => Vec::new(),
            };
            // A static shape too large to copy (its bytes overflow) is
            // held to its strides as declared ones are: a panic, never a
            // scratch array too small.
            let fits = extents.len() == axes.len()
                && extents.iter().try_fold(t.dtype.size_bytes() as i64, |n, &e| n.checked_mul(e)).is_some();
            let declared = matches!(t.layout, Layout::Strides(_)) || (fixed.iter().any(Option::is_some) && !fits);
            Pass::View(View { axes: axes.clone(), fixed, declared, extents, output: t.is_output })
        } else {
            Pass::Scalar
        };
        operands.push(Operand { ty, dtype: t.dtype, pass });
    }
    if returns {
        let ty = f.ret?;
        let t = m.types.get(ty);
        if t.is_array {
            return None;
        }
        operands.push(Operand { ty, dtype: t.dtype, pass: Pass::Returned });
    }
    Some(operands)
}

/// For each operand that may be copied, the type of its scratch array: a
/// one-axis array of its dtype (the copy lays the elements out in the
/// parameter type's order itself).
fn scratch_types(m: &mut Module, operands: &[Operand]) -> Vec<Option<TypeId>> {
    operands
        .iter()
        .map(|op| match &op.pass {
            Pass::View(v) if v.copyable() => {
                Some(m.types.intern(TypeData::array(op.dtype, Shape::dims(&[None]), Layout::COrder)))
            }
            _ => None,
        })
        .collect()
}

/// What the entry block reads, for every index of the loop.
struct Frame {
    n: ValueId,
    /// NumPy's distinct core sizes (`dimensions[1..]`).
    sizes: Vec<ValueId>,
    bases: Vec<ValueId>,
    steps: Vec<ValueId>,
    /// Per view operand, its core steps in bytes.
    core_steps: Vec<Vec<ValueId>>,
    /// Per copyable operand: whether this call copies it, its scratch
    /// address and the view of the scratch the body receives.
    scratch: Vec<Option<Scratch>>,
    zero: ValueId,
    one: ValueId,
}

struct Scratch {
    copy: ValueId,
    at: ValueId,
    view: ValueId,
    /// The byte strides of the scratch's axes: the type's.
    compact: Vec<ValueId>,
}

/// `postc.loop.NAME(args, dimensions, steps, data)` for the body `f`.
fn inner_loop(
    name: String,
    f: &Function,
    operands: &[Operand],
    scratch_types: &[Option<TypeId>],
    from: ScratchFrom,
) -> Function {
    let int = TypeId::INT64;
    let mut b = FunctionBuilder::new(name);
    b.set_attrs(FuncAttrs::COMPILER_MADE);
    b.set_func_loc(f.loc);
    b.set_loc(f.loc);
    let args = b.param("args", int);
    let dimensions = b.param("dimensions", int);
    let steps_at = b.param("steps", int);
    let data = b.param("data", int);
    let entry = b.create_block("entry");
    b.switch_to(entry);
    let n = b.raw_read(Opcode::RawWord, dimensions, 0, "n");
    let ndims = f.ufunc_sig.as_ref().map_or(0, |s| s.distinct_dims().0.len());
    let sizes: Vec<ValueId> =
        (0..ndims).map(|d| b.raw_read(Opcode::RawWord, dimensions, 1 + d as u32, &format!("dim{d}"))).collect();
    let mut bases = Vec::with_capacity(operands.len());
    let mut steps = Vec::with_capacity(operands.len());
    for i in 0..operands.len() {
        bases.push(b.raw_read(Opcode::RawPtr, args, i as u32, &format!("base{i}")));
        steps.push(b.raw_read(Opcode::RawWord, steps_at, i as u32, &format!("step{i}")));
    }
    let mut next_step = operands.len() as u32;
    let mut core_steps = Vec::with_capacity(operands.len());
    for (i, op) in operands.iter().enumerate() {
        let Pass::View(v) = &op.pass else {
            core_steps.push(Vec::new());
            continue;
        };
        let mut of = Vec::with_capacity(v.axes.len());
        for a in 0..v.axes.len() {
            of.push(b.raw_read(Opcode::RawWord, steps_at, next_step, &format!("step{i}.{a}")));
            next_step += 1;
        }
        core_steps.push(of);
    }
    let zero = b.int(int, 0, "zero");
    let one = b.int(int, 1, "one");
    let mut frame = Frame { n, sizes, bases, steps, core_steps, scratch: Vec::new(), zero, one };
    // With scratch from `data`: the bytes of it the view operands before
    // took.
    let mut taken = zero;
    for (i, op) in operands.iter().enumerate() {
        let scratch = match &op.pass {
            Pass::View(v) => {
                let place = match from {
                    ScratchFrom::Arena => Place::Arena(scratch_types[i]),
                    ScratchFrom::Data => Place::Data { data, at: taken },
                };
                let scratch = core_checks(&mut b, f, i, op, v, &frame, place);
                if from == ScratchFrom::Data {
                    taken = take_part(&mut b, &frame, i, op, v, taken);
                }
                scratch
            }
            _ => None,
        };
        frame.scratch.push(scratch);
    }
    if operands.iter().all(|op| !matches!(op.pass, Pass::View(_))) {
        elementwise_loops(&mut b, f, operands, &frame);
    } else {
        let done = b.create_block("done");
        counted_loop(&mut b, &frame, frame.n, "loop", done, |b, k| {
            let at = element_addresses(b, &frame, k, &frame.steps, "loop");
            iteration(b, f, operands, &frame, &at, "loop");
        });
        b.switch_to(done);
    }
    b.ret(None);
    b.finish()
}

/// The two loops of an elementwise ufunc: the contiguous one offsets by
/// constant sizes, the strided one by the steps.
fn elementwise_loops(b: &mut FunctionBuilder, f: &Function, operands: &[Operand], frame: &Frame) {
    let int = TypeId::INT64;
    let contiguous = b.create_block("contiguous");
    let strided = b.create_block("strided");
    let done = b.create_block("done");
    let mut sizes = Vec::with_capacity(operands.len());
    let mut unit = None;
    for (i, op) in operands.iter().enumerate() {
        let size = b.int(int, op.dtype.size_bytes() as i128, &format!("size{i}"));
        sizes.push(size);
        let same = b.binary(Opcode::Eq, TypeId::BOOL, frame.steps[i], size, &format!("unit{i}"));
        unit = Some(match unit {
            None => same,
            Some(all) => b.binary(Opcode::And, TypeId::BOOL, all, same, &format!("units{i}")),
        });
    }
    match unit {
        Some(all) => b.condbr(all, contiguous, strided, None),
        None => b.br(strided),
    };
    for (label, head, offsets) in [("contiguous", contiguous, &sizes), ("strided", strided, &frame.steps)] {
        b.switch_to(head);
        counted_loop(b, frame, frame.n, label, done, |b, k| {
            let at = element_addresses(b, frame, k, offsets, label);
            iteration(b, f, operands, frame, &at, label);
        });
    }
    b.switch_to(done);
}

/// `for k in 0..count { body(k) }`, then a branch to `exit`; the loop's
/// blocks are labelled `LABEL.test` and `LABEL.body`.
fn counted_loop(
    b: &mut FunctionBuilder,
    frame: &Frame,
    count: ValueId,
    label: &str,
    exit: postc_ir::BlockId,
    body: impl FnOnce(&mut FunctionBuilder, ValueId),
) {
    let int = TypeId::INT64;
    let test = b.create_block(&format!("{label}.test"));
    let body_block = b.create_block(&format!("{label}.body"));
    let k = b.let_(int, frame.zero, &format!("{label}.k"));
    b.br(test);
    b.switch_to(test);
    let more = b.binary(Opcode::Lt, TypeId::BOOL, k, count, &format!("{label}.more"));
    b.condbr(more, body_block, exit, None);
    b.switch_to(body_block);
    body(b, k);
    let next = b.binary(Opcode::Add, int, k, frame.one, &format!("{label}.next"));
    b.set(k, next);
    b.br(test);
}

/// Operand `i`'s element at index `k`: `bases[i] + k * offsets[i]` bytes.
fn element_addresses(
    b: &mut FunctionBuilder,
    frame: &Frame,
    k: ValueId,
    offsets: &[ValueId],
    label: &str,
) -> Vec<ValueId> {
    (0..frame.bases.len())
        .map(|i| {
            let bytes = b.binary(Opcode::Mul, TypeId::INT64, k, offsets[i], &format!("{label}.off{i}"));
            b.raw_offset(frame.bases[i], bytes, &format!("{label}.at{i}"))
        })
        .collect()
}

/// Where one operand's scratch copy goes.
enum Place {
    /// An array of this type, allocated in the arena.
    Arena(Option<TypeId>),
    /// `at` bytes into the buffer at address `data`.
    Data { data: ValueId, at: ValueId },
}

/// `taken` plus view operand `i`'s part of the scratch buffer: its core
/// block's bytes, rounded up to [`SCRATCH_ALIGN`].
fn take_part(b: &mut FunctionBuilder, frame: &Frame, i: usize, op: &Operand, v: &View, taken: ValueId) -> ValueId {
    let int = TypeId::INT64;
    let mut bytes = b.int(int, op.dtype.size_bytes() as i128, &format!("part{i}.size"));
    for (a, &d) in v.axes.iter().enumerate() {
        bytes = b.binary(Opcode::Mul, int, bytes, frame.sizes[d], &format!("part{i}.bytes{a}"));
    }
    let pad = b.int(int, (SCRATCH_ALIGN - 1) as i128, &format!("part{i}.pad"));
    let mask = b.int(int, !(SCRATCH_ALIGN - 1) as i128, &format!("part{i}.mask"));
    let padded = b.binary(Opcode::Add, int, bytes, pad, &format!("part{i}.padded"));
    let rounded = b.binary(Opcode::BAnd, int, padded, mask, &format!("part{i}.rounded"));
    b.binary(Opcode::Add, int, taken, rounded, &format!("part{i}.end"))
}

/// The checks of view operand `i`'s core steps and, when it may be copied,
/// its scratch array.
fn core_checks(
    b: &mut FunctionBuilder,
    f: &Function,
    i: usize,
    op: &Operand,
    v: &View,
    frame: &Frame,
    place: Place,
) -> Option<Scratch> {
    let int = TypeId::INT64;
    let bool_ = TypeId::BOOL;
    let steps = &frame.core_steps[i];
    // Whether any core step differs from the stride the type fixes.
    let mut differs = None;
    for (a, fixed) in v.fixed.iter().enumerate() {
        let Some(fixed) = fixed else { continue };
        let want = b.int(int, *fixed as i128, &format!("fixed{i}.{a}"));
        let ne = b.binary(Opcode::Ne, bool_, steps[a], want, &format!("differs{i}.{a}"));
        differs = Some(match differs {
            None => ne,
            Some(any) => b.binary(Opcode::Or, bool_, any, ne, &format!("differs{i}.{a}.any")),
        });
    }
    if v.declared {
        if let Some(bad) = differs {
            let what = format!("operand {i} does not have the strides its parameter type declares");
            panic_if(b, f, bad, &what, &format!("{i}"));
        }
    }
    let copy = differs.filter(|_| v.copyable());
    let size = op.dtype.size_bytes() as i128;
    if size > 1 {
        let size_v = b.int(int, size, &format!("size{i}"));
        let kept = copy.map(|c| b.unary(Opcode::Not, bool_, c, &format!("kept{i}")));
        for (a, &step) in steps.iter().enumerate() {
            let rem = b.binary(Opcode::Rem, int, step, size_v, &format!("rem{i}.{a}"));
            let mut bad = b.binary(Opcode::Ne, bool_, rem, frame.zero, &format!("misaligned{i}.{a}"));
            if let Some(kept) = kept {
                bad = b.binary(Opcode::And, bool_, bad, kept, &format!("misaligned{i}.{a}.kept"));
            }
            let what = format!("a core stride of operand {i} is not a multiple of its element size");
            panic_if(b, f, bad, &what, &format!("{i}.{a}"));
        }
    }
    let copy = copy?;
    // A copyable operand's type fixes every stride, so its shape is static.
    let at = match place {
        Place::Arena(scratch_type) => {
            let count = v.extents.iter().product::<i64>();
            let count = b.int(int, count as i128, &format!("count{i}"));
            let ty = scratch_type.expect("a copyable operand's scratch type");
            let array = b.alloc(ty, &[count], &format!("scratch{i}"));
            b.raw_data(array, &format!("scratch{i}.at"))
        }
        Place::Data { data, at } => {
            let none = b.raw_is_null(data, &format!("scratch{i}.none"));
            let missing = b.binary(Opcode::And, bool_, copy, none, &format!("scratch{i}.missing"));
            let what = format!("operand {i} needs a scratch copy but the launch has no buffer");
            panic_if(b, f, missing, &what, &format!("{i}.buffer"));
            b.raw_offset(data, at, &format!("scratch{i}.at"))
        }
    };
    let extents: Vec<ValueId> = v.axes.iter().map(|&d| frame.sizes[d]).collect();
    let compact: Vec<ValueId> = v
        .fixed
        .iter()
        .enumerate()
        .map(|(a, s)| b.int(int, s.unwrap_or(0) as i128, &format!("compact{i}.{a}")))
        .collect();
    let view = b.raw_view(op.ty, at, frame.zero, &extents, &compact, &format!("scratch{i}.view"));
    Some(Scratch { copy, at, view, compact })
}

/// A panic `ufunc NAME: what`, located at the ufunc, when `bad` holds;
/// `tag` names its blocks and message apart from the other checks'.
fn panic_if(b: &mut FunctionBuilder, f: &Function, bad: ValueId, what: &str, tag: &str) {
    let fail = b.create_block(&format!("fail{tag}"));
    let ok = b.create_block(&format!("ok{tag}"));
    b.condbr(bad, fail, ok, Some((1, 2000)));
    b.switch_to(fail);
    let msg = b.const_(TypeId::STR, Literal::Str(&format!("ufunc {}: {what}", f.name)), &format!("msg{tag}"));
    b.call(PANIC, &[msg], None, "");
    b.unreachable();
    b.switch_to(ok);
}

/// One call of the body, its operands' elements at `at`.
fn iteration(b: &mut FunctionBuilder, f: &Function, operands: &[Operand], frame: &Frame, at: &[ValueId], label: &str) {
    let mut inputs = Vec::with_capacity(operands.len());
    for (i, op) in operands.iter().enumerate() {
        match &op.pass {
            Pass::Scalar => inputs.push(b.raw_load(op.ty, at[i], &format!("{label}.x{i}"))),
            Pass::Returned => {}
            Pass::View(v) => {
                let extents: Vec<ValueId> = v.axes.iter().map(|&d| frame.sizes[d]).collect();
                let view =
                    b.raw_view(op.ty, at[i], frame.zero, &extents, &frame.core_steps[i], &format!("{label}.v{i}"));
                let arg = match &frame.scratch[i] {
                    None => view,
                    Some(s) => {
                        copy_block(b, frame, op, i, s, at[i], Direction::In, label);
                        b.select(op.ty, s.copy, s.view, view, &format!("{label}.a{i}"))
                    }
                };
                inputs.push(arg);
            }
        }
    }
    if let Some(sig) = &f.ufunc_sig {
        let (dims, _) = sig.distinct_dims();
        for (name, p) in sig.core_dims().iter().zip(f.body.all_params().skip(f.body.num_params as usize)) {
            let d = dims.iter().position(|x| x == name).expect("a named core dimension");
            let size = frame.sizes[d];
            inputs.push(match f.body.ty(p) {
                Some(t) if t != TypeId::INT64 => b.cast(t, size, &format!("{label}.core{d}")),
                _ => size,
            });
        }
    }
    let result = b.call(&f.name, &inputs, f.ret, &format!("{label}.r"));
    for (i, op) in operands.iter().enumerate() {
        match (&op.pass, &frame.scratch[i]) {
            (Pass::Returned, _) => {
                b.raw_store(at[i], result);
            }
            (Pass::View(v), Some(s)) if v.output => copy_block(b, frame, op, i, s, at[i], Direction::Out, label),
            _ => {}
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// From the operand's core block to the scratch.
    In,
    /// Back from the scratch to the operand.
    Out,
}

/// When `s.copy` holds, copies view operand `i`'s core block (at `at`, with
/// its core steps) to or from its scratch (with the type's strides),
/// element by element.
#[allow(clippy::too_many_arguments)]
fn copy_block(
    b: &mut FunctionBuilder,
    frame: &Frame,
    op: &Operand,
    i: usize,
    s: &Scratch,
    at: ValueId,
    dir: Direction,
    label: &str,
) {
    let Pass::View(v) = &op.pass else { return };
    let label = format!("{label}.copy{i}.{}", if dir == Direction::In { "in" } else { "out" });
    let copy = b.create_block(&label);
    let done = b.create_block(&format!("{label}.done"));
    b.condbr(s.copy, copy, done, None);
    b.switch_to(copy);
    let extents: Vec<ValueId> = v.axes.iter().map(|&d| frame.sizes[d]).collect();
    let walk = Walk { frame, extents: &extents, steps: &frame.core_steps[i], compact: &s.compact, dir, label: &label };
    walk.axis(b, 0, at, s.at, TypeId::scalar(op.dtype));
    b.br(done);
    b.switch_to(done);
}

/// The nested loops of a copy between an operand's core block and its
/// scratch.
struct Walk<'a> {
    frame: &'a Frame,
    extents: &'a [ValueId],
    steps: &'a [ValueId],
    compact: &'a [ValueId],
    dir: Direction,
    label: &'a str,
}

impl Walk<'_> {
    /// Copies the elements of the block from axis `axis` on, `operand` and
    /// `scratch` the addresses of their first.
    fn axis(&self, b: &mut FunctionBuilder, axis: usize, operand: ValueId, scratch: ValueId, element: TypeId) {
        let l = format!("{}.{axis}", self.label);
        if axis == self.extents.len() {
            let (from, to) = if self.dir == Direction::In { (operand, scratch) } else { (scratch, operand) };
            let x = b.raw_load(element, from, &format!("{l}.x"));
            b.raw_store(to, x);
            return;
        }
        let after = b.create_block(&format!("{l}.done"));
        counted_loop(b, self.frame, self.extents[axis], &l, after, |b, c| {
            let ob = b.binary(Opcode::Mul, TypeId::INT64, c, self.steps[axis], &format!("{l}.ob"));
            let sb = b.binary(Opcode::Mul, TypeId::INT64, c, self.compact[axis], &format!("{l}.sb"));
            let o = b.raw_offset(operand, ob, &format!("{l}.o"));
            let s = b.raw_offset(scratch, sb, &format!("{l}.s"));
            self.axis(b, axis + 1, o, s, element);
        });
        b.switch_to(after);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_results_and_scratch_copies_are_a_located_error() {
        let text = "module t\n\
                    ufunc name(%a: Float64[]Shape[3]) -> Str \"(3)->()\" {\n\
                    entry:\n  %s: Str = const \"x\"\n  return %s\n}\n";
        let mut m = postc_ir::parse::parse_module("t.pir", text.as_bytes()).expect("parses");
        let err = UFuncEntry.run(&mut m, &PassOptions::for_level(2)).expect_err("refused");
        let msgs: Vec<String> = err.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            msgs,
            ["t.pir:2:1: error: ufunc `name`: a ufunc returning Str or Bytes cannot take a core operand of static shape"]
        );
    }
}
