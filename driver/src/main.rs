//! `postc-driver`: the postc command line (the library's
//! [`postc_driver::main_with_args`] with the process's arguments).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(postc_driver::main_with_args(std::env::args_os()))
}
