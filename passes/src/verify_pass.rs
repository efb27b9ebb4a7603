//! `verify`: checks the module; a broken module stops the pipeline with the
//! verifier's diagnostics.

use crate::analysis::AnalysisSet;
use crate::{ModulePass, PassInfo, PassOptions, Scope};
use postc_ir::diag::Diagnostic;
use postc_ir::Module;

pub struct Verify;

pub static INFO: PassInfo = PassInfo {
    name: "verify",
    description: "check the module and stop the pipeline if it is malformed",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::ALL,
};

impl ModulePass for Verify {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, module: &mut Module, _: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        let errors = postc_ir::verify::verify_module(module);
        if errors.is_empty() {
            Ok(false)
        } else {
            Err(errors)
        }
    }
}
