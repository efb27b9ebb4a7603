//! Filetests: each `tests/filetests/NAME.pir` starts with
//! `; pipeline: <pipeline text>` (and optionally `; options: ...`); the
//! module after it is run through the pipeline with `verify_each` and the
//! printed result must equal `NAME.out`. `POSTC_BLESS=1` rewrites the
//! `.out` files. The format is described in `tests/README.md`.

use postc_passes::{parse_pipeline, PassOptions, RunOptions};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("filetests")
}

/// Reads the `; pipeline:` and `; options:` header of a filetest.
fn header(text: &str) -> Result<(String, PassOptions), String> {
    let mut pipeline = None;
    let mut options = PassOptions::for_level(2);
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix(';') else { break };
        let rest = rest.trim();
        if let Some(p) = rest.strip_prefix("pipeline:") {
            pipeline = Some(p.trim().to_owned());
        } else if let Some(o) = rest.strip_prefix("options:") {
            // `O<n>` first resets to that level's defaults, then flags apply.
            let words: Vec<&str> = o.split([',', ' ']).map(str::trim).filter(|w| !w.is_empty()).collect();
            for w in &words {
                if let Some(l) = w.strip_prefix('O').and_then(|l| l.parse::<u8>().ok()) {
                    options = PassOptions::for_level(l);
                }
            }
            for w in &words {
                match *w {
                    "overflow-checks" => options.overflow_checks = true,
                    "no-overflow-checks" => options.overflow_checks = false,
                    "no-bounds-checks" => options.bounds_checks = false,
                    "no-div-checks" => options.div_checks = false,
                    // A backend's own overflow tests (`legalize` leaves them).
                    "native-overflow-tests" => options.features.overflow_tests = true,
                    w if w.starts_with('O') && w[1..].parse::<u8>().is_ok() => {}
                    w => return Err(format!("unknown option `{w}`")),
                }
            }
        }
    }
    Ok((pipeline.ok_or("no `; pipeline:` line")?, options))
}

/// Runs one filetest; returns the printed module.
fn run_one(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (pipeline, options) = header(&text)?;
    let name = format!("filetests/{}", path.file_name().unwrap().to_string_lossy());
    let mut m = postc_ir::parse::parse_module(&name, text.as_bytes())
        .map_err(|d| format!("does not parse: {}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")))?;
    let diags = postc_ir::verify::verify_module(&m);
    if !diags.is_empty() {
        return Err(format!("input does not verify: {diags:?}"));
    }
    let pm = parse_pipeline(&pipeline).map_err(|d| format!("bad pipeline: {d:?}"))?;
    let run = RunOptions { verify_each: true, ..RunOptions::default() };
    pm.run(&mut m, &options, &run)
        .map_err(|d| format!("pipeline failed:\n{}", d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n")))?;
    Ok(postc_ir::print::print_module(&m))
}

#[test]
fn filetests() {
    let bless = std::env::var_os("POSTC_BLESS").is_some_and(|v| v != "0");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/filetests exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pir"))
        .collect();
    files.sort();
    assert!(files.len() >= 21, "only {} filetests", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let got = match run_one(path) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let out = path.with_extension("out");
        if bless {
            std::fs::write(&out, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&out) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!("{}: output differs\n{}", path.display(), diff(&want, &got))),
            Err(_) => failures.push(format!("{}: no {} (run with POSTC_BLESS=1)", path.display(), out.display())),
        }
    }
    assert!(failures.is_empty(), "{} of {} filetests failed:\n{}", failures.len(), files.len(), failures.join("\n\n"));
}

/// A line diff good enough to read a failure: lines only in one side.
fn diff(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    // Longest common subsequence table (filetests are small).
    let mut t = vec![vec![0u32; g.len() + 1]; w.len() + 1];
    for i in (0..w.len()).rev() {
        for j in (0..g.len()).rev() {
            t[i][j] = if w[i] == g[j] { t[i + 1][j + 1] + 1 } else { t[i + 1][j].max(t[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < w.len() || j < g.len() {
        if i < w.len() && j < g.len() && w[i] == g[j] {
            out += &format!("  {}\n", w[i]);
            i += 1;
            j += 1;
        } else if j < g.len() && (i == w.len() || t[i][j + 1] >= t[i + 1][j]) {
            out += &format!("+ {}\n", g[j]);
            j += 1;
        } else {
            out += &format!("- {}\n", w[i]);
            i += 1;
        }
    }
    out
}
