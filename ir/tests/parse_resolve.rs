//! Module resolution: command-line files, `a/b.pir` beside the importer,
//! include directories, cycles, and the errors.

use postc_ir::resolve::Loader;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("postc-resolve-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const LEAF: &str = "module linalg.core\nfunc dot(%a: Float64, %b: Float64) -> Float64 {\nentry:\n  %p: Float64 = mul %a, %b\n  return %p\n}\n";

fn main_importing(dep: &str) -> String {
    format!(
        "module app\nimport post {dep}: dot\nfunc main(%x: Float64) -> Float64 {{\nentry:\n  %r: Float64 = call dot(%x, %x)\n  return %r\n}}\n"
    )
}

fn names(p: &postc_ir::Program) -> Vec<&str> {
    p.modules.iter().map(|m| m.name.as_str()).collect()
}

#[test]
fn finds_a_module_beside_the_importer() {
    let d = TempDir::new("beside");
    let app = d.write("app.pir", &main_importing("linalg.core"));
    d.write("linalg/core.pir", LEAF);
    let mut l = Loader::new();
    let p = l.load(&[app]).unwrap();
    assert_eq!(names(&p), ["app", "linalg.core"]);
    assert_eq!(p.modules[postc_ir::ModuleId::from_u32(0)].dep_modules, [postc_ir::ModuleId::from_u32(1)]);
}

#[test]
fn searches_include_dirs_in_order() {
    let d = TempDir::new("include");
    let app = d.write("src/app.pir", &main_importing("linalg.core"));
    d.write("inc2/linalg/core.pir", LEAF);
    d.write("inc3/linalg/core.pir", "this file is never read\n");
    let mut l = Loader::with_include_dirs(vec![d.path().join("inc1"), d.path().join("inc2"), d.path().join("inc3")]);
    let p = l.load(&[app]).unwrap();
    assert_eq!(names(&p), ["app", "linalg.core"]);
}

#[test]
fn files_on_the_command_line_resolve_each_other_first() {
    let d = TempDir::new("cmdline");
    let app = d.write("app.pir", &main_importing("linalg.core"));
    let leaf = d.write("elsewhere/anything.pir", LEAF);
    // A broken file where the search would look: never read.
    d.write("linalg/core.pir", "garbage\n");
    let mut l = Loader::new();
    let p = l.load(&[app, leaf]).unwrap();
    assert_eq!(names(&p), ["app", "linalg.core"]);
}

#[test]
fn cycles_load_each_module_once() {
    let d = TempDir::new("cycle");
    let a = d.write("a.pir", "module a\ndepends b\n");
    d.write("b.pir", "module b\nimport post c: g\n");
    d.write("c.pir", "module c\ndepends a\ndepends b\n");
    let mut l = Loader::new();
    let p = l.load(&[a.clone(), a]).unwrap();
    assert_eq!(names(&p), ["a", "b", "c"]);
    let c = &p.modules[postc_ir::ModuleId::from_u32(2)];
    assert_eq!(c.dep_modules.len(), 2);
}

#[test]
fn missing_module_is_reported_at_the_import() {
    let d = TempDir::new("missing");
    let app = d.write("app.pir", &main_importing("linalg.core"));
    let mut l = Loader::with_include_dirs(vec![d.path().join("inc")]);
    let e = l.load(&[app.clone()]).unwrap_err();
    assert_eq!(e.len(), 1);
    let pos = e[0].pos.as_ref().unwrap();
    assert_eq!(e[0].message, "cannot find module `linalg.core`");
    assert_eq!((pos.path.as_str(), pos.line, pos.col, pos.len), (app.to_str().unwrap(), 2, 13, 11));
    let note = &e[0].notes[0];
    assert!(note.starts_with("looked for: "), "{note}");
    assert!(note.contains(&d.path().join("linalg").join("core.pir").display().to_string()), "{note}");
    assert!(note.contains(&d.path().join("inc").join("linalg").join("core.pir").display().to_string()), "{note}");
    // The source is kept for rendering.
    let out = l.sources.render(&e, false);
    assert!(out.contains("import post linalg.core: dot"), "{out}");
}

#[test]
fn depends_without_import_is_resolved_too() {
    let d = TempDir::new("depends");
    let app = d.write("app.pir", "module app\n\ndepends util.x\n");
    let e = Loader::new().load(&[app]).unwrap_err();
    assert_eq!(e[0].message, "cannot find module `util.x`");
    assert_eq!(e[0].pos.as_ref().map(|p| (p.line, p.col)), Some((3, 9)));
}

#[test]
fn module_name_must_match_the_import() {
    let d = TempDir::new("mismatch");
    let app = d.write("app.pir", &main_importing("linalg.core"));
    let leaf = d.write("linalg/core.pir", "module linalg.kernel\n");
    let e = Loader::new().load(&[app]).unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].message,
        format!("`{}` declares module `linalg.kernel`, but it was imported as `linalg.core`", leaf.display())
    );
    let pos = e[0].pos.as_ref().unwrap();
    assert_eq!((pos.path.as_str(), pos.line, pos.col), (leaf.to_str().unwrap(), 1, 1));
    assert!(e[0].notes[0].starts_with("imported as `linalg.core` at "), "{:?}", e[0].notes);
}

#[test]
fn errors_in_dependencies_and_unreadable_files() {
    let d = TempDir::new("errors");
    let app = d.write("app.pir", &main_importing("linalg.core"));
    d.write("linalg/core.pir", "module linalg.core\nfunc f() {\nentry:\n  %x: Int64 = ad\n}\n");
    let mut l = Loader::new();
    let e = l.load(&[app, d.path().join("nope.pir"), d.path().to_path_buf()]).unwrap_err();
    let msgs: Vec<String> = e.iter().map(|d| d.to_string()).collect();
    assert!(msgs.iter().any(|m| m.contains("cannot read `") && m.contains("nope.pir")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.ends_with("core.pir:4:15: error: unknown opcode `ad`")), "{msgs:?}");
    assert!(!msgs.iter().any(|m| m.contains("cannot find")), "{msgs:?}");
    let out = l.sources.render(&e, false);
    assert!(out.contains("%x: Int64 = ad"), "{out}");
}

#[test]
fn duplicate_module_names_on_the_command_line() {
    let d = TempDir::new("dup");
    let a = d.write("a.pir", "module same\n");
    let b = d.write("b.pir", "module same\n");
    let e = Loader::new().load(&[a.clone(), b]).unwrap_err();
    assert_eq!(e[0].message, "duplicate module `same`");
    assert_eq!(e[0].notes[0], format!("module `same` is also defined in `{}`", a.display()));
}

#[test]
fn module_file_paths() {
    assert_eq!(Loader::module_file("a.b.c"), Path::new("a").join("b").join("c.pir"));
    assert_eq!(Loader::module_file("m"), PathBuf::from("m.pir"));
}
