//! postc-passes: the pass manager and every IR-to-IR pass.

pub mod rewrite;
