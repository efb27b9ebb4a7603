//! Shared helpers of the benches: the large generated modules they measure.

use postc_ir::gen::large_module;
use postc_ir::Module;

/// The benches' standard module: 1,000 functions of about 1,000
/// instructions each (at least 10^6 instructions in all).
pub fn million_instruction_module() -> Module {
    let m = large_module(1000, 1000, 0x5eed);
    assert!(m.num_insts() >= 1_000_000, "generated only {} instructions", m.num_insts());
    m
}

/// Bytes per instruction: (instruction columns alone, all in).
pub fn bytes_per_instruction(m: &Module) -> (f64, f64) {
    let (mut cols, mut all) = (0usize, 0usize);
    for f in m.functions.iter() {
        let (c, a) = f.body.memory_bytes();
        cols += c;
        all += a;
    }
    let n = m.num_insts().max(1) as f64;
    (cols as f64 / n, all as f64 / n)
}
