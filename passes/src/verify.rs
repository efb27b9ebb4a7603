//! `verify`: checks the whole module with the IR verifier and stops the
//! pipeline with its diagnostics when anything is wrong. It never changes
//! the module.

use crate::analysis::AnalysisSet;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::diag::Diagnostic;
use postc_ir::Module;

pub struct Verify;

pub static INFO: PassInfo = PassInfo {
    name: "verify",
    description: "check the module with the IR verifier; stop with its diagnostics on an error",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::ALL,
};

impl ModulePass for Verify {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, m: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        let errors = postc_ir::verify::verify_module(m);
        if errors.is_empty() {
            Ok(false)
        } else {
            Err(errors)
        }
    }
}
