//! `simplify-cfg` on an entry that branches through a long chain of empty
//! forwarding blocks collapses it to the entry. (Its time, linear in the
//! chain's length, is measured by `benches/src/bin/scaling.rs`; see
//! docs/performance.md.)

use postc_passes::{parse_pipeline, PassOptions, RunOptions};
use std::fmt::Write as _;

#[test]
fn simplify_cfg_collapses_a_long_chain_of_forwarding_blocks() {
    let n = 200_000;
    let mut t = String::from("module chain\n\nfunc f(%x: Int64) -> Int64 {\nentry:\n  br b1\n");
    for i in 1..n {
        let _ = write!(t, "b{i}:\n  br b{}\n", i + 1);
    }
    let _ = write!(t, "b{n}:\n  return %x\n}}\n");
    let mut m = postc_ir::parse::parse_module("chain.pir", t.as_bytes()).unwrap();
    let pm = parse_pipeline("simplify-cfg").unwrap();
    pm.run(&mut m, &PassOptions::for_level(2), &RunOptions { threads: Some(1), ..Default::default() }).unwrap();
    let out = postc_ir::print::print_module(&m);
    assert_eq!(out, "module chain\n\nfunc f(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n");
}
