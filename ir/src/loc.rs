//! Source locations: a four-byte column per instruction.
//!
//! Most locations sit in one file per function, below line 2^21 and column
//! 2^9, and pack into the `u32` itself. The rest go to a small side table of
//! the function. A location is *implicit* when it is only the instruction's
//! own position in the `.pir` text it was parsed from: diagnostics use it,
//! but the printer omits it and module equality ignores it.

use crate::entity_id;
use indexmap::IndexSet;

entity_id! {
    /// A file of a module's file table.
    pub struct FileId, "file";
}

/// A full location.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SrcLoc {
    pub file: FileId,
    /// 1-based.
    pub line: u32,
    /// 1-based.
    pub col: u32,
    /// Only the instruction's own position in the `.pir` file.
    pub implicit: bool,
}

/// A packed location handle (see the module docs). `Loc::NONE` is no location.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Loc(pub(crate) u32);

const FAR: u32 = 1 << 31;
const IMPLICIT: u32 = 1 << 30;
const LINE_BITS: u32 = 21;
const COL_BITS: u32 = 9;
const COL_MASK: u32 = (1 << COL_BITS) - 1;
const LINE_MASK: u32 = (1 << LINE_BITS) - 1;

impl Loc {
    pub const NONE: Loc = Loc(0);

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Packs a location when it fits the inline form.
    pub(crate) fn inline(line: u32, col: u32, implicit: bool) -> Option<Loc> {
        if line == 0 || line > LINE_MASK || col > COL_MASK {
            return None;
        }
        let mut raw = (line << COL_BITS) | col;
        if implicit {
            raw |= IMPLICIT;
        }
        Some(Loc(raw))
    }

    pub(crate) fn far(index: usize) -> Option<Loc> {
        u32::try_from(index).ok().filter(|i| *i < FAR).map(|i| Loc(FAR | i))
    }

    /// `Inline(line, col, implicit)` or `Far(index)`.
    pub(crate) fn unpack(self) -> Option<Unpacked> {
        if self.0 == 0 {
            None
        } else if self.0 & FAR != 0 {
            Some(Unpacked::Far((self.0 & !FAR) as usize))
        } else {
            Some(Unpacked::Inline {
                line: (self.0 >> COL_BITS) & LINE_MASK,
                col: self.0 & COL_MASK,
                implicit: self.0 & IMPLICIT != 0,
            })
        }
    }
}

pub(crate) enum Unpacked {
    Inline { line: u32, col: u32, implicit: bool },
    Far(usize),
}

/// The files a module's locations name.
#[derive(Clone, Debug, Default)]
pub struct FileTable {
    files: IndexSet<String>,
}

impl FileTable {
    pub fn intern(&mut self, path: &str) -> FileId {
        if let Some(i) = self.files.get_index_of(path) {
            return FileId::from_u32(i as u32);
        }
        let (i, _) = self.files.insert_full(path.to_owned());
        FileId::from_u32(i as u32)
    }
    pub fn path(&self, id: FileId) -> &str {
        self.files.get_index(id.as_u32() as usize).map(String::as_str).unwrap_or("<unknown>")
    }
    pub fn lookup(&self, path: &str) -> Option<FileId> {
        self.files.get_index_of(path).map(|i| FileId::from_u32(i as u32))
    }
    pub fn len(&self) -> usize {
        self.files.len()
    }
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_packing_round_trips() {
        let l = Loc::inline(2_000_000, 511, true).unwrap();
        match l.unpack() {
            Some(Unpacked::Inline { line, col, implicit }) => {
                assert_eq!((line, col, implicit), (2_000_000, 511, true))
            }
            _ => panic!("expected inline"),
        }
        assert!(Loc::inline(1 << 21, 1, false).is_none());
        assert!(Loc::inline(5, 512, false).is_none());
        assert!(Loc::inline(0, 1, false).is_none());
        assert!(matches!(Loc::far(7).unwrap().unpack(), Some(Unpacked::Far(7))));
        assert_eq!(std::mem::size_of::<Loc>(), 4);
    }
}
