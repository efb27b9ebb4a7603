//! The call depth: a mutable global (exported as `postc_depth`) counts the
//! frames of the functions that recursion can reach
//! ([`crate::calls::depth_counted`]); a call that would make more than the
//! interpreter's [`postc_ir::interp::MAX_FRAMES`] frames panics `recursion
//! limit exceeded` at the call, as the other backends do. A panic leaves
//! the count where it was; the loader resets it after a call that throws.

use super::func::FnW;
use super::DEPTH;
use postc_ir::ValueId;
use wasm_encoder::{Instruction as I, ValType};

impl FnW<'_, '_> {
    /// Before a counted call: panics when the caller's frame is the last
    /// one allowed, else counts the callee's. Returns the local holding
    /// the depth to restore after the call.
    pub(super) fn enter_call(&mut self, v: ValueId) -> u32 {
        let d = self.local(ValType::I32);
        let limit = postc_ir::interp::MAX_FRAMES as i32 - 1;
        self.extend([I::GlobalGet(DEPTH), I::LocalTee(d), I::I32Const(limit), I::I32GeS]);
        self.guard(v, "recursion limit exceeded");
        self.extend([I::LocalGet(d), I::I32Const(1), I::I32Add, I::GlobalSet(DEPTH)]);
        d
    }

    /// After a counted call: the caller's depth again.
    pub(super) fn leave_call(&mut self, d: u32) {
        self.extend([I::LocalGet(d), I::GlobalSet(DEPTH)]);
    }
}
