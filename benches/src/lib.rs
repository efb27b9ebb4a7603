//! Generators of large modules for the benches.
