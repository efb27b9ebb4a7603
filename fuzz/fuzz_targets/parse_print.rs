//! Any bytes: parsing never panics, and when they parse, printing is a
//! fixed point (print → parse → print gives the same text).
#![no_main]
use libfuzzer_sys::fuzz_target;
use postc_ir::parse::parse_module;
use postc_ir::print::print_module;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = parse_module("fuzz.pir", data) else { return };
    let text = print_module(&m);
    let again = match parse_module("fuzz.pir", text.as_bytes()) {
        Ok(m2) => m2,
        Err(d) => panic!("printed module does not re-parse: {d:?}\n{text}"),
    };
    if let Some(diff) = m.structural_diff(&again) {
        panic!("print/parse changed the module: {diff}\n{text}");
    }
    assert_eq!(print_module(&again), text, "print is not a fixed point");
});
