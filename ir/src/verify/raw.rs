//! The rules of raw addresses (see the `raw` column of the opcode table):
//! the `raw` opcodes appear only in compiler-made functions, and there an
//! address (a parameter, a `raw.ptr`, `raw.offset`, `raw.data`, `raw.field`
//! or `raw.slot` result) is used only where an address is expected, the
//! first operand of a `raw` opcode other than `raw.data` (whose operand is
//! an array), the value `raw.setptr` stores and the arguments of a call of
//! a compiler-made function, and nothing else is used there. An address is an `Int64` in the tables but a
//! pointer in compiled code, so mixing the two would not compile.

use super::*;
use crate::body::{operand_places, OperandAt};

/// Whether `v` holds an address in a compiler-made function.
fn is_address(body: &Body, v: ValueId) -> bool {
    body.tags[v].makes_address()
}

impl<'p> Verifier<'p> {
    pub(super) fn check_raw(&mut self, x: Fx<'p>) {
        let body = x.body;
        let compiler_made = x.f.attrs.contains(FuncAttrs::COMPILER_MADE);
        if compiler_made {
            if body.num_core > 0 || x.f.ufunc_sig.is_some() {
                self.func_err(x, format!("compiler-made function `{}` cannot be a ufunc", x.f.name));
            }
            for p in body.all_params() {
                if body.ty(p) != Some(TypeId::INT64) {
                    let msg = format!(
                        "{} of compiler-made function `{}` must be Int64: every parameter is an address",
                        Self::vname(x, p),
                        x.f.name
                    );
                    self.inst_err(x, p, msg);
                }
            }
        }
        for i in x.np..x.n {
            if self.full() {
                return;
            }
            let v = ValueId::new(i);
            let op = body.tags[v];
            if op.is_raw() && !compiler_made {
                let msg = format!(
                    "`{}` is allowed only in functions the compiler makes (`compiler`): it works on raw \
                     addresses; `{}` is not one",
                    op.mnemonic(),
                    x.f.name
                );
                self.inst_err(x, v, msg);
                continue;
            }
            if !compiler_made {
                continue;
            }
            let ops = body.ops[v];
            // A compiler-made callee takes addresses, as its parameters are.
            let to_compiler_made = match body.inst(v) {
                crate::InstData::Call { callee, .. } => self
                    .funcs
                    .get(callee)
                    .zip(self.m)
                    .is_some_and(|(&id, m)| m.functions[id].attrs.contains(FuncAttrs::COMPILER_MADE)),
                _ => false,
            };
            let mut bad = None;
            operand_places(
                op,
                ops,
                &body.extra,
                |at| {
                    let raw = at.read(ops, &body.extra);
                    if raw as usize >= x.n || bad.is_some() {
                        return;
                    }
                    let used = ValueId::from_u32(raw);
                    let wants_address = op.is_raw()
                        && match at {
                            OperandAt::A => op != Opcode::RawData,
                            OperandAt::B => op.stores_address(),
                            _ => false,
                        }
                        || to_compiler_made;
                    if wants_address != is_address(body, used) {
                        bad = Some((used, wants_address));
                    }
                },
                |_| {},
            );
            if let Some((used, wants_address)) = bad {
                let msg = if wants_address {
                    format!(
                        "{}: {} is not an address (a parameter, a `raw.ptr`, `raw.offset`, `raw.data`, `raw.field` or `raw.slot`)",
                        Self::desc(x, v),
                        Self::vname(x, used)
                    )
                } else {
                    format!(
                        "{}: {} is an address, usable only as the address of a `raw` instruction",
                        Self::desc(x, v),
                        Self::vname(x, used)
                    )
                };
                self.inst_err(x, v, msg);
            }
        }
    }
}
