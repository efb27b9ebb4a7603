//! postc-passes: the pass manager and every IR-to-IR pass (filled by the pass-manager work).
