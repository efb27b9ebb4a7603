//! Constant evaluation with the interpreter's exact semantics, for the
//! `const-fold` pass: folding and running can never disagree. An operation
//! that would trap is not folded (a panic is never folded away).

use super::ops;
use super::value::Value;
use crate::body::{f64_to_float_bits, ConstValue, Literal};
use crate::builtins::{self, OvfOp};
use crate::dtype::DType;
use crate::opcode::Opcode;

/// The value of a literal of `dtype`.
pub fn literal_value(dtype: DType, lit: Literal<'_>) -> Option<Value> {
    ops::literal(dtype, lit).ok()
}

/// A scalar value as a literal of its dtype (`None` for arrays).
pub fn value_literal(v: &Value) -> Option<ConstValue> {
    Some(match v {
        Value::Bool(b) => ConstValue::Bool(*b),
        Value::Int(_, i) => ConstValue::Int(*i),
        Value::Float(d, x) => ConstValue::Float(f64_to_float_bits(*d, *x)),
        Value::Complex(d, re, im) => {
            let part = d.complex_part()?;
            ConstValue::Complex(f64_to_float_bits(part, *re), f64_to_float_bits(part, *im))
        }
        Value::Str(s) => ConstValue::Str(s.clone()),
        Value::Bytes(b) => ConstValue::Bytes(b.clone()),
        Value::Array(_) => return None,
    })
}

/// `a op b` with result dtype `rd`, unless it traps.
pub fn fold_binary(op: Opcode, rd: DType, a: &Value, b: &Value, overflow_checks: bool) -> Option<Value> {
    ops::binary(op, rd, a, b, overflow_checks).ok()
}

/// `op a` with result dtype `rd`, unless it traps.
pub fn fold_unary(op: Opcode, rd: DType, a: &Value, overflow_checks: bool) -> Option<Value> {
    ops::unary(op, rd, a, overflow_checks).ok()
}

/// `(to) a`.
pub fn fold_cast(to: DType, a: &Value) -> Option<Value> {
    ops::cast(to, a).ok()
}

/// A `postc.ovf.*` built-in on constant integers.
pub fn fold_overflow(op: OvfOp, args: &[Value]) -> Option<Value> {
    let int = |v: &Value| match v {
        Value::Int(_, i) => Some(*i),
        _ => None,
    };
    let a = int(args.first()?)?;
    let b = match args.get(1) {
        Some(x) => int(x)?,
        None => 0,
    };
    Some(Value::Bool(builtins::overflows(op, args[0].dtype(), a, b)))
}
