//! Any bytes as a POST Python file: the frontend never panics, refuses
//! what it refuses with no internal error (the typecheck finds every
//! error a user can cause), and what it lowers verifies and prints as IR
//! that parses back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let program = match postc_frontend::lower_source("fuzz.py", &text) {
        Ok(program) => program,
        Err(diags) => {
            let internal: Vec<_> = diags.iter().filter(|d| d.message.contains("internal error")).collect();
            assert!(internal.is_empty(), "an internal error: {internal:?}\n{text}");
            return;
        }
    };
    {
        let diags = postc_ir::verify::verify_program(&program);
        assert!(diags.is_empty(), "lowered IR does not verify: {:?}\n{text}", diags);
        for m in program.modules.iter() {
            let printed = postc_ir::print::print_module(m);
            if let Err(d) = postc_ir::parse::parse_module("fuzz.pir", printed.as_bytes()) {
                panic!("lowered IR does not parse back: {d:?}\n{printed}");
            }
        }
    }
});
