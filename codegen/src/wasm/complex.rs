//! Complex numbers as pairs: a Complex64 is two `f32` locals, a
//! Complex128 two `f64` (real part first), passed as two parameters and
//! returned as two results; in memory the two parts are adjacent, as in
//! C and NumPy. Sums, differences and comparisons run in the part's type.
//! (Products, magnitudes, quotients and powers are `legalize`'s by now.)

use super::func::{mem, FnW, R};
use postc_ir::{DType, Field, Opcode, ValueId};
use wasm_encoder::{Instruction as I, ValType};

impl FnW<'_, '_> {
    /// The part dtype of complex `d`.
    fn part(d: DType) -> DType {
        d.complex_part().unwrap_or(d)
    }

    pub(super) fn complex_const(&mut self, d: DType, re: u64, im: u64) {
        if d == DType::Complex64 {
            self.extend([I::F32Const(f32::from_bits(re as u32).into()), I::F32Const(f32::from_bits(im as u32).into())]);
        } else {
            self.extend([I::F64Const(f64::from_bits(re).into()), I::F64Const(f64::from_bits(im).into())]);
        }
    }

    /// Loads the complex element at the address on the stack into `v`.
    pub(super) fn complex_load(&mut self, v: ValueId, d: DType) -> R<()> {
        let at = self.local(ValType::I32);
        let l = self.value_local[&v];
        let (load, size) = if d == DType::Complex64 { (I::F32Load(mem(0)), 4) } else { (I::F64Load(mem(0)), 8) };
        let load_im = if d == DType::Complex64 { I::F32Load(mem(size)) } else { I::F64Load(mem(size)) };
        self.extend([I::LocalTee(at), load, I::LocalSet(l), I::LocalGet(at), load_im, I::LocalSet(l + 1)]);
        Ok(())
    }

    /// Stores complex `value` at the address on the stack.
    pub(super) fn complex_store(&mut self, value: ValueId, d: DType) -> R<()> {
        let at = self.local(ValType::I32);
        let l = self.value_local[&value];
        let (store, store_im) = if d == DType::Complex64 {
            (I::F32Store(mem(0)), I::F32Store(mem(4)))
        } else {
            (I::F64Store(mem(0)), I::F64Store(mem(8)))
        };
        self.extend([I::LocalTee(at), I::LocalGet(l), store, I::LocalGet(at), I::LocalGet(l + 1), store_im]);
        Ok(())
    }

    /// Converts the value of dtype `from` on the stack to `to`, one of
    /// them complex.
    pub(super) fn convert_complex(&mut self, v: ValueId, from: DType, to: DType) -> R<()> {
        if from.is_text() || to.is_text() {
            return self.err(Some(v), format!("a cast from {from} to {to}"));
        }
        if from.is_complex() {
            let p = Self::part(from);
            let im = self.local(super::val_type(p).expect("a real part"));
            self.push(I::LocalSet(im));
            if to.is_complex() {
                let q = Self::part(to);
                self.convert(v, p, q)?;
                self.push(I::LocalGet(im));
                return self.convert(v, p, q);
            }
            if to == DType::Bool {
                let (zero, ne) = if p == DType::Float32 {
                    (I::F32Const(0.0f32.into()), I::F32Ne)
                } else {
                    (I::F64Const(0.0f64.into()), I::F64Ne)
                };
                self.extend([zero.clone(), ne.clone(), I::LocalGet(im), zero, ne, I::I32Or]);
                return Ok(());
            }
            return self.convert(v, p, to);
        }
        let q = Self::part(to);
        self.convert(v, from, q)?;
        self.push(if q == DType::Float32 { I::F32Const(0.0f32.into()) } else { I::F64Const(0.0f64.into()) });
        Ok(())
    }

    pub(super) fn binary_complex(&mut self, v: ValueId, op: Opcode, l: ValueId, r: ValueId) -> R<()> {
        let d = self.dt(l);
        let small = d == DType::Complex64;
        let (a, b) = (self.value_local[&l], self.value_local[&r]);
        match op {
            Opcode::Add | Opcode::Sub => {
                let o = match (op, small) {
                    (Opcode::Add, true) => I::F32Add,
                    (Opcode::Add, false) => I::F64Add,
                    (_, true) => I::F32Sub,
                    (_, false) => I::F64Sub,
                };
                self.extend([I::LocalGet(a), I::LocalGet(b), o.clone(), I::LocalGet(a + 1), I::LocalGet(b + 1), o]);
                self.set(v);
            }
            Opcode::Eq | Opcode::Ne => {
                let eq = if small { I::F32Eq } else { I::F64Eq };
                self.extend([I::LocalGet(a), I::LocalGet(b), eq.clone(), I::LocalGet(a + 1), I::LocalGet(b + 1), eq]);
                self.push(I::I32And);
                if op == Opcode::Ne {
                    self.push(I::I32Eqz);
                }
                self.set(v);
            }
            // `mul`, `div` and `pow` are `legalize`'s by now.
            _ => return self.err(Some(v), crate::backend::written_out(&format!("{} on {d}", op.mnemonic()))),
        }
        Ok(())
    }

    pub(super) fn unary_complex(&mut self, v: ValueId, op: Opcode, x: ValueId) -> R<()> {
        let d = self.dt(x);
        let a = self.value_local[&x];
        match op {
            Opcode::Neg => {
                let neg = if d == DType::Complex64 { I::F32Neg } else { I::F64Neg };
                self.extend([I::LocalGet(a), neg.clone(), I::LocalGet(a + 1), neg]);
            }
            Opcode::Abs => return self.err(Some(v), crate::backend::written_out(&format!("abs on {d}"))),
            _ => return self.err(Some(v), format!("`{}` on {d}", op.mnemonic())),
        }
        self.set(v);
        Ok(())
    }

    pub(super) fn get_field(&mut self, v: ValueId, aggregate: ValueId, field: Field) -> R<()> {
        let d = self.dt(aggregate);
        let a = self.value_local[&aggregate];
        match field {
            Field::Real | Field::Imag if d.is_complex() => {
                self.push(I::LocalGet(a + u32::from(field == Field::Imag)));
                let p = Self::part(d);
                self.convert(v, p, self.dt(v))?;
            }
            Field::Len if d == DType::Str => {
                return self.err(Some(v), crate::backend::written_out("getfield len on Str"))
            }
            // The byte count, the text's second local.
            Field::Len | Field::NBytes if d.is_text() => self.extend([I::LocalGet(a + 1), I::I64ExtendI32U]),
            _ => return self.err(Some(v), format!("no field `{}` on {d}", field.name())),
        }
        self.set(v);
        Ok(())
    }

    pub(super) fn set_field(&mut self, v: ValueId, aggregate: ValueId, field: Field, value: ValueId) -> R<()> {
        let d = self.dt(aggregate);
        let a = self.value_local[&aggregate];
        match field {
            Field::Real | Field::Imag if d.is_complex() => {
                self.get(value);
                self.convert(v, self.dt(value), Self::part(d))?;
                self.push(I::LocalSet(a + u32::from(field == Field::Imag)));
            }
            _ => return self.err(Some(v), format!("`setfield` of `{}` on {d}", field.name())),
        }
        Ok(())
    }
}
