//! An arbitrary valid module from the builder: it verifies, and
//! print → parse gives back an equal module.
#![no_main]
use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use postc_ir::gen::{arbitrary_module, GenConfig};
use postc_ir::parse::parse_module;
use postc_ir::print::print_module;
use postc_ir::verify::verify_module;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = arbitrary_module(&mut Unstructured::new(data), &GenConfig::default()) else { return };
    let text = print_module(&m);
    let errors = verify_module(&m);
    assert!(errors.is_empty(), "generated module does not verify: {errors:?}\n{text}");
    let back = match parse_module("gen.pir", text.as_bytes()) {
        Ok(b) => b,
        Err(d) => panic!("printed module does not parse: {d:?}\n{text}"),
    };
    if let Some(diff) = m.structural_diff(&back) {
        panic!("round trip changed the module: {diff}\n{text}");
    }
});
