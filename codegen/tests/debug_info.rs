//! Debug information of the LLVM backend (`CodegenOptions::debug`): every
//! program of `tests/py/` compiled with it at -O0 and -O2 into an object
//! that `llvm-dwarfdump --verify` finds clean, whose compile unit names the
//! program's file (language Python, the compilation directory set), with a
//! subprogram for every function (at -O0; at -O2 every exported one, the
//! others may be inlined away) at the line of its `def`, and a line table
//! of the program's file whose lines all exist in it; at -O0 every
//! parameter and `let` local the program names is a variable; at -O2 the
//! code is byte for byte that of the object without debug information.
//! Without the option an object has no DWARF at all.

use postc_codegen::{CodegenOptions, OptLevel};
use postc_ir::body::InstData;
use postc_ir::Program;
use postc_testkit::corpus::repo_root;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `llvm-dwarfdump` of LLVM 22, which `scripts/setup` installs.
fn dwarfdump() -> PathBuf {
    for name in ["llvm-dwarfdump-22", "llvm-dwarfdump"] {
        if Command::new(name).arg("--version").output().is_ok_and(|o| o.status.success()) {
            return name.into();
        }
    }
    let p = PathBuf::from("/usr/lib/llvm-22/bin/llvm-dwarfdump");
    assert!(p.is_file(), "llvm-dwarfdump (LLVM 22) is missing: run scripts/setup");
    p
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The programs of `tests/py/` (those with expected results), relative to
/// the repository root, as their locations name them.
fn py_programs() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests").join("py"))
        .expect("tests/py exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py") && p.with_extension("expected").is_file())
        .map(|p| p.strip_prefix(&root).expect("under the root").to_path_buf())
        .collect();
    files.sort();
    files
}

fn lower(rel: &Path) -> Program {
    let program = postc_frontend::lower_files(&[rel.to_path_buf()], Vec::new()).unwrap_or_else(|(sources, diags)| {
        panic!("{} does not lower:\n{}", rel.display(), sources.render(&diags, false))
    });
    assert!(postc_ir::verify::verify_program(&program).is_empty(), "{} does not verify", rel.display());
    program
}

/// The value of attribute `attr` in a `--debug-info` line, unquoted.
fn attr<'a>(line: &'a str, attr: &str) -> Option<&'a str> {
    let rest = line.trim().strip_prefix(attr)?.trim();
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
    Some(inner.trim_matches('"'))
}

/// The entries of a `--debug-info` dump: (tag, attribute lines).
fn entries(dump: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in dump.lines() {
        if let Some(at) = line.find("DW_TAG_") {
            if line[..at].trim_end().ends_with(':') {
                out.push((line[at..].trim().to_owned(), Vec::new()));
                continue;
            }
        }
        if let Some((_, attrs)) = out.last_mut() {
            if line.trim_start().starts_with("DW_AT_") {
                attrs.push(line.trim().to_owned());
            }
        }
    }
    out
}

fn find<'a>(attrs: &'a [String], name: &str) -> Option<&'a str> {
    attrs.iter().find_map(|l| attr(l, name))
}

/// The bytes of the code sections (`.text*`) of an ELF64 little-endian
/// object, in order.
fn code(obj: &[u8]) -> Vec<u8> {
    let u16_at = |at: usize| u16::from_le_bytes([obj[at], obj[at + 1]]) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(obj[at..at + 4].try_into().unwrap()) as usize;
    let u64_at = |at: usize| u64::from_le_bytes(obj[at..at + 8].try_into().unwrap()) as usize;
    let (shoff, shentsize, shnum, shstrndx) = (u64_at(0x28), u16_at(0x3a), u16_at(0x3c), u16_at(0x3e));
    let header = |i: usize| shoff + i * shentsize;
    let names = u64_at(header(shstrndx) + 0x18);
    let mut out = Vec::new();
    for i in 0..shnum {
        let h = header(i);
        let name_at = names + u32_at(h);
        let name_end = name_at + obj[name_at..].iter().position(|&b| b == 0).unwrap();
        if obj[name_at..name_end].starts_with(b".text") {
            let (off, size) = (u64_at(h + 0x18), u64_at(h + 0x20));
            out.extend_from_slice(&obj[off..off + size]);
        }
    }
    out
}

/// Checks one program's object at one level; returns what is wrong.
fn check(rel: &Path, program: &Program, level: OptLevel, dump_tool: &Path, dir: &Path) -> Vec<String> {
    let mut errs = Vec::new();
    let options = CodegenOptions { debug: true, ..CodegenOptions::for_level(level) };
    let obj = match postc_codegen::compile(program, &options) {
        Ok(o) => o,
        Err(d) => return vec![format!("{} does not compile with -g: {d:?}", rel.display())],
    };
    let path = dir.join(format!("{}-O{}.o", rel.file_stem().unwrap().to_string_lossy(), level.as_u8()));
    std::fs::write(&path, &obj).unwrap();
    let what = format!("{} -g -O{}", rel.display(), level.as_u8());
    // Optimised code is the same with and without debug information.
    if level != OptLevel::O0 {
        match postc_codegen::compile(program, &CodegenOptions::for_level(level)) {
            Ok(plain) if code(&plain) == code(&obj) => {}
            Ok(_) => errs.push(format!("{what}: the code differs from that without -g")),
            Err(d) => errs.push(format!("{what}: does not compile without -g: {d:?}")),
        }
    }
    let verify = Command::new(dump_tool).arg("--verify").arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&verify.stdout);
    if !verify.status.success() || !text.contains("No errors.") {
        errs.push(format!("{what}: llvm-dwarfdump --verify:\n{text}"));
    }
    let info = run(Command::new(dump_tool).arg("--debug-info").arg(&path));
    let entries = entries(&info);
    let m = &program.modules[postc_ir::ModuleId::from_u32(0)];
    let file = rel.display().to_string();
    let cu = entries.iter().find(|(t, a)| t == "DW_TAG_compile_unit" && find(a, "DW_AT_name") == Some(file.as_str()));
    match cu {
        None => errs.push(format!("{what}: no compile unit names {file}")),
        Some((_, a)) => {
            if find(a, "DW_AT_language") != Some("DW_LANG_Python") {
                errs.push(format!("{what}: the compile unit's language is not Python: {a:?}"));
            }
            if find(a, "DW_AT_comp_dir").is_none_or(str::is_empty) {
                errs.push(format!("{what}: the compile unit has no compilation directory"));
            }
        }
    }
    // Subprograms: name → declared line.
    let subprograms: Vec<(String, Option<u32>)> = entries
        .iter()
        .filter(|(t, _)| t == "DW_TAG_subprogram")
        .filter_map(|(_, a)| Some((find(a, "DW_AT_name")?.to_owned(), find(a, "DW_AT_decl_line")?.parse().ok())))
        .collect();
    for f in m.functions.iter() {
        let exported = m.is_exported(&f.name);
        if level != OptLevel::O0 && !exported {
            continue;
        }
        let line = f.loc.map(|l| l.line);
        if !subprograms.iter().any(|(n, l)| *n == f.name && (line.is_none() || *l == line)) {
            errs.push(format!("{what}: no subprogram `{}` at line {line:?}", f.name));
        }
    }
    if level == OptLevel::O0 {
        let variables: BTreeSet<String> = entries
            .iter()
            .filter(|(t, _)| t == "DW_TAG_formal_parameter" || t == "DW_TAG_variable")
            .filter_map(|(_, a)| find(a, "DW_AT_name").map(str::to_owned))
            .collect();
        for f in m.functions.iter() {
            for v in f.body.tags.ids() {
                let named = match f.body.inst(v) {
                    InstData::Param { .. } => f.body.name(v),
                    // A version of a parameter (`x$1`) is named as it.
                    InstData::Let { .. } => {
                        f.body.name(v).filter(|n| !n.contains('.')).map(|n| n.split('$').next().unwrap_or(n))
                    }
                    _ => None,
                };
                if let Some(n) = named {
                    if !variables.contains(n) {
                        errs.push(format!("{what}: `{n}` of `{}` is not a variable", f.name));
                    }
                }
            }
        }
    }
    // The line table: rows of the program's file, each on one of its lines.
    let lines = run(Command::new(dump_tool).arg("--debug-line").arg(&path));
    let source_lines = std::fs::read_to_string(repo_root().join(rel)).unwrap().lines().count() as u32;
    let mut rows = 0;
    for row in lines.lines().filter(|l| l.starts_with("0x")) {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let Some(line) = cols.get(1).and_then(|l| l.parse::<u32>().ok()) else { continue };
        rows += 1;
        if line > source_lines {
            errs.push(format!("{what}: a line-table row at line {line}, past the end of the file ({source_lines})"));
        }
    }
    let base = rel.file_name().unwrap().to_string_lossy();
    if !lines.contains(&format!("name: \"{base}\"")) || rows == 0 {
        errs.push(format!("{what}: the line table has no rows of {file}"));
    }
    errs
}

#[test]
fn every_py_program_has_verified_dwarf_at_o0_and_o2() {
    let root = repo_root();
    std::env::set_current_dir(&root).unwrap();
    let tool = dwarfdump();
    let dir = tempfile::tempdir().unwrap();
    let programs = py_programs();
    assert!(programs.len() > 30, "tests/py has its programs");
    let errors = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(rel) = programs.get(i) else { break };
                let program = lower(rel);
                for level in [OptLevel::O0, OptLevel::O2] {
                    let errs = check(rel, &program, level, &tool, dir.path());
                    errors.lock().unwrap().extend(errs);
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap();
    assert!(errors.is_empty(), "{} problems:\n{}", errors.len(), errors.join("\n"));
}

#[test]
fn without_the_option_objects_have_no_dwarf() {
    let root = repo_root();
    std::env::set_current_dir(&root).unwrap();
    let program = lower(Path::new("tests/py/stats.py"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stats.o");
    std::fs::write(&path, postc_codegen::compile(&program, &CodegenOptions::for_level(OptLevel::O2)).unwrap()).unwrap();
    let info = run(Command::new(dwarfdump()).arg("--debug-info").arg(&path));
    assert!(!info.contains("DW_TAG_compile_unit"), "{info}");
}

/// The function names of a module's `name` section, if it has one.
fn wasm_function_names(bytes: &[u8]) -> Option<Vec<String>> {
    for payload in wasmparser::Parser::new(0).parse_all(bytes) {
        let wasmparser::Payload::CustomSection(c) = payload.unwrap() else { continue };
        let wasmparser::KnownCustom::Name(reader) = c.as_known() else { continue };
        let mut names = Vec::new();
        for n in reader {
            if let wasmparser::Name::Function(map) = n.unwrap() {
                names.extend(map.into_iter().map(|naming| naming.unwrap().name.to_owned()));
            }
        }
        return Some(names);
    }
    None
}

#[test]
fn wasm_modules_with_debug_information_name_their_functions() {
    use postc_codegen::backend::Backend;
    std::env::set_current_dir(repo_root()).unwrap();
    let program = lower(Path::new("tests/py/stats.py"));
    let options = CodegenOptions { debug: true, ..CodegenOptions::for_level(OptLevel::O2) };
    let bytes = postc_codegen::wasm::Wasm.emit(&program, &options, postc_codegen::EmitKind::Wasm).unwrap();
    let names = wasm_function_names(&bytes).expect("a name section");
    for want in ["postc_panic", "mean", "variance", "stats.postc.cold.panic.0", "postc_arena_mark"] {
        assert!(names.iter().any(|n| n == want), "no function named {want}: {names:?}");
    }
    let plain = postc_codegen::wasm::Wasm.emit(
        &program,
        &CodegenOptions::for_level(OptLevel::O2),
        postc_codegen::EmitKind::Wasm,
    );
    assert_eq!(wasm_function_names(&plain.unwrap()), None);
}

#[test]
fn qbe_il_with_debug_information_names_files_and_lines() {
    use postc_codegen::backend::Backend;
    std::env::set_current_dir(repo_root()).unwrap();
    let program = lower(Path::new("tests/py/stats.py"));
    let options = CodegenOptions { debug: true, ..CodegenOptions::for_level(OptLevel::O0) };
    let il = postc_codegen::qbe::Qbe.emit(&program, &options, postc_codegen::EmitKind::Qbe).unwrap();
    let il = String::from_utf8(il).unwrap();
    // `variance` (line 16) names its file, starts at its `def` and has the
    // line of its loop body.
    let at = il.find("function d $variance(").expect("variance");
    let before = &il[..at];
    assert!(before.trim_end().lines().rev().any(|l| l == "dbgfile \"tests/py/stats.py\""), "{il}");
    let body = &il[at..il[at..].find("\n}\n").map(|e| at + e).unwrap()];
    assert!(body.contains("@start\n  dbgloc 16, ") && body.contains("dbgloc 22, 9"), "{body}");
    let plain =
        postc_codegen::qbe::Qbe.emit(&program, &CodegenOptions::for_level(OptLevel::O0), postc_codegen::EmitKind::Qbe);
    assert!(!String::from_utf8(plain.unwrap()).unwrap().contains("dbg"));
}

#[test]
fn the_c_backend_passes_g_to_the_c_compiler() {
    let cc = ["cc".to_owned()];
    let on = CodegenOptions { debug: true, ..CodegenOptions::for_level(OptLevel::O2) };
    assert!(postc_codegen::c::c_flags(&on, &cc).contains(&"-g".to_owned()));
    assert!(!postc_codegen::c::c_flags(&CodegenOptions::for_level(OptLevel::O2), &cc).contains(&"-g".to_owned()));
}

/// The generated C puts a function's declarations on the line of its `def`
/// and a statement the passes inserted on the line of the statement before
/// it: no code is on a line of the source that does not hold it.
#[test]
fn c_source_lines_hold_only_their_own_code() {
    use postc_codegen::backend::Backend;
    std::env::set_current_dir(repo_root()).unwrap();
    let program = lower(Path::new("tests/py/stats.py"));
    let c = postc_codegen::c::C.emit(&program, &CodegenOptions::for_level(OptLevel::O0), postc_codegen::EmitKind::C);
    let c = String::from_utf8(c.unwrap()).unwrap();
    let at = c.find("double variance(DLTensor *v_x) {").expect("variance");
    let lines: Vec<&str> = c[at..].lines().take(3).collect();
    assert_eq!(lines[1], "#line 16 \"tests/py/stats.py\"", "{c}");
    assert!(lines[2].contains("double v_acc = 0;") && lines[2].contains("int64_t v_i = 0;"), "{c}");
    // Simulate the preprocessor: the source line of each statement of
    // `variance` is one that has code (16: the `def` and the entry checks).
    let source: Vec<&str> = include_str!("../../tests/py/stats.py").lines().collect();
    let mut line = 0u32;
    for l in c[at..c[at..].find("\n}\n").unwrap() + at].lines().skip(1) {
        if let Some(rest) = l.strip_prefix("#line ") {
            line = rest.split_whitespace().next().unwrap().parse().unwrap();
            continue;
        }
        if !l.trim().is_empty() && !l.ends_with(":;") {
            let text = source[line as usize - 1].trim();
            assert!(!text.is_empty() && !text.starts_with('#') && !text.starts_with("\"\"\""), "line {line}: {l}");
        }
        line += 1;
    }
}
