//! The pass manager: pipeline diagnostics, --print-after, --time-passes,
//! the bisect limit, thread-count independence, idempotence and the skipping
//! of settled passes.

use postc_ir::gen::large_module;
use postc_ir::print::print_module;
use postc_ir::Module;
use postc_passes::manager::format_timings;
use postc_passes::{default_pipeline, parse_pipeline, PassOptions, RunOptions, RunReport};

const SAMPLE: &str = r#"module sample

func f(%a: Float64[]Shape[?], %i: Int64, %d: Int64) -> Float64 {
entry:
  %t: Bool = const true
  %k: Int64 = const 6
  %two: Int64 = const 2
  %q: Int64 = fdiv %k, %two
  %x: Float64 = index.load %a[%i] !loc "k.py":3:5
  %r: Int64 = mod %i, %d !loc "k.py":4:5
  %unused: Int64 = add %q, %r
  condbr %t, yes, no
yes:
  return %x
no:
  %z: Float64 = const 0.0
  return %z
}

func g(%c: Bool, %x: Int64) -> Int64 {
entry:
  let %r: Int64 = %x
  condbr %c, t, j
t:
  %y: Int64 = mul %x, %x
  set %r = %y
  br j
j:
  return %r
}
"#;

fn sample() -> Module {
    postc_ir::parse::parse_module("sample.pir", SAMPLE.as_bytes()).unwrap()
}

fn run(m: &mut Module, pipeline: &str, run: &RunOptions) -> RunReport {
    let pm = parse_pipeline(pipeline).unwrap_or_else(|d| panic!("{d:?}"));
    pm.run(m, &PassOptions::for_level(2), run).unwrap_or_else(|d| panic!("{d:?}"))
}

fn messages(text: &str) -> Vec<String> {
    match parse_pipeline(text) {
        Ok(_) => panic!("`{text}` parsed"),
        Err(d) => d.into_iter().map(|d| d.message).collect(),
    }
}

#[test]
fn pipeline_diagnostics() {
    let unknown = parse_pipeline("dce,frobnicate").err().unwrap();
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].message, "unknown pass `frobnicate` in pipeline `dce,frobnicate`");
    assert!(unknown[0].notes.iter().any(|n| n.contains("available passes:") && n.contains("select-fold")));
    assert_eq!(messages(""), ["empty pass pipeline"]);
    assert_eq!(messages("  "), ["empty pass pipeline"]);
    assert_eq!(messages("dce,,dce"), ["empty pass name at position 2 of pipeline `dce,,dce`"]);
    assert_eq!(messages(",dce"), ["empty pass name at position 1 of pipeline `,dce`"]);
    assert_eq!(messages("dce,"), ["empty pass name at position 2 of pipeline `dce,`"]);
    // Every bad element is reported, not just the first.
    assert_eq!(messages("x,,y").len(), 3);
    // Other separators are not names.
    assert_eq!(messages("dce;simplify-cfg"), ["unknown pass `dce;simplify-cfg` in pipeline `dce;simplify-cfg`"]);
    assert_eq!(messages("dce simplify-cfg").len(), 1);
    // Spaces around names are fine.
    assert_eq!(parse_pipeline(" dce , simplify-cfg ").unwrap().pass_names(), ["dce", "simplify-cfg"]);
    for level in 0..=3 {
        assert!(parse_pipeline(default_pipeline(level)).is_ok(), "-O{level} pipeline does not parse");
    }
}

#[test]
fn print_after_dumps_each_function() {
    let mut m = sample();
    let r = run(
        &mut m,
        "insert-checks,dce,simplify-cfg",
        &RunOptions { print_after: Some("dce".into()), ..Default::default() },
    );
    assert_eq!(r.dumps.len(), 2, "{:?}", r.dumps);
    assert!(r.dumps[0].starts_with("; *** IR after dce on f ***\nfunc f("), "{}", r.dumps[0]);
    assert!(r.dumps[1].starts_with("; *** IR after dce on g ***\nfunc g("), "{}", r.dumps[1]);
    // After dce, before simplify-cfg: the constant branch is still there.
    assert!(r.dumps[0].contains("condbr %t, yes, no"));
    assert!(!r.dumps[0].contains("%unused"));
    // A module pass dumps the whole module.
    let mut m = sample();
    let r = run(
        &mut m,
        "insert-checks,cold-outline",
        &RunOptions { print_after: Some("cold-outline".into()), ..Default::default() },
    );
    assert_eq!(r.dumps, [format!("; *** IR after cold-outline ***\n{}", print_module(&m))]);
    // A pass not in the pipeline dumps nothing.
    let mut m = sample();
    assert!(run(&mut m, "dce", &RunOptions { print_after: Some("const-fold".into()), ..Default::default() })
        .dumps
        .is_empty());
}

#[test]
fn time_passes_reports_every_step() {
    let mut m = sample();
    let r = run(&mut m, default_pipeline(2), &RunOptions { time_passes: true, ..Default::default() });
    let names: Vec<&str> = r.timings.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, default_pipeline(2).split(',').collect::<Vec<_>>());
    assert!(r.timings.iter().all(|(_, s)| *s >= 0.0 && s.is_finite()));
    assert!(r.timings.iter().map(|(_, s)| s).sum::<f64>() > 0.0);
    assert!(r.wall_seconds > 0.0);
    let text = format_timings(&r);
    assert!(text.contains("Pass execution timing report") && text.contains("select-fold") && text.contains("Total"));
    // Without the option: no timings.
    let mut m = sample();
    assert!(run(&mut m, "dce", &RunOptions::default()).timings.is_empty());
}

#[test]
fn bisect_limit() {
    // The -O2 pipeline after `outline-parallel`, which has no loop to
    // outline here: two module passes, last (`legalize`, `cold-outline`).
    let pipeline = default_pipeline(2).strip_prefix("outline-parallel,").expect("outline-parallel first");
    let original = print_module(&sample());
    let mut full = sample();
    let total = run(&mut full, pipeline, &RunOptions::default()).applications;
    // The function passes on 2 functions, plus the module passes.
    let function_passes = pipeline.split(',').count() as u64 - 2;
    let per_function = function_passes * 2;
    assert_eq!(total, per_function + 2);
    let full = print_module(&full);

    let mut m = sample();
    let r = run(&mut m, pipeline, &RunOptions { bisect_limit: Some(0), ..Default::default() });
    assert_eq!(print_module(&m), original, "N=0 must leave the module alone");
    assert_eq!(r.last_application, None);

    // Applications are numbered pass by pass, functions in order: N runs
    // exactly the first N, so the output at N is the output at N-1 with one
    // more application on top, and from `total` on it is the full result.
    let mut outputs = vec![original.clone()];
    for n in 1..=total + 2 {
        let mut m = sample();
        let r = run(&mut m, pipeline, &RunOptions { bisect_limit: Some(n), ..Default::default() });
        let k = n.min(total) - 1;
        let names: Vec<&str> = pipeline.split(',').collect();
        let want = if k < per_function {
            let (pass, func) = (names[(k / 2) as usize], if k % 2 == 0 { "f" } else { "g" });
            format!("({k}) {pass} on function {func}")
        } else if k == per_function {
            format!("({k}) legalize on module sample")
        } else {
            format!("({k}) cold-outline on module sample")
        };
        assert_eq!(r.last_application.as_deref(), Some(want.as_str()), "N={n}");
        outputs.push(print_module(&m));
    }
    assert_eq!(outputs[total as usize], full);
    assert_eq!(outputs.last().unwrap(), &full);
    // Monotone: raising N by one adds exactly one application, so only the
    // function that application ran on may change.
    for n in 1..=total as usize {
        let k = (n - 1) as u64;
        if k >= per_function {
            continue;
        }
        let target = if k % 2 == 0 { "f" } else { "g" };
        let (prev, next) = (parse(&outputs[n - 1]), parse(&outputs[n]));
        for name in ["f", "g"] {
            if name != target {
                assert_eq!(function_text(&prev, name), function_text(&next, name), "N={n} changed {name}");
            }
        }
    }
    let distinct = outputs.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(distinct >= 5, "only {distinct} applications changed anything");
}

fn parse(text: &str) -> Module {
    postc_ir::parse::parse_module("sample.pir", text.as_bytes()).unwrap()
}

fn function_text(m: &Module, name: &str) -> String {
    let f = m.functions.iter().find(|f| f.name == name).unwrap();
    postc_ir::print::print_function_with(&m.types, &m.files, f)
}

#[test]
fn o2_output_is_independent_of_the_thread_count() {
    for seed in [1u64, 2] {
        let base = large_module(300, 500, seed);
        let mut outs = Vec::new();
        for threads in [1, 4] {
            let mut m = base.clone();
            let pm = parse_pipeline(default_pipeline(2)).unwrap();
            let opts = RunOptions { threads: Some(threads), verify_each: true, ..Default::default() };
            pm.run(&mut m, &PassOptions::for_level(2), &opts).unwrap_or_else(|d| panic!("{d:?}"));
            outs.push(print_module(&m));
        }
        assert!(outs[0] == outs[1], "seed {seed}: -O2 output differs between 1 and 4 threads");
        assert_ne!(outs[0], print_module(&base));
    }
}

#[test]
fn cleanup_passes_are_idempotent() {
    let mut modules = vec![sample()];
    for seed in 0..30u64 {
        modules.push(large_module(3, 80, seed));
    }
    for text in ["tests/programs/collatz.pir", "tests/programs/panics.pir", "tests/programs/stencil.pir"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(text);
        modules.push(postc_ir::parse::parse_module(text, &std::fs::read(path).unwrap()).unwrap());
    }
    for pass in
        ["select-fold", "strength-reduce", "dce", "simplify-cfg", "const-fold", "cleanup", "irce", "stride-version"]
    {
        for level in [0, 2] {
            for (i, base) in modules.iter().enumerate() {
                let pm = parse_pipeline(&format!("insert-checks,stride-lower,{pass},{pass}")).unwrap();
                let mut m = base.clone();
                let opts = PassOptions::for_level(level);
                let verify = RunOptions { verify_each: true, ..Default::default() };
                pm.run(&mut m, &opts, &verify).unwrap();
                let once = print_module(&m);
                parse_pipeline(pass).unwrap().run(&mut m, &opts, &verify).unwrap();
                assert_eq!(print_module(&m), once, "`{pass}` (O{level}) changed module {i} again");
            }
        }
    }
}

/// A pass that changed nothing since the function last changed is not run
/// again; with `verify_each` every pass runs on its own, so comparing the
/// two checks that skipping never changes the output.
#[test]
fn skipping_settled_passes_changes_nothing() {
    let mut modules: Vec<Module> = (0..12u64).map(|seed| large_module(20, 600, seed)).collect();
    for text in ["tests/programs/collatz.pir", "tests/programs/panics.pir", "tests/programs/stencil.pir"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(text);
        modules.push(postc_ir::parse::parse_module(text, &std::fs::read(path).unwrap()).unwrap());
    }
    for level in [0u8, 1, 2] {
        let pm = parse_pipeline(default_pipeline(level)).unwrap();
        let opts = PassOptions::for_level(level);
        for (i, base) in modules.iter().enumerate() {
            let (mut grouped, mut alone) = (base.clone(), base.clone());
            pm.run(&mut grouped, &opts, &RunOptions::default()).unwrap();
            pm.run(&mut alone, &opts, &RunOptions { verify_each: true, ..Default::default() }).unwrap();
            assert_eq!(print_module(&grouped), print_module(&alone), "-O{level}, module {i}");
        }
    }
}
