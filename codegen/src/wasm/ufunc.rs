//! A ufunc's entry points (docs/abi.md §6 and §14): `NAME_loop(args,
//! dimensions, steps, data)`, NumPy's generalized-ufunc inner loop with
//! 32-bit pointers and `intptr_t`, and `NAME_dl(op0, ..., opN)`, the
//! broadcasting driver over DLTensors, both written out per ufunc from its
//! [`Plan`] (the operands' count, dtypes and core dimensions are known, so
//! each check and panic message is fixed). Views of core axes and the
//! driver's scratch arrays live in the arena, released before returning.

use super::func::{alloc_helper, dl, mem, stride_helper, PANIC};
use super::{val_types, Translation, ARENA_TOP, DEFINED};
use crate::ufunc_plan::{Plan, MAX_LOOP_DIMS};
use postc_ir::{DType, Layout};
use wasm_encoder::{BlockType, Instruction as I, ValType};

const I32: ValType = ValType::I32;
const I64: ValType = ValType::I64;

/// A function being written: its parameter count, extra locals and code.
struct Code {
    nparams: u32,
    locals: Vec<ValType>,
    body: Vec<I<'static>>,
}

impl Code {
    fn local(&mut self, vt: ValType) -> u32 {
        self.locals.push(vt);
        self.nparams + self.locals.len() as u32 - 1
    }

    fn extend(&mut self, is: impl IntoIterator<Item = I<'static>>) {
        self.body.extend(is);
    }

    /// Panics with `text` (complete) when the `i32` on the stack is not 0.
    fn panic_if(&mut self, t: &mut Translation<'_>, text: &str) {
        let at = t.string(text.as_bytes());
        self.extend([
            I::If(BlockType::Empty),
            I::I32Const(at as i32),
            I::I32Const(text.len() as i32),
            I::Call(PANIC),
            I::Unreachable,
            I::End,
        ]);
    }
}

/// The load of one scalar of dtype `d` from the address on the stack (two
/// loads, through `at`, for a complex).
fn load(d: DType, at: u32) -> Vec<I<'static>> {
    match d {
        DType::Bool => vec![I::I32Load8U(mem(0)), I::I32Const(0), I::I32Ne],
        DType::UInt8 => vec![I::I32Load8U(mem(0))],
        DType::Int8 => vec![I::I32Load8S(mem(0))],
        DType::Int16 => vec![I::I32Load16S(mem(0))],
        DType::UInt16 | DType::Float16 => vec![I::I32Load16U(mem(0))],
        DType::Int32 | DType::UInt32 => vec![I::I32Load(mem(0))],
        DType::Int64 | DType::UInt64 => vec![I::I64Load(mem(0))],
        DType::Float32 => vec![I::F32Load(mem(0))],
        DType::Float64 => vec![I::F64Load(mem(0))],
        DType::Complex64 => vec![I::LocalTee(at), I::F32Load(mem(0)), I::LocalGet(at), I::F32Load(mem(4))],
        DType::Complex128 => vec![I::LocalTee(at), I::F64Load(mem(0)), I::LocalGet(at), I::F64Load(mem(8))],
        DType::Str | DType::Bytes => vec![I::LocalTee(at), I::I32Load(mem(0)), I::LocalGet(at), I::I32Load(mem(4))],
    }
}

/// The stores of one scalar of dtype `d`, held in `vals`, to `addr`.
fn store(d: DType, addr: u32, vals: u32) -> Vec<I<'static>> {
    let one = |k: u32, off: u64| -> Vec<I<'static>> {
        let s = match d {
            DType::Bool | DType::Int8 | DType::UInt8 => I::I32Store8(mem(off)),
            DType::Int16 | DType::UInt16 | DType::Float16 => I::I32Store16(mem(off)),
            DType::Int32 | DType::UInt32 | DType::Str | DType::Bytes => I::I32Store(mem(off)),
            DType::Int64 | DType::UInt64 => I::I64Store(mem(off)),
            DType::Float32 | DType::Complex64 => I::F32Store(mem(off)),
            DType::Float64 | DType::Complex128 => I::F64Store(mem(off)),
        };
        vec![I::LocalGet(addr), I::LocalGet(vals + k), s]
    };
    let mut out = one(0, 0);
    if d.is_complex() || d.is_text() {
        out.extend(one(1, d.size_bytes() as u64 / 2));
    }
    out
}

/// `NAME_loop`: the index of the helper.
pub(super) fn loop_entry(t: &mut Translation<'_>, plan: &Plan, body_index: u32) -> u32 {
    let alloc = alloc_helper(t);
    let name = format!("{}_loop", plan.symbol);
    let plan = plan.clone();
    t.helper(&name, move |t| {
        // Parameters: 0 args, 1 dimensions, 2 steps, 3 data.
        let mut c = Code { nparams: 4, locals: Vec::new(), body: Vec::new() };
        let (n, i, mark, tmp) = (c.local(I32), c.local(I32), c.local(I32), c.local(I32));
        c.extend([I::GlobalGet(ARENA_TOP), I::LocalSet(mark), I::LocalGet(1), I::I32Load(mem(0)), I::LocalSet(n)]);
        let mut ptr = Vec::new();
        let mut step = Vec::new();
        for j in 0..plan.nops {
            let (p, s) = (c.local(I32), c.local(I32));
            c.extend([I::LocalGet(0), I::I32Load(mem(4 * j as u64)), I::LocalSet(p)]);
            c.extend([I::LocalGet(2), I::I32Load(mem(4 * j as u64)), I::LocalSet(s)]);
            ptr.push(p);
            step.push(s);
        }
        // A view of each array operand's core axes, and whether it goes
        // through a compact scratch copy (its steps are not those its
        // parameter type fixes).
        let views = plan.scratch_operands();
        let mut view = vec![None; plan.nops];
        for &j in &views {
            let d = plan.dtypes[j];
            let r = plan.core[j].len() as u32;
            let size = d.size_bytes() as i32;
            let (tv, copy, scratch, count) = (c.local(I32), c.local(I32), c.local(I32), c.local(I32));
            c.extend([I::I32Const(dl::SIZE + 16 * r as i32), I::Call(alloc), I::LocalSet(tv)]);
            let (code, bits) = crate::abi::dlpack_dtype(d);
            c.extend([I::LocalGet(tv), I::I32Const(1), I::I32Store(mem(dl::DEVICE_TYPE))]);
            c.extend([I::LocalGet(tv), I::I32Const(r as i32), I::I32Store(mem(dl::NDIM))]);
            c.extend([I::LocalGet(tv), I::I32Const(code as i32), I::I32Store8(mem(dl::CODE))]);
            c.extend([I::LocalGet(tv), I::I32Const(bits as i32), I::I32Store8(mem(dl::BITS))]);
            c.extend([I::LocalGet(tv), I::I32Const(1), I::I32Store16(mem(dl::LANES))]);
            c.extend([I::LocalGet(tv), I::LocalGet(tv), I::I32Const(dl::SIZE), I::I32Add, I::I32Store(mem(dl::SHAPE))]);
            c.extend([
                I::LocalGet(tv),
                I::LocalGet(tv),
                I::I32Const(dl::SIZE + 8 * r as i32),
                I::I32Add,
                I::I32Store(mem(dl::STRIDES)),
            ]);
            c.extend([I::I32Const(1), I::LocalSet(count)]);
            let core_size = |k: usize| vec![I::LocalGet(1), I::I32Load(mem(4 * (1 + plan.core[j][k]) as u64))];
            let core_step = |k: usize| vec![I::LocalGet(2), I::I32Load(mem(4 * (plan.core_step_base(j) + k) as u64))];
            for k in 0..r as usize {
                c.push_all(&[I::LocalGet(tv)]);
                c.extend(core_size(k));
                c.extend([I::I64ExtendI32S, I::I64Store(mem(dl::SIZE as u64 + 8 * k as u64))]);
                c.extend([I::LocalGet(count)]);
                c.extend(core_size(k));
                c.extend([I::I32Mul, I::LocalSet(count)]);
            }
            c.extend([I::I32Const(0), I::LocalSet(copy)]);
            let declared = plan.declared_core_strides(j);
            for (a, s) in plan.fixed_core_strides(j).into_iter().chain(declared.iter().copied()) {
                c.extend(core_step(a));
                c.extend([I::I32Const(s as i32), I::I32Ne, I::LocalGet(copy), I::I32Or, I::LocalSet(copy)]);
            }
            // The body reads an operand whose type declares `Strides` with
            // exactly those strides, and every other view in whole elements.
            let fail = |what: String| format!("panic: ufunc {}: {what}{}", plan.name, plan.at);
            if !declared.is_empty() {
                c.extend([I::LocalGet(copy)]);
                c.panic_if(t, &fail(format!("operand {j} does not have the strides its parameter type declares")));
                c.extend([I::I32Const(0), I::LocalSet(copy)]);
            }
            if size > 1 {
                for k in 0..r as usize {
                    c.extend(core_step(k));
                    c.extend([I::I32Const(size), I::I32RemS, I::I32Const(0), I::I32Ne]);
                    c.extend([I::LocalGet(copy), I::I32Eqz, I::I32And]);
                    c.panic_if(t, &fail(format!("a core stride of operand {j} is not a multiple of its element size")));
                }
            }
            // Strides in elements: the compact ones of the copy (in the
            // type's order), else the steps.
            let fortran = plan.types[j].as_ref().is_some_and(|td| matches!(td.layout, Layout::FOrder));
            c.extend([I::LocalGet(copy), I::If(BlockType::Empty)]);
            c.extend([I::LocalGet(count), I::I32Const(size), I::I32Mul, I::Call(alloc), I::LocalSet(scratch)]);
            c.extend([I::I32Const(1), I::LocalSet(tmp)]);
            let order: Vec<usize> = if fortran { (0..r as usize).collect() } else { (0..r as usize).rev().collect() };
            for &k in &order {
                c.extend([I::LocalGet(tv), I::LocalGet(tmp), I::I64ExtendI32S]);
                c.extend([I::I64Store(mem(dl::SIZE as u64 + 8 * (r as u64 + k as u64)))]);
                c.extend([I::LocalGet(tmp)]);
                c.extend(core_size(k));
                c.extend([I::I32Mul, I::LocalSet(tmp)]);
            }
            c.extend([I::Else]);
            for k in 0..r as usize {
                c.extend([I::LocalGet(tv)]);
                c.extend(core_step(k));
                c.extend([I::I32Const(size), I::I32DivS, I::I64ExtendI32S]);
                c.extend([I::I64Store(mem(dl::SIZE as u64 + 8 * (r as u64 + k as u64)))]);
            }
            c.extend([I::End]);
            view[j] = Some((tv, copy, scratch, count, order));
        }
        // The copy between the strided block at `ptr[j]` and the compact
        // scratch, element by element in the scratch's order.
        let (e, rem, off) = (c.local(I32), c.local(I32), c.local(I32));
        let copy_block = |c: &mut Code, j: usize, back: bool| {
            let (_, _, scratch, count, order) = view[j].clone().expect("a view");
            let size = plan.dtypes[j].size_bytes() as i32;
            c.extend([I::I32Const(0), I::LocalSet(e), I::Block(BlockType::Empty), I::Loop(BlockType::Empty)]);
            c.extend([I::LocalGet(e), I::LocalGet(count), I::I32GeU, I::BrIf(1)]);
            c.extend([I::LocalGet(e), I::LocalSet(rem), I::I32Const(0), I::LocalSet(off)]);
            for &k in &order {
                let size_k = vec![I::LocalGet(1), I::I32Load(mem(4 * (1 + plan.core[j][k]) as u64))];
                c.extend([I::LocalGet(off), I::LocalGet(rem)]);
                c.extend(size_k.clone());
                c.extend([I::I32RemU, I::LocalGet(2), I::I32Load(mem(4 * (plan.core_step_base(j) + k) as u64))]);
                c.extend([I::I32Mul, I::I32Add, I::LocalSet(off), I::LocalGet(rem)]);
                c.extend(size_k);
                c.extend([I::I32DivU, I::LocalSet(rem)]);
            }
            let strided = [I::LocalGet(ptr[j]), I::LocalGet(off), I::I32Add];
            let compact = [I::LocalGet(scratch), I::LocalGet(e), I::I32Const(size), I::I32Mul, I::I32Add];
            if back {
                c.extend(strided);
                c.extend(compact);
            } else {
                c.extend(compact);
                c.extend(strided);
            }
            c.extend([I::I32Const(size), I::MemoryCopy { src_mem: 0, dst_mem: 0 }]);
            c.extend([I::LocalGet(e), I::I32Const(1), I::I32Add, I::LocalSet(e), I::Br(0), I::End, I::End]);
        };
        let ret = plan.nops - 1;
        let returned = plan.is_returned(ret);
        let rvals = if returned {
            let l = c.nparams + c.locals.len() as u32;
            c.locals.extend(val_types(plan.dtypes[ret]));
            Some(l)
        } else {
            None
        };
        c.extend([I::I32Const(0), I::LocalSet(i), I::Block(BlockType::Empty), I::Loop(BlockType::Empty)]);
        c.extend([I::LocalGet(i), I::LocalGet(n), I::I32GeS, I::BrIf(1)]);
        for j in 0..plan.nops {
            if let Some((_, copy, scratch, _, _)) = view[j].clone() {
                c.extend([I::LocalGet(copy), I::If(BlockType::Empty)]);
                copy_block(&mut c, j, false);
                c.extend([I::End]);
                let tv = view[j].as_ref().expect("a view").0;
                c.extend([I::LocalGet(tv), I::LocalGet(scratch), I::LocalGet(ptr[j]), I::LocalGet(copy), I::Select]);
                c.extend([I::I32Store(mem(dl::DATA)), I::LocalGet(tv)]);
            } else if !plan.is_returned(j) {
                c.extend([I::LocalGet(ptr[j])]);
                c.extend(load(plan.dtypes[j], tmp));
            }
        }
        for &k in &plan.core_params {
            c.extend([I::LocalGet(1), I::I32Load(mem(4 * (1 + k) as u64)), I::I64ExtendI32S]);
        }
        c.extend([I::Call(DEFINED + body_index)]);
        if let Some(l) = rvals {
            let w = val_types(plan.dtypes[ret]).len() as u32;
            for k in (0..w).rev() {
                c.extend([I::LocalSet(l + k)]);
            }
            c.extend(store(plan.dtypes[ret], ptr[ret], l));
        }
        for j in plan.nin..plan.nops {
            if let Some((_, copy, _, _, _)) = view[j].clone() {
                c.extend([I::LocalGet(copy), I::If(BlockType::Empty)]);
                copy_block(&mut c, j, true);
                c.extend([I::End]);
            }
        }
        for j in 0..plan.nops {
            c.extend([I::LocalGet(ptr[j]), I::LocalGet(step[j]), I::I32Add, I::LocalSet(ptr[j])]);
        }
        c.extend([I::LocalGet(i), I::I32Const(1), I::I32Add, I::LocalSet(i), I::Br(0), I::End, I::End]);
        c.extend([I::LocalGet(mark), I::GlobalSet(ARENA_TOP)]);
        (vec![I32; 4], vec![], c.locals, c.body)
    })
}

impl Code {
    fn push_all(&mut self, is: &[I<'static>]) {
        self.body.extend(is.iter().cloned());
    }
}

/// `NAME_dl(op0, ..., opN)`: checks every operand, broadcasts the loop
/// axes and calls `NAME_loop` once per index of all loop axes but the
/// innermost, as the native runtime's driver.
pub(super) fn dl_entry(t: &mut Translation<'_>, plan: &Plan, loop_index: u32) -> u32 {
    let alloc = alloc_helper(t);
    let stride = stride_helper(t);
    let name = format!("{}_dl", plan.symbol);
    let plan = plan.clone();
    t.helper(&name, move |t| {
        let nops = plan.nops as u32;
        let mut c = Code { nparams: nops, locals: Vec::new(), body: Vec::new() };
        let fail = |what: String| format!("panic: ufunc {}: {what}{}", plan.name, plan.at);
        let maxd = MAX_LOOP_DIMS as i32;
        let (mark, l, lshape, idx, dims, steps, args) =
            (c.local(I32), c.local(I32), c.local(I32), c.local(I32), c.local(I32), c.local(I32), c.local(I32));
        let (a, n, cur, total, inner, ax) =
            (c.local(I32), c.local(I64), c.local(I64), c.local(I64), c.local(I32), c.local(I32));
        c.extend([I::GlobalGet(ARENA_TOP), I::LocalSet(mark)]);
        // Scratch: loop shape and index (i64), loop byte strides (i32, a row
        // per operand), dimensions, steps and argument pointers (i32).
        let scratch =
            |c: &mut Code, bytes: i32, into: u32| c.extend([I::I32Const(bytes), I::Call(alloc), I::LocalSet(into)]);
        scratch(&mut c, 8 * maxd, lshape);
        scratch(&mut c, 8 * maxd, idx);
        scratch(&mut c, 4 * (plan.dims.len() as i32 + 1), dims);
        scratch(&mut c, 4 * plan.num_steps() as i32, steps);
        scratch(&mut c, 4 * nops as i32, args);
        let mut lnd = Vec::new();
        let mut lstr = Vec::new();
        let mut base = Vec::new();
        let mut off = Vec::new();
        for i in 0..nops {
            let (x, s, b, o) = (c.local(I32), c.local(I32), c.local(I32), c.local(I32));
            scratch(&mut c, 4 * maxd, s);
            lnd.push(x);
            lstr.push(s);
            base.push(b);
            off.push(o);
            let iu = i as usize;
            let role = if iu < plan.nin { "input" } else { "output" };
            let d = plan.dtypes[iu];
            let (code, bits) = crate::abi::dlpack_dtype(d);
            let ncore = plan.core[iu].len() as i32;
            // Host memory: CPU, CUDAHost or ROCMHost.
            c.extend([I::LocalGet(i), I::I32Load(mem(dl::DEVICE_TYPE)), I::LocalTee(a), I::I32Const(1), I::I32Ne]);
            c.extend([I::LocalGet(a), I::I32Const(3), I::I32Ne, I::I32And, I::LocalGet(a), I::I32Const(11), I::I32Ne]);
            c.extend([I::I32And]);
            c.panic_if(t, &fail(format!("{role} operand {i} is not in host memory")));
            c.extend([I::LocalGet(i), I::I32Load8U(mem(dl::CODE)), I::I32Const(code as i32), I::I32Ne]);
            c.extend([I::LocalGet(i), I::I32Load8U(mem(dl::BITS)), I::I32Const(bits as i32), I::I32Ne, I::I32Or]);
            c.extend([I::LocalGet(i), I::I32Load16U(mem(dl::LANES)), I::I32Const(1), I::I32Ne, I::I32Or]);
            c.panic_if(t, &fail(format!("{role} operand {i} is not a {d} tensor")));
            let sig = plan.core[iu].iter().map(|&k| plan.dims[k].0.as_str()).collect::<Vec<_>>().join(",");
            c.extend([I::LocalGet(i), I::I32Load(mem(dl::NDIM)), I::I32Const(ncore), I::I32Sub, I::LocalTee(x)]);
            c.extend([I::I32Const(0), I::I32LtS]);
            c.panic_if(t, &fail(format!("{role} operand {i} has fewer dimensions than its core signature ({sig})")));
            c.extend([I::LocalGet(x), I::I32Const(maxd), I::I32GtS]);
            c.panic_if(t, &fail(format!("{role} operand {i} has more than {maxd} loop dimensions")));
            c.extend([I::LocalGet(i), I::I32Load(mem(dl::DATA)), I::LocalGet(i), I::I64Load(mem(dl::BYTE_OFFSET))]);
            c.extend([I::I32WrapI64, I::I32Add, I::LocalSet(b)]);
            c.extend([
                I::LocalGet(x),
                I::LocalGet(l),
                I::LocalGet(x),
                I::LocalGet(l),
                I::I32GtS,
                I::Select,
                I::LocalSet(l),
            ]);
        }
        // The loop shape starts all ones (axis 0 stands for an empty one).
        let each_axis = |c: &mut Code, upto: Vec<I<'static>>, body: Vec<I<'static>>| {
            c.extend([I::I32Const(0), I::LocalSet(a), I::Block(BlockType::Empty), I::Loop(BlockType::Empty)]);
            c.extend([I::LocalGet(a)]);
            c.extend(upto);
            c.extend([I::I32GeS, I::BrIf(1)]);
            c.extend(body);
            c.extend([I::LocalGet(a), I::I32Const(1), I::I32Add, I::LocalSet(a), I::Br(0), I::End, I::End]);
        };
        let shape_at = |i: u32| {
            vec![I::LocalGet(i), I::I32Load(mem(dl::SHAPE)), I::LocalGet(a), I::I32Const(8), I::I32Mul, I::I32Add]
        };
        let lshape_at = |lead: Vec<I<'static>>| {
            let mut v = vec![I::LocalGet(lshape)];
            v.extend(lead);
            v.extend([I::LocalGet(a), I::I32Add, I::I32Const(8), I::I32Mul, I::I32Add]);
            v
        };
        each_axis(
            &mut c,
            vec![I::LocalGet(l), I::I32Const(1), I::LocalGet(l), I::I32Const(1), I::I32GtS, I::Select],
            {
                let mut v = lshape_at(vec![I::I32Const(0)]);
                v.extend([I::I64Const(1), I::I64Store(mem(0))]);
                v
            },
        );
        let lead = |i: u32| vec![I::LocalGet(l), I::LocalGet(lnd[i as usize]), I::I32Sub];
        for i in 0..nops {
            let mut body = shape_at(i);
            body.extend([I::I64Load(mem(0)), I::LocalSet(n)]);
            body.extend(lshape_at(lead(i)));
            body.extend([I::I64Load(mem(0)), I::LocalSet(cur)]);
            body.extend([
                I::LocalGet(cur),
                I::I64Const(1),
                I::I64Ne,
                I::LocalGet(n),
                I::I64Const(1),
                I::I64Ne,
                I::I32And,
            ]);
            body.extend([I::LocalGet(n), I::LocalGet(cur), I::I64Ne, I::I32And]);
            let mut inner_c = Code { nparams: 0, locals: vec![], body: vec![] };
            inner_c.panic_if(t, &fail("operands could not be broadcast together".into()));
            body.extend(inner_c.body);
            body.extend(lshape_at(lead(i)));
            body.extend([I::LocalGet(n), I::LocalGet(cur), I::LocalGet(cur), I::I64Const(1), I::I64Eq, I::Select]);
            body.extend([I::I64Store(mem(0))]);
            each_axis(&mut c, vec![I::LocalGet(lnd[i as usize])], body);
        }
        // Outputs have the broadcast loop shape exactly.
        for i in plan.nin as u32..nops {
            let text = fail(format!("output operand {i} does not have the broadcast loop shape"));
            c.extend([I::LocalGet(lnd[i as usize]), I::LocalGet(l), I::I32Ne]);
            c.panic_if(t, &text);
            let mut body = shape_at(i);
            body.extend([I::I64Load(mem(0))]);
            body.extend(lshape_at(vec![I::I32Const(0)]));
            body.extend([I::I64Load(mem(0)), I::I64Ne]);
            let mut inner_c = Code { nparams: 0, locals: vec![], body: vec![] };
            inner_c.panic_if(t, &text);
            body.extend(inner_c.body);
            each_axis(&mut c, vec![I::LocalGet(l)], body);
        }
        // Loop byte strides (0 along a stretched axis), core sizes, steps.
        let mut seen = vec![false; plan.dims.len()];
        for i in 0..nops {
            let iu = i as usize;
            let size = plan.dtypes[iu].size_bytes() as i64;
            let mut body = vec![I::LocalGet(lstr[iu])];
            body.extend(lead(i));
            body.extend([I::LocalGet(a), I::I32Add, I::I32Const(4), I::I32Mul, I::I32Add]);
            body.extend(shape_at(i));
            body.extend([I::I64Load(mem(0)), I::I64Const(1), I::I64Eq, I::If(BlockType::Result(I32)), I::I32Const(0)]);
            body.extend([
                I::Else,
                I::LocalGet(i),
                I::LocalGet(a),
                I::I64ExtendI32S,
                I::I64Const(size),
                I::Call(stride),
            ]);
            body.extend([I::I32WrapI64, I::End, I::I32Store(mem(0))]);
            each_axis(&mut c, vec![I::LocalGet(lnd[iu])], body);
            for (k, &dim) in plan.core[iu].iter().enumerate() {
                let axis = vec![I::LocalGet(lnd[iu]), I::I32Const(k as i32), I::I32Add];
                c.extend([I::LocalGet(i), I::I32Load(mem(dl::SHAPE))]);
                c.extend(axis.clone());
                c.extend([I::I32Const(8), I::I32Mul, I::I32Add, I::I64Load(mem(0)), I::LocalSet(n)]);
                if let (_, Some(fixed)) = &plan.dims[dim] {
                    c.extend([I::LocalGet(n), I::I64Const(*fixed as i64), I::I64Ne]);
                    c.panic_if(t, &fail(format!("operand {i} has a size other than {fixed} for core dimension {k}")));
                } else if seen[dim] {
                    c.extend([
                        I::LocalGet(n),
                        I::LocalGet(dims),
                        I::I32Load(mem(4 * (dim as u64 + 1))),
                        I::I64ExtendI32S,
                    ]);
                    c.extend([I::I64Ne]);
                    let what = format!(
                        "core dimension `{}` of operand {i} does not match its size in an earlier operand",
                        plan.dims[dim].0
                    );
                    c.panic_if(t, &fail(what));
                }
                if !seen[dim] {
                    c.extend([
                        I::LocalGet(dims),
                        I::LocalGet(n),
                        I::I32WrapI64,
                        I::I32Store(mem(4 * (dim as u64 + 1))),
                    ]);
                    seen[dim] = true;
                }
                c.extend([I::LocalGet(steps), I::LocalGet(i)]);
                c.extend(axis);
                c.extend([I::I64ExtendI32S, I::I64Const(size), I::Call(stride), I::I32WrapI64]);
                c.extend([I::I32Store(mem(4 * (plan.core_step_base(iu) + k) as u64))]);
            }
        }
        // The innermost loop axis goes to NAME_loop; an empty loop shape is
        // one iteration, an empty loop axis none.
        c.extend([
            I::LocalGet(l),
            I::I32Const(1),
            I::I32Sub,
            I::I32Const(0),
            I::LocalGet(l),
            I::I32Const(0),
            I::I32GtS,
        ]);
        c.extend([I::Select, I::LocalSet(inner)]);
        c.extend([I::LocalGet(dims), I::LocalGet(lshape), I::LocalGet(inner), I::I32Const(8), I::I32Mul, I::I32Add]);
        c.extend([I::I64Load(mem(0)), I::I32WrapI64, I::I32Store(mem(0))]);
        c.extend([I::I64Const(1), I::LocalSet(total)]);
        let mut body = lshape_at(vec![I::I32Const(0)]);
        body.extend([I::I64Load(mem(0)), I::LocalGet(total), I::I64Mul, I::LocalSet(total)]);
        each_axis(&mut c, vec![I::LocalGet(l)], body);
        c.extend([I::LocalGet(total), I::I64Eqz, I::If(BlockType::Empty), I::LocalGet(mark), I::GlobalSet(ARENA_TOP)]);
        c.extend([I::Return, I::End]);
        for i in 0..nops as usize {
            c.extend([I::LocalGet(steps), I::LocalGet(lstr[i]), I::LocalGet(inner), I::I32Const(4), I::I32Mul]);
            c.extend([I::I32Add, I::I32Load(mem(0)), I::I32Store(mem(4 * i as u64))]);
        }
        // One NAME_loop call per outer index, then the odometer.
        c.extend([I::Block(BlockType::Empty), I::Loop(BlockType::Empty)]);
        for i in 0..nops as usize {
            c.extend([I::LocalGet(args), I::LocalGet(base[i]), I::LocalGet(off[i]), I::I32Add]);
            c.extend([I::I32Store(mem(4 * i as u64))]);
        }
        c.extend([I::LocalGet(args), I::LocalGet(dims), I::LocalGet(steps), I::I32Const(0), I::Call(loop_index)]);
        c.extend([I::LocalGet(inner), I::I32Const(1), I::I32Sub, I::LocalSet(ax)]);
        let at = |base_local: u32, width: i32| {
            vec![I::LocalGet(base_local), I::LocalGet(ax), I::I32Const(width), I::I32Mul, I::I32Add]
        };
        // Block 0: the odometer's axes; leaving it continues the outer loop.
        c.extend([I::Block(BlockType::Empty), I::Loop(BlockType::Empty)]);
        c.extend([I::LocalGet(ax), I::I32Const(0), I::I32LtS, I::BrIf(3)]);
        c.extend(at(idx, 8));
        c.extend([I::I64Load(mem(0)), I::I64Const(1), I::I64Add]);
        c.extend(at(lshape, 8));
        c.extend([I::I64Load(mem(0)), I::I64LtS, I::If(BlockType::Empty)]);
        c.extend(at(idx, 8));
        c.extend(at(idx, 8));
        c.extend([I::I64Load(mem(0)), I::I64Const(1), I::I64Add, I::I64Store(mem(0))]);
        for i in 0..nops as usize {
            c.extend([I::LocalGet(off[i])]);
            c.extend(at(lstr[i], 4));
            c.extend([I::I32Load(mem(0)), I::I32Add, I::LocalSet(off[i])]);
        }
        c.extend([I::Br(2), I::End]);
        for i in 0..nops as usize {
            c.extend([I::LocalGet(off[i])]);
            c.extend(at(lstr[i], 4));
            c.extend([I::I32Load(mem(0))]);
            c.extend(at(idx, 8));
            c.extend([I::I64Load(mem(0)), I::I32WrapI64, I::I32Mul, I::I32Sub, I::LocalSet(off[i])]);
        }
        c.extend(at(idx, 8));
        c.extend([I::I64Const(0), I::I64Store(mem(0))]);
        c.extend([I::LocalGet(ax), I::I32Const(1), I::I32Sub, I::LocalSet(ax), I::Br(0), I::End, I::End]);
        c.extend([I::Br(0), I::End, I::End]);
        c.extend([I::LocalGet(mark), I::GlobalSet(ARENA_TOP)]);
        (vec![I32; nops as usize], vec![], c.locals, c.body)
    })
}
