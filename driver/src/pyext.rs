//! `compile --emit pyext`: a CPython extension module made ahead of time
//! (docs/aot.md). The program's code (any backend that makes objects), the
//! glue that gives CPython `PyInit_NAME` (`postc_codegen::pyext`) and
//! `postc-pyabi`'s static library (the `postc` package's argument checks,
//! calls, exceptions and ufuncs) are linked in-process into `NAME<EXT_SUFFIX>`;
//! a type stub `NAME.pyi` goes beside it.

use postc_codegen::{link, pyext, CodegenOptions, EmitKind};
use postc_ir::exports::{self, Exports, ParamType, Ret};
use postc_ir::{ConstValue, DType, Program};
use std::path::{Path, PathBuf};

/// What the extension is built for, asked of the interpreter named by
/// `--python`.
pub(crate) struct Interpreter {
    /// The suffix of the extension's file: `sysconfig`'s `EXT_SUFFIX`
    /// (`.cpython-311-x86_64-linux-gnu.so`), or the interpreter's suffix of
    /// stable-ABI extensions (`.abi3.so`) for `--abi3`.
    pub(crate) ext_suffix: String,
    /// `(major, minor)`.
    pub(crate) version: (u32, u32),
    /// For CPython's stable ABI (`--abi3`).
    pub(crate) abi3: bool,
}

pub(crate) fn interpreter(python: &str, abi3: bool) -> Result<Interpreter, String> {
    let script = "import sys, sysconfig, importlib.machinery as m; print(sysconfig.get_config_var('EXT_SUFFIX')); \
                  print('%d.%d' % sys.version_info[:2]); print(*[s for s in m.EXTENSION_SUFFIXES if 'abi3' in s][:1])";
    let out = std::process::Command::new(python)
        .args(["-c", script])
        .output()
        .map_err(|e| format!("`--python {python}`: cannot run it: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`--python {python}` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let (Some(suffix), Some(version), abi3_suffix) = (lines.next(), lines.next().and_then(version), lines.next())
    else {
        return Err(format!("`--python {python}` did not tell its extension suffix and version: {text}"));
    };
    let ext_suffix = match abi3_suffix.filter(|s| s.starts_with('.')) {
        Some(s) if abi3 => s,
        None if abi3 => return Err(format!("`--python {python}` imports no stable-ABI (abi3) extension modules")),
        _ => suffix,
    };
    if !ext_suffix.starts_with('.') {
        return Err(format!("`--python {python}` did not tell its extension suffix and version: {text}"));
    }
    Ok(Interpreter { ext_suffix: ext_suffix.to_owned(), version, abi3 })
}

/// `major.minor` as numbers.
fn version(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.trim().split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The module an extension file is imported as: its name up to the first
/// dot, as CPython's import system reads it; it must be an identifier in
/// ASCII (the name is part of the symbol `PyInit_NAME`).
pub(crate) fn module_name(path: &Path) -> Result<String, String> {
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let name = file.split('.').next().unwrap_or_default();
    let identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !identifier {
        return Err(format!(
            "`{}`: an extension module's file is named after the module (`NAME.cpython-311-x86_64-linux-gnu.so`), \
             and `{name}` is not a Python identifier in ASCII",
            path.display()
        ));
    }
    Ok(name.to_owned())
}

/// The exports the extension exposes: the first module's, less `kernel`
/// functions (which take a launch configuration no Python call gives).
pub(crate) fn exposed(program: &Program) -> Exports {
    let mut e = exports::exports(program);
    e.functions.retain(|f| !f.kernel);
    e
}

/// Compiles `program` into the extension module at `out` (and `NAME.pyi`
/// beside it). Diagnostics of code generation come back as `Err(Ok)`, other
/// failures as `Err(Err(text))`.
pub(crate) fn build(
    program: &Program,
    backend: &dyn postc_codegen::backend::Backend,
    options: &CodegenOptions,
    out: &Path,
    python: &Interpreter,
) -> Result<(), Result<Vec<postc_ir::Diagnostic>, String>> {
    let name = module_name(out).map_err(Err)?;
    let pyabi = link::pyabi_lib(python.abi3).map_err(Err)?;
    let built_for = link::pyabi_python_version(&pyabi).map_err(Err)?;
    let running = format!("{}.{}", python.version.0, python.version.1);
    // A library for the stable ABI serves its version and every later one.
    let serves = match version(&built_for) {
        Some(v) if python.abi3 => v <= python.version,
        _ => built_for == running,
    };
    if !serves && python.abi3 {
        return Err(Err(format!(
            "{} was built for CPython {built_for} and later, and `--python` is CPython {running}: name a CPython \
             {built_for} or later, or build for that version without `--abi3`",
            pyabi.display(),
        )));
    }
    if !serves {
        return Err(Err(format!(
            "{} was built for CPython {built_for}, and `--python` is CPython {running}: build postc-pyabi with that \
             interpreter (PYO3_PYTHON=... cargo build -p postc-pyabi) or name a CPython {built_for}",
            pyabi.display(),
        )));
    }
    let exports = exposed(program);
    let mut code: Vec<String> =
        exports.functions.iter().map(|f| postc_codegen::abi::export_symbol(&f.name).into_owned()).collect();
    code.extend(
        exports.ufuncs.iter().map(|u| postc_codegen::abi::loop_symbol(&postc_codegen::abi::export_symbol(&u.name))),
    );
    let doc = program.modules.iter().next().and_then(|m| m.doc.as_deref());
    let encoded = exports.encode();
    let glue = pyext::ModuleGlue { name: &name, doc, exports: &encoded, code: &code };
    let objects = vec![
        backend.emit(program, options, EmitKind::Object).map_err(Ok)?,
        pyext::glue_object(&glue, options).map_err(Ok)?,
    ];
    link::link_extension(&objects, &pyabi, &pyext::init_symbol(&name), out, options.debug).map_err(Err)?;
    let stub_path = stub_path(out, &name);
    std::fs::write(&stub_path, stub(&exports, doc))
        .map_err(|e| Err(format!("cannot write {}: {e}", stub_path.display())))
}

/// `NAME.pyi` beside the extension.
pub(crate) fn stub_path(out: &Path, name: &str) -> PathBuf {
    out.with_file_name(format!("{name}.pyi"))
}

/// The NumPy scalar type of `d`, or the Python type of text.
fn numpy_type(d: DType) -> String {
    match d {
        DType::Bool => "np.bool_".into(),
        DType::Str => "str".into(),
        DType::Bytes => "bytes".into(),
        _ => format!("np.{}", d.name().to_ascii_lowercase()),
    }
}

/// A parameter's type in a stub: `float`, `npt.NDArray[np.float64]`,
/// `tuple[float, int]`, any of them `| None`.
fn param_stub_type(ty: &ParamType) -> String {
    match ty {
        ParamType::Scalar(d) => scalar_param(*d).to_string(),
        ParamType::Array(a) => format!("npt.NDArray[{}]", numpy_type(a.dtype)),
        ParamType::MaybeNone(inner) => format!("{} | None", param_stub_type(inner)),
        ParamType::DType(d) => format!("type[{0}] | np.dtype[{0}]", numpy_type(*d)),
        ParamType::Tuple(elements) => {
            format!("tuple[{}]", elements.iter().map(|d| scalar_param(*d)).collect::<Vec<_>>().join(", "))
        }
    }
}

/// What a scalar parameter accepts (the checks of `postc_pyabi::call`).
fn scalar_param(d: DType) -> String {
    match d {
        DType::Bool => "bool | np.bool_".into(),
        DType::Str => "str".into(),
        DType::Bytes => "bytes".into(),
        _ if d.is_int() => "int | np.integer".into(),
        _ if d.is_float() => "float | np.integer | np.floating".into(),
        _ => "complex | np.number".into(),
    }
}

/// A docstring as a Python string literal's body.
fn docstring(doc: &str, indent: &str) -> String {
    format!("{indent}\"\"\"{}\"\"\"\n", doc.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\""))
}

/// A default value as a Python expression of the same value, for the stub
/// (`...`, a stub's "some value", for an infinity or a NaN, which have no
/// literal).
fn python_literal(v: &ConstValue) -> String {
    // Rust's `Debug` of a finite f64 is a valid Python float literal of the
    // same value (`1.0`, `-2.5`, `1e-7`).
    let float = |bits: u64| {
        let x = f64::from_bits(bits);
        x.is_finite().then(|| format!("{x:?}"))
    };
    let text = match v {
        ConstValue::Bool(b) => Some(if *b { "True" } else { "False" }.to_owned()),
        ConstValue::Int(i) => Some(i.to_string()),
        ConstValue::Float(bits) => float(*bits),
        ConstValue::Complex(re, im) => match (float(*re), float(*im)) {
            (Some(re), Some(im)) => Some(format!("complex({re}, {im})")),
            _ => None,
        },
        ConstValue::Str(s) => {
            let mut out = String::from("'");
            for c in s.chars() {
                match c {
                    '\\' | '\'' => out.extend(['\\', c]),
                    ' '..='~' => out.push(c),
                    _ if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
                    _ => out.push_str(&format!("\\U{:08x}", c as u32)),
                }
            }
            out.push('\'');
            Some(out)
        }
        ConstValue::Bytes(b) => {
            let mut out = String::from("b'");
            for &byte in b {
                match byte {
                    b'\\' | b'\'' => out.extend(['\\', byte as char]),
                    b' '..=b'~' => out.push(byte as char),
                    _ => out.push_str(&format!("\\x{byte:02x}")),
                }
            }
            out.push('\'');
            Some(out)
        }
    };
    text.unwrap_or_else(|| "...".to_owned())
}

/// The type stub of the extension's exports.
pub(crate) fn stub(exports: &Exports, module_doc: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(doc) = module_doc {
        s.push_str(&docstring(doc, ""));
    }
    s.push_str("# The type stub of an extension module made by `postc-driver compile --emit pyext`.\n");
    s.push_str("import numpy as np\nimport numpy.typing as npt\n");
    // Every module has the package's thread-count functions, unless an
    // export takes the name (`postc_pyabi::pyext`).
    let exported =
        |name: &str| exports.functions.iter().any(|f| f.name == name) || exports.ufuncs.iter().any(|u| u.name == name);
    for (name, declaration) in [
        ("set_num_threads", "def set_num_threads(n: int | np.integer) -> None: ...\n"),
        ("get_num_threads", "def get_num_threads() -> int: ...\n"),
    ] {
        if !exported(name) {
            s.push_str(declaration);
        }
    }
    for f in &exports.functions {
        let first_default = f.params.len().saturating_sub(f.defaults.len());
        let mut params: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let declared = format!("{}: {}", p.name, param_stub_type(&p.ty));
                match i.checked_sub(first_default) {
                    // An array default: an array the module makes.
                    Some(d) if f.array_defaults.iter().any(|(at, _)| *at == d) => format!("{declared} = ..."),
                    Some(d) => match &f.defaults[d] {
                        Some(v) => format!("{declared} = {}", python_literal(v)),
                        None => format!("{declared} = None"),
                    },
                    None => declared,
                }
            })
            .collect();
        if f.keyword_only > 0 {
            params.insert(f.params.len() - f.keyword_only, "*".to_owned());
        }
        if f.positional_only > 0 {
            params.insert(f.positional_only, "/".to_owned());
        }
        fn stub_type(r: &Ret) -> String {
            match r {
                Ret::Void => "None".to_owned(),
                Ret::Scalar(d) => numpy_type(*d),
                Ret::Array(a) => format!("npt.NDArray[{}]", numpy_type(a.dtype)),
                Ret::Tuple(elements) => {
                    format!("tuple[{}]", elements.iter().map(stub_type).collect::<Vec<_>>().join(", "))
                }
                Ret::MaybeNone(d) => format!("{} | None", numpy_type(*d)),
                Ret::Optional(value) => format!("{} | None", stub_type(value)),
                // A list holds Python numbers, as CPython's does.
                Ret::List(d) if d.is_int() => "list[int]".to_owned(),
                Ret::List(d) if d.is_float() => "list[float]".to_owned(),
                Ret::List(d) if d.is_complex() => "list[complex]".to_owned(),
                Ret::List(_) => "list[bool]".to_owned(),
            }
        }
        let ret = stub_type(&f.ret);
        s.push_str(&format!("\ndef {}({}) -> {ret}:\n", f.name, params.join(", ")));
        match &f.doc {
            Some(doc) => s.push_str(&docstring(doc, "    ")),
            None => s.push_str("    ...\n"),
        }
    }
    for u in &exports.ufuncs {
        s.push_str(&format!("\n{}: np.ufunc\n", u.name));
        if let Some(doc) = &u.doc {
            s.push_str(&docstring(doc, ""));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_spell_a_tuple_result_as_a_tuple() {
        let src = "module t\n\nfunc pair(%x: Float64, %a: Int64[]Shape[?]) -> (Float64, Int64[]Shape[?]) {\nentry:\n  \
                   %r: (Float64, Int64[]Shape[?]) = tuple %x, %a\n  return %r\n}\n";
        let m = postc_ir::parse::parse_module("t.pir", src.as_bytes()).expect("parses");
        let exports = postc_ir::exports::exports(&postc_ir::Program::from_module(m));
        let stub = stub(&exports, None);
        assert!(stub.contains(") -> tuple[np.float64, npt.NDArray[np.int64]]:\n"), "{stub}");
    }

    #[test]
    fn stubs_say_which_values_may_be_none() {
        let src = "from postyp import Float64, Int64\n\n\
                   def pick(n: Int64, tol: Float64 | None = None, k: Int64 | None = 3) -> Int64 | None:\n    \
                   return None\n";
        let program = postc_frontend::lower_source("t.py", src).expect("lowers");
        let stub = stub(&exports::exports(&program), None);
        let want = "def pick(n: int | np.integer, tol: float | np.integer | np.floating | None = None, \
                    k: int | np.integer | None = 3) -> np.int64 | None:\n";
        assert!(stub.contains(want), "{stub}");
    }

    #[test]
    fn stubs_spell_a_list_result_as_a_list_of_python_numbers() {
        let src = "import numpy as np\nfrom postyp import Float64, Int64\n\n\
                   def sliding_mean(values: Float64[:], n: Int64):\n    \
                   output = np.empty(n, dtype=np.float64)\n    \
                   na_pos = [0 for i in range(0)]\n    \
                   return output, na_pos\n\n\
                   def halves(a: Float64[:]):\n    \
                   hs = [x / 2 for x in a]\n    \
                   return hs\n";
        let program = postc_frontend::lower_source("t.py", src).expect("lowers");
        let stub = stub(&exports::exports(&program), None);
        assert!(stub.contains(") -> tuple[npt.NDArray[np.float64], list[int]]:\n"), "{stub}");
        assert!(stub.contains(") -> list[float]:\n"), "{stub}");
    }

    #[test]
    fn stub_defaults_are_python_literals_of_the_same_value() {
        let f = |x: f64| x.to_bits();
        let cases = [
            (ConstValue::Bool(false), "False"),
            (ConstValue::Int(-(1 << 70)), "-1180591620717411303424"),
            (ConstValue::Float(f(-2.0)), "-2.0"),
            (ConstValue::Float(f(1e-7)), "1e-7"),
            (ConstValue::Float(f(f64::NAN)), "..."),
            (ConstValue::Complex(f(0.0), f(1.0)), "complex(0.0, 1.0)"),
            (ConstValue::Complex(f(f64::INFINITY), f(1.0)), "..."),
            (ConstValue::Str("a'\\\u{e9}\u{1f600}\n".into()), r"'a\'\\\u00e9\U0001f600\u000a'"),
            (ConstValue::Bytes(b"a'\\\x00\xff".to_vec()), r"b'a\'\\\x00\xff'"),
        ];
        for (value, text) in cases {
            assert_eq!(python_literal(&value), text, "{value:?}");
        }
    }
}
