//! A ufunc's `NAME_dl` in IL (docs/abi.md, "UFuncs"): it hands its operands
//! and the ufunc's descriptor to the runtime's broadcasting driver
//! `postc_rt_ufunc_dl`, which calls `NAME_loop`.

use super::{Sig, Translation};
use crate::ufunc_plan::Plan;
use postc_ir::diag::Diagnostic;
use std::fmt::Write as _;

/// `NAME_dl` for the ufunc `f`, whose body has the signature `sig`, and
/// its descriptor's data (`NAME_loop` is the compiler-made function
/// `ufunc-entry` wrote, compiled as any other).
pub(crate) fn entry_points(t: &mut Translation<'_>, plan: &Plan, sig: &Sig) -> Result<String, Diagnostic> {
    if !plan.loop_in_ir {
        return Err(crate::no_inner_loop(plan));
    }
    Ok(format!("# the entry points of ufunc {}\n{}", plan.name, dl_entry(t, plan, sig)))
}

/// `NAME_dl`: the operands in an array, handed with the ufunc's descriptor
/// to the runtime's broadcasting driver.
fn dl_entry(t: &mut Translation<'_>, plan: &Plan, sig: &Sig) -> String {
    let linkage = if sig.exported { "export " } else { "" };
    let lp = crate::abi::loop_symbol(&sig.name);
    let mut text = String::new();
    let desc = descriptor(t, plan, &sig.name);
    let params: Vec<String> = (0..plan.nops).map(|i| format!("l %op{i}")).collect();
    let _ = writeln!(
        text,
        "{linkage}function ${}({}) {{\n@start\n  %ops =l alloc8 {}",
        crate::abi::dl_symbol(&sig.name),
        params.join(", "),
        8 * plan.nops.max(1)
    );
    for i in 0..plan.nops {
        let _ = writeln!(text, "  %a{i} =l add %ops, {}\n  storel %op{i}, %a{i}", 8 * i);
    }
    let _ = writeln!(text, "  call ${}(l {desc}, l %ops, l ${lp})\n  ret\n}}\n", crate::abi::UFUNC_DL);
    text
}

/// The ufunc's descriptor for the broadcasting driver (the layout of
/// `postc_rt_ufunc_desc` in `runtime/include/postc_runtime.h`).
fn descriptor(t: &mut Translation<'_>, plan: &Plan, symbol: &str) -> String {
    let base = format!("$postc_qbe_ufunc_{}", super::ident(symbol));
    let mut ops = format!("data {base}_ops = align 8 {{");
    for i in 0..plan.nops {
        let (code, bits) = crate::abi::dlpack_dtype(plan.dtypes[i]);
        let core = &plan.core[i];
        let core_p = if core.is_empty() {
            "0".to_owned()
        } else {
            let name = format!("{base}_core{i}");
            let vals: Vec<String> = core.iter().map(|d| d.to_string()).collect();
            let _ = writeln!(t.data, "data {name} = align 8 {{ l {} }}", vals.join(" "));
            name
        };
        let sig_text = core.iter().map(|&d| plan.dims[d].0.as_str()).collect::<Vec<_>>().join(",");
        let dname = t.string(plan.dtypes[i].to_string().as_bytes());
        let sname = t.string(sig_text.as_bytes());
        let _ = write!(
            ops,
            " l {code} {bits} {} {} {}, l {core_p}, l {dname}, l {sname},",
            plan.dtypes[i].size_bytes(),
            core.len(),
            plan.core_step_base(i)
        );
    }
    ops.pop();
    ops.push_str(" }\n");
    t.data.push_str(&ops);
    let dims = if plan.dims.is_empty() {
        "0".to_owned()
    } else {
        let mut s = format!("data {base}_dims = align 8 {{");
        for (name, fixed) in &plan.dims {
            let n = t.string(name.as_bytes());
            let _ = write!(s, " l {} {}, l {n},", fixed.is_some() as u8, fixed.unwrap_or(0));
        }
        s.pop();
        s.push_str(" }\n");
        t.data.push_str(&s);
        format!("{base}_dims")
    };
    let name = t.string(plan.name.as_bytes());
    let at = t.string(plan.at.as_bytes());
    let maxcore = plan.core.iter().map(Vec::len).max().unwrap_or(0) as u64;
    let _ = writeln!(
        t.data,
        "data {base}_desc = align 8 {{ l {} {} {} {} {}, l {name}, l {at}, l {base}_ops, l {dims}, l 0 }}",
        plan.nin,
        plan.nops,
        plan.dims.len(),
        plan.num_steps(),
        crate::ufunc_plan::MAX_LOOP_DIMS + maxcore
    );
    format!("{base}_desc")
}
