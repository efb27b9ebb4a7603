//! Differential test of the frontend's typing and arithmetic against
//! CPython with NumPy 2: random expressions over parameters of every
//! numeric dtype and Python literals (weak, NEP 50) are run under CPython
//! with the stand-in modules, which gives each result's dtype and value;
//! the same functions, annotated with that dtype, are lowered and run in
//! the reference interpreter. The frontend must infer exactly CPython's
//! dtype (the returned value needs no conversion) and compute the same
//! value.

use postc_ir::interp::{InterpOptions, Interpreter, Value};
use postc_ir::{DType, ModuleId, Opcode};
use postc_testkit::corpus::repo_root;
use std::fmt::Write as _;

const DTYPES: [&str; 13] = [
    "Bool",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "Float16",
    "Float32",
    "Float64",
    "Complex128",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// An expression over `a`, `b`, `c`; divisors are parameters or nonzero
/// literals (the parameters are never zero).
fn expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.next(3) == 0 {
        return match r.next(6) {
            0 => "a".into(),
            1 => "b".into(),
            2 => "c".into(),
            3 => format!("{}", 1 + r.next(9)),
            4 => ["0.5", "2.25", "1.5", "3.0"][r.next(4)].into(),
            _ => ["a", "b", "c"][r.next(3)].into(),
        };
    }
    let x = expr(r, depth - 1);
    match r.next(12) {
        0 => format!("({x} + {})", expr(r, depth - 1)),
        1 => format!("({x} - {})", expr(r, depth - 1)),
        2 => format!("({x} * {})", expr(r, depth - 1)),
        3 => format!("({x} / {})", ["a", "b", "c", "2", "4.0"][r.next(5)]),
        4 => format!("({x} // {})", ["a", "b", "c", "3"][r.next(4)]),
        5 => format!("({x} % {})", ["a", "b", "c", "5"][r.next(4)]),
        // No `min`/`max`: Python's return one of their operands unchanged,
        // so under CPython their dtype depends on the values; postc gives
        // them the operands' common dtype, as Numba does.
        6 => format!("({x} * {})", expr(r, depth - 1)),
        7 => format!("({x} + {})", expr(r, depth - 1)),
        8 => format!("abs({x})"),
        9 => format!("({x} < {})", expr(r, depth - 1)),
        10 => format!("({x} == {})", expr(r, depth - 1)),
        _ => format!("-({x})"),
    }
}

fn value_of(dtype: &str, k: usize) -> String {
    match dtype {
        "Bool" => "True".into(),
        "Float16" | "Float32" | "Float64" => format!("{}.75", 1 + k),
        "Complex128" => format!("complex({}, 1.5)", 1 + k),
        _ => format!("{}", 1 + k),
    }
}

/// An expression meeting a result of Python's `math`, `round` or `int`
/// (a Python float, int or bool: weak) with the parameters. Only functions that are
/// correctly rounded everywhere, so CPython's C library and the reference
/// interpreter agree to the bit.
fn math_expr(r: &mut Rng) -> String {
    let x = ["a", "b", "c"][r.next(3)];
    let y = ["a", "b", "c", "2", "0.5"][r.next(5)];
    let call = match r.next(12) {
        0 => format!("math.sqrt({x})"),
        1 => format!("math.floor({x})"),
        2 => format!("math.ceil({x})"),
        3 => format!("math.fabs({x})"),
        4 => format!("math.copysign({x}, -1.0)"),
        5 => format!("math.pow({x}, 2)"),
        6 => format!("math.isfinite({x})"),
        7 => format!("math.isnan({x})"),
        8 => format!("math.isclose({x}, {y})"),
        9 => format!("round({x})"),
        10 => format!("int({x})"),
        _ => ["math.pi", "math.e", "math.tau"][r.next(3)].to_owned(),
    };
    match r.next(5) {
        0 => format!("({call} + {y})"),
        1 => format!("({y} * {call})"),
        2 => format!("({y} - {call})"),
        3 => format!("({call} < {y})"),
        _ => format!("({call} + {})", expr(r, 1)),
    }
}

#[test]
fn inferred_dtypes_and_values_match_cpython() {
    let mut r = Rng(0x5eed_cafe_f00d_1234);
    let mut funcs = Vec::new();
    for i in 0..1500 {
        let ts: Vec<&str> = (0..3).map(|_| DTYPES[r.next(DTYPES.len())]).collect();
        let body = expr(&mut r, 3);
        let args: Vec<String> = ts.iter().enumerate().map(|(k, t)| value_of(t, k)).collect();
        funcs.push((format!("f{i}"), ts, body, args));
    }
    matches_cpython(&funcs);
}

/// Python's `math` gives Python numbers, which meet NumPy scalars as
/// weak operands: `x32 * math.sqrt(y)` is Float32, `n32 + math.floor(x)`
/// Int32.
#[test]
fn math_results_are_weak_python_numbers() {
    let mut r = Rng(0x3a7f_c0de_1357_2468);
    let mut funcs = Vec::new();
    // No Complex128: NumPy's complex scalars convert to a float for
    // `math` with a warning (dropping the imaginary part); compiled code
    // refuses them.
    let real = &DTYPES[..DTYPES.len() - 1];
    for i in 0..600 {
        let ts: Vec<&str> = (0..3).map(|_| real[r.next(real.len())]).collect();
        let body = math_expr(&mut r);
        let args: Vec<String> = ts.iter().enumerate().map(|(k, t)| value_of(t, k)).collect();
        funcs.push((format!("m{i}"), ts, body, args));
    }
    matches_cpython(&funcs);
}

/// Runs each `(name, parameter dtypes, body, arguments)` under CPython
/// and through the frontend and the reference interpreter: the inferred
/// dtype and the value must be CPython's.
fn matches_cpython(funcs: &[(String, Vec<&str>, String, Vec<String>)]) {
    let n = funcs.len();
    // CPython: each result's dtype name and value, or the error it raised.
    // One directory per run of this function: the tests run in parallel.
    let dir = std::env::temp_dir().join(format!("postc-nep50-{}-{}", std::process::id(), funcs[0].0));
    std::fs::create_dir_all(&dir).unwrap();
    let mut probe =
        String::from("import math\nimport numpy as np\nfrom postyp import *\nnp.seterr(all='ignore')\nres = []\n");
    for (name, ts, body, args) in funcs {
        let _ = writeln!(probe, "def {name}(a, b, c):\n    return {body}");
        let call_args: Vec<String> = ts.iter().zip(args).map(|(t, v)| format!("{t}({v})")).collect();
        let _ = writeln!(
            probe,
            "try:\n    v = {name}({})\n    res.append((type(v).__name__, (repr(float(v.real)) + ',' + repr(float(v.imag))) if isinstance(v, (complex, np.complexfloating)) else repr(float(v)) if not isinstance(v, (bool, np.bool_)) else repr(bool(v))))\nexcept Exception as e:\n    res.append(('error', type(e).__name__))",
            call_args.join(", ")
        );
    }
    probe.push_str("for t, v in res:\n    print(t, v)\n");
    std::fs::write(dir.join("probe.py"), &probe).unwrap();
    let out = std::process::Command::new("python3")
        .arg(dir.join("probe.py"))
        .env("PYTHONPATH", repo_root().join("python"))
        .output()
        .expect("python3 with NumPy (scripts/setup) runs the probe");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), n);

    let np_dtype = |t: &str| -> Option<&'static str> {
        Some(match t {
            "bool" | "bool_" => "Bool",
            "int8" => "Int8",
            "int16" => "Int16",
            "int32" => "Int32",
            "int64" | "int" => "Int64",
            "uint8" => "UInt8",
            "uint16" => "UInt16",
            "uint32" => "UInt32",
            "uint64" => "UInt64",
            "float16" => "Float16",
            "float32" => "Float32",
            "float64" | "float" => "Float64",
            "complex64" => "Complex64",
            "complex128" | "complex" => "Complex128",
            _ => return None,
        })
    };
    let header = format!("import math\nfrom postyp import {}, Complex64\n", DTYPES.join(", "));
    let mut src = header.clone();
    let mut kept = Vec::new();
    for ((name, ts, body, args), line) in funcs.iter().zip(&lines) {
        let (t, v) = line.split_once(' ').unwrap();
        let Some(dt) = np_dtype(t) else { continue };
        let _ = writeln!(src, "def {name}(a: {}, b: {}, c: {}) -> {dt}:\n    return {body}", ts[0], ts[1], ts[2]);
        kept.push((name.clone(), ts.clone(), args.clone(), dt, v.to_owned(), body.clone()));
    }
    assert!(kept.len() > n * 3 / 4, "CPython rejected too many: {} kept", kept.len());
    // NumPy orders complex numbers lexicographically; POST Python, as
    // Python itself, does not: those functions are left out.
    let lines: Vec<String> = src.lines().map(str::to_owned).collect();
    if let Err(diags) = postc_frontend::lower_source("nep50.py", &src) {
        let mut drop = std::collections::HashSet::new();
        for d in &diags {
            let line = d.pos.as_ref().map_or(0, |p| p.line as usize);
            let def = lines.get(line.saturating_sub(2)).cloned().unwrap_or_default();
            assert!(
                d.message.starts_with("complex numbers are not ordered"),
                "{}\n  {def}\n  {}",
                d.message,
                lines.get(line.saturating_sub(1)).cloned().unwrap_or_default()
            );
            drop.insert(def.split('(').next().unwrap_or("").trim_start_matches("def ").to_owned());
        }
        kept.retain(|k| !drop.contains(&k.0));
        src = header.clone();
        for (name, ts, _, dt, _, body) in &kept {
            let _ = writeln!(src, "def {name}(a: {}, b: {}, c: {}) -> {dt}:\n    return {body}", ts[0], ts[1], ts[2]);
        }
    }
    let program = postc_frontend::lower_source("nep50.py", &src).unwrap_or_else(|d| panic!("{d:?}"));
    let m = &program.modules[ModuleId::from_u32(0)];
    let mut failures = Vec::new();
    let mut interp = Interpreter::new(&program, InterpOptions { overflow_checks: false, fuel: Some(1_000_000) });
    for (name, ts, args, dt, want, body) in &kept {
        let f = &m.functions[m.get_function(name).unwrap()];
        // The returned value is the expression's own: no conversion.
        let ret = f
            .body
            .blocks
            .iter()
            .flat_map(|b| b.start..b.end)
            .map(postc_ir::ValueId::from_u32)
            .find(|v| f.body.opcode(*v) == Opcode::Return);
        if let Some(postc_ir::body::InstData::Return { value: Some(x) }) = ret.map(|r| f.body.inst(r)) {
            if f.body.opcode(x) == Opcode::Cast && !body.starts_with("abs") {
                let from = m.types.get(f.body.ty(f.body.operands(x)[0]).unwrap()).dtype;
                failures.push(format!("{name}({}) = {body}: inferred {from}, CPython {dt}", ts.join(", ")));
                continue;
            }
        }
        let vals: Vec<Value> = ts
            .iter()
            .zip(args)
            .map(|(t, a)| {
                let d = DType::from_name(t).unwrap();
                match d {
                    DType::Bool => Value::Bool(true),
                    DType::Complex128 => {
                        let re: f64 = a.trim_start_matches("complex(").split(',').next().unwrap().parse().unwrap();
                        Value::complex(d, re, 1.5)
                    }
                    _ if d.is_float() => Value::float(d, a.parse().unwrap()),
                    _ => Value::Int(d, a.parse().unwrap()),
                }
            })
            .collect();
        let got = match interp.call(ModuleId::from_u32(0), name, &vals) {
            Ok(Some(v)) => v,
            other => {
                failures.push(format!("{name} = {body}: {other:?}"));
                continue;
            }
        };
        let got_text = match &got {
            Value::Bool(b) => if *b { "True" } else { "False" }.to_owned(),
            Value::Int(_, i) => format!("{:?}", *i as f64),
            Value::Float(_, x) => format!("{x:?}"),
            Value::Complex(_, re, im) => format!("{re:?},{im:?}"),
            other => format!("{other:?}"),
        };
        // Complex division follows CPython's algorithm; NumPy's rounds
        // differently in the last place (docs/ir-text.md, Semantics).
        let ulps = |a: f64, b: f64| (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs();
        let near = |g: &str, w: &str| {
            let parts = |t: &str| -> Option<(f64, f64)> {
                let (a, b) = t.split_once(',')?;
                Some((a.parse().ok()?, b.parse().ok()?))
            };
            matches!((parts(g), parts(w)), (Some((a, b)), Some((c, d))) if ulps(a, c) <= 2 && ulps(b, d) <= 2)
        };
        let same = got_text == *want
            || (dt.starts_with("Complex") && body.contains('/') && near(&got_text, want))
            || (want.parse::<f64>().ok().zip(got_text.parse::<f64>().ok()))
                .is_some_and(|(w, g)| (w.is_nan() && g.is_nan()) || w == g);
        if !same {
            failures.push(format!("{name}({}) = {body} as {dt}: got {got_text}, CPython {want}", ts.join(", ")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), kept.len(), failures.join("\n"));
}
