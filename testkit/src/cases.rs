//! The `.expected` case format of `tests/programs/` and `tests/py/`
//! (described in `tests/programs/README.md`): the parser and the argument
//! builder.

use postc_ir::interp::{Array, Value};
use postc_ir::DType;

// ---------------------------------------------------------------------------
// The `.expected` format.

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Tol {
    Exact,
    /// Real floats (and each part of a complex): at most this many units in
    /// the last place of the dtype apart.
    Ulps(u64),
    /// |got - expected| <= rel * |expected| (the magnitude of a complex,
    /// per part).
    Rel(f64),
}

#[derive(Clone, Debug)]
pub struct ArrayArg {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: usize,
    /// The whole buffer, in memory order.
    pub buf: Vec<Value>,
}

#[derive(Clone, Debug)]
pub enum Arg {
    Scalar(Value),
    Array(ArrayArg),
}

#[derive(Clone, Debug)]
pub enum Ret {
    Void,
    Scalar(Value),
    Array {
        dtype: DType,
        shape: Vec<usize>,
        values: Vec<Value>,
    },
    /// A tuple result: one `ret` line per element, scalars and arrays.
    Tuple(Vec<Ret>),
    Panic {
        message: String,
        loc: (String, u32, u32),
    },
}

#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub line: usize,
    pub func: String,
    pub ufunc: bool,
    pub wrap: bool,
    pub checked: bool,
    pub tol: Tol,
    pub args: Vec<Arg>,
    pub ret: Option<Ret>,
    /// Argument index → expected elements in logical C order.
    pub outs: Vec<(usize, Vec<Value>)>,
    /// Argument index → expected whole buffer in memory order.
    pub bufs: Vec<(usize, Vec<Value>)>,
    /// What the call prints (`print` in compiled code): the `stdout` line,
    /// empty without one. A panicking case's output is not checked.
    pub stdout: String,
}

/// Splits a line at whitespace, keeping `"..."` and `b"..."` (with `\"`
/// escapes) as single tokens.
pub fn tokens(line: &str) -> Result<Vec<String>, String> {
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

pub fn unescape(body: &str, bytes: bool) -> Result<Vec<u8>, String> {
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
pub fn parse_float(s: &str) -> Result<f64, String> {
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

pub fn parse_value(dtype: DType, s: &str) -> Result<Value, String> {
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

pub fn parse_dtype(s: &str) -> Result<(DType, bool), String> {
    let (name, array) = match s.strip_suffix("[]") {
        Some(n) => (n, true),
        None => (s, false),
    };
    DType::from_name(name).map(|d| (d, array)).ok_or_else(|| format!("unknown dtype {s:?}"))
}

pub fn parse_list<T: std::str::FromStr>(s: &str) -> Result<Vec<T>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split(',').map(|x| x.parse().map_err(|_| format!("bad list {s:?}"))).collect()
}

/// `key=value` attributes up to `:`, then the values.
pub fn parse_array_tail(dtype: DType, toks: &[String]) -> Result<(Vec<(String, String)>, Vec<Value>), String> {
    let colon = toks.iter().position(|t| t == ":").ok_or("array without `:`")?;
    let mut attrs = Vec::new();
    for t in &toks[..colon] {
        let (k, v) = t.split_once('=').ok_or_else(|| format!("bad attribute {t:?}"))?;
        attrs.push((k.to_string(), v.to_string()));
    }
    let values = toks[colon + 1..].iter().map(|t| parse_value(dtype, t)).collect::<Result<_, _>>()?;
    Ok((attrs, values))
}

pub fn attr<'a>(attrs: &'a [(String, String)], key: &str) -> Result<&'a str, String> {
    attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).ok_or_else(|| format!("missing {key}="))
}

pub fn parse_loc(s: &str) -> Result<(String, u32, u32), String> {
    let mut parts = s.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    let file = parts.next();
    match (file, line, col) {
        (Some(f), Some(l), Some(c)) => Ok((f.to_string(), l, c)),
        _ => Err(format!("bad location {s:?}")),
    }
}

pub fn parse_expected(text: &str) -> Result<Vec<Case>, String> {
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
                stdout: String::new(),
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
                let element = if t == "void" {
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
                };
                // A second `ret` line makes the result a tuple of them.
                case.ret = Some(match (case.ret.take(), element) {
                    (None, e) => e,
                    (Some(_), Ret::Void) | (Some(Ret::Void | Ret::Panic { .. }), _) => {
                        return Err(err("a tuple element is a scalar or an array".into()))
                    }
                    (Some(Ret::Tuple(mut es)), e) => {
                        es.push(e);
                        Ret::Tuple(es)
                    }
                    (Some(first), e) => Ret::Tuple(vec![first, e]),
                });
            }
            "panic" => {
                let msg = one("panic")?;
                let body =
                    msg.strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or_else(|| err("bad message".into()))?;
                let message =
                    String::from_utf8(unescape(body, false).map_err(err)?).map_err(|_| err("bad message".into()))?;
                if rest.get(1).map(String::as_str) != Some("at") {
                    return Err(err("panic needs `at FILE:LINE:COL`".into()));
                }
                let loc = parse_loc(rest.get(2).ok_or_else(|| err("panic without a location".into()))?).map_err(err)?;
                case.ret = Some(Ret::Panic { message, loc });
            }
            "stdout" => {
                let text = one("stdout")?;
                let body =
                    text.strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or_else(|| err("bad text".into()))?;
                case.stdout =
                    String::from_utf8(unescape(body, false).map_err(err)?).map_err(|_| err("bad text".into()))?;
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

pub fn build_args(case: &Case) -> (Vec<Value>, Vec<Option<Array>>) {
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
