//! The C backend: a prepared program (see [`crate::prepare`]) as one
//! portable C11 file, and a header with the prototypes of what it exports
//! (using `include/postc.h`), compiled into objects by the system C
//! compiler (`CC`, else `cc`).
//!
//! Every IR function becomes one C function and every instruction one
//! statement, the values named after the IR's (`%acc` is `v_acc`, a block
//! `loop` is the label `L_loop`); the output depends on the program only.
//! The IR's semantics (docs/ir-text.md) are written out so that no input
//! reaches undefined behaviour in C: integers wrap through unsigned
//! arithmetic, the overflow tests are `__builtin_*_overflow`, shifts past
//! the width, division by zero and `MIN // -1` never reach the C operator
//! (`legalize`), a float→int conversion sees only values in range (its
//! saturation written out by `legalize`), array elements are read and written
//! with `memcpy`. Panics call the runtime's `postc_rt_panic` with the
//! message the LLVM backend prints, and `#line` directives name the
//! `.pir`/`.py` line of each located statement.

mod func;
pub mod helpers;

use crate::symbols::{Conventions, DeviceFunctions, SymbolPlan};
use crate::{CodegenOptions, EmitKind};
use postc_ir::diag::Diagnostic;
use postc_ir::{DType, FuncAttrs, FuncId, Function, Module, ModuleId, Program};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

/// `include/postc.h`, which the generated C includes.
pub const POSTC_H: &str = include_str!("../../../include/postc.h");
const PRELUDE: &str = include_str!("prelude.h");

/// The C backend.
pub struct C;

/// What this backend lowers natively; `legalize` writes out the rest
/// (docs/backends.md). C has no saturating conversion: `legalize` clamps, and a cast converts only values in range.
/// Float16 arithmetic is `float` arithmetic rounded to `postc_f16` in one expression, which gcc compiles to native
/// half instructions where the target has them (AVX512-FP16); written out over separate `float` temporaries it
/// took 1.7x the time (docs/performance.md). That needs a C compiler with `_Float16`; for one without
/// ([`has_float16`]) the backend declares [`FEATURES_WITHOUT_FLOAT16`].
/// A complex product is the helper `postc_cmul`, which GCC's vectoriser is kept out of (`POSTC_EXACT`).
pub const FEATURES: crate::Features = crate::Features {
    saturating_casts: false,
    float16_arithmetic: true,
    float16_conversions: true,
    complex_products: true,
    overflow_tests: true,
};

/// What this backend lowers natively for a C compiler without `_Float16`: a Float16 is its bits in a
/// `uint16_t`, and `legalize` writes its arithmetic and conversions out (`postc.f16.widen`/`narrow`).
pub const FEATURES_WITHOUT_FLOAT16: crate::Features =
    crate::Features { saturating_casts: false, complex_products: true, overflow_tests: true, ..crate::Features::NONE };

/// The features for the C compiler `compiler` with the flags of `options`.
pub fn features_for(compiler: &[String], options: &CodegenOptions) -> crate::Features {
    if has_float16(compiler, options) {
        FEATURES
    } else {
        FEATURES_WITHOUT_FLOAT16
    }
}

/// Whether `compiler`, with the flags of `options`, has `_Float16`
/// (`__FLT16_MAX__`; defining `POSTC_NO_FLOAT16` in `CC` says it has not).
/// Asked once per command.
pub fn has_float16(compiler: &[String], options: &CodegenOptions) -> bool {
    type Known = Vec<(Vec<String>, bool)>;
    static KNOWN: std::sync::Mutex<Known> = std::sync::Mutex::new(Vec::new());
    let mut key = compiler.to_vec();
    key.extend(c_flags(options, compiler));
    let Ok(mut known) = KNOWN.lock() else { return false };
    if let Some((_, yes)) = known.iter().find(|(k, _)| *k == key) {
        return *yes;
    }
    let probe = "#if !defined(__FLT16_MAX__) || defined(POSTC_NO_FLOAT16)\n#error no _Float16\n#endif\n";
    let yes = key.split_first().is_some_and(|(cmd, args)| {
        let child = std::process::Command::new(cmd)
            .args(args)
            .args(["-fsyntax-only", "-x", "c", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        child.is_ok_and(|mut c| {
            use std::io::Write;
            let written = c.stdin.take().is_some_and(|mut i| i.write_all(probe.as_bytes()).is_ok());
            c.wait().is_ok_and(|s| s.success()) && written
        })
    });
    known.push((key, yes));
    yes
}

impl crate::backend::Backend for C {
    fn name(&self) -> &'static str {
        "c"
    }
    fn features(&self) -> crate::Features {
        features_for(&c_compiler(), &CodegenOptions::default())
    }
    fn emit_kinds(&self) -> &'static [EmitKind] {
        &[EmitKind::C, EmitKind::CHeader, EmitKind::Object]
    }
    fn emit(&self, program: &Program, options: &CodegenOptions, kind: EmitKind) -> Result<Vec<u8>, Vec<Diagnostic>> {
        let llvm = "the LLVM backend (`--backend llvm`)";
        crate::backend::refuse_options(options, "the C backend", "the host only", |_| false, llvm)?;
        let out = source(program, options, &c_compiler())?;
        match kind {
            EmitKind::C => Ok(out.source.into_bytes()),
            EmitKind::CHeader => Ok(out.header.into_bytes()),
            _ => compile_object(&out.source, &out.no_builtin, options),
        }
    }
}

/// A translated program.
pub struct Output {
    /// The `.c` file.
    pub source: String,
    /// The `.h` file: the prototypes of the exported functions.
    pub header: String,
    /// Exported names that compilers know as C library functions (see
    /// [`shadows_builtin`]): the compile takes `-fno-builtin-NAME` for each.
    pub no_builtin: Vec<String>,
}

/// Whether `compiler` is gcc (not clang, which also calls itself `cc` and
/// defines `__GNUC__`): its `--version` names the Free Software
/// Foundation. Asked once per command.
fn is_gcc(compiler: &[String]) -> bool {
    static KNOWN: std::sync::Mutex<Vec<(Vec<String>, bool)>> = std::sync::Mutex::new(Vec::new());
    let Ok(mut known) = KNOWN.lock() else { return false };
    if let Some((_, gcc)) = known.iter().find(|(c, _)| c == compiler) {
        return *gcc;
    }
    let gcc = compiler.split_first().is_some_and(|(cmd, args)| {
        std::process::Command::new(cmd).args(args).arg("--version").output().is_ok_and(|o| {
            let text = String::from_utf8_lossy(&o.stdout);
            o.status.success() && text.contains("Free Software Foundation") && !text.contains("clang")
        })
    });
    known.push((compiler.to_vec(), gcc));
    gcc
}

/// The C compiler: `CC` (a command, possibly with arguments), else `cc`.
pub fn c_compiler() -> Vec<String> {
    let cc = std::env::var("CC").ok().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| "cc".to_owned());
    cc.split_whitespace().map(str::to_owned).collect()
}

/// The flags every compile of generated C by `compiler` takes: IEEE
/// arithmetic as the IR says (no contraction into fused multiply-adds),
/// position-independent. gcc's vectoriser at -O2 adds no run-time check
/// that two arrays do not overlap (its "very cheap" cost model), so a loop
/// such as saxpy's, whose arrays may alias, stays scalar: from -O2 gcc gets
/// the "cheap" model, which adds that check as clang's does. With
/// [`CodegenOptions::fast_math`] the compiler may contract and reassociate;
/// C compilers allow reassociation only without signed zeros and traps.
/// With debug information (`-g`) the compiler writes DWARF whose lines are
/// the `.py`/`.pir` lines the `#line` directives name, relative to the
/// compiler's working directory (the driver's).
pub fn c_flags(options: &CodegenOptions, compiler: &[String]) -> Vec<String> {
    let mut f = vec!["-std=c11".to_owned(), format!("-O{}", options.opt.as_u8()), "-fPIC".to_owned()];
    if options.fast_math {
        f.extend(
            ["-ffp-contract=fast", "-fassociative-math", "-fno-signed-zeros", "-fno-trapping-math"].map(str::to_owned),
        );
    } else {
        f.push("-ffp-contract=off".to_owned());
    }
    f.push("-fno-math-errno".to_owned());
    if options.debug {
        f.push("-g".to_owned());
    }
    if options.opt.as_u8() == 2 && is_gcc(compiler) {
        f.push("-fvect-cost-model=cheap".to_owned());
    }
    match &options.cpu {
        Some(cpu) => f.push(format!("-march={cpu}")),
        None => f.push("-march=native".to_owned()),
    }
    f
}

/// Writes the headers the generated C includes, `postc.h` and
/// `postc_runtime.h`, into `dir`.
pub fn write_headers(dir: &Path) -> std::io::Result<()> {
    std::fs::write(dir.join("postc.h"), POSTC_H)?;
    std::fs::write(dir.join(postc_runtime::HEADER_NAME), postc_runtime::HEADER)
}

fn compile_error(msg: String) -> Vec<Diagnostic> {
    vec![Diagnostic::error(msg, None)]
}

/// Compiles C source text into an object with the C compiler (the runtime
/// library is linked by [`crate::link`], or by whoever links the object).
pub fn compile_object(
    source: &str,
    no_builtin: &[String],
    options: &CodegenOptions,
) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().map_err(|e| crate::internal(format!("temporary directory: {e}")))?;
    write_headers(dir.path()).map_err(|e| crate::internal(format!("writing the headers: {e}")))?;
    let c = dir.path().join("program.c");
    let o = dir.path().join("program.o");
    std::fs::write(&c, source).map_err(|e| crate::internal(format!("writing {}: {e}", c.display())))?;
    let cc = c_compiler();
    let mut cmd = std::process::Command::new(&cc[0]);
    cmd.args(&cc[1..]).args(c_flags(options, &cc)).args(no_builtin.iter().map(|n| format!("-fno-builtin-{n}")));
    cmd.arg("-I").arg(dir.path()).arg("-c").arg(&c).arg("-o").arg(&o);
    match cmd.output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            return Err(compile_error(format!(
                "`{}` failed compiling the generated C:\n{}",
                cc.join(" "),
                String::from_utf8_lossy(&out.stderr).trim_end()
            )))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(compile_error(format!(
                "no C compiler found: the c backend compiles with `{}`, which is not on the PATH \
                 (install gcc or clang, or set CC)",
                cc[0]
            )))
        }
        Err(e) => return Err(compile_error(format!("cannot run the C compiler `{}`: {e}", cc.join(" ")))),
    }
    std::fs::read(&o).map_err(|e| crate::internal(format!("reading {}: {e}", o.display())))
}

/// How a function appears in C.
#[derive(Clone, Debug)]
pub(crate) struct CSig {
    /// The C name (the symbol of an exported function).
    pub name: String,
    pub exported: bool,
    /// The return type (`void` for none or a complex result).
    pub ret: String,
    /// Parameter declarations without names, the complex out-pointer last.
    pub params: Vec<String>,
    pub complex_out: Option<DType>,
    pub array_ret: bool,
    /// A tuple result: the C type each element is written as (`double`,
    /// `DLManagedTensor *`), through one trailing pointer each.
    pub tuple_out: Vec<String>,
}

impl CSig {
    fn prototype(&self, names: Option<&[String]>) -> String {
        let ps: Vec<String> = match names {
            Some(n) => self.params.iter().zip(n).map(|(t, n)| decl(t, n)).collect(),
            None => self.params.clone(),
        };
        let ps = if ps.is_empty() { "void".to_owned() } else { ps.join(", ") };
        format!("{} {}({ps})", self.ret, self.name)
    }
}

/// `T name` (with pointer types written `T *name`).
pub(crate) fn decl(t: &str, name: &str) -> String {
    if t.ends_with('*') {
        format!("{t}{name}")
    } else {
        format!("{t} {name}")
    }
}

pub(crate) use crate::symbols::c_ident as ident;

const C_KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "bool",
    "true",
    "false",
    "asm",
    "typeof",
    "alignas",
    "alignof",
    "static_assert",
    "thread_local",
    "nullptr",
    "constexpr",
];

/// Why an exported name cannot be a symbol of generated C, if it cannot.
fn unexportable(name: &str) -> Option<String> {
    let b = name.as_bytes();
    let valid = !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    if !valid {
        return Some("it is not a C identifier".into());
    }
    if C_KEYWORDS.contains(&name) || name.starts_with('_') {
        return Some("it is a C keyword or reserved identifier".into());
    }
    if name.starts_with("postc_") || name.starts_with("DL") || name.starts_with("kDL") {
        return Some("names starting `postc_`, `DL` or `kDL` belong to postc.h and the runtime".into());
    }
    let libc = crate::abi::is_c_function(name) && crate::calls::intrinsic_base(name).is_none();
    if libc || crate::abi::reserved(name) || C_HEADER_NAMES.contains(&name) {
        return Some("the generated C and the runtime call the C library function of that name".into());
    }
    None
}

/// Whether an exported name is also a C library function that compilers
/// know (libm's, `<complex.h>`'s): the C compiler must not treat the
/// program's function as that one (`-fno-builtin-NAME`).
pub fn shadows_builtin(name: &str) -> bool {
    crate::calls::intrinsic_base(name).is_some() || COMPLEX_H.contains(&name.trim_end_matches(['f', 'l']))
}

const COMPLEX_H: &[&str] = &[
    "cabs", "cacos", "cacosh", "carg", "casin", "casinh", "catan", "catanh", "ccos", "ccosh", "cexp", "clog", "conj",
    "cpow", "cproj", "csin", "csinh", "csqrt", "ctan", "ctanh",
];

/// Names the standard headers of the generated C declare beyond the C
/// library functions [`crate::abi::is_c_function`] knows.
const C_HEADER_NAMES: &[&str] = &[
    "memcpy",
    "memmove",
    "memset",
    "memcmp",
    "memchr",
    "strlen",
    "strcmp",
    "strncmp",
    "strcpy",
    "strncpy",
    "strcat",
    "strncat",
    "strchr",
    "strrchr",
    "strstr",
    "strtok",
    "strerror",
    "strspn",
    "strcspn",
    "strpbrk",
    "strcoll",
    "strxfrm",
    "offsetof",
    "size_t",
    "ptrdiff_t",
    "NULL",
    "creal",
    "cimag",
    "crealf",
    "cimagf",
];

/// The C type of a value of an IR type.
pub(crate) fn value_cty(t: &postc_ir::TypeData) -> &'static str {
    if t.is_array {
        "DLTensor *"
    } else {
        helpers::cty(t.dtype)
    }
}

fn signature(m: &Module, f: &Function, name: String, exported: bool) -> CSig {
    let mut params = Vec::new();
    if f.attrs.contains(FuncAttrs::COMPILER_MADE) {
        // The compiler-made functions are ufuncs' entry points, whose
        // parameters are the header's: NumPy's (`NAME_loop`) or tensors
        // (`NAME_dl`).
        let numpy = ["char **", "const intptr_t *", "const intptr_t *", "void *"];
        if f.name.starts_with(postc_passes::ufunc_dl::DL_PREFIX) {
            params.extend((0..f.body.num_params).map(|_| "DLTensor *".to_owned()));
        } else {
            params.extend(numpy.iter().take(f.body.num_params as usize).map(|t| t.to_string()));
        }
        let (complex_out, array_ret, tuple_out) = (None, false, Vec::new());
        return CSig { name, exported, ret: "void".into(), params, complex_out, array_ret, tuple_out };
    }
    for p in f.body.all_params() {
        match f.body.ty(p).map(|t| m.types.get(t)) {
            Some(t) if t.is_array => params.push("DLTensor *".to_owned()),
            Some(t) if t.dtype.is_complex() => params.push(format!("const {} *", helpers::cty(t.dtype))),
            Some(t) => params.push(helpers::cty(t.dtype).to_owned()),
            None => params.push("int64_t".to_owned()),
        }
    }
    let (mut ret, mut complex_out, mut array_ret, mut tuple_out) = ("void".to_owned(), None, false, Vec::new());
    if let Some(t) = f.ret.map(|t| m.types.get(t)) {
        if t.is_tuple() {
            tuple_out = t.elements.iter().map(tuple_element_cty).collect();
            params.extend(tuple_out.iter().map(|c| format!("{c} *")));
        } else if t.is_array {
            ret = "DLManagedTensor *".into();
            array_ret = true;
        } else if t.dtype.is_complex() {
            complex_out = Some(t.dtype);
            params.push(format!("{} *", helpers::cty(t.dtype)));
        } else {
            ret = helpers::cty(t.dtype).into();
        }
    }
    CSig { name, exported, ret, params, complex_out, array_ret, tuple_out }
}

/// The C type an element of a tuple result is written as: a returned
/// array is a `DLManagedTensor *` (docs/abi.md §2).
pub(crate) fn tuple_element_cty(t: &postc_ir::TypeData) -> String {
    if t.is_array {
        "DLManagedTensor *".to_owned()
    } else {
        helpers::cty(t.dtype).to_owned()
    }
}

pub(crate) use crate::calls::Target;

/// The program-wide state of a translation.
pub(crate) struct Translation<'p> {
    pub program: &'p Program,
    pub index: crate::calls::Index<'p>,
    pub sigs: HashMap<(ModuleId, FuncId), CSig>,
    /// Helpers by name (the order of the file).
    pub helpers: BTreeMap<String, String>,
    /// libm functions called, with their arity.
    pub libm: BTreeMap<String, usize>,
    /// Prototypes of external functions (`import intrinsic` of other
    /// symbols), by name.
    pub externs: BTreeMap<String, String>,
    pub uses_f16: bool,
    pub uses_complex: bool,
}

impl<'p> Translation<'p> {
    pub fn helper(&mut self, h: helpers::Helper) -> String {
        for l in h.libm {
            self.libm.insert((*l).to_owned(), libm_arity(l));
        }
        let name = h.name.clone();
        self.helpers.entry(h.name).or_insert(h.text);
        name
    }

    pub fn resolve(&self, mid: ModuleId, callee: &'p str) -> Option<Target<'p>> {
        crate::calls::resolve(self.program, &self.index, mid, callee)
    }
}

pub(crate) fn libm_arity(name: &str) -> usize {
    let base = crate::calls::intrinsic_base(name).map(|(b, _)| b).unwrap_or(name);
    match base {
        "fma" => 3,
        "atan2" | "pow" | "fmod" | "hypot" | "copysign" | "fmin" | "fmax" | "fdim" => 2,
        _ => 1,
    }
}

/// How the C backend names and refuses functions (see [`crate::symbols`]).
const CONVENTIONS: Conventions = Conventions {
    private_symbol,
    cannot_export,
    device: DeviceFunctions::FallbackHostBody { refusal: "the C backend cannot compile" },
};

/// A private function's symbol: `postc_<module>_P<function>`.
fn private_symbol(module: &str, function: &str) -> String {
    format!("postc_{}_P{}", ident(module), ident(function))
}

fn cannot_export(name: &str) -> Option<String> {
    unexportable(name).map(|why| cannot_export_because(name, &why))
}

fn cannot_export_because(name: &str, why: &str) -> String {
    format!("the C backend cannot export `{name}`: {why} (the LLVM backend can)")
}

/// The C of `program` for the C compiler `compiler` (a command and its
/// arguments, as [`c_compiler`] gives it): prepared with the features it
/// allows, then translated.
pub fn source(program: &Program, options: &CodegenOptions, compiler: &[String]) -> Result<Output, Vec<Diagnostic>> {
    let features = features_for(compiler, options);
    let prepared = crate::prepare_with_ufunc_loops(program, options, true, features)?;
    translate(&prepared, features.float16_conversions)
}

/// Translates a prepared program, for a C compiler with `_Float16` when
/// `float16` (prepared with [`FEATURES`]), else for one without (prepared
/// with [`FEATURES_WITHOUT_FLOAT16`]).
pub fn translate(program: &Program, float16: bool) -> Result<Output, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let index = crate::calls::Index::new(program);
    let symbols = SymbolPlan::checked(program, &index, &CONVENTIONS)?;
    let sigs = symbols.signatures(program, |m, f, s| signature(m, f, s.name.clone(), s.exported));
    let mut p = Translation {
        program,
        index,
        sigs,
        helpers: BTreeMap::new(),
        libm: BTreeMap::new(),
        externs: BTreeMap::new(),
        uses_f16: false,
        uses_complex: false,
    };
    for m in program.modules.iter() {
        for (_, t) in m.types.iter() {
            p.uses_f16 |= t.dtype == DType::Float16;
            p.uses_complex |= t.dtype.is_complex();
        }
    }
    let mut bodies = String::new();
    for (mid, fid) in symbols.defined(program) {
        match func::translate(&mut p, mid, fid) {
            Ok(text) => bodies.push_str(&text),
            Err(d) => diags.push(*d),
        }
    }
    for e in &symbols.exported {
        if p.libm.contains_key(&e.symbol) || p.externs.contains_key(&e.symbol) {
            diags.push(Diagnostic::error(
                cannot_export_because(&e.symbol, "the program calls the C library function of that name"),
                e.at.clone(),
            ));
        }
    }
    if let Err(d) = symbols.ufuncs(program) {
        diags.extend(d);
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    // Exported prototypes, in declaration order: the header's and the
    // file's own.
    let mut exported_protos = String::new();
    let mut private_protos = String::new();
    // The file's own: with the visibility of exported symbols.
    let mut c_protos = String::new();
    for (mid, m) in program.modules.iter_enumerated() {
        for (fid, f) in m.functions.iter_enumerated() {
            let Some(sig) = p.sigs.get(&(mid, fid)) else { continue };
            if f.attrs.contains(FuncAttrs::COMPILER_MADE) {
                // A ufunc's inner loop: its prototype is the ufunc's below.
                continue;
            }
            if sig.exported {
                if f.name == "main" {
                    c_protos.push_str(MAIN_PRAGMA);
                }
                let _ = writeln!(exported_protos, "{};", sig.prototype(None));
                let _ = writeln!(c_protos, "POSTC_EXPORT {};", sig.prototype(None));
            } else {
                let noret = if func::never_returns(f) { "_Noreturn " } else { "" };
                let _ = writeln!(private_protos, "POSTC_PRIVATE {noret}{};", sig.prototype(None));
            }
        }
    }
    let mut alias_text = String::new();
    for e in symbols.aliases() {
        let (alias, sig) = (&e.symbol, &p.sigs[&e.function]);
        let mut a = sig.clone();
        a.name = alias.clone();
        let _ = writeln!(exported_protos, "{};", a.prototype(None));
        let _ = writeln!(c_protos, "POSTC_EXPORT {};", a.prototype(None));
        let names: Vec<String> = (0..sig.params.len()).map(|i| format!("a{i}")).collect();
        let call = format!("{}({})", sig.name, names.join(", "));
        let body = if sig.ret == "void" { format!("{call};") } else { format!("return {call};") };
        // The same function under a second name (the same address); a
        // compiler without aliases gets a function that calls the target.
        let _ = writeln!(
            alias_text,
            "\n/* alias {alias} = {} */\n#if defined(__GNUC__)\n{} __attribute__((alias(\"{}\")));\n#else\n{} {{\n  {body}\n}}\n#endif",
            sig.name,
            a.prototype(None),
            sig.name,
            a.prototype(Some(&names))
        );
    }
    for (mid, m) in program.modules.iter_enumerated() {
        for (fid, _) in m.ufuncs() {
            if let Some(sig) = p.sigs.get(&(mid, fid)).filter(|s| s.exported) {
                let proto = format!(
                    "void {}(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data);",
                    crate::abi::loop_symbol(&sig.name)
                );
                let _ = writeln!(exported_protos, "{proto}");
                let _ = writeln!(c_protos, "POSTC_EXPORT {proto}");
                let nops = m.functions[fid].ufunc_sig.as_ref().map_or(0, |u| u.inputs.len() + u.outputs.len());
                let proto =
                    format!("void {}({});", crate::abi::dl_symbol(&sig.name), vec!["DLTensor *"; nops].join(", "));
                let _ = writeln!(exported_protos, "{proto}");
                let _ = writeln!(c_protos, "POSTC_EXPORT {proto}");
            }
        }
    }
    let names: Vec<&str> = program.modules.iter().map(|m| m.name.as_str()).collect();
    let guard = format!("POSTC_{}_H", ident(names.first().copied().unwrap_or("program")).to_ascii_uppercase());
    let header = format!(
        "/* The functions that postc compiled from module {} exports (docs/abi.md). */\n\
         #ifndef {guard}\n#define {guard}\n\n#include \"postc.h\"\n\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n\
         {exported_protos}\n#ifdef __cplusplus\n}}\n#endif\n\n#endif\n",
        names.join(", ")
    );
    let mut c = String::new();
    let _ = writeln!(c, "/* Generated by postc from module {}: C11 (docs/abi.md gives the ABI). */", names.join(", "));
    c.push_str(PRELUDE);
    if symbols.exported.iter().any(|e| shadows_builtin(&e.symbol)) {
        // Exported functions named like C library functions are the
        // program's own (the declarations differ from the library's).
        c.push_str(
            "#if defined(__clang__)\n#pragma clang diagnostic ignored \"-Wincompatible-library-redeclaration\"\n\
             #elif defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Wbuiltin-declaration-mismatch\"\n#endif\n",
        );
    }
    if p.uses_f16 {
        c.push_str(if float16 { helpers::FLOAT16 } else { helpers::FLOAT16_BITS });
    }
    if p.uses_complex {
        c.push_str(helpers::COMPLEX);
    }
    if !p.libm.is_empty() {
        c.push_str("\n/* libm */\n");
        for (name, arity) in &p.libm {
            let _ = writeln!(c, "{}", helpers::libm_prototype(name, *arity));
        }
    }
    if !p.externs.is_empty() {
        c.push_str("\n/* import intrinsic */\n");
        for proto in p.externs.values() {
            let _ = writeln!(c, "{proto}");
        }
    }
    if !p.helpers.is_empty() {
        c.push('\n');
        for h in p.helpers.values() {
            c.push_str(h);
        }
    }
    c.push_str("\n/* Exported functions. */\n");
    c.push_str(&c_protos);
    if !private_protos.is_empty() {
        c.push_str("\n/* Module-private functions. */\n");
        c.push_str(&private_protos);
    }
    c.push_str(&bodies);
    c.push_str(&alias_text);
    let mut no_builtin: Vec<String> =
        symbols.exported.iter().filter(|e| shadows_builtin(&e.symbol)).map(|e| e.symbol.clone()).collect();
    no_builtin.sort();
    Ok(Output { source: c, header, no_builtin })
}

/// `main` may return `int64_t` (docs/abi.md): compilers that expect `int`
/// are told it is meant.
const MAIN_PRAGMA: &str = "#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Wmain\"\n#endif\n";
