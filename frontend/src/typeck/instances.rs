//! The instances of generic functions that a body's calls ask for (see
//! `generics`), found by the sweep where it types each call: the rounds
//! that declare the module's instances read them rather than lowering
//! every body. An instance is asked for as the lowering's `instance_of`
//! would ask for it: its arrays writable unless the caller's argument is
//! an input array or a module-level array (or a view of one), once no
//! instance of that exact signature is made, and while the function has
//! fewer than `generics::MAX_INSTANCES`.

use super::*;

impl Solver<'_> {
    /// Records that a call names the generic function `g` (for the rounds
    /// that find the functions no call names), where the sweep records
    /// the instances asked for (it knows which arrays are read-only).
    pub(super) fn note_generic_call(&self, g: usize) {
        if self.env.read_only.is_some() {
            self.env.generics.instances.borrow_mut().called(g);
        }
    }

    /// Asks for the instance of the generic function `g` that a call
    /// binding `given` (indices into `written`) names, when none of its
    /// exact signature is made.
    pub(super) fn request_instance(
        &self,
        g: usize,
        tys: &[Option<Option<Ty>>],
        given: &[Option<usize>],
        written: &[ExprId],
    ) {
        let Some(read_only) = self.env.read_only else { return };
        let body = self.body;
        let writable: Vec<bool> = (given.iter())
            .map(|b| {
                b.is_some_and(|w| {
                    !read_only.reads_input_memory(body, written[w]) && !read_only.reads_constant(body, written[w])
                })
            })
            .collect();
        let generic = &self.env.generics.decls[g];
        let Ok(sig) = crate::generics::instance_params(generic, tys, &writable, self.env.types) else { return };
        let mut instances = self.env.generics.instances.borrow_mut();
        if instances.find(g, &sig, true).is_none() && instances.count(g) < crate::generics::MAX_INSTANCES {
            instances.request(g, sig);
        }
    }
}
