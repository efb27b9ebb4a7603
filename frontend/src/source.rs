//! Byte offsets of the parsed source to lines and columns, and the
//! located diagnostics and IR locations made from them.

use postc_ir::{Diagnostic, FileId, Pos, SrcLoc};
use ruff_text_size::{Ranged, TextRange};

/// One source file: its path as shown in diagnostics and where each line
/// starts.
pub(crate) struct SourceFile {
    pub path: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(path: &str, text: &str) -> SourceFile {
        let mut line_starts = vec![0u32];
        line_starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i as u32 + 1));
        SourceFile { path: path.to_owned(), line_starts }
    }

    /// 1-based line and byte column of an offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        (line as u32, offset - self.line_starts[line - 1] + 1)
    }

    pub fn pos(&self, range: TextRange) -> Pos {
        let (line, col) = self.line_col(range.start().to_u32());
        Pos::new(&self.path, line, col, range.len().to_u32())
    }

    pub fn error(&self, at: &impl Ranged, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(message, Some(self.pos(at.range())))
    }

    pub fn loc(&self, file: FileId, at: &impl Ranged) -> SrcLoc {
        let (line, col) = self.line_col(at.range().start().to_u32());
        SrcLoc { file, line, col, implicit: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_one_based_lines_and_columns() {
        let f = SourceFile::new("a.py", "x = 1\n\ny = 22\n");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(4), (1, 5));
        assert_eq!(f.line_col(6), (2, 1));
        assert_eq!(f.line_col(7), (3, 1));
        assert_eq!(f.line_col(11), (3, 5));
    }
}
