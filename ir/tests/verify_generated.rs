//! Modules from the generator are valid by construction: the verifier must
//! accept every one of them.

use postc_ir::gen::large_module;
use postc_ir::verify::{verify_module, verify_program};
use postc_ir::Program;

#[test]
fn generated_modules_verify_clean() {
    for seed in 1..40u64 {
        let m = large_module(3, 60, seed);
        let d = verify_module(&m);
        assert!(d.is_empty(), "seed {seed}: {:#?}\n{}", d, postc_ir::print::print_module(&m));
        assert!(verify_program(&Program::from_module(m)).is_empty());
    }
}
