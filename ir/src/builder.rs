//! Building functions. Instructions can be appended to any block in any
//! order; [`FunctionBuilder::finish`] lays the blocks out contiguously in one
//! sweep (as frontends build a loop's exit before its body, say).

use crate::body::{BlockData, BlockId, Field, Literal, NameId, ValueId, NO_VALUE};
use crate::dtype::DType;
use crate::entity::{EntityId, IndexVec};
use crate::loc::{Loc, SrcLoc};
use crate::module::{FuncAttrs, Function};
use crate::opcode::{Format, Opcode};
use crate::types::TypeId;
use crate::ufunc::UFuncSignature;

pub struct FunctionBuilder {
    func: Function,
    /// The block of each instruction (`None` for parameters).
    inst_block: Vec<Option<BlockId>>,
    current: Option<BlockId>,
    loc: Option<SrcLoc>,
    in_order: bool,
}

impl FunctionBuilder {
    pub fn new(name: impl Into<String>) -> FunctionBuilder {
        FunctionBuilder { func: Function::new(name), inst_block: Vec::new(), current: None, loc: None, in_order: true }
    }

    /// Reserves room for `n` more instructions in every column (and `n`
    /// bytes of names), so that appending them does not reallocate.
    pub fn reserve(&mut self, n: usize) {
        let b = &mut self.func.body;
        b.tags.raw_mut().reserve(n);
        b.types.raw_mut().reserve(n);
        b.ops.raw_mut().reserve(n);
        b.names.raw_mut().reserve(n);
        b.locs.raw_mut().reserve(n);
        b.strings.reserve(n * 5);
        self.inst_block.reserve(n);
    }

    pub fn function(&self) -> &Function {
        &self.func
    }
    pub fn set_return(&mut self, ty: Option<TypeId>) {
        self.func.ret = ty;
    }
    pub fn set_attrs(&mut self, attrs: FuncAttrs) {
        self.func.attrs = attrs;
    }
    pub fn set_doc(&mut self, doc: Option<String>) {
        self.func.doc = doc;
    }
    pub fn set_defaults(&mut self, defaults: Vec<Option<crate::body::ConstValue>>) {
        self.func.defaults = defaults;
    }
    pub fn set_array_defaults(&mut self, array_defaults: Vec<(usize, crate::ArrayDefault)>) {
        self.func.array_defaults = array_defaults;
    }
    pub fn set_keyword_only(&mut self, keyword_only: usize) {
        self.func.keyword_only = keyword_only;
    }
    pub fn set_positional_only(&mut self, positional_only: usize) {
        self.func.positional_only = positional_only;
    }
    pub fn set_dtype_params(&mut self, dtype_params: Vec<crate::DTypeParam>) {
        self.func.dtype_params = dtype_params;
    }
    pub fn set_tuple_params(&mut self, tuple_params: Vec<(usize, usize)>) {
        self.func.tuple_params = tuple_params;
    }
    pub fn set_maybe_none(&mut self, maybe_none: crate::MaybeNone) {
        self.func.maybe_none = maybe_none;
    }
    pub fn set_ufunc_sig(&mut self, sig: Option<UFuncSignature>) {
        self.func.ufunc_sig = sig;
    }
    pub fn set_func_loc(&mut self, loc: Option<SrcLoc>) {
        self.func.loc = loc;
    }

    /// The location given to the instructions appended from now on.
    pub fn set_loc(&mut self, loc: Option<SrcLoc>) {
        self.loc = loc;
    }

    fn push_param(&mut self, name: &str, ty: TypeId, core: bool) -> ValueId {
        assert!(self.func.body.blocks.is_empty(), "parameters are declared before any block");
        let b = &mut self.func.body;
        let index = if core { b.num_core } else { b.num_params };
        assert!(core || b.num_core == 0, "parameters are declared before core-dimension parameters");
        let v = self.push_raw(Opcode::Param, Some(ty), [index, core as u32], Some(name));
        self.inst_block.push(None);
        let b = &mut self.func.body;
        if core {
            b.num_core += 1;
        } else {
            b.num_params += 1;
        }
        v
    }

    /// Declares the next parameter.
    pub fn param(&mut self, name: &str, ty: TypeId) -> ValueId {
        self.push_param(name, ty, false)
    }

    /// Declares the next ufunc core-dimension parameter.
    pub fn core_param(&mut self, name: &str, ty: TypeId) -> ValueId {
        self.push_param(name, ty, true)
    }

    pub fn create_block(&mut self, label: &str) -> BlockId {
        let label = self.func.body.strings.push(label);
        self.func.body.blocks.push(BlockData { label, start: 0, end: 0 })
    }

    pub fn switch_to(&mut self, b: BlockId) {
        self.current = Some(b);
    }

    pub fn current_block(&self) -> Option<BlockId> {
        self.current
    }

    /// Interns a name in the function's pool (callee names).
    pub fn intern(&mut self, s: &str) -> NameId {
        self.func.body.strings.push(s)
    }

    fn push_raw(&mut self, op: Opcode, ty: Option<TypeId>, ops: [u32; 2], name: Option<&str>) -> ValueId {
        let loc = match self.loc {
            Some(l) => self.func.body.encode_loc(l),
            None => Loc::NONE,
        };
        let name = name.map(|n| self.func.body.strings.push(n));
        let b = &mut self.func.body;
        let v = b.tags.push(op);
        b.types.push(ty);
        b.ops.push(ops);
        b.names.push(name);
        b.locs.push(loc);
        v
    }

    /// Appends an instruction to the current block. The low-level entry
    /// point: `ops` is the payload as the opcode's format lays it out.
    pub fn push(&mut self, op: Opcode, ty: Option<TypeId>, ops: [u32; 2], name: Option<&str>) -> ValueId {
        let block = self.current.expect("switch_to a block before appending instructions");
        if let Some(Some(last)) = self.inst_block.last() {
            if *last > block {
                self.in_order = false;
            }
        }
        let v = self.push_raw(op, ty, ops, name);
        self.inst_block.push(Some(block));
        v
    }

    /// Appends items to the `extra` pool; returns the index of the first.
    pub fn extra(&mut self, items: &[u32]) -> u32 {
        let at = self.func.body.extra.len() as u32;
        self.func.body.extra.extend_from_slice(items);
        at
    }

    pub fn const_(&mut self, ty: TypeId, lit: Literal<'_>, name: &str) -> ValueId {
        let dtype = DType::from_index(ty.as_u32()).expect("a constant has a scalar type");
        let ops = self.func.body.encode_literal(dtype, lit);
        self.push(Opcode::Const, Some(ty), ops, Some(name))
    }
    pub fn int(&mut self, ty: TypeId, value: i128, name: &str) -> ValueId {
        self.const_(ty, Literal::Int(value), name)
    }
    pub fn binary(&mut self, op: Opcode, ty: TypeId, left: ValueId, right: ValueId, name: &str) -> ValueId {
        debug_assert_eq!(op.format(), Format::Binary);
        self.push(op, Some(ty), [left.as_u32(), right.as_u32()], Some(name))
    }
    pub fn unary(&mut self, op: Opcode, ty: TypeId, operand: ValueId, name: &str) -> ValueId {
        debug_assert_eq!(op.format(), Format::Unary);
        self.push(op, Some(ty), [operand.as_u32(), 0], Some(name))
    }
    pub fn cast(&mut self, ty: TypeId, operand: ValueId, name: &str) -> ValueId {
        self.push(Opcode::Cast, Some(ty), [operand.as_u32(), 0], Some(name))
    }
    pub fn load(&mut self, ty: TypeId, array: ValueId, offset: ValueId, name: &str) -> ValueId {
        self.push(Opcode::Load, Some(ty), [array.as_u32(), offset.as_u32()], Some(name))
    }
    pub fn store(&mut self, array: ValueId, offset: ValueId, value: ValueId) -> ValueId {
        let e = self.extra(&[offset.as_u32(), value.as_u32()]);
        self.push(Opcode::Store, None, [array.as_u32(), e], None)
    }
    pub fn dim(&mut self, array: ValueId, axis: u32, name: &str) -> ValueId {
        self.push(Opcode::Dim, Some(TypeId::INT64), [array.as_u32(), axis], Some(name))
    }
    pub fn stride(&mut self, array: ValueId, axis: u32, name: &str) -> ValueId {
        self.push(Opcode::Stride, Some(TypeId::INT64), [array.as_u32(), axis], Some(name))
    }
    /// A call; `ret = None` is a void call with no result.
    pub fn call(&mut self, callee: &str, args: &[ValueId], ret: Option<TypeId>, name: &str) -> ValueId {
        let callee = self.intern(callee);
        let mut items = Vec::with_capacity(args.len() + 1);
        items.push(args.len() as u32);
        items.extend(args.iter().map(|a| a.as_u32()));
        let e = self.extra(&items);
        self.push(Opcode::Call, ret, [callee.as_u32(), e], ret.map(|_| name))
    }
    pub fn let_(&mut self, ty: TypeId, value: ValueId, name: &str) -> ValueId {
        self.push(Opcode::Let, Some(ty), [value.as_u32(), 0], Some(name))
    }
    pub fn set(&mut self, target: ValueId, value: ValueId) -> ValueId {
        self.push(Opcode::Set, None, [target.as_u32(), value.as_u32()], None)
    }
    pub fn select(&mut self, ty: TypeId, cond: ValueId, if_true: ValueId, if_false: ValueId, name: &str) -> ValueId {
        let e = self.extra(&[if_true.as_u32(), if_false.as_u32()]);
        self.push(Opcode::Select, Some(ty), [cond.as_u32(), e], Some(name))
    }
    /// A compact array with the extents `dims`, one per axis of `ty`.
    pub fn alloc(&mut self, ty: TypeId, dims: &[ValueId], name: &str) -> ValueId {
        self.alloc_as(Opcode::Alloc, ty, dims, name)
    }
    /// As [`Builder::alloc`], an array whose elements the caller writes
    /// before any is read (see [`Opcode::AllocEmpty`]).
    pub fn alloc_empty(&mut self, ty: TypeId, dims: &[ValueId], name: &str) -> ValueId {
        self.alloc_as(Opcode::AllocEmpty, ty, dims, name)
    }
    /// The tuple of `elements`, of the tuple type `ty` (what a function
    /// with a tuple result returns).
    pub fn tuple(&mut self, ty: TypeId, elements: &[ValueId], name: &str) -> ValueId {
        self.alloc_as(Opcode::Tuple, ty, elements, name)
    }
    /// Element `index`, of type `ty`, of the tuple a call returned.
    pub fn extract(&mut self, ty: TypeId, tuple: ValueId, index: u32, name: &str) -> ValueId {
        self.push(Opcode::Extract, Some(ty), [tuple.as_u32(), index], Some(name))
    }
    /// An instruction of the [`crate::opcode::Format::Alloc`] or
    /// [`crate::opcode::Format::Tuple`] layout: a list of values.
    fn alloc_as(&mut self, op: Opcode, ty: TypeId, dims: &[ValueId], name: &str) -> ValueId {
        let mut items = vec![dims.len() as u32];
        items.extend(dims.iter().map(|d| d.as_u32()));
        let e = self.extra(&items);
        self.push(op, Some(ty), [0, e], Some(name))
    }
    /// A view of `base` (see [`Opcode::View`]): one extent and one byte
    /// stride per axis of `ty`.
    pub fn view(
        &mut self,
        ty: TypeId,
        base: ValueId,
        offset: ValueId,
        extents: &[ValueId],
        strides: &[ValueId],
        name: &str,
    ) -> ValueId {
        self.view_of(Opcode::View, ty, base, offset, extents, strides, name)
    }
    /// The `extra` run of a `view` or `raw.view`: the offset, then the
    /// extents and the strides, each list after its length.
    fn view_items(&mut self, offset: ValueId, extents: &[ValueId], strides: &[ValueId]) -> u32 {
        let mut items = vec![offset.as_u32(), extents.len() as u32];
        items.extend(extents.iter().map(|d| d.as_u32()));
        items.push(strides.len() as u32);
        items.extend(strides.iter().map(|d| d.as_u32()));
        self.extra(&items)
    }
    pub fn getfield(&mut self, ty: TypeId, aggregate: ValueId, field: Field, name: &str) -> ValueId {
        self.push(Opcode::GetField, Some(ty), [aggregate.as_u32(), field as u32], Some(name))
    }
    pub fn setfield(&mut self, aggregate: ValueId, field: Field, value: ValueId) -> ValueId {
        let e = self.extra(&[field as u32, value.as_u32()]);
        self.push(Opcode::SetField, None, [aggregate.as_u32(), e], None)
    }
    pub fn index_load(&mut self, ty: TypeId, array: ValueId, indices: &[ValueId], name: &str) -> ValueId {
        let mut items = vec![indices.len() as u32];
        items.extend(indices.iter().map(|i| i.as_u32()));
        let e = self.extra(&items);
        self.push(Opcode::IndexLoad, Some(ty), [array.as_u32(), e], Some(name))
    }
    pub fn index_store(&mut self, array: ValueId, indices: &[ValueId], value: ValueId) -> ValueId {
        let mut items = vec![indices.len() as u32];
        items.extend(indices.iter().map(|i| i.as_u32()));
        items.push(value.as_u32());
        let e = self.extra(&items);
        self.push(Opcode::IndexStore, None, [array.as_u32(), e], None)
    }
    pub fn ret(&mut self, value: Option<ValueId>) -> ValueId {
        self.push(Opcode::Return, None, [value.map_or(NO_VALUE, |v| v.as_u32()), 0], None)
    }
    pub fn br(&mut self, target: BlockId) -> ValueId {
        self.push(Opcode::Br, None, [target.as_u32(), 0], None)
    }
    pub fn condbr(
        &mut self,
        cond: ValueId,
        if_true: BlockId,
        if_false: BlockId,
        weights: Option<(u32, u32)>,
    ) -> ValueId {
        let (wt, wf) = weights.unwrap_or((0, 0));
        let e = self.extra(&[if_true.as_u32(), if_false.as_u32(), wt, wf]);
        self.push(Opcode::CondBr, None, [cond.as_u32(), e], None)
    }
    pub fn unreachable(&mut self) -> ValueId {
        self.push(Opcode::Unreachable, None, [0, 0], None)
    }
    /// `raw.ptr` (an address) or `raw.word` (an `Int64`): word `index` of
    /// the array at address `base`; `raw.slot` its address; `raw.field`
    /// the address of field `index` of the DLTensor at `base`.
    pub fn raw_read(&mut self, op: Opcode, base: ValueId, index: u32, name: &str) -> ValueId {
        debug_assert_eq!(op.format(), Format::RawRead);
        self.push(op, Some(TypeId::INT64), [base.as_u32(), index], Some(name))
    }
    /// Byte `index` of the Str or Bytes `text`, a UInt8.
    pub fn text_byte(&mut self, text: ValueId, index: ValueId, name: &str) -> ValueId {
        let ty = TypeId::scalar(DType::UInt8);
        self.push(Opcode::TextByte, Some(ty), [text.as_u32(), index.as_u32()], Some(name))
    }
    pub fn raw_offset(&mut self, address: ValueId, bytes: ValueId, name: &str) -> ValueId {
        self.push(Opcode::RawOffset, Some(TypeId::INT64), [address.as_u32(), bytes.as_u32()], Some(name))
    }
    pub fn raw_load(&mut self, ty: TypeId, address: ValueId, name: &str) -> ValueId {
        self.push(Opcode::RawLoad, Some(ty), [address.as_u32(), 0], Some(name))
    }
    /// Whether `address` is the null pointer.
    pub fn raw_is_null(&mut self, address: ValueId, name: &str) -> ValueId {
        self.push(Opcode::RawIsNull, Some(TypeId::BOOL), [address.as_u32(), 0], Some(name))
    }
    pub fn raw_store(&mut self, address: ValueId, value: ValueId) -> ValueId {
        self.push(Opcode::RawStore, None, [address.as_u32(), value.as_u32()], None)
    }
    /// A store of the `raw.store` format: `raw.store`, `raw.setword` or
    /// `raw.setptr`.
    pub fn raw_put(&mut self, op: Opcode, address: ValueId, value: ValueId) -> ValueId {
        debug_assert_eq!(op.format(), Format::RawStore);
        self.push(op, None, [address.as_u32(), value.as_u32()], None)
    }
    /// An array of type `ty` over the memory at `address` (see
    /// [`Opcode::RawView`]): one extent and one byte stride per axis.
    pub fn raw_view(
        &mut self,
        ty: TypeId,
        address: ValueId,
        offset: ValueId,
        extents: &[ValueId],
        strides: &[ValueId],
        name: &str,
    ) -> ValueId {
        self.view_of(Opcode::RawView, ty, address, offset, extents, strides, name)
    }
    /// An instruction of the `view` format, `op` one of `view`,
    /// `view.inbounds` (whose maker guarantees it is valid) or `raw.view`:
    /// they differ only in whether `insert-checks` checks them and in what
    /// their first operand is (an array or an address).
    #[allow(clippy::too_many_arguments)]
    pub fn view_of(
        &mut self,
        op: Opcode,
        ty: TypeId,
        first: ValueId,
        offset: ValueId,
        extents: &[ValueId],
        strides: &[ValueId],
        name: &str,
    ) -> ValueId {
        let e = self.view_items(offset, extents, strides);
        self.push(op, Some(ty), [first.as_u32(), e], Some(name))
    }
    /// The address of `array`'s first element.
    pub fn raw_data(&mut self, array: ValueId, name: &str) -> ValueId {
        self.push(Opcode::RawData, Some(TypeId::INT64), [array.as_u32(), 0], Some(name))
    }

    /// Lays the blocks out contiguously, in block order, and returns the
    /// function. Instructions keep their relative order within a block.
    pub fn finish(mut self) -> Function {
        let body = &mut self.func.body;
        let nblocks = body.blocks.len();
        let nparams = (body.num_params + body.num_core) as usize;
        let mut counts = vec![0u32; nblocks];
        for b in self.inst_block.iter().flatten() {
            counts[b.index()] += 1;
        }
        let mut start = nparams as u32;
        for (b, c) in body.blocks.iter_mut().zip(&counts) {
            b.start = start;
            b.end = start + c;
            start = b.end;
        }
        if self.in_order {
            return self.func;
        }
        // Counting sort: the new position of every instruction.
        let mut next: Vec<u32> = body.blocks.iter().map(|b| b.start).collect();
        let mut new_pos: Vec<u32> = Vec::with_capacity(self.inst_block.len());
        for (i, b) in self.inst_block.iter().enumerate() {
            match b {
                None => new_pos.push(i as u32),
                Some(b) => {
                    new_pos.push(next[b.index()]);
                    next[b.index()] += 1;
                }
            }
        }
        fn permute<T: Copy>(col: &mut IndexVec<ValueId, T>, new_pos: &[u32]) {
            let old = col.raw().to_vec();
            for (i, x) in old.into_iter().enumerate() {
                col.raw_mut()[new_pos[i] as usize] = x;
            }
        }
        permute(&mut body.tags, &new_pos);
        permute(&mut body.types, &new_pos);
        permute(&mut body.ops, &new_pos);
        permute(&mut body.names, &new_pos);
        permute(&mut body.locs, &new_pos);
        for v in body.tags.ids() {
            body.map_operands(v, |x| match new_pos.get(x.index()) {
                Some(&p) => ValueId::from_u32(p),
                None => x,
            });
        }
        self.func
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::InstData;

    #[test]
    fn out_of_order_building_is_laid_out_by_block() {
        let mut b = FunctionBuilder::new("f");
        let x = b.param("x", TypeId::INT64);
        b.set_return(Some(TypeId::INT64));
        let entry = b.create_block("entry");
        let exit = b.create_block("exit");
        b.switch_to(exit);
        let r = b.binary(Opcode::Add, TypeId::INT64, x, x, "r");
        b.ret(Some(r));
        b.switch_to(entry);
        let one = b.int(TypeId::INT64, 1, "one");
        let _ = one;
        b.br(exit);
        let f = b.finish();
        let body = &f.body;
        assert_eq!(body.label(BlockId::from_u32(0)), "entry");
        assert_eq!((body.blocks[BlockId::from_u32(0)].start, body.blocks[BlockId::from_u32(0)].end), (1, 3));
        assert_eq!((body.blocks[BlockId::from_u32(1)].start, body.blocks[BlockId::from_u32(1)].end), (3, 5));
        // The add moved to position 3 and the return still reads it.
        assert_eq!(body.name(ValueId::from_u32(3)), Some("r"));
        match body.inst(ValueId::from_u32(4)) {
            InstData::Return { value } => assert_eq!(value, Some(ValueId::from_u32(3))),
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(body.terminator(BlockId::from_u32(0)), Some(ValueId::from_u32(2)));
    }
}
