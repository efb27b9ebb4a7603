//! A ufunc's NumPy-facing entry points in IL (docs/abi.md, "UFuncs"), as
//! the LLVM backend writes them (`crate::ufunc` describes both):
//! `NAME_loop`, NumPy's generalized-ufunc inner loop, which calls the body
//! once per index of the outer loop (array operands as `DLTensor` views of
//! their core axes, through a compact scratch copy when their steps differ
//! from the strides the body's parameter type fixes), and `NAME_dl`, which
//! hands its operands and the ufunc's descriptor to the runtime's
//! broadcasting driver `postc_rt_ufunc_dl`.

use super::func::{load_op, store_op};
use super::{Sig, Translation, STR_TYPE};
use crate::abi::dltensor;
use crate::ufunc_plan::Plan;
use postc_ir::{DType, Function, Layout, Module, TypeData};
use std::fmt::Write as _;

/// How the body receives one operand.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Scalar,
    View,
    Returned,
}

struct LoopGen<'a> {
    plan: &'a Plan,
    out: String,
    start: String,
    tmp: u32,
}

impl LoopGen<'_> {
    fn fresh(&mut self) -> u32 {
        self.tmp += 1;
        self.tmp
    }

    fn def(&mut self, c: char, rhs: impl AsRef<str>) -> String {
        let n = format!("%t{}", self.fresh());
        let _ = writeln!(self.out, "  {n} ={c} {}", rhs.as_ref());
        n
    }

    fn line(&mut self, s: impl AsRef<str>) {
        let _ = writeln!(self.out, "  {}", s.as_ref());
    }

    fn label(&mut self, l: &str) {
        let _ = writeln!(self.out, "@{l}");
    }

    /// Panics `ufunc NAME: what` when the `w` value `bad` is not zero.
    fn fail_if(&mut self, t: &mut Translation<'_>, bad: &str, what: &str) {
        let msg = format!("panic: ufunc {}: {}{}", self.plan.name, what, self.plan.at);
        let s = t.string(msg.as_bytes());
        let fmt = t.string(b"%s");
        let n = self.fresh();
        self.line(format!("jnz {bad}, @fail{n}, @ok{n}"));
        self.label(&format!("fail{n}"));
        self.line(format!("call $postc_rt_panic(l {fmt}, ..., l {s})"));
        self.line("hlt");
        self.label(&format!("ok{n}"));
    }

    fn select(&mut self, cond: &str, a: &str, b: &str) -> String {
        let n = self.fresh();
        let r = format!("%t{n}");
        self.line(format!("{r} =l copy {b}"));
        self.line(format!("jnz {cond}, @st{n}, @sj{n}"));
        self.label(&format!("st{n}"));
        self.line(format!("{r} =l copy {a}"));
        self.label(&format!("sj{n}"));
        r
    }

    /// When `copy` holds, copies the core block of sizes `sizes` from `src`
    /// to `dst` with the given byte strides, element by element.
    fn copy_if(&mut self, copy: &str, src: &str, dst: &str, sizes: &[String], sb: &[String], db: &[String], size: u32) {
        let n = self.fresh();
        self.line(format!("jnz {copy}, @copy{n}, @copied{n}"));
        self.label(&format!("copy{n}"));
        self.nest(0, src.to_owned(), dst.to_owned(), sizes, sb, db, size);
        self.label(&format!("copied{n}"));
    }

    #[allow(clippy::too_many_arguments)]
    fn nest(&mut self, a: usize, s: String, d: String, sizes: &[String], sb: &[String], db: &[String], size: u32) {
        if a == sizes.len() {
            self.line(format!("blit {s}, {d}, {size}"));
            return;
        }
        let n = self.fresh();
        let k = format!("%k{n}");
        self.line(format!("{k} =l copy 0"));
        self.label(&format!("head{n}"));
        let more = self.def('w', format!("csltl {k}, {}", sizes[a]));
        self.line(format!("jnz {more}, @body{n}, @exit{n}"));
        self.label(&format!("body{n}"));
        let so = self.def('l', format!("mul {k}, {}", sb[a]));
        let s2 = self.def('l', format!("add {s}, {so}"));
        let dof = self.def('l', format!("mul {k}, {}", db[a]));
        let d2 = self.def('l', format!("add {d}, {dof}"));
        self.nest(a + 1, s2, d2, sizes, sb, db, size);
        self.line(format!("{k} =l add {k}, 1"));
        self.line(format!("jmp @head{n}"));
        self.label(&format!("exit{n}"));
    }
}

/// A compact view operand's state in `NAME_loop`.
struct View {
    tensor: String,
    copy: String,
    scratch: String,
    sizes: Vec<String>,
    src_bytes: Vec<String>,
    scratch_bytes: Vec<String>,
    output: bool,
}

/// The IL of `NAME_loop` (unless `ufunc-entry` wrote it as IR) and
/// `NAME_dl` for the ufunc `f` of `m`, whose body has the signature `sig`,
/// and its descriptor's data.
pub(crate) fn entry_points(t: &mut Translation<'_>, m: &Module, f: &Function, plan: &Plan, sig: &Sig) -> String {
    let mut text = format!("# the entry points of ufunc {}\n", plan.name);
    if !plan.loop_in_ir {
        text.push_str(&inner_loop(t, m, f, plan, sig));
    }
    text.push_str(&dl_entry(t, plan, sig));
    text
}

/// `NAME_loop`: NumPy's inner loop over the outer dimension.
fn inner_loop(t: &mut Translation<'_>, m: &Module, f: &Function, plan: &Plan, sig: &Sig) -> String {
    let mut pass = Vec::new();
    let mut types: Vec<Option<TypeData>> = Vec::new();
    for p in f.params() {
        let td = f.body.ty(p).map(|ty| m.types.get(ty).clone());
        let is_array = td.as_ref().is_some_and(|t| t.is_array);
        pass.push(if is_array { Pass::View } else { Pass::Scalar });
        types.push(td.filter(|t| t.is_array));
    }
    if pass.len() < plan.nops {
        pass.push(Pass::Returned);
        types.push(None);
    }
    let mut g = LoopGen { plan, out: String::new(), start: String::new(), tmp: 0 };
    let n = g.def('l', "loadl %dims");
    let mut sizes = Vec::new();
    for d in 0..plan.dims.len() {
        let a = g.def('l', format!("add %dims, {}", 8 * (1 + d)));
        sizes.push(g.def('l', format!("loadl {a}")));
    }
    let mut bases = Vec::new();
    let mut outer = Vec::new();
    for i in 0..plan.nops {
        let a = g.def('l', format!("add %args, {}", 8 * i));
        bases.push(g.def('l', format!("loadl {a}")));
        let s = g.def('l', format!("add %steps, {}", 8 * i));
        outer.push(g.def('l', format!("loadl {s}")));
    }
    let mut views: Vec<Option<View>> = (0..plan.nops).map(|_| None).collect();
    for i in 0..plan.nops {
        if pass[i] != Pass::View {
            continue;
        }
        let td = types[i].clone().expect("a view's type");
        let nd = plan.core[i].len();
        let size = plan.dtypes[i].size_bytes();
        let (tensor, shape, strides) = (format!("%view{i}"), format!("%shape{i}"), format!("%strides{i}"));
        let _ = writeln!(g.start, "  {tensor} =l alloc8 {}", dltensor::SIZE);
        let _ = writeln!(g.start, "  {shape} =l alloc8 {}", 8 * nd.max(1));
        let _ = writeln!(g.start, "  {strides} =l alloc8 {}", 8 * nd.max(1));
        let core_sizes: Vec<String> = plan.core[i].iter().map(|&d| sizes[d].clone()).collect();
        let fixed: Vec<(usize, i64)> =
            plan.fixed_core_strides(i).into_iter().chain(plan.declared_core_strides(i)).collect();
        let mut copy = "0".to_owned();
        let mut bytes = Vec::new();
        for a in 0..nd {
            let sa = g.def('l', format!("add {shape}, {}", 8 * a));
            g.line(format!("storel {}, {sa}", core_sizes[a]));
            let stp = g.def('l', format!("add %steps, {}", 8 * (plan.core_step_base(i) + a)));
            let st = g.def('l', format!("loadl {stp}"));
            if let Some((_, fx)) = fixed.iter().find(|(ax, _)| *ax == a) {
                let ne = g.def('w', format!("cnel {st}, {fx}"));
                copy = g.def('w', format!("or {copy}, {ne}"));
            }
            bytes.push(st);
        }
        let mut compact = vec!["1".to_owned(); nd];
        if td.layout == Layout::FOrder {
            for a in 1..nd {
                compact[a] = g.def('l', format!("mul {}, {}", compact[a - 1], core_sizes[a - 1]));
            }
        } else {
            for a in (0..nd.saturating_sub(1)).rev() {
                compact[a] = g.def('l', format!("mul {}, {}", compact[a + 1], core_sizes[a + 1]));
            }
        }
        if matches!(td.layout, Layout::Strides(_)) {
            g.fail_if(t, &copy, &format!("operand {i} does not have the strides its parameter type declares"));
            copy = "0".to_owned();
        }
        for a in 0..nd {
            let el = if size > 1 {
                let rem = g.def('l', format!("rem {}, {size}", bytes[a]));
                let bad = g.def('w', format!("cnel {rem}, 0"));
                let not_copied = g.def('w', format!("xor {copy}, 1"));
                let bad = g.def('w', format!("and {bad}, {not_copied}"));
                g.fail_if(t, &bad, &format!("a core stride of operand {i} is not a multiple of its element size"));
                g.def('l', format!("div {}, {size}", bytes[a]))
            } else {
                bytes[a].clone()
            };
            let el = g.select(&copy, &compact[a], &el);
            let sa = g.def('l', format!("add {strides}, {}", 8 * a));
            g.line(format!("storel {el}, {sa}"));
        }
        let mut count = "1".to_owned();
        for s in &core_sizes {
            count = g.def('l', format!("mul {count}, {s}"));
        }
        let nbytes = g.def('l', format!("mul {count}, {size}"));
        let scratch = format!("%scratch{i}");
        let k = g.fresh();
        g.line(format!("{scratch} =l copy 0"));
        g.line(format!("jnz {copy}, @alloc{k}, @allocated{k}"));
        g.label(&format!("alloc{k}"));
        t.libc_call("malloc");
        t.libc_call("free");
        g.line(format!("{scratch} =l call $malloc(l {nbytes})"));
        g.label(&format!("allocated{k}"));
        let compact_bytes: Vec<String> = compact.iter().map(|c| g.def('l', format!("mul {c}, {size}"))).collect();
        // The constant fields of the view (all but `data`).
        let (code, bits) = crate::abi::dlpack_dtype(plan.dtypes[i]);
        let at = |g: &mut LoopGen, off: u64| g.def('l', format!("add {tensor}, {off}"));
        let p = at(&mut g, dltensor::DEVICE);
        g.line(format!("storew 1, {p}"));
        let p = at(&mut g, dltensor::DEVICE + 4);
        g.line(format!("storew 0, {p}"));
        let p = at(&mut g, dltensor::NDIM);
        g.line(format!("storew {nd}, {p}"));
        let p = at(&mut g, dltensor::DTYPE);
        g.line(format!("storeb {code}, {p}"));
        let p = at(&mut g, dltensor::DTYPE + 1);
        g.line(format!("storeb {bits}, {p}"));
        let p = at(&mut g, dltensor::DTYPE + 2);
        g.line(format!("storeh 1, {p}"));
        let p = at(&mut g, dltensor::SHAPE);
        g.line(format!("storel {shape}, {p}"));
        let p = at(&mut g, dltensor::STRIDES);
        g.line(format!("storel {strides}, {p}"));
        let p = at(&mut g, dltensor::BYTE_OFFSET);
        g.line(format!("storel 0, {p}"));
        views[i] = Some(View {
            tensor,
            copy,
            scratch,
            sizes: core_sizes,
            src_bytes: bytes,
            scratch_bytes: compact_bytes,
            output: td.is_output,
        });
    }
    let core_args: Vec<String> = plan.core_params.iter().map(|&d| sizes[d].clone()).collect();
    // The loop over the outer dimension.
    g.line("%k =l copy 0");
    g.label("head");
    let more = g.def('w', "csltl %k, ".to_owned() + &n);
    g.line(format!("jnz {more}, @body, @exit"));
    g.label("body");
    let mut elem = Vec::new();
    for i in 0..plan.nops {
        let off = g.def('l', format!("mul %k, {}", outer[i]));
        elem.push(g.def('l', format!("add {}, {off}", bases[i])));
    }
    let mut call = Vec::new();
    let mut pi = 0usize;
    let mut out_elem = None;
    for i in 0..plan.nops {
        let d = plan.dtypes[i];
        match pass[i] {
            Pass::View => {
                let v = views[i].as_ref().expect("a view");
                let (copy, scratch, tensor) = (v.copy.clone(), v.scratch.clone(), v.tensor.clone());
                let (sz, sb, db) = (v.sizes.clone(), v.src_bytes.clone(), v.scratch_bytes.clone());
                g.copy_if(&copy, &elem[i], &scratch, &sz, &sb, &db, d.size_bytes());
                let data = g.select(&copy, &scratch, &elem[i]);
                g.line(format!("storel {data}, {tensor}"));
                call.push(format!("l {tensor}"));
            }
            Pass::Scalar => {
                let ty = sig.params[pi].clone();
                if d.is_complex() || d.is_text() {
                    // By address (a text element is its `{ptr, len}` aggregate).
                    call.push(format!("{ty} {}", elem[i]));
                } else {
                    let (c, op) = load_op(d);
                    let x = g.def(c, format!("{op} {}", elem[i]));
                    let x = match d {
                        DType::Bool => g.def('w', format!("cnew {x}, 0")),
                        DType::Float16 => g.def('s', format!("cast {x}")),
                        _ => x,
                    };
                    call.push(format!("{ty} {x}"));
                }
            }
            Pass::Returned => {
                out_elem = Some(i);
                continue;
            }
        }
        pi += 1;
    }
    for c in &core_args {
        call.push(format!("l {c}"));
    }
    let body = format!("call ${}", sig.name);
    match (out_elem, &sig.ret) {
        (Some(i), _) if sig.complex_out.is_some() => {
            call.push(format!("l {}", elem[i]));
            g.line(format!("{body}({})", call.join(", ")));
        }
        (Some(i), Some(rt)) if rt == STR_TYPE => {
            let r = format!("%t{}", g.fresh());
            g.line(format!("{r} ={STR_TYPE} {body}({})", call.join(", ")));
            g.line(format!("blit {r}, {}, 16", elem[i]));
        }
        (Some(i), Some(rt)) => {
            let d = plan.dtypes[i];
            let c = super::func::ret_class(rt).chars().next().unwrap_or('l');
            let r = g.def(c, format!("{body}({})", call.join(", ")));
            let r = if d == DType::Float16 { g.def('w', format!("cast {r}")) } else { r };
            g.line(format!("{} {r}, {}", store_op(d), elem[i]));
        }
        _ => g.line(format!("{body}({})", call.join(", "))),
    }
    for i in 0..plan.nops {
        if let Some(v) = views[i].as_ref().filter(|v| v.output) {
            let (copy, scratch) = (v.copy.clone(), v.scratch.clone());
            let (sz, sb, db) = (v.sizes.clone(), v.scratch_bytes.clone(), v.src_bytes.clone());
            g.copy_if(&copy, &scratch, &elem[i], &sz, &sb, &db, plan.dtypes[i].size_bytes());
        }
    }
    g.line("%k =l add %k, 1");
    g.line("jmp @head");
    g.label("exit");
    for v in views.iter().flatten() {
        let k = g.fresh();
        let (copy, scratch) = (v.copy.clone(), v.scratch.clone());
        g.line(format!("jnz {copy}, @free{k}, @freed{k}"));
        g.label(&format!("free{k}"));
        g.line(format!("call $free(l {scratch})"));
        g.label(&format!("freed{k}"));
    }
    g.line("ret");

    let linkage = if sig.exported { "export " } else { "" };
    let lp = crate::abi::loop_symbol(&sig.name);
    let mut text = format!("{linkage}function ${lp}(l %args, l %dims, l %steps, l %data) {{\n@start\n");
    text.push_str(&g.start);
    text.push_str("  jmp @entry\n@entry\n");
    text.push_str(&g.out);
    text.push_str("}\n\n");
    text
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
