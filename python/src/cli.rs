//! `python -m postc`: the `postc-driver` command line in-process. The
//! driver's own argument parsing and commands run (`postc_driver`'s
//! library), writing to the process's standard output and error; the exit
//! status is the driver's.

use pyo3::prelude::*;
use std::ffi::OsString;

/// Runs the command line `args` (the program name first, as in `sys.argv`)
/// with the GIL released and returns its exit status.
#[pyfunction]
pub(crate) fn run_cli(py: Python<'_>, args: Vec<OsString>) -> u8 {
    py.detach(|| postc_driver::main_with_args(args))
}
