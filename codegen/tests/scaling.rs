//! Work that must grow linearly with the program: lowering a module of many
//! exported functions that call each other (name lookups were linear scans,
//! so this took time quadratic in the number of functions). The bound is
//! far above the linear time and far below the quadratic one.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// `n` exported functions, each calling the one before it.
fn functions(n: usize) -> postc_ir::Program {
    let mut t = String::from("module many\nexport ");
    for i in 0..n {
        let _ = write!(t, "{}f{i}", if i > 0 { ", " } else { "" });
    }
    t.push_str("\n\nfunc f0(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n");
    for i in 1..n {
        let _ = write!(
            t,
            "\nfunc f{i}(%x: Int64) -> Int64 {{\nentry:\n  %y: Int64 = call f{}(%x)\n  return %y\n}}\n",
            i - 1
        );
    }
    postc_ir::Program::from_module(postc_ir::parse::parse_module("many.pir", t.as_bytes()).unwrap())
}

#[test]
fn lowering_is_linear_in_the_number_of_functions() {
    let program = functions(60_000);
    let t = Instant::now();
    let low = postc_codegen::lower(&program).unwrap_or_else(|d| panic!("{d:?}"));
    let took = t.elapsed();
    assert_eq!(low.exported.len(), 60_000);
    assert!(took < Duration::from_secs(15), "lowering 60,000 functions took {took:?}");
}
