//! postc-codegen: IR to LLVM through inkwell.

mod ufunc;

#[cfg(test)]
mod tests {
    use inkwell::context::Context;
    use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine};
    use inkwell::OptimizationLevel;

    #[test]
    fn llvm_emits_an_object() {
        Target::initialize_native(&InitializationConfig::default()).unwrap();
        let cx = Context::create();
        let m = cx.create_module("smoke");
        let i64t = cx.i64_type();
        let f = m.add_function("add", i64t.fn_type(&[i64t.into(), i64t.into()], false), None);
        let b = cx.create_builder();
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let s = b
            .build_int_add(f.get_nth_param(0).unwrap().into_int_value(), f.get_nth_param(1).unwrap().into_int_value(), "s")
            .unwrap();
        b.build_return(Some(&s)).unwrap();
        let triple = TargetMachine::get_default_triple();
        let t = Target::from_triple(&triple).unwrap();
        let tm = t
            .create_target_machine(&triple, "generic", "", OptimizationLevel::Default, RelocMode::PIC, CodeModel::Default)
            .unwrap();
        let obj = tm.write_to_memory_buffer(&m, FileType::Object).unwrap();
        assert!(obj.as_slice().len() > 100);
    }
}
