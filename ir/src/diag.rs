//! Located diagnostics, rendered through codespan-reporting as
//! `error: <message>` with `file:line:col`, the offending line and a caret.

use crate::loc::{FileTable, SrcLoc};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};
use std::collections::HashMap;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A position in a file: path, 1-based line and byte column, and the
/// length in bytes of the span the caret underlines (at least one).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pos {
    pub path: String,
    pub line: u32,
    pub col: u32,
    pub len: u32,
}

impl Pos {
    pub fn new(path: &str, line: u32, col: u32, len: u32) -> Pos {
        Pos { path: path.to_owned(), line, col, len: len.max(1) }
    }
    pub fn from_loc(files: &FileTable, l: SrcLoc) -> Pos {
        Pos::new(files.path(l.file), l.line, l.col, 1)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path, self.line, self.col)
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub pos: Option<Pos>,
    /// Extra lines (`= note: ...`).
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, pos: Option<Pos>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, message: message.into(), pos, notes: Vec::new() }
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
}

/// One line: `file:line:col: error: message`.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.pos {
            write!(f, "{p}: ")?;
        }
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        write!(f, "{sev}: {}", self.message)
    }
}

/// How many errors one file reports before giving up.
pub const MAX_ERRORS: usize = 20;

/// Source texts by path, for rendering snippets.
pub struct SourceMap {
    files: SimpleFiles<String, String>,
    ids: HashMap<String, usize>,
}

impl Default for SourceMap {
    fn default() -> Self {
        SourceMap { files: SimpleFiles::new(), ids: HashMap::new() }
    }
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, path: &str, text: &str) {
        let id = self.files.add(path.to_owned(), text.to_owned());
        self.ids.insert(path.to_owned(), id);
    }

    /// The paths of the files added, in no particular order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.ids.keys().map(String::as_str)
    }

    /// The files added, as (path, text), in no particular order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.ids.iter().filter_map(|(path, id)| Some((path.as_str(), self.files.get(*id).ok()?.source().as_str())))
    }

    /// Byte range of a position in its file, when the file is known and the
    /// position lies inside it.
    fn span(&self, p: &Pos) -> Option<(usize, std::ops::Range<usize>)> {
        let id = *self.ids.get(&p.path)?;
        let text = self.files.get(id).ok()?.source();
        let mut line_start = 0usize;
        for _ in 1..p.line {
            line_start += text.get(line_start..)?.find('\n')? + 1;
        }
        let line_end = text[line_start..].find('\n').map_or(text.len(), |e| line_start + e);
        let start = (line_start + p.col.saturating_sub(1) as usize).min(line_end);
        let mut end = (start + p.len as usize).min(line_end).max(start);
        // Keep the range on character boundaries.
        let start = floor_char_boundary(text, start);
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        Some((id, start..end))
    }

    /// Renders diagnostics as text (`color`: ANSI colors).
    pub fn render(&self, diags: &[Diagnostic], color: bool) -> String {
        let mut buf = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
        let config = term::Config::default();
        for d in diags {
            let cs = match d.severity {
                Severity::Error => CsDiagnostic::error(),
                Severity::Warning => CsDiagnostic::warning(),
                Severity::Note => CsDiagnostic::note(),
            };
            let cs = cs.with_message(&d.message).with_notes(d.notes.clone());
            match d.pos.as_ref().and_then(|p| self.span(p).map(|s| (p, s))) {
                Some((_, (id, range))) => {
                    let cs = cs.with_labels(vec![Label::primary(id, range)]);
                    if term::emit(&mut buf, &config, &self.files, &cs).is_err() {
                        buf_write(&mut buf, &d.to_string());
                    }
                }
                None => {
                    // No source text to show: the located one-line form.
                    buf_write(&mut buf, &d.to_string());
                    for n in &d.notes {
                        buf_write(&mut buf, &format!("  = {n}"));
                    }
                }
            }
        }
        String::from_utf8_lossy(buf.as_slice()).into_owned()
    }
}

fn buf_write(buf: &mut termcolor::Buffer, line: &str) {
    use std::io::Write;
    let _ = writeln!(buf, "{line}");
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_message_location_line_and_caret() {
        let mut sm = SourceMap::new();
        sm.add("a.pir", "module a\nfunc f() {\nentry:\n  %x: Int64 = ad %y, %z\n}\n");
        let d = Diagnostic::error("unknown opcode `ad`", Some(Pos::new("a.pir", 4, 15, 2)));
        let out = sm.render(&[d], false);
        assert!(out.contains("error: unknown opcode `ad`"), "{out}");
        assert!(out.contains("a.pir:4:15"), "{out}");
        assert!(out.contains("%x: Int64 = ad %y, %z"), "{out}");
        assert!(out.contains("^^"), "{out}");
    }

    #[test]
    fn positions_outside_the_text_fall_back_to_one_line() {
        let sm = SourceMap::new();
        let d = Diagnostic::error("boom", Some(Pos::new("k.py", 12, 5, 1)));
        assert_eq!(sm.render(&[d], false), "k.py:12:5: error: boom\n");
    }
}
