//! `ufunc-entry`: NumPy's inner loop of an elementwise ufunc, written as
//! IR. For every exported host ufunc whose operands all have core shape
//! `()` and a numeric or Bool dtype, and whose body takes each input as a
//! scalar, the module gains a compiler-made function
//! `postc.loop.NAME(args, dimensions, steps, data)` (docs/abi.md,
//! "UFuncs"): it reads the outer length `dimensions[0]`, each
//! operand's base pointer `args[i]` and byte step `steps[i]`, and calls the
//! body once per index, loading each input element and storing the
//! returned one. When every step is the element's size (NumPy's usual,
//! contiguous call) the loop offsets by constant sizes, which an optimiser
//! vectorises; otherwise it offsets by the steps.
//!
//! What it does not do (yet): generalized ufuncs (operands with core
//! dimensions, passed to the body as views, with their scratch copies and
//! the checks of declared core strides and whole-element steps), device
//! ufuncs, and `NAME_dl`: the backends still write those. Codegen runs
//! this pass after the pipeline (`postc_codegen::prepare_with_ufunc_loops`),
//! and every backend compiles `postc.loop.NAME` under the symbol
//! `NAME_loop`.

use crate::analysis::AnalysisSet;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::diag::Diagnostic;
use postc_ir::{DType, FuncAttrs, Function, FunctionBuilder, Module, Opcode, TypeId, ValueId};
use std::collections::HashSet;

pub struct UFuncEntry;

pub static INFO: PassInfo = PassInfo {
    name: "ufunc-entry",
    description: "write the NumPy inner loop of each exported elementwise ufunc as a compiler-made function",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

/// The prefix of the inner loops this pass writes: `postc.loop.NAME`.
pub const LOOP_PREFIX: &str = "postc.loop.";

impl ModulePass for UFuncEntry {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, module: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        let mut made = Vec::new();
        let names: HashSet<&str> = module.functions.iter().map(|f| f.name.as_str()).collect();
        let listed: Option<HashSet<&str>> =
            module.export_all.as_ref().map(|all| all.iter().map(String::as_str).collect());
        for f in module.functions.iter() {
            let name = format!("{LOOP_PREFIX}{}", f.name);
            let exported = listed.as_ref().is_none_or(|l| l.contains(f.name.as_str()));
            if !exported || names.contains(name.as_str()) {
                continue;
            }
            if let Some(operands) = elementwise_operands(module, f) {
                made.push(inner_loop(name, f, &operands));
            }
        }
        let changed = !made.is_empty();
        for f in made {
            module.add_function(f);
        }
        Ok(changed)
    }
}

/// One operand of an elementwise ufunc: its element type and whether the
/// body returns it (else the body takes it as a scalar parameter).
struct Operand {
    ty: TypeId,
    dtype: DType,
    returned: bool,
}

/// The operands of `f`, inputs then outputs, when it is a host ufunc whose
/// operands all have core shape `()` and whose parameters are scalars of a
/// numeric or Bool dtype (text elements are `{ptr, len}` pairs that not
/// every backend reads from an array: their loops stay the backends').
fn elementwise_operands(m: &Module, f: &Function) -> Option<Vec<Operand>> {
    let sig = f.ufunc_sig.as_ref()?;
    if f.attrs.is_device() || sig.inputs.iter().chain(&sig.outputs).any(|core| !core.is_empty()) {
        return None;
    }
    let returns = sig.outputs.len() == 1 && f.ret.is_some();
    let nops = sig.num_operands();
    if f.body.num_core != 0 || f.body.num_params as usize != if returns { nops - 1 } else { nops } {
        return None;
    }
    let mut operands = Vec::with_capacity(nops);
    for p in f.params() {
        let ty = f.body.ty(p)?;
        let t = m.types.get(ty);
        if t.is_array || t.dtype.is_text() {
            return None;
        }
        operands.push(Operand { ty, dtype: t.dtype, returned: false });
    }
    if returns {
        let ty = f.ret?;
        let t = m.types.get(ty);
        if t.is_array || t.dtype.is_text() {
            return None;
        }
        operands.push(Operand { ty, dtype: t.dtype, returned: true });
    }
    Some(operands)
}

/// `postc.loop.NAME(args, dimensions, steps, data)` for the body `f`.
fn inner_loop(name: String, f: &Function, operands: &[Operand]) -> Function {
    let int = TypeId::INT64;
    let mut b = FunctionBuilder::new(name);
    b.set_attrs(FuncAttrs::COMPILER_MADE);
    b.set_func_loc(f.loc);
    b.set_loc(f.loc);
    let args = b.param("args", int);
    let dimensions = b.param("dimensions", int);
    let steps = b.param("steps", int);
    b.param("data", int);
    let entry = b.create_block("entry");
    let contiguous_head = b.create_block("contiguous");
    let strided_head = b.create_block("strided");
    let done = b.create_block("done");
    b.switch_to(entry);
    let n = b.raw_read(Opcode::RawWord, dimensions, 0, "n");
    let mut bases = Vec::with_capacity(operands.len());
    let mut step_of = Vec::with_capacity(operands.len());
    let mut sizes = Vec::with_capacity(operands.len());
    let mut unit = None;
    for (i, op) in operands.iter().enumerate() {
        bases.push(b.raw_read(Opcode::RawPtr, args, i as u32, &format!("base{i}")));
        let step = b.raw_read(Opcode::RawWord, steps, i as u32, &format!("step{i}"));
        step_of.push(step);
        let size = b.int(int, op.dtype.size_bytes() as i128, &format!("size{i}"));
        sizes.push(size);
        let same = b.binary(Opcode::Eq, TypeId::BOOL, step, size, &format!("unit{i}"));
        unit = Some(match unit {
            None => same,
            Some(all) => b.binary(Opcode::And, TypeId::BOOL, all, same, &format!("units{i}")),
        });
    }
    let zero = b.int(int, 0, "zero");
    let one = b.int(int, 1, "one");
    match unit {
        Some(all) => b.condbr(all, contiguous_head, strided_head, None),
        None => b.br(strided_head),
    };
    // The contiguous loop offsets by constant sizes, the strided one by the
    // steps: the same iteration over different offsets.
    for (label, head, offsets) in [("contiguous", contiguous_head, &sizes), ("strided", strided_head, &step_of)] {
        let test = b.create_block(&format!("{label}.test"));
        let body = b.create_block(&format!("{label}.body"));
        b.switch_to(head);
        let k = b.let_(int, zero, &format!("{label}.k"));
        b.br(test);
        b.switch_to(test);
        let more = b.binary(Opcode::Lt, TypeId::BOOL, k, n, &format!("{label}.more"));
        b.condbr(more, body, done, None);
        b.switch_to(body);
        iteration(&mut b, f, operands, &bases, offsets, k, label);
        let next = b.binary(Opcode::Add, int, k, one, &format!("{label}.next"));
        b.set(k, next);
        b.br(test);
    }
    b.switch_to(done);
    b.ret(None);
    b.finish()
}

/// One call of the body at index `k`: operand `i` is at `bases[i] + k *
/// offsets[i]` bytes.
fn iteration(
    b: &mut FunctionBuilder,
    f: &Function,
    operands: &[Operand],
    bases: &[ValueId],
    offsets: &[ValueId],
    k: ValueId,
    label: &str,
) {
    let mut at = Vec::with_capacity(operands.len());
    let mut inputs = Vec::with_capacity(operands.len());
    for (i, op) in operands.iter().enumerate() {
        let bytes = b.binary(Opcode::Mul, TypeId::INT64, k, offsets[i], &format!("{label}.off{i}"));
        let address = b.raw_offset(bases[i], bytes, &format!("{label}.at{i}"));
        at.push(address);
        if !op.returned {
            inputs.push(b.raw_load(op.ty, address, &format!("{label}.x{i}")));
        }
    }
    let result = b.call(&f.name, &inputs, f.ret, &format!("{label}.r"));
    if let Some(i) = operands.iter().position(|op| op.returned) {
        b.raw_store(at[i], result);
    }
}
