//! Complex numbers as pairs: a Complex64 is two `f32` locals, a
//! Complex128 two `f64` (real part first), passed as two parameters and
//! returned as two results; in memory the two parts are adjacent, as in
//! C and NumPy. Arithmetic, comparisons and casts are `legalize`'s: they
//! reach the backend as operations on the parts (`getfield`, `setfield`).

use super::func::{mem, FnW, R};
use postc_ir::{DType, Field, ValueId};
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
