//! NumPy's pairwise summation of floats, so that `np.sum`, `a.sum()` and
//! `np.mean` of Float16, Float32 and Float64 give NumPy's bits, not only
//! its value.
//!
//! NumPy adds a run of `n` elements (its `pairwise_sum`) as follows: fewer
//! than 8 in order; up to 128 in eight accumulators, element `i` into
//! accumulator `i % 8`, the eight then combined as `((r0 + r1) + (r2 +
//! r3)) + ((r4 + r5) + (r6 + r7))` and the last `n % 8` elements added in
//! order; more than 128 as the sum of two halves, the first `n2` elements
//! and the rest, `n2` being half of `n` rounded down to a multiple of 8.
//! Float16 elements are added in Float32. The reduction adds that sum to
//! the identity, 0.0.
//!
//! Which runs NumPy hands to it depends on the layout at run time, and the
//! reductions here follow it (see `arrays.rs`): a whole 1-D array, a
//! whole array whose elements are contiguous in C or Fortran order (the
//! run is its memory, in memory order), and each lane of an `axis=`
//! reduction whose axis has the smallest stride. Other reductions add in
//! order, as NumPy does along an axis that is not its innermost; for an
//! array of two axes or more that is neither contiguous NumPy copies into
//! buffers of about 8192 elements and sums each pairwise, which is not
//! reproduced (such a sum can differ from NumPy's in its last bits).
//!
//! A run of at most 128 elements is summed in line where the reduction
//! is; a longer one calls `postc.np.pairwise_sum.<dtype>`, a recursive
//! function of the module ([`add_helpers`] writes one per dtype called),
//! whose runs of at most 128 are the same code. Each block of eight is read
//! through a view of eight elements, whose constant indices need no bounds
//! check. Short runs, the rows of most kernels, are kept cheap: a run of 8
//! to 15 elements combines its first eight directly, without the
//! accumulators' loop, and the fewer than eight elements after the blocks
//! are added in line, each behind the test of whether it is there, not by
//! a loop.

use postc_ir::body::InstData;
use postc_ir::{
    DType, FunctionBuilder, Layout, Literal, Module, Opcode, Shape, SrcLoc, TypeData, TypeId, TypeTable, ValueId,
};

/// The functions that sum runs longer than [`BLOCK`]: this prefix, then
/// the dtype's name in lower case.
pub(crate) const HELPER_PREFIX: &str = "postc.np.pairwise_sum.";

/// The longest run summed without splitting (NumPy's `PW_BLOCKSIZE`).
const BLOCK: i128 = 128;

/// The accumulators of a run of [`BLOCK`] elements or fewer.
const LANES: i128 = 8;

/// The dtype NumPy's pairwise sum of `d` accumulates in, for the dtypes it
/// sums pairwise.
pub(crate) fn accumulator(d: DType) -> Option<DType> {
    match d {
        DType::Float16 | DType::Float32 => Some(DType::Float32),
        DType::Float64 => Some(DType::Float64),
        _ => None,
    }
}

/// The helper that sums a run of `d` longer than [`BLOCK`].
fn helper_name(d: DType) -> String {
    format!("{HELPER_PREFIX}{}", d.name().to_ascii_lowercase())
}

/// The type of a run: a 1-D array of `d` whose extent and stride are its
/// view's operands.
pub(crate) fn run_type(types: &mut TypeTable, d: DType) -> TypeId {
    types.intern(TypeData::array(d, Shape::dims(&[None]), Layout::COrder))
}

/// Emits IR into a builder, naming values with a counter shared with the
/// function being built.
pub(crate) struct Emit<'a> {
    pub b: &'a mut FunctionBuilder,
    pub types: &'a mut TypeTable,
    pub counter: &'a mut u32,
}

impl Emit<'_> {
    fn name(&mut self, what: &str) -> String {
        *self.counter += 1;
        format!("{what}.{}", self.counter)
    }

    fn int(&mut self, v: i128) -> ValueId {
        let n = self.name("c");
        self.b.int(TypeId::INT64, v, &n)
    }

    fn op(&mut self, op: Opcode, d: DType, l: ValueId, r: ValueId) -> ValueId {
        let n = self.name(op.mnemonic());
        self.b.binary(op, TypeId::scalar(d), l, r, &n)
    }

    fn block(&mut self, what: &str) -> postc_ir::BlockId {
        let n = self.name(what);
        self.b.create_block(&n)
    }

    /// The stride of `run`'s one axis.
    fn stride(&mut self, run: ValueId) -> ValueId {
        let n = self.name("stride");
        self.b.stride(run, 0, &n)
    }

    /// The part of `run` (of `d`) of `extent` elements `stride` bytes apart
    /// from byte `offset` on, which the caller knows are there.
    fn part(
        &mut self,
        run: ValueId,
        d: DType,
        offset: ValueId,
        extent: ValueId,
        stride: ValueId,
        what: &str,
    ) -> ValueId {
        let run_t = run_type(self.types, d);
        let n = self.name(what);
        self.b.view_of(Opcode::ViewInBounds, run_t, run, offset, &[extent], &[stride], &n)
    }

    /// Element `i` of the 1-D `run` of `d`, in the accumulator's dtype.
    fn element(&mut self, run: ValueId, i: ValueId, d: DType, acc: DType) -> ValueId {
        let n = self.name("el");
        let x = self.b.index_load(TypeId::scalar(d), run, &[i], &n);
        if d == acc {
            x
        } else {
            let n = self.name("wide");
            self.b.cast(TypeId::scalar(acc), x, &n)
        }
    }

    /// The pairwise sum of `run` (a value of [`run_type`]), in `acc`; the
    /// builder continues in a block after it.
    pub(crate) fn sum(&mut self, run: ValueId, d: DType, acc: DType) -> ValueId {
        let zero = self.zero(acc);
        let n = self.name("pairwise");
        let res = self.b.let_(TypeId::scalar(acc), zero, &n);
        let done = self.block("pairwise.done");
        let (count, split, short) = self.by_length(run);
        self.b.switch_to(split);
        // The callee's argument is a view of its own, made here: the
        // header a call needs is then built only on this path.
        let stride = self.stride(run);
        let start = self.int(0);
        let arg = self.part(run, d, start, count, stride, "run");
        let n = self.name("halves");
        let ret = TypeId::scalar(acc);
        let whole = self.b.call(&helper_name(d), &[arg], Some(ret), &n);
        self.b.set(res, whole);
        self.b.br(done);
        self.b.switch_to(short);
        let part = self.short(run, count, d, acc);
        self.b.set(res, part);
        self.b.br(done);
        self.b.switch_to(done);
        let n = self.name("sum");
        self.b.let_(TypeId::scalar(acc), res, &n)
    }

    /// The run's length, and a branch on whether it is longer than
    /// [`BLOCK`] to the first block returned (split) or the second.
    fn by_length(&mut self, run: ValueId) -> (ValueId, postc_ir::BlockId, postc_ir::BlockId) {
        let n = self.name("n");
        let count = self.b.dim(run, 0, &n);
        let limit = self.int(BLOCK);
        let n = self.name("long");
        let long = self.b.binary(Opcode::Gt, TypeId::BOOL, count, limit, &n);
        let (split, short) = (self.block("pairwise.split"), self.block("pairwise.short"));
        self.b.condbr(long, split, short, None);
        (count, split, short)
    }

    fn zero(&mut self, acc: DType) -> ValueId {
        let n = self.name("zero");
        self.b.const_(TypeId::scalar(acc), Literal::Float(0), &n)
    }

    /// The sum of a run of `count` ≤ [`BLOCK`] elements: in order below
    /// [`LANES`], else in eight accumulators and the rest in order.
    fn short(&mut self, run: ValueId, count: ValueId, d: DType, acc: DType) -> ValueId {
        let acc_t = TypeId::scalar(acc);
        let zero = self.zero(acc);
        let n = self.name("res");
        let res = self.b.let_(acc_t, zero, &n);
        let start = self.int(0);
        let n = self.name("i");
        let i = self.b.let_(TypeId::INT64, start, &n);
        let lanes = self.int(LANES);
        let n = self.name("few");
        let few = self.b.binary(Opcode::Lt, TypeId::BOOL, count, lanes, &n);
        let (blocked, tail) = (self.block("pairwise.lanes"), self.block("pairwise.tail"));
        self.b.condbr(few, tail, blocked, None);

        // Eight accumulators, each block of eight read through a view; for
        // a unit stride with the stride a constant, so that the offsets of
        // the eight are constants too.
        self.b.switch_to(blocked);
        let stride = self.stride(run);
        let size = self.int(i128::from(d.size_bytes()));
        let n = self.name("unit");
        let unit = self.b.binary(Opcode::Eq, TypeId::BOOL, stride, size, &n);
        let (unit_blocks, strided_blocks) = (self.block("pairwise.unit"), self.block("pairwise.strided"));
        self.b.condbr(unit, unit_blocks, strided_blocks, None);
        self.b.switch_to(unit_blocks);
        self.blocks(run, count, d, acc, (i, res), size, tail);
        self.b.switch_to(strided_blocks);
        self.blocks(run, count, d, acc, (i, res), stride, tail);

        // The elements left, in order: fewer than eight, so added in line,
        // each through a view of them at a constant index, behind the test
        // of whether it is there (which is also its bounds check).
        self.b.switch_to(tail);
        let done = self.block("pairwise.end");
        let left = self.op(Opcode::Sub, DType::Int64, count, i);
        let stride = self.stride(run);
        let offset = self.op(Opcode::Mul, DType::Int64, i, stride);
        let rest = self.part(run, d, offset, left, stride, "rest");
        for k in 0..LANES - 1 {
            let idx = self.int(k);
            let n = self.name("there");
            let there = self.b.binary(Opcode::Lt, TypeId::BOOL, idx, left, &n);
            let add = self.block("pairwise.rest");
            self.b.condbr(there, add, done, None);
            self.b.switch_to(add);
            let x = self.element(rest, idx, d, acc);
            let s = self.op(Opcode::Add, acc, res, x);
            self.b.set(res, s);
        }
        self.b.br(done);
        self.b.switch_to(done);
        let n = self.name("short");
        self.b.let_(acc_t, res, &n)
    }

    /// The run's blocks of eight in eight accumulators (at least one
    /// block: `count` is 8 or more), combined into `res`, with `i` left
    /// at the first element after them; then a branch to `tail`. A single
    /// block is combined as it is read.
    #[allow(clippy::too_many_arguments)]
    fn blocks(
        &mut self,
        run: ValueId,
        count: ValueId,
        d: DType,
        acc: DType,
        (i, res): (ValueId, ValueId),
        stride: ValueId,
        tail: postc_ir::BlockId,
    ) {
        let acc_t = TypeId::scalar(acc);
        let lanes = self.int(LANES);
        let at = self.int(0);
        let first = self.part(run, d, at, lanes, stride, "eight");
        let mut x0 = Vec::with_capacity(LANES as usize);
        for k in 0..LANES {
            let idx = self.int(k);
            x0.push(self.element(first, idx, d, acc));
        }
        self.b.set(i, lanes);
        let mask = self.int(!(LANES - 1));
        let whole = self.op(Opcode::BAnd, DType::Int64, count, mask);
        let (one_block, more_blocks) = (self.block("pairwise.one"), self.block("pairwise.more"));
        let n = self.name("single");
        let single = self.b.binary(Opcode::Eq, TypeId::BOOL, whole, lanes, &n);
        self.b.condbr(single, one_block, more_blocks, None);
        self.b.switch_to(one_block);
        let all = self.combine(acc, &x0);
        self.b.set(res, all);
        self.b.br(tail);
        self.b.switch_to(more_blocks);
        let mut r = Vec::with_capacity(LANES as usize);
        for &x in &x0 {
            let n = self.name("r");
            r.push(self.b.let_(acc_t, x, &n));
        }
        let (head, body, combine) =
            (self.block("pairwise.head"), self.block("pairwise.body"), self.block("pairwise.combine"));
        self.b.br(head);
        self.b.switch_to(head);
        let n = self.name("more");
        let more = self.b.binary(Opcode::Lt, TypeId::BOOL, i, whole, &n);
        self.b.condbr(more, body, combine, None);
        self.b.switch_to(body);
        let offset = self.op(Opcode::Mul, DType::Int64, i, stride);
        let eight = self.part(run, d, offset, lanes, stride, "eight");
        for (k, &rk) in r.iter().enumerate() {
            let idx = self.int(k as i128);
            let x = self.element(eight, idx, d, acc);
            let s = self.op(Opcode::Add, acc, rk, x);
            self.b.set(rk, s);
        }
        let next = self.op(Opcode::Add, DType::Int64, i, lanes);
        self.b.set(i, next);
        self.b.br(head);
        self.b.switch_to(combine);
        let all = self.combine(acc, &r);
        self.b.set(res, all);
        self.b.br(tail);
    }

    /// NumPy's combination of the eight accumulators `r`.
    fn combine(&mut self, acc: DType, r: &[ValueId]) -> ValueId {
        let pair = |e: &mut Self, a: ValueId, b: ValueId| e.op(Opcode::Add, acc, a, b);
        let (p01, p23, p45, p67) =
            (pair(self, r[0], r[1]), pair(self, r[2], r[3]), pair(self, r[4], r[5]), pair(self, r[6], r[7]));
        let (q0, q1) = (pair(self, p01, p23), pair(self, p45, p67));
        pair(self, q0, q1)
    }
}

/// Adds to `module` the function `postc.np.pairwise_sum.<dtype>` of each
/// dtype whose function its functions call: the sum of a run longer than
/// [`BLOCK`], as the sums of its halves.
pub(crate) fn add_helpers(module: &mut Module) {
    // Each dtype's function is located at its first caller's reduction.
    let mut wanted: Vec<(DType, Option<SrcLoc>)> = Vec::new();
    for f in module.functions.iter() {
        for v in f.body.tags.ids().filter(|&v| f.body.tags[v] == Opcode::Call) {
            if let InstData::Call { callee, .. } = f.body.inst(v) {
                if let Some(d) = callee.strip_prefix(HELPER_PREFIX).and_then(|s| {
                    [DType::Float16, DType::Float32, DType::Float64]
                        .into_iter()
                        .find(|d| d.name().eq_ignore_ascii_case(s))
                }) {
                    if !wanted.iter().any(|w| w.0 == d) {
                        wanted.push((d, f.body.loc(v)));
                    }
                }
            }
        }
    }
    for (d, loc) in wanted {
        let acc = accumulator(d).expect("a pairwise dtype");
        let f = helper(&mut module.types, d, acc, loc);
        module.add_function(f);
    }
}

/// `postc.np.pairwise_sum.<d>(run) -> acc`: a run of at most [`BLOCK`]
/// summed as at the call, a longer one as the sums of its halves.
fn helper(types: &mut TypeTable, d: DType, acc: DType, loc: Option<SrcLoc>) -> postc_ir::Function {
    let mut b = FunctionBuilder::new(helper_name(d));
    b.set_func_loc(loc);
    b.set_doc(Some(format!("NumPy's pairwise sum of a run of {} elements, in {}.", d.name(), acc.name())));
    let run_t = run_type(types, d);
    let run = b.param("run", run_t);
    b.set_loc(loc);
    b.set_return(Some(TypeId::scalar(acc)));
    let entry = b.create_block("entry");
    b.switch_to(entry);
    let mut counter = 0;
    let mut e = Emit { b: &mut b, types, counter: &mut counter };
    let (count, split, short) = e.by_length(run);
    e.b.switch_to(short);
    let s = e.short(run, count, d, acc);
    e.b.ret(Some(s));
    e.b.switch_to(split);
    // NumPy's split: half, rounded down to a multiple of eight.
    let one = e.int(1);
    let half = e.op(Opcode::Shr, DType::Int64, count, one);
    let mask = e.int(!(LANES - 1));
    let first = e.op(Opcode::BAnd, DType::Int64, half, mask);
    let second = e.op(Opcode::Sub, DType::Int64, count, first);
    let stride = e.stride(run);
    let zero = e.int(0);
    let left = e.part(run, d, zero, first, stride, "left");
    let offset = e.op(Opcode::Mul, DType::Int64, first, stride);
    let right = e.part(run, d, offset, second, stride, "right");
    let ret = TypeId::scalar(acc);
    let n = e.name("sum");
    let l = e.b.call(&helper_name(d), &[left], Some(ret), &n);
    let n = e.name("sum");
    let r = e.b.call(&helper_name(d), &[right], Some(ret), &n);
    let s = e.op(Opcode::Add, acc, l, r);
    e.b.ret(Some(s));
    b.finish()
}
