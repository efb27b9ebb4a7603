//! The wasm backend: every tests/programs program at -O0 (overflow checks,
//! the `checked` cases) and -O2 (the `wrap` cases) becomes a module that
//! wasmparser validates, V8 (Node) instantiates through the loader
//! `codegen/src/wasm/postc.mjs`, and whose cases give the expected results
//! and panics (message and location); the driver writes `--emit wasm` and
//! `--emit wat`, deterministically. The tests/py programs (loops with
//! `break` and `continue`, nested loops, as the frontend lowers them) run
//! the same way, and their control flow must be structured: WebAssembly
//! `loop`s and `block`s, no dispatch loop.

mod support;
use postc_codegen::backend::Backend;
use postc_codegen::{CodegenOptions, EmitKind, OptLevel};
use postc_ir::interp::{Array, Value};
use postc_ir::{DType, Program};
use postc_testkit::cases::{parse_expected, Arg, Case, Ret};
use postc_testkit::compare::{compare_list, show, values_match};
use postc_testkit::run::check_return;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{driver, root, tmpdir, DECLARED_STRIDES_PIR};

fn node() -> Command {
    Command::new("node")
}

/// Compiles the `.pir` file `src` to the WebAssembly module `wasm` at
/// `-O{level}` through the driver.
fn compile_wasm(src: &Path, wasm: &Path, level: u8) {
    let out = Command::new(driver())
        .args(["compile", "--backend", "wasm", "--emit", "wasm", &format!("-O{level}")])
        .arg(src)
        .arg("-o")
        .arg(wasm)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Runs the JavaScript `body` under Node with `m` the module `wasm`
/// instantiated through the loader (and `PostcPanic` in scope); its
/// standard output, once Node has exited successfully.
fn run_with_module(dir: &Path, wasm: &Path, body: &str) -> String {
    run_with_module_flags(dir, wasm, &[], body)
}

/// [`run_with_module`] with Node's `flags`.
fn run_with_module_flags(dir: &Path, wasm: &Path, flags: &[&str], body: &str) -> String {
    let loader = root().join("codegen/src/wasm/postc.mjs");
    let script = format!(
        "import {{ instantiate, PostcPanic }} from {loader:?};\n\
         import {{ readFileSync }} from 'node:fs';\n\
         const m = await instantiate(readFileSync({wasm:?}));\n{body}"
    );
    let js = dir.join("t.mjs");
    std::fs::write(&js, script).unwrap();
    let out = node().args(flags).arg(&js).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn node_is_installed() {
    let out = node().arg("--version").output().expect("node runs (scripts/setup installs Debian's nodejs)");
    assert!(out.status.success());
}

fn emit(program: &Program, level: u8, kind: EmitKind) -> Result<Vec<u8>, String> {
    let options = CodegenOptions::for_level(OptLevel::from_u8(level).unwrap());
    postc_codegen::wasm::Wasm.emit(program, &options, kind).map_err(|d| {
        d.iter()
            .map(|d| format!("{} @ {:?}", d.message, d.pos.as_ref().map(|p| (p.line, p.col))))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

fn float_bits(d: DType, x: f64) -> String {
    if d == DType::Float32 {
        format!("0x{:x}", (x as f32).to_bits())
    } else {
        format!("0x{:x}", x.to_bits())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
}

fn encode(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(_, i) => i.to_string(),
        Value::Float(d, x) => float_bits(*d, *x),
        Value::Complex(d, re, im) => {
            let p = d.complex_part().unwrap();
            format!("{},{}", float_bits(p, *re), float_bits(p, *im))
        }
        Value::Str(s) => hex(s.as_bytes()),
        Value::Bytes(b) => hex(b),
        other => panic!("no wasm encoding for {}", show(other)),
    }
}

fn decode(d: DType, s: &str) -> Value {
    match d {
        DType::Bool => Value::Bool(s == "true"),
        DType::Float32 => Value::Float(d, f32::from_bits(u32::from_str_radix(&s[2..], 16).unwrap()) as f64),
        DType::Float64 | DType::Float16 => Value::Float(d, f64::from_bits(u64::from_str_radix(&s[2..], 16).unwrap())),
        DType::Complex64 | DType::Complex128 => {
            let (re, im) = s.split_once(',').unwrap();
            let part = |x: &str| match decode(d.complex_part().unwrap(), x) {
                Value::Float(_, x) => x,
                _ => unreachable!(),
            };
            Value::Complex(d, part(re), part(im))
        }
        DType::Str => Value::Str(String::from_utf8(unhex(s)).unwrap()),
        DType::Bytes => Value::Bytes(unhex(s)),
        _ => Value::Int(d, s.parse().unwrap()),
    }
}

fn json_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn case_json(c: &Case) -> String {
    let args: Vec<String> = c
        .args
        .iter()
        .map(|a| match a {
            Arg::Scalar(v) => format!("{{\"t\":\"{}\",\"v\":{}}}", v.dtype().name(), json_str(&encode(v))),
            Arg::Array(a) => {
                let size = a.dtype.size_bytes() as isize;
                let strides: Vec<String> = a.strides.iter().map(|s| (s / size).to_string()).collect();
                let buf: Vec<String> = a.buf.iter().map(|v| json_str(&encode(v))).collect();
                let shape: Vec<String> = a.shape.iter().map(|s| s.to_string()).collect();
                format!(
                    "{{\"t\":\"{}[]\",\"buf\":[{}],\"shape\":[{}],\"strides\":[{}],\"offset\":{}}}",
                    a.dtype.name(),
                    buf.join(","),
                    shape.join(","),
                    strides.join(","),
                    a.offset as isize / size
                )
            }
        })
        .collect();
    format!("{{\"func\":{},\"ufunc\":{},\"args\":[{}]}}", json_str(&c.func), c.ufunc, args.join(","))
}

/// A tiny reader of the runner's JSON lines: the string fields we need.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let k = format!("\"{key}\":");
    let at = line.find(&k)? + k.len();
    Some(&line[at..])
}

fn json_string(s: &str) -> Option<String> {
    let s = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                'u' => {
                    let h: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&h, 16).ok()?)?);
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

fn string_list(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s.strip_prefix('[').unwrap_or(s);
    while let Some(t) = rest.strip_prefix('"') {
        let end = t.find('"').unwrap();
        out.push(t[..end].to_owned());
        rest = t[end + 1..].trim_start_matches(',');
    }
    out
}

fn buf_lists(s: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = s.strip_prefix('[').unwrap_or(s);
    while rest.starts_with('[') {
        let end = rest.find(']').unwrap();
        out.push(string_list(&rest[..end + 1]));
        rest = rest[end + 1..].trim_start_matches(',');
    }
    out
}

fn check(c: &Case, line: &str) -> Result<(), String> {
    let want = c.ret.as_ref().unwrap();
    if !matches!(want, Ret::Panic { .. }) {
        let hex = field(line, "printed").and_then(json_string).ok_or("no `printed` field")?;
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        postc_testkit::run::check_stdout(&c.stdout, &String::from_utf8_lossy(&bytes))?;
    }
    if let Some(p) = field(line, "panic") {
        let got = json_string(p).unwrap();
        return match want {
            Ret::Panic { message, loc } => {
                let w = format!("panic: {message} at {}:{}:{}", loc.0, loc.1, loc.2);
                if got == w {
                    Ok(())
                } else {
                    Err(format!("panicked `{got}`, expected `{w}`"))
                }
            }
            _ => Err(format!("panicked `{got}`")),
        };
    }
    if let (Some(shape), Some(values)) = (field(line, "ashape"), field(line, "aret")) {
        let Ret::Array { dtype, shape: want_shape, values: want } = want else {
            return Err(format!("returned an array, expected {want:?}"));
        };
        let shape: Vec<usize> = string_list(shape).iter().map(|s| s.parse().unwrap()).collect();
        if &shape != want_shape {
            return Err(format!("returned shape {shape:?}, expected {want_shape:?}"));
        }
        let got: Vec<Value> = string_list(values).iter().map(|s| decode(*dtype, s)).collect();
        return compare_list("returned array", &got, want, c.tol);
    }
    if let Some(e) = field(line, "error") {
        return Err(format!("failed: {}", json_string(e).unwrap_or_default()));
    }
    if let Some(elements) = field(line, "tret") {
        let Ret::Tuple(wants) = want else { return Err(format!("returned a tuple, expected {want:?}")) };
        let got = buf_lists(elements)
            .iter()
            .zip(wants)
            .map(|(element, want)| match (want, element.split_first()) {
                (Ret::Array { dtype, .. }, Some((shape, values))) if shape.starts_with("shape=") => {
                    let shape: Vec<usize> = shape["shape=".len()..]
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(|s| s.parse().unwrap())
                        .collect();
                    let values: Vec<Value> = values.iter().map(|s| decode(*dtype, s)).collect();
                    Ok(Value::Array(Array::from_values(*dtype, &shape, &values)))
                }
                (Ret::Scalar(w), Some((value, []))) => Ok(decode(w.dtype(), value)),
                _ => Err(format!("returned {element:?} in a tuple, expected {want:?}")),
            })
            .collect::<Result<Vec<Value>, String>>()?;
        if got.len() != wants.len() {
            return Err(format!("returned {} elements, expected {}", got.len(), wants.len()));
        }
        check_return(want, Some(&Value::Tuple(got)), c.tol)?;
        return check_outputs(c, line);
    }
    let ret = field(line, "ret").unwrap();
    match want {
        Ret::Panic { message, .. } => return Err(format!("returned {ret}, expected panic `{message}`")),
        Ret::Void => {
            if !ret.starts_with("null") {
                return Err(format!("returned {ret}, expected nothing"));
            }
        }
        Ret::Scalar(w) => {
            let g = decode(w.dtype(), &json_string(ret).unwrap());
            if !values_match(&g, w, c.tol) {
                return Err(format!("returned {}, expected {}", show(&g), show(w)));
            }
        }
        Ret::Array { .. } | Ret::Tuple(_) => return Err(format!("returned {ret}, expected {want:?}")),
    }
    check_outputs(c, line)
}

/// Checks the arguments after the call (`out` and `buf` lines) against the
/// buffers a runner's line lists.
fn check_outputs(c: &Case, line: &str) -> Result<(), String> {
    let bufs = buf_lists(field(line, "bufs").unwrap());
    let array_args: Vec<(usize, &postc_testkit::cases::ArrayArg)> = c
        .args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| if let Arg::Array(a) = a { Some((i, a)) } else { None })
        .collect();
    let after = |idx: usize| -> (Array, usize) {
        let k = array_args.iter().position(|(i, _)| *i == idx).unwrap();
        let a = array_args[k].1;
        let vals: Vec<Value> = bufs[k].iter().map(|s| decode(a.dtype, s)).collect();
        (Array::from_values(a.dtype, &[vals.len()], &vals), a.buf.len())
    };
    for (idx, want) in &c.outs {
        let (whole, _) = after(*idx);
        let Arg::Array(a) = &c.args[*idx] else { unreachable!() };
        let view = whole.view(a.shape.clone(), a.strides.clone(), a.offset);
        compare_list(&format!("argument {idx}"), &view.to_values(), want, c.tol)?;
    }
    for (idx, want) in &c.bufs {
        let (whole, _) = after(*idx);
        compare_list(&format!("buffer of argument {idx}"), &whole.to_values(), want, c.tol)?;
    }
    Ok(())
}

/// Runs the cases of one mode through Node; returns the failures.
fn run_cases(dir: &Path, name: &str, wasm: &[u8], cases: &[&Case]) -> Vec<String> {
    let module = dir.join(format!("{name}.wasm"));
    std::fs::write(&module, wasm).unwrap();
    let job = dir.join(format!("{name}.json"));
    let list: Vec<String> = cases.iter().map(|c| case_json(c)).collect();
    std::fs::write(
        &job,
        format!("{{\"module\":{},\"cases\":[{}]}}", json_str(&module.to_string_lossy()), list.join(",\n")),
    )
    .unwrap();
    let out = node().arg(root().join("codegen/tests/support/run_wasm.mjs")).arg(&job).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return vec![format!("{name}: node failed: {}", String::from_utf8_lossy(&out.stderr))];
    }
    let lines: Vec<&str> = stdout.lines().collect();
    if lines.len() != cases.len() {
        return vec![format!("{name}: {} results for {} cases", lines.len(), cases.len())];
    }
    cases
        .iter()
        .zip(lines)
        .filter_map(|(c, l)| check(c, l).err().map(|e| format!("{name} case {} (line {}): {e}", c.name, c.line)))
        .collect()
}

/// Loads a test program: a `.pir` module, or a POST Python file with the
/// modules it imports (named relative to the repository root, as its panic
/// locations are).
fn load_program(path: &Path) -> Program {
    if path.extension().is_some_and(|e| e != "py") {
        return postc_testkit::corpus::load(path).map(Program::from_module).unwrap();
    }
    let root = root();
    let rel = path.strip_prefix(&root).unwrap_or(path).to_path_buf();
    std::env::set_current_dir(&root).unwrap();
    postc_frontend::lower_files(std::slice::from_ref(&rel), Vec::new())
        .map_err(|(sources, diags)| sources.render(&diags, false))
        .unwrap_or_else(|e| panic!("{} does not lower:\n{e}", rel.display()))
}

/// Whether a program has `kernel` functions, which the backend refuses.
fn has_kernels(program: &Program) -> bool {
    program.modules.iter().any(|m| m.functions.iter().any(|f| f.attrs.contains(postc_ir::FuncAttrs::KERNEL)))
}

/// Runs every case of every program at -O0 (the `checked` cases) and -O2
/// (the `wrap` ones); returns the failures and the number of cases run.
fn run_corpus(name: &str, paths: &[PathBuf]) -> (Vec<String>, usize) {
    let dir = tmpdir(name);
    let mut failures = Vec::new();
    let mut ran = 0;
    for path in paths {
        let stem = postc_testkit::corpus::stem(path);
        let program = load_program(path);
        let text = std::fs::read_to_string(path.with_extension("expected")).unwrap();
        let cases = parse_expected(&text).unwrap();
        for level in [0u8, 2] {
            match emit(&program, level, EmitKind::Wasm) {
                Err(e) if has_kernels(&program) => {
                    if !(e.contains("`kernel` function, which is not supported by the wasm backend")
                        && e.contains("@ Some("))
                    {
                        failures.push(format!("{stem}: expected a located diagnostic for its kernels, got:\n{e}"));
                    }
                }
                Err(e) => failures.push(format!("{stem} -O{level}: {e}")),
                Ok(_) if has_kernels(&program) => failures.push(format!("{stem}: kernels compiled")),
                Ok(wasm) => {
                    postc_codegen::wasm::validate(&wasm).unwrap();
                    let checked = level == 0;
                    // Ufunc cases run through `NAME_dl`.
                    let run: Vec<&Case> = cases.iter().filter(|c| if checked { c.checked } else { c.wrap }).collect();
                    ran += run.len();
                    failures.extend(run_cases(&dir, &format!("{stem}.O{level}"), &wasm, &run));
                }
            }
        }
    }
    (failures, ran)
}

#[test]
fn every_program_runs_under_node_at_o0_and_o2() {
    let (failures, ran) = run_corpus("wasm-programs", &postc_testkit::corpus::program_files());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(ran > 300, "only {ran} cases ran");
}

#[test]
fn driver_writes_wasm_and_wat_deterministically() {
    let dir = tmpdir("wasm-driver");
    let src = root().join("tests/programs/collatz.pir");
    let run = |args: &[&str]| {
        let out = Command::new(driver()).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let a = dir.join("a.wasm");
    let b = dir.join("b.wasm");
    let t = dir.join("c.wat");
    run(&["compile", "--backend", "wasm", "--emit", "wasm", "-O2", src.to_str().unwrap(), "-o", a.to_str().unwrap()]);
    // A wasm32 target picks the wasm backend.
    run(&[
        "compile",
        "--target",
        "wasm32-unknown-unknown",
        "--emit",
        "wasm",
        "-O2",
        src.to_str().unwrap(),
        "-o",
        b.to_str().unwrap(),
    ]);
    run(&["compile", "--backend", "wasm", "--emit", "wat", "-O2", src.to_str().unwrap(), "-o", t.to_str().unwrap()]);
    let (a, b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(&a[..4], b"\0asm");
    assert_eq!(a, b, "the same input gives the same bytes");
    postc_codegen::wasm::validate(&a).unwrap();
    let wat = std::fs::read_to_string(&t).unwrap();
    assert!(wat.starts_with("(module") && wat.contains("(export \"steps\""), "{wat}");
    // Another kind, or a target the backend does not compile, is refused.
    let out = Command::new(driver())
        .args(["compile", "--backend", "wasm", "--emit", "obj", src.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("cannot emit `obj`"));
    let out = Command::new(driver())
        .args([
            "compile",
            "--backend",
            "wasm",
            "--target",
            "x86_64-unknown-linux-gnu",
            "--emit",
            "wasm",
            src.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("wasm32 only"));
}

#[test]
fn unsupported_programs_get_a_located_diagnostic_from_the_driver() {
    // A `kernel` function runs on a GPU only.
    let dir = tmpdir("wasm-gap");
    let src = dir.join("ret.pir");
    std::fs::write(&src, "module ret\nexport k\n\nfunc k(%n: Int64) kernel {\nentry:\n  return\n}\n").unwrap();
    let out = Command::new(driver())
        .args(["compile", "--backend", "wasm", "--emit", "wasm"])
        .arg(&src)
        .arg("-o")
        .arg(dir.join("s.wasm"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("not supported by the wasm backend") && err.contains("ret.pir:4:"), "{err}");
    assert!(!dir.join("s.wasm").exists(), "no file is written on an error");
}

#[test]
fn the_loader_reports_panics_and_converts_integers() {
    // A POST Python file through the whole path: driver, loader, BigInt
    // and unsigned results, a panic with its location.
    let dir = tmpdir("wasm-loader");
    let src = dir.join("k.pir");
    std::fs::write(
        &src,
        "module k\nexport big, half, boom\n\nfunc big(%a: UInt64) -> UInt64 {\nentry:\n  %one: UInt64 = const 1\n  %r: UInt64 = add %a, %one\n  return %r\n}\n\n\
func half(%a: UInt32) -> UInt32 {\nentry:\n  %two: UInt32 = const 2\n  %r: UInt32 = fdiv %a, %two\n  return %r\n}\n\n\
func boom(%a: Int64) -> Int64 {\nentry:\n  %z: Int64 = const 0\n  %r: Int64 = fdiv %a, %z\n  return %r\n}\n",
    )
    .unwrap();
    let wasm = dir.join("k.wasm");
    compile_wasm(&src, &wasm, 2);
    let stdout = run_with_module(
        &dir,
        &wasm,
        "console.log(m.call('big', 18446744073709551614n), m.call('half', 4294967295));\n\
         try { m.call('boom', 1n); } catch (e) { console.log(e instanceof PostcPanic, e.message); }\n\
         console.log(m.call('big', 5n));\n",
    );
    let want =
        format!("18446744073709551615n 2147483647\ntrue panic: division by zero at {}:21:3\n6n\n", src.display());
    assert_eq!(stdout, want);
}

/// The software Float16 conversions against the interpreter's: every
/// Float16 widened, and rounding from Float64 at every Float16 value,
/// every midpoint between neighbours (ties to even) and the Float64 values
/// either side of it, the subnormal range, overflow, and pseudo-random bit
/// patterns.
#[test]
fn float16_conversions_are_exact_and_round_to_nearest_even() {
    use half::f16;
    let dir = tmpdir("wasm-f16");
    let src = dir.join("h.pir");
    std::fs::write(
        &src,
        "module h\nexport to16, from16\n\nfunc to16(%x: Float64) -> Float16 {\nentry:\n  %r: Float16 = cast %x\n  return %r\n}\n\n\
         func from16(%x: Float16) -> Float64 {\nentry:\n  %r: Float64 = cast %x\n  return %r\n}\n",
    )
    .unwrap();
    let wasm = dir.join("h.wasm");
    let out = Command::new(driver())
        .args(["compile", "--backend", "wasm", "--emit", "wasm"])
        .arg(&src)
        .arg("-o")
        .arg(&wasm)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut inputs: Vec<f64> =
        vec![f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e300, -1e300, 5e-324, -5e-324, 65520.0, 65519.99];
    for b in 0..=0x7bffu16 {
        let v = f16::from_bits(b).to_f64();
        let mid = (v + f16::from_bits(b + 1).to_f64()) / 2.0;
        for x in [v, mid, f64::from_bits(mid.to_bits() + 1), f64::from_bits(mid.to_bits() - 1)] {
            inputs.extend([x, -x]);
        }
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..20000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Exponents around Float16's range, any significand.
        let exp = 1023 - 30 + (seed >> 58);
        inputs.push(f64::from_bits((seed & 0x800f_ffff_ffff_ffff) | (exp << 52)));
    }
    let list = dir.join("inputs.txt");
    std::fs::write(&list, inputs.iter().map(|x| format!("{:x}\n", x.to_bits())).collect::<String>()).unwrap();
    let script = dir.join("h.mjs");
    std::fs::write(
        &script,
        format!(
            "import {{ readFileSync }} from 'node:fs';\n\
             const {{ instance }} = await WebAssembly.instantiate(readFileSync({wasm:?}), {{ env: {{ postc_panic() {{}} }} }});\n\
             const e = instance.exports, dv = new DataView(new ArrayBuffer(8)), out = [];\n\
             for (let b = 0; b < 65536; b++) {{ dv.setFloat64(0, e.from16(b)); out.push(dv.getBigUint64(0).toString(16)); }}\n\
             for (const line of readFileSync({list:?}, 'utf8').trim().split('\\n')) {{\n\
               dv.setBigUint64(0, BigInt('0x' + line)); out.push(String(e.to16(dv.getFloat64(0))));\n\
             }}\n\
             console.log(out.join('\\n'));\n"
        ),
    )
    .unwrap();
    let out = node().arg(&script).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 65536 + inputs.len());
    let mut bad = Vec::new();
    for b in 0..=0xffffu16 {
        let got = f64::from_bits(u64::from_str_radix(lines[b as usize], 16).unwrap());
        let want = f16::from_bits(b).to_f64();
        if !(got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan()) {
            bad.push(format!("widening 0x{b:04x}: {got:e}, expected {want:e}"));
        }
    }
    for (x, line) in inputs.iter().zip(&lines[65536..]) {
        let got = line.parse::<u16>().unwrap();
        let want = postc_ir::body::f16_from_f64(*x);
        if !(got == want.to_bits() || f16::from_bits(got).is_nan() && want.is_nan()) {
            bad.push(format!("rounding {x:e}: 0x{got:04x}, expected 0x{:04x}", want.to_bits()));
        }
    }
    assert!(bad.is_empty(), "{} mismatches, first: {:?}", bad.len(), &bad[..bad.len().min(10)]);
}

/// The loader's conversions of Float16, complex, Str and Bytes: numbers,
/// `{re, im}`, JavaScript strings and `Uint8Array`s in and out.
#[test]
fn the_loader_converts_float16_complex_and_text() {
    let dir = tmpdir("wasm-loader-types");
    let src = dir.join("t.pir");
    std::fs::write(
        &src,
        "module t\nexport half_sum, cmul, greet, blen, bsame\n\n\
         func half_sum(%a: Float16, %b: Float16) -> Float16 {\nentry:\n  %r: Float16 = add %a, %b\n  return %r\n}\n\n\
         func cmul(%a: Complex64, %b: Complex64) -> Complex64 {\nentry:\n  %r: Complex64 = mul %a, %b\n  return %r\n}\n\n\
         func greet(%name: Str) -> Str {\nentry:\n  %h: Str = const \"h\\u{e9}llo \"\n  %r: Str = add %h, %name\n  return %r\n}\n\n\
         func blen(%s: Str) -> Int64 {\nentry:\n  %n: Int64 = getfield %s, len\n  return %n\n}\n\n\
         func bsame(%a: Bytes) -> Bytes {\nentry:\n  return %a\n}\n",
    )
    .unwrap();
    let wasm = dir.join("t.wasm");
    compile_wasm(&src, &wasm, 2);
    let stdout = run_with_module(
        &dir,
        &wasm,
        "console.log(m.call('half_sum', 0.1, 0.2), m.call('half_sum', 65504, 16));\n\
         console.log(JSON.stringify(m.call('cmul', { re: 1, im: 2 }, [3, -1])));\n\
         console.log(m.call('greet', 'w\\u00f6rld \\u{1f600}'), m.call('blen', 'w\\u00f6rld \\u{1f600}'));\n\
         console.log(Array.from(m.call('bsame', new Uint8Array([0, 255, 7]))).join(','));\n",
    );
    // 0.1 and 0.2 round to Float16 first; their sum rounds again.
    let want = "0.2998046875 Infinity\n{\"re\":5,\"im\":5}\nhéllo wörld 😀 7n\n0,255,7\n";
    assert_eq!(stdout, want);
}

/// tests/py programs that must compile: loops with `break` and `continue`
/// (control), nested loops with early exits (primes, sorting, stencil),
/// `while` loops with a computed exit (newton, collatz).
const PY_LOOP_PROGRAMS: &[&str] = &["collatz", "control", "newton", "primes", "sorting", "stencil"];

/// The function bodies of a module's text, by the name they export.
fn wat_functions(wat: &str) -> Vec<(String, String)> {
    let mut names = HashMap::new();
    for line in wat.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("(export \"") {
            if let (Some(end), Some(at)) = (rest.find('"'), rest.find("(func ")) {
                names.insert(rest[at + 6..].trim_end_matches(')').to_owned(), rest[..end].to_owned());
            }
        }
    }
    let mut out = Vec::new();
    for chunk in wat.split("\n  (func (;").skip(1) {
        let index = chunk.split(';').next().unwrap().to_owned();
        out.push((names.get(&index).cloned().unwrap_or(index), chunk.to_owned()));
    }
    out
}

#[test]
fn python_loops_are_structured_and_run_under_node() {
    let dir = tmpdir("wasm-py");
    std::env::set_current_dir(root()).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut compiled = Vec::new();
    for path in postc_testkit::corpus::files_with_extension(&root().join("tests/py"), "py") {
        let expected = path.with_extension("expected");
        if !expected.is_file() {
            continue;
        }
        let stem = postc_testkit::corpus::stem(&path);
        let rel = PathBuf::from(format!("tests/py/{stem}.py"));
        let program =
            postc_frontend::lower_files(&[rel], Vec::new()).unwrap_or_else(|_| panic!("tests/py/{stem}.py lowers"));
        let cases = parse_expected(&std::fs::read_to_string(&expected).unwrap()).unwrap();
        for level in [0u8, 2] {
            let wasm = match emit(&program, level, EmitKind::Wasm) {
                Ok(w) => w,
                Err(e) => {
                    // Only `kernel` functions are refused, with a location.
                    let refused = e.contains("`kernel` function, which is not supported by the wasm backend");
                    if !(has_kernels(&program) && refused && e.contains("@ Some(")) {
                        failures.push(format!("{stem} -O{level}: {e}"));
                    }
                    continue;
                }
            };
            compiled.push(stem.clone());
            let wat = String::from_utf8(emit(&program, level, EmitKind::Wat).unwrap()).unwrap();
            if wat.contains("br_table") {
                failures.push(format!("{stem} -O{level}: a dispatch loop (`br_table`) in a reducible program"));
            }
            let checked = level == 0;
            let run: Vec<&Case> = cases.iter().filter(|c| if checked { c.checked } else { c.wrap }).collect();
            ran += run.len();
            failures.extend(run_cases(&dir, &format!("py-{stem}.O{level}"), &wasm, &run));
        }
    }
    for p in PY_LOOP_PROGRAMS {
        assert!(compiled.iter().filter(|c| c == p).count() == 2, "tests/py/{p}.py does not compile at -O0 and -O2");
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(ran > 300, "only {ran} cases ran");
}

#[test]
fn loops_become_wasm_loops_without_a_dispatch_table() {
    // collatz.pir: `steps` is a `while n != 1` loop, `longest` a counted
    // loop calling it, `peak_u32` a loop around an if/else; kernels.pir's
    // `matmul` three nested counted loops, the innermost split by `irce`
    // into its main loop and the checked rest, and the main loop versioned
    // by `stride-version` on unit strides: five loops.
    let collatz = postc_testkit::corpus::load(&root().join("tests/programs/collatz.pir")).unwrap();
    let kernels = std::fs::read(root().join("benches/kernels.pir")).unwrap();
    let kernels = postc_ir::parse::parse_module("kernels.pir", &kernels).unwrap();
    let wat =
        |m: postc_ir::Module| String::from_utf8(emit(&Program::from_module(m), 2, EmitKind::Wat).unwrap()).unwrap();
    let (collatz, kernels) = (wat(collatz), wat(kernels));
    for (wat, name, loops) in
        [(&collatz, "steps", 1), (&collatz, "longest", 1), (&collatz, "peak_u32", 1), (&kernels, "matmul", 5)]
    {
        let functions = wat_functions(wat);
        let body = &functions.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no `{name}` in\n{wat}")).1;
        assert!(!body.contains("br_table"), "`{name}` dispatches:\n{body}");
        // A loop is left by a `br_if` out of a `block` around it.
        assert!(body.lines().any(|l| l.trim().starts_with("br_if ")), "`{name}` has no `br_if`:\n{body}");
        // Each `loop` is entered again by a branch to its own label.
        let labels: Vec<&str> =
            body.lines().filter_map(|l| l.trim().strip_prefix("loop ;; label = ")).map(str::trim).collect();
        assert_eq!(labels.len(), loops, "`{name}`:\n{body}");
        for label in labels {
            let back = body
                .lines()
                .map(str::trim)
                .any(|l| (l.starts_with("br ") || l.starts_with("br_if ")) && l.ends_with(&format!("(;{label};)")));
            assert!(back, "no branch back to `loop` {label} in `{name}`:\n{body}");
        }
    }
}

#[test]
fn an_irreducible_function_keeps_the_dispatch_loop_and_runs() {
    // Blocks `a` and `b` enter each other and are both entered from the
    // entry: no structured form, so a `br_table` dispatch loop.
    let src = "module irr\nexport f\n\nfunc f(%n: Int64, %s: Bool) -> Int64 {\nentry:\n  %one: Int64 = const 1\n  \
let %k: Int64 = %n\n  let %acc: Int64 = %one\n  condbr %s, a, b\na:\n  %a1: Int64 = add %acc, %acc\n  set %acc = %a1\n  \
br b\nb:\n  %k1: Int64 = sub %k, %one\n  set %k = %k1\n  %z: Int64 = const 0\n  %more: Bool = gt %k1, %z\n  \
condbr %more, a, done\ndone:\n  return %acc\n}\n";
    let module = postc_ir::parse::parse_module("irr.pir", src.as_bytes()).unwrap();
    assert!(postc_ir::verify::verify_module(&module).is_empty());
    let program = Program::from_module(module);
    let wat = String::from_utf8(emit(&program, 2, EmitKind::Wat).unwrap()).unwrap();
    assert!(wat.contains("br_table"), "{wat}");
    let wasm = emit(&program, 2, EmitKind::Wasm).unwrap();
    let cases = parse_expected(
        "case s\ncall f\nmode both\narg Int64 4\narg Bool true\nret Int64 16\n\n\
         case n\ncall f\nmode both\narg Int64 4\narg Bool false\nret Int64 8\n",
    )
    .unwrap();
    let run: Vec<&Case> = cases.iter().collect();
    let failures = run_cases(&tmpdir("wasm-irreducible"), "irr", &wasm, &run);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Recursion counts the call depth: 42 nested calls return, 20000 panic
/// `recursion limit exceeded` at the call that would pass the
/// interpreter's limit, and the module runs again afterwards (the loader
/// resets the count after a panic).
#[test]
fn recursion_counts_the_call_depth() {
    let dir = tmpdir("wasm-depth");
    let src = dir.join("rec.pir");
    std::fs::write(
        &src,
        "module rec\nexport down\n\nfunc down(%n: Int64) -> Int64 {\nentry:\n  %z: Int64 = const 0\n  \
         %done: Bool = le %n, %z\n  condbr %done, base, step\nbase:\n  return %z\nstep:\n  %one: Int64 = const 1\n  \
         %m: Int64 = sub %n, %one\n  %r: Int64 = call down(%m)\n  %s: Int64 = add %r, %one\n  return %s\n}\n",
    )
    .unwrap();
    let wasm = dir.join("rec.wasm");
    compile_wasm(&src, &wasm, 2);
    // V8's default stack (about 1 MB) holds fewer frames than the limit
    // (docs/abi.md §14); the main thread's 8 MB hold them.
    let stdout = run_with_module_flags(
        &dir,
        &wasm,
        &["--stack-size=4000"],
        "console.log(m.call('down', 42n), m.call('down', 9999n));\n\
         try { m.call('down', 20000n); } catch (e) { console.log(e instanceof PostcPanic, e.message); }\n\
         console.log(m.call('down', 9999n));\n",
    );
    let want = format!("42n 9999n\ntrue panic: recursion limit exceeded at {}:14:3\n9999n\n", src.display());
    assert_eq!(stdout, want);
}

/// `NAME_dl` and `NAME_loop` are exports: the loader broadcasts through
/// them; a core operand whose steps are not the ones its parameter type
/// fixes goes through a compact copy; the driver's checks panic with the
/// native runtime's messages.
#[test]
fn ufunc_entry_points_broadcast_copy_and_check() {
    let dir = tmpdir("wasm-ufunc");
    let src = root().join("tests/programs/dot.pir");
    let wasm = dir.join("dot.wasm");
    compile_wasm(&src, &wasm, 2);
    let stdout = run_with_module(
        &dir,
        &wasm,
        "console.log(typeof m.exports.rowdot_loop, typeof m.exports.rowdot_dl);\n\
         const a = { data: new Float64Array([1, 2, 3, 4, 5, 6]), shape: [2, 3] };\n\
         // Rows of b are the columns of a 3x2 array: core stride 2 elements.\n\
         const b = { data: new Float64Array([1, 10, 2, 20, 3, 30]), shape: [2, 3], strides: [1, 2] };\n\
         const r = m.ufunc('rowdot', a, b);\n\
         console.log(r.shape.join('x'), Array.from(r.data).join(' '));\n\
         // A row broadcast against a stack of two.\n\
         const row = new Float64Array([1, 1, 1]);\n\
         console.log(Array.from(m.ufunc('rowdot', a, row).data).join(' '));\n\
         for (const [x, y] of [[a, { data: new Float64Array(12), shape: [4, 3] }], [a, { data: new Float64Array(8), shape: [2, 4] }], [a, 2.0]]) {\n\
           try { m.ufunc('rowdot', x, y); console.log('no panic'); } catch (e) { console.log(e instanceof PostcPanic, e.message); }\n\
         }\n",
    );
    let at = format!("at {}:5:1", src.display());
    let want = format!(
        "function function\n2 14 320\n6 15\n\
         true panic: ufunc rowdot: operands could not be broadcast together {at}\n\
         true panic: ufunc rowdot: core dimension `n` of operand 1 does not match its size in an earlier operand {at}\n\
         true panic: ufunc rowdot: input operand 1 has fewer dimensions than its core signature (n) {at}\n"
    );
    assert_eq!(stdout, want);
}

/// A panic whose message is a Str computed at run time prints it as the
/// interpreter does: `panic: MESSAGE at FILE:LINE:COL`; with arguments, as
/// the native backends do (`abi::runtime_panic_format`: each after a
/// space). A literal message's `%` is text, not a conversion, to the
/// loader that formats it.
#[test]
fn a_panic_message_computed_at_run_time() {
    let dir = tmpdir("wasm-panic-text");
    let src = dir.join("p.pir");
    std::fs::write(
        &src,
        "module p\nexport fail, fail_with, percent\n\nfunc fail(%who: Str) -> Int64 {\nentry:\n  %pre: Str = const \"bad input: \"\n  \
         %m: Str = add %pre, %who\n  call postc.panic(%m)\n  unreachable\n}\n\n\
         func fail_with(%who: Str, %k: Int64) -> Int64 {\nentry:\n  %pre: Str = const \"100% bad: \"\n  \
         %m: Str = add %pre, %who\n  %big: Int64 = const -9223372036854775808\n  call postc.panic(%m, %k, %big)\n  unreachable\n}\n\n\
         func percent(%k: Int64) -> Int64 {\nentry:\n  %m: Str = const \"%lld {} is 100% of {} %%\"\n  \
         call postc.panic(%m, %k)\n  unreachable\n}\n",
    )
    .unwrap();
    let wasm = dir.join("p.wasm");
    compile_wasm(&src, &wasm, 0);
    let stdout = run_with_module(
        &dir,
        &wasm,
        "for (const [f, ...args] of [['fail', 'n\\u00e9gatif'], ['fail_with', 'x%sy', -7n], ['percent', 12345678901234n]]) {\n\
           try { m.call(f, ...args); } catch (e) { console.log(e instanceof PostcPanic, e.message); }\n\
         }\n",
    );
    let at = |line| format!("{}:{line}:3", src.display());
    let want = format!(
        "true panic: bad input: négatif at {}\n\
         true panic: 100% bad: x%sy -7 -9223372036854775808 at {}\n\
         true panic: %lld 12345678901234 is 100% of {{}} %% at {}\n",
        at(8),
        at(17),
        at(24)
    );
    assert_eq!(stdout, want);
}

extern "C" {
    fn erf(x: f64) -> f64;
    fn erfc(x: f64) -> f64;
    fn lgamma(x: f64) -> f64;
    fn tgamma(x: f64) -> f64;
}

/// Distance in units in the last place between two finite doubles.
fn ulps_apart(a: f64, b: f64) -> u64 {
    let key = |x: f64| {
        let i = x.to_bits() as i64;
        if i < 0 {
            i64::MIN - i
        } else {
            i
        }
    };
    key(a).abs_diff(key(b))
}

#[test]
fn the_loader_fills_fma_exactly_and_the_special_functions_closely() {
    // The loader's own fma, erf, erfc, lgamma and tgamma (JavaScript's
    // `Math` has none of them) against the C library's.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut unit = || (next() >> 11) as f64 / (1u64 << 53) as f64;
    let mut fma_cases = Vec::new();
    while fma_cases.len() < 3000 {
        let scale = |u: f64, e: f64| (2.0 * u - 1.0) * e.exp2();
        let (a, b) =
            (scale(unit(), (unit() * 1200.0 - 600.0).round()), scale(unit(), (unit() * 1200.0 - 600.0).round()));
        // Half the cases cancel the product almost exactly, where a
        // product rounded first loses every digit.
        let c = if fma_cases.len() % 2 == 0 { -(a * b) * (1.0 + (unit() - 0.5) * 1e-15) } else { scale(unit(), 0.0) };
        if (a * b).is_finite() && c.is_finite() {
            fma_cases.push([a, b, c]);
        }
    }
    let range = |lo: f64, hi: f64, unit: &mut dyn FnMut() -> f64| -> Vec<f64> {
        (0..2000).map(|_| lo + (hi - lo) * unit()).collect()
    };
    let erf_args = range(-6.0, 6.0, &mut unit);
    let erfc_args = range(-6.0, 27.0, &mut unit);
    let gamma_args = range(1e-3, 170.0, &mut unit);
    let bits = |xs: &[f64]| xs.iter().map(|x| format!("\"{:#x}\"", x.to_bits())).collect::<Vec<_>>().join(",");
    let flat: Vec<f64> = fma_cases.iter().flatten().copied().collect();
    let dir = tmpdir("wasm-libm");
    let loader = root().join("codegen/src/wasm/postc.mjs");
    let script = format!(
        "import {{ LIBM }} from {loader:?};\n\
         const view = new DataView(new ArrayBuffer(8));\n\
         const num = (s) => {{ view.setBigUint64(0, BigInt(s)); return view.getFloat64(0); }};\n\
         const hex = (x) => {{ view.setFloat64(0, x); return '0x' + view.getBigUint64(0).toString(16); }};\n\
         const fma = [{}].map(num), out = [];\n\
         for (let i = 0; i < fma.length; i += 3) out.push(hex(LIBM.fma(fma[i], fma[i + 1], fma[i + 2])));\n\
         console.log(out.join(' '));\n\
         for (const [name, xs] of [['erf', [{}]], ['erfc', [{}]], ['lgamma', [{}]], ['tgamma', [{}]]])\n\
           console.log(xs.map(num).map(LIBM[name]).map(hex).join(' '));\n",
        bits(&flat),
        bits(&erf_args),
        bits(&erfc_args),
        bits(&gamma_args),
        bits(&gamma_args),
    );
    let js = dir.join("libm.mjs");
    std::fs::write(&js, script).unwrap();
    let out = node().arg(&js).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Vec<f64>> = stdout
        .lines()
        .map(|l| l.split(' ').map(|h| f64::from_bits(u64::from_str_radix(&h[2..], 16).unwrap())).collect())
        .collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    for ([a, b, c], got) in fma_cases.iter().zip(&lines[0]) {
        assert_eq!(got.to_bits(), a.mul_add(*b, *c).to_bits(), "fma({a:e}, {b:e}, {c:e})");
    }
    // The C library's functions, and how many ulps from each the loader's may be.
    let libc: [(&str, unsafe extern "C" fn(f64) -> f64, &[f64], u64); 4] = [
        ("erf", erf, &erf_args, 10),
        ("erfc", erfc, &erfc_args, 16),
        ("lgamma", lgamma, &gamma_args, 16),
        ("tgamma", tgamma, &gamma_args, 16),
    ];
    for ((name, f, args, bound), got) in libc.iter().zip(&lines[1..]) {
        for (x, g) in args.iter().zip(got) {
            // SAFETY: a pure C library function of a double.
            let want = unsafe { f(*x) };
            assert!(ulps_apart(*g, want) <= *bound, "{name}({x:e}) = {g:e}, the C library says {want:e}");
        }
    }
}

#[test]
fn a_core_step_other_than_the_declared_stride_panics_in_name_loop() {
    // As natively: the body reads with the stride the type declares, so
    // NAME_loop refuses any other step (see abi_c.rs for the native side).
    let dir = tmpdir("wasm-declared-strides");
    let src = dir.join("strided.pir");
    std::fs::write(&src, DECLARED_STRIDES_PIR).unwrap();
    let wasm = dir.join("strided.wasm");
    compile_wasm(&src, &wasm, 2);
    let stdout = run_with_module(
        &dir,
        &wasm,
        "const x = m.exports, at = (n) => x.postc_arena_alloc(n);\n\
         const a = at(48), out = at(8), args = at(8), dims = at(8), steps = at(12);\n\
         const mem = () => x.memory.buffer;\n\
         new Float64Array(mem(), a, 6).set([1, 2, 3, 4, 5, 6]);\n\
         new Int32Array(mem(), args, 2).set([a, out]);\n\
         new Int32Array(mem(), dims, 2).set([1, 3]);\n\
         for (const step of [16, 8]) {\n\
           new Int32Array(mem(), steps, 3).set([0, 0, step]);\n\
           try { x.colsum_loop(args, dims, steps, 0); console.log(new Float64Array(mem(), out, 1)[0]); }\n\
           catch (e) { console.log(e instanceof PostcPanic, e.message); }\n\
         }\n",
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "9", "{stdout}");
    assert!(
        lines[1].starts_with(
            "true panic: ufunc colsum: operand 0 does not have the strides its parameter type declares at "
        ) && lines[1].contains("strided.pir:2:"),
        "{stdout}"
    );
}
