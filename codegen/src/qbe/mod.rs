//! The QBE backend: a prepared program (see [`crate::prepare`]) as QBE IL
//! text, turned into assembly by `qbe` and into an object by the system
//! assembler (through `cc -c`).
//!
//! QBE computes on 32- and 64-bit integers and on single and double
//! floats, so every IR dtype has one of those classes (docs/ir-text.md,
//! Semantics, is the meaning kept):
//!
//! - Bool, the 8-, 16- and 32-bit integers: `w`, kept extended from their
//!   width by their signedness; an operation that can leave the width is
//!   followed by the extension that re-narrows it (`extsb`, `extuh`, ...).
//! - the 64-bit integers: `l`; Float32 `s`, Float64 `d`.
//! - Float16: its bits in a `w`, passed and returned in an `s` (as the C
//!   ABI passes `_Float16` in an SSE register); `legalize` writes its
//!   arithmetic out in Float32, and its conversions are libgcc's
//!   `__extendhfsf2` and `__truncsfhf2` (`__truncdfhf2` from a double).
//! - complex numbers: a pair in a stack slot of the function, the value
//!   being the slot's address (pointers at the ABI, as for the LLVM backend).
//! - Str and Bytes: `{ptr, len}` in a stack slot, passed by value as the
//!   two-`l` aggregate `:postc_str` per QBE's ABI.
//! - arrays: the `DLTensor *` (`l`).
//!
//! What QBE has no instruction for is written out: selects and overflow
//! checks as branches, overflow tests as small IL functions emitted once
//! when used (floor division, powers, saturating conversions and CPython's
//! float and complex algorithms are written out by `legalize` before the
//! backend sees the program); math functions call libm; panics call the
//! runtime's `postc_rt_panic` with the message text of the LLVM backend.

mod func;

use crate::symbols::{Conventions, DeviceFunctions, SymbolPlan};
use crate::{CodegenOptions, EmitKind};
use postc_ir::diag::Diagnostic;
use postc_ir::{DType, FuncId, Function, Module, ModuleId, Program};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The QBE backend.
pub struct Qbe;

/// What this backend lowers natively; `legalize` writes out the rest
/// (docs/backends.md). QBE has no saturating conversion: `legalize` clamps, and `dtosi` and the like convert only values in range;
/// it has no Float16 either: a Float16 is its bits in a `w`, converted by compiler-rt's
/// `__extendhfsf2` and `__truncsfhf2`/`__truncdfhf2` (`legalize`'s conversions in IR, function
/// calls that QBE does not inline, took 1.45x the time on benches/python/float16.py).
pub const FEATURES: crate::Features = crate::Features {
    saturating_casts: false,
    float16_arithmetic: false,
    float16_conversions: true,
    complex_products: false,
    overflow_tests: false,
};

impl crate::backend::Backend for Qbe {
    fn name(&self) -> &'static str {
        "qbe"
    }
    fn features(&self) -> crate::Features {
        FEATURES
    }
    fn emit_kinds(&self) -> &'static [EmitKind] {
        &[EmitKind::Qbe, EmitKind::Assembly, EmitKind::Object]
    }
    fn emit(&self, program: &Program, options: &CodegenOptions, kind: EmitKind) -> Result<Vec<u8>, Vec<Diagnostic>> {
        let x86_64_linux = |t: &str| t.starts_with("x86_64") && t.contains("linux");
        let llvm = "the LLVM backend (`--backend llvm`)";
        crate::backend::refuse_options(options, "the qbe backend", "x86-64 Linux only", x86_64_linux, llvm)?;
        let mut timer = crate::Timer { on: options.time_passes, lines: Vec::new() };
        let prepared =
            timer.time("postc passes", || crate::prepare_with_ufunc_loops(program, options, true, FEATURES))?;
        let il = timer.time("tables to QBE IL", || translate(&prepared, options.debug))?;
        let out = match kind {
            EmitKind::Qbe => Ok(il.into_bytes()),
            EmitKind::Assembly => timer.time("qbe", || assembly(&il, options.executable)).map(String::into_bytes),
            _ => {
                let asm = timer.time("qbe", || assembly(&il, options.executable))?;
                timer.time("assemble (cc -c)", || object(&asm))
            }
        };
        timer.report();
        out
    }
}

/// The `qbe` executable: `POSTC_QBE` if set, else the copy `scripts/setup`
/// unpacks into `tools/qbe/`, else `qbe` on the `PATH`.
pub fn qbe_command() -> PathBuf {
    if let Some(p) = std::env::var_os("POSTC_QBE").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let local = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/qbe/usr/bin/qbe"));
    if local.is_file() {
        return local;
    }
    PathBuf::from("qbe")
}

fn tool_error(msg: String) -> Vec<Diagnostic> {
    vec![Diagnostic::error(msg, None)]
}

/// Runs `qbe` on IL text; returns the assembly and what it printed on
/// standard error (warnings).
pub fn run_qbe(il: &str) -> Result<(String, String), Vec<Diagnostic>> {
    use std::io::Write as _;
    let qbe = qbe_command();
    let mut child = std::process::Command::new(&qbe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| {
            tool_error(format!("cannot run `{}` (scripts/setup installs QBE 1.2 into tools/qbe/): {e}", qbe.display()))
        })?;
    let mut stdin = child.stdin.take().expect("piped");
    let text = il.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().map_err(|e| tool_error(format!("running `{}`: {e}", qbe.display())))?;
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(tool_error(format!("`{}` rejected the IL:\n{}", qbe.display(), stderr.trim_end())));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), stderr))
}

/// The start of the IL comment that declares an exported alias.
const ALIAS_LINE: &str = "# alias ";

/// QBE's assembly of IL text, every exported function made `protected`:
/// inside a shared library the program's calls reach its own functions,
/// never a function of the same name that another library defines (libm's
/// `cabs` for a program's `cabs`), as with the LLVM backend. In an
/// executable they are hidden but `main`: the dynamic linker would let an
/// executable's `malloc` or `write` replace the C library's own.
fn assembly(il: &str, executable: bool) -> Result<String, Vec<Diagnostic>> {
    let (mut asm, _) = run_qbe(il)?;
    for line in il.lines() {
        if let Some((alias, target)) = line.strip_prefix(ALIAS_LINE).and_then(|l| l.split_once(" = ")) {
            let _ =
                writeln!(asm, ".globl {alias}\n.protected {alias}\n.type {alias}, @function\n.set {alias}, {target}");
            continue;
        }
        let Some(rest) = line.strip_prefix("export function ") else { continue };
        let Some(at) = rest.find('$') else { continue };
        let name: String = rest[at + 1..].chars().take_while(|c| *c != '(').collect();
        let vis = if executable && name != "main" { "hidden" } else { "protected" };
        let _ = writeln!(asm, ".{vis} {name}");
    }
    Ok(asm)
}

/// QBE's assembly into an object, through the system assembler (`cc -c`).
fn object(asm: &str) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let dir = tempfile::tempdir().map_err(|e| crate::internal(format!("temporary directory: {e}")))?;
    let s = dir.path().join("program.s");
    let o = dir.path().join("program.o");
    std::fs::write(&s, asm).map_err(|e| crate::internal(format!("writing {}: {e}", s.display())))?;
    let run = std::process::Command::new("cc").args(["-c", "-x", "assembler"]).arg(&s).arg("-o").arg(&o).output();
    let out = match run {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(tool_error(
                "no assembler found: the qbe backend assembles its output with `cc`, which is not on the PATH \
                 (install gcc or clang)"
                    .to_owned(),
            ))
        }
        Err(e) => return Err(tool_error(format!("cannot run `cc` to assemble QBE's output: {e}"))),
    };
    if !out.status.success() {
        return Err(tool_error(format!(
            "`cc -c` failed assembling QBE's output:\n{}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        )));
    }
    std::fs::read(&o).map_err(|e| crate::internal(format!("reading {}: {e}", o.display())))
}

/// `bytes` as an IL string (for `dbgfile`): `"` and `\\` escaped, bytes
/// outside printable ASCII in octal, as the assembler reads them.
fn quote(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &c in bytes {
        match c {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(c as char);
            }
            0x20..=0x7e => out.push(c as char),
            _ => out.push_str(&format!("\\{c:03o}")),
        }
    }
    out.push('"');
    out
}

/// How a function appears in IL.
#[derive(Clone, Debug)]
pub(crate) struct Sig {
    /// The symbol (an exported function's name).
    pub name: String,
    pub exported: bool,
    /// The ABI type of each parameter (`w`, `sb`, `:postc_str`, ...), the
    /// complex out-pointer last.
    pub params: Vec<String>,
    /// The ABI return type, if any.
    pub ret: Option<String>,
    pub complex_out: Option<DType>,
    pub array_ret: bool,
    /// A tuple result: each element's dtype and whether it is an array,
    /// written through one trailing pointer each.
    pub tuple_out: Vec<(DType, bool)>,
}

/// The aggregate type of Str and Bytes values.
pub(crate) const STR_TYPE: &str = ":postc_str";

/// The ABI type of a scalar dtype in a signature (sub-word integers as
/// QBE's extended types, so C callers and callees agree).
pub(crate) fn abi_type(d: DType) -> &'static str {
    match d {
        DType::Bool | DType::UInt8 => "ub",
        DType::Int8 => "sb",
        DType::Int16 => "sh",
        DType::UInt16 => "uh",
        DType::Int32 | DType::UInt32 => "w",
        DType::Int64 | DType::UInt64 => "l",
        DType::Float16 | DType::Float32 => "s",
        DType::Float64 => "d",
        DType::Complex64 | DType::Complex128 => "l",
        DType::Str | DType::Bytes => STR_TYPE,
    }
}

/// The class of a value of a dtype inside a function.
pub(crate) fn class(d: DType) -> char {
    match d {
        DType::Int64 | DType::UInt64 => 'l',
        DType::Float32 => 's',
        DType::Float64 => 'd',
        DType::Complex64 | DType::Complex128 | DType::Str | DType::Bytes => 'l',
        _ => 'w',
    }
}

fn signature(m: &Module, f: &Function, name: String, exported: bool) -> Sig {
    let mut params = Vec::new();
    for p in f.body.all_params() {
        match f.body.ty(p).map(|t| m.types.get(t)) {
            Some(t) if t.is_array => params.push("l".to_owned()),
            Some(t) => params.push(abi_type(t.dtype).to_owned()),
            None => params.push("l".to_owned()),
        }
    }
    let (mut ret, mut complex_out, mut array_ret, mut tuple_out) = (None, None, false, Vec::new());
    if let Some(t) = f.ret.map(|t| m.types.get(t)) {
        if t.is_tuple() {
            tuple_out = t.elements.iter().map(|e| (e.dtype, e.is_array)).collect();
            params.extend(tuple_out.iter().map(|_| "l".to_owned()));
        } else if t.is_array {
            ret = Some("l".to_owned());
            array_ret = true;
        } else if t.dtype.is_complex() {
            complex_out = Some(t.dtype);
            params.push("l".to_owned());
        } else {
            ret = Some(abi_type(t.dtype).to_owned());
        }
    }
    Sig { name, exported, params, ret, complex_out, array_ret, tuple_out }
}

pub(crate) use crate::symbols::c_ident as ident;

/// Why an exported name cannot be a symbol of the IL, if it cannot.
fn unexportable(name: &str) -> Option<String> {
    let b = name.as_bytes();
    let valid = !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.');
    if !valid {
        return Some("it is not a symbol QBE can name".into());
    }
    if crate::abi::is_runtime_symbol(name) || name.starts_with("postc_qbe_") || name.starts_with("__") {
        return Some("the name belongs to the runtime or the backend's helpers".into());
    }
    if crate::abi::reserved(name) {
        return Some("C reserves the name for the implementation".into());
    }
    None
}

pub(crate) use crate::calls::Target;

/// The program-wide state of a translation.
pub(crate) struct Translation<'p> {
    pub program: &'p Program,
    pub index: crate::calls::Index<'p>,
    pub sigs: HashMap<(ModuleId, FuncId), Sig>,
    /// Helper functions by name (their IL).
    pub helpers: BTreeMap<String, String>,
    /// Data definitions (strings), by contents.
    pub strings: HashMap<Vec<u8>, String>,
    pub data: String,
    /// The C library (libm) functions the code calls.
    pub libc: std::collections::BTreeSet<String>,
    /// Line directives for the assembler's line table.
    pub debug: bool,
}

impl<'p> Translation<'p> {
    pub fn resolve(&self, mid: ModuleId, callee: &'p str) -> Option<Target<'p>> {
        crate::calls::resolve(self.program, &self.index, mid, callee)
    }

    /// The data symbol of a NUL-terminated copy of `bytes`.
    pub fn string(&mut self, bytes: &[u8]) -> String {
        if let Some(s) = self.strings.get(bytes) {
            return s.clone();
        }
        let name = format!("$postc_qbe_str{}", self.strings.len());
        let mut line = format!("data {name} = align 1 {{ b");
        for b in bytes {
            let _ = write!(line, " {b}");
        }
        line.push_str(" 0 }\n");
        self.data.push_str(&line);
        self.strings.insert(bytes.to_vec(), name.clone());
        name
    }

    /// Records a call of the C library's `name`.
    pub fn libc_call(&mut self, name: &str) {
        if !self.libc.contains(name) {
            self.libc.insert(name.to_owned());
        }
    }

    pub fn helper(&mut self, name: &str, make: impl FnOnce() -> String) -> String {
        if !self.helpers.contains_key(name) {
            let text = make();
            for libm in ["fmod", "floor", "copysign", "fabs", "hypot", "pow", "atan2", "exp", "log", "cos", "sin"] {
                if text.contains(&format!("call ${libm}(")) {
                    self.libc_call(libm);
                }
            }
            self.helpers.insert(name.to_owned(), text);
        }
        format!("${name}")
    }
}

/// How the qbe backend names and refuses functions (see [`crate::symbols`]).
const CONVENTIONS: Conventions = Conventions {
    private_symbol,
    cannot_export,
    device: DeviceFunctions::FallbackHostBody { refusal: "is not supported by the qbe backend" },
};

/// A private function's symbol: `postc_qbe_<module>_P<function>`.
fn private_symbol(module: &str, function: &str) -> String {
    format!("postc_qbe_{}_P{}", ident(module), ident(function))
}

fn cannot_export(name: &str) -> Option<String> {
    unexportable(name).map(|why| format!("`{name}` cannot be exported by the qbe backend: {why}"))
}

/// Translates a prepared program into one QBE IL file.
/// Translates a prepared program into QBE IL. With `debug`, each function
/// of the program names its file (`dbgfile`) and each instruction its line
/// and column (`dbgloc`), from which the assembler writes a DWARF line
/// table (see [`func`]).
pub fn translate(program: &Program, debug: bool) -> Result<String, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let index = crate::calls::Index::new(program);
    let symbols = SymbolPlan::checked(program, &index, &CONVENTIONS)?;
    let sigs = symbols.signatures(program, |m, f, s| signature(m, f, s.name.clone(), s.exported));
    let mut t = Translation {
        program,
        index,
        sigs,
        helpers: BTreeMap::new(),
        strings: HashMap::new(),
        data: String::new(),
        libc: Default::default(),
        debug,
    };
    let mut bodies = String::new();
    for (mid, fid) in symbols.defined(program) {
        match func::translate(&mut t, mid, fid) {
            Ok(text) => bodies.push_str(&text),
            Err(d) => diags.push(*d),
        }
    }
    for e in &symbols.exported {
        if t.libc.contains(&e.symbol) {
            diags.push(Diagnostic::error(
                format!(
                    "`{}` cannot be exported by the qbe backend: the program calls the C library function of \
                     that name (the LLVM backend can export it)",
                    e.symbol
                ),
                e.at.clone(),
            ));
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    symbols.ufuncs(program)?;
    // QBE has no aliases: a comment line names each, which the assembly
    // step makes a symbol at the target's address (see [`assembly`]).
    for e in symbols.aliases() {
        let _ = writeln!(bodies, "{ALIAS_LINE}{} = {}", e.symbol, t.sigs[&e.function].name);
    }
    let mut out = String::new();
    let _ = writeln!(out, "# QBE IL written by postc's qbe backend");
    let _ = writeln!(out, "type {STR_TYPE} = {{ l, l }}");
    out.push_str(&t.data);
    // The assembler's line table gives an instruction the line of the last
    // `.loc` before it, so with `debug` the code without a line (the
    // helpers) goes before every `dbgloc`.
    if debug {
        for text in t.helpers.values() {
            out.push_str(text);
        }
        out.push_str(&bodies);
    } else {
        out.push_str(&bodies);
        for text in t.helpers.values() {
            out.push_str(text);
        }
    }
    Ok(out)
}
