//! The verifier's rules for the cooperating-kernel built-ins
//! (`postc.gpu.shared`, `postc.gpu.sync_threads`, `postc.gpu.atomic_add`):
//! each broken rule with its exact message, and programs that keep them.

use postc_ir::parse::parse_str;
use postc_ir::verify::verify_module;

/// The messages for a module holding `func k(<params>) kernel { entry: <body> return }`
/// (`kernel` replaced by `attrs`).
fn messages(params: &str, attrs: &str, body: &str) -> Vec<String> {
    let text = format!("module t\n\nfunc k({params}) {attrs} {{\nentry:\n{body}  return\n}}\n");
    let m = parse_str("t.pir", &text).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
    verify_module(&m).into_iter().map(|d| d.message).collect()
}

fn kernel(params: &str, body: &str) -> Vec<String> {
    messages(params, "kernel", body)
}

#[track_caller]
fn one(got: Vec<String>, want: &str) {
    assert_eq!(got, vec![want.to_owned()]);
}

#[test]
fn only_kernels_call_them() {
    for attrs in ["", "gpu"] {
        let got = messages("%a: &Int32[]Shape[4]", attrs, "  %s: Int32[]Shape[4] = call postc.gpu.shared()\n");
        one(got, "`postc.gpu.shared` is only available in `kernel` functions; `k` is not one");
        let got = messages("", attrs, "  call postc.gpu.sync_threads()\n");
        one(got, "`postc.gpu.sync_threads` is only available in `kernel` functions; `k` is not one");
        let got = messages(
            "%a: &Int32[]Shape[4]",
            attrs,
            "  %i: Int64 = const 0\n  %one: Int32 = const 1\n  call postc.gpu.atomic_add(%a, %i, %one)\n",
        );
        one(got, "`postc.gpu.atomic_add` is only available in `kernel` functions; `k` is not one");
    }
}

#[test]
fn shared_arrays_have_a_static_shape_in_their_result_type() {
    let good = [
        "Float64[]Shape[16, 16]",
        "Int32[]Shape[64]",
        "Bool[]Shape[3]",
        "Float16[]Shape[2, 3, 4]FOrder",
        "UInt8[]Shape[49152]",
    ];
    for t in good {
        assert_eq!(kernel("", &format!("  %s: {t} = call postc.gpu.shared()\n")), Vec::<String>::new(), "{t}");
    }
    let bad = [
        ("Float64[]", "`postc.gpu.shared` needs a static shape in its result type, got Float64[]"),
        ("Float64[]Shape[?]", "`postc.gpu.shared` needs a static shape of positive extents, got Float64[]Shape[?]"),
        (
            "Float64[]Shape[4, 0]",
            "`postc.gpu.shared` needs a static shape of positive extents, got Float64[]Shape[4, 0]",
        ),
        ("&Float64[]Shape[4]", "`postc.gpu.shared` returns an array (without `&`), not &Float64[]Shape[4]"),
        ("Float64", "`postc.gpu.shared` returns an array (without `&`), not Float64"),
        ("Complex128[]Shape[4]", "`postc.gpu.shared` cannot make an array of Complex128"),
        ("Str[]Shape[4]", "`postc.gpu.shared` cannot make an array of Str"),
        (
            "Int32[]Shape[2, 2]Strides[4, 8]",
            "`postc.gpu.shared` makes C- or Fortran-order arrays, not Int32[]Shape[2, 2]Strides[4, 8]",
        ),
        (
            "Float64[]Shape[8192]",
            "`postc.gpu.shared`: Float64[]Shape[8192] takes 65536 bytes, more than the 49152 a block may share",
        ),
    ];
    for (t, want) in bad {
        one(kernel("", &format!("  %s: {t} = call postc.gpu.shared()\n")), want);
    }
    one(
        kernel("%n: Int64", "  %s: Float64[]Shape[4] = call postc.gpu.shared(%n)\n"),
        "`postc.gpu.shared` takes no arguments (its result type gives the array)",
    );
    one(kernel("", "  call postc.gpu.shared()\n"), "`postc.gpu.shared` returns the array: give the call a result");
    // The arrays of one kernel add up; the first to pass the limit says so.
    one(
        kernel(
            "",
            "  %a: Float64[]Shape[4096] = call postc.gpu.shared()\n  %b: Float64[]Shape[1024] = call postc.gpu.shared()\n  \
             %c: Float64[]Shape[2048] = call postc.gpu.shared()\n",
        ),
        "`kernel` function `k` shares 57344 bytes among a block's threads, more than 49152",
    );
}

#[test]
fn barriers_take_nothing_and_return_nothing() {
    assert_eq!(kernel("", "  call postc.gpu.sync_threads()\n"), Vec::<String>::new());
    one(kernel("%n: Int64", "  call postc.gpu.sync_threads(%n)\n"), "`postc.gpu.sync_threads` takes no arguments");
    one(kernel("", "  %r: Int64 = call postc.gpu.sync_threads()\n"), "`postc.gpu.sync_threads` returns nothing");
}

#[test]
fn atomic_adds_take_an_element_of_a_ranked_array_and_its_dtype() {
    let ok = [
        ("&Int32[]Shape[4]", "Int32", "%i"),
        ("&UInt32[]Shape[?]", "UInt32", "%i"),
        ("&Int64[]Shape[?, ?]", "Int64", "%i, %i8"),
        ("UInt64[]Shape[2, 3, 4]", "UInt64", "%i, %i, %i8"),
        ("&Float32[]Shape[?]FOrder", "Float32", "%i8"),
        ("&Float64[]Shape[]", "Float64", ""),
    ];
    for (at, dt, idx) in ok {
        let sep = if idx.is_empty() { "" } else { ", " };
        let body = format!(
            "  %i: Int64 = const 0\n  %i8: UInt8 = const 1\n  %v: {dt} = const 1\n  \
             %old: {dt} = call postc.gpu.atomic_add(%a{sep}{idx}, %v)\n  call postc.gpu.atomic_add(%a{sep}{idx}, %v)\n"
        );
        assert_eq!(kernel(&format!("%a: {at}"), &body), Vec::<String>::new(), "{at}");
    }
    let consts = "  %i: Int64 = const 0\n  %f: Float64 = const 1.0\n  %v: Int32 = const 1\n";
    let bad = [
        (
            "%a: &Int16[]Shape[4]",
            "  %w: Int16 = const 1\n  call postc.gpu.atomic_add(%a, %i, %w)\n",
            "`postc.gpu.atomic_add` adds to an array of Int32, UInt32, Int64, UInt64, Float32 or Float64, not &Int16[]Shape[4]",
        ),
        (
            "%a: Int32",
            "  call postc.gpu.atomic_add(%a, %i, %v)\n",
            "`postc.gpu.atomic_add` adds to an array of Int32, UInt32, Int64, UInt64, Float32 or Float64, not Int32",
        ),
        (
            "%a: &Int32[]",
            "  call postc.gpu.atomic_add(%a, %i, %v)\n",
            "`postc.gpu.atomic_add`: the type of the array must give its rank, got &Int32[]",
        ),
        (
            "%a: &Int32[]Shape[?, ?]",
            "  call postc.gpu.atomic_add(%a, %i, %v)\n",
            "`postc.gpu.atomic_add` on &Int32[]Shape[?, ?] takes 2 indices, got 1",
        ),
        (
            "%a: &Int32[]Shape[?]",
            "  call postc.gpu.atomic_add(%a, %i, %i, %v)\n",
            "`postc.gpu.atomic_add` on &Int32[]Shape[?] takes 1 index, got 2",
        ),
        (
            "%a: &Int32[]Shape[?]",
            "  call postc.gpu.atomic_add(%a, %f, %v)\n",
            "`postc.gpu.atomic_add`: an index must be an integer scalar, got Float64",
        ),
        (
            "%a: &Int32[]Shape[?]",
            "  call postc.gpu.atomic_add(%a, %i, %i)\n",
            "`postc.gpu.atomic_add`: the value must be Int32, got Int64",
        ),
        (
            "%a: &Int32[]Shape[?]",
            "  %r: Int64 = call postc.gpu.atomic_add(%a, %i, %v)\n",
            "`postc.gpu.atomic_add` returns the old element, Int32, not Int64",
        ),
        ("%a: &Int32[]Shape[?]", "  call postc.gpu.atomic_add()\n", "`postc.gpu.atomic_add` takes an array, its indices and a value"),
    ];
    for (params, body, want) in bad {
        one(kernel(params, &format!("{consts}{body}")), want);
    }
}
