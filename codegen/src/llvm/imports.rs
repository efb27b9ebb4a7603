//! Exported functions named like the C library functions compiled code calls.
//!
//! Compiled code calls the C library (`malloc`, `calloc`, `free`, `memcpy`,
//! `memcmp`, `abort`, `dprintf`, `write`) and libm (`hypot`, `atan2`, the
//! math of `import intrinsic`), and LLVM lowers instructions to calls of
//! more of them (`frem` to `fmod`, `llvm.pow` to `pow`, `llvm.memcpy` to
//! `memcpy`, ...) or introduces them while optimising. A program may export
//! a function under any of those names. In one object a name is one symbol,
//! so without care the runtime's own calls would reach the exported function
//! (a float `%` in an exported `fmod` would call itself forever), or the
//! module would not even parse (`abort` declared and defined).
//!
//! When the program exports such a name ([`is_c_function`]), a [`Shield`]
//! keeps the two apart in every codegen unit:
//!
//! 1. the lowering writes the exported function (or alias) under the
//!    placeholder `postc.export.NAME`, so the text declares the C
//!    function under its own name as usual;
//! 2. once the unit is complete ([`Shield::publish`]), the declaration of
//!    the C function is renamed `postc.c.NAME` and the placeholder takes the
//!    public name;
//! 3. intrinsics and `frem` that LLVM would lower to a call of a shadowed
//!    name call `postc.c.NAME` instead, and every function gets the
//!    attribute `no-builtin-NAME`, so that LLVM introduces no call of it;
//! 4. each `postc.c.NAME` is defined to call the C library's `NAME`, looked
//!    up on first use by the runtime's `postc_rt_libm_symbol` with `dlsym`
//!    on a handle of the C math library, which searches that library and
//!    the C library it depends on, never the program's own exports,
//!    whatever the order in which the process loaded them.
//!
//! After optimisation [`Shield::after_optimisation`] routes any intrinsic
//! that still lowers to a shadowed name the same way. A program without
//! such exports is lowered exactly as before.

use inkwell::builder::BuilderError;
use inkwell::module::{Linkage, Module as LlModule};
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{
    AnyValue, BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, InstructionOpcode, PointerValue,
};
use postc_ir::diag::{Diagnostic, Pos};
use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::abi::is_c_function;

/// What the lowering names an exported function or alias whose public name
/// is shadowed, until [`Shield::publish`] gives it that name.
pub const PLACEHOLDER: &str = "postc.export.";
/// What a unit calls a shadowed C function by.
pub const IMPORT: &str = "postc.c.";

/// The C functions a unit must reach past the program's exports that
/// shadow them (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Shield {
    /// Shadowed name → where the program defines it.
    names: BTreeMap<String, Option<Pos>>,
}

impl Shield {
    /// The shield for a program whose public symbols are `public` (name,
    /// location).
    pub fn new<'a>(public: impl IntoIterator<Item = (&'a str, Option<Pos>)>) -> Shield {
        let names = public.into_iter().filter(|(n, _)| is_c_function(n)).map(|(n, p)| (n.to_owned(), p)).collect();
        Shield { names }
    }

    /// Whether the program exports no C function name.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The shadowed names and where the program defines them.
    pub fn names(&self) -> impl Iterator<Item = (&str, Option<&Pos>)> {
        self.names.iter().map(|(n, p)| (n.as_str(), p.as_ref()))
    }

    /// Whether `name` is a shadowed C function.
    pub fn shadows(&self, name: &str) -> bool {
        self.names.contains_key(name)
    }

    /// The name the lowering writes the function or alias with public
    /// symbol `symbol` under.
    pub fn text_symbol<'a>(&self, symbol: &'a str) -> Cow<'a, str> {
        if self.shadows(symbol) {
            Cow::Owned(format!("{PLACEHOLDER}{symbol}"))
        } else {
            Cow::Borrowed(symbol)
        }
    }

    /// Whether the runtime can look the C functions up for `triple` (on
    /// Linux, where it opens the math library by its name there).
    fn supported(&self, triple: &str) -> Result<(), Vec<Diagnostic>> {
        if triple.contains("-linux") {
            return Ok(());
        }
        let (name, pos) = self.names.iter().next().map(|(n, p)| (n.as_str(), p.clone())).unwrap_or_default();
        Err(vec![Diagnostic::error(
            format!(
                "exported function `{name}` has the name of a C library function that compiled code calls; \
                 for target `{triple}` such a function must be exported under another name"
            ),
            pos,
        )])
    }

    /// Gives the shadowed names to the program's functions and routes the
    /// unit's calls of the C functions to `postc.c.NAME` (see the module
    /// docs); `module` is complete and not yet optimised.
    pub fn publish(&self, module: &LlModule<'_>, triple: &str) -> Result<(), Vec<Diagnostic>> {
        if self.is_empty() {
            return Ok(());
        }
        self.supported(triple)?;
        for name in self.names.keys() {
            if let Some(f) = module.get_function(name) {
                if f.count_basic_blocks() > 0 {
                    return Err(crate::internal(format!("`{name}` is defined under its own name")));
                }
                f.as_global_value().set_name(&format!("{IMPORT}{name}"));
            }
            let placeholder = format!("{PLACEHOLDER}{name}");
            if let Some(f) = module.get_function(&placeholder) {
                f.as_global_value().set_name(name);
            } else {
                rename_alias(module, &placeholder, name);
            }
        }
        self.route(module)?;
        let cx = module.get_context();
        for f in module.get_functions() {
            if f.count_basic_blocks() == 0 {
                continue;
            }
            for name in self.names.keys() {
                f.add_attribute(
                    inkwell::attributes::AttributeLoc::Function,
                    cx.create_string_attribute(&format!("no-builtin-{name}"), ""),
                );
            }
        }
        Ok(())
    }

    /// Routes what optimisation left lowering to a shadowed name (see the
    /// module docs).
    pub fn after_optimisation(&self, module: &LlModule<'_>, triple: &str) -> Result<(), Vec<Diagnostic>> {
        if self.is_empty() {
            return Ok(());
        }
        self.supported(triple)?;
        self.route(module)
    }

    /// Replaces instructions that lower to shadowed calls, then defines
    /// every declared `postc.c.NAME`.
    fn route(&self, module: &LlModule<'_>) -> Result<(), Vec<Diagnostic>> {
        self.replace_lowered_calls(module).map_err(crate::internal)?;
        define_imports(module).map_err(crate::internal)
    }

    /// `frem` and the intrinsics whose lowering calls a shadowed name become
    /// calls of `postc.c.NAME`.
    fn replace_lowered_calls(&self, module: &LlModule<'_>) -> Result<(), String> {
        let cx = module.get_context();
        let b = cx.create_builder();
        for f in module.get_functions() {
            for bb in f.get_basic_blocks() {
                let mut next = bb.get_first_instruction();
                while let Some(inst) = next {
                    next = inst.get_next_instruction();
                    let value = |k: u32| match inst.get_operand(k) {
                        Some(inkwell::values::Operand::Value(v)) => Ok(v),
                        _ => Err(format!("operand {k} of `{}`", inst.print_to_string())),
                    };
                    let lowered = match inst.get_opcode() {
                        InstructionOpcode::FRem => {
                            let ty = value(0)?.get_type();
                            Lowered::Math { name: if is_f64(ty) { "fmod".into() } else { "fmodf".into() }, nargs: 2 }
                        }
                        InstructionOpcode::Call => {
                            let n = inst.get_num_operands();
                            let Ok(BasicValueEnum::PointerValue(callee)) = value(n - 1) else { continue };
                            let name = callee.get_name().to_string_lossy().into_owned();
                            match lowering(&name) {
                                Some(l) => l,
                                None => continue,
                            }
                        }
                        _ => continue,
                    };
                    let (libcall, also): (&str, &[&str]) = match &lowered {
                        Lowered::Math { name, .. } if name == "sin" || name == "cos" => (name, &["sincos"]),
                        Lowered::Math { name, .. } if name == "sinf" || name == "cosf" => (name, &["sincosf"]),
                        Lowered::Math { name, .. } => (name, &[]),
                        Lowered::Vector(name) => (name, &[]),
                        Lowered::Mem(name) => (name, &[]),
                    };
                    if !self.shadows(libcall) && !also.iter().any(|a| self.shadows(a)) {
                        continue;
                    }
                    b.position_before(&inst);
                    let replacement = match lowered {
                        Lowered::Vector(name) => {
                            return Err(format!(
                                "a vector operation lowers to the C library's `{name}`, which an exported function shadows: `{}`",
                                inst.print_to_string()
                            ))
                        }
                        Lowered::Math { name, nargs } => {
                            let ty = value(0)?.get_type();
                            let half = !is_f64(ty) && !is_f32(ty);
                            let wide: BasicTypeEnum = if is_f64(ty) { cx.f64_type().into() } else { cx.f32_type().into() };
                            let mut args: Vec<BasicMetadataValueEnum> = Vec::new();
                            let mut params = Vec::new();
                            for k in 0..nargs {
                                let a = value(k)?;
                                if a.is_float_value() {
                                    let a = if half {
                                        b.build_float_ext(a.into_float_value(), cx.f32_type(), "").map_err(|e| e.to_string())?.into()
                                    } else {
                                        a
                                    };
                                    params.push(wide.into());
                                    args.push(a.into());
                                } else {
                                    params.push(a.get_type().into());
                                    args.push(a.into());
                                }
                            }
                            let fty = wide.fn_type(&params, false);
                            let callee = import(module, &name, fty);
                            let call = b.build_call(callee, &args, "").map_err(|e| e.to_string())?;
                            let r = call.try_as_basic_value().basic().ok_or("a math call without a result")?;
                            let r = if half {
                                b.build_float_trunc(r.into_float_value(), ty.into_float_type(), "")
                                    .map_err(|e| e.to_string())?
                                    .into()
                            } else {
                                r
                            };
                            r.as_instruction_value().ok_or("a math call that is not an instruction")?
                        }
                        Lowered::Mem(name) => {
                            let (ptr, i64t) = (cx.ptr_type(inkwell::AddressSpace::default()), cx.i64_type());
                            let len = value(2)?.into_int_value();
                            let len = b.build_int_z_extend_or_bit_cast(len, i64t, "").map_err(|e| e.to_string())?;
                            let (second, second_ty): (BasicMetadataValueEnum, inkwell::types::BasicMetadataTypeEnum) =
                                if name == "memset" {
                                    let v = b
                                        .build_int_z_extend(value(1)?.into_int_value(), cx.i32_type(), "")
                                        .map_err(|e| e.to_string())?;
                                    (v.into(), cx.i32_type().into())
                                } else {
                                    (value(1)?.into(), ptr.into())
                                };
                            let fty = ptr.fn_type(&[ptr.into(), second_ty, i64t.into()], false);
                            let callee = import(module, &name, fty);
                            let call =
                                b.build_call(callee, &[value(0)?.into(), second, len.into()], "").map_err(|e| e.to_string())?;
                            call.try_as_basic_value().basic().and_then(|v| v.as_instruction_value()).ok_or("a memory call")?
                        }
                    };
                    if !inst.get_type().is_void_type() {
                        inst.replace_all_uses_with(&replacement);
                    }
                    inst.erase_from_basic_block();
                }
            }
        }
        Ok(())
    }
}

/// What an instruction lowers to.
enum Lowered {
    /// A call of a scalar libm function of `nargs` arguments (the first
    /// one's type is the function's).
    Math { name: String, nargs: u32 },
    /// Calls of a libm function, one per vector element.
    Vector(String),
    /// `memcpy`, `memmove` or `memset` (operands: destination, source or
    /// byte, length).
    Mem(String),
}

/// The intrinsics that lower to a libm call of the same base name.
const MATH_INTRINSICS: &[(&str, u32)] = &[
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("asin", 1),
    ("acos", 1),
    ("atan", 1),
    ("atan2", 2),
    ("sinh", 1),
    ("cosh", 1),
    ("tanh", 1),
    ("exp", 1),
    ("exp2", 1),
    ("exp10", 1),
    ("log", 1),
    ("log2", 1),
    ("log10", 1),
    ("pow", 2),
    ("sqrt", 1),
    ("floor", 1),
    ("ceil", 1),
    ("trunc", 1),
    ("round", 1),
    ("roundeven", 1),
    ("rint", 1),
    ("nearbyint", 1),
    ("fma", 3),
    ("fabs", 1),
    ("copysign", 2),
    ("minnum", 2),
    ("maxnum", 2),
    ("ldexp", 2),
];

/// What a call of the function `name` lowers to, when it is an intrinsic
/// that may become a C library call.
fn lowering(name: &str) -> Option<Lowered> {
    let rest = name.strip_prefix("llvm.")?;
    for mem in ["memcpy", "memmove", "memset"] {
        if let Some(tail) = rest.strip_prefix(mem) {
            // `llvm.memcpy.inline` never becomes a call.
            return tail.starts_with(".p").then(|| Lowered::Mem(mem.to_owned()));
        }
    }
    let (base, ty) = rest.split_once('.')?;
    let &(_, nargs) = MATH_INTRINSICS.iter().find(|(b, _)| *b == base)?;
    let ty = ty.split('.').next()?;
    let libc_base = match base {
        "minnum" => "fmin",
        "maxnum" => "fmax",
        b => b,
    };
    let scalar = |t: &str| match t {
        "f64" => Some(libc_base.to_owned()),
        "f32" | "f16" => Some(format!("{libc_base}f")),
        _ => None,
    };
    if let Some(n) = scalar(ty) {
        return Some(Lowered::Math { name: n, nargs });
    }
    // `v4f64`, `nxv2f32`: one call per element.
    let elem = ty.trim_start_matches("nx").trim_start_matches('v').trim_start_matches(|c: char| c.is_ascii_digit());
    scalar(elem).map(Lowered::Vector)
}

fn is_f64(t: BasicTypeEnum<'_>) -> bool {
    t.is_float_type() && t.into_float_type() == t.into_float_type().get_context().f64_type()
}

fn is_f32(t: BasicTypeEnum<'_>) -> bool {
    t.is_float_type() && t.into_float_type() == t.into_float_type().get_context().f32_type()
}

/// The declaration of `postc.c.NAME`, made with `ty` when the module has
/// none.
fn import<'ctx>(module: &LlModule<'ctx>, name: &str, ty: inkwell::types::FunctionType<'ctx>) -> FunctionValue<'ctx> {
    let full = format!("{IMPORT}{name}");
    module.get_function(&full).unwrap_or_else(|| module.add_function(&full, ty, None))
}

/// Renames the global alias `from` (when there is one) to `to`.
fn rename_alias(module: &LlModule<'_>, from: &str, to: &str) {
    use inkwell::llvm_sys::core::{LLVMGetNamedGlobalAlias, LLVMSetValueName2};
    // SAFETY: the module reference is valid for the call, the name
    // pointers are valid for their lengths, and the alias (when found)
    // belongs to the module.
    unsafe {
        let a = LLVMGetNamedGlobalAlias(module.as_mut_ptr(), from.as_ptr().cast(), from.len());
        if !a.is_null() {
            LLVMSetValueName2(a, to.as_ptr().cast(), to.len());
        }
    }
}

/// Defines every declared `postc.c.NAME` (see the module docs): each calls
/// the function its slot holds, which the runtime's `postc_rt_libm_symbol`
/// fills on first use.
fn define_imports(module: &LlModule<'_>) -> Result<(), String> {
    let declared: Vec<(String, FunctionValue<'_>)> = module
        .get_functions()
        .filter(|f| f.count_basic_blocks() == 0)
        .filter_map(|f| {
            let full = f.get_name().to_string_lossy().into_owned();
            let name = full.strip_prefix(IMPORT)?.to_owned();
            Some((name, f))
        })
        .collect();
    if declared.is_empty() {
        return Ok(());
    }
    let ptr = module.get_context().ptr_type(inkwell::AddressSpace::default());
    let bind = module
        .get_function(crate::abi::LIBM_SYMBOL)
        .unwrap_or_else(|| module.add_function(crate::abi::LIBM_SYMBOL, ptr.fn_type(&[ptr.into()], false), None));
    for (name, f) in declared {
        trampoline(module, &name, f, bind).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// An internal constant holding `text` and a NUL.
fn internal_cstring<'c>(module: &LlModule<'c>, name: &str, text: &str) -> PointerValue<'c> {
    if let Some(g) = module.get_global(name) {
        return g.as_pointer_value();
    }
    let cx = module.get_context();
    let init = cx.const_string(text.as_bytes(), true);
    let g = module.add_global(init.get_type(), None, name);
    g.set_initializer(&init);
    g.set_linkage(Linkage::Internal);
    g.set_unnamed_addr(true);
    g.set_constant(true);
    g.as_pointer_value()
}

/// Adds the flag attributes `names` to `f`.
fn add_flags(f: FunctionValue<'_>, names: &[&str]) {
    let cx = f.get_type().get_context();
    for a in names {
        let kind = inkwell::attributes::Attribute::get_named_enum_kind_id(a);
        f.add_attribute(inkwell::attributes::AttributeLoc::Function, cx.create_enum_attribute(kind, 0));
    }
}

/// Defines the declaration `f` of `postc.c.NAME`: it calls the function its
/// slot holds, bound on first use; a variadic one forwards its arguments
/// as they are (`musttail`).
fn trampoline<'c>(
    module: &LlModule<'c>,
    name: &str,
    f: FunctionValue<'c>,
    bind: FunctionValue<'c>,
) -> Result<(), BuilderError> {
    let cx = module.get_context();
    let ptr = cx.ptr_type(inkwell::AddressSpace::default());
    let slot = module.add_global(ptr, None, &format!("{IMPORT}{name}.slot"));
    slot.set_initializer(&ptr.const_null());
    slot.set_linkage(Linkage::Internal);
    let cname = internal_cstring(module, &format!("{IMPORT}{name}.name"), name);
    f.set_linkage(Linkage::Internal);
    add_flags(f, &["nounwind"]);
    let b = cx.create_builder();
    let (entry, bind_bb, call_bb) =
        (cx.append_basic_block(f, "entry"), cx.append_basic_block(f, "bind"), cx.append_basic_block(f, "call"));
    b.position_at_end(entry);
    let p0 = b.build_load(ptr, slot.as_pointer_value(), "p0")?.into_pointer_value();
    if let Some(i) = p0.as_instruction_value() {
        let _ = i.set_atomic_ordering(inkwell::AtomicOrdering::Unordered);
        let _ = i.set_alignment(8);
    }
    let unbound = b.build_is_null(p0, "")?;
    b.build_conditional_branch(unbound, bind_bb, call_bb)?;
    b.position_at_end(bind_bb);
    let p1 = b.build_call(bind, &[cname.into()], "p1")?;
    let p1 = p1.try_as_basic_value().basic().map(|v| v.into_pointer_value()).unwrap_or_else(|| ptr.const_null());
    let st = b.build_store(slot.as_pointer_value(), p1)?;
    let _ = st.set_atomic_ordering(inkwell::AtomicOrdering::Unordered);
    let _ = st.set_alignment(8);
    b.build_unconditional_branch(call_bb)?;
    b.position_at_end(call_bb);
    let p = b.build_phi(ptr, "p")?;
    p.add_incoming(&[(&p0, entry), (&p1, bind_bb)]);
    let args: Vec<BasicMetadataValueEnum> = f.get_param_iter().map(Into::into).collect();
    let call = b.build_indirect_call(f.get_type(), p.as_basic_value().into_pointer_value(), &args, "")?;
    // A variadic call is forwarded with its arguments as they are.
    call.set_tail_call_kind(if f.get_type().is_var_arg() {
        inkwell::llvm_sys::LLVMTailCallKind::LLVMTailCallKindMustTail
    } else {
        inkwell::llvm_sys::LLVMTailCallKind::LLVMTailCallKindTail
    });
    match call.try_as_basic_value().basic() {
        Some(r) => b.build_return(Some(&r))?,
        None => b.build_return(None)?,
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_intrinsics_lower_to() {
        let name = |n: &str| match lowering(n) {
            Some(Lowered::Math { name, nargs }) => format!("{name}/{nargs}"),
            Some(Lowered::Vector(name)) => format!("vector {name}"),
            Some(Lowered::Mem(name)) => format!("mem {name}"),
            None => "-".into(),
        };
        assert_eq!(name("llvm.pow.f64"), "pow/2");
        assert_eq!(name("llvm.pow.f32"), "powf/2");
        assert_eq!(name("llvm.sin.f16"), "sinf/1");
        assert_eq!(name("llvm.minnum.f64"), "fmin/2");
        assert_eq!(name("llvm.ldexp.f64.i32"), "ldexp/2");
        assert_eq!(name("llvm.exp.v4f64"), "vector exp");
        assert_eq!(name("llvm.memcpy.p0.p0.i64"), "mem memcpy");
        assert_eq!(name("llvm.memcpy.inline.p0.p0.i64"), "-");
        assert_eq!(name("llvm.umul.with.overflow.i64"), "-");
        assert_eq!(name("llvm.fptosi.sat.i64.f64"), "-");
        assert_eq!(name("pow"), "-");
    }
}
