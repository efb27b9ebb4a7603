//! A ufunc's `NAME_dl(op0, ..., opN)` (docs/abi.md §6 and §14), the
//! broadcasting driver over DLTensors, written out per ufunc from its
//! [`Plan`] (the operands' count, dtypes and core dimensions are known, so
//! each check and panic message is fixed); it calls `NAME_loop`, the
//! compiler-made function `ufunc-entry` wrote (32-bit pointers and
//! `intptr_t`). The driver's scratch arrays live in the arena, released
//! before returning.

use super::func::{alloc_helper, dl, mem, stride_helper, PANIC};
use super::{Translation, ARENA_TOP};
use crate::ufunc_plan::{Plan, MAX_LOOP_DIMS};
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
