//! Float16 in software: a value is its IEEE binary16 bits in an `i32`
//! (zero-extended). `legalize` writes out its conversions (the backend
//! declares no `float16_conversions`: the IR's integer operations on the
//! bits, through `bitcast`) and its arithmetic (in Float32), so its sign
//! bit's `neg` and `abs` are all it lowers here.

use super::func::{FnW, R};
use postc_ir::{DType, Opcode, ValueId};
use wasm_encoder::Instruction as I;

impl FnW<'_, '_> {
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
