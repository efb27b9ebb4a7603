//! postc-testkit: what the tests of every crate share when they run the
//! corpora of test programs (`tests/programs/`, `tests/py/`): the
//! `.expected` case format, loading the programs, running a case in the
//! reference interpreter, and comparing results exactly or within a case's
//! tolerance.

pub mod cases;
pub mod compare;
pub mod corpus;
pub mod run;
