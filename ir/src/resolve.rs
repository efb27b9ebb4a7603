//! Module resolution, like Python's imports: loads the files named on the
//! command line, then every module they depend on (`import post a.b: ...`,
//! `depends a.b`), found as `a/b.pir` (or `a/b.py` when a source frontend
//! is installed) beside the importing file or under an include directory,
//! each module once (cycles are fine).

use crate::diag::{Diagnostic, Pos, SourceMap};
use crate::loc::SrcLoc;
use crate::module::{Module, ModuleId, Program};
use crate::parse::parse_module;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A source language read besides `.pir` text (POST Python). Its modules
/// are loaded in two steps, so that every module's signatures are known
/// before any body is lowered: [`declare`](SourceFrontend::declare) while
/// the loader resolves imports, [`define`](SourceFrontend::define) once the
/// whole program is loaded and linked.
pub trait SourceFrontend {
    /// The extension of the files it reads, without the dot (`py`).
    fn extension(&self) -> &'static str;
    /// Reads a file into a module holding its imports, constants, aliases,
    /// exports and the signature of every function, with empty bodies.
    /// `imported_as` is the dotted name an import found it by; a file named
    /// on the command line gets its stem.
    fn declare(&mut self, path: &str, text: &str, imported_as: Option<&str>) -> Result<Module, Vec<Diagnostic>>;
    /// Lowers the function bodies of a module that `declare` made.
    fn define(&mut self, program: &mut Program, module: ModuleId) -> Result<(), Vec<Diagnostic>>;
    /// The errors `declare` found in a module but left for `define` to
    /// report, when loading stops before `define` runs.
    fn take_declared_errors(&mut self, _module: &Module) -> Vec<Diagnostic> {
        Vec::new()
    }
}

/// Loads modules and their dependencies into a [`Program`].
#[derive(Default)]
pub struct Loader {
    /// The text of every file read, for rendering diagnostics.
    pub sources: SourceMap,
    /// Searched in order after the importing file's directory (`-I DIR`).
    pub include_dirs: Vec<PathBuf>,
    /// Reads the files that are not `.pir`.
    pub frontend: Option<Box<dyn SourceFrontend>>,
    /// Files held in memory, read instead of the disk: source that exists
    /// only in an interpreter (a notebook cell, `exec`'d text), or one
    /// function of a file cut out with the rest blanked. Diagnostics and
    /// locations name them by this path, as the interpreter's tracebacks
    /// do. A path here without the `.pir` extension is the source
    /// frontend's, whatever its extension (`<ipython-input-3-…>`).
    pub overlay: HashMap<PathBuf, String>,
}

/// A module loaded so far, with the file it came from.
struct Loaded {
    module: Module,
    path: PathBuf,
    /// Declared by the source frontend; its bodies are still to lower.
    declared: bool,
}

impl Loader {
    pub fn new() -> Loader {
        Loader::default()
    }

    pub fn with_include_dirs(include_dirs: Vec<PathBuf>) -> Loader {
        Loader { include_dirs, ..Loader::default() }
    }

    /// Installs a frontend for the files that are not `.pir`.
    pub fn with_frontend(mut self, frontend: Box<dyn SourceFrontend>) -> Loader {
        self.frontend = Some(frontend);
        self
    }

    /// Adds a file held in memory (see [`Loader::overlay`]).
    pub fn with_overlay(mut self, files: impl IntoIterator<Item = (PathBuf, String)>) -> Loader {
        self.overlay.extend(files);
        self
    }

    fn is_frontend_file(&self, path: &Path) -> bool {
        let ext = path.extension().and_then(|e| e.to_str());
        match (&self.frontend, ext) {
            (Some(f), Some(e)) if f.extension() == e => true,
            (Some(_), _) => ext != Some("pir") && self.overlay.contains_key(path),
            (None, _) => false,
        }
    }

    /// Whether a file exists, on disk or in the overlay.
    fn exists(&self, path: &Path) -> bool {
        self.overlay.contains_key(path) || path.is_file()
    }

    /// The file `a/b.pir` of module `a.b`, relative to a search directory.
    pub fn module_file(name: &str) -> PathBuf {
        let mut p = PathBuf::new();
        let mut segs = name.split('.').peekable();
        while let Some(seg) = segs.next() {
            if segs.peek().is_some() {
                p.push(seg);
            } else {
                p.push(format!("{seg}.pir"));
            }
        }
        p
    }

    /// Reads and parses one file (the frontend declares its module); its
    /// text goes to `sources`.
    fn read(&mut self, path: &Path, imported_as: Option<&str>, diags: &mut Vec<Diagnostic>) -> Option<Loaded> {
        let shown = path.display().to_string();
        let read = match self.overlay.get(path) {
            Some(text) => Ok(text.clone().into_bytes()),
            None => std::fs::read(path),
        };
        let bytes = match read {
            Ok(b) => b,
            Err(e) => {
                diags.push(Diagnostic::error(format!("cannot read `{shown}`: {e}"), None));
                return None;
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        self.sources.add(&shown, &text);
        let declared = self.is_frontend_file(path);
        let parsed = match &mut self.frontend {
            Some(f) if declared => f.declare(&shown, &text, imported_as),
            _ => parse_module(&shown, &bytes),
        };
        match parsed {
            Ok(module) => Some(Loaded { module, path: path.to_path_buf(), declared }),
            Err(d) => {
                diags.extend(d);
                None
            }
        }
    }

    /// Where a module is looked for when `importer` depends on it.
    pub fn candidates(&self, importer: &Path, name: &str) -> Vec<PathBuf> {
        let pir = Loader::module_file(name);
        // A source file goes before the `.pir` that may have been lowered
        // from it beside it.
        let mut rels = Vec::new();
        if let Some(f) = &self.frontend {
            rels.push(pir.with_extension(f.extension()));
        }
        rels.push(pir);
        let beside = importer.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut out = Vec::new();
        for dir in std::iter::once(&beside).chain(&self.include_dirs) {
            for rel in &rels {
                let p = dir.join(rel);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Loads `files` and every module they depend on, transitively; links
    /// the dependencies. Modules appear in the program in load order: the
    /// named files first, then dependencies breadth-first.
    pub fn load(&mut self, files: &[PathBuf]) -> Result<Program, Vec<Diagnostic>> {
        let mut diags = Vec::new();
        let mut loaded: Vec<Loaded> = Vec::new();
        // Module name → index in `loaded`; `None`: known unavailable
        // (failed to parse or not found), not to be searched again.
        let mut by_name: HashMap<String, Option<usize>> = HashMap::new();
        let mut by_path: HashMap<PathBuf, Option<usize>> = HashMap::new();

        for path in files {
            let key = canonical(path);
            if by_path.contains_key(&key) {
                continue;
            }
            let m = self.read(path, None, &mut diags);
            let idx = m.map(|l| {
                loaded.push(l);
                loaded.len() - 1
            });
            by_path.insert(key, idx);
            let Some(i) = idx else { continue };
            let name = loaded[i].module.name.clone();
            match by_name.get(&name) {
                Some(Some(first)) => {
                    let first = loaded[*first].path.display().to_string();
                    let m = &loaded[i].module;
                    diags.push(
                        Diagnostic::error(
                            format!("duplicate module `{name}`"),
                            decl_pos(m, m.decl_locs.module, "module".len()),
                        )
                        .with_note(format!("module `{name}` is also defined in `{first}`")),
                    );
                }
                _ => {
                    by_name.insert(name, Some(i));
                }
            }
        }

        let mut next = 0;
        while next < loaded.len() {
            let importer = next;
            next += 1;
            let deps: Vec<String> = loaded[importer].module.dependencies.iter().cloned().collect();
            for dep in deps {
                if by_name.contains_key(&dep) {
                    continue;
                }
                let imp = &loaded[importer];
                let at = decl_pos(&imp.module, imp.module.decl_locs.dependencies.get(&dep).copied(), dep.len());
                let tried = self.candidates(&imp.path, &dep);
                let Some(found) = tried.iter().find(|p| self.exists(p)).cloned() else {
                    let list: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
                    diags.push(
                        Diagnostic::error(format!("cannot find module `{dep}`"), at)
                            .with_note(format!("looked for: {}", list.join(", "))),
                    );
                    by_name.insert(dep, None);
                    continue;
                };
                let key = canonical(&found);
                let idx = match by_path.get(&key) {
                    Some(idx) => *idx,
                    None => {
                        let m = self.read(&found, Some(&dep), &mut diags);
                        let idx = m.map(|l| {
                            loaded.push(l);
                            loaded.len() - 1
                        });
                        by_path.insert(key, idx);
                        idx
                    }
                };
                if let Some(i) = idx {
                    let m = &loaded[i].module;
                    if m.name != dep {
                        let importer_at = at.map(|p| format!(" at {p}")).unwrap_or_default();
                        diags.push(
                            Diagnostic::error(
                                format!(
                                    "`{}` declares module `{}`, but it was imported as `{dep}`",
                                    found.display(),
                                    m.name
                                ),
                                decl_pos(m, m.decl_locs.module, "module".len()),
                            )
                            .with_note(format!("imported as `{dep}`{importer_at}")),
                        );
                        by_name.insert(dep, None);
                        continue;
                    }
                }
                by_name.insert(dep, idx);
            }
        }

        if !diags.is_empty() {
            if let Some(f) = &mut self.frontend {
                for l in loaded.iter().filter(|l| l.declared) {
                    diags.extend(f.take_declared_errors(&l.module));
                }
            }
            return Err(diags);
        }
        let mut program = Program::default();
        let mut to_define = Vec::new();
        for l in loaded {
            let id = program.modules.push(l.module);
            if l.declared {
                to_define.push(id);
            }
        }
        let missing = program.link_dependencies();
        for (id, dep) in missing {
            let m = &program.modules[id];
            let at = decl_pos(m, m.decl_locs.dependencies.get(&dep).copied(), dep.len());
            diags.push(Diagnostic::error(format!("cannot find module `{dep}`"), at));
        }
        if !diags.is_empty() {
            if let Some(f) = &mut self.frontend {
                for id in &to_define {
                    diags.extend(f.take_declared_errors(&program.modules[*id]));
                }
            }
        } else if let Some(f) = &mut self.frontend {
            for id in to_define {
                if let Err(d) = f.define(&mut program, id) {
                    diags.extend(d);
                }
            }
        }
        if diags.is_empty() {
            Ok(program)
        } else {
            Err(diags)
        }
    }
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

fn decl_pos(m: &Module, l: Option<SrcLoc>, len: usize) -> Option<Pos> {
    l.map(|l| Pos::new(m.files.path(l.file), l.line, l.col, u32::try_from(len).unwrap_or(1)))
}
