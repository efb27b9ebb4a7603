//! Lowering a module of many exported functions that call each other
//! exports every one of them. (Its time, linear in the number of functions,
//! is measured by `benches/src/bin/scaling.rs`; see docs/performance.md.)

use std::fmt::Write as _;

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
fn lowering_exports_every_one_of_many_functions() {
    let program = functions(60_000);
    let low = postc_codegen::llvm::lower(&program).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(low.exported.len(), 60_000);
}
