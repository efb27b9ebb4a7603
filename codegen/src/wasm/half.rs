//! Float16 in software: a value is its IEEE binary16 bits in an `i32`
//! (zero-extended), converted exactly to `f32` to be read and rounded
//! once from `f64`, ties to even, to be written. Its arithmetic is written
//! out in Float32 by `legalize` (the backend declares no
//! `float16_arithmetic`), so these conversions and the sign bit's `neg`
//! and `abs` are all it needs.

use super::func::{FnW, R};
use super::Translation;
use postc_ir::{DType, Opcode, ValueId};
use wasm_encoder::{BlockType, Instruction as I, ValType};

/// `postc.f16_to_f32(bits) -> f32`: exact (NaN payloads kept, subnormals
/// scaled from their integer significand).
pub(super) fn to_f32_helper(t: &mut Translation<'_>) -> u32 {
    t.helper("postc.f16_to_f32", |_| {
        // Locals: 0 bits, 1 exponent field.
        let body = vec![
            I::LocalGet(0),
            I::I32Const(10),
            I::I32ShrU,
            I::I32Const(0x1f),
            I::I32And,
            I::LocalTee(1),
            I::If(BlockType::Result(ValType::F32)),
            // Normal, infinite or NaN: the fields move into place.
            I::LocalGet(0),
            I::I32Const(0x8000),
            I::I32And,
            I::I32Const(16),
            I::I32Shl,
            I::LocalGet(0),
            I::I32Const(0x3ff),
            I::I32And,
            I::I32Const(13),
            I::I32Shl,
            I::I32Or,
            I::I32Const(0x7f80_0000),
            I::LocalGet(1),
            I::I32Const(112),
            I::I32Add,
            I::I32Const(23),
            I::I32Shl,
            I::LocalGet(1),
            I::I32Const(0x1f),
            I::I32Eq,
            I::Select,
            I::I32Or,
            I::F32ReinterpretI32,
            I::Else,
            // Zero or subnormal: significand × 2⁻²⁴, exact in f32.
            I::LocalGet(0),
            I::I32Const(0x3ff),
            I::I32And,
            I::F32ConvertI32U,
            I::F32Const((1.0f32 / 16_777_216.0).into()),
            I::F32Mul,
            I::LocalGet(0),
            I::I32Const(16),
            I::I32Shl,
            I::F32ReinterpretI32,
            I::F32Copysign,
            I::End,
        ];
        (vec![ValType::I32], vec![ValType::F32], vec![ValType::I32], body)
    })
}

/// `postc.f16_from_f64(x) -> bits`: rounds to the nearest Float16, ties to
/// even, in one step; overflow gives ±inf, NaN stays NaN (quiet, the top
/// of its payload kept).
pub(super) fn from_f64_helper(t: &mut Translation<'_>) -> u32 {
    t.helper("postc.f16_from_f64", |_| {
        // Locals: 0 x, 1 bits (i64), 2 sign (i32), 3 exponent field (i32),
        // 4 e (i32), 5 significand (i64), 6 shift (i64), 7 rounded (i64),
        // 8 remainder (i64), 9 halfway (i64).
        let body = vec![
            I::LocalGet(0),
            I::I64ReinterpretF64,
            I::LocalTee(1),
            I::I64Const(48),
            I::I64ShrU,
            I::I32WrapI64,
            I::I32Const(0x8000),
            I::I32And,
            I::LocalSet(2),
            I::LocalGet(1),
            I::I64Const(52),
            I::I64ShrU,
            I::I32WrapI64,
            I::I32Const(0x7ff),
            I::I32And,
            I::LocalTee(3),
            I::I32Const(0x7ff),
            I::I32Eq,
            I::If(BlockType::Empty),
            // inf or NaN.
            I::LocalGet(2),
            I::I32Const(0x7c00),
            I::I32Or,
            I::LocalGet(1),
            I::I64Const(42),
            I::I64ShrU,
            I::I32WrapI64,
            I::I32Const(0x3ff),
            I::I32And,
            I::I32Const(0x200),
            I::I32Or,
            I::I32Const(0),
            I::LocalGet(1),
            I::I64Const(0xf_ffff_ffff_ffff),
            I::I64And,
            I::I64Const(0),
            I::I64Ne,
            I::Select,
            I::I32Or,
            I::Return,
            I::End,
            // Zero and f64 subnormals are far below Float16's range.
            I::LocalGet(3),
            I::I32Eqz,
            I::If(BlockType::Empty),
            I::LocalGet(2),
            I::Return,
            I::End,
            I::LocalGet(3),
            I::I32Const(1023),
            I::I32Sub,
            I::LocalTee(4),
            I::I32Const(16),
            I::I32GeS,
            I::If(BlockType::Empty),
            I::LocalGet(2),
            I::I32Const(0x7c00),
            I::I32Or,
            I::Return,
            I::End,
            I::LocalGet(1),
            I::I64Const(0xf_ffff_ffff_ffff),
            I::I64And,
            I::I64Const(1 << 52),
            I::I64Or,
            I::LocalSet(5),
            // The shift that leaves 11 significant bits (fewer below the
            // normal range).
            I::I64Const(42),
            I::I32Const(28),
            I::LocalGet(4),
            I::I32Sub,
            I::I64ExtendI32S,
            I::LocalGet(4),
            I::I32Const(-14),
            I::I32GeS,
            I::Select,
            I::LocalTee(6),
            I::I64Const(64),
            I::I64GeS,
            I::If(BlockType::Empty),
            I::LocalGet(2),
            I::Return,
            I::End,
            I::LocalGet(5),
            I::LocalGet(6),
            I::I64ShrU,
            I::LocalSet(7),
            I::LocalGet(5),
            I::I64Const(1),
            I::LocalGet(6),
            I::I64Shl,
            I::I64Const(1),
            I::I64Sub,
            I::I64And,
            I::LocalSet(8),
            I::I64Const(1),
            I::LocalGet(6),
            I::I64Const(1),
            I::I64Sub,
            I::I64Shl,
            I::LocalSet(9),
            // Round up above halfway, and at halfway to even.
            I::LocalGet(8),
            I::LocalGet(9),
            I::I64GtU,
            I::LocalGet(8),
            I::LocalGet(9),
            I::I64Eq,
            I::LocalGet(7),
            I::I32WrapI64,
            I::I32Const(1),
            I::I32And,
            I::I32And,
            I::I32Or,
            I::I64ExtendI32U,
            I::LocalGet(7),
            I::I64Add,
            I::LocalSet(7),
            // A carry into bit 11 steps the exponent (to inf from 65504).
            I::LocalGet(2),
            I::LocalGet(4),
            I::I32Const(15),
            I::I32Add,
            I::I32Const(10),
            I::I32Shl,
            I::LocalGet(7),
            I::I32WrapI64,
            I::I32Const(1024),
            I::I32Sub,
            I::I32Add,
            I::LocalGet(7),
            I::I32WrapI64,
            I::LocalGet(4),
            I::I32Const(-14),
            I::I32GeS,
            I::Select,
            I::I32Or,
        ];
        (
            vec![ValType::F64],
            vec![ValType::I32],
            vec![
                ValType::I64,
                ValType::I32,
                ValType::I32,
                ValType::I32,
                ValType::I64,
                ValType::I64,
                ValType::I64,
                ValType::I64,
                ValType::I64,
            ],
            body,
        )
    })
}

impl FnW<'_, '_> {
    /// Converts the Float16 bits on the stack to `f64`, exactly.
    pub(super) fn f16_to_f64(&mut self) {
        let h = to_f32_helper(self.t);
        self.extend([I::Call(h), I::F64PromoteF32]);
    }

    /// Rounds the `f64` on the stack to Float16 bits.
    pub(super) fn f16_from_f64(&mut self) {
        let h = from_f64_helper(self.t);
        self.push(I::Call(h));
    }

    /// `neg` and `abs` of a Float16: the sign bit flipped or cleared.
    pub(super) fn unary_f16(&mut self, v: ValueId, op: Opcode, x: ValueId) -> R<()> {
        self.get(x);
        match op {
            Opcode::Neg => self.extend([I::I32Const(0x8000), I::I32Xor]),
            Opcode::Abs => self.extend([I::I32Const(0x7fff), I::I32And]),
            _ => return self.err(Some(v), format!("`{}` on {}", op.mnemonic(), DType::Float16)),
        }
        self.set(v);
        Ok(())
    }
}
