//! Str and Bytes in linear memory: a value is the pair (address, length
//! in bytes) in two `i32` locals, passed as two parameters and returned
//! as two results. Constants live in the data section (each distinct text
//! once); a concatenation is a fresh copy in the arena, which lasts until
//! the caller of the exported function releases it (a function that
//! returns text does not release its own allocations). Equality and
//! ordering compare bytewise, then by length, as the other backends.

use super::func::{alloc_helper, mem, FnW, R};
use super::Translation;
use postc_ir::{Opcode, ValueId};
use wasm_encoder::{BlockType, Instruction as I, ValType};

const I32: ValType = ValType::I32;

/// `postc.text_concat(ap, an, bp, bn) -> (p, n)`: a copy of both in the
/// arena.
fn concat_helper(t: &mut Translation<'_>) -> u32 {
    let alloc = alloc_helper(t);
    t.helper("postc.text_concat", |_| {
        // Locals: 4 the copy.
        let body = vec![
            I::LocalGet(1),
            I::LocalGet(3),
            I::I32Add,
            I::Call(alloc),
            I::LocalTee(4),
            I::LocalGet(0),
            I::LocalGet(1),
            I::MemoryCopy { src_mem: 0, dst_mem: 0 },
            I::LocalGet(4),
            I::LocalGet(1),
            I::I32Add,
            I::LocalGet(2),
            I::LocalGet(3),
            I::MemoryCopy { src_mem: 0, dst_mem: 0 },
            I::LocalGet(4),
            I::LocalGet(1),
            I::LocalGet(3),
            I::I32Add,
        ];
        (vec![I32; 4], vec![I32; 2], vec![I32], body)
    })
}

/// `postc.text_cmp(ap, an, bp, bn) -> -1, 0 or 1`: the first differing
/// byte (unsigned) decides, else the shorter is less.
fn cmp_helper(t: &mut Translation<'_>) -> u32 {
    t.helper("postc.text_cmp", |_| {
        // Locals: 4 index, 5 common length, 6 byte of a, 7 byte of b.
        let body = vec![
            I::LocalGet(1),
            I::LocalGet(3),
            I::LocalGet(1),
            I::LocalGet(3),
            I::I32LtU,
            I::Select,
            I::LocalSet(5),
            I::Block(BlockType::Empty),
            I::Loop(BlockType::Empty),
            I::LocalGet(4),
            I::LocalGet(5),
            I::I32GeU,
            I::BrIf(1),
            I::LocalGet(0),
            I::LocalGet(4),
            I::I32Add,
            I::I32Load8U(mem(0)),
            I::LocalTee(6),
            I::LocalGet(2),
            I::LocalGet(4),
            I::I32Add,
            I::I32Load8U(mem(0)),
            I::LocalTee(7),
            I::I32Ne,
            I::If(BlockType::Empty),
            I::I32Const(-1),
            I::I32Const(1),
            I::LocalGet(6),
            I::LocalGet(7),
            I::I32LtU,
            I::Select,
            I::Return,
            I::End,
            I::LocalGet(4),
            I::I32Const(1),
            I::I32Add,
            I::LocalSet(4),
            I::Br(0),
            I::End,
            I::End,
            I::LocalGet(1),
            I::LocalGet(3),
            I::I32GtU,
            I::LocalGet(1),
            I::LocalGet(3),
            I::I32LtU,
            I::I32Sub,
        ];
        (vec![I32; 4], vec![I32], vec![I32; 4], body)
    })
}

impl FnW<'_, '_> {
    /// Pushes a text constant: its address in the data section and length.
    pub(super) fn text_const(&mut self, bytes: &[u8]) {
        let at = self.t.string(bytes);
        self.extend([I::I32Const(at as i32), I::I32Const(bytes.len() as i32)]);
    }

    /// A panic whose message is the text value `msg`, known at run time,
    /// followed by the `i64` values of the `args` locals: the native
    /// backends' format (`abi::runtime_panic_format`), whose `%.*s` takes
    /// the text's length and address as its first two arguments.
    pub(super) fn panic_with_text(&mut self, v: ValueId, msg: ValueId, args: &[u32]) {
        let fmt = crate::abi::runtime_panic_format(args.len(), self.loc_text(v).as_deref());
        let m = self.value_local[&msg];
        let (len, at) = (self.local(ValType::I64), self.local(ValType::I64));
        self.extend([I::LocalGet(m + 1), I::I64ExtendI32U, I::LocalSet(len)]);
        self.extend([I::LocalGet(m), I::I64ExtendI32U, I::LocalSet(at)]);
        let all: Vec<u32> = [len, at].into_iter().chain(args.iter().copied()).collect();
        self.call_panic(&fmt, &all);
    }

    pub(super) fn binary_text(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        let d = self.dt(l);
        self.get(l);
        self.get(r);
        match op {
            Opcode::Add => {
                let h = concat_helper(self.t);
                self.push(I::Call(h));
            }
            Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                let h = cmp_helper(self.t);
                self.extend([I::Call(h), I::I32Const(0)]);
                self.push(match op {
                    Opcode::Eq => I::I32Eq,
                    Opcode::Ne => I::I32Ne,
                    Opcode::Lt => I::I32LtS,
                    Opcode::Le => I::I32LeS,
                    Opcode::Gt => I::I32GtS,
                    _ => I::I32GeS,
                });
            }
            _ => return self.err(Some(v), format!("`{}` on {d}", op.mnemonic())),
        }
        self.set(v);
        Ok(())
    }
}
