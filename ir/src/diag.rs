//! Located diagnostics, rendered through codespan-reporting as
//! `error: <message>` with `file:line:col`, the offending line and a caret.
//!
//! A line longer than [`LONG_LINE`] bytes is shown cut to a window around
//! the caret, with `...` where it was cut (the location keeps the line's
//! own line and column): a file may be one long line (an `__all__` of
//! thousands of names), and each of its diagnostics would otherwise print
//! all of it. Line starts are found by index, not by scanning the file.

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

/// Lines longer than this many bytes are shown cut around the caret.
pub const LONG_LINE: usize = 200;

/// How much of a long line is shown before the caret's span and after it,
/// and of a span longer than that, in bytes.
const CONTEXT: usize = 60;

/// Source texts by path, for rendering snippets.
pub struct SourceMap {
    files: SimpleFiles<String, String>,
    ids: HashMap<String, usize>,
    /// Where each line of each file starts, by file id.
    line_starts: Vec<Vec<usize>>,
    /// Whether each file is ASCII (a column is then a byte offset).
    ascii: Vec<bool>,
}

impl Default for SourceMap {
    fn default() -> Self {
        SourceMap { files: SimpleFiles::new(), ids: HashMap::new(), line_starts: Vec::new(), ascii: Vec::new() }
    }
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, path: &str, text: &str) {
        let id = self.files.add(path.to_owned(), text.to_owned());
        self.ids.insert(path.to_owned(), id);
        let starts =
            std::iter::once(0).chain(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        self.line_starts.resize(id + 1, Vec::new());
        self.line_starts[id] = starts.collect();
        self.ascii.resize(id + 1, false);
        self.ascii[id] = text.is_ascii();
    }

    /// The paths of the files added, in no particular order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.ids.keys().map(String::as_str)
    }

    /// The files added, as (path, text), in no particular order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.ids.iter().filter_map(|(path, id)| Some((path.as_str(), self.files.get(*id).ok()?.source().as_str())))
    }

    /// Byte range of a position in its file, and of its line, when the
    /// file is known and the position lies inside it.
    fn span(&self, p: &Pos) -> Option<(usize, std::ops::Range<usize>, std::ops::Range<usize>)> {
        let id = *self.ids.get(&p.path)?;
        let text = self.files.get(id).ok()?.source();
        let starts = self.line_starts.get(id)?;
        let line_start = *starts.get((p.line as usize).checked_sub(1)?)?;
        let line_end = starts.get(p.line as usize).map_or(text.len(), |next| next - 1);
        let start = (line_start + p.col.saturating_sub(1) as usize).min(line_end);
        let mut end = (start + p.len as usize).min(line_end).max(start);
        // Keep the range on character boundaries.
        let start = floor_char_boundary(text, start);
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        Some((id, start..end, line_start..line_end))
    }

    /// Renders diagnostics as text (`color`: ANSI colors).
    pub fn render(&self, diags: &[Diagnostic], color: bool) -> String {
        let mut buf = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
        let config = term::Config::default();
        for d in diags {
            match d.pos.as_ref().and_then(|p| self.span(p).map(|s| (p, s))) {
                Some((_, (id, range, line))) if line.len() > LONG_LINE => {
                    let text = self.files.get(id).map(|f| f.source().as_str()).unwrap_or_default();
                    let name = self.files.get(id).map(|f| f.name().as_str()).unwrap_or_default();
                    let line_number = self.line_starts[id].partition_point(|&s| s <= line.start);
                    let (mut excerpt, label) = Excerpt::new(
                        name,
                        &text[line.clone()],
                        line_number,
                        range.start - line.start..range.end - line.start,
                    );
                    excerpt.ascii = self.ascii[id];
                    let cs = codespan_of(d).with_labels(vec![Label::primary((), label)]);
                    if term::emit(&mut buf, &config, &excerpt, &cs).is_err() {
                        buf_write(&mut buf, &d.to_string());
                    }
                }
                Some((_, (id, range, _))) => {
                    let cs = codespan_of(d).with_labels(vec![Label::primary(id, range)]);
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

/// The diagnostic for codespan, without its label.
fn codespan_of<F>(d: &Diagnostic) -> CsDiagnostic<F> {
    let cs = match d.severity {
        Severity::Error => CsDiagnostic::error(),
        Severity::Warning => CsDiagnostic::warning(),
        Severity::Note => CsDiagnostic::note(),
    };
    cs.with_message(&d.message).with_notes(d.notes.clone())
}

/// One long line cut to a window around a span, as a one-line file for
/// codespan: `...` marks a cut, and the line and column numbers are those
/// of the whole line (columns in characters, as codespan counts them).
struct Excerpt<'s> {
    name: &'s str,
    text: String,
    line_number: usize,
    /// The whole line, and where in it the window starts (bytes), and the
    /// length of the `...` before the window.
    line: &'s str,
    window_start: usize,
    prefix: usize,
    /// The line is ASCII: a column is its byte offset (counting characters
    /// up to each caret of a long line would take its length each time).
    ascii: bool,
}

impl<'s> Excerpt<'s> {
    /// The excerpt of `line` (line `line_number` of file `name`) around the
    /// byte range `span`, and the span's range in the excerpt.
    fn new(
        name: &'s str,
        line: &'s str,
        line_number: usize,
        span: std::ops::Range<usize>,
    ) -> (Excerpt<'s>, std::ops::Range<usize>) {
        let start = floor_char_boundary(line, span.start.saturating_sub(CONTEXT));
        let span_end = floor_char_boundary(line, span.end.min(span.start + CONTEXT));
        let end = floor_char_boundary(line, (span_end + CONTEXT).min(line.len()));
        let mut text = String::with_capacity(end - start + 6);
        if start > 0 {
            text.push_str("...");
        }
        let prefix = text.len();
        text.push_str(&line[start..end]);
        if end < line.len() {
            text.push_str("...");
        }
        let label = prefix + span.start - start..prefix + span_end.max(span.start) - start;
        (Excerpt { name, text, line_number, line, window_start: start, prefix, ascii: false }, label)
    }
}

impl<'a> codespan_reporting::files::Files<'a> for Excerpt<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, _: ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, _: (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(0)
    }

    fn line_number(&'a self, _: (), _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.line_number)
    }

    fn column_number(&'a self, _: (), _: usize, byte: usize) -> Result<usize, codespan_reporting::files::Error> {
        let in_line =
            floor_char_boundary(self.line, (self.window_start + byte.saturating_sub(self.prefix)).min(self.line.len()));
        Ok(if self.ascii { in_line } else { self.line[..in_line].chars().count() } + 1)
    }

    fn line_range(&'a self, _: (), line: usize) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        if line == 0 {
            Ok(0..self.text.len())
        } else {
            Err(codespan_reporting::files::Error::LineTooLarge { given: line, max: 0 })
        }
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

/// Names as CPython lists them in its errors (a call's missing
/// arguments): `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`. Compiled calls
/// and Python calls of exported functions report alike.
pub fn english_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
    }
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

    /// A diagnostic on a long line shows a window of it around the caret,
    /// with the line's own line and column, and `...` where it is cut.
    #[test]
    fn long_lines_are_cut_around_the_caret() {
        let names: Vec<String> = (0..2000).map(|i| format!("\"g{i}\"")).collect();
        let line = format!("__all__ = [{}]", names.join(", "));
        let col = line.find("\"g1000\"").unwrap() + 1;
        let mut sm = SourceMap::new();
        sm.add("m.py", &format!("x = 1\n{line}\ny = 2\n"));
        let d = Diagnostic::error("`__all__` names `g1000`", Some(Pos::new("m.py", 2, col as u32, 7)));
        let out = sm.render(&[d], false);
        assert!(out.contains(&format!("m.py:2:{col}")), "{out}");
        assert!(out.contains("...") && out.contains("\"g1000\""), "{out}");
        assert!(out.lines().all(|l| l.len() < 3 * CONTEXT + 20), "{out}");
        let shown = out.lines().find(|l| l.contains("\"g1000\"")).unwrap();
        let caret = out.lines().find(|l| l.contains('^')).unwrap();
        assert_eq!(caret.find('^'), shown.find("\"g1000\""), "{out}");
        assert_eq!(caret.matches('^').count(), 7, "{out}");
        // At the start of the line: cut on the right only.
        let d = Diagnostic::error("here", Some(Pos::new("m.py", 2, 1, 7)));
        let out = sm.render(&[d], false);
        assert!(out.contains("m.py:2:1") && out.contains("2 │ __all__ = [") && out.contains("...\n"), "{out}");
        // A span longer than the window is cut too.
        let d = Diagnostic::error("all of it", Some(Pos::new("m.py", 2, 1, line.len() as u32)));
        let out = sm.render(&[d], false);
        assert!(out.lines().all(|l| l.len() < 3 * CONTEXT + 20), "{out}");
        // Characters of several bytes are never split.
        let mut sm = SourceMap::new();
        sm.add("u.py", &format!("s = \"{}\" + y\n", "é".repeat(300)));
        let d = Diagnostic::error("undefined name `y`", Some(Pos::new("u.py", 1, 610, 1)));
        let out = sm.render(&[d], false);
        assert!(out.contains("u.py:1:310"), "{out}");
    }

    #[test]
    fn positions_outside_the_text_fall_back_to_one_line() {
        let sm = SourceMap::new();
        let d = Diagnostic::error("boom", Some(Pos::new("k.py", 12, 5, 1)));
        assert_eq!(sm.render(&[d], false), "k.py:12:5: error: boom\n");
    }
}
