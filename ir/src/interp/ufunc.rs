//! Generalized-ufunc calls: NumPy's broadcasting over the loop dimensions,
//! one call of the body per loop index.

use super::ops::{unsupported, unsupported_fault, R};
use super::value::Value;
use super::{to_trap, Array, Interpreter, Trap};
use crate::dtype::DType;
use crate::module::ModuleId;
use crate::ufunc::UFuncSignature;

/// Loop shape of each operand and the sizes of the named core dimensions.
struct Plan {
    loop_shapes: Vec<Vec<usize>>,
    core_sizes: Vec<(String, usize)>,
    shape: Vec<usize>,
}

fn operand_list(sig: &UFuncSignature, i: usize) -> String {
    format!("({})", sig.operand(i).unwrap_or(&[]).join(","))
}

fn plan(sig: &UFuncSignature, operands: &[Value], nin: usize) -> R<Plan> {
    let mut core_sizes: Vec<(String, usize)> = Vec::new();
    let mut loop_shapes = Vec::new();
    for (i, op) in operands.iter().enumerate() {
        let core = sig.operand(i).unwrap_or(&[]);
        let shape: &[usize] = match op {
            Value::Array(a) => &a.shape,
            _ => &[],
        };
        if shape.len() < core.len() {
            return unsupported(format!(
                "operand {i} has {} dimensions but its core signature {} needs {}",
                shape.len(),
                operand_list(sig, i),
                core.len()
            ));
        }
        let (lp, cs) = shape.split_at(shape.len() - core.len());
        for (name, &n) in core.iter().zip(cs) {
            if let Ok(fixed) = name.parse::<usize>() {
                if fixed != n {
                    return unsupported(format!(
                        "operand {i} has size {n} for core dimension {fixed} of {}",
                        operand_list(sig, i)
                    ));
                }
                continue;
            }
            match core_sizes.iter().find(|(d, _)| d == name) {
                Some((_, m)) if *m != n => {
                    return unsupported(format!(
                        "core dimension `{name}` has size {m} in an earlier operand but {n} in operand {i}"
                    ))
                }
                Some(_) => {}
                None => core_sizes.push((name.clone(), n)),
            }
        }
        loop_shapes.push(lp.to_vec());
    }
    for name in sig.core_dims() {
        if !core_sizes.iter().any(|(d, _)| d == name) {
            return unsupported(format!("core dimension `{name}` is not fixed by any operand"));
        }
    }
    // Broadcast the loop dimensions, right-aligned (outputs take part, as
    // in NumPy, but must then have the broadcast shape exactly).
    let ndim = loop_shapes.iter().map(Vec::len).max().unwrap_or(0);
    let mut shape = vec![1usize; ndim];
    for (i, lp) in loop_shapes.iter().enumerate() {
        for (j, &n) in lp.iter().enumerate() {
            let ax = ndim - lp.len() + j;
            if shape[ax] == 1 {
                shape[ax] = n;
            } else if n != 1 && n != shape[ax] {
                return unsupported(format!(
                    "operands could not be broadcast together: operand {i} has loop shape {lp:?}, expected {} on axis {ax} of {shape:?}",
                    shape[ax]
                ));
            }
        }
    }
    for (i, lp) in loop_shapes.iter().enumerate().skip(nin) {
        if lp != &shape {
            return unsupported(format!(
                "output operand {i} has loop shape {lp:?}, which does not match the broadcast shape {shape:?}"
            ));
        }
    }
    Ok(Plan { loop_shapes, core_sizes, shape })
}

/// The argument for operand `op` at loop index `idx`.
fn operand_arg(op: &Value, lp: &[usize], idx: &[usize], param_is_array: bool) -> R<Value> {
    match op {
        Value::Array(a) => {
            let k = lp.len();
            let mut off = a.offset as i128;
            for j in 0..k {
                let i = if lp[j] == 1 { 0 } else { idx[idx.len() - k + j] };
                off += i as i128 * a.strides[j] as i128;
            }
            if off < 0 {
                return unsupported("array view starts before its buffer");
            }
            let view = a.view(a.shape[k..].to_vec(), a.strides[k..].to_vec(), off as usize);
            if param_is_array {
                Ok(Value::Array(view))
            } else if view.byte_pos(&[]).is_some() {
                Ok(view.get(&[]))
            } else {
                unsupported("array element lies outside its buffer")
            }
        }
        v if param_is_array => {
            let a = Array::zeros(v.dtype(), &[], false);
            if v.dtype().is_text() {
                return unsupported(format!("a {} scalar cannot be passed as an array", v.dtype()));
            }
            a.set(&[], v);
            Ok(Value::Array(a))
        }
        v => Ok(v.clone()),
    }
}

impl<'p> Interpreter<'p> {
    /// Calls the ufunc `func` of `module` NumPy-style: core dimensions are
    /// the trailing axes of each operand, the leading (loop) dimensions of
    /// the inputs broadcast, and the body runs once per loop index with
    /// views (scalars for core shape `()`) and the core-dimension sizes.
    ///
    /// When the signature has exactly one output, of core shape `()`, and
    /// the function returns it, `operands` are the inputs and the result is
    /// a fresh array of the broadcast shape (a scalar when every operand is
    /// a scalar). Otherwise `operands` include the outputs, written in
    /// place, and the result is `None`.
    pub fn call_ufunc(&mut self, module: ModuleId, func: &str, operands: &[Value]) -> Result<Option<Value>, Trap> {
        self.reset_fuel();
        self.ufunc(module, func, operands)
    }

    fn ufunc(&mut self, mid: ModuleId, func: &str, operands: &[Value]) -> Result<Option<Value>, Trap> {
        let err = |f| to_trap(f, None);
        let m = self.module(mid).map_err(err)?;
        let Some(fid) = m.get_function(func) else {
            return Err(err(unsupported_fault(format!("no function `{func}` in module `{}`", m.name))));
        };
        let f = &m.functions[fid];
        let Some(sig) = f.ufunc_sig.as_ref() else {
            return Err(err(unsupported_fault(format!("`{func}` is not a ufunc"))));
        };
        let (nin, nout) = (sig.inputs.len(), sig.outputs.len());
        let returns = nout == 1 && sig.outputs[0].is_empty() && f.ret.is_some();
        let expected = if returns { nin } else { nin + nout };
        let check = || -> R<()> {
            if operands.len() != expected {
                return unsupported(format!(
                    "ufunc `{func}` \"{sig}\" takes {expected} operands{}, got {}",
                    if returns { " (its output is returned)" } else { " (inputs, then outputs)" },
                    operands.len()
                ));
            }
            if f.body.num_params as usize != expected {
                return unsupported(format!(
                    "ufunc `{func}` has {} parameters but its signature \"{sig}\" has {expected} operands",
                    f.body.num_params
                ));
            }
            if f.body.num_core as usize != sig.core_dims().len() {
                return unsupported(format!(
                    "ufunc `{func}` has {} core parameters but its signature \"{sig}\" names {} core dimensions",
                    f.body.num_core,
                    sig.core_dims().len()
                ));
            }
            Ok(())
        };
        check().map_err(err)?;
        let plan = plan(sig, operands, nin).map_err(err)?;
        let param_is_array: Vec<bool> =
            f.body.params().map(|p| f.body.ty(p).map(|t| m.types.get(t).is_array).unwrap_or(false)).collect();
        let core_args: Vec<Value> = sig
            .core_dims()
            .iter()
            .map(|d| {
                let n = plan.core_sizes.iter().find(|(c, _)| c == d).map(|(_, n)| *n).unwrap_or(0);
                Value::Int(DType::Int64, n as i128)
            })
            .collect();
        let all_scalar = operands.iter().all(|o| !o.is_array());
        let out = if returns && !all_scalar {
            let rd = m.types.dtype(f.ret.expect("returns"));
            if rd.is_text() {
                return Err(err(unsupported_fault(format!("ufunc `{func}` returns {rd}"))));
            }
            Some(Array::zeros(rd, &plan.shape, false))
        } else {
            None
        };
        let total: usize = plan.shape.iter().product();
        let mut idx = vec![0usize; plan.shape.len()];
        let mut scalar_result = None;
        for _ in 0..total {
            let mut args = Vec::with_capacity(operands.len() + core_args.len());
            for (i, op) in operands.iter().enumerate() {
                args.push(operand_arg(op, &plan.loop_shapes[i], &idx, param_is_array[i]).map_err(err)?);
            }
            args.extend(core_args.iter().cloned());
            let r = self.exec(mid, fid, args)?;
            if returns {
                let Some(r) = r else {
                    return Err(err(unsupported_fault(format!("ufunc `{func}` returned no value"))));
                };
                match &out {
                    Some(out) => {
                        if r.dtype() != out.dtype || r.is_array() {
                            return Err(err(unsupported_fault(format!(
                                "ufunc `{func}` returned a {} value for a {} output",
                                r.dtype(),
                                out.dtype
                            ))));
                        }
                        out.set(&idx, &r)
                    }
                    None => scalar_result = Some(r),
                }
            }
            for ax in (0..idx.len()).rev() {
                idx[ax] += 1;
                if idx[ax] < plan.shape[ax] {
                    break;
                }
                idx[ax] = 0;
            }
        }
        Ok(match out {
            Some(a) => Some(Value::Array(a)),
            None => scalar_result,
        })
    }
}
