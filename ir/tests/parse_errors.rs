//! Every diagnostic of the parser: exact message and `line:col`.

use postc_ir::parse::{parse_module, parse_str};

/// The diagnostics of a text that must not parse, as `line:col: message`.
fn errs(src: &str) -> Vec<String> {
    match parse_str("t.pir", src) {
        Ok(_) => panic!("expected errors for:\n{src}"),
        Err(d) => d
            .iter()
            .map(|d| {
                let p = d.pos.as_ref().expect("diagnostics are located");
                assert_eq!(p.path, "t.pir");
                format!("{}:{}: {}", p.line, p.col, d.message)
            })
            .collect(),
    }
}

/// One error expected.
fn err1(src: &str) -> String {
    let e = errs(src);
    assert_eq!(e.len(), 1, "expected one error, got {e:?}");
    e.into_iter().next().unwrap_or_default()
}

/// Wraps instruction lines in a module and a function with an `entry:`
/// block; the first instruction line is line 4.
fn func(body: &str) -> String {
    format!("module t\nfunc f(%a: Int64, %b: Int64, %arr: Float64[]) -> Int64 {{\nentry:\n{body}\n  return %a\n}}\n")
}

#[test]
fn unknown_opcode() {
    assert_eq!(err1(&func("  %x: Int64 = ad %a, %b")), "4:15: unknown opcode `ad`");
    assert_eq!(err1(&func("  frob %a")), "4:3: unknown opcode `frob`");
}

#[test]
fn undefined_value_and_label() {
    assert_eq!(err1(&func("  %x: Int64 = add %a, %q")), "4:23: use of undefined value `%q`");
    assert_eq!(err1(&func("  br nowhere")), "4:6: branch to undefined label `nowhere`");
    assert_eq!(
        errs(&func("  %c: Bool = lt %a, %b\n  condbr %c, l1, l2")),
        ["5:14: branch to undefined label `l1`", "5:18: branch to undefined label `l2`"]
    );
}

#[test]
fn duplicates() {
    assert_eq!(err1(&func("  %a: Int64 = add %b, %b")), "4:3: duplicate value name `%a`");
    assert_eq!(err1(&func("  br entry\nentry:")), "5:1: duplicate label `entry`");
    let two = "module t\nfunc f() {\nentry:\n  return\n}\nfunc f() {\nentry:\n  return\n}\n";
    assert_eq!(err1(two), "6:6: duplicate function `f`");
    assert_eq!(err1("module t\nmodule u\n"), "2:1: duplicate `module` line");
    assert_eq!(err1("module t\nconst N: Int64 = 1\nconst N: Int64 = 2\n"), "3:7: duplicate constant `N`");
    assert_eq!(err1("module t\nalias a = f\nalias a = g\n"), "3:7: duplicate alias `a`");
    assert_eq!(err1("module t\nimport intrinsic s = sqrt\nimport post m: s\n"), "3:16: duplicate import `s`");
    assert_eq!(err1("module t\nimport post m: f as g, h as g\n"), "2:29: duplicate import `g`");
    assert_eq!(
        err1("module t\nfunc f(%x: Int64, %x: Int64) {\nentry:\n  return\n}\n"),
        "2:19: duplicate value name `%x`"
    );
}

#[test]
fn literals_that_do_not_fit() {
    assert_eq!(err1(&func("  %x: UInt8 = const 300")), "4:21: integer literal 300 does not fit UInt8");
    assert_eq!(err1(&func("  %x: Int8 = const -129")), "4:20: integer literal -129 does not fit Int8");
    assert_eq!(err1(&func("  %x: UInt64 = const -1")), "4:22: integer literal -1 does not fit UInt64");
    let huge = "9".repeat(100);
    assert_eq!(
        err1(&func(&format!("  %x: Int64 = const {huge}"))),
        format!("4:21: integer literal `{}...` does not fit Int64", &huge[..40])
    );
    assert_eq!(err1(&func("  %x: Float32 = const 1e39")), "4:23: float literal 1e39 does not fit Float32");
    assert_eq!(err1(&func("  %x: Float16 = const 65520.0")), "4:23: float literal 65520.0 does not fit Float16");
    assert_eq!(err1(&func("  %x: Float64 = const 1e309")), "4:23: float literal 1e309 does not fit Float64");
}

#[test]
fn malformed_literals() {
    assert_eq!(err1(&func("  %x: Int64 = const 1.5")), "4:21: expected an integer literal for Int64, found `1.5`");
    assert_eq!(err1(&func("  %x: Int64 = const 12ab")), "4:21: malformed integer literal `12ab`");
    assert_eq!(err1(&func("  %x: Float64 = const 1.2.3")), "4:23: malformed float literal `1.2.3`");
    assert_eq!(err1(&func("  %x: Float64 = const 1e+")), "4:23: malformed float literal `1e+`");
    assert_eq!(err1(&func("  %x: Float64 = const x")), "4:23: expected a float literal for Float64, found `x`");
    assert_eq!(err1(&func("  %x: Bool = const 1")), "4:20: expected `true` or `false` for Bool, found `1`");
    assert_eq!(
        err1(&func("  %x: Float32 = const nan:0x7f800000")),
        "4:23: `nan:0x7f800000` is not a Float32 NaN bit pattern"
    );
    assert_eq!(
        err1(&func("  %x: Float16 = const nan:0x17e01")),
        "4:23: `nan:0x17e01` is not a Float16 NaN bit pattern"
    );
    assert_eq!(
        err1(&func("  %x: Complex128 = const (1.5*2j)")),
        "4:30: expected `+` or `-` before the imaginary part, found `*2j`"
    );
    assert_eq!(err1(&func("  %x: Complex128 = const (1+2)")), "4:30: expected `j` after the imaginary part, found `)`");
    assert_eq!(err1(&func("  %x: Str = const \"abc")), "4:19: unterminated string literal");
    assert_eq!(err1(&func("  %x: Str = const \"a\\qb\"")), "4:21: unknown escape `\\q`");
    assert_eq!(
        err1(&func("  %x: Str = const \"\\xff\"")),
        "4:20: `\\xff` is above `\\x7f` in a string literal; write `\\u{ff}`"
    );
    assert_eq!(err1(&func("  %x: Str = const \"\\u{d800}\"")), "4:20: invalid unicode escape `\\u{d800}`");
    assert_eq!(
        err1(&func("  %x: Bytes = const b\"\\u{41}\"")),
        "4:23: `\\u{...}` escapes are not allowed in a bytes literal"
    );
    assert_eq!(
        err1(&func("  %x: Bytes = const \"x\"")),
        "4:21: expected a bytes literal (`b\"...\"`) for Bytes, found `\"x\"`"
    );
    assert_eq!(err1(&func("  %x: Str = const 1")), "4:19: expected a string literal for Str, found `1`");
}

#[test]
fn types() {
    assert_eq!(err1(&func("  %x: Float128 = add %a, %b")), "4:7: unknown dtype `Float128`");
    assert_eq!(err1(&func("  %x: = add %a, %b")), "4:7: expected a type, found `=`");
    assert_eq!(err1(&func("  %x: Int64[]Shape[3 = alloc %a")), "4:22: expected `,` or `]` in a shape, found `=`");
    assert_eq!(
        err1(&func("  %x: Int64[]Shape[x] = alloc %a")),
        "4:20: expected a dimension (an integer or `?`), found `x`"
    );
    assert_eq!(err1(&func("  %x: Float64[] = const 1.0")), "4:7: `const` needs a scalar type, not `Float64[]`");
    assert_eq!(err1("module t\nconst N: &Int64 = 1\n"), "2:10: `const` needs a scalar type, not `&Int64`");
}

#[test]
fn operand_shapes() {
    assert_eq!(err1(&func("  %x: Int64 = add %a")), "4:21: expected `,`, found end of line");
    assert_eq!(err1(&func("  %x: Int64 = add %a, %b, %a")), "4:25: expected end of line, found `,`");
    assert_eq!(err1(&func("  %x: Int64 = neg a")), "4:19: expected a value name (`%name`), found `a`");
    assert_eq!(err1(&func("  %x: Int64 = dim %arr, -1")), "4:25: expected an axis, found `-1`");
    assert_eq!(err1(&func("  %x: Int64 = dim %arr, 4294967296")), "4:25: `4294967296` is too large for an axis");
    assert_eq!(
        err1(&func("  %x: Float64 = getfield %a, rel")),
        "4:30: unknown field `rel` (expected `real` or `imag`)"
    );
    assert_eq!(err1(&func("  %x: Float64 = index.load %arr %a")), "4:33: expected `[` and the indices, found `%a`");
    assert_eq!(err1(&func("  %x: Int64 = call f(%a %b)")), "4:25: expected `,` or `)`, found `%b`");
    assert_eq!(err1(&func("  %x: Int64 = call (%a)")), "4:20: expected the called function's name, found `(`");
    assert_eq!(err1(&func("  store %arr, %a")), "4:17: expected `,`, found end of line");
    assert_eq!(err1(&func("  %x: Int64 = store %arr, %a, %b")), "4:15: `store` has no result");
    assert_eq!(err1(&func("  add %a, %b")), "4:3: `add` needs a result: `%name: TYPE = add ...`");
    assert_eq!(err1(&func("  %x: Int64 = let %a")), "4:15: `let` has no result; write `let %x: T = %v`");
    assert_eq!(
        err1(&func("  %x: Int64 = param")),
        "4:15: `param` is not an instruction; parameters are declared in the function header"
    );
    assert_eq!(err1(&func("  set %a %b")), "4:10: expected `=`, found `%b`");
    assert_eq!(err1(&func("  let %y Int64 = %a")), "4:10: expected `:`, found `Int64`");
    assert_eq!(err1(&func("  return %a %b")), "4:13: expected end of line, found `%b`");
}

#[test]
fn annotations() {
    assert_eq!(err1(&func("  %x: Int64 = add %a, %b !weights 1:2")), "4:26: `!weights` is only allowed on `condbr`");
    assert_eq!(err1(&func("  %x: Int64 = add %a, %b !foo")), "4:26: unknown annotation `!foo`");
    assert_eq!(err1(&func("  %x: Int64 = add %a, %b !loc \"k.py\":x:1")), "4:38: expected a line number, found `x:1`");
    assert_eq!(
        err1(&func("  %c: Bool = lt %a, %b\n  condbr %c, entry, entry !loc \"k.py\":1:1 !weights 1:2")),
        "5:43: `!weights` must come before `!loc`"
    );
    assert_eq!(err1(&func("  %x: Int64 = add %a, %b !loc \"k.py\":1:1 !loc \"k.py\":1:1")), "4:42: duplicate `!loc`");
}

#[test]
fn structure() {
    assert_eq!(err1("func f() {\nentry:\n  return\n}\n"), "1:1: missing `module` line");
    assert_eq!(err1(""), "1:1: missing `module` line");
    assert_eq!(err1("; only a comment\n\n"), "1:1: missing `module` line");
    assert_eq!(err1("module t\nfunc f() {\n  return\n}\n"), "3:3: instruction before the first block label");
    assert_eq!(err1("module t\nfunc f() {\nentry:\n  return\n"), "5:1: missing `}` at the end of function `f`");
    assert_eq!(err1("module t\nfunc f() {\nentry:\n  return"), "4:9: missing `}` at the end of function `f`");
    assert_eq!(
        err1("module t\nfunc f() {\nentry:\n  return\nfunc g() {\nentry:\n  return\n}\n"),
        "5:1: missing `}` at the end of function `f`"
    );
    assert_eq!(err1("module t\nfunc f() {\nentry:\n  return\n} x\n"), "5:3: expected end of line, found `x`");
    assert_eq!(err1("module t\nfunc f() { x\n}\n"), "2:12: expected end of line, found `x`");
    assert_eq!(err1("module t\nfunc f() hot {\n}\n"), "2:10: unknown attribute `hot`");
    assert_eq!(err1("module t\nfunc f() gpu(fast) {\n}\n"), "2:13: expected `{`, found `(`");
    assert_eq!(err1("module t\nfunc f(%x Int64) {\n}\n"), "2:11: expected `:`, found `Int64`");
    assert_eq!(err1("module t\nfunc f() \"(n)->()\" {\n}\n"), "2:10: only a `ufunc` has a signature string");
    assert_eq!(
        err1("module t\nufunc f(%x: Float64) -> Float64 {\n}\n"),
        "2:33: expected the ufunc's signature string (`\"(n),(n)->()\"`), found `{`"
    );
    assert_eq!(
        err1("module t\nufunc f(%x: Float64) -> Float64 \"(n)->\" {\n}\n"),
        "2:39: invalid ufunc signature: expected `(` starting an operand's core dimensions"
    );
    assert_eq!(err1("module t\nbogus\n"), "2:1: expected a module directive or a function, found `bogus`");
    assert_eq!(err1("module t\nimport foo m: f\n"), "2:8: expected `post`, `intrinsic` or `boundary`, found `foo`");
    assert_eq!(err1("module t\nimport post a..b: f\n"), "2:13: malformed module name `a..b`");
    assert_eq!(err1("module t\ndepends\n"), "2:8: expected a module name, found end of line");
    assert_eq!(err1("module t\nexport a,\n"), "2:10: expected an exported name, found end of line");
    assert_eq!(
        err1("module t\nfunc f() {\n  doc \"a\"\n  doc \"b\"\nentry:\n  return\n}\n"),
        "4:3: duplicate `doc` line"
    );
    assert_eq!(err1("module t\nfunc f() {\nentry:\n  doc \"a\"\n  return\n}\n"), "4:3: unknown opcode `doc`");
    assert_eq!(err1("module t\nfunc f() {\nentry:\n  return\n}\nmodule u\n"), "6:1: duplicate `module` line");
    assert_eq!(
        errs("const N: Int64 = 1\nmodule t\n"),
        ["1:1: missing `module` line", "2:1: the `module` line must come first"]
    );
}

#[test]
fn invalid_utf8() {
    let d = parse_module("u.pir", b"module t\nfunc f() {\nentry:\n  %s: Str = const \"\xff\"\n").unwrap_err();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].to_string(), "u.pir:4:20: error: invalid UTF-8 (byte 0xff)");
    let d = parse_module("u.pir", b"\xc3").unwrap_err();
    assert_eq!(d[0].to_string(), "u.pir:1:1: error: invalid UTF-8 (byte 0xc3)");
}

#[test]
fn several_errors_are_all_reported_in_order() {
    let src = "module t
func f(%a: Int64) -> Int64 {
entry:
  %x: Int64 = ad %a, %a
  %y: Int64 = add %x, %nope
  %z: UInt8 = const 300
  br exit
}
func broken( {
entry:
  return
}
func g() -> Int64 {
entry:
  %w: Int64 = mul %a, %a
  return %w
}
";
    assert_eq!(
        errs(src),
        [
            "4:15: unknown opcode `ad`",
            "5:23: use of undefined value `%nope`",
            "6:21: integer literal 300 does not fit UInt8",
            "7:6: branch to undefined label `exit`",
            "9:14: expected a value name (`%name`), found `{`",
            "15:19: use of undefined value `%a`",
            "15:23: use of undefined value `%a`",
        ]
    );
}

#[test]
fn errors_stop_at_the_limit() {
    let mut src = String::from("module t\nfunc f() {\nentry:\n");
    for _ in 0..100 {
        src.push_str("  %x: Int64 = bad\n");
    }
    src.push_str("  return\n}\n");
    let e = errs(&src);
    assert_eq!(e.len(), postc_ir::diag::MAX_ERRORS);
    assert_eq!(e[0], "4:15: unknown opcode `bad`");
}

#[test]
fn a_bad_line_does_not_cascade() {
    // `%x` is defined by a line with an error: its uses are not reported.
    assert_eq!(err1(&func("  %x: Int64 = ad %a, %b\n  %y: Int64 = add %x, %x")), "4:15: unknown opcode `ad`");
}

#[test]
fn rendering_points_at_the_token() {
    let src = func("  %x: Int64 = ad %a, %b");
    let d = parse_str("t.pir", &src).unwrap_err();
    let mut sm = postc_ir::SourceMap::new();
    sm.add("t.pir", &src);
    let out = sm.render(&d, false);
    assert!(out.contains("error: unknown opcode `ad`"), "{out}");
    assert!(out.contains("t.pir:4:15"), "{out}");
    assert!(out.contains("^^"), "{out}");
}
