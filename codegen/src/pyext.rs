//! The object that turns compiled code into a CPython extension module
//! (`postc-driver compile --emit pyext`, docs/aot.md): `PyInit_NAME`, which
//! hands `postc_pyext_init` (crate `postc-pyabi`, linked in as a static
//! library) a table of the module's name and docstring, its exports as
//! `postc_ir::exports` encodes them, the address of each export's code and
//! the runtime's panic, arena and thread-count entry points. The table's
//! layout is `postc_pyabi::pyext::ModuleTable`'s: eleven pointer-sized fields.
//!
//! The object is LLVM IR text compiled for the options' target, whichever
//! backend compiled the functions: it only declares data and one call.

use crate::{internal, CodegenOptions};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::targets::FileType;
use postc_ir::diag::Diagnostic;

/// What the table of an extension module holds.
pub struct ModuleGlue<'a> {
    /// The module's name: `PyInit_NAME` and what `import` names.
    pub name: &'a str,
    pub doc: Option<&'a str>,
    /// `Exports::encode` of what the module exposes.
    pub exports: &'a [u8],
    /// The symbol of each export's code, in the order of `exports`: each
    /// function's, then each ufunc's `NAME_loop`.
    pub code: &'a [String],
}

/// The runtime entry points the table passes, in the table's order.
const RUNTIME_ENTRY_POINTS: [&str; 6] = [
    "postc_rt_set_panic_handler",
    "postc_rt_arena_mark",
    "postc_rt_arena_release",
    "postc_rt_set_num_threads",
    "postc_rt_get_num_threads",
    "postc_rt_set_print_handler",
];

/// The symbol CPython looks for in the extension of module `name`.
pub fn init_symbol(name: &str) -> String {
    format!("PyInit_{name}")
}

/// `bytes` as an LLVM IR string constant's body (`c"..."`).
fn ir_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ' {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\{b:02X}"));
        }
    }
    s
}

/// A NUL-terminated constant named `name`.
fn c_string(name: &str, bytes: &[u8]) -> String {
    let mut z = bytes.to_vec();
    z.push(0);
    format!("@{name} = private unnamed_addr constant [{} x i8] c\"{}\"\n", z.len(), ir_bytes(&z))
}

/// The LLVM IR of the glue.
pub fn glue_ir(m: &ModuleGlue<'_>) -> String {
    let mut ir = String::new();
    ir.push_str(&c_string("postc_pyext_name", m.name.as_bytes()));
    let doc = match m.doc {
        Some(d) => {
            ir.push_str(&c_string("postc_pyext_doc", d.replace('\0', " ").as_bytes()));
            "ptr @postc_pyext_doc"
        }
        None => "ptr null",
    };
    ir.push_str(&format!(
        "@postc_pyext_exports = private unnamed_addr constant [{} x i8] c\"{}\"\n",
        m.exports.len(),
        ir_bytes(m.exports)
    ));
    let mut declared: Vec<&str> = Vec::new();
    for sym in m.code.iter().map(String::as_str).chain(RUNTIME_ENTRY_POINTS) {
        if !declared.contains(&sym) {
            declared.push(sym);
            ir.push_str(&format!("declare void @\"{}\"()\n", ir_bytes(sym.as_bytes())));
        }
    }
    let code: Vec<String> = m.code.iter().map(|s| format!("ptr @\"{}\"", ir_bytes(s.as_bytes()))).collect();
    ir.push_str(&format!("@postc_pyext_code = private constant [{} x ptr] [{}]\n", code.len(), code.join(", ")));
    let runtime: Vec<String> = RUNTIME_ENTRY_POINTS.iter().map(|s| format!("ptr @{s}")).collect();
    ir.push_str(&format!(
        "@postc_pyext_table = private constant {{ ptr, ptr, ptr, i64, ptr, i64, ptr, ptr, ptr, ptr, ptr, ptr }} \
         {{ ptr @postc_pyext_name, {doc}, ptr @postc_pyext_exports, i64 {}, ptr @postc_pyext_code, i64 {}, {} }}\n",
        m.exports.len(),
        code.len(),
        runtime.join(", ")
    ));
    ir.push_str("declare ptr @postc_pyext_init(ptr)\n");
    ir.push_str(&format!(
        "define ptr @\"{}\"() {{\n  %m = call ptr @postc_pyext_init(ptr @postc_pyext_table)\n  ret ptr %m\n}}\n",
        ir_bytes(init_symbol(m.name).as_bytes())
    ));
    ir
}

/// The glue's object, for the target of `options`.
pub fn glue_object(m: &ModuleGlue<'_>, options: &CodegenOptions) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let text = glue_ir(m);
    crate::llvm::with_target_machine(options, |tm| {
        let cx = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "pyext");
        let module = cx.create_module_from_ir(buf).map_err(|e| internal(format!("the extension's glue: {e}")))?;
        module.set_triple(&tm.get_triple());
        module.set_data_layout(&tm.get_target_data().get_data_layout());
        module.verify().map_err(|e| internal(format!("the extension's glue: {e}")))?;
        Ok(tm
            .write_to_memory_buffer(&module, FileType::Object)
            .map_err(|e| internal(e.to_string()))?
            .as_slice()
            .to_vec())
    })
}
