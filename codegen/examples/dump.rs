//! Prints the LLVM module of a `.pir` file before LLVM's pipeline (or after
//! it with `opt`): `dump FILE.pir [LEVEL] [opt]`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let m = postc_ir::parse::parse_module(&args[1], &bytes).unwrap();
    let p = postc_ir::Program::from_module(m);
    let lvl: u8 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(0);
    let opts = postc_codegen::CodegenOptions::for_level(postc_codegen::OptLevel::from_u8(lvl).unwrap());
    if args.get(3).is_some_and(|a| a == "opt") {
        print!("{}", postc_codegen::compile_to_ir(&p, &opts).unwrap());
        return;
    }
    let prepared = postc_codegen::prepare(&p, &opts, postc_codegen::llvm::FEATURES).unwrap();
    let low = postc_codegen::llvm::lower(&prepared).unwrap();
    let tm = postc_codegen::llvm::target_machine(&opts).unwrap();
    let cx = inkwell::context::Context::create();
    let module = postc_codegen::llvm::build_unit(&cx, &low, &opts, &tm, None).unwrap();
    print!("{}", module.print_to_string().to_string());
}
