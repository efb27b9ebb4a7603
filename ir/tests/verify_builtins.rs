//! Calls to the `postc.` built-ins are checked against their signatures.

use postc_ir::parse::parse_str;
use postc_ir::verify::verify_module;

fn errors(body: &str) -> Vec<String> {
    let text = format!("module b\n\nfunc f(%a: Int32, %b: Int32, %x: Float64) {{\nentry:\n{body}}}\n");
    let m = parse_str("b.pir", &text).expect("parses");
    verify_module(&m).into_iter().map(|d| d.message).collect()
}

#[test]
fn valid_builtin_calls_verify() {
    let ok = "  %o: Bool = call postc.ovf.add(%a, %b)\n  %n: Bool = call postc.ovf.neg(%a)\n  \
              %m: Str = const \"i={}\"\n  %i: Int64 = cast %a\n  call postc.panic(%m, %i)\n  unreachable\n";
    assert_eq!(errors(ok), Vec::<String>::new());
}

#[test]
fn builtin_misuse_is_reported() {
    assert_eq!(
        errors("  %o: Bool = call postc.ovf.add(%a, %x)\n  return\n"),
        ["`postc.ovf.add` takes integer arguments of one dtype"]
    );
    assert_eq!(errors("  %o: Int32 = call postc.ovf.mul(%a, %b)\n  return\n"), ["`postc.ovf.mul` returns Bool"]);
    assert_eq!(errors("  %o: Bool = call postc.ovf.abs(%a, %b)\n  return\n"), ["`postc.ovf.abs` takes 1 arguments"]);
    assert_eq!(errors("  call postc.panic(%a)\n  unreachable\n"), ["`postc.panic` takes a Str message first"]);
    assert_eq!(
        errors("  %m: Str = const \"x\"\n  call postc.panic(%m, %x)\n  unreachable\n"),
        ["`postc.panic` takes Int64 message arguments"]
    );
}
