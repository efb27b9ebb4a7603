//! Prints the IR's memory per instruction on the standard 10^6-instruction
//! module, as built and as parsed back from its text.

use postc_benches::{bytes_per_instruction, million_instruction_module};

fn main() {
    let m = million_instruction_module();
    let (cols, all) = bytes_per_instruction(&m);
    println!("built:  {} instructions in {} functions", m.num_insts(), m.functions.len());
    println!("built:  {cols:.2} bytes/instruction in the instruction columns, {all:.2} all in");
    let text = postc_ir::print::print_module(&m);
    match postc_ir::parse::parse_module("large.pir", text.as_bytes()) {
        Ok(p) => {
            let (cols, all) = bytes_per_instruction(&p);
            println!("parsed: {cols:.2} bytes/instruction in the instruction columns, {all:.2} all in");
        }
        Err(d) => println!("parsed: the printed module did not parse: {}", d.len()),
    }
}
