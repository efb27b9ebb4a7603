//! The test programs of `tests/programs/`: every `.pir` file is parsed and
//! verified, then each case of its `.expected` file (written by
//! `tests/programs/oracle.py` from independent Python/NumPy implementations)
//! runs in the reference interpreter with and without overflow checks, and
//! the results must match exactly or within the case's stated tolerance.
//! The corpus must together use every opcode and every dtype.
//!
//! The `.expected` format is described in `tests/programs/README.md`.

use postc_ir::interp::{Array, InterpOptions, Interpreter, Trap, TrapKind, Value};
use postc_ir::{DType, Module, ModuleId, Opcode, Program};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The minimum size of the corpus.
const MIN_PROGRAMS: usize = 15;
/// Instructions one case may execute.
const FUEL: u64 = 50_000_000;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the ir crate sits in the workspace").to_path_buf()
}

fn programs_dir() -> PathBuf {
    repo_root().join("tests").join("programs")
}

/// The `.pir` files of the corpus, sorted by name.
fn program_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(programs_dir())
        .expect("tests/programs exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    files.sort();
    files
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Parses and verifies one program; the path given to the parser is the
/// one implicit panic locations name.
fn load(path: &Path) -> Result<Module, String> {
    let name = stem(path);
    let shown = format!("tests/programs/{name}.pir");
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    let module = postc_ir::parse::parse_module(&shown, &bytes).map_err(|diags| {
        let mut s = format!("{shown} does not parse:\n");
        for d in &diags {
            let _ = writeln!(s, "  {d}");
        }
        s
    })?;
    let diags = postc_ir::verify::verify_module(&module);
    if !diags.is_empty() {
        let mut s = format!("{shown} does not verify:\n");
        for d in &diags {
            let _ = writeln!(s, "  {d}");
        }
        return Err(s);
    }
    Ok(module)
}

// ---------------------------------------------------------------------------
// The `.expected` format.

#[derive(Clone, Copy, PartialEq, Debug)]
enum Tol {
    Exact,
    /// Real floats (and each part of a complex): at most this many units in
    /// the last place of the dtype apart.
    Ulps(u64),
    /// |got - expected| <= rel * |expected| (the magnitude of a complex,
    /// per part).
    Rel(f64),
}

#[derive(Clone, Debug)]
struct ArrayArg {
    dtype: DType,
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
    /// The whole buffer, in memory order.
    buf: Vec<Value>,
}

#[derive(Clone, Debug)]
enum Arg {
    Scalar(Value),
    Array(ArrayArg),
}

#[derive(Clone, Debug)]
enum Ret {
    Void,
    Scalar(Value),
    Array { dtype: DType, shape: Vec<usize>, values: Vec<Value> },
    Panic { message: String, loc: (String, u32, u32) },
}

#[derive(Clone, Debug)]
struct Case {
    name: String,
    line: usize,
    func: String,
    ufunc: bool,
    wrap: bool,
    checked: bool,
    tol: Tol,
    args: Vec<Arg>,
    ret: Option<Ret>,
    /// Argument index → expected elements in logical C order.
    outs: Vec<(usize, Vec<Value>)>,
    /// Argument index → expected whole buffer in memory order.
    bufs: Vec<(usize, Vec<Value>)>,
}

/// Splits a line at whitespace, keeping `"..."` and `b"..."` (with `\"`
/// escapes) as single tokens.
fn tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let quoted = chars[i] == '"' || (chars[i] == 'b' && chars.get(i + 1) == Some(&'"'));
        if quoted {
            i += if chars[i] == 'b' { 2 } else { 1 };
            loop {
                match chars.get(i) {
                    None => return Err("unterminated string".into()),
                    Some('\\') => i += 2,
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some(_) => i += 1,
                }
            }
        } else {
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
        }
        out.push(chars[start..i].iter().collect());
    }
    Ok(out)
}

fn unescape(body: &str, bytes: bool) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut it = body.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            let mut b = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            continue;
        }
        match it.next() {
            Some('\\') => out.push(b'\\'),
            Some('"') => out.push(b'"'),
            Some('n') => out.push(b'\n'),
            Some('t') => out.push(b'\t'),
            Some('r') => out.push(b'\r'),
            Some('x') => {
                let h: String = it.by_ref().take(2).collect();
                let b = u8::from_str_radix(&h, 16).map_err(|_| format!("bad \\x escape {h:?}"))?;
                if !bytes && b >= 0x80 {
                    return Err("\\x escape above 0x7f in a string".into());
                }
                out.push(b);
            }
            Some('u') if !bytes => {
                if it.next() != Some('{') {
                    return Err("bad \\u escape".into());
                }
                let h: String = it.by_ref().take_while(|&c| c != '}').collect();
                let cp = u32::from_str_radix(&h, 16).map_err(|_| format!("bad \\u escape {h:?}"))?;
                let c = char::from_u32(cp).ok_or("\\u escape is not a scalar value")?;
                let mut b = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
            e => return Err(format!("bad escape {e:?}")),
        }
    }
    Ok(out)
}

/// `inf`, `-inf`, `nan` or Python's `float.hex()`: `[-]0xH.HHHp[+-]E`.
fn parse_float(s: &str) -> Result<f64, String> {
    match s {
        "inf" => return Ok(f64::INFINITY),
        "-inf" => return Ok(f64::NEG_INFINITY),
        "nan" => return Ok(f64::NAN),
        _ => {}
    }
    let bad = || format!("bad float {s:?}");
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let rest = rest.strip_prefix("0x").ok_or_else(bad)?;
    let (mant, exp) = rest.split_once('p').ok_or_else(bad)?;
    let exp: i32 = exp.parse().map_err(|_| bad())?;
    let (int_part, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let lead = u64::from_str_radix(int_part, 16).map_err(|_| bad())?;
    if lead > 1 || frac.len() > 13 {
        return Err(bad());
    }
    let frac_bits = if frac.is_empty() { 0 } else { u64::from_str_radix(frac, 16).map_err(|_| bad())? };
    let frac_bits = frac_bits << (4 * (13 - frac.len()));
    let sign = if neg { 1u64 << 63 } else { 0 };
    let bits = if lead == 0 {
        // Python writes subnormals as 0x0.HHHp-1022, zero as 0x0.0p+0.
        if frac_bits == 0 {
            0
        } else if exp == -1022 {
            frac_bits
        } else {
            return Err(bad());
        }
    } else {
        let e = exp + 1023;
        if !(1..=2046).contains(&e) {
            return Err(bad());
        }
        ((e as u64) << 52) | frac_bits
    };
    Ok(f64::from_bits(sign | bits))
}

fn parse_value(dtype: DType, s: &str) -> Result<Value, String> {
    let bad = || format!("bad {dtype} value {s:?}");
    Ok(match dtype {
        DType::Bool => match s {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(bad()),
        },
        d if d.is_int() => {
            let x: i128 = s.parse().map_err(|_| bad())?;
            let (lo, hi) = d.int_range().unwrap();
            if x < lo || x > hi {
                return Err(bad());
            }
            Value::Int(d, x)
        }
        d if d.is_float() => Value::Float(d, parse_float(s)?),
        d if d.is_complex() => {
            let (re, im) = s.split_once(',').ok_or_else(bad)?;
            Value::Complex(d, parse_float(re)?, parse_float(im)?)
        }
        DType::Str => {
            let body = s.strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or_else(bad)?;
            Value::Str(String::from_utf8(unescape(body, false)?).map_err(|_| bad())?)
        }
        DType::Bytes => {
            let body = s.strip_prefix("b\"").and_then(|r| r.strip_suffix('"')).ok_or_else(bad)?;
            Value::Bytes(unescape(body, true)?)
        }
        _ => unreachable!(),
    })
}

fn parse_dtype(s: &str) -> Result<(DType, bool), String> {
    let (name, array) = match s.strip_suffix("[]") {
        Some(n) => (n, true),
        None => (s, false),
    };
    DType::from_name(name).map(|d| (d, array)).ok_or_else(|| format!("unknown dtype {s:?}"))
}

fn parse_list<T: std::str::FromStr>(s: &str) -> Result<Vec<T>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split(',').map(|x| x.parse().map_err(|_| format!("bad list {s:?}"))).collect()
}

/// `key=value` attributes up to `:`, then the values.
fn parse_array_tail(dtype: DType, toks: &[String]) -> Result<(Vec<(String, String)>, Vec<Value>), String> {
    let colon = toks.iter().position(|t| t == ":").ok_or("array without `:`")?;
    let mut attrs = Vec::new();
    for t in &toks[..colon] {
        let (k, v) = t.split_once('=').ok_or_else(|| format!("bad attribute {t:?}"))?;
        attrs.push((k.to_string(), v.to_string()));
    }
    let values = toks[colon + 1..].iter().map(|t| parse_value(dtype, t)).collect::<Result<_, _>>()?;
    Ok((attrs, values))
}

fn attr<'a>(attrs: &'a [(String, String)], key: &str) -> Result<&'a str, String> {
    attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).ok_or_else(|| format!("missing {key}="))
}

fn parse_loc(s: &str) -> Result<(String, u32, u32), String> {
    let mut parts = s.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    let file = parts.next();
    match (file, line, col) {
        (Some(f), Some(l), Some(c)) => Ok((f.to_string(), l, c)),
        _ => Err(format!("bad location {s:?}")),
    }
}

fn parse_expected(text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let lineno = n + 1;
        let err = |e: String| format!("line {lineno}: {e}");
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let toks = tokens(line).map_err(err)?;
        let (kw, rest) = (toks[0].as_str(), &toks[1..]);
        if kw == "case" {
            let name = rest.first().ok_or_else(|| err("case without a name".into()))?.clone();
            cases.push(Case {
                name,
                line: lineno,
                func: String::new(),
                ufunc: false,
                wrap: true,
                checked: true,
                tol: Tol::Exact,
                args: Vec::new(),
                ret: None,
                outs: Vec::new(),
                bufs: Vec::new(),
            });
            continue;
        }
        let case = cases.last_mut().ok_or_else(|| err(format!("`{kw}` before any case")))?;
        let one = |what: &str| -> Result<String, String> {
            rest.first().cloned().ok_or_else(|| err(format!("`{what}` needs an operand")))
        };
        match kw {
            "call" | "ufunc" => {
                case.func = one(kw)?;
                case.ufunc = kw == "ufunc";
            }
            "mode" => {
                let m = one("mode")?;
                (case.wrap, case.checked) = match m.as_str() {
                    "both" => (true, true),
                    "wrap" => (true, false),
                    "checked" => (false, true),
                    _ => return Err(err(format!("bad mode {m:?}"))),
                };
            }
            "tol" => {
                let t = one("tol")?;
                case.tol = if let Some(n) = t.strip_prefix("ulps=") {
                    Tol::Ulps(n.parse().map_err(|_| err(format!("bad tolerance {t:?}")))?)
                } else if let Some(r) = t.strip_prefix("rel=") {
                    Tol::Rel(r.parse().map_err(|_| err(format!("bad tolerance {t:?}")))?)
                } else {
                    return Err(err(format!("bad tolerance {t:?}")));
                };
            }
            "arg" => {
                let (dtype, array) = parse_dtype(&one("arg")?).map_err(err)?;
                if array {
                    let (attrs, buf) = parse_array_tail(dtype, &rest[1..]).map_err(err)?;
                    let a = ArrayArg {
                        dtype,
                        shape: parse_list(attr(&attrs, "shape").map_err(err)?).map_err(err)?,
                        strides: parse_list(attr(&attrs, "strides").map_err(err)?).map_err(err)?,
                        offset: attr(&attrs, "offset").map_err(err)?.parse().map_err(|_| err("bad offset".into()))?,
                        buf,
                    };
                    let n: usize = attr(&attrs, "buf").map_err(err)?.parse().map_err(|_| err("bad buf=".into()))?;
                    if n != a.buf.len() || a.shape.len() != a.strides.len() {
                        return Err(err("array size, shape or strides do not agree".into()));
                    }
                    case.args.push(Arg::Array(a));
                } else {
                    let v = rest.get(1).ok_or_else(|| err("arg without a value".into()))?;
                    case.args.push(Arg::Scalar(parse_value(dtype, v).map_err(err)?));
                }
            }
            "ret" => {
                let t = one("ret")?;
                case.ret = Some(if t == "void" {
                    Ret::Void
                } else {
                    let (dtype, array) = parse_dtype(&t).map_err(err)?;
                    if array {
                        let (attrs, values) = parse_array_tail(dtype, &rest[1..]).map_err(err)?;
                        let shape = parse_list(attr(&attrs, "shape").map_err(err)?).map_err(err)?;
                        Ret::Array { dtype, shape, values }
                    } else {
                        let v = rest.get(1).ok_or_else(|| err("ret without a value".into()))?;
                        Ret::Scalar(parse_value(dtype, v).map_err(err)?)
                    }
                });
            }
            "panic" => {
                let msg = one("panic")?;
                let body = msg.strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or_else(|| err("bad message".into()))?;
                let message = String::from_utf8(unescape(body, false).map_err(err)?).map_err(|_| err("bad message".into()))?;
                if rest.get(1).map(String::as_str) != Some("at") {
                    return Err(err("panic needs `at FILE:LINE:COL`".into()));
                }
                let loc = parse_loc(rest.get(2).ok_or_else(|| err("panic without a location".into()))?).map_err(err)?;
                case.ret = Some(Ret::Panic { message, loc });
            }
            "out" | "buf" => {
                let idx: usize = one(kw)?.parse().map_err(|_| err("bad argument index".into()))?;
                let dtype = match case.args.get(idx) {
                    Some(Arg::Array(a)) => a.dtype,
                    _ => return Err(err(format!("argument {idx} is not an array"))),
                };
                let (_, values) = parse_array_tail(dtype, &rest[1..]).map_err(err)?;
                if kw == "out" { &mut case.outs } else { &mut case.bufs }.push((idx, values));
            }
            _ => return Err(err(format!("unknown line kind `{kw}`"))),
        }
    }
    for c in &cases {
        if c.func.is_empty() || c.ret.is_none() {
            return Err(format!("case {} (line {}) needs a `call`/`ufunc` and a `ret`/`panic` line", c.name, c.line));
        }
    }
    Ok(cases)
}

// ---------------------------------------------------------------------------
// Comparison.

/// Position of a float on the integer line of its dtype's bit patterns,
/// monotonic in the value, so ulp distance is a difference.
fn ordinal(dtype: DType, x: f64) -> i64 {
    let (bits, width) = match dtype {
        DType::Float16 => (half::f16::from_f64(x).to_bits() as u64, 16),
        DType::Float32 | DType::Complex64 => ((x as f32).to_bits() as u64, 32),
        _ => (x.to_bits(), 64),
    };
    let sign = 1u64 << (width - 1);
    let mag = (bits & (sign - 1)) as i64;
    if bits & sign != 0 {
        -mag
    } else {
        mag
    }
}

fn float_close(dtype: DType, got: f64, want: f64, tol: Tol, scale: f64) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    if got.to_bits() == want.to_bits() {
        return true;
    }
    match tol {
        Tol::Exact => false,
        Tol::Ulps(n) => {
            got.is_finite() && want.is_finite() && ordinal(dtype, got).abs_diff(ordinal(dtype, want)) <= n
        }
        Tol::Rel(r) => got.is_finite() && want.is_finite() && (got - want).abs() <= r * scale,
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Float(d, x) => format!("{d} {x:?} (bits {:#x})", x.to_bits()),
        Value::Complex(d, re, im) => format!("{d} ({re:?}, {im:?})"),
        Value::Array(a) => format!("{a:?}"),
        v => format!("{v:?}"),
    }
}

fn values_match(got: &Value, want: &Value, tol: Tol) -> bool {
    match (got, want) {
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Int(d1, a), Value::Int(d2, b)) => d1 == d2 && a == b,
        (Value::Float(d1, a), Value::Float(d2, b)) => d1 == d2 && float_close(*d1, *a, *b, tol, b.abs()),
        (Value::Complex(d1, r1, i1), Value::Complex(d2, r2, i2)) => {
            let scale = r2.hypot(*i2);
            d1 == d2 && float_close(*d1, *r1, *r2, tol, scale) && float_close(*d1, *i1, *i2, tol, scale)
        }
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Bytes(a), Value::Bytes(b)) => a == b,
        _ => false,
    }
}

fn compare_list(what: &str, got: &[Value], want: &[Value], tol: Tol) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{what}: {} elements, expected {}", got.len(), want.len()));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if !values_match(g, w, tol) {
            return Err(format!("{what}: element {i} is {}, expected {}", show(g), show(w)));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Running.

fn build_args(case: &Case) -> (Vec<Value>, Vec<Option<Array>>) {
    let mut vals = Vec::new();
    let mut arrays = Vec::new();
    for a in &case.args {
        match a {
            Arg::Scalar(v) => {
                vals.push(v.clone());
                arrays.push(None);
            }
            Arg::Array(a) => {
                let base = Array::from_values(a.dtype, &[a.buf.len()], &a.buf);
                let view = base.view(a.shape.clone(), a.strides.clone(), a.offset);
                vals.push(Value::Array(view.clone()));
                arrays.push(Some(view));
            }
        }
    }
    (vals, arrays)
}

fn whole_buffer(view: &Array, n: usize) -> Array {
    view.view(vec![n], vec![view.dtype.size_bytes() as isize], 0)
}

fn run_case(program: &Program, case: &Case, checked: bool) -> Result<(), String> {
    let (args, arrays) = build_args(case);
    let mut interp = Interpreter::new(program, InterpOptions { overflow_checks: checked, fuel: Some(FUEL) });
    let mid = ModuleId::from_u32(0);
    let result: Result<Option<Value>, Trap> =
        if case.ufunc { interp.call_ufunc(mid, &case.func, &args) } else { interp.call(mid, &case.func, &args) };
    let tol = case.tol;
    match (case.ret.as_ref().unwrap(), result) {
        (Ret::Panic { message, loc }, Err(t)) => {
            if t.kind != TrapKind::Panic || &t.message != message || t.loc.as_ref() != Some(loc) {
                return Err(format!(
                    "trapped `{t}` ({:?}), expected `panic: {message} at {}:{}:{}`",
                    t.kind, loc.0, loc.1, loc.2
                ));
            }
            return Ok(());
        }
        (Ret::Panic { message, loc }, Ok(v)) => {
            return Err(format!(
                "returned {}, expected `panic: {message} at {}:{}:{}`",
                v.as_ref().map(show).unwrap_or_else(|| "nothing".into()),
                loc.0,
                loc.1,
                loc.2
            ))
        }
        (_, Err(t)) => return Err(format!("trapped `{t}` ({:?})", t.kind)),
        (Ret::Void, Ok(None)) => {}
        (Ret::Scalar(w), Ok(Some(g))) => {
            if !values_match(&g, w, tol) {
                return Err(format!("returned {}, expected {}", show(&g), show(w)));
            }
        }
        (Ret::Array { dtype, shape, values }, Ok(Some(Value::Array(a)))) => {
            if a.dtype != *dtype || &a.shape != shape {
                return Err(format!("returned a {}[] of shape {:?}, expected {dtype}[] of shape {shape:?}", a.dtype, a.shape));
            }
            compare_list("returned array", &a.to_values(), values, tol)?;
        }
        (want, Ok(got)) => {
            return Err(format!(
                "returned {}, expected {want:?}",
                got.as_ref().map(show).unwrap_or_else(|| "nothing".into())
            ))
        }
    }
    for (idx, want) in &case.outs {
        let a = arrays[*idx].as_ref().unwrap();
        compare_list(&format!("argument {idx}"), &a.to_values(), want, tol)?;
    }
    for (idx, want) in &case.bufs {
        let a = arrays[*idx].as_ref().unwrap();
        let n = match &case.args[*idx] {
            Arg::Array(x) => x.buf.len(),
            _ => unreachable!(),
        };
        compare_list(&format!("buffer of argument {idx}"), &whole_buffer(a, n).to_values(), want, tol)?;
    }
    Ok(())
}

/// Runs every case of one program; returns the failures and the number of
/// runs.
fn run_program(name: &str, module: Module, expected: &str) -> (Vec<String>, usize) {
    let cases = match parse_expected(expected) {
        Ok(c) => c,
        Err(e) => return (vec![format!("{name}.expected: {e}")], 0),
    };
    let program = Program::from_module(module);
    let mut failures = Vec::new();
    let mut runs = 0;
    if cases.is_empty() {
        failures.push(format!("{name}.expected has no cases"));
    }
    for case in &cases {
        for (checked, on) in [(false, case.wrap), (true, case.checked)] {
            if !on {
                continue;
            }
            runs += 1;
            let mode = if checked { "overflow_checks" } else { "wrapping" };
            if let Err(e) = run_case(&program, case, checked) {
                failures.push(format!("{name}: case {} ({}, {mode}): {e}", case.name, case.func));
            }
        }
    }
    (failures, runs)
}

#[test]
fn programs_match_the_oracle() {
    let files = program_files();
    let mut failures = Vec::new();
    let mut total = 0;
    for path in &files {
        let name = stem(path);
        let module = match load(path) {
            Ok(m) => m,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let exp_path = path.with_extension("expected");
        let expected = match std::fs::read_to_string(&exp_path) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e} (run tests/programs/oracle.py)", exp_path.display()));
                continue;
            }
        };
        let (f, runs) = run_program(&name, module, &expected);
        failures.extend(f);
        total += runs;
    }
    assert!(
        failures.is_empty(),
        "{} of {total} program runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_covers_every_opcode_and_dtype() {
    let files = program_files();
    assert!(files.len() >= MIN_PROGRAMS, "only {} programs in tests/programs, expected at least {MIN_PROGRAMS}", files.len());
    let mut opcodes = BTreeSet::new();
    let mut dtypes = BTreeSet::new();
    for path in &files {
        let m = load(path).unwrap_or_else(|e| panic!("{e}"));
        for f in m.functions.iter() {
            for v in f.body.tags.ids() {
                opcodes.insert(f.body.opcode(v));
                if let Some(t) = f.body.ty(v) {
                    dtypes.insert(m.types.dtype(t));
                }
            }
        }
    }
    let missing_ops: Vec<&str> = Opcode::ALL.iter().filter(|o| !opcodes.contains(o)).map(|o| o.mnemonic()).collect();
    let missing_dtypes: Vec<&str> = DType::ALL.iter().filter(|d| !dtypes.contains(d)).map(|d| d.name()).collect();
    assert!(missing_ops.is_empty(), "no program uses the opcodes {missing_ops:?}");
    assert!(missing_dtypes.is_empty(), "no program uses the dtypes {missing_dtypes:?}");
}

#[test]
fn every_program_has_expected_results() {
    for path in program_files() {
        let exp = path.with_extension("expected");
        assert!(exp.exists(), "{} has no {}", path.display(), exp.display());
    }
}

/// When python3 and NumPy are present, the committed `.expected` files
/// must be what `oracle.py` writes now.
#[test]
fn expected_files_are_up_to_date() {
    let have_numpy = std::process::Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_numpy {
        eprintln!("python3 with numpy not found; not checking that the .expected files are fresh");
        return;
    }
    let out = std::process::Command::new("python3")
        .arg(programs_dir().join("oracle.py"))
        .arg("--check")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "tests/programs/*.expected are stale; run `python3 tests/programs/oracle.py`:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn float_text_reads_bit_exactly() {
    for x in [0.0, -0.0, 1.0, -2.5, 0.1, f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e-310, f64::INFINITY] {
        let hex = hex_of(x);
        assert_eq!(parse_float(&hex).unwrap().to_bits(), x.to_bits(), "{hex}");
    }
    assert!(parse_float("nan").unwrap().is_nan());
    assert_eq!(parse_float("0x1.8000000000000p+1").unwrap(), 3.0);
    assert_eq!(parse_float("-0x1.0000000000000p-1").unwrap(), -0.5);
    assert!(parse_float("0x2.0p+0").is_err());
}

/// Python's `float.hex()`, for the self-test above.
fn hex_of(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let bits = x.to_bits();
    let sign = if bits >> 63 == 1 { "-" } else { "" };
    let e = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    match (e, frac) {
        (0, 0) => format!("{sign}0x0.0p+0"),
        (0, f) => format!("{sign}0x0.{f:013x}p-1022"),
        (e, f) => format!("{sign}0x1.{f:013x}p{:+}", e - 1023),
    }
}

#[test]
fn expected_format_parses() {
    let text = r#"
# comment
case demo
call f
mode wrap
tol ulps=2
arg Float32[] shape=2,2 strides=4,8 offset=0 buf=4 : 0x1.0p+0 -0x1.8p+1 nan inf
arg Str "a \"q\" \u{e9}\t"
arg Bytes b"\x00\xff "
arg Complex128 0x1.0p+0,-inf
ret Int8 -128
out 0 : 0x0.0p+0 -0x0.0p+0 0x1.0p-1 -inf
"#;
    let cases = parse_expected(text).unwrap();
    assert_eq!(cases.len(), 1);
    let c = &cases[0];
    assert!(c.wrap && !c.checked);
    assert_eq!(c.tol, Tol::Ulps(2));
    assert_eq!(c.args.len(), 4);
    match &c.args[1] {
        Arg::Scalar(Value::Str(s)) => assert_eq!(s, "a \"q\" \u{e9}\t"),
        a => panic!("{a:?}"),
    }
    match &c.args[2] {
        Arg::Scalar(Value::Bytes(b)) => assert_eq!(b, &[0u8, 0xff, b' ']),
        a => panic!("{a:?}"),
    }
    let p = parse_expected("case p\ncall g\npanic \"division by zero\" at tests/programs/x.pir:3:5\n").unwrap();
    match &p[0].ret {
        Some(Ret::Panic { message, loc }) => {
            assert_eq!(message, "division by zero");
            assert_eq!(loc, &("tests/programs/x.pir".to_string(), 3, 5));
        }
        r => panic!("{r:?}"),
    }
}
