//! Work that must grow linearly with the function: `simplify-cfg` on an
//! entry that branches through a long chain of empty forwarding blocks
//! (each block's final target was found by walking the rest of the chain,
//! so this took time quadratic in its length). The bound is far above the
//! linear time and far below the quadratic one.

use postc_passes::{parse_pipeline, PassOptions, RunOptions};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

#[test]
fn simplify_cfg_is_linear_in_a_chain_of_forwarding_blocks() {
    let n = 200_000;
    let mut t = String::from("module chain\n\nfunc f(%x: Int64) -> Int64 {\nentry:\n  br b1\n");
    for i in 1..n {
        let _ = write!(t, "b{i}:\n  br b{}\n", i + 1);
    }
    let _ = write!(t, "b{n}:\n  return %x\n}}\n");
    let mut m = postc_ir::parse::parse_module("chain.pir", t.as_bytes()).unwrap();
    let pm = parse_pipeline("simplify-cfg").unwrap();
    let start = Instant::now();
    pm.run(&mut m, &PassOptions::for_level(2), &RunOptions { threads: Some(1), ..Default::default() }).unwrap();
    let took = start.elapsed();
    let out = postc_ir::print::print_module(&m);
    assert_eq!(out, "module chain\n\nfunc f(%x: Int64) -> Int64 {\nentry:\n  return %x\n}\n");
    assert!(took < Duration::from_secs(15), "simplify-cfg on {n} blocks took {took:?}");
}
