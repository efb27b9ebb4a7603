//! Floats print as CPython prints a `float` (Float64) and as NumPy prints
//! its `float32` and `float16` scalars: the shortest digits that read back,
//! the nearest of them to the value, a tie to the even digit. Compared with
//! CPython and NumPy themselves on every Float16, on random Float32 and
//! Float64 bit patterns, and on Float32 values that lie exactly halfway
//! between their two shortest decimals (`-299092.625`).

use postc_ir::interp::Value;
use postc_ir::DType;
use std::io::Write;
use std::process::{Command, Stdio};

/// What `python3` prints for each value: `repr(float(x))` for Float64,
/// `str(numpy.float32(x))` and `str(numpy.float16(x))` for the others,
/// each given by its bits in hexadecimal.
fn python_prints(dtype: DType, bits: &[u64]) -> Vec<String> {
    let script = r#"
import struct, sys
import numpy as np
kind = sys.argv[1]
for line in sys.stdin:
    b = int(line, 16)
    if kind == "f64":
        print(repr(struct.unpack("<d", b.to_bytes(8, "little"))[0]))
    elif kind == "f32":
        print(str(np.frombuffer(b.to_bytes(4, "little"), dtype=np.float32)[0]))
    else:
        print(str(np.frombuffer(b.to_bytes(2, "little"), dtype=np.float16)[0]))
"#;
    let kind = match dtype {
        DType::Float64 => "f64",
        DType::Float32 => "f32",
        _ => "f16",
    };
    let mut child = Command::new("python3")
        .args(["-c", script, kind])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 (with NumPy, which scripts/setup installs) runs");
    let input: String = bits.iter().map(|b| format!("{b:x}\n")).collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "python3 failed: is NumPy installed?");
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

fn value(dtype: DType, bits: u64) -> f64 {
    match dtype {
        DType::Float64 => f64::from_bits(bits),
        DType::Float32 => f32::from_bits(bits as u32) as f64,
        _ => half::f16::from_bits(bits as u16).to_f64(),
    }
}

fn compare(dtype: DType, bits: &[u64]) {
    let want = python_prints(dtype, bits);
    assert_eq!(want.len(), bits.len());
    let mut wrong = Vec::new();
    for (b, w) in bits.iter().zip(&want) {
        let got = Value::Float(dtype, value(dtype, *b)).to_string();
        if &got != w {
            wrong.push(format!("{b:#x}: {got} (Python: {w})"));
        }
    }
    assert!(wrong.is_empty(), "{} of {} {dtype} values differ:\n{}", wrong.len(), bits.len(), wrong.join("\n"));
}

fn random_bits(n: usize, seed: u64) -> impl Iterator<Item = u64> {
    let mut x = seed;
    (0..n).map(move |_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    })
}

#[test]
fn float16_as_numpy_prints_it() {
    let bits: Vec<u64> = (0..=u16::MAX as u64).filter(|b| value(DType::Float16, *b).is_finite()).collect();
    compare(DType::Float16, &bits);
}

#[test]
fn float32_as_numpy_prints_it() {
    let mut bits: Vec<u64> = random_bits(20_000, 0x9e37_79b9_7f4a_7c15)
        .map(|b| b & 0xffff_ffff)
        .filter(|b| value(DType::Float32, *b).is_finite())
        .collect();
    // Halfway cases: k/8 with k odd needs one digit more than the f32
    // spacing gives from 2^17 on, so its two shortest decimals tie.
    for k in random_bits(2_000, 7).map(|r| (1u64 << 20) + r % (1 << 23)) {
        let x = (k | 1) as f32 / 8.0;
        bits.push(x.to_bits() as u64);
        bits.push((-x).to_bits() as u64);
    }
    // -299092.625, exact in Float32 (written in Float64 for the lint).
    bits.push(((-299_092.625_f64) as f32).to_bits() as u64);
    compare(DType::Float32, &bits);
}

#[test]
fn float64_as_cpython_prints_it() {
    let bits: Vec<u64> =
        random_bits(20_000, 0x2545_f491_4f6c_dd1d).filter(|b| value(DType::Float64, *b).is_finite()).collect();
    compare(DType::Float64, &bits);
}
